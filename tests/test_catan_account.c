/*
** test_catan_account.c -- the account of the Catan card game's actions
** (tafel_state_describe, src/games/catan_cards/account.c,
** docs/events-catan_cards.md): worked examples with literal events, what
** each seat may see of hidden cards, and the English catalog
** (web/i18n/en/catan_cards.json) against every event the code writes.
**
** Positions start from ct_game / ct_game_with (catan_setup.h): both players
** arrange "G O W L B Au" (row -1: fields, mountains, pasture at columns -1,
** 1, 3; row +1: forest, hills, gold), seat 0 (Red) about to roll turn 1.
** Seat 0's regions produce on fields 1, mountains 2, pasture 3, forest 4,
** hills 5, gold 6; seat 1's on 2, 3, 4, 5, 6, 1.  Seat 0 searched stack 1
** for its start cards and seat 1 stack 2, so each knows that stack.
*/
#include "catan_setup.h"

#ifndef TAFEL_SOURCE_DIR
#error "tests/CMakeLists.txt defines TAFEL_SOURCE_DIR for this suite"
#endif

/* ------------------------------------------------------------------ helpers */

static tafel_state *owned[16];
static char *texts[64];
static int ntexts;

static tafel_state *own(tafel_state *s) {
    for (int i = 0; i < 16; i++)
        if (!owned[i]) return owned[i] = s;
    fail_msg("too many live states");
    return s;
}

static void free_texts(void) {
    for (int i = 0; i < ntexts; i++) free(texts[i]);
    ntexts = 0;
}

static int teardown(void **unused) {
    (void)unused;
    for (int i = 0; i < 16; i++) {
        tafel_state_free(owned[i]);
        owned[i] = NULL;
    }
    free_texts();
    return 0;
}

static void run(tafel_state *s, const char *script) { h_script(s, script); }

static tafel_action action_of(const tafel_state *s, const char *text) {
    tafel_action a = -1;
    tafel_error err = {0};
    if (tafel_action_from_text(s, text, &a, &err)) fail_msg("'%s': %s", text, err.message);
    return a;
}

/* seat's account of the action text names, kept until the teardown. */
static const char *account(const tafel_state *s, int seat, const char *text) {
    char *json = NULL;
    tafel_error err = {0};
    if (tafel_state_describe(s, action_of(s, text), seat, &json, &err))
        fail_msg("describing '%s' for seat %d: %s", text, seat, err.message);
    if (ntexts == 64) fail_msg("more than 64 accounts kept: free_texts() between them");
    texts[ntexts++] = json;
    return json;
}

/* Every seat and a spectator are told the same. */
static void assert_told_all(const tafel_state *s, const char *text, const char *expected) {
    for (int seat = -1; seat < 2; seat++) assert_string_equal(account(s, seat, text), expected);
}

/* Stock by resource, L W B O G Au. */
static void stock(tafel_state *s, int seat, int l, int w, int b, int o, int g, int au) {
    const int n[CT_RES] = {l, w, b, o, g, au};
    ct_set_stock(s, seat, n);
}

static tafel_state *event_game(const char *first) {
    return own(ct_event_game(first, "abbey garrison smithy", "spy bishop caravan"));
}

/* ========================================================= worked examples */

/* The production die shows 4: Red's forest 4 (beside its Sawmill, so 2)
** holds 2 and takes only 1 of them, the other is lost at the limit of 3;
** Blue's pasture 4 gains 1.  The event die's trade face finds no windmill
** holder, and the event comes before production (rules §4.1). */
static void test_a_production_roll_tells_each_region_and_what_the_limit_cost(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    ct_put_site(s, 0, "sawmill", 0, 1);
    stock(s, 0, 2, 1, 1, 1, 1, 1);
    assert_told_all(s, "roll", "[{\"kind\":\"roll\",\"seat\":0}]");
    run(s, "0 roll");
    assert_told_all(s, "die 4", "[{\"kind\":\"production_die\",\"seat\":0,\"number\":4}]");
    run(s, "c die 4");
    assert_told_all(s, "event-die trade",
                    "[{\"kind\":\"event_die\",\"seat\":0,\"face\":\"trade\"},"
                    "{\"kind\":\"no_trade_advantage\"},"
                    "{\"kind\":\"production\",\"seat\":0,\"region\":\"forest\",\"number\":4,"
                    "\"col\":-1,\"row\":1,\"resource\":\"lumber\",\"count\":1},"
                    "{\"kind\":\"production_lost\",\"seat\":0,\"region\":\"forest\",\"number\":4,"
                    "\"col\":-1,\"row\":1,\"resource\":\"lumber\",\"count\":1},"
                    "{\"kind\":\"production\",\"seat\":1,\"region\":\"pasture\",\"number\":4,"
                    "\"col\":3,\"row\":-1,\"resource\":\"wool\",\"count\":1}]");
    run(s, "c event-die trade");
    assert_int_equal(ct_stock_of(s, 0, "L"), 3);
    assert_int_equal(ct_stock_of(s, 1, "W"), 2);
}

