/*
** test_carcassonne_account.c -- what each action of Carcassonne did, as
** events (docs/events-carcassonne.md), on worked examples with literal
** accounts, and the English catalog that puts them into words.
**
** Every account is checked whole, as the JSON the engine writes, and on the
** way: every seat is told the same as a spectator (nothing is hidden but
** the order of the pile); the points add up to the change of the scores;
** every kind has its sentence in web/i18n/en/carcassonne.json, every string
** value its name, every placeholder of the sentence a field of the event,
** and every plural phrase both forms.  Positions are built by play from the
** start tile D at (0,0) (city north, road east-west); where the game must
** end, the pile is cut down to one tile (white-box, the other tiles moved to
** the removed ones so that the state still checks).
*/
#include "helpers.h"

#include "core/module.h"
#include "games/carcassonne/carcassonne.h"

#ifndef TAFEL_SOURCE_DIR
#define TAFEL_SOURCE_DIR "."
#endif

#define CATALOG TAFEL_SOURCE_DIR "/web/i18n/en/carcassonne.json"

/* Every kind of event the account can hold (docs/events-carcassonne.md). */
static const char *const all_kinds[] = {
    "tile_drawn", "tile_removed", "tile_placed", "follower_placed", "no_follower",
    "feature_completed", "road_scored", "city_scored", "cloister_scored",
    "followers_returned", "crop_chosen", "crop_skipped", "crop_added", "crop_removed",
    "crop_passed", "unfinished_road_scored", "unfinished_city_scored",
    "unfinished_cloister_scored", "farm_scored", "field_scored", "game_over",
    "road_extended", "road_closed", "city_extended", "city_closed", "cloister_neighboured",
    "cloister_closed"};
#define NKINDS (int)(sizeof all_kinds / sizeof all_kinds[0])

static cJSON *catalog;
static unsigned kinds_seen; /* bit i: all_kinds[i] was in some account */

static int setup(void **unused) {
    (void)unused;
    FILE *f = fopen(CATALOG, "rb");
    if (!f) return -1;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    catalog = cJSON_Parse(text);
    return cJSON_IsObject(catalog) ? 0 : -1;
}

static int teardown(void **unused) {
    (void)unused;
    cJSON_Delete(catalog);
    return 0;
}

static const char *entry(const char *key) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(catalog, key);
    return cJSON_IsString(it) ? it->valuestring : NULL;
}

static void need_entry(const char *key, const char *why) {
    if (!entry(key)) fail_msg("web/i18n/en/carcassonne.json has no \"%s\" (%s)", key, why);
}

static int kind_index(const char *kind) {
    for (int i = 0; i < NKINDS; i++)
        if (!strcmp(all_kinds[i], kind)) return i;
    return -1;
}

/* A string field's value needs its name: carcassonne.<field>.<value>. */
static void check_string(const char *field, const char *value) {
    char key[128];
    snprintf(key, sizeof key, "carcassonne.%s.%s", field, value);
    need_entry(key, "a string value of an event");
}

/* Every {field} and {field:phrase} of the sentence is in the event; a
** phrase has its _other form and takes a number (or an array, by its length). */
static void check_template(const cJSON *event, const char *kind, const char *sentence) {
    for (const char *p = strchr(sentence, '{'); p; p = strchr(p + 1, '{')) {
        const char *end = strchr(p, '}');
        assert_non_null(end);
        char field[64], phrase[96] = "";
        size_t len = (size_t)(end - p - 1);
        assert_true(len < sizeof field);
        memcpy(field, p + 1, len);
        field[len] = 0;
        char *colon = strchr(field, ':');
        if (colon) {
            snprintf(phrase, sizeof phrase, "%s", colon + 1);
            *colon = 0;
        }
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(event, field);
        if (!value) fail_msg("the sentence of %s names {%s}, which the event lacks", kind, field);
        if (!phrase[0]) continue;
        if (!cJSON_IsNumber(value) && !cJSON_IsArray(value))
            fail_msg("%s: {%s:%s} needs a number", kind, field, phrase);
        char key[128];
        snprintf(key, sizeof key, "%s_other", phrase);
        need_entry(key, "a plural phrase");
    }
}

/* One account against the catalog; notes the kinds it holds. */
static void check_catalog(const cJSON *events) {
    for (const cJSON *e = events->child; e; e = e->next) {
        const char *kind = h_json_string(e, "kind");
        assert_non_null(kind);
        int i = kind_index(kind);
        if (i < 0) fail_msg("event kind %s is not in the list of kinds", kind);
        kinds_seen |= 1u << i;
        char key[128];
        snprintf(key, sizeof key, "carcassonne.event.%s", kind);
        need_entry(key, "an event kind");
        check_template(e, kind, entry(key));
        for (const cJSON *f = e->child; f; f = f->next) {
            if (!strcmp(f->string, "kind")) continue;
            if (cJSON_IsString(f)) check_string(f->string, f->valuestring);
            for (const cJSON *v = cJSON_IsArray(f) ? f->child : NULL; v; v = v->next)
                if (cJSON_IsString(v)) check_string(f->string, v->valuestring);
        }
    }
}

