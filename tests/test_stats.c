/*
** test_stats.c -- the statistics of `tafel sim` against known values.
**
** Every expected number below was computed independently, by writing the
** textbook formula out by hand in a python3 one-off (no code shared with
** src/cli/stats.c), with z = 1.959963984540054:
**   Wilson:  c = (p + z^2/2n) / (1 + z^2/n),
**            h = z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2), [c - h, c + h]
**   Elo:     -400 log10(1/s - 1);  s(elo) = 1 / (1 + 10^(-elo/400))
**   LLR:     counts of 0 replaced by 1e-3 (fishtest's regularize), p = the
**            counts over their sum N, m and v the mean and variance of the
**            values k/(kinds-1) under p, then
**            N/2 ln((v + (m - s0)^2) / (v + (m - s1)^2)).
**   Bounds:  ln(0.05/0.95), ln(0.95/0.05).
** The python value of the quotient form N (s1-s0)(2m-s0-s1)/(2v) is given
** where it helps to see the difference.
*/
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli/stats.h"

#define CLOSE(actual, expected) assert_float_equal((actual), (expected), 1e-9)

static void interval_is(stats_interval i, double lo, double hi) {
    CLOSE(i.lo, lo);
    CLOSE(i.hi, hi);
}

static stats_tally tally(int kinds, const long *counts) {
    stats_tally t = {kinds, {0}};
    for (int k = 0; k < kinds; k++) t.count[k] = counts[k];
    return t;
}

/* 0 of 1000, 1000 of 1000 (1000 wins in 1000 games: [99.6%, 100%]), 50 of
** 100; no trials at all say nothing. */
static void wilson_interval_at_known_rates(void **unused) {
    (void)unused;
    interval_is(stats_wilson(0.0, 1000), 0.0, 0.003826758486);
    interval_is(stats_wilson(1.0, 1000), 0.996173241514, 1.0);
    interval_is(stats_wilson(0.5, 100), 0.403831530366, 0.596168469634);
    interval_is(stats_wilson(0.5, 0), 0.0, 1.0);
}

/* All won (or all lost) in 30 deals (where rounding used to leave the
** upper bound a hair below 1): the open end is exactly 1 (0), so
** the Elo interval is unbounded there, not a large finite number. */
static void wilson_bounds_at_all_or_nothing_are_exact(void **unused) {
    (void)unused;
    assert_true(stats_wilson(1.0, 30).hi == 1.0);
    assert_true(stats_wilson(0.0, 30).lo == 0.0);
    stats_interval elo = stats_elo_interval(stats_wilson(1.0, 30));
    assert_true(isinf(elo.hi) && elo.hi > 0);
    assert_true(isfinite(elo.lo));
}

/* Samples 1, 2, 3, 4: mean 2.5, sd sqrt(5/3), 2.5 +- z sd / 2. */
static void mean_interval_of_a_sample(void **unused) {
    (void)unused;
    stats_sample s = {0};
    for (int x = 1; x <= 4; x++) stats_sample_add(&s, x);
    CLOSE(s.mean, 2.5);
    interval_is(stats_mean_interval(&s), 2.5 - 1.265151311882,
                2.5 + 1.265151311882);
}

static void mean_interval_of_one_unit_is_unbounded(void **unused) {
    (void)unused;
    stats_sample s = {0};
    stats_sample_add(&s, 7);
    stats_interval i = stats_mean_interval(&s);
    assert_true(isinf(i.lo) && i.lo < 0);
    assert_true(isinf(i.hi) && i.hi > 0);
}

static void elo_of_scores(void **unused) {
    (void)unused;
    CLOSE(stats_elo(0.5), 0.0);
    CLOSE(stats_elo(0.75), 190.848501887865);
    CLOSE(stats_elo_score(190.848501887865), 0.75);
    assert_true(isinf(stats_elo(1.0)) && stats_elo(1.0) > 0);
    assert_true(isinf(stats_elo(0.0)) && stats_elo(0.0) < 0);
}

/* 30 losses, 40 draws, 60 wins: score 0.615384615385 +- 0.068975008972
** (sample sd, n - 1), Elo 81.648 in [32.342, 134.437]. */
static void score_and_elo_intervals_of_games(void **unused) {
    (void)unused;
    stats_tally t = tally(3, (long[]){30, 40, 60});
    CLOSE(stats_tally_mean(&t), 0.615384615385);
    double half = 0.068975008972;
    interval_is(stats_score_interval(&t), 0.615384615385 - half,
                0.615384615385 + half);
    CLOSE(stats_elo(stats_tally_mean(&t)), 81.647993062370);
    interval_is(stats_elo_interval(stats_score_interval(&t)), 32.341791131956,
                134.436731074343);
}

/* Pairs scoring 0 (3), 1/4 (8), 1/2 (6), 3/4 (2), 1 (1): 0.375 +- 0.115188. */
static void score_interval_of_pairs(void **unused) {
    (void)unused;
    stats_tally t = tally(5, (long[]){3, 8, 6, 2, 1});
    interval_is(stats_score_interval(&t), 0.375 - 0.115187658126,
                0.375 + 0.115187658126);
}

