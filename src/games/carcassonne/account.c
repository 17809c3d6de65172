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
** what it paid) to tell each feature and farm.  Nothing here is on the path
** of apply or play_random.
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

/* The followers of a scored feature go home (§2.3), seat by seat. */
static void event_returned(tf_events *ev, const carc_report_item *it) {
    int kind = cat_kind[it->cat];
    for (int p = 0; p < ev->players; p++) {
        if (!it->count[p]) continue;
        tf_event_begin(ev, "followers_returned");
        tf_event_int(ev, "seat", p);
        tf_event_int(ev, "count", it->count[p]);
        tf_event_str(ev, "follower", carc_follower_names[kind]);
        tf_event_str(ev, "feature", carc_kind_names[kind]);
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
        return;
    }
    tf_event_begin(ev, kinds[complete][it->cat]);
    tf_event_str(ev, "feature", feature);
    tf_event_int(ev, "tiles", tiles);
    if (it->cat == CARC_CAT_CITY) {
        tf_event_int(ev, "pennants", pennants);
        /* §3: a completed city of 2 tiles scores a fixed amount */
        if (complete) tf_event_str(ev, "rule", tiles == 2 ? "small_city" : "city");
    }
    event_at(ev, s, it->node);
    event_share(ev, it, "followers_by_seat");
}

/* Farmers at the end (§5): first edition, one event per completed city
** supplied (node: the city); farmers=modern, one per field (node: the
** field), worth 3 per completed city it borders. */
static void event_farm(tf_events *ev, const carc_state *s, const carc_report_item *it) {
    if (s->farmers_modern) {
        tf_event_begin(ev, "field_scored");
        tf_event_int(ev, "cities", it->points / 3);
    } else {
        tf_event_begin(ev, "farm_scored");
        tf_event_int(ev, "city_tiles", carc_feature_tiles(s, it->node, NULL));
    }
    event_at(ev, s, it->node);
    event_share(ev, it, "farmers_by_seat");
}

/* Final scoring of the finished state, feature by feature, then the end. */
static void event_final(tf_events *ev, const carc_state *after) {
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

static void event_place(tf_events *ev, const carc_state *s, tafel_action a) {
    int key = (a - CARC_ACT_PLACE) / 4, rot = (a - CARC_ACT_PLACE) % 4;
    tf_event_begin(ev, "tile_placed");
    tf_event_int(ev, "seat", s->active);
    tf_event_str(ev, "tile", carc_tiles[s->in_hand].id);
    tf_event_int(ev, "x", carc_key_x((uint16_t)key));
    tf_event_int(ev, "y", carc_key_y((uint16_t)key));
    tf_event_int(ev, "turn", rot * 90);
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
    carc_play_reported(&after, a, &report);
    switch (s->phase) {
    case CARC_PH_DRAW: event_draw(ev, s, &after, a - CARC_ACT_DRAW); break;
    case CARC_PH_PLACE: event_place(ev, s, a); break;
    case CARC_PH_FOLLOWER:
        if (a == CARC_ACT_PASS) {
            tf_event_begin(ev, "no_follower");
            tf_event_int(ev, "seat", s->active);
        } else {
            tf_event_begin(ev, "follower_placed");
            tf_event_int(ev, "seat", s->active);
            event_follower(ev, s, (s->ntiles - 1) * CARC_MAX_SEGMENTS + a - CARC_ACT_FOLLOWER);
        }
        for (int i = 0; i < report.n; i++) {
            event_feature(ev, &after, &report.item[i]);
            event_returned(ev, &report.item[i]);
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
    if (after.phase == CARC_PH_OVER) event_final(ev, &after);
    return TAFEL_OK;
}
