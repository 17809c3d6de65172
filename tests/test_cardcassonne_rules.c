/*
** test_cardcassonne_rules.c -- the rules of Cardcassonne (rules/cardcassonne.md,
** the German rulebook as the authority) as tests with literal expected values.
**
** Every scripted position is built through the public API: the setup cards
** and the deal are chance actions, so a test names every card.  Scripts are
** lists of action texts separated by ';', each prefixed by who must be to
** move ("1 play GA G": seat 1; "c deal 0 Y1": chance), so a script that gets
** out of step with the turn order fails at once instead of testing nonsense.
**
** Two players, the first dealer seat 0, unless a test says otherwise: seat 1
** (left of the dealer) starts, the deal goes 1, 0, 1, 0, ...  Seat 1 is "Red"
** of the seed's examples.  Cards not part of an example are played into a
** row nobody secures later ("filler"), so they score nothing.
**
** Animal kinds are data of the engine (rules §1): chicken YA, pig BA, sheep
** RA, horse GA.
*/
#include "helpers.h"

#include <ctype.h>
#include <math.h>

/* White-box: cc_building_points, the best building sets of a chest. */
#include "games/cardcassonne/cardcassonne.h"

#define TWO "cardcassonne(players=2)"

/* Ten blue persons turned up at setup: they lie in the blue row, which
** no test secures unless it says so. */
#define SETUP_B                                                                \
    "c reveal B1; c reveal B1; c reveal B1; c reveal B1; c reveal B2;"         \
    "c reveal B2; c reveal B2; c reveal B3; c reveal B3; c reveal B3"

/* -------------------------------------------------------------- helpers */

/* Apply a script (see the top of the file).  An entry "1 play GA G" needs
** seat 1 to move, "c ..." a chance node; an entry without prefix is applied
** whoever moves. */
static void run(tafel_state *s, const char *script) { h_script(s, script); }

/* Deal one round: hands[seat] is the seat's hand, cards separated by
** spaces.  One card at a time, starting left of the dealer (rules §3.1). */
static void deal(tafel_state *s, int dealer, const char *const *hands) {
    int players = tafel_state_players(s);
    char cards[TAFEL_MAX_PLAYERS][16][8];
    int n[TAFEL_MAX_PLAYERS] = {0};
    for (int p = 0; p < players; p++) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", hands[p]);
        char *save = NULL;
        for (char *c = strtok_r(buf, " ", &save); c; c = strtok_r(NULL, " ", &save)) {
            assert_true(n[p] < 16);
            snprintf(cards[p][n[p]++], 8, "%s", c);
        }
        assert_int_equal(n[p], n[0]);
    }
    for (int i = 0; i < n[0]; i++)
        for (int k = 1; k <= players; k++) {
            int seat = (dealer + k) % players;
            char text[32];
            snprintf(text, sizeof text, "c deal %d %s", seat, cards[seat][i]);
            run(s, text);
        }
    assert_int_equal(tafel_state_current(s), (dealer + 1) % players);
}

static void deal2(tafel_state *s, int dealer, const char *hand0, const char *hand1) {
    const char *hands[2] = {hand0, hand1};
    deal(s, dealer, hands);
}

/* A two-player game after SETUP_B and the first deal (dealer 0). */
static tafel_state *two_dealt(const char *hand0, const char *hand1) {
    tafel_state *s = h_state(TWO);
    run(s, SETUP_B);
    deal2(s, 0, hand0, hand1);
    return s;
}

static const cJSON *jget(const cJSON *obj, const char *key) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it) fail_msg("view: no \"%s\"", key);
    return it;
}

static const cJSON *seat_of(const cJSON *v, int seat) {
    const cJSON *it = cJSON_GetArrayItem(jget(v, "seats"), seat);
    if (!it) fail_msg("view: no seat %d", seat);
    return it;
}

/* One integer of a seat in viewer's view: key, or key.sub when sub. */
static int seat_int(const tafel_state *s, int viewer, int seat, const char *key,
                    const char *sub) {
    cJSON *v = h_view(s, viewer);
    const cJSON *it = jget(seat_of(v, seat), key);
    if (sub) it = jget(it, sub);
    if (!cJSON_IsNumber(it)) fail_msg("view: seats[%d].%s%s%s is not a number", seat, key,
                                      sub ? "." : "", sub ? sub : "");
    int n = it->valueint;
    cJSON_Delete(v);
    return n;
}

/* 1 when seats[seat] of viewer's view has key. */
static int seat_has(const tafel_state *s, int viewer, int seat, const char *key) {
    cJSON *v = h_view(s, viewer);
    int has = cJSON_GetObjectItemCaseSensitive(seat_of(v, seat), key) != NULL;
    cJSON_Delete(v);
    return has;
}

/* Cards of a type out of the game (the public "removed"), 0 if absent. */
static int removed(const tafel_state *s, const char *card) {
    cJSON *v = h_view(s, -1);
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(jget(v, "removed"), card);
    int n = cJSON_IsNumber(it) ? it->valueint : 0;
    cJSON_Delete(v);
    return n;
}

/* A row of viewer's view as a line: "Y1" a face-up card, "G3@0" a
** face-down card of seat 0 whose card is shown, "?0" one that is not,
** "F1" seat 1's big follower. */
static void row_line(const tafel_state *s, int viewer, const char *row, char *out,
                     size_t size) {
    cJSON *v = h_view(s, viewer);
    const cJSON *r = jget(jget(v, "rows"), row);
    if (!cJSON_IsArray(r)) fail_msg("view: rows.%s is not an array", row);
    out[0] = 0;
    size_t used = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, r) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "follower");
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(e, "down");
        const char *card = h_json_string(e, "card");
        char item[32];
        if (cJSON_IsNumber(f))
            snprintf(item, sizeof item, "F%d", f->valueint);
        else if (cJSON_IsNumber(d) && card)
            snprintf(item, sizeof item, "%s@%d", card, d->valueint);
        else if (cJSON_IsNumber(d))
            snprintf(item, sizeof item, "?%d", d->valueint);
        else
            snprintf(item, sizeof item, "%s", card ? card : "(bad)");
        used += (size_t)snprintf(out + used, size - used, "%s%s", used ? " " : "", item);
    }
    cJSON_Delete(v);
}

static void assert_row(const tafel_state *s, int viewer, const char *row,
                       const char *expected) {
    char line[1024];
    row_line(s, viewer, row, line, sizeof line);
    if (strcmp(line, expected) != 0)
        fail_msg("row %s seen by %d: \"%s\", expected \"%s\"", row, viewer, line, expected);
}

/* A string field of the spectator view ("phase"). */
static void assert_view_string(const tafel_state *s, const char *key, const char *expected) {
    cJSON *v = h_view(s, -1);
    const char *got = h_json_string(v, key);
    if (!got || strcmp(got, expected) != 0)
        fail_msg("view: \"%s\" is \"%s\", expected \"%s\"", key, got ? got : "(none)", expected);
    cJSON_Delete(v);
}

/* The pending decision: its seat and kind, and card/row when not NULL. */
static void assert_decision(const tafel_state *s, int seat, const char *kind,
                            const char *card, const char *row) {
    cJSON *v = h_view(s, -1);
    const cJSON *d = jget(v, "decision");
    if (!cJSON_IsObject(d)) fail_msg("view: no decision pending");
    assert_int_equal(h_json_int(d, "seat"), seat);
    const char *k = h_json_string(d, "kind");
    if (!k || strcmp(k, kind) != 0) fail_msg("decision kind %s, expected %s", k ? k : "-", kind);
    if (card) {
        const char *c = h_json_string(d, "card");
        if (!c || strcmp(c, card) != 0)
            fail_msg("decision card %s, expected %s", c ? c : "-", card);
    }
    if (row) {
        const char *r = h_json_string(d, "row");
        if (!r || strcmp(r, row) != 0) fail_msg("decision row %s, expected %s", r ? r : "-", row);
    }
    cJSON_Delete(v);
    assert_int_equal(tafel_state_current(s), seat);
}

static void assert_no_decision(const tafel_state *s) {
    cJSON *v = h_view(s, -1);
    const cJSON *d = jget(v, "decision");
    if (!cJSON_IsNull(d)) fail_msg("view: a decision is pending");
    cJSON_Delete(v);
}

static void assert_scores2(const tafel_state *s, int p0, int p1) {
    h_points got = h_scores(s);
    if (got.p[0] != p0 || got.p[1] != p1)
        fail_msg("scores %d %d, expected %d %d", got.p[0], got.p[1], p0, p1);
}

/* The texts of all legal actions, joined by '|', sorted as the engine lists. */
static void legal_line(const tafel_state *s, char *out, size_t size) {
    int n;
    tafel_action *a = h_legal(s, &n);
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        char t[TAFEL_ACTION_TEXT_MAX];
        h_text(s, a[i], t, sizeof t);
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? "|" : "", t);
    }
    free(a);
}

/* Every legal action's text starts with prefix. */
static void assert_all_legal_start_with(const tafel_state *s, const char *prefix) {
    int n;
    tafel_action *a = h_legal(s, &n);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        char t[TAFEL_ACTION_TEXT_MAX];
        h_text(s, a[i], t, sizeof t);
        if (strncmp(t, prefix, strlen(prefix)) != 0)
            fail_msg("legal action '%s' does not start with '%s'", t, prefix);
    }
    free(a);
}

static int view_int(const tafel_state *s, int viewer, const char *key) {
    cJSON *v = h_view(s, viewer);
    int n = h_json_int(v, key);
    cJSON_Delete(v);
    return n;
}

/* --------------------------------------------- §5 worked examples: persons */

/* Rules §5 (German: "Rot hat folgende Zahlenwerte 3+1+1 = 5 ... 5 x 3 = 15"). */
static void test_persons_1_1_and_3_score_5_times_3_is_15(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("G1 G1 G1 G1 G1 G1", "Y1 Y1 Y3 Y1 Y2 Y2");
    run(s, "1 play Y1 Y; 0 follower R; 1 play Y1 Y; 0 play G1 G; 1 play Y3 Y;"
           "0 play G1 G; 1 follower Y; 0 play G1 G; 1 play Y1 Y; 0 play G1 G;"
           "1 play Y2 Y; 0 play G1 G; 1 play Y2 Y; 0 play G1 G");
    /* no decision: the next round's deal */
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 15);
    assert_int_equal(h_category(s, 1, "persons"), 15);
    assert_int_equal(h_category(s, 0, "persons"), 0);
    /* scored persons leave the game; the cards after the follower stay */
    assert_int_equal(removed(s, "Y1"), 2);
    assert_int_equal(removed(s, "Y3"), 1);
    assert_row(s, -1, "Y", "Y1 Y2 Y2");
    assert_row(s, 0, "G", "G1@0 G1 G1 G1 G1 G1");
    tafel_state_free(s);
}

