/*
** account.c -- what an action did, as events (docs/events-carcassonne.md).
**
** Carcassonne hides nothing but the order of the pile, which the state does
** not hold, so every seat (and a spectator) is told the same account.  The
** action is played on a copy through carc_play_reported, whose report lists
** every road, city and cloister the placed tile completed (scoring.c); the
** rest is read from the state before and the copy after: the tile drawn,
** placed or removed, the follower placed, the crop circle choice and who was
** skipped.  When the action ends the game, final scoring is run once more on
** a copy of the finished state (it moves no follower, so it pays exactly
** what it paid) to tell each feature and farm.  Each scored feature carries
** its segments, and each seat's followers going home where they stood, so
** that a front end can light the whole feature and move the very followers
** (the notation's names: [x, y, "city N"]).  Nothing here is on the path of
** apply or play_random.
*/
#include "carcassonne.h"

/* Segment kind of each score category: what a follower there is called. */
static const int cat_kind[CARC_CATS] = {CARC_ROAD, CARC_CITY, CARC_CLOISTER, CARC_FIELD};

static int popcount(unsigned m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

/* "x", "y": where the tile of node lies, so a front end can point at it. */
static void event_at(tf_events *ev, const carc_state *s, int node) {
    const carc_placed *p = &s->tiles[node / CARC_MAX_SEGMENTS];
    tf_event_int(ev, "x", p->x);
    tf_event_int(ev, "y", p->y);
}

/* A follower on node: its name (knight..) and the feature (city..). */
static void event_follower(tf_events *ev, const carc_state *s, int node) {
    int kind = carc_segment_kind(s, node);
    tf_event_str(ev, "follower", carc_follower_names[kind]);
    tf_event_str(ev, "feature", carc_kind_names[kind]);
    event_at(ev, s, node);
}

/* "segments": every segment of the features at roots (one feature, or a
** city with the farmed fields that supply it). */
static void event_segments(tf_events *ev, const carc_state *s, const int *roots, int n) {
    tf_buf b;
    tf_buf_init(&b);
    carc_segments_json(&b, s, roots, n);
    if (b.oom) ev->out.oom = 1;
    else tf_event_raw(ev, "segments", b.data);
    tf_buf_free(&b);
}

/* Who decided a scoring and who got the points (§3: the most followers
** score; tied seats each score in full). */
static void event_share(tf_events *ev, const carc_report_item *it, const char *count_field) {
    int count[TAFEL_MAX_PLAYERS], points[TAFEL_MAX_PLAYERS];
    for (int p = 0; p < ev->players; p++) {
        count[p] = it->count[p];
        points[p] = it->winners >> p & 1 ? it->points : 0;
    }
    tf_event_ints(ev, count_field, count, ev->players);
    tf_event_seat_set(ev, "seats", it->winners);
    tf_event_str(ev, "reason", popcount(it->winners) > 1 ? "tie" : "majority");
    tf_event_points(ev, points);
}

/* "segments": where seat's followers on the feature at root stood, one
** entry a follower: those of s (before the action) and the one the action
** puts on the new tile (new_node, or -1), the last. */
static void event_stood(tf_events *ev, const carc_state *s, int root, int seat, int new_node) {
    char name[32];
    tf_buf b;
    tf_buf_init(&b);
    tf_buf_add(&b, "[");
    for (int i = 0; i <= s->nfollowers; i++) {
        int tile, seg;
        if (i < s->nfollowers) {
            const carc_follower *f = &s->followers[i];
            if (f->player != seat) continue;
            tile = f->tile, seg = f->seg;
        } else {
            if (new_node < 0 || s->active != seat) continue;
            tile = new_node / CARC_MAX_SEGMENTS, seg = new_node % CARC_MAX_SEGMENTS;
        }
        if (carc_find(s, tile * CARC_MAX_SEGMENTS + seg) != root) continue;
        if (carc_segment_name(s, tile, seg, name, sizeof name) < 0) continue;
        tf_buf_addf(&b, "%s[%d,%d,\"%s\"]", b.len > 1 ? "," : "", s->tiles[tile].x,
                    s->tiles[tile].y, name);
    }
    tf_buf_add(&b, "]");
    if (b.oom) ev->out.oom = 1;
    else tf_event_raw(ev, "segments", b.data);
    tf_buf_free(&b);
}

/* The followers of a scored feature go home (§2.3), seat by seat; s is the
** state before the action, new_node the follower it places (or -1). */
static void event_returned(tf_events *ev, const carc_state *s, const carc_report_item *it,
                           int new_node) {
    int kind = cat_kind[it->cat];
    for (int p = 0; p < ev->players; p++) {
        if (!it->count[p]) continue;
        tf_event_begin(ev, "followers_returned");
        tf_event_int(ev, "seat", p);
        tf_event_int(ev, "count", it->count[p]);
        tf_event_str(ev, "follower", carc_follower_names[kind]);
        tf_event_str(ev, "feature", carc_kind_names[kind]);
        event_stood(ev, s, it->node, p, new_node);
    }
}

/* A road, city or cloister as scoring paid it, during play or at the end;
** s is the state after the action (features do not change once scored). */
static void event_feature(tf_events *ev, const carc_state *s, const carc_report_item *it) {
    static const char *const kinds[2][3] = {
        {"unfinished_road_scored", "unfinished_city_scored", "unfinished_cloister_scored"},
        {"road_scored", "city_scored", "cloister_scored"}};
    int pennants = 0, tiles, complete;
    if (it->cat == CARC_CAT_CLOISTER) {
        const carc_placed *c = &s->tiles[it->node / CARC_MAX_SEGMENTS];
        tiles = 1 + carc_board_neighbours8(s, c->x, c->y);
        complete = tiles == 9;
    } else {
        tiles = carc_feature_tiles(s, it->node, &pennants);
        complete = s->open[it->node] == 0;
    }
    const char *feature = carc_kind_names[cat_kind[it->cat]];
    if (!it->winners) {
        tf_event_begin(ev, "feature_completed");
        tf_event_str(ev, "feature", feature);
        tf_event_int(ev, "tiles", tiles);
        event_at(ev, s, it->node);
        event_segments(ev, s, &it->node, 1);
        return;
    }
    tf_event_begin(ev, kinds[complete][it->cat]);
    tf_event_str(ev, "feature", feature);
    tf_event_int(ev, "tiles", tiles);
    if (it->cat == CARC_CAT_CITY) {
        tf_event_int(ev, "pennants", pennants);
        /* §3: a completed city of 2 tiles scores a fixed amount, its pennants
        ** nothing; pennant_points, what they add, lets the words leave them out */
        if (complete) {
            int small = tiles == 2;
            tf_event_str(ev, "rule", small ? "small_city" : "city");
            tf_event_int(ev, "pennant_points", small ? 0 : 2 * pennants);
        }
    }
    event_at(ev, s, it->node);
    event_segments(ev, s, &it->node, 1);
    event_share(ev, it, "followers_by_seat");
}

/* The roots of city with the fields of farmers that border it, into
** roots (the city first); returns how many. */
static int supplied_by(const carc_state *s, int city, int *roots) {
    int n = 0;
    roots[n++] = city;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        if (carc_follower_kind(s, f) != CARC_FIELD) continue;
        int field = carc_find(s, f->tile * CARC_MAX_SEGMENTS + f->seg), seen = 0, borders = 0;
        for (int j = 1; j < n; j++) seen |= roots[j] == field;
        if (seen) continue;
        int cities[64], nc = carc_bordered_cities(s, field, cities, 64);
        for (int c = 0; c < nc; c++) borders |= cities[c] == city;
        if (borders) roots[n++] = field;
    }
    return n;
}

