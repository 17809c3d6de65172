/*
** test_catan_view.c -- what a player at the terminal reads of the Catan card
** game (issue 14): the event card the event die turns up is named, the
** duel die and a new settlement's regions say what they did, the picture
** is short (one principality a player at a sub-step of a turn), it names
** the last event and the opponent's last build, its key explains the
** symbols, start regions can be arranged by naming them, and parse errors
** quote the input once.
**
** Positions start from ct_game / ct_game_with (catan_setup.h): both players
** arrange "G O W L B Au" (row -1: fields, mountains, pasture; row +1:
** forest, hills, gold), seat 0 (Red) about to roll turn 1.
*/
#include "catan_setup.h"

/* ------------------------------------------------------------------ helpers */

static tafel_state *owned[16];

static tafel_state *own(tafel_state *s) {
    for (int i = 0; i < 16; i++)
        if (!owned[i]) return owned[i] = s;
    fail_msg("too many live states");
    return s;
}

static int free_owned(void **unused) {
    (void)unused;
    for (int i = 0; i < 16; i++) {
        tafel_state_free(owned[i]);
        owned[i] = NULL;
    }
    return 0;
}

static void run(tafel_state *s, const char *script) { h_script(s, script); }

/* The picture, kept until the group teardown (cmocka may jump out). */
static char *pictures[32];
static int npictures;

static int free_pictures(void **unused) {
    (void)unused;
    for (int i = 0; i < npictures; i++) free(pictures[i]);
    npictures = 0;
    return 0;
}

static int teardown(void **unused) {
    free_owned(unused);
    return free_pictures(unused);
}

static const char *render(const tafel_state *s, int seat, int flags) {
    char *p = tafel_state_render(s, seat, flags);
    assert_non_null(p);
    if (npictures == 32) free_pictures(NULL);
    pictures[npictures++] = p;
    return p;
}

static int lines_of(const char *text) {
    int n = 0;
    for (const char *p = text; *p; p++) n += *p == '\n';
    return n;
}

/* Lines that begin with prefix. */
static int lines_starting(const char *text, const char *prefix) {
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *line = text; *line;) {
        n += !strncmp(line, prefix, len);
        const char *end = strchr(line, '\n');
        if (!end) break;
        line = end + 1;
    }
    return n;
}

