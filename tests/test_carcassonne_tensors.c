/*
** test_carcassonne_tensors.c -- Carcassonne for learners (issue 27): the
** observation tensor and the fixed action space (docs/tensors-carcassonne.md).
**
** Random games of 2 to 5 players, crop circles on and off, check at every
** state a seat moves in: the legal mask is exactly the indices of the legal
** actions; index and action map both ways; an index no legal action has is
** refused; the tensor has its shape's size, is deterministic, and differs
** between seats only in the parts told from the seat's side; the planes
** agree with the engine's state (white-box: tiles, followers, supplies).
** Bot games keep every legal action inside the window.  Every tile at every
** turn has one piece per position, and the planes of a tile fix its pieces.
** The worked example of the docs is checked entry by entry.
*/
#include "helpers.h"

#include "core/module.h"
#include "games/carcassonne/carcassonne.h"

static carc_state *data(tafel_state *s) { return tf_state_data(s); }

#define CELLS (CARC_WINDOW * CARC_WINDOW)

static int cell(int x, int y) { return (CARC_RADIUS - y) * CARC_WINDOW + x + CARC_RADIUS; }

/* A part's first float and size, by name; the test fails without it. */
static size_t part(const tafel_game *g, const char *name, size_t *size) {
    size_t offset, n;
    for (int i = 0;; i++) {
        const char *p = tafel_game_tensor_part(g, TAFEL_OBSERVATION, i, &offset, &n);
        if (!p) fail_msg("no tensor part %s", name);
        if (!strcmp(p, name)) break;
    }
    if (size) *size = n;
    return offset;
}

static float *tensor(const tafel_state *s, const tafel_game *g, int seat) {
    size_t n = tafel_game_tensor_size(g, TAFEL_OBSERVATION);
    float *t = malloc(n * sizeof *t);
    assert_non_null(t);
    tafel_error err = {0};
    if (tafel_state_observation_tensor(s, seat, t, n, &err) != TAFEL_OK)
        fail_msg("tensor of seat %d: %s", seat, err.message);
    return t;
}

/* ---- positions on a tile ---- */

static void test_every_segment_of_every_tile_has_its_own_position(void **unused) {
    (void)unused;
    for (int type = 0; type < CARC_TILE_TYPES; type++)
        for (int rot = 0; rot < 4; rot++) {
            const carc_tile *t = &carc_tiles[type];
            const carc_oriented *o = carc_orient(type, rot);
            int used = 0;
            for (int seg = 0; seg < t->nseg; seg++) {
                int pos = carc_segment_position(type, rot, seg);
                if (pos < 0 || pos >= CARC_POSITIONS)
                    fail_msg("%s rot %d: segment %d has no position", t->id, rot, seg);
                if (used >> pos & 1)
                    fail_msg("%s rot %d: two segments at position %d", t->id, rot, pos);
                used |= 1 << pos;
                assert_int_equal(carc_position_segment(type, rot, pos), seg);
                /* the kind goes with the position */
                int k = t->seg[seg].kind;
                if (k == CARC_CLOISTER) assert_int_equal(pos, CARC_POS_C);
                else if (k == CARC_FIELD)
                    assert_true(pos >= CARC_POS_NE && pos <= CARC_POS_NW);
                else {
                    assert_true(pos <= CARC_POS_W);
                    assert_int_equal(o->edge_seg[pos], seg);
                }
            }
            for (int pos = 0; pos < CARC_POSITIONS; pos++)
                if (!(used >> pos & 1))
                    assert_int_equal(carc_position_segment(type, rot, pos), -1);
            /* a corner's two half-edges, where both are field, are one field */
            for (int c = 0; c < 4; c++) {
                int a = o->half_seg[(2 * c + 1) & 7], b = o->half_seg[(2 * c + 2) & 7];
                if (a != CARC_NO_SEGMENT && b != CARC_NO_SEGMENT)
                    assert_int_equal(a, b);
            }
        }
}

/* The planes' view of a tile -- edge kinds, cloister, pennant, split city,
** crop circle -- fixes its pieces (kind, edges, half-edges, pennant) and its
** crop symbol: two turned tiles that look the same there are the same. */
typedef struct look {
    uint8_t code, cloister, pennant, split, crop;
} look;

