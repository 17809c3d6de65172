/*
** game.c -- the flow of Cardcassonne (rules §2-§3) and the module table.
**
** setup: 10 reveals (a joker waits for the dealer's row) -> per round: the
** deal (chance, one card at a time from left of the dealer) -> turns (play a
** card or place the big follower, clockwise, hand + 1 turns each) -> round
** scoring (scoring.c, with the owners' ten/keep and assign decisions) ->
** next round dealt by whoever placed the follower last -> after the last
** round, the building sets.  apply() says why an action is illegal before
** it changes anything.
*/
#include "cardcassonne.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const tf_param cc_params[] = {
    {"players", TF_PARAM_INT, 2, 5, 2, NULL, "number of players"},
    {"dealer", TF_PARAM_INT, 0, 4, 0, NULL, "seat of the first dealer"},
};
enum { P_PLAYERS, P_DEALER };

static int cc_validate(const tf_options *opt, tafel_error *err) {
    if (opt->value[P_DEALER] >= opt->value[P_PLAYERS])
        return tf_error(err, TAFEL_EPARAM, "dealer must be a seat, 0..%d",
                        opt->value[P_PLAYERS] - 1);
    return TAFEL_OK;
}

static void cc_init(void *data, const tf_options *opt) {
    cc_state *s = data;
    memset(s, 0, sizeof *s);
    s->players = (uint8_t)opt->value[P_PLAYERS];
    s->rounds = cc_rounds[s->players];
    s->hand_size = cc_hand_size[s->players];
    s->dealer = s->last_follower = s->first_dealer = (uint8_t)opt->value[P_DEALER];
    s->phase = CC_PH_REVEAL;
    s->actor = TAFEL_CHANCE;
    s->setup_joker = CC_NONE;
    for (int t = 0; t < CC_TYPES; t++) {
        s->pile[t] = cc_cards[t].count;
        s->pile_total = (uint8_t)(s->pile_total + cc_cards[t].count);
    }
    cc_pile_upto(s->pile, s->pile_upto);
    memset(s->follower_row, CC_NONE, sizeof s->follower_row);
    memset(s->last_row, CC_NONE, sizeof s->last_row);
}

/* Who acts, by phase.  cc_current runs two or three times per action, so
** it returns the stored actor, which every change of phase or turn sets;
** this derivation is for the rarer changes and for cc_check. */
enum { BY_TURN = 100, BY_DEALER };
static const int8_t actor_of_phase[] = {
    [CC_PH_REVEAL] = TAFEL_CHANCE, [CC_PH_ROW] = BY_DEALER, [CC_PH_DEAL] = TAFEL_CHANCE,
    [CC_PH_PLAY] = BY_TURN,        [CC_PH_WRONG] = BY_TURN, [CC_PH_ASSIGN] = BY_TURN,
    [CC_PH_OVER] = TAFEL_TERMINAL,
};

int cc_actor_of(const cc_state *s) {
    int who = actor_of_phase[s->phase];
    who = who == BY_TURN ? s->turn : who;
    return who == BY_DEALER ? s->dealer : who;
}

int cc_current(const void *data) {
    const cc_state *s = data;
    return s->actor;
}

void cc_hand_add(cc_state *s, int seat, int type, int n) {
    s->hand[seat][type] = (uint8_t)(s->hand[seat][type] + n);
    s->hand_count[seat] = (uint8_t)(s->hand_count[seat] + n);
    /* without a branch: whether the last card of a type went is random */
    s->hand_mask[seat] = (s->hand_mask[seat] & ~(1u << type)) |
                         (uint32_t)(s->hand[seat][type] != 0) << type;
}

int cc_chest_count(const cc_state *s, int seat) {
    int n = s->taken[seat][CC_HJ_TYPE];
    for (int c = 0; c < CC_COLOURS; c++)
        n += s->taken[seat][c * CC_PER_COLOUR + 4];
    return n;
}

/* A card into a row, counted in the row's open stretch (wrong: see
** cc_stretch_add). */
static void row_push(cc_state *s, int row, uint8_t entry, int wrong) {
    s->row[row][s->row_len[row]++] = entry;
    cc_stretch_add(&s->open[row], CC_ENTRY_TYPE(entry), wrong);
}

