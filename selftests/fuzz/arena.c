// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The memory every request, response and MR of the fuzzer points into,
 * so that whatever the kernel writes lands there and never in the
 * fuzzer's own state.  Layout (pages):
 *   [ MR span | requests | guard | responses | guard | read-only | hole ]
 * The guards are PROT_NONE, the hole is unmapped.
 */
#include <errno.h>
#include <sys/mman.h>

#include "fuzz.h"

#define PAGE		4096ul
#define MR_SPAN		(1ul << 20)
#define REQ_SPAN	(2 * PAGE)
#define RESP_SPAN	(2 * PAGE)
/* Far from where the loader and mmap put things on x86-64. */
#define ARENA_BASE	0x3e0000000000ul

/* Apart enough that no length the fuzzer uses reaches the next slot. */
#define ARENA_SLOT	(1ul << 32)

int arena_init(struct fz_arena *a, unsigned int slot)
{
	char *at = (char *)ARENA_BASE + slot * ARENA_SLOT;
	size_t size = MR_SPAN + REQ_SPAN + PAGE + RESP_SPAN + PAGE + PAGE +
		      PAGE;
	/*
	 * At a fixed address, so that a mutated pointer (a flipped bit of an
	 * arena address) lands on the same memory in every run: replays and
	 * the cross-stack digests must not depend on where ASLR put us.
	 */
	char *p = mmap(at, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	if (p != at) {	/* a kernel that ignores the flag */
		munmap(p, size);
		errno = EEXIST;
		return -1;
	}
	a->base = p;
	a->size = size;
	a->mr = p;
	a->req = p + MR_SPAN;
	a->guard = a->req + REQ_SPAN;
	a->resp = a->guard + PAGE;
	a->ro = a->resp + RESP_SPAN + PAGE;
	if (mprotect(a->guard, PAGE, PROT_NONE) ||
	    mprotect(a->resp + RESP_SPAN, PAGE, PROT_NONE) ||
	    mprotect(a->ro, PAGE, PROT_READ) ||
	    munmap(a->ro + PAGE, PAGE))
		return -1;
	return 0;
}

/* An address the kernel must refuse to read or write (or only partly). */
uint64_t arena_bad_ptr(struct fz *fz)
{
	struct fz_arena *a = &fz->arena;
	const uint64_t bad[] = {
		0, 8, 4096,
		(uintptr_t)a->guard,
		(uintptr_t)a->guard - 4,		/* straddles the guard */
		(uintptr_t)a->resp + RESP_SPAN - 8,	/* ditto, response side */
		(uintptr_t)a->ro,
		(uintptr_t)a->ro + PAGE,		/* the hole */
		0x00007ffffffff000ull,			/* top of user space */
		0x0000800000000000ull,			/* non-canonical */
		0xffff888000000000ull,			/* kernel direct map */
		0xffffffff81000000ull,			/* kernel text */
		~0ull - 7,
	};

	return bad[prng_below(&fz->rng, sizeof(bad) / sizeof(bad[0]))];
}

/* A start address (and *@len) for REG_MR/REREG_MR, mostly inside the span. */
uint64_t arena_mr_addr(struct fz *fz, uint64_t *len)
{
	struct fz_arena *a = &fz->arena;
	uint64_t off, r = prng_below(&fz->rng, 100);

	if (r < 85) {
		off = prng_below(&fz->rng, MR_SPAN / PAGE) * PAGE;
		if (prng_one_in(&fz->rng, 4))
			off += prng_below(&fz->rng, PAGE);
		*len = 1 + prng_below(&fz->rng, MR_SPAN - off);
		if (prng_one_in(&fz->rng, 3))
			*len = 1 + prng_below(&fz->rng, 4 * PAGE);
		if (off + *len > MR_SPAN)
			*len = MR_SPAN - off;
		return (uintptr_t)a->mr + off;
	}
	if (r < 90) {	/* read-only memory, possibly running into the hole */
		*len = prng_one_in(&fz->rng, 2) ? PAGE : 2 * PAGE;
		return (uintptr_t)a->ro;
	}
	if (r < 95) {	/* absurd lengths from a good start */
		const uint64_t lens[] = { 0, 1ull << 32, 1ull << 40, ~0ull,
					  ~0ull - PAGE + 1 };

		*len = lens[prng_below(&fz->rng, 5)];
		return (uintptr_t)a->mr;
	}
	*len = 1 + prng_below(&fz->rng, 2 * PAGE);
	return arena_bad_ptr(fz);
}
