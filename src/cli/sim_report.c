/*
** sim_report.c -- the report of `tafel sim`: a table for eyes, or with
** --json one JSON object for scripts; the same numbers in both.
**
** Every interval is 95% and over units (a game, or with --paired a deal):
** a bot's win rate is the mean of its per-unit win shares, its interval
** the Wilson interval of stats_rate_of, and the Elo difference of two bots
** is bot 1's win rate and that very interval mapped through the logistic,
** so "70% [48%, 86%]" and its Elo say the same thing.  A rate of 0 or 1
** has no finite Elo on one side: the text says "unbounded" in words, the
** JSON gives null and a reason; no report prints inf.
*/
#include "sim.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static long games_per_unit(const sim_job *job) {
    return job->paired ? job->nbots : 1;
}

static const char *unit_name(const sim_job *job, long units) {
    if (job->paired) return units == 1 ? "deal" : "deals";
    return units == 1 ? "game" : "games";
}

static stats_rate rate_of(const sim_job *job, int b) {
    return stats_rate_of(&job->shares[b], (double)games_per_unit(job));
}

/* Why the Elo difference has no finite bound (or value), or NULL: the
** short form for the table, the long one for JSON. */
static const char *elo_unbounded(const sim_job *job, double rate, int whole) {
    if (rate > 0 && rate < 1) return NULL;
    static const char *const why[2][2][2] = {
        {{"bot 1 won no game", "bot 1 won no deal"},
         {"bot 1 won every game", "bot 1 won every deal"}},
        {{"bot 1 won no game: the Elo difference is unbounded below",
          "bot 1 won no deal: the Elo difference is unbounded below"},
         {"bot 1 won every game: the Elo difference is unbounded above",
          "bot 1 won every deal: the Elo difference is unbounded above"}}};
    return why[whole != 0][rate >= 1][job->paired != 0];
}

/* --- text ---------------------------------------------------------------- */

static void print_header(const sim_job *job, long n) {
    printf("%s: %ld games", tafel_game_string(job->game), n);
    if (job->paired)
        printf(" = %ld deals x %d seatings", n / games_per_unit(job), job->nbots);
    printf(", seed %llu\n", (unsigned long long)job->seed);
}

/* An external bot thinks in a process of its own, whose CPU time this one
** does not see. */
static int thinks_here(const sim_job *job, int b) {
    return strncmp(job->specs[b], "ext:", 4) != 0;
}

/* Each bot's mean time a decision, over the games this run played (games
** read back by --resume took no time here), so that a match "at equal time"
** shows whether it was. */
static void print_think(const sim_job *job, int width) {
    long decisions = 0;
    for (int b = 0; b < job->nbots; b++) decisions += job->decisions[b];
    if (!decisions) return;
    printf("   %-*s %8s %10s %10s\n", width, "time a move", "ms", "CPU ms", "moves");
    for (int b = 0; b < job->nbots; b++) {
        double d = job->decisions[b] ? (double)job->decisions[b] : 1;
        printf("%-2d %-*s %8.2f ", b + 1, width, job->specs[b], 1000 * job->think_wall[b] / d);
        if (thinks_here(job, b)) printf("%10.2f", 1000 * job->think_cpu[b] / d);
        else printf("%10s", "-");
        printf(" %10ld\n", job->decisions[b]);
    }
}

/* Each bot's win rate, its interval, its mean score. */
static void print_bots(const sim_job *job, long n) {
    int width = 20; /* an ext:COMMAND may be longer than a bot's name */
    for (int b = 0; b < job->nbots; b++)
        if ((int)strlen(job->specs[b]) > width) width = (int)strlen(job->specs[b]);
    printf("   %-*s %8s   %-17s %10s\n", width, "bot", "win rate", "95% CI", "mean score");
    for (int b = 0; b < job->nbots; b++) {
        stats_rate r = rate_of(job, b);
        printf("%-2d %-*s %7.1f%%   [%5.1f%%, %5.1f%%]  %10.1f\n", b + 1, width,
               job->specs[b], 100 * r.p, 100 * r.ci.lo, 100 * r.ci.hi,
               job->score[b] / (double)n);
    }
    print_think(job, width);
    for (int b = 0; b < job->nbots; b++)
        if (job->forfeits[b])
            printf("%-2d %s forfeited %ld game%s\n", b + 1, job->specs[b],
                   job->forfeits[b], job->forfeits[b] == 1 ? "" : "s");
    if (job->all_forfeits)
        printf("   first forfeit, game %ld: %s\n", job->first_forfeit,
               cli_printable(job->first_reason));
}

/* An Elo value or bound: a signed number, or the words for an infinity. */
static const char *elo_text(double elo, char *out, size_t size) {
    if (isinf(elo)) return elo > 0 ? "unbounded above" : "unbounded below";
    snprintf(out, size, "%+.1f", elo);
    return out;
}