/* ---- legal actions ---------------------------------------------------- */

/* Four consecutive actions, written with one vector store. */
typedef tafel_action cc_four __attribute__((vector_size(4 * sizeof(tafel_action))));

/* The plays of a card type: 4 actions (every row) when it may go into any
** row (face down, or a joker), else its own row only: by face down and
** type, the four actions from the first play on and how many of them are
** plays.  Type 24 is no card (see legal_play_fast): no plays. */
#define PLAYS_ANY(t) (CC_A_PLAY + (t) * CC_COLOURS)
#define PLAYS_OWN(t) (PLAYS_ANY(t) + (t) / CC_PER_COLOUR)
#define FOUR(a) {(a), (a) + 1, (a) + 2, (a) + 3}
#define OWN5(c) FOUR(PLAYS_OWN(5 * (c))), FOUR(PLAYS_OWN(5 * (c) + 1)), \
    FOUR(PLAYS_OWN(5 * (c) + 2)), FOUR(PLAYS_OWN(5 * (c) + 3)), FOUR(PLAYS_OWN(5 * (c) + 4))
#define ANY5(c) FOUR(PLAYS_ANY(5 * (c))), FOUR(PLAYS_ANY(5 * (c) + 1)), \
    FOUR(PLAYS_ANY(5 * (c) + 2)), FOUR(PLAYS_ANY(5 * (c) + 3)), FOUR(PLAYS_ANY(5 * (c) + 4))
#define JOKERS FOUR(PLAYS_ANY(20)), FOUR(PLAYS_ANY(21)), FOUR(PLAYS_ANY(22)), \
    FOUR(PLAYS_ANY(23)), {0}
static const cc_four play_list[2][CC_TYPES + 1] = {
    {OWN5(0), OWN5(1), OWN5(2), OWN5(3), JOKERS},
    {ANY5(0), ANY5(1), ANY5(2), ANY5(3), JOKERS},
};
static const uint8_t play_width[2][CC_TYPES + 1] = {
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 4, 4, 0},
    {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0},
};

/* The room legal_play_fast needs: the longest list (6 types face down and
** the follower, 28) and the 3 entries it may write past the end. */
#define CC_FAST_CAP 32

/* legal_play without a branch per card type: every type writes 4 actions
** and keeps as many as it has; what it writes past them is overwritten or
** past the end.  The kinds of cards in a random hand defeat prediction, and
** so would a loop over the types held (1 to 6 of them, at random): the loop
** runs hand_size times, the most types a hand can hold (cc_check), the same
** count all game, and once the types run out it meets the bit past them,
** type 24, which has no plays. */
static int legal_play_fast(const cc_state *s, tafel_action *out) {
    unsigned p = s->turn, face_down = s->played[p] == 0;
    const cc_four *list = play_list[face_down];
    const uint8_t *width = play_width[face_down];
    uint64_t m = s->hand_mask[p];
    tafel_action *end = out;
    for (unsigned i = s->hand_size; i > 0; i--, m &= m - 1) {
        size_t t = (size_t)__builtin_ctzll(m | 1ull << CC_TYPES);
        memcpy(end, &list[t], sizeof list[t]);
        end += width[t];
    }
    cc_four followers = {CC_A_FOLLOWER, CC_A_FOLLOWER + 1, CC_A_FOLLOWER + 2, CC_A_FOLLOWER + 3};
    memcpy(end, &followers, sizeof followers);
    return (int)(end - out) + (s->follower_row[p] == CC_NONE) * CC_COLOURS;
}

/* The plays, for a list shorter than CC_FAST_CAP. */
static int legal_play(const cc_state *s, tafel_action *out, int cap) {
    int p = s->turn, n = 0;
    if (s->hand_count[p]) {
        int face_down = s->played[p] == 0;
        for (uint32_t m = s->hand_mask[p]; m; m &= m - 1) {
            int t = __builtin_ctz(m);
            int colour = cc_cards[t].colour;
            if (face_down || colour < 0) {
                for (int r = 0; r < CC_COLOURS; r++) {
                    if (n < cap) out[n] = CC_A_PLAY + t * CC_COLOURS + r;
                    n++;
                }
            } else {
                if (n < cap) out[n] = CC_A_PLAY + t * CC_COLOURS + colour;
                n++;
            }
        }
    }
    if (s->follower_row[p] == CC_NONE)
        for (int r = 0; r < CC_COLOURS; r++) {
            if (n < cap) out[n] = CC_A_FOLLOWER + r;
            n++;
        }
    return n;
}

