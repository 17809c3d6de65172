/*
** test_carcassonne_view.c -- the terminal picture of Carcassonne (issue 14).
**
** The picture is read back as text, the way a player reads it: each tile is
** 3 rows of 5 cells under its x label and beside its y label, and each of
** the 12 border cells stands for one edge or half-edge (rules §7):
**
**        NNW N NNE
**   WNW  .  #  #  #  .  ENE       row 0: WNW NNW N NNE ENE
**     W  -  -  +  -  -  E         row 1: W . . . E
**   WSW  .  .  |  .  .  ESE       row 2: WSW SSW S SSE ESE
**        SSW S SSE
**
** What is drawn there is checked against the tile data and the features of
** the engine (white-box: the union-find of features.c says which segments
** are one city), not against the view's own tables.
*/
#include "helpers.h"

#include "core/module.h"
#include "games/carcassonne/carcassonne.h"

static carc_state *data(tafel_state *s) { return tf_state_data(s); }

/* ---- reading a picture ---- */

#define MAX_LINES 2048

typedef struct picture {
    char *text;
    char *line[MAX_LINES];
    int n;
    int board_end; /* the first line after the board */
} picture;

static int is_player_line(const char *line) {
    return (line[0] == '>' || line[0] == ' ') && line[1] == ' ' && line[2] &&
           strchr("RBYGK", line[2]) && line[3] == ' ';
}

static void picture_read(picture *p, const tafel_state *s, int flags) {
    p->text = tafel_state_render(s, -1, flags);
    assert_non_null(p->text);
    p->n = 0;
    for (char *at = p->text; *at && p->n < MAX_LINES;) {
        p->line[p->n++] = at;
        char *nl = strchr(at, '\n');
        if (!nl) break;
        *nl = 0;
        at = nl + 1;
    }
    p->board_end = p->n;
    for (int i = 1; i < p->n; i++)
        if (is_player_line(p->line[i]) || !strncmp(p->line[i], "Board cut", 9)) {
            p->board_end = i;
            while (p->board_end > 1 && p->line[p->board_end - 1][0] == 0) p->board_end--;
            break;
        }
}

static void picture_free(picture *p) { free(p->text); }

static char char_at(const picture *p, int line, int col) {
    if (line < 0 || line >= p->board_end || col < 0) return ' ';
    return (size_t)col < strlen(p->line[line]) ? p->line[line][col] : ' ';
}

/* The line and column of the top-left cell of position (x, y): the middle
** row is the line labelled y, the middle column is under the last digit of
** the x label.  0 when the position is not in the picture. */
static int tile_origin(const picture *p, int x, int y, int *line, int *col) {
    *line = *col = -1;
    const char *header = p->line[0];
    for (const char *at = header; *at;) {
        char *end;
        long v = strtol(at, &end, 10);
        if (end == at) {
            at++;
            continue;
        }
        if (v == x) *col = (int)(end - header) - 1 - 2;
        at = end;
    }
    for (int i = 1; i < p->board_end; i++) {
        if (strlen(p->line[i]) < 3) continue;
        char label[4] = {0};
        memcpy(label, p->line[i], 3);
        char *end;
        long v = strtol(label, &end, 10);
        if (end != label && (p->line[i][3] == ' ' || p->line[i][3] == 0) && v == y)
            *line = i - 1;
    }
    return *line >= 0 && *col >= 0;
}

/* ---- the cells of a tile, from the tile data ---- */

/* Border cells: edges N E S W, then halves NNW .. WNW. */
static const int port_row[12] = {0, 1, 2, 1, 0, 0, 0, 2, 2, 2, 2, 0};
static const int port_col[12] = {2, 4, 2, 0, 1, 3, 4, 4, 3, 1, 0, 0};

/* The segment a border cell stands for: an edge's city or road, else its
** field; a half's field, else the city of its edge. */
static int port_segment(const carc_oriented *o, int port) {
    if (port < 4) return o->edge_seg[port] != CARC_NO_SEGMENT ? o->edge_seg[port]
                                                              : o->half_seg[2 * port];
    int h = port - 4;
    return o->half_seg[h] != CARC_NO_SEGMENT ? o->half_seg[h] : o->edge_seg[h / 2];
}

static int port_at(int r, int c) {
    for (int p = 0; p < 12; p++)
        if (port_row[p] == r && port_col[p] == c) return p;
    return -1;
}

static int is_corner(int r, int c) { return (r == 0 || r == 2) && (c == 0 || c == 4); }