/* The account of the action `text` as seat sees it (-1 a spectator). */
static char *account_of(const tafel_state *s, tafel_action a, int seat) {
    char *json = NULL;
    tafel_error err = {0};
    int rc = tafel_state_describe(s, a, seat, &json, &err);
    if (rc != TAFEL_OK) fail_msg("describe: %s", err.message);
    return json;
}

/* The account of `text` must be `expected`; then the action is played. */
static void expect(tafel_state *s, const char *text, const char *expected) {
    tafel_action a;
    tafel_error err = {0};
    if (tafel_action_from_text(s, text, &a, &err) != TAFEL_OK)
        fail_msg("'%s': %s", text, err.message);
    char *json = account_of(s, a, -1);
    if (strcmp(json, expected))
        fail_msg("the account of '%s' is\n%s\nnot\n%s", text, json, expected);
    int players = tafel_state_players(s);
    for (int seat = 0; seat < players; seat++) {
        char *mine = account_of(s, a, seat);
        assert_string_equal(mine, json);
        free(mine);
    }
    cJSON *events = cJSON_Parse(json);
    assert_non_null(events);
    check_catalog(events);
    double before[TAFEL_MAX_PLAYERS], after[TAFEL_MAX_PLAYERS], told[TAFEL_MAX_PLAYERS] = {0};
    tafel_state_scores(s, before);
    assert_int_equal(tafel_state_apply(s, a, &err), TAFEL_OK);
    tafel_state_scores(s, after);
    for (const cJSON *e = events->child; e; e = e->next) {
        const cJSON *points = cJSON_GetObjectItemCaseSensitive(e, "points");
        int p = 0;
        for (const cJSON *v = points ? points->child : NULL; v; v = v->next)
            told[p++] += v->valuedouble;
    }
    for (int p = 0; p < players; p++) assert_true(told[p] == after[p] - before[p]);
    cJSON_Delete(events);
    free(json);
}

/* Leave only one tile of type id in the pile; the others count as removed,
** so that the state still holds every tile (its check passes). */
static void leave_in_pile(tafel_state *s, const char *id) {
    carc_state *c = tf_state_data(s);
    int keep = carc_tile_find(id);
    for (int t = 0; t < CARC_TILE_TYPES; t++)
        for (; c->pile[t] > (t == keep); c->pile[t]--, c->pile_total--)
            c->removed[c->nremoved++] = (uint8_t)t;
    assert_int_equal(c->pile_total, 1);
    assert_int_equal(tafel_state_check(s, NULL), TAFEL_OK);
}

/* ------------------------------------------------------------ during play */

/* Red's robber on W (1,0); the road D, U, W ends at two junctions. */
static void test_a_road_completed_by_one_robber_scores_4_and_the_robber_goes_home(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    expect(s, "draw W", "[{\"kind\":\"tile_drawn\",\"seat\":0,\"tile\":\"W\",\"pile\":70}]");
    /* the log says what the tile joined: the start tile's road, held by nobody yet */
    expect(s, "place 1 0 0",
           "[{\"kind\":\"tile_placed\",\"seat\":0,\"tile\":\"W\",\"x\":1,\"y\":0,\"turn\":0},"
           "{\"kind\":\"road_extended\",\"seat\":0,\"feature\":\"road\",\"tiles\":2,"
           "\"merged\":0,\"owner_seats\":[],\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"road E\"],[1,0,\"road W\"]]}]");
    expect(s, "follower road W",
           "[{\"kind\":\"follower_placed\",\"seat\":0,\"follower\":\"robber\","
           "\"feature\":\"road\",\"x\":1,\"y\":0}]");
    h_turn(s, "U", -1, 0, 0, NULL);
    play(s, "draw W");
    /* W at the west end closes Red's road: "It closes Red's road, 4 tiles in all." */
    expect(s, "place -2 0 180",
           "[{\"kind\":\"tile_placed\",\"seat\":0,\"tile\":\"W\",\"x\":-2,\"y\":0,\"turn\":180},"
           "{\"kind\":\"road_closed\",\"seat\":0,\"feature\":\"road\",\"tiles\":4,"
           "\"merged\":0,\"owner_seats\":[0],\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"road E\"],[1,0,\"road W\"],[-1,0,\"road E\"],"
           "[-2,0,\"road E\"]]}]");
    expect(s, "pass",
           "[{\"kind\":\"no_follower\",\"seat\":0},"
           "{\"kind\":\"road_scored\",\"feature\":\"road\",\"tiles\":4,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"road E\"],[1,0,\"road W\"],[-1,0,\"road E\"],[-2,0,\"road E\"]],"
           "\"followers_by_seat\":[1,0],\"seats\":[0],\"reason\":\"majority\",\"points\":[4,0]},"
           "{\"kind\":\"followers_returned\",\"seat\":0,\"count\":1,\"follower\":\"robber\","
           "\"feature\":\"road\",\"segments\":[[1,0,\"road W\"]]}]");
    assert_int_equal(h_supply(s, 0), 7);
    tafel_state_free(s);
}

