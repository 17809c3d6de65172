/*
** crop_circles.c -- "Die Kornkreise": actions A and B (rules §4).
**
** After a crop circle tile is placed and scored, the active player picks
** add (A) or remove (B); then each player acts once, starting left of the
** active player, the active player last.  crop_step counts the players
** already handled (0..players); the actor is the next one who can act, so
** players with no follower of the kind (or, for add, none in supply) are
** skipped without an action (and, for add, players whose only followers at
** home came back in this turn's scoring: they are usable from their next
** turn on).  The kind is the segment kind of the symbol:
** shield = city (knights), club = road (robbers), pitchfork = field.
*/
#include "carcassonne.h"

#include <stdio.h>

const char *const carc_follower_names[4] = {"knight", "robber", "farmer", "monk"};

/* The symbol names the followers concerned: shield, club, pitchfork. */
int carc_crop_segment_kind(int crop) {
    return crop == CARC_CROP_KNIGHT ? CARC_CITY : crop == CARC_CROP_ROBBER ? CARC_ROAD : CARC_FIELD;
}

static int player_at_step(const carc_state *s, int step) {
    return (s->active + 1 + step) % s->players;
}

static int has_kind(const carc_state *s, int player) {
    for (int i = 0; i < s->nfollowers; i++)
        if (s->followers[i].player == player &&
            carc_follower_kind(s, &s->followers[i]) == s->crop_kind)
            return 1;
    return 0;
}

/* Adding needs a follower in supply that did not come home this turn
** (see scoring.c); removing needs only a follower of the kind. */
static int can_act(const carc_state *s, int player) {
    if (!has_kind(s, player)) return 0;
    return s->crop_mode == 1 || s->supply[player] > s->returned[player];
}

/* Skip to the next player who can act; end the turn when none is left. */
static void advance(carc_state *s) {
    while (s->crop_step < s->players && !can_act(s, player_at_step(s, s->crop_step)))
        s->crop_step++;
    if (s->crop_step >= s->players) carc_end_turn(s);
}

int carc_crop_actor(const carc_state *s) { return player_at_step(s, s->crop_step); }

void carc_crop_begin(carc_state *s, int mode) {
    s->crop_mode = (uint8_t)mode;
    s->crop_step = 0;
    s->phase = CARC_PH_CROP_ACT;
    advance(s);
}

/* The node that stands for "add next to my follower on this feature": the
** player's lowest follower node of the crop kind on node's feature, or -1. */
int carc_crop_canonical_add(const carc_state *s, int player, int node) {
    int root = carc_find(s, node), best = -1;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        int n = f->tile * CARC_MAX_SEGMENTS + f->seg;
        if (f->player != player || carc_follower_kind(s, f) != s->crop_kind) continue;
        if (carc_find(s, n) == root && (best < 0 || n < best)) best = n;
    }
    return best;
}

static void sort_actions(tafel_action *a, int n) {
    for (int i = 1; i < n; i++) {
        tafel_action v = a[i];
        int j = i;
        for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
        a[j] = v;
    }
}

int carc_crop_legal(const carc_state *s, tafel_action *out, int cap) {
    tafel_action list[CARC_MAX_FOLLOWERS + 1];
    int n = 0, player = carc_crop_actor(s);
    if (s->crop_mode == 0) list[n++] = CARC_ACT_PASS;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        if (f->player != player || carc_follower_kind(s, f) != s->crop_kind) continue;
        int node = f->tile * CARC_MAX_SEGMENTS + f->seg;
        if (s->crop_mode == 0) node = carc_crop_canonical_add(s, player, node);
        tafel_action a = (s->crop_mode == 0 ? CARC_ACT_ADD : CARC_ACT_REMOVE) + node;
        int seen = 0;
        for (int j = 0; j < n; j++) seen |= list[j] == a;
        if (!seen) list[n++] = a;
    }
    sort_actions(list, n);
    for (int i = 0; i < n && i < cap; i++) out[i] = list[i];
    return n;
}

int carc_crop_check_action(const carc_state *s, tafel_action a, tafel_error *err) {
    const char *kind = carc_follower_names[s->crop_kind];
    int player = carc_crop_actor(s);
    if (a == CARC_ACT_PASS) {
        if (s->crop_mode == 0) return TAFEL_OK;
        return tf_error(err, TAFEL_EILLEGAL, "crop circle action B: you must remove a %s",
                        kind);
    }
    int add = a >= CARC_ACT_ADD && a < CARC_ACT_ADD + CARC_NODES;
    int rem = a >= CARC_ACT_REMOVE && a < CARC_ACT_REMOVE + CARC_NODES;
    if (!add && !rem)
        return tf_error(err, TAFEL_EILLEGAL, "crop circle action: %s a %s, or pass",
                        s->crop_mode == 0 ? "add" : "remove", kind);
    if (add != (s->crop_mode == 0))
        return tf_error(err, TAFEL_EILLEGAL, "the crop circle action is to %s, not to %s",
                        s->crop_mode == 0 ? "add" : "remove", add ? "add" : "remove");
    int node = a - (add ? CARC_ACT_ADD : CARC_ACT_REMOVE);
    int tile = node / CARC_MAX_SEGMENTS, seg = node % CARC_MAX_SEGMENTS;
    if (tile >= s->ntiles || seg >= carc_tiles[s->tiles[tile].type].nseg)
        return tf_error(err, TAFEL_EILLEGAL, "no such segment");
    int mine = 0;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        mine |= f->player == player && f->tile == tile && f->seg == seg &&
                carc_follower_kind(s, f) == s->crop_kind;
    }
    if (!mine)
        return tf_error(err, TAFEL_EILLEGAL, "you have no %s there", kind);
    if (add && carc_crop_canonical_add(s, player, node) != node)
        return tf_error(err, TAFEL_EILLEGAL, "name that feature by its first %s", kind);
    return TAFEL_OK;
}

void carc_crop_apply(carc_state *s, tafel_action a) {
    int player = carc_crop_actor(s);
    if (a >= CARC_ACT_ADD && a < CARC_ACT_ADD + CARC_NODES) {
        int node = a - CARC_ACT_ADD;
        carc_follower_put(s, player, node / CARC_MAX_SEGMENTS, node % CARC_MAX_SEGMENTS);
    } else if (a >= CARC_ACT_REMOVE && a < CARC_ACT_REMOVE + CARC_NODES) {
        int node = a - CARC_ACT_REMOVE;
        for (int i = s->nfollowers - 1; i >= 0; i--) {
            const carc_follower *f = &s->followers[i];
            if (f->player == player && f->tile * CARC_MAX_SEGMENTS + f->seg == node) {
                carc_follower_take(s, i);
                break;
            }
        }
    }
    s->crop_step++;
    advance(s);
}
