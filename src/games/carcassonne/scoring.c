/*
** scoring.c -- points for roads, cities, cloisters and farmers.
**
** During play (rules §2.3, §3) the tile just placed can complete roads and
** cities through its own segments, and cloisters on itself or on any of the
** 8 positions around it; each scores at once for the majority of its
** followers, who go home.  At the end (§5) incomplete features score at the
** lower rate, then farmers supply completed cities: city by city, 4 points
** to the majority of farmers in the fields bordering it (first edition), or
** with farmers=modern field by field, 3 per completed city.
*/
#include "carcassonne.h"

#include <string.h>

void carc_add_points(carc_state *s, int player, int cat, int points) {
    s->score[player] = (int16_t)(s->score[player] + points);
    s->points[player][cat] = (int16_t)(s->points[player][cat] + points);
}

/* Followers per player on the feature at root; returns the largest count. */
static int majority(const carc_state *s, int root, int count[TAFEL_MAX_PLAYERS]) {
    memset(count, 0, sizeof(int) * TAFEL_MAX_PLAYERS);
    int best = 0;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        if (carc_find(s, f->tile * CARC_MAX_SEGMENTS + f->seg) != root) continue;
        if (++count[f->player] > best) best = count[f->player];
    }
    return best;
}

/* Notes a feature scoring paid (or, winners 0, a completed one nobody
** held), when a report is asked for; count: followers per seat. */
static void report_item(carc_report *r, int cat, int node, int points, unsigned winners,
                        const int *count) {
    if (!r || r->n == (int)(sizeof r->item / sizeof r->item[0])) return;
    carc_report_item *it = &r->item[r->n++];
    *it = (carc_report_item){(uint8_t)cat, (uint8_t)winners, (int16_t)points, node, {0}};
    for (int p = 0; p < TAFEL_MAX_PLAYERS; p++) it->count[p] = (uint8_t)count[p];
}

static void award(carc_state *s, carc_report *r, int root, int cat, int points) {
    int count[TAFEL_MAX_PLAYERS];
    int best = majority(s, root, count);
    if (best == 0) return;
    unsigned winners = 0;
    for (int p = 0; p < s->players; p++)
        if (count[p] == best) carc_add_points(s, p, cat, points), winners |= 1u << p;
    report_item(r, cat, root, points, winners, count);
}

/* The seed: followers come home after scoring and may be placed again
** "from the owner's next turn on", so crop circle action A later in this
** turn cannot use them; returned[] counts them until the turn ends. */
static void return_followers(carc_state *s, int root) {
    for (int i = s->nfollowers - 1; i >= 0; i--) {
        const carc_follower *f = &s->followers[i];
        if (carc_find(s, f->tile * CARC_MAX_SEGMENTS + f->seg) != root) continue;
        s->returned[f->player]++;
        carc_follower_take(s, i);
    }
}

/* Points of a road or city at root; complete or not (§3 table). */
static int feature_points(const carc_state *s, int root, int complete) {
    int pennants;
    int tiles = carc_feature_tiles(s, root, &pennants);
    if (carc_segment_kind(s, root) == CARC_ROAD) return tiles;
    if (!complete) return tiles + pennants;
    if (tiles == 2) return s->small_city;
    return 2 * tiles + 2 * pennants;
}

void carc_score_completed(carc_state *s, int tile, carc_report *r) {
    const carc_tile *t = &carc_tiles[s->tiles[tile].type];
    int done[CARC_MAX_SEGMENTS], ndone = 0;
    for (int i = 0; i < t->nseg; i++) {
        int k = t->seg[i].kind;
        if (k != CARC_CITY && k != CARC_ROAD) continue;
        int root = carc_find(s, tile * CARC_MAX_SEGMENTS + i), seen = 0;
        for (int j = 0; j < ndone; j++) seen |= done[j] == root;
        if (seen || s->open[root] != 0) continue;
        done[ndone++] = root;
        int cat = k == CARC_ROAD ? CARC_CAT_ROAD : CARC_CAT_CITY;
        if (!s->occ[root]) {
            static const int nobody[TAFEL_MAX_PLAYERS];
            report_item(r, cat, root, 0, 0, nobody);
            continue;
        }
        award(s, r, root, cat, feature_points(s, root, 1));
        return_followers(s, root);
    }
    /* cloisters with a monk on this tile or the 8 around it */
    int x = s->tiles[tile].x, y = s->tiles[tile].y;
    for (int i = s->nfollowers - 1; i >= 0; i--) {
        const carc_follower *f = &s->followers[i];
        const carc_placed *c = &s->tiles[f->tile];
        if (c->x < x - 1 || c->x > x + 1 || c->y < y - 1 || c->y > y + 1) continue;
        if (carc_follower_kind(s, f) != CARC_CLOISTER) continue;
        if (carc_board_neighbours8(s, c->x, c->y) < 8) continue;
        int node = f->tile * CARC_MAX_SEGMENTS + f->seg;
        award(s, r, node, CARC_CAT_CLOISTER, 9);
        return_followers(s, node);
        i = s->nfollowers; /* the list changed: look again */
    }
}