/* Two bots: the score difference and the Elo difference, bot 1 - bot 2. */
static void print_comparison(const sim_job *job) {
    const stats_sample *difference = &job->difference;
    if (difference->n >= 2) {
        stats_interval d = stats_mean_interval(difference);
        printf("   %-20s %+8.1f   [%+.1f, %+.1f]\n", "score difference 1-2",
               difference->mean, d.lo, d.hi);
    } else {
        printf("   %-20s %+8.1f   (no interval from one %s)\n", "score difference 1-2",
               difference->mean, unit_name(job, 1));
    }
    stats_rate r = rate_of(job, 0);
    stats_interval elo = stats_elo_interval(r.ci);
    char value[32], lo[32], hi[32];
    const char *why = elo_unbounded(job, r.p, 0);
    printf("   %-20s %8s   [%s, %s]  %s\n", "Elo difference 1-2",
           isinf(stats_elo(r.p)) ? "unbounded" : elo_text(stats_elo(r.p), value, sizeof value),
           elo_text(elo.lo, lo, sizeof lo), elo_text(elo.hi, hi, sizeof hi),
           why ? why : "bot 1's win rate and its interval, as Elo");
}

/* How the intervals were made: over which units, worth how many games. */
static void print_method(const sim_job *job) {
    long units = (long)job->shares[0].n;
    printf("95%% intervals over %ld %s", units, unit_name(job, units));
    if (!job->paired) {
        printf(" (Wilson)\n");
        return;
    }
    printf(" of %ld games (Wilson, the deals' spread worth", games_per_unit(job));
    int same = 1;
    for (int b = 1; b < job->nbots; b++)
        same = same && fabs(rate_of(job, b).n_eff - rate_of(job, 0).n_eff) < 0.05;
    for (int b = 0; b < (same ? 1 : job->nbots); b++)
        printf("%s %.1f", b ? "," : "", rate_of(job, b).n_eff);
    printf(" independent games%s)\n", same ? "" : ", by bot");
}

static void print_sprt(const sim_job *job, long n) {
    const sim_sprt *sprt = &job->sprt;
    double llr = stats_llr(&job->tally, sprt->elo0, sprt->elo1);
    int verdict = stats_sprt_verdict(llr);
    const char *a = job->specs[0], *b = job->specs[1];
    printf("SPRT elo0 %g, elo1 %g: LLR %+.2f (bounds %+.2f, %+.2f) after %ld games\n",
           sprt->elo0, sprt->elo1, llr, STATS_SPRT_LOWER, STATS_SPRT_UPPER, n);
    if (verdict > 0)
        printf("H1 accepted: %s - %s >= %g Elo rather than <= %g "
               "(alpha = beta = 5%%)\n", a, b, sprt->elo1, sprt->elo0);
    else if (verdict < 0)
        printf("H0 accepted: %s - %s <= %g Elo rather than >= %g "
               "(alpha = beta = 5%%)\n", a, b, sprt->elo0, sprt->elo1);
    else
        printf("no verdict: the LLR stayed between the bounds; play more games\n");
}

static void report_text(const sim_job *job, double seconds) {
    long n = job->limit;
    print_header(job, n);
    print_bots(job, n);
    if (job->nbots == 2) print_comparison(job);
    print_method(job);
    if (job->nbots == 2 && job->sprt.on) print_sprt(job, n);
    /* the speed of this run: games read back by --resume took no time */
    double played = (double)(n - job->resumed);
    printf("mean game length %.1f actions, %.1f games/s\n", job->length / (double)n,
           seconds > 0 ? played / seconds : 0.0);
}

/* --- JSON ------------------------------------------------------------------ */

static cJSON *number_or_null(double x) {
    return isfinite(x) ? cJSON_CreateNumber(x) : cJSON_CreateNull();
}

static cJSON *seed_json(uint64_t seed) {
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
    return cJSON_CreateString(text);
}

/* {"value", "lo", "hi", ...}: an estimate and its interval. */
static cJSON *estimate(double value, stats_interval ci) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "value", number_or_null(value));
    cJSON_AddItemToObject(o, "lo", number_or_null(ci.lo));
    cJSON_AddItemToObject(o, "hi", number_or_null(ci.hi));
    return o;
}

static cJSON *bot_json(const sim_job *job, int b, long n) {
    cJSON *o = cJSON_CreateObject();
    stats_rate r = rate_of(job, b);
    const stats_sample *s = &job->scores[b];
    cJSON_AddNumberToObject(o, "bot", b + 1);
    cJSON_AddStringToObject(o, "spec", job->specs[b]);
    cJSON_AddNumberToObject(o, "wins", (double)job->outright[b]);
    cJSON_AddNumberToObject(o, "draws", (double)job->shared[b]);
    cJSON_AddNumberToObject(o, "losses", (double)job->lost[b]);
    cJSON *rate = estimate(r.p, r.ci);
    cJSON_AddNumberToObject(rate, "effective_games", r.n_eff);
    cJSON_AddItemToObject(o, "win_rate", rate);
    cJSON *score = cJSON_AddObjectToObject(o, "score");
    cJSON_AddNumberToObject(score, "mean", n ? job->score[b] / (double)n : 0);
    cJSON_AddItemToObject(score, "sd", s->n >= 2 ? cJSON_CreateNumber(sqrt(s->m2 / (s->n - 1)))
                                                 : cJSON_CreateNull());
    cJSON_AddNumberToObject(score, "min", job->low[b]);
    cJSON_AddNumberToObject(score, "max", job->high[b]);
    cJSON_AddNumberToObject(o, "forfeits", (double)job->forfeits[b]);
    cJSON *think = cJSON_AddObjectToObject(o, "think");
    double d = (double)job->decisions[b];
    cJSON_AddNumberToObject(think, "decisions", d);
    cJSON_AddItemToObject(think, "ms_per_move",
                          d ? cJSON_CreateNumber(1000 * job->think_wall[b] / d) : cJSON_CreateNull());
    cJSON_AddItemToObject(think, "cpu_ms_per_move",
                          d && thinks_here(job, b) ? cJSON_CreateNumber(1000 * job->think_cpu[b] / d)
                                                   : cJSON_CreateNull());
    return o;
}

