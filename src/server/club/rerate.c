/*
** rerate.c -- voiding rated results and rating a game again (rerate.h).
**
** The store voids the tables and, in the same transaction, hands each game
** touched here (rerate_game): its players (every row of ratings for it,
** sorted by id) and its remaining rated results, read whole before any is
** rewritten, in the order they were rated.  The results of one table are
** consecutive in that order (they share results.at and the table).  The
** report's lines on ratings are kept aside until the voided tables are
** listed, so the report reads in the order things happened.
*/
#include "rerate.h"

#include "glicko2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int by_id(const void *a, const void *b) {
    int64_t x = ((const store_rerate_player *)a)->id, y = ((const store_rerate_player *)b)->id;
    return x < y ? -1 : x > y;
}

static glicko2_rating from_store(store_rating r) {
    return (glicko2_rating){r.rating, r.rd, r.volatility};
}

static store_rating to_store(glicko2_rating r) {
    return (store_rating){r.rating, r.rd, r.volatility};
}

/* Rates one table's results (results[from..to)) as the server did. */
static int rate_table(store_rerate_game *g, int from, int to, char *err, size_t errsize) {
    store_rerate_result *results = g->results;
    /* zeroed: gcc's -O1 sanitizer build cannot see that n > 0 fills them */
    int n = to - from, places[GLICKO2_MAX_SEATS] = {0};
    glicko2_rating before[GLICKO2_MAX_SEATS] = {{0}}, after[GLICKO2_MAX_SEATS];
    store_rerate_player *who[GLICKO2_MAX_SEATS];
    if (n > GLICKO2_MAX_SEATS) {
        snprintf(err, errsize, "table %s has %d rated results", results[from].table_id, n);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        store_rerate_player key = {.id = results[from + k].player};
        who[k] = bsearch(&key, g->players, (size_t)g->nplayers, sizeof *g->players, by_id);
        if (!who[k]) {
            snprintf(err, errsize, "table %s: player %lld has a rated result but no rating",
                     results[from].table_id, (long long)key.id);
            return -1;
        }
        places[k] = results[from + k].place;
        before[k] = from_store(who[k]->now);
    }
    glicko2_rate_places(n, places, before, after);
    for (int k = 0; k < n; k++) {
        results[from + k].before = to_store(before[k]);
        results[from + k].after = to_store(after[k]);
        who[k]->now = to_store(after[k]);
        who[k]->games++;
    }
    return 0;
}

/* Rates a game again from scratch (store_rerate_fn: the store writes what
** it reckons); notes whose rating changed in changes (a FILE *). */
static int rerate_game(void *changes, store_rerate_game *g, char *err, size_t errsize) {
    for (int i = 0; i < g->nplayers; i++) {
        g->players[i].now = (store_rating){GLICKO2_RATING, GLICKO2_RD, GLICKO2_VOLATILITY};
        g->players[i].games = 0;
    }
    for (int from = 0, to; from < g->nresults; from = to) {
        for (to = from + 1;
             to < g->nresults && !strcmp(g->results[to].table_id, g->results[from].table_id);)
            to++;
        if (rate_table(g, from, to, err, errsize)) return -1;
    }
    for (int i = 0; i < g->nplayers; i++) {
        const store_rerate_player *p = &g->players[i];
        if (fabs(p->now.rating - p->old_rating) > 1e-9)
            fprintf(changes, "%s: %s %.0f -> %.0f (%d rated game%s)\n", p->name, g->game,
                    p->old_rating, p->now.rating, p->games, p->games == 1 ? "" : "s");
    }
    return 0;
}

int rerate_void_player(store *db, int64_t player, const char *game, FILE *out, char *err,
                       size_t errsize) {
    err[0] = 0;
    char *changed = NULL;
    size_t size = 0;
    FILE *changes = open_memstream(&changed, &size);
    if (!changes) return snprintf(err, errsize, "out of memory"), -1;
    store_voided_table *tables;
    int n = store_results_void(db, player, game, rerate_game, changes, &tables, err, errsize);
    fclose(changes);
    for (int i = 0; i < n; i++) {
        time_t at = (time_t)tables[i].at;
        struct tm tm;
        char when[32];
        gmtime_r(&at, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
        fprintf(out, "voided table %s (%s, %s UTC)\n", tables[i].id, tables[i].game, when);
    }
    if (n > 0 && changed) fputs(changed, out);
    free(changed);
    free(tables);
    return n;
}