/* Plague: Red's city at column 0 costs the four regions beside it 1 each
** (fields 1 and forest 4 at column -1, mountains 2 and hills 5 at column
** 1); Blue has no city.  Then the die's 6 produces. */
static void test_an_event_card_tells_what_it_did_to_each_region(void **unused) {
    (void)unused;
    tafel_state *s = event_game("plague");
    ct_make_city(s, 0, 0);
    run(s, "0 roll; c die 6");
    assert_told_all(
        s, "event-die event",
        "[{\"kind\":\"event_die\",\"seat\":0,\"face\":\"event\"},"
        "{\"kind\":\"event_card\",\"seat\":0,\"event_card\":\"plague\"},"
        "{\"kind\":\"plague_loss\",\"seat\":0,\"region\":\"fields\",\"number\":1,\"col\":-1,"
        "\"row\":-1,\"resource\":\"grain\",\"count\":1},"
        "{\"kind\":\"plague_loss\",\"seat\":0,\"region\":\"forest\",\"number\":4,\"col\":-1,"
        "\"row\":1,\"resource\":\"lumber\",\"count\":1},"
        "{\"kind\":\"plague_loss\",\"seat\":0,\"region\":\"mountains\",\"number\":2,\"col\":1,"
        "\"row\":-1,\"resource\":\"ore\",\"count\":1},"
        "{\"kind\":\"plague_loss\",\"seat\":0,\"region\":\"hills\",\"number\":5,\"col\":1,"
        "\"row\":1,\"resource\":\"brick\",\"count\":1},"
        "{\"kind\":\"production\",\"seat\":0,\"region\":\"gold\",\"number\":6,\"col\":3,"
        "\"row\":1,\"resource\":\"gold\",\"count\":1},"
        "{\"kind\":\"production\",\"seat\":1,\"region\":\"hills\",\"number\":6,\"col\":1,"
        "\"row\":1,\"resource\":\"brick\",\"count\":1}]");
}


/* Brigand attack: Red holds 8 resources (no Garrison), more than 7, and
** loses its 2 ore and 2 wool; Blue holds 6 and loses nothing.  Then the
** die's 3 refills Red's pasture. */
static void test_a_brigand_attack_tells_who_holds_how_much_and_what_is_lost(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    stock(s, 0, 2, 2, 1, 2, 1, 0);
    run(s, "0 roll; c die 3");
    assert_told_all(
        s, "event-die brigand",
        "[{\"kind\":\"event_die\",\"seat\":0,\"face\":\"brigand\"},"
        "{\"kind\":\"brigands_raid\",\"seat\":0,\"resources\":8},"
        "{\"kind\":\"brigand_loss\",\"seat\":0,\"region\":\"mountains\",\"number\":2,"
        "\"col\":1,\"row\":-1,\"resource\":\"ore\",\"count\":2},"
        "{\"kind\":\"brigand_loss\",\"seat\":0,\"region\":\"pasture\",\"number\":3,"
        "\"col\":3,\"row\":-1,\"resource\":\"wool\",\"count\":2},"
        "{\"kind\":\"brigands_spare\",\"seat\":1,\"resources\":6},"
        "{\"kind\":\"production\",\"seat\":0,\"region\":\"pasture\",\"number\":3,"
        "\"col\":3,\"row\":-1,\"resource\":\"wool\",\"count\":1},"
        "{\"kind\":\"production\",\"seat\":1,\"region\":\"mountains\",\"number\":3,"
        "\"col\":1,\"row\":-1,\"resource\":\"ore\",\"count\":1}]");
}

/* Good year: each player gains a resource, the roller first; Red's regions
** are all full, so Red gains nothing and Blue chooses next. */
static void test_a_gain_without_room_is_told(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    stock(s, 0, 3, 3, 3, 3, 3, 3);
    run(s, "0 roll; c die 3");
    assert_told_all(s, "event-die good-year",
                    "[{\"kind\":\"event_die\",\"seat\":0,\"face\":\"good-year\"},"
                    "{\"kind\":\"no_room\",\"seat\":0,\"count\":1}]");
    run(s, "c event-die good-year");
    assert_told_all(s, "gain G",
                    "[{\"kind\":\"resource_gained\",\"seat\":1,\"resource\":\"grain\"},"
                    "{\"kind\":\"production_lost\",\"seat\":0,\"region\":\"pasture\","
                    "\"number\":3,\"col\":3,\"row\":-1,\"resource\":\"wool\",\"count\":1},"
                    "{\"kind\":\"production\",\"seat\":1,\"region\":\"mountains\","
                    "\"number\":3,\"col\":1,\"row\":-1,\"resource\":\"ore\",\"count\":1}]");
}

/* Productive year: Red's Garrison at (0, +1) borders forest 4 (full: its
** resource is lost) and hills 5 (1 more). */
static void test_a_productive_year_tells_what_the_garrisons_gave(void **unused) {
    (void)unused;
    tafel_state *s = event_game("productive-year");
    ct_put_site(s, 0, "garrison", 0, 1);
    stock(s, 0, 3, 1, 1, 1, 1, 1);
    run(s, "0 roll; c die 3");
    assert_told_all(
        s, "event-die event",
        "[{\"kind\":\"event_die\",\"seat\":0,\"face\":\"event\"},"
        "{\"kind\":\"event_card\",\"seat\":0,\"event_card\":\"productive-year\"},"
        "{\"kind\":\"garrison_lost\",\"seat\":0,\"region\":\"forest\",\"number\":4,"
        "\"col\":-1,\"row\":1,\"resource\":\"lumber\",\"count\":1},"
        "{\"kind\":\"garrison_gain\",\"seat\":0,\"region\":\"hills\",\"number\":5,"
        "\"col\":1,\"row\":1,\"resource\":\"brick\",\"count\":1},"
        "{\"kind\":\"production\",\"seat\":0,\"region\":\"pasture\",\"number\":3,"
        "\"col\":3,\"row\":-1,\"resource\":\"wool\",\"count\":1},"
        "{\"kind\":\"production\",\"seat\":1,\"region\":\"mountains\",\"number\":3,"
        "\"col\":1,\"row\":-1,\"resource\":\"ore\",\"count\":1}]");
}

