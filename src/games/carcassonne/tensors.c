/*
** tensors.c -- Carcassonne for learners: the observation tensor and the
** fixed action space (tafel.h "For learners", docs/tensors-carcassonne.md).
**
** The board is seen through a square window of CARC_WINDOW cells centred on
** the start tile: row 0 is the north row (y = CARC_RADIUS), column 0 the
** west column (x = -CARC_RADIUS), so a plane prints as the board looks.
** The tensor is rank 1: the board planes ([C][H][W], C = 16 + players)
** first, then a flat vector (the pile, the tile in hand, scores, supplies,
** whose turn, the phase, the crop circle action, the options); every plane
** and every vector is a named part.
**
** Edges are planes on the lattice of edges, not per cell: the plane
** "city_north" at a cell says the edge on the north side of the cell is a
** city edge, "city_east" the edge on its east side; a tile's south edge is
** the north edge of the cell below it.  Two tiles that meet share their
** edge, and the rules make its kind the same on both sides, so each edge of
** the board is stored once (half the planes of four edges per cell).  The
** south edges of the southmost row and the west edges of the westmost
** column fall outside the window.
**
** A follower stands at a position of its tile that means the same on every
** tile (CARC_POS_*): a city or road by the first edge it touches (N, E, S,
** W), a field by the first corner it touches (NE, SE, SW, NW), a cloister
** in the centre.  No tile has two segments at one position (each corner's
** two half-edges, where both are field, belong to one field: tested for
** every tile and turn).  The same positions name followers in the action
** space.
**
** Everything here only reads the state.  The core zeroes the tensor first,
** so only what is not 0 is written.
*/
#include "carcassonne.h"


/* Board planes before the followers by owner. */
enum {
    PL_TILE,
    PL_CITY_NORTH,
    PL_CITY_EAST,
    PL_ROAD_NORTH,
    PL_ROAD_EAST,
    PL_CLOSED_NORTH,
    PL_CLOSED_EAST,
    PL_CLOISTER,
    PL_PENNANT,
    PL_CITY_SPLIT,
    PL_CROP_CIRCLE,
    PL_FOCUS,
    PL_FOLLOWER_EDGE, /* + N E S W: where on its tile a follower stands */
    PL_OWNER = PL_FOLLOWER_EDGE + 4, /* + relative seat */
};

#define CELLS (CARC_WINDOW * CARC_WINDOW)

static int planes(int players) { return PL_OWNER + players; }

/* The flat vector after the planes, in order. */
enum { V_PILE, V_IN_HAND, V_SCORES, V_SUPPLY, V_RETURNED, V_TO_MOVE, V_PHASE,
       V_CROP_SYMBOL, V_CROP_MODE, V_OPTIONS, V_PARTS };

static int vector_size(int part, int players) {
    switch (part) {
    case V_PILE:
    case V_IN_HAND: return CARC_TILE_TYPES;
    case V_SCORES:
    case V_SUPPLY:
    case V_RETURNED:
    case V_TO_MOVE: return players;
    case V_PHASE: return CARC_PH_OVER + 1;
    case V_CROP_SYMBOL: return 3;
    case V_CROP_MODE: return 2;
    default: return 3; /* V_OPTIONS */
    }
}

static const char *const vector_names[V_PARTS] = {
    "pile", "in_hand", "scores", "supply", "returned", "to_move", "phase",
    "crop_symbol", "crop_mode", "options"};

static const char *const plane_names[PL_OWNER] = {
    "tile", "city_north", "city_east", "road_north", "road_east", "closed_north",
    "closed_east", "cloister", "pennant", "city_split", "crop_circle", "focus",
    "follower_N", "follower_E", "follower_S", "follower_W"};

static const char *const owner_names[TAFEL_MAX_PLAYERS] = {
    "followers_0", "followers_1", "followers_2", "followers_3", "followers_4"};

static size_t carc_tensor_length(int players) {
    size_t n = (size_t)planes(players) * CELLS;
    for (int v = 0; v < V_PARTS; v++) n += (size_t)vector_size(v, players);
    return n;
}

int carc_tensor_shape(int players, int kind, int *dims) {
    (void)kind;
    dims[0] = (int)carc_tensor_length(players);
    return 1;
}

