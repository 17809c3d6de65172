/*
** test_cardcassonne_account.c -- the account of Cardcassonne's actions
** (tafel_state_describe; docs/events-cardcassonne.md): the worked examples of
** docs/rules/cardcassonne.md told event by event with literal values, what
** each seat may be told of hidden cards, and the English catalog
** (web/i18n/en/cardcassonne.json) against every event the engine writes.
**
** An account is compared as lines, one an event: its kind, then its fields
** as name=value in the order written, arrays joined by commas ("cards=Y1,Y3").
** Two players and the first dealer seat 0 unless a test says otherwise:
** seat 1 (Blue) plays first, seat 0 is Red.
*/
#include "helpers.h"

#ifndef TAFEL_SOURCE_DIR
#error "tests/CMakeLists.txt defines TAFEL_SOURCE_DIR for this suite"
#endif

#define TWO "cardcassonne(players=2)"

/* Ten blue persons turned up at setup, in the blue row, which no test
** secures unless it says so. */
#define SETUP_B                                                                \
    "c reveal B1; c reveal B1; c reveal B1; c reveal B1; c reveal B2;"         \
    "c reveal B2; c reveal B2; c reveal B3; c reveal B3; c reveal B3"

/* ------------------------------------------------------------- helpers */

/* One event as a line: "kind name=value ...". */
static void event_line(const cJSON *e, char *out, size_t size) {
    size_t u = 0;
    const cJSON *f;
    out[0] = 0;
    cJSON_ArrayForEach(f, e) {
        if (strcmp(f->string, "kind") == 0) {
            u += (size_t)snprintf(out + u, size - u, "%s", f->valuestring);
            continue;
        }
        u += (size_t)snprintf(out + u, size - u, " %s=", f->string);
        const cJSON *items = cJSON_IsArray(f) ? f->child : f;
        for (const cJSON *v = items; v && u < size; v = cJSON_IsArray(f) ? v->next : NULL) {
            if (v != items) u += (size_t)snprintf(out + u, size - u, ",");
            if (cJSON_IsString(v)) u += (size_t)snprintf(out + u, size - u, "%s", v->valuestring);
            else if (cJSON_IsBool(v)) u += (size_t)snprintf(out + u, size - u, "%s",
                                                            cJSON_IsTrue(v) ? "true" : "false");
            else u += (size_t)snprintf(out + u, size - u, "%d", v->valueint);
        }
        if (u >= size) return;
    }
}

/* seat's account (-1: a spectator) of the action text in s, as its JSON
** (free it).  The text may begin with who must move, as in h_script: "1 play
** GA G", "c deal 0 Y1". */
static char *account_json(const tafel_state *s, const char *text, int seat) {
    if ((isdigit((unsigned char)text[0]) || text[0] == 'c') && text[1] == ' ') {
        int who = text[0] == 'c' ? TAFEL_CHANCE : text[0] - '0';
        if (tafel_state_current(s) != who)
            fail_msg("'%s': %d is to move", text, tafel_state_current(s));
        text += 2;
    }
    tafel_action a;
    tafel_error err = {0};
    if (tafel_action_from_text(s, text, &a, &err) != TAFEL_OK)
        fail_msg("'%s': %s", text, err.message);
    char *json = NULL;
    if (tafel_state_describe(s, a, seat, &json, &err) != TAFEL_OK)
        fail_msg("describe '%s' for %d: %s", text, seat, err.message);
    return json;
}

/* The account as lines, one an event, each ending in '\n'. */
static void account_lines(const tafel_state *s, const char *text, int seat, char *out,
                          size_t size) {
    char *json = account_json(s, text, seat);
    cJSON *events = cJSON_Parse(json);
    if (!cJSON_IsArray(events)) fail_msg("'%s': not an array: %s", text, json);
    free(json);
    size_t u = 0;
    out[0] = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, events) {
        char line[2048];
        event_line(e, line, sizeof line);
        u += (size_t)snprintf(out + u, size - u, "%s\n", line);
    }
    cJSON_Delete(events);
}

/* seat's account of the action text is expected, line for line. */
static void assert_told(const tafel_state *s, const char *text, int seat,
                        const char *expected) {
    char got[16384];
    account_lines(s, text, seat, got, sizeof got);
    if (strcmp(got, expected) != 0)
        fail_msg("account of '%s' for seat %d:\n%s--- expected:\n%s", text, seat, got, expected);
}

/* The same, expected being fmt with the cards a and b put in ("%1$s",
** "%2$s"). */
static void assert_told_cards(const tafel_state *s, const char *text, int seat,
                              const char *fmt, const char *a, const char *b) {
    char want[4096];
    snprintf(want, sizeof want, fmt, a, b);
    assert_told(s, text, seat, want);
}

/* The same for the spectator and both seats of a two-player game. */
static void assert_told_all(const tafel_state *s, const char *text, const char *expected) {
    for (int seat = -1; seat < 2; seat++) assert_told(s, text, seat, expected);
}

/* The account for every seat, then the action. */
static void told_then_play(tafel_state *s, const char *text, const char *expected) {
    assert_told_all(s, text, expected);
    h_script(s, text);
}

/* Deal a round of a two-player game: hand0 to seat 0, hand1 to seat 1,
** one card at a time from the dealer's left. */
static void deal2(tafel_state *s, int dealer, const char *hand0, const char *hand1) {
    char cards[2][8][8];
    int n[2] = {0, 0};
    const char *hands[2] = {hand0, hand1};
    for (int p = 0; p < 2; p++)
        for (const char *c = hands[p]; *c && n[p] < 8;) {
            int len = (int)strcspn(c, " ");
            snprintf(cards[p][n[p]++], 8, "%.*s", len, c);
            c += len + (c[len] == ' ');
        }
    assert_int_equal(n[0], n[1]);
    for (int i = 0; i < n[0]; i++)
        for (int k = 1; k <= 2; k++) {
            int seat = (dealer + k) % 2;
            char text[32];
            snprintf(text, sizeof text, "c deal %d %s", seat, cards[seat][i]);
            h_script(s, text);
        }
}

/* A two-player game after SETUP_B and the first deal (dealer 0). */
static tafel_state *two_dealt(const char *hand0, const char *hand1) {
    tafel_state *s = h_state(TWO);
    h_script(s, SETUP_B);
    deal2(s, 0, hand0, hand1);
    return s;
}

