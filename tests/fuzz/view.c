/*
** view.c -- fuzz target: every seat's view of random positions.
**
** Input: a position header (fuzz.h), a flags byte, then seats, one signed
** byte each; -2, -1, every seat, players, INT_MIN and INT_MAX are always
** tried.  For a seat in -1..players-1, tafel_state_view_json gives one JSON
** object (cJSON reads it, with nothing after it) and tafel_state_render a
** picture (plain, coloured, or with the input's flags); for any other seat
** both give NULL.  Nothing changes the state.  A seat's view, and the
** spectator's, do not change when what the seat cannot see is resampled
** (tafel_state_resample, seeded from the input), and the resampled copy
** passes tafel_state_check; a seat out of range cannot be resampled.  Score
** breakdowns take any seat; scores, projected scores and the heuristic are
** finite numbers, and the winners are seats.
*/
#include "fuzz.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>

#define MAX_SEATS 16

static void check_scores(const fz_position *p, const tafel_state *s) {
    double scores[TAFEL_MAX_PLAYERS], projected[TAFEL_MAX_PLAYERS],
        heuristic[TAFEL_MAX_PLAYERS];
    tafel_state_scores(s, scores);
    tafel_state_projected(s, projected);
    tafel_state_heuristic(s, heuristic);
    for (int i = 0; i < p->players; i++)
        if (!isfinite(scores[i]) || !isfinite(projected[i]) || !isfinite(heuristic[i]))
            fz_fail("seat %d: score %g, projected %g, heuristic %g", i, scores[i],
                    projected[i], heuristic[i]);
    int winners[TAFEL_MAX_PLAYERS];
    int n = tafel_state_winners(s, winners);
    if (n < 0 || n > p->players) fz_fail("%d winners of %d players", n, p->players);
    for (int i = 0; i < n; i++)
        if (winners[i] < 0 || winners[i] >= p->players) fz_fail("winner %d", winners[i]);
}

static void check_seat(const fz_position *p, const tafel_state *s, int seat, int flags,
                       uint64_t rng) {
    int valid = seat >= -1 && seat < p->players;
    char *view = tafel_state_view_json(s, seat);
    if (!valid) {
        if (view) fz_fail("a view for seat %d of %d players", seat, p->players);
    } else {
        if (!view) fz_fail("no view for seat %d", seat);
        cJSON *json = cJSON_ParseWithOpts(view, NULL, 1);
        if (!cJSON_IsObject(json)) fz_fail("seat %d's view is no JSON object: %s", seat, view);
        cJSON_Delete(json);
    }
    char *picture = tafel_state_render(s, seat, flags);
    if (!valid && picture) fz_fail("a picture for seat %d of %d players", seat, p->players);
    if (valid && !picture) fz_fail("no picture for seat %d", seat);
    free(picture);

    const char *names[32];
    double values[32];
    int n = tafel_state_score_breakdown(s, seat, names, values, 32);
    if (seat < 0 || seat >= p->players) {
        if (n != 0) fz_fail("a breakdown of %d categories for seat %d", n, seat);
    } else {
        if (n < 0) fz_fail("a breakdown of %d categories for seat %d", n, seat);
        for (int i = 0; i < n && i < 32; i++)
            if (!names[i] || !isfinite(values[i]))
                fz_fail("seat %d: breakdown category %d '%s' %g", seat, i,
                        names[i] ? names[i] : "(null)", values[i]);
    }

    tafel_state *c = fz_clone(s);
    int rc = tafel_state_resample(c, seat, &rng);
    if (seat < 0 || seat >= p->players) {
        if (rc != TAFEL_EINVAL) fz_fail("resample for seat %d: status %d", seat, rc);
        if (!tafel_state_equal(c, s)) fz_fail("resample for seat %d changed the state", seat);
    } else {
        if (rc != TAFEL_OK) fz_fail("resample for seat %d: status %d", seat, rc);
        fz_check(c, "a state resampled for a seat");
        char *again = tafel_state_view_json(c, seat);
        if (!again || strcmp(view, again))
            fz_fail("seat %d's view changes when resampled:\n%s\n%s", seat, view,
                    again ? again : "(null)");
        free(again);
        char *spectator = tafel_state_view_json(s, -1);
        char *spectator2 = tafel_state_view_json(c, -1);
        if (!spectator || !spectator2 || strcmp(spectator, spectator2))
            fz_fail("the spectator's view changes when resampled for seat %d", seat);
        free(spectator);
        free(spectator2);
    }
    tafel_state_free(c);
    free(view);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_position p;
    fz_position_make(&data, &size, &p);
    tafel_state *before = fz_clone(p.state);
    uint64_t rng = tafel_rng_seed(size);
    int flags = size ? data[0] : 0;
    if (size) data++, size--;
    for (size_t i = 0; i < size; i++) rng = rng * 31 + data[i];

    check_scores(&p, p.state);
    int seats[MAX_SEATS + TAFEL_MAX_PLAYERS + 5] = {INT_MIN, INT_MAX, -2, p.players};
    int n = 4;
    for (int seat = -1; seat < p.players; seat++) seats[n++] = seat;
    for (size_t i = 0; i < size && i < MAX_SEATS; i++) seats[n++] = (int8_t)data[i];
    for (int i = 0; i < n; i++) {
        /* flags: the input's, or 0 and TAFEL_RENDER_COLOR in turn */
        check_seat(&p, p.state, seats[i], flags & 0x80 ? flags : i & 1, rng + (uint64_t)i);
        if (!tafel_state_equal(p.state, before))
            fz_fail("looking at seat %d changed the state", seats[i]);
    }
    tafel_state_free(before);
    fz_position_free(&p);
    return 0;
}