static int char_fits_kind(char ch, int kind) {
    switch (kind) {
    case CARC_CITY: return ch == '#';
    case CARC_ROAD: return ch == '-' || ch == '|' || ch == '+';
    case CARC_FIELD: return ch == '.';
    default: return ch == 'C';
    }
}

/* 1 when a road ends on the tile: its centre is then no road cell. */
static int roads_end_on(int type, int rot) {
    const carc_tile *t = &carc_tiles[type];
    const carc_oriented *o = carc_orient(type, rot);
    for (int g = 0; g < t->nseg; g++) {
        int e = o->seg_edges[g];
        if (t->seg[g].kind == CARC_ROAD && (e & (e - 1)) == 0) return 1;
    }
    return 0;
}

/* One step of a seeded random game. */
static void random_step(tafel_state *s, uint64_t *rng) {
    tafel_action scratch[4 * CARC_FRONTIER_MAX];
    assert_int_equal(tafel_state_play_random(s, rng, scratch, 4 * CARC_FRONTIER_MAX, NULL),
                     TAFEL_OK);
}

/* ---- issue 14.2: a follower is drawn on its own segment ---- */

/* A state whose only tile is type at rot, at 0 0, with Red's follower on
** seg (seg < 0: none).  White-box: the start tile is replaced. */
static tafel_state *lone_tile(int type, int rot, int seg) {
    tafel_state *s = h_state("carcassonne(crop_circles=true)");
    carc_state *c = data(s);
    c->ntiles = 0;
    c->nfrontier = 0;
    memset(c->hash, 0, sizeof c->hash);
    carc_board_place(c, type, 0, 0, rot);
    if (seg >= 0) carc_follower_put(c, 0, 0, seg);
    return s;
}

/* Flood fill over the cells of one tile that look like kind, from (r, c);
** seen[][] marks the cells reached. */
static void fill_tile(const picture *p, int line, int col, int kind, int centre_blocked, int r,
                      int c, int seen[3][5]) {
    if (r < 0 || r > 2 || c < 0 || c > 4 || seen[r][c]) return;
    if (!char_fits_kind(char_at(p, line + r, col + c), kind)) return;
    if (kind == CARC_ROAD && centre_blocked && r == 1 && c == 2) return;
    seen[r][c] = 1;
    fill_tile(p, line, col, kind, centre_blocked, r + 1, c, seen);
    fill_tile(p, line, col, kind, centre_blocked, r - 1, c, seen);
    fill_tile(p, line, col, kind, centre_blocked, r, c + 1, seen);
    fill_tile(p, line, col, kind, centre_blocked, r, c - 1, seen);
}

/* Where Red's follower is drawn, as (row, col) in the tile; fails unless it
** is drawn once, inside the tile. */
static void find_follower(const picture *p, int line, int col, int *fr, int *fc, const char *what) {
    int found = 0;
    for (int i = 1; i < p->board_end; i++)
        for (const char *at = strchr(p->line[i], 'R'); at; at = strchr(at + 1, 'R')) {
            *fr = i - line;
            *fc = (int)(at - p->line[i]) - col;
            found++;
        }
    if (found != 1 || *fr < 0 || *fr > 2 || *fc < 0 || *fc > 4)
        fail_msg("%s: the follower is drawn %d times, last at row %d col %d of the tile", what,
                 found, *fr, *fc);
}

static void check_follower_spot(int type, int rot, int seg) {
    const carc_tile *t = &carc_tiles[type];
    const carc_oriented *o = carc_orient(type, rot);
    int kind = t->seg[seg].kind;
    char what[64];
    snprintf(what, sizeof what, "%s at %d, %s segment %d", t->id, rot * 90,
             carc_kind_names[kind], seg);
    tafel_state *with = lone_tile(type, rot, seg), *without = lone_tile(type, rot, -1);
    picture pw, po;
    picture_read(&pw, with, TAFEL_RENDER_WHOLE);
    picture_read(&po, without, TAFEL_RENDER_WHOLE);
    int line, col, r = -1, c = -1;
    if (!tile_origin(&po, 0, 0, &line, &col)) fail_msg("%s: tile 0 0 not found", what);
    find_follower(&pw, line, col, &r, &c, what);
    char under = char_at(&po, line + r, col + c);
    if (!char_fits_kind(under, kind))
        fail_msg("%s: the follower is drawn on '%c' (row %d col %d)", what, under, r, c);
    if (kind != CARC_CLOISTER) {
        /* the cells joined to the follower's reach its own edges only */
        int seen[3][5] = {{0}}, reached = 0;
        fill_tile(&po, line, col, kind, roads_end_on(type, rot), r, c, seen);
        for (int port = 0; port < 12; port++) {
            if (!seen[port_row[port]][port_col[port]]) continue;
            int g = port_segment(o, port);
            if (g != seg)
                fail_msg("%s: the follower's cells reach row %d col %d, segment %d's", what,
                         port_row[port], port_col[port], g);
            reached++;
        }
        if (!reached) fail_msg("%s: the follower's cells reach none of its edges", what);
    }
    picture_free(&pw);
    picture_free(&po);
    tafel_state_free(with);
    tafel_state_free(without);
}

