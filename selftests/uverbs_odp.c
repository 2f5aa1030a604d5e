// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_uverbs' on-demand paging umems (ib_umem_odp_*), which only ODP-capable
 * HCA drivers (mlx5) call: odp_umem_test.ko (selftests/odp/) plays such a
 * driver on rxe0 and this program checks what the API does: ranges,
 * faulting, prefetch without faulting, access bits, invalidation by
 * munmap/madvise/COW, implicit parents and children, a dead owner, and
 * release with pages mapped.  Same expectations on both stacks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "kselftest_harness.h"
#include "odp/odp_umem_test.h"

#define PG		4096UL
#define NPAGES		16
#define ODP_RW		(IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_ON_DEMAND)

/*
 * Loads odp_umem_test.ko from beside this program: modules/<release>/ for
 * the running kernel (make odp-module) first, else the one built with the
 * suite; 0 or -errno.
 */
static int load_module(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 128];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct utsname u;
	const char *dir;
	int fd, ret;

	if (n < 0 || uname(&u))
		return -errno;
	exe[n] = 0;
	dir = dirname(exe);
	snprintf(path, sizeof(path), "%s/modules/%s/odp_umem_test.ko", dir,
		 u.release);
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "%s/odp_umem_test.ko", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	return ret == -EEXIST ? 0 : ret;
}

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	int ret = ioctl(fd, cmd, arg);

	return ret < 0 ? -errno : ret;
}

static int reg(int fd, void *addr, __u64 len, __u32 access, __u32 implicit)
{
	struct odp_test_reg r = {
		.addr = (uintptr_t)addr, .length = len, .access = access,
		.implicit = implicit,
	};

	return xioctl(fd, ODP_TEST_REG, &r);
}

static int map(int fd, void *addr, __u64 len, __u32 access, __u32 fault)
{
	struct odp_test_map m = {
		.addr = (uintptr_t)addr, .length = len, .access = access,
		.fault = fault,
	};

	return xioctl(fd, ODP_TEST_MAP, &m);
}

static int unmap(int fd, void *addr, __u64 len)
{
	struct odp_test_map m = { .addr = (uintptr_t)addr, .length = len };

	return xioctl(fd, ODP_TEST_UNMAP, &m);
}

static int dma_copy(int fd, unsigned long cmd, void *addr, void *buf,
		    __u64 len)
{
	struct odp_test_copy c = {
		.addr = (uintptr_t)addr, .length = len, .buf = (uintptr_t)buf,
	};

	return xioctl(fd, cmd, &c);
}

static struct odp_test_state state(int fd)
{
	struct odp_test_state s = {};

	if (xioctl(fd, ODP_TEST_STATE, &s))
		s.npages = ~0ULL;
	return s;
}

