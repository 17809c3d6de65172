/*
** notation.c -- actions as text, both ways (rules §8).
**
** Printing gives one canonical text per action: a segment is named by the
** first edge (N E S W) or half-edge (NNW .. WNW) it touches, in board
** orientation.  Reading accepts any edge or half the segment touches, any
** letter case, and any rotation of a symmetric tile (mapped to the
** canonical one), then asks the rules whether the action is legal now, so
** a caller gets EPARSE for text that is no action and EILLEGAL, with the
** reason, for an action that is not allowed here.
*/
#include "carcassonne.h"
#include "../../core/words.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const carc_kind_names[4] = {"city", "road", "field", "cloister"};
static const char *const edge_names[4] = {"N", "E", "S", "W"};
static const char *const half_names[8] = {"NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"};


/* "city N", "field SSW", "cloister": a segment of a placed tile. */
int carc_segment_name(const carc_state *s, int tile, int seg, char *buf, size_t n) {
    const carc_placed *p = &s->tiles[tile];
    const carc_tile *t = &carc_tiles[p->type];
    if (seg >= t->nseg) return -1;
    const carc_oriented *o = carc_orient(p->type, p->rot);
    int kind = t->seg[seg].kind;
    if (kind == CARC_CLOISTER) return snprintf(buf, n, "cloister");
    if (kind == CARC_FIELD) {
        for (int h = 0; h < 8; h++)
            if (o->seg_halves[seg] >> h & 1) return snprintf(buf, n, "field %s", half_names[h]);
        return -1;
    }
    for (int d = 0; d < 4; d++)
        if (o->seg_edges[seg] >> d & 1)
            return snprintf(buf, n, "%s %s", carc_kind_names[kind], edge_names[d]);
    return -1;
}

int carc_to_text(const void *data, tafel_action a, char *buf, size_t n) {
    const carc_state *s = data;
    char seg[32];
    if (a >= CARC_ACT_DRAW && a < CARC_ACT_DRAW + CARC_TILE_TYPES)
        return snprintf(buf, n, "draw %s", carc_tiles[a - CARC_ACT_DRAW].id);
    if (a == CARC_ACT_PASS) return snprintf(buf, n, "pass");
    if (a == CARC_ACT_CROP_ADD) return snprintf(buf, n, "crop add");
    if (a == CARC_ACT_CROP_REMOVE) return snprintf(buf, n, "crop remove");
    if (a >= CARC_ACT_FOLLOWER && a < CARC_ACT_FOLLOWER + CARC_MAX_SEGMENTS) {
        if (s->phase != CARC_PH_FOLLOWER) return -1;
        if (carc_segment_name(s, s->ntiles - 1, a - CARC_ACT_FOLLOWER, seg, sizeof seg) < 0)
            return -1;
        return snprintf(buf, n, "follower %s", seg);
    }
    if ((a >= CARC_ACT_ADD && a < CARC_ACT_ADD + CARC_NODES) ||
        (a >= CARC_ACT_REMOVE && a < CARC_ACT_REMOVE + CARC_NODES)) {
        int add = a < CARC_ACT_REMOVE;
        int node = a - (add ? CARC_ACT_ADD : CARC_ACT_REMOVE);
        int tile = node / CARC_MAX_SEGMENTS;
        if (tile >= s->ntiles ||
            carc_segment_name(s, tile, node % CARC_MAX_SEGMENTS, seg, sizeof seg) < 0)
            return -1;
        return snprintf(buf, n, "%s %d %d %s", add ? "add" : "remove", s->tiles[tile].x,
                        s->tiles[tile].y, seg);
    }
    if (a >= CARC_ACT_PLACE && a < CARC_ACT_END) {
        int key = (a - CARC_ACT_PLACE) / 4, rot = (a - CARC_ACT_PLACE) % 4;
        return snprintf(buf, n, "place %d %d %d", carc_key_x((uint16_t)key),
                        carc_key_y((uint16_t)key), rot * 90);
    }
    return -1;
}

#define MAX_WORDS 6

/* The segment of a placed tile named by kind and edge/half words. */
static int find_segment(const carc_state *s, int tile, const char *kind_word,
                        const char *where, int *seg, tafel_error *err) {
    const carc_placed *p = &s->tiles[tile];
    int kind = tf_find_name(kind_word, carc_kind_names, 4);
    if (kind < 0)
        return tf_error(err, TAFEL_EPARSE, "'%s' is no feature: city, road, field or cloister",
                        TF_Q(kind_word));
    const carc_oriented *o = carc_orient(p->type, p->rot);
    const carc_tile *t = &carc_tiles[p->type];
    int found = CARC_NO_SEGMENT;
    if (kind == CARC_CLOISTER) {
        if (where) return tf_error(err, TAFEL_EPARSE, "a cloister needs no edge");
        for (int i = 0; i < t->nseg; i++)
            if (t->seg[i].kind == CARC_CLOISTER) found = i;
        if (found == CARC_NO_SEGMENT)
            return tf_error(err, TAFEL_EILLEGAL, "tile %s at %d %d has no cloister", t->id, p->x,
                            p->y);
        *seg = found;
        return TAFEL_OK;
    }
    if (!where)
        return tf_error(err, TAFEL_EPARSE, "name the %s by %s", kind_word,
                        kind == CARC_FIELD ? "a half-edge (NNW NNE ENE ESE SSE SSW WSW WNW)"
                                           : "an edge (N E S W)");
    if (kind == CARC_FIELD) {
        int h = tf_find_name(where, half_names, 8);
        if (h < 0)
            return tf_error(err, TAFEL_EPARSE,
                            "a field is named by a half-edge (NNW NNE ENE ESE SSE SSW WSW WNW), not '%s'",
                            where);
        found = o->half_seg[h];
    } else {
        int d = tf_find_name(where, edge_names, 4);
        if (d < 0)
            return tf_error(err, TAFEL_EPARSE, "a %s is named by an edge (N E S W), not '%s'",
                            kind_word, TF_Q(where));
        found = o->edge_seg[d];
    }
    if (found == CARC_NO_SEGMENT || t->seg[found].kind != kind)
        return tf_error(err, TAFEL_EILLEGAL, "tile %s at %d %d has no %s at %s", t->id, p->x,
                        p->y, carc_kind_names[kind], where);
    *seg = found;
    return TAFEL_OK;
}