static int occurrences(const char *text, const char *what) {
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

static void assert_contains(const char *text, const char *what) {
    if (!strstr(text, what)) fail_msg("expected '%s' in:\n%s", what, text);
}

static void assert_lacks(const char *text, const char *what) {
    if (strstr(text, what)) fail_msg("did not expect '%s' in:\n%s", what, text);
}

/* The text seat sees of the action that text names. */
static const char *seen(const tafel_state *s, int seat, const char *text) {
    static char bufs[4][TAFEL_ACTION_TEXT_MAX];
    static int next;
    char *out = bufs[next++ % 4];
    tafel_action a;
    tafel_error err = {0};
    if (tafel_action_from_text(s, text, &a, &err)) fail_msg("'%s': %s", text, err.message);
    int n = tafel_action_view_text(s, seat, a, out, TAFEL_ACTION_TEXT_MAX);
    assert_true(n > 0 && n < TAFEL_ACTION_TEXT_MAX);
    return out;
}

static tafel_action action_of(const tafel_state *s, const char *text) {
    tafel_action a = -1;
    tafel_error err = {0};
    if (tafel_action_from_text(s, text, &a, &err)) fail_msg("'%s': %s", text, err.message);
    return a;
}

static tafel_state *event_game(const char *first) {
    return own(ct_event_game(first, "spy caravan merchant", "bishop herb-witch alchemist"));
}

/* The shuffles dealt at random: seat 0 (Red) is to arrange its regions. */
static tafel_state *at_arrange(void) {
    tafel_state *s = own(h_state("catan_cards"));
    uint64_t rng = tafel_rng_seed(1);
    while (tafel_state_current(s) == TAFEL_CHANCE) {
        tafel_action a;
        assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
    assert_int_equal(tafel_state_current(s), 0);
    return s;
}

/* The picture a seat gets does not change when what it cannot see is dealt
** anew: it leaks nothing. */
static void assert_render_leaks_nothing(const tafel_state *s) {
    static const int flags[3] = {0, TAFEL_RENDER_KEY, TAFEL_RENDER_WHOLE | TAFEL_RENDER_KEY};
    for (int seat = 0; seat < 2; seat++)
        for (int i = 0; i < 3; i++) {
            tafel_state *r = tafel_state_clone(s);
            uint64_t rng = tafel_rng_seed((uint64_t)(7 + seat + 10 * i));
            assert_int_equal(tafel_state_resample(r, seat, &rng), TAFEL_OK);
            char *a = tafel_state_render(s, seat, flags[i]);
            char *b = tafel_state_render(r, seat, flags[i]);
            int same = a && b && !strcmp(a, b);
            if (!same) fprintf(stderr, "seat %d sees:\n%s\nresampled:\n%s\n", seat, a, b);
            free(a);
            free(b);
            tafel_state_free(r);
            assert_true(same);
        }
}

/* ===================================================== item 3: the events */

/* The event die's "event" face turns up the top event card, which is public
** from then on: the text every seat sees names it.  The record keeps the
** notation ("event-die event"). */
static void test_the_event_die_names_the_event_card_it_turns_up(void **unused) {
    (void)unused;
    tafel_state *s = event_game("plague");
    run(s, "0 roll; c die 3");
    for (int seat = -1; seat < 2; seat++) {
        assert_string_equal(seen(s, seat, "event-die event"), "event-die event (plague)");
        assert_string_equal(seen(s, seat, "event-die brigand"), "event-die brigand");
    }
    char text[TAFEL_ACTION_TEXT_MAX];
    tafel_action_to_text(s, action_of(s, "event-die event"), text, sizeof text);
    assert_string_equal(text, "event-die event");
}

/* The picture says which event card turned up and what it does, and keeps
** naming the last one after later rolls show other faces. */
static void test_the_picture_names_the_last_event_card_and_its_effect(void **unused) {
    (void)unused;
    tafel_state *s = event_game("plague");
    run(s, "0 roll; c die 3; c event-die event");
    for (int seat = -1; seat < 2; seat++)
        assert_contains(render(s, seat, 0),
                        "Event card: Plague - each region next to a city loses 1");
    run(s, "0 end; 0 done; 1 roll; c die 3; c event-die brigand");
    const char *p = render(s, 0, 0);
    assert_contains(p, "Event die: brigand attack - ");
    assert_contains(p, "; last event card: Plague\n");
    assert_render_leaks_nothing(s);
}

/* Year end shuffles the deck, itself included: the picture still names it. */
static void test_the_picture_names_year_end_after_the_deck_is_shuffled(void **unused) {
    (void)unused;
    tafel_state *s = event_game("year-end");
    run(s, "0 roll; c die 3");
    assert_string_equal(seen(s, 1, "event-die event"), "event-die event (year-end)");
    run(s, "c event-die event");
    const char *deal[10] = {"plague", "plague", "civil-war", "conflict", "master-builder",
                            "productive-year", "productive-year", "progress", "progress",
                            "year-end"};
    for (int i = 0; i < 10; i++) {
        char text[64];
        snprintf(text, sizeof text, "c events %s", deal[i]);
        run(s, text);
    }
    assert_contains(render(s, 0, 0), "Event card: Year end - the event deck is shuffled");
    assert_render_leaks_nothing(s);
}

/* The duel die says what it decided; a new settlement's second region is
** named with the first. */
static void test_the_duel_die_says_whether_the_attack_succeeds(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("brigands spy caravan", "bishop herb-witch alchemist"));
    ct_quiet_turn(s, 0);
    ct_quiet_turn(s, 1);
    run(s, "0 roll; c die 3; c event-die trade; 0 play brigands; 1 no-counter");
    assert_string_equal(seen(s, 1, "duel 5"), "duel 5 (the attack succeeds)");
    assert_string_equal(seen(s, -1, "duel 6"), "duel 6 (the attack fails)");
}

static void test_the_countered_duel_die_says_whether_the_attack_succeeds(void **unused) {
    (void)unused;
    tafel_state *s = own(ct_game("brigands spy caravan", "bishop herb-witch alchemist"));
    ct_quiet_turn(s, 0);
    ct_quiet_turn(s, 1);
    run(s, "0 roll; c die 3; c event-die trade; 0 play brigands; 1 play bishop");
    assert_string_equal(seen(s, 0, "duel 2"), "duel 2 (the attack succeeds)");
    assert_string_equal(seen(s, 0, "duel 3"), "duel 3 (the attack fails)");
}

/* A new settlement's two regions: the prompt names both; the opponent's
** picture names them with the settlement, as its last build.  The text of
** "above forest6" stays what a player types (a hint shows it). */
static void test_a_new_settlements_regions_are_named(void **unused) {
    (void)unused;
    const char *tops[5] = {"spy caravan merchant", "bishop herb-witch alchemist", NULL, NULL,
                           NULL};
    tafel_state *s = own(ct_game_with(
        "catan_cards", tops,
        "forest6 hills1 fields3 fields4 mountains4 mountains5 pasture5 pasture6 forest1 hills2 "
        "gold3",
        NULL, "spy caravan merchant", "bishop herb-witch alchemist"));
    ct_set_stock(s, 0, (const int[CT_RES]){2, 1, 3, 0, 1, 0});
    run(s, "0 roll; c die 6; c event-die trade; 0 road left; 0 settlement left");
    assert_contains(render(s, 0, 0), "New regions: forest6 and hills1");
    assert_string_equal(seen(s, 1, "above forest6"), "above forest6");
    run(s, "0 above forest6");
    assert_contains(render(s, 1, 0), "Red's last build or action card (turn 1): settlement left "
                                     "(forest6 above, hills1 below)\n");
    assert_contains(render(s, 1, 0), "L6:0");
    assert_contains(render(s, 1, 0), "B1:0");
    assert_render_leaks_nothing(s);
}

/* ========================================== items 5/6: the key, last moves */

static void test_the_key_explains_the_symbols_only_when_asked(void **unused) {
    (void)unused;
    tafel_state *s = event_game("plague");
    const char *plain = render(s, 0, 0), *keyed = render(s, 0, TAFEL_RENDER_KEY);
    assert_lacks(plain, "Key:");
    assert_contains(keyed, "Key:");
    assert_int_equal(strncmp(keyed, plain, strlen(plain)), 0); /* appended after */
    assert_contains(keyed, "L W B O G Au");
    assert_contains(keyed, "B6:1");
    assert_contains(keyed, "knight");
    assert_contains(keyed, "windmill");
    assert_contains(keyed, "hand limit");
    for (int flags = 0; flags < 8; flags++)
        if (!(flags & TAFEL_RENDER_COLOR)) assert_lacks(render(s, 0, flags), "\x1b");
}

/* The opponent's last build or action card is named, with its turn. */
static void test_the_picture_names_the_opponents_last_build(void **unused) {
    (void)unused;
    tafel_state *s = event_game("plague");
    ct_quiet_turn(s, 0);
    ct_set_stock(s, 1, (const int[CT_RES]){1, 0, 2, 0, 0, 0});
    run(s, "1 roll; c die 4; c event-die trade; 1 road left; 1 end; 1 done");
    assert_contains(render(s, 0, 0), "Blue's last build or action card (turn 2): road left\n");
    assert_contains(render(s, -1, 0), "Blue's last build or action card (turn 2): road left\n");
    assert_lacks(render(s, 1, 0), "last build or action card");
    assert_lacks(render(s, 0, 0), "Red's last build");
    cJSON *v = h_view(s, 0);
    cJSON *info = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "players_info"), 1);
    const char *last = h_json_string(info, "last_build");
    assert_non_null(last);
    assert_string_equal(last, "road left");
    assert_int_equal(h_json_int(info, "last_build_turn"), 2);
    cJSON_Delete(v);
    assert_render_leaks_nothing(s);
}

