/*
** game.c -- the turn of Carcassonne (rules §2, §5) and the module table.
**
** A turn is: draw (chance) -> place -> follower or pass -> scoring ->
** [crop circle choice -> one action per player] -> next player.  A drawn
** tile that fits nowhere is removed at once and the same player draws
** again.  The game ends after the turn that places the last tile, or when
** the pile runs out through removals; then final scoring is applied once.
** apply() checks an action completely (and says why it is illegal) before
** it changes anything.
*/
#include "carcassonne.h"

#include <stdio.h>
#include <string.h>

static const tf_param carc_params[] = {
    {"players", TF_PARAM_INT, 2, 5, 2, NULL, "number of players"},
    {"crop_circles", TF_PARAM_BOOL, 0, 1, 0, NULL,
     "shuffle in the 6 crop circle tiles (Die Kornkreise)"},
    {"first", TF_PARAM_INT, 0, 4, 0, NULL, "seat of the first player"},
    {"small_city", TF_PARAM_ENUM, 0, 1, 0, "2|4", "points of a completed 2-tile city"},
    {"farmers", TF_PARAM_ENUM, 0, 1, 0, "2000|modern",
     "2000: 4 per completed city to its farmer majority; modern: 3 per city, field by field"},
};
enum { P_PLAYERS, P_CROP, P_FIRST, P_SMALL, P_FARMERS };

static int carc_validate(const tf_options *opt, tafel_error *err) {
    if (opt->value[P_FIRST] >= opt->value[P_PLAYERS])
        return tf_error(err, TAFEL_EPARAM, "first must be a seat, 0..%d",
                        opt->value[P_PLAYERS] - 1);
    return TAFEL_OK;
}

static void carc_init(void *data, const tf_options *opt) {
    carc_state *s = data;
    memset(s, 0, sizeof *s);
    s->players = (uint8_t)opt->value[P_PLAYERS];
    s->crop_circles = (uint8_t)opt->value[P_CROP];
    s->small_city = opt->value[P_SMALL] ? 4 : 2;
    s->farmers_modern = (uint8_t)opt->value[P_FARMERS];
    s->active = s->first = (uint8_t)opt->value[P_FIRST];
    s->phase = CARC_PH_DRAW;
    s->in_hand = 0xFF;
    int types = s->crop_circles ? CARC_TILE_TYPES : CARC_BASE_TYPES;
    for (int t = 0; t < types; t++) {
        s->pile[t] = carc_tiles[t].count;
        s->pile_total = (uint8_t)(s->pile_total + carc_tiles[t].count);
    }
    s->pile[CARC_START_TYPE]--;
    s->pile_total--;
    for (int p = 0; p < s->players; p++) s->supply[p] = CARC_FOLLOWERS_PER_PLAYER;
    carc_board_init(s);
}

static void game_over(carc_state *s) {
    carc_score_final(s, NULL);
    s->phase = CARC_PH_OVER;
    s->in_hand = 0xFF;
}

void carc_end_turn(carc_state *s) {
    s->in_hand = 0xFF;
    s->crop_kind = s->crop_mode = s->crop_step = 0;
    memset(s->returned, 0, sizeof s->returned);
    s->active = (uint8_t)((s->active + 1) % s->players);
    if (s->pile_total == 0) game_over(s);
    else s->phase = CARC_PH_DRAW;
}

static int carc_current(const void *data) {
    const carc_state *s = data;
    switch (s->phase) {
    case CARC_PH_DRAW: return TAFEL_CHANCE;
    case CARC_PH_OVER: return TAFEL_TERMINAL;
    case CARC_PH_CROP_ACT: return carc_crop_actor(s);
    default: return s->active;
    }
}

static int carc_chance(const void *data, tafel_action *out, double *prob, int cap) {
    const carc_state *s = data;
    int n = 0;
    for (int t = 0; t < CARC_TILE_TYPES; t++) {
        if (!s->pile[t]) continue;
        if (n < cap) {
            out[n] = CARC_ACT_DRAW + t;
            if (prob) prob[n] = (double)s->pile[t] / s->pile_total;
        }
        n++;
    }
    return n;
}