static look look_of(int type, int rot) {
    const carc_tile *t = &carc_tiles[type];
    look l = {carc_tile_edge_code(type, rot), 0, 0, 0, t->crop != CARC_CROP_NONE};
    int cities = 0;
    for (int i = 0; i < t->nseg; i++) {
        l.cloister |= t->seg[i].kind == CARC_CLOISTER;
        l.pennant |= t->seg[i].pennant;
        cities += t->seg[i].kind == CARC_CITY;
    }
    l.split = cities > 1;
    return l;
}

/* The pieces as a set: a bit mask of (kind, edges, halves, pennant) found. */
static int same_pieces(int ta, int ra, int tb, int rb) {
    const carc_tile *a = &carc_tiles[ta], *b = &carc_tiles[tb];
    if (a->nseg != b->nseg || a->crop != b->crop) return 0;
    const carc_oriented *oa = carc_orient(ta, ra), *ob = carc_orient(tb, rb);
    for (int i = 0; i < a->nseg; i++) {
        int found = 0;
        for (int j = 0; j < b->nseg; j++)
            found |= a->seg[i].kind == b->seg[j].kind && oa->seg_edges[i] == ob->seg_edges[j] &&
                     oa->seg_halves[i] == ob->seg_halves[j] &&
                     a->seg[i].pennant == b->seg[j].pennant;
        if (!found) return 0;
    }
    return 1;
}

static void test_the_planes_of_a_tile_fix_its_pieces(void **unused) {
    (void)unused;
    for (int ta = 0; ta < CARC_TILE_TYPES; ta++)
        for (int ra = 0; ra < 4; ra++)
            for (int tb = 0; tb < CARC_TILE_TYPES; tb++)
                for (int rb = 0; rb < 4; rb++) {
                    look a = look_of(ta, ra), b = look_of(tb, rb);
                    if (memcmp(&a, &b, sizeof a)) continue;
                    if (!same_pieces(ta, ra, tb, rb))
                        fail_msg("%s at %d and %s at %d look alike but differ",
                                 carc_tiles[ta].id, ra * 90, carc_tiles[tb].id, rb * 90);
                }
}

/* ---- the worked example of docs/tensors-carcassonne.md ---- */

typedef struct entry {
    const char *part;
    int x, y;
    float value;
} entry;

