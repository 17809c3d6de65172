/*
** tensors.c -- the Catan card game for learners: the observation and
** information-state tensors, and the fixed action space
** (docs/tensors-catan_cards.md).
**
** A tensor is one flat row of floats made of named parts, the observing
** seat's first (self_*), then the other seat's (opponent_*), then what
** both share.  Principalities lie in a fixed layout of columns, the same
** that the engine stores (columns -13..13 of the rules' diagram): the
** centre row by column, the regions by (odd column, row), the building
** sites by (even column, row), so a place means the same thing in every
** game.  Cards are written by identity (card type), never by hand slot or
** stack position, except the top slots of a stack in the information
** state, where the position is what a draw takes.
**
** Hidden information follows the view (view.c): the observation holds what
** the seat sees now (its own hand, the stack it is searching, the other
** hand while a Spy or Conflict shows it); the information state adds what
** the engine records the seat as knowing and no longer seeing (stack
** slots it searched or filled, cards of the other hand it saw, event cards
** turned up).  Nothing here reads a slot the seat does not know, which is
** what tafel_state_resample permutes.  Read-only over the state.
*/
#include "catan.h"

#include <string.h>

/* ---- the fixed layout --------------------------------------------------- */

/* Columns a principality can use (game.c: roads at 1..27, settlements and
** cities at 2..26, regions beside them): the centre row at 1..27, regions
** at the odd columns 1..27, sites at the even columns 2..26. */
#define COL_FIRST 1
#define COL_LAST 27
#define CENTRE_COLS (COL_LAST - COL_FIRST + 1)     /* 27 */
#define REGION_COLS ((COL_LAST - COL_FIRST) / 2 + 1) /* 14 odd columns */
#define REGION_SLOTS (REGION_COLS * 2)              /* 28 */
#define REGION_FEATURES (CT_RES + 6 + 4)             /* kind, number, stock 0..3 */
#define SITE_COLS 13                                 /* even columns 2..26 */
#define SITE_SLOTS (SITE_COLS * CT_SITE_ROWS)        /* 52 */
#define BUILDABLE CT_ALCHEMIST                       /* card types that stand on a site */
#define ACTION_TYPES (CT_CARD_TYPES - CT_ALCHEMIST)  /* yellow cards */
#define SUMMARY 14
#define TOP_SLOTS 3                                  /* stack slots by position */

/* The fixed site of engine site col * 4 + row index, or -1 off the layout. */
static int fixed_site(int col, int ri) {
    if (col < 2 || col > 26 || col % 2) return -1;
    return (col - 2) / 2 * CT_SITE_ROWS + ri;
}

/* ---- the parts ------------------------------------------------------------- */

enum {
    P_SELF_CENTRE, P_SELF_REGIONS, P_SELF_SITES, P_SELF_SUMMARY, P_SELF_HAND,
    P_OPP_CENTRE, P_OPP_REGIONS, P_OPP_SITES, P_OPP_SUMMARY, P_OPP_HAND_SEEN,
    P_SEARCHED_STACK, P_PHASE, P_ACTOR, P_FRAME, P_DICE, P_SUPPLY, P_REGION_STACK,
    P_DRAWN_REGIONS, P_PLAYED_OUT, P_TURN,
    P_OBSERVATION_PARTS,
    P_STACK_TOP = P_OBSERVATION_PARTS, P_STACK_KNOWN, P_OPP_HAND_KNOWN, P_EVENTS_KNOWN,
    P_PARTS
};

#define FRAME_DETAIL 30
#define DICE (6 + CT_EVENT_FACES + 6 + CT_EVENT_TYPES)