/* ------------------------------- docs/rules/cardcassonne.md, move by move */

/* "A round, move by move": the setup with a joker for the meadow row, the
** face-down first cards, the followers, and the scoring with ten, assign
** and keep.  Blue scores 10 + 1 + 6 = 17, Red (1 + 2 + 3) x 3 + 3 + 3 = 24.
** The hands are the record's first four cards each and fillers that go into
** rows nobody secures. */
static void test_the_rulebook_round_move_by_move(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    told_then_play(s, "c reveal Y1", "setup_card card=Y1 row=Y\n");
    h_script(s, "c reveal R1; c reveal GA; c reveal B1");
    told_then_play(s, "c reveal AJ", "setup_joker card=AJ seat=0\n");
    told_then_play(s, "0 row G", "setup_joker_placed seat=0 row=G card=AJ\n");
    h_script(s, "c reveal Y2; c reveal R2; c reveal G1; c reveal B2");
    told_then_play(s, "c reveal YA",
                   "setup_card card=YA row=Y\n"
                   "round_started round=1 rounds=10 seat=0 hand_size=6\n");
    /* a deal: the card to its seat alone */
    assert_told(s, "c deal 1 RA", 1, "card_dealt seat=1 card=RA\n");
    assert_told(s, "c deal 1 RA", 0, "card_dealt seat=1 card=?\n");
    assert_told(s, "c deal 1 RA", -1, "card_dealt seat=1 card=?\n");
    deal2(s, 0, "GA RA Y3 R1 R1 R1", "RA R3 B1 B1 B1 B1");

    /* the first card of each: face down, its owner alone told the card */
    assert_told(s, "1 play RA G", 1, "card_played_face_down seat=1 row=G card=RA\n");
    assert_told(s, "1 play RA G", 0, "card_played_face_down seat=1 row=G card=?\n");
    assert_told(s, "1 play RA G", -1, "card_played_face_down seat=1 row=G card=?\n");
    h_script(s, "1 play RA G");
    assert_told(s, "0 play GA Y", 0, "card_played_face_down seat=0 row=Y card=GA\n");
    assert_told(s, "0 play GA Y", 1, "card_played_face_down seat=0 row=Y card=?\n");
    h_script(s, "0 play GA Y");
    /* Blue's follower claims GA, AJ, G1 and its own face-down RA */
    told_then_play(s, "1 follower G", "follower_placed seat=1 row=G count=4\n");
    told_then_play(s, "0 play Y3 Y", "card_played seat=0 row=Y card=Y3\n");
    h_script(s, "1 play R3 R");
    told_then_play(s, "0 follower Y", "follower_placed seat=0 row=Y count=5\n");
    h_script(s, "1 play B1 B; 0 play RA R; 1 play B1 B; 0 play R1 R; 1 play B1 B;"
                "0 play R1 R; 1 play B1 B");
    /* the last card ends the play: Blue's cards are turned up for all, and
    ** its wrongly placed sheep asks ten or keep */
    told_then_play(s, "0 play R1 R",
                   "card_played seat=0 row=R card=R1\n"
                   "scoring_started round=1\n"
                   "cards_secured seat=1 row=G cards=RA,G1,GA,AJ count=4\n"
                   "wrongly_placed seat=1 row=G cards=RA count=1\n");
    told_then_play(s, "1 ten",
                   "wrong_card_ten seat=1 row=G card=RA gained=10 points=0,10\n"
                   "persons_scored seat=1 row=G cards=G1 persons=1 sum=1 gained=1 points=0,1\n"
                   "animal_jokers_won seat=1 count=1\n");
    /* the joker joins Blue's horse; then Red's cards, with its horse */
    told_then_play(s, "1 assign horse",
                   "animal_joker_assigned seat=1 animal=horse\n"
                   "animals_scored seat=1 animal=horse count=2 jokers=1 gained=6 points=0,6\n"
                   "cards_secured seat=0 row=Y cards=Y1,Y2,Y3,YA,GA count=5\n"
                   "wrongly_placed seat=0 row=Y cards=GA count=1\n");
    told_then_play(s, "0 keep",
                   "wrong_card_kept seat=0 row=Y card=GA\n"
                   "persons_scored seat=0 row=Y cards=Y1,Y2,Y3 persons=3 sum=6 gained=18 "
                   "points=18,0\n"
                   "animals_scored seat=0 animal=chicken count=1 jokers=0 gained=3 points=3,0\n"
                   "animals_scored seat=0 animal=horse count=1 jokers=0 gained=3 points=3,0\n"
                   "round_over round=1 rounds=10\n"
                   "round_started round=2 rounds=10 seat=0 hand_size=6\n");
    h_points sc = h_scores(s);
    assert_int_equal(sc.p[1], 17);
    assert_int_equal(sc.p[0], 24);
    tafel_state_free(s);
}

/* ---------------------------------------- the rules' short examples */

/* "You secure persons worth 1, 1 and 3: (1 + 1 + 3) x 3 = 15."  Blue's
** first Y1 lies face down in its own row: not wrongly placed, and turned up
** it is told to everyone. */
static void test_persons_1_1_and_3_score_5_times_3_is_15(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("G1 G1 G1 G1 G1 G1", "Y1 Y1 Y3 Y1 Y2 Y2");
    h_script(s, "1 play Y1 Y; 0 follower R; 1 play Y1 Y; 0 play G1 G; 1 play Y3 Y;"
                "0 play G1 G; 1 follower Y; 0 play G1 G; 1 play Y1 Y; 0 play G1 G;"
                "1 play Y2 Y; 0 play G1 G; 1 play Y2 Y");
    told_then_play(s, "0 play G1 G",
                   "card_played seat=0 row=G card=G1\n"
                   "scoring_started round=1\n"
                   "cards_secured seat=1 row=Y cards=Y1,Y1,Y3 count=3\n"
                   "persons_scored seat=1 row=Y cards=Y1,Y1,Y3 persons=3 sum=5 gained=15 "
                   "points=0,15\n"
                   "nothing_secured seat=0 row=R\n"
                   "round_over round=1 rounds=10\n"
                   "round_started round=2 rounds=10 seat=1 hand_size=6\n");
    tafel_state_free(s);
}