static void test_worked_example_exact_entries(void **unused) {
    (void)unused;
    tafel_game *g = h_game("carcassonne(players=2,crop_circles=true)");
    tafel_state *s = tafel_state_new(g);
    play(s, "draw E", "place 0 1 180", "follower field NNW", "draw U", "place 1 0 0");
    /* seat 0 (Red) looks; Blue is to place a follower on the U */
    float *t = tensor(s, g, 0);
    static const entry board[] = {
        {"tile", 0, 0, 1}, {"tile", 0, 1, 1}, {"tile", 1, 0, 1},
        {"city_north", 0, 0, 1},   /* the start tile's city meets the E's */
        {"closed_north", 0, 0, 1}, /* ... and that 2-tile city is complete */
        {"road_east", -1, 0, 1},   /* the road: west end of the start tile */
        {"road_east", 0, 0, 1},    /* start tile - U */
        {"road_east", 1, 0, 1},    /* the U's east end */
        {"focus", 1, 0, 1},        /* the tile just placed */
        {"follower_N", 0, 1, 1},   /* Red's farmer: the E's field at */
        {"follower_E", 0, 1, 1},   /* corner NE, so edges N and E */
        {"followers_0", 0, 1, 1},  /* ... of the seat itself */
    };
    int nboard = (int)(sizeof board / sizeof board[0]);
    size_t nplanes = 0, first_vector = part(g, "pile", NULL);
    int marked[64 * CELLS] = {0};
    assert_true(first_vector <= sizeof marked / sizeof marked[0]);
    for (int i = 0; i < nboard; i++) {
        size_t at = part(g, board[i].part, NULL) + (size_t)cell(board[i].x, board[i].y);
        if (t[at] != board[i].value)
            fail_msg("%s at %d %d: %g, expected %g", board[i].part, board[i].x, board[i].y,
                     t[at], board[i].value);
        marked[at] = 1;
    }
    for (size_t i = 0; i < first_vector; i++)
        if (t[i] != 0) {
            nplanes++;
            if (!marked[i])
                fail_msg("plane %zu cell %zu: %g, expected 0", i / CELLS, i % CELLS, t[i]);
        }
    assert_int_equal(nplanes, nboard);
    /* the vector: the pile is the tile table minus the start D, an E, a U */
    size_t n, at = part(g, "pile", &n);
    assert_int_equal(n, CARC_TILE_TYPES);
    for (int type = 0; type < CARC_TILE_TYPES; type++) {
        int left = carc_tiles[type].count - (type == CARC_START_TYPE) -
                   !strcmp(carc_tiles[type].id, "E") - !strcmp(carc_tiles[type].id, "U");
        assert_int_equal((int)t[at + (size_t)type], left);
    }
    at = part(g, "in_hand", &n);
    for (size_t i = 0; i < n; i++) assert_true(t[at + i] == 0);
    static const struct {
        const char *part;
        float v[6];
    } vec[] = {
        {"scores", {0, 0}},        {"supply", {6, 7}},
        {"returned", {0, 0}},      {"to_move", {0, 1}}, /* Blue, one seat on */
        {"phase", {0, 0, 1, 0, 0, 0}}, /* follower */
        {"crop_symbol", {0, 0, 0}}, {"crop_mode", {0, 0}},
        {"options", {1, 0, 0}},    /* crop circles on, small city 2, 2000 farmers */
    };
    for (size_t k = 0; k < sizeof vec / sizeof vec[0]; k++) {
        at = part(g, vec[k].part, &n);
        for (size_t i = 0; i < n; i++)
            if (t[at + i] != vec[k].v[i])
                fail_msg("%s[%zu]: %g, expected %g", vec[k].part, i, t[at + i], vec[k].v[i]);
    }
    /* Blue sees the farmer as the next seat's, and itself to move */
    float *b = tensor(s, g, 1);
    assert_true(b[part(g, "followers_1", NULL) + (size_t)cell(0, 1)] == 1);
    assert_true(b[part(g, "followers_0", NULL) + (size_t)cell(0, 1)] == 0);
    assert_true(b[part(g, "supply", NULL)] == 7 && b[part(g, "supply", NULL) + 1] == 6);
    assert_true(b[part(g, "to_move", NULL)] == 1);
    /* the follower actions: pass, the road (E, its first edge), fields NE, SE */
    uint8_t mask[20000];
    int space = tafel_game_action_space_size(g);
    assert_true(space <= (int)sizeof mask);
    assert_int_equal(tafel_state_legal_actions_mask(s, mask, (size_t)space), 4);
    int follower = 4 * CELLS;
    assert_true(mask[follower + CARC_POS_E] && mask[follower + CARC_POS_NE] &&
                mask[follower + CARC_POS_SE] && mask[follower + CARC_POSITIONS]);
    tafel_action a;
    tafel_error err = {0};
    assert_int_equal(tafel_state_index_action(s, follower + CARC_POS_SE, &a, &err), TAFEL_OK);
    char text[64];
    tafel_action_to_text(s, a, text, sizeof text);
    assert_string_equal(text, "follower field ESE");
    free(t);
    free(b);
    tafel_state_free(s);
    tafel_game_free(g);
}

/* ---- random games: mask, both ways, tensors ---- */

typedef struct stats {
    long states, legal, outside, tensors;
} stats;

static int is_relative(const char *name) {
    return !strncmp(name, "followers_", 10) || !strcmp(name, "scores") ||
           !strcmp(name, "supply") || !strcmp(name, "returned") || !strcmp(name, "to_move");
}

/* seat's tensor is seat 0's with every relative part turned by seat. */
static void check_seats(const tafel_state *s, const tafel_game *g, const float *t0) {
    int players = tafel_game_players(g);
    size_t n = tafel_game_tensor_size(g, TAFEL_OBSERVATION);
    float *spectator = tensor(s, g, -1);
    assert_memory_equal(spectator, t0, n * sizeof *t0);
    free(spectator);
    for (int seat = 1; seat < players; seat++) {
        float *t = tensor(s, g, seat);
        size_t offset, size;
        const char *name;
        for (int i = 0; (name = tafel_game_tensor_part(g, TAFEL_OBSERVATION, i, &offset, &size));
             i++) {
            if (!is_relative(name)) {
                assert_memory_equal(t + offset, t0 + offset, size * sizeof *t);
                continue;
            }
            if (!strncmp(name, "followers_", 10)) {
                int r = atoi(name + 10);
                size_t from = part(g, "followers_0", NULL) +
                              (size_t)((seat + r) % players) * CELLS;
                assert_memory_equal(t + offset, t0 + from, size * sizeof *t);
            } else
                for (int r = 0; r < players; r++)
                    assert_true(t[offset + (size_t)r] ==
                                t0[offset + (size_t)((seat + r) % players)]);
        }
        free(t);
    }
}

