/*
** game.c -- the flow of the Catan card game (rules §4) and the module table.
**
** The flow is a stack of frames (catan.h).  ct_walk pops automatic frames
** and executes them until a frame needs a decision or chance; legal() lists
** what that frame allows; apply() accepts exactly what legal() lists (one
** definition of legality), does it, and runs on.  After every step the
** knight token and the windmill are re-decided and the end (12 points) is
** checked.
*/
#include "catan.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const tf_param ct_params[] = {
    {"players", TF_PARAM_INT, 2, 2, 2, NULL, "number of players (the game is for two)"},
    {"win_on_own_turn", TF_PARAM_BOOL, 0, 1, 0, NULL,
     "only the player whose turn it is can reach 12 points and win (2005 rules)"},
    {"max_turns", TF_PARAM_INT, 2, 2000, 400, NULL,
     "the game is a draw when this many turns have been played"},
};
enum { P_PLAYERS, P_OWN_TURN, P_MAX_TURNS };

/* ---- frames -------------------------------------------------------------- */

static void push(ct_state *s, int kind, int seat, int a, int b) {
    if (s->nframes == CT_MAX_FRAMES) return; /* cannot happen: frames nest shallowly */
    s->frame[s->nframes++] = (ct_frame){(uint8_t)kind, (uint8_t)seat, (uint8_t)a, (uint8_t)b};
}

static ct_frame *top(ct_state *s) { return &s->frame[s->nframes - 1]; }
static const ct_frame *ctop(const ct_state *s) { return &s->frame[s->nframes - 1]; }
static void pop(ct_state *s) { s->nframes--; }

static int is_chance(int kind) { return kind <= F_DUEL; }
static int is_automatic(int kind) { return kind >= F_TURN; }

int ct_frame_kind(const ct_state *s) {
    return s->over || !s->nframes ? -1 : ctop(s)->kind;
}

int ct_current(const void *data) {
    const ct_state *s = data;
    if (s->over || !s->nframes) return TAFEL_TERMINAL;
    const ct_frame *f = ctop(s);
    return is_chance(f->kind) ? TAFEL_CHANCE : f->seat;
}

static int opp(int seat) { return 1 - seat; }

/* ---- what a frame allows --------------------------------------------------- */

/* A list always has room for every action of the game (CT_ACTIONS): no
** list can be longer, and adding is then one store.  The count is a size_t,
** which no store of an action (an int) can alias: the compiler keeps it in
** a register instead of reloading it after every entry written. */
typedef struct list {
    tafel_action *out;
    size_t n;
} list;

static void add(list *l, tafel_action a) { l->out[l->n++] = a; }

/* The card types in a list of cards, as bits: one pass instead of one
** search per type. */
static uint64_t type_mask(const uint8_t *cards, int n) {
    uint64_t mask = 0;
    for (int i = 0; i < n; i++) mask |= 1ull << cards[i];
    return mask;
}

static int hand_has(const ct_state *s, int seat, int type) {
    return ct_hand_find(s, seat, type) >= 0;
}

static int has_building(const ct_state *s, int seat, int what) {
    for (int t = 0; t < CT_ALCHEMIST; t++) /* from the counts of cards built */
        if (s->p[seat].built[t] && ct_cards[t].what == what) return 1;
    return 0;
}

static int is_knight(int type) { return type >= CT_KNIGHT_FIRST && type < CT_KNIGHT_FIRST + 9; }

static int has_knight(const ct_state *s, int seat) {
    for (int k = 0; k < 9; k++)
        if (ct_count_type(s, seat, CT_KNIGHT_FIRST + k)) return 1;
    return 0;
}

/* A unit Civil war may take: not at a city with a Church. */
static int church_at(const ct_player *p, int col) {
    for (int r = 0; r < CT_SITE_ROWS; r++)
        if (p->site[col][r] == CT_CHURCH) return 1;
    return 0;
}

/* Sites of victim a frame may pick (mode: what is taken). */
enum { PICK_CIVIL, PICK_BUILDING, PICK_KNIGHT };

static int pickable(const ct_state *s, int victim, int col, int ri, int mode) {
    const ct_player *p = &s->p[victim];
    int t = p->site[col][ri];
    if (t == CT_NONE) return 0;
    if (mode == PICK_BUILDING) return ct_cards[t].what == CT_BUILDING;
    if (mode == PICK_KNIGHT) return is_knight(t);
    return ct_cards[t].what == CT_UNIT && !(p->centre[col] == CT_CITY && church_at(p, col));
}

/* Settlements, cities and their sites stand on even columns (roads and
** regions on odd ones): loops over them step by two from the first. */
static int any_pickable(const ct_state *s, int victim, int mode) {
    const ct_player *p = &s->p[victim];
    for (int c = p->left + (p->left & 1); c <= p->right; c += 2)
        for (int r = 0; r < CT_SITE_ROWS; r++)
            if (pickable(s, victim, c, r, mode)) return 1;
    return 0;
}

static int action_cards_allowed(const ct_state *s) { return s->turn >= 3; }

/* Whether an action card can take effect now (rules §2: only then). */
static int playable(const ct_state *s, int seat, int type) {
    switch (type) {
    case CT_ARSONIST: return has_building(s, opp(seat), CT_BUILDING);
    case CT_BLACK_KNIGHT: return has_knight(s, opp(seat));
    case CT_BRIGANDS:
    case CT_MERCHANT: return ct_total_stock(s, opp(seat)) > 0;
    case CT_CARAVAN: return ct_total_stock(s, seat) > 0;
    case CT_SPY: return s->p[opp(seat)].hand_len > 0;
    default: return 0; /* Alchemist: before rolling; Scout: with a settlement; counters */
    }
}

const uint8_t ct_road_cost[CT_RES_WORD] = {1, 0, 2, 0, 0, 0};
const uint8_t ct_settlement_cost[CT_RES_WORD] = {1, 1, 1, 0, 1, 0};
const uint8_t ct_city_cost[CT_RES_WORD] = {0, 0, 0, 3, 2, 0};

/* The column a road or settlement would take on side (0 left, 1 right),
** and what must stand at the end now. */
static int end_col(const ct_state *s, int seat, int side) {
    return side ? s->p[seat].right : s->p[seat].left;
}

/* Six resource counts (each below 128) and their padding as one word: one
** load, where copying six bytes into a word would stall on the stores. */
static uint64_t res_word(const uint8_t n[CT_RES_WORD]) {
    uint64_t x;
    memcpy(&x, n, sizeof x);
    return x;
}

#define RES_LANES_HIGH 0x0000808080808080ull
#define ALL_RES ((1u << CT_RES) - 1)

/* A lane's high bit, one per resource, gathered into bit r. */
static unsigned res_bits(uint64_t high) {
    return (unsigned)((high >> 7) * 0x0102040810204080ull >> 56);
}

/* Bits of the resources r with a[r] >= b[r]: each lane subtracts from its
** count with the high bit set, which no count below 128 borrows through. */
static unsigned res_at_least(const uint8_t a[CT_RES_WORD], const uint8_t b[CT_RES_WORD]) {
    return res_bits(((res_word(a) | RES_LANES_HIGH) - res_word(b)) & RES_LANES_HIGH);
}

/* Bits of the resources a player holds (stock) or has room for (room). */
static unsigned res_mask(const uint8_t n[CT_RES_WORD]) {
    static const uint8_t one[CT_RES_WORD] = {1, 1, 1, 1, 1, 1};
    return res_at_least(n, one);
}

/* Whether stock (by resource) pays cost. */
static int affords(const uint8_t stock[CT_RES_WORD], const uint8_t cost[CT_RES_WORD]) {
    return res_at_least(stock, cost) == ALL_RES;
}

/* Whether some resource of gives can go for some other one of gets: a bank
** trade or an offer is possible. */
static int some_exchange(unsigned gives, unsigned gets) {
    return gives && gets && !(gives == gets && (gives & (gives - 1)) == 0);
}

static int road_ok(const ct_state *s, int seat, int side) {
    const ct_player *p = &s->p[seat];
    int e = end_col(s, seat, side), col = side ? e + 1 : e - 1;
    return s->roads_left && p->centre[e] >= CT_SETTLEMENT && col >= 1 && col < CT_COLS - 1 &&
           affords(p->stock, ct_road_cost);
}

