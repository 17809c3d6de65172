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
    s->setup_joker = CC_NONE;
    for (int t = 0; t < CC_TYPES; t++) {
        s->pile[t] = cc_cards[t].count;
        s->pile_group[t / CC_PER_COLOUR] += cc_cards[t].count;
        s->pile_total = (uint8_t)(s->pile_total + cc_cards[t].count);
    }
    memset(s->follower_row, CC_NONE, sizeof s->follower_row);
}

/* Who acts, by phase: a table and conditional moves rather than a jump
** (the phase changes every few actions, unpredictably). */
enum { BY_TURN = 100, BY_DEALER };
static const int8_t actor_of_phase[] = {
    [CC_PH_REVEAL] = TAFEL_CHANCE, [CC_PH_ROW] = BY_DEALER, [CC_PH_DEAL] = TAFEL_CHANCE,
    [CC_PH_PLAY] = BY_TURN,        [CC_PH_WRONG] = BY_TURN, [CC_PH_ASSIGN] = BY_TURN,
    [CC_PH_OVER] = TAFEL_TERMINAL,
};

int cc_current(const void *data) {
    const cc_state *s = data;
    int who = actor_of_phase[s->phase];
    who = who == BY_TURN ? s->turn : who;
    return who == BY_DEALER ? s->dealer : who;
}

void cc_hand_add(cc_state *s, int seat, int type, int n) {
    s->hand[seat][type] = (uint8_t)(s->hand[seat][type] + n);
    s->hand_count[seat] = (uint8_t)(s->hand_count[seat] + n);
    if (s->hand[seat][type]) s->hand_mask[seat] |= 1u << type;
    else s->hand_mask[seat] &= ~(1u << type);
}

int cc_chest_count(const cc_state *s, int seat) {
    int n = s->taken[seat][CC_HJ_TYPE];
    for (int c = 0; c < CC_COLOURS; c++)
        n += s->taken[seat][c * CC_PER_COLOUR + 4];
    return n;
}

static void row_push(cc_state *s, int row, uint8_t entry) {
    s->row[row][s->row_len[row]++] = entry;
}

/* ---- legal actions ---------------------------------------------------- */

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

static int cc_legal(const void *data, tafel_action *out, int cap) {
    const cc_state *s = data;
    switch (s->phase) {
    case CC_PH_PLAY: return legal_play(s, out, cap);
    case CC_PH_ROW: return list_range(CC_A_ROW, CC_COLOURS, out, cap);
    case CC_PH_WRONG: return list_range(CC_A_TEN, 2, out, cap);
    case CC_PH_ASSIGN: return list_range(CC_A_ASSIGN, CC_KINDS, out, cap);
    case CC_PH_REVEAL:
    case CC_PH_DEAL: return cc_chance(s, out, NULL, cap);
    default: return 0;
    }
}

/* Which of five counts the r-th card falls in, without branches: random
** draws defeat the branch predictor, and a deal is a third of all actions. */
static int pick5(const uint8_t *count, int *r) {
    int p1 = count[0], p2 = p1 + count[1], p3 = p2 + count[2], p4 = p3 + count[3];
    int i = (*r >= p1) + (*r >= p2) + (*r >= p3) + (*r >= p4);
    *r -= (i > 0) * count[0] + (i > 1) * count[1] + (i > 2) * count[2] + (i > 3) * count[3];
    return i;
}

static tafel_action cc_sample(const void *data, uint64_t *rng) {
    const cc_state *s = data;
    if (s->phase != CC_PH_REVEAL && s->phase != CC_PH_DEAL) return -1;
    int r = (int)tafel_rng_below(rng, s->pile_total);
    int g = pick5(s->pile_group, &r);
    int t = g * CC_PER_COLOUR + pick5(s->pile + g * CC_PER_COLOUR, &r);
    return (s->phase == CC_PH_REVEAL ? CC_A_REVEAL : CC_A_DEAL) + t;
}

/* ---- apply ------------------------------------------------------------ */