/* The planes against the state itself. */
static void check_planes(tafel_state *st, const tafel_game *g, const float *t) {
    const carc_state *s = data(st);
    int players = s->players, inside = 0;
    float sum;
    for (int i = 0; i < s->ntiles; i++) {
        int x = s->tiles[i].x, y = s->tiles[i].y;
        if (abs(x) > CARC_RADIUS || abs(y) > CARC_RADIUS) continue;
        inside++;
        assert_true(t[part(g, "tile", NULL) + (size_t)cell(x, y)] == 1);
    }
    sum = 0;
    for (int c = 0; c < CELLS; c++) sum += t[part(g, "tile", NULL) + (size_t)c];
    assert_true(sum == inside);
    /* the start tile: city north, road east and west, field south */
    size_t c0 = (size_t)cell(0, 0);
    assert_true(t[part(g, "city_north", NULL) + c0] == 1);
    assert_true(t[part(g, "road_east", NULL) + c0] == 1);
    assert_true(t[part(g, "road_east", NULL) + c0 - 1] == 1);
    assert_true(t[part(g, "city_east", NULL) + c0] == 0);
    assert_true(t[part(g, "road_north", NULL) + c0 + CARC_WINDOW] == 0);
    assert_true(t[part(g, "city_north", NULL) + c0 + CARC_WINDOW] == 0);
    /* followers per owner, and their positions' weight (1 edge, 2 for a
    ** field's corner, 4 for a monk) */
    int owned[TAFEL_MAX_PLAYERS] = {0}, weight = 0;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        const carc_placed *p = &s->tiles[f->tile];
        if (abs(p->x) > CARC_RADIUS || abs(p->y) > CARC_RADIUS) continue;
        owned[f->player]++;
        int k = carc_tiles[p->type].seg[f->seg].kind;
        weight += k == CARC_FIELD ? 2 : k == CARC_CLOISTER ? 4 : 1;
    }
    size_t f0 = part(g, "followers_0", NULL), e0 = part(g, "follower_N", NULL);
    for (int r = 0; r < players; r++) {
        sum = 0;
        for (int c = 0; c < CELLS; c++) sum += t[f0 + (size_t)r * CELLS + (size_t)c];
        assert_true(sum == owned[r]); /* seat 0's view: relative = absolute */
    }
    sum = 0;
    for (int c = 0; c < 4 * CELLS; c++) sum += t[e0 + (size_t)c];
    assert_true(sum == weight);
    size_t sc = part(g, "scores", NULL), su = part(g, "supply", NULL);
    for (int p = 0; p < players; p++) {
        assert_true(t[sc + (size_t)p] == s->score[p]);
        assert_true(t[su + (size_t)p] == s->supply[p]);
    }
    size_t ph = part(g, "phase", NULL);
    assert_true(t[ph + s->phase] == 1);
}

static void check_actions(tafel_state *s, const tafel_game *g, stats *st, uint64_t *rng) {
    int space = tafel_game_action_space_size(g);
    static uint8_t mask[1 << 16];
    static tafel_action legal[4096];
    assert_true(space <= (int)sizeof mask);
    int n = tafel_state_legal_actions(s, legal, 4096);
    int count = tafel_state_legal_actions_mask(s, mask, (size_t)space);
    int inside = 0;
    tafel_error err = {0};
    for (int i = 0; i < n; i++) {
        int k = tafel_state_action_index(s, legal[i]);
        st->legal++;
        if (k < 0) {
            /* only a placement beyond the window has no index */
            assert_true(legal[i] >= CARC_ACT_PLACE);
            int key = (legal[i] - CARC_ACT_PLACE) / 4;
            assert_true(abs(carc_key_x((uint16_t)key)) > CARC_RADIUS ||
                        abs(carc_key_y((uint16_t)key)) > CARC_RADIUS);
            st->outside++;
            continue;
        }
        assert_true(k < space);
        assert_int_equal(mask[k], 1);
        inside++;
        tafel_action back;
        if (tafel_state_index_action(s, k, &back, &err) != TAFEL_OK)
            fail_msg("index %d of legal action %d: %s", k, legal[i], err.message);
        assert_int_equal(back, legal[i]);
    }
    assert_int_equal(count, inside);
    int ones = 0;
    for (int k = 0; k < space; k++) {
        if (!mask[k]) continue;
        ones++;
        tafel_action a;
        assert_int_equal(tafel_state_index_action(s, k, &a, &err), TAFEL_OK);
        assert_int_equal(tafel_state_action_index(s, a), k);
    }
    assert_int_equal(ones, count);
    /* indices of no legal action are refused */
    for (int j = 0; j < 8; j++) {
        int k = (int)tafel_rng_below(rng, (uint64_t)space);
        if (mask[k]) continue;
        tafel_action a;
        err.message[0] = 0;
        assert_int_equal(tafel_state_index_action(s, k, &a, &err), TAFEL_EILLEGAL);
        assert_true(err.message[0] != 0);
    }
}