/* Farmers at the end (§5): first edition, one event per completed city
** supplied (node: the city; its segments and the farmed fields touching
** it); farmers=modern, one per field (node: the field), worth 3 per
** completed city it borders. */
static void event_farm(tf_events *ev, const carc_state *s, const carc_report_item *it) {
    int roots[1 + CARC_MAX_FOLLOWERS], n = 1;
    roots[0] = it->node;
    if (s->farmers_modern) {
        tf_event_begin(ev, "field_scored");
        tf_event_int(ev, "cities", it->points / 3);
    } else {
        tf_event_begin(ev, "farm_scored");
        tf_event_int(ev, "city_tiles", carc_feature_tiles(s, it->node, NULL));
        n = supplied_by(s, it->node, roots);
    }
    event_at(ev, s, it->node);
    event_segments(ev, s, roots, n);
    event_share(ev, it, "farmers_by_seat");
}

/* Final scoring of the finished state, feature by feature, then the end. */
void carc_account_final(tf_events *ev, const carc_state *after) {
    carc_state copy = *after;
    carc_report report = {.n = 0};
    carc_score_final(&copy, &report);
    for (int i = 0; i < report.n; i++) {
        if (report.item[i].cat == CARC_CAT_FARM) event_farm(ev, after, &report.item[i]);
        else event_feature(ev, after, &report.item[i]);
    }
    int scores[TAFEL_MAX_PLAYERS], best = after->score[0];
    unsigned winners = 0;
    for (int p = 0; p < after->players; p++) {
        scores[p] = after->score[p];
        if (scores[p] > best) best = scores[p];
    }
    for (int p = 0; p < after->players; p++)
        if (scores[p] == best) winners |= 1u << p;
    tf_event_begin(ev, "game_over");
    tf_event_ints(ev, "scores_by_seat", scores, after->players);
    tf_event_seat_set(ev, "winner_seats", winners);
}

