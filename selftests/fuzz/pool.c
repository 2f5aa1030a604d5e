// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The objects each uverbs file holds, as far as the fuzzer knows, and the
 * handles it puts into requests: mostly a live object of the right type,
 * sometimes a destroyed one, one of another type or another file, or a
 * forged number.
 *
 * In the concurrent mode (threads.c) the files and their pools are shared
 * by threads: fz_lock() guards this bookkeeping, never a command.
 */
#include <pthread.h>
#include <string.h>

#include "fuzz.h"

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static int pool_shared;

void fz_set_shared(int shared)
{
	pool_shared = shared;
}

void fz_lock(void)
{
	if (pool_shared)
		pthread_mutex_lock(&pool_lock);
}

void fz_unlock(void)
{
	if (pool_shared)
		pthread_mutex_unlock(&pool_lock);
}

void pool_add(struct fz_pool *p, uint32_t h)
{
	fz_lock();
	if (p->nlive < FZ_POOL_MAX)
		p->live[p->nlive++] = h;
	else	/* forgotten, not destroyed: the file's close reaps it */
		p->live[h % FZ_POOL_MAX] = h;
	fz_unlock();
}

/* Under fz_lock(); 0 when @h was live. */
static int remove_locked(struct fz_pool *p, uint32_t h)
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
		return 0;
	}
	return -1;
}

void pool_remove(struct fz_pool *p, uint32_t h)
{
	fz_lock();
	remove_locked(p, h);
	fz_unlock();
}

int pool_pick(struct fz *fz, struct fz_file *f, enum fz_obj t, uint32_t *h)
{
	struct fz_pool *p = &f->pool[t];
	int ret = -1;

	fz_lock();
	if (p->nlive) {
		*h = p->live[prng_below(&fz->rng, p->nlive)];
		ret = 0;
	}
	fz_unlock();
	return ret;
}

/*
 * pool_pick() and pool_remove() in one: the caller owns @h afterwards (an
 * fd it may close without another thread closing the same number).
 */
int pool_take(struct fz *fz, struct fz_file *f, enum fz_obj t, uint32_t *h)
{
	struct fz_pool *p = &f->pool[t];
	int ret = -1;

	fz_lock();
	if (p->nlive) {
		*h = p->live[prng_below(&fz->rng, p->nlive)];
		ret = remove_locked(p, *h);
	}
	fz_unlock();
	return ret;
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
	if (r < 86 && p->nstale) {
		fz_lock();
		h = p->stale[prng_below(&fz->rng, p->nstale)];
		fz_unlock();
		return h;
	}
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
