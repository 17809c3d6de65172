/*
** test_carcassonne_tiles.c -- white-box checks of the tile table against
** rules/carcassonne.md §7: the totals the rules state for the base set, the
** shape of every segment (each edge and half-edge covered exactly once, as
** its edge letter says), and turning tiles with carc_tile_orient.
*/
#include "helpers.h"

#include "games/carcassonne/tiles.h"

#define ALL_TYPES for (int t = 0; t < CARC_TILE_TYPES; t++)
#define BASE_TYPES for (int t = 0; t < CARC_BASE_TYPES; t++)

static int popcount8(unsigned v) {
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

/* Base-set copies summed over segments of one kind, optionally only those
** whose (edges) popcount equals `edges` (-1: any). */
static int base_segments(int kind, int edges) {
    int total = 0;
    BASE_TYPES {
        const carc_tile *tile = &carc_tiles[t];
        for (int i = 0; i < tile->nseg; i++)
            if (tile->seg[i].kind == kind &&
                (edges < 0 || popcount8(tile->seg[i].edges) == edges))
                total += tile->count;
    }
    return total;
}

/* The rows of §7, typed again here: id, count, edges. */
static const struct {
    const char *id;
    int count;
    const char *edges;
    int crop;
} rules_rows[CARC_TILE_TYPES] = {
    {"A", 2, "FFRF", CARC_CROP_NONE},   {"B", 4, "FFFF", CARC_CROP_NONE},
    {"C", 1, "CCCC", CARC_CROP_NONE},   {"D", 4, "CRFR", CARC_CROP_NONE},
    {"E", 5, "CFFF", CARC_CROP_NONE},   {"F", 2, "FCFC", CARC_CROP_NONE},
    {"G", 1, "FCFC", CARC_CROP_NONE},   {"H", 3, "CFCF", CARC_CROP_NONE},
    {"I", 2, "CFFC", CARC_CROP_NONE},   {"J", 3, "CRRF", CARC_CROP_NONE},
    {"K", 3, "CFRR", CARC_CROP_NONE},   {"L", 3, "CRRR", CARC_CROP_NONE},
    {"M", 2, "CFFC", CARC_CROP_NONE},   {"N", 3, "CFFC", CARC_CROP_NONE},
    {"O", 2, "CRRC", CARC_CROP_NONE},   {"P", 3, "CRRC", CARC_CROP_NONE},
    {"Q", 1, "CCFC", CARC_CROP_NONE},   {"R", 3, "CCFC", CARC_CROP_NONE},
    {"S", 2, "CCRC", CARC_CROP_NONE},   {"T", 1, "CCRC", CARC_CROP_NONE},
    {"U", 8, "FRFR", CARC_CROP_NONE},   {"V", 9, "FFRR", CARC_CROP_NONE},
    {"W", 4, "FRRR", CARC_CROP_NONE},   {"X", 1, "RRRR", CARC_CROP_NONE},
    {"CC1", 1, "CFFC", CARC_CROP_KNIGHT}, {"CC2", 1, "CCFF", CARC_CROP_KNIGHT},
    {"CC3", 1, "CRFF", CARC_CROP_FARMER}, {"CC4", 1, "FFRR", CARC_CROP_ROBBER},
    {"CC5", 1, "CFRR", CARC_CROP_FARMER}, {"CC6", 1, "RFRR", CARC_CROP_ROBBER},
};

static void test_the_table_has_the_rows_of_rules_section_7(void **unused) {
    (void)unused;
    ALL_TYPES {
        assert_string_equal(carc_tiles[t].id, rules_rows[t].id);
        assert_int_equal(carc_tiles[t].count, rules_rows[t].count);
        assert_string_equal(carc_tiles[t].edges, rules_rows[t].edges);
        assert_int_equal(carc_tiles[t].crop, rules_rows[t].crop);
        assert_int_equal(carc_tile_find(rules_rows[t].id), t);
    }
    assert_int_equal(carc_tile_find("Z"), -1);
    assert_int_equal(carc_tile_find("CC7"), -1);
    assert_string_equal(carc_tiles[CARC_START_TYPE].id, "D");
}

static void test_the_base_set_has_72_tiles_and_6_crop_circles(void **unused) {
    (void)unused;
    int base = 0, crop = 0;
    BASE_TYPES base += carc_tiles[t].count;
    for (int t = CARC_BASE_TYPES; t < CARC_TILE_TYPES; t++) {
        assert_int_not_equal(carc_tiles[t].crop, CARC_CROP_NONE);
        crop += carc_tiles[t].count;
    }
    assert_int_equal(base, 72);
    assert_int_equal(crop, 6);
}

static void test_base_edge_totals_are_f115_r94_c79(void **unused) {
    (void)unused;
    int f = 0, r = 0, c = 0;
    BASE_TYPES {
        for (int d = 0; d < 4; d++) {
            char e = carc_tiles[t].edges[d];
            f += e == 'F' ? carc_tiles[t].count : 0;
            r += e == 'R' ? carc_tiles[t].count : 0;
            c += e == 'C' ? carc_tiles[t].count : 0;
        }
    }
    assert_int_equal(f, 115);
    assert_int_equal(r, 94);
    assert_int_equal(c, 79);
}

static void test_base_set_has_10_pennants_and_6_cloisters(void **unused) {
    (void)unused;
    int pennants = 0;
    BASE_TYPES {
        for (int i = 0; i < carc_tiles[t].nseg; i++)
            if (carc_tiles[t].seg[i].pennant) {
                assert_int_equal(carc_tiles[t].seg[i].kind, CARC_CITY);
                pennants += carc_tiles[t].count;
            }
    }
    assert_int_equal(pennants, 10);
    assert_int_equal(base_segments(CARC_CLOISTER, -1), 6);
}

static void test_base_segment_totals_49_cities_62_roads_126_fields(void **unused) {
    (void)unused;
    assert_int_equal(base_segments(CARC_CITY, -1), 49);
    assert_int_equal(base_segments(CARC_ROAD, -1), 62);
    assert_int_equal(base_segments(CARC_ROAD, 1), 30); /* ends on its tile */
    assert_int_equal(base_segments(CARC_FIELD, -1), 126);
}

/* A completed city of exactly 2 tiles is one single-edge city segment on
** each tile (two neighbours share one edge), so it can carry a pennant only
** if some single-edge city segment has one. */
static void test_no_single_edge_city_segment_has_a_pennant(void **unused) {
    (void)unused;
    ALL_TYPES {
        for (int i = 0; i < carc_tiles[t].nseg; i++) {
            const carc_segment *g = &carc_tiles[t].seg[i];
            if (g->kind == CARC_CITY && popcount8(g->edges) == 1 && g->pennant)
                fail_msg("tile %s segment %d: a cap with a pennant", carc_tiles[t].id, i);
        }
    }
}

/* Segments come cities, roads, fields, cloister; a field's borders name
** city segments only, and only a field borders anything. */
static void test_segments_are_ordered_and_fields_border_only_cities(void **unused) {
    (void)unused;
    ALL_TYPES {
        const carc_tile *tile = &carc_tiles[t];
        assert_true(tile->nseg >= 1 && tile->nseg <= CARC_MAX_SEGMENTS);
        unsigned cities = 0;
        for (int i = 0; i < tile->nseg; i++) {
            const carc_segment *g = &tile->seg[i];
            if (i > 0) assert_true(g->kind >= tile->seg[i - 1].kind);
            if (g->kind == CARC_CITY) cities |= 1u << i;
            if (g->kind != CARC_FIELD) assert_int_equal(g->borders, 0);
            if (g->kind != CARC_FIELD) assert_int_equal(g->halves, 0);
            if (g->kind == CARC_FIELD || g->kind == CARC_CLOISTER)
                assert_int_equal(g->edges, 0);
            if (g->kind != CARC_CITY) assert_int_equal(g->pennant, 0);
            if (g->kind == CARC_FIELD) {
                assert_int_not_equal(g->halves, 0);
                if (g->borders & ~cities)
                    fail_msg("tile %s field %d borders a non-city", tile->id, i);
            }
        }
        /* Every city of a tile that has fields is bordered by one of them. */
        unsigned bordered = 0;
        int fields = 0;
        for (int i = 0; i < tile->nseg; i++)
            if (tile->seg[i].kind == CARC_FIELD) {
                bordered |= tile->seg[i].borders;
                fields++;
            }
        if (fields) assert_int_equal(bordered, cities);
    }
}

/* Each edge is covered as its letter says: C by one city segment, R by one
** road segment with a field on each half, F by fields on both halves; each
** half by at most one field. */
static void test_every_edge_is_covered_once_as_its_letter_says(void **unused) {
    (void)unused;
    ALL_TYPES {
        const carc_tile *tile = &carc_tiles[t];
        int cloisters = 0;
        for (int d = 0; d < 4; d++) {
            int city = 0, road = 0, half[2] = {0, 0};
            for (int i = 0; i < tile->nseg; i++) {
                const carc_segment *g = &tile->seg[i];
                city += g->kind == CARC_CITY && (g->edges >> d & 1);
                road += g->kind == CARC_ROAD && (g->edges >> d & 1);
                half[0] += g->kind == CARC_FIELD && (g->halves >> (2 * d) & 1);
                half[1] += g->kind == CARC_FIELD && (g->halves >> (2 * d + 1) & 1);
            }
            char e = tile->edges[d];
            int ok = e == 'C'   ? city == 1 && road == 0 && !half[0] && !half[1]
                     : e == 'R' ? city == 0 && road == 1 && half[0] == 1 && half[1] == 1
                                : city == 0 && road == 0 && half[0] == 1 && half[1] == 1;
            if (!ok)
                fail_msg("tile %s edge %d '%c': %d cities, %d roads, halves %d %d",
                         tile->id, d, e, city, road, half[0], half[1]);
        }
        for (int i = 0; i < tile->nseg; i++)
            cloisters += tile->seg[i].kind == CARC_CLOISTER;
        assert_true(cloisters <= 1);
    }
}

/* Segment structure of an orientation as a sorted list, so orientations
** can be compared whatever the segment indices. */
static void shape(int t, int r, uint32_t out[CARC_MAX_SEGMENTS]) {
    carc_oriented o;
    carc_tile_orient(t, r, &o);
    int n = carc_tiles[t].nseg;
    for (int i = 0; i < CARC_MAX_SEGMENTS; i++)
        out[i] = i < n ? (uint32_t)carc_tiles[t].seg[i].kind << 16 |
                             (uint32_t)o.seg_edges[i] << 8 | o.seg_halves[i]
                       : 0xFFFFFFFFu;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint32_t tmp = out[j];
            out[j] = out[j - 1];
            out[j - 1] = tmp;
        }
}

