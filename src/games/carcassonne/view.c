/*
** view.c -- what a seat sees: the JSON view and the terminal picture.
**
** Carcassonne hides nothing but the order of the pile, which the state does
** not hold, so every seat's view is the whole position; the remaining
** tiles are shown as counts, as any player can count them.
**
** The picture (carc_render) is for a terminal: the board, each tile as 3 x 5
** cells one cell apart, so that a city or road that continues from tile to
** tile is drawn across the gap and two features that are not one never
** touch; followers as their seat's letter on a cell of their segment; each
** player's last tile marked at its corners; the players; the tiles left in
** the pile; the tile in hand.  A board larger than 80 columns and about 40
** lines is cut to what matters now (to the seat: the others' last moves
** first) unless the caller asks for all of it, and a key of the symbols
** drawn can follow.  With colours, features get background colours and
** followers and marks their seat's colour; without, the picture is plain
** text a test can read.
*/
#include "carcassonne.h"
#include "say.h"
#include "seats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const phase_names[] = {"draw", "place", "follower",
                                          "crop_choice", "crop_act", "over"};

static void json_ints(tf_buf *b, const char *key, const int16_t *v, int n) {
    tf_buf_addf(b, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) tf_buf_addf(b, "%s%d", i ? "," : "", v[i]);
    tf_buf_add(b, "]");
}

/* The tile types as data (tafel_game_pieces_json), so that a front end
** draws tiles from the engine's table (tiles.h), not a copy of its own:
** segments in table orientation, edges N E S W, half-edges NNW .. WNW. */
int carc_pieces_json(tf_buf *b) {
    static const char *const kinds[] = {"city", "road", "field", "cloister"};
    static const char *const crops[] = {NULL, "knight", "robber", "farmer"};
    static const char *const edge_names[4] = {"N", "E", "S", "W"};
    static const char *const halves[8] = {"NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"};
    tf_buf_add(b, "{\"tiles\":{");
    for (int t = 0; t < CARC_TILE_TYPES; t++) {
        const carc_tile *tile = &carc_tiles[t];
        tf_buf_addf(b, "%s\"%s\":{\"count\":%d,\"edges\":\"%s\",\"crop\":", t ? "," : "",
                    tile->id, tile->count, tile->edges);
        if (crops[tile->crop]) tf_buf_addf(b, "\"%s\"", crops[tile->crop]);
        else tf_buf_add(b, "null");
        tf_buf_add(b, ",\"segments\":[");
        for (int i = 0; i < tile->nseg; i++) {
            const carc_segment *g = &tile->seg[i];
            tf_buf_addf(b, "%s{\"kind\":\"%s\"", i ? "," : "", kinds[g->kind]);
            if (g->kind == CARC_CITY || g->kind == CARC_ROAD) {
                tf_buf_add(b, ",\"edges\":[");
                for (int e = 0, first = 1; e < 4; e++)
                    if (g->edges >> e & 1) tf_buf_addf(b, "%s\"%s\"", first ? "" : ",", edge_names[e]), first = 0;
                tf_buf_add(b, "]");
            }
            if (g->kind == CARC_CITY) tf_buf_addf(b, ",\"pennant\":%s", g->pennant ? "true" : "false");
            if (g->kind == CARC_FIELD) {
                tf_buf_add(b, ",\"halves\":[");
                for (int h = 0, first = 1; h < 8; h++)
                    if (g->halves >> h & 1) tf_buf_addf(b, "%s\"%s\"", first ? "" : ",", halves[h]), first = 0;
                tf_buf_add(b, "],\"borders\":[");
                for (int c = 0, first = 1; c < tile->nseg; c++)
                    if (g->borders >> c & 1) tf_buf_addf(b, "%s%d", first ? "" : ",", c), first = 0;
                tf_buf_add(b, "]");
            }
            tf_buf_add(b, "}");
        }
        tf_buf_add(b, "]}");
    }
    tf_buf_addf(b, "},\"start\":\"%s\"}", carc_tiles[CARC_START_TYPE].id);
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}

/* At the end, what final scoring paid feature by feature (§5): scored again
** on a copy, reporting each feature, for a front end to show the end as
** players count it.  Farmers: each completed city supplied (first edition)
** or each field (farmers=modern). */
static void json_final_scoring(tf_buf *b, const carc_state *s) {
    static const char *const cats[CARC_CATS] = {"road", "city", "cloister", "farm"};
    carc_state copy = *s;
    carc_report report = {.n = 0};
    carc_score_final(&copy, &report);
    tf_buf_add(b, ",\"final_scoring\":[");
    for (int i = 0; i < report.n; i++) {
        const carc_report_item *it = &report.item[i];
        int tile = it->node / CARC_MAX_SEGMENTS, seg = it->node % CARC_MAX_SEGMENTS;
        char where[32];
        if (carc_segment_name(s, tile, seg, where, sizeof where) < 0) where[0] = 0;
        tf_buf_addf(b, "%s{\"kind\":\"%s\",\"x\":%d,\"y\":%d,\"segment\":\"%s\",\"points\":%d,",
                    i ? "," : "", cats[it->cat], s->tiles[tile].x, s->tiles[tile].y, where,
                    it->points);
        if (it->cat == CARC_CAT_ROAD || it->cat == CARC_CAT_CITY) {
            int pennants, tiles = carc_feature_tiles(s, it->node, &pennants);
            tf_buf_addf(b, "\"tiles\":%d,\"pennants\":%d,\"complete\":%s,", tiles, pennants,
                        s->open[it->node] == 0 ? "true" : "false");
        }
        if (it->cat == CARC_CAT_FARM)
            tf_buf_addf(b, "\"supplies\":\"%s\",", s->farmers_modern ? "field" : "city");
        tf_buf_add(b, "\"seats\":[");
        for (int p = 0, first = 1; p < s->players; p++)
            if (it->winners >> p & 1) tf_buf_addf(b, "%s%d", first ? "" : ",", p), first = 0;
        tf_buf_add(b, "]}");
    }
    tf_buf_add(b, "]");
}