/* German: a follower secures only the cards behind it, towards the board or
** up to another follower ("Rot ... sichert sich damit die 3 Karten nach dem
** grünen Gefolgsmann").  Both play into the yellow row. */
static void test_a_follower_secures_only_the_cards_after_the_previous_follower(
    void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y3 Y2 Y2", "Y1 Y1 Y2 Y2 Y3 Y3");
    run(s, "1 play Y1 Y; 0 play Y1 Y; 1 play Y1 Y; 0 follower Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    /* during the round: face-down cards show only to their owner */
    assert_row(s, -1, "Y", "?1 ?0 Y1 F0 Y2 Y1 Y2 Y1");
    assert_row(s, 1, "Y", "Y1@1 ?0 Y1 F0 Y2 Y1 Y2 Y1");
    assert_row(s, 0, "Y", "?1 Y1@0 Y1 F0 Y2 Y1 Y2 Y1");
    run(s, "1 follower Y; 0 play Y3 Y; 1 play Y3 Y; 0 play Y2 Y; 1 play Y3 Y; 0 play Y2 Y");
    /* seat 0: 1+1+1 = 3, times 3; seat 1: 2+1+2+1 = 6, times 4 */
    assert_scores2(s, 9, 24);
    assert_row(s, -1, "Y", "Y3 Y3 Y2 Y3 Y2");
    tafel_state_free(s);
}

/* --------------------------------------------- §5 worked examples: animals */

/* Rules §5, the Dutch seed's three steps: round 1 two sheep (6); round 3
** two sheep and an animal joker made a sheep (5 sheep: 14); round 4 two
** horses (6) and one chicken (3).  Red is seat 1.  The chicken and the
** horses lie in one row, so the chicken is Red's own face-down card in the
** green row, kept.  Sheep are red cards, horses green (rules §1). */
static void test_animals_score_the_table_value_of_the_total_of_a_kind(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y2", "RA RA Y1 Y1 Y1 Y2");
    /* round 1: two sheep */
    run(s, "1 play RA R; 0 follower G; 1 play RA R; 0 play Y1 Y; 1 follower R;"
           "0 play Y1 Y; 1 play Y1 Y; 0 play Y1 Y; 1 play Y1 Y; 0 play Y1 Y;"
           "1 play Y1 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y2 Y");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 6);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 2);
    /* animal cards stay in front of the player: not removed */
    assert_int_equal(removed(s, "RA"), 0);

    /* round 2 (seat 1 placed its follower last, so it deals): nobody scores */
    assert_int_equal(view_int(s, -1, "dealer"), 1);
    deal2(s, 1, "Y2 Y2 Y2 Y3 Y3 Y3", "BA BA BA BA BA BA");
    run(s, "0 follower G; 1 follower R; 0 play Y2 Y; 1 play BA B; 0 play Y2 Y;"
           "1 play BA B; 0 play Y2 Y; 1 play BA B; 0 play Y3 Y; 1 play BA B;"
           "0 play Y3 Y; 1 play BA B; 0 play Y3 Y; 1 play BA B");
    assert_scores2(s, 0, 6);

    /* round 3: two sheep and an animal joker, assigned to sheep */
    deal2(s, 1, "YH YH YH YH YH B1", "RA RA AJ B1 B1 B1");
    run(s, "0 follower G; 1 play RA R; 0 play YH Y; 1 play RA R; 0 play YH Y;"
           "1 play AJ R; 0 play YH Y; 1 follower R; 0 play YH Y; 1 play B1 B;"
           "0 play YH Y; 1 play B1 B; 0 play B1 B; 1 play B1 B");
    assert_decision(s, 1, "assign", NULL, NULL);
    assert_view_string(s, "phase", "assign");
    run(s, "1 assign sheep");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 6 + 14);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 5);
    assert_int_equal(seat_int(s, -1, 1, "animal_jokers", "sheep"), 1);
    assert_int_equal(seat_int(s, -1, 1, "unassigned_jokers", NULL), 0);

    /* round 4: two horses and a chicken */
    deal2(s, 1, "BA BA BA B2 B2 BH", "YA GA GA BH BH BH");
    run(s, "0 follower R; 1 play YA G; 0 play BA B; 1 play GA G; 0 play BA B;"
           "1 play GA G; 0 play BA B; 1 follower G; 0 play B2 B; 1 play BH B;"
           "0 play B2 B; 1 play BH B; 0 play BH B; 1 play BH B");
    assert_decision(s, 1, "ten_or_keep", "YA", "G");
    run(s, "1 keep");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 6 + 14 + 6 + 3);
    assert_int_equal(h_category(s, 1, "animals"), 29);
    assert_int_equal(h_category(s, 1, "jokers"), 0);
    assert_int_equal(h_category(s, 1, "wrong"), 0);
    assert_int_equal(seat_int(s, -1, 1, "animals", "horse"), 2);
    assert_int_equal(seat_int(s, -1, 1, "animals", "chicken"), 1);
    assert_int_equal(seat_int(s, -1, 1, "animals", "pig"), 0);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 5);
    tafel_state_free(s);
}

/* Rules §3.3 table: 1..8 cards of a kind 3 6 9 12 14 16 18 19, and all 9
** of a kind (above the table; decision: 19).  For each k a fresh game where
** seat 1 secures k sheep (red) in round 1: up to five of its own, the rest played
** into the red row by seat 0 before seat 1's follower. */
static void test_the_animal_table_runs_3_6_9_12_14_16_18_19_then_stays_19(
    void **unused) {
    (void)unused;
    static const int table[10] = {0, 3, 6, 9, 12, 14, 16, 18, 19, 19};
    static const char *const persons[11] = {"Y1", "Y1", "Y1", "Y1", "Y1", "Y1",
                                            "Y1", "Y1", "Y2", "Y2", "Y2"};
    for (int k = 1; k <= 9; k++) {
        int a = k < 5 ? k : 5, b = k - a; /* sheep of seat 1 and seat 0 */
        char hand0[64] = "", hand1[64] = "";
        const char *cards0[6], *cards1[6];
        int f = 0;
        for (int i = 0; i < 6; i++) cards1[i] = i < a ? "RA" : persons[f++];
        for (int i = 0; i < 6; i++) cards0[i] = i < b ? "RA" : persons[f++];
        for (int i = 0; i < 6; i++) {
            strcat(hand0, cards0[i]);
            strcat(hand0, i < 5 ? " " : "");
            strcat(hand1, cards1[i]);
            strcat(hand1, i < 5 ? " " : "");
        }
        tafel_state *s = two_dealt(hand0, hand1);
        /* Seat 1 moves at turns 1 3 5 7 9 (cards), 11 (follower R), 13;
        ** seat 0 at turn 2 (follower G, an empty row), then 4..14. */
        char script[1024];
        size_t u = 0;
        int i0 = 0, i1 = 0;
        for (int t = 1; t <= 14; t++) {
            const char *c = NULL;
            int seat = t % 2 ? 1 : 0;
            if (seat == 1 && t == 11) {
                u += (size_t)snprintf(script + u, sizeof script - u, "1 follower R;");
                continue;
            }
            if (seat == 0 && t == 2) {
                u += (size_t)snprintf(script + u, sizeof script - u, "0 follower G;");
                continue;
            }
            c = seat ? cards1[i1++] : cards0[i0++];
            u += (size_t)snprintf(script + u, sizeof script - u, "%d play %s %c;", seat, c,
                                  c[0]);
        }
        run(s, script);
        assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
        assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), k);
        if (h_category(s, 1, "animals") != table[k])
            fail_msg("%d sheep: %d points, expected %d", k, h_category(s, 1, "animals"),
                     table[k]);
        assert_scores2(s, 0, table[k]);
        tafel_state_free(s);
    }
}

/* ------------------------------------------- §5 worked examples: wrongly placed */

/* Rules §5 (Dutch seed): Red secures the green row holding two face-down
** cards of other colours: a person (10 points) and an animal, kept because
** Red already holds 5 of its kind: 6 of the kind, 16 points; 26 in all.
** The seed's animal is "een rode schapenkaart", a red sheep card: RA,
** literally (rules §1: red = sheep). */
static void test_wrongly_placed_person_10_and_kept_sixth_sheep_16_make_26(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "RA RA RA RA RA Y1");
    /* round 1: five sheep */
    run(s, "1 play RA R; 0 follower G; 1 play RA R; 0 play Y1 Y; 1 play RA R;"
           "0 play Y1 Y; 1 play RA R; 0 play Y1 Y; 1 play RA R; 0 play Y1 Y;"
           "1 follower R; 0 play Y1 Y; 1 play Y1 Y; 0 play Y1 Y");
    assert_scores2(s, 0, 14);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 5);
    /* round 2: both face-down cards go into the green row */
    deal2(s, 1, "R1 Y2 Y2 Y2 Y2 Y2", "RA Y3 Y3 Y3 B1 B1");
    run(s, "0 play R1 G; 1 play RA G; 0 follower R; 1 follower G; 0 play Y2 Y;"
           "1 play Y3 Y; 0 play Y2 Y; 1 play Y3 Y; 0 play Y2 Y; 1 play Y3 Y;"
           "0 play Y2 Y; 1 play B1 B; 0 play Y2 Y; 1 play B1 B");
    /* only the animal asks; the person is 10 points without a question */
    assert_decision(s, 1, "ten_or_keep", "RA", "G");
    assert_view_string(s, "phase", "wrong");
    /* the secured face-down cards are turned up for everyone to see */
    char line[256];
    row_line(s, -1, "G", line, sizeof line);
    if (strchr(line, '?') || !strstr(line, "RA")) fail_msg("green row while scoring: %s", line);
    run(s, "1 keep");
    assert_no_decision(s);
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 14 + 26);
    assert_int_equal(h_category(s, 1, "wrong"), 10);
    assert_int_equal(h_category(s, 1, "animals"), 14 + 16);
    assert_int_equal(h_category(s, 1, "persons"), 0);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 6);
    assert_int_equal(removed(s, "R1"), 1);
    assert_int_equal(removed(s, "RA"), 0);
    tafel_state_free(s);
}