/* Red's knight on F (0,1) (a pennant); E (0,2) closes D + F + E:
** 2 x 3 tiles + 2 x 1 pennant = 8. */
static void test_a_city_of_3_tiles_and_1_pennant_scores_8(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    h_turn(s, "F", 0, 1, 90, "follower city N");
    play(s, "draw E", "place 0 2 180");
    expect(s, "pass",
           "[{\"kind\":\"no_follower\",\"seat\":1},"
           "{\"kind\":\"city_scored\",\"feature\":\"city\",\"tiles\":3,\"pennants\":1,"
           "\"rule\":\"city\",\"pennant_points\":2,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"city N\"],[0,1,\"city N\"],[0,2,\"city S\"]],"
           "\"followers_by_seat\":[1,0],\"seats\":[0],\"reason\":\"majority\",\"points\":[8,0]},"
           "{\"kind\":\"followers_returned\",\"seat\":0,\"count\":1,\"follower\":\"knight\","
           "\"feature\":\"city\",\"segments\":[[0,1,\"city N\"]]}]");
    tafel_state_free(s);
}

/* The small city: two E tiles close a city of 2 tiles; it scores 2 under
** the first edition (small_city=2), 4 with small_city=4. */
static void small_city(const char *game, const char *points) {
    tafel_state *s = h_state(game);
    h_turn(s, "E", 0, -1, 180, "follower city S");
    play(s, "draw E", "place 0 -2 0");
    char expected[640];
    snprintf(expected, sizeof expected,
             "[{\"kind\":\"no_follower\",\"seat\":1},"
             "{\"kind\":\"city_scored\",\"feature\":\"city\",\"tiles\":2,\"pennants\":0,"
             "\"rule\":\"small_city\",\"pennant_points\":0,\"x\":0,\"y\":-1,"
             "\"segments\":[[0,-1,\"city S\"],[0,-2,\"city N\"]],\"followers_by_seat\":[1,0],"
             "\"seats\":[0],\"reason\":\"majority\",\"points\":%s},"
             "{\"kind\":\"followers_returned\",\"seat\":0,\"count\":1,\"follower\":\"knight\","
             "\"feature\":\"city\",\"segments\":[[0,-1,\"city S\"]]}]",
             points);
    expect(s, "pass", expected);
    tafel_state_free(s);
}

static void test_a_city_of_2_tiles_scores_2_in_the_first_edition(void **unused) {
    (void)unused;
    small_city("carcassonne(players=2)", "[2,0]");
}

static void test_a_city_of_2_tiles_scores_4_with_small_city_4(void **unused) {
    (void)unused;
    small_city("carcassonne(players=2,small_city=4)", "[4,0]");
}

/* Rules, short examples: M joins red's half (D + N) and blue's (K) of a
** city of 4 tiles with 1 pennant: tied 1 to 1, each scores the full 10. */
static void test_a_tie_in_a_city_of_4_tiles_and_1_pennant_pays_both_10(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    h_turn(s, "N", 0, 1, 180, "follower city S");
    h_turn(s, "K", 1, 0, 0, "follower city N");
    play(s, "draw M", "place 1 1 270");
    expect(s, "pass",
           "[{\"kind\":\"no_follower\",\"seat\":0},"
           "{\"kind\":\"city_scored\",\"feature\":\"city\",\"tiles\":4,\"pennants\":1,"
           "\"rule\":\"city\",\"pennant_points\":2,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"city N\"],[0,1,\"city E\"],"
           "[1,0,\"city N\"],[1,1,\"city S\"]],\"followers_by_seat\":[1,1],\"seats\":[0,1],"
           "\"reason\":\"tie\",\"points\":[10,10]},"
           "{\"kind\":\"followers_returned\",\"seat\":0,\"count\":1,\"follower\":\"knight\","
           "\"feature\":\"city\",\"segments\":[[0,1,\"city E\"]]},"
           "{\"kind\":\"followers_returned\",\"seat\":1,\"count\":1,\"follower\":\"knight\","
           "\"feature\":\"city\",\"segments\":[[1,0,\"city N\"]]}]");
    tafel_state_free(s);
}

