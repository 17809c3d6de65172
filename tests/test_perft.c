/*
** test_perft.c -- golden perft counts (Stockfish, OpenSpiel) through the
** public API.
**
** perft(s, d) counts the leaves of the full game tree d actions deep:
** chance nodes branch over every outcome, a terminal state is one leaf.
** From the start of carcassonne(players=2) the first counts were worked
** out independently of the engine: depth 1 is the 24 tile types of the
** pile; depth 2 the placements of each type next to the start tile D
** (distinct orientations only: rotating a U by 180 degrees is the same
** placement), 102; depth 3 adds the follower choices (pass or one per
** segment of the new tile, all free), 484; depth 4 the next draw (24 types,
** 23 after the only C, G, Q, T or X), 11551; depth 5 was counted with a
** small script over the tile table of rules §7, 76014.  With crop circles
** the same reasoning gives 30, 134 and 635.  The last position reaches the
** end of the game within its depth: terminal leaves count once.
**
** The other positions are reached by seeded random prefixes that choose by
** action text (legal actions sorted by text), so the positions do not
** depend on how the engine numbers its actions.  Regenerate the counts with
** `test_perft --generate` after a deliberate rules change, and diff.
*/
#include "helpers.h"

static long perft(const tafel_state *s, int depth) {
    if (depth == 0 || tafel_state_current(s) == TAFEL_TERMINAL) return 1;
    int n;
    tafel_action *legal = h_legal(s, &n);
    tafel_state *child = tafel_state_clone(s);
    assert_non_null(child);
    long total = 0;
    for (int i = 0; i < n; i++) {
        tafel_state_copy(child, s);
        tafel_error err = {0};
        if (tafel_state_apply(child, legal[i], &err) != TAFEL_OK)
            fail_msg("perft: legal action %d refused: %s", (int)legal[i], err.message);
        total += depth == 1 ? 1 : perft(child, depth - 1);
    }
    tafel_state_free(child);
    free(legal);
    return total;
}