/* Completed cities bordering the field at root, as city roots (deduped). */
int carc_bordered_cities(const carc_state *s, int field, int *cities, int cap) {
    int n = 0, node = field;
    do {
        int tile = node / CARC_MAX_SEGMENTS;
        const carc_tile *t = &carc_tiles[s->tiles[tile].type];
        unsigned borders = t->seg[node % CARC_MAX_SEGMENTS].borders;
        for (int c = 0; borders; c++, borders >>= 1) {
            if (!(borders & 1)) continue;
            int city = carc_find(s, tile * CARC_MAX_SEGMENTS + c), seen = 0;
            if (s->open[city] != 0) continue;
            for (int j = 0; j < n; j++) seen |= cities[j] == city;
            if (!seen && n < cap) cities[n++] = city;
        }
        node = s->next[node];
    } while (node != field);
    return n;
}

#define MAX_CITIES 64

static void score_farmers_2000(carc_state *s, carc_report *r) {
    /* per distinct farmed field: its completed cities */
    int fields[CARC_MAX_FOLLOWERS], nfields = 0;
    int cities[CARC_MAX_FOLLOWERS][MAX_CITIES], ncities[CARC_MAX_FOLLOWERS];
    int all[CARC_MAX_FOLLOWERS * MAX_CITIES], nall = 0;
    int farmer_field[CARC_MAX_FOLLOWERS];
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        farmer_field[i] = -1;
        if (carc_follower_kind(s, f) != CARC_FIELD) continue;
        int root = carc_find(s, f->tile * CARC_MAX_SEGMENTS + f->seg), k = 0;
        while (k < nfields && fields[k] != root) k++;
        if (k == nfields) {
            fields[nfields] = root;
            ncities[nfields] = carc_bordered_cities(s, root, cities[nfields], MAX_CITIES);
            for (int c = 0; c < ncities[nfields]; c++) {
                int seen = 0;
                for (int j = 0; j < nall; j++) seen |= all[j] == cities[nfields][c];
                if (!seen) all[nall++] = cities[nfields][c];
            }
            nfields++;
        }
        farmer_field[i] = k;
    }
    for (int c = 0; c < nall; c++) {
        int count[TAFEL_MAX_PLAYERS] = {0}, best = 0;
        for (int i = 0; i < s->nfollowers; i++) {
            int k = farmer_field[i], borders = 0;
            if (k < 0) continue;
            for (int j = 0; j < ncities[k]; j++) borders |= cities[k][j] == all[c];
            if (borders && ++count[s->followers[i].player] > best) best = count[s->followers[i].player];
        }
        unsigned winners = 0;
        for (int p = 0; p < s->players; p++)
            if (best && count[p] == best) carc_add_points(s, p, CARC_CAT_FARM, 4), winners |= 1u << p;
        if (winners) report_item(r, CARC_CAT_FARM, all[c], 4, winners, count);
    }
}

static void score_farmers_modern(carc_state *s, carc_report *r) {
    int done[CARC_MAX_FOLLOWERS], ndone = 0;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        if (carc_follower_kind(s, f) != CARC_FIELD) continue;
        int root = carc_find(s, f->tile * CARC_MAX_SEGMENTS + f->seg), seen = 0;
        for (int j = 0; j < ndone; j++) seen |= done[j] == root;
        if (seen) continue;
        done[ndone++] = root;
        int cities[MAX_CITIES];
        int n = carc_bordered_cities(s, root, cities, MAX_CITIES);
        if (n) award(s, r, root, CARC_CAT_FARM, 3 * n);
    }
}

void carc_score_final(carc_state *s, carc_report *r) {
    int done[CARC_MAX_FOLLOWERS], ndone = 0;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        int kind = carc_follower_kind(s, f);
        if (kind == CARC_FIELD) continue;
        int root = carc_find(s, f->tile * CARC_MAX_SEGMENTS + f->seg), seen = 0;
        for (int j = 0; j < ndone; j++) seen |= done[j] == root;
        if (seen) continue;
        done[ndone++] = root;
        if (kind == CARC_CLOISTER) {
            const carc_placed *c = &s->tiles[f->tile];
            award(s, r, root, CARC_CAT_CLOISTER, 1 + carc_board_neighbours8(s, c->x, c->y));
        } else {
            award(s, r, root, kind == CARC_ROAD ? CARC_CAT_ROAD : CARC_CAT_CITY,
                  feature_points(s, root, s->open[root] == 0));
        }
    }
    if (s->farmers_modern) score_farmers_modern(s, r);
    else score_farmers_2000(s, r);
}