/* Red 0, blue 1, yellow 2: three road parts joined into one road (red's
** robbers on U (1,0) and U (0,-1), blue's on U (1,1)); yellow's W (1,-1)
** ends it on one side, red's L (0,1) on the other: 10 tiles, red has 2
** robbers to blue's 1, so red alone scores 10.  L also closes D's city
** with its own: 2 tiles, nobody in it. */
static void test_a_majority_of_2_robbers_to_1_pays_only_red(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=3)");
    h_turn(s, "U", 1, 0, 0, "follower road E");   /* red */
    h_turn(s, "U", 1, 1, 0, "follower road E");   /* blue: a road of its own */
    h_turn(s, "V", -1, 0, 270, NULL);             /* yellow */
    h_turn(s, "U", 0, -1, 0, "follower road E");  /* red's second robber */
    h_turn(s, "V", -1, -1, 180, NULL);            /* blue joins red's parts */
    h_turn(s, "V", 2, 1, 0, NULL);                /* yellow */
    h_turn(s, "V", 2, 0, 90, NULL);               /* red joins blue's part */
    h_turn(s, "B", 1, 2, 0, NULL);                /* blue */
    h_turn(s, "W", 1, -1, 0, NULL);               /* yellow: one end */
    play(s, "draw L", "place 0 1 180");           /* red: the other end */
    expect(s, "pass",
           "[{\"kind\":\"no_follower\",\"seat\":0},"
           "{\"kind\":\"feature_completed\",\"feature\":\"city\",\"tiles\":2,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"city N\"],[0,1,\"city S\"]]},"
           "{\"kind\":\"road_scored\",\"feature\":\"road\",\"tiles\":10,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"road E\"],[1,0,\"road E\"],[1,1,\"road E\"],[-1,0,\"road E\"],"
           "[0,-1,\"road E\"],[-1,-1,\"road N\"],[2,1,\"road S\"],[2,0,\"road N\"],"
           "[1,-1,\"road W\"],[0,1,\"road E\"]],"
           "\"followers_by_seat\":[2,1,0],\"seats\":[0],\"reason\":\"majority\","
           "\"points\":[10,0,0]},"
           "{\"kind\":\"followers_returned\",\"seat\":0,\"count\":2,\"follower\":\"robber\","
           "\"feature\":\"road\",\"segments\":[[1,0,\"road E\"],[0,-1,\"road E\"]]},"
           "{\"kind\":\"followers_returned\",\"seat\":1,\"count\":1,\"follower\":\"robber\","
           "\"feature\":\"road\",\"segments\":[[1,1,\"road E\"]]}]");
    h_points got = h_scores(s);
    assert_int_equal(got.p[0], 10);
    assert_int_equal(got.p[1], 0);
    tafel_state_free(s);
}

/* Red's monk on B (0,-1); the eighth tile around it completes it: 9. */
static void test_a_completed_cloister_scores_9(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    expect(s, "draw B", "[{\"kind\":\"tile_drawn\",\"seat\":0,\"tile\":\"B\",\"pile\":70}]");
    play(s, "place 0 -1 0");
    expect(s, "follower cloister",
           "[{\"kind\":\"follower_placed\",\"seat\":0,\"follower\":\"monk\","
           "\"feature\":\"cloister\",\"x\":0,\"y\":-1}]");
    /* seven of the eight tiles around it */
    h_script(s, "draw U; place 1 0 0; pass; draw U; place -1 0 0; pass;"
                "draw E; place 1 -1 90; pass; draw E; place -1 -1 270; pass;"
                "draw E; place 0 -2 180; pass; draw E; place 1 -2 180; pass");
    play(s, "draw E");
    /* the eighth: the tile closes the cloister, whose it is (it scores after the follower step) */
    expect(s, "place -1 -2 180",
           "[{\"kind\":\"tile_placed\",\"seat\":1,\"tile\":\"E\",\"x\":-1,\"y\":-2,\"turn\":180},"
           "{\"kind\":\"cloister_closed\",\"seat\":1,\"feature\":\"cloister\",\"filled\":8,"
           "\"owner_seats\":[0],\"x\":0,\"y\":-1,\"segments\":[[0,-1,\"cloister\"]]}]");
    expect(s, "pass",
           "[{\"kind\":\"no_follower\",\"seat\":1},"
           "{\"kind\":\"cloister_scored\",\"feature\":\"cloister\",\"tiles\":9,\"x\":0,\"y\":-1,"
           "\"segments\":[[0,-1,\"cloister\"]],"
           "\"followers_by_seat\":[1,0],\"seats\":[0],\"reason\":\"majority\",\"points\":[9,0]},"
           "{\"kind\":\"followers_returned\",\"seat\":0,\"count\":1,\"follower\":\"monk\","
           "\"feature\":\"cloister\",\"segments\":[[0,-1,\"cloister\"]]}]");
    tafel_state_free(s);
}