/* Every feature of the board, oldest first, as its kind and segments
** ([x, y, "city N"]), so that a front end can light the whole feature a
** follower spot or a follower belongs to without the rules that join
** segments into features (features.c). */
static void json_features(tf_buf *b, const carc_state *s) {
    uint8_t seen[CARC_NODES] = {0};
    tf_buf_add(b, ",\"features\":[");
    for (int tile = 0, first = 1; tile < s->ntiles; tile++)
        for (int g = 0; g < carc_tiles[s->tiles[tile].type].nseg; g++) {
            int root = carc_find(s, tile * CARC_MAX_SEGMENTS + g);
            if (seen[root]) continue;
            seen[root] = 1;
            tf_buf_addf(b, "%s{\"kind\":\"%s\",\"segments\":", first ? "" : ",",
                        carc_kind_names[carc_segment_kind(s, root)]);
            carc_segments_json(b, s, &root, 1);
            tf_buf_add(b, "}");
            first = 0;
        }
    tf_buf_add(b, "]");
}

/* At the end, the final scoring as the account of the last action tells
** it (account.c), for a front end that joins after the end to tell it in
** the same words. */
static void json_final_events(tf_buf *b, const carc_state *s, int seat) {
    tf_events ev;
    tf_events_init(&ev, s->players, seat);
    carc_account_final(&ev, s);
    char *json = tf_events_take(&ev);
    if (!json) {
        b->oom = 1;
        return;
    }
    tf_buf_add(b, ",\"final_events\":");
    tf_buf_add(b, json);
    free(json);
}

int carc_view_json(const void *data, int seat, tf_buf *b) {
    const carc_state *s = data;
    int next = s->phase == CARC_PH_DRAW ? TAFEL_CHANCE
             : s->phase == CARC_PH_OVER ? TAFEL_TERMINAL
             : s->phase == CARC_PH_CROP_ACT ? carc_crop_actor(s) : s->active;
    /* the canonical game string: players and what differs from the defaults */
    tf_buf_addf(b, "{\"game\":\"carcassonne(players=%d%s", s->players,
                s->crop_circles ? ",crop_circles=true" : "");
    if (s->first) tf_buf_addf(b, ",first=%d", s->first);
    if (s->small_city == 4) tf_buf_add(b, ",small_city=4");
    if (s->farmers_modern) tf_buf_add(b, ",farmers=modern");
    tf_buf_addf(b, ")\",\"seat\":%d,\"players\":%d,", seat, s->players);
    if (next >= 0) tf_buf_addf(b, "\"next\":%d", next);
    else tf_buf_addf(b, "\"next\":\"%s\"", next == TAFEL_CHANCE ? "chance" : "terminal");
    tf_buf_addf(b, ",\"phase\":\"%s\",\"active\":%d,\"tile\":", phase_names[s->phase], s->active);
    if (s->in_hand != 0xFF) tf_buf_addf(b, "\"%s\"", carc_tiles[s->in_hand].id);
    else tf_buf_add(b, "null");
    tf_buf_add(b, ",\"board\":[");
    for (int i = 0; i < s->ntiles; i++) {
        const carc_placed *p = &s->tiles[i];
        tf_buf_addf(b, "%s{\"x\":%d,\"y\":%d,\"tile\":\"%s\",\"rotation\":%d}", i ? "," : "",
                    p->x, p->y, carc_tiles[p->type].id, p->rot * 90);
    }
    tf_buf_add(b, "],\"followers\":[");
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        char name[32], *space;
        carc_segment_name(s, f->tile, f->seg, name, sizeof name);
        space = strchr(name, ' ');
        if (space) *space = 0;
        tf_buf_addf(b, "%s{\"player\":%d,\"x\":%d,\"y\":%d,\"kind\":\"%s\",\"segment\":\"%s\"}",
                    i ? "," : "", f->player, s->tiles[f->tile].x, s->tiles[f->tile].y, name,
                    space ? space + 1 : name);
    }
    tf_buf_add(b, "]");
    int16_t supply[TAFEL_MAX_PLAYERS], projected[TAFEL_MAX_PLAYERS];
    double proj[TAFEL_MAX_PLAYERS];
    carc_projected(s, proj);
    for (int p = 0; p < s->players; p++) {
        supply[p] = s->supply[p];
        projected[p] = (int16_t)proj[p];
    }
    json_ints(b, "supply", supply, s->players);
    json_ints(b, "scores", s->score, s->players);
    json_ints(b, "projected", projected, s->players);
    tf_buf_add(b, ",\"pile\":{");
    for (int t = 0, first = 1; t < CARC_TILE_TYPES; t++)
        if (s->pile[t]) {
            tf_buf_addf(b, "%s\"%s\":%d", first ? "" : ",", carc_tiles[t].id, s->pile[t]);
            first = 0;
        }
    tf_buf_addf(b, "},\"pile_size\":%d,\"removed\":[", s->pile_total);
    for (int i = 0; i < s->nremoved; i++)
        tf_buf_addf(b, "%s\"%s\"", i ? "," : "", carc_tiles[s->removed[i]].id);
    tf_buf_add(b, "]");
    json_features(b, s);
    if (s->phase == CARC_PH_OVER) {
        json_final_scoring(b, s);
        json_final_events(b, s, seat);
    }
    tf_buf_add(b, ",\"crop\":");
    if (s->phase == CARC_PH_CROP_CHOOSE || s->phase == CARC_PH_CROP_ACT) {
        tf_buf_addf(b, "{\"kind\":\"%s\",\"mode\":", carc_follower_names[s->crop_kind]);
        if (s->phase == CARC_PH_CROP_CHOOSE) tf_buf_add(b, "null");
        else tf_buf_addf(b, "\"%s\"", s->crop_mode ? "remove" : "add");
        tf_buf_addf(b, ",\"acting\":%d}", next);
    } else {
        tf_buf_add(b, "null");
    }
    tf_buf_add(b, "}");
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}

/* ---- the picture: one tile ----
**
** A tile is 3 rows of 5 cells.  Each of the 12 cells of its border stands
** for one edge or half-edge of rules §7 and shows the segment there: the N
** and S edges own the middle three cells of their rows (NNW N NNE, SSW S
** SSE), the E and W edges their whole columns, so the corners are ENE, ESE,
** WSW and WNW.  The three inner cells show roads (to a bend or a crossing),
** a cloister, a crop circle, the inside of a city, or field.  Every cell
** knows its segment: a follower goes on a cell of its own segment, and the
** seams between tiles (below) see what continues across an edge.
*/

