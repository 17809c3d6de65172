/*
** tiles.c -- the tile table and turning tiles.
**
** The table itself is generated from the rules file (tile_table.inc, made by
** scripts/gen_tiles.py) so that the data is typed once; tests check it
** against the totals of rules §7.
*/
#include "tiles.h"

#include <string.h>

const carc_tile carc_tiles[CARC_TILE_TYPES] = {
#include "tile_table.inc"
};

static uint8_t edge_value(char c) {
    return c == 'C' ? CARC_EDGE_CITY : c == 'R' ? CARC_EDGE_ROAD : CARC_EDGE_FIELD;
}

uint8_t carc_tile_edge_code(int type, int rotation) {
    const char *e = carc_tiles[type].edges;
    uint8_t code = 0;
    for (int d = 0; d < 4; d++)
        code |= (uint8_t)(edge_value(e[d]) << (2 * ((d + rotation) & 3)));
    return code;
}

void carc_tile_orient(int type, int rotation, carc_oriented *out) {
    const carc_tile *t = &carc_tiles[type];
    memset(out->edge_seg, CARC_NO_SEGMENT, sizeof out->edge_seg);
    memset(out->half_seg, CARC_NO_SEGMENT, sizeof out->half_seg);
    out->edge_code = carc_tile_edge_code(type, rotation);
    for (int i = 0; i < t->nseg; i++) {
        const carc_segment *s = &t->seg[i];
        uint8_t e = rotation ? carc_rot4(s->edges, rotation) : s->edges;
        uint8_t h = rotation ? carc_rot8(s->halves, rotation) : s->halves;
        out->seg_edges[i] = e;
        out->seg_halves[i] = h;
        for (int d = 0; d < 4; d++)
            if (e >> d & 1) out->edge_seg[d] = (uint8_t)i;
        for (int k = 0; k < 8; k++)
            if (h >> k & 1) out->half_seg[k] = (uint8_t)i;
    }
}

int carc_tile_find(const char *id) {
    for (int i = 0; i < CARC_TILE_TYPES; i++)
        if (strcmp(carc_tiles[i].id, id) == 0) return i;
    return -1;
}
