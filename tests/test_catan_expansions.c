/*
** test_catan_expansions.c -- every green and red expansion card of the Catan
** card game (rules/catan_cards.md §2, §3, §5; the Dutch rulebook, seed 003,
** as the authority), one test per effect, built through the public API
** ("build <code> <col> <row>") with its cost checked before and after.
**
** Positions come from catan_setup.h: both principalities arranged the same
** way (CT_ARRANGE):
**
**     row -1:  (-1) fields   (1) mountains  (3) pasture
**     row  0:  ( 0) settlement (1) road      (2) settlement
**     row +1:  (-1) forest   (1) hills      (3) gold field
**
** so the site (0,-1) borders fields and mountains, (0,1) forest and hills,
** (2,-1) mountains and pasture, (2,1) hills and gold.  Production numbers
** (rules §2): seat 0 (start player) G1 O2 W3 L4 B5 Au6, seat 1 G2 O3 W4 L5
** B6 Au1.  Resources are written "L W B O G Au" (lumber, wool, brick, ore,
** grain, gold), as the engine prints them.
**
** Each test reaches seat 0's first main phase (roll, die, event die), then
** sets the resources it needs by editing the regions (white-box), builds
** the card with an action text, and shows the effect through actions and
** the public score breakdown.  Strength, tournament and trade points are
** read with the module's own functions (they are not an action's effect).
*/
#include "catan_setup.h"

/* Seat 1's start cards when the test does not care. */
#define OTHER "spy bishop caravan"

/* ---------------------------------------------------------------- helpers */

static const char *stock_text(tafel_state *s, int seat, char *buf, size_t n) {
    snprintf(buf, n, "L%d W%d B%d O%d G%d Au%d", ct_stock_of(s, seat, "L"),
             ct_stock_of(s, seat, "W"), ct_stock_of(s, seat, "B"), ct_stock_of(s, seat, "O"),
             ct_stock_of(s, seat, "G"), ct_stock_of(s, seat, "Au"));
    return buf;
}

/* Seat's resources, all regions of a kind summed: "L3 W2 B3 O2 G2 Au3". */
#define assert_stock(s, seat, text)                                            \
    do {                                                                       \
        char b_[64];                                                           \
        assert_string_equal(stock_text((s), (seat), b_, sizeof b_), (text));   \
    } while (0)

/* Seat's start regions: one number per kind, in the order L W B O G Au. */
static void set_stock(tafel_state *s, int seat, int l, int w, int b, int o, int g, int au) {
    const int stock[CT_RES] = {l, w, b, o, g, au};
    ct_set_stock(s, seat, stock);
}

static void all_stock(tafel_state *s, int seat, int n) { set_stock(s, seat, n, n, n, n, n, n); }

/* The resources on the region at (col, row) of seat. */
static int region_stock(tafel_state *s, int seat, int col, int row) {
    ct_region *g = &ct_data(s)->p[seat].region[col + CT_COL0][row < 0 ? 0 : 1];
    assert_true(g->card != CT_NONE);
    return g->stock;
}

static void set_region(tafel_state *s, int seat, int col, int row, int n) {
    ct_region *g = &ct_data(s)->p[seat].region[col + CT_COL0][row < 0 ? 0 : 1];
    assert_true(g->card != CT_NONE);
    g->stock = (uint8_t)n;
    ct_refresh(ct_data(s));
}

/* The event deck with `first` on top, then the others in the table's order. */
static const char *events_first(const char *first, char *buf, size_t n) {
    size_t len = (size_t)snprintf(buf, n, "%s", first);
    for (int e = 0; e < CT_EVENT_TYPES; e++)
        for (int i = 0; i < ct_event_counts[e] - !strcmp(ct_event_codes[e], first); i++)
            len += (size_t)snprintf(buf + len, n - len, " %s", ct_event_codes[e]);
    return buf;
}

/* Roll a turn: production die n, event die face. */
static void roll(tafel_state *s, int die, const char *face) {
    char d[16], f[32];
    snprintf(d, sizeof d, "die %d", die);
    snprintf(f, sizeof f, "event-die %s", face);
    play(s, "roll", d, f);
}

/* End the main phase, refill nothing: the other seat's turn begins. */
static void pass_turn(tafel_state *s) { play(s, "end", "done"); }

/* A bank trade (a step away from the main phase: "bank", then the trade). */
static void bank_trade(tafel_state *s, const char *trade) { play(s, "bank", trade); }

/* A game (stack 3 starting with stack3, the event deck with event on top,
** the region stack in order regions) in seat 0's first main phase: die 1,
** and the brigand, which hits nobody yet (6 resources each). */
static tafel_state *main_phase_with(const char *hand0, const char *hand1, const char *stack3,
                                    const char *regions, const char *event) {
    const char *tops[5] = {hand0, hand1, stack3, NULL, NULL};
    char buf[256];
    tafel_state *s = ct_game_with("catan_cards", tops, regions,
                                  event ? events_first(event, buf, sizeof buf) : NULL, hand0,
                                  hand1);
    roll(s, 1, "brigand");
    assert_int_equal(tafel_state_current(s), 0);
    return s;
}

static tafel_state *main_phase(const char *hand0) {
    return main_phase_with(hand0, OTHER, NULL, NULL, NULL);
}

static int hand_len(tafel_state *s, int seat) { return ct_data(s)->p[seat].hand_len; }
static int strength(tafel_state *s, int seat) { return ct_strength(ct_data(s), seat); }
static int tournament(tafel_state *s, int seat) { return ct_tournament(ct_data(s), seat); }
static int trade_points(tafel_state *s, int seat) { return ct_trade_points(ct_data(s), seat); }

/* ------------------------------------------- green: Abbey, hand limit +1 */