static int open_dev(void)
{
	int fd = open(ODP_TEST_DEV, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

FIXTURE(odp) {
	int fd;
	char *buf;
};

FIXTURE_SETUP(odp)
{
	int ret;

	self->fd = -1;
	self->buf = MAP_FAILED;
	ret = load_module();
	if (ret == -ENOENT)
		SKIP(return, "odp_umem_test.ko not built (make selftests KDIR=...)");
	if (ret == -ENOEXEC)	/* built for another kernel (vermagic) */
		SKIP(return, "odp_umem_test.ko was built for another kernel (make selftests KDIR=...)");
	ASSERT_EQ(0, ret);
	self->fd = open_dev();
	if (self->fd == -ENODEV)
		SKIP(return, "no rxe0 (run with --hca=rxe)");
	ASSERT_LE(0, self->fd);
	self->buf = mmap(NULL, NPAGES * PG, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
}

FIXTURE_TEARDOWN(odp)
{
	if (self->buf != MAP_FAILED)
		munmap(self->buf, NPAGES * PG);
	if (self->fd >= 0)
		close(self->fd);
}

/* Fills page @i of @buf with bytes that name it. */
static void fill(char *buf, int first, int n)
{
	int i;

	for (i = first; i < first + n; i++)
		memset(buf + i * PG, 'a' + i, PG);
}

TEST_F(odp, ranges)
{
	struct odp_test_state s;
	int fd2;

	if (_metadata->skip)
		return;
	/* Zero bytes at a page boundary: no page at all. */
	EXPECT_EQ(-EINVAL, reg(self->fd, self->buf, 0, ODP_RW, 0));
	/* Wrapping the address space, by the end or by aligning it up. */
	EXPECT_EQ(-EOVERFLOW, reg(self->fd, (void *)(~0UL - 100), PG, ODP_RW, 0));
	EXPECT_EQ(-EOVERFLOW, reg(self->fd, (void *)(~0UL - 4000), 10, ODP_RW,
				  0));
	/* Huge pages are for ranged umems only. */
	EXPECT_EQ(-EINVAL, reg(self->fd, NULL, 0,
			       ODP_RW | IB_UVERBS_ACCESS_HUGETLB, 1));

	/* One byte in the middle of a page: that whole page. */
	ASSERT_EQ(0, reg(self->fd, self->buf + 3 * PG + 7, 1, ODP_RW, 0));
	s = state(self->fd);
	EXPECT_EQ((uintptr_t)self->buf + 3 * PG, s.start);
	EXPECT_EQ((uintptr_t)self->buf + 4 * PG, s.end);
	EXPECT_EQ(12, s.page_shift);
	EXPECT_EQ(0, s.npages);

	/* A byte across a page boundary: two pages. */
	fd2 = open_dev();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, reg(fd2, self->buf + PG - 1, 2, ODP_RW, 0));
	s = state(fd2);
	EXPECT_EQ((uintptr_t)self->buf, s.start);
	EXPECT_EQ((uintptr_t)self->buf + 2 * PG, s.end);
	close(fd2);
}

TEST_F(odp, fault_map_and_access)
{
	char *b = self->buf, page[64], want[64];
	struct odp_test_state s;

	if (_metadata->skip)
		return;
	fill(b, 0, NPAGES);
	ASSERT_EQ(0, reg(self->fd, b, NPAGES * PG, ODP_RW, 0));
	/* No access asked; outside the umem on either side. */
	EXPECT_EQ(-EINVAL, map(self->fd, b, PG, 0, 1));
	EXPECT_EQ(-EFAULT, map(self->fd, b + NPAGES * PG - 8, 16,
			       ODP_TEST_READ, 1));
	EXPECT_EQ(-EFAULT, map(self->fd, b - 8, 16, ODP_TEST_READ, 1));
	EXPECT_EQ(0, state(self->fd).npages);

	/* Ten bytes inside page 5: one page mapped, with the rights asked. */
	EXPECT_EQ(1, map(self->fd, b + 5 * PG + 100, 10,
			 ODP_TEST_READ | ODP_TEST_WRITE, 1));
	s = state(self->fd);
	EXPECT_EQ(1, s.npages);
	EXPECT_EQ(1, s.readable);
	EXPECT_EQ(1, s.writable);
	/* Across a page boundary: two pages, one already mapped. */
	EXPECT_EQ(2, map(self->fd, b + 6 * PG - 1, 2, ODP_TEST_READ, 1));
	s = state(self->fd);
	EXPECT_EQ(2, s.npages);
	/* Page 5 was re-synced to read-only rights, page 6 is new. */
	EXPECT_EQ(2, s.readable);
	EXPECT_EQ(0, s.writable);

	EXPECT_EQ(NPAGES, map(self->fd, b, NPAGES * PG,
			      ODP_TEST_READ | ODP_TEST_WRITE, 1));
	s = state(self->fd);
	EXPECT_EQ(NPAGES, s.npages);
	EXPECT_EQ(NPAGES, s.writable);

	/* The DMA mapping is the process's page: read it, write through it. */
	memset(want, 'a' + 7, sizeof(want));
	EXPECT_EQ(0, dma_copy(self->fd, ODP_TEST_READ_DMA, b + 7 * PG + 64,
			      page, sizeof(page)));
	EXPECT_EQ(0, memcmp(page, want, sizeof(page)));
	memset(page, 'Z', sizeof(page));
	EXPECT_EQ(0, dma_copy(self->fd, ODP_TEST_WRITE_DMA, b + 3 * PG,
			      page, sizeof(page)));
	EXPECT_EQ(0, memcmp(b + 3 * PG, page, sizeof(page)));
	EXPECT_EQ('a' + 3, b[3 * PG + sizeof(page)]);

	/* The driver unmaps half; mapping again brings it back. */
	EXPECT_EQ(0, unmap(self->fd, b, 8 * PG));
	EXPECT_EQ(8, state(self->fd).npages);
	EXPECT_EQ(-ENOENT, dma_copy(self->fd, ODP_TEST_READ_DMA, b, page, 8));
	EXPECT_EQ(NPAGES, map(self->fd, b, NPAGES * PG, ODP_TEST_READ, 1));
	EXPECT_EQ(NPAGES, state(self->fd).npages);
	/* Unmapping beyond the umem is clamped to it. */
	EXPECT_EQ(0, unmap(self->fd, b - 4 * PG, (NPAGES + 8) * PG));
	EXPECT_EQ(0, state(self->fd).npages);
}

TEST_F(odp, invalidation)
{
	char *b = self->buf, page[16] = {}, zero[16] = {};
	__u64 inval;

	if (_metadata->skip)
		return;
	fill(b, 0, NPAGES);
	ASSERT_EQ(0, reg(self->fd, b, NPAGES * PG, ODP_RW, 0));
	ASSERT_EQ(NPAGES, map(self->fd, b, NPAGES * PG,
			      ODP_TEST_READ | ODP_TEST_WRITE, 1));
	inval = state(self->fd).invalidations;

	/* Dropping pages invalidates them: the driver unmapped two. */
	ASSERT_EQ(0, madvise(b + 2 * PG, 2 * PG, MADV_DONTNEED));
	EXPECT_LT(inval, state(self->fd).invalidations);
	EXPECT_EQ(NPAGES - 2, state(self->fd).npages);
	EXPECT_EQ(-ENOENT, dma_copy(self->fd, ODP_TEST_READ_DMA, b + 2 * PG,
				    page, sizeof(page)));
	/* Faulting again maps the new (zero) page. */
	EXPECT_EQ(1, map(self->fd, b + 2 * PG, 1, ODP_TEST_READ, 1));
	memset(page, 1, sizeof(page));
	EXPECT_EQ(0, dma_copy(self->fd, ODP_TEST_READ_DMA, b + 2 * PG, page,
			      sizeof(page)));
	EXPECT_EQ(0, memcmp(page, zero, sizeof(page)));

	/* munmap of the tail: unmapped, and no longer faultable. */
	ASSERT_EQ(0, munmap(b + 10 * PG, 6 * PG));
	EXPECT_EQ(NPAGES - 2 + 1 - 6, state(self->fd).npages);
	EXPECT_EQ(-EFAULT, map(self->fd, b + 12 * PG, 1, ODP_TEST_READ, 1));
	/* The head still faults in fine. */
	EXPECT_EQ(10, map(self->fd, b, 10 * PG, ODP_TEST_READ, 1));
	EXPECT_EQ(10, state(self->fd).npages);
}

TEST_F(odp, prefetch_without_fault)
{
	char *b = self->buf;
	struct odp_test_state s;
	volatile char sink;
	int i;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, reg(self->fd, b, 8 * PG, ODP_RW, 0));
	/* Nothing present yet: every page walked, none mapped. */
	EXPECT_EQ(8, map(self->fd, b, 8 * PG, ODP_TEST_READ, 0));
	EXPECT_EQ(0, state(self->fd).npages);

	/* Read pages 0-3 (the shared zero page, read-only), write 4-7. */
	for (i = 0; i < 4; i++)
		sink = b[i * PG];
	(void)sink;
	fill(b, 4, 4);
	EXPECT_EQ(8, map(self->fd, b, 8 * PG, ODP_TEST_READ, 0));
	s = state(self->fd);
	/* The rights are what the CPU mapping allows, not what was asked. */
	EXPECT_EQ(8, s.npages);
	EXPECT_EQ(8, s.readable);
	EXPECT_EQ(4, s.writable);

	/* Writing page 0 replaces the zero page: invalidated. */
	b[0] = 1;
	EXPECT_EQ(7, state(self->fd).npages);
	/* A write fault on page 1 does the same, then maps it writable. */
	EXPECT_EQ(1, map(self->fd, b + PG, 1, ODP_TEST_READ | ODP_TEST_WRITE,
			 1));
	s = state(self->fd);
	EXPECT_EQ(7, s.npages);
	EXPECT_EQ(5, s.writable);
}

TEST_F(odp, implicit_parent_and_child)
{
	char *b = self->buf, page[32], want[32];
	struct odp_test_state s;
	int fd2;

	if (_metadata->skip)
		return;
	/* A parent alone has no range to report. */
	ASSERT_EQ(0, reg(self->fd, NULL, 0, ODP_RW, 1));
	EXPECT_EQ(-ENOENT, map(self->fd, b, PG, ODP_TEST_READ, 1));

	fill(b, 0, NPAGES);
	fd2 = open_dev();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, reg(fd2, b + 4 * PG, 4 * PG, ODP_RW, 1));
	s = state(fd2);
	EXPECT_EQ((uintptr_t)b + 4 * PG, s.start);
	EXPECT_EQ(4, map(fd2, b + 4 * PG, 4 * PG, ODP_TEST_READ, 1));
	memset(want, 'a' + 6, sizeof(want));
	EXPECT_EQ(0, dma_copy(fd2, ODP_TEST_READ_DMA, b + 6 * PG, page,
			      sizeof(page)));
	EXPECT_EQ(0, memcmp(page, want, sizeof(page)));
	/* The child takes the parent's rights: writable. */
	EXPECT_EQ(1, map(fd2, b + 4 * PG, 1, ODP_TEST_READ | ODP_TEST_WRITE,
			 1));
	EXPECT_EQ(1, state(fd2).writable);
	close(fd2);
}