static int settlement_ok(const ct_state *s, int seat, int side, int scout) {
    const ct_player *p = &s->p[seat];
    int e = end_col(s, seat, side), col = side ? e + 1 : e - 1;
    return s->settlements_left && p->centre[e] == CT_ROAD && col >= 2 && col < CT_COLS - 2 &&
           s->regions_len >= 2 && affords(p->stock, ct_settlement_cost) &&
           (!scout || (action_cards_allowed(s) && hand_has(s, seat, CT_SCOUT)));
}

/* Whether a card of type may stand on the site (its cost aside). */
static int site_ok(const ct_state *s, int seat, int type, int col, int ri) {
    const ct_card *c = &ct_cards[type];
    if (c->what == CT_ACTION || !ct_site_exists(s, seat, col, ri)) return 0;
    if (s->p[seat].site[col][ri] != CT_NONE) return 0;
    return c->colour != CT_RED || s->p[seat].centre[col] == CT_CITY;
}

/* Bank trades as masks: the resources a player can give (as many as his
** rate), and for one of them those he can get (room, and not the same). */
static unsigned bank_gives(const ct_player *p) { return res_at_least(p->stock, p->rate); }
static unsigned bank_gets(const ct_player *p, unsigned give) {
    return res_mask(p->room) & ~(1u << give);
}

static int bank_ok(const ct_state *s, int seat, tafel_action a) {
    const ct_player *p = &s->p[seat];
    unsigned give = (unsigned)(a - A_TRADE) / CT_RES, get = (unsigned)(a - A_TRADE) % CT_RES;
    return a >= A_TRADE && a < A_OFFER &&
           (bank_gives(p) >> give & bank_gets(p, give) >> get & 1);
}

static void legal_bank(const ct_state *s, int seat, list *l) {
    const ct_player *p = &s->p[seat];
    for (unsigned g = bank_gives(p); g; g &= g - 1) {
        unsigned give = (unsigned)__builtin_ctz(g);
        for (unsigned m = bank_gets(p, give); m; m &= m - 1)
            add(l, A_TRADE + (tafel_action)give * CT_RES + __builtin_ctz(m));
    }
}

static int at_most_3(int n) { return n < 3 ? n : 3; }

/* Four consecutive list entries, written with one vector store. */
typedef tafel_action ct_four __attribute__((vector_size(4 * sizeof(tafel_action))));

/* The offers of one pair of resources, giving 1..g and getting 1..h (the
** action's code adds (n - 1) * 3 + m - 1): by g and h, the codes in
** ascending order, padded to three stores. */
static const ct_four offer_codes[4][4][3] = {
    {{{0}}, {{0}}, {{0}}, {{0}}},
    {{{0}}, {{0}}, {{0, 1}}, {{0, 1, 2}}},
    {{{0}}, {{0, 3}}, {{0, 1, 3, 4}}, {{0, 1, 2, 3}, {4, 5}}},
    {{{0}}, {{0, 3, 6}}, {{0, 1, 3, 4}, {6, 7}}, {{0, 1, 2, 3}, {4, 5, 6, 7}, {8}}},
};

/* Every pair writes its twelve entries and keeps g * h of them (none for
** the same resource): the counts are random, and branches on them would
** mispredict.  A list has room for CT_ACTIONS entries, far more than the
** 270 offers at most and the padding past them. */
static void legal_offers(const ct_state *s, int seat, list *l) {
    const uint8_t *mine = s->p[seat].stock, *theirs = s->p[opp(seat)].stock;
    for (unsigned m = res_mask(mine); m; m &= m - 1) {
        int give = __builtin_ctz(m), gives = at_most_3(mine[give]);
        for (int get = 0; get < CT_RES; get++) {
            int gets = at_most_3(theirs[get]) * (get != give);
            const ct_four *codes = offer_codes[gives][gets];
            ct_four pair = (ct_four){0} + (A_OFFER + (give * CT_RES + get) * 9);
            for (int i = 0; i < 3; i++) {
                ct_four entries = codes[i] + pair;
                memcpy(l->out + l->n + 4 * i, &entries, sizeof entries);
            }
            l->n += (size_t)(gives * gets);
        }
    }
}

static int any_bank_trade(const ct_state *s, int seat) {
    const ct_player *p = &s->p[seat];
    return some_exchange(bank_gives(p), res_mask(p->room));
}

/* Accepted trades are unlimited (the seed: "op gelijk welk moment", on terms
** both agree); only declined offers are capped, 3 a turn, so that an offer
** repeated for ever cannot stall the table (rules §4.3). */
static int any_offer(const ct_state *s, int seat) {
    /* some resource of mine for some other resource of theirs */
    return s->declined < 3 &&
           some_exchange(res_mask(s->p[seat].stock), res_mask(s->p[opp(seat)].stock));
}

static void legal_main(const ct_state *s, int seat, list *l) {
    const ct_player *p = &s->p[seat];
    const uint8_t *stock = p->stock;
    add(l, A_PASS);
    uint64_t hand = type_mask(p->hand, p->hand_len);
    /* Trades and offers are one entry each here, their many variants a
    ** step further (F_BANK, F_NEGOTIATE): the main phase stays a short list
    ** of what can be done, for people and for random play alike. */
    if (any_bank_trade(s, seat)) add(l, A_BANK);
    if (any_offer(s, seat)) add(l, A_NEGOTIATE);
    if (action_cards_allowed(s))
        for (uint64_t m = hand >> CT_ALCHEMIST; m; m &= m - 1) {
            int t = CT_ALCHEMIST + __builtin_ctzll(m);
            if (playable(s, seat, t)) add(l, A_PLAY + t);
        }
    for (int side = 0; side < 2; side++)
        if (road_ok(s, seat, side)) add(l, A_ROAD + side);
    if (s->settlements_left && s->regions_len >= 2 && affords(stock, ct_settlement_cost))
        for (int v = 0; v < 4; v++)
            if (settlement_ok(s, seat, v & 1, v >> 1)) add(l, A_SETTLE + v);
    if (s->cities_left && affords(stock, ct_city_cost))
        for (int c = p->left + (p->left & 1); c <= p->right; c += 2)
            if (p->centre[c] == CT_SETTLEMENT) add(l, A_CITY + c);
    for (uint64_t m = hand & ((1ull << CT_ALCHEMIST) - 1); m; m &= m - 1) {
        int t = __builtin_ctzll(m);
        if (!affords(stock, ct_cards[t].cost)) continue;
        uint64_t sites = ct_cards[t].colour == CT_RED ? p->free_city_sites : p->free_sites;
        for (; sites; sites &= sites - 1) {
            int bit = __builtin_ctzll(sites), c = bit / CT_SITE_ROWS * 2, r = bit % CT_SITE_ROWS;
            add(l, A_BUILD + t * CT_SITES + c * CT_SITE_ROWS + r);
        }
    }
}

static int search_cost(const ct_state *s, int seat) {
    return ct_count_type(s, seat, CT_TOWN_HALL) ? 1 : 2;
}

static void legal_hand_under(const ct_state *s, int owner, list *l) {
    const ct_player *p = &s->p[owner];
    for (uint64_t m = type_mask(p->hand, p->hand_len); m; m &= m - 1)
        for (int k = 0; k < CT_STACKS; k++) add(l, A_UNDER + __builtin_ctzll(m) * CT_STACKS + k);
}

static void legal_stack_cards(const ct_state *s, int k, list *l) {
    for (uint64_t m = type_mask(s->stack[k], s->stack_len[k]); m; m &= m - 1)
        add(l, A_TAKE + __builtin_ctzll(m));
}

/* The resources with a count: written for all six, kept where there is one
** (which resources a player has is random, a branch on it mispredicts). */
static void legal_resources(const ct_state *s, int seat, int need_room_of, list *l) {
    const uint8_t *n = need_room_of >= 0 ? s->p[need_room_of].room : s->p[seat].stock;
    for (int r = 0; r < CT_RES; r++) {
        l->out[l->n] = A_RES + r;
        l->n += n[r] != 0;
    }
}

