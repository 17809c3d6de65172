/*
** test_information_state.c -- tafel_information_state_string, for every
** game: two histories give a seat (or the spectator, seat -1) the same
** string exactly when the seat cannot tell them apart.
**
** The pairs that matter are histories that differ where the seat cannot
** see: a chance outcome shown to the seat in the same words as another
** (a card dealt to the opponent); and where it can: an outcome shown in
** other words.  From a random game, an outcome is swapped for one of
** either kind and the rest of the game replayed while it stays legal; then
** at every length, equal strings must come with the same view and the
** same information-state tensor for the seat.  The string also grows by one line an action (what
** the seat saw before stays in it), and bad input is refused by name.
*/
#include "helpers.h"

#include <string.h>

#define GAMES (SLOW_BUILD ? 4 : 16)
#define MAX_HISTORY 3000

typedef struct history {
    tafel_action a[MAX_HISTORY];
    int n;
} history;

static char *info_string(const tafel_game *g, const history *h, int n, int seat) {
    tafel_error err = {0, ""};
    char *s = tafel_information_state_string(g, h->a, n, seat, &err);
    if (!s) fail_msg("information state of %d actions, seat %d: %s", n, seat, err.message);
    return s;
}

/* The state after the first n actions of h. */
static tafel_state *replay(const tafel_game *g, const history *h, int n) {
    tafel_state *s = tafel_state_new(g);
    tafel_error err;
    for (int i = 0; i < n; i++)
        if (tafel_state_apply(s, h->a[i], &err)) fail_msg("replay %d: %s", i, err.message);
    return s;
}

