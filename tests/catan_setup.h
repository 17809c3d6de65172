/*
** catan_setup.h -- building positions of the Catan card game for tests.
**
** A test starts from ct_game(): the shuffles dealt so that the cards a test
** names lie on top of the stacks it names, both principalities arranged
** the same way, both players' three start cards taken, and seat 0 about to
** roll its first turn.  Then it plays actions through the public API
** (h_play), forcing dice by their chance actions ("die 4", "event-die
** brigand"), and sets what would take many turns to reach (resources on a
** region, a card already built, a city) by editing the state (white-box,
** through tf_state_data and the module's own functions, so every card stays
** accounted for).  After editing regions or sites by hand, call
** ct_refresh(ct_data(s)): counts and points are derived fields.
*/
#ifndef TAFEL_TEST_CATAN_SETUP_H
#define TAFEL_TEST_CATAN_SETUP_H

#include "helpers.h"
#include "core/module.h"
#include "games/catan_cards/catan.h"

static inline ct_state *ct_data(tafel_state *s) { return tf_state_data(s); }

static inline int ct_type(const char *code) {
    for (int t = 0; t < CT_CARD_TYPES; t++)
        if (!strcmp(ct_cards[t].code, code)) return t;
    fail_msg("no card '%s'", code);
    return -1;
}

static inline int ct_res(const char *code) {
    for (int r = 0; r < CT_RES; r++)
        if (!strcmp(ct_res_codes[r], code)) return r;
    fail_msg("no resource '%s'", code);
    return -1;
}

/* The arrangement both players use: row -1: (-1) fields, (1) mountains,
** (3) pasture; row +1: (-1) forest, (1) hills, (3) gold. */
#define CT_ARRANGE "arrange G O W L B Au"

/* Deal the expansion cards so that stack k (1..5) starts with the cards in
** tops[k-1] (space separated codes, top first; NULL or "" for none), then
** regions and events in the orders given (space separated, all of them;
** NULL: the table's order), arrange both principalities, and let seat 0
** take starts0 (3 codes) from stack 1 and seat 1 starts1 from stack 2. */
static inline tafel_state *ct_game_with(const char *game, const char *const tops[5],
                                        const char *regions, const char *events,
                                        const char *starts0, const char *starts1) {
    tafel_state *s = h_state(game);
    static const int sizes[5] = {13, 13, 12, 12, 12};
    int left[CT_CARD_TYPES], wanted[5][13], nw[5] = {0};
    for (int t = 0; t < CT_CARD_TYPES; t++) left[t] = ct_cards[t].count;
    /* the named cards are reserved first, so fillers never use them up */
    char buf[512];
    for (int k = 0; k < 5; k++) {
        if (!tops || !tops[k]) continue;
        snprintf(buf, sizeof buf, "%s", tops[k]);
        for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
            int t = ct_type(w);
            assert_true(left[t] > 0 && nw[k] < sizes[k]);
            left[t]--;
            wanted[k][nw[k]++] = t;
        }
    }
    for (int k = 0; k < 5; k++) {
        for (int i = 0; i < sizes[k]; i++) {
            int t;
            if (i < nw[k]) {
                t = wanted[k][i];
            } else {
                t = 0;
                while (left[t] == 0) t++;
                left[t]--;
            }
            char text[64];
            snprintf(text, sizeof text, "stack %d %s", k + 1, ct_cards[t].code);
            h_play(s, text, NULL);
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        const char *order = pass == 0 ? regions : events;
        if (order) {
            snprintf(buf, sizeof buf, "%s", order);
            for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
                char text[64];
                snprintf(text, sizeof text, "%s %s", pass == 0 ? "regions" : "events", w);
                h_play(s, text, NULL);
            }
            continue;
        }
        for (int i = 0; pass == 0 && i < CT_STACK_REGIONS; i++) {
            char text[64];
            snprintf(text, sizeof text, "regions %s", ct_region_cards[i].name);
            h_play(s, text, NULL);
        }
        for (int e = 0; pass == 1 && e < CT_EVENT_TYPES; e++)
            for (int i = 0; i < ct_event_counts[e]; i++) {
                char text[64];
                snprintf(text, sizeof text, "events %s", ct_event_codes[e]);
                h_play(s, text, NULL);
            }
    }
    h_play(s, CT_ARRANGE, CT_ARRANGE, "search 1", NULL);
    for (int seat = 0; seat < 2; seat++) {
        if (seat == 1) h_play(s, "search 2", NULL);
        snprintf(buf, sizeof buf, "%s", seat ? starts1 : starts0);
        for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
            char text[64];
            snprintf(text, sizeof text, "take %s", w);
            h_play(s, text, NULL);
        }
    }
    assert_int_equal(tafel_state_current(s), 0);
    return s;
}

