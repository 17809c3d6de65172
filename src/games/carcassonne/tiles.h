/*
** tiles.h -- the Carcassonne land tiles as data (rules/carcassonne.md §7).
**
** A tile type is a list of segments in table orientation: city and road
** segments know the edges they touch, field segments the half-edges they
** touch and the city segments they border.  Segments are ordered cities,
** roads, fields, cloister, so a field's "borders" bits are segment indices.
** Placed tiles are turned with carc_tile_orient, which gives the segment on
** every edge and half-edge in board orientation.
*/
#ifndef CARC_TILES_H
#define CARC_TILES_H

#include <stdint.h>

enum { CARC_CITY, CARC_ROAD, CARC_FIELD, CARC_CLOISTER };
/* Crop circle symbols, by the follower kind they concern (§4). */
enum { CARC_CROP_NONE, CARC_CROP_KNIGHT, CARC_CROP_ROBBER, CARC_CROP_FARMER };

enum { CARC_N, CARC_E, CARC_S, CARC_W };

#define CARC_MAX_SEGMENTS 8
#define CARC_TILE_TYPES 30
#define CARC_BASE_TYPES 24
#define CARC_START_TYPE 3 /* D */
#define CARC_NO_SEGMENT 0xFF

typedef struct carc_segment {
    uint8_t kind;    /* CARC_CITY .. CARC_CLOISTER */
    uint8_t edges;   /* city, road: bit e for edge e (N=0 E=1 S=2 W=3) */
    uint8_t halves;  /* field: bit h for half-edge h (0 NNW .. 7 WNW) */
    uint8_t pennant; /* city: 1 with a pennant */
    uint8_t borders; /* field: bit i when it borders city segment i */
} carc_segment;

typedef struct carc_tile {
    const char *id;
    uint8_t count;     /* copies in the game (the start tile among the D) */
    char edges[5];     /* "CRFR": N E S W in table orientation */
    uint8_t crop;      /* CARC_CROP_* */
    uint8_t rotations; /* distinct orientations: 1, 2 or 4 */
    uint8_t nseg;
    carc_segment seg[CARC_MAX_SEGMENTS];
} carc_tile;

extern const carc_tile carc_tiles[CARC_TILE_TYPES];

/* A tile type turned to a rotation (0..3 quarter turns clockwise). */
typedef struct carc_oriented {
    uint8_t edge_code;              /* 2 bits per edge, N in bits 0-1 */
    uint8_t edge_seg[4];            /* city/road segment on edge, or NO_SEGMENT */
    uint8_t half_seg[8];            /* field segment on half, or NO_SEGMENT */
    uint8_t seg_edges[CARC_MAX_SEGMENTS];  /* board-orientation edge bits */
    uint8_t seg_halves[CARC_MAX_SEGMENTS]; /* board-orientation half bits */
} carc_oriented;

/* 2-bit edge codes: field 0, road 1, city 2. */
enum { CARC_EDGE_FIELD = 0, CARC_EDGE_ROAD = 1, CARC_EDGE_CITY = 2 };

/* Every type at every rotation, generated with the tile table. */
extern const carc_oriented carc_oriented_table[CARC_TILE_TYPES][4];

static inline const carc_oriented *carc_orient(int type, int rotation) {
    return &carc_oriented_table[type][rotation];
}
static inline uint8_t carc_tile_edge_code(int type, int rotation) {
    return carc_oriented_table[type][rotation].edge_code;
}
/* A copy of carc_orient's entry, for callers that want their own. */
void carc_tile_orient(int type, int rotation, carc_oriented *out);
/* Type index of an id ("CC3"), or -1. */
int carc_tile_find(const char *id);

static inline uint8_t carc_rot4(uint8_t mask, int r) {
    return (uint8_t)(((mask << r) | (mask >> (4 - r))) & 0xF);
}
static inline uint8_t carc_rot8(uint8_t mask, int r) {
    return (uint8_t)(((mask << (2 * r)) | (mask >> (8 - 2 * r))) & 0xFF);
}

#endif