/* Crop circles (§4): the seats passed over without an action, from step
** first to where the copy waits (or all of them when the turn ended). */
static void event_skipped(tf_events *ev, const carc_state *before, const carc_state *after,
                          int first, int remove) {
    int end = after->phase == CARC_PH_CROP_ACT ? after->crop_step : before->players;
    unsigned skipped = 0;
    for (int step = first; step < end; step++)
        skipped |= 1u << ((before->active + 1 + step) % before->players);
    if (!skipped) return;
    tf_event_begin(ev, "crop_skipped");
    tf_event_seat_set(ev, "seats", skipped);
    tf_event_str(ev, "choice", remove ? "remove" : "add");
}

static void event_draw(tf_events *ev, const carc_state *s, const carc_state *after, int type) {
    tf_event_begin(ev, "tile_drawn");
    tf_event_int(ev, "seat", s->active);
    tf_event_str(ev, "tile", carc_tiles[type].id);
    tf_event_int(ev, "pile", after->pile_total);
    if (after->phase == CARC_PH_PLACE) return;
    /* §2.1: it fits nowhere, leaves the game, and the same seat draws again */
    tf_event_begin(ev, "tile_removed");
    tf_event_int(ev, "seat", s->active);
    tf_event_str(ev, "tile", carc_tiles[type].id);
}

/* The seats with followers on the feature whose root in after is root, as
** s (before the action) has them: whose road or city it is. */
static unsigned owners_of(const carc_state *s, const carc_state *after, int root) {
    unsigned seats = 0;
    for (int i = 0; i < s->nfollowers; i++) {
        const carc_follower *f = &s->followers[i];
        int node = f->tile * CARC_MAX_SEGMENTS + f->seg;
        if (carc_find(after, node) == root) seats |= 1u << f->player;
    }
    return seats;
}

/* What the new tile joined, told so that the log can say it in words
** ("extends Blue's road", "closes the city") rather than by coordinates:
** each road and city of the board it continues, once, cities first (the
** kind says whether the tile closed it: §2.3, a road or city with no open
** edge is finished), with the seats whose followers hold it, its tiles
** now, and how many more features of the board it joined to the first
** (merged: a road from both ends, two cities made one); then each
** cloister it lies next to, with the squares around it filled now.  s is
** the state before the action, after the state with the tile laid. */
static void event_joined(tf_events *ev, const carc_state *s, const carc_state *after) {
    static const int kinds[2] = {CARC_CITY, CARC_ROAD};
    static const char *const names[2][2] = {{"city_extended", "city_closed"},
                                            {"road_extended", "road_closed"}};
    int t = after->ntiles - 1;
    const carc_placed *p = &after->tiles[t];
    const carc_tile *tile = &carc_tiles[p->type];
    for (int k = 0; k < 2; k++) {
        int roots[CARC_MAX_SEGMENTS], nroots = 0;
        for (int i = 0; i < tile->nseg; i++) {
            if (tile->seg[i].kind != kinds[k]) continue;
            int root = carc_find(after, t * CARC_MAX_SEGMENTS + i), seen = 0;
            for (int j = 0; j < nroots; j++) seen |= roots[j] == root;
            if (seen) continue;
            roots[nroots++] = root;
            /* the features of the board before that are one with it now */
            int parts[CARC_MAX_TILES], nparts = 0;
            for (int n = 0; n < t * CARC_MAX_SEGMENTS; n++) {
                if (carc_segment_kind(after, n) != kinds[k]) continue;
                if (carc_find(after, n) != root) continue;
                int old = carc_find(s, n), known = 0;
                for (int j = 0; j < nparts; j++) known |= parts[j] == old;
                if (!known && nparts < CARC_MAX_TILES) parts[nparts++] = old;
            }
            if (!nparts) continue; /* a road or city of its own: it joined nothing */
            tf_event_begin(ev, names[k][after->open[root] == 0]);
            tf_event_int(ev, "seat", s->active);
            tf_event_str(ev, "feature", carc_kind_names[kinds[k]]);
            tf_event_int(ev, "tiles", carc_feature_tiles(after, root, NULL));
            tf_event_int(ev, "merged", nparts - 1);
            tf_event_seat_set(ev, "owner_seats", owners_of(s, after, root));
            event_at(ev, after, root);
            event_segments(ev, after, &root, 1);
        }
    }
    for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++) {
            int at = dx || dy ? carc_board_at(after, p->x + dx, p->y + dy) : -1;
            if (at < 0) continue;
            const carc_tile *nb = &carc_tiles[after->tiles[at].type];
            for (int i = 0; i < nb->nseg; i++) {
                if (nb->seg[i].kind != CARC_CLOISTER) continue;
                int node = at * CARC_MAX_SEGMENTS + i;
                int filled = carc_board_neighbours8(after, after->tiles[at].x, after->tiles[at].y);
                tf_event_begin(ev, filled == 8 ? "cloister_closed" : "cloister_neighboured");
                tf_event_int(ev, "seat", s->active);
                tf_event_str(ev, "feature", "cloister");
                tf_event_int(ev, "filled", filled);
                tf_event_seat_set(ev, "owner_seats", owners_of(s, after, carc_find(after, node)));
                event_at(ev, after, node);
                event_segments(ev, after, &node, 1);
            }
        }
}

