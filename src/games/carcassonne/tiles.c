/*
** tiles.c -- the tile table and turning tiles.
**
** The tables are generated from the rules file (tile_table.inc and
** oriented_table.inc, made by scripts/gen_tiles.py) so that the data is
** typed once and no tile is turned at run time; tests check them against
** the totals of rules §7 and against each other.
*/
#include "tiles.h"

#include <string.h>

const carc_tile carc_tiles[CARC_TILE_TYPES] = {
#include "tile_table.inc"
};

const carc_oriented carc_oriented_table[CARC_TILE_TYPES][4] = {
#include "oriented_table.inc"
};

void carc_tile_orient(int type, int rotation, carc_oriented *out) {
    *out = carc_oriented_table[type][rotation];
}

int carc_tile_find(const char *id) {
    for (int i = 0; i < CARC_TILE_TYPES; i++)
        if (strcmp(carc_tiles[i].id, id) == 0) return i;
    return -1;
}