static void random_games(const char *game, int games, stats *st) {
    tafel_game *g = h_game(game);
    size_t n = tafel_game_tensor_size(g, TAFEL_OBSERVATION), sum = 0, offset, size;
    int dims[TAFEL_TENSOR_MAX_RANK];
    int rank = tafel_game_tensor_shape(g, TAFEL_OBSERVATION, dims);
    assert_int_equal(rank, 1);
    assert_int_equal((size_t)dims[0], n);
    for (int i = 0; tafel_game_tensor_part(g, TAFEL_OBSERVATION, i, &offset, &size); i++) {
        assert_int_equal(offset, sum);
        sum += size;
    }
    assert_int_equal(sum, n);
    assert_int_equal(tafel_game_tensor_size(g, TAFEL_INFORMATION_STATE), n);
    uint64_t rng = 0x7e45 + (uint64_t)games;
    tafel_action scratch[4096];
    float *again = malloc(n * sizeof *again);
    assert_non_null(again);
    for (int k = 0; k < games; k++) {
        tafel_state *s = tafel_state_new(g);
        int step = 0;
        while (tafel_state_current(s) != TAFEL_TERMINAL) {
            if (tafel_state_current(s) >= 0) {
                st->states++;
                check_actions(s, g, st, &rng);
                /* tensors: a few states a game in full, every state cheaply */
                float *t = tensor(s, g, 0);
                tafel_error err = {0};
                assert_int_equal(tafel_state_information_state_tensor(s, 0, again, n, &err),
                                 TAFEL_OK);
                assert_memory_equal(t, again, n * sizeof *t); /* same, and again */
                check_planes(s, g, t);
                if (step++ % 16 == 0) check_seats(s, g, t);
                st->tensors++;
                free(t);
            } else {
                /* no index at a chance node */
                assert_int_equal(tafel_state_action_index(s, CARC_ACT_DRAW), -1);
            }
            tafel_state_play_random(s, &rng, scratch, 4096, NULL);
        }
        tafel_state_free(s);
    }
    free(again);
    tafel_game_free(g);
}

static void test_random_games_mask_both_ways_and_tensors(void **unused) {
    (void)unused;
    static const char *const games[] = {
        "carcassonne(players=2)", "carcassonne(players=2,crop_circles=true)",
        "carcassonne(players=3)", "carcassonne(players=3,crop_circles=true)",
        "carcassonne(players=4,farmers=modern)", "carcassonne(players=4,crop_circles=true)",
        "carcassonne(players=5,small_city=4)", "carcassonne(players=5,crop_circles=true)"};
    stats st = {0};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        random_games(games[i], SLOW_BUILD ? 3 : 25, &st);
    print_message("%ld states, %ld legal actions, %ld outside the window, %ld tensors\n",
                  st.states, st.legal, st.outside, st.tensors);
    assert_true(st.states > 1000);
}

/* Bots play compact boards: every legal action of their games is inside. */
static void test_bot_games_stay_inside_the_window(void **unused) {
    (void)unused;
    static const char *const games[] = {"carcassonne(players=2)",
                                        "carcassonne(players=5,crop_circles=true)"};
    for (size_t i = 0; i < 2; i++) {
        tafel_game *g = h_game(games[i]);
        int players = tafel_game_players(g);
        tafel_bot *bot[TAFEL_MAX_PLAYERS] = {0};
        tafel_error err = {0};
        for (int p = 0; p < players; p++)
            assert_int_equal(tafel_bot_new("greedy", g, 11 + (uint64_t)p, &bot[p], &err),
                             TAFEL_OK);
        uint64_t rng = 5;
        for (int k = 0; k < (SLOW_BUILD ? 1 : 2); k++) {
            tafel_state *s = tafel_state_new(g);
            stats st = {0};
            tafel_action scratch[4096];
            while (tafel_state_current(s) != TAFEL_TERMINAL) {
                int c = tafel_state_current(s);
                if (c < 0) {
                    tafel_state_play_random(s, &rng, scratch, 4096, NULL);
                    continue;
                }
                check_actions(s, g, &st, &rng);
                tafel_action a;
                assert_int_equal(tafel_bot_choose(bot[c], s, &a, &err), TAFEL_OK);
                assert_int_equal(tafel_state_apply(s, a, &err), TAFEL_OK);
            }
            assert_int_equal(st.outside, 0);
            tafel_state_free(s);
        }
        for (int p = 0; p < players; p++) tafel_bot_free(bot[p]);
        tafel_game_free(g);
    }
}

