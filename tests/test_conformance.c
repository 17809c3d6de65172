/*
** test_conformance.c -- random games against every game of the registry
** (OpenSpiel's RandomSimTest), through the public API only.
**
** For each game, each player count its parameter help allows and each
** value of its boolean parameters, seeded random games are played to the
** end.  After every action the state's own check must pass, and the
** generic invariants of tafel.h must hold: sorted unique legal actions that
** all apply, chance probabilities that sum to 1, copies that compare equal,
** action texts that read back, scores that never fall (but in Catan), a
** bounded game, a record that replays byte for byte, projected = scores
** and winners = the best seats at the end (a Catan draw at the turn limit:
** both).  Carcassonne's view adds conservation of followers
** (7 per player) and of tiles (72, or 78 with crop circles); Cardcassonne's,
** the 130 cards.  Hidden information: every seat's view of a copy resampled
** for that seat is byte for byte the view of the original (and the copy is
** a valid state), so nothing a seat cannot see shows in its view.  Every
** step is also taken by tafel_state_play_random from a copy, which must
** draw and play the same action to the same state.  The learners' calls
** (inv_check_learners): the legal mask is the legal list and every index
** maps back, and a tensor, like a view, shows nothing its seat cannot see.  These generic checks
** are src/cli/invariants.c, which `tafel soak` runs by the million.  Bad
** input: at sampled positions random bytes and mangled legal texts are
** refused with a message (the sanitizer build runs this too).
*/
#include "helpers.h"
#include "cli/invariants.h"

#include <math.h>

/* Random games per game string, and how often every legal action is
** applied (else a few sampled ones). */
#define GAMES_PER_VARIANT (SLOW_BUILD ? 30 : 300)
#define FULL_CHECK_EVERY 16
#define SAMPLED_APPLIES 3
#define MAX_ACTIONS_PER_GAME 5000
#define ACCOUNT_SEATS_EVERY 7

typedef struct sim {
    const char *game_name;
    int carcassonne, cardcassonne, catan;
    int players;
    int tiles_total;
    size_t max_actions;
    inv_checker inv; /* the generic invariants; its list is the legal actions */
    tafel_state *scratch;
    long positions, applies;
} sim;

static void check_ok(int rc, const tafel_error *err, const char *what, int move) {
    if (rc != TAFEL_OK)
        fail_msg("%s at move %d: %s (%s)", what, move, tafel_status_string(rc), err->message);
}

/* A generic invariant (invariants.c) that failed: its description. */
static void check_inv(const sim *m, int failed, const tafel_state *s) {
    if (failed)
        fail_msg("%s at move %d: %s", m->game_name, tafel_state_move_number(s), m->inv.why);
}

/* Carcassonne's conservation laws, from the spectator view. */
static void check_carcassonne_view(const sim *m, const tafel_state *s) {
    cJSON *v = h_view(s, -1);
    int on_board[TAFEL_MAX_PLAYERS] = {0};
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(v, "followers")) {
        int p = h_json_int(f, "player");
        assert_true(p >= 0 && p < m->players);
        on_board[p]++;
    }
    for (int p = 0; p < m->players; p++) {
        int supply = h_json_array_int(v, "supply", p);
        assert_true(supply >= 0);
        if (supply + on_board[p] != 7)
            fail_msg("player %d: %d in supply + %d on the board != 7", p, supply, on_board[p]);
    }
    int pile_size = h_json_int(v, "pile_size"), pile_sum = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(v, "pile")) {
        assert_true(cJSON_IsNumber(t) && t->valueint >= 0);
        pile_sum += t->valueint;
    }
    assert_int_equal(pile_sum, pile_size);
    int in_hand = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "tile"));
    int tiles = pile_size + h_json_array_size(v, "board") + h_json_array_size(v, "removed") +
                in_hand;
    if (tiles != m->tiles_total)
        fail_msg("tiles: %d in pile + board + removed + hand, not %d", tiles, m->tiles_total);
    const char *next = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "next"))
                           ? h_json_string(v, "next")
                           : NULL;
    int cur = tafel_state_current(s);
    if (cur == TAFEL_CHANCE) assert_string_equal(next, "chance");
    else if (cur == TAFEL_TERMINAL) assert_string_equal(next, "terminal");
    else assert_int_equal(h_json_int(v, "next"), cur);
    cJSON_Delete(v);
}

