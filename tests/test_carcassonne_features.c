/*
** test_carcassonne_features.c -- the incremental features against a brute
** force.
**
** features.c keeps roads, cities and fields as a union-find updated tile by
** tile.  Here, after every placement of many random games, the features are
** found again from nothing (a flood fill over segments, with the tiles
** turned by the bit rotations of tiles.h rather than the generated tables),
** and both partitions must agree, as must the tiles and pennants a feature
** counts.  Final scoring is recomputed from the flood fill too, and must
** give the engine's projected scores.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "games/carcassonne/carcassonne.h"

/* segment of tile i touching board edge d / board half h, turned by hand */
static int seg_on_edge(const carc_state *s, int i, int d) {
    const carc_tile *t = &carc_tiles[s->tiles[i].type];
    for (int g = 0; g < t->nseg; g++)
        if (carc_rot4(t->seg[g].edges, s->tiles[i].rot) >> d & 1) return g;
    return -1;
}
static int seg_on_half(const carc_state *s, int i, int h) {
    const carc_tile *t = &carc_tiles[s->tiles[i].type];
    for (int g = 0; g < t->nseg; g++)
        if (t->seg[g].kind == CARC_FIELD && carc_rot8(t->seg[g].halves, s->tiles[i].rot) >> h & 1)
            return g;
    return -1;
}

static int tile_at(const carc_state *s, int x, int y) {
    for (int i = 0; i < s->ntiles; i++)
        if (s->tiles[i].x == x && s->tiles[i].y == y) return i;
    return -1;
}

/* Label every node by flood fill; label[n] = smallest node of its feature. */
static void flood(const carc_state *s, int *label) {
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {1, 0, -1, 0};
    for (int n = 0; n < CARC_NODES; n++) label[n] = -1;
    int stack[CARC_NODES];
    for (int start = 0; start < s->ntiles * CARC_MAX_SEGMENTS; start++) {
        if (start % CARC_MAX_SEGMENTS >= carc_tiles[s->tiles[start / CARC_MAX_SEGMENTS].type].nseg)
            continue;
        if (label[start] >= 0) continue;
        int top = 0;
        stack[top++] = start;
        label[start] = start;
        while (top) {
            int n = stack[--top], i = n / CARC_MAX_SEGMENTS, g = n % CARC_MAX_SEGMENTS;
            const carc_segment *seg = &carc_tiles[s->tiles[i].type].seg[g];
            for (int d = 0; d < 4; d++) {
                int j = tile_at(s, s->tiles[i].x + dx[d], s->tiles[i].y + dy[d]);
                if (j < 0) continue;
                int links[2], nl = 0;
                if ((seg->kind == CARC_CITY || seg->kind == CARC_ROAD) &&
                    (carc_rot4(seg->edges, s->tiles[i].rot) >> d & 1))
                    links[nl++] = seg_on_edge(s, j, (d + 2) & 3);
                if (seg->kind == CARC_FIELD)
                    for (int h = 2 * d; h <= 2 * d + 1; h++)
                        if (carc_rot8(seg->halves, s->tiles[i].rot) >> h & 1)
                            links[nl++] = seg_on_half(s, j, ((d & 1 ? 9 : 5) - h) & 7);
                for (int k = 0; k < nl; k++) {
                    int m = j * CARC_MAX_SEGMENTS + links[k];
                    assert_true(links[k] >= 0);
                    if (label[m] < 0) {
                        label[m] = start;
                        stack[top++] = m;
                    }
                }
            }
        }
    }
}

static void compare(const carc_state *s) {
    int label[CARC_NODES];
    flood(s, label);
    for (int a = 0; a < s->ntiles * CARC_MAX_SEGMENTS; a++) {
        if (label[a] < 0) continue;
        /* same feature by flood fill <=> same root */
        assert_int_equal(carc_find(s, a), carc_find(s, label[a]));
        int root = carc_find(s, a);
        assert_int_equal(label[root], label[a]);
    }
    /* distinct tiles and pennants of each city/road, counted by brute force */
    for (int r = 0; r < s->ntiles * CARC_MAX_SEGMENTS; r++) {
        if (label[r] != r) continue;
        int kind = carc_segment_kind(s, r);
        if (kind != CARC_CITY && kind != CARC_ROAD) continue;
        int tiles = 0, pennants = 0, got_pennants;
        for (int i = 0; i < s->ntiles; i++) {
            int in = 0;
            for (int g = 0; g < carc_tiles[s->tiles[i].type].nseg; g++)
                if (label[i * CARC_MAX_SEGMENTS + g] == r) {
                    in = 1;
                    pennants += carc_tiles[s->tiles[i].type].seg[g].pennant;
                }
            tiles += in;
        }
        assert_int_equal(carc_feature_tiles(s, carc_find(s, r), &got_pennants), tiles);
        assert_int_equal(got_pennants, pennants);
    }
}

