/*
** rng.c -- the reproducible random numbers of the public API.
**
** splitmix64: the whole generator is one uint64_t, so a bot or a simulation
** that stores it can be copied and replayed.  tafel_rng_below uses Lemire's
** multiply-shift with rejection, so every value is equally likely.
*/
#include "tafel.h"

TAFEL_API uint64_t tafel_rng_next(uint64_t *rng) {
    uint64_t z = (*rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

TAFEL_API uint64_t tafel_rng_seed(uint64_t seed) {
    uint64_t s = seed ^ 0x243F6A8885A308D3ull;
    tafel_rng_next(&s);
    return s;
}

TAFEL_API uint32_t tafel_rng_below(uint64_t *rng, uint32_t n) {
    if (n <= 1) return 0;
    uint64_t m = (uint64_t)(uint32_t)tafel_rng_next(rng) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)-n % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)tafel_rng_next(rng) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

TAFEL_API double tafel_rng_unit(uint64_t *rng) {
    return (double)(tafel_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}