enum { LOOK_BLANK, LOOK_FIELD, LOOK_CITY, LOOK_ROAD, LOOK_CLOISTER, LOOK_JUNCTION };

typedef struct cell {
    char ch;
    uint8_t look; /* LOOK_*: how it is coloured */
    uint8_t seg;  /* the tile's segment drawn here, or CARC_NO_SEGMENT */
    int8_t seat;  /* a follower or a last-tile mark of this seat, or -1 */
} cell;

#define TILE_ROWS 3
#define TILE_COLS 5

typedef struct tile_cells {
    cell c[TILE_ROWS][TILE_COLS];
} tile_cells;

static const cell blank_cell = {' ', LOOK_BLANK, CARC_NO_SEGMENT, -1};

/* Where the edges (N E S W) and half-edges (NNW .. WNW) meet the border. */
static const uint8_t edge_row[4] = {0, 1, 2, 1}, edge_col[4] = {2, 4, 2, 0};
static const uint8_t half_row[8] = {0, 0, 0, 2, 2, 2, 2, 0};
static const uint8_t half_col[8] = {1, 3, 4, 4, 3, 1, 0, 0};

static int popcount4(unsigned m) { return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1); }

/* The segment an edge shows: its city or road, else the field of a field
** edge (both halves of a field edge are one field). */
static int edge_segment(const carc_oriented *o, int d) {
    return o->edge_seg[d] != CARC_NO_SEGMENT ? o->edge_seg[d] : o->half_seg[2 * d];
}

/* The segment at a half-edge: its field, else the city of a city edge. */
static int half_segment(const carc_oriented *o, int h) {
    return o->half_seg[h] != CARC_NO_SEGMENT ? o->half_seg[h] : o->edge_seg[h / 2];
}

static cell segment_cell(int type, int seg, char road) {
    static const char kind_ch[4] = {'#', '-', '.', 'C'};
    static const uint8_t kind_look[4] = {LOOK_CITY, LOOK_ROAD, LOOK_FIELD, LOOK_CLOISTER};
    int kind = carc_tiles[type].seg[seg].kind;
    return (cell){kind == CARC_ROAD ? road : kind_ch[kind], kind_look[kind], (uint8_t)seg, -1};
}

static void draw_border(int type, const carc_oriented *o, tile_cells *t) {
    for (int d = 0; d < 4; d++)
        t->c[edge_row[d]][edge_col[d]] = segment_cell(type, edge_segment(o, d), d & 1 ? '-' : '|');
    for (int h = 0; h < 8; h++)
        t->c[half_row[h]][half_col[h]] = segment_cell(type, half_segment(o, h), '.');
}

/* The inside of a city: the whole middle row for a city on three or four
** edges or across the tile, the inner cell of the corner for one on two
** adjacent edges (M, N, O, P), nothing for a city on one edge. */
static void draw_city_inside(int type, const carc_oriented *o, tile_cells *t) {
    const carc_tile *tile = &carc_tiles[type];
    for (int g = 0; g < tile->nseg; g++) {
        if (tile->seg[g].kind != CARC_CITY) continue;
        int edges = o->seg_edges[g], n = popcount4((unsigned)edges);
        cell city = segment_cell(type, g, 0);
        if (n >= 3 || edges == 0x5 || edges == 0xA)
            for (int c = 1; c < TILE_COLS - 1; c++) t->c[1][c] = city;
        else if (n == 2)
            t->c[1][edges & 0x2 ? 3 : 1] = city;
    }
}

/* Roads run from their edges to the centre.  A road across the tile passes
** it ('|', '-', or '+' where it bends); roads that end there meet at a
** crossing ('+'), a cloister or a crop circle; a road that ends at a city
** gate (S, T) ends at the city's inside. */
static void draw_roads(int type, const carc_oriented *o, tile_cells *t) {
    const carc_tile *tile = &carc_tiles[type];
    int ending = 0;
    for (int g = 0; g < tile->nseg; g++) {
        if (tile->seg[g].kind != CARC_ROAD) continue;
        int edges = o->seg_edges[g];
        cell road = segment_cell(type, g, '-');
        if (edges & 0x2) t->c[1][3] = road;
        if (edges & 0x8) t->c[1][1] = road;
        if (popcount4((unsigned)edges) == 1) {
            ending++;
            continue;
        }
        road.ch = edges == 0x5 ? '|' : edges == 0xA ? '-' : '+';
        t->c[1][2] = road;
    }
    if (ending && t->c[1][2].look != LOOK_CITY)
        t->c[1][2] = (cell){'+', LOOK_JUNCTION, CARC_NO_SEGMENT, -1};
}

static void draw_centre_sign(int type, tile_cells *t) {
    const carc_tile *tile = &carc_tiles[type];
    for (int g = 0; g < tile->nseg; g++)
        if (tile->seg[g].kind == CARC_CLOISTER) t->c[1][2] = segment_cell(type, g, 0);
    if (tile->crop) t->c[1][2] = (cell){'@', LOOK_JUNCTION, CARC_NO_SEGMENT, -1};
}

/* Inner cells still empty are field: the field of a border cell next to
** them (the centre last, from its neighbours). */
static void draw_fields_inside(tile_cells *t) {
    static const int8_t col[3] = {1, 3, 2}, count[3] = {3, 3, 4};
    static const int8_t near[3][4][2] = {{{1, 0}, {0, 1}, {2, 1}},
                                         {{1, 4}, {0, 3}, {2, 3}},
                                         {{0, 2}, {2, 2}, {1, 1}, {1, 3}}};
    for (int i = 0; i < 3; i++) {
        cell *c = &t->c[1][col[i]];
        for (int k = 0; k < count[i] && c->look == LOOK_BLANK; k++) {
            const cell *n = &t->c[near[i][k][0]][near[i][k][1]];
            if (n->look == LOOK_FIELD) *c = *n;
        }
    }
}

/* Two cities of one tile that meet at a corner (I, CC2) would read as one
** block: the corner, drawn for the city of the E or W edge, becomes a wall. */
static void wall_corners(tile_cells *t) {
    for (int r = 0; r < TILE_ROWS; r += 2)
        for (int side = 0; side < 2; side++) {
            cell *corner = &t->c[r][side ? 4 : 0];
            const cell *inner = &t->c[r][side ? 3 : 1];
            if (corner->look == LOOK_CITY && inner->look == LOOK_CITY && corner->seg != inner->seg)
                *corner = blank_cell;
        }
}

