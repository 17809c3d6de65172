/*
** glicko2.c -- Glicko-2, steps 1 to 8 of Glickman's "Example of the
** Glicko-2 system" (glicko2.pdf), with the Illinois variant of regula falsi
** for the volatility (step 5), as the paper gives it.
*/
#include "glicko2.h"

#include <math.h>
#include <stddef.h>

#define PI 3.14159265358979323846

/* g(phi) of step 3: how much an opponent's uncertainty dampens a result. */
static double g_of(double phi) { return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI)); }

/* E of step 3: the expected score against an opponent. */
static double expected(double mu, double mu_j, double g_j) {
    return 1.0 / (1.0 + exp(-g_j * (mu - mu_j)));
}

static double clamp_rd(double rd) { return rd > GLICKO2_RD ? GLICKO2_RD : rd; }

glicko2_rating glicko2_idle(glicko2_rating p) {
    double phi = p.rd / GLICKO2_SCALE;
    p.rd = clamp_rd(sqrt(phi * phi + p.volatility * p.volatility) * GLICKO2_SCALE);
    return p;
}

/* f(x) of step 5. */
static double f_of(double x, double delta, double phi, double v, double a, double tau) {
    double ex = exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

glicko2_rating glicko2_update(glicko2_rating p, const glicko2_rating *opponents,
                              const double *scores, int n, double tau, glicko2_detail *detail) {
    if (detail) *detail = (glicko2_detail){0};
    if (n <= 0) return glicko2_idle(p);
    /* step 2: to the Glicko-2 scale */
    double mu = (p.rating - GLICKO2_RATING) / GLICKO2_SCALE, phi = p.rd / GLICKO2_SCALE;
    double sigma = p.volatility;
    /* steps 3 and 4: v, and the sum that makes delta */
    double inv_v = 0, sum = 0;
    for (int j = 0; j < n; j++) {
        double mu_j = (opponents[j].rating - GLICKO2_RATING) / GLICKO2_SCALE;
        double g_j = g_of(opponents[j].rd / GLICKO2_SCALE), e_j = expected(mu, mu_j, g_j);
        inv_v += g_j * g_j * e_j * (1.0 - e_j);
        sum += g_j * (scores[j] - e_j);
    }
    double v = 1.0 / inv_v, delta = v * sum;
    /* step 5: the new volatility, sigma' = e^(A/2) where f(A) = 0 */
    double a = log(sigma * sigma), A = a, B;
    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f_of(a - k * tau, delta, phi, v, a, tau) < 0 && k < 1000) k++;
        B = a - k * tau;
    }
    double fA = f_of(A, delta, phi, v, a, tau), fB = f_of(B, delta, phi, v, a, tau);
    int iterations = 0;
    while (fabs(B - A) > GLICKO2_EPSILON && iterations < 100) {
        double C = A + (A - B) * fA / (fB - fA), fC = f_of(C, delta, phi, v, a, tau);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
        iterations++;
    }
    double sigma2 = exp(A / 2.0);
    /* steps 6 and 7: the new phi and mu */
    double phi_star = sqrt(phi * phi + sigma2 * sigma2);
    double phi2 = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu2 = mu + phi2 * phi2 * sum;
    if (detail) *detail = (glicko2_detail){.v = v, .delta = delta, .iterations = iterations};
    /* step 8: back to the Glicko scale */
    return (glicko2_rating){.rating = GLICKO2_SCALE * mu2 + GLICKO2_RATING,
                            .rd = clamp_rd(GLICKO2_SCALE * phi2),
                            .volatility = sigma2};
}

void glicko2_rate_places(int n, const int *places, const glicko2_rating *before,
                         glicko2_rating *after) {
    for (int i = 0; i < n; i++) {
        glicko2_rating opponents[GLICKO2_MAX_SEATS];
        double scores[GLICKO2_MAX_SEATS];
        int k = 0;
        for (int j = 0; j < n && k < GLICKO2_MAX_SEATS; j++) {
            if (j == i) continue;
            opponents[k] = before[j];
            scores[k++] = places[i] < places[j] ? 1.0 : places[i] == places[j] ? 0.5 : 0.0;
        }
        after[i] = glicko2_update(before[i], opponents, scores, k, GLICKO2_TAU, NULL);
    }
}