/* Each tile left is equally likely (§2.1): pick one, find its type. */
static tafel_action carc_sample(const void *data, uint64_t *rng) {
    const carc_state *s = data;
    if (s->phase != CARC_PH_DRAW) return -1;
    int r = (int)tafel_rng_below(rng, s->pile_total), t = 0;
    while (r >= s->pile[t]) r -= s->pile[t++];
    return CARC_ACT_DRAW + t;
}

/* The segments of the new tile a follower may go on (§2.2). */
static int follower_options(const carc_state *s, tafel_action *out, int cap) {
    int n = 0, tile = s->ntiles - 1;
    if (n < cap) out[n] = CARC_ACT_PASS;
    n++;
    if (s->supply[s->active] == 0) return n;
    const carc_tile *t = &carc_tiles[s->tiles[tile].type];
    for (int i = 0; i < t->nseg; i++) {
        if (s->occ[carc_find(s, tile * CARC_MAX_SEGMENTS + i)]) continue;
        if (n < cap) out[n] = CARC_ACT_FOLLOWER + i;
        n++;
    }
    return n;
}

static int carc_legal(const void *data, tafel_action *out, int cap) {
    const carc_state *s = data;
    switch (s->phase) {
    case CARC_PH_PLACE: return carc_board_placements(s, s->in_hand, out, cap);
    case CARC_PH_FOLLOWER: return follower_options(s, out, cap);
    case CARC_PH_CROP_CHOOSE:
        if (cap > 0) out[0] = CARC_ACT_CROP_ADD;
        if (cap > 1) out[1] = CARC_ACT_CROP_REMOVE;
        return 2;
    case CARC_PH_CROP_ACT: return carc_crop_legal(s, out, cap);
    case CARC_PH_DRAW: return carc_chance(s, out, NULL, cap);
    default: return 0;
    }
}

static const char *const phase_expects[] = {
    "a tile to be drawn", "the drawn tile to be placed",
    "a follower on the new tile, or pass", "crop add or crop remove",
    "a crop circle action", "nothing: the game is over"};

static int expect(const carc_state *s, tafel_error *err) {
    return tf_error(err, TAFEL_EILLEGAL, "now the game expects %s", phase_expects[s->phase]);
}

static int check_place(const carc_state *s, tafel_action a, tafel_error *err) {
    int key = (a - CARC_ACT_PLACE) / 4, rot = (a - CARC_ACT_PLACE) % 4;
    int x = carc_key_x((uint16_t)key), y = carc_key_y((uint16_t)key);
    if (rot >= carc_tiles[s->in_hand].rotations)
        return tf_error(err, TAFEL_EILLEGAL, "tile %s looks the same at rotation %d: use %d",
                        carc_tiles[s->in_hand].id, rot * 90,
                        (rot % carc_tiles[s->in_hand].rotations) * 90);
    if (carc_board_at(s, x, y) >= 0)
        return tf_error(err, TAFEL_EILLEGAL, "%d %d already holds a tile", x, y);
    int touches = 0;
    for (int d = 0; d < 4; d++) touches |= carc_board_at(s, x + carc_dx[d], y + carc_dy[d]) >= 0;
    if (!touches)
        return tf_error(err, TAFEL_EILLEGAL, "%d %d touches no tile along an edge", x, y);
    if (!carc_board_fits(s, s->in_hand, x, y, rot))
        return tf_error(err, TAFEL_EILLEGAL,
                        "tile %s at %d %d rotated %d does not match its neighbours' edges",
                        carc_tiles[s->in_hand].id, x, y, rot * 90);
    return TAFEL_OK;
}

static int check_follower(const carc_state *s, tafel_action a, tafel_error *err) {
    int tile = s->ntiles - 1, seg = a - CARC_ACT_FOLLOWER;
    const carc_tile *t = &carc_tiles[s->tiles[tile].type];
    if (seg >= t->nseg) return tf_error(err, TAFEL_EILLEGAL, "no such segment on the new tile");
    if (s->supply[s->active] == 0)
        return tf_error(err, TAFEL_EILLEGAL, "you have no follower left in your supply");
    if (s->occ[carc_find(s, tile * CARC_MAX_SEGMENTS + seg)])
        return tf_error(err, TAFEL_EILLEGAL, "that %s already holds a follower",
                        carc_kind_names[t->seg[seg].kind]);
    return TAFEL_OK;
}