/* A hand full when the refill began allows one exchange instead. */
static int exchange_open(const ct_state *s, const ct_frame *f) {
    return f->a && s->p[f->seat].hand_len == ct_hand_limit(s, f->seat);
}

/* Whether the refill allows a: what legal_refill lists. */
static int refill_ok(const ct_state *s, const ct_frame *f, tafel_action a) {
    int seat = f->seat, k = a >= A_DRAW && a < A_UNDER ? a - A_DRAW : a - A_SEARCH;
    if (a == A_PASS) return 1;
    if (s->p[seat].hand_len < ct_hand_limit(s, seat))
        return k >= 0 && k < CT_STACKS && s->stack_len[k] &&
               (a >= A_DRAW || ct_total_stock(s, seat) >= search_cost(s, seat));
    return exchange_open(s, f) && a >= A_UNDER && a < A_SITE &&
           hand_has(s, seat, (a - A_UNDER) / CT_STACKS);
}

/* Draw or search while the hand has room; if it was full from the start,
** one exchange (a card under a stack, then one from it). */
static void legal_refill(const ct_state *s, const ct_frame *f, list *l) {
    for (int k = 0; k < CT_STACKS; k++)
        if (refill_ok(s, f, A_SEARCH + k)) add(l, A_SEARCH + k);
    add(l, A_PASS);
    for (int k = 0; k < CT_STACKS; k++)
        if (refill_ok(s, f, A_DRAW + k)) add(l, A_DRAW + k);
    if (exchange_open(s, f)) legal_hand_under(s, f->seat, l);
}

static int ct_frame_legal(const ct_state *s, list *l) {
    const ct_frame *f = ctop(s);
    int seat = f->seat;
    switch (f->kind) {
    case F_DEAL_STACKS:
        for (int t = 0; t < CT_CARD_TYPES; t++)
            if (s->pool[t]) add(l, A_STACK_CARD + t);
        break;
    case F_DEAL_REGIONS:
        for (int r = 0; r < CT_STACK_REGIONS; r++)
            if (s->region_pool >> r & 1) add(l, A_REGION_CARD + r);
        break;
    case F_DEAL_EVENTS:
        for (int e = 0; e < CT_EVENT_TYPES; e++)
            if (s->event_pool[e]) add(l, A_EVENT_CARD + e);
        break;
    case F_DIE:
    case F_DUEL:
        for (int n = 0; n < 6; n++) add(l, (f->kind == F_DIE ? A_DIE : A_DUEL) + n);
        break;
    case F_EVENT_DIE:
        for (int e = 0; e < CT_EVENT_FACES; e++) add(l, A_FACE + e);
        break;
    case F_ARRANGE:
        for (int i = 0; i < 720; i++) add(l, A_ARRANGE + i);
        break;
    case F_START_STACK:
        for (int k = 0; k < CT_STACKS; k++)
            if (k != f->a) add(l, A_SEARCH + k);
        break;
    case F_START_TAKE:
    case F_SEARCH_TAKE:
    case F_MASTER_TAKE: legal_stack_cards(s, f->a, l); break;
    case F_ROLL:
        add(l, A_ROLL);
        if (action_cards_allowed(s) && hand_has(s, seat, CT_ALCHEMIST))
            for (int n = 0; n < 6; n++) add(l, A_ALCHEMIST + n);
        break;
    case F_GAIN: legal_resources(s, seat, seat, l); break;
    case F_TAKE:
    case F_MERCHANT_TAKE:
        legal_resources(s, opp(seat), -1, l);
        if (f->kind == F_MERCHANT_TAKE) add(l, A_PASS);
        break;
    case F_MERCHANT_GIVE:
    case F_PAY_SEARCH: legal_resources(s, seat, -1, l); break;
    case F_MAIN: legal_main(s, seat, l); break;
    case F_BANK: legal_bank(s, seat, l); break;
    case F_NEGOTIATE: legal_offers(s, seat, l); break;
    case F_PLACE_REGIONS: {
        int x = s->drawn_regions[0], y = s->drawn_regions[1];
        add(l, A_ABOVE + (x < y ? x : y));
        add(l, A_ABOVE + (x < y ? y : x));
        break;
    }
    case F_REFILL: legal_refill(s, f, l); break;
    case F_EXCHANGE_TAKE:
        if (ct_total_stock(s, seat) >= search_cost(s, seat) && s->stack_len[f->a])
            add(l, A_SEARCH + f->a);
        if (s->stack_len[f->a]) add(l, A_DRAW + f->a);
        break;
    case F_DISCARD: legal_hand_under(s, seat, l); break;
    case F_CONFLICT_PICK: legal_hand_under(s, opp(seat), l); break;
    case F_MASTER_PUT: {
        for (int t = 0; t < CT_CARD_TYPES; t++)
            if (hand_has(s, seat, t)) add(l, A_UNDER + t * CT_STACKS + f->a);
        break;
    }
    case F_OFFER:
        add(l, A_PASS);
        add(l, A_ACCEPT);
        break;
    case F_COUNTER: {
        add(l, A_PASS);
        int counter = f->a == CT_BLACK_KNIGHT ? CT_HERB_WITCH : CT_BISHOP;
        if (hand_has(s, seat, counter)) add(l, A_PLAY + counter);
        break;
    }
    case F_PICK_SITE: {
        const ct_player *p = &s->p[f->a];
        for (int c = p->left + (p->left & 1); c <= p->right; c += 2)
            for (int r = 0; r < CT_SITE_ROWS; r++)
                if (pickable(s, f->a, c, r, f->b)) add(l, A_SITE + c * CT_SITE_ROWS + r);
        break;
    }
    case F_CARAVAN:
        add(l, A_PASS);
        for (int give = 0; give < CT_RES; give++)
            for (int get = 0; get < CT_RES; get++)
                if (get != give && ct_stock(s, seat, give) && ct_room(s, seat, get))
                    add(l, A_TRADE + give * CT_RES + get);
        break;
    case F_SPY_TAKE:
        for (int t = 0; t < CT_CARD_TYPES; t++)
            if (ct_cards[t].what != CT_BUILDING && hand_has(s, opp(seat), t)) add(l, A_TAKE + t);
        add(l, A_PASS);
        break;
    case F_MASTER_SEARCH:
        for (int k = 0; k < CT_STACKS; k++)
            if (s->stack_len[k]) add(l, A_SEARCH + k);
        add(l, A_PASS);
        break;
    case F_SCOUT_PICK:
        for (uint64_t m = type_mask(s->regions, s->regions_len); m; m &= m - 1)
            add(l, A_REGION_CARD + __builtin_ctzll(m));
        break;
    }
    return (int)l->n;
}

static int ct_legal(const void *data, tafel_action *out, int cap) {
    const ct_state *s = data;
    if (s->over || !s->nframes) return 0;
    /* each frame lists in ascending order */
    if (cap >= CT_ACTIONS) return ct_frame_legal(s, &(list){out, 0});
    tafel_action buf[CT_ACTIONS];
    int n = ct_frame_legal(s, &(list){buf, 0});
    if (cap > 0) /* a caller counting passes out NULL, cap 0: no memcpy from NULL */
        memcpy(out, buf, sizeof *out * (size_t)(n < cap ? n : cap));
    return n;
}

static int ct_chance(const void *data, tafel_action *out, double *prob, int cap) {
    const ct_state *s = data;
    if (s->actor != TAFEL_CHANCE) return 0;
    int n = ct_legal(s, out, cap);
    if (!prob) return n;
    const ct_frame *f = ctop(s);
    int total = 0;
    if (f->kind == F_DEAL_STACKS)
        for (int t = 0; t < CT_CARD_TYPES; t++) total += s->pool[t];
    if (f->kind == F_DEAL_REGIONS) total = __builtin_popcount(s->region_pool);
    if (f->kind == F_DEAL_EVENTS)
        for (int e = 0; e < CT_EVENT_TYPES; e++) total += s->event_pool[e];
    for (int i = 0; i < n && i < cap; i++) {
        tafel_action a = out[i];
        switch (f->kind) {
        case F_DEAL_STACKS: prob[i] = (double)s->pool[a - A_STACK_CARD] / total; break;
        case F_DEAL_REGIONS: prob[i] = 1.0 / total; break;
        case F_DEAL_EVENTS: prob[i] = (double)s->event_pool[a - A_EVENT_CARD] / total; break;
        case F_EVENT_DIE: prob[i] = a - A_FACE == CT_DIE_EVENT ? 2.0 / 6 : 1.0 / 6; break;
        default: prob[i] = 1.0 / 6;
        }
    }
    return n;
}