/* Issue 14.2: `follower field ENE` on an H tile was drawn on the city. */
static void test_every_follower_is_drawn_on_its_own_segment(void **unused) {
    (void)unused;
    for (int type = 0; type < CARC_TILE_TYPES; type++)
        for (int rot = 0; rot < carc_tiles[type].rotations; rot++)
            for (int seg = 0; seg < carc_tiles[type].nseg; seg++)
                check_follower_spot(type, rot, seg);
}

/* The repro of issue 14.2 (tafel play carcassonne --players human,greedy
** --seed 5, Red answering 1 each time): Blue's farmer on the H at -4 1,
** cities north and south, was drawn on the north city. */
static void test_the_farmer_on_the_H_of_issue_14_stands_in_its_field(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    play(s, "draw U", "place -1 0 0", "pass", "draw P", "place 1 0 180", "follower road N",
         "draw C", "place 0 1 0", "pass", "draw K", "place 1 1 270", "follower city W", "draw O",
         "place -2 0 0", "pass", "draw M", "place -2 1 180", "follower city E", "draw O",
         "place -3 0 90", "pass", "draw X", "place -2 -1 0", "pass", "draw B", "place -2 2 0",
         "pass", "draw F", "place -3 1 90", "pass", "draw L", "place -4 0 0", "pass", "draw H",
         "place -4 1 0", "follower field ENE", "draw A");
    tafel_state *bare = tafel_state_clone(s);
    data(bare)->nfollowers = 0;
    picture p, q;
    picture_read(&p, s, TAFEL_RENDER_WHOLE);
    picture_read(&q, bare, TAFEL_RENDER_WHOLE);
    int line, col, found = 0;
    assert_true(tile_origin(&p, -4, 1, &line, &col));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 5; c++) {
            if (char_at(&p, line + r, col + c) != 'B') continue;
            found++;
            if (char_at(&q, line + r, col + c) != '.')
                fail_msg("the farmer stands on '%c'", char_at(&q, line + r, col + c));
        }
    assert_int_equal(found, 1);
    picture_free(&p);
    picture_free(&q);
    tafel_state_free(s);
    tafel_state_free(bare);
}

/* Each border cell shows its segment's kind (a corner between two cities
** of one tile may be a blank wall), and no cell of a lone tile is blank
** otherwise. */
static void test_every_border_cell_shows_its_edge(void **unused) {
    (void)unused;
    for (int type = 0; type < CARC_TILE_TYPES; type++)
        for (int rot = 0; rot < carc_tiles[type].rotations; rot++) {
            tafel_state *s = lone_tile(type, rot, -1);
            picture p;
            picture_read(&p, s, TAFEL_RENDER_WHOLE);
            int line, col;
            assert_true(tile_origin(&p, 0, 0, &line, &col));
            const carc_oriented *o = carc_orient(type, rot);
            const char *id = carc_tiles[type].id;
            /* the view shows a field edge's field: one field on both halves */
            for (int d = 0; d < 4; d++)
                if (o->edge_seg[d] == CARC_NO_SEGMENT)
                    assert_int_equal(o->half_seg[2 * d], o->half_seg[2 * d + 1]);
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 5; c++) {
                    char ch = char_at(&p, line + r, col + c);
                    int port = port_at(r, c);
                    if (port < 0) {
                        if (ch == ' ') fail_msg("%s at %d: row 1 col %d blank", id, rot * 90, c);
                        continue;
                    }
                    int kind = carc_tiles[type].seg[port_segment(o, port)].kind;
                    int wall = ch == ' ' && kind == CARC_CITY && is_corner(r, c);
                    if (!char_fits_kind(ch, kind) && !wall)
                        fail_msg("%s at %d: row %d col %d is '%c', its edge is a %s", id, rot * 90,
                                 r, c, ch, carc_kind_names[kind]);
                }
            picture_free(&p);
            tafel_state_free(s);
        }
}

