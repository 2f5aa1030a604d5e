// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Mappings with no mmap entry: the test HCA maps its fixed region (the
 * last pages of the ivshmem-plain BAR, non-cached) at one fixed offset
 * with rdma_user_mmap_io(..., NULL), as mlx4 maps its UAR page.  ib_core
 * records each such mapping with entry NULL, and ib_uverbs alone keeps
 * those records: a copy for every fork and split, and the hot-unplug
 * (rmmod ovbtest) must zap every one, in the parent and a live child,
 * before and after a split.  Afterwards reads give zeroes (the zero page
 * for a read-only map, the file's one spare page for writable ones, as
 * rdma_umap_fault), and a VMA copied after the unplug has no record and
 * gets SIGBUS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"
#include "ovbtest_ivshmem.h"

#define NFIX		OVBTEST_MMAP_FIXED_PAGES
#define FIX_OFF		((off_t)(OVBTEST_MMAP_FIXED_PGOFF * getpagesize()))

static size_t pgsz(void)
{
	return getpagesize();
}

/* The u64 @i of page @pg of a mapping at @base. */
static volatile __u64 *word(volatile void *base, int pg, int i)
{
	return (volatile __u64 *)((volatile char *)base + pg * pgsz()) + i;
}

static void *map_fixed(int fd, int npages, int prot)
{
	void *p = mmap(NULL, npages * pgsz(), prot, MAP_SHARED, fd, FIX_OFF);

	return p == MAP_FAILED ? NULL : p;
}

/* What a read of @addr gives: 0 and *@val, or SIGBUS (1), SIGSEGV (2). */
static sigjmp_buf probe_jmp;
static volatile int probe_sig;

static void probe_handler(int sig)
{
	probe_sig = sig;
	siglongjmp(probe_jmp, 1);
}

static int probe(volatile __u64 *addr, __u64 *val, int write, __u64 v)
{
	struct sigaction sa = { .sa_handler = probe_handler }, obus, osegv;
	int ret = 0;

	sigaction(SIGBUS, &sa, &obus);
	sigaction(SIGSEGV, &sa, &osegv);
	probe_sig = 0;
	if (!sigsetjmp(probe_jmp, 1)) {
		if (write)
			*addr = v;
		*val = *addr;
	} else {
		ret = probe_sig == SIGBUS ? 1 : 2;
	}
	sigaction(SIGBUS, &obus, NULL);
	sigaction(SIGSEGV, &osegv, NULL);
	return ret;
}

/* The device's view of the region: the first u64 of each page. */
static int fixed_values(int fd, __u64 out[NFIX])
{
	struct ovbtest_device_info info;

	if (ovbtest_device_info(fd, &info))
		return -1;
	memcpy(out, info.fixed_value, sizeof(info.fixed_value));
	return 0;
}

static int all_zero(volatile void *p, int npages)
{
	for (size_t i = 0; i < npages * pgsz() / 8; i++)
		if (word(p, 0, i)[0])
			return 0;
	return 1;
}

/* The ivshmem-plain BAR 2's sysfs resource file into @path, its size. */
static long long ivshmem_bar(char *path, size_t len)
{
	unsigned long long start, end;
	char dir[PATH_MAX];

	if (ivshmem_bar2(dir, sizeof(dir), &start, &end) ||
	    snprintf(path, len, "%s/resource2", dir) >= (int)len)
		return -1;
	return end - start + 1;
}

FIXTURE(fixed) {
	int fd;
	struct ovbtest_alloc_ucontext_resp uctx;
};

FIXTURE_SETUP(fixed)
{
	self->fd = -1;
	HCA_SETUP_BAR(self->fd, &self->uctx);
}