TEST_F(odp, owner_gone)
{
	int status;
	pid_t pid;

	if (_metadata->skip)
		return;
	/* A child process registers its own memory through our file... */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		fill(self->buf, 0, NPAGES);
		if (reg(self->fd, self->buf, NPAGES * PG, ODP_RW, 0) ||
		    map(self->fd, self->buf, NPAGES * PG, ODP_TEST_READ, 1) !=
		    NPAGES)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	/* ... and exits: its mm going away unmapped everything. */
	EXPECT_EQ(0, state(self->fd).npages);
	/* Nobody is left to fault pages in for. */
	EXPECT_EQ(-EINVAL, map(self->fd, self->buf, PG, ODP_TEST_READ, 1));
	/* Releasing it afterwards (teardown) is fine too. */
}

TEST_F(odp, release_with_pages_mapped)
{
	__u64 inval;
	int fd2;

	if (_metadata->skip)
		return;
	fill(self->buf, 0, NPAGES);
	fd2 = open_dev();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, reg(fd2, self->buf, NPAGES * PG, ODP_RW, 0));
	ASSERT_EQ(NPAGES, map(fd2, self->buf, NPAGES * PG, ODP_TEST_READ, 1));
	/* Release unmaps and stops watching the range... */
	close(fd2);
	inval = state(self->fd).invalidations;
	/* ... so dropping the pages now calls no driver back. */
	ASSERT_EQ(0, madvise(self->buf, NPAGES * PG, MADV_DONTNEED));
	EXPECT_EQ(inval, state(self->fd).invalidations);
}

/*
 * The fixtures load the module in the test children; the harness ends the
 * parent with exit(), so unload it from an atexit handler (in the parent
 * only) unless it was there before, so that ib_uverbs can be unloaded later.
 */
static pid_t harness_pid;

static void unload_module(void)
{
	if (getpid() == harness_pid &&
	    syscall(SYS_delete_module, "odp_umem_test", O_NONBLOCK))
		ksft_print_msg("could not unload odp_umem_test: %s\n", strerror(errno));
}

int main(int argc, char **argv)
{
	harness_pid = getpid();
	if (access("/sys/module/odp_umem_test", F_OK))
		atexit(unload_module);
	return test_harness_run(argc, argv);
}