/* Conflict: Red holds the knight token (Conrad), sees Blue's hand of one
** card and puts it under stack 2; the second card it may move is not there.
** Both players know the card (Red has seen the hand), a spectator not. */
static void test_conflict_names_the_card_to_both_players(void **unused) {
    (void)unused;
    tafel_state *s = event_game("conflict");
    ct_put_site(s, 0, "conrad", 0, -1);
    ct_put_under(ct_data(s), 1, 0, 4);
    ct_put_under(ct_data(s), 1, 0, 4); /* Blue keeps the Caravan alone */
    run(s, "0 roll; c die 3");
    assert_told_all(s, "event-die event",
                    "[{\"kind\":\"event_die\",\"seat\":0,\"face\":\"event\"},"
                    "{\"kind\":\"event_card\",\"seat\":0,\"event_card\":\"conflict\"},"
                    "{\"kind\":\"conflict\",\"seat\":0,\"other_seat\":1,\"count\":1}]");
    run(s, "c event-die event");
    static const char rest[] =
        "{\"kind\":\"empty_hand\",\"seat\":1},"
        "{\"kind\":\"production\",\"seat\":0,\"region\":\"pasture\",\"number\":3,"
        "\"col\":3,\"row\":-1,\"resource\":\"wool\",\"count\":1},"
        "{\"kind\":\"production\",\"seat\":1,\"region\":\"mountains\",\"number\":3,"
        "\"col\":1,\"row\":-1,\"resource\":\"ore\",\"count\":1}]";
    char named[1024], hidden[1024];
    snprintf(named, sizeof named, "[{\"kind\":\"card_put_under\",\"seat\":0,"
             "\"other_seat\":1,\"card\":\"caravan\",\"stack\":2},%s", rest);
    snprintf(hidden, sizeof hidden, "[{\"kind\":\"card_put_under\",\"seat\":0,"
             "\"other_seat\":1,\"card\":\"?\",\"stack\":2},%s", rest);
    assert_string_equal(account(s, 0, "under caravan 2"), named);
    assert_string_equal(account(s, 1, "under caravan 2"), named);
    assert_string_equal(account(s, -1, "under caravan 2"), hidden);
}

/* The Merchant: Red takes nothing and holds nothing to give back. */
static void test_a_merchant_with_nothing_to_give(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("merchant spy caravan", "bishop herb-witch alchemist"));
    ct_quiet_turn(s, 0);
    ct_quiet_turn(s, 1);
    run(s, "0 roll; c die 3; c event-die trade");
    stock(s, 0, 0, 0, 0, 0, 0, 0);
    run(s, "0 play merchant");
    assert_told_all(s, "done",
                    "[{\"kind\":\"merchant_done\",\"seat\":0},"
                    "{\"kind\":\"nothing_to_give\",\"seat\":0,\"other_seat\":1}]");
}

/* A paid search (rules §4.3): Red has an Abbey (hand limit 4) and 3 cards,
** pays lumber and wool, and takes Knight Conrad from stack 3.  Red sees
** what it took; Blue and a spectator are told only that a card was taken. */
static void test_a_search_tells_the_taken_card_to_the_taker_alone(void **unused) {
    (void)unused;
    const char *tops[5] = {"abbey garrison smithy", "spy bishop caravan", "conrad", NULL, NULL};
    tafel_state *s = own(ct_game_with("catan_cards", tops, NULL, NULL, "abbey garrison smithy",
                                      "spy bishop caravan"));
    ct_put_site(s, 0, "abbey", 0, -1);
    run(s, "0 roll; c die 3; c event-die trade; 0 end");
    assert_told_all(s, "search 3",
                    "[{\"kind\":\"search_begun\",\"seat\":0,\"stack\":3,\"cost\":2}]");
    run(s, "0 search 3");
    assert_told_all(s, "pay L",
                    "[{\"kind\":\"search_paid\",\"seat\":0,\"resource\":\"lumber\",\"stack\":3}]");
    run(s, "0 pay L; 0 pay W");
    assert_string_equal(account(s, 0, "take conrad"),
                        "[{\"kind\":\"card_taken\",\"seat\":0,\"stack\":3,\"card\":\"conrad\"}]");
    for (int seat = -1; seat < 2; seat += 2)
        assert_string_equal(account(s, seat, "take conrad"),
                            "[{\"kind\":\"card_taken\",\"seat\":0,\"stack\":3,\"card\":\"?\"}]");
}

/* A city on Red's settlement at column 0 makes 2 points of 1 (rules §5):
** the account carries the point. */
static void test_a_city_gains_a_victory_point(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    run(s, "0 roll; c die 3; c event-die trade");
    stock(s, 0, 0, 0, 0, 3, 2, 0);
    assert_told_all(s, "city 0",
                    "[{\"kind\":\"city_built\",\"seat\":0,\"region\":\"fields\",\"number\":1,"
                    "\"next_region\":\"mountains\",\"next_number\":2,\"col\":0,\"points\":[1,0]}]");
    run(s, "0 city 0");
    assert_int_equal(ct_points(s, 0), 3);
}

/* A road, then a settlement at its end: 1 point and the top two region
** cards (fields 3 and fields 4, the table's order), which Red places. */
static void test_a_settlement_gains_a_point_and_draws_two_regions(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    run(s, "0 roll; c die 3; c event-die trade");
    stock(s, 0, 3, 1, 3, 0, 1, 0);
    assert_told_all(s, "road left",
                    "[{\"kind\":\"road_built\",\"seat\":0,\"side\":\"left\",\"col\":-1}]");
    run(s, "0 road left");
    assert_told_all(s, "settlement left",
                    "[{\"kind\":\"settlement_built\",\"seat\":0,\"side\":\"left\",\"col\":-2,"
                    "\"points\":[1,0]},"
                    "{\"kind\":\"region_drawn\",\"seat\":0,\"region\":\"fields\",\"number\":3},"
                    "{\"kind\":\"region_drawn\",\"seat\":0,\"region\":\"fields\",\"number\":4}]");
    run(s, "0 settlement left");
    assert_told_all(s, "above fields4",
                    "[{\"kind\":\"region_placed\",\"seat\":0,\"place\":\"top_left\","
                    "\"region\":\"fields\",\"number\":4,"
                    "\"col\":-3,\"row\":-1},"
                    "{\"kind\":\"region_placed\",\"seat\":0,\"place\":\"bottom_left\","
                    "\"region\":\"fields\",\"number\":3,"
                    "\"col\":-3,\"row\":1}]");
}