int carc_tensor_parts(int players, int kind, tf_tensor_part *out, int cap) {
    (void)kind;
    int n = 0;
    for (int p = 0; p < planes(players); p++, n++)
        if (n < cap)
            out[n] = (tf_tensor_part){p < PL_OWNER ? plane_names[p] : owner_names[p - PL_OWNER],
                                      CELLS};
    for (int v = 0; v < V_PARTS; v++, n++)
        if (n < cap) out[n] = (tf_tensor_part){vector_names[v], (size_t)vector_size(v, players)};
    return n;
}

/* ---- positions on a tile ---- */

/* Corners by the two half-edges they hold (0 NNW .. 7 WNW). */
static const uint8_t corner_halves[4] = {0x06, 0x18, 0x60, 0x81}; /* NE SE SW NW */

int carc_segment_position(int type, int rot, int seg) {
    const carc_oriented *o = carc_orient(type, rot);
    switch (carc_tiles[type].seg[seg].kind) {
    case CARC_CLOISTER: return CARC_POS_C;
    case CARC_FIELD:
        for (int c = 0; c < 4; c++)
            if (o->seg_halves[seg] & corner_halves[c]) return CARC_POS_NE + c;
        return -1;
    default:
        for (int d = 0; d < 4; d++)
            if (o->seg_edges[seg] >> d & 1) return CARC_POS_N + d;
        return -1;
    }
}

int carc_position_segment(int type, int rot, int pos) {
    const carc_tile *t = &carc_tiles[type];
    for (int i = 0; i < t->nseg; i++)
        if (carc_segment_position(type, rot, i) == pos) return i;
    return -1;
}

/* The follower planes a position marks (bit d: plane follower_<d>). */
static const uint8_t follower_edges[CARC_POSITIONS] = {0x1, 0x2, 0x4, 0x8, 0x3, 0x6,
                                                       0xC, 0x9, 0xF};

/* ---- the window ---- */

/* The cell of board position (x, y), or -1 outside the window. */
static int cell_of(int x, int y) {
    if (x < -CARC_RADIUS || x > CARC_RADIUS || y < -CARC_RADIUS || y > CARC_RADIUS) return -1;
    return (CARC_RADIUS - y) * CARC_WINDOW + (x + CARC_RADIUS);
}

static int relative(int seat, int player, int players) {
    return (player - (seat < 0 ? 0 : seat) + players) % players;
}

/* One tile's planes: edges onto the lattice (north and east of its cell;
** south and west are the north and east of the cells below and left). */
static void write_tile(const carc_state *s, int tile, float *out) {
    const carc_placed *p = &s->tiles[tile];
    int cell = cell_of(p->x, p->y);
    if (cell < 0) return;
    const carc_tile *t = &carc_tiles[p->type];
    const carc_oriented *o = carc_orient(p->type, p->rot);
    /* where each edge goes on the lattice, -1 outside the window */
    int row = cell / CARC_WINDOW, col = cell % CARC_WINDOW;
    const int at[4] = {cell, cell, row + 1 < CARC_WINDOW ? cell + CARC_WINDOW : -1,
                       col > 0 ? cell - 1 : -1};
    static const int city_plane[4] = {PL_CITY_NORTH, PL_CITY_EAST, PL_CITY_NORTH,
                                      PL_CITY_EAST};
    static const int road_plane[4] = {PL_ROAD_NORTH, PL_ROAD_EAST, PL_ROAD_NORTH,
                                      PL_ROAD_EAST};
    static const int closed_plane[4] = {PL_CLOSED_NORTH, PL_CLOSED_EAST, PL_CLOSED_NORTH,
                                        PL_CLOSED_EAST};
    out[PL_TILE * CELLS + cell] = 1;
    int cities = 0;
    for (int i = 0; i < t->nseg; i++) {
        int kind = t->seg[i].kind;
        if (kind == CARC_CLOISTER) out[PL_CLOISTER * CELLS + cell] = 1;
        if (kind != CARC_CITY && kind != CARC_ROAD) continue;
        cities += kind == CARC_CITY;
        if (t->seg[i].pennant) out[PL_PENNANT * CELLS + cell] = 1;
        /* one look-up a piece, however many edges it has */
        int closed = s->open[carc_find(s, tile * CARC_MAX_SEGMENTS + i)] == 0;
        const int *plane = kind == CARC_CITY ? city_plane : road_plane;
        for (int d = 0; d < 4; d++) {
            if (!(o->seg_edges[i] >> d & 1) || at[d] < 0) continue;
            out[plane[d] * CELLS + at[d]] = 1;
            if (closed) out[closed_plane[d] * CELLS + at[d]] = 1;
        }
    }
    if (cities > 1) out[PL_CITY_SPLIT * CELLS + cell] = 1;
    if (t->crop != CARC_CROP_NONE) out[PL_CROP_CIRCLE * CELLS + cell] = 1;
}

