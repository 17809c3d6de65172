/* Glicko-2 (src/server/club/glicko2.c): Glickman's worked example at full
** precision (../shared/notes/stack-turn3.md §5), the period without games,
** the pairwise reduction of a four-player game, symmetry and bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "server/club/glicko2.h"

#define CLOSE(x, want, tol) assert_true(fabs((x) - (want)) <= (tol))

static const glicko2_rating PAPER_PLAYER = {1500, 200, 0.06};
static const glicko2_rating PAPER_OPPONENTS[3] = {{1400, 30, 0.06}, {1550, 100, 0.06},
                                                  {1700, 300, 0.06}};

/* glicko2.pdf, "Example": a win against 1400/30, losses against 1550/100
** and 1700/300, tau 0.5.  The paper rounds mu' before step 8 (1464.06);
** unrounded it is 1464.0507. */
static void the_papers_worked_example(void **state) {
    (void)state;
    double scores[3] = {1, 0, 0};
    glicko2_detail d;
    glicko2_rating r = glicko2_update(PAPER_PLAYER, PAPER_OPPONENTS, scores, 3, 0.5, &d);
    CLOSE(d.v, 1.778977, 1e-5);
    CLOSE(d.delta, -0.483933, 1e-5);
    CLOSE(r.volatility, 0.059996, 1e-6);
    CLOSE(r.rating, 1464.0507, 0.001);
    CLOSE(r.rd, 151.5165, 0.001);
    assert_true(d.iterations >= 1 && d.iterations < 10);
}

/* A period without games: only RD grows, sqrt(phi^2 + sigma^2). */
static void a_period_without_games_grows_rd(void **state) {
    (void)state;
    glicko2_rating p = {1500, 200, 0.06};
    glicko2_rating r = glicko2_update(p, NULL, NULL, 0, GLICKO2_TAU, NULL);
    CLOSE(r.rd, 200.2714, 0.0001);
    assert_true(r.rating == 1500 && r.volatility == 0.06);
    r = glicko2_idle(p);
    CLOSE(r.rd, 200.2714, 0.0001);
}

/* Four players finishing A > B > C > D, each rated in one period against
** the other three's pre-game ratings (1 above, 0 below). */
static void four_players_rated_pairwise(void **state) {
    (void)state;
    glicko2_rating a = {1500, 200, 0.06}, b = {1400, 30, 0.06}, c = {1550, 100, 0.06},
                   d = {1700, 300, 0.06};
    glicko2_rating a_opps[3] = {b, c, d}, d_opps[3] = {a, b, c};
    double wins[3] = {1, 1, 1}, losses[3] = {0, 0, 0};
    glicko2_rating a2 = glicko2_update(a, a_opps, wins, 3, GLICKO2_TAU, NULL);
    glicko2_rating d2 = glicko2_update(d, d_opps, losses, 3, GLICKO2_TAU, NULL);
    CLOSE(a2.rating, 1685.72, 0.005);
    CLOSE(a2.rd, 151.52, 0.005);
    CLOSE(d2.rating, 1238.23, 0.005);
    CLOSE(d2.rd, 194.56, 0.005);
}

/* A draw between equals changes neither rating, and leaves them equal; a
** win and a loss between equals move both by the same amount. */
static void equals_stay_equal(void **state) {
    (void)state;
    glicko2_rating p = {1500, 350, 0.06}, q = p;
    double half = 0.5, one = 1, zero = 0;
    glicko2_rating p2 = glicko2_update(p, &q, &half, 1, GLICKO2_TAU, NULL);
    glicko2_rating q2 = glicko2_update(q, &p, &half, 1, GLICKO2_TAU, NULL);
    CLOSE(p2.rating, 1500, 1e-9);
    assert_true(p2.rating == q2.rating && p2.rd == q2.rd && p2.volatility == q2.volatility);
    assert_true(p2.rd < 350);
    glicko2_rating w = glicko2_update(p, &q, &one, 1, GLICKO2_TAU, NULL);
    glicko2_rating l = glicko2_update(q, &p, &zero, 1, GLICKO2_TAU, NULL);
    CLOSE(w.rating - 1500, 1500 - l.rating, 1e-9);
    assert_true(w.rating > 1500 && w.rd == l.rd);
}

/* RD never passes 350: not after a long idle time, not after a result
** against a very uncertain opponent by a player at the limit. */
static void rd_is_at_most_350(void **state) {
    (void)state;
    glicko2_rating p = {1500, 349, 0.5};
    for (int i = 0; i < 100; i++) p = glicko2_idle(p);
    assert_true(p.rd == GLICKO2_RD);
    glicko2_rating q = {3000, 350, 0.06}, big = {1500, 350, 1.5};
    double zero = 0;
    glicko2_rating r = glicko2_update(big, &q, &zero, 1, GLICKO2_TAU, NULL);
    assert_true(r.rd <= GLICKO2_RD && isfinite(r.rating) && isfinite(r.volatility));
}

/* An upset (a new player beating a far stronger, settled one) still
** converges: finite numbers, the winner up, the loser down. */
static void an_upset_converges(void **state) {
    (void)state;
    glicko2_rating weak = {1000, 350, 0.06}, strong = {2500, 40, 0.06};
    double one = 1, zero = 0;
    glicko2_detail d;
    glicko2_rating w = glicko2_update(weak, &strong, &one, 1, GLICKO2_TAU, &d);
    glicko2_rating l = glicko2_update(strong, &weak, &zero, 1, GLICKO2_TAU, NULL);
    assert_true(isfinite(w.rating) && w.rating > 1000 && d.iterations < 100);
    assert_true(isfinite(l.rating) && l.rating < 2500 && l.rd <= 350);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_papers_worked_example),
        cmocka_unit_test(a_period_without_games_grows_rd),
        cmocka_unit_test(four_players_rated_pairwise),
        cmocka_unit_test(equals_stay_equal),
        cmocka_unit_test(rd_is_at_most_350),
        cmocka_unit_test(an_upset_converges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