/* `rotations` counts the distinct orientations: turning by it gives the
** same tile again, and no smaller turn does. */
static void test_rotations_count_the_distinct_orientations(void **unused) {
    (void)unused;
    ALL_TYPES {
        int k = carc_tiles[t].rotations;
        assert_true(k == 1 || k == 2 || k == 4);
        uint32_t s0[CARC_MAX_SEGMENTS], sr[CARC_MAX_SEGMENTS];
        shape(t, 0, s0);
        for (int r = 1; r < 4; r++) {
            shape(t, r, sr);
            int same = memcmp(s0, sr, sizeof s0) == 0;
            int same_code = carc_tile_edge_code(t, r) == carc_tile_edge_code(t, 0);
            if (same != (r % k == 0) || (r % k == 0 && !same_code))
                fail_msg("tile %s: rotations %d but orientation %d %s orientation 0",
                         carc_tiles[t].id, k, r, same ? "equals" : "differs from");
        }
    }
    assert_int_equal(carc_tiles[carc_tile_find("B")].rotations, 1);
    assert_int_equal(carc_tiles[carc_tile_find("U")].rotations, 2);
    assert_int_equal(carc_tiles[carc_tile_find("D")].rotations, 4);
}

static int edge_value(char c) {
    return c == 'C' ? CARC_EDGE_CITY : c == 'R' ? CARC_EDGE_ROAD : CARC_EDGE_FIELD;
}