/* After E closes D's city no open position touches a city edge: C (all
** city) fits nowhere, leaves the game, and blue draws again. */
static void test_a_tile_that_fits_nowhere_is_removed_and_the_redraw_is_its_own_action(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    play(s, "draw E", "place 0 1 180");
    expect(s, "pass",
           "[{\"kind\":\"no_follower\",\"seat\":0},"
           "{\"kind\":\"feature_completed\",\"feature\":\"city\",\"tiles\":2,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"city N\"],[0,1,\"city S\"]]}]");
    expect(s, "draw C",
           "[{\"kind\":\"tile_drawn\",\"seat\":1,\"tile\":\"C\",\"pile\":69},"
           "{\"kind\":\"tile_removed\",\"seat\":1,\"tile\":\"C\"}]");
    expect(s, "draw D", "[{\"kind\":\"tile_drawn\",\"seat\":1,\"tile\":\"D\",\"pile\":68}]");
    tafel_state_free(s);
}

/* ----------------------------------------------------------- crop circles */

/* The seed's example A with red 0, green 1, blue 2: red lays the shield
** tile CC2 with a knight; green has a knight in D + N, blue only a robber. */
static tafel_state *crop_a_position(void) {
    tafel_state *s = h_state("carcassonne(players=3,crop_circles=true)");
    h_turn(s, "U", -1, 0, 0, NULL);               /* red */
    h_turn(s, "N", 0, 1, 180, "follower city S"); /* green knight */
    h_turn(s, "U", 1, 0, 0, "follower road E");   /* blue robber */
    play(s, "draw CC2", "place 0 -1 180", "follower city S");
    return s;
}

/* Red chooses A; green adds a knight beside its own; blue has no knight
** and is passed over; red adds last. */
static void test_crop_circle_a_green_adds_blue_is_skipped_red_adds_last(void **unused) {
    (void)unused;
    tafel_state *s = crop_a_position();
    expect(s, "crop add",
           "[{\"kind\":\"crop_chosen\",\"seat\":0,\"choice\":\"add\",\"follower\":\"knight\"}]");
    expect(s, "add 0 1 city S",
           "[{\"kind\":\"crop_added\",\"seat\":1,\"follower\":\"knight\",\"feature\":\"city\","
           "\"x\":0,\"y\":1},"
           "{\"kind\":\"crop_skipped\",\"seats\":[2],\"choice\":\"add\"}]");
    expect(s, "add 0 -1 city S",
           "[{\"kind\":\"crop_added\",\"seat\":0,\"follower\":\"knight\",\"feature\":\"city\","
           "\"x\":0,\"y\":-1}]");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    tafel_state_free(s);
}

/* A with a pass: the same position, green and red decline. */
static void test_crop_circle_a_a_player_may_decline(void **unused) {
    (void)unused;
    tafel_state *s = crop_a_position();
    play(s, "crop add");
    expect(s, "pass",
           "[{\"kind\":\"crop_passed\",\"seat\":1},"
           "{\"kind\":\"crop_skipped\",\"seats\":[2],\"choice\":\"add\"}]");
    expect(s, "pass", "[{\"kind\":\"crop_passed\",\"seat\":0}]");
    tafel_state_free(s);
}

/* The seed's example B with green 0, blue 1, red 2: green's pitchfork tile
** CC3 closes D + G + CC3 under green's new knight (6, the knight home);
** green chooses B; blue and red remove their farmers; green, with none,
** is passed over. */
static void test_crop_circle_b_blue_and_red_remove_their_farmers(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=3,crop_circles=true)");
    h_turn(s, "G", 0, 1, 90, NULL);
    h_turn(s, "U", 1, 0, 0, "follower field NNE");
    h_turn(s, "U", -1, 0, 0, "follower field SSW");
    play(s, "draw CC3", "place 0 2 180");
    expect(s, "follower city S",
           "[{\"kind\":\"follower_placed\",\"seat\":0,\"follower\":\"knight\","
           "\"feature\":\"city\",\"x\":0,\"y\":2},"
           "{\"kind\":\"city_scored\",\"feature\":\"city\",\"tiles\":3,\"pennants\":0,"
           "\"rule\":\"city\",\"pennant_points\":0,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"city N\"],[0,1,\"city N\"],[0,2,\"city S\"]],"
           "\"followers_by_seat\":[1,0,0],\"seats\":[0],\"reason\":\"majority\",\"points\":[6,0,0]},"
           "{\"kind\":\"followers_returned\",\"seat\":0,\"count\":1,\"follower\":\"knight\","
           "\"feature\":\"city\",\"segments\":[[0,2,\"city S\"]]}]");
    expect(s, "crop remove",
           "[{\"kind\":\"crop_chosen\",\"seat\":0,\"choice\":\"remove\","
           "\"follower\":\"farmer\"}]");
    expect(s, "remove 1 0 field NNE",
           "[{\"kind\":\"crop_removed\",\"seat\":1,\"follower\":\"farmer\",\"feature\":\"field\","
           "\"x\":1,\"y\":0}]");
    expect(s, "remove -1 0 field SSW",
           "[{\"kind\":\"crop_removed\",\"seat\":2,\"follower\":\"farmer\",\"feature\":\"field\","
           "\"x\":-1,\"y\":0},"
           "{\"kind\":\"crop_skipped\",\"seats\":[0],\"choice\":\"remove\"}]");
    tafel_state_free(s);
}