static int parse(const carc_state *s, char w[MAX_WORDS][24], int n, tafel_action *out,
                 tafel_error *err) {
    const char *verb = w[0];
    if (!strcasecmp(verb, "draw") && n == 2) {
        char id[8];
        size_t i = 0;
        for (; w[1][i] && i + 1 < sizeof id; i++) id[i] = (char)toupper((unsigned char)w[1][i]);
        id[i] = 0;
        int t = carc_tile_find(id);
        if (t < 0)
            return tf_error(err, TAFEL_EPARSE, "no tile type '%s' (A..X, CC1..CC6)", TF_Q(w[1]));
        *out = CARC_ACT_DRAW + t;
        return TAFEL_OK;
    }
    if (!strcasecmp(verb, "pass") && n == 1) return *out = CARC_ACT_PASS, TAFEL_OK;
    if (!strcasecmp(verb, "crop") && n == 2) {
        if (!strcasecmp(w[1], "add")) return *out = CARC_ACT_CROP_ADD, TAFEL_OK;
        if (!strcasecmp(w[1], "remove")) return *out = CARC_ACT_CROP_REMOVE, TAFEL_OK;
        return tf_error(err, TAFEL_EPARSE, "crop add or crop remove, not crop '%s'", TF_Q(w[1]));
    }
    if (!strcasecmp(verb, "place") && n == 4) {
        int x, y, deg;
        if (!tf_read_int(w[1], -120, 120, &x) || !tf_read_int(w[2], -120, 120, &y))
            return tf_error(err, TAFEL_EPARSE, "place x y rotation: x and y are whole numbers "
                                               "within -120..120");
        if (!tf_read_int(w[3], 0, 270, &deg) || deg % 90)
            return tf_error(err, TAFEL_EPARSE, "rotation must be 0, 90, 180 or 270, not '%s'",
                            TF_Q(w[3]));
        int rot = deg / 90;
        if (s->phase == CARC_PH_PLACE) rot %= carc_tiles[s->in_hand].rotations;
        *out = CARC_ACT_PLACE + carc_key(x, y) * 4 + rot;
        return TAFEL_OK;
    }
    if ((!strcasecmp(verb, "follower") && (n == 2 || n == 3)) ||
        ((!strcasecmp(verb, "add") || !strcasecmp(verb, "remove")) && (n == 4 || n == 5))) {
        const char *kind = w[verb[0] == 'f' || verb[0] == 'F' ? 1 : 3];
        if (tf_find_name(kind, carc_kind_names, 4) < 0)
            return tf_error(err, TAFEL_EPARSE,
                            "'%s' is no feature: city, road, field or cloister", kind);
    }
    if (!strcasecmp(verb, "follower") && (n == 2 || n == 3)) {
        if (s->phase != CARC_PH_FOLLOWER)
            return tf_error(err, TAFEL_EILLEGAL, "a follower goes on the tile just placed, and "
                                                 "no tile has just been placed");
        int seg, rc = find_segment(s, s->ntiles - 1, w[1], n == 3 ? w[2] : NULL, &seg, err);
        if (rc) return rc;
        *out = CARC_ACT_FOLLOWER + seg;
        return TAFEL_OK;
    }
    int add = !strcasecmp(verb, "add"), rem = !strcasecmp(verb, "remove");
    if ((add || rem) && (n == 4 || n == 5)) {
        int x, y, seg;
        if (!tf_read_int(w[1], -120, 120, &x) || !tf_read_int(w[2], -120, 120, &y))
            return tf_error(err, TAFEL_EPARSE, "%s x y feature edge: x and y are whole numbers",
                            verb);
        int tile = carc_board_at(s, x, y);
        if (tile < 0) return tf_error(err, TAFEL_EILLEGAL, "there is no tile at %d %d", x, y);
        int rc = find_segment(s, tile, w[3], n == 5 ? w[4] : NULL, &seg, err);
        if (rc) return rc;
        int node = tile * CARC_MAX_SEGMENTS + seg;
        if (add && s->phase == CARC_PH_CROP_ACT) {
            int canon = carc_crop_canonical_add(s, carc_crop_actor(s), node);
            if (canon >= 0) node = canon;
        }
        *out = (add ? CARC_ACT_ADD : CARC_ACT_REMOVE) + node;
        return TAFEL_OK;
    }
    return tf_error(err, TAFEL_EPARSE,
                    "cannot read '%s': expected draw T, place x y rotation, follower "
                    "city|road|field|cloister [edge], pass, crop add|remove, add/remove x y "
                    "feature edge", verb);
}

int carc_from_text(const void *data, const char *text, tafel_action *out, tafel_error *err) {
    const carc_state *s = data;
    tf_words words;
    int n = tf_split(text, &words);
    if (n > MAX_WORDS) n = -1;
    if (n <= 0)
        return tf_error(err, TAFEL_EPARSE, n == 0 ? "empty action" : "cannot read '%s'",
                        TF_Q(text));
    tafel_action a = -1;
    int rc = parse(s, words.w, n, &a, err);
    if (rc) return rc;
    rc = carc_check_action(s, a, err);
    if (rc) return rc;
    *out = a;
    return TAFEL_OK;
}