/* ---- chance ----------------------------------------------------------- */

static int cc_chance(const void *data, tafel_action *out, double *prob, int cap) {
    const cc_state *s = data;
    if (s->phase != CC_PH_REVEAL && s->phase != CC_PH_DEAL) return 0;
    tafel_action base = s->phase == CC_PH_REVEAL ? CC_A_REVEAL : CC_A_DEAL;
    int n = 0;
    for (int t = 0; t < CC_TYPES; t++) {
        if (!s->pile[t]) continue;
        if (n < cap) {
            out[n] = base + t;
            if (prob) prob[n] = (double)s->pile[t] / s->pile_total;
        }
        n++;
    }
    return n;
}

static int list_range(tafel_action first, int count, tafel_action *out, int cap) {
    for (int i = 0; i < count && i < cap; i++) out[i] = first + i;
    return count;
}

static int legal_assign(const cc_state *s, tafel_action *out, int cap) {
    int n = 0;
    for (int k = 0; k < CC_KINDS; k++)
        if (cc_holds_kind(s, s->turn, k)) {
            if (n < cap) out[n] = CC_A_ASSIGN + k;
            n++;
        }
    return n;
}

/* The lists other than a play's with room to spare: out of line, so that
** the common case saves no registers for them. */
static __attribute__((noinline)) int legal_other(const cc_state *s, tafel_action *out,
                                                 int cap) {
    switch (s->phase) {
    case CC_PH_PLAY: return legal_play(s, out, cap);
    case CC_PH_ROW: return list_range(CC_A_ROW, CC_COLOURS, out, cap);
    case CC_PH_WRONG: return list_range(CC_A_TEN, 2, out, cap);
    case CC_PH_ASSIGN: return legal_assign(s, out, cap);
    case CC_PH_REVEAL:
    case CC_PH_DEAL: return cc_chance(s, out, NULL, cap);
    default: return 0;
    }
}

static int cc_legal(const void *data, tafel_action *out, int cap) {
    const cc_state *s = data;
    if (s->phase == CC_PH_PLAY && cap >= CC_FAST_CAP) /* nearly every call */
        return legal_play_fast(s, out);
    return legal_other(s, out, cap);
}

/* Sixteen of pile_upto's running counts, and the same as two words. */
typedef uint8_t cc_v16 __attribute__((vector_size(16)));
typedef uint64_t cc_v2x64 __attribute__((vector_size(16)));

/* The type of the r-th card of the pile (0-based): the number of types
** whose running count is <= r, without branches (random draws defeat the
** branch predictor, and a deal is a third of all actions).  Each compare
** gives 0 or 1 per lane; the lanes' sum comes from adding the two halves
** and then every byte of the word with one multiply (sums stay < 256). */
static int pile_type(const cc_state *s, int r) {
    cc_v16 lo, hi, at = (cc_v16){0} + (uint8_t)r;
    memcpy(&lo, s->pile_upto, sizeof lo);
    memcpy(&hi, s->pile_upto + 16, sizeof hi);
    cc_v2x64 ones = (cc_v2x64)((cc_v16)(lo <= at) & 1) + (cc_v2x64)((cc_v16)(hi <= at) & 1);
    return (int)(((ones[0] + ones[1]) * 0x0101010101010101ull) >> 56);
}

static tafel_action cc_sample(const void *data, uint64_t *rng) {
    const cc_state *s = data;
    if (s->phase != CC_PH_REVEAL && s->phase != CC_PH_DEAL) return -1;
    int t = pile_type(s, (int)tafel_rng_below(rng, s->pile_total));
    return (s->phase == CC_PH_REVEAL ? CC_A_REVEAL : CC_A_DEAL) + t;
}

/* ---- apply ------------------------------------------------------------ */

void cc_start_round(cc_state *s) {
    s->phase = CC_PH_DEAL;
    s->actor = TAFEL_CHANCE;
    s->dealt = 0;
    s->deal_to = (uint8_t)cc_next_seat(s, s->dealer);
    memset(s->played, 0, sizeof s->played);
    memset(s->follower_row, CC_NONE, sizeof s->follower_row);
}

