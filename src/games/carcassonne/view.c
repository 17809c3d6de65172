/*
** view.c -- what a seat sees: the JSON view and the terminal picture.
**
** Carcassonne hides nothing but the order of the pile, which the state does
** not hold, so every seat's view is the whole position; the remaining
** tiles are shown as counts, as any player can count them.
**
** The picture draws each tile as 3 rows of 5 characters: the edge middles
** and sides show city (#), road (| or -) and field (.), the centre a cloister
** (C) or a road junction (+); a follower is its player's letter on the cell
** of its segment.  With colours, features get background colours and
** followers their player's colour.
*/
#include "carcassonne.h"
#include "seats.h"

#include <stdio.h>
#include <string.h>

static const char *const phase_names[] = {"draw", "place", "follower",
                                          "crop_choice", "crop_act", "over"};

static void json_ints(tf_buf *b, const char *key, const int16_t *v, int n) {
    tf_buf_addf(b, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) tf_buf_addf(b, "%s%d", i ? "," : "", v[i]);
    tf_buf_add(b, "]");
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
    tf_buf_add(b, "],\"crop\":");
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

/* ---- the picture ---- */

enum { CELL_NONE, CELL_FIELD, CELL_CITY, CELL_ROAD, CELL_CLOISTER, CELL_JUNCTION };

typedef struct cell {
    char ch;
    uint8_t look;   /* CELL_* */
    int8_t player;  /* follower on this cell, or -1 */
} cell;

/* Cells of one tile: [row][col], 3 x 5. seg_cell gives each segment's cell. */
static void draw_tile(int type, int rot, cell out[3][5], int seg_row[8], int seg_col[8]) {
    const carc_oriented *o = carc_orient(type, rot);
    const carc_tile *t = &carc_tiles[type];
    /* half h -> cell */
    static const int hr[8] = {0, 0, 0, 2, 2, 2, 2, 0}, hc[8] = {1, 3, 4, 4, 3, 1, 0, 0};
    static const int er[4] = {0, 1, 2, 1}, ec[4] = {2, 4, 2, 0};
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 5; c++) out[r][c] = (cell){'.', CELL_FIELD, -1};
    for (int h = 0; h < 8; h++) {
        int g = o->half_seg[h];
        if (g != CARC_NO_SEGMENT) seg_row[g] = hr[h], seg_col[g] = hc[h];
    }
    int roads_ending = 0, through = 0;
    for (int g = 0; g < t->nseg; g++) {
        int kind = t->seg[g].kind, edges = o->seg_edges[g], count = 0;
        if (kind == CARC_CLOISTER) {
            out[1][2] = (cell){'C', CELL_CLOISTER, -1};
            seg_row[g] = 1, seg_col[g] = 2;
            continue;
        }
        if (kind == CARC_FIELD) continue;
        for (int d = 0; d < 4; d++) {
            if (!(edges >> d & 1)) continue;
            if (!count++) seg_row[g] = er[d], seg_col[g] = ec[d];
            if (kind == CARC_CITY) {
                if (d == 0 || d == 2)
                    for (int c = 0; c < 5; c++) out[d ? 2 : 0][c] = (cell){'#', CELL_CITY, -1};
                else
                    for (int r = 0; r < 3; r++) out[r][d == 1 ? 4 : 0] = (cell){'#', CELL_CITY, -1};
            } else {
                char ch = (d == 0 || d == 2) ? '|' : '-';
                out[er[d]][ec[d]] = (cell){ch, CELL_ROAD, -1};
                if (d == 1) out[1][3] = (cell){'-', CELL_ROAD, -1};
                if (d == 3) out[1][1] = (cell){'-', CELL_ROAD, -1};
            }
        }
        if (kind == CARC_CITY && (count >= 3 || edges == 5 || edges == 10))
            for (int c = 1; c < 4; c++) out[1][c] = (cell){'#', CELL_CITY, -1};
        if (kind == CARC_ROAD) {
            if (count == 1) roads_ending++;
            else through = edges;
        }
    }
    if (out[1][2].look != CELL_CLOISTER) {
        if (roads_ending) out[1][2] = (cell){'+', CELL_JUNCTION, -1};
        else if (through) out[1][2] = (cell){through == 5 ? '|' : through == 10 ? '-' : '+',
                                             CELL_ROAD, -1};
    }
    if (t->crop) out[1][2] = (cell){'@', out[1][2].look == CELL_CITY ? CELL_CITY : CELL_JUNCTION, -1};
}