/* Nobody has a robber: the club tile's choice is made and everyone,
** the active player included, is passed over. */
static void test_crop_circle_with_nobody_to_act_skips_everyone(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2,crop_circles=true)");
    play(s, "draw CC4", "place 0 -1 0", "pass");
    expect(s, "crop add",
           "[{\"kind\":\"crop_chosen\",\"seat\":0,\"choice\":\"add\",\"follower\":\"robber\"},"
           "{\"kind\":\"crop_skipped\",\"seats\":[0,1],\"choice\":\"add\"}]");
    tafel_state_free(s);
}

/* ------------------------------------------------------- the end of game */

/* Rules, short examples at the end, red 0, blue 1, yellow 2: red's robber
** on the road D + 2 U (3 tiles: 3), blue's knight in D + F + G (3 tiles,
** 1 pennant: 4), yellow's monk on B with 3 tiles around it (4).  The pile
** holds one E, which yellow lays away from them all: the game ends with
** that turn, and final scoring pays each feature. */
static void test_final_scoring_of_an_unfinished_road_city_and_cloister(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=3)");
    h_turn(s, "U", 1, 0, 0, "follower road E");    /* red */
    h_turn(s, "F", 0, 1, 90, "follower city N");   /* blue, pennant */
    h_turn(s, "B", 0, -1, 0, "follower cloister"); /* yellow */
    h_turn(s, "U", -1, 0, 0, NULL);                /* red */
    h_turn(s, "G", 0, 2, 90, NULL);                /* blue */
    leave_in_pile(s, "E");
    play(s, "draw E", "place 1 1 0");              /* yellow, away from them */
    expect(s, "pass",
           "[{\"kind\":\"no_follower\",\"seat\":2},"
           "{\"kind\":\"unfinished_road_scored\",\"feature\":\"road\",\"tiles\":3,\"x\":0,"
           "\"y\":0,\"segments\":[[0,0,\"road E\"],[1,0,\"road E\"],[-1,0,\"road E\"]],"
           "\"followers_by_seat\":[1,0,0],\"seats\":[0],\"reason\":\"majority\","
           "\"points\":[3,0,0]},"
           "{\"kind\":\"unfinished_city_scored\",\"feature\":\"city\",\"tiles\":3,"
           "\"pennants\":1,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"city N\"],[0,1,\"city N\"],[0,2,\"city N\"]],"
           "\"followers_by_seat\":[0,1,0],\"seats\":[1],"
           "\"reason\":\"majority\",\"points\":[0,4,0]},"
           "{\"kind\":\"unfinished_cloister_scored\",\"feature\":\"cloister\",\"tiles\":4,"
           "\"x\":0,\"y\":-1,\"segments\":[[0,-1,\"cloister\"]],"
           "\"followers_by_seat\":[0,0,1],\"seats\":[2],"
           "\"reason\":\"majority\",\"points\":[0,0,4]},"
           "{\"kind\":\"game_over\",\"scores_by_seat\":[3,4,4],\"winner_seats\":[1,2]}]");
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    tafel_state_free(s);
}

/* The view at the end tells the final scoring in the very events of the
** account of the last action (for a page that joins after the end). */
static void test_the_view_at_the_end_holds_the_final_scoring_events(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    h_turn(s, "U", 1, 0, 0, "follower road E");  /* red's robber on D + U */
    leave_in_pile(s, "E");
    play(s, "draw E", "place 0 1 180");          /* blue closes D's city, nobody in it */
    tafel_action a;
    tafel_error err = {0};
    assert_int_equal(tafel_action_from_text(s, "pass", &a, &err), TAFEL_OK);
    char *text = account_of(s, a, -1);
    cJSON *account = cJSON_Parse(text);
    free(text);
    assert_int_equal(tafel_state_apply(s, a, &err), TAFEL_OK);
    cJSON *view = h_view(s, 1), *final = cJSON_GetObjectItem(view, "final_events");
    assert_non_null(final);
    char *got = cJSON_PrintUnformatted(final);
    assert_string_equal(got,
        "[{\"kind\":\"unfinished_road_scored\",\"feature\":\"road\",\"tiles\":2,\"x\":0,"
        "\"y\":0,\"segments\":[[0,0,\"road E\"],[1,0,\"road E\"]],"
        "\"followers_by_seat\":[1,0],\"seats\":[0],\"reason\":\"majority\","
        "\"points\":[2,0]},"
        "{\"kind\":\"game_over\",\"scores_by_seat\":[2,0],\"winner_seats\":[0]}]");
    /* the same as the account's tail: after no_follower and the city */
    cJSON *tail = cJSON_CreateArray();
    int i = 0;
    for (cJSON *e = account->child; e; e = e->next, i++)
        if (i >= 2) cJSON_AddItemToArray(tail, cJSON_Duplicate(e, 1));
    char *told = cJSON_PrintUnformatted(tail);
    assert_string_equal(got, told);
    free(told);
    free(got);
    cJSON_Delete(tail);
    cJSON_Delete(view);
    cJSON_Delete(account);
    tafel_state_free(s);
}

