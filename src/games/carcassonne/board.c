/*
** board.c -- where tiles may go, and putting them there (rules §2.1).
**
** A position is empty, occupied, or on the frontier (empty with at least
** one tile next to it).  The frontier is a sorted array of position keys;
** with each key it keeps the edge codes its neighbours demand (freq) and
** which of its edges have a neighbour at all (fmask).  A tile at a rotation
** fits a frontier position when ((code ^ freq) & fmask) == 0, so listing
** the legal placements is one pass over the frontier, already in action
** order.  Tiles are found by position through a 256-slot open-addressing
** hash (at most 78 tiles, so it stays under a third full).
*/
#include "carcassonne.h"

#include <string.h>

const int8_t carc_dx[4] = {0, 1, 0, -1};
const int8_t carc_dy[4] = {1, 0, -1, 0};

static unsigned hash_slot(uint16_t key) {
    return (unsigned)((key * 2654435761u) >> 24) & (CARC_HASH_SIZE - 1);
}

int carc_board_at(const carc_state *s, int x, int y) {
    if (x < -120 || x > 120 || y < -120 || y > 120) return -1;
    uint16_t key = carc_key(x, y);
    for (unsigned i = hash_slot(key);; i = (i + 1) & (CARC_HASH_SIZE - 1)) {
        int t = s->hash[i];
        if (!t) return -1;
        const carc_placed *p = &s->tiles[t - 1];
        if (p->x == x && p->y == y) return t - 1;
    }
}

static void hash_insert(carc_state *s, int tile) {
    uint16_t key = carc_key(s->tiles[tile].x, s->tiles[tile].y);
    unsigned i = hash_slot(key);
    while (s->hash[i]) i = (i + 1) & (CARC_HASH_SIZE - 1);
    s->hash[i] = (uint8_t)(tile + 1);
}

/* Index of key in the frontier, or -(insertion point) - 1. */
static int frontier_find(const carc_state *s, uint16_t key) {
    int lo = 0, hi = s->nfrontier;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (s->fkey[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return (lo < s->nfrontier && s->fkey[lo] == key) ? lo : -lo - 1;
}

static void frontier_remove(carc_state *s, int i) {
    int tail = s->nfrontier - i - 1;
    memmove(&s->fkey[i], &s->fkey[i + 1], (size_t)tail * sizeof s->fkey[0]);
    memmove(&s->freq[i], &s->freq[i + 1], (size_t)tail);
    memmove(&s->fmask[i], &s->fmask[i + 1], (size_t)tail);
    s->nfrontier--;
}

static int frontier_insert(carc_state *s, uint16_t key) {
    int i = frontier_find(s, key);
    if (i >= 0) return i;
    i = -i - 1;
    int tail = s->nfrontier - i;
    memmove(&s->fkey[i + 1], &s->fkey[i], (size_t)tail * sizeof s->fkey[0]);
    memmove(&s->freq[i + 1], &s->freq[i], (size_t)tail);
    memmove(&s->fmask[i + 1], &s->fmask[i], (size_t)tail);
    s->fkey[i] = key;
    s->freq[i] = s->fmask[i] = 0;
    s->nfrontier++;
    return i;
}

void carc_board_place(carc_state *s, int type, int x, int y, int rot) {
    int tile = s->ntiles++;
    s->tiles[tile] = (carc_placed){(int8_t)x, (int8_t)y, (uint8_t)type, (uint8_t)rot};
    hash_insert(s, tile);
    int f = frontier_find(s, carc_key(x, y));
    if (f >= 0) frontier_remove(s, f);
    uint8_t code = carc_tile_edge_code(type, rot);
    for (int d = 0; d < 4; d++) {
        int nx = x + carc_dx[d], ny = y + carc_dy[d];
        if (carc_board_at(s, nx, ny) >= 0) continue;
        int i = frontier_insert(s, carc_key(nx, ny));
        int back = (d + 2) & 3; /* the neighbour's edge that faces us */
        s->fmask[i] |= (uint8_t)(3 << (2 * back));
        s->freq[i] |= (uint8_t)(((code >> (2 * d)) & 3) << (2 * back));
    }
    carc_features_add_tile(s, tile);
}

void carc_board_init(carc_state *s) {
    s->ntiles = 0;
    s->nfrontier = 0;
    memset(s->hash, 0, sizeof s->hash);
    carc_board_place(s, CARC_START_TYPE, 0, 0, 0);
}

int carc_board_fits(const carc_state *s, int type, int x, int y, int rot) {
    if (x < -120 || x > 120 || y < -120 || y > 120) return 0;
    int i = frontier_find(s, carc_key(x, y));
    if (i < 0) return 0;
    uint8_t code = carc_tile_edge_code(type, rot);
    return ((code ^ s->freq[i]) & s->fmask[i]) == 0;
}

int carc_board_placements(const carc_state *s, int type, tafel_action *out, int cap) {
    int rots = carc_tiles[type].rotations, n = 0;
    uint8_t code[4];
    for (int r = 0; r < 4; r++) code[r] = carc_tile_edge_code(type, r);
    if (cap >= 4 * s->nfrontier) {
        /* the hot path of every game: write always, count only fits */
        for (int i = 0; i < s->nfrontier; i++) {
            uint8_t req = s->freq[i], mask = s->fmask[i];
            tafel_action base = CARC_ACT_PLACE + s->fkey[i] * 4;
            for (int r = 0; r < rots; r++) {
                out[n] = base + r;
                n += ((code[r] ^ req) & mask) == 0;
            }
        }
        return n;
    }
    for (int i = 0; i < s->nfrontier; i++) {
        uint8_t req = s->freq[i], mask = s->fmask[i];
        for (int r = 0; r < rots; r++) {
            if ((code[r] ^ req) & mask) continue;
            if (n < cap) out[n] = CARC_ACT_PLACE + s->fkey[i] * 4 + r;
            n++;
        }
    }
    return n;
}

int carc_board_can_place(const carc_state *s, int type) {
    int rots = carc_tiles[type].rotations;
    uint8_t code[4];
    for (int r = 0; r < 4; r++) code[r] = carc_tile_edge_code(type, r);
    for (int i = 0; i < s->nfrontier; i++)
        for (int r = 0; r < rots; r++)
            if (((code[r] ^ s->freq[i]) & s->fmask[i]) == 0) return 1;
    return 0;
}

/* Filled positions among the 8 around (x, y), for cloisters. */
int carc_board_neighbours8(const carc_state *s, int x, int y) {
    int n = 0;
    for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++)
            if ((dx || dy) && carc_board_at(s, x + dx, y + dy) >= 0) n++;
    return n;
}