/* §2 Abbey (L O B): hand limit +1; §4.4 the refill fills the hand to it. */
static void test_an_abbey_costs_lumber_ore_brick_and_lets_the_refill_draw_to_four(void **u) {
    (void)u;
    tafel_state *s = main_phase("abbey alchemist scout");
    all_stock(s, 0, 3);
    play(s, "build abbey 0 -1");
    assert_stock(s, 0, "L2 W3 B2 O2 G3 Au3");
    assert_int_equal(ct_points(s, 0), 2); /* an Abbey is worth no point */
    play(s, "end", "draw 3", "draw 3");
    assert_int_equal(hand_len(s, 0), 4);
    h_refused(s, "draw 3", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

/* §4.4 without an Abbey or Library the hand fills to 3 only. */
static void test_without_an_abbey_the_refill_stops_at_three(void **u) {
    (void)u;
    tafel_state *s = main_phase("garrison alchemist scout");
    all_stock(s, 0, 3);
    play(s, "build garrison 0 -1"); /* two cards left */
    play(s, "end", "draw 3");
    assert_int_equal(hand_len(s, 0), 3);
    h_refused(s, "draw 3", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

/* §3 Progress: each player gains 1 resource of his choice per Abbey and per
** Library he owns. */
static void test_progress_gives_one_resource_per_abbey_and_library(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("abbey alchemist scout", OTHER, NULL, NULL, "progress");
    all_stock(s, 0, 3);
    play(s, "build abbey 0 -1");
    ct_make_city(s, 0, 2);
    ct_put_site(s, 0, "library", 2, -2);
    pass_turn(s);
    all_stock(s, 0, 0);
    all_stock(s, 1, 0);
    roll(s, 6, "event"); /* Progress; then die 6: seat 0's gold field */
    assert_int_equal(tafel_state_current(s), 0);
    play(s, "gain O", "gain O");
    assert_int_equal(tafel_state_current(s), 1); /* seat 1 owns neither: its main phase */
    assert_stock(s, 0, "L0 W0 B0 O2 G0 Au1");
    tafel_state_free(s);
}

/* ------------------------------------------------------- green: Garrison */

/* §2 Garrison (L B): 1 trade point.  §5 the windmill needs a city. */
static void test_a_garrison_costs_lumber_and_brick_and_gives_a_trade_point(void **u) {
    (void)u;
    tafel_state *s = main_phase("garrison alchemist scout");
    all_stock(s, 0, 3);
    play(s, "build garrison 0 -1");
    assert_stock(s, 0, "L2 W3 B2 O3 G3 Au3");
    assert_int_equal(trade_points(s, 0), 1);
    assert_int_equal(h_category(s, 0, "windmill"), 0); /* no city yet */
    assert_int_equal(ct_points(s, 0), 2);
    ct_make_city(s, 0, 2);
    assert_int_equal(h_category(s, 0, "windmill"), 1);
    assert_int_equal(ct_points(s, 0), 4); /* city 2, settlement 1, windmill 1 */
    tafel_state_free(s);
}

/* §3 brigand attack: more than 7 resources loses all ore and wool; the
** regions bordered by one's own Garrison keep theirs. */
static void test_a_garrison_keeps_the_brigands_off_the_two_regions_it_borders(void **u) {
    (void)u;
    tafel_state *s = main_phase("garrison alchemist scout");
    all_stock(s, 0, 3);
    play(s, "build garrison 2 -1"); /* borders mountains (1,-1) and pasture (3,-1) */
    assert_stock(s, 0, "L2 W3 B2 O3 G3 Au3");
    pass_turn(s);
    all_stock(s, 0, 3);
    all_stock(s, 1, 3);
    roll(s, 6, "brigand"); /* 12 unprotected resources each: both are hit */
    assert_stock(s, 0, "L3 W3 B3 O3 G3 Au3");
    assert_stock(s, 1, "L3 W0 B3 O0 G3 Au3");
    tafel_state_free(s);
}

/* §3 brigand attack: resources on Garrison-protected regions do not count
** towards the 7. */
static void test_resources_next_to_a_garrison_do_not_count_for_the_brigands(void **u) {
    (void)u;
    tafel_state *s = main_phase("garrison alchemist scout");
    all_stock(s, 0, 3);
    play(s, "build garrison 0 -1"); /* borders fields (-1,-1) and mountains (1,-1) */
    pass_turn(s);
    set_stock(s, 0, 2, 3, 1, 3, 3, 0); /* 12 in all, 6 outside G and O */
    set_stock(s, 1, 2, 3, 1, 3, 3, 0);
    roll(s, 6, "brigand"); /* then die 6: seat 0's gold, seat 1's hills */
    assert_stock(s, 0, "L2 W3 B1 O3 G3 Au1");
    assert_stock(s, 1, "L2 W0 B2 O0 G3 Au0");
    tafel_state_free(s);
}

/* §3 Productive year: each region gains 1 per bordering Garrison (max 3). */
static void test_a_productive_year_gives_each_region_one_per_bordering_garrison(void **u) {
    (void)u;
    tafel_state *s =
        main_phase_with("garrison alchemist scout", OTHER, NULL, NULL, "productive-year");
    all_stock(s, 0, 3);
    play(s, "build garrison 0 -1");
    ct_put_site(s, 0, "garrison", 2, -1); /* mountains now borders two */
    ct_put_site(s, 1, "garrison", 2, -1);
    pass_turn(s);
    all_stock(s, 0, 0);
    set_stock(s, 1, 0, 2, 0, 3, 0, 0);
    roll(s, 6, "event");
    assert_stock(s, 0, "L0 W1 B0 O2 G1 Au1"); /* fields +1, mountains +2, pasture +1, gold die */
    assert_stock(s, 1, "L0 W3 B1 O3 G0 Au0"); /* ore stays at 3; hills die */
    tafel_state_free(s);
}

/* --------------------------------------------------------- green: Smithy */

/* §2 Smithy (2O L): +1 strength per knight; §5 the knight token goes to
** strictly more strength. */
static void test_a_smithy_adds_one_strength_per_knight_and_wins_the_knight_token(void **u) {
    (void)u;
    tafel_state *s = main_phase("smithy alchemist scout");
    ct_put_site(s, 0, "siegfried", 0, 1);
    ct_put_site(s, 0, "pippin", 2, 1);
    ct_put_site(s, 1, "otto", 0, 1);
    assert_int_equal(strength(s, 0), 2);
    assert_int_equal(h_category(s, 1, "knight"), 1);
    all_stock(s, 0, 3);
    play(s, "build smithy 0 -1");
    assert_stock(s, 0, "L2 W3 B3 O1 G3 Au3");
    assert_int_equal(strength(s, 0), 4);
    assert_int_equal(h_category(s, 0, "knight"), 1);
    assert_int_equal(h_category(s, 1, "knight"), 0);
    assert_int_equal(ct_points(s, 0), 3);
    assert_int_equal(ct_points(s, 1), 2);
    tafel_state_free(s);
}

/* ------------------------------------------------ green: producer buildings */

/* Build `code` at (col,row) in seat 0's first turn from 3 of everything
** (leaving `after`), then seat 1 rolls `die` with all of seat 0's
** resources at 0: seat 0 ends with `produced`. */
static void producer(const char *code, int col, int row, const char *after, int die,
                     const char *produced) {
    char hand[64], build[64];
    snprintf(hand, sizeof hand, "%s alchemist scout", code);
    snprintf(build, sizeof build, "build %s %d %d", code, col, row);
    tafel_state *s = main_phase(hand);
    all_stock(s, 0, 3);
    play(s, build);
    assert_stock(s, 0, after);
    pass_turn(s);
    all_stock(s, 0, 0);
    all_stock(s, 1, 0);
    roll(s, die, "brigand");
    assert_stock(s, 0, produced);
    tafel_state_free(s);
}

/* §2 Brick factory (B O): a bordering hills region produces 2. */
static void test_a_brick_factory_doubles_the_hills_next_to_it(void **u) {
    (void)u;
    producer("brick-factory", 0, 1, "L3 W3 B2 O2 G3 Au3", 5, "L0 W0 B2 O0 G0 Au0");
}

/* §2 Foundry (B O): a bordering mountains region produces 2. */
static void test_a_foundry_doubles_the_mountains_next_to_it(void **u) {
    (void)u;
    producer("foundry", 2, -1, "L3 W3 B2 O2 G3 Au3", 2, "L0 W0 B0 O2 G0 Au0");
}

/* §2 Grain mill (G B): a bordering fields region produces 2. */
static void test_a_grain_mill_doubles_the_fields_next_to_it(void **u) {
    (void)u;
    producer("grain-mill", 0, -1, "L3 W3 B2 O3 G2 Au3", 1, "L0 W0 B0 O0 G2 Au0");
}

/* §2 Sawmill (2L): a bordering forest produces 2. */
static void test_a_sawmill_doubles_the_forest_next_to_it(void **u) {
    (void)u;
    producer("sawmill", 0, 1, "L1 W3 B3 O3 G3 Au3", 4, "L2 W0 B0 O0 G0 Au0");
}

/* §2 Woolen mill (B W): a bordering pasture produces 2. */
static void test_a_woolen_mill_doubles_the_pasture_next_to_it(void **u) {
    (void)u;
    producer("woolen-mill", 2, -1, "L3 W2 B2 O3 G3 Au3", 3, "L0 W2 B0 O0 G0 Au0");
}

/* §2 a producer doubles only a region of its own kind: the Brick factory at
** (0,1) also borders the forest, which produces 1. */
static void test_a_brick_factory_does_not_double_the_forest_next_to_it(void **u) {
    (void)u;
    producer("brick-factory", 0, 1, "L3 W3 B2 O2 G3 Au3", 4, "L1 W0 B0 O0 G0 Au0");
}

/* §1 a site borders the regions left and right of it in its row: (2,-1) is
** not next to the fields at (-1,-1). */
static void test_a_grain_mill_away_from_the_fields_does_not_double_them(void **u) {
    (void)u;
    producer("grain-mill", 2, -1, "L3 W3 B2 O3 G2 Au3", 1, "L0 W0 B0 O0 G1 Au0");
}

/* §2 "still max 3": a doubled region holding 2 ends at 3. */
static void test_a_doubled_region_still_holds_at_most_three(void **u) {
    (void)u;
    tafel_state *s = main_phase("woolen-mill alchemist scout");
    all_stock(s, 0, 3);
    play(s, "build woolen-mill 2 -1");
    pass_turn(s);
    set_stock(s, 0, 0, 2, 0, 0, 0, 0);
    roll(s, 3, "brigand");
    assert_stock(s, 0, "L0 W3 B0 O0 G0 Au0");
    tafel_state_free(s);
}

/* §1 a city's sites at rows -2 and +2 border no region. */
static void test_a_grain_mill_two_rows_up_borders_no_region(void **u) {
    (void)u;
    tafel_state *s = main_phase("grain-mill alchemist scout");
    ct_make_city(s, 0, 0);
    all_stock(s, 0, 3);
    play(s, "build grain-mill 0 -2");
    assert_stock(s, 0, "L3 W3 B2 O3 G2 Au3");
    pass_turn(s);
    all_stock(s, 0, 0);
    roll(s, 1, "brigand");
    assert_stock(s, 0, "L0 W0 B0 O0 G1 Au0");
    tafel_state_free(s);
}

/* The region stack with fields3 and fields4 on top (the rest in order). */
#define REGIONS_FIELDS "fields3 fields4 mountains4 mountains5 pasture5 pasture6 forest6 " \
                       "forest1 hills1 hills2 gold3"
#define REGIONS_HILLS "hills1 hills2 fields3 fields4 mountains4 mountains5 pasture5 " \
                      "pasture6 forest6 forest1 gold3"

/* Seat 0 builds a road and a settlement to the right (column 4), its two
** regions at (5,-1) above and (5,1) below, each holding 0. */
static void grow_right(tafel_state *s, const char *above) {
    char text[32];
    snprintf(text, sizeof text, "above %s", above);
    all_stock(s, 0, 3);
    play(s, "road right");
    all_stock(s, 0, 3);
    play(s, "settlement right", text);
    all_stock(s, 0, 3);
}

/* §1: a site at row -1 borders the regions of row -1 only: the Grain mill
** at (4,-1) doubles fields3 at (5,-1) but not fields4 at (5,1). */
static void test_a_grain_mill_doubles_only_the_fields_it_borders(void **u) {
    (void)u;
    tafel_state *s =
        main_phase_with("grain-mill alchemist scout", OTHER, NULL, REGIONS_FIELDS, NULL);
    grow_right(s, "fields3");
    play(s, "build grain-mill 4 -1");
    assert_stock(s, 0, "L3 W3 B2 O3 G2 Au3");
    pass_turn(s);
    all_stock(s, 0, 0);
    roll(s, 3, "brigand");
    assert_int_equal(region_stock(s, 0, 5, -1), 2); /* fields3, next to the mill */
    assert_int_equal(region_stock(s, 0, 3, -1), 1); /* pasture3 */
    pass_turn(s);
    roll(s, 4, "brigand");
    assert_int_equal(region_stock(s, 0, 5, 1), 1); /* fields4, not next to it */
    tafel_state_free(s);
}

/* ---------------------------------------------------- green: trade fleets */

/* §2 trade fleet (W L): 1 trade point, that resource 2:1 with the bank.
** With 2 of it and nothing else no bank trade is possible before the
** fleet; after it, `trade res get` pays exactly 2. */
static void fleet(const char *res, const char *get, const char *built, const char *traded) {
    char code[32], hand[64], build[64], trade[32];
    snprintf(code, sizeof code, "fleet-%s",
             !strcmp(res, "L") ? "lumber" : !strcmp(res, "W") ? "wool"
             : !strcmp(res, "B") ? "brick" : !strcmp(res, "O") ? "ore"
             : !strcmp(res, "G") ? "grain" : "gold");
    snprintf(hand, sizeof hand, "%s alchemist scout", code);
    snprintf(build, sizeof build, "build %s 0 -1", code);
    snprintf(trade, sizeof trade, "trade %s %s", res, get);
    tafel_state *s = main_phase(hand);
    all_stock(s, 0, 0);
    ct_region_of(s, 0, ct_res(res))->stock = 2;
    ct_refresh(ct_data(s));
    h_refused(s, "bank", TAFEL_EILLEGAL); /* 3:1 needs 3 */
    ct_region_of(s, 0, CT_LUMBER)->stock++;
    ct_region_of(s, 0, CT_WOOL)->stock++;
    ct_refresh(ct_data(s));
    play(s, build);
    assert_stock(s, 0, built);
    assert_int_equal(trade_points(s, 0), 1);
    bank_trade(s, trade);
    assert_stock(s, 0, traded);
    tafel_state_free(s);
}

static void test_a_lumber_fleet_trades_lumber_two_for_one(void **u) {
    (void)u;
    fleet("L", "O", "L2 W0 B0 O0 G0 Au0", "L0 W0 B0 O1 G0 Au0");
}

static void test_a_wool_fleet_trades_wool_two_for_one(void **u) {
    (void)u;
    fleet("W", "O", "L0 W2 B0 O0 G0 Au0", "L0 W0 B0 O1 G0 Au0");
}

static void test_a_brick_fleet_trades_brick_two_for_one(void **u) {
    (void)u;
    fleet("B", "G", "L0 W0 B2 O0 G0 Au0", "L0 W0 B0 O0 G1 Au0");
}

static void test_an_ore_fleet_trades_ore_two_for_one(void **u) {
    (void)u;
    fleet("O", "G", "L0 W0 B0 O2 G0 Au0", "L0 W0 B0 O0 G1 Au0");
}

static void test_a_grain_fleet_trades_grain_two_for_one(void **u) {
    (void)u;
    fleet("G", "B", "L0 W0 B0 O0 G2 Au0", "L0 W0 B1 O0 G0 Au0");
}

static void test_a_gold_fleet_trades_gold_two_for_one(void **u) {
    (void)u;
    fleet("Au", "L", "L0 W0 B0 O0 G0 Au2", "L1 W0 B0 O0 G0 Au0");
}

/* §2 a fleet helps only its own resource: 2 wool stay untradeable next to
** a lumber fleet. */
static void test_a_lumber_fleet_does_not_trade_wool_two_for_one(void **u) {
    (void)u;
    tafel_state *s = main_phase("fleet-lumber alchemist scout");
    set_stock(s, 0, 1, 3, 0, 0, 0, 0);
    play(s, "build fleet-lumber 0 -1");
    assert_stock(s, 0, "L0 W2 B0 O0 G0 Au0");
    h_refused(s, "bank", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

/* ------------------------------------------------------- green: knights */

/* §2 knight: built for its cost, adds its strength and tournament points;
** alone it holds the knight token (1 VP, §5); at the tournament (seat 1
** rolls it) its owner, with more tournament points, gains a resource. */
static void knight(const char *code, const char *after, int str, int tour) {
    char hand[64], build[64];
    snprintf(hand, sizeof hand, "%s alchemist scout", code);
    snprintf(build, sizeof build, "build %s 0 -1", code);
    tafel_state *s = main_phase(hand);
    all_stock(s, 0, 3);
    play(s, build);
    assert_stock(s, 0, after);
    assert_int_equal(strength(s, 0), str);
    assert_int_equal(tournament(s, 0), tour);
    assert_int_equal(h_category(s, 0, "knight"), 1);
    assert_int_equal(ct_points(s, 0), 3);
    pass_turn(s);
    all_stock(s, 0, 0);
    roll(s, 6, "tournament");
    assert_int_equal(tafel_state_current(s), 0); /* seat 0 chooses, in seat 1's turn */
    play(s, "gain L");
    assert_int_equal(tafel_state_current(s), 1);
    assert_stock(s, 0, "L1 W0 B0 O0 G0 Au1"); /* the gain, then die 6 */
    tafel_state_free(s);
}

static void test_knight_conrad_costs_grain_ore_and_has_strength_2_tournament_1(void **u) {
    (void)u;
    knight("conrad", "L3 W3 B3 O2 G2 Au3", 2, 1);
}

static void test_knight_falk_costs_2_grain_2_ore_wool_and_has_1_and_5(void **u) {
    (void)u;
    knight("falk", "L3 W2 B3 O1 G1 Au3", 1, 5);
}

static void test_knight_gotz_costs_2_grain_2_ore_2_wool_and_has_5_and_2(void **u) {
    (void)u;
    knight("gotz", "L3 W1 B3 O1 G1 Au3", 5, 2);
}

static void test_knight_hagen_costs_grain_ore_and_has_1_and_2(void **u) {
    (void)u;
    knight("hagen", "L3 W3 B3 O2 G2 Au3", 1, 2);
}

static void test_knight_karl_costs_2_grain_2_ore_3_wool_and_has_7_and_1(void **u) {
    (void)u;
    knight("karl", "L3 W0 B3 O1 G1 Au3", 7, 1);
}

static void test_knight_otto_costs_grain_2_ore_wool_and_has_3_and_2(void **u) {
    (void)u;
    knight("otto", "L3 W2 B3 O1 G2 Au3", 3, 2);
}

static void test_knight_pippin_costs_grain_ore_wool_and_has_1_and_3(void **u) {
    (void)u;
    knight("pippin", "L3 W2 B3 O2 G2 Au3", 1, 3);
}

static void test_knight_siegfried_costs_ore_and_has_1_and_1(void **u) {
    (void)u;
    knight("siegfried", "L3 W3 B3 O2 G3 Au3", 1, 1);
}

static void test_knight_walter_costs_grain_ore_wool_and_has_3_and_1(void **u) {
    (void)u;
    knight("walter", "L3 W2 B3 O2 G2 Au3", 3, 1);
}

/* §5 (seed: "Komt er tijdens het spel een gelijke stand aan, dan wordt de
** figuur opzij gelegd"): equal strength sets the knight token aside. */
static void test_equal_strength_sets_the_knight_token_aside(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("alchemist scout merchant", "walter bishop caravan", NULL,
                                     NULL, NULL);
    ct_put_site(s, 0, "otto", 0, -1); /* strength 3 */
    assert_int_equal(h_category(s, 0, "knight"), 1);
    pass_turn(s);
    roll(s, 1, "brigand");
    all_stock(s, 1, 3);
    play(s, "build walter 0 -1"); /* strength 3 too */
    assert_stock(s, 1, "L3 W2 B3 O2 G2 Au3");
    assert_int_equal(h_category(s, 0, "knight"), 0);
    assert_int_equal(h_category(s, 1, "knight"), 0);
    assert_int_equal(ct_points(s, 0), 2);
    assert_int_equal(ct_points(s, 1), 2);
    tafel_state_free(s);
}

/* §5 strictly more strength takes the token from its holder. */
static void test_more_strength_takes_the_knight_token(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("alchemist scout merchant", "gotz bishop caravan", NULL,
                                     NULL, NULL);
    ct_put_site(s, 0, "otto", 0, -1); /* strength 3 */
    pass_turn(s);
    roll(s, 1, "brigand");
    all_stock(s, 1, 3);
    play(s, "build gotz 0 1"); /* strength 5 */
    assert_stock(s, 1, "L3 W1 B3 O1 G1 Au3");
    assert_int_equal(h_category(s, 0, "knight"), 0);
    assert_int_equal(h_category(s, 1, "knight"), 1);
    assert_int_equal(ct_points(s, 0), 2);
    assert_int_equal(ct_points(s, 1), 3);
    tafel_state_free(s);
}

/* §3 tournament (seed: "Bij eventuele gelijkheid krijgt niemand iets bij"):
** equal tournament points give nobody a resource. */
static void test_equal_tournament_points_give_nobody_a_resource(void **u) {
    (void)u;
    tafel_state *s = main_phase("alchemist scout merchant");
    ct_put_site(s, 0, "pippin", 0, -1);   /* 3 tournament points */
    ct_put_site(s, 1, "otto", 0, -1);     /* 2 */
    ct_put_site(s, 1, "siegfried", 0, 1); /* 1 */
    pass_turn(s);
    all_stock(s, 0, 0);
    all_stock(s, 1, 0);
    roll(s, 6, "tournament");
    assert_int_equal(tafel_state_current(s), 1);
    assert_true(h_legal_text(s, "end")); /* straight to seat 1's main phase */
    assert_stock(s, 0, "L0 W0 B0 O0 G0 Au1");
    assert_stock(s, 1, "L0 W0 B1 O0 G0 Au0");
    tafel_state_free(s);
}

/* §3 the tournament counts tournament points (red), not strength (black). */
static void test_the_tournament_goes_to_more_tournament_points_not_strength(void **u) {
    (void)u;
    tafel_state *s = main_phase("alchemist scout merchant");
    ct_put_site(s, 0, "falk", 0, -1); /* 1 / 5 */
    ct_put_site(s, 1, "karl", 0, -1); /* 7 / 1 */
    assert_int_equal(h_category(s, 1, "knight"), 1);
    pass_turn(s);
    all_stock(s, 0, 0);
    roll(s, 6, "tournament");
    assert_int_equal(tafel_state_current(s), 0);
    play(s, "gain W");
    assert_stock(s, 0, "L0 W1 B0 O0 G0 Au1");
    tafel_state_free(s);
}

/* ------------------------------------------------------ red: plague cards */

/* §2 Aqueduct (2L 2O 2B, 1 VP): all your regions are immune to Plague;
** §3 Plague: each region next to one of your cities loses 1. */
static void test_an_aqueduct_makes_every_region_immune_to_the_plague(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("aqueduct alchemist scout", OTHER, NULL, NULL, "plague");
    ct_make_city(s, 0, 0);
    ct_make_city(s, 0, 2);
    ct_make_city(s, 1, 0);
    all_stock(s, 0, 3);
    assert_int_equal(ct_points(s, 0), 4);
    play(s, "build aqueduct 0 -2");
    assert_stock(s, 0, "L1 W3 B1 O1 G3 Au3");
    assert_int_equal(ct_points(s, 0), 5);
    pass_turn(s);
    all_stock(s, 0, 2);
    all_stock(s, 1, 2);
    roll(s, 5, "event"); /* Plague, then die 5: seat 0's hills, seat 1's forest */
    assert_stock(s, 0, "L2 W2 B3 O2 G2 Au2");
    assert_stock(s, 1, "L2 W2 B1 O1 G1 Au2"); /* around its city at 0: L G O B */
    tafel_state_free(s);
}

/* §2 Bath house (2B O W, 1 VP): the 4 regions around its city are immune;
** a region between it and another city too.  §3 a region next to two
** cities loses 1 once. */
static void test_a_bath_house_protects_the_four_regions_around_its_city(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("bath-house alchemist scout", OTHER, NULL, NULL, "plague");
    ct_make_city(s, 0, 0);
    ct_make_city(s, 0, 2);
    ct_make_city(s, 1, 0);
    ct_make_city(s, 1, 2);
    all_stock(s, 0, 3);
    play(s, "build bath-house 0 -2");
    assert_stock(s, 0, "L3 W2 B1 O2 G3 Au3");
    assert_int_equal(ct_points(s, 0), 5);
    pass_turn(s);
    all_stock(s, 0, 2);
    all_stock(s, 1, 2);
    roll(s, 5, "event");
    assert_stock(s, 0, "L2 W1 B3 O2 G2 Au1"); /* only pasture and gold at column 3 */
    assert_stock(s, 1, "L2 W1 B1 O1 G1 Au1"); /* every region once; forest die 5 */
    tafel_state_free(s);
}

/* -------------------------------------------------------------- red: Church */

/* §2 Church (2O 2G B, 1 VP): Civil war cannot take units standing at its
** city; §3 Civil war: the roller's opponent is hit first, by the roller. */
static void test_a_church_keeps_civil_war_off_the_units_at_its_city(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("church alchemist scout", OTHER, NULL, NULL, "civil-war");
    ct_make_city(s, 0, 0);
    ct_make_city(s, 1, 0);
    ct_put_site(s, 0, "siegfried", 0, -1); /* at the church city */
    ct_put_site(s, 0, "hagen", 2, -1);     /* at the settlement */
    ct_put_site(s, 1, "fleet-ore", 0, -1); /* at a city without church */
    all_stock(s, 0, 3);
    play(s, "build church 0 -2");
    assert_stock(s, 0, "L3 W3 B2 O1 G1 Au3");
    assert_int_equal(h_category(s, 0, "expansions"), 1);
    pass_turn(s);
    roll(s, 6, "event"); /* Civil war: seat 1 picks one of seat 0's units */
    assert_int_equal(tafel_state_current(s), 1);
    h_refused(s, "pick 0 -1", TAFEL_EILLEGAL);
    play(s, "pick 2 -1");
    assert_int_equal(ct_hand_count(s, 0, "hagen"), 1);
    assert_int_equal(ct_data(s)->p[0].site[CT_COL0][1], ct_type("siegfried"));
    assert_int_equal(tafel_state_current(s), 0); /* then seat 0 picks seat 1's */
    assert_true(h_legal_text(s, "pick 0 -1"));
    tafel_state_free(s);
}

/* ----------------------------------------------------------- red: Colossus */

/* §2 Colossus (3O 3B 3G): 2 VP. */
static void test_a_colossus_costs_three_ore_brick_grain_and_is_worth_two_points(void **u) {
    (void)u;
    tafel_state *s = main_phase("colossus alchemist scout");
    ct_make_city(s, 0, 0);
    all_stock(s, 0, 3);
    assert_int_equal(ct_points(s, 0), 3);
    play(s, "build colossus 0 -2");
    assert_stock(s, 0, "L3 W3 B0 O0 G0 Au3");
    assert_int_equal(ct_points(s, 0), 5);
    assert_int_equal(h_category(s, 0, "expansions"), 2);
    tafel_state_free(s);
}

/* ----------------------------------------------- red: trade point buildings */

/* §2 Counting house (2W G B): 3 trade points, no VP; §5 the windmill goes to
** the city owner with strictly more trade points. */
static void test_a_counting_house_gives_three_trade_points_and_takes_the_windmill(void **u) {
    (void)u;
    tafel_state *s = main_phase("counting-house alchemist scout");
    ct_make_city(s, 0, 0);
    ct_make_city(s, 1, 0);
    ct_put_site(s, 1, "marketplace", 0, -2); /* 2 trade points */
    assert_int_equal(h_category(s, 1, "windmill"), 1);
    all_stock(s, 0, 3);
    play(s, "build counting-house 0 -2");
    assert_stock(s, 0, "L3 W1 B2 O3 G2 Au3");
    assert_int_equal(trade_points(s, 0), 3);
    assert_int_equal(h_category(s, 0, "expansions"), 0);
    assert_int_equal(h_category(s, 0, "windmill"), 1);
    assert_int_equal(h_category(s, 1, "windmill"), 0);
    assert_int_equal(ct_points(s, 0), 4);
    tafel_state_free(s);
}

/* §2 Marketplace (G W): 2 trade points; §3 trade advantage: the windmill
** holder takes 1 resource of his choice from the opponent. */
static void test_a_marketplace_gives_two_trade_points_and_the_trade_advantage(void **u) {
    (void)u;
    tafel_state *s = main_phase("marketplace alchemist scout");
    ct_make_city(s, 0, 0);
    all_stock(s, 0, 3);
    play(s, "build marketplace 0 -2");
    assert_stock(s, 0, "L3 W2 B3 O3 G2 Au3");
    assert_int_equal(trade_points(s, 0), 2);
    assert_int_equal(h_category(s, 0, "windmill"), 1);
    assert_int_equal(h_category(s, 0, "expansions"), 0);
    pass_turn(s);
    all_stock(s, 0, 1);
    all_stock(s, 1, 2);
    roll(s, 6, "trade");
    assert_int_equal(tafel_state_current(s), 0);
    play(s, "take O");
    assert_stock(s, 0, "L1 W1 B1 O2 G1 Au2");
    assert_stock(s, 1, "L2 W2 B3 O1 G2 Au2");
    tafel_state_free(s);
}

/* §2 Merchant guild (3W 2B G): 4 trade points. */
static void test_a_merchant_guild_gives_four_trade_points(void **u) {
    (void)u;
    tafel_state *s = main_phase("merchant-guild alchemist scout");
    ct_make_city(s, 0, 0);
    ct_make_city(s, 1, 0);
    ct_put_site(s, 1, "counting-house", 0, -2); /* 3 trade points */
    all_stock(s, 0, 3);
    play(s, "build merchant-guild 0 -2");
    assert_stock(s, 0, "L3 W0 B1 O3 G2 Au3");
    assert_int_equal(trade_points(s, 0), 4);
    assert_int_equal(h_category(s, 0, "windmill"), 1);
    assert_int_equal(h_category(s, 1, "windmill"), 0);
    assert_int_equal(h_category(s, 0, "expansions"), 0);
    tafel_state_free(s);
}

/* §2 Harbor (O W B): each trade fleet gives 1 extra trade point. */
static void test_a_harbor_adds_a_trade_point_per_fleet(void **u) {
    (void)u;
    tafel_state *s = main_phase("harbor alchemist scout");
    ct_make_city(s, 0, 0);
    ct_put_site(s, 0, "fleet-ore", 2, -1);
    ct_put_site(s, 0, "fleet-grain", 2, 1);
    ct_make_city(s, 1, 0);
    ct_put_site(s, 1, "counting-house", 0, -2);
    assert_int_equal(trade_points(s, 0), 2);
    assert_int_equal(h_category(s, 1, "windmill"), 1);
    all_stock(s, 0, 3);
    play(s, "build harbor 0 -2");
    assert_stock(s, 0, "L3 W2 B2 O2 G3 Au3");
    assert_int_equal(trade_points(s, 0), 4);
    assert_int_equal(h_category(s, 0, "windmill"), 1);
    assert_int_equal(h_category(s, 1, "windmill"), 0);
    assert_int_equal(h_category(s, 0, "expansions"), 0);
    tafel_state_free(s);
}

/* §2 Mint (2L 2O 2B): 1 trade point; gold 1:1 with the bank. */
static void test_a_mint_trades_gold_one_for_one(void **u) {
    (void)u;
    tafel_state *s = main_phase("mint alchemist scout");
    ct_make_city(s, 0, 0);
    set_stock(s, 0, 2, 0, 2, 2, 0, 1);
    h_refused(s, "bank", TAFEL_EILLEGAL); /* 1 gold trades nothing at 3:1 */
    play(s, "build mint 0 -2");
    assert_stock(s, 0, "L0 W0 B0 O0 G0 Au1");
    assert_int_equal(trade_points(s, 0), 1);
    assert_int_equal(h_category(s, 0, "windmill"), 1);
    assert_int_equal(h_category(s, 0, "expansions"), 0);
    bank_trade(s, "trade Au O");
    assert_stock(s, 0, "L0 W0 B0 O1 G0 Au0");
    tafel_state_free(s);
}

/* §5 the windmill needs a city (seed: "Belangrijk: een speler moet over een
** stad beschikken om de molen te mogen bezitten"). */
static void test_the_windmill_needs_a_city(void **u) {
    (void)u;
    tafel_state *s = main_phase("garrison alchemist scout");
    ct_make_city(s, 1, 0); /* seat 1: a city, no trade points */
    all_stock(s, 0, 3);
    play(s, "build garrison 0 -1");
    assert_int_equal(trade_points(s, 0), 1);
    assert_int_equal(h_category(s, 0, "windmill"), 0);
    assert_int_equal(h_category(s, 1, "windmill"), 0);
    ct_make_city(s, 0, 0);
    assert_int_equal(h_category(s, 0, "windmill"), 1);
    tafel_state_free(s);
}

/* §5 equal trade points set the windmill aside. */
static void test_equal_trade_points_set_the_windmill_aside(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("alchemist scout merchant", "marketplace bishop caravan",
                                     NULL, NULL, NULL);
    ct_make_city(s, 0, 0);
    ct_put_site(s, 0, "counting-house", 0, -2); /* 3 */
    ct_make_city(s, 1, 0);
    ct_put_site(s, 1, "garrison", 0, -1); /* 1 */
    assert_int_equal(h_category(s, 0, "windmill"), 1);
    pass_turn(s);
    roll(s, 1, "brigand");
    all_stock(s, 1, 3);
    play(s, "build marketplace 0 -2"); /* 1 + 2 = 3 */
    assert_stock(s, 1, "L3 W2 B3 O3 G2 Au3");
    assert_int_equal(h_category(s, 0, "windmill"), 0);
    assert_int_equal(h_category(s, 1, "windmill"), 0);
    assert_int_equal(ct_points(s, 0), 3);
    tafel_state_free(s);
}

/* ------------------------------------------------------------ red: Library */

/* §2 Library (2L 2O B, 1 VP): hand limit +1. */
static void test_a_library_is_worth_a_point_and_lets_the_refill_draw_to_four(void **u) {
    (void)u;
    tafel_state *s = main_phase("library alchemist scout");
    ct_make_city(s, 0, 0);
    all_stock(s, 0, 3);
    play(s, "build library 0 -2");
    assert_stock(s, 0, "L1 W3 B2 O1 G3 Au3");
    assert_int_equal(ct_points(s, 0), 4);
    play(s, "end", "draw 3", "draw 3");
    assert_int_equal(hand_len(s, 0), 4);
    h_refused(s, "draw 3", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

/* §4.4 the hand limit is 3, +1 per Abbey and per Library: with both, 5. */
static void test_an_abbey_and_a_library_let_the_refill_draw_to_five(void **u) {
    (void)u;
    tafel_state *s = main_phase("library alchemist scout");
    ct_make_city(s, 0, 0);
    ct_put_site(s, 0, "abbey", 2, -1);
    all_stock(s, 0, 3);
    play(s, "build library 0 2");
    play(s, "end", "draw 3", "draw 3", "draw 3");
    assert_int_equal(hand_len(s, 0), 5);
    h_refused(s, "draw 3", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

/* ---------------------------------------------------------- red: Town hall */

/* §2 Town hall (2W 2O B, 1 VP): a paid search costs 1 resource. */
static void test_a_town_hall_makes_a_paid_search_cost_one_resource(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("town-hall alchemist scout", OTHER, "abbey", NULL, NULL);
    ct_make_city(s, 0, 0);
    all_stock(s, 0, 3);
    play(s, "build town-hall 0 -2");
    assert_stock(s, 0, "L3 W1 B2 O1 G3 Au3");
    assert_int_equal(ct_points(s, 0), 4);
    play(s, "end", "search 3", "pay G");
    assert_false(h_legal_text(s, "pay G")); /* paid: now the choice */
    play(s, "take abbey");
    assert_stock(s, 0, "L3 W1 B2 O1 G2 Au3");
    assert_int_equal(ct_hand_count(s, 0, "abbey"), 1);
    tafel_state_free(s);
}

/* §4.4 without a Town hall a paid search costs 2. */
static void test_without_a_town_hall_a_paid_search_costs_two(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("garrison alchemist scout", OTHER, "abbey", NULL, NULL);
    all_stock(s, 0, 3);
    play(s, "build garrison 0 -1"); /* a card less in hand: room to refill */
    play(s, "end", "search 3", "pay G");
    assert_false(h_legal_text(s, "take abbey"));
    play(s, "pay L", "take abbey");
    assert_stock(s, 0, "L1 W3 B2 O3 G2 Au3");
    tafel_state_free(s);
}

/* §2 Town hall: "a second one adds nothing". */
static void test_a_second_town_hall_does_not_make_the_search_free(void **u) {
    (void)u;
    tafel_state *s = main_phase_with("town-hall alchemist scout", OTHER, "abbey", NULL, NULL);
    ct_make_city(s, 0, 0);
    ct_make_city(s, 0, 2);
    ct_put_site(s, 0, "town-hall", 2, 2);
    all_stock(s, 0, 3);
    play(s, "build town-hall 0 -2");
    assert_int_equal(ct_points(s, 0), 6); /* two cities, two Town halls */
    play(s, "end", "search 3");
    assert_int_equal(tafel_state_current(s), 0);
    assert_true(h_legal_text(s, "pay G"));
    play(s, "pay G", "take abbey");
    assert_stock(s, 0, "L3 W1 B2 O1 G2 Au3");
    tafel_state_free(s);
}

/* ------------------------------------------------- where cards may be built */

/* §4.3 red cards only at a city; (seed: "Deze kunnen enkel aan steden
** gebouwd worden"). */
static void test_a_red_card_cannot_be_built_at_a_settlement(void **u) {
    (void)u;
    tafel_state *s = main_phase("marketplace alchemist scout");
    all_stock(s, 0, 3);
    h_refused(s, "build marketplace 0 -1", TAFEL_EILLEGAL);
    h_refused(s, "build marketplace 2 1", TAFEL_EILLEGAL);
    ct_make_city(s, 0, 2);
    play(s, "build marketplace 2 1");
    assert_stock(s, 0, "L3 W2 B3 O3 G2 Au3");
    tafel_state_free(s);
}

/* §4.3 green cards at any site, of a settlement or of a city. */
static void test_a_green_card_can_be_built_at_a_settlement_or_a_city(void **u) {
    (void)u;
    tafel_state *s = main_phase("abbey abbey alchemist");
    ct_make_city(s, 0, 2);
    all_stock(s, 0, 3);
    play(s, "build abbey 0 1");
    all_stock(s, 0, 3);
    play(s, "build abbey 2 2");
    assert_int_equal(ct_count_type(ct_data(s), 0, ct_type("abbey")), 2);
    tafel_state_free(s);
}

/* §1 a settlement has 2 sites (rows -1, +1), a city 4 (rows -2..+2); seed:
** "Elke nederzetting kan twee groene uitbouwkaarten aan ... Elke stad kan
** vier uitbouwkaarten aan". */
static void test_a_settlement_has_two_sites_and_a_city_four(void **u) {
    (void)u;
    tafel_state *s = main_phase("garrison garrison garrison");
    all_stock(s, 0, 3);
    h_refused(s, "build garrison 0 -2", TAFEL_EILLEGAL);
    h_refused(s, "build garrison 0 2", TAFEL_EILLEGAL);
    h_refused(s, "build garrison 1 -1", TAFEL_EILLEGAL); /* a road */
    h_refused(s, "build garrison 4 -1", TAFEL_EILLEGAL); /* nothing there */
    play(s, "build garrison 0 -1");
    all_stock(s, 0, 3);
    play(s, "build garrison 0 1");
    ct_make_city(s, 0, 2);
    all_stock(s, 0, 3);
    play(s, "build garrison 2 -2");
    ct_give(s, 0, "abbey");
    all_stock(s, 0, 3);
    play(s, "build abbey 2 2");
    assert_int_equal(ct_count_type(ct_data(s), 0, ct_type("garrison")), 3);
    assert_int_equal(ct_count_type(ct_data(s), 0, ct_type("abbey")), 1);
    tafel_state_free(s);
}

/* §4.3 a site holds one card. */
static void test_a_building_site_holds_one_card(void **u) {
    (void)u;
    tafel_state *s = main_phase("abbey garrison alchemist");
    all_stock(s, 0, 3);
    play(s, "build abbey 0 -1");
    h_refused(s, "build garrison 0 -1", TAFEL_EILLEGAL);
    play(s, "build garrison 0 1");
    tafel_state_free(s);
}

/* Only a card in one's hand can be built. */
static void test_a_card_not_in_hand_cannot_be_built(void **u) {
    (void)u;
    tafel_state *s = main_phase("alchemist scout merchant");
    ct_make_city(s, 0, 0);
    all_stock(s, 0, 3);
    h_refused(s, "build colossus 0 -2", TAFEL_EILLEGAL);
    h_refused(s, "build abbey 0 -1", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

/* ---------------------------------------------- every card: its exact cost */

/* The rules file's table (§2), independent of the engine's: cost in L W B O
** G Au, victory points, trade points. */
static const struct {
    const char *code;
    int cost[CT_RES];
    int vp, trade;
} costs[] = {
    {"abbey", {1, 0, 1, 1, 0, 0}, 0, 0},
    {"garrison", {1, 0, 1, 0, 0, 0}, 0, 1},
    {"smithy", {1, 0, 0, 2, 0, 0}, 0, 0},
    {"brick-factory", {0, 0, 1, 1, 0, 0}, 0, 0},
    {"foundry", {0, 0, 1, 1, 0, 0}, 0, 0},
    {"grain-mill", {0, 0, 1, 0, 1, 0}, 0, 0},
    {"sawmill", {2, 0, 0, 0, 0, 0}, 0, 0},
    {"woolen-mill", {0, 1, 1, 0, 0, 0}, 0, 0},
    {"fleet-lumber", {1, 1, 0, 0, 0, 0}, 0, 1},
    {"fleet-wool", {1, 1, 0, 0, 0, 0}, 0, 1},
    {"fleet-brick", {1, 1, 0, 0, 0, 0}, 0, 1},
    {"fleet-ore", {1, 1, 0, 0, 0, 0}, 0, 1},
    {"fleet-grain", {1, 1, 0, 0, 0, 0}, 0, 1},
    {"fleet-gold", {1, 1, 0, 0, 0, 0}, 0, 1},
    {"conrad", {0, 0, 0, 1, 1, 0}, 0, 0},
    {"falk", {0, 1, 0, 2, 2, 0}, 0, 0},
    {"gotz", {0, 2, 0, 2, 2, 0}, 0, 0},
    {"hagen", {0, 0, 0, 1, 1, 0}, 0, 0},
    {"karl", {0, 3, 0, 2, 2, 0}, 0, 0},
    {"otto", {0, 1, 0, 2, 1, 0}, 0, 0},
    {"pippin", {0, 1, 0, 1, 1, 0}, 0, 0},
    {"siegfried", {0, 0, 0, 1, 0, 0}, 0, 0},
    {"walter", {0, 1, 0, 1, 1, 0}, 0, 0},
    {"aqueduct", {2, 0, 2, 2, 0, 0}, 1, 0},
    {"bath-house", {0, 1, 2, 1, 0, 0}, 1, 0},
    {"church", {0, 0, 1, 2, 2, 0}, 1, 0},
    {"colossus", {0, 0, 3, 3, 3, 0}, 2, 0},
    {"counting-house", {0, 2, 1, 0, 1, 0}, 0, 3},
    {"harbor", {0, 1, 1, 1, 0, 0}, 0, 0},
    {"library", {2, 0, 1, 2, 0, 0}, 1, 0},
    {"marketplace", {0, 1, 0, 0, 1, 0}, 0, 2},
    {"merchant-guild", {0, 3, 2, 0, 1, 0}, 0, 4},
    {"mint", {2, 0, 2, 2, 0, 0}, 0, 1},
    {"town-hall", {0, 2, 1, 2, 0, 0}, 1, 0},
};

/* §4.3 a card comes into play only when its cost is paid ("enkel ... als de
** speler over de nodige grondstoffen beschikt"): one resource short of any
** kind it is refused, state unchanged; with the cost exactly it is built
** and every resource is spent; it is worth its VP and trade points. */
static void test_every_expansion_card_costs_exactly_its_price(void **u) {
    (void)u;
    assert_int_equal(sizeof costs / sizeof costs[0], 34); /* 42 cards: 34 kinds of card */
    for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++) {
        tafel_state *s = main_phase("alchemist scout merchant");
        ct_make_city(s, 0, 0);
        ct_give(s, 0, costs[i].code);
        char build[64];
        snprintf(build, sizeof build, "build %s 0 -2", costs[i].code);
        const int *c = costs[i].cost;
        for (int r = 0; r < CT_RES; r++) {
            if (!c[r]) continue;
            int short_of[CT_RES];
            memcpy(short_of, c, sizeof short_of);
            short_of[r]--;
            ct_set_stock(s, 0, short_of);
            h_refused(s, build, TAFEL_EILLEGAL);
        }
        ct_set_stock(s, 0, c);
        tafel_error err = {0};
        if (tafel_state_apply_text(s, build, &err) != TAFEL_OK)
            fail_msg("%s with its exact cost: %s", costs[i].code, err.message);
        char got[64];
        stock_text(s, 0, got, sizeof got);
        if (strcmp(got, "L0 W0 B0 O0 G0 Au0"))
            fail_msg("%s: after paying its cost %s left", costs[i].code, got);
        if (h_category(s, 0, "expansions") != costs[i].vp)
            fail_msg("%s: %d VP, expected %d", costs[i].code, h_category(s, 0, "expansions"),
                     costs[i].vp);
        if (trade_points(s, 0) != costs[i].trade)
            fail_msg("%s: %d trade points, expected %d", costs[i].code, trade_points(s, 0),
                     costs[i].trade);
        tafel_state_free(s);
    }
}

/* ------------------------------------ §1 paying from and gaining on regions */

/* Seat 0 with three hills: hills5 at (1,1), hills1 at (5,-1), hills2 at
** (5,1); three Garrisons in hand to pay one brick at a time. */
static tafel_state *three_hills(void) {
    tafel_state *s =
        main_phase_with("garrison garrison garrison", OTHER, NULL, REGIONS_HILLS, NULL);
    grow_right(s, "hills1");
    assert_int_equal(region_stock(s, 0, 5, -1), 0);
    assert_int_equal(region_stock(s, 0, 5, 1), 0);
    return s;
}

static void set_hills(tafel_state *s, int a, int b, int c) {
    set_region(s, 0, 1, 1, a);
    set_region(s, 0, 5, -1, b);
    set_region(s, 0, 5, 1, c);
}

static void assert_hills(tafel_state *s, int a, int b, int c) {
    assert_int_equal(region_stock(s, 0, 1, 1), a);
    assert_int_equal(region_stock(s, 0, 5, -1), b);
    assert_int_equal(region_stock(s, 0, 5, 1), c);
}

/* §1 paying takes from the region of that kind holding the most. */
static void test_paying_takes_from_the_region_holding_most(void **u) {
    (void)u;
    tafel_state *s = three_hills();
    set_hills(s, 1, 1, 3);
    play(s, "build garrison 0 -1");
    assert_hills(s, 1, 1, 2);
    tafel_state_free(s);
}

/* §1 ... ties: lowest column. */
static void test_paying_from_equal_regions_takes_the_lowest_column(void **u) {
    (void)u;
    tafel_state *s = three_hills();
    set_hills(s, 2, 2, 1);
    play(s, "build garrison 0 -1");
    assert_hills(s, 1, 2, 1);
    tafel_state_free(s);
}

/* §1 ... then row -1. */
static void test_paying_from_equal_regions_in_one_column_takes_row_minus_one(void **u) {
    (void)u;
    tafel_state *s = three_hills();
    set_hills(s, 1, 2, 2);
    play(s, "build garrison 0 -1");
    assert_hills(s, 1, 1, 2);
    tafel_state_free(s);
}

/* §1 gaining puts the resource on the region holding the least. */
static void test_gaining_goes_to_the_region_holding_least(void **u) {
    (void)u;
    tafel_state *s = three_hills();
    set_hills(s, 2, 1, 0);
    bank_trade(s, "trade L B");
    assert_hills(s, 2, 1, 1);
    tafel_state_free(s);
}

/* §1 ... ties: lowest column. */
static void test_gaining_on_equal_regions_goes_to_the_lowest_column(void **u) {
    (void)u;
    tafel_state *s = three_hills();
    set_hills(s, 1, 1, 1);
    bank_trade(s, "trade L B");
    assert_hills(s, 2, 1, 1);
    tafel_state_free(s);
}

/* §1 ... then row -1; a full region is passed over. */
static void test_gaining_on_equal_regions_in_one_column_goes_to_row_minus_one(void **u) {
    (void)u;
    tafel_state *s = three_hills();
    set_hills(s, 3, 1, 1);
    bank_trade(s, "trade L B");
    assert_hills(s, 3, 2, 1);
    tafel_state_free(s);
}

/* §1 a region holds at most 3: production on a full region is lost (not
** moved to another region of its kind). */
static void test_production_beyond_three_is_lost(void **u) {
    (void)u;
    tafel_state *s = three_hills();
    pass_turn(s);
    set_hills(s, 3, 0, 0);
    roll(s, 5, "brigand"); /* hills5 */
    assert_hills(s, 3, 0, 0);
    tafel_state_free(s);
}

/* Docs: a bank trade is offered only into a resource with room. */
static void test_a_bank_trade_into_full_regions_is_refused(void **u) {
    (void)u;
    tafel_state *s = three_hills();
    set_hills(s, 3, 3, 3);
    ct_region_of(s, 0, CT_ORE)->stock = 0;
    ct_refresh(ct_data(s));
    play(s, "bank");
    h_refused(s, "trade L B", TAFEL_EILLEGAL);
    assert_true(h_legal_text(s, "trade L O"));
    tafel_state_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_abbey_costs_lumber_ore_brick_and_lets_the_refill_draw_to_four),
        cmocka_unit_test(test_without_an_abbey_the_refill_stops_at_three),
        cmocka_unit_test(test_progress_gives_one_resource_per_abbey_and_library),
        cmocka_unit_test(test_a_garrison_costs_lumber_and_brick_and_gives_a_trade_point),
        cmocka_unit_test(test_a_garrison_keeps_the_brigands_off_the_two_regions_it_borders),
        cmocka_unit_test(test_resources_next_to_a_garrison_do_not_count_for_the_brigands),
        cmocka_unit_test(test_a_productive_year_gives_each_region_one_per_bordering_garrison),
        cmocka_unit_test(test_a_smithy_adds_one_strength_per_knight_and_wins_the_knight_token),
        cmocka_unit_test(test_a_brick_factory_doubles_the_hills_next_to_it),
        cmocka_unit_test(test_a_foundry_doubles_the_mountains_next_to_it),
        cmocka_unit_test(test_a_grain_mill_doubles_the_fields_next_to_it),
        cmocka_unit_test(test_a_sawmill_doubles_the_forest_next_to_it),
        cmocka_unit_test(test_a_woolen_mill_doubles_the_pasture_next_to_it),
        cmocka_unit_test(test_a_brick_factory_does_not_double_the_forest_next_to_it),
        cmocka_unit_test(test_a_grain_mill_away_from_the_fields_does_not_double_them),
        cmocka_unit_test(test_a_doubled_region_still_holds_at_most_three),
        cmocka_unit_test(test_a_grain_mill_two_rows_up_borders_no_region),
        cmocka_unit_test(test_a_grain_mill_doubles_only_the_fields_it_borders),
        cmocka_unit_test(test_a_lumber_fleet_trades_lumber_two_for_one),
        cmocka_unit_test(test_a_wool_fleet_trades_wool_two_for_one),
        cmocka_unit_test(test_a_brick_fleet_trades_brick_two_for_one),
        cmocka_unit_test(test_an_ore_fleet_trades_ore_two_for_one),
        cmocka_unit_test(test_a_grain_fleet_trades_grain_two_for_one),
        cmocka_unit_test(test_a_gold_fleet_trades_gold_two_for_one),
        cmocka_unit_test(test_a_lumber_fleet_does_not_trade_wool_two_for_one),
        cmocka_unit_test(test_knight_conrad_costs_grain_ore_and_has_strength_2_tournament_1),
        cmocka_unit_test(test_knight_falk_costs_2_grain_2_ore_wool_and_has_1_and_5),
        cmocka_unit_test(test_knight_gotz_costs_2_grain_2_ore_2_wool_and_has_5_and_2),
        cmocka_unit_test(test_knight_hagen_costs_grain_ore_and_has_1_and_2),
        cmocka_unit_test(test_knight_karl_costs_2_grain_2_ore_3_wool_and_has_7_and_1),
        cmocka_unit_test(test_knight_otto_costs_grain_2_ore_wool_and_has_3_and_2),
        cmocka_unit_test(test_knight_pippin_costs_grain_ore_wool_and_has_1_and_3),
        cmocka_unit_test(test_knight_siegfried_costs_ore_and_has_1_and_1),
        cmocka_unit_test(test_knight_walter_costs_grain_ore_wool_and_has_3_and_1),
        cmocka_unit_test(test_equal_strength_sets_the_knight_token_aside),
        cmocka_unit_test(test_more_strength_takes_the_knight_token),
        cmocka_unit_test(test_equal_tournament_points_give_nobody_a_resource),
        cmocka_unit_test(test_the_tournament_goes_to_more_tournament_points_not_strength),
        cmocka_unit_test(test_an_aqueduct_makes_every_region_immune_to_the_plague),
        cmocka_unit_test(test_a_bath_house_protects_the_four_regions_around_its_city),
        cmocka_unit_test(test_a_church_keeps_civil_war_off_the_units_at_its_city),
        cmocka_unit_test(test_a_colossus_costs_three_ore_brick_grain_and_is_worth_two_points),
        cmocka_unit_test(test_a_counting_house_gives_three_trade_points_and_takes_the_windmill),
        cmocka_unit_test(test_a_marketplace_gives_two_trade_points_and_the_trade_advantage),
        cmocka_unit_test(test_a_merchant_guild_gives_four_trade_points),
        cmocka_unit_test(test_a_harbor_adds_a_trade_point_per_fleet),
        cmocka_unit_test(test_a_mint_trades_gold_one_for_one),
        cmocka_unit_test(test_the_windmill_needs_a_city),
        cmocka_unit_test(test_equal_trade_points_set_the_windmill_aside),
        cmocka_unit_test(test_a_library_is_worth_a_point_and_lets_the_refill_draw_to_four),
        cmocka_unit_test(test_an_abbey_and_a_library_let_the_refill_draw_to_five),
        cmocka_unit_test(test_a_town_hall_makes_a_paid_search_cost_one_resource),
        cmocka_unit_test(test_without_a_town_hall_a_paid_search_costs_two),
        cmocka_unit_test(test_a_second_town_hall_does_not_make_the_search_free),
        cmocka_unit_test(test_a_red_card_cannot_be_built_at_a_settlement),
        cmocka_unit_test(test_a_green_card_can_be_built_at_a_settlement_or_a_city),
        cmocka_unit_test(test_a_settlement_has_two_sites_and_a_city_four),
        cmocka_unit_test(test_a_building_site_holds_one_card),
        cmocka_unit_test(test_a_card_not_in_hand_cannot_be_built),
        cmocka_unit_test(test_every_expansion_card_costs_exactly_its_price),
        cmocka_unit_test(test_paying_takes_from_the_region_holding_most),
        cmocka_unit_test(test_paying_from_equal_regions_takes_the_lowest_column),
        cmocka_unit_test(test_paying_from_equal_regions_in_one_column_takes_row_minus_one),
        cmocka_unit_test(test_gaining_goes_to_the_region_holding_least),
        cmocka_unit_test(test_gaining_on_equal_regions_goes_to_the_lowest_column),
        cmocka_unit_test(test_gaining_on_equal_regions_in_one_column_goes_to_row_minus_one),
        cmocka_unit_test(test_production_beyond_three_is_lost),
        cmocka_unit_test(test_a_bank_trade_into_full_regions_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