/* Bank trades (rules §4.2): 3 ore for a grain, then 2 once Red has the ore
** trade fleet. */
static void test_bank_trades_tell_their_rate(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    run(s, "0 roll; c die 3; c event-die trade");
    stock(s, 0, 0, 0, 0, 3, 0, 0);
    assert_told_all(s, "bank", "[{\"kind\":\"bank_opened\",\"seat\":0}]");
    run(s, "0 bank");
    assert_told_all(s, "trade O G",
                    "[{\"kind\":\"bank_trade\",\"seat\":0,\"give\":\"ore\",\"rate\":3,"
                    "\"get\":\"grain\"}]");
    run(s, "0 trade O G");
    ct_put_site(s, 0, "fleet-ore", 2, -1);
    stock(s, 0, 0, 0, 0, 2, 0, 0);
    run(s, "0 bank");
    assert_told_all(s, "trade O G",
                    "[{\"kind\":\"bank_trade\",\"seat\":0,\"give\":\"ore\",\"rate\":2,"
                    "\"get\":\"grain\"}]");
}

/* An offer and its answer: Red offers 2 lumber for 1 ore, Blue accepts. */
static void test_an_offer_and_its_answer(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    run(s, "0 roll; c die 3; c event-die trade");
    stock(s, 0, 2, 0, 0, 0, 0, 0);
    run(s, "0 negotiate");
    assert_told_all(s, "offer 2L 1O",
                    "[{\"kind\":\"offer_made\",\"seat\":0,\"other_seat\":1,\"give\":\"lumber\","
                    "\"give_count\":2,\"get\":\"ore\",\"get_count\":1}]");
    run(s, "0 offer 2L 1O");
    assert_told_all(s, "accept",
                    "[{\"kind\":\"offer_accepted\",\"seat\":1,\"other_seat\":0,\"give\":\"lumber\","
                    "\"give_count\":2,\"get\":\"ore\",\"get_count\":1}]");
    assert_told_all(s, "decline",
                    "[{\"kind\":\"offer_declined\",\"seat\":1,\"other_seat\":0,\"declined\":1}]");
}

/* An offer may bring more than the regions hold (bank trades may not): Red
** offers 3 lumber for 1 ore; Blue's one forest holds 2, room for 1, so 2
** of the 3 lumber are lost, and Red's mountains (full, 3 ore) cannot take
** Blue's ore: that one is lost too.  Each is told, so the resources an
** account tells gained add up to what the regions hold. */
static void test_what_a_trade_brings_beyond_the_room_is_lost(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    run(s, "0 roll; c die 3; c event-die trade");
    stock(s, 0, 3, 0, 0, 3, 0, 0);
    stock(s, 1, 2, 0, 0, 1, 0, 0);
    run(s, "0 negotiate; 0 offer 3L 1O");
    assert_told_all(s, "accept",
                    "[{\"kind\":\"offer_accepted\",\"seat\":1,\"other_seat\":0,\"give\":\"lumber\","
                    "\"give_count\":3,\"get\":\"ore\",\"get_count\":1},"
                    "{\"kind\":\"resource_lost\",\"seat\":1,\"resource\":\"lumber\",\"count\":2},"
                    "{\"kind\":\"resource_lost\",\"seat\":0,\"resource\":\"ore\",\"count\":1}]");
    run(s, "1 accept");
    assert_int_equal(ct_stock_of(s, 1, "L"), 3);
    assert_int_equal(ct_stock_of(s, 1, "O"), 0);
    assert_int_equal(ct_stock_of(s, 0, "L"), 0);
    assert_int_equal(ct_stock_of(s, 0, "O"), 3);
}

/* The strength advantage (the knight token, 1 point; rules §5): Red's
** Conrad (strength 2) gains it, Blue's Götz (5) takes it: -1 for Red, +1
** for Blue, in the same account as the build. */
static void test_the_strength_advantage_changes_hands(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("conrad garrison smithy", "gotz bishop caravan"));
    run(s, "0 roll; c die 3; c event-die trade");
    stock(s, 0, 0, 0, 0, 1, 1, 0);
    assert_told_all(s, "build conrad 0 -1",
                    "[{\"kind\":\"expansion_built\",\"seat\":0,\"card\":\"conrad\","
                    "\"spot\":\"above_settlement\",\"region\":\"fields\",\"number\":1,"
                    "\"next_region\":\"mountains\",\"next_number\":2,\"col\":0,\"row\":-1},"
                    "{\"kind\":\"advantage_gained\",\"seat\":0,\"advantage\":\"strength\","
                    "\"totals_by_seat\":[2,0],\"points\":[1,0]}]");
    run(s, "0 build conrad 0 -1; 0 end; 0 done; 1 roll; c die 3; c event-die trade");
    stock(s, 1, 0, 2, 0, 2, 2, 0);
    assert_told_all(s, "build gotz 0 -1",
                    "[{\"kind\":\"expansion_built\",\"seat\":1,\"card\":\"gotz\","
                    "\"spot\":\"above_settlement\",\"region\":\"fields\",\"number\":2,"
                    "\"next_region\":\"mountains\",\"next_number\":3,\"col\":0,\"row\":-1},"
                    "{\"kind\":\"advantage_taken\",\"seat\":1,\"other_seat\":0,"
                    "\"advantage\":\"strength\",\"totals_by_seat\":[2,5],\"points\":[-1,1]}]");
    run(s, "1 build gotz 0 -1");
    assert_int_equal(ct_points(s, 0), 2);
    assert_int_equal(ct_points(s, 1), 3);
}