/* ---- issue 14.1: one city is one block, two cities never touch ---- */

typedef struct grid {
    int h, w;
    int *id; /* component of each '#' cell, -1 elsewhere */
} grid;

static void label_cities(const picture *p, grid *g) {
    g->h = p->board_end;
    g->w = 0;
    for (int i = 0; i < g->h; i++)
        if ((int)strlen(p->line[i]) > g->w) g->w = (int)strlen(p->line[i]);
    g->id = malloc((size_t)(g->h * g->w + 1) * sizeof *g->id);
    assert_non_null(g->id);
    int *stack = malloc((size_t)(g->h * g->w + 1) * sizeof *stack), n = 0, next = 0;
    assert_non_null(stack);
    for (int i = 0; i < g->h * g->w; i++) g->id[i] = -1;
    for (int start = 0; start < g->h * g->w; start++) {
        if (g->id[start] >= 0 || char_at(p, start / g->w, start % g->w) != '#') continue;
        g->id[start] = next;
        stack[n++] = start;
        while (n) {
            int at = stack[--n], r = at / g->w, c = at % g->w;
            static const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
            for (int d = 0; d < 4; d++) {
                int rr = r + dr[d], cc = c + dc[d];
                if (rr < 1 || rr >= g->h || cc < 0 || cc >= g->w) continue;
                if (g->id[rr * g->w + cc] >= 0 || char_at(p, rr, cc) != '#') continue;
                g->id[rr * g->w + cc] = next;
                stack[n++] = rr * g->w + cc;
            }
        }
        next++;
    }
    free(stack);
}

/* The whole board without followers (they hide the cell under them): every
** city feature of the engine must be exactly one connected block of '#',
** and every block one feature. */
static void check_cities_are_blocks(const tafel_state *state, const char *when) {
    tafel_state *s = tafel_state_clone(state);
    carc_state *c = data(s);
    c->nfollowers = 0;
    picture p;
    picture_read(&p, s, TAFEL_RENDER_WHOLE);
    grid g;
    label_cities(&p, &g);
    int ncomp = 0;
    for (int i = 0; i < g.h * g.w; i++)
        if (g.id[i] + 1 > ncomp) ncomp = g.id[i] + 1;
    int *feature_of = malloc((size_t)(ncomp + 1) * sizeof *feature_of);
    int comp_of[CARC_NODES];
    assert_non_null(feature_of);
    for (int i = 0; i < ncomp; i++) feature_of[i] = -1;
    for (int i = 0; i < CARC_NODES; i++) comp_of[i] = -1;
    for (int t = 0; t < c->ntiles; t++) {
        int line, col;
        if (!tile_origin(&p, c->tiles[t].x, c->tiles[t].y, &line, &col))
            fail_msg("%s: tile %d not in the picture", when, t);
        const carc_oriented *o = carc_orient(c->tiles[t].type, c->tiles[t].rot);
        for (int port = 0; port < 12; port++) {
            int seg = port_segment(o, port);
            if (carc_tiles[c->tiles[t].type].seg[seg].kind != CARC_CITY) continue;
            int r = line + port_row[port], col_at = col + port_col[port];
            char ch = char_at(&p, r, col_at);
            if (ch == ' ' && is_corner(port_row[port], port_col[port])) continue; /* a wall */
            if (ch != '#')
                fail_msg("%s: tile %s at %d %d shows '%c' for a city", when,
                         carc_tiles[c->tiles[t].type].id, c->tiles[t].x, c->tiles[t].y, ch);
            int comp = g.id[r * g.w + col_at], root = carc_find(c, t * CARC_MAX_SEGMENTS + seg);
            if (feature_of[comp] >= 0 && feature_of[comp] != root) {
                for (int k = 0; k < p.board_end; k++) print_message("%s\n", p.line[k]);
                fail_msg("%s: two cities touch as one block at tile %s at %d %d", when,
                         carc_tiles[c->tiles[t].type].id, c->tiles[t].x, c->tiles[t].y);
            }
            if (comp_of[root] >= 0 && comp_of[root] != comp)
                fail_msg("%s: one city is drawn as two blocks, at tile %s at %d %d", when,
                         carc_tiles[c->tiles[t].type].id, c->tiles[t].x, c->tiles[t].y);
            feature_of[comp] = root;
            comp_of[root] = comp;
        }
    }
    for (int i = 0; i < ncomp; i++)
        if (feature_of[i] < 0) fail_msg("%s: a block of '#' that is no city", when);
    free(feature_of);
    free(g.id);
    picture_free(&p);
    tafel_state_free(s);
}

