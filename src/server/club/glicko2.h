/*
** glicko2.h -- Glickman's Glicko-2 rating system, steps 1 to 8 of
** "Example of the Glicko-2 system" (Mark E. Glickman, glicko2.pdf):
** pure arithmetic (C and libm), no state.
**
** A rating is (r, RD, sigma) on the Glicko scale (1500 / 350 / 0.06 for a
** new player).  One rating period updates a player from the results of
** that period against opponents rated as they were when it began.  The
** server's period is one game (ratings.c): each finished rated table is a
** period for its players.  A game of three to five players is rated as
** pairwise results by final place (1 win, 0.5 tie, 0 loss against each
** other player), all in that one period: glicko2_update takes them as n - 1
** results at once.
*/
#ifndef TF_SERVER_GLICKO2_H
#define TF_SERVER_GLICKO2_H

/* The system constant tau: how much the volatility may change in one
** period.  Glickman suggests 0.3 to 1.2; 0.5 is his worked example's and
** lichess's choice (ratings move, but one upset does not throw them). */
#define GLICKO2_TAU 0.5
/* When the volatility's iteration (step 5) stops. */
#define GLICKO2_EPSILON 1e-6
/* The Glicko-2 scale: mu = (r - 1500) / 173.7178. */
#define GLICKO2_SCALE 173.7178
/* A new player; and the largest RD there is (a rating never grows more
** uncertain than a new player's). */
#define GLICKO2_RATING 1500.0
#define GLICKO2_RD 350.0
#define GLICKO2_VOLATILITY 0.06

typedef struct glicko2_rating {
    double rating;     /* r */
    double rd;         /* RD */
    double volatility; /* sigma */
} glicko2_rating;

/* What step 3 and 4 computed, for tests and curious readers. */
typedef struct glicko2_detail {
    double v;     /* the estimated variance from the results (step 3) */
    double delta; /* the estimated improvement (step 4) */
    int iterations; /* of step 5's Illinois iteration */
} glicko2_detail;

/* The rating of player after one period with n results: against
** opponents[i] the score scores[i] (1 win, 0.5 draw, 0 loss).  n == 0 is
** a period without games: only RD grows (glicko2_idle).  The new RD is at
** most GLICKO2_RD.  detail may be NULL. */
glicko2_rating glicko2_update(glicko2_rating player, const glicko2_rating *opponents,
                              const double *scores, int n, double tau, glicko2_detail *detail);

/* The most seats of one rated game glicko2_rate_places takes. */
#define GLICKO2_MAX_SEATS 16

/* One game of n seats (n <= GLICKO2_MAX_SEATS) as one period for each
** (the pairwise reduction): seat i against every other seat j at their
** ratings before the game, 1 for a better place (a smaller number), 0.5
** the same, 0 a worse one.  after[i] is seat i's new rating.  The server
** rates a finished table so (ratings.c), and tafel admin void rates the
** remaining tables again so (rerate.c). */
void glicko2_rate_places(int n, const int *places, const glicko2_rating *before,
                         glicko2_rating *after);

/* A period without games: RD grows to sqrt(phi^2 + sigma^2) (on the
** Glicko-2 scale), at most GLICKO2_RD. */
glicko2_rating glicko2_idle(glicko2_rating player);

#endif