/* Red stands at 11 points: two cities 4, Colossus 2, Church, Aqueduct,
** Bath house, Library and Town hall 1 each; a road leads left from column
** 0.  Red's turn 1, main phase. */
static tafel_state *at_eleven_points(void) {
    tafel_state *s = own(ct_game("library garrison smithy", "spy bishop caravan"));
    ct_make_city(s, 0, 0);
    ct_make_city(s, 0, 2);
    static const char *const built[6][2] = {{"colossus", "0 -2"}, {"church", "0 -1"},
                                            {"aqueduct", "0 1"},  {"bath-house", "0 2"},
                                            {"library", "2 -2"},  {"town-hall", "2 -1"}};
    for (int i = 0; i < 6; i++) {
        int col, row;
        sscanf(built[i][1], "%d %d", &col, &row);
        ct_put_site(s, 0, built[i][0], col, row);
    }
    ct_state *d = ct_data(s);
    d->p[0].centre[CT_COL0 - 1] = CT_ROAD;
    d->p[0].left = CT_COL0 - 1;
    d->roads_left--;
    ct_refresh(d);
    assert_int_equal(ct_points(s, 0), 11);
    run(s, "0 roll; c die 3; c event-die trade");
    return s;
}

/* Red builds its second Library: 12 points end the game at once (rules §5). */
static void test_twelve_points_end_the_game(void **unused) {
    (void)unused;
    tafel_state *s = at_eleven_points();
    stock(s, 0, 2, 0, 1, 2, 0, 0);
    assert_told_all(s, "build library 2 1",
                    "[{\"kind\":\"expansion_built\",\"seat\":0,\"card\":\"library\","
                    "\"spot\":\"below_city\",\"region\":\"mountains\",\"number\":2,"
                    "\"next_region\":\"pasture\",\"next_number\":3,\"col\":2,\"row\":1,"
                    "\"points\":[1,0]},"
                    "{\"kind\":\"game_over\",\"result\":\"win\",\"winner_seats\":[0],"
                    "\"scores_by_seat\":[12,2],\"turn\":1}]");
}

/* A settlement that wins: the game ends before its regions are drawn onto
** the table, so nobody sees them and the account names none. */
static void test_a_winning_settlement_shows_no_regions(void **unused) {
    (void)unused;
    tafel_state *s = at_eleven_points();
    stock(s, 0, 1, 1, 1, 0, 1, 0);
    assert_told_all(s, "settlement left",
                    "[{\"kind\":\"settlement_built\",\"seat\":0,\"side\":\"left\",\"col\":-2,"
                    "\"points\":[1,0]},"
                    "{\"kind\":\"game_over\",\"result\":\"win\",\"winner_seats\":[0],"
                    "\"scores_by_seat\":[12,2],\"turn\":1}]");
}

/* With max_turns=2 the game stops as a draw once turn 2 is done. */
static void test_the_turn_limit_ends_the_game_as_a_draw(void **unused) {
    (void)unused;
    const char *tops[5] = {"abbey garrison smithy", "spy bishop caravan", NULL, NULL, NULL};
    tafel_state *s = own(ct_game_with("catan_cards(max_turns=2)", tops, NULL, NULL,
                                      "abbey garrison smithy", "spy bishop caravan"));
    ct_quiet_turn(s, 0);
    run(s, "1 roll; c die 3; c event-die trade; 1 end");
    assert_told_all(s, "done",
                    "[{\"kind\":\"refill_ended\",\"seat\":1},"
                    "{\"kind\":\"game_over\",\"result\":\"draw\",\"winner_seats\":[0,1],"
                    "\"scores_by_seat\":[2,2],\"turn\":2}]");
}

/* An attack (rules §2): Red plays the Brigands, Blue does not counter, the
** duel die's 4 succeeds and Red takes 2 resources. */
static void test_a_duel_tells_the_attack_and_its_outcome(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("brigands spy caravan", "bishop herb-witch alchemist"));
    ct_quiet_turn(s, 0);
    ct_quiet_turn(s, 1);
    run(s, "0 roll; c die 3; c event-die trade");
    assert_told_all(s, "play brigands",
                    "[{\"kind\":\"card_played\",\"seat\":0,\"card\":\"brigands\"}]");
    run(s, "0 play brigands");
    assert_told_all(s, "no-counter",
                    "[{\"kind\":\"no_counter\",\"seat\":1,\"card\":\"brigands\"}]");
    run(s, "1 no-counter");
    assert_told_all(s, "duel 4",
                    "[{\"kind\":\"attack_succeeded\",\"seat\":0,\"other_seat\":1,"
                    "\"card\":\"brigands\",\"number\":4}]");
    assert_told_all(s, "duel 6",
                    "[{\"kind\":\"attack_backfired\",\"seat\":0,\"other_seat\":1,"
                    "\"card\":\"brigands\",\"number\":6}]");
    run(s, "c duel 4");
    assert_told_all(s, "take O",
                    "[{\"kind\":\"resource_taken\",\"seat\":0,\"other_seat\":1,"
                    "\"resource\":\"ore\"}]");
}

/* ======================================================= hidden information */