/* The farmer example of the rules (the short session): field 1 holds
** red's farmer and touches the finished cities A (D + E) and B (E + E);
** field 2 holds blue's two farmers and touches A only.  First edition:
** A to blue, 2 farmers to 1, B to red: 4 each, a shared win.  With
** farmers=modern: field 1 touches 2 cities, red 6; field 2 one, blue 3. */
static tafel_state *farmer_position(const char *game) {
    tafel_state *s = h_state(game);
    play(s, "draw E", "place 0 1 180", "follower field NNW", "draw U", "place 1 0 0",
         "follower field WNW", "draw E", "place 0 2 0", "pass", "draw E", "place 0 3 180",
         "pass", "draw CC3", "place -1 0 0", "pass", "crop add", "add 1 0 field WNW", "pass");
    leave_in_pile(s, "U");
    play(s, "draw U", "place 2 0 0"); /* blue: the road goes on, nobody on it */
    return s;
}

static void test_final_scoring_first_edition_farmers_city_by_city(void **unused) {
    (void)unused;
    tafel_state *s = farmer_position("carcassonne(players=2,crop_circles=true)");
    expect(s, "pass",
           "[{\"kind\":\"no_follower\",\"seat\":1},"
           "{\"kind\":\"farm_scored\",\"city_tiles\":2,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"city N\"],[0,0,\"field ENE\"],[0,0,\"field ESE\"],"
           "[0,1,\"city S\"],[0,1,\"field NNW\"],[1,0,\"field NNW\"],[1,0,\"field ESE\"],"
           "[0,2,\"field ENE\"],[-1,0,\"field ENE\"],[2,0,\"field NNW\"],[2,0,\"field ESE\"]],"
           "\"farmers_by_seat\":[1,2],\"seats\":[1],\"reason\":\"majority\",\"points\":[0,4]},"
           "{\"kind\":\"farm_scored\",\"city_tiles\":2,\"x\":0,\"y\":2,"
           "\"segments\":[[0,1,\"field NNW\"],[0,2,\"city N\"],[0,2,\"field ENE\"],"
           "[0,3,\"city S\"]],\"farmers_by_seat\":[1,0],\"seats\":[0],\"reason\":\"majority\",\"points\":[4,0]},"
           "{\"kind\":\"game_over\",\"scores_by_seat\":[4,4],\"winner_seats\":[0,1]}]");
    tafel_state_free(s);
}

static void test_final_scoring_modern_farmers_field_by_field(void **unused) {
    (void)unused;
    tafel_state *s = farmer_position("carcassonne(players=2,crop_circles=true,farmers=modern)");
    expect(s, "pass",
           "[{\"kind\":\"no_follower\",\"seat\":1},"
           "{\"kind\":\"field_scored\",\"cities\":2,\"x\":0,\"y\":1,"
           "\"segments\":[[0,1,\"field NNW\"],[0,2,\"field ENE\"]],\"farmers_by_seat\":[1,0],\"seats\":[0],\"reason\":\"majority\",\"points\":[6,0]},"
           "{\"kind\":\"field_scored\",\"cities\":1,\"x\":0,\"y\":0,"
           "\"segments\":[[0,0,\"field ENE\"],[0,0,\"field ESE\"],[1,0,\"field NNW\"],"
           "[1,0,\"field ESE\"],[-1,0,\"field ENE\"],[2,0,\"field NNW\"],[2,0,\"field ESE\"]],"
           "\"farmers_by_seat\":[0,2],\"seats\":[1],\"reason\":\"majority\",\"points\":[0,3]},"
           "{\"kind\":\"game_over\",\"scores_by_seat\":[6,3],\"winner_seats\":[0]}]");
    tafel_state_free(s);
}

/* A removal that empties the pile ends the game at once (§2.1, §5): blue
** keeps a robber on the road D + U, which final scoring pays (2). */
static void test_a_removal_that_empties_the_pile_ends_the_game(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    play(s, "draw E", "place 0 1 180", "pass", "draw U", "place 1 0 0", "follower road E");
    leave_in_pile(s, "C");
    expect(s, "draw C",
           "[{\"kind\":\"tile_drawn\",\"seat\":0,\"tile\":\"C\",\"pile\":0},"
           "{\"kind\":\"tile_removed\",\"seat\":0,\"tile\":\"C\"},"
           "{\"kind\":\"unfinished_road_scored\",\"feature\":\"road\",\"tiles\":2,\"x\":0,"
           "\"y\":0,\"segments\":[[0,0,\"road E\"],[1,0,\"road E\"]],\"followers_by_seat\":[0,1],\"seats\":[1],\"reason\":\"majority\","
           "\"points\":[0,2]},"
           "{\"kind\":\"game_over\",\"scores_by_seat\":[0,2],\"winner_seats\":[1]}]");
    tafel_state_free(s);
}