FIXTURE_TEARDOWN(fixed)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The offset maps the region: each page its own, writes reach it. */
TEST_F(fixed, maps_the_region)
{
	volatile __u64 *a, *b, *ro;
	__u64 dev[NFIX];
	void *p;

	a = map_fixed(self->fd, NFIX, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, a) TH_LOG("%s", strerror(errno));
	b = map_fixed(self->fd, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, b);
	for (int i = 0; i < NFIX; i++)
		*word(a, i, 0) = 0xf1c0 + i;
	ASSERT_EQ(0, fixed_values(self->fd, dev));
	for (int i = 0; i < NFIX; i++)
		EXPECT_EQ(0xf1c0 + i, dev[i]);
	/* a second mapping reaches the same page */
	EXPECT_EQ(0xf1c0, *b);
	*b = 0xb0b0;
	EXPECT_EQ(0xb0b0, *word(a, 0, 0));

	/* a read-only map cannot be made writable (VM_MAYWRITE cleared) */
	ro = map_fixed(self->fd, 1, PROT_READ);
	ASSERT_NE(NULL, ro);
	EXPECT_EQ(0xb0b0, *ro);
	EXPECT_EQ(-1, mprotect((void *)ro, pgsz(), PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);

	/* too long, private: refused */
	p = mmap(NULL, (NFIX + 1) * pgsz(), PROT_READ, MAP_SHARED, self->fd,
		 FIX_OFF);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, pgsz(), PROT_READ, MAP_PRIVATE, self->fd, FIX_OFF);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	munmap((void *)a, NFIX * pgsz());
	munmap((void *)b, pgsz());
	munmap((void *)ro, pgsz());
}

/* Fork copies the mapping (no VM_DONTCOPY); a split keeps both parts. */
TEST_F(fixed, fork_and_split_before_unplug)
{
	volatile __u64 *a = map_fixed(self->fd, NFIX, PROT_READ | PROT_WRITE);
	__u64 dev[NFIX], v;
	int status;
	pid_t pid;

	ASSERT_NE(NULL, a);
	*word(a, 1, 0) = 0x1111;
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* the child's copy reaches the device page */
		if (*word(a, 1, 0) != 0x1111)
			_exit(10);
		*word(a, 2, 0) = 0x2222;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0x2222, *word(a, 2, 0));

	/* munmap the second page: two VMAs, both still the device's */
	ASSERT_EQ(0, munmap((void *)word(a, 1, 0), pgsz()));
	EXPECT_EQ(2, probe(word(a, 1, 0), &v, 0, 0));	/* SIGSEGV: gone */
	*word(a, 0, 0) = 0xa0;
	*word(a, 3, 0) = 0xa3;
	ASSERT_EQ(0, fixed_values(self->fd, dev));
	EXPECT_EQ(0xa0, dev[0]);
	EXPECT_EQ(0x2222, dev[2]);
	EXPECT_EQ(0xa3, dev[3]);
	munmap((void *)a, NFIX * pgsz());
}

/*
 * Last: the unplug with live entry-less maps - split before, a child
 * holding a copy, a read-only map - then copies made after it.
 */
