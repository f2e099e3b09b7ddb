#include "rng.h"

static uint64_t finish(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t dl_splitmix_next(uint64_t *state)
{
    return finish(*state += 0x9E3779B97F4A7C15ULL);
}

uint64_t dl_mix(uint64_t h, uint64_t x)
{
    return finish((h ^ x) * 0x9E3779B97F4A7C15ULL);
}

void dl_rng_seed(dl_Rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = dl_splitmix_next(&seed);
}
