/* Seeded pseudo-random numbers: xoshiro256** (Blackman & Vigna, 2018),
 * seeded through splitmix64. Integer arithmetic only, so a seed gives the
 * same sequence, and the same games, on every machine. */
#ifndef DL_RNG_H
#define DL_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} dl_Rng;

void dl_rng_seed(dl_Rng *r, uint64_t seed);
uint64_t dl_rng_next(dl_Rng *r);
/* Uniform integer in [0, n), n >= 1, without modulo bias. */
uint32_t dl_rng_below(dl_Rng *r, uint32_t n);

#endif
