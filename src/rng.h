/* Seeded pseudo-random numbers: xoshiro256** (Blackman & Vigna, 2018),
 * seeded through splitmix64. Integer arithmetic only, so a seed gives the
 * same sequence, and the same games, on every machine. Inline: playouts
 * draw one number per move. */
#ifndef DL_RNG_H
#define DL_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} dl_Rng;

void dl_rng_seed(dl_Rng *r, uint64_t seed);

/* splitmix64 (Steele, Lea & Flood, 2014): the one small generator for
 * seeds and for scripts. next() advances *state and returns a number;
 * mix() folds x into the hash h (a player's seed for each decision, a
 * match's seed for each deal). */
uint64_t dl_splitmix_next(uint64_t *state);
uint64_t dl_mix(uint64_t h, uint64_t x);

static inline uint64_t dl_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t dl_rng_next(dl_Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = dl_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = dl_rng_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n), n >= 1, without modulo bias (Lemire's
 * multiply-and-reject on the high 32 bits). */
static inline uint32_t dl_rng_below(dl_Rng *r, uint32_t n)
{
    uint64_t m = (dl_rng_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (dl_rng_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

#endif