static void draw_tile(int type, int rot, tile_cells *t) {
    const carc_oriented *o = carc_orient(type, rot);
    for (int r = 0; r < TILE_ROWS; r++)
        for (int c = 0; c < TILE_COLS; c++) t->c[r][c] = blank_cell;
    draw_border(type, o, t);
    draw_city_inside(type, o, t);
    draw_roads(type, o, t);
    draw_centre_sign(type, t);
    draw_fields_inside(t);
    wall_corners(t);
}

/* The cell a follower is drawn on: a free cell of its segment, the middle
** of the tile first (a city's inside, the road by the centre), then the
** edge middles, then the rest; when all are taken, the first. */
static cell *follower_cell(tile_cells *t, int seg) {
    static const uint8_t order[TILE_ROWS * TILE_COLS][2] = {
        {1, 2}, {1, 1}, {1, 3}, {0, 2}, {1, 4}, {2, 2}, {1, 0}, {0, 0},
        {0, 1}, {0, 3}, {0, 4}, {2, 0}, {2, 1}, {2, 3}, {2, 4}};
    cell *taken = NULL;
    for (int i = 0; i < TILE_ROWS * TILE_COLS; i++) {
        cell *c = &t->c[order[i][0]][order[i][1]];
        if (c->seg != seg) continue;
        if (c->seat < 0) return c;
        if (!taken) taken = c;
    }
    return taken;
}

/* A placed tile with its followers, each its seat's letter. */
static void tile_picture(const carc_state *s, int tile, tile_cells *t) {
    draw_tile(s->tiles[tile].type, s->tiles[tile].rot, t);
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        if (f->tile != tile) continue;
        cell *c = follower_cell(t, f->seg);
        if (!c) continue;
        c->ch = tf_seat_letters[f->player];
        c->seat = (int8_t)f->player;
    }
}

/* ---- the picture: drawing cells ---- */

static const char *const look_colour[] = {"0", "38;5;22;48;5;71", "38;5;94;48;5;180",
                                          "38;5;240;48;5;253", "38;5;231;48;5;124",
                                          "38;5;16;48;5;253"};

typedef struct painter {
    tf_buf *b;
    int colour;
    int flags;         /* the render flags: TAFEL_RENDER_WORDS says words as events */
    uint8_t used[128]; /* the symbols drawn, for the key */
} painter;

static void put_cell(painter *p, const cell *c) {
    p->used[(unsigned char)c->ch & 127] = 1;
    if (!p->colour || (c->look == LOOK_BLANK && c->seat < 0)) {
        tf_buf_addn(p->b, &c->ch, 1);
    } else if (c->seat >= 0) {
        const char *fg = (c->seat == 2 || c->seat == 3) ? "38;5;16" : "38;5;231";
        tf_buf_addf(p->b, "\x1b[1;%s;%sm%c\x1b[0m", fg, tf_seat_bg[c->seat], c->ch);
    } else {
        tf_buf_addf(p->b, "\x1b[%sm%c\x1b[0m", look_colour[c->look], c->ch);
    }
}

/* ---- the picture: the board ----
**
** Tiles are drawn one cell apart.  A seam cell between two tiles shows the
** city ('#') or road that continues across it, and is blank otherwise
** (fields always continue across a road or field edge, so a blank seam
** there just shows where one tile ends).  So one city on two tiles reads
** as one block, and two cities that are not one never touch.  A player's
** last tile has the seat's letter, in lower case, on its four corners.
**
** A board too large for a terminal is cut to a window of SHOWN_X by
** SHOWN_Y positions around what matters now (choose_window); the picture
** says so.  Positions are the rules' coordinates (§8): x to the east, y
** to the north, so the top row is the largest y.
*/

/* A cut board fits 80 columns and about 40 lines: 4 + 6 * 12 + 1 = 77
** columns, 1 + 4 * 8 + 1 = 34 lines with the labels. */
#define SHOWN_X 12
#define SHOWN_Y 8
#define STEP_X (TILE_COLS + 1)
#define STEP_Y (TILE_ROWS + 1)

typedef struct window {
    int x0, x1, y0, y1; /* the positions shown, inclusive */
} window;

static int span(int lo, int hi) { return hi - lo + 1; }

static int window_fits(window w) {
    return span(w.x0, w.x1) <= SHOWN_X && span(w.y0, w.y1) <= SHOWN_Y;
}

static window window_with(window w, int x, int y) {
    if (x < w.x0) w.x0 = x;
    if (x > w.x1) w.x1 = x;
    if (y < w.y0) w.y0 = y;
    if (y > w.y1) w.y1 = y;
    return w;
}

static int window_has(window w, int x, int y) {
    return x >= w.x0 && x <= w.x1 && y >= w.y0 && y <= w.y1;
}

/* The placed tiles and the empty positions around them. */
static window board_extent(const carc_state *s) {
    window w = {0, 0, 0, 0};
    for (int i = 0; i < s->ntiles; i++) w = window_with(w, s->tiles[i].x, s->tiles[i].y);
    return (window){w.x0 - 1, w.x1 + 1, w.y0 - 1, w.y1 + 1};
}

static int hand_fits(const carc_state *s, int x, int y) {
    if (s->phase != CARC_PH_PLACE) return 0;
    for (int r = 0; r < carc_tiles[s->in_hand].rotations; r++)
        if (carc_board_fits(s, s->in_hand, x, y, r)) return 1;
    return 0;
}

/* The seat that placed a tile, -1 for the start tile.  Every turn places
** exactly one tile (one that fits nowhere is removed and the same player
** draws again, rules §2.1), so tile i was placed in turn i, by the seat
** `first` + i - 1 in turn order. */
static int tile_placer(const carc_state *s, int tile) {
    return tile == 0 ? -1 : (s->first + tile - 1) % s->players;
}

/* Each seat's last tile (an index into tiles[]), or -1. */
static void last_tiles(const carc_state *s, int last[TAFEL_MAX_PLAYERS]) {
    for (int p = 0; p < TAFEL_MAX_PLAYERS; p++) last[p] = -1;
    for (int i = s->ntiles - 1; i >= 1; i--) {
        int p = tile_placer(s, i);
        if (last[p] < 0) last[p] = i;
    }
}