/* The same choice the other way: ten points, the sheep leaves the game and
** the sheep are not scored again. */
static void test_a_wrongly_placed_animal_taken_for_ten_leaves_the_game(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "RA RA RA RA RA Y1");
    run(s, "1 play RA R; 0 follower G; 1 play RA R; 0 play Y1 Y; 1 play RA R;"
           "0 play Y1 Y; 1 play RA R; 0 play Y1 Y; 1 play RA R; 0 play Y1 Y;"
           "1 follower R; 0 play Y1 Y; 1 play Y1 Y; 0 play Y1 Y");
    deal2(s, 1, "R1 Y2 Y2 Y2 Y2 Y2", "RA Y3 Y3 Y3 B1 B1");
    run(s, "0 play R1 G; 1 play RA G; 0 follower R; 1 follower G; 0 play Y2 Y;"
           "1 play Y3 Y; 0 play Y2 Y; 1 play Y3 Y; 0 play Y2 Y; 1 play Y3 Y;"
           "0 play Y2 Y; 1 play B1 B; 0 play Y2 Y; 1 play B1 B");
    assert_decision(s, 1, "ten_or_keep", "RA", "G");
    run(s, "1 ten");
    assert_scores2(s, 0, 14 + 10 + 10);
    assert_int_equal(h_category(s, 1, "wrong"), 20);
    assert_int_equal(h_category(s, 1, "animals"), 14);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 5);
    assert_int_equal(removed(s, "RA"), 1);
    tafel_state_free(s);
}

/* ---------------------------------------------- §5 worked examples: jokers */

/* Rules §3.3 / German "Drache und Fee bringen sofort je 10 Punkte ... aus dem
** Spiel genommen".  Both are played face down into rows of other colours:
** jokers are never wrongly placed. */
static void test_dragon_and_fairy_score_10_each_and_leave_the_game(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("FAIRY Y1 Y1 Y1 Y1 Y1", "DRAGON Y2 Y2 Y2 Y2 Y2");
    run(s, "1 play DRAGON R; 0 play FAIRY G; 1 follower R; 0 follower G;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 10, 10);
    assert_int_equal(h_category(s, 0, "dragon_fairy"), 10);
    assert_int_equal(h_category(s, 1, "dragon_fairy"), 10);
    assert_int_equal(h_category(s, 0, "wrong"), 0);
    assert_int_equal(h_category(s, 1, "wrong"), 0);
    assert_int_equal(removed(s, "DRAGON"), 1);
    assert_int_equal(removed(s, "FAIRY"), 1);
    assert_row(s, -1, "R", "");
    assert_row(s, -1, "G", "");
    tafel_state_free(s);
}

/* ------------------------------------------------------ the animal joker */

/* German: "Bekommt der Spieler einen Tierjoker, ohne Tierkarten vor sich
** liegen zu haben, vermerkt er sich sofort 3 Punkte.  Sobald er Tierkarten
** bekommt, muss er den Tierjoker zuordnen."  Round 1: the joker alone, 3
** points, kept unassigned.  Round 2: a horse; the joker must be assigned,
** and only to a kind the player holds (rules §3.3: a joker joins animals, it
** does not start a kind): the horse.  Horse 2 = 6; the 3 points of round 1
** stay. */
static void test_an_animal_joker_without_animals_scores_3_and_is_assigned_later(
    void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "AJ Y1 Y2 Y2 Y2 Y2");
    run(s, "1 play AJ G; 0 follower R; 1 follower G; 0 play Y1 Y; 1 play Y1 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    /* no assign decision: the round ends and the next deal is due */
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_no_decision(s);
    assert_scores2(s, 0, 3);
    assert_int_equal(h_category(s, 1, "jokers"), 3);
    assert_int_equal(h_category(s, 1, "animals"), 0);
    assert_int_equal(seat_int(s, -1, 1, "unassigned_jokers", NULL), 1);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 0);
    assert_int_equal(removed(s, "AJ"), 0);

    deal2(s, 1, "Y3 Y3 Y3 Y2 B1 B1", "GA B1 B1 BA BA BA");
    run(s, "0 follower R; 1 play GA G; 0 play Y3 Y; 1 follower G; 0 play Y3 Y;"
           "1 play B1 B; 0 play Y3 Y; 1 play B1 B; 0 play Y2 Y; 1 play BA B;"
           "0 play B1 B; 1 play BA B; 0 play B1 B; 1 play BA B");
    assert_decision(s, 1, "assign", NULL, NULL);
    char line[256];
    legal_line(s, line, sizeof line);
    assert_string_equal(line, "assign horse");
    h_refused(s, "assign sheep", TAFEL_EILLEGAL);
    h_refused(s, "assign chicken", TAFEL_EILLEGAL);
    h_refused(s, "ten", TAFEL_EILLEGAL);
    h_refused(s, "keep", TAFEL_EILLEGAL);
    h_refused(s, "play B1 B", TAFEL_EILLEGAL);
    h_refused(s, "assign cow", TAFEL_EPARSE);
    run(s, "1 assign horse");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 3 + 6);
    assert_int_equal(h_category(s, 1, "jokers"), 3);
    assert_int_equal(h_category(s, 1, "animals"), 6);
    assert_int_equal(seat_int(s, -1, 1, "unassigned_jokers", NULL), 0);
    assert_int_equal(seat_int(s, -1, 1, "animals", "horse"), 2);
    assert_int_equal(seat_int(s, -1, 1, "animal_jokers", "horse"), 1);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 0);
    tafel_state_free(s);
}

/* The same joker won in the round that brings the player's first animal
** card: it is assigned at once, no 3 points. */
static void test_an_animal_joker_won_with_an_animal_card_is_assigned_at_once(
    void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "GA AJ Y2 Y2 Y2 Y2");
    run(s, "1 play GA G; 0 follower R; 1 play AJ G; 0 play Y1 Y; 1 follower G;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_decision(s, 1, "assign", NULL, NULL);
    run(s, "1 assign horse");
    assert_scores2(s, 0, 6);
    assert_int_equal(h_category(s, 1, "jokers"), 0);
    assert_int_equal(h_category(s, 1, "animals"), 6);
    assert_int_equal(seat_int(s, -1, 1, "animals", "horse"), 2);
    tafel_state_free(s);
}

/* Rules §3.3: "no animal card at all (after this round's ten/keep choices)".
** Seat 1 secures a wrongly placed sheep and an animal joker.  The ten/keep
** question comes first; taking ten leaves no animal, so the joker scores 3
** unassigned; keeping the sheep makes the joker's assignment due now. */
static void test_an_animal_taken_for_ten_leaves_the_joker_unassigned_at_3(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "RA AJ Y2 Y2 Y2 Y2");
    run(s, "1 play RA G; 0 follower R; 1 play AJ G; 0 play Y1 Y; 1 follower G;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_decision(s, 1, "ten_or_keep", "RA", "G");
    tafel_state *kept = tafel_state_clone(s);

    run(s, "1 ten");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 10 + 3);
    assert_int_equal(h_category(s, 1, "wrong"), 10);
    assert_int_equal(h_category(s, 1, "jokers"), 3);
    assert_int_equal(seat_int(s, -1, 1, "unassigned_jokers", NULL), 1);

    run(kept, "1 keep");
    assert_decision(kept, 1, "assign", NULL, NULL);
    run(kept, "1 assign sheep");
    assert_scores2(kept, 0, 6);
    assert_int_equal(h_category(kept, 1, "jokers"), 0);
    assert_int_equal(seat_int(kept, -1, 1, "animals", "sheep"), 2);
    tafel_state_free(kept);
    tafel_state_free(s);
}

/* Two jokers held unassigned (3 points each), then a sheep (kept, wrongly
** placed), a horse and a third joker: three assign decisions, each offering
** the two kinds now held and no other; the kinds chosen score this round. */
static void test_several_held_animal_jokers_are_all_assigned_with_the_first_animal(
    void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "AJ Y1 Y2 Y2 Y2 Y2");
    run(s, "1 play AJ G; 0 follower R; 1 follower G; 0 play Y1 Y; 1 play Y1 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    deal2(s, 1, "Y3 Y3 Y3 Y2 B1 B1", "AJ B1 B1 BA BA BA");
    run(s, "0 follower R; 1 play AJ G; 0 play Y3 Y; 1 follower G; 0 play Y3 Y;"
           "1 play B1 B; 0 play Y3 Y; 1 play B1 B; 0 play Y2 Y; 1 play BA B;"
           "0 play B1 B; 1 play BA B; 0 play B1 B; 1 play BA B");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 6);
    assert_int_equal(h_category(s, 1, "jokers"), 6);
    assert_int_equal(seat_int(s, -1, 1, "unassigned_jokers", NULL), 2);
    deal2(s, 1, "YH YH YH YH YH B2", "RA GA AJ BA BA BH");
    run(s, "0 follower R; 1 play RA G; 0 play YH Y; 1 play GA G; 0 play YH Y;"
           "1 play AJ G; 0 play YH Y; 1 follower G; 0 play YH Y; 1 play BA B;"
           "0 play YH Y; 1 play BA B; 0 play B2 B; 1 play BH B");
    assert_decision(s, 1, "ten_or_keep", "RA", "G");
    run(s, "1 keep");
    char line[256];
    for (int i = 0; i < 3; i++) {
        assert_decision(s, 1, "assign", NULL, NULL);
        legal_line(s, line, sizeof line);
        assert_string_equal(line, "assign sheep|assign horse");
        h_refused(s, "assign pig", TAFEL_EILLEGAL);
        run(s, i == 0 ? "1 assign sheep" : "1 assign horse");
    }
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    /* sheep 1 + 1 joker = 6, horse 1 + 2 jokers = 9; the 6 joker points stay */
    assert_scores2(s, 0, 6 + 15);
    assert_int_equal(h_category(s, 1, "jokers"), 6);
    assert_int_equal(h_category(s, 1, "animals"), 15);
    assert_int_equal(seat_int(s, -1, 1, "unassigned_jokers", NULL), 0);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 2);
    assert_int_equal(seat_int(s, -1, 1, "animals", "horse"), 3);
    assert_int_equal(seat_int(s, -1, 1, "animal_jokers", "horse"), 2);
    assert_int_equal(seat_int(s, -1, 1, "animals", "pig"), 0);
    assert_int_equal(seat_int(s, -1, 1, "animals", "chicken"), 0);
    tafel_state_free(s);
}

/* ------------------------------------------------- wrongly placed cards */