static int json_sum(const cJSON *obj) {
    int sum = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, obj) {
        assert_true(cJSON_IsNumber(item) && item->valueint >= 0);
        sum += item->valueint;
    }
    return sum;
}

/* Cardcassonne: all 130 cards are somewhere a spectator can count them. */
static void check_cardcassonne_view(const sim *m, const tafel_state *s) {
    cJSON *v = h_view(s, -1);
    int cards = h_json_int(v, "pile") + json_sum(cJSON_GetObjectItemCaseSensitive(v, "removed"));
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "setup_joker"))) cards++;
    const cJSON *decision = cJSON_GetObjectItemCaseSensitive(v, "decision");
    if (cJSON_IsObject(decision) && cJSON_GetObjectItemCaseSensitive(decision, "new_jokers"))
        cards += h_json_int(decision, "new_jokers");
    const cJSON *row, *entry, *seat;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(v, "rows"))
        cJSON_ArrayForEach(entry, row)
            cards += cJSON_GetObjectItemCaseSensitive(entry, "card") ||
                     cJSON_GetObjectItemCaseSensitive(entry, "down");
    int seats = 0;
    cJSON_ArrayForEach(seat, cJSON_GetObjectItemCaseSensitive(v, "seats")) {
        assert_null(cJSON_GetObjectItemCaseSensitive(seat, "hand"));
        /* a chest holds only cards shown when won: public (rules §3.3) */
        assert_int_equal(json_sum(cJSON_GetObjectItemCaseSensitive(seat, "chest")),
                         h_json_int(seat, "chest_count"));
        int jokers = json_sum(cJSON_GetObjectItemCaseSensitive(seat, "animal_jokers"));
        cards += h_json_int(seat, "hand_count") + h_json_int(seat, "chest_count") +
                 json_sum(cJSON_GetObjectItemCaseSensitive(seat, "animals")) +
                 h_json_int(seat, "unassigned_jokers");
        assert_true(json_sum(cJSON_GetObjectItemCaseSensitive(seat, "animals")) >= jokers);
        seats++;
    }
    assert_int_equal(seats, m->players);
    if (cards != 130) fail_msg("cards: %d accounted for in the spectator view, not 130", cards);
    cJSON_Delete(v);
}

/* Texts that are no action, or mangled legal ones, are refused with a
** message, and the state stays as it was (bad input never corrupts). */
static void check_bad_texts_are_refused(sim *m, const tafel_state *s, uint64_t *rng) {
    static const char *const fixed[] = {"", " ", "\t", "?", "play", "deal 99 Y1", "place",
                                        "build abbey 99 99", "offer 0L 9O", "stack 9 abbey",
                                        "take", "arrange G G G G G G", "pick -999 7"};
    char text[TAFEL_ACTION_TEXT_MAX * 2];
    tafel_state_copy(m->scratch, s);
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        tafel_action a;
        tafel_error err = {0};
        if (tafel_action_from_text(s, fixed[i], &a, &err) == TAFEL_OK) continue; /* legal here */
        assert_true(err.message[0] != 0);
    }
    for (int k = 0; k < 20; k++) { /* random bytes, and legal texts cut or extended */
        size_t len = tafel_rng_below(rng, 40);
        for (size_t i = 0; i < len; i++) text[i] = (char)(1 + tafel_rng_below(rng, 255));
        text[len] = 0;
        if (k % 2 && tafel_state_current(s) >= 0) {
            int n = tafel_state_legal_actions(s, m->inv.legal, (int)m->max_actions);
            if (n > 0) {
                h_text(s, m->inv.legal[tafel_rng_below(rng, (uint32_t)n)], text,
                       TAFEL_ACTION_TEXT_MAX);
                size_t l = strlen(text);
                if (k % 4 == 1) text[tafel_rng_below(rng, (uint32_t)l + 1)] = 0;
                else snprintf(text + l, sizeof text - l, " %u", tafel_rng_below(rng, 1000));
            }
        }
        tafel_action a;
        tafel_error err = {0};
        int rc = tafel_action_from_text(s, text, &a, &err);
        if (rc != TAFEL_OK) assert_true(err.message[0] != 0);
    }
    assert_true(tafel_state_equal(m->scratch, s));
}