/* The largest window that fits, centred on box and inside all. */
static window centre_window(window box, window all) {
    int nx = span(all.x0, all.x1) < SHOWN_X ? span(all.x0, all.x1) : SHOWN_X;
    int ny = span(all.y0, all.y1) < SHOWN_Y ? span(all.y0, all.y1) : SHOWN_Y;
    window w;
    w.x0 = box.x0 - (nx - span(box.x0, box.x1)) / 2;
    if (w.x0 > all.x1 - nx + 1) w.x0 = all.x1 - nx + 1;
    if (w.x0 < all.x0) w.x0 = all.x0;
    w.y0 = box.y0 - (ny - span(box.y0, box.y1)) / 2;
    if (w.y0 > all.y1 - ny + 1) w.y0 = all.y1 - ny + 1;
    if (w.y0 < all.y0) w.y0 = all.y0;
    w.x1 = w.x0 + nx - 1;
    w.y1 = w.y0 + ny - 1;
    return w;
}

typedef struct place {
    int8_t x, y;
    uint8_t distance;
} place;

/* The places where the tile in hand fits, nearest to (x, y) first. */
static int places_by_distance(const carc_state *s, int x, int y, place *out) {
    int n = 0;
    for (int f = 0; f < s->nfrontier; f++) {
        int px = carc_key_x(s->fkey[f]), py = carc_key_y(s->fkey[f]);
        if (!hand_fits(s, px, py)) continue;
        int dx = px > x ? px - x : x - px, dy = py > y ? py - y : y - py;
        place p = {(int8_t)px, (int8_t)py, (uint8_t)(dx > dy ? dx : dy)};
        int i = n++;
        for (; i > 0 && out[i - 1].distance > p.distance; i--) out[i] = out[i - 1];
        out[i] = p;
    }
    return n;
}

static window grow_if_fits(window box, int x, int y) {
    window grown = window_with(box, x, y);
    return window_fits(grown) ? grown : box;
}

/* Of a board too large for a terminal, the part that matters now to seat
** (-1: a spectator): the newest tile, then the other players' last tiles
** (the newest first), then the places where the tile in hand fits (the
** nearest first), then the seat's own last tile, as many as fit together;
** the window is centred on them and filled out around them. */
static window choose_window(const carc_state *s, int seat, window all) {
    if (window_fits(all) || s->ntiles == 0) return all;
    const carc_placed *newest = &s->tiles[s->ntiles - 1];
    window box = {newest->x, newest->x, newest->y, newest->y};
    int last[TAFEL_MAX_PLAYERS];
    last_tiles(s, last);
    for (int i = s->ntiles - 1; i >= 1; i--) {
        int p = tile_placer(s, i);
        if (last[p] == i && p != seat) box = grow_if_fits(box, s->tiles[i].x, s->tiles[i].y);
    }
    place places[CARC_FRONTIER_MAX];
    int n = places_by_distance(s, newest->x, newest->y, places);
    for (int i = 0; i < n; i++) box = grow_if_fits(box, places[i].x, places[i].y);
    if (seat >= 0 && last[seat] >= 0)
        box = grow_if_fits(box, s->tiles[last[seat]].x, s->tiles[last[seat]].y);
    return centre_window(box, all);
}

/* The cells of the shown part of the board, with a margin of one seam
** all round, where the marks of last tiles on the edge of the window go
** and seams show what continues out of a cut window. */
typedef struct canvas {
    window win;
    int w, h;
    cell *c;
} canvas;

static cell *canvas_at(canvas *cv, int row, int col) { return &cv->c[row * cv->w + col]; }
static int tile_col(const canvas *cv, int x) { return 1 + STEP_X * (x - cv->win.x0); }
static int tile_row(const canvas *cv, int y) { return 1 + STEP_Y * (cv->win.y1 - y); }

static int canvas_init(canvas *cv, window win) {
    cv->win = win;
    cv->w = STEP_X * span(win.x0, win.x1) + 1;
    cv->h = STEP_Y * span(win.y0, win.y1) + 1;
    cv->c = malloc((size_t)cv->w * (size_t)cv->h * sizeof *cv->c);
    if (!cv->c) return TAFEL_ENOMEM;
    for (int i = 0; i < cv->w * cv->h; i++) cv->c[i] = blank_cell;
    return TAFEL_OK;
}

/* The tile at (x, y) drawn without followers, and its orientation; 0 when
** the position is empty. */
static int tile_at(const carc_state *s, int x, int y, tile_cells *t, const carc_oriented **o) {
    int tile = carc_board_at(s, x, y);
    if (tile < 0) return 0;
    draw_tile(s->tiles[tile].type, s->tiles[tile].rot, t);
    if (o) *o = carc_orient(s->tiles[tile].type, s->tiles[tile].rot);
    return 1;
}

static void paint_tiles(const carc_state *s, canvas *cv) {
    static const cell fits = {'?', LOOK_BLANK, CARC_NO_SEGMENT, -1};
    for (int y = cv->win.y0; y <= cv->win.y1; y++)
        for (int x = cv->win.x0; x <= cv->win.x1; x++) {
            int tile = carc_board_at(s, x, y), row = tile_row(cv, y), col = tile_col(cv, x);
            if (tile < 0) {
                if (hand_fits(s, x, y)) *canvas_at(cv, row + 1, col + 2) = fits;
                continue;
            }
            tile_cells t;
            tile_picture(s, tile, &t);
            for (int r = 0; r < TILE_ROWS; r++)
                for (int c = 0; c < TILE_COLS; c++) *canvas_at(cv, row + r, col + c) = t.c[r][c];
        }
}

/* A seam cell between border cells a and b of two neighbouring tiles that
** stand for the segments meeting across their edge: the city or road that
** continues there; blank for fields, and beside a wall. */
static cell seam_cell(const cell *a, const cell *b, char road) {
    if (a->seg == CARC_NO_SEGMENT || b->seg == CARC_NO_SEGMENT || a->look != b->look)
        return blank_cell;
    if (a->look == LOOK_CITY) return (cell){'#', LOOK_CITY, CARC_NO_SEGMENT, -1};
    if (a->look == LOOK_ROAD) return (cell){road, LOOK_ROAD, CARC_NO_SEGMENT, -1};
    return blank_cell;
}