/* Sizes, and where each part starts (the observation's parts, then the
** information state's additions). */
enum {
    S_CENTRE = CENTRE_COLS * 3, S_REGIONS = REGION_SLOTS * REGION_FEATURES,
    S_SITES = SITE_SLOTS * BUILDABLE, S_PLAYER = S_CENTRE + S_REGIONS + S_SITES + SUMMARY +
    CT_CARD_TYPES,
    S_STACK_TOP = CT_STACKS * TOP_SLOTS * CT_CARD_TYPES,
    S_STACK_KNOWN = CT_STACKS * CT_CARD_TYPES,
    S_EVENTS_KNOWN = CT_EVENT_CARDS * CT_EVENT_TYPES,
};
enum {
    O_CENTRE = 0, O_REGIONS = S_CENTRE, O_SITES = O_REGIONS + S_REGIONS,
    O_SUMMARY = O_SITES + S_SITES, O_HAND = O_SUMMARY + SUMMARY, /* within a player */
    O_OPPONENT = S_PLAYER,
    O_SEARCHED = 2 * S_PLAYER,
    O_PHASE = O_SEARCHED + CT_CARD_TYPES,
    O_ACTOR = O_PHASE + F_FRAME_KINDS + 1,
    O_FRAME = O_ACTOR + 3,
    O_DICE = O_FRAME + FRAME_DETAIL,
    O_SUPPLY = O_DICE + DICE,
    O_REGION_STACK = O_SUPPLY + 4 + CT_STACKS,
    O_DRAWN = O_REGION_STACK + CT_STACK_REGIONS,
    O_PLAYED_OUT = O_DRAWN + CT_STACK_REGIONS,
    O_TURN = O_PLAYED_OUT + ACTION_TYPES,
    O_STACK_TOP = O_TURN + 4, /* the observation ends here */
    O_STACK_KNOWN = O_STACK_TOP + S_STACK_TOP,
    O_OPP_HAND_KNOWN = O_STACK_KNOWN + S_STACK_KNOWN,
    O_EVENTS_KNOWN = O_OPP_HAND_KNOWN + CT_CARD_TYPES,
    O_END = O_EVENTS_KNOWN + S_EVENTS_KNOWN
};

static const tf_tensor_part parts[P_PARTS] = {
    [P_SELF_CENTRE] = {"self_centre", S_CENTRE},
    [P_SELF_REGIONS] = {"self_regions", S_REGIONS},
    [P_SELF_SITES] = {"self_sites", S_SITES},
    [P_SELF_SUMMARY] = {"self_summary", SUMMARY},
    [P_SELF_HAND] = {"self_hand", CT_CARD_TYPES},
    [P_OPP_CENTRE] = {"opponent_centre", S_CENTRE},
    [P_OPP_REGIONS] = {"opponent_regions", S_REGIONS},
    [P_OPP_SITES] = {"opponent_sites", S_SITES},
    [P_OPP_SUMMARY] = {"opponent_summary", SUMMARY},
    [P_OPP_HAND_SEEN] = {"opponent_hand_seen", CT_CARD_TYPES},
    [P_SEARCHED_STACK] = {"searched_stack", CT_CARD_TYPES},
    [P_PHASE] = {"phase", F_FRAME_KINDS + 1},
    [P_ACTOR] = {"actor", 3},
    [P_FRAME] = {"frame_detail", FRAME_DETAIL},
    [P_DICE] = {"dice", DICE},
    [P_SUPPLY] = {"supply", 4 + CT_STACKS},
    [P_REGION_STACK] = {"region_stack", CT_STACK_REGIONS},
    [P_DRAWN_REGIONS] = {"drawn_regions", CT_STACK_REGIONS},
    [P_PLAYED_OUT] = {"played_out", ACTION_TYPES},
    [P_TURN] = {"turn", 4},
    [P_STACK_TOP] = {"stack_known_top", S_STACK_TOP},
    [P_STACK_KNOWN] = {"stack_known_cards", S_STACK_KNOWN},
    [P_OPP_HAND_KNOWN] = {"opponent_hand_known", CT_CARD_TYPES},
    [P_EVENTS_KNOWN] = {"event_deck_known", S_EVENTS_KNOWN},
};

static int part_count(int kind) {
    return kind == TAFEL_OBSERVATION ? P_OBSERVATION_PARTS : P_PARTS;
}

static int tensor_size(int kind) {
    return kind == TAFEL_OBSERVATION ? O_STACK_TOP : O_END;
}

int ct_tensor_shape(int players, int kind, int *dims) {
    (void)players;
    if (kind != TAFEL_OBSERVATION && kind != TAFEL_INFORMATION_STATE) return -1;
    dims[0] = tensor_size(kind);
    return 1;
}

int ct_tensor_parts(int players, int kind, tf_tensor_part *out, int cap) {
    (void)players;
    if (kind != TAFEL_OBSERVATION && kind != TAFEL_INFORMATION_STATE) return -1;
    int n = part_count(kind);
    for (int i = 0; i < n && i < cap; i++) out[i] = parts[i];
    return n;
}

/* ---- writing ------------------------------------------------------------------- */