void cc_start_round(cc_state *s) {
    s->phase = CC_PH_DEAL;
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

static int draw(cc_state *s, int t, const char *what, tafel_error *err) {
    if (!s->pile[t]) return refuse_draw(t, what, err);
    s->pile[t]--;
    s->pile_group[t / CC_PER_COLOUR]--;
    s->pile_total--;
    return TAFEL_OK;
}

static int apply_reveal(cc_state *s, int t, tafel_error *err) {
    if (draw(s, t, "reveal", err)) return TAFEL_EILLEGAL;
    s->revealed++;
    if (cc_cards[t].colour < 0) {
        s->setup_joker = (uint8_t)t;
        s->phase = CC_PH_ROW;
        return TAFEL_OK;
    }
    row_push(s, cc_cards[t].colour, (uint8_t)t);
    if (s->revealed == CC_SETUP_CARDS) cc_start_round(s);
    return TAFEL_OK;
}

static void apply_row(cc_state *s, int row) {
    row_push(s, row, s->setup_joker);
    s->setup_joker = CC_NONE;
    s->phase = CC_PH_REVEAL;
    if (s->revealed == CC_SETUP_CARDS) cc_start_round(s);
}

static int apply_deal(cc_state *s, int t, tafel_error *err) {
    if (draw(s, t, "deal", err)) return TAFEL_EILLEGAL;
    cc_hand_add(s, s->deal_to, t, 1);
    s->deal_to = (uint8_t)cc_next_seat(s, s->deal_to);
    if (++s->dealt == s->hand_size * s->players) {
        s->phase = CC_PH_PLAY;
        s->turn = (uint8_t)cc_next_seat(s, s->dealer);
    }
    return TAFEL_OK;
}

/* After a turn: the next player, or round scoring when everyone is done. */
static void next_turn(cc_state *s) {
    s->turn = (uint8_t)cc_next_seat(s, s->turn);
    if (__builtin_expect(s->hand_count[s->turn] == 0 && s->follower_row[s->turn] != CC_NONE, 0))
        cc_start_scoring(s);
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
    int p = s->turn, colour = cc_cards[t].colour;
    int face_down = s->played[p] == 0;
    if ((s->hand[p][t] == 0) | (!face_down & (colour >= 0) & (colour != row)))
        return refuse_play(s, t, row, err);
    cc_hand_add(s, p, t, -1);
    s->played[p]++;
    row_push(s, row, (uint8_t)(face_down ? t | (p + 1) << 5 : t));
    next_turn(s);
    return TAFEL_OK;
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
    s->row_secured[row] = (uint8_t)(s->row_len[row] + 1);
    s->last_follower = (uint8_t)p;
    row_push(s, row, (uint8_t)(CC_FOLLOWER + p));
    next_turn(s);
    return TAFEL_OK;
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

int cc_apply(void *data, tafel_action a, tafel_error *err) {
    cc_state *s = data;
    unsigned play = (unsigned)(a - CC_A_PLAY), row = (unsigned)(a - CC_A_FOLLOWER);
    switch (s->phase) {
    case CC_PH_DEAL:
        if ((unsigned)(a - CC_A_DEAL) < CC_TYPES) return apply_deal(s, a - CC_A_DEAL, err);
        break;
    case CC_PH_PLAY:
        if (play < CC_TYPES * CC_COLOURS)
            return apply_play(s, (int)play / CC_COLOURS, (int)play % CC_COLOURS, err);
        if (row < CC_COLOURS) return apply_follower(s, (int)row, err);
        break;
    case CC_PH_REVEAL:
        if ((unsigned)(a - CC_A_REVEAL) < CC_TYPES)
            return apply_reveal(s, a - CC_A_REVEAL, err);
        break;
    case CC_PH_ROW:
        if ((unsigned)(a - CC_A_ROW) < CC_COLOURS) {
            apply_row(s, a - CC_A_ROW);
            return TAFEL_OK;
        }
        break;
    case CC_PH_WRONG:
        if (a == CC_A_TEN || a == CC_A_KEEP) {
            cc_ten_or_keep(s, a == CC_A_KEEP);
            return TAFEL_OK;
        }
        break;
    case CC_PH_ASSIGN:
        if ((unsigned)(a - CC_A_ASSIGN) < CC_KINDS) {
            cc_assign(s, a - CC_A_ASSIGN);
            return TAFEL_OK;
        }
        break;
    }
    if (s->phase == CC_PH_OVER) return tf_error(err, TAFEL_EILLEGAL, "the game is over");
    if (a < 0 || a >= CC_ACTIONS)
        return tf_error(err, TAFEL_EILLEGAL, "%d is not a Cardcassonne action", a);
    return tf_error(err, TAFEL_EILLEGAL, "not now: the game waits for %s",
                    phase_needs[s->phase]);
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
};