static tafel_action ct_sample(const void *data, uint64_t *rng) {
    const ct_state *s = data;
    if (s->actor != TAFEL_CHANCE) return -1;
    const ct_frame *f = ctop(s);
    switch (f->kind) {
    case F_DIE: return A_DIE + (tafel_action)tafel_rng_below(rng, 6);
    case F_DUEL: return A_DUEL + (tafel_action)tafel_rng_below(rng, 6);
    case F_EVENT_DIE: {
        int face = (int)tafel_rng_below(rng, 6);
        return A_FACE + (face > CT_DIE_EVENT ? CT_DIE_EVENT : face);
    }
    case F_DEAL_STACKS: {
        int total = 0, t = 0;
        for (int i = 0; i < CT_CARD_TYPES; i++) total += s->pool[i];
        int r = (int)tafel_rng_below(rng, (uint32_t)total);
        while (r >= s->pool[t]) r -= s->pool[t++];
        return A_STACK_CARD + t;
    }
    default: {
        tafel_action out[CT_CARD_TYPES];
        double prob[CT_CARD_TYPES];
        int n = ct_chance(s, out, prob, CT_CARD_TYPES);
        double r = tafel_rng_unit(rng), acc = 0;
        for (int i = 0; i < n; i++) {
            acc += prob[i];
            if (r < acc) return out[i];
        }
        return out[n - 1];
    }
    }
}

/* ---- the turn ------------------------------------------------------------------ */

/* The end of the game: 12 points (only the active player's count with
** win_on_own_turn). */
static void check_end(ct_state *s) {
    if (s->over) return;
    for (int seat = 0; seat < 2; seat++) {
        if (s->win_on_own_turn && seat != s->active) continue;
        if (ct_vp(s, seat) >= 12) {
            s->over = 1;
            s->nframes = 0;
            return;
        }
    }
}

static void start_turn(ct_state *s) {
    if (s->turn >= s->max_turns) {
        s->over = 1;
        s->draw_game = 1;
        s->nframes = 0;
        return;
    }
    s->turn++;
    s->declined = 0;
    s->offers = 0;
    push(s, F_TURN, opp(s->active), 0, 0); /* the next turn, once this one is done */
    push(s, F_REFILL, s->active, 0, 0);
    push(s, F_MAIN, s->active, 0, 0);
    push(s, F_ROLL, s->active, 0, 0);
    check_end(s); /* a new active player: with win_on_own_turn, his points count now */
}

static void event_card(ct_state *s) {
    int card = s->events[0];
    memmove(s->events, s->events + 1, CT_EVENT_CARDS - 1);
    memmove(s->events_known, s->events_known + 1, CT_EVENT_CARDS - 1);
    s->events[CT_EVENT_CARDS - 1] = (uint8_t)card; /* under the deck, seen by both */
    s->events_known[CT_EVENT_CARDS - 1] = 3;
    int a = s->active, o = opp(a);
    switch (card) {
    case CT_EV_CIVIL_WAR:
        push(s, F_LIMIT, a, 0, 0);
        push(s, F_LIMIT, o, 0, 0);
        push(s, F_PICK_SITE, o, a, PICK_CIVIL); /* then the roller's unit */
        push(s, F_PICK_SITE, a, o, PICK_CIVIL); /* the roller's opponent is hit first */
        break;
    case CT_EV_CONFLICT:
        if (s->knight_token >= 0) {
            ct_learn_hand(s, s->knight_token);
            push(s, F_CONFLICT_PICK, s->knight_token, 2, 0);
        }
        break;
    case CT_EV_MASTER_BUILDER:
        push(s, F_MASTER_SEARCH, o, 0, 0);
        push(s, F_MASTER_SEARCH, a, 0, 0);
        break;
    case CT_EV_PLAGUE: ct_plague(s); break;
    case CT_EV_PRODUCTIVE_YEAR: ct_productive_year(s); break;
    case CT_EV_PROGRESS: {
        int n_o = ct_count_type(s, o, CT_ABBEY) + ct_count_type(s, o, CT_LIBRARY);
        int n_a = ct_count_type(s, a, CT_ABBEY) + ct_count_type(s, a, CT_LIBRARY);
        if (n_o) push(s, F_GAIN, o, n_o, 0);
        if (n_a) push(s, F_GAIN, a, n_a, 0);
        break;
    }
    case CT_EV_YEAR_END:
        memset(s->event_pool, 0, sizeof s->event_pool);
        for (int i = 0; i < CT_EVENT_CARDS; i++) s->event_pool[s->events[i]]++;
        s->dealt = 0;
        push(s, F_DEAL_EVENTS, 0, 0, 0);
        break;
    }
}

static void event_die(ct_state *s) {
    int a = s->active, o = opp(a);
    switch (s->face) {
    case CT_DIE_TOURNAMENT: {
        int ta = ct_tournament(s, a), to = ct_tournament(s, o);
        if (ta != to) push(s, F_GAIN, ta > to ? a : o, 1, 0);
        break;
    }
    case CT_DIE_TRADE:
        if (s->windmill >= 0) push(s, F_TAKE, s->windmill, 1, 0);
        break;
    case CT_DIE_BRIGAND: ct_brigand_attack(s); break;
    case CT_DIE_GOOD_YEAR:
        push(s, F_GAIN, o, 1, 0);
        push(s, F_GAIN, a, 1, 0);
        break;
    case CT_DIE_EVENT: push(s, F_EVENT_CARD, a, 0, 0); break;
    }
}

/* The attack's outcome, after the duel die (rules §2). */
static void duel_result(ct_state *s, const ct_frame *f) {
    int attacker = f->seat, defender = opp(attacker), attack = f->a, countered = f->b;
    int success = countered ? s->duel <= 2 : s->duel <= 5;
    int winner = success ? attacker : defender, loser = opp(winner);
    if (attack == CT_BRIGANDS) {
        push(s, F_TAKE, winner, 2, 0);
        return;
    }
    int mode = attack == CT_ARSONIST ? PICK_BUILDING : PICK_KNIGHT;
    /* The seed: whoever an action card leaves over the limit discards at
    ** once ("moet hij gelijk ... schuiven"), the attacker too. */
    push(s, F_LIMIT, loser, 0, 0);
    if (any_pickable(s, loser, mode)) push(s, F_PICK_SITE, winner, loser, mode);
}

/* A decision frame with nothing to decide is skipped (a gain with no room
** anywhere, a take from an empty principality, a pick with no target).
** Each case is what its list in ct_frame_legal needs to be non-empty. */
static int empty_decision(const ct_state *s) {
    const ct_frame *f = ctop(s);
    const ct_player *p = &s->p[f->seat], *o = &s->p[opp(f->seat)];
    switch (f->kind) {
    case F_GAIN: return res_mask(p->room) == 0;
    case F_TAKE: return res_mask(o->stock) == 0;
    case F_MERCHANT_GIVE:
    case F_PAY_SEARCH: return res_mask(p->stock) == 0;
    case F_PICK_SITE: return !any_pickable(s, f->a, f->b);
    case F_DISCARD:
    case F_MASTER_PUT: return p->hand_len == 0;
    case F_CONFLICT_PICK: return o->hand_len == 0;
    case F_SCOUT_PICK: return s->regions_len == 0;
    case F_START_TAKE: return s->stack_len[f->a] == 0;
    default: return 0;
    }
}

/* The parts of ct_walk (the hot path) are inlined into it, their one
** caller, as they were into ct_play before the account walked it step by
** step: left to itself the compiler keeps some apart, a call each step. */
#define CT_INLINE static inline __attribute__((always_inline))