/* ======================================== item 9: a short picture, arranging */

/* One principality picture per player, no empty rows, hands on one line:
** the start of a turn fits in 16 lines, and no line ends in blanks. */
static void test_the_picture_is_short(void **unused) {
    (void)unused;
    tafel_state *s = event_game("plague");
    for (int seat = -1; seat < 2; seat++) {
        const char *p = render(s, seat, 0);
        if (lines_of(p) > 16) fail_msg("%d lines:\n%s", lines_of(p), p);
        assert_lacks(p, " \n");
        assert_int_equal(lines_starting(p, "Hands:"), 1);
    }
}

/* Inside a step of a turn (a bank trade here) only the principality of the
** player deciding is drawn; TAFEL_RENDER_WHOLE draws both. */
static void test_a_sub_step_draws_one_principality(void **unused) {
    (void)unused;
    tafel_state *s = event_game("plague");
    ct_set_stock(s, 0, (const int[CT_RES]){3, 0, 0, 0, 0, 0});
    run(s, "0 roll; c die 4; c event-die trade");
    assert_int_equal(lines_starting(render(s, 0, 0), "   0 "), 2); /* main: both */
    run(s, "0 bank");
    const char *p = render(s, 0, 0);
    assert_int_equal(lines_starting(p, "   0 "), 1);
    assert_contains(p, "Blue's principality is left out during this step");
    assert_int_equal(lines_starting(render(s, 0, TAFEL_RENDER_WHOLE), "   0 "), 2);
    assert_render_leaks_nothing(s);
}