/* The repro of issue 14.1: an L beside the start tile, both cities north. */
static void test_an_L_beside_the_start_tile_shows_two_cities(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=3,crop_circles=true)");
    play(s, "draw L", "place -1 0 0");
    check_cities_are_blocks(s, "L beside D");
    picture p;
    picture_read(&p, s, 0);
    int line, col;
    assert_true(tile_origin(&p, -1, 0, &line, &col));
    assert_string_equal(p.line[line] + col, ".###. .###.");
    assert_string_equal(p.line[line + 1] + col, "--+--------");
    assert_string_equal(p.line[line + 2] + col, "..|.. .....");
    picture_free(&p);
    tafel_state_free(s);
}

/* One city on two tiles: D's city closed by an E turned to face it. */
static void test_a_city_on_two_tiles_reads_as_one(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    play(s, "draw E", "place 0 1 180", "pass");
    check_cities_are_blocks(s, "E on D");
    picture p;
    picture_read(&p, s, 0);
    int line, col;
    assert_true(tile_origin(&p, 0, 1, &line, &col));
    assert_string_equal(p.line[line + 2] + col, ".###.");
    assert_string_equal(p.line[line + 3] + col, " ### r"); /* Red's last tile */
    assert_string_equal(p.line[line + 4] + col, ".###.");
    picture_free(&p);
    tafel_state_free(s);
}

/* Random games, every few actions: cities are blocks, whole boards too. */
static void test_in_random_games_every_city_is_one_block(void **unused) {
    (void)unused;
    static const char *const games[] = {"carcassonne(players=2)",
                                        "carcassonne(players=3,crop_circles=true)",
                                        "carcassonne(players=5,crop_circles=true,first=2)"};
    int per_game = SLOW_BUILD ? 2 : 10;
    for (int g = 0; g < 3; g++)
        for (int k = 0; k < per_game; k++) {
            tafel_state *s = h_state(games[g]);
            uint64_t rng = tafel_rng_seed((uint64_t)(100 * g + k));
            for (int step = 0; tafel_state_current(s) != TAFEL_TERMINAL; step++) {
                random_step(s, &rng);
                if (step % 7 == 0) {
                    char when[128];
                    snprintf(when, sizeof when, "%s, seed %d, step %d", games[g], 100 * g + k,
                             step);
                    check_cities_are_blocks(s, when);
                }
            }
            check_cities_are_blocks(s, "the end");
            tafel_state_free(s);
        }
}

/* ---- issue 14.5: each player's last tile, and a board that fits ---- */

/* Red L at -1 0, Blue E at 0 1, Yellow U at 1 0, Red E at -1 1: each
** player's last tile has the seat's letter on its corners, and the players'
** lines name it. */
static void test_each_players_last_tile_is_marked(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=3)");
    h_turn(s, "L", -1, 0, 0, NULL);
    h_turn(s, "E", 0, 1, 180, NULL);
    h_turn(s, "U", 1, 0, 0, NULL);
    h_turn(s, "E", -1, 1, 180, NULL); /* Red again: now this is Red's last */
    play(s, "draw V");
    picture p;
    picture_read(&p, s, 0);
    static const struct {
        int x, y;
        char mark;
        const char *line;
    } last[] = {{-1, 1, 'r', "last tile E at -1 1"},
                {0, 1, 'b', "last tile E at 0 1"},
                {1, 0, 'y', "last tile U at 1 0"}};
    for (int i = 0; i < 3; i++) {
        int line, col;
        assert_true(tile_origin(&p, last[i].x, last[i].y, &line, &col));
        /* a corner shared with a newer last tile shows the newer one */
        int own = 0;
        for (int dr = -1; dr <= 3; dr += 4)
            for (int dc = -1; dc <= 5; dc += 6) {
                char ch = char_at(&p, line + dr, col + dc);
                own += ch == last[i].mark;
                if (!strchr("rby", ch))
                    fail_msg("tile %d %d: corner shows '%c'", last[i].x, last[i].y, ch);
            }
        if (own < 1)
            fail_msg("tile %d %d: no corner marked '%c'", last[i].x, last[i].y, last[i].mark);
        int named = 0;
        for (int k = 0; k < p.n; k++)
            named |= is_player_line(p.line[k]) && strstr(p.line[k], last[i].line);
        if (!named) fail_msg("no player's line says '%s'", last[i].line);
    }
    /* Red's L at -1 0 is no longer its last tile: its lower corners are bare */
    int line, col;
    assert_true(tile_origin(&p, -1, 0, &line, &col));
    assert_int_equal(char_at(&p, line - 1, col - 1), 'r'); /* shared with E at -1 1 */
    assert_int_equal(char_at(&p, line + 3, col - 1), ' ');
    picture_free(&p);
    tafel_state_free(s);
}