CT_INLINE void run_automatic(ct_state *s, ct_frame f) {
    switch (f.kind) {
    case F_TURN:
        s->active = f.seat;
        start_turn(s);
        break;
    case F_EVENT: event_die(s); break;
    case F_PRODUCTION: ct_produce(s, s->die); break;
    case F_EVENT_CARD: event_card(s); break;
    case F_LIMIT: {
        int excess = s->p[f.seat].hand_len - ct_hand_limit(s, f.seat);
        if (excess > 0) push(s, F_DISCARD, f.seat, excess, 0);
        break;
    }
    case F_DUEL_RESULT: duel_result(s, &f); break;
    }
}

/* Recount the principalities a step changed: counts, points, tokens, the end. */
CT_INLINE void settle(ct_state *s) {
    if (s->dirty) { /* only then can counts, points or the end change */
        ct_refresh_seats(s, s->dirty);
        check_end(s);
        s->dirty = 0;
    }
}

/* Run the automatic frame on top or skip an empty decision; 0 when a
** decision, chance or the end comes first. */
CT_INLINE int step(ct_state *s) {
    if (s->over || !s->nframes) return 0;
    ct_frame f = *ctop(s);
    if (is_automatic(f.kind)) {
        pop(s);
        run_automatic(s, f);
    } else if (empty_decision(s)) {
        pop(s);
    } else {
        return 0;
    }
    return 1;
}

/* ---- applying a decision ----------------------------------------------------- */

static void arrange(ct_state *s, int seat, int perm) {
    s->dirty |= (uint8_t)(1u << seat);
    /* perm in 0..719: a permutation of the seat's six start regions, in
    ** positions (-1,-1) (1,-1) (3,-1) (-1,+1) (1,+1) (3,+1). */
    int left[6] = {0, 1, 2, 3, 4, 5};
    ct_player *p = &s->p[seat];
    for (int pos = 0, n = 6; pos < 6; pos++, n--) {
        int f = 1;
        for (int i = 1; i < n; i++) f *= i;
        int i = perm / f;
        perm %= f;
        int kind = left[i];
        memmove(left + i, left + i + 1, sizeof(int) * (size_t)(n - 1 - i));
        int col = CT_COL0 - 1 + 2 * (pos % 3), row = pos / 3;
        p->region[col][row].card = (uint8_t)(CT_STACK_REGIONS + 6 * seat + kind);
        p->region[col][row].stock = 1;
    }
}

static void deal_next(ct_state *s, int kind, int card) {
    if (kind == F_DEAL_STACKS) {
        static const uint8_t first[CT_STACKS + 1] = {0, 13, 26, 38, 50, 62};
        int k = 0;
        while (s->dealt >= first[k + 1]) k++;
        s->stack[k][s->stack_len[k]] = (uint8_t)card;
        s->stack_known[k][s->stack_len[k]++] = 0;
        s->pool[card]--;
    } else if (kind == F_DEAL_REGIONS) {
        s->regions_known[s->regions_len] = 0;
        s->regions[s->regions_len++] = (uint8_t)card;
        s->region_pool &= (uint16_t)~(1u << card);
    } else {
        s->events_known[s->dealt] = 0;
        s->events[s->dealt] = (uint8_t)card;
        s->event_pool[card]--;
    }
    s->dealt++;
    int done = kind == F_DEAL_STACKS ? s->dealt == CT_EXPANSION_CARDS
             : kind == F_DEAL_REGIONS ? s->region_pool == 0
             : s->dealt == CT_EVENT_CARDS;
    if (done) {
        pop(s);
        s->dealt = 0;
    }
}

/* An action card leaves the game once played. */
static void spend(ct_state *s, int seat, int type) {
    ct_hand_remove(s, seat, ct_hand_find(s, seat, type));
    s->played_out[type]++;
}

static void build_settlement(ct_state *s, int seat, int side, int scout) {
    ct_player *p = &s->p[seat];
    int e = end_col(s, seat, side), col = side ? e + 1 : e - 1;
    ct_pay_cost(s, seat, ct_settlement_cost);
    s->settlements_left--;
    p->centre[col] = CT_SETTLEMENT;
    if (side) p->right = (int8_t)col;
    else p->left = (int8_t)col;
    s->new_col = (int8_t)(side ? col + 1 : col - 1);
    if (scout) {
        spend(s, seat, CT_SCOUT);
        for (int i = 0; i < s->regions_len; i++) s->regions_known[i] |= (uint8_t)(1u << seat);
        push(s, F_SCOUT_PICK, seat, 2, 0);
        return;
    }
    for (int i = 0; i < 2; i++) {
        s->drawn_regions[i] = s->regions[0];
        memmove(s->regions, s->regions + 1, CT_STACK_REGIONS - 1);
        memmove(s->regions_known, s->regions_known + 1, CT_STACK_REGIONS - 1);
        s->regions_len--;
    }
    push(s, F_PLACE_REGIONS, seat, 0, 0);
}

static void place_regions(ct_state *s, int seat, int above) {
    s->dirty |= (uint8_t)(1u << seat);
    ct_player *p = &s->p[seat];
    int below = s->drawn_regions[0] == above ? s->drawn_regions[1] : s->drawn_regions[0];
    p->region[s->new_col][0] = (ct_region){(uint8_t)above, 0};
    p->region[s->new_col][1] = (ct_region){(uint8_t)below, 0};
}

static void scout_pick(ct_state *s, ct_frame *f, int region) {
    int i = 0;
    while (s->regions[i] != region) i++;
    memmove(s->regions + i, s->regions + i + 1, (size_t)(s->regions_len - i - 1));
    memmove(s->regions_known + i, s->regions_known + i + 1, (size_t)(s->regions_len - i - 1));
    s->regions_len--;
    s->drawn_regions[2 - f->a] = (uint8_t)region;
    if (--f->a) return;
    int seat = f->seat;
    pop(s);
    /* then the stack is shuffled: dealt again by chance */
    s->region_pool = 0;
    for (int j = 0; j < s->regions_len; j++) s->region_pool |= (uint16_t)(1u << s->regions[j]);
    s->regions_len = 0;
    s->dealt = 0;
    if (s->region_pool) push(s, F_DEAL_REGIONS, seat, 0, 0);
    push(s, F_PLACE_REGIONS, seat, 0, 0);
}

static void take_resource(ct_state *s, int taker, int res) {
    ct_pay(s, opp(taker), res, 1);
    ct_gain(s, taker, res, 1);
}

static void play_action_card(ct_state *s, int seat, int type) {
    spend(s, seat, type);
    int o = opp(seat);
    switch (type) {
    case CT_ARSONIST:
    case CT_BLACK_KNIGHT:
    case CT_BRIGANDS: push(s, F_COUNTER, o, type, 0); break;
    case CT_CARAVAN: push(s, F_CARAVAN, seat, 2, 0); break;
    case CT_MERCHANT:
        push(s, F_MERCHANT_GIVE, seat, 1, 0);
        push(s, F_MERCHANT_TAKE, seat, 2, 0);
        break;
    case CT_SPY:
        ct_learn_hand(s, seat);
        push(s, F_SPY_TAKE, seat, 0, 0);
        break;
    }
}

static void offer(ct_state *s, int seat, int code) {
    int m = code % 3 + 1, n = code / 3 % 3 + 1, pair = code / 9;
    s->offer[0] = (uint8_t)(pair / CT_RES);
    s->offer[1] = (uint8_t)n;
    s->offer[2] = (uint8_t)(pair % CT_RES);
    s->offer[3] = (uint8_t)m;
    if (s->offers < 255) s->offers++;
    push(s, F_OFFER, opp(seat), 0, 0);
}

/* The A_OFFER code of the offer on the table (offer() read backwards). */
static int offer_code(const ct_state *s) {
    return (s->offer[0] * CT_RES + s->offer[2]) * 9 + (s->offer[1] - 1) * 3 + s->offer[3] - 1;
}

/* The opponent declined the offer: the offerer's bot will not make it again. */
static void decline_offer(ct_state *s, int decliner) {
    int code = offer_code(s);
    s->declined++;
    s->refused[opp(decliner)][code / 8] |= (uint8_t)(1u << code % 8);
}

static void accept_offer(ct_state *s, int acceptor) {
    int offerer = opp(acceptor);
    ct_pay(s, offerer, s->offer[0], s->offer[1]);
    ct_pay(s, acceptor, s->offer[2], s->offer[3]);
    ct_gain(s, acceptor, s->offer[0], s->offer[1]);
    ct_gain(s, offerer, s->offer[2], s->offer[3]);
}