/* "In round 1 you win 2 sheep, which scores 6.  In round 3 you win 2 more
** sheep and an animal joker, which you make a sheep.  Now you have 5 sheep:
** 14.  In round 4 you win 2 horses (6) and 1 chicken (3)."  Blue is "you";
** its chicken is its own face-down card in the meadow row, kept. */
static void test_sheep_6_then_five_with_a_joker_14_then_horses_6_and_a_chicken_3(
    void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y2", "RA RA Y1 Y1 Y1 Y2");
    h_script(s, "1 play RA R; 0 follower G; 1 play RA R; 0 play Y1 Y; 1 follower R;"
                "0 play Y1 Y; 1 play Y1 Y; 0 play Y1 Y; 1 play Y1 Y; 0 play Y1 Y;"
                "1 play Y1 Y; 0 play Y1 Y; 1 play Y2 Y");
    told_then_play(s, "0 play Y2 Y",
                   "card_played seat=0 row=Y card=Y2\n"
                   "scoring_started round=1\n"
                   "cards_secured seat=1 row=R cards=RA,RA count=2\n"
                   "animals_scored seat=1 animal=sheep count=2 jokers=0 gained=6 points=0,6\n"
                   "nothing_secured seat=0 row=G\n"
                   "round_over round=1 rounds=10\n"
                   "round_started round=2 rounds=10 seat=1 hand_size=6\n");
    deal2(s, 1, "Y2 Y2 Y2 Y3 Y3 Y3", "BA BA BA BA BA BA");
    h_script(s, "0 follower G; 1 follower R; 0 play Y2 Y; 1 play BA B; 0 play Y2 Y;"
                "1 play BA B; 0 play Y2 Y; 1 play BA B; 0 play Y3 Y; 1 play BA B;"
                "0 play Y3 Y; 1 play BA B; 0 play Y3 Y; 1 play BA B");
    deal2(s, 1, "YH YH YH YH YH B1", "RA RA AJ B1 B1 B1");
    h_script(s, "0 follower G; 1 play RA R; 0 play YH Y; 1 play RA R; 0 play YH Y;"
                "1 play AJ R; 0 play YH Y; 1 follower R; 0 play YH Y; 1 play B1 B;"
                "0 play YH Y; 1 play B1 B; 0 play B1 B");
    told_then_play(s, "1 play B1 B",
                   "card_played seat=1 row=B card=B1\n"
                   "scoring_started round=3\n"
                   "nothing_secured seat=0 row=G\n"
                   "cards_secured seat=1 row=R cards=RA,RA,AJ count=3\n"
                   "animal_jokers_won seat=1 count=1\n");
    told_then_play(s, "1 assign sheep",
                   "animal_joker_assigned seat=1 animal=sheep\n"
                   "animals_scored seat=1 animal=sheep count=5 jokers=1 gained=14 points=0,14\n"
                   "round_over round=3 rounds=10\n"
                   "round_started round=4 rounds=10 seat=1 hand_size=6\n");
    deal2(s, 1, "BA BA BA B2 B2 BH", "YA GA GA BH BH BH");
    h_script(s, "0 follower R; 1 play YA G; 0 play BA B; 1 play GA G; 0 play BA B;"
                "1 play GA G; 0 play BA B; 1 follower G; 0 play B2 B; 1 play BH B;"
                "0 play B2 B; 1 play BH B; 0 play BH B");
    told_then_play(s, "1 play BH B",
                   "card_played seat=1 row=B card=BH\n"
                   "scoring_started round=4\n"
                   "nothing_secured seat=0 row=R\n"
                   "cards_secured seat=1 row=G cards=YA,GA,GA count=3\n"
                   "wrongly_placed seat=1 row=G cards=YA count=1\n");
    told_then_play(s, "1 keep",
                   "wrong_card_kept seat=1 row=G card=YA\n"
                   "animals_scored seat=1 animal=chicken count=1 jokers=0 gained=3 points=0,3\n"
                   "animals_scored seat=1 animal=horse count=2 jokers=0 gained=6 points=0,6\n"
                   "round_over round=4 rounds=10\n"
                   "round_started round=5 rounds=10 seat=1 hand_size=6\n");
    assert_int_equal(h_scores(s).p[1], 6 + 14 + 6 + 3);
    tafel_state_free(s);
}

/* Blue's first round: five sheep (14), for the examples of wrongly placed
** cards that follow. */
static tafel_state *five_sheep_then_two_face_down_in_the_meadow(void) {
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "RA RA RA RA RA Y1");
    h_script(s, "1 play RA R; 0 follower G; 1 play RA R; 0 play Y1 Y; 1 play RA R;"
                "0 play Y1 Y; 1 play RA R; 0 play Y1 Y; 1 play RA R; 0 play Y1 Y;"
                "1 follower R; 0 play Y1 Y; 1 play Y1 Y; 0 play Y1 Y");
    deal2(s, 1, "R1 Y2 Y2 Y2 Y2 Y2", "RA Y3 Y3 Y3 B1 B1");
    h_script(s, "0 play R1 G; 1 play RA G; 0 follower R; 1 follower G; 0 play Y2 Y;"
                "1 play Y3 Y; 0 play Y2 Y; 1 play Y3 Y; 0 play Y2 Y; 1 play Y3 Y;"
                "0 play Y2 Y; 1 play B1 B; 0 play Y2 Y");
    return s;
}

/* "You clear the meadow row and find two face-down cards of other colours.
** One is a person card: 10 points.  The other is an animal of a kind you
** already hold 5 of, so you keep it.  Now you have 6 of that kind: 16
** points.  That makes 26 in all."  Red's R1 is told to all: Blue's choice
** keeps the turned cards in view. */
static void test_a_wrong_person_10_and_a_kept_sixth_sheep_16_make_26(void **unused) {
    (void)unused;
    tafel_state *s = five_sheep_then_two_face_down_in_the_meadow();
    told_then_play(s, "1 play B1 B",
                   "card_played seat=1 row=B card=B1\n"
                   "scoring_started round=2\n"
                   "nothing_secured seat=0 row=R\n"
                   "cards_secured seat=1 row=G cards=R1,RA count=2\n"
                   "wrongly_placed seat=1 row=G cards=R1,RA count=2\n");
    told_then_play(s, "1 keep",
                   "wrong_card_kept seat=1 row=G card=RA\n"
                   "wrong_persons_scored seat=1 row=G cards=R1 count=1 gained=10 points=0,10\n"
                   "animals_scored seat=1 animal=sheep count=6 jokers=0 gained=16 points=0,16\n"
                   "round_over round=2 rounds=10\n"
                   "round_started round=3 rounds=10 seat=1 hand_size=6\n");
    assert_int_equal(h_scores(s).p[1], 14 + 26);
    tafel_state_free(s);
}