static __attribute__((cold, noinline)) int refuse_draw(int t, const char *what,
                                                      tafel_error *err) {
    return tf_error(err, TAFEL_EILLEGAL, "cannot %s %s: no %s is left in the pile", what,
                    cc_cards[t].name, cc_cards[t].name);
}

/* A card of type t leaves the pile (the caller has checked there is one). */
static void draw(cc_state *s, int t) {
    /* lane + 1: a type's count and those after it drop, not the lanes past
    ** the types (0 here, never above t); signed lanes compare in one step */
    typedef int8_t cc_s16 __attribute__((vector_size(16)));
    static const cc_s16 lo_from = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
                        hi_from = {17, 18, 19, 20, 21, 22, 23, 24};
    cc_v16 lo, hi;
    cc_s16 type = (cc_s16){0} + (int8_t)t;
    memcpy(&lo, s->pile_upto, sizeof lo);
    memcpy(&hi, s->pile_upto + 16, sizeof hi);
    lo += (cc_v16)(type < lo_from); /* true is -1: one card less */
    hi += (cc_v16)(type < hi_from);
    memcpy(s->pile_upto, &lo, sizeof lo);
    memcpy(s->pile_upto + 16, &hi, sizeof hi);
    s->pile[t]--;
    s->pile_total--;
}

static int apply_reveal(cc_state *s, int t, tafel_error *err) {
    if (!s->pile[t]) return refuse_draw(t, "reveal", err);
    draw(s, t);
    s->revealed++;
    if (cc_cards[t].colour < 0) {
        s->setup_joker = (uint8_t)t;
        s->phase = CC_PH_ROW;
        s->actor = (int8_t)s->dealer;
        return TAFEL_OK;
    }
    row_push(s, cc_cards[t].colour, (uint8_t)t, 0);
    if (s->revealed == CC_SETUP_CARDS) cc_start_round(s);
    return TAFEL_OK;
}

static void apply_row(cc_state *s, int row) {
    row_push(s, row, s->setup_joker, 0);
    s->setup_joker = CC_NONE;
    s->phase = CC_PH_REVEAL;
    s->actor = TAFEL_CHANCE;
    if (s->revealed == CC_SETUP_CARDS) cc_start_round(s);
}

static int apply_deal(cc_state *s, int t, tafel_error *err) {
    if (!s->pile[t]) return refuse_draw(t, "deal", err);
    draw(s, t);
    int p = s->deal_to; /* cc_hand_add(s, p, t, 1), knowing the type is now held */
    s->hand[p][t]++;
    s->hand_count[p]++;
    s->hand_mask[p] |= 1u << t;
    s->deal_to = (uint8_t)cc_next_seat(s, s->deal_to);
    if (++s->dealt == s->hand_size * s->players) {
        s->phase = CC_PH_PLAY;
        s->turn = (uint8_t)cc_next_seat(s, s->dealer);
        s->actor = (int8_t)s->turn;
    }
    return TAFEL_OK;
}

/* Round scoring from the end of a turn, as a call that returns the turn's
** result: the turn ends in a jump here and saves no registers for it. */
static __attribute__((noinline)) int start_scoring(cc_state *s) {
    cc_start_scoring(s, NULL);
    return TAFEL_OK;
}

/* After p's turn: the next player, or round scoring when everyone is done. */
static int next_turn(cc_state *s, int p) {
    int next = cc_next_seat(s, p);
    s->turn = (uint8_t)next;
    s->actor = (int8_t)next;
    if (__builtin_expect(s->hand_count[next] == 0 && s->follower_row[next] != CC_NONE, 0))
        return start_scoring(s);
    return TAFEL_OK;
}