/* A card back from the principality to its owner's hand (public). */
static void site_to_hand(ct_state *s, int owner, int col, int ri) {
    s->dirty |= (uint8_t)(1u << owner);
    ct_hand_add(s, owner, s->p[owner].site[col][ri], 1);
    s->p[owner].site[col][ri] = CT_NONE;
}

static void under(ct_state *s, int owner, int type, int k) {
    ct_put_under(s, owner, ct_hand_find(s, owner, type), k);
}

static int take_from_stack(ct_state *s, int seat, int k, int type) {
    int slot = type < 0 ? 0 : ct_stack_find(s, k, type);
    ct_stack_take(s, seat, k, slot);
    return slot;
}

CT_INLINE void do_action(ct_state *s, tafel_action a) {
    ct_frame *f = top(s);
    int seat = f->seat, kind = f->kind;
    switch (kind) {
    case F_DEAL_STACKS: deal_next(s, kind, a - A_STACK_CARD); return;
    case F_DEAL_REGIONS: deal_next(s, kind, a - A_REGION_CARD); return;
    case F_DEAL_EVENTS: deal_next(s, kind, a - A_EVENT_CARD); return;
    case F_DIE:
        s->die = (uint8_t)(a - A_DIE + 1);
        pop(s);
        return;
    case F_DUEL:
        s->duel = (uint8_t)(a - A_DUEL + 1);
        pop(s);
        return;
    case F_EVENT_DIE:
        s->face = (uint8_t)(a - A_FACE);
        pop(s);
        return;
    case F_ARRANGE:
        arrange(s, seat, a - A_ARRANGE);
        pop(s);
        return;
    case F_START_STACK: {
        int k = a - A_SEARCH;
        pop(s);
        ct_learn_stack(s, seat, k);
        if (seat == 0) s->frame[s->nframes - 1].a = (uint8_t)k; /* seat 1 takes another */
        push(s, F_START_TAKE, seat, k, 3);
        return;
    }
    case F_START_TAKE:
        take_from_stack(s, seat, f->a, a - A_TAKE);
        if (--f->b == 0) pop(s);
        return;
    case F_ROLL:
        pop(s);
        push(s, F_PRODUCTION, seat, 0, 0);
        push(s, F_EVENT, seat, 0, 0);
        push(s, F_EVENT_DIE, seat, 0, 0);
        if (a == A_ROLL) {
            push(s, F_DIE, seat, 0, 0);
        } else {
            spend(s, seat, CT_ALCHEMIST);
            s->die = (uint8_t)(a - A_ALCHEMIST + 1);
        }
        return;
    case F_GAIN:
        ct_gain(s, seat, a - A_RES, 1);
        if (--f->a == 0) pop(s);
        return;
    case F_TAKE:
        take_resource(s, seat, a - A_RES);
        if (--f->a == 0) pop(s);
        return;
    case F_MERCHANT_TAKE:
        if (a == A_PASS || (take_resource(s, seat, a - A_RES), --f->a == 0)) pop(s);
        return;
    case F_MERCHANT_GIVE:
        ct_pay(s, seat, a - A_RES, 1);
        ct_gain(s, opp(seat), a - A_RES, 1);
        pop(s);
        return;
    case F_PAY_SEARCH:
        ct_pay(s, seat, a - A_RES, 1);
        if (--f->b == 0) {
            int k = f->a;
            pop(s);
            ct_learn_stack(s, seat, k);
            push(s, F_SEARCH_TAKE, seat, k, 0);
        }
        return;
    case F_SEARCH_TAKE:
    case F_MASTER_TAKE:
        take_from_stack(s, seat, f->a, a - A_TAKE);
        pop(s);
        return;
    case F_PLACE_REGIONS:
        place_regions(s, seat, a - A_ABOVE);
        pop(s);
        return;
    case F_SCOUT_PICK: scout_pick(s, f, a - A_REGION_CARD); return;
    case F_OFFER:
        if (a == A_ACCEPT) accept_offer(s, seat);
        else decline_offer(s, seat);
        pop(s);
        return;
    case F_COUNTER: {
        int attack = f->a, countered = a != A_PASS;
        if (countered) spend(s, seat, a - A_PLAY);
        pop(s);
        push(s, F_DUEL_RESULT, opp(seat), attack, countered);
        push(s, F_DUEL, opp(seat), 0, 0);
        return;
    }
    case F_PICK_SITE: {
        int site = a - A_SITE;
        site_to_hand(s, f->a, site / CT_SITE_ROWS, site % CT_SITE_ROWS);
        pop(s);
        return;
    }
    case F_CARAVAN:
        if (a == A_PASS) {
            pop(s);
            return;
        }
        ct_pay(s, seat, (a - A_TRADE) / CT_RES, 1);
        ct_gain(s, seat, (a - A_TRADE) % CT_RES, 1);
        if (--f->a == 0) pop(s);
        return;
    case F_SPY_TAKE:
        pop(s);
        if (a != A_PASS) {
            int slot = ct_hand_find(s, opp(seat), a - A_TAKE);
            ct_hand_remove(s, opp(seat), slot);
            ct_hand_add(s, seat, a - A_TAKE, 1);
            push(s, F_LIMIT, seat, 0, 0); /* over the limit: discard at once */
        }
        return;
    case F_CONFLICT_PICK:
        under(s, opp(seat), (a - A_UNDER) / CT_STACKS, (a - A_UNDER) % CT_STACKS);
        if (--f->a == 0) pop(s);
        return;
    case F_MASTER_SEARCH:
        pop(s);
        if (a != A_PASS) {
            int k = a - A_SEARCH;
            ct_learn_stack(s, seat, k);
            push(s, F_MASTER_PUT, seat, k, 0);
            push(s, F_MASTER_TAKE, seat, k, 0);
        }
        return;
    case F_MASTER_PUT:
    case F_DISCARD:
        under(s, seat, (a - A_UNDER) / CT_STACKS, (a - A_UNDER) % CT_STACKS);
        if (kind == F_MASTER_PUT || --f->a == 0) pop(s);
        return;
    case F_REFILL:
        if (a == A_PASS) {
            pop(s);
            push(s, F_LIMIT, seat, 0, 0); /* over the limit: discard, draw nothing */
        } else if (a >= A_DRAW && a < A_DRAW + CT_STACKS) {
            take_from_stack(s, seat, a - A_DRAW, -1);
        } else if (a >= A_SEARCH && a < A_SEARCH + CT_STACKS) {
            push(s, F_PAY_SEARCH, seat, a - A_SEARCH, search_cost(s, seat));
        } else { /* exchange: one card under a stack, then one from it */
            int k = (a - A_UNDER) % CT_STACKS;
            under(s, seat, (a - A_UNDER) / CT_STACKS, k);
            pop(s);
            push(s, F_EXCHANGE_TAKE, seat, k, 0);
        }
        return;
    case F_EXCHANGE_TAKE:
        pop(s);
        if (a >= A_DRAW && a < A_DRAW + CT_STACKS) take_from_stack(s, seat, f->a, -1);
        else push(s, F_PAY_SEARCH, seat, f->a, search_cost(s, seat));
        return;
    case F_BANK: {
        int give = (a - A_TRADE) / CT_RES, get = (a - A_TRADE) % CT_RES;
        ct_pay(s, seat, give, ct_trade_rate(s, seat, give));
        ct_gain(s, seat, get, 1);
        pop(s);
        return;
    }
    case F_NEGOTIATE:
        pop(s);
        offer(s, seat, a - A_OFFER);
        return;
    case F_MAIN:
        if (a >= A_ROAD) /* a building: counts and points change */
            s->dirty |= (uint8_t)(1u << seat);
        if (a >= A_ROAD || (a >= A_PLAY && a < A_TRADE)) { /* shown to the opponent */
            s->last_build[seat] = (int16_t)a;
            s->last_build_turn[seat] = s->turn;
        }
        if (a == A_PASS) {
            pop(s);
            /* refill starts now: remember whether the hand was already full */
            top(s)->a = s->p[seat].hand_len >= ct_hand_limit(s, seat);
        } else if (a >= A_PLAY && a < A_TRADE) {
            play_action_card(s, seat, a - A_PLAY);
        } else if (a == A_BANK) {
            push(s, F_BANK, seat, 0, 0);
        } else if (a == A_NEGOTIATE) {
            push(s, F_NEGOTIATE, seat, 0, 0);
        } else if (a >= A_ROAD && a < A_SETTLE) {
            int side = a - A_ROAD, e = end_col(s, seat, side), col = side ? e + 1 : e - 1;
            ct_pay_cost(s, seat, ct_road_cost);
            s->roads_left--;
            s->p[seat].centre[col] = CT_ROAD;
            if (side) s->p[seat].right = (int8_t)col;
            else s->p[seat].left = (int8_t)col;
        } else if (a >= A_SETTLE && a < A_CITY) {
            build_settlement(s, seat, (a - A_SETTLE) & 1, (a - A_SETTLE) >> 1);
        } else if (a >= A_CITY && a < A_BUILD) {
            ct_pay_cost(s, seat, ct_city_cost);
            s->cities_left--;
            s->p[seat].centre[a - A_CITY] = CT_CITY;
        } else {
            int type = (a - A_BUILD) / CT_SITES, site = (a - A_BUILD) % CT_SITES;
            ct_pay_cost(s, seat, ct_cards[type].cost);
            ct_hand_remove(s, seat, ct_hand_find(s, seat, type));
            s->p[seat].site[site / CT_SITE_ROWS][site % CT_SITE_ROWS] = (uint8_t)type;
        }
        return;
    }
}