/* The six start regions may be named by resource, region kind or the
** seat's own start region cards, in any case and mixed: each spelling is
** the same action, and the canonical text stays the resources. */
static void test_regions_are_arranged_by_naming_them(void **unused) {
    (void)unused;
    tafel_state *s = at_arrange();
    tafel_action a = action_of(s, "arrange G O W L B Au");
    assert_int_equal(action_of(s, "arrange fields mountains pasture forest hills gold"), a);
    assert_int_equal(action_of(s, "arrange grain ore wool lumber brick gold"), a);
    assert_int_equal(action_of(s, "arrange fields1 mountains2 pasture3 forest4 hills5 gold6"),
                     a);
    assert_int_equal(action_of(s, "Arrange FIELDS1 O pasture3 lumber hills Au"), a);
    char text[TAFEL_ACTION_TEXT_MAX];
    tafel_action_to_text(s, a, text, sizeof text);
    assert_string_equal(text, "arrange G O W L B Au");
    /* every arrangement reads back from its text */
    int n;
    tafel_action *legal = h_legal(s, &n);
    assert_int_equal(n, 720);
    for (int i = 0; i < n; i++) {
        tafel_action_to_text(s, legal[i], text, sizeof text);
        assert_int_equal(action_of(s, text), legal[i]);
    }
    free(legal);
    /* Blue's start regions are not Red's */
    tafel_error err = {0};
    tafel_action b;
    assert_int_equal(tafel_action_from_text(
                         s, "arrange fields2 mountains3 pasture4 forest5 hills6 gold1", &b, &err),
                     TAFEL_EPARSE);
    assert_contains(err.message, "fields2 is Blue's start region");
    run(s, "0 arrange G O W L B Au");
    assert_int_equal(action_of(s, "arrange fields2 mountains3 pasture4 forest5 hills6 gold1"),
                     action_of(s, "arrange G O W L B Au"));
}

/* The prompt says how, with the arranging seat's own card names, and the
** picture numbers the places. */
static void test_the_prompt_says_how_to_arrange(void **unused) {
    (void)unused;
    tafel_state *s = at_arrange();
    const char *p = render(s, 0, 0);
    assert_contains(p, "arranges the start regions");
    assert_contains(p, "arrange G O W L B Au");
    assert_contains(p, "arrange fields mountains pasture forest hills gold");
    assert_contains(p, "arrange fields1 mountains2 pasture3 forest4 hills5 gold6");
    assert_contains(p, "#1");
    assert_contains(p, "#6");
    run(s, "0 arrange G O W L B Au");
    assert_contains(render(s, 1, 0), "arrange fields2 mountains3 pasture4 forest5 hills6 gold1");
}

/* =========================================== item 10: errors quote once */

static void test_parse_errors_quote_the_input_once(void **unused) {
    (void)unused;
    tafel_state *s = at_arrange();
    static const char *const bad[] = {
        "arrange L L L L L L", "arrange G O W L B", "arrange G O W L B Au Au", "foo",
        "take", "build abbey 99 1", "offer 5L 1O", "arrange fields1 x y z w v",
        "roll roll", "\x1b[2J", "", "arrange forest6 mountains pasture forest hills gold"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tafel_error err = {0};
        tafel_action a;
        assert_int_equal(tafel_action_from_text(s, bad[i], &a, &err), TAFEL_EPARSE);
        char quoted[128], q[64];
        snprintf(quoted, sizeof quoted, "'%s'", tafel_quote(bad[i], q, 48));
        if (occurrences(err.message, quoted) != 1)
            fail_msg("'%s': the message quotes it %d times: %s", bad[i],
                     occurrences(err.message, quoted), err.message);
    }
    tafel_error err = {0};
    tafel_action a;
    tafel_action_from_text(s, "arrange L L L L L L", &a, &err);
    assert_contains(err.message, "each of the six once");
}

/* ============================ the pieces: what the page draws and counts */

/* One resource count of a pieces cost object ({"B":2,"L":1}), 0 if absent. */
static int cost_of(const cJSON *piece, const char *res) {
    const cJSON *n = cJSON_GetObjectItem(cJSON_GetObjectItem(piece, "cost"), res);
    return n ? n->valueint : 0;
}

/* The stock of every resource of seat, L W B O G Au. */
static void stocks(tafel_state *s, int seat, int out[CT_RES]) {
    for (int r = 0; r < CT_RES; r++) out[r] = ct_stock_of(s, seat, ct_res_codes[r]);
}