static cJSON *comparison_json(const sim_job *job) {
    cJSON *o = cJSON_CreateObject();
    const stats_sample *difference = &job->difference;
    stats_interval d = stats_mean_interval(difference);
    cJSON *sd = estimate(difference->mean, d);
    cJSON_AddItemToObject(sd, "reason", difference->n >= 2 ? cJSON_CreateNull()
                          : cJSON_CreateString(job->paired ? "no interval from one deal"
                                                           : "no interval from one game"));
    cJSON_AddItemToObject(o, "score_difference", sd);
    stats_rate r = rate_of(job, 0);
    cJSON *elo = estimate(stats_elo(r.p), stats_elo_interval(r.ci));
    const char *why = elo_unbounded(job, r.p, 1);
    cJSON_AddItemToObject(elo, "reason", why ? cJSON_CreateString(why) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "elo", elo);
    return o;
}

static cJSON *sprt_json(const sim_job *job, long n) {
    const sim_sprt *sprt = &job->sprt;
    if (!sprt->on || job->nbots != 2) return cJSON_CreateNull();
    double llr = stats_llr(&job->tally, sprt->elo0, sprt->elo1);
    int verdict = stats_sprt_verdict(llr);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "elo0", sprt->elo0);
    cJSON_AddNumberToObject(o, "elo1", sprt->elo1);
    cJSON_AddNumberToObject(o, "llr", llr);
    cJSON_AddNumberToObject(o, "lower", STATS_SPRT_LOWER);
    cJSON_AddNumberToObject(o, "upper", STATS_SPRT_UPPER);
    cJSON_AddItemToObject(o, "verdict", verdict > 0   ? cJSON_CreateString("H1")
                                        : verdict < 0 ? cJSON_CreateString("H0")
                                                      : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "games", (double)n);
    return o;
}

static cJSON *forfeits_json(const sim_job *job) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "total", (double)job->all_forfeits);
    if (!job->all_forfeits) {
        cJSON_AddNullToObject(o, "first");
        return o;
    }
    cJSON *first = cJSON_AddObjectToObject(o, "first");
    cJSON_AddNumberToObject(first, "game", (double)job->first_forfeit);
    cJSON_AddStringToObject(first, "reason", job->first_reason);
    return o;
}

static int report_json(const sim_job *job, double seconds) {
    long n = job->limit;
    cJSON *root = cJSON_CreateObject();
    if (!root) return 1;
    cJSON_AddStringToObject(root, "game", tafel_game_string(job->game));
    cJSON_AddItemToObject(root, "seed", seed_json(job->seed));
    cJSON_AddNumberToObject(root, "games", (double)n);
    cJSON_AddBoolToObject(root, "paired", job->paired);
    cJSON_AddStringToObject(root, "unit", job->paired ? "deal" : "game");
    cJSON_AddNumberToObject(root, "units", job->shares[0].n);
    cJSON_AddNumberToObject(root, "games_per_unit", (double)games_per_unit(job));
    cJSON_AddNumberToObject(root, "confidence", 0.95);
    cJSON *bots = cJSON_AddArrayToObject(root, "bots");
    for (int b = 0; b < job->nbots; b++) cJSON_AddItemToArray(bots, bot_json(job, b, n));
    cJSON_AddItemToObject(root, "comparison",
                          job->nbots == 2 ? comparison_json(job) : cJSON_CreateNull());
    cJSON_AddItemToObject(root, "sprt", sprt_json(job, n));
    cJSON_AddItemToObject(root, "forfeits", forfeits_json(job));
    cJSON_AddNumberToObject(root, "mean_length", n ? job->length / (double)n : 0);
    cJSON_AddNumberToObject(root, "resumed", (double)job->resumed);
    cJSON_AddNumberToObject(root, "seconds", seconds);
    double played = (double)(n - job->resumed);
    cJSON_AddNumberToObject(root, "games_per_second", seconds > 0 ? played / seconds : 0.0);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text) return 1;
    printf("%s\n", text);
    free(text);
    return 0;
}

int sim_report(const sim_job *job, double seconds) {
    if (!job->report_json) {
        report_text(job, seconds);
        return 0;
    }
    if (report_json(job, seconds) == 0) return 0;
    fprintf(stderr, "tafel sim: out of memory\n");
    return 1;
}