/* The same sheep taken for ten: 10 + 10, and the sheep are not scored. */
static void test_a_wrongly_placed_sheep_taken_for_ten(void **unused) {
    (void)unused;
    tafel_state *s = five_sheep_then_two_face_down_in_the_meadow();
    h_script(s, "1 play B1 B");
    told_then_play(s, "1 ten",
                   "wrong_card_ten seat=1 row=G card=RA gained=10 points=0,10\n"
                   "wrong_persons_scored seat=1 row=G cards=R1 count=1 gained=10 points=0,10\n"
                   "round_over round=2 rounds=10\n"
                   "round_started round=3 rounds=10 seat=1 hand_size=6\n");
    assert_int_equal(h_scores(s).p[1], 14 + 20);
    tafel_state_free(s);
}

/* "The dragon or the fairy: 10 points each", played face down into rows of
** other colours (jokers are never wrongly placed).  Taken at once and out
** of the game, each is turned up for all to see first: a spectator is told
** both, and its view afterwards keeps which one each seat put out. */
static void test_dragon_and_fairy_10_each(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("FAIRY Y1 Y1 Y1 Y1 Y1", "DRAGON Y2 Y2 Y2 Y2 Y2");
    h_script(s, "1 play DRAGON R; 0 play FAIRY G; 1 follower R; 0 follower G;"
                "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
                "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y");
    const char *fmt = "card_played seat=0 row=Y card=Y1\n"
                      "scoring_started round=1\n"
                      "cards_secured seat=1 row=R cards=%1$s count=1\n"
                      "dragon_fairy_scored seat=1 row=R cards=%1$s count=1 gained=10 "
                      "points=0,10\n"
                      "cards_secured seat=0 row=G cards=%2$s count=1\n"
                      "dragon_fairy_scored seat=0 row=G cards=%2$s count=1 gained=10 "
                      "points=10,0\n"
                      "round_over round=1 rounds=10\n"
                      "round_started round=2 rounds=10 seat=0 hand_size=6\n";
    assert_told_cards(s, "0 play Y1 Y", 0, fmt, "DRAGON", "FAIRY");
    assert_told_cards(s, "0 play Y1 Y", 1, fmt, "DRAGON", "FAIRY");
    assert_told_cards(s, "0 play Y1 Y", -1, fmt, "DRAGON", "FAIRY");
    h_script(s, "0 play Y1 Y");
    char *view = tafel_state_view_json(s, -1);
    assert_non_null(strstr(view, "\"put_out\":{\"FAIRY\":1}"));
    assert_non_null(strstr(view, "\"put_out\":{\"DRAGON\":1}"));
    assert_true(strstr(view, "FAIRY\":1}") < strstr(view, "DRAGON\":1}")); /* Red's, then Blue's */
    free(view);
    tafel_state_free(s);
}

/* A wrongly placed person is 10 points with no question: Blue's G2, face
** down in the road row.  Red's R3 lies in its own row, a person of the row.
** Both are told to all: the one card that left for 10 points is the G2 that
** the "removed" counts show. */
static void test_a_wrong_person_scores_10_at_once(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("R3 Y1 Y1 Y1 Y1 Y1", "G2 Y2 Y2 Y2 Y2 Y2");
    h_script(s, "1 play G2 R; 0 play R3 R; 1 follower R; 0 follower G;"
                "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y;"
                "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y");
    told_then_play(s, "0 play Y1 Y",
                   "card_played seat=0 row=Y card=Y1\n"
                   "scoring_started round=1\n"
                   "cards_secured seat=1 row=R cards=R3,G2 count=2\n"
                   "wrongly_placed seat=1 row=R cards=G2 count=1\n"
                   "persons_scored seat=1 row=R cards=R3 persons=1 sum=3 gained=3 points=0,3\n"
                   "wrong_persons_scored seat=1 row=R cards=G2 count=1 gained=10 points=0,10\n"
                   "nothing_secured seat=0 row=G\n"
                   "round_over round=1 rounds=10\n"
                   "round_started round=2 rounds=10 seat=0 hand_size=6\n");
    tafel_state_free(s);
}

/* Two wrongly placed persons of different types, face down and unseen by Red,
** taken at once by their owners (three players): turned up at scoring, they
** are told to every seat and to a spectator alike. */
static void test_two_wrong_persons_taken_at_once_are_told_to_all(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state("cardcassonne(players=3)");
    h_script(s, SETUP_B);
    static const char *const hands[3] = {"G1 Y2 Y2 Y2 Y2", "G2 Y1 Y1 Y1 Y1",
                                         "R3 Y1 Y1 Y1 Y1"};
    for (int i = 0; i < 5; i++)
        for (int k = 1; k <= 3; k++) {
            char text[32];
            snprintf(text, sizeof text, "c deal %d %.2s", k % 3, hands[k % 3] + 3 * i);
            h_script(s, text);
        }
    h_script(s, "1 play G2 R; 2 play R3 G; 0 play G1 B; 1 follower R; 2 follower G;"
                "0 follower Y; 1 play Y1 Y; 2 play Y1 Y; 0 play Y2 Y; 1 play Y1 Y;"
                "2 play Y1 Y; 0 play Y2 Y; 1 play Y1 Y; 2 play Y1 Y; 0 play Y2 Y;"
                "1 play Y1 Y; 2 play Y1 Y");
    const char *fmt = "card_played seat=0 row=Y card=Y2\nscoring_started round=1\n"
                      "cards_secured seat=1 row=R cards=%1$s count=1\n"
                      "wrongly_placed seat=1 row=R cards=%1$s count=1\n"
                      "wrong_persons_scored seat=1 row=R cards=%1$s count=1 gained=10 "
                      "points=0,10,0\n"
                      "cards_secured seat=2 row=G cards=%2$s count=1\n"
                      "wrongly_placed seat=2 row=G cards=%2$s count=1\n"
                      "wrong_persons_scored seat=2 row=G cards=%2$s count=1 gained=10 "
                      "points=0,0,10\n"
                      "nothing_secured seat=0 row=Y\n"
                      "round_over round=1 rounds=8\n"
                      "round_started round=2 rounds=8 seat=0 hand_size=5\n";
    for (int seat = -1; seat < 3; seat++)
        assert_told_cards(s, "0 play Y2 Y", seat, fmt, "G2", "R3");
    tafel_state_free(s);
}