/* 40 wins in 40 games have no spread: the Wilson interval, not [1, 1]. */
static void score_interval_without_spread_is_wilson(void **unused) {
    (void)unused;
    stats_tally t = tally(3, (long[]){0, 0, 40});
    interval_is(stats_score_interval(&t), 0.912378398803, 1.0);
}

static void tally_counts_scores_by_kind(void **unused) {
    (void)unused;
    stats_tally t = {5, {0}};
    stats_tally_add(&t, 0.75);
    stats_tally_add(&t, 0.25);
    stats_tally_add(&t, 0.75);
    assert_int_equal(t.count[3], 2);
    assert_int_equal(t.count[1], 1);
    assert_int_equal(stats_tally_units(&t), 3);
}

static void sprt_bounds(void **unused) {
    (void)unused;
    CLOSE(STATS_SPRT_LOWER, log(0.05 / 0.95));
    CLOSE(STATS_SPRT_UPPER, log(0.95 / 0.05));
}

/* 10 losses, 20 draws, 12 wins, elo0 0, elo1 10: 0.0768 (quotient 0.0770). */
static void llr_inconclusive(void **unused) {
    (void)unused;
    stats_tally t = tally(3, (long[]){10, 20, 12});
    double llr = stats_llr(&t, 0, 10);
    CLOSE(llr, 0.076812237522);
    assert_int_equal(stats_sprt_verdict(llr), 0);
}

/* 240 losses, 120 draws, 160 wins: -3.252 (quotient -3.376). */
static void llr_accepts_h0(void **unused) {
    (void)unused;
    stats_tally t = tally(3, (long[]){240, 120, 160});
    double llr = stats_llr(&t, 0, 10);
    CLOSE(llr, -3.251964117140);
    assert_int_equal(stats_sprt_verdict(llr), -1);
}

/* 90 losses, 120 draws, 180 wins: 3.539 (quotient 3.800). */
static void llr_accepts_h1(void **unused) {
    (void)unused;
    stats_tally t = tally(3, (long[]){90, 120, 180});
    double llr = stats_llr(&t, 0, 10);
    CLOSE(llr, 3.539385640180);
    assert_int_equal(stats_sprt_verdict(llr), 1);
}

/* Pairs LL 5, LD 20, DD or WL 40, WD 25, WW 10: 0.669 (quotient 0.679);
** six times as many: 4.013, H1; and the mirror image of that with
** elo0 -5, elo1 5: -4.930, H0. */
static void llr_of_pairs(void **unused) {
    (void)unused;
    stats_tally few = tally(5, (long[]){5, 20, 40, 25, 10});
    CLOSE(stats_llr(&few, 0, 10), 0.668871334387);
    stats_tally many = tally(5, (long[]){30, 120, 240, 150, 60});
    CLOSE(stats_llr(&many, 0, 10), 4.013228006322);
    assert_int_equal(stats_sprt_verdict(stats_llr(&many, 0, 10)), 1);
    stats_tally mirror = tally(5, (long[]){60, 150, 240, 120, 30});
    CLOSE(stats_llr(&mirror, -5, 5), -4.929992252678);
    assert_int_equal(stats_sprt_verdict(stats_llr(&mirror, -5, 5)), -1);
}

/* A bot that always wins: one win is 0.0292, not the quotient's 5.69,
** which would accept H1 after a single game; 20 wins at elo1 50: 3.085. */
static void llr_of_a_bot_that_always_wins(void **unused) {
    (void)unused;
    stats_tally one = tally(3, (long[]){0, 0, 1});
    CLOSE(stats_llr(&one, 0, 10), 0.029193354495);
    stats_tally twenty = tally(3, (long[]){0, 0, 20});
    CLOSE(stats_llr(&twenty, 0, 50), 3.084531213527);
    stats_tally none = {3, {0}};
    CLOSE(stats_llr(&none, 0, 10), 0.0);
}

/* A win rate over units: n_eff trials for the Wilson interval,
** n p(1-p) / v clamped to [n, n g], v = m2 / n.  Worked by hand:
**
** 10 games (g = 1), 7 won: p = 0.7, v = 0.21 = p(1-p), so n_eff = 10, the
** Wilson interval over games: c = (0.7 + z^2/20) / (1 + z^2/10)
** = 0.892073 / 1.384146 = 0.644493, h = z / 1.384146 * sqrt(0.021 +
** z^2/400) = 0.247715: [0.396778147461, 0.892208732594]; in Elo
** -400 log10(1/0.396778 - 1) = -72.771728267367 and
** -400 log10(1/0.892209 - 1) = +367.153156503042 around +147.190714117838. */
static void rate_of_games_is_wilson_over_games(void **unused) {
    (void)unused;
    stats_sample s = {0};
    for (int i = 0; i < 10; i++) stats_sample_add(&s, i < 7 ? 1.0 : 0.0);
    stats_rate r = stats_rate_of(&s, 1);
    CLOSE(r.p, 0.7);
    CLOSE(r.n_eff, 10);
    interval_is(r.ci, 0.396778147461, 0.892208732594);
    interval_is(stats_elo_interval(r.ci), -72.771728267367, 367.153156503042);
    assert_float_equal(stats_elo(r.p), 147.190714117838, 1e-9);
}