/* Whether a main-phase action is possible now, without listing them. */
static int main_ok(const ct_state *s, int seat, tafel_action a) {
    const ct_player *p = &s->p[seat];
    const uint8_t *stock = p->stock;
    if (a == A_PASS) return 1;
    if (a == A_BANK) return any_bank_trade(s, seat);
    if (a == A_NEGOTIATE) return any_offer(s, seat);
    if (a >= A_PLAY && a < A_TRADE) {
        int t = a - A_PLAY;
        return action_cards_allowed(s) && t >= CT_ALCHEMIST && hand_has(s, seat, t) &&
               playable(s, seat, t);
    }
    if (a >= A_ROAD && a < A_SETTLE) return road_ok(s, seat, a - A_ROAD);
    if (a >= A_SETTLE && a < A_CITY)
        return settlement_ok(s, seat, (a - A_SETTLE) & 1, (a - A_SETTLE) >> 1);
    if (a >= A_CITY && a < A_BUILD) {
        int c = a - A_CITY;
        return s->cities_left && affords(stock, ct_city_cost) && c >= p->left && c <= p->right &&
               p->centre[c] == CT_SETTLEMENT;
    }
    if (a >= A_BUILD && a < A_DRAW) {
        int t = (a - A_BUILD) / CT_SITES, site = (a - A_BUILD) % CT_SITES;
        int c = site / CT_SITE_ROWS;
        return t < CT_ALCHEMIST && hand_has(s, seat, t) && affords(stock, ct_cards[t].cost) &&
               c >= p->left && c <= p->right && site_ok(s, seat, t, c, site % CT_SITE_ROWS);
    }
    return 0;
}

static int offer_ok(const ct_state *s, int seat, tafel_action a) {
    if (a < A_OFFER || a >= A_ROAD) return 0;
    int code = a - A_OFFER, m = code % 3 + 1, n = code / 3 % 3 + 1, pair = code / 9;
    int give = pair / CT_RES, get = pair % CT_RES;
    return give != get && ct_stock(s, seat, give) >= n && ct_stock(s, opp(seat), get) >= m;
}

/* Legality of a, without listing, in the frames that are frequent or list
** much (the main phase, offers, arrangements); -1 for the rest, which
** in_list looks up in their list. */
static int quick_legal(const ct_state *s, tafel_action a) {
    const ct_frame *f = ctop(s);
    int seat = f->seat, res = a - A_RES, is_res = res >= 0 && res < CT_RES;
    switch (f->kind) {
    case F_DEAL_STACKS: return a >= A_STACK_CARD && a < A_REGION_CARD && s->pool[a - A_STACK_CARD];
    case F_DEAL_REGIONS:
        return a >= A_REGION_CARD && a < A_EVENT_CARD && (s->region_pool >> (a - A_REGION_CARD) & 1);
    case F_DEAL_EVENTS: return a >= A_EVENT_CARD && a < A_DIE && s->event_pool[a - A_EVENT_CARD];
    case F_DIE: return a >= A_DIE && a < A_FACE;
    case F_EVENT_DIE: return a >= A_FACE && a < A_DUEL;
    case F_DUEL: return a >= A_DUEL && a < A_ARRANGE;
    case F_ARRANGE: return a >= A_ARRANGE && a < A_ARRANGE + 720;
    case F_ROLL:
        return a == A_ROLL || (a >= A_ALCHEMIST && a < A_PASS && action_cards_allowed(s) &&
                               hand_has(s, seat, CT_ALCHEMIST));
    case F_GAIN: return is_res && s->p[seat].room[res];
    case F_TAKE: return is_res && s->p[opp(seat)].stock[res];
    case F_PAY_SEARCH: return is_res && s->p[seat].stock[res];
    case F_OFFER: return a == A_PASS || a == A_ACCEPT;
    case F_BANK: return bank_ok(s, seat, a);
    case F_SEARCH_TAKE: return a >= A_TAKE && a < A_RES && ct_stack_find(s, f->a, a - A_TAKE) >= 0;
    case F_REFILL: return refill_ok(s, f, a);
    case F_NEGOTIATE: return offer_ok(s, seat, a);
    case F_MAIN: return main_ok(s, seat, a);
    default: return -1;
    }
}

static int in_list(const ct_state *s, tafel_action a) {
    /* any int may come in; the checks below subtract from it */
    if (a < 0 || a >= CT_ACTIONS) return 0;
    int quick = quick_legal(s, a);
    if (quick >= 0) return quick;
    tafel_action buf[CT_ACTIONS];
    int n = ct_frame_legal(s, &(list){buf, 0});
    for (int i = 0; i < n; i++)
        if (buf[i] == a) return 1;
    return 0;
}

/* Action a (a legal one; none when negative), then automatic frames run and
** empty decisions skipped until a decision, chance or the end, points
** recounted after each step.  The account (account.c) walks the same way a
** step at a time: it stops after max steps (the action alone is step 0) and
** answers 1; random play never stops early (max < 0).  One function for
** both, so that the steps stay inlined in it as they were in ct_play. */
int ct_walk(ct_state *s, tafel_action a, int max) {
    if (a >= 0) do_action(s, a);
    for (;; max--) {
        settle(s);
        if (max == 0) return 1;
        if (!step(s)) break;
    }
    s->actor = (int8_t)ct_current(s);
    return 0;
}

int ct_legal_action(const void *data, tafel_action a) {
    const ct_state *s = data;
    return !s->over && s->nframes && in_list(s, a);
}

static int refused(const ct_state *s, int seat, int code) {
    return s->refused[seat][code / 8] >> code % 8 & 1;
}

/* Offers are the game's requests: each one a question the opponent must
** answer.  A seat that offered this turn has had its say until the next
** turn; an offer the opponent declined is not made again in the game, and
** "negotiate" (which must end in an offer) is spent when every offer it
** could lead to is one of those.  Manners for bots only: the rules allow
** all of these (rules §4.3, docs/catan_cards.md). */
int ct_request(const void *data, tafel_action a) {
    const ct_state *s = data;
    if (s->over || !s->nframes) return 0;
    int kind = ctop(s)->kind, seat = ctop(s)->seat;
    if (kind == F_MAIN && a == A_NEGOTIATE) {
        if (s->offers) return TAFEL_REQUEST_SPENT;
        for (int code = 0; code < CT_OFFER_CODES; code++)
            if (offer_ok(s, seat, A_OFFER + code) && !refused(s, seat, code))
                return TAFEL_REQUEST;
        return TAFEL_REQUEST_SPENT;
    }
    if (kind == F_NEGOTIATE && a >= A_OFFER && a < A_ROAD)
        return s->offers || refused(s, seat, a - A_OFFER) ? TAFEL_REQUEST_SPENT
                                                          : TAFEL_REQUEST;
    return 0;
}