static int compare_text(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Play `length` actions chosen by a seeded generator among the legal
** actions sorted by their text (chance outcomes included, uniformly). */
static tafel_state *random_prefix(const char *game_string, uint64_t seed, int length) {
    tafel_state *s = h_state(game_string);
    uint64_t rng = tafel_rng_seed(seed);
    for (int i = 0; i < length && tafel_state_current(s) != TAFEL_TERMINAL; i++) {
        int n;
        tafel_action *legal = h_legal(s, &n);
        char (*texts)[TAFEL_ACTION_TEXT_MAX] = malloc(sizeof *texts * (size_t)n);
        const char **order = malloc(sizeof *order * (size_t)n);
        assert_true(texts && order);
        for (int k = 0; k < n; k++) {
            h_text(s, legal[k], texts[k], TAFEL_ACTION_TEXT_MAX);
            order[k] = texts[k];
        }
        qsort(order, (size_t)n, sizeof *order, compare_text);
        play(s, order[tafel_rng_below(&rng, (uint32_t)n)]);
        free(order);
        free(texts);
        free(legal);
    }
    return s;
}

typedef struct golden {
    const char *name;
    const char *game;
    uint64_t seed;
    int prefix;
    int depth;
    long counts[8]; /* depth 1.. */
} golden;

static const golden goldens[] = {
    {"start, 2 players", "carcassonne(players=2)", 0, 0, 6,
     {24, 102, 484, 11551, 76014, 338117}},
    {"start, 3 players with crop circles", "carcassonne(players=3,crop_circles=true)", 0, 0, 5,
     {30, 134, 635, 14757, 105156}},
    {"2 players after 31 actions", "carcassonne(players=2)", 42, 31, 4, {3, 9, 189, 2958}},
    {"3 players with crop circles after 60 actions",
     "carcassonne(players=3,crop_circles=true)", 9, 60, 4, {25, 503, 1896, 43335}},
    {"5 players after 100 actions", "carcassonne(players=5)", 5, 100, 4, {27, 71, 852, 25335}},
    {"2 players near the end", "carcassonne(players=2)", 5, 205, 6, {30, 30, 30, 1774, 1774, 1774}},
    {"Cardcassonne start", "cardcassonne(players=2)", 0, 0, 4, {24, 496, 10296, 213660}},
    {"Cardcassonne, 4 players in the first round", "cardcassonne(players=4)", 11, 35, 4,
     {24, 480, 3840, 38400}},
    {"Cardcassonne, 3 players dealing round 4", "cardcassonne(players=3)", 3, 120, 4,
     {16, 255, 4046, 63879}},
    {"Cardcassonne, 2 players near the end", "cardcassonne(players=2)", 8, 265, 6,
     {1, 1, 20, 320, 2944, 22816}},
    {"Catan start", "catan_cards", 0, 0, 3, {44, 1907, 81402}},
    {"Catan in the middle of a game", "catan_cards", 16, 280, 4, {3, 44, 91, 335}},
};

#define NGOLDEN (sizeof goldens / sizeof goldens[0])

static void check_golden(const golden *g) {
    tafel_state *s = random_prefix(g->game, g->seed, g->prefix);
    for (int d = 1; d <= g->depth; d++) {
        long got = perft(s, d);
        if (got != g->counts[d - 1])
            fail_msg("%s: perft(%d) = %ld, expected %ld", g->name, d, got, g->counts[d - 1]);
    }
    tafel_state_free(s);
}

static void test_perft_from_the_start_of_a_2_player_game(void **unused) {
    (void)unused;
    check_golden(&goldens[0]);
}

static void test_perft_from_the_start_with_crop_circles(void **unused) {
    (void)unused;
    check_golden(&goldens[1]);
}

static void test_perft_after_random_prefixes(void **unused) {
    (void)unused;
    for (size_t i = 2; i < NGOLDEN; i++)
        if (strstr(goldens[i].game, "carcassonne(")) check_golden(&goldens[i]);
}

static void test_perft_of_catan(void **unused) {
    (void)unused;
    for (size_t i = 2; i < NGOLDEN; i++)
        if (strstr(goldens[i].game, "catan_cards")) check_golden(&goldens[i]);
}

static void test_perft_of_cardcassonne(void **unused) {
    (void)unused;
    for (size_t i = 2; i < NGOLDEN; i++)
        if (strstr(goldens[i].game, "cardcassonne(")) check_golden(&goldens[i]);
}

/* `test_perft --generate` prints the counts to paste above. */
static int generate(void) {
    for (size_t i = 0; i < NGOLDEN; i++) {
        tafel_state *s = random_prefix(goldens[i].game, goldens[i].seed, goldens[i].prefix);
        char *view = tafel_state_view_json(s, -1);
        cJSON *v = cJSON_Parse(view);
        const cJSON *pile = cJSON_GetObjectItem(v, "pile_size");
        if (!cJSON_IsNumber(pile)) pile = cJSON_GetObjectItem(v, "pile");
        const cJSON *phase = cJSON_GetObjectItem(v, "phase");
        if (!cJSON_IsString(phase)) phase = cJSON_GetObjectItem(v, "frame");
        printf("%s (phase %s, pile %d):", goldens[i].name, phase->valuestring,
               cJSON_IsNumber(pile) ? pile->valueint : -1);
        cJSON_Delete(v);
        free(view);
        for (int d = 1; d <= goldens[i].depth; d++) printf(" %ld,", perft(s, d));
        printf("\n");
        tafel_state_free(s);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--generate") == 0) return generate();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_from_the_start_of_a_2_player_game),
        cmocka_unit_test(test_perft_from_the_start_with_crop_circles),
        cmocka_unit_test(test_perft_after_random_prefixes),
        cmocka_unit_test(test_perft_of_cardcassonne),
        cmocka_unit_test(test_perft_of_catan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