/* An animal joker won with no animal card: 3 points, and it waits; the
** next round's horse makes its assignment due, and the horse scores. */
static void test_an_animal_joker_without_animals_scores_3_and_waits(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "AJ Y1 Y2 Y2 Y2 Y2");
    h_script(s, "1 play AJ G; 0 follower R; 1 follower G; 0 play Y1 Y; 1 play Y1 Y;"
                "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y;"
                "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y");
    told_then_play(s, "0 play Y1 Y",
                   "card_played seat=0 row=Y card=Y1\n"
                   "scoring_started round=1\n"
                   "cards_secured seat=1 row=G cards=AJ count=1\n"
                   "animal_jokers_won seat=1 count=1\n"
                   "animal_jokers_wait seat=1 count=1 held=1 gained=3 points=0,3\n"
                   "nothing_secured seat=0 row=R\n"
                   "round_over round=1 rounds=10\n"
                   "round_started round=2 rounds=10 seat=1 hand_size=6\n");
    deal2(s, 1, "Y3 Y3 Y3 Y2 B1 B1", "GA B1 B1 BA BA BA");
    h_script(s, "0 follower R; 1 play GA G; 0 play Y3 Y; 1 follower G; 0 play Y3 Y;"
                "1 play B1 B; 0 play Y3 Y; 1 play B1 B; 0 play Y2 Y; 1 play BA B;"
                "0 play B1 B; 1 play BA B; 0 play B1 B");
    told_then_play(s, "1 play BA B",
                   "card_played seat=1 row=B card=BA\n"
                   "scoring_started round=2\n"
                   "nothing_secured seat=0 row=R\n"
                   "cards_secured seat=1 row=G cards=GA count=1\n");
    told_then_play(s, "1 assign horse",
                   "animal_joker_assigned seat=1 animal=horse\n"
                   "animals_scored seat=1 animal=horse count=2 jokers=1 gained=6 points=0,6\n"
                   "round_over round=2 rounds=10\n"
                   "round_started round=3 rounds=10 seat=1 hand_size=6\n");
    tafel_state_free(s);
}

/* A wrongly placed building kept goes under the chest; a building joker
** too, from any row. */
static void test_buildings_go_under_the_chest(void **unused) {
    (void)unused;
    tafel_state *s = two_dealt("Y1 Y1 Y1 Y1 Y1 Y1", "YH HJ Y2 Y2 Y2 Y2");
    h_script(s, "1 play YH R; 0 follower G; 1 play HJ R; 0 play Y1 Y; 1 follower R;"
                "0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y; 0 play Y1 Y;"
                "1 play Y2 Y; 0 play Y1 Y; 1 play Y2 Y");
    told_then_play(s, "0 play Y1 Y",
                   "card_played seat=0 row=Y card=Y1\n"
                   "scoring_started round=1\n"
                   "cards_secured seat=1 row=R cards=YH,HJ count=2\n"
                   "wrongly_placed seat=1 row=R cards=YH count=1\n");
    told_then_play(s, "1 keep",
                   "wrong_card_kept seat=1 row=R card=YH\n"
                   "buildings_to_chest seat=1 cards=YH,HJ count=2 chest=2\n"
                   "nothing_secured seat=0 row=G\n"
                   "round_over round=1 rounds=10\n"
                   "round_started round=2 rounds=10 seat=1 hand_size=6\n");
    tafel_state_free(s);
}

/* ---------------------------------------------------- the final round */

/* A random deal of the next round (the hands matter not). */
static void deal_random(tafel_state *s, uint64_t *rng) {
    while (tafel_state_current(s) == TAFEL_CHANCE) {
        tafel_action a;
        assert_int_equal(tafel_state_sample_chance(s, rng, &a), TAFEL_OK);
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
}

/* The first card of seat's hand in its own view. */
static void first_in_hand(const tafel_state *s, int seat, char *out, size_t size) {
    cJSON *v = h_view(s, seat);
    const cJSON *hand = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(v, "seats"), seat), "hand");
    const cJSON *card = cJSON_GetArrayItem(hand, 0);
    if (!cJSON_IsString(card)) fail_msg("seat %d holds no card", seat);
    snprintf(out, size, "%s", card->valuestring);
    cJSON_Delete(v);
}

/* Apply the first legal action until a chance node or the end. */
static void play_first_legal(tafel_state *s) {
    while (tafel_state_current(s) >= 0) {
        tafel_action a[64];
        assert_true(tafel_state_legal_actions(s, a, 64) > 0);
        assert_int_equal(tafel_state_apply(s, a[0], NULL), TAFEL_OK);
    }
}

/* Blue's first card of the final round (the first in its hand) is told to
** seat as itself in Red's claim of the city row. */
static void final_card_told(const char *told, const char *blue, int seat) {
    const char *line = strstr(told, "cards_secured seat=0 row=B cards=");
    if (!line) fail_msg("no claim of the city row for %d:\n%s", seat, told);
    char cards[512];
    assert_int_equal(sscanf(line, "cards_secured seat=0 row=B cards=%511s", cards), 1);
    if (!strstr(cards, blue) || strchr(cards, '?'))
        fail_msg("seat %d is told %s for Blue's %s", seat, cards, blue);
}