/* Why a play is refused; kept out of the hot path. */
static __attribute__((cold, noinline)) int refuse_play(const cc_state *s, int t, int row,
                                                      tafel_error *err) {
    int p = s->turn;
    const cc_card *c = &cc_cards[t];
    if (!s->hand_count[p])
        return tf_error(err, TAFEL_EILLEGAL, "your hand is empty: place your big follower");
    if (!s->hand[p][t])
        return tf_error(err, TAFEL_EILLEGAL, "you have no %s in your hand", c->name);
    return tf_error(err, TAFEL_EILLEGAL,
                    "%s goes face up into the %s row (%s), not %s: only your "
                    "first card of a round goes face down into any row",
                    c->name, cc_row_titles[c->colour], cc_row_names[c->colour],
                    cc_row_names[row]);
}

static int apply_play(cc_state *s, int t, int row, tafel_error *err) {
    int p = s->turn, misplaced = cc_misplaced(t, row);
    int played = s->played[p], face_down = played == 0, held = s->hand[p][t];
    if ((held == 0) | ((face_down == 0) & misplaced)) return refuse_play(s, t, row, err);
    /* cc_hand_add(s, p, t, -1), knowing the type was held */
    s->hand[p][t] = (uint8_t)(held - 1);
    s->hand_count[p]--;
    s->hand_mask[p] ^= (uint32_t)(held == 1) << t;
    s->played[p] = (uint8_t)(played + 1);
    s->last_row[p] = (uint8_t)row;
    s->last_at[p] = s->row_len[row];
    /* the owner's mark when face down, by a mask: a random sixth of the
    ** plays are a seat's first, and a branch on it mispredicts */
    s->row[row][s->row_len[row]++] = (uint8_t)(t | ((p + 1) << 5 & -face_down));
    cc_stretch_add(&s->open[row], t, face_down & misplaced);
    return next_turn(s, p);
}

static __attribute__((cold, noinline)) int refuse_follower(const cc_state *s,
                                                          tafel_error *err) {
    return tf_error(err, TAFEL_EILLEGAL,
                    "your big follower already stands in the %s row this round",
                    cc_row_names[s->follower_row[s->turn]]);
}

static int apply_follower(cc_state *s, int row, tafel_error *err) {
    int p = s->turn;
    if (s->follower_row[p] != CC_NONE) return refuse_follower(s, err);
    s->follower_row[p] = (uint8_t)row;
    s->follower_at[p] = s->row_len[row];
    s->follower_from[p] = s->row_secured[row];
    s->row_secured[row] = (uint8_t)(s->row_len[row] + 1);
    s->last_follower = (uint8_t)p;
    s->last_row[p] = (uint8_t)row;
    s->last_at[p] = s->row_len[row];
    s->row[row][s->row_len[row]++] = (uint8_t)(CC_FOLLOWER + p);
    s->secured[p] = s->open[row]; /* the open stretch is now p's */
    memset(&s->open[row], 0, sizeof s->open[row]);
    return next_turn(s, p);
}

static const char *const phase_needs[] = {
    [CC_PH_REVEAL] = "a setup card to be turned up (reveal)",
    [CC_PH_ROW] = "the dealer to choose a row for the joker (row)",
    [CC_PH_DEAL] = "a card to be dealt (deal)",
    [CC_PH_PLAY] = "a card to be played or the big follower placed",
    [CC_PH_WRONG] = "ten or keep for a wrongly placed card",
    [CC_PH_ASSIGN] = "an animal joker to be assigned (assign)",
    [CC_PH_OVER] = "nothing: the game is over",
};

/* Why the phase takes no such action; out of the hot path. */
static __attribute__((cold, noinline)) int refuse_action(const cc_state *s, tafel_action a,
                                                        tafel_error *err) {
    if (s->phase == CC_PH_OVER) return tf_error(err, TAFEL_EILLEGAL, "the game is over");
    if (a < 0 || a >= CC_ACTIONS)
        return tf_error(err, TAFEL_EILLEGAL, "%d is not a Cardcassonne action", a);
    return tf_error(err, TAFEL_EILLEGAL, "not now: the game waits for %s",
                    phase_needs[s->phase]);
}

static __attribute__((cold, noinline)) int refuse_assign(const cc_state *s, tafel_action a,
                                                        tafel_error *err) {
    char held[64] = "";
    for (int k = 0; k < CC_KINDS; k++)
        if (cc_holds_kind(s, s->turn, k)) {
            size_t u = strlen(held);
            snprintf(held + u, sizeof held - u, "%s%s", u ? ", " : "", cc_kind_names[k]);
        }
    const char *kind = cc_kind_names[a - CC_A_ASSIGN];
    return tf_error(err, TAFEL_EILLEGAL,
                    "an animal joker joins a kind you hold, and you hold no %s card "
                    "(you hold: %s)", kind, held);
}