/* Turning 90 degrees clockwise takes table edge d to board edge d+1 and
** half h to h+2, for every tile, segment and rotation. */
static void test_orient_turns_n_to_e_and_half_h_to_h_plus_2(void **unused) {
    (void)unused;
    ALL_TYPES {
        const carc_tile *tile = &carc_tiles[t];
        for (int r = 0; r < 4; r++) {
            carc_oriented o;
            carc_tile_orient(t, r, &o);
            assert_int_equal(o.edge_code, carc_tile_edge_code(t, r));
            for (int d = 0; d < 4; d++) {
                int b = (d + r) % 4;
                assert_int_equal((o.edge_code >> (2 * b)) & 3, edge_value(tile->edges[d]));
            }
            uint8_t edge_seg[4], half_seg[8];
            memset(edge_seg, CARC_NO_SEGMENT, sizeof edge_seg);
            memset(half_seg, CARC_NO_SEGMENT, sizeof half_seg);
            for (int i = 0; i < tile->nseg; i++) {
                const carc_segment *g = &tile->seg[i];
                for (int d = 0; d < 4; d++)
                    if (g->edges >> d & 1) edge_seg[(d + r) % 4] = (uint8_t)i;
                for (int h = 0; h < 8; h++)
                    if (g->halves >> h & 1) half_seg[(h + 2 * r) % 8] = (uint8_t)i;
            }
            assert_memory_equal(o.edge_seg, edge_seg, 4);
            assert_memory_equal(o.half_seg, half_seg, 8);
        }
    }
    /* One by hand: D turned 90 degrees has its city east, its road north
    ** and south, the city-side field on halves NNE and SSE. */
    carc_oriented o;
    carc_tile_orient(CARC_START_TYPE, 1, &o);
    assert_int_equal(o.edge_code, 1 | 2 << 2 | 1 << 4 | 0 << 6);
    assert_int_equal(o.edge_seg[CARC_E], 0);
    assert_int_equal(o.seg_edges[0], 1 << CARC_E);
    assert_int_equal(o.seg_edges[1], 1 << CARC_N | 1 << CARC_S);
    assert_int_equal(o.seg_halves[2], 1 << 1 | 1 << 4);
    assert_int_equal(o.half_seg[1], 2);
    assert_int_equal(o.half_seg[0], 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_table_has_the_rows_of_rules_section_7),
        cmocka_unit_test(test_the_base_set_has_72_tiles_and_6_crop_circles),
        cmocka_unit_test(test_base_edge_totals_are_f115_r94_c79),
        cmocka_unit_test(test_base_set_has_10_pennants_and_6_cloisters),
        cmocka_unit_test(test_base_segment_totals_49_cities_62_roads_126_fields),
        cmocka_unit_test(test_no_single_edge_city_segment_has_a_pennant),
        cmocka_unit_test(test_segments_are_ordered_and_fields_border_only_cities),
        cmocka_unit_test(test_every_edge_is_covered_once_as_its_letter_says),
        cmocka_unit_test(test_rotations_count_the_distinct_orientations),
        cmocka_unit_test(test_orient_turns_n_to_e_and_half_h_to_h_plus_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