/* The seed's chest of "two sets of four colours, one set of two and a
** single card give 30 + 30 + 5 + 0 = 65", won by Blue in rounds 1-4 and
** told at the end; and the final round's face-down cards.  In round 10 Red
** plays its first card face down into the cloister row, which nobody
** secures, shown at the end; Blue plays its first face down into the city
** row, where Red's follower then claims it: every seat is told the card as
** it was (the one card taken unseen, the view afterwards shows what it
** was).  The rounds between are dealt at random: seed. */
static void final_round(uint64_t seed) {
    tafel_state *s = two_dealt("G1 G1 G1 G1 G1 G1", "YH YH YH YH Y1 Y1");
    h_script(s, "1 play YH Y; 0 follower R; 1 play YH Y; 0 play G1 G; 1 play YH Y;"
                "0 play G1 G; 1 play YH Y; 0 play G1 G; 1 follower Y; 0 play G1 G;"
                "1 play Y1 Y; 0 play G1 G; 1 play Y1 Y; 0 play G1 G");
    deal2(s, 1, "G2 G2 G2 G2 G1 G1", "RH RH RH R1 R1 R1");
    h_script(s, "0 follower R; 1 play RH R; 0 play G2 G; 1 play RH R; 0 play G2 G;"
                "1 play RH R; 0 play G2 G; 1 follower R; 0 play G2 G; 1 play R1 R;"
                "0 play G1 G; 1 play R1 R; 0 play G1 G; 1 play R1 R");
    deal2(s, 1, "R2 R2 R2 R2 R2 R3", "GH GH Y1 Y1 Y1 Y1");
    h_script(s, "0 follower G; 1 play GH G; 0 play R2 R; 1 play GH G; 0 play R2 R;"
                "1 follower G; 0 play R2 R; 1 play Y1 Y; 0 play R2 R; 1 play Y1 Y;"
                "0 play R2 R; 1 play Y1 Y; 0 play R3 R; 1 play Y1 Y");
    deal2(s, 1, "R1 R1 R1 R1 R1 R3", "BH BH Y2 Y2 Y2 Y2");
    h_script(s, "0 follower B; 1 play BH B; 0 play R1 R; 1 play BH B; 0 play R1 R;"
                "1 follower B; 0 play R1 R; 1 play Y2 Y; 0 play R1 R; 1 play Y2 Y;"
                "0 play R1 R; 1 play Y2 Y; 0 play R3 R; 1 play Y2 Y");
    uint64_t rng = tafel_rng_seed(seed);
    for (int round = 5; round <= 9; round++) { /* Blue secures nothing */
        deal_random(s, &rng);
        h_script(s, "0 follower Y; 1 follower Y");
        play_first_legal(s);
    }
    assert_int_equal(h_scores(s).p[1], 0);
    deal_random(s, &rng);
    char red[8], blue[8], text[32];
    first_in_hand(s, 0, red, sizeof red);
    first_in_hand(s, 1, blue, sizeof blue);
    snprintf(text, sizeof text, "0 play %s Y", red);
    h_script(s, text);
    snprintf(text, sizeof text, "1 play %s B", blue);
    h_script(s, text);
    h_script(s, "0 follower B; 1 follower B");
    /* the accounts of every action to the end, seat by seat */
    static char told[3][65536];
    size_t used[3] = {0, 0, 0};
    while (tafel_state_current(s) >= 0) {
        tafel_action a[64];
        char now[TAFEL_ACTION_TEXT_MAX];
        assert_true(tafel_state_legal_actions(s, a, 64) > 0);
        h_text(s, a[0], now, sizeof now);
        for (int seat = -1; seat < 2; seat++) {
            account_lines(s, now, seat, told[seat + 1] + used[seat + 1],
                          sizeof told[0] - used[seat + 1]);
            used[seat + 1] += strlen(told[seat + 1] + used[seat + 1]);
        }
        assert_int_equal(tafel_state_apply(s, a[0], NULL), TAFEL_OK);
    }
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    for (int seat = -1; seat < 2; seat++) {
        const char *t = told[seat + 1];
        final_card_told(t, blue, seat);
        char shown[64];
        snprintf(shown, sizeof shown, "face_down_shown seat=0 row=Y card=%s\n", red);
        if (!strstr(t, shown)) fail_msg("seat %d not told Red's face-down %s:\n%s", seat, red, t);
        if (!strstr(t, "buildings_scored seat=1 cards=YH,YH,YH,YH,RH,RH,RH,GH,GH,BH,BH "
                       "buildings=11 sets=4,4,2,1 gained=65 points=0,65\n"))
            fail_msg("seat %d not told Blue's 65-point chest:\n%s", seat, t);
        if (!strstr(t, "\ngame_over seats="))
            fail_msg("seat %d not told the end:\n%s", seat, t);
    }
    /* all is public: told alike */
    if (strcmp(told[0], told[1]) || strcmp(told[0], told[2]))
        fail_msg("the seats are told the end differently:\n%s\n%s", told[0], told[1]);
    assert_int_equal(h_scores(s).p[1], 65);
    tafel_state_free(s);
}

static void test_the_final_round_and_the_65_point_chest(void **unused) {
    (void)unused;
    for (uint64_t seed = 2009; seed < 2009 + 6; seed++) final_round(seed);
}

/* "If there is a tie, the tied player with more building cards wins.  If
** that is also equal, the tied players share the win": the game_over of
** seeded random games, against the scores and chests of the final view. */
/* Play s at random (rng) up to its last action, which is returned, not
** played. */
static tafel_action before_the_end(tafel_state *s, uint64_t *rng) {
    tafel_state *next = tafel_state_clone(s);
    tafel_action scratch[512], a = -1;
    while (1) {
        assert_int_equal(tafel_state_play_random(next, rng, scratch, 512, &a), TAFEL_OK);
        if (tafel_state_current(next) == TAFEL_TERMINAL) break;
        tafel_state_copy(s, next);
    }
    tafel_state_free(next);
    return a;
}