/* Deals of 2 games scoring 1, 1, 1/2, 1/2: p = 0.75, v = 0.0625, and
** p(1-p)/v = 0.1875/0.0625 = 3, more than the 2 games of a deal: n_eff =
** 4 * 2 = 8, Wilson(0.75, 8) = [0.409275430310, 0.928520787248].
** Deals 1, 1, 1, 1/2, 0: p = 3.5/5 = 0.7, squares 3 * 0.09 + 0.04 + 0.49
** = 0.8, v = 0.16, p(1-p)/v = 0.21/0.16 = 1.3125, n_eff = 6.5625,
** Wilson(0.7, 6.5625) = [0.338071189326, 0.914236614390]. */
static void paired_rate_credits_the_pairing_up_to_the_games(void **unused) {
    (void)unused;
    stats_sample s = {0};
    const double four[] = {1, 1, 0.5, 0.5}, five[] = {1, 1, 1, 0.5, 0};
    for (int i = 0; i < 4; i++) stats_sample_add(&s, four[i]);
    stats_rate r = stats_rate_of(&s, 2);
    CLOSE(r.n_eff, 8);
    interval_is(r.ci, 0.409275430310, 0.928520787248);
    s = (stats_sample){0};
    for (int i = 0; i < 5; i++) stats_sample_add(&s, five[i]);
    r = stats_rate_of(&s, 2);
    CLOSE(r.p, 0.7);
    CLOSE(r.n_eff, 6.5625);
    interval_is(r.ci, 0.338071189326, 0.914236614390);
}

/* Units that did not vary count as their games, the limit of n p(1-p)/v
** as v goes to 0: 5 deals of 2 games all won give Wilson(1, 10) =
** [10 / (10 + z^2), 1] = [0.722467200137, 1], in Elo -400 log10(1/0.722467
** - 1) = +166.201527183891 and +inf (a printer says "unbounded above");
** all lost the mirror image; 4 deals all split give Wilson(0.5, 8):
** c = 0.5, h = z / (1 + z^2/8) * sqrt(0.25/8 + z^2/256) = 0.284783937786,
** [0.215216062214, 0.784783937786].  Games (g = 1) all won:
** Wilson(1, 5) = [5 / (5 + z^2), 1] = [0.565517535217, 1]. */
static void rate_of_units_that_did_not_vary(void **unused) {
    (void)unused;
    stats_sample won = {0}, lost = {0}, split = {0};
    for (int i = 0; i < 5; i++) stats_sample_add(&won, 1.0), stats_sample_add(&lost, 0.0);
    for (int i = 0; i < 4; i++) stats_sample_add(&split, 0.5);
    stats_rate r = stats_rate_of(&won, 2);
    CLOSE(r.n_eff, 10);
    interval_is(r.ci, 0.722467200137, 1.0);
    stats_interval elo = stats_elo_interval(r.ci);
    assert_float_equal(elo.lo, 166.201527183891, 1e-9);
    assert_true(isinf(elo.hi) && elo.hi > 0);
    r = stats_rate_of(&lost, 2);
    interval_is(r.ci, 0.0, 1 - 0.722467200137);
    elo = stats_elo_interval(r.ci);
    assert_true(isinf(elo.lo) && elo.lo < 0);
    assert_float_equal(elo.hi, -166.201527183891, 1e-9);
    r = stats_rate_of(&split, 2);
    CLOSE(r.n_eff, 8);
    interval_is(r.ci, 0.215216062214, 0.784783937786);
    r = stats_rate_of(&won, 1);
    CLOSE(r.n_eff, 5);
    interval_is(r.ci, 0.565517535217, 1.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wilson_interval_at_known_rates),
        cmocka_unit_test(wilson_bounds_at_all_or_nothing_are_exact),
        cmocka_unit_test(mean_interval_of_a_sample),
        cmocka_unit_test(mean_interval_of_one_unit_is_unbounded),
        cmocka_unit_test(elo_of_scores),
        cmocka_unit_test(score_and_elo_intervals_of_games),
        cmocka_unit_test(score_interval_of_pairs),
        cmocka_unit_test(score_interval_without_spread_is_wilson),
        cmocka_unit_test(tally_counts_scores_by_kind),
        cmocka_unit_test(sprt_bounds),
        cmocka_unit_test(llr_inconclusive),
        cmocka_unit_test(llr_accepts_h0),
        cmocka_unit_test(llr_accepts_h1),
        cmocka_unit_test(llr_of_pairs),
        cmocka_unit_test(llr_of_a_bot_that_always_wins),
        cmocka_unit_test(rate_of_games_is_wilson_over_games),
        cmocka_unit_test(paired_rate_credits_the_pairing_up_to_the_games),
        cmocka_unit_test(rate_of_units_that_did_not_vary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