/* apply() by phase: one function each for the deals and the plays, nine in
** ten actions, so that apply() itself is a jump without a stack frame and
** each keeps only the registers it needs. */
static __attribute__((noinline)) int apply_in_deal(cc_state *s, tafel_action a,
                                                   tafel_error *err) {
    if (((unsigned)a - CC_A_DEAL) < CC_TYPES) return apply_deal(s, a - CC_A_DEAL, err);
    return refuse_action(s, a, err);
}

static __attribute__((noinline)) int apply_in_play(cc_state *s, tafel_action a,
                                                   tafel_error *err) {
    unsigned play = ((unsigned)a - CC_A_PLAY), row = ((unsigned)a - CC_A_FOLLOWER);
    if (play < CC_TYPES * CC_COLOURS)
        return apply_play(s, (int)play / CC_COLOURS, (int)play % CC_COLOURS, err);
    if (row < CC_COLOURS) return apply_follower(s, (int)row, err);
    return refuse_action(s, a, err);
}

static __attribute__((noinline)) int apply_in_other(cc_state *s, tafel_action a,
                                                    tafel_error *err) {
    switch (s->phase) {
    case CC_PH_REVEAL:
        if (((unsigned)a - CC_A_REVEAL) < CC_TYPES)
            return apply_reveal(s, a - CC_A_REVEAL, err);
        break;
    case CC_PH_ROW:
        if (((unsigned)a - CC_A_ROW) < CC_COLOURS) {
            apply_row(s, a - CC_A_ROW);
            return TAFEL_OK;
        }
        break;
    case CC_PH_WRONG:
        if (a == CC_A_TEN || a == CC_A_KEEP) {
            cc_ten_or_keep(s, a == CC_A_KEEP, NULL);
            return TAFEL_OK;
        }
        break;
    case CC_PH_ASSIGN:
        if (((unsigned)a - CC_A_ASSIGN) < CC_KINDS) {
            if (!cc_holds_kind(s, s->turn, a - CC_A_ASSIGN)) return refuse_assign(s, a, err);
            cc_assign(s, a - CC_A_ASSIGN, NULL);
            return TAFEL_OK;
        }
        break;
    }
    return refuse_action(s, a, err);
}

int cc_apply(void *data, tafel_action a, tafel_error *err) {
    cc_state *s = data;
    if (s->phase == CC_PH_DEAL) return apply_in_deal(s, a, err);
    if (s->phase == CC_PH_PLAY) return apply_in_play(s, a, err);
    return apply_in_other(s, a, err);
}

static void cc_scores(const void *data, double *out) {
    const cc_state *s = data;
    for (int p = 0; p < s->players; p++) out[p] = s->score[p];
}

const tf_module cc_module = {
    .name = "cardcassonne",
    .summary = "Cardcassonne, the Carcassonne card game (2009)",
    .params = cc_params,
    .nparams = (int)(sizeof cc_params / sizeof cc_params[0]),
    .data_size = sizeof(cc_state),
    .max_actions = CC_ACTIONS,
    .validate = cc_validate,
    .init = cc_init,
    .current = cc_current,
    .current_byte = offsetof(cc_state, actor),
    .legal = cc_legal,
    .chance = cc_chance,
    .sample = cc_sample,
    .apply = cc_apply,
    .to_text = cc_to_text,
    .view_text = cc_view_text,
    .from_text = cc_from_text,
    .scores = cc_scores,
    .projected = cc_projected,
    .heuristic = cc_heuristic,
    .winners = cc_winners,
    .breakdown = cc_breakdown,
    .view_json = cc_view_json,
    .render = cc_render,
    .resample = cc_resample,
    .check = cc_check,
    .pieces_json = cc_pieces_json,
    .describe = cc_describe,
    .tensor_shape = cc_tensor_shape,
    .tensor_parts = cc_tensor_parts,
    .tensor = cc_tensor,
    .action_space = cc_action_space,
    .action_index = cc_action_index,
    .index_action = cc_index_action,
};