/* A principality in the fixed layout: centre, regions, sites, summary. */
static void write_principality(const ct_state *s, int who, float *out) {
    const ct_player *p = &s->p[who];
    float *centre = out + O_CENTRE, *regions = out + O_REGIONS, *sites = out + O_SITES;
    float *summary = out + O_SUMMARY;
    for (int c = p->left; c <= p->right; c++)
        if (p->centre[c] != CT_EMPTY && c >= COL_FIRST && c <= COL_LAST)
            centre[(c - COL_FIRST) * 3 + p->centre[c] - 1] = 1;
    int first = p->left - 1 < COL_FIRST ? COL_FIRST : p->left - 1;
    int last = p->right + 1 > COL_LAST ? COL_LAST : p->right + 1;
    for (int c = first | 1; c <= last; c += 2) /* regions lie on odd columns */
        for (int r = 0; r < 2; r++) {
            const ct_region *g = &p->region[c][r];
            if (g->card == CT_NONE) continue;
            const ct_region_card *rc = &ct_region_cards[g->card];
            float *f = regions + ((c - COL_FIRST) / 2 * 2 + r) * REGION_FEATURES;
            f[rc->kind] = 1;
            f[CT_RES + rc->number - 1] = 1;
            f[CT_RES + 6 + g->stock] = 1;
        }
    for (int c = p->left + (p->left & 1); c <= p->right; c += 2)
        for (int r = 0; r < CT_SITE_ROWS; r++) {
            int t = p->site[c][r], fs = fixed_site(c, r);
            if (t != CT_NONE && t < BUILDABLE && fs >= 0) sites[fs * BUILDABLE + t] = 1;
        }
    for (int r = 0; r < CT_RES; r++) summary[r] = p->stock[r];
    summary[6] = (float)ct_vp(s, who);
    summary[7] = p->strength;
    summary[8] = p->tournament;
    summary[9] = p->trade;
    summary[10] = p->limit;
    summary[11] = p->hand_len;
    summary[12] = s->knight_token == who;
    summary[13] = s->windmill == who;
}

/* Counts by card type of the hand slots of who that known has a bit for. */
static void write_hand(const ct_player *p, unsigned known, float *out) {
    for (int i = 0; i < p->hand_len; i++)
        if (known >> i & 1) out[p->hand[i]] += 1;
}

/* What the frame on top says besides its kind (docs: frame_detail). */
static void write_frame(const ct_state *s, int self, float *out) {
    if (s->over || !s->nframes) return;
    const ct_frame *f = &s->frame[s->nframes - 1];
    int left = 0;
    switch (f->kind) {
    case F_START_STACK:
    case F_START_TAKE:
    case F_SEARCH_TAKE:
    case F_MASTER_TAKE:
    case F_MASTER_PUT:
    case F_EXCHANGE_TAKE:
    case F_PAY_SEARCH:
        if (f->a < CT_STACKS) out[f->a] = 1;
        if (f->kind == F_START_TAKE || f->kind == F_PAY_SEARCH) left = f->b;
        break;
    case F_GAIN:
    case F_TAKE:
    case F_DISCARD:
    case F_CONFLICT_PICK:
    case F_CARAVAN:
    case F_MERCHANT_TAKE:
    case F_MERCHANT_GIVE:
    case F_SCOUT_PICK: left = f->a; break;
    case F_COUNTER:
        out[6 + (f->a == CT_ARSONIST ? 0 : f->a == CT_BLACK_KNIGHT ? 1 : 2)] = 1;
        break;
    case F_PICK_SITE:
        out[9 + (f->a != self)] = 1;
        out[11 + f->b] = 1;
        break;
    case F_OFFER:
        out[14 + s->offer[0]] = 1;
        out[20] = s->offer[1];
        out[21 + s->offer[2]] = 1;
        out[27] = s->offer[3];
        break;
    case F_REFILL: out[29] = f->a != 0; break;
    }
    out[5] = (float)left;
    out[28] = s->declined;
}

static void write_dice(const ct_state *s, float *out) {
    if (s->die) out[s->die - 1] = 1;
    if (s->turn) out[6 + s->face] = 1;
    if (s->duel) out[6 + CT_EVENT_FACES + s->duel - 1] = 1;
    int event = ct_last_event_card(s);
    if (event >= 0) out[6 + CT_EVENT_FACES + 6 + event] = 1;
}