/* The shuffles are dealt card by card and nobody sees them: 62 cards into
** the five stacks, 11 regions, 10 event cards, each told to everyone as the
** same event with no card in it (the terminal folds a run of them). */
static void test_the_deal_tells_where_a_card_goes_and_never_which(void **unused) {
    (void)unused;
    tafel_state *s = own(h_state("catan_cards"));
    uint64_t rng = tafel_rng_seed(3);
    int cards = 0, regions = 0, events = 0, per_stack[5] = {0};
    while (tafel_state_current(s) == TAFEL_CHANCE) {
        free_texts();
        tafel_action a;
        assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
        char text[TAFEL_ACTION_TEXT_MAX];
        tafel_action_to_text(s, a, text, sizeof text);
        const char *told = account(s, -1, text);
        for (int seat = 0; seat < 2; seat++) assert_string_equal(account(s, seat, text), told);
        int k;
        if (sscanf(told, "[{\"kind\":\"card_dealt\",\"stack\":%d}]", &k) == 1) {
            cards++;
            per_stack[k - 1]++;
        } else if (!strcmp(told, "[{\"kind\":\"region_dealt\"}]")) {
            regions++;
        } else {
            assert_string_equal(told, "[{\"kind\":\"event_card_dealt\"}]");
            events++;
        }
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
    assert_int_equal(cards, 62);
    assert_int_equal(regions, 11);
    assert_int_equal(events, 10);
    static const int sizes[5] = {13, 13, 12, 12, 12};
    for (int k = 0; k < 5; k++) assert_int_equal(per_stack[k], sizes[k]);
}

/* A draw: the drawer sees its card; the other seat sees it only from a
** stack it searched (Red searched stack 1 at the start), a spectator never. */
static void test_a_drawn_card_is_named_only_to_who_may_see_it(void **unused) {
    (void)unused;
    const char *tops[5] = {"abbey garrison smithy abbey", "spy bishop caravan", "colossus", NULL,
                           NULL};
    tafel_state *s = own(ct_game_with("catan_cards", tops, NULL, NULL, "abbey garrison smithy",
                                      "spy bishop caravan"));
    ct_quiet_turn(s, 0);
    ct_state *d = ct_data(s);
    ct_hand_remove(d, 1, ct_hand_find(d, 1, ct_type("caravan")));
    d->played_out[ct_type("caravan")]++; /* every card stays accounted for */
    run(s, "1 roll; c die 3; c event-die trade; 1 end");
    assert_string_equal(account(s, 1, "draw 3"),
                        "[{\"kind\":\"card_drawn\",\"seat\":1,\"stack\":3,\"card\":\"colossus\"}]");
    assert_string_equal(account(s, 0, "draw 3"),
                        "[{\"kind\":\"card_drawn\",\"seat\":1,\"stack\":3,\"card\":\"?\"}]");
    assert_string_equal(account(s, -1, "draw 3"),
                        "[{\"kind\":\"card_drawn\",\"seat\":1,\"stack\":3,\"card\":\"?\"}]");
    /* stack 1, which Red searched: its top is now the fourth card named */
    assert_string_equal(account(s, 0, "draw 1"),
                        "[{\"kind\":\"card_drawn\",\"seat\":1,\"stack\":1,\"card\":\"abbey\"}]");
    assert_string_equal(account(s, -1, "draw 1"),
                        "[{\"kind\":\"card_drawn\",\"seat\":1,\"stack\":1,\"card\":\"?\"}]");
}

/* Blue's account of Red's draw is the same whatever lies where Blue cannot
** see: from positions resampled for Blue, where Red draws other cards. */
static void test_an_account_does_not_change_with_what_the_seat_cannot_see(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    ct_put_site(s, 0, "abbey", 0, -1);
    run(s, "0 roll; c die 3; c event-die trade; 0 end");
    assert_string_equal(account(s, 1, "draw 4"),
                        "[{\"kind\":\"card_drawn\",\"seat\":0,\"stack\":4,\"card\":\"?\"}]");
    tafel_state *r = own(tafel_state_clone(s));
    int other_cards = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        tafel_state_copy(r, s);
        uint64_t rng = tafel_rng_seed(seed);
        assert_int_equal(tafel_state_resample(r, 1, &rng), TAFEL_OK);
        assert_string_equal(account(r, 1, "draw 4"),
                            "[{\"kind\":\"card_drawn\",\"seat\":0,\"stack\":4,\"card\":\"?\"}]");
        other_cards += ct_data(r)->stack[3][0] != ct_data(s)->stack[3][0];
    }
    assert_true(other_cards > 0);
}

/* The Spy: the stolen card is named to both players (the victim knows its
** hand), not to a spectator; the exchange's card only to its owner. */
static void test_a_spy_names_the_stolen_card_to_both_players(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("spy caravan merchant", "bishop herb-witch alchemist"));
    ct_quiet_turn(s, 0);
    ct_quiet_turn(s, 1);
    run(s, "0 roll; c die 3; c event-die trade");
    assert_told_all(s, "play spy",
                    "[{\"kind\":\"card_played\",\"seat\":0,\"card\":\"spy\"},"
                    "{\"kind\":\"hand_seen\",\"seat\":0,\"other_seat\":1,\"count\":3}]");
    run(s, "0 play spy");
    for (int seat = 0; seat < 2; seat++)
        assert_string_equal(account(s, seat, "take bishop"),
                            "[{\"kind\":\"card_stolen\",\"seat\":0,\"other_seat\":1,"
                            "\"card\":\"bishop\"}]");
    assert_string_equal(account(s, -1, "take bishop"),
                        "[{\"kind\":\"card_stolen\",\"seat\":0,\"other_seat\":1,\"card\":\"?\"}]");
    run(s, "0 take bishop; 0 end");
    assert_string_equal(account(s, 0, "exchange caravan 4"),
                        "[{\"kind\":\"card_exchanged\",\"seat\":0,\"card\":\"caravan\","
                        "\"stack\":4}]");
    assert_string_equal(account(s, 1, "exchange caravan 4"),
                        "[{\"kind\":\"card_exchanged\",\"seat\":0,\"card\":\"?\",\"stack\":4}]");
    /* the Bishop came from Blue's hand: Blue still knows it */
    assert_string_equal(account(s, 1, "exchange bishop 4"),
                        "[{\"kind\":\"card_exchanged\",\"seat\":0,\"card\":\"bishop\","
                        "\"stack\":4}]");
}

