/*
** stats.h -- the statistics of `tafel sim`: 95% confidence intervals, Elo,
** and the sequential probability ratio test (SPRT) of an Elo difference.
**
** Pure arithmetic: no I/O, no state.  A "unit" is one independent
** observation: a game, or with `sim --paired` a deal played from every
** seat, whose value is the mean over its games.  Scores of bot 1 against
** bot 2 are in [0, 1]: a win 1, a draw or shared win 1/2, a loss 0.
*/
#ifndef TF_CLI_STATS_H
#define TF_CLI_STATS_H

/* The normal quantile of 0.975: mean +- STATS_Z95 standard errors is a
** two-sided 95% interval. */
#define STATS_Z95 1.959963984540054

/* SPRT bounds for error rates alpha = beta = 0.05: ln(beta / (1 - alpha))
** and ln((1 - beta) / alpha), that is -+ln 19. */
#define STATS_SPRT_LOWER (-2.9444389791664403)
#define STATS_SPRT_UPPER 2.9444389791664403

typedef struct stats_interval {
    double lo, hi;
} stats_interval;

/* The Wilson score interval (95%) of a rate p over n trials; [0, 1] when
** n is 0.  It also bounds the mean of any quantity in [0, 1] (a share of a
** win, a pair's mean score), whose variance is at most p (1 - p). */
stats_interval stats_wilson(double p, double n);

/* A running sample of a per-unit quantity (Welford's update): count, mean
** and the sum of squared deviations from the mean. */
typedef struct stats_sample {
    double n, mean, m2;
} stats_sample;

void stats_sample_add(stats_sample *s, double x);

/* A bot's win rate: the mean of its per-unit win shares (values in [0, 1],
** a win shared by k counting 1/k), over units of games_per_unit games.  Its
** 95% interval is the Wilson interval of that mean over n_eff trials, where
** n_eff = n p (1 - p) / v, v = m2 / n the units' variance, is how many
** independent win-or-loss trials would vary as little as the units did;
** clamped to [n, n games_per_unit]: a unit varies at most as one trial
** does, and the units count for no more than the games in them.  Units
** that did not vary at all (all won, all lost, every deal split alike)
** count as their games (the limit as v goes to 0).  With one game a unit and no shared wins this is the
** plain Wilson interval over games; with --paired it credits the deals
** with the variance their pairing removed.  The Elo interval is this
** interval through stats_elo, so the two say the same thing. */
typedef struct stats_rate {
    double p, n_eff;
    stats_interval ci;
} stats_rate;

stats_rate stats_rate_of(const stats_sample *s, double games_per_unit);

/* mean +- z sd / sqrt(n) with the sample's standard deviation (n - 1 in
** the denominator); (-inf, +inf) below two units, which say nothing of
** the spread. */
stats_interval stats_mean_interval(const stats_sample *s);

/* Counts of unit scores by kind: kinds 3 for games (0, 1/2, 1), kinds 5
** for pairs of games (0, 1/4, 1/2, 3/4, 1), the pentanomial. */
#define STATS_MAX_KINDS 5
typedef struct stats_tally {
    int kinds;
    long count[STATS_MAX_KINDS];
} stats_tally;

/* Count one unit scoring score, which must be one of the kinds' values. */
void stats_tally_add(stats_tally *t, double score);
long stats_tally_units(const stats_tally *t);
double stats_tally_mean(const stats_tally *t);

/* The 95% interval of the mean score: mean +- z standard errors over the
** units; the Wilson interval when every unit scored the same (or there is
** only one), where the sample spread of 0 would claim certainty. */
stats_interval stats_score_interval(const stats_tally *t);

/* The logistic Elo difference of a score: -400 log10(1/score - 1); 0 at
** 1/2, -inf at 0, +inf at 1.  stats_elo_score is its inverse. */
double stats_elo(double score);
double stats_elo_score(double elo);
/* The Elo interval of a score interval (clamped to [0, 1]): -inf where
** the score's bound is 0, +inf where it is 1 (a printer says "unbounded"). */
stats_interval stats_elo_interval(stats_interval score);

/* The generalized log-likelihood ratio of "the Elo difference is elo1"
** against "it is elo0" for the tally, in the normal model of the unit
** scores (fishtest's LLR_alt). */
double stats_llr(const stats_tally *t, double elo0, double elo1);

/* What the SPRT says at llr: go on (0), H0 accepted (-1) or H1 (+1). */
int stats_sprt_verdict(double llr);

#endif