/* A legal action, applied: the module's own choices come straight here. */
static void ct_play(void *data, tafel_action a) { ct_walk(data, a, -1); }

int ct_apply(void *data, tafel_action a, tafel_error *err) {
    ct_state *s = data;
    if (s->over) return tf_error(err, TAFEL_EILLEGAL, "the game is over");
    if (!in_list(s, a)) {
        char text[64];
        if (a < 0 || a >= CT_ACTIONS || ct_to_text(s, a, text, sizeof text) < 0)
            return tf_error(err, TAFEL_EILLEGAL, "%d is not an action of this game", a);
        if (a == A_NEGOTIATE && ctop(s)->kind == F_MAIN && s->declined >= 3)
            return tf_error(err, TAFEL_EILLEGAL,
                            "'%s' is not possible now: 3 offers were declined this turn", text);
        return tf_error(err, TAFEL_EILLEGAL, "'%s' is not possible now", text);
    }
    ct_play(s, a);
    return TAFEL_OK;
}

/* ---- setup and the module -------------------------------------------------- */

static int ct_validate(const tf_options *opt, tafel_error *err) {
    (void)opt;
    (void)err;
    return TAFEL_OK;
}

static void ct_init(void *data, const tf_options *opt) {
    ct_state *s = data;
    memset(s, 0, sizeof *s);
    s->win_on_own_turn = (uint8_t)opt->value[P_OWN_TURN];
    s->max_turns = (uint16_t)opt->value[P_MAX_TURNS];
    s->knight_token = s->windmill = -1;
    s->last_build[0] = s->last_build[1] = -1;
    s->roads_left = 7;
    s->settlements_left = 5;
    s->cities_left = 7;
    for (int seat = 0; seat < 2; seat++) ct_principality_init(s, seat);
    for (int t = 0; t < CT_CARD_TYPES; t++) s->pool[t] = ct_cards[t].count;
    s->region_pool = (1u << CT_STACK_REGIONS) - 1;
    memcpy(s->event_pool, ct_event_counts, sizeof s->event_pool);
    ct_refresh(s);
    s->active = 1; /* F_TURN starts seat 0's first turn */
    push(s, F_TURN, 0, 0, 0);
    push(s, F_START_STACK, 1, CT_NONE, 0);
    push(s, F_START_STACK, 0, CT_NONE, 0);
    push(s, F_ARRANGE, 1, 0, 0);
    push(s, F_ARRANGE, 0, 0, 0);
    push(s, F_DEAL_EVENTS, 0, 0, 0);
    push(s, F_DEAL_REGIONS, 0, 0, 0);
    push(s, F_DEAL_STACKS, 0, 0, 0);
    s->actor = TAFEL_CHANCE;
}

static void ct_scores(const void *data, double *out) {
    const ct_state *s = data;
    for (int seat = 0; seat < 2; seat++) out[seat] = ct_vp(s, seat);
}

int ct_winners(const void *data, int *out) {
    const ct_state *s = data;
    if (s->draw_game) {
        out[0] = 0;
        out[1] = 1;
        return 2;
    }
    int v0 = ct_vp(s, 0), v1 = ct_vp(s, 1), n = 0;
    if (v0 >= 12 && v1 >= 12) { /* both at once: the player whose turn it is */
        out[0] = s->active;
        return 1;
    }
    if (v0 >= v1) out[n++] = 0;
    if (v1 >= v0) out[n++] = 1;
    return n;
}

/* How far the player's resources go toward paying cost (0..1). */
static double progress(const ct_state *s, int seat, const uint8_t cost[CT_RES_WORD]) {
    int need = 0, have = 0;
    for (int r = 0; r < CT_RES; r++) {
        int st = ct_stock(s, seat, r);
        need += cost[r];
        have += st < cost[r] ? st : cost[r];
    }
    return need ? (double)have / need : 1;
}

/* Victory points, plus what the position is likely worth soon: the best
** next build weighted by how much of its cost is at hand (so trading toward
** it pays), regions (income), resources, hand cards, strength and trade
** points toward the tokens. */
static void ct_heuristic(const void *data, double *out) {
    const ct_state *s = data;
    for (int seat = 0; seat < 2; seat++) {
        const ct_player *p = &s->p[seat];
        double h = ct_vp(s, seat), best = 0;
        int settle_site = p->centre[p->left] == CT_ROAD || p->centre[p->right] == CT_ROAD;
        if (s->settlements_left && s->regions_len >= 2 && settle_site)
            best = 1.3 * progress(s, seat, ct_settlement_cost);
        else if (s->roads_left)
            best = 0.5 * progress(s, seat, ct_road_cost);
        for (int c = p->left; c <= p->right; c++)
            if (p->centre[c] == CT_SETTLEMENT && s->cities_left) {
                double v = 1.1 * progress(s, seat, ct_city_cost);
                if (v > best) best = v;
            }
        for (int i = 0; i < p->hand_len; i++) {
            const ct_card *c = &ct_cards[p->hand[i]];
            if (c->what == CT_ACTION) continue;
            double worth = c->vp + 0.15 * (c->strength + c->trade) + 0.3;
            double v = worth * progress(s, seat, c->cost);
            if (v > best) best = v;
        }
        h += 0.6 * best;
        /* What the cards built do besides points: strength and trade win
        ** tokens, a bigger hand builds more, producers double income. */
        h += 0.12 * (ct_strength(s, seat) + ct_trade_points(s, seat)) + 0.04 * ct_tournament(s, seat);
        h += 0.3 * (ct_hand_limit(s, seat) - 3);
        for (int t = CT_BRICK_FACTORY; t <= CT_WOOLEN_MILL; t++) h += 0.25 * ct_count_type(s, seat, t);
        h += 0.03 * ct_total_stock(s, seat) + 0.12 * p->hand_len;
        for (int c = p->left - 1; c <= p->right + 1; c++)
            for (int r = 0; r < 2; r++) h += 0.06 * (p->region[c][r].card != CT_NONE);
        out[seat] = h;
    }
}

static int ct_breakdown(const void *data, int seat, const char **names, double *values,
                        int cap) {
    const ct_state *s = data;
    const ct_player *p = &s->p[seat];
    int settlements = 0, cities = 0, cards = 0;
    for (int c = p->left; c <= p->right; c++) {
        settlements += p->centre[c] == CT_SETTLEMENT;
        cities += 2 * (p->centre[c] == CT_CITY);
        for (int r = 0; r < CT_SITE_ROWS; r++)
            if (p->site[c][r] != CT_NONE) cards += ct_cards[p->site[c][r]].vp;
    }
    const char *n[5] = {"settlements", "cities", "expansions", "knight", "windmill"};
    double v[5] = {settlements, cities, cards, s->knight_token == seat, s->windmill == seat};
    for (int i = 0; i < 5 && i < cap; i++) names[i] = n[i], values[i] = v[i];
    return 5;
}

const tf_module ct_module = {
    .name = "catan_cards",
    .summary = "The Settlers of Catan card game (1996), for two",
    .params = ct_params,
    .nparams = (int)(sizeof ct_params / sizeof ct_params[0]),
    .data_size = sizeof(ct_state),
    .max_actions = CT_ACTIONS,
    .validate = ct_validate,
    .init = ct_init,
    .current = ct_current,
    .current_byte = offsetof(ct_state, actor),
    .legal = ct_legal,
    .chance = ct_chance,
    .sample = ct_sample,
    .apply = ct_apply,
    .play = ct_play,
    .to_text = ct_to_text,
    .view_text = ct_view_text,
    .from_text = ct_from_text,
    .scores = ct_scores,
    .projected = ct_scores,
    .heuristic = ct_heuristic,
    .winners = ct_winners,
    .breakdown = ct_breakdown,
    .view_json = ct_view_json,
    .render = ct_render,
    .resample = ct_resample,
    .check = ct_check,
    .pieces_json = ct_pieces_json,
    .describe = ct_describe,
    .request = ct_request,
    .tensor_shape = ct_tensor_shape,
    .tensor_parts = ct_tensor_parts,
    .tensor = ct_tensor,
    .action_space = ct_action_space,
    .action_index = ct_action_index,
    .index_action = ct_index_action,
};