/* The last tile of each seat, as the picture names it, is the one that seat
** placed last, however the turns went (removals, crop circles, first=K). */
static void test_the_last_tiles_named_are_the_ones_placed(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=4,crop_circles=true,first=3)");
    uint64_t rng = tafel_rng_seed(7);
    char expected[TAFEL_MAX_PLAYERS][64] = {{0}};
    while (tafel_state_current(s) != TAFEL_TERMINAL) {
        int seat = tafel_state_current(s);
        const char *hand = seat >= 0 && data(s)->phase == CARC_PH_PLACE
                               ? carc_tiles[data(s)->in_hand].id : NULL;
        random_step(s, &rng);
        if (!hand) continue;
        const carc_placed *t = &data(s)->tiles[data(s)->ntiles - 1];
        snprintf(expected[seat], sizeof expected[seat], "last tile %s at %d %d", hand, t->x, t->y);
        picture p;
        picture_read(&p, s, 0);
        for (int k = 0; k < p.n; k++) {
            if (!is_player_line(p.line[k])) continue;
            int who = (int)(strchr("RBYGK", p.line[k][2]) - "RBYGK");
            if (!strstr(p.line[k], expected[who][0] ? expected[who] : "points"))
                fail_msg("'%s' does not say '%s'", p.line[k], expected[who]);
            if (!expected[who][0] && strstr(p.line[k], "last tile"))
                fail_msg("'%s': that player placed no tile yet", p.line[k]);
        }
        picture_free(&p);
    }
    tafel_state_free(s);
}

/* A board larger than a terminal is cut to 80 columns and at most 40 lines,
** says so, and keeps the newest tile and the places the tile fits in view
** or counts them; TAFEL_RENDER_WHOLE draws it all. */
static void check_fits_terminal(const tafel_state *s, const char *when) {
    picture p, whole;
    picture_read(&p, s, 0);
    picture_read(&whole, s, TAFEL_RENDER_WHOLE);
    for (int k = 0; k < p.n; k++)
        if (strlen(p.line[k]) > 80)
            fail_msg("%s: line %d has %zu columns", when, k, strlen(p.line[k]));
    if (p.board_end > 40) fail_msg("%s: the board takes %d lines", when, p.board_end);
    int cut = 0;
    for (int k = 0; k < p.n; k++) cut |= !strncmp(p.line[k], "Board cut to x ", 15);
    for (int k = 0; k < whole.n; k++)
        if (!strncmp(whole.line[k], "Board cut", 9)) fail_msg("%s: the whole board is cut", when);
    int wide = 0;
    for (int k = 0; k < whole.board_end; k++) wide |= strlen(whole.line[k]) > 80;
    if (wide && !cut) fail_msg("%s: a board too wide is not cut", when);
    const carc_state *c = tf_state_data((tafel_state *)s);
    const carc_placed *newest = &c->tiles[c->ntiles - 1];
    int line, col;
    if (!tile_origin(&p, newest->x, newest->y, &line, &col))
        fail_msg("%s: the newest tile %d %d is cut off", when, newest->x, newest->y);
    if (c->phase == CARC_PH_PLACE) {
        /* places shown plus places said to be outside = places where it fits */
        int shown = 0, outside = 0, fits = 0;
        for (int k = 1; k < p.board_end; k++)
            for (const char *at = strchr(p.line[k], '?'); at; at = strchr(at + 1, '?')) shown++;
        for (int k = 0; k < p.n; k++)
            sscanf(p.line[k], "The tile in hand also fits at %d place", &outside);
        for (int f = 0; f < c->nfrontier; f++) {
            int x = carc_key_x(c->fkey[f]), y = carc_key_y(c->fkey[f]), any = 0;
            for (int r = 0; r < 4; r++) any |= carc_board_fits(c, c->in_hand, x, y, r);
            fits += any;
        }
        if (shown + outside != fits)
            fail_msg("%s: %d places shown, %d outside, but it fits at %d", when, shown, outside,
                     fits);
    }
    picture_free(&p);
    picture_free(&whole);
}