/* The invariants of one position; returns the number of legal actions
** (left in m->inv.legal). */
static int check_position(sim *m, const tafel_state *s, uint64_t *rng) {
    tafel_error err = {0};
    int move = tafel_state_move_number(s);
    check_inv(m, inv_check_position(&m->inv, s), s);
    m->positions++;
    int cur = tafel_state_current(s), n = m->inv.nlegal;
    const tafel_action *legal = m->inv.legal;
    if (cur == TAFEL_TERMINAL) return 0;

    /* Every legal action applies (all of them now and then, else a few);
    ** now and then too, every seat's view, the picture and the estimate. */
    int all = m->positions % FULL_CHECK_EVERY == 0;
    int views = m->positions % (4 * FULL_CHECK_EVERY) == 0;
    for (int seat = -1; views && seat < m->players; seat++) {
        cJSON *v = h_view(s, seat);
        assert_int_equal(h_json_int(v, "seat"), seat);
        cJSON_Delete(v);
        char *picture = tafel_state_render(s, seat, seat < 0 ? TAFEL_RENDER_COLOR : 0);
        assert_non_null(picture);
        free(picture);
    }
    if (views) {
        /* and exactly the listed actions apply: every other number is refused */
        int every = m->positions % (16 * FULL_CHECK_EVERY) == 0;
        for (tafel_action a = 0; every && cur >= 0 && a < (tafel_action)m->max_actions; a++) {
            int listed = 0;
            for (int i = 0; i < n && !listed; i++) listed = legal[i] == a;
            if (tafel_state_is_legal(s, a) != listed)
                fail_msg("move %d: action %d is %s but %s", move, (int)a,
                         listed ? "listed" : "not listed", listed ? "refused" : "accepted");
        }
        check_bad_texts_are_refused(m, s, rng);
        check_inv(m, inv_check_views(&m->inv, s, rng), s);
        assert_null(tafel_state_view_json(s, m->players));
        double estimate[TAFEL_MAX_PLAYERS];
        tafel_state_heuristic(s, estimate);
        for (int p = 0; p < m->players; p++) assert_true(isfinite(estimate[p]));
    }
    /* the learners' calls: the mask is the legal list, tensors leak nothing */
    if (all) check_inv(m, inv_check_learners(&m->inv, s, rng, views), s);
    int count = all ? n : (n < SAMPLED_APPLIES ? n : SAMPLED_APPLIES);
    for (int j = 0; j < count; j++) {
        tafel_action a = all ? legal[j] : legal[tafel_rng_below(rng, (uint32_t)n)];
        tafel_state_copy(m->scratch, s);
        check_ok(tafel_state_apply(m->scratch, a, &err), &err, "a legal action", move);
        check_ok(tafel_state_check(m->scratch, &err), &err, "check after a legal action",
                 move);
        assert_int_equal(tafel_state_move_number(m->scratch), move + 1);
        m->applies++;
    }
    return n;
}