/* The information state's additions: the slots the engine records seat as
** knowing (a spectator: the event cards turned up, known to both). */
static void write_memory(const ct_state *s, int seat, float *out) {
    float *top = out + O_STACK_TOP, *known = out + O_STACK_KNOWN;
    float *events = out + O_EVENTS_KNOWN;
    if (seat >= 0) {
        for (int k = 0; k < CT_STACKS; k++)
            for (int i = 0; i < s->stack_len[k]; i++) {
                if (!(s->stack_known[k][i] >> seat & 1)) continue;
                int t = s->stack[k][i];
                known[k * CT_CARD_TYPES + t] += 1;
                if (i < TOP_SLOTS) top[(k * TOP_SLOTS + i) * CT_CARD_TYPES + t] = 1;
            }
        const ct_player *o = &s->p[1 - seat];
        write_hand(o, o->hand_known, out + O_OPP_HAND_KNOWN);
    }
    unsigned mask = seat >= 0 ? 1u << seat : 3u;
    int n = ct_frame_kind(s) == F_DEAL_EVENTS ? s->dealt : CT_EVENT_CARDS;
    for (int i = 0; i < n; i++)
        if ((s->events_known[i] & mask) == mask) events[i * CT_EVENT_TYPES + s->events[i]] = 1;
}

void ct_tensor(const void *data, int seat, int kind, float *out) {
    const ct_state *s = data;
    int self = seat < 0 ? 0 : seat, other = 1 - self;
    write_principality(s, self, out);
    write_principality(s, other, out + O_OPPONENT);
    int frame = ct_frame_kind(s);
    const ct_frame *f = frame >= 0 ? &s->frame[s->nframes - 1] : NULL;
    if (seat >= 0) {
        write_hand(&s->p[seat], 0xFFFFu, out + O_HAND);
        /* what the seat looks at now: the other hand (Spy, Conflict), a
        ** stack it searches */
        if ((frame == F_SPY_TAKE || frame == F_CONFLICT_PICK) && f->seat == seat)
            write_hand(&s->p[other], s->p[other].hand_known, out + O_OPPONENT + O_HAND);
        if ((frame == F_START_TAKE || frame == F_SEARCH_TAKE || frame == F_MASTER_TAKE) &&
            f->seat == seat)
            for (int i = 0; i < s->stack_len[f->a]; i++)
                if (s->stack_known[f->a][i] >> seat & 1)
                    out[O_SEARCHED + s->stack[f->a][i]] += 1;
    }
    out[O_PHASE + (frame >= 0 ? frame : F_FRAME_KINDS)] = 1;
    int actor = ct_current(s);
    if (actor == TAFEL_CHANCE) out[O_ACTOR + 2] = 1;
    else if (actor >= 0) out[O_ACTOR + (actor != self)] = 1;
    write_frame(s, self, out + O_FRAME);
    write_dice(s, out + O_DICE);
    float *supply = out + O_SUPPLY;
    supply[0] = s->roads_left;
    supply[1] = s->settlements_left;
    supply[2] = s->cities_left;
    supply[3] = s->regions_len;
    for (int k = 0; k < CT_STACKS; k++) supply[4 + k] = s->stack_len[k];
    /* the region stack as a set: public (every other region card lies
    ** face up), its order is not */
    unsigned regions = s->region_pool;
    for (int i = 0; i < s->regions_len; i++) regions |= 1u << s->regions[i];
    for (int r = 0; r < CT_STACK_REGIONS; r++)
        out[O_REGION_STACK + r] = (float)(regions >> r & 1);
    if (frame == F_PLACE_REGIONS)
        for (int i = 0; i < 2; i++) out[O_DRAWN + s->drawn_regions[i]] = 1;
    for (int t = 0; t < ACTION_TYPES; t++)
        out[O_PLAYED_OUT + t] = s->played_out[CT_ALCHEMIST + t];
    float *turn = out + O_TURN;
    turn[0] = s->turn;
    turn[1] = (float)(s->max_turns - s->turn);
    turn[2] = s->turn && s->active == self;
    turn[3] = s->win_on_own_turn;
    if (kind == TAFEL_INFORMATION_STATE) write_memory(s, seat, out);
}

/* ---- the fixed action space ---------------------------------------------------
** Every engine action number already names its object by identity (a card
** type, a resource, a stack, a region card) or by a column of the fixed
** layout, never by a hand slot or a stack position: the index is the
** engine's number with the chance outcomes left out and the ranges that
** hold impossible numbers (odd columns for cities and sites, yellow cards
** built, green or red cards played) packed.  The index order is the
** engine's, so a legal list in ascending order maps to ascending indices.
** Like the engine's actions, some indices are read by the phase: "L" is
** gain, take, pay or give L. */