static void test_a_large_board_is_cut_to_fit_a_terminal(void **unused) {
    (void)unused;
    int games = SLOW_BUILD ? 1 : 3, cut_seen = 0;
    for (int k = 0; k < games; k++) {
        tafel_state *s = h_state("carcassonne(players=3,crop_circles=true)");
        uint64_t rng = tafel_rng_seed((uint64_t)(50 + k));
        for (int step = 0; tafel_state_current(s) != TAFEL_TERMINAL; step++) {
            random_step(s, &rng);
            if (data(s)->phase == CARC_PH_PLACE || step % 11 == 0) {
                char when[128];
                snprintf(when, sizeof when, "seed %d, step %d", 50 + k, step);
                check_fits_terminal(s, when);
                char *text = tafel_state_render(s, 0, 0);
                cut_seen |= strstr(text, "Board cut to") != NULL;
                free(text);
            }
        }
        check_fits_terminal(s, "the end");
        tafel_state_free(s);
    }
    assert_true(cut_seen);
}

/* ---- issue 14.6: a key of the symbols ---- */

static void need_in_key(const char *symbols, char ch, int line, const char *text) {
    if (ch != ' ' && !symbols[(unsigned char)ch])
        fail_msg("'%c' (line %d: '%s') is not in the key", ch, line, text);
}

/* Every symbol drawn (board, tile in hand, new tile) has a line in the key;
** without TAFEL_RENDER_KEY there is no key. */
static void check_key(const tafel_state *s) {
    picture p;
    picture_read(&p, s, TAFEL_RENDER_KEY);
    int key = -1;
    for (int k = 0; k < p.n; k++)
        if (!strcmp(p.line[k], "Key:")) key = k;
    assert_true(key > 0);
    char symbols[256] = {0};
    for (int k = key + 1; k < p.n; k++)
        for (int i = 2; i < 12 && p.line[k][i - 1]; i++) symbols[(unsigned char)p.line[k][i]] = 1;
    for (int k = 1; k < p.board_end; k++) /* after the y labels */
        for (int i = 4; i < (int)strlen(p.line[k]); i++)
            need_in_key(symbols, p.line[k][i], k, p.line[k]);
    for (int k = p.board_end; k + 4 < key; k++) {
        if (!strncmp(p.line[k], "Tile in hand:", 13))
            for (int r = k + 2; r <= k + 4; r++)
                for (const char *at = p.line[r]; *at; at++) need_in_key(symbols, *at, r, p.line[r]);
        if (strstr(p.line[k], "followers go on its segments"))
            for (int r = k + 2; r <= k + 4; r++)
                for (int c = 0; c < 5; c++)
                    need_in_key(symbols, p.line[r][8 + 3 * c], r, p.line[r]);
    }
    picture_free(&p);
    char *plain = tafel_state_render(s, -1, 0);
    assert_null(strstr(plain, "Key:"));
    free(plain);
}

static void test_the_key_explains_every_symbol_drawn(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=3,crop_circles=true)");
    uint64_t rng = tafel_rng_seed(3);
    for (int step = 0; step < 300 && tafel_state_current(s) != TAFEL_TERMINAL; step++) {
        random_step(s, &rng);
        if (step % 5 == 0) check_key(s);
    }
    tafel_state_free(s);
}

/* ---- issue 14.7: the tiles left ---- */

static void check_pile_line(const tafel_state *s) {
    const carc_state *c = tf_state_data((tafel_state *)s);
    char *text = tafel_state_render(s, -1, 0);
    const char *at = strstr(text, "Left in the pile (");
    assert_non_null(at);
    int total = -1, sum = 0, count[CARC_TILE_TYPES] = {0};
    assert_int_equal(sscanf(at, "Left in the pile (%d):", &total), 1);
    assert_int_equal(total, c->pile_total);
    at = strchr(at, ':') + 1;
    /* items "ID:N", over one or two lines, up to a line that is not items */
    for (;;) {
        while (*at == ' ' || *at == '\n') at++;
        char id[8];
        int n, used;
        if (sscanf(at, "%7[A-Z0-9]:%d%n", id, &n, &used) != 2) break;
        int type = carc_tile_find(id);
        if (type < 0) fail_msg("unknown tile '%s' in the pile line", id);
        count[type] = n;
        sum += n;
        at += used;
    }
    assert_int_equal(sum, total);
    for (int t = 0; t < CARC_TILE_TYPES; t++) assert_int_equal(count[t], c->pile[t]);
    free(text);
}