void carc_tensor(const void *data, int seat, int kind, float *out) {
    (void)kind; /* nothing a seat saw is hidden later: both kinds are one */
    const carc_state *s = data;
    int players = s->players;
    for (int i = 0; i < s->ntiles; i++) write_tile(s, i, out);
    int placed_now = s->phase == CARC_PH_FOLLOWER || s->phase == CARC_PH_CROP_CHOOSE ||
                     s->phase == CARC_PH_CROP_ACT;
    if (placed_now) {
        const carc_placed *p = &s->tiles[s->ntiles - 1];
        int cell = cell_of(p->x, p->y);
        if (cell >= 0) out[PL_FOCUS * CELLS + cell] = 1;
    }
    if (s->phase == CARC_PH_PLACE) {
        int rots = carc_tiles[s->in_hand].rotations;
        uint8_t code[4];
        for (int r = 0; r < 4; r++) code[r] = carc_tile_edge_code(s->in_hand, r);
        for (int i = 0; i < s->nfrontier; i++) {
            int cell = cell_of(carc_key_x(s->fkey[i]), carc_key_y(s->fkey[i])), fits = 0;
            if (cell < 0) continue;
            for (int r = 0; r < rots; r++) fits |= ((code[r] ^ s->freq[i]) & s->fmask[i]) == 0;
            if (fits) out[PL_FOCUS * CELLS + cell] = 1;
        }
    }
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        const carc_placed *p = &s->tiles[f->tile];
        int cell = cell_of(p->x, p->y);
        if (cell < 0) continue;
        /* the edges next to its position: one for a city or road, the two
        ** of its corner for a field, all four for a monk */
        uint8_t edges = follower_edges[carc_segment_position(p->type, p->rot, f->seg)];
        for (int d = 0; d < 4; d++)
            if (edges >> d & 1) out[(PL_FOLLOWER_EDGE + d) * CELLS + cell] += 1;
        out[(PL_OWNER + relative(seat, f->player, players)) * CELLS + cell] += 1;
    }

    float *v = out + (size_t)planes(players) * CELLS;
    for (int t = 0; t < CARC_TILE_TYPES; t++) v[t] = s->pile[t];
    v += CARC_TILE_TYPES;
    if (s->phase == CARC_PH_PLACE) v[s->in_hand] = 1;
    v += CARC_TILE_TYPES;
    for (int p = 0; p < players; p++) {
        int r = relative(seat, p, players);
        v[r] = s->score[p];
        v[players + r] = s->supply[p];
        v[2 * players + r] = s->returned[p];
    }
    v += 3 * players;
    int who = s->phase == CARC_PH_CROP_ACT ? carc_crop_actor(s)
              : s->phase == CARC_PH_DRAW || s->phase == CARC_PH_OVER ? -1
                                                                    : s->active;
    if (who >= 0) v[relative(seat, who, players)] = 1;
    v += players;
    v[s->phase] = 1;
    v += CARC_PH_OVER + 1;
    if (s->phase == CARC_PH_CROP_CHOOSE || s->phase == CARC_PH_CROP_ACT)
        v[s->crop_kind] = 1; /* CARC_CITY, CARC_ROAD, CARC_FIELD: the symbol */
    v += 3;
    if (s->phase == CARC_PH_CROP_ACT) v[s->crop_mode] = 1;
    v += 2;
    v[0] = s->crop_circles;
    v[1] = s->small_city == 4;
    v[2] = s->farmers_modern;
}

/* ---- the fixed action space ---- */

enum {
    AS_PLACE = 0,                               /* + cell * 4 + rotation */
    AS_FOLLOWER = AS_PLACE + 4 * CELLS,         /* + position */
    AS_PASS = AS_FOLLOWER + CARC_POSITIONS,
    AS_CROP_ADD = AS_PASS + 1,
    AS_CROP_REMOVE = AS_CROP_ADD + 1,
    AS_ADD = AS_CROP_REMOVE + 1,                /* + cell * 9 + position */
    AS_REMOVE = AS_ADD + CELLS * CARC_POSITIONS,
    AS_END = AS_REMOVE + CELLS * CARC_POSITIONS
};