/* Rules §3.3: a wrongly placed building: ten points (card removed) or under
** the chest.  Both seats have one; the questions go seat by seat from the
** left of the dealer (seat 1 first). */
static void test_a_wrongly_placed_building_gives_ten_or_goes_under_the_chest(
    void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("YH Y1 Y1 Y1 Y1 Y1", "RH Y2 Y2 Y2 Y2 Y2");
    run(s, "1 play RH G; 0 play YH R; 1 follower R; 0 follower G;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_decision(s, 1, "ten_or_keep", "YH", "R");
    char line[256];
    legal_line(s, line, sizeof line);
    assert_string_equal(line, "ten|keep");
    h_refused(s, "assign sheep", TAFEL_EILLEGAL);
    h_refused(s, "follower B", TAFEL_EILLEGAL);
    run(s, "1 keep");
    assert_decision(s, 0, "ten_or_keep", "RH", "G");
    run(s, "0 ten");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 10, 0);
    assert_int_equal(h_category(s, 0, "wrong"), 10);
    assert_int_equal(removed(s, "RH"), 1);
    assert_int_equal(removed(s, "YH"), 0);
    /* the kept yellow building lies under seat 1's chest */
    assert_int_equal(seat_int(s, -1, 1, "chest_count", NULL), 1);
    assert_int_equal(seat_int(s, 0, 1, "chest_count", NULL), 1);
    assert_int_equal(seat_int(s, 1, 1, "chest", "Y"), 1);
    assert_int_equal(seat_int(s, 1, 1, "chest", "R"), 0);
    assert_int_equal(seat_int(s, -1, 0, "chest_count", NULL), 0);
    /* every card won was turned over for all to see: a chest is public */
    assert_int_equal(seat_int(s, 0, 1, "chest", "Y"), 1);
    assert_int_equal(seat_int(s, -1, 1, "chest", "Y"), 1);
    assert_int_equal(seat_int(s, 0, 1, "chest", "HJ"), 0);
    tafel_state_free(s);
}

/* Rules §6: one seat's wrongly placed cards are asked in the order they lie
** in the row (from the board outwards). */
static void test_wrongly_placed_cards_are_asked_in_row_order(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("YH Y1 Y1 Y1 Y1 Y1", "RA Y2 Y2 Y2 Y2 Y2");
    run(s, "1 play RA G; 0 play YH G; 1 follower G; 0 follower R;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_decision(s, 1, "ten_or_keep", "RA", "G");
    run(s, "1 keep");
    assert_decision(s, 1, "ten_or_keep", "YH", "G");
    run(s, "1 ten");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 3 + 10);
    assert_int_equal(seat_int(s, -1, 1, "animals", "sheep"), 1);
    assert_int_equal(seat_int(s, -1, 1, "chest_count", NULL), 0);
    tafel_state_free(s);
}

/* Rules §6: the questions go seat by seat starting left of the dealer.
** Three players, dealer 0: seat 1 (nothing to decide), then seat 2, then
** seat 0. */
static void test_scoring_questions_go_seat_by_seat_from_left_of_the_dealer(void **unused) {
    (void)unused;
    tafel_state *s = h_state("cardcassonne(players=3)");
    run(s, SETUP_B);
    const char *hands[3] = {"YH Y1 Y1 Y1 Y1", "Y2 Y2 Y2 Y2 Y2", "RH Y1 Y1 Y1 Y1"};
    deal(s, 0, hands);
    run(s, "1 play Y2 Y; 2 play RH G; 0 play YH R; 1 follower B; 2 follower R;"
           "0 follower G; 1 play Y2 Y; 2 play Y1 Y; 0 play Y1 Y; 1 play Y2 Y;"
           "2 play Y1 Y; 0 play Y1 Y; 1 play Y2 Y; 2 play Y1 Y; 0 play Y1 Y;"
           "1 play Y2 Y; 2 play Y1 Y; 0 play Y1 Y");
    assert_decision(s, 2, "ten_or_keep", "YH", "R");
    run(s, "2 keep");
    assert_decision(s, 0, "ten_or_keep", "RH", "G");
    run(s, "0 ten");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(seat_int(s, -1, 2, "chest_count", NULL), 1);
    assert_int_equal(h_category(s, 0, "wrong"), 10);
    /* seat 1 took the blue setup persons: (4x1 + 3x2 + 3x3) x 10 */
    assert_int_equal(h_category(s, 1, "persons"), 190);
    /* seat 0 placed its follower last */
    assert_int_equal(view_int(s, -1, "dealer"), 0);
    tafel_state_free(s);
}