static const char *const look_colour[] = {"0", "38;5;22;48;5;71", "38;5;94;48;5;180",
                                          "38;5;240;48;5;253", "38;5;231;48;5;124",
                                          "38;5;16;48;5;253"};

static void put_cell(tf_buf *b, const cell *c, int colour) {
    char ch = c->player >= 0 ? tf_seat_letters[c->player] : c->ch;
    if (!colour) {
        tf_buf_addn(b, &ch, 1);
        return;
    }
    if (c->player >= 0) {
        const char *fg = (c->player == 2 || c->player == 3) ? "38;5;16" : "38;5;231";
        tf_buf_addf(b, "\x1b[1;%s;%sm%c\x1b[0m", fg, tf_seat_bg[c->player], ch);
    } else {
        tf_buf_addf(b, "\x1b[%sm%c\x1b[0m", look_colour[c->look], ch);
    }
}

static void render_board(const carc_state *s, int colour, tf_buf *b) {
    int minx = 0, maxx = 0, miny = 0, maxy = 0;
    for (int i = 0; i < s->ntiles; i++) {
        const carc_placed *p = &s->tiles[i];
        if (p->x < minx) minx = p->x;
        if (p->x > maxx) maxx = p->x;
        if (p->y < miny) miny = p->y;
        if (p->y > maxy) maxy = p->y;
    }
    minx--, maxx++, miny--, maxy++; /* room for the frontier */
    tf_buf_add(b, "     ");
    for (int x = minx; x <= maxx; x++) tf_buf_addf(b, "%4d ", x);
    tf_buf_add(b, "\n");
    for (int y = maxy; y >= miny; y--) {
        for (int r = 0; r < 3; r++) {
            if (r == 1) tf_buf_addf(b, "%4d ", y);
            else tf_buf_add(b, "     ");
            for (int x = minx; x <= maxx; x++) {
                int tile = carc_board_at(s, x, y);
                if (tile < 0) {
                    int open = s->phase == CARC_PH_PLACE &&
                               (carc_board_fits(s, s->in_hand, x, y, 0) ||
                                carc_board_fits(s, s->in_hand, x, y, 1) ||
                                carc_board_fits(s, s->in_hand, x, y, 2) ||
                                carc_board_fits(s, s->in_hand, x, y, 3));
                    tf_buf_add(b, r == 1 && open ? "  ?  " : "     ");
                    continue;
                }
                cell cells[3][5];
                int sr[8] = {0}, sc[8] = {0};
                draw_tile(s->tiles[tile].type, s->tiles[tile].rot, cells, sr, sc);
                for (int i = 0; i < s->nfollowers; i++)
                    if (s->followers[i].tile == tile)
                        cells[sr[s->followers[i].seg]][sc[s->followers[i].seg]].player =
                            (int8_t)s->followers[i].player;
                for (int c = 0; c < 5; c++) put_cell(b, &cells[r][c], colour);
            }
            tf_buf_add(b, "\n");
        }
    }
}