/* Between (x, y) and its eastern neighbour: rows ENE|WNW, E|W, ESE|WSW,
** which meet across the edge (rules §7). */
static void paint_seam_east(const carc_state *s, canvas *cv, int x, int y) {
    tile_cells a, b;
    if (!tile_at(s, x, y, &a, NULL) || !tile_at(s, x + 1, y, &b, NULL)) return;
    int row = tile_row(cv, y), col = tile_col(cv, x + 1) - 1;
    for (int r = 0; r < TILE_ROWS; r++)
        *canvas_at(cv, row + r, col) = seam_cell(&a.c[r][TILE_COLS - 1], &b.c[r][0], '-');
}

/* Between (x, y) and its southern neighbour: the middle three columns are
** SSW|NNW, S|N, SSE|NNE.  The corner columns stand for the E and W edges,
** so a city there continues only where it turns the corner onto the S
** edge of the upper tile and the N edge of the lower one. */
static void paint_seam_south(const carc_state *s, canvas *cv, int x, int y) {
    tile_cells a, b;
    const carc_oriented *oa, *ob;
    if (!tile_at(s, x, y, &a, &oa) || !tile_at(s, x, y - 1, &b, &ob)) return;
    int row = tile_row(cv, y) + TILE_ROWS, col = tile_col(cv, x);
    for (int c = 0; c < TILE_COLS; c++) {
        const cell *up = &a.c[TILE_ROWS - 1][c], *down = &b.c[0][c];
        cell seam = seam_cell(up, down, '|');
        if (c == 0 && (up->seg != half_segment(oa, 5) || down->seg != half_segment(ob, 0)))
            seam = blank_cell;
        if (c == TILE_COLS - 1 &&
            (up->seg != half_segment(oa, 4) || down->seg != half_segment(ob, 1)))
            seam = blank_cell;
        *canvas_at(cv, row, col + c) = seam;
    }
}

/* Every seam of the window and of its margin: out of a cut window, a city
** or road drawn on the margin continues on the tile beyond. */
static void paint_seams(const carc_state *s, canvas *cv) {
    const window w = cv->win;
    for (int y = w.y0; y <= w.y1; y++)
        for (int x = w.x0 - 1; x <= w.x1; x++) paint_seam_east(s, cv, x, y);
    for (int y = w.y0; y <= w.y1 + 1; y++)
        for (int x = w.x0; x <= w.x1; x++) paint_seam_south(s, cv, x, y);
}

static int is_city(const cell *c) { return c->look == LOOK_CITY; }

/* Where four tiles meet, filled when the city seams beside it are one city.
** Two seams side by side (up and left, ...) touch the same corner cell of
** a tile, so are one city; so are left and right (the two columns' cities
** meet across their edge).  Up and down alone may be two cities, one on
** the upper two tiles and one on the lower two: then it stays blank. */
static void paint_crossings(canvas *cv) {
    static const cell city = {'#', LOOK_CITY, CARC_NO_SEGMENT, -1};
    for (int row = 0; row < cv->h; row += STEP_Y)
        for (int col = 0; col < cv->w; col += STEP_X) {
            int left = col > 0 && is_city(canvas_at(cv, row, col - 1));
            int right = col < cv->w - 1 && is_city(canvas_at(cv, row, col + 1));
            int up = row > 0 && is_city(canvas_at(cv, row - 1, col));
            int down = row < cv->h - 1 && is_city(canvas_at(cv, row + 1, col));
            if (left + right + up + down >= 2 && (left || right)) *canvas_at(cv, row, col) = city;
        }
}

/* Each player's last tile: the seat's letter in lower case on its four
** corners (in the seat's colour with colours).  Drawn oldest first, so
** the newer one keeps a corner two of them share. */
static void paint_last_tiles(const carc_state *s, canvas *cv) {
    int last[TAFEL_MAX_PLAYERS];
    last_tiles(s, last);
    for (int i = 1; i < s->ntiles; i++) {
        int p = tile_placer(s, i), x = s->tiles[i].x, y = s->tiles[i].y;
        if (last[p] != i || !window_has(cv->win, x, y)) continue;
        cell mark = {(char)(tf_seat_letters[p] - 'A' + 'a'), LOOK_BLANK, CARC_NO_SEGMENT,
                     (int8_t)p};
        int row = tile_row(cv, y) - 1, col = tile_col(cv, x) - 1;
        for (int dr = 0; dr <= STEP_Y; dr += STEP_Y)
            for (int dc = 0; dc <= STEP_X; dc += STEP_X) *canvas_at(cv, row + dr, col + dc) = mark;
    }
}

/* The x labels over the tiles' middles, then each canvas row, the middle
** row of each tile row labelled with its y; no blanks at line ends. */
static void emit_canvas(painter *p, canvas *cv) {
    tf_buf_add(p->b, "    ");
    for (int x = cv->win.x0; x <= cv->win.x1; x++)
        tf_buf_addf(p->b, " %3d%s", x, x < cv->win.x1 ? "  " : "");
    tf_buf_add(p->b, "\n");
    for (int row = 0; row < cv->h; row++) {
        int last = cv->w - 1;
        while (last >= 0 && canvas_at(cv, row, last)->ch == ' ') last--;
        if (row % STEP_Y == 2) tf_buf_addf(p->b, "%3d", cv->win.y1 - row / STEP_Y);
        else if (last >= 0) tf_buf_add(p->b, "   ");
        if (last >= 0) tf_buf_add(p->b, " ");
        for (int col = 0; col <= last; col++) put_cell(p, canvas_at(cv, row, col));
        tf_buf_add(p->b, "\n");
    }
}