int carc_check_action(const carc_state *s, tafel_action a, tafel_error *err) {
    switch (s->phase) {
    case CARC_PH_DRAW:
        if (a < CARC_ACT_DRAW || a >= CARC_ACT_DRAW + CARC_TILE_TYPES) return expect(s, err);
        if (!s->pile[a - CARC_ACT_DRAW])
            return tf_error(err, TAFEL_EILLEGAL, "no tile %s is left in the pile",
                            carc_tiles[a - CARC_ACT_DRAW].id);
        return TAFEL_OK;
    case CARC_PH_PLACE:
        if (a < CARC_ACT_PLACE || a >= CARC_ACT_END) return expect(s, err);
        return check_place(s, a, err);
    case CARC_PH_FOLLOWER:
        if (a == CARC_ACT_PASS) return TAFEL_OK;
        if (a < CARC_ACT_FOLLOWER || a >= CARC_ACT_FOLLOWER + CARC_MAX_SEGMENTS)
            return expect(s, err);
        return check_follower(s, a, err);
    case CARC_PH_CROP_CHOOSE:
        if (a != CARC_ACT_CROP_ADD && a != CARC_ACT_CROP_REMOVE) return expect(s, err);
        return TAFEL_OK;
    case CARC_PH_CROP_ACT: return carc_crop_check_action(s, a, err);
    case CARC_PH_OVER: return tf_error(err, TAFEL_EILLEGAL, "the game is over");
    default: return tf_error(err, TAFEL_ESTATE, "not a Carcassonne phase: %d", s->phase);
    }
}

/* After the follower decision: score, then the crop circle or the next turn. */
static void finish_tile(carc_state *s, carc_report *r) {
    int tile = s->ntiles - 1;
    carc_score_completed(s, tile, r);
    int crop = carc_tiles[s->tiles[tile].type].crop;
    if (crop == CARC_CROP_NONE) {
        carc_end_turn(s);
        return;
    }
    s->crop_kind = (uint8_t)carc_crop_segment_kind(crop);
    s->phase = CARC_PH_CROP_CHOOSE;
}

/* The follower decision, then scoring (the only step that reports). */
static void play_follower(carc_state *s, tafel_action a, carc_report *r) {
    if (a != CARC_ACT_PASS) carc_follower_put(s, s->active, s->ntiles - 1, a - CARC_ACT_FOLLOWER);
    finish_tile(s, r);
}

/* A legal action, applied: the module's own choices come straight here. */
static void carc_play(void *data, tafel_action a) {
    carc_state *s = data;
    switch (s->phase) {
    case CARC_PH_DRAW: {
        int t = a - CARC_ACT_DRAW;
        s->pile[t]--;
        s->pile_total--;
        if (carc_board_can_place(s, t)) {
            s->in_hand = (uint8_t)t;
            s->phase = CARC_PH_PLACE;
        } else {
            s->removed[s->nremoved++] = (uint8_t)t;
            if (s->pile_total == 0) game_over(s);
        }
        break;
    }
    case CARC_PH_PLACE: {
        int key = (a - CARC_ACT_PLACE) / 4, rot = (a - CARC_ACT_PLACE) % 4;
        carc_board_place(s, s->in_hand, carc_key_x((uint16_t)key), carc_key_y((uint16_t)key), rot);
        s->in_hand = 0xFF;
        s->phase = CARC_PH_FOLLOWER;
        break;
    }
    case CARC_PH_FOLLOWER: play_follower(s, a, NULL); break;
    case CARC_PH_CROP_CHOOSE: carc_crop_begin(s, a == CARC_ACT_CROP_REMOVE); break;
    case CARC_PH_CROP_ACT: carc_crop_apply(s, a); break;
    }
}