/* Stack 1 starts with seat 0's start cards, stack 2 with seat 1's. */
static inline tafel_state *ct_game(const char *starts0, const char *starts1) {
    const char *tops[5] = {starts0, starts1, NULL, NULL, NULL};
    return ct_game_with("catan_cards", tops, NULL, NULL, starts0, starts1);
}

/* A turn in which nothing happens: die 3, the trade face with no windmill
** holder, no build, no card drawn. */
static inline void ct_quiet_turn(tafel_state *s, int seat) {
    char script[128];
    snprintf(script, sizeof script, "%d roll; c die 3; c event-die trade; %d end; %d done", seat,
             seat, seat);
    h_script(s, script);
}

/* The ten event cards with first on top, the rest in the table's order (a
** static buffer, for ct_game_with). */
static inline const char *ct_events_first(const char *first) {
    static char out[512];
    int count[CT_EVENT_TYPES];
    for (int e = 0; e < CT_EVENT_TYPES; e++)
        count[e] = ct_event_counts[e] - !strcmp(ct_event_codes[e], first);
    size_t used = (size_t)snprintf(out, sizeof out, "%s", first);
    for (int e = 0; e < CT_EVENT_TYPES; e++)
        for (int i = 0; i < count[e]; i++)
            used += (size_t)snprintf(out + used, sizeof out - used, " %s", ct_event_codes[e]);
    return out;
}

/* A game whose event deck starts with first (ct_game's start cards). */
static inline tafel_state *ct_event_game(const char *first, const char *starts0,
                                         const char *starts1) {
    const char *tops[5] = {starts0, starts1, NULL, NULL, NULL};
    return ct_game_with("catan_cards", tops, NULL, ct_events_first(first), starts0, starts1);
}

/* The region of kind res (each kind once at the start) of seat: its stock. */
static inline ct_region *ct_region_of(tafel_state *s, int seat, int res) {
    ct_player *p = &ct_data(s)->p[seat];
    for (int c = 0; c < CT_COLS; c++)
        for (int r = 0; r < 2; r++)
            if (p->region[c][r].card != CT_NONE && ct_region_cards[p->region[c][r].card].kind == res)
                return &p->region[c][r];
    fail_msg("seat %d has no region of kind %d", seat, res);
    return NULL;
}

/* Set every start region's stock: six numbers in the order L W B O G Au. */
static inline void ct_set_stock(tafel_state *s, int seat, const int stock[CT_RES]) {
    for (int r = 0; r < CT_RES; r++) ct_region_of(s, seat, r)->stock = (uint8_t)stock[r];
    ct_refresh(ct_data(s));
}

static inline int ct_stock_of(tafel_state *s, int seat, const char *res) {
    return ct_stock(ct_data(s), seat, ct_res(res));
}

/* Move one copy of a card from the stacks into seat's hand (nobody else
** knows it). */
static inline void ct_give(tafel_state *s, int seat, const char *code) {
    ct_state *d = ct_data(s);
    int t = ct_type(code);
    for (int k = 0; k < CT_STACKS; k++) {
        int slot = ct_stack_find(d, k, t);
        if (slot >= 0) {
            d->stack_known[k][slot] = 0;
            ct_stack_take(d, seat, k, slot);
            return;
        }
    }
    fail_msg("no %s left in the stacks", code);
}

/* Move one copy of a card from the stacks onto seat's site (col, row). */
static inline void ct_put_site(tafel_state *s, int seat, const char *code, int col, int row) {
    ct_state *d = ct_data(s);
    ct_give(s, seat, code);
    ct_player *p = &d->p[seat];
    int ri = row == -2 ? 0 : row == -1 ? 1 : row == 1 ? 2 : 3;
    p->site[col + CT_COL0][ri] = p->hand[p->hand_len - 1];
    ct_hand_remove(d, seat, p->hand_len - 1);
    ct_refresh(d);
}

/* Turn seat's settlement at col into a city. */
static inline void ct_make_city(tafel_state *s, int seat, int col) {
    ct_state *d = ct_data(s);
    assert_int_equal(d->p[seat].centre[col + CT_COL0], CT_SETTLEMENT);
    d->p[seat].centre[col + CT_COL0] = CT_CITY;
    d->cities_left--;
    ct_refresh(d);
}

static inline int ct_hand_count(tafel_state *s, int seat, const char *code) {
    ct_player *p = &ct_data(s)->p[seat];
    int n = 0, t = ct_type(code);
    for (int i = 0; i < p->hand_len; i++) n += p->hand[i] == t;
    return n;
}

static inline int ct_points(tafel_state *s, int seat) { return ct_vp(ct_data(s), seat); }

#endif