/* Play one random game to the end, checking everything on the way, then
** replay its texts (by hand and as a record) to the same final state. */
static void play_random_game(sim *m, const char *game_string, uint64_t seed) {
    tafel_state *s = h_state(game_string);
    uint64_t rng = tafel_rng_seed(seed);
    double last[TAFEL_MAX_PLAYERS] = {0}, now[TAFEL_MAX_PLAYERS];
    tafel_record *record = tafel_record_new(game_string, seed);
    assert_non_null(record);
    int moves = 0;
    uint64_t account_rng = tafel_rng_seed(seed ^ 0xacc0);
    inv_account_start(&m->inv, s);
    for (;;) {
        int n = check_position(m, s, &rng);
        if (m->carcassonne) check_carcassonne_view(m, s);
        if (m->cardcassonne) check_cardcassonne_view(m, s);
        tafel_state_scores(s, now);
        for (int p = 0; p < m->players; p++) {
            /* Catan's points can fall (a token changes hands, a building burns) */
            if (now[p] < last[p] && !m->catan)
                fail_msg("%s seed %llu: seat %d's score fell from %g to %g at move %d",
                         game_string, (unsigned long long)seed, p, last[p], now[p], moves);
            last[p] = now[p];
        }
        check_inv(m, inv_step(&m->inv, s, &rng, record), s); /* also by play_random */
        if (n == 0) break;
        /* the account of the action: points that add up, and for every
        ** seat now and then, nothing it may not see */
        check_inv(m, inv_check_account(&m->inv, s, &account_rng,
                                       moves % ACCOUNT_SEATS_EVERY == 0), s);
        moves++;
        if (moves >= MAX_ACTIONS_PER_GAME)
            fail_msg("%s seed %llu: no end after %d actions", game_string,
                     (unsigned long long)seed, moves);
    }

    /* The end: projected = scores, winners = the best seats (Cardcassonne:
    ** of those, the ones with most building cards). */
    double scores[TAFEL_MAX_PLAYERS], projected[TAFEL_MAX_PLAYERS];
    tafel_state_scores(s, scores);
    tafel_state_projected(s, projected);
    assert_memory_equal(scores, projected, sizeof scores[0] * (size_t)m->players);
    double best = scores[0], key[TAFEL_MAX_PLAYERS];
    for (int p = 1; p < m->players; p++) best = scores[p] > best ? scores[p] : best;
    cJSON *final = m->cardcassonne ? h_view(s, -1) : NULL;
    for (int p = 0; p < m->players; p++) {
        key[p] = scores[p] == best ? 0 : -1;
        if (final && key[p] == 0)
            key[p] = h_json_int(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(final, "seats"), p),
                                "chest_count");
    }
    cJSON_Delete(final);
    cJSON *catan_end = m->catan ? h_view(s, -1) : NULL;
    if (catan_end && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(catan_end, "draw")))
        for (int p = 0; p < m->players; p++) key[p] = 0;
    cJSON_Delete(catan_end);
    double best_key = -1;
    for (int p = 0; p < m->players; p++) best_key = key[p] > best_key ? key[p] : best_key;
    int winners[TAFEL_MAX_PLAYERS], w = tafel_state_winners(s, winners), k = 0;
    for (int p = 0; p < m->players; p++)
        if (key[p] == best_key) {
            assert_true(k < w);
            assert_int_equal(winners[k++], p);
        }
    assert_int_equal(w, k);

    /* Replaying the texts reproduces the state byte for byte, and so does
    ** the record, through JSON. */
    tafel_state *replay = h_state(game_string);
    for (int i = 0; i < moves; i++) {
        tafel_error err = {0};
        const char *text = tafel_record_action(record, i);
        check_ok(tafel_state_apply_text(replay, text, &err), &err, text, i);
    }
    assert_true(tafel_state_equal(replay, s));
    tafel_state_free(replay);
    check_inv(m, inv_check_record(&m->inv, record, s), s);
    tafel_record_free(record);
    tafel_state_free(s);
}

/* Runs the random games of one game string. */
static void run_variant(const char *name, const char *game_string, int players,
                        int games, uint64_t seed0) {
    tafel_game *g = h_game(game_string);
    sim m = {0};
    m.game_name = name;
    m.carcassonne = strcmp(name, "carcassonne") == 0;
    m.cardcassonne = strcmp(name, "cardcassonne") == 0;
    m.catan = strcmp(name, "catan_cards") == 0;
    m.players = players;
    m.tiles_total = strstr(game_string, "crop_circles=true") ? 78 : 72;
    m.max_actions = (size_t)tafel_game_max_actions(g);
    m.scratch = tafel_state_new(g);
    assert_int_equal(inv_init(&m.inv, g), TAFEL_OK);
    assert_non_null(m.scratch);
    assert_int_equal(tafel_game_players(g), players);
    for (int i = 0; i < games; i++) play_random_game(&m, tafel_game_string(g), seed0 + (uint64_t)i);
    assert_true(m.applies >= m.positions);
    /* every game speaks to learners, and the mask check saw actions */
    if (!m.inv.tensor_size[0] || !m.inv.tensor_size[1] || m.inv.space <= 0 || !m.inv.indexed)
        fail_msg("%s: tensors of %zu and %zu floats, an action space of %d, %ld actions "
                 "indexed", game_string, m.inv.tensor_size[0], m.inv.tensor_size[1],
                 m.inv.space, m.inv.indexed);
    /* Resampling a game with hidden cards must deal them anew now and then
    ** (or the view check above proves nothing). */
    if (m.cardcassonne && m.inv.resamples_changed * 4 < m.inv.resamples)
        fail_msg("%s: only %ld of %ld resamplings changed the state", game_string,
                 m.inv.resamples_changed, m.inv.resamples);
    inv_free(&m.inv);
    tafel_state_free(m.scratch);
    tafel_game_free(g);
}