/* The same for the account (account.c), on a copy; not on the hot path. */
void carc_play_reported(carc_state *s, tafel_action a, carc_report *r) {
    if (s->phase == CARC_PH_FOLLOWER) play_follower(s, a, r);
    else carc_play(s, a);
}

static int carc_apply(void *data, tafel_action a, tafel_error *err) {
    int rc = carc_check_action(data, a, err);
    if (!rc) carc_play(data, a);
    return rc;
}

static void carc_scores(const void *data, double *out) {
    const carc_state *s = data;
    for (int p = 0; p < s->players; p++) out[p] = s->score[p];
}

void carc_projected(const void *data, double *out) {
    const carc_state *s = data;
    if (s->phase == CARC_PH_OVER) {
        carc_scores(s, out);
        return;
    }
    carc_state copy = *s;
    carc_score_final(&copy, NULL);
    carc_scores(&copy, out);
}

/* Projected scores, plus a little for each follower still in supply: a
** follower on the board is worth its projected points, one at home is worth
** the chance to place it later (about 1.5 points while tiles remain). */
static void carc_heuristic(const void *data, double *out) {
    const carc_state *s = data;
    carc_projected(s, out);
    if (s->phase == CARC_PH_OVER) return;
    double left = s->pile_total / 71.0;
    for (int p = 0; p < s->players; p++) out[p] += 1.5 * left * s->supply[p];
}

static int carc_breakdown(const void *data, int seat, const char **names, double *values,
                          int cap) {
    static const char *const cats[CARC_CATS] = {"road", "city", "cloister", "farm"};
    const carc_state *s = data;
    for (int c = 0; c < CARC_CATS && c < cap; c++) {
        names[c] = cats[c];
        values[c] = s->points[seat][c];
    }
    return CARC_CATS;
}

/* Nothing is hidden but the order of the pile, which the state does not
** hold: every state consistent with a view is this one. */
static int carc_resample(void *data, int seat, uint64_t *rng) {
    (void)data, (void)seat, (void)rng;
    return TAFEL_OK;
}