/* 1 when the city or road labelled r has an edge with no tile beyond it. */
static int is_open(const carc_state *s, const int *label, int r) {
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {1, 0, -1, 0};
    for (int i = 0; i < s->ntiles; i++)
        for (int g = 0; g < carc_tiles[s->tiles[i].type].nseg; g++) {
            if (label[i * CARC_MAX_SEGMENTS + g] != r) continue;
            unsigned edges = carc_rot4(carc_tiles[s->tiles[i].type].seg[g].edges, s->tiles[i].rot);
            for (int d = 0; d < 4; d++)
                if ((edges >> d & 1) && tile_at(s, s->tiles[i].x + dx[d], s->tiles[i].y + dy[d]) < 0)
                    return 1;
        }
    return 0;
}

static int distinct_tiles(const carc_state *s, const int *label, int r, int *pennants) {
    int tiles = 0;
    *pennants = 0;
    for (int i = 0; i < s->ntiles; i++) {
        int in = 0;
        for (int g = 0; g < carc_tiles[s->tiles[i].type].nseg; g++)
            if (label[i * CARC_MAX_SEGMENTS + g] == r) {
                in = 1;
                *pennants += carc_tiles[s->tiles[i].type].seg[g].pennant;
            }
        tiles += in;
    }
    return tiles;
}

/* Pay points to the majority of the given per-player counts. */
static void pay(int players, const int *count, int points, int *out) {
    int best = 0;
    for (int p = 0; p < players; p++) best = count[p] > best ? count[p] : best;
    for (int p = 0; p < players && best; p++)
        if (count[p] == best) out[p] += points;
}

/* Final scoring (rules §5, first-edition farmers) from the flood fill, with
** none of scoring.c: what the scores would be if the game ended now. */
static void brute_force_final(const carc_state *s, int *out) {
    int label[CARC_NODES];
    flood(s, label);
    for (int p = 0; p < s->players; p++) out[p] = s->score[p];
    int done[CARC_MAX_FOLLOWERS], ndone = 0;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        int r = label[f->tile * CARC_MAX_SEGMENTS + f->seg], seen = 0;
        int kind = carc_tiles[s->tiles[f->tile].type].seg[f->seg].kind;
        for (int j = 0; j < ndone; j++) seen |= done[j] == r;
        if (seen || kind == CARC_FIELD) continue;
        done[ndone++] = r;
        int count[TAFEL_MAX_PLAYERS] = {0};
        for (int j = 0; j < s->nfollowers; j++)
            if (label[s->followers[j].tile * CARC_MAX_SEGMENTS + s->followers[j].seg] == r)
                count[s->followers[j].player]++;
        int pennants, tiles = distinct_tiles(s, label, r, &pennants), points;
        if (kind == CARC_CLOISTER) {
            points = 1;
            for (int dx = -1; dx <= 1; dx++)
                for (int dy = -1; dy <= 1; dy++)
                    points += (dx || dy) && tile_at(s, s->tiles[f->tile].x + dx,
                                                    s->tiles[f->tile].y + dy) >= 0;
        } else {
            assert_true(is_open(s, label, r)); /* complete ones scored in play */
            points = kind == CARC_ROAD ? tiles : tiles + pennants;
        }
        pay(s->players, count, points, out);
    }
    /* farmers: city by city */
    for (int c = 0; c < s->ntiles * CARC_MAX_SEGMENTS; c++) {
        int tile = c / CARC_MAX_SEGMENTS, g = c % CARC_MAX_SEGMENTS;
        if (g >= carc_tiles[s->tiles[tile].type].nseg || label[c] != c) continue;
        if (carc_tiles[s->tiles[tile].type].seg[g].kind != CARC_CITY || is_open(s, label, c))
            continue;
        int count[TAFEL_MAX_PLAYERS] = {0};
        for (int j = 0; j < s->nfollowers; j++) {
            const carc_follower *f = &s->followers[j];
            if (carc_tiles[s->tiles[f->tile].type].seg[f->seg].kind != CARC_FIELD) continue;
            int field = label[f->tile * CARC_MAX_SEGMENTS + f->seg], borders = 0;
            for (int i = 0; i < s->ntiles && !borders; i++) {
                const carc_tile *t = &carc_tiles[s->tiles[i].type];
                for (int k = 0; k < t->nseg; k++)
                    for (int b = 0; b < 8; b++)
                        if (label[i * CARC_MAX_SEGMENTS + k] == field && (t->seg[k].borders >> b & 1) &&
                            label[i * CARC_MAX_SEGMENTS + b] == c)
                            borders = 1;
            }
            count[f->player] += borders;
        }
        pay(s->players, count, 4, out);
    }
}

