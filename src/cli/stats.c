/*
** stats.c -- confidence intervals, Elo and the SPRT for `tafel sim`.
**
** Intervals are normal approximations over independent units, except where
** a sample without spread would make them claim certainty; there the Wilson
** interval, valid for any mean of values in [0, 1], stands in.  The SPRT is
** the generalized SPRT of chess engine testing (fishtest, cutechess) in
** logistic Elo, on game scores (trinomial) or pair scores (pentanomial).
*/
#include "stats.h"

#include <math.h>

stats_interval stats_wilson(double p, double n) {
    if (n <= 0) return (stats_interval){0, 1};
    const double z = STATS_Z95;
    double denom = 1 + z * z / n;
    double centre = (p + z * z / (2 * n)) / denom;
    double half = z / denom * sqrt(p * (1 - p) / n + z * z / (4 * n * n));
    /* At p = 0 or 1 one bound is exactly 0 or 1; rounding would leave it a
    ** hair inside, which the Elo of the bound turns into a finite number. */
    return (stats_interval){p <= 0 ? 0 : fmax(centre - half, 0),
                            p >= 1 ? 1 : fmin(centre + half, 1)};
}

void stats_sample_add(stats_sample *s, double x) {
    s->n += 1;
    double delta = x - s->mean;
    s->mean += delta / s->n;
    s->m2 += delta * (x - s->mean);
}

stats_rate stats_rate_of(const stats_sample *s, double games_per_unit) {
    double n = s->n, p = fmin(fmax(s->mean, 0), 1), v = n > 0 ? s->m2 / n : 0;
    double n_eff = n * games_per_unit; /* the limit as v goes to 0 */
    if (v > 0) n_eff = fmin(fmax(n * p * (1 - p) / v, n), n_eff);
    return (stats_rate){p, n_eff, stats_wilson(p, n_eff)};
}

stats_interval stats_mean_interval(const stats_sample *s) {
    if (s->n < 2) return (stats_interval){-INFINITY, INFINITY};
    double half = STATS_Z95 * sqrt(s->m2 / (s->n - 1) / s->n);
    return (stats_interval){s->mean - half, s->mean + half};
}

/* The score of kind k: k / (kinds - 1). */
static double kind_value(const stats_tally *t, int k) {
    return (double)k / (t->kinds - 1);
}

void stats_tally_add(stats_tally *t, double score) {
    long k = lround(score * (t->kinds - 1));
    t->count[k < 0 ? 0 : k >= t->kinds ? t->kinds - 1 : k]++;
}

long stats_tally_units(const stats_tally *t) {
    long n = 0;
    for (int k = 0; k < t->kinds; k++) n += t->count[k];
    return n;
}

double stats_tally_mean(const stats_tally *t) {
    long n = stats_tally_units(t);
    double sum = 0;
    for (int k = 0; k < t->kinds; k++) sum += t->count[k] * kind_value(t, k);
    return n ? sum / (double)n : 0.5;
}

/* The sum over units of (score - centre)^2, with count[k] units of kind k. */
static double squares(const stats_tally *t, const double *count, double centre) {
    double sum = 0;
    for (int k = 0; k < t->kinds; k++) {
        double d = kind_value(t, k) - centre;
        sum += count[k] * d * d;
    }
    return sum;
}

static void counts_of(const stats_tally *t, double *count) {
    for (int k = 0; k < t->kinds; k++) count[k] = (double)t->count[k];
}

stats_interval stats_score_interval(const stats_tally *t) {
    double n = (double)stats_tally_units(t), mean = stats_tally_mean(t);
    double count[STATS_MAX_KINDS];
    counts_of(t, count);
    double m2 = squares(t, count, mean);
    if (n < 2 || m2 == 0) return stats_wilson(mean, n);
    double half = STATS_Z95 * sqrt(m2 / (n - 1) / n);
    return (stats_interval){fmax(mean - half, 0), fmin(mean + half, 1)};
}

double stats_elo(double score) { return -400 * log10(1 / score - 1); }

double stats_elo_score(double elo) { return 1 / (1 + pow(10, -elo / 400)); }

stats_interval stats_elo_interval(stats_interval score) {
    return (stats_interval){stats_elo(fmax(score.lo, 0)),
                            stats_elo(fmin(score.hi, 1))};
}

/* With N units of mean m and variance v (counts divided by N), the normal
** model's likelihood at a mean s is largest with variance
** r(s) = v + (m - s)^2, the mean of (score - s)^2, where it is r(s)^(-N/2)
** times a constant; so the log-likelihood ratio is N/2 ln(r(s0) / r(s1)).  To first order in
** s1 - s0 this is the often quoted N (s1 - s0)(2m - s0 - s1) / (2v)
** (fishtest's LLR_alt2), but it stays finite at v = 0: a bot that wins
** every game gains ln((1 - s0) / (1 - s1)) a game, near the exact
** multinomial ln(s1 / s0), where the quotient would decide after one game.
** As in fishtest, a kind never seen counts 1e-3 units, so r(s) > 0. */
double stats_llr(const stats_tally *t, double elo0, double elo1) {
    if (stats_tally_units(t) == 0) return 0;
    double count[STATS_MAX_KINDS], n = 0;
    counts_of(t, count);
    for (int k = 0; k < t->kinds; k++) {
        if (count[k] == 0) count[k] = 1e-3;
        n += count[k];
    }
    double s0 = stats_elo_score(elo0), s1 = stats_elo_score(elo1);
    return n / 2 * log(squares(t, count, s0) / squares(t, count, s1));
}

int stats_sprt_verdict(double llr) {
    return llr >= STATS_SPRT_UPPER ? 1 : llr <= STATS_SPRT_LOWER ? -1 : 0;
}