/* ------------------------------------------------------------ the catalog */

/* Random games of every variant: every account is checked against the
** catalog, and its points against the scores, on the way. */
static void test_random_games_tell_only_kinds_the_catalog_knows(void **unused) {
    (void)unused;
    static const char *const games[] = {
        "carcassonne(players=2)", "carcassonne(players=3,crop_circles=true)",
        "carcassonne(players=5,crop_circles=true,farmers=modern)",
        "carcassonne(players=4,crop_circles=true,small_city=4)"};
    tafel_action scratch[4 * CARC_FRONTIER_MAX];
    for (int g = 0; g < 4; g++)
        for (int game = 0; game < (SLOW_BUILD ? 2 : 10); game++) {
            tafel_state *s = h_state(games[g]);
            uint64_t rng = tafel_rng_seed((uint64_t)(100 * g + game));
            while (tafel_state_current(s) != TAFEL_TERMINAL) {
                int n = tafel_state_legal_actions(s, scratch, 4 * CARC_FRONTIER_MAX);
                tafel_action a = scratch[tafel_rng_below(&rng, (uint32_t)n)];
                char text[64];
                h_text(s, a, text, sizeof text);
                char *json = account_of(s, a, -1);
                expect(s, text, json);
                free(json);
            }
            tafel_state_free(s);
        }
}

/* Every kind has its sentence, and every action its verb. */
static void test_the_catalog_names_every_kind_and_action(void **unused) {
    (void)unused;
    static const char *const verbs[] = {"draw", "place", "follower", "pass",
                                        "crop_add", "crop_remove", "add", "remove"};
    char key[128];
    for (int i = 0; i < NKINDS; i++) {
        snprintf(key, sizeof key, "carcassonne.event.%s", all_kinds[i]);
        need_entry(key, "an event kind");
    }
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        snprintf(key, sizeof key, "carcassonne.action.%s", verbs[i]);
        need_entry(key, "an action");
    }
    for (int t = 0; t < CARC_TILE_TYPES; t++) {
        snprintf(key, sizeof key, "carcassonne.tile.%s", carc_tiles[t].id);
        need_entry(key, "a tile's name");
        snprintf(key, sizeof key, "carcassonne.tile_text.%s", carc_tiles[t].id);
        need_entry(key, "what a tile shows");
    }
}

/* Runs last: every kind of the list was in some account above. */
static void test_every_kind_was_told_by_some_example(void **unused) {
    (void)unused;
    for (int i = 0; i < NKINDS; i++)
        if (!(kinds_seen >> i & 1)) fail_msg("no account above held a %s", all_kinds[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_road_completed_by_one_robber_scores_4_and_the_robber_goes_home),
        cmocka_unit_test(test_a_city_of_3_tiles_and_1_pennant_scores_8),
        cmocka_unit_test(test_a_city_of_2_tiles_scores_2_in_the_first_edition),
        cmocka_unit_test(test_a_city_of_2_tiles_scores_4_with_small_city_4),
        cmocka_unit_test(test_a_tie_in_a_city_of_4_tiles_and_1_pennant_pays_both_10),
        cmocka_unit_test(test_a_majority_of_2_robbers_to_1_pays_only_red),
        cmocka_unit_test(test_a_completed_cloister_scores_9),
        cmocka_unit_test(test_a_tile_that_fits_nowhere_is_removed_and_the_redraw_is_its_own_action),
        cmocka_unit_test(test_crop_circle_a_green_adds_blue_is_skipped_red_adds_last),
        cmocka_unit_test(test_crop_circle_a_a_player_may_decline),
        cmocka_unit_test(test_crop_circle_b_blue_and_red_remove_their_farmers),
        cmocka_unit_test(test_crop_circle_with_nobody_to_act_skips_everyone),
        cmocka_unit_test(test_final_scoring_of_an_unfinished_road_city_and_cloister),
        cmocka_unit_test(test_the_view_at_the_end_holds_the_final_scoring_events),
        cmocka_unit_test(test_final_scoring_first_edition_farmers_city_by_city),
        cmocka_unit_test(test_final_scoring_modern_farmers_field_by_field),
        cmocka_unit_test(test_a_removal_that_empties_the_pile_ends_the_game),
        cmocka_unit_test(test_random_games_tell_only_kinds_the_catalog_knows),
        cmocka_unit_test(test_the_catalog_names_every_kind_and_action),
        cmocka_unit_test(test_every_kind_was_told_by_some_example),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