static void test_game_over_names_the_winners_and_how_the_tie_was_broken(void **unused) {
    (void)unused;
    int by[3] = {0, 0, 0}, players = 5;
    tafel_game *g = h_game("cardcassonne(players=5)");
    for (uint64_t seed = 1; seed <= 3000 && (!by[1] || !by[2] || seed <= 20); seed++) {
        tafel_state *s = tafel_state_new(g);
        uint64_t rng = tafel_rng_seed(seed);
        tafel_action a = before_the_end(s, &rng);
        char *json = NULL;
        assert_int_equal(tafel_state_describe(s, a, -1, &json, NULL), TAFEL_OK);
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
        cJSON *events = cJSON_Parse(json);
        free(json);
        const cJSON *end = cJSON_GetArrayItem(events, cJSON_GetArraySize(events) - 1);
        assert_string_equal(h_json_string(end, "kind"), "game_over");
        int won[TAFEL_MAX_PLAYERS], n = tafel_state_winners(s, won), top = 0, at_top = 0;
        h_points sc = h_scores(s);
        for (int p = 0; p < players; p++) top = sc.p[p] > top ? sc.p[p] : top;
        for (int p = 0; p < players; p++) {
            at_top += sc.p[p] == top;
            assert_int_equal(h_json_array_int(end, "score_by_seat", p), sc.p[p]);
            cJSON *v = h_view(s, -1);
            const cJSON *seat = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(v, "seats"), p);
            assert_int_equal(h_json_array_int(end, "buildings_by_seat", p),
                             h_json_int(seat, "chest_count"));
            cJSON_Delete(v);
        }
        assert_int_equal(h_json_int(end, "winners"), n);
        assert_int_equal(h_json_array_size(end, "seats"), n);
        for (int i = 0; i < n; i++) assert_int_equal(h_json_array_int(end, "seats", i), won[i]);
        const char *how = h_json_string(end, "decided_by");
        int want = at_top == 1 ? 0 : n == 1 ? 1 : 2;
        static const char *const names[3] = {"points", "buildings", "shared"};
        assert_string_equal(how, names[want]);
        by[want]++;
        cJSON_Delete(events);
        tafel_state_free(s);
    }
    tafel_game_free(g);
    assert_true(by[0] > 0 && by[1] > 0 && by[2] > 0); /* each way was seen */
}

/* ------------------------------------------------- hidden information */

/* A seat's account from a position resampled for it (what it cannot see
** dealt anew) is byte for byte the same, where the action is legal there:
** a deal to the other seat, the other seat's face-down card. */
static void test_an_account_is_the_same_from_a_position_resampled_for_the_seat(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_script(s, SETUP_B);
    h_script(s, "c deal 1 RA; c deal 0 GA; c deal 1 R3; c deal 0 RA; c deal 1 B1;"
                "c deal 0 Y3; c deal 1 B1; c deal 0 R1; c deal 1 B1; c deal 0 R1");
    tafel_state *played = tafel_state_clone(s);
    h_script(played, "c deal 1 B1; c deal 0 R1");
    int compared = 0;
    for (int k = 0; k < 2; k++) {
        const tafel_state *at = k ? played : s;
        const char *text = k ? "play RA G" : "deal 1 B1";
        char *want = account_json(at, text, 0);
        for (uint64_t seed = 1; seed <= 200; seed++) {
            tafel_state *r = tafel_state_clone(at);
            uint64_t rng = tafel_rng_seed(seed);
            assert_int_equal(tafel_state_resample(r, 0, &rng), TAFEL_OK);
            if (h_legal_text(r, text)) {
                char *got = account_json(r, text, 0);
                assert_string_equal(got, want);
                free(got);
                compared++;
            }
            tafel_state_free(r);
        }
        free(want);
    }
    assert_true(compared > 200); /* every deal, and many a hand with RA */
    tafel_state_free(played);
    tafel_state_free(s);
}

/* ------------------------------------------------------ the catalog */

#define CATALOG TAFEL_SOURCE_DIR "/web/i18n/en/cardcassonne.json"

/* Every kind the engine writes (docs/events-cardcassonne.md). */
static const char *const kinds[] = {
    "setup_card", "setup_joker", "setup_joker_placed", "round_started", "card_dealt",
    "card_played", "card_played_face_down", "follower_placed", "scoring_started",
    "nothing_secured", "cards_secured", "wrongly_placed", "wrong_card_ten",
    "wrong_card_kept", "persons_scored", "wrong_persons_scored", "dragon_fairy_scored",
    "buildings_to_chest", "animal_jokers_won", "animal_jokers_wait",
    "animal_joker_assigned", "animals_scored", "round_over", "buildings_scored",
    "face_down_shown", "game_over",
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

static cJSON *load_catalog(void) {
    FILE *f = fopen(CATALOG, "rb");
    if (!f) fail_msg("cannot open %s", CATALOG);
    static char text[1 << 17];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    cJSON *c = cJSON_Parse(text);
    if (!cJSON_IsObject(c)) fail_msg("%s is not a JSON object", CATALOG);
    return c;
}

static const char *entry(const cJSON *catalog, const char *key) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(catalog, key);
    return cJSON_IsString(it) ? it->valuestring : NULL;
}

static void need(const cJSON *catalog, const char *key) {
    if (!entry(catalog, key)) fail_msg("%s has no \"%s\"", CATALOG, key);
}

/* Every placeholder of kind's template is a field of the event e, and
** every phrase it names has its forms. */
static void check_template(const cJSON *catalog, const cJSON *e, const char *kind) {
    char key[128];
    snprintf(key, sizeof key, "cardcassonne.event.%s", kind);
    const char *t = entry(catalog, key);
    if (!t) fail_msg("%s has no \"%s\"", CATALOG, key);
    for (const char *p = strchr(t, '{'); p; p = strchr(p + 1, '{')) {
        char field[64] = "", phrase[96] = "";
        if (sscanf(p, "{%63[a-z_]:%95[a-z_.]}", field, phrase) < 1)
            fail_msg("%s: a placeholder without a field", key);
        if (!cJSON_GetObjectItemCaseSensitive(e, field))
            fail_msg("%s names {%s}, which a %s event lacks", key, field, kind);
        if (phrase[0]) {
            char form[128];
            snprintf(form, sizeof form, "%s_one", phrase);
            need(catalog, form);
            snprintf(form, sizeof form, "%s_other", phrase);
            need(catalog, form);
        }
    }
}

/* Every string an event holds has its name: cardcassonne.<field>.<value>. */
static void check_names(const cJSON *catalog, const cJSON *e) {
    const cJSON *f;
    cJSON_ArrayForEach(f, e) {
        if (strcmp(f->string, "kind") == 0) continue;
        const cJSON *v = cJSON_IsArray(f) ? f->child : f;
        for (; v; v = cJSON_IsArray(f) ? v->next : NULL) {
            if (!cJSON_IsString(v)) continue;
            char key[128];
            snprintf(key, sizeof key, "cardcassonne.%s.%s", f->string, v->valuestring);
            need(catalog, key);
        }
    }
}