/* ================================================================= catalog */

static cJSON *catalog;

/* One file of the English catalog, parsed. */
static cJSON *load_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    static char text[1 << 17];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    cJSON *file = cJSON_Parse(text);
    if (!cJSON_IsObject(file)) fail_msg("%s is not a JSON object", path);
    return file;
}

/* The game's English words: its events (catan_cards.json) and its cards,
** resources, regions and event cards (catan_cards.cards.json), as the
** terminal loads them. */
static cJSON *load_catalog(void) {
    if (catalog) return catalog;
    catalog = load_file(TAFEL_SOURCE_DIR "/web/i18n/en/catan_cards.json");
    cJSON *cards = load_file(TAFEL_SOURCE_DIR "/web/i18n/en/catan_cards.cards.json");
    for (cJSON *e = cards->child; e; e = e->next)
        if (!cJSON_GetObjectItemCaseSensitive(catalog, e->string))
            cJSON_AddItemToObject(catalog, e->string, cJSON_Duplicate(e, 1));
    cJSON_Delete(cards);
    return catalog;
}

static int has_key(const char *key) {
    return cJSON_IsString(cJSON_GetObjectItemCaseSensitive(load_catalog(), key));
}

static void assert_key(const char *key, const char *why) {
    if (!has_key(key)) fail_msg("web/i18n/en/catan_cards(.cards).json lacks \"%s\" (%s)", key, why);
}

/* Every kind account.c can write has its sentence. */
static void test_every_kind_has_a_sentence(void **unused) {
    (void)unused;
    assert_true(ct_account_kind_count > 60);
    for (int i = 0; i < ct_account_kind_count; i++) {
        char key[128];
        snprintf(key, sizeof key, "catan_cards.event.%s", ct_account_kinds[i]);
        assert_key(key, "a kind of event");
    }
}

/* The symbols events hold, from the game's own tables: every value has its
** name. */
static void test_every_symbol_has_a_name(void **unused) {
    (void)unused;
    char key[128];
    static const char *const res_fields[] = {"resource", "give", "get"};
    for (int f = 0; f < 3; f++)
        for (int r = 0; r < CT_RES; r++) {
            snprintf(key, sizeof key, "catan_cards.%s.%s", res_fields[f], ct_res_names[r]);
            assert_key(key, "a resource");
        }
    for (int r = 0; r < CT_RES; r++) {
        snprintf(key, sizeof key, "catan_cards.region.%s", ct_region_names[r]);
        assert_key(key, "a region");
        snprintf(key, sizeof key, "catan_cards.regions.%s", ct_region_names[r]);
        assert_key(key, "a start region");
    }
    for (int f = 0; f < CT_EVENT_FACES; f++) {
        snprintf(key, sizeof key, "catan_cards.face.%s", ct_face_codes[f]);
        assert_key(key, "an event die face");
    }
    for (int e = 0; e < CT_EVENT_TYPES; e++) {
        snprintf(key, sizeof key, "catan_cards.event_card.%s", ct_event_codes[e]);
        assert_key(key, "an event card");
    }
}

static const cJSON *field_of(const cJSON *event, const char *name, size_t len) {
    for (const cJSON *f = event->child; f; f = f->next)
        if (strlen(f->string) == len && !strncmp(f->string, name, len)) return f;
    return NULL;
}

/* The template of event's kind names only fields the event has, numbers
** where it asks for a plural, and the plural phrases exist. */
static void check_template(const cJSON *event, const char *kind, const char *json) {
    char key[128];
    snprintf(key, sizeof key, "catan_cards.event.%s", kind);
    assert_key(key, "a kind of event written");
    const char *t = cJSON_GetObjectItemCaseSensitive(load_catalog(), key)->valuestring;
    for (const char *p = strchr(t, '{'); p; p = strchr(p + 1, '{')) {
        const char *end = strchr(p, '}'), *colon = memchr(p, ':', (size_t)(end - p));
        size_t len = (size_t)((colon ? colon : end) - p - 1);
        const cJSON *f = field_of(event, p + 1, len);
        if (!f) fail_msg("%s names {%.*s}, which this event lacks: %s", key, (int)len, p + 1, json);
        if (!colon) continue;
        if (!cJSON_IsNumber(f)) fail_msg("%s: a plural of a field that is no number", key);
        char phrase[128];
        snprintf(phrase, sizeof phrase, "%.*s_other", (int)(end - colon - 1), colon + 1);
        assert_key(phrase, "a plural phrase");
        snprintf(phrase, sizeof phrase, "%.*s_one", (int)(end - colon - 1), colon + 1);
        assert_key(phrase, "a plural phrase");
    }
}

static int is_card(const char *value) {
    if (!strcmp(value, "?")) return 1;
    for (int t = 0; t < CT_CARD_TYPES; t++)
        if (!strcmp(ct_cards[t].code, value)) return 1;
    return 0;
}