static void random_history(const tafel_game *g, uint64_t seed, history *h) {
    tafel_state *s = tafel_state_new(g);
    uint64_t rng = tafel_rng_seed(seed);
    h->n = 0;
    while (tafel_state_current(s) != TAFEL_TERMINAL && h->n < MAX_HISTORY) {
        tafel_action a = h_random_action(s, &rng);
        h->a[h->n++] = a;
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
    tafel_state_free(s);
}

/* seat's view and tensors of a and b are the same. */
static int seat_sees_the_same(const tafel_game *g, const tafel_state *a, const tafel_state *b,
                              int seat) {
    char *va = tafel_state_view_json(a, seat), *vb = tafel_state_view_json(b, seat);
    int same = strcmp(va, vb) == 0;
    free(va);
    free(vb);
    size_t n = tafel_game_tensor_size(g, TAFEL_INFORMATION_STATE);
    if (same && n) {
        float *ta = malloc(n * sizeof *ta), *tb = malloc(n * sizeof *tb);
        assert_int_equal(tafel_state_information_state_tensor(a, seat, ta, n, NULL), TAFEL_OK);
        assert_int_equal(tafel_state_information_state_tensor(b, seat, tb, n, NULL), TAFEL_OK);
        same = memcmp(ta, tb, n * sizeof *ta) == 0;
        free(ta);
        free(tb);
    }
    return same;
}

/* h2: h with the chance outcome at k swapped for another that seat sees in
** the same words (look_alike) or in other words, then h's later actions
** while they stay legal.  0 when the outcome at k has no such other. */
static int swap_outcome(const tafel_game *g, const history *h, int k, int seat, int look_alike,
                        uint64_t *rng, history *h2) {
    tafel_state *s = replay(g, h, k);
    int found = 0;
    if (tafel_state_current(s) == TAFEL_CHANCE) {
        tafel_action outcomes[4096];
        int n = tafel_state_chance_outcomes(s, outcomes, NULL, 4096);
        char seen[TAFEL_ACTION_TEXT_MAX], other[TAFEL_ACTION_TEXT_MAX];
        tafel_action_view_text(s, seat, h->a[k], seen, sizeof seen);
        int start = n ? (int)tafel_rng_below(rng, (uint32_t)n) : 0;
        for (int j = 0; j < n && !found; j++) {
            tafel_action o = outcomes[(start + j) % n];
            tafel_action_view_text(s, seat, o, other, sizeof other);
            if (o == h->a[k] || (strcmp(seen, other) == 0) != look_alike) continue;
            memcpy(h2->a, h->a, (size_t)k * sizeof *h->a);
            h2->a[k] = o;
            h2->n = k + 1;
            found = 1;
        }
    }
    if (found) {
        assert_int_equal(tafel_state_apply(s, h2->a[k], NULL), TAFEL_OK);
        for (int i = k + 1; i < h->n && tafel_state_apply(s, h->a[i], NULL) == TAFEL_OK; i++)
            h2->a[h2->n++] = h->a[i];
    }
    tafel_state_free(s);
    return found;
}

/* Along h and h2, at every length: equal strings, equal sight; different
** sight, different strings.  Returns how many lengths had equal strings. */
static int compare_along(const tafel_game *g, const history *h, const history *h2, int seat) {
    int equal_lengths = 0, n = h->n < h2->n ? h->n : h2->n;
    tafel_state *a = tafel_state_new(g), *b = tafel_state_new(g);
    /* every 7th length, and the last ones (the strings replay from the start) */
    for (int len = 0; len <= n; len++) {
        if (len) {
            assert_int_equal(tafel_state_apply(a, h->a[len - 1], NULL), TAFEL_OK);
            assert_int_equal(tafel_state_apply(b, h2->a[len - 1], NULL), TAFEL_OK);
        }
        if (len % 7 && len < n - 2) continue;
        char *sa = info_string(g, h, len, seat), *sb = info_string(g, h2, len, seat);
        int same_string = strcmp(sa, sb) == 0;
        int same_sight = seat_sees_the_same(g, a, b, seat);
        if (same_string && !same_sight)
            fail_msg("%s seat %d, %d actions: the same information-state string, but the "
                     "seat's view or tensor differ", tafel_game_string(g), seat, len);
        if (!same_string && same_sight && tafel_state_equal(a, b))
            fail_msg("%s seat %d, %d actions: different strings for the same history",
                     tafel_game_string(g), seat, len);
        equal_lengths += same_string;
        free(sa);
        free(sb);
    }
    tafel_state_free(a);
    tafel_state_free(b);
    return equal_lengths;
}

static void check_game(const char *game_string, int expect_pairs) {
    tafel_game *g = h_game(game_string);
    history *h = malloc(sizeof *h), *h2 = malloc(sizeof *h2);
    uint64_t rng = tafel_rng_seed(0x1f05);
    int pairs = 0, equal = 0, seen_apart = 0;
    for (int game = 0; game < GAMES; game++) {
        random_history(g, 7000 + (uint64_t)game, h);
        /* a seat, or -1: the spectator, who sees only what is public */
        int seat = (int)tafel_rng_below(&rng, (uint32_t)tafel_game_players(g) + 1) - 1;
        /* perfect recall: each action adds one line, and what was there stays */
        int len = (int)tafel_rng_below(&rng, (uint32_t)h->n);
        char *before = info_string(g, h, len, seat), *after = info_string(g, h, len + 1, seat);
        assert_memory_equal(before, after, strlen(before));
        const char *added = after + strlen(before), *newline = strchr(added, '\n');
        assert_true(newline && newline > added && newline[1] == 0); /* one line */
        free(before);
        free(after);
        /* histories that differ where the seat cannot see, and where it can */
        for (int look_alike = 1; look_alike >= 0; look_alike--) {
            for (int tries = 0; tries < 40; tries++) {
                int k = (int)tafel_rng_below(&rng, (uint32_t)h->n);
                if (!swap_outcome(g, h, k, seat, look_alike, &rng, h2)) continue;
                int same = compare_along(g, h, h2, seat);
                if (look_alike) {
                    pairs++;
                    equal += same;
                } else {
                    seen_apart++;
                }
                break;
            }
        }
    }
    if (!seen_apart) fail_msg("%s: no chance outcome swapped for one the seat sees", game_string);
    if (expect_pairs && (!pairs || !equal))
        fail_msg("%s: %d pairs of histories a seat cannot tell apart found, %d lengths with "
                 "equal strings: the check proved nothing", game_string, pairs, equal);
    free(h);
    free(h2);
    tafel_game_free(g);
}

static void test_carcassonne(void **unused) {
    (void)unused;
    /* every draw is shown to all: no hidden look-alikes to find */
    check_game("carcassonne(players=3,crop_circles=true)", 0);
}

static void test_cardcassonne(void **unused) {
    (void)unused;
    check_game("cardcassonne(players=3)", 1);
}

static void test_catan_cards(void **unused) {
    (void)unused;
    check_game("catan_cards(max_turns=60)", 1);
}

static void test_bad_input_is_refused_by_name(void **unused) {
    (void)unused;
    tafel_game *g = h_game("cardcassonne(players=2)");
    tafel_error err = {0, ""};
    assert_null(tafel_information_state_string(g, NULL, 0, 2, &err));
    assert_int_equal(err.code, TAFEL_EINVAL);
    assert_non_null(strstr(err.message, "seat 2"));
    assert_null(tafel_information_state_string(g, NULL, 0, -2, &err));
    assert_non_null(strstr(err.message, "seat -2"));
    assert_null(tafel_information_state_string(g, NULL, 3, 0, &err));
    assert_int_equal(err.code, TAFEL_EINVAL);
    tafel_action nonsense[2] = {999999, 0};
    assert_null(tafel_information_state_string(g, nonsense, 2, 0, &err));
    assert_int_equal(err.code, TAFEL_EILLEGAL);
    /* the empty history: the game and the seat alone */
    char *s = tafel_information_state_string(g, NULL, 0, 1, &err);
    assert_non_null(s);
    assert_string_equal(s, "cardcassonne(players=2) seat 1\n");
    free(s);
    s = tafel_information_state_string(g, NULL, 0, -1, &err);
    assert_non_null(s);
    assert_string_equal(s, "cardcassonne(players=2) seat -1\n");
    free(s);
    tafel_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_input_is_refused_by_name),
        cmocka_unit_test(test_carcassonne),
        cmocka_unit_test(test_cardcassonne),
        cmocka_unit_test(test_catan_cards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