int carc_action_space(int players) {
    (void)players;
    return AS_END;
}

/* The index of a node (crop circle add or remove) from base, or -1. */
static int node_index(const carc_state *s, int base, int node) {
    const carc_placed *p = &s->tiles[node / CARC_MAX_SEGMENTS];
    int cell = cell_of(p->x, p->y);
    if (cell < 0) return -1;
    return base + cell * CARC_POSITIONS +
           carc_segment_position(p->type, p->rot, node % CARC_MAX_SEGMENTS);
}

int carc_action_index(const void *data, tafel_action a) {
    const carc_state *s = data;
    if (carc_check_action(s, a, NULL) != TAFEL_OK || s->phase == CARC_PH_DRAW) return -1;
    if (a >= CARC_ACT_PLACE) {
        int key = (a - CARC_ACT_PLACE) / 4, rot = (a - CARC_ACT_PLACE) % 4;
        int cell = cell_of(carc_key_x((uint16_t)key), carc_key_y((uint16_t)key));
        return cell < 0 ? -1 : AS_PLACE + cell * 4 + rot;
    }
    if (a >= CARC_ACT_REMOVE) return node_index(s, AS_REMOVE, a - CARC_ACT_REMOVE);
    if (a >= CARC_ACT_ADD) return node_index(s, AS_ADD, a - CARC_ACT_ADD);
    if (a >= CARC_ACT_FOLLOWER) {
        const carc_placed *p = &s->tiles[s->ntiles - 1];
        return AS_FOLLOWER + carc_segment_position(p->type, p->rot, a - CARC_ACT_FOLLOWER);
    }
    if (a == CARC_ACT_PASS) return AS_PASS;
    if (a == CARC_ACT_CROP_ADD) return AS_CROP_ADD;
    if (a == CARC_ACT_CROP_REMOVE) return AS_CROP_REMOVE;
    return -1;
}

/* The action at a node of the tile at cell, position pos, from base. */
static int node_action(const carc_state *s, int base, int index, tafel_action *out) {
    int cell = index / CARC_POSITIONS, pos = index % CARC_POSITIONS;
    int x = cell % CARC_WINDOW - CARC_RADIUS, y = CARC_RADIUS - cell / CARC_WINDOW;
    int tile = carc_board_at(s, x, y);
    if (tile < 0) return -1;
    int seg = carc_position_segment(s->tiles[tile].type, s->tiles[tile].rot, pos);
    if (seg < 0) return -1;
    *out = base + tile * CARC_MAX_SEGMENTS + seg;
    return 0;
}

int carc_index_action(const void *data, int index, tafel_action *out) {
    const carc_state *s = data;
    tafel_action a;
    if (index < 0 || index >= AS_END) return -1;
    if (index < AS_FOLLOWER) {
        int cell = index / 4, rot = index % 4;
        int x = cell % CARC_WINDOW - CARC_RADIUS, y = CARC_RADIUS - cell / CARC_WINDOW;
        a = CARC_ACT_PLACE + carc_key(x, y) * 4 + rot;
    } else if (index < AS_PASS) {
        if (s->phase != CARC_PH_FOLLOWER) return -1;
        const carc_placed *p = &s->tiles[s->ntiles - 1];
        int seg = carc_position_segment(p->type, p->rot, index - AS_FOLLOWER);
        if (seg < 0) return -1;
        a = CARC_ACT_FOLLOWER + seg;
    } else if (index == AS_PASS) a = CARC_ACT_PASS;
    else if (index == AS_CROP_ADD) a = CARC_ACT_CROP_ADD;
    else if (index == AS_CROP_REMOVE) a = CARC_ACT_CROP_REMOVE;
    else if (index < AS_REMOVE) {
        if (node_action(s, CARC_ACT_ADD, index - AS_ADD, &a)) return -1;
    } else if (node_action(s, CARC_ACT_REMOVE, index - AS_REMOVE, &a)) return -1;
    if (s->phase == CARC_PH_DRAW || carc_check_action(s, a, NULL) != TAFEL_OK) return -1;
    *out = a;
    return 0;
}