/* Says what a cut board leaves out. */
static void say_cut(const carc_state *s, window shown, window all, painter *p) {
    if (shown.x0 == all.x0 && shown.x1 == all.x1 && shown.y0 == all.y0 && shown.y1 == all.y1)
        return;
    tf_say say;
    tf_say_begin(&say, p->b, p->flags, "cut");
    tf_say_int(&say, "x0", shown.x0), tf_say_int(&say, "x1", shown.x1);
    tf_say_int(&say, "y0", shown.y0), tf_say_int(&say, "y1", shown.y1);
    tf_say_int(&say, "all_x0", all.x0), tf_say_int(&say, "all_x1", all.x1);
    tf_say_int(&say, "all_y0", all.y0), tf_say_int(&say, "all_y1", all.y1);
    tf_say_end(&say,
               "Board cut to x %d..%d, y %d..%d (all: x %d..%d, y %d..%d); 'board' shows all.",
               shown.x0, shown.x1, shown.y0, shown.y1, all.x0, all.x1, all.y0, all.y1);
    tf_buf_add(p->b, "\n");
    int outside = 0;
    for (int f = 0; f < s->nfrontier; f++) {
        int x = carc_key_x(s->fkey[f]), y = carc_key_y(s->fkey[f]);
        outside += !window_has(shown, x, y) && hand_fits(s, x, y);
    }
    if (outside) {
        tf_say_begin(&say, p->b, p->flags, "fits_outside");
        tf_say_int(&say, "count", outside);
        tf_say_end(&say, "The tile in hand also fits at %d place%s outside it.", outside,
                   outside == 1 ? "" : "s");
        tf_buf_add(p->b, "\n");
    }
}

static int render_board(const carc_state *s, int seat, int whole, painter *p) {
    window all = board_extent(s), shown = whole ? all : choose_window(s, seat, all);
    canvas cv;
    if (canvas_init(&cv, shown) != TAFEL_OK) return TAFEL_ENOMEM;
    paint_tiles(s, &cv);
    paint_seams(s, &cv);
    paint_crossings(&cv);
    paint_last_tiles(s, &cv);
    emit_canvas(p, &cv);
    free(cv.c);
    say_cut(s, shown, all, p);
    return TAFEL_OK;
}

/* ---- the picture: around the board ---- */

static void render_players(const carc_state *s, painter *p) {
    int last[TAFEL_MAX_PLAYERS];
    last_tiles(s, last);
    for (int seat = 0; seat < s->players; seat++) {
        const char *mark = s->phase != CARC_PH_OVER && seat == s->active ? ">" : " ";
        tf_say say;
        if (p->colour)
            tf_buf_addf(p->b, "%s \x1b[1;38;5;231;%sm %c \x1b[0m ", mark, tf_seat_bg[seat],
                        tf_seat_letters[seat]);
        else
            tf_buf_addf(p->b, "%s %c ", mark, tf_seat_letters[seat]);
        tf_say_begin(&say, p->b, p->flags, "seat"); /* a column: padded */
        tf_say_int(&say, "seat", seat), tf_say_int(&say, "pad", 6);
        tf_say_end(&say, "%-6s", tf_seat_names[seat]);
        tf_buf_addf(p->b, " %3d ", s->score[seat]);
        tf_say_begin(&say, p->b, p->flags, "player");
        tf_say_int(&say, "score", s->score[seat]), tf_say_int(&say, "followers", s->supply[seat]);
        tf_say_end(&say, "points, %d follower%s in supply", s->supply[seat],
                   s->supply[seat] == 1 ? "" : "s");
        if (last[seat] >= 0) {
            const carc_placed *t = &s->tiles[last[seat]];
            tf_say_begin(&say, p->b, p->flags, "last_tile");
            tf_say_str(&say, "id", carc_tiles[t->type].id);
            tf_say_int(&say, "x", t->x), tf_say_int(&say, "y", t->y);
            tf_say_end(&say, ", last tile %s at %d %d", carc_tiles[t->type].id, t->x, t->y);
        }
        tf_buf_add(p->b, "\n");
    }
}

/* The tiles left in the pile by type, as the players may count them:
** "Left in the pile (60): A:1 B:4 D:3 ..." (a colon, for CC1:1); a type not listed is used up. */
static void render_pile(const carc_state *s, painter *p) {
    char item[32];
    int width = snprintf(item, sizeof item, "Left in the pile (%d):", s->pile_total);
    tf_say say; /* the width of the English, a guide in any language */
    tf_say_begin(&say, p->b, p->flags, "pile");
    tf_say_int(&say, "count", s->pile_total);
    tf_say_end(&say, "%s", item);
    for (int t = 0; t < CARC_TILE_TYPES; t++) {
        if (!s->pile[t]) continue;
        int n = snprintf(item, sizeof item, " %s:%d", carc_tiles[t].id, s->pile[t]);
        if (width + n > 79) {
            tf_buf_add(p->b, "\n   ");
            width = 3;
        }
        tf_buf_add(p->b, item);
        width += n;
    }
    if (s->nremoved) {
        tf_buf_add(p->b, width > 54 ? "\n    " : " ");
        tf_say_begin(&say, p->b, p->flags, "removed");
        tf_say_int(&say, "count", s->nremoved);
        tf_say_end(&say, "(%d removed: fit nowhere)", s->nremoved);
    }
    tf_buf_add(p->b, "\n");
}

static void render_hand(const carc_state *s, painter *p) {
    int type = s->in_hand, rots = carc_tiles[type].rotations;
    tile_cells t[4];
    tf_say say;
    tf_say_begin(&say, p->b, p->flags, "hand");
    tf_say_str(&say, "id", carc_tiles[type].id);
    tf_say_end(&say, "Tile in hand: %s", carc_tiles[type].id);
    if (carc_tiles[type].crop) {
        const char *kind = carc_follower_names[carc_crop_segment_kind(carc_tiles[type].crop)];
        char said[32];
        snprintf(said, sizeof said, "hand_crop_%s", kind);
        tf_buf_add(p->b, " ");
        tf_say_begin(&say, p->b, p->flags, said);
        tf_say_end(&say, "(crop circle: %ss)", kind);
    }
    tf_buf_add(p->b, "\n ");
    for (int r = 0; r < rots; r++) {
        draw_tile(type, r, &t[r]);
        tf_buf_addf(p->b, "%5d%s", r * 90, r + 1 < rots ? "   " : "");
    }
    tf_buf_add(p->b, "\n");
    for (int row = 0; row < TILE_ROWS; row++) {
        tf_buf_add(p->b, "  ");
        for (int r = 0; r < rots; r++) {
            for (int c = 0; c < TILE_COLS; c++) put_cell(p, &t[r].c[row][c]);
            if (r + 1 < rots) tf_buf_add(p->b, "   ");
        }
        tf_buf_add(p->b, "\n");
    }
}