/* ---- bad arguments ---- */

static void test_bad_arguments_are_clear_errors(void **unused) {
    (void)unused;
    tafel_game *g = h_game("carcassonne(players=2)");
    tafel_state *s = tafel_state_new(g);
    size_t n = tafel_game_tensor_size(g, TAFEL_OBSERVATION);
    float *t = calloc(n + 1, sizeof *t);
    tafel_error err = {0};
    assert_int_equal(tafel_state_observation_tensor(s, 0, t, n + 1, &err), TAFEL_EINVAL);
    assert_non_null(strstr(err.message, "floats"));
    assert_int_equal(tafel_state_observation_tensor(s, 0, t, n - 1, &err), TAFEL_EINVAL);
    assert_int_equal(tafel_state_observation_tensor(s, 5, t, n, &err), TAFEL_EINVAL);
    assert_non_null(strstr(err.message, "seat 5"));
    assert_int_equal(tafel_state_observation_tensor(s, -2, t, n, &err), TAFEL_EINVAL);
    assert_int_equal(tafel_state_information_state_tensor(s, 2, t, n, &err), TAFEL_EINVAL);
    assert_int_equal(tafel_state_observation_tensor(s, 0, NULL, n, &err), TAFEL_EINVAL);
    /* a chance node: no index, no action, an empty mask */
    tafel_action a;
    assert_int_equal(tafel_state_index_action(s, 0, &a, &err), TAFEL_EINVAL);
    assert_int_equal(tafel_state_action_index(s, CARC_ACT_DRAW + 3), -1);
    int space = tafel_game_action_space_size(g);
    uint8_t *mask = malloc((size_t)space);
    assert_int_equal(tafel_state_legal_actions_mask(s, mask, (size_t)space), 0);
    play(s, "draw U");
    assert_int_equal(tafel_state_legal_actions_mask(s, mask, 10), -1); /* too small */
    assert_int_equal(tafel_state_index_action(s, -1, &a, &err), TAFEL_EINVAL);
    assert_int_not_equal(tafel_state_index_action(s, space, &a, &err), TAFEL_OK);
    /* an action of another phase has no index now */
    assert_int_equal(tafel_state_action_index(s, CARC_ACT_PASS), -1);
    assert_int_equal(tafel_state_action_index(s, CARC_ACT_PLACE + carc_key(5, 5) * 4), -1);
    int dims[TAFEL_TENSOR_MAX_RANK];
    assert_int_equal(tafel_game_tensor_shape(g, 7, dims), -1);
    int parts = 0;
    while (tafel_game_tensor_part(g, TAFEL_OBSERVATION, parts, NULL, NULL)) parts++;
    assert_int_equal(parts, 16 + 2 + 10); /* planes, owners, the vector's parts */
    free(mask);
    free(t);
    tafel_state_free(s);
    tafel_game_free(g);
}

/* The sizes of the docs. */
static void test_sizes_as_documented(void **unused) {
    (void)unused;
    for (int players = 2; players <= 5; players++) {
        char name[64];
        snprintf(name, sizeof name, "carcassonne(players=%d)", players);
        tafel_game *g = h_game(name);
        assert_int_equal(tafel_game_action_space_size(g), 22 * CELLS + 12);
        assert_int_equal(tafel_game_tensor_size(g, TAFEL_OBSERVATION),
                         (size_t)(16 + players) * CELLS + 74 + 4 * (size_t)players);
        tafel_game_free(g);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_segment_of_every_tile_has_its_own_position),
        cmocka_unit_test(test_the_planes_of_a_tile_fix_its_pieces),
        cmocka_unit_test(test_worked_example_exact_entries),
        cmocka_unit_test(test_sizes_as_documented),
        cmocka_unit_test(test_bad_arguments_are_clear_errors),
        cmocka_unit_test(test_random_games_mask_both_ways_and_tensors),
        cmocka_unit_test(test_bot_games_stay_inside_the_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