enum {
    I_SCOUT = 0,                                  /* + region card 0..10 */
    I_ARRANGE = I_SCOUT + CT_STACK_REGIONS,       /* A_ARRANGE .. A_NEGOTIATE */
    I_PLAY = I_ARRANGE + (A_PLAY - A_ARRANGE),    /* + yellow card */
    I_TRADE = I_PLAY + ACTION_TYPES,              /* A_TRADE .. A_SETTLE + 3 */
    I_CITY = I_TRADE + (A_CITY - A_TRADE),        /* + even column */
    I_BUILD = I_CITY + SITE_COLS,                 /* + type * 52 + fixed site */
    I_DRAW = I_BUILD + BUILDABLE * SITE_SLOTS,    /* A_DRAW .. A_UNDER + 219 */
    I_SITE = I_DRAW + (A_SITE - A_DRAW),          /* + fixed site */
    I_ABOVE = I_SITE + SITE_SLOTS,                /* + region card 0..10 */
    I_ACTIONS = I_ABOVE + CT_STACK_REGIONS
};

int ct_action_space(int players) {
    (void)players;
    return I_ACTIONS;
}

int ct_action_index(const void *data, tafel_action a) {
    (void)data;
    if (a >= A_REGION_CARD && a < A_REGION_CARD + CT_STACK_REGIONS)
        return I_SCOUT + (a - A_REGION_CARD);
    if (a >= A_ARRANGE && a < A_PLAY) return I_ARRANGE + (a - A_ARRANGE);
    if (a >= A_PLAY && a < A_TRADE)
        return a - A_PLAY >= CT_ALCHEMIST ? I_PLAY + (a - A_PLAY - CT_ALCHEMIST) : -1;
    if (a >= A_TRADE && a < A_CITY) return I_TRADE + (a - A_TRADE);
    if (a >= A_CITY && a < A_BUILD) {
        int c = a - A_CITY;
        return fixed_site(c, 0) >= 0 ? I_CITY + (c - 2) / 2 : -1;
    }
    if (a >= A_BUILD && a < A_DRAW) {
        int t = (a - A_BUILD) / CT_SITES, site = (a - A_BUILD) % CT_SITES;
        int fs = fixed_site(site / CT_SITE_ROWS, site % CT_SITE_ROWS);
        return t < BUILDABLE && fs >= 0 ? I_BUILD + t * SITE_SLOTS + fs : -1;
    }
    if (a >= A_DRAW && a < A_SITE) return I_DRAW + (a - A_DRAW);
    if (a >= A_SITE && a < A_ABOVE) {
        int site = a - A_SITE, fs = fixed_site(site / CT_SITE_ROWS, site % CT_SITE_ROWS);
        return fs >= 0 ? I_SITE + fs : -1;
    }
    if (a >= A_ABOVE && a < A_ABOVE + CT_STACK_REGIONS) return I_ABOVE + (a - A_ABOVE);
    return -1; /* chance outcomes: expansion, event cards, the dice */
}

/* The engine site of a fixed site. */
static int engine_site(int fs) {
    return (2 + fs / CT_SITE_ROWS * 2) * CT_SITE_ROWS + fs % CT_SITE_ROWS;
}

int ct_index_action(const void *data, int i, tafel_action *out) {
    tafel_action a;
    if (i < 0 || i >= I_ACTIONS) return -1;
    if (i < I_ARRANGE) a = A_REGION_CARD + (i - I_SCOUT);
    else if (i < I_PLAY) a = A_ARRANGE + (i - I_ARRANGE);
    else if (i < I_TRADE) a = A_PLAY + CT_ALCHEMIST + (i - I_PLAY);
    else if (i < I_CITY) a = A_TRADE + (i - I_TRADE);
    else if (i < I_BUILD) a = A_CITY + 2 + 2 * (i - I_CITY);
    else if (i < I_DRAW) {
        int t = (i - I_BUILD) / SITE_SLOTS, fs = (i - I_BUILD) % SITE_SLOTS;
        a = A_BUILD + t * CT_SITES + engine_site(fs);
    } else if (i < I_SITE) a = A_DRAW + (i - I_DRAW);
    else if (i < I_ABOVE) a = A_SITE + engine_site(i - I_SITE);
    else a = A_ABOVE + (i - I_ABOVE);
    if (!ct_legal_action(data, a)) return -1;
    *out = a;
    return 0;
}