/* Random 3-player games with crop circles; after each action, visit(state,
** action, rng).  With keen, a follower is placed whenever one may be, so
** fields fill with farmers. */
typedef void visit_fn(tafel_state *st, tafel_action a, uint64_t *rng, int *count);

static int random_games(int games, uint64_t seed, int keen, visit_fn *visit) {
    tafel_game *g;
    assert_int_equal(tafel_game_load("carcassonne(players=3,crop_circles=true)", &g, NULL), 0);
    tafel_state *st = tafel_state_new(g);
    tafel_action acts[1024];
    uint64_t rng = tafel_rng_seed(seed);
    int count = 0;
    for (int game = 0; game < games; game++) {
        tafel_state_init(g, st);
        while (tafel_state_current(st) != TAFEL_TERMINAL) {
            tafel_action a;
            if (tafel_state_current(st) == TAFEL_CHANCE) {
                assert_int_equal(tafel_state_sample_chance(st, &rng, &a), 0);
            } else {
                uint32_t n = (uint32_t)tafel_state_legal_actions(st, acts, 1024), skip = 0;
                if (keen && n > 1 && acts[0] == CARC_ACT_PASS) skip = 1;
                a = acts[skip + tafel_rng_below(&rng, n - skip)];
            }
            assert_int_equal(tafel_state_apply(st, a, NULL), 0);
            visit(st, a, &rng, &count);
        }
    }
    tafel_state_free(st);
    tafel_game_free(g);
    return count;
}

static void compare_after_placement(tafel_state *st, tafel_action a, uint64_t *rng, int *count) {
    (void)rng;
    if (a < CARC_ACT_PLACE) return;
    compare(tf_state_data(st));
    (*count)++;
}

static void incremental_features_match_a_flood_fill(void **unused) {
    (void)unused;
    assert_true(random_games(40, 42, 0, compare_after_placement) > 2000);
}

/* At about one draw in 8: the projected scores against brute_force_final. */
static void compare_projection(tafel_state *st, tafel_action a, uint64_t *rng, int *count) {
    (void)a;
    if (tafel_state_current(st) != TAFEL_CHANCE || tafel_rng_below(rng, 8)) return;
    int want[TAFEL_MAX_PLAYERS];
    double got[TAFEL_MAX_PLAYERS];
    brute_force_final(tf_state_data(st), want);
    tafel_state_projected(st, got);
    for (int p = 0; p < 3; p++) assert_int_equal((int)got[p], want[p]);
    (*count)++;
}

static void projected_scores_match_a_brute_force(void **unused) {
    (void)unused;
    assert_true(random_games(60, 7, 1, compare_projection) > 500);
}

/* The generated orientation table equals turning the table-orientation
** segments by hand. */
static void oriented_table_matches_rotation(void **unused) {
    (void)unused;
    for (int t = 0; t < CARC_TILE_TYPES; t++)
        for (int r = 0; r < 4; r++) {
            const carc_oriented *o = carc_orient(t, r);
            const carc_tile *tile = &carc_tiles[t];
            for (int g = 0; g < tile->nseg; g++) {
                assert_int_equal(o->seg_edges[g], carc_rot4(tile->seg[g].edges, r));
                assert_int_equal(o->seg_halves[g], carc_rot8(tile->seg[g].halves, r));
            }
            for (int d = 0; d < 4; d++) {
                char letter = tile->edges[(d - r + 4) & 3];
                int code = (o->edge_code >> (2 * d)) & 3;
                assert_int_equal(code, letter == 'C' ? 2 : letter == 'R' ? 1 : 0);
            }
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(incremental_features_match_a_flood_fill),
        cmocka_unit_test(projected_scores_match_a_brute_force),
        cmocka_unit_test(oriented_table_matches_rotation),
    };
    return cmocka_run_group_tests_name("carcassonne features", tests, NULL, NULL);
}