static int carc_check(const void *data, tafel_error *err) {
    const carc_state *s = data;
    int on_board[TAFEL_MAX_PLAYERS] = {0}, total = 0;
    for (int t = 0; t < CARC_TILE_TYPES; t++) total += s->pile[t];
    if (total != s->pile_total) return tf_error(err, TAFEL_ESTATE, "pile count %d != %d", total, s->pile_total);
    int all = s->crop_circles ? 78 : 72;
    int held = s->in_hand != 0xFF;
    if (s->pile_total + s->ntiles + s->nremoved + held != all)
        return tf_error(err, TAFEL_ESTATE, "tiles not conserved: %d+%d+%d+%d != %d",
                        s->pile_total, s->ntiles, s->nremoved, held, all);
    for (int i = 0; i < s->ntiles; i++) {
        if (carc_board_at(s, s->tiles[i].x, s->tiles[i].y) != i)
            return tf_error(err, TAFEL_ESTATE, "tile %d not found at its position", i);
        for (int d = 0; d < 4; d++) {
            int o = carc_board_at(s, s->tiles[i].x + carc_dx[d], s->tiles[i].y + carc_dy[d]);
            if (o < 0) continue;
            uint8_t a = carc_tile_edge_code(s->tiles[i].type, s->tiles[i].rot);
            uint8_t b = carc_tile_edge_code(s->tiles[o].type, s->tiles[o].rot);
            if (((a >> (2 * d)) & 3) != ((b >> (2 * ((d + 2) & 3))) & 3))
                return tf_error(err, TAFEL_ESTATE, "tiles %d and %d do not match", i, o);
        }
    }
    for (int f = 0; f < s->nfrontier; f++) {
        int x = carc_key_x(s->fkey[f]), y = carc_key_y(s->fkey[f]), touches = 0;
        if (f && s->fkey[f - 1] >= s->fkey[f]) return tf_error(err, TAFEL_ESTATE, "frontier unsorted");
        if (carc_board_at(s, x, y) >= 0) return tf_error(err, TAFEL_ESTATE, "frontier on a tile");
        for (int d = 0; d < 4; d++) touches |= carc_board_at(s, x + carc_dx[d], y + carc_dy[d]) >= 0;
        if (!touches) return tf_error(err, TAFEL_ESTATE, "frontier %d %d touches nothing", x, y);
    }
    /* open edges and followers per feature, recounted from scratch */
    int open[CARC_NODES], occ[CARC_NODES];
    for (int n = 0; n < CARC_NODES; n++) open[n] = occ[n] = 0;
    for (int i = 0; i < s->ntiles; i++) {
        const carc_oriented *o = carc_orient(s->tiles[i].type, s->tiles[i].rot);
        const carc_tile *t = &carc_tiles[s->tiles[i].type];
        for (int g = 0; g < t->nseg; g++) {
            if (t->seg[g].kind != CARC_CITY && t->seg[g].kind != CARC_ROAD) continue;
            int root = carc_find(s, i * CARC_MAX_SEGMENTS + g);
            for (int d = 0; d < 4; d++)
                if ((o->seg_edges[g] >> d & 1) &&
                    carc_board_at(s, s->tiles[i].x + carc_dx[d], s->tiles[i].y + carc_dy[d]) < 0)
                    open[root]++;
        }
    }
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        if (f->player >= s->players || f->tile >= s->ntiles ||
            f->seg >= carc_tiles[s->tiles[f->tile].type].nseg)
            return tf_error(err, TAFEL_ESTATE, "follower %d is nowhere", i);
        on_board[f->player]++;
        occ[carc_find(s, f->tile * CARC_MAX_SEGMENTS + f->seg)]++;
    }
    for (int p = 0; p < s->players; p++)
        if (on_board[p] + s->supply[p] != CARC_FOLLOWERS_PER_PLAYER)
            return tf_error(err, TAFEL_ESTATE, "player %d has %d followers", p,
                            on_board[p] + s->supply[p]);
    for (int i = 0; i < s->ntiles; i++)
        for (int g = 0; g < carc_tiles[s->tiles[i].type].nseg; g++) {
            int n = i * CARC_MAX_SEGMENTS + g;
            if (s->parent[n] != n) continue;
            int k = carc_tiles[s->tiles[i].type].seg[g].kind;
            if ((k == CARC_CITY || k == CARC_ROAD) && s->open[n] != open[n])
                return tf_error(err, TAFEL_ESTATE, "feature %d: %d open edges, counted %d", n,
                                s->open[n], open[n]);
            if (s->occ[n] != occ[n])
                return tf_error(err, TAFEL_ESTATE, "feature %d: %d followers, counted %d", n,
                                s->occ[n], occ[n]);
        }
    return TAFEL_OK;
}

const tf_module carc_module = {
    .name = "carcassonne",
    .summary = "Carcassonne, first edition (2000), with the Die Kornkreise crop circles",
    .params = carc_params,
    .nparams = (int)(sizeof carc_params / sizeof carc_params[0]),
    .data_size = sizeof(carc_state),
    .max_actions = 4 * CARC_FRONTIER_MAX,
    .distinct_actions = CARC_ACT_END,
    .validate = carc_validate,
    .init = carc_init,
    .current = carc_current,
    .legal = carc_legal,
    .chance = carc_chance,
    .sample = carc_sample,
    .apply = carc_apply,
    .play = carc_play,
    .to_text = carc_to_text,
    .from_text = carc_from_text,
    .scores = carc_scores,
    .projected = carc_projected,
    .heuristic = carc_heuristic,
    .breakdown = carc_breakdown,
    .view_json = carc_view_json,
    .render = carc_render,
    .resample = carc_resample,
    .check = carc_check,
    .pieces_json = carc_pieces_json,
    .describe = carc_describe,
    .tensor_shape = carc_tensor_shape,
    .tensor_parts = carc_tensor_parts,
    .tensor = carc_tensor,
    .action_space = carc_action_space,
    .action_index = carc_action_index,
    .index_action = carc_index_action,
};
