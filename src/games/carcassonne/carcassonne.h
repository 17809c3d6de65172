/*
** carcassonne.h -- the Carcassonne state and the functions its files share.
**
** The state is one flat struct (no pointers), about 5 KB:
**   - the board: placed tiles in placement order, a small open-addressing
**     hash from position to tile, and the frontier (empty positions next to
**     a tile) kept sorted with the edge codes each position requires, so
**     legal placements are a scan of the frontier with one mask test each;
**   - features: a union-find over segment nodes (tile index * 8 + segment).
**     Each root holds the feature's open edge count and follower count; a
**     circular member list (next[]) lets scoring visit exactly one feature;
**   - followers: a list of (player, tile, segment); per-player majorities are
**     counted from it when a feature scores;
**   - the pile as counts per tile type: the draw is uniform over the tiles
**     left, so the order of the pile is not part of the state.
** Files: tiles.c (data), board.c (placement), features.c (union-find),
** scoring.c (§3, §5), crop_circles.c (§4), notation.c (§8), game.c (turns and
** the module table), view.c (JSON view and text rendering), account.c (what
** an action did, as events), tensors.c (tensors and the fixed action space
** for learners).
*/
#ifndef CARC_CARCASSONNE_H
#define CARC_CARCASSONNE_H

#include "tiles.h"
#include "../../core/module.h"

#define CARC_MAX_TILES 78 /* 72 + 6 crop circles */
#define CARC_NODES (CARC_MAX_TILES * CARC_MAX_SEGMENTS)
#define CARC_FRONTIER_MAX 192
#define CARC_HASH_SIZE 256
#define CARC_FOLLOWERS_PER_PLAYER 7
#define CARC_MAX_FOLLOWERS (TAFEL_MAX_PLAYERS * CARC_FOLLOWERS_PER_PLAYER)

/* Action numbering: ranges by kind, ordered so legal lists sort naturally. */
#define CARC_ACT_DRAW 0         /* + tile type */
#define CARC_ACT_PASS 100
#define CARC_ACT_CROP_ADD 101
#define CARC_ACT_CROP_REMOVE 102
#define CARC_ACT_FOLLOWER 200   /* + segment of the tile just placed */
#define CARC_ACT_ADD 1000       /* + node (tile index * 8 + segment) */
#define CARC_ACT_REMOVE 2000    /* + node */
#define CARC_ACT_PLACE 10000    /* + position key * 4 + rotation */
#define CARC_ACT_END (CARC_ACT_PLACE + 65536 * 4)

enum {
    CARC_PH_DRAW,        /* chance: the active player draws */
    CARC_PH_PLACE,       /* the active player places the tile in hand */
    CARC_PH_FOLLOWER,    /* a follower on the new tile, or pass */
    CARC_PH_CROP_CHOOSE, /* crop add / crop remove */
    CARC_PH_CROP_ACT,    /* one player adds, removes or passes */
    CARC_PH_OVER
};

/* Score categories of the breakdown. */
enum { CARC_CAT_ROAD, CARC_CAT_CITY, CARC_CAT_CLOISTER, CARC_CAT_FARM, CARC_CATS };

typedef struct carc_placed {
    int8_t x, y;
    uint8_t type, rot;
} carc_placed;

typedef struct carc_follower {
    uint8_t player, tile, seg, pad;
} carc_follower;

typedef struct carc_state {
    /* options (from the game string) */
    uint8_t players, crop_circles, small_city, farmers_modern;
    /* turn */
    uint8_t phase, active, in_hand, crop_kind; /* crop_kind: segment kind */
    uint8_t crop_mode, crop_step, first, pad1;  /* crop_mode: 0 add, 1 remove */
    uint8_t ntiles, nfollowers, pile_total, nremoved;
    uint8_t nfrontier, pad2[3];
    uint8_t pile[CARC_TILE_TYPES];
    uint8_t supply[TAFEL_MAX_PLAYERS];
    uint8_t returned[TAFEL_MAX_PLAYERS]; /* scored home this turn: not yet usable */
    uint8_t removed[CARC_MAX_TILES];
    int16_t score[TAFEL_MAX_PLAYERS];
    int16_t points[TAFEL_MAX_PLAYERS][CARC_CATS];
    carc_placed tiles[CARC_MAX_TILES];
    carc_follower followers[CARC_MAX_FOLLOWERS];
    uint8_t hash[CARC_HASH_SIZE]; /* tile index + 1, 0 = empty */
    uint16_t fkey[CARC_FRONTIER_MAX];
    uint8_t freq[CARC_FRONTIER_MAX];  /* required edge codes */
    uint8_t fmask[CARC_FRONTIER_MAX]; /* which edges are required */
    uint16_t parent[CARC_NODES];
    uint16_t next[CARC_NODES];
    uint8_t open[CARC_NODES]; /* at a root: city/road edges not yet matched */
    uint8_t occ[CARC_NODES];  /* at a root: followers on the feature */
} carc_state;

/* Position keys: 8 bits each for x and y, offset so keys sort by x then y. */
static inline uint16_t carc_key(int x, int y) {
    return (uint16_t)(((x + 128) << 8) | (y + 128));
}
static inline int carc_key_x(uint16_t k) { return (k >> 8) - 128; }
static inline int carc_key_y(uint16_t k) { return (k & 0xFF) - 128; }