TEST_F(fixed, unplug_zaps_entryless_maps)
{
	volatile __u64 *a, *ro, *s, *u, *bar;
	int up[2], down[2], status, k, r, lo_ret, hi_ret, bfd;
	char bar_path[PATH_MAX];
	long long bar_size;
	__u64 v, lo, hi;
	pid_t child;
	char c;

	a = map_fixed(self->fd, NFIX, PROT_READ | PROT_WRITE);
	ro = map_fixed(self->fd, 1, PROT_READ);
	s = map_fixed(self->fd, 3, PROT_READ | PROT_WRITE);
	/* faulted in now, not touched after the unplug */
	u = map_fixed(self->fd, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, u);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, ro);
	ASSERT_NE(NULL, s);
	for (int i = 0; i < NFIX; i++)
		*word(a, i, 0) = 0x5000 + i;
	EXPECT_EQ(0x5000, *u);
	/* split before the unplug: both parts must be zapped */
	ASSERT_EQ(0, munmap((void *)word(a, 1, 0), pgsz()));

	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		int bad = 0;

		if (*word(a, 2, 0) != 0x5002)
			_exit(20);
		if (write(up[1], "r", 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(21);
		/* after the unplug: zeroes, then the file's spare page */
		bad |= !all_zero(a, 1) || !all_zero(word(a, 2, 0), 2);
		bad |= !all_zero(ro, 1);
		*word(a, 3, 5) = 0xc0de;
		bad |= *word(a, 0, 5) != 0xc0de;
		bad |= *ro != 0;
		if (write(up[1], "d", 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(22);
		/* the parent's write into the spare page shows here too */
		bad |= *word(a, 2, 6) != 0xfeed;
		_exit(bad ? 23 : 0);
	}
	ASSERT_EQ(1, read(up[0], &c, 1));

	k = ovbtest_kmsg_mark();
	ASSERT_EQ(0, ovbtest_unload());
	ASSERT_FALSE(ovbtest_loaded());

	/* zapped: zeroes, no SIGBUS, read before anything is written */
	EXPECT_TRUE(all_zero(a, 1));
	EXPECT_TRUE(all_zero(word(a, 2, 0), 2));
	EXPECT_TRUE(all_zero(ro, 1));
	EXPECT_TRUE(all_zero(s, 3));
	ASSERT_EQ(1, write(down[1], "g", 1));
	ASSERT_EQ(1, read(up[0], &c, 1));
	/* every writable map of the file now shares one page, not the RO one */
	EXPECT_EQ(0xc0de, *word(a, 2, 5));
	EXPECT_EQ(0xc0de, *word(s, 1, 5));
	*word(a, 0, 6) = 0xfeed;
	EXPECT_EQ(0, *word(ro, 0, 6));
	ASSERT_EQ(1, write(down[1], "g", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("child status %#x", status);
	EXPECT_EQ(0, WEXITSTATUS(status));

	/*
	 * A fork after the unplug: the copy has no record, so a page the
	 * parent has not faulted in since gets SIGBUS; one it has is copied
	 * with the parent's PTE (the spare page), as any VM_PFNMAP page.
	 */
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		r = probe(u, &v, 0, 0);
		r |= (probe(word(a, 0, 6), &v, 0, 0) || v != 0xfeed) << 2;
		_exit(r);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(1, WEXITSTATUS(status)) TH_LOG("child status %#x", status);
	/* ... the parent's maps still fault in their pages */
	EXPECT_EQ(0, probe(a, &v, 0, 0));
	EXPECT_EQ(0xfeed, *word(a, 0, 6));

	/*
	 * A split after the unplug: of the three pieces of the VMA only
	 * one can be the original, so at least one part left mapped is a
	 * copy mm opened, with no record: SIGBUS.  A part that is still the
	 * original faults in the spare page.  Which is which is mm's choice
	 * (it changed after 6.1): logged, to compare the stacks.
	 */
	ASSERT_EQ(0, munmap((void *)word(s, 1, 0), pgsz()));
	lo_ret = probe(word(s, 0, 5), &lo, 0, 0);
	hi_ret = probe(word(s, 2, 5), &hi, 0, 0);
	TH_LOG("split after the unplug: below %s, above %s",
	       lo_ret ? "SIGBUS" : "reads", hi_ret ? "SIGBUS" : "reads");
	EXPECT_TRUE(lo_ret == 1 || (!lo_ret && lo == 0xc0de));
	EXPECT_TRUE(hi_ret == 1 || (!hi_ret && hi == 0xc0de));
	EXPECT_TRUE(lo_ret == 1 || hi_ret == 1);

	/* the old region kept what was written before the unplug only */
	bar_size = ivshmem_bar(bar_path, sizeof(bar_path));
	ASSERT_LT(NFIX * (long long)pgsz(), bar_size);
	bfd = open(bar_path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, bfd) TH_LOG("%s: %s", bar_path, strerror(errno));
	bar = mmap(NULL, NFIX * pgsz(), PROT_READ, MAP_SHARED, bfd,
		   bar_size - NFIX * pgsz());
	ASSERT_NE(MAP_FAILED, bar) TH_LOG("%s", strerror(errno));
	for (int i = 0; i < NFIX; i++)
		EXPECT_EQ(0x5000 + i, *word(bar, i, 0));
	EXPECT_EQ(0, *word(bar, 0, 6));
	EXPECT_EQ(0, *word(bar, 3, 5));
	munmap((void *)bar, NFIX * pgsz());
	close(bfd);

	/* close after the unplug, then the maps go: no WARN */
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0xfeed, *word(a, 0, 6));
	munmap((void *)a, NFIX * pgsz());
	munmap((void *)ro, pgsz());
	munmap((void *)s, 3 * pgsz());
	munmap((void *)u, pgsz());
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

TEST_HARNESS_MAIN