/* What a build takes, as the pieces tell it. */
static void assert_paid(const int before[CT_RES], const int after[CT_RES], const cJSON *piece) {
    for (int r = 0; r < CT_RES; r++)
        if (before[r] - after[r] != cost_of(piece, ct_res_codes[r]))
            fail_msg("%s: paid %d %s, the pieces say %d", piece->string, before[r] - after[r],
                     ct_res_codes[r], cost_of(piece, ct_res_codes[r]));
}

/* The page shows a road's, a settlement's and a city's cost and worth from
** the game's pieces (tafel_game_pieces_json, "central"): a worked example
** with the real builds.  Red holds L3 W1 B3 O3 G3; a road takes 2B L
** (L2 W1 B1 O3 G3), a settlement B L W G (L1 W0 B0 O3 G2), a city on the
** settlement at column 0 3O 2G (L1 W0 B0 O0 G0).  Red then has settlements
** at -2 and 2 (1 point each) and a city (2): 4 points, and the breakdown
** the server sends with each state adds up to them. */
static void test_the_pieces_give_the_common_stacks_cost_and_worth(void **unused) {
    (void)unused;
    tafel_game *g = h_game("catan_cards");
    char *text = tafel_game_pieces_json(g);
    cJSON *pieces = cJSON_Parse(text), *central = cJSON_GetObjectItem(pieces, "central");
    const cJSON *road = cJSON_GetObjectItem(central, "road"),
                *settlement = cJSON_GetObjectItem(central, "settlement"),
                *city = cJSON_GetObjectItem(central, "city");
    assert_non_null(road);
    assert_non_null(settlement);
    assert_non_null(city);
    assert_int_equal(h_json_int(road, "vp"), 0);
    assert_int_equal(h_json_int(settlement, "vp"), 1);
    assert_int_equal(h_json_int(city, "vp"), 2);

    tafel_state *s = own(ct_game("abbey garrison smithy", "spy bishop caravan"));
    run(s, "0 roll; c die 3; c event-die trade");
    ct_set_stock(s, 0, (const int[CT_RES]){3, 1, 3, 3, 3, 0});
    int before[CT_RES], after[CT_RES];
    stocks(s, 0, before);
    run(s, "0 road left");
    stocks(s, 0, after);
    assert_paid(before, after, road);
    memcpy(before, after, sizeof before);
    run(s, "0 settlement left; 0 above fields4");
    stocks(s, 0, after);
    assert_paid(before, after, settlement);
    memcpy(before, after, sizeof before);
    run(s, "0 city 0");
    stocks(s, 0, after);
    assert_paid(before, after, city);
    assert_memory_equal(after, ((const int[CT_RES]){1, 0, 0, 0, 0, 0}), sizeof after);

    const char *names[16];
    double values[16], sum = 0;
    int n = tafel_state_score_breakdown(s, 0, names, values, 16);
    assert_int_equal(n, 5);
    static const char *const want[5] = {"settlements", "cities", "expansions", "knight", "windmill"};
    static const double worth[5] = {2, 2, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        assert_string_equal(names[i], want[i]);
        assert_true(values[i] == worth[i]);
        sum += values[i];
    }
    assert_true(values[0] == 2 * h_json_int(settlement, "vp") && values[1] == h_json_int(city, "vp"));
    assert_int_equal((int)sum, 4);
    assert_int_equal(ct_points(s, 0), 4);
    cJSON_Delete(pieces);
    free(text);
    tafel_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_event_die_names_the_event_card_it_turns_up),
        cmocka_unit_test(test_the_picture_names_the_last_event_card_and_its_effect),
        cmocka_unit_test(test_the_picture_names_year_end_after_the_deck_is_shuffled),
        cmocka_unit_test(test_the_duel_die_says_whether_the_attack_succeeds),
        cmocka_unit_test(test_the_countered_duel_die_says_whether_the_attack_succeeds),
        cmocka_unit_test(test_a_new_settlements_regions_are_named),
        cmocka_unit_test(test_the_key_explains_the_symbols_only_when_asked),
        cmocka_unit_test(test_the_picture_names_the_opponents_last_build),
        cmocka_unit_test(test_the_picture_is_short),
        cmocka_unit_test(test_a_sub_step_draws_one_principality),
        cmocka_unit_test(test_regions_are_arranged_by_naming_them),
        cmocka_unit_test(test_the_prompt_says_how_to_arrange),
        cmocka_unit_test(test_parse_errors_quote_the_input_once),
        cmocka_unit_test(test_the_pieces_give_the_common_stacks_cost_and_worth),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