extern const int8_t carc_dx[4], carc_dy[4];

/* board.c */
void carc_board_init(carc_state *s);
int carc_board_at(const carc_state *s, int x, int y); /* tile index or -1 */
int carc_board_fits(const carc_state *s, int type, int x, int y, int rot);
int carc_board_placements(const carc_state *s, int type, tafel_action *out, int cap);
int carc_board_can_place(const carc_state *s, int type);
void carc_board_place(carc_state *s, int type, int x, int y, int rot);
int carc_board_neighbours8(const carc_state *s, int x, int y);

/* features.c */
int carc_find(const carc_state *s, int node);
void carc_features_add_tile(carc_state *s, int tile);
int carc_segment_kind(const carc_state *s, int node);
int carc_feature_tiles(const carc_state *s, int root, int *pennants);
int carc_follower_kind(const carc_state *s, const carc_follower *f);
void carc_follower_put(carc_state *s, int player, int tile, int seg);
void carc_follower_take(carc_state *s, int index);
void carc_segments_json(tf_buf *b, const carc_state *s, const int *roots, int n);

/* scoring.c */
/* One feature as scoring paid it, for the account of an action (account.c)
** and the view at the end: a road, city or cloister (node: its root, or the
** cloister's segment) or, for farmers, a completed city (first edition:
** node the city's root) or a field (farmers=modern: node the field's root).
** During play a completed road or city with nobody in it is told too, with
** winners 0. */
typedef struct carc_report_item {
    uint8_t cat;      /* CARC_CAT_* */
    uint8_t winners;  /* bit p: seat p got the points */
    int16_t points;   /* to each winner */
    int node;         /* tile * CARC_MAX_SEGMENTS + segment */
    uint8_t count[TAFEL_MAX_PLAYERS]; /* followers (farmers) per seat that decided it */
} carc_report_item;
typedef struct carc_report {
    carc_report_item item[2 * CARC_MAX_FOLLOWERS + 64];
    int n;
} carc_report;
/* Scores what the new tile completed; report (NULL in play) receives each
** feature. */
void carc_score_completed(carc_state *s, int tile, carc_report *report);
/* Final scoring; report (may be NULL) receives each feature scored. */
void carc_score_final(carc_state *s, carc_report *report);
void carc_add_points(carc_state *s, int player, int cat, int points);
/* Completed cities bordering the field at root, as city roots. */
int carc_bordered_cities(const carc_state *s, int field, int *cities, int cap);

/* crop_circles.c */
extern const char *const carc_follower_names[4]; /* by segment kind: "knight".. */
int carc_crop_segment_kind(int crop); /* CARC_CROP_* -> CARC_CITY/ROAD/FIELD */
void carc_crop_begin(carc_state *s, int mode);
int carc_crop_legal(const carc_state *s, tafel_action *out, int cap);
int carc_crop_check_action(const carc_state *s, tafel_action a, tafel_error *err);
void carc_crop_apply(carc_state *s, tafel_action a);
int carc_crop_actor(const carc_state *s);
int carc_crop_canonical_add(const carc_state *s, int player, int node);

/* game.c */
int carc_check_action(const carc_state *s, tafel_action a, tafel_error *err);
void carc_projected(const void *data, double *out);
void carc_end_turn(carc_state *s);
/* A legal action, applied; report (NULL in play) receives the features the
** action scores during play (final scoring is not reported here). */
void carc_play_reported(carc_state *s, tafel_action a, carc_report *report);

/* account.c */
int carc_describe(const void *data, tafel_action a, tf_events *ev);
/* The final scoring of a finished state and game_over, as the account of
** the last action tells them (for the view at the end). */
void carc_account_final(tf_events *ev, const carc_state *after);

/* notation.c */
int carc_to_text(const void *data, tafel_action a, char *buf, size_t n);
int carc_from_text(const void *data, const char *text, tafel_action *out,
                   tafel_error *err);
int carc_segment_name(const carc_state *s, int tile, int seg, char *buf, size_t n);
extern const char *const carc_kind_names[4];

/* tensors.c: for learners (docs/tensors-carcassonne.md).  The board window
** is CARC_WINDOW cells square, centred on the start tile. */
#define CARC_RADIUS 13
#define CARC_WINDOW (2 * CARC_RADIUS + 1)
/* Positions of a follower on a tile, the same on every tile: a city or road
** by the first edge it touches, a field by the first corner, a cloister in
** the centre. */
enum { CARC_POS_N, CARC_POS_E, CARC_POS_S, CARC_POS_W, CARC_POS_NE, CARC_POS_SE,
       CARC_POS_SW, CARC_POS_NW, CARC_POS_C, CARC_POSITIONS };
int carc_segment_position(int type, int rot, int seg);
int carc_position_segment(int type, int rot, int pos); /* -1: none there */
int carc_tensor_shape(int players, int kind, int *dims);
int carc_tensor_parts(int players, int kind, tf_tensor_part *out, int cap);
void carc_tensor(const void *data, int seat, int kind, float *out);
int carc_action_space(int players);
int carc_action_index(const void *data, tafel_action a);
int carc_index_action(const void *data, int index, tafel_action *out);

/* view.c */
int carc_view_json(const void *data, int seat, tf_buf *out);
int carc_pieces_json(tf_buf *out);
int carc_render(const void *data, int seat, int flags, tf_buf *out);

#endif