static void test_the_tiles_left_are_listed_by_type(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2,crop_circles=true)");
    check_pile_line(s);
    uint64_t rng = tafel_rng_seed(11);
    while (tafel_state_current(s) != TAFEL_TERMINAL) {
        random_step(s, &rng);
        check_pile_line(s);
    }
    tafel_state_free(s);
}

/* ---- what stays as it was ---- */

/* No colour codes without TAFEL_RENDER_COLOR; with it, the marks and
** followers are in their seat's colour. */
static void test_colours_only_when_asked(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    play(s, "draw E", "place 0 1 180", "follower city S", "draw U", "place 1 0 0");
    for (int flags = 0; flags < 8; flags++) {
        char *text = tafel_state_render(s, -1, flags);
        assert_non_null(text);
        if (flags & TAFEL_RENDER_COLOR) assert_non_null(strstr(text, "\x1b[1;38;5;231;48;5;160mr"));
        else assert_null(strchr(text, '\x1b'));
        free(text);
    }
    tafel_state_free(s);
}

/* The JSON view is not the picture: it stays exactly as it was. */
static void test_the_json_view_is_unchanged(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    play(s, "draw E", "place 0 1 180", "follower city S", "draw U", "place 1 0 0");
    char *json = tafel_state_view_json(s, -1);
    assert_string_equal(
        json,
        "{\"game\":\"carcassonne(players=2)\",\"seat\":-1,\"players\":2,\"next\":1,"
        "\"phase\":\"follower\",\"active\":1,\"tile\":null,\"board\":[{\"x\":0,\"y\":0,"
        "\"tile\":\"D\",\"rotation\":0},{\"x\":0,\"y\":1,\"tile\":\"E\",\"rotation\":180},"
        "{\"x\":1,\"y\":0,\"tile\":\"U\",\"rotation\":0}],\"followers\":[],\"supply\":[7,7],"
        "\"scores\":[2,0],\"projected\":[2,0],\"pile\":{\"A\":2,\"B\":4,\"C\":1,\"D\":3,"
        "\"E\":4,\"F\":2,\"G\":1,\"H\":3,\"I\":2,\"J\":3,\"K\":3,\"L\":3,\"M\":2,\"N\":3,"
        "\"O\":2,\"P\":3,\"Q\":1,\"R\":3,\"S\":2,\"T\":1,\"U\":7,\"V\":9,\"W\":4,\"X\":1},"
        "\"pile_size\":69,\"removed\":[],"
        /* each feature whole: D's city with E's, D's road with U's, the
        ** field north of the road (D, U), the one south, E's own field */
        "\"features\":[{\"kind\":\"city\",\"segments\":[[0,0,\"city N\"],[0,1,\"city S\"]]},"
        "{\"kind\":\"road\",\"segments\":[[0,0,\"road E\"],[1,0,\"road E\"]]},"
        "{\"kind\":\"field\",\"segments\":[[0,0,\"field ENE\"],[1,0,\"field NNW\"]]},"
        "{\"kind\":\"field\",\"segments\":[[0,0,\"field ESE\"],[1,0,\"field ESE\"]]},"
        "{\"kind\":\"field\",\"segments\":[[0,1,\"field NNW\"]]}],\"crop\":null}");
    free(json);
    tafel_state_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_follower_is_drawn_on_its_own_segment),
        cmocka_unit_test(test_the_farmer_on_the_H_of_issue_14_stands_in_its_field),
        cmocka_unit_test(test_every_border_cell_shows_its_edge),
        cmocka_unit_test(test_an_L_beside_the_start_tile_shows_two_cities),
        cmocka_unit_test(test_a_city_on_two_tiles_reads_as_one),
        cmocka_unit_test(test_in_random_games_every_city_is_one_block),
        cmocka_unit_test(test_each_players_last_tile_is_marked),
        cmocka_unit_test(test_the_last_tiles_named_are_the_ones_placed),
        cmocka_unit_test(test_a_large_board_is_cut_to_fit_a_terminal),
        cmocka_unit_test(test_the_key_explains_every_symbol_drawn),
        cmocka_unit_test(test_the_tiles_left_are_listed_by_type),
        cmocka_unit_test(test_colours_only_when_asked),
        cmocka_unit_test(test_the_json_view_is_unchanged),
    };
    return cmocka_run_group_tests_name("carcassonne view", tests, NULL, NULL);
}