static int is_kind(const char *kind) {
    for (int i = 0; i < ct_account_kind_count; i++)
        if (!strcmp(ct_account_kinds[i], kind)) return 1;
    return 0;
}

/* One account: kinds known, templates fit, every symbol named. */
static void check_account(const char *json, int *seen) {
    cJSON *events = cJSON_Parse(json);
    assert_true(cJSON_IsArray(events));
    for (const cJSON *e = events->child; e; e = e->next) {
        const char *kind = cJSON_GetObjectItemCaseSensitive(e, "kind")->valuestring;
        if (!is_kind(kind)) fail_msg("kind '%s' is not in ct_account_kinds", kind);
        for (int i = 0; i < ct_account_kind_count; i++)
            seen[i] |= !strcmp(ct_account_kinds[i], kind);
        check_template(e, kind, json);
        for (const cJSON *f = e->child; f; f = f->next) {
            if (!strcmp(f->string, "kind")) continue;
            if (!strcmp(f->string, "card")) {
                if (!is_card(f->valuestring)) fail_msg("no card '%s': %s", f->valuestring, json);
                continue;
            }
            const cJSON *v = cJSON_IsArray(f) ? f->child : f;
            for (; v; v = cJSON_IsArray(f) ? v->next : NULL) {
                if (!cJSON_IsString(v)) continue;
                char key[128];
                snprintf(key, sizeof key, "catan_cards.%s.%s", f->string, v->valuestring);
                assert_key(key, json);
            }
        }
    }
    cJSON_Delete(events);
}

/* Random games, every action told to both seats and a spectator: every
** event fits the catalog, every action's verb has its name.  Most kinds
** turn up; the rare ones are in the examples above. */
static void test_random_games_are_told_in_the_catalogs_words(void **unused) {
    (void)unused;
    static tafel_action scratch[CT_ACTIONS];
    int seen[128] = {0}, kinds_seen = 0;
    for (uint64_t game = 1; game <= (SLOW_BUILD ? 2 : 8); game++) {
        tafel_state *s = own(h_state("catan_cards")), *before = own(tafel_state_clone(s));
        uint64_t rng = tafel_rng_seed(game);
        while (tafel_state_current(s) != TAFEL_TERMINAL) {
            tafel_action a;
            tafel_state_copy(before, s);
            assert_int_equal(tafel_state_play_random(s, &rng, scratch, CT_ACTIONS, &a), TAFEL_OK);
            char text[TAFEL_ACTION_TEXT_MAX], verb[64], key[128];
            tafel_action_to_text(before, a, text, sizeof text);
            sscanf(text, "%63s", verb);
            snprintf(key, sizeof key, "catan_cards.action.%s", verb);
            assert_key(key, "the verb of an action");
            for (int seat = -1; seat < 2; seat++) {
                char *json = NULL;
                assert_int_equal(tafel_state_describe(before, a, seat, &json, NULL), TAFEL_OK);
                check_account(json, seen);
                free(json);
            }
        }
        teardown(NULL);
    }
    for (int i = 0; i < ct_account_kind_count; i++) kinds_seen += seen[i];
    assert_true(kinds_seen >= ct_account_kind_count * 3 / 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(
            test_a_production_roll_tells_each_region_and_what_the_limit_cost, teardown),
        cmocka_unit_test_teardown(test_an_event_card_tells_what_it_did_to_each_region,
                                  teardown),
        cmocka_unit_test_teardown(
            test_a_brigand_attack_tells_who_holds_how_much_and_what_is_lost, teardown),
        cmocka_unit_test_teardown(test_a_gain_without_room_is_told, teardown),
        cmocka_unit_test_teardown(test_a_productive_year_tells_what_the_garrisons_gave,
                                  teardown),
        cmocka_unit_test_teardown(test_conflict_names_the_card_to_both_players, teardown),
        cmocka_unit_test_teardown(test_a_merchant_with_nothing_to_give, teardown),
        cmocka_unit_test_teardown(test_a_search_tells_the_taken_card_to_the_taker_alone,
                                  teardown),
        cmocka_unit_test_teardown(test_a_city_gains_a_victory_point, teardown),
        cmocka_unit_test_teardown(test_a_settlement_gains_a_point_and_draws_two_regions,
                                  teardown),
        cmocka_unit_test_teardown(test_bank_trades_tell_their_rate, teardown),
        cmocka_unit_test_teardown(test_an_offer_and_its_answer, teardown),
        cmocka_unit_test_teardown(test_what_a_trade_brings_beyond_the_room_is_lost, teardown),
        cmocka_unit_test_teardown(test_the_strength_advantage_changes_hands, teardown),
        cmocka_unit_test_teardown(test_twelve_points_end_the_game, teardown),
        cmocka_unit_test_teardown(test_a_winning_settlement_shows_no_regions, teardown),
        cmocka_unit_test_teardown(test_the_turn_limit_ends_the_game_as_a_draw, teardown),
        cmocka_unit_test_teardown(test_a_duel_tells_the_attack_and_its_outcome, teardown),
        cmocka_unit_test_teardown(test_the_deal_tells_where_a_card_goes_and_never_which,
                                  teardown),
        cmocka_unit_test_teardown(test_a_drawn_card_is_named_only_to_who_may_see_it, teardown),
        cmocka_unit_test_teardown(
            test_an_account_does_not_change_with_what_the_seat_cannot_see, teardown),
        cmocka_unit_test_teardown(test_a_spy_names_the_stolen_card_to_both_players, teardown),
        cmocka_unit_test(test_every_kind_has_a_sentence),
        cmocka_unit_test(test_every_symbol_has_a_name),
        cmocka_unit_test_teardown(test_random_games_are_told_in_the_catalogs_words, teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    cJSON_Delete(catalog);
    return failed;
}
