/*
** features.c -- roads, cities, fields and cloisters as connected segments.
**
** Every segment of every placed tile is a node (tile index * 8 + segment).
** Nodes of one feature form a union-find tree; the root carries the number
** of city/road edges still open (a road or city is complete at 0, rules §3)
** and the number of followers on the feature (the occupancy rule of §2.2
** asks only whether it is 0).  Roots are always the older node, so a
** feature's root does not move when a new tile joins it.  The circular
** next[] lists let scoring visit one feature's nodes: a feature counts each
** tile once however many of its segments it uses (§3, "counting tiles").
*/
#include "carcassonne.h"

#include <stdlib.h>

int carc_find(const carc_state *s, int node) {
    while (s->parent[node] != node) node = s->parent[node];
    return node;
}

/* find with path halving, for the state being changed */
static int find_compress(carc_state *s, int node) {
    while (s->parent[node] != node) {
        s->parent[node] = s->parent[s->parent[node]];
        node = s->parent[node];
    }
    return node;
}

int carc_segment_kind(const carc_state *s, int node) {
    const carc_placed *p = &s->tiles[node / CARC_MAX_SEGMENTS];
    return carc_tiles[p->type].seg[node % CARC_MAX_SEGMENTS].kind;
}

/* Join the features of nodes a and b; closes_edge when they meet across a
** city or road edge, which then is open on neither side. */
static void unite(carc_state *s, int a, int b, int closes_edge) {
    a = find_compress(s, a);
    b = find_compress(s, b);
    int closed = closes_edge ? 2 : 0;
    if (a == b) {
        s->open[a] = (uint8_t)(s->open[a] - closed);
        return;
    }
    if (b < a) {
        int t = a;
        a = b;
        b = t;
    }
    s->parent[b] = (uint16_t)a;
    s->open[a] = (uint8_t)(s->open[a] + s->open[b] - closed);
    s->occ[a] = (uint8_t)(s->occ[a] + s->occ[b]);
    uint16_t t = s->next[a];
    s->next[a] = s->next[b];
    s->next[b] = t;
}

static int popcount4(unsigned m) { return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1); }

void carc_features_add_tile(carc_state *s, int tile) {
    const carc_placed *p = &s->tiles[tile];
    const carc_tile *t = &carc_tiles[p->type];
    const carc_oriented *o = carc_orient(p->type, p->rot);
    int base = tile * CARC_MAX_SEGMENTS;
    for (int i = 0; i < t->nseg; i++) {
        int n = base + i;
        s->parent[n] = s->next[n] = (uint16_t)n;
        s->occ[n] = 0;
        int k = t->seg[i].kind;
        s->open[n] = (uint8_t)((k == CARC_CITY || k == CARC_ROAD) ? popcount4(o->seg_edges[i]) : 0);
    }
    for (int d = 0; d < 4; d++) {
        int other = carc_board_at(s, p->x + carc_dx[d], p->y + carc_dy[d]);
        if (other < 0) continue;
        const carc_placed *q = &s->tiles[other];
        const carc_oriented *oq = carc_orient(q->type, q->rot);
        int obase = other * CARC_MAX_SEGMENTS, back = (d + 2) & 3;
        if (o->edge_seg[d] != CARC_NO_SEGMENT)
            unite(s, base + o->edge_seg[d], obase + oq->edge_seg[back], 1);
        /* half h meets (5 - h) across N/S edges, (9 - h) across E/W */
        int sum = (d & 1) ? 9 : 5;
        for (int h = 2 * d; h <= 2 * d + 1; h++) {
            int mine = o->half_seg[h], theirs = oq->half_seg[(sum - h) & 7];
            if (mine != CARC_NO_SEGMENT && theirs != CARC_NO_SEGMENT)
                unite(s, base + mine, obase + theirs, 0);
        }
    }
}

/* Distinct tiles of the feature at root, and its pennants. */
int carc_feature_tiles(const carc_state *s, int root, int *pennants) {
    uint64_t seen[2] = {0, 0};
    int tiles = 0, flags = 0, n = root;
    do {
        int tile = n / CARC_MAX_SEGMENTS;
        const carc_segment *seg = &carc_tiles[s->tiles[tile].type].seg[n % CARC_MAX_SEGMENTS];
        flags += seg->pennant;
        uint64_t bit = 1ull << (tile & 63);
        if (!(seen[tile >> 6] & bit)) {
            seen[tile >> 6] |= bit;
            tiles++;
        }
        n = s->next[n];
    } while (n != root);
    if (pennants) *pennants = flags;
    return tiles;
}

int carc_follower_kind(const carc_state *s, const carc_follower *f) {
    return carc_tiles[s->tiles[f->tile].type].seg[f->seg].kind;
}

void carc_follower_put(carc_state *s, int player, int tile, int seg) {
    carc_follower *f = &s->followers[s->nfollowers++];
    f->player = (uint8_t)player;
    f->tile = (uint8_t)tile;
    f->seg = (uint8_t)seg;
    f->pad = 0;
    s->occ[carc_find(s, tile * CARC_MAX_SEGMENTS + seg)]++;
    s->supply[player]--;
}

/* Back to the supply; the list stays in placement order. */
void carc_follower_take(carc_state *s, int index) {
    carc_follower *f = &s->followers[index];
    s->occ[carc_find(s, f->tile * CARC_MAX_SEGMENTS + f->seg)]--;
    s->supply[f->player]++;
    for (int i = index + 1; i < s->nfollowers; i++) s->followers[i - 1] = s->followers[i];
    s->nfollowers--;
    s->followers[s->nfollowers] = (carc_follower){0, 0, 0, 0};
}

static int node_order(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}

/* The segments of the features at roots[0..n), oldest tile first, as
** [[x, y, "city N"], ...] named as the notation names them: what a front
** end lights to show a whole feature (docs/events-carcassonne.md).  A root
** of a cloister is its own segment.  Not on the path of play. */
void carc_segments_json(tf_buf *b, const carc_state *s, const int *roots, int n) {
    int nodes[CARC_NODES], count = 0;
    for (int r = 0; r < n; r++) {
        int node = roots[r];
        do {
            if (count < CARC_NODES) nodes[count++] = node;
            node = s->next[node];
        } while (node != roots[r]);
    }
    qsort(nodes, (size_t)count, sizeof nodes[0], node_order);
    tf_buf_add(b, "[");
    for (int i = 0, first = 1; i < count; i++) {
        int tile = nodes[i] / CARC_MAX_SEGMENTS;
        char name[32];
        if (carc_segment_name(s, tile, nodes[i] % CARC_MAX_SEGMENTS, name, sizeof name) < 0)
            continue;
        tf_buf_addf(b, "%s[%d,%d,\"%s\"]", first ? "" : ",", s->tiles[tile].x,
                    s->tiles[tile].y, name);
        first = 0;
    }
    tf_buf_add(b, "]");
}