static void render_hand(const carc_state *s, int colour, tf_buf *b) {
    int type = s->in_hand;
    cell cells[4][3][5];
    int sr[8], sc[8];
    int rots = carc_tiles[type].rotations;
    tf_buf_addf(b, "Tile in hand: %s", carc_tiles[type].id);
    if (carc_tiles[type].crop)
        tf_buf_addf(b, " (crop circle: %ss)",
                    carc_follower_names[carc_crop_segment_kind(carc_tiles[type].crop)]);
    tf_buf_add(b, "\n ");
    for (int r = 0; r < rots; r++) {
        draw_tile(type, r, cells[r], sr, sc);
        tf_buf_addf(b, "%5d   ", r * 90);
    }
    tf_buf_add(b, "\n");
    for (int row = 0; row < 3; row++) {
        tf_buf_add(b, "  ");
        for (int r = 0; r < rots; r++) {
            for (int c = 0; c < 5; c++) put_cell(b, &cells[r][row][c], colour);
            tf_buf_add(b, "   ");
        }
        tf_buf_add(b, "\n");
    }
}

/* The tile just placed, with the names the follower actions use around it,
** so that "follower field SSW" can be found on the picture. */
static void render_new_tile(const carc_state *s, int colour, tf_buf *b) {
    const carc_placed *p = &s->tiles[s->ntiles - 1];
    cell cells[3][5];
    int sr[8], sc[8];
    draw_tile(p->type, p->rot, cells, sr, sc);
    static const char *const left[3] = {"   WNW ", "     W ", "   WSW "};
    static const char *const right[3] = {" ENE", " E", " ESE"};
    tf_buf_addf(b, "Tile %s placed at %d %d; followers go on its segments:\n",
                carc_tiles[p->type].id, p->x, p->y);
    tf_buf_add(b, "        NNW N NNE\n");
    for (int r = 0; r < 3; r++) {
        tf_buf_add(b, left[r]);
        tf_buf_add(b, " ");
        for (int c = 0; c < 5; c++) {
            put_cell(b, &cells[r][c], colour);
            tf_buf_add(b, c < 4 ? " " : "");
        }
        tf_buf_addf(b, "%s\n", right[r]);
    }
    tf_buf_add(b, "        SSW S SSE\n");
}

int carc_render(const void *data, int seat, int flags, tf_buf *b) {
    const carc_state *s = data;
    int colour = flags & TAFEL_RENDER_COLOR;
    (void)seat;
    render_board(s, colour, b);
    tf_buf_add(b, "\n");
    for (int p = 0; p < s->players; p++) {
        const char *mark = s->phase != CARC_PH_OVER && p == s->active ? ">" : " ";
        if (colour)
            tf_buf_addf(b, "%s \x1b[1;38;5;231;%sm %c \x1b[0m %-6s %3d points, %d follower%s in supply\n",
                        mark, tf_seat_bg[p], tf_seat_letters[p], tf_seat_names[p], s->score[p],
                        s->supply[p], s->supply[p] == 1 ? "" : "s");
        else
            tf_buf_addf(b, "%s %c %-6s %3d points, %d follower%s in supply\n", mark,
                        tf_seat_letters[p], tf_seat_names[p], s->score[p], s->supply[p],
                        s->supply[p] == 1 ? "" : "s");
    }
    tf_buf_addf(b, "Tiles left in the pile: %d", s->pile_total);
    if (s->nremoved) tf_buf_addf(b, " (%d removed: fit nowhere)", s->nremoved);
    tf_buf_add(b, "\n");
    if (s->phase == CARC_PH_PLACE) render_hand(s, colour, b);
    if (s->phase == CARC_PH_FOLLOWER) render_new_tile(s, colour, b);
    if (s->phase == CARC_PH_CROP_CHOOSE)
        tf_buf_addf(b, "Crop circle (%ss): %s chooses add or remove\n", carc_follower_names[s->crop_kind],
                    tf_seat_names[s->active]);
    if (s->phase == CARC_PH_CROP_ACT)
        tf_buf_addf(b, "Crop circle: each player %s a %s; now %s\n",
                    s->crop_mode ? "removes" : "may add", carc_follower_names[s->crop_kind],
                    tf_seat_names[carc_crop_actor(s)]);
    if (s->phase == CARC_PH_OVER) tf_buf_add(b, "The game is over.\n");
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}