/* The accounts of seeded random games, for every seat and a spectator:
** every event's kind is a known one with its sentence, every placeholder a
** field of the event, every string value named.  Every known kind is met
** (game_over's rarer ties: the test above). */
static void test_every_event_of_random_games_has_its_words(void **unused) {
    (void)unused;
    cJSON *catalog = load_catalog();
    int seen[NKINDS] = {0};
    for (int players = 2; players <= 5; players++) {
        char gs[48];
        snprintf(gs, sizeof gs, "cardcassonne(players=%d)", players);
        tafel_game *g = h_game(gs);
        /* as many under the sanitizers: fewer games meet no waiting joker */
        for (uint64_t seed = 1; seed <= 8; seed++) {
            tafel_state *s = tafel_state_new(g);
            uint64_t rng = tafel_rng_seed(seed * 31 + (uint64_t)players);
            while (tafel_state_current(s) != TAFEL_TERMINAL) {
                tafel_action a;
                if (tafel_state_current(s) == TAFEL_CHANCE) {
                    assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
                } else {
                    tafel_action legal[64];
                    int n = tafel_state_legal_actions(s, legal, 64);
                    a = legal[tafel_rng_below(&rng, (uint32_t)n)];
                }
                for (int seat = -1; seat < players; seat++) {
                    char *json = NULL;
                    assert_int_equal(tafel_state_describe(s, a, seat, &json, NULL), TAFEL_OK);
                    cJSON *events = cJSON_Parse(json);
                    free(json);
                    const cJSON *e;
                    cJSON_ArrayForEach(e, events) {
                        const char *kind = h_json_string(e, "kind");
                        int k = 0;
                        while (k < NKINDS && strcmp(kinds[k], kind)) k++;
                        if (k == NKINDS) fail_msg("an unknown kind: %s", kind);
                        seen[k]++;
                        check_template(catalog, e, kind);
                        check_names(catalog, e);
                    }
                    cJSON_Delete(events);
                }
                assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
            }
            tafel_state_free(s);
        }
        tafel_game_free(g);
    }
    for (int k = 0; k < NKINDS; k++)
        if (!seen[k]) fail_msg("random games wrote no %s event", kinds[k]);
    cJSON_Delete(catalog);
}

/* The catalog: a sentence for no kind the engine does not write; a name,
** in the field of one card and of a list, and a text for every card of
** tafel_game_pieces_json; a name for every row, animal kind, set size and
** way of winning; a word for each action. */
static void test_the_catalog_names_every_card_row_and_action(void **unused) {
    (void)unused;
    cJSON *catalog = load_catalog();
    const cJSON *it;
    cJSON_ArrayForEach(it, catalog) {
        const char *prefix = "cardcassonne.event.";
        if (strncmp(it->string, prefix, strlen(prefix)) != 0) continue;
        int k = 0;
        while (k < NKINDS && strcmp(kinds[k], it->string + strlen(prefix))) k++;
        if (k == NKINDS) fail_msg("%s: no event of kind %s", CATALOG, it->string);
    }
    tafel_game *g = h_game(TWO);
    char *text = tafel_game_pieces_json(g);
    cJSON *pieces = cJSON_Parse(text);
    free(text);
    const cJSON *cards = cJSON_GetObjectItemCaseSensitive(pieces, "cards"), *c;
    assert_int_equal(cJSON_GetArraySize(cards), 24);
    char key[128];
    cJSON_ArrayForEach(c, cards) {
        static const char *const fields[3] = {"card", "cards", "card_text"};
        for (int f = 0; f < 3; f++) {
            snprintf(key, sizeof key, "cardcassonne.%s.%s", fields[f], c->string);
            need(catalog, key);
        }
        const char *animal = h_json_string(c, "animal");
        if (animal) {
            snprintf(key, sizeof key, "cardcassonne.animal.%s", animal);
            need(catalog, key);
        }
    }
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(pieces, "rows"), *r;
    assert_int_equal(cJSON_GetArraySize(rows), 4);
    cJSON_ArrayForEach(r, rows) {
        snprintf(key, sizeof key, "cardcassonne.row.%s", r->string);
        need(catalog, key);
    }
    cJSON_Delete(pieces);
    tafel_game_free(g);
    static const char *const more[] = {
        "cardcassonne.card.?", "cardcassonne.cards.?", "cardcassonne.sets.1",
        "cardcassonne.sets.2", "cardcassonne.sets.3", "cardcassonne.sets.4",
        "cardcassonne.decided_by.points", "cardcassonne.decided_by.buildings",
        "cardcassonne.decided_by.shared", "cardcassonne.action.reveal",
        "cardcassonne.action.row", "cardcassonne.action.deal", "cardcassonne.action.play",
        "cardcassonne.action.follower", "cardcassonne.action.ten", "cardcassonne.action.keep",
        "cardcassonne.action.assign",
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) need(catalog, more[i]);
    cJSON_Delete(catalog);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_rulebook_round_move_by_move),
        cmocka_unit_test(test_persons_1_1_and_3_score_5_times_3_is_15),
        cmocka_unit_test(test_sheep_6_then_five_with_a_joker_14_then_horses_6_and_a_chicken_3),
        cmocka_unit_test(test_a_wrong_person_10_and_a_kept_sixth_sheep_16_make_26),
        cmocka_unit_test(test_a_wrongly_placed_sheep_taken_for_ten),
        cmocka_unit_test(test_dragon_and_fairy_10_each),
        cmocka_unit_test(test_a_wrong_person_scores_10_at_once),
        cmocka_unit_test(test_two_wrong_persons_taken_at_once_are_told_to_all),
        cmocka_unit_test(test_an_animal_joker_without_animals_scores_3_and_waits),
        cmocka_unit_test(test_buildings_go_under_the_chest),
        cmocka_unit_test(test_the_final_round_and_the_65_point_chest),
        cmocka_unit_test(test_game_over_names_the_winners_and_how_the_tie_was_broken),
        cmocka_unit_test(test_an_account_is_the_same_from_a_position_resampled_for_the_seat),
        cmocka_unit_test(test_every_event_of_random_games_has_its_words),
        cmocka_unit_test(test_the_catalog_names_every_card_row_and_action),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
