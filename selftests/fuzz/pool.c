// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The objects each uverbs file holds, as far as the fuzzer knows, and the
 * handles it puts into requests: mostly a live object of the right type,
 * sometimes a destroyed one, one of another type or another file, or a
 * forged number.
 */
#include <string.h>

#include "fuzz.h"

void pool_add(struct fz_pool *p, uint32_t h)
{
	if (p->nlive < FZ_POOL_MAX)
		p->live[p->nlive++] = h;
	else	/* forgotten, not destroyed: the file's close reaps it */
		p->live[h % FZ_POOL_MAX] = h;
}

void pool_remove(struct fz_pool *p, uint32_t h)
{
	int i;

	for (i = 0; i < p->nlive; i++) {
		if (p->live[i] != h)
			continue;
		p->live[i] = p->live[--p->nlive];
		if (p->nstale < FZ_STALE_MAX)
			p->stale[p->nstale++] = h;
		else
			p->stale[h % FZ_STALE_MAX] = h;
		return;
	}
}

int pool_pick(struct fz *fz, struct fz_file *f, enum fz_obj t, uint32_t *h)
{
	struct fz_pool *p = &f->pool[t];

	if (!p->nlive)
		return -1;
	*h = p->live[prng_below(&fz->rng, p->nlive)];
	return 0;
}

static uint32_t forged_handle(struct fz *fz)
{
	static const uint32_t forged[] = {
		0, 1, 2, 3, 7, 63, 64, 1000, 0x7fffffff, 0x80000000,
		0xfffffffe, 0xffffffff,
	};

	if (prng_one_in(&fz->rng, 2))
		return forged[prng_below(&fz->rng, sizeof(forged) /
					 sizeof(forged[0]))];
	return prng_below(&fz->rng, 128);
}

uint32_t fz_handle(struct fz *fz, struct fz_file *f, enum fz_obj t)
{
	uint32_t r = prng_below(&fz->rng, 100), h;
	struct fz_pool *p = &f->pool[t];

	if (r < 80 && !pool_pick(fz, f, t, &h))
		return h;
	if (r < 86 && p->nstale)
		return p->stale[prng_below(&fz->rng, p->nstale)];
	if (r < 92 && !pool_pick(fz, f, prng_below(&fz->rng, FZ_NOBJ), &h))
		return h;
	if (r < 96 && !pool_pick(fz, &fz->files[prng_below(&fz->rng,
							     FZ_NFILES)],
				 t, &h))
		return h;
	return forged_handle(fz);
}

/* A completion channel fd for CREATE_CQ: ours, -1, or some other fd. */
int fz_channel_fd(struct fz *fz, struct fz_file *f)
{
	uint32_t r = prng_below(&fz->rng, 100), h;

	if (r < 40)
		return -1;
	if (r < 85 && !pool_pick(fz, f, FZ_CHANNEL, &h))
		return (int)h;
	if (r < 90 && !pool_pick(fz, &fz->files[!(f - fz->files)],
				 FZ_CHANNEL, &h))
		return (int)h;
	if (r < 95)
		return f->fd;	/* the uverbs file itself */
	return (int)prng_below(&fz->rng, 64) - 1;
}