/* Reads "players=2..5" and the boolean parameters ("x=true|false") from a
** game's parameter help. */
static void parse_help(const char *help, int *pmin, int *pmax, char bools[4][32], int *nb) {
    *pmin = *pmax = 2;
    *nb = 0;
    for (const char *line = help; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 255 ? len : 255), line);
        int a, b;
        char key[32];
        if (sscanf(buf, "players=%d..%d", &a, &b) == 2) {
            *pmin = a;
            *pmax = b;
        } else if (sscanf(buf, "%31[a-z_]=true|false", key) == 1 && strstr(buf, "=true|false") &&
                   *nb < 4) {
            snprintf(bools[(*nb)++], 32, "%s", key);
        }
        line = end ? end + 1 : NULL;
    }
}

static void test_random_games_of_every_game_keep_every_invariant(void **unused) {
    (void)unused;
    int ngames = 0;
    for (int i = 0; tafel_game_info(i, NULL, NULL, 0); i++) {
        char help[2048];
        const char *name = tafel_game_info(i, NULL, help, sizeof help);
        int pmin, pmax, nb;
        char bools[4][32];
        parse_help(help, &pmin, &pmax, bools, &nb);
        assert_true(pmin >= 1 && pmax <= TAFEL_MAX_PLAYERS && pmin <= pmax);
        if (strcmp(name, "carcassonne") == 0) {
            assert_int_equal(pmin, 2);
            assert_int_equal(pmax, 5);
            assert_true(nb >= 1); /* crop_circles */
        }
        for (int players = pmin; players <= pmax; players++) {
            for (int mask = 0; mask < (1 << nb); mask++) {
                char gs[256];
                int used = snprintf(gs, sizeof gs, "%s(players=%d", name, players);
                for (int b = 0; b < nb; b++)
                    used += snprintf(gs + used, sizeof gs - (size_t)used, ",%s=%s", bools[b],
                                     mask >> b & 1 ? "true" : "false");
                /* Catan's random games last hundreds of turns: fewer, shorter */
                int catan = strcmp(name, "catan_cards") == 0;
                snprintf(gs + used, sizeof gs - (size_t)used, "%s)", catan ? ",max_turns=60" : "");
                int games = GAMES_PER_VARIANT >> (nb > 1 ? nb - 1 : 0);
                if (catan) games /= 10;
                run_variant(name, gs, players, games > 2 ? games : 2,
                            (uint64_t)(1000 * i + 100 * players + mask) << 16);
                ngames += games;
            }
        }
    }
    assert_true(ngames >= (SLOW_BUILD ? 200 : 2000));
}

/* Variants that change the scoring rules only, a few games each. */
static void test_random_games_with_rule_options_keep_every_invariant(void **unused) {
    (void)unused;
    run_variant("carcassonne", "carcassonne(players=3,small_city=4,farmers=modern)", 3,
                SLOW_BUILD ? 3 : 40, 77);
    run_variant("carcassonne", "carcassonne(players=4,crop_circles=true,first=3)", 4,
                SLOW_BUILD ? 3 : 40, 78);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games_of_every_game_keep_every_invariant),
        cmocka_unit_test(test_random_games_with_rule_options_keep_every_invariant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