/* The tile laid (its place stays in x, y and turn, for the board and the
** notation), then what it joined. */
static void event_place(tf_events *ev, const carc_state *s, const carc_state *after,
                        tafel_action a) {
    int key = (a - CARC_ACT_PLACE) / 4, rot = (a - CARC_ACT_PLACE) % 4;
    tf_event_begin(ev, "tile_placed");
    tf_event_int(ev, "seat", s->active);
    tf_event_str(ev, "tile", carc_tiles[s->in_hand].id);
    tf_event_int(ev, "x", carc_key_x((uint16_t)key));
    tf_event_int(ev, "y", carc_key_y((uint16_t)key));
    tf_event_int(ev, "turn", rot * 90);
    event_joined(ev, s, after);
}

/* A crop circle action of one seat: add, remove or pass. */
static void event_crop_act(tf_events *ev, const carc_state *s, tafel_action a) {
    int seat = carc_crop_actor(s);
    if (a == CARC_ACT_PASS) {
        tf_event_begin(ev, "crop_passed");
        tf_event_int(ev, "seat", seat);
        return;
    }
    int add = a < CARC_ACT_REMOVE;
    tf_event_begin(ev, add ? "crop_added" : "crop_removed");
    tf_event_int(ev, "seat", seat);
    event_follower(ev, s, a - (add ? CARC_ACT_ADD : CARC_ACT_REMOVE));
}

int carc_describe(const void *data, tafel_action a, tf_events *ev) {
    const carc_state *s = data;
    carc_state after = *s;
    carc_report report = {.n = 0};
    int new_node = -1; /* the follower this action places */
    carc_play_reported(&after, a, &report);
    switch (s->phase) {
    case CARC_PH_DRAW: event_draw(ev, s, &after, a - CARC_ACT_DRAW); break;
    case CARC_PH_PLACE: event_place(ev, s, &after, a); break;
    case CARC_PH_FOLLOWER:
        if (a == CARC_ACT_PASS) {
            tf_event_begin(ev, "no_follower");
            tf_event_int(ev, "seat", s->active);
        } else {
            new_node = (s->ntiles - 1) * CARC_MAX_SEGMENTS + a - CARC_ACT_FOLLOWER;
            tf_event_begin(ev, "follower_placed");
            tf_event_int(ev, "seat", s->active);
            event_follower(ev, s, new_node);
        }
        for (int i = 0; i < report.n; i++) {
            event_feature(ev, &after, &report.item[i]);
            event_returned(ev, s, &report.item[i], new_node);
        }
        break;
    case CARC_PH_CROP_CHOOSE:
        tf_event_begin(ev, "crop_chosen");
        tf_event_int(ev, "seat", s->active);
        tf_event_str(ev, "choice", a == CARC_ACT_CROP_REMOVE ? "remove" : "add");
        tf_event_str(ev, "follower", carc_follower_names[s->crop_kind]);
        event_skipped(ev, s, &after, 0, a == CARC_ACT_CROP_REMOVE);
        break;
    case CARC_PH_CROP_ACT:
        event_crop_act(ev, s, a);
        event_skipped(ev, s, &after, s->crop_step + 1, s->crop_mode);
        break;
    default: return TAFEL_EILLEGAL;
    }
    if (after.phase == CARC_PH_OVER) carc_account_final(ev, &after);
    return TAFEL_OK;
}