/* Rules §3.3: a wrongly placed person is 10 points at once, no question, and
** it is not in the person sum: R3 alone is 3 (with G2 it would be 10). */
static void test_a_wrongly_placed_person_scores_10_with_no_decision(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("R3 Y1 Y1 Y1 Y1 Y1", "G2 Y2 Y2 Y2 Y2 Y2");
    run(s, "1 play G2 R; 0 play R3 R; 1 follower R; 0 follower G;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_no_decision(s);
    assert_scores2(s, 0, 13);
    assert_int_equal(h_category(s, 1, "wrong"), 10);
    assert_int_equal(h_category(s, 1, "persons"), 3);
    assert_int_equal(removed(s, "G2"), 1);
    assert_int_equal(removed(s, "R3"), 1);
    tafel_state_free(s);
}

/* German: a joker may go into any row; the Dutch seed's list of wrongly
** placed cards names the jokers, but a joker is in no wrong row.  A building
** joker and an animal joker played face down into rows of "other colours":
** no question, the building joker goes under the chest, the animal joker
** scores 3 (its owner has no animal). */
static void test_jokers_played_face_down_in_any_row_are_never_wrongly_placed(
    void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("AJ Y1 Y1 Y1 Y1 Y1", "HJ Y2 Y2 Y2 Y2 Y2");
    run(s, "1 play HJ G; 0 play AJ R; 1 follower G; 0 follower R;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_no_decision(s);
    assert_scores2(s, 3, 0);
    assert_int_equal(h_category(s, 0, "jokers"), 3);
    assert_int_equal(h_category(s, 0, "wrong"), 0);
    assert_int_equal(h_category(s, 1, "wrong"), 0);
    assert_int_equal(seat_int(s, -1, 1, "chest_count", NULL), 1);
    assert_int_equal(seat_int(s, 1, 1, "chest", "HJ"), 1);
    assert_int_equal(seat_int(s, -1, 0, "unassigned_jokers", NULL), 1);
    tafel_state_free(s);
}

/* A face-down card of its own row's colour is not wrongly placed: secured,
** it is turned up and scored normally (here as a person). */
static void test_a_face_down_card_in_its_own_row_is_scored_normally(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("GA Y1 Y1 Y1 Y1 Y1", "G3 Y2 Y2 Y2 Y2 Y2");
    run(s, "1 play G3 G; 0 play GA G; 1 follower G; 0 follower R;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 3 + 3);
    assert_int_equal(h_category(s, 1, "persons"), 3);
    assert_int_equal(h_category(s, 1, "animals"), 3);
    assert_int_equal(h_category(s, 1, "wrong"), 0);
    tafel_state_free(s);
}

/* ------------------------------------------- face-down cards left in rows */

/* Rules §3.3: cards not secured stay; face-down ones stay face down, known
** to their owner alone.  Seat 0's G3 survives round 1 unclaimed in the green
** row; in round 2 seat 1 secures it with its own G1: both turned up and
** scored as persons, (3+1) x 2 = 8. */
static void test_an_unclaimed_face_down_card_stays_hidden_until_secured(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("G3 Y1 Y1 Y1 Y1 Y1", "Y1 Y2 Y2 Y2 Y2 Y2");
    run(s, "1 follower R; 0 play G3 G; 1 play Y1 Y; 0 follower R;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 0);
    /* seat 0 placed its follower last: it deals again */
    assert_int_equal(view_int(s, -1, "dealer"), 0);
    assert_row(s, 0, "G", "G3@0");
    assert_row(s, 1, "G", "?0");
    assert_row(s, -1, "G", "?0");
    /* seat 1's own face-down Y1 in its own row stays hidden from seat 0 too */
    assert_row(s, 1, "Y", "Y1@1 Y2 Y1 Y2 Y1 Y2 Y1 Y2 Y1 Y2 Y1");
    assert_row(s, 0, "Y", "?1 Y2 Y1 Y2 Y1 Y2 Y1 Y2 Y1 Y2 Y1");
    /* still hidden after the next deal and during round 2 */
    deal2(s, 0, "Y3 Y3 Y3 B1 B1 B1", "G1 B2 B2 BA BA BA");
    assert_row(s, 1, "G", "?0");
    assert_row(s, 0, "G", "G3@0");
    run(s, "1 play G1 G; 0 follower R; 1 follower G");
    assert_row(s, 1, "G", "?0 G1@1 F1");
    assert_row(s, 0, "G", "G3@0 ?1 F1");
    run(s, "0 play Y3 Y; 1 play B2 B; 0 play Y3 Y; 1 play B2 B; 0 play Y3 Y;"
           "1 play BA B; 0 play B1 B; 1 play BA B; 0 play B1 B; 1 play BA B;"
           "0 play B1 B");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_scores2(s, 0, 8);
    assert_int_equal(h_category(s, 1, "persons"), 8);
    assert_int_equal(removed(s, "G3"), 1);
    assert_int_equal(removed(s, "G1"), 1);
    assert_row(s, -1, "G", "");
    tafel_state_free(s);
}

/* ------------------------------------------- cards shown are public for good */

/* The view of seat as text, for comparing whole views. */
static char *view_text(const tafel_state *s, int seat) {
    char *v = tafel_state_view_json(s, seat);
    assert_non_null(v);
    return v;
}

static int same_view(const tafel_state *a, const tafel_state *b, int seat) {
    char *va = view_text(a, seat), *vb = view_text(b, seat);
    int same = strcmp(va, vb) == 0;
    free(va);
    free(vb);
    return same;
}

/* Rules §3.3: a face-down card is known to its owner alone until a follower
** secures it; then it is turned over ("worden nu omgedraaid") and public for
** good.  Two games differ only in seat 1's face-down card (a red sheep or a
** green horse), which seat 0's follower secures: seat 0 and a spectator see
** the same until round scoring turns it up, and different views after. */
static void test_a_hidden_card_is_hidden_until_secured_then_public_for_good(void **unused) {
    (void)unused;
    const char *animal[2] = {"RA", "GA"};
    tafel_state *s[2];
    for (int i = 0; i < 2; i++) {
        char hand1[64], play[32];
        snprintf(hand1, sizeof hand1, "%s Y2 Y2 Y2 Y2 Y2", animal[i]);
        s[i] = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", hand1);
        snprintf(play, sizeof play, "1 play %s Y", animal[i]);
        run(s[i], play);
    }
    assert_true(same_view(s[0], s[1], 0));
    assert_true(same_view(s[0], s[1], -1));
    assert_false(same_view(s[0], s[1], 1));
    for (int i = 0; i < 2; i++)
        run(s[i], "0 follower Y; 1 follower R; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y;"
                  "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
                  "0 play Y1 Y; 1 play Y2 Y");
    /* still hidden during the turns */
    assert_true(same_view(s[0], s[1], 0));
    assert_true(same_view(s[0], s[1], -1));
    for (int i = 0; i < 2; i++) run(s[i], "0 play Y1 Y");
    /* round scoring: seat 0 secured it, wrongly placed: turned up for all */
    for (int i = 0; i < 2; i++) {
        assert_decision(s[i], 0, "ten_or_keep", animal[i], "Y");
        char line[256], want[16];
        snprintf(want, sizeof want, "%s F0 ", animal[i]);
        row_line(s[i], -1, "Y", line, sizeof line);
        if (strncmp(line, want, strlen(want)))
            fail_msg("yellow row at scoring: \"%s\", expected it to start \"%s\"", line, want);
    }
    assert_false(same_view(s[0], s[1], 0));
    assert_false(same_view(s[0], s[1], -1));
    for (int i = 0; i < 2; i++) {
        run(s[i], "0 keep");
        assert_int_equal(seat_int(s[i], 1, 0, "animals", i ? "horse" : "sheep"), 1);
        assert_int_equal(seat_int(s[i], -1, 0, "animals", i ? "horse" : "sheep"), 1);
    }
    for (int seat = -1; seat < 2; seat++) assert_false(same_view(s[0], s[1], seat));
    tafel_state_free(s[0]);
    tafel_state_free(s[1]);
}

/* Rules §3.3: the buildings that go under a chest were shown when won: every
** seat sees them from then on, in later rounds too, and resampling for
** another seat never changes them (it deals only hands, face-down cards and
** the pile).  Seat 1 keeps a wrongly placed yellow building and a building
** joker. */
static void test_a_chest_is_public_and_resampling_never_changes_it(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "YH HJ Y2 Y2 Y2 Y2");
    run(s, "1 play YH R; 0 follower G; 1 play HJ R; 0 play Y1 Y; 1 follower R;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y");
    assert_decision(s, 1, "ten_or_keep", "YH", "R");
    run(s, "1 keep");
    deal2(s, 1, "R1 R1 R1 R1 R1 R1", "G1 G1 G1 G1 G1 G1");
    for (int viewer = -1; viewer < 2; viewer++) {
        assert_int_equal(seat_int(s, viewer, 1, "chest", "Y"), 1);
        assert_int_equal(seat_int(s, viewer, 1, "chest", "HJ"), 1);
        assert_int_equal(seat_int(s, viewer, 1, "chest", "B"), 0);
        assert_int_equal(seat_int(s, viewer, 1, "chest_count", NULL), 2);
    }
    char *before = view_text(s, -1);
    int hands_changed = 0;
    for (uint64_t seed = 1; seed <= 50; seed++) {
        tafel_state *r = tafel_state_clone(s);
        uint64_t rng = tafel_rng_seed(seed);
        assert_int_equal(tafel_state_resample(r, 0, &rng), TAFEL_OK);
        assert_int_equal(tafel_state_check(r, NULL), TAFEL_OK);
        /* a spectator sees both chests; nothing a spectator sees moves */
        char *after = view_text(r, -1);
        assert_string_equal(after, before);
        free(after);
        hands_changed += !same_view(r, s, 1);
        tafel_state_free(r);
    }
    free(before);
    assert_true(hands_changed > 0); /* seat 1's hand was dealt anew */
    tafel_state_free(s);
}

/* Rules §4: tied on points, the player with more building cards wins, a
** building joker counting as a building card.  White-box: two finished
** games' chests and scores set so that only the joker breaks the tie. */
static void test_a_building_joker_counts_as_a_building_card_in_a_final_tie(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    uint64_t rng = tafel_rng_seed(12);
    tafel_action legal[64];
    while (tafel_state_current(s) != TAFEL_TERMINAL) {
        tafel_action a;
        if (tafel_state_current(s) == TAFEL_CHANCE) {
            assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
        } else {
            int n = tafel_state_legal_actions(s, legal, 64);
            a = legal[tafel_rng_below(&rng, (uint32_t)n)];
        }
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
    cc_state *c = tf_state_data(s);
    memset(c->taken[0], 0, sizeof c->taken[0]);
    memset(c->taken[1], 0, sizeof c->taken[1]);
    c->score[0] = c->score[1] = 50;
    c->taken[0][CC_YELLOW * CC_PER_COLOUR + 4] = 1; /* YH and HJ: two cards */
    c->taken[0][CC_HJ_TYPE] = 1;
    c->taken[1][CC_RED * CC_PER_COLOUR + 4] = 1;    /* RH: one card */
    int won[TAFEL_MAX_PLAYERS];
    assert_int_equal(tafel_state_winners(s, won), 1);
    assert_int_equal(won[0], 0);
    c->taken[1][CC_GREEN * CC_PER_COLOUR + 4] = 1;  /* RH and GH: two each */
    assert_int_equal(tafel_state_winners(s, won), 2);
    tafel_state_free(s);
}

/* ------------------------------------------------------------- the dealer */

/* Rules §3.2: the player who placed the follower last deals next round,
** even when another player makes the round's last turn; the deal and the
** turns start left of the new dealer. */
static void test_the_last_follower_placed_makes_the_next_dealer(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "Y2 Y2 Y2 Y2 Y2 Y3");
    assert_int_equal(view_int(s, -1, "dealer"), 0);
    run(s, "1 play Y2 Y; 0 follower G; 1 follower R; 0 play Y1 Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y;"
           "1 play Y2 Y; 0 play Y1 Y; 1 play Y3 Y; 0 play Y1 Y");
    /* seat 0 made the last turn, seat 1 placed its follower last */
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(view_int(s, -1, "dealer"), 1);
    assert_int_equal(view_int(s, -1, "round"), 2);
    assert_all_legal_start_with(s, "deal 0 ");
    h_refused(s, "deal 1 Y3", TAFEL_EILLEGAL);
    deal2(s, 1, "Y3 Y3 YA YA YA YA", "BA BA BA BA BA BA");
    assert_int_equal(tafel_state_current(s), 0);
    run(s, "0 play Y3 Y; 1 follower R; 0 follower G; 1 play BA B; 0 play Y3 Y;"
           "1 play BA B; 0 play YA Y; 1 play BA B; 0 play YA Y; 1 play BA B;"
           "0 play YA Y; 1 play BA B; 0 play YA Y; 1 play BA B");
    assert_int_equal(view_int(s, -1, "dealer"), 0);
    assert_int_equal(view_int(s, -1, "round"), 3);
    assert_all_legal_start_with(s, "deal 1 ");
    h_refused(s, "deal 0 B1", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

/* Rules §2: dealer=K names the first dealer, who also places setup jokers;
** the deal and the first turn start left of the dealer.  Three players,
** dealer 2: the deal starts with seat 0.  Then the last follower (seat 1,
** in the middle of the round) deals round 2: deal and turns from seat 2. */
static void test_option_dealer_names_the_first_dealer(void **unused) {
    (void)unused;
    tafel_error err = {0};
    tafel_game *g = NULL;
    assert_int_equal(tafel_game_load("cardcassonne(players=2,dealer=2)", &g, &err),
                     TAFEL_EPARAM);
    assert_null(g);
    assert_int_equal(tafel_game_load("cardcassonne(players=6)", &g, &err), TAFEL_EPARAM);
    assert_int_equal(tafel_game_load("cardcassonne(players=1)", &g, &err), TAFEL_EPARAM);

    tafel_state *s = h_state("cardcassonne(players=3,dealer=2)");
    assert_int_equal(view_int(s, -1, "dealer"), 2);
    run(s, "c reveal Y1; c reveal Y1; c reveal AJ");
    assert_decision(s, 2, "row", "AJ", NULL);
    run(s, "2 row B; c reveal Y1; c reveal Y1; c reveal Y1; c reveal Y1; c reveal Y1;"
           "c reveal Y1; c reveal Y2");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_all_legal_start_with(s, "deal 0 ");
    const char *hands[3] = {"B1 B1 B1 B1 B1", "B2 B2 B2 B2 B2", "B3 B3 B3 BA BA"};
    deal(s, 2, hands);
    assert_int_equal(tafel_state_current(s), 0);
    run(s, "0 follower R; 1 play B2 B; 2 follower G; 0 play B1 B; 1 follower Y;"
           "2 play B3 B; 0 play B1 B; 1 play B2 B; 2 play B3 B; 0 play B1 B;"
           "1 play B2 B; 2 play B3 B; 0 play B1 B; 1 play B2 B; 2 play BA B;"
           "0 play B1 B; 1 play B2 B; 2 play BA B");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(view_int(s, -1, "dealer"), 1);
    assert_all_legal_start_with(s, "deal 2 ");
    const char *hands2[3] = {"BA BA BA BA BA", "BH BH BH BH BH", "R1 R1 R1 R1 R1"};
    deal(s, 1, hands2);
    assert_int_equal(tafel_state_current(s), 2);
    tafel_state_free(s);
}

/* ------------------------------------------------------------------ setup */

/* Rules §2: ten cards turned up, each to the end of its colour's row; a joker
** into a row the dealer chooses (a decision); then 120 cards to deal. */
static void test_setup_cards_go_to_their_rows_and_jokers_where_the_dealer_says(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    /* the first card: 130 equally likely, 8 of them Y1 */
    tafel_action out[64];
    double prob[64];
    int n = tafel_state_chance_outcomes(s, out, prob, 64);
    assert_int_equal(n, 24);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        char t[TAFEL_ACTION_TEXT_MAX];
        h_text(s, out[i], t, sizeof t);
        if (strcmp(t, "reveal Y1") == 0) assert_true(fabs(prob[i] - 8.0 / 130) < 1e-9);
        if (strcmp(t, "reveal Y2") == 0) assert_true(fabs(prob[i] - 5.0 / 130) < 1e-9);
        if (strcmp(t, "reveal Y3") == 0) assert_true(fabs(prob[i] - 3.0 / 130) < 1e-9);
        if (strcmp(t, "reveal GA") == 0) assert_true(fabs(prob[i] - 9.0 / 130) < 1e-9);
        if (strcmp(t, "reveal BH") == 0) assert_true(fabs(prob[i] - 5.0 / 130) < 1e-9);
        if (strcmp(t, "reveal DRAGON") == 0) assert_true(fabs(prob[i] - 1.0 / 130) < 1e-9);
        if (strcmp(t, "reveal AJ") == 0) assert_true(fabs(prob[i] - 4.0 / 130) < 1e-9);
        sum += prob[i];
    }
    assert_true(fabs(sum - 1) < 1e-9);

    run(s, "c reveal GA; c reveal R2; c reveal GA; c reveal AJ");
    assert_decision(s, 0, "row", "AJ", NULL);
    assert_view_string(s, "phase", "row");
    char line[256];
    legal_line(s, line, sizeof line);
    assert_string_equal(line, "row Y|row R|row G|row B");
    h_refused(s, "reveal Y1", TAFEL_EILLEGAL);
    run(s, "0 row G; c reveal GH; c reveal DRAGON");
    assert_decision(s, 0, "row", "DRAGON", NULL);
    run(s, "0 row Y");
    h_refused(s, "reveal DRAGON", TAFEL_EILLEGAL); /* there is one dragon */
    run(s, "c reveal B3; c reveal Y1; c reveal G1; c reveal HJ; 0 row R");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_view_string(s, "phase", "deal");
    assert_row(s, -1, "Y", "DRAGON Y1");
    assert_row(s, -1, "R", "R2 HJ");
    assert_row(s, -1, "G", "GA GA AJ GH G1");
    assert_row(s, -1, "B", "B3");
    assert_int_equal(view_int(s, -1, "pile"), 120);
    assert_int_equal(view_int(s, -1, "hand_size"), 6);
    assert_int_equal(view_int(s, -1, "rounds"), 10);
    assert_int_equal(view_int(s, -1, "round"), 1);
    /* the deal: one DRAGON is gone, seven GA are left of nine */
    n = tafel_state_chance_outcomes(s, out, prob, 64);
    for (int i = 0; i < n; i++) {
        char t[TAFEL_ACTION_TEXT_MAX];
        h_text(s, out[i], t, sizeof t);
        assert_true(strcmp(t, "deal 1 DRAGON") != 0);
        if (strcmp(t, "deal 1 GA") == 0) assert_true(fabs(prob[i] - 7.0 / 120) < 1e-9);
    }
    tafel_state_free(s);
}

/* Hands are private; their sizes are public. */
static void test_a_hand_is_seen_by_its_owner_alone(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("G1 G1 G1 G1 G1 G1", "Y1 Y1 Y3 Y1 Y2 Y2");
    assert_true(seat_has(s, 0, 0, "hand"));
    assert_false(seat_has(s, 0, 1, "hand"));
    assert_true(seat_has(s, 1, 1, "hand"));
    assert_false(seat_has(s, 1, 0, "hand"));
    assert_false(seat_has(s, -1, 0, "hand"));
    assert_false(seat_has(s, -1, 1, "hand"));
    assert_int_equal(seat_int(s, -1, 0, "hand_count", NULL), 6);
    assert_int_equal(seat_int(s, 0, 1, "hand_count", NULL), 6);
    cJSON *v = h_view(s, 1);
    assert_int_equal(h_json_array_size(seat_of(v, 1), "hand"), 6);
    cJSON_Delete(v);
    run(s, "1 play Y3 G");
    assert_int_equal(seat_int(s, -1, 1, "hand_count", NULL), 5);
    assert_int_equal(seat_int(s, -1, 1, "played", NULL), 1);
    assert_row(s, 1, "G", "Y3@1");
    assert_row(s, 0, "G", "?1");
    tafel_state_free(s);
}

/* ------------------------------------------------------------- buildings */

/* The seed's example: two sets of 4 colours, one of 2 and a single card:
** 30 + 30 + 5 + 0 = 65 (Y4 R3 G2 B2, or with a joker for one blue). */
static void test_building_sets_of_4_4_2_and_1_score_65(void **unused) {
    (void)unused;
    const uint8_t chest[4] = {4, 3, 2, 2};
    assert_int_equal(cc_building_points(chest, 0), 65);
    const uint8_t with_joker[4] = {4, 3, 2, 1};
    assert_int_equal(cc_building_points(with_joker, 1), 65);
    const uint8_t one[4] = {0, 0, 1, 0};
    assert_int_equal(cc_building_points(one, 0), 0);
    const uint8_t none[4] = {0, 0, 0, 0};
    assert_int_equal(cc_building_points(none, 0), 0);
    assert_int_equal(cc_building_points(none, 2), 5);
    assert_int_equal(cc_building_points(none, 4), 30);
    const uint8_t pair_same[4] = {2, 0, 0, 0};
    assert_int_equal(cc_building_points(pair_same, 0), 0); /* two of one colour: no set */
}

/* Exhaustive search: the best split of a chest into sets of distinct
** colours (a joker takes any colour not in its set).  best[c0][c1][c2][c3][j]
** tries every set that can be taken out first. */
static const int set_points[5] = {0, 0, 5, 15, 30};
static int memo[6][6][6][6][5];

static int best_split(int c[4], int j) {
    int *m = &memo[c[0]][c[1]][c[2]][c[3]][j];
    if (*m >= 0) return *m;
    int best = 0; /* everything left as singles */
    for (int mask = 0; mask < 16; mask++) {
        int size = 0, ok = 1;
        for (int k = 0; k < 4; k++)
            if (mask >> k & 1) {
                if (!c[k]) ok = 0;
                size++;
            }
        if (!ok) continue;
        for (int jk = 0; jk <= j && size + jk <= 4; jk++) {
            if (size + jk == 0) continue;
            for (int k = 0; k < 4; k++) c[k] -= mask >> k & 1;
            int v = set_points[size + jk] + best_split(c, j - jk);
            for (int k = 0; k < 4; k++) c[k] += mask >> k & 1;
            if (v > best) best = v;
        }
    }
    return *m = best;
}

/* Rules §4: the engine's building sets against the exhaustive search, for
** every chest the deck allows (0..5 of each colour, 0..4 jokers). */
static void test_building_sets_match_an_exhaustive_search_for_every_chest(void **unused) {
    (void)unused;
    memset(memo, -1, sizeof memo);
    int checked = 0;
    for (int y = 0; y <= 5; y++)
        for (int r = 0; r <= 5; r++)
            for (int g = 0; g <= 5; g++)
                for (int b = 0; b <= 5; b++)
                    for (int j = 0; j <= 4; j++) {
                        int c[4] = {y, r, g, b};
                        const uint8_t col[4] = {(uint8_t)y, (uint8_t)r, (uint8_t)g, (uint8_t)b};
                        int want = best_split(c, j);
                        int got = cc_building_points(col, j);
                        if (got != want)
                            fail_msg("chest Y%d R%d G%d B%d HJ%d: engine %d, best %d", y, r, g,
                                     b, j, got, want);
                        checked++;
                    }
    assert_int_equal(checked, 6 * 6 * 6 * 6 * 5);
}

/* Deal one round from the pile, in the order the chance outcomes come
** (seeded), for the rest of a game. */
static void deal_random(tafel_state *s, uint64_t *rng) {
    while (tafel_state_current(s) == TAFEL_CHANCE) {
        tafel_action a;
        assert_int_equal(tafel_state_sample_chance(s, rng, &a), TAFEL_OK);
        tafel_error err = {0};
        if (tafel_state_apply(s, a, &err) != TAFEL_OK) fail_msg("deal: %s", err.message);
    }
}

/* Apply the first legal action of the player to move. */
static void first_legal(tafel_state *s) {
    int n;
    tafel_action *a = h_legal(s, &n);
    assert_true(n > 0);
    tafel_error err = {0};
    if (tafel_state_apply(s, a[0], &err) != TAFEL_OK) fail_msg("apply: %s", err.message);
    free(a);
}

/* The final scoring through the public API.  Seat 1 collects Y4 R3 G2 B2 in
** rounds 1-4 (the seed's 65-point chest) and secures nothing after: in
** rounds 5-10 seat 0 places its follower into the yellow row first, seat 1
** right behind it (a follower securing no card), and the rest is played
** anywhere.  At the end seat 1 has exactly the 65 building points. */
static void test_the_final_scoring_adds_the_building_sets(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("G1 G1 G1 G1 G1 G1", "YH YH YH YH Y1 Y1");
    /* round 1: seat 1 secures four yellow buildings */
    run(s, "1 play YH Y; 0 follower R; 1 play YH Y; 0 play G1 G; 1 play YH Y;"
           "0 play G1 G; 1 play YH Y; 0 play G1 G; 1 follower Y; 0 play G1 G;"
           "1 play Y1 Y; 0 play G1 G; 1 play Y1 Y; 0 play G1 G");
    assert_int_equal(seat_int(s, -1, 1, "chest_count", NULL), 4);
    /* round 2: three red ones, behind seat 0's follower */
    deal2(s, 1, "G2 G2 G2 G2 G1 G1", "RH RH RH R1 R1 R1");
    run(s, "0 follower R; 1 play RH R; 0 play G2 G; 1 play RH R; 0 play G2 G;"
           "1 play RH R; 0 play G2 G; 1 follower R; 0 play G2 G; 1 play R1 R;"
           "0 play G1 G; 1 play R1 R; 0 play G1 G; 1 play R1 R");
    /* round 3: two green ones; seat 0 takes the green row's persons first */
    deal2(s, 1, "R2 R2 R2 R2 R2 R3", "GH GH Y1 Y1 Y1 Y1");
    run(s, "0 follower G; 1 play GH G; 0 play R2 R; 1 play GH G; 0 play R2 R;"
           "1 follower G; 0 play R2 R; 1 play Y1 Y; 0 play R2 R; 1 play Y1 Y;"
           "0 play R2 R; 1 play Y1 Y; 0 play R3 R; 1 play Y1 Y");
    /* round 4: two blue ones, behind seat 0's follower on the setup cards */
    deal2(s, 1, "R1 R1 R1 R1 R1 R3", "BH BH Y2 Y2 Y2 Y2");
    run(s, "0 follower B; 1 play BH B; 0 play R1 R; 1 play BH B; 0 play R1 R;"
           "1 follower B; 0 play R1 R; 1 play Y2 Y; 0 play R1 R; 1 play Y2 Y;"
           "0 play R1 R; 1 play Y2 Y; 0 play R3 R; 1 play Y2 Y");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(seat_int(s, 1, 1, "chest", "Y"), 4);
    assert_int_equal(seat_int(s, 1, 1, "chest", "R"), 3);
    assert_int_equal(seat_int(s, 1, 1, "chest", "G"), 2);
    assert_int_equal(seat_int(s, 1, 1, "chest", "B"), 2);
    assert_int_equal(seat_int(s, 1, 1, "chest", "HJ"), 0);
    assert_int_equal(seat_int(s, -1, 1, "chest_count", NULL), 11);
    h_points now = h_scores(s);
    assert_int_equal(now.p[1], 0); /* seat 1 secured nothing but buildings */
    assert_int_equal(h_category(s, 1, "buildings"), 0); /* not before the end */
    assert_int_equal(h_projected(s).p[1], 65);
    assert_int_equal(view_int(s, -1, "dealer"), 1);

    uint64_t rng = tafel_rng_seed(2009);
    for (int round = 5; round <= 10; round++) {
        deal_random(s, &rng);
        assert_int_equal(view_int(s, -1, "round"), round);
        assert_int_equal(tafel_state_current(s), 0);
        run(s, "0 follower Y; 1 follower Y");
        while (tafel_state_current(s) >= 0) {
            if (tafel_state_current(s) == 1) {
                char line[4096];
                legal_line(s, line, sizeof line);
                if (strncmp(line, "play", 4) != 0) fail_msg("seat 1 asked: %s", line);
            }
            first_legal(s);
        }
        /* nothing for seat 1 until the final scoring after round 10 */
        assert_int_equal(h_scores(s).p[1], round < 10 ? 0 : 65);
    }
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    assert_view_string(s, "phase", "over");
    assert_int_equal(view_int(s, -1, "pile"), 0);
    assert_int_equal(h_category(s, 1, "buildings"), 65);
    assert_int_equal(h_scores(s).p[1], 65);
    /* seat 0: whatever its chest holds, scored as the best sets */
    cJSON *v = h_view(s, 0);
    const cJSON *chest = jget(seat_of(v, 0), "chest");
    int c[4] = {h_json_int(chest, "Y"), h_json_int(chest, "R"), h_json_int(chest, "G"),
                h_json_int(chest, "B")};
    int j = h_json_int(chest, "HJ");
    cJSON_Delete(v);
    memset(memo, -1, sizeof memo);
    assert_int_equal(h_category(s, 0, "buildings"), best_split(c, j));
    /* the final scores are the sums of the categories */
    for (int seat = 0; seat < 2; seat++) {
        const char *names[16];
        double values[16];
        int n = tafel_state_score_breakdown(s, seat, names, values, 16);
        double sum = 0;
        for (int i = 0; i < n; i++) sum += values[i];
        double scores[2];
        tafel_state_scores(s, scores);
        assert_true(fabs(sum - scores[seat]) < 1e-9);
    }
    tafel_state_free(s);
}

/* -------------------------------------------------------- random games */

static const int hand_of[6] = {0, 0, 6, 5, 5, 4};
static const int rounds_of[6] = {0, 0, 10, 8, 6, 6};

/* Rules §4: most points win; tied, most building cards; still tied, all. */
static void expected_winners(const tafel_state *s, int *win) {
    int players = tafel_state_players(s);
    double sc[TAFEL_MAX_PLAYERS];
    tafel_state_scores(s, sc);
    int chest[TAFEL_MAX_PLAYERS];
    /* from the public chest, building jokers included ("mehr Gebäudekarten") */
    static const char *const chest_keys[5] = {"Y", "R", "G", "B", "HJ"};
    for (int p = 0; p < players; p++) {
        chest[p] = 0;
        for (int k = 0; k < 5; k++) chest[p] += seat_int(s, -1, p, "chest", chest_keys[k]);
    }
    for (int p = 0; p < players; p++) {
        win[p] = 1;
        for (int q = 0; q < players; q++)
            if (sc[q] > sc[p] || (sc[q] == sc[p] && chest[q] > chest[p])) win[p] = 0;
    }
}

/* Play one random game, checking the deal, the turns and the rounds (§2,
** §3) on the way; with notation, every legal action's text of every
** position must read back as the same action. */
static void random_game(const char *game_string, uint64_t seed, int notation) {
    tafel_state *s = h_state(game_string);
    int players = tafel_state_players(s);
    int hs = hand_of[players], rounds = rounds_of[players];
    uint64_t rng = tafel_rng_seed(seed);
    int dealer = view_int(s, -1, "dealer");
    int first_dealer = dealer;
    int reveals = 0, deals_total = 0, round = 0, deals = 0, turns = 0, in_turns = 0;
    int turns_by[TAFEL_MAX_PLAYERS] = {0}, last_follower = -1, last_turn = -1;
    int cur;
    while ((cur = tafel_state_current(s)) != TAFEL_TERMINAL) {
        if (notation) {
            int n;
            tafel_action *a = h_legal(s, &n);
            for (int i = 0; i < n; i++) {
                char t[TAFEL_ACTION_TEXT_MAX], lower[TAFEL_ACTION_TEXT_MAX];
                h_text(s, a[i], t, sizeof t);
                tafel_action back = -1;
                tafel_error err = {0};
                if (tafel_action_from_text(s, t, &back, &err) != TAFEL_OK)
                    fail_msg("'%s' does not read back: %s", t, err.message);
                if (back != a[i]) fail_msg("'%s' reads back as %d, not %d", t, back, a[i]);
                for (size_t k = 0; k <= strlen(t); k++)
                    lower[k] = (char)tolower((unsigned char)t[k]);
                back = -1;
                if (tafel_action_from_text(s, lower, &back, &err) != TAFEL_OK || back != a[i])
                    fail_msg("'%s' (lower case of '%s') does not read back", lower, t);
            }
            free(a);
        }
        tafel_action a;
        if (cur == TAFEL_CHANCE) {
            assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
        } else {
            int n;
            tafel_action *all = h_legal(s, &n);
            assert_true(n > 0);
            a = all[tafel_rng_below(&rng, (uint32_t)n)];
            free(all);
        }
        char t[TAFEL_ACTION_TEXT_MAX];
        h_text(s, a, t, sizeof t);
        if (strncmp(t, "reveal ", 7) == 0) {
            assert_int_equal(round, 0);
            reveals++;
        } else if (strncmp(t, "row ", 4) == 0) {
            assert_int_equal(round, 0);
            assert_int_equal(cur, first_dealer);
        } else if (strncmp(t, "deal ", 5) == 0) {
            if (round == 0 || in_turns) { /* a new round */
                if (in_turns) {
                    assert_int_equal(deals, hs * players);
                    assert_int_equal(turns, (hs + 1) * players);
                    for (int p = 0; p < players; p++) assert_int_equal(turns_by[p], hs + 1);
                    assert_true(last_follower >= 0);
                    dealer = last_follower;
                }
                round++;
                deals = turns = in_turns = 0;
                memset(turns_by, 0, sizeof turns_by);
                last_follower = -1;
                assert_int_equal(view_int(s, -1, "dealer"), dealer);
                assert_int_equal(view_int(s, -1, "round"), round);
                assert_int_equal(view_int(s, -1, "hand_size"), hs);
                assert_int_equal(view_int(s, -1, "rounds"), rounds);
            }
            int seat = -1;
            assert_int_equal(sscanf(t, "deal %d", &seat), 1);
            if (seat != (dealer + 1 + deals) % players)
                fail_msg("round %d deal %d goes to seat %d; dealer %d", round, deals, seat, dealer);
            deals++;
            deals_total++;
        } else if (strncmp(t, "play ", 5) == 0 || strncmp(t, "follower ", 9) == 0) {
            if (!in_turns) {
                assert_int_equal(deals, hs * players);
                assert_int_equal(cur, (dealer + 1) % players);
                in_turns = 1;
            } else {
                assert_int_equal(cur, (last_turn + 1) % players);
            }
            /* the hand is empty exactly when the follower must be placed */
            turns++;
            turns_by[cur]++;
            last_turn = cur;
            if (t[0] == 'f') last_follower = cur;
        } else {
            /* ten, keep, assign: round scoring, after all the turns */
            assert_true(in_turns);
            assert_int_equal(turns, (hs + 1) * players);
        }
        tafel_error err = {0};
        if (tafel_state_apply(s, a, &err) != TAFEL_OK) fail_msg("'%s': %s", t, err.message);
        if (tafel_state_check(s, &err) != TAFEL_OK) fail_msg("after '%s': %s", t, err.message);
    }
    assert_int_equal(turns, (hs + 1) * players);
    for (int p = 0; p < players; p++) assert_int_equal(turns_by[p], hs + 1);
    assert_int_equal(round, rounds);
    assert_int_equal(reveals, 10);
    assert_int_equal(deals_total, 120);
    assert_int_equal(view_int(s, -1, "pile"), 0);
    for (int p = 0; p < players; p++)
        assert_int_equal(seat_int(s, -1, p, "hand_count", NULL), 0);
    /* winners by the rule */
    int want[TAFEL_MAX_PLAYERS], got[TAFEL_MAX_PLAYERS], nwin = 0;
    expected_winners(s, want);
    int n = tafel_state_winners(s, got);
    for (int p = 0; p < players; p++) nwin += want[p];
    assert_int_equal(n, nwin);
    for (int i = 0; i < n; i++) assert_true(want[got[i]]);
    tafel_state_free(s);
}

/* Rules §4: most points win; tied on points, more building cards (jokers
** included) win; still tied, a shared win.  Many seeded random games, each
** checked against the rule; the seeds give both kinds of tie. */
static void test_ties_go_to_more_building_cards_then_are_shared(void **unused) {
    (void)unused;
    int point_ties = 0, shared = 0;
    for (int players = 2; players <= 5; players++) {
        char gs[64];
        snprintf(gs, sizeof gs, "cardcassonne(players=%d)", players);
        tafel_game *g = h_game(gs);
        for (uint64_t seed = 1; seed <= 6000; seed++) {
            tafel_state *s = tafel_state_new(g);
            uint64_t rng = tafel_rng_seed(seed);
            tafel_action legal[512];
            while (tafel_state_current(s) != TAFEL_TERMINAL) {
                tafel_action a;
                if (tafel_state_current(s) == TAFEL_CHANCE) {
                    assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
                } else {
                    int n = tafel_state_legal_actions(s, legal, 512);
                    assert_true(n > 0 && n <= 512);
                    a = legal[tafel_rng_below(&rng, (uint32_t)n)];
                }
                assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
            }
            double sc[TAFEL_MAX_PLAYERS];
            tafel_state_scores(s, sc);
            double top = sc[0];
            int at_top = 0;
            for (int p = 1; p < players; p++) top = sc[p] > top ? sc[p] : top;
            for (int p = 0; p < players; p++) at_top += sc[p] == top;
            int want[TAFEL_MAX_PLAYERS], got[TAFEL_MAX_PLAYERS], nwant = 0;
            expected_winners(s, want);
            for (int p = 0; p < players; p++) nwant += want[p];
            int n = tafel_state_winners(s, got);
            if (n != nwant)
                fail_msg("%s seed %d: %d winners, expected %d", gs, (int)seed, n, nwant);
            for (int i = 0; i < n; i++)
                if (!want[got[i]])
                    fail_msg("%s seed %d: seat %d should not win", gs, (int)seed, got[i]);
            point_ties += at_top > 1;
            shared += n > 1;
            tafel_state_free(s);
        }
        tafel_game_free(g);
    }
    assert_true(point_ties > shared); /* some ties broken by building cards */
    assert_true(shared > 0);
}

/* Rules §2: 2 players 6 cards 10 rounds, 3: 5/8, 4: 5/6, 5: 4/6; every
** round deals hand x players cards from left of the dealer, each player
** takes hand+1 turns, and the pile runs out exactly with the last round. */
static void test_hand_sizes_and_rounds_by_player_count_use_the_whole_pile(void **unused) {
    (void)unused;
    for (int players = 2; players <= 5; players++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            char gs[64];
            snprintf(gs, sizeof gs, "cardcassonne(players=%d)", players);
            random_game(gs, seed * 131 + (uint64_t)players, 0);
        }
    random_game("cardcassonne(players=4,dealer=3)", 77, 0);
    random_game("cardcassonne(players=5,dealer=2)", 78, 0);
}

/* Rules §6: the canonical text of every legal action reads back as the same
** action (upper or lower case), in every position of random games. */
static void test_every_legal_action_text_reads_back_as_the_same_action(void **unused) {
    (void)unused;
    for (int players = 2; players <= 5; players++) {
        char gs[64];
        snprintf(gs, sizeof gs, "cardcassonne(players=%d)", players);
        random_game(gs, 4242 + (uint64_t)players, 1);
    }
}

/* ----------------------------------------------------------- bad actions */

/* Rules §3.2 and §6: what may not be done is refused with a message and the
** state unchanged. */
static void test_illegal_and_malformed_actions_are_refused(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    /* setup */
    h_refused(s, "row G", TAFEL_EILLEGAL);
    h_refused(s, "deal 1 Y1", TAFEL_EILLEGAL);
    h_refused(s, "play Y1 Y", TAFEL_EILLEGAL);
    h_refused(s, "reveal Q7", TAFEL_EPARSE);
    run(s, "c reveal DRAGON");
    h_refused(s, "row Q", TAFEL_EPARSE);
    h_refused(s, "reveal B1", TAFEL_EILLEGAL);
    run(s, "0 row B");
    h_refused(s, "reveal DRAGON", TAFEL_EILLEGAL);
    h_refused(s, "row B", TAFEL_EILLEGAL);
    run(s, "c reveal B1; c reveal B1; c reveal B1; c reveal B1; c reveal B2;"
           "c reveal B2; c reveal B3; c reveal B3; c reveal B3");
    /* the deal */
    h_refused(s, "deal 0 Y1", TAFEL_EILLEGAL);      /* seat 1 is due */
    h_refused(s, "deal 1 DRAGON", TAFEL_EILLEGAL);  /* not in the pile */
    h_refused(s, "deal 1 B3", TAFEL_EILLEGAL);      /* all three turned up */
    h_refused(s, "deal 9 Y1", TAFEL_EPARSE);
    h_refused(s, "deal 1", TAFEL_EPARSE);
    h_refused(s, "row G", TAFEL_EILLEGAL);
    h_refused(s, "ten", TAFEL_EILLEGAL);
    deal2(s, 0, "Y1 Y1 Y1 R1 R1 R1", "Y2 Y2 Y2 G1 G1 G1");
    /* seat 1 to move: nothing to decide, nothing to deal */
    h_refused(s, "ten", TAFEL_EILLEGAL);
    h_refused(s, "keep", TAFEL_EILLEGAL);
    h_refused(s, "assign sheep", TAFEL_EILLEGAL);
    h_refused(s, "row G", TAFEL_EILLEGAL);
    h_refused(s, "reveal Y1", TAFEL_EILLEGAL);
    h_refused(s, "deal 1 Y1", TAFEL_EILLEGAL);
    h_refused(s, "play R1 R", TAFEL_EILLEGAL);      /* not in hand */
    h_refused(s, "play", TAFEL_EPARSE);
    h_refused(s, "play Y9 R", TAFEL_EPARSE);
    h_refused(s, "play Y2", TAFEL_EPARSE);
    h_refused(s, "play Y2 Q", TAFEL_EPARSE);
    h_refused(s, "play Y2 Y Y", TAFEL_EPARSE);
    h_refused(s, "follower X", TAFEL_EPARSE);
    h_refused(s, "follower", TAFEL_EPARSE);
    h_refused(s, "assign cow", TAFEL_EPARSE);
    h_refused(s, "", TAFEL_EPARSE);
    h_refused(s, "jump", TAFEL_EPARSE);
    /* the first card may go face down into any row */
    assert_true(h_legal_text(s, "play G1 Y"));
    assert_true(h_legal_text(s, "play Y2 B"));
    run(s, "1 play G1 Y; 0 play Y1 G");
    /* later cards only face up into their own row */
    h_refused(s, "play Y2 R", TAFEL_EILLEGAL);
    h_refused(s, "play G1 Y", TAFEL_EILLEGAL);
    h_refused(s, "play G1 B", TAFEL_EILLEGAL);
    run(s, "1 play G1 G; 0 play R1 R; 1 follower R; 0 play R1 R");
    /* one follower a round; a player whose follower stands must play */
    h_refused(s, "follower G", TAFEL_EILLEGAL);
    assert_all_legal_start_with(s, "play ");
    run(s, "1 play G1 G; 0 play R1 R; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
           "0 play Y1 Y; 1 play Y2 Y");
    /* seat 0's hand is empty: it must place its follower */
    char line[256];
    legal_line(s, line, sizeof line);
    assert_string_equal(line, "follower Y|follower R|follower G|follower B");
    h_refused(s, "play Y1 Y", TAFEL_EILLEGAL);
    /* out-of-range action numbers */
    tafel_state *before = tafel_state_clone(s);
    tafel_error err = {0};
    assert_int_equal(tafel_state_apply(s, -3, &err), TAFEL_EILLEGAL);
    assert_int_equal(tafel_state_apply(s, 1000000, &err), TAFEL_EILLEGAL);
    assert_true(tafel_state_equal(before, s));
    tafel_state_free(before);
    run(s, "0 follower G");
    /* no decision in this round: the next deal */
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    h_refused(s, "ten", TAFEL_EILLEGAL);
    h_refused(s, "keep", TAFEL_EILLEGAL);
    h_refused(s, "assign pig", TAFEL_EILLEGAL);
    h_refused(s, "follower G", TAFEL_EILLEGAL);
    h_refused(s, "play Y1 Y", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_persons_1_1_and_3_score_5_times_3_is_15),
        cmocka_unit_test(test_a_follower_secures_only_the_cards_after_the_previous_follower),
        cmocka_unit_test(test_animals_score_the_table_value_of_the_total_of_a_kind),
        cmocka_unit_test(test_the_animal_table_runs_3_6_9_12_14_16_18_19_then_stays_19),
        cmocka_unit_test(test_wrongly_placed_person_10_and_kept_sixth_sheep_16_make_26),
        cmocka_unit_test(test_a_wrongly_placed_animal_taken_for_ten_leaves_the_game),
        cmocka_unit_test(test_dragon_and_fairy_score_10_each_and_leave_the_game),
        cmocka_unit_test(test_an_animal_joker_without_animals_scores_3_and_is_assigned_later),
        cmocka_unit_test(test_an_animal_joker_won_with_an_animal_card_is_assigned_at_once),
        cmocka_unit_test(test_an_animal_taken_for_ten_leaves_the_joker_unassigned_at_3),
        cmocka_unit_test(test_several_held_animal_jokers_are_all_assigned_with_the_first_animal),
        cmocka_unit_test(test_a_wrongly_placed_building_gives_ten_or_goes_under_the_chest),
        cmocka_unit_test(test_wrongly_placed_cards_are_asked_in_row_order),
        cmocka_unit_test(test_scoring_questions_go_seat_by_seat_from_left_of_the_dealer),
        cmocka_unit_test(test_a_wrongly_placed_person_scores_10_with_no_decision),
        cmocka_unit_test(test_jokers_played_face_down_in_any_row_are_never_wrongly_placed),
        cmocka_unit_test(test_a_face_down_card_in_its_own_row_is_scored_normally),
        cmocka_unit_test(test_an_unclaimed_face_down_card_stays_hidden_until_secured),
        cmocka_unit_test(test_the_last_follower_placed_makes_the_next_dealer),
        cmocka_unit_test(test_option_dealer_names_the_first_dealer),
        cmocka_unit_test(test_setup_cards_go_to_their_rows_and_jokers_where_the_dealer_says),
        cmocka_unit_test(test_a_hand_is_seen_by_its_owner_alone),
        cmocka_unit_test(test_building_sets_of_4_4_2_and_1_score_65),
        cmocka_unit_test(test_building_sets_match_an_exhaustive_search_for_every_chest),
        cmocka_unit_test(test_the_final_scoring_adds_the_building_sets),
        cmocka_unit_test(test_ties_go_to_more_building_cards_then_are_shared),
        cmocka_unit_test(test_a_hidden_card_is_hidden_until_secured_then_public_for_good),
        cmocka_unit_test(test_a_chest_is_public_and_resampling_never_changes_it),
        cmocka_unit_test(test_a_building_joker_counts_as_a_building_card_in_a_final_tie),
        cmocka_unit_test(test_hand_sizes_and_rounds_by_player_count_use_the_whole_pile),
        cmocka_unit_test(test_every_legal_action_text_reads_back_as_the_same_action),
        cmocka_unit_test(test_illegal_and_malformed_actions_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
