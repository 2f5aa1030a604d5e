/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fuzzer's only source of randomness: xoshiro256** seeded through
 * splitmix64, so one 64-bit seed fixes the whole command stream.
 */
#ifndef FUZZ_PRNG_H
#define FUZZ_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s[4];
};

static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void prng_seed(struct prng *p, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		p->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t r = rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return r;
}

/* Uniform in [0, n); n == 0 gives 0. */
static inline uint32_t prng_below(struct prng *p, uint32_t n)
{
	return n ? (uint32_t)(((prng_next(p) >> 32) * n) >> 32) : 0;
}

/* True with probability 1/n. */
static inline int prng_one_in(struct prng *p, uint32_t n)
{
	return prng_below(p, n) == 0;
}

#endif /* FUZZ_PRNG_H */