/* The tile just placed, cells spread out, with the names of the edges and
** half-edges the follower actions use beside the cells that stand for
** them, so that "follower field ENE" can be found on the picture. */
static void render_new_tile(const carc_state *s, painter *p) {
    static const char *const left[TILE_ROWS] = {"   WNW  ", "     W  ", "   WSW  "};
    static const char *const right[TILE_ROWS] = {"  ENE", "  E", "  ESE"};
    const carc_placed *placed = &s->tiles[s->ntiles - 1];
    tile_cells t;
    draw_tile(placed->type, placed->rot, &t);
    tf_say say;
    tf_say_begin(&say, p->b, p->flags, "placed");
    tf_say_str(&say, "id", carc_tiles[placed->type].id);
    tf_say_int(&say, "x", placed->x), tf_say_int(&say, "y", placed->y);
    tf_say_end(&say, "Tile %s placed at %d %d; followers go on its segments:",
               carc_tiles[placed->type].id, placed->x, placed->y);
    tf_buf_add(p->b, "\n");
    tf_buf_add(p->b, "          NNW N NNE\n");
    for (int r = 0; r < TILE_ROWS; r++) {
        tf_buf_add(p->b, left[r]);
        for (int c = 0; c < TILE_COLS; c++) {
            put_cell(p, &t.c[r][c]);
            if (c + 1 < TILE_COLS) tf_buf_add(p->b, "  ");
        }
        tf_buf_addf(p->b, "%s\n", right[r]);
    }
    tf_buf_add(p->b, "          SSW S SSE\n");
}

/* "R B Y": the seats' letters, as followers (upper case) or as the marks
** of last tiles (lower case). */
static int seat_letters(const carc_state *s, const painter *p, int lower, char *out) {
    int n = 0, used = 0;
    for (int seat = 0; seat < s->players; seat++) {
        char letter = (char)(tf_seat_letters[seat] + (lower ? 'a' - 'A' : 0));
        used |= p->used[(unsigned char)letter];
        if (seat) out[n++] = ' ';
        out[n++] = letter;
    }
    out[n] = 0;
    return used;
}

/* One line of the key for each kind of symbol the picture drew. */
static void render_key(const carc_state *s, painter *p) {
    static const struct {
        const char *symbols, *shown, *kind, *meaning;
    } entries[] = {
        {"#", "#", "key_city", "city; one city on two tiles joins across the gap between them"},
        {"-|", "- |", "key_road", "road"},
        {"+", "+", "key_bend", "road: a bend, or a crossing where the roads end"},
        {".", ".", "key_field", "field"},
        {"C", "C", "key_cloister", "cloister"},
        {"@", "@", "key_crop", "crop circle"},
        {"?", "?", "key_fits", "the tile in hand fits here"},
    };
    char letters[2 * TAFEL_MAX_PLAYERS];
    tf_say_text(p->b, p->flags, "key", "Key:");
    tf_buf_add(p->b, "\n");
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        int used = 0;
        for (const char *c = entries[i].symbols; *c; c++) used |= p->used[(unsigned char)*c];
        if (!used) continue;
        tf_buf_addf(p->b, "  %-10s ", entries[i].shown);
        tf_say_text(p->b, p->flags, entries[i].kind, entries[i].meaning);
        tf_buf_add(p->b, "\n");
    }
    if (seat_letters(s, p, 0, letters)) {
        tf_buf_addf(p->b, "  %-10s ", letters);
        tf_say_text(p->b, p->flags, "key_follower", "a follower of that player, on its feature");
        tf_buf_add(p->b, "\n");
    }
    if (seat_letters(s, p, 1, letters)) {
        tf_buf_addf(p->b, "  %-10s ", letters);
        tf_say_text(p->b, p->flags, "key_last", "corners of that player's last tile");
        tf_buf_add(p->b, "\n");
    }
    tf_buf_add(p->b, "  "); /* "(blank)" is a word: the symbol column is said too */
    tf_say_text(p->b, p->flags, "key_gap",
                "(blank)    the gap between tiles; a blank corner of a tile walls two cities\n"
                "             apart");
    tf_buf_add(p->b, "\n  A:2 B:4    ");
    tf_say_text(p->b, p->flags, "key_pile",
                "tiles left in the pile, by type (the names of \"Tile in hand\")");
    tf_buf_add(p->b, "\n");
}

int carc_render(const void *data, int seat, int flags, tf_buf *b) {
    const carc_state *s = data;
    painter p = {b, flags & TAFEL_RENDER_COLOR, flags, {0}};
    if (render_board(s, seat, flags & TAFEL_RENDER_WHOLE, &p) != TAFEL_OK) return TAFEL_ENOMEM;
    tf_buf_add(b, "\n");
    render_players(s, &p);
    render_pile(s, &p);
    if (s->phase == CARC_PH_PLACE) render_hand(s, &p);
    if (s->phase == CARC_PH_FOLLOWER) render_new_tile(s, &p);
    char kind[32];
    tf_say say;
    if (s->phase == CARC_PH_CROP_CHOOSE) {
        snprintf(kind, sizeof kind, "crop_choose_%s", carc_follower_names[s->crop_kind]);
        tf_say_begin(&say, b, flags, kind);
        tf_say_int(&say, "seat", s->active);
        tf_say_end(&say, "Crop circle (%ss): %s chooses add or remove",
                   carc_follower_names[s->crop_kind], tf_seat_names[s->active]);
        tf_buf_add(b, "\n");
    }
    if (s->phase == CARC_PH_CROP_ACT) { /* one sentence for each mode and kind: grammar */
        snprintf(kind, sizeof kind, "crop_%s_%s", s->crop_mode ? "remove" : "add",
                 carc_follower_names[s->crop_kind]);
        tf_say_begin(&say, b, flags, kind);
        tf_say_int(&say, "seat", carc_crop_actor(s));
        tf_say_end(&say, "Crop circle: each player %s a %s; now %s",
                   s->crop_mode ? "removes" : "may add", carc_follower_names[s->crop_kind],
                   tf_seat_names[carc_crop_actor(s)]);
        tf_buf_add(b, "\n");
    }
    if (s->phase == CARC_PH_OVER) {
        tf_say_text(b, flags, "over", "The game is over.");
        tf_buf_add(b, "\n");
    }
    if (flags & TAFEL_RENDER_KEY) render_key(s, &p);
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}
