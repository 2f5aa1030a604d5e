// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The umem of a REG_MR on a device with a real DMA device, as every
 * hardware driver reads it: ib_uverbs pins the pages, maps them for the
 * device's DMA device (the test HCA's is a platform device with no IOMMU
 * in front, so a DMA address is the page's physical address) and answers
 * the driver's ib_umem_find_best_pgsz()/ib_umem_num_dma_blocks() and block
 * walks.  The test HCA reports all of it (OVBTEST_METHOD_MR_DMA_MAP,
 * selftests/ovbtest/dma_map.c); this test checks it against the physical
 * addresses of /proc/self/pagemap: every page where it is, physically
 * contiguous pages in one entry, sub-page MRs and MRs sharing a page, the
 * best page size of a transparent huge page by the iova's alignment, and
 * its blocks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_dma_map.h"

/*
 * Two huge pages of address space, the second 2 MB-aligned one backed by
 * a transparent huge page; NULL when the kernel gave small pages.
 */
static char *huge_page(char **area)
{
	char *a = mmap(NULL, 2 * HUGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *h;
	__u64 base;
	size_t i;

	*area = a;
	if (a == MAP_FAILED)
		return NULL;
	h = (char *)(((uintptr_t)a + HUGE - 1) & ~(HUGE - 1));
	if (madvise(h, HUGE, MADV_HUGEPAGE))
		return NULL;
	memset(h, 1, HUGE);
	base = phys(h);
	if (!base || base % HUGE)
		return NULL;
	for (i = 1; i < HUGE / PG; i++)
		if (phys(h + i * PG) != base + i * PG)
			return NULL;
	return h;
}

FIXTURE(dma_map) {
	int fd, pd;
	char ioctl_abi;
	struct dma_map m;
};

FIXTURE_SETUP(dma_map)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	self->ioctl_abi = 0;
	HCA_SETUP_LOAD();
	self->ioctl_abi = ioctl_abi_on();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
}

FIXTURE_TEARDOWN(dma_map)
{
	if (self->fd >= 0)
		close(self->fd);
	ioctl_abi_restore(self->ioctl_abi);
}

/*
 * 64 pages: each at its physical address, the entries together exactly
 * the pages, and no two entries physically adjacent (ib_umem_get merges
 * contiguous pages, the DMA device allowing segments of any size).
 */
TEST_F(dma_map, pages_are_physical)
{
	const size_t n = 64;
	char *p = touched(n);
	__u64 sum = 0;
	size_t i;
	int mr;

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(0, phys(p)) TH_LOG("no physical addresses in pagemap (root?)");
	mr = reg_mr_at(self->fd, self->pd, p, n * PG, (uintptr_t)p);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG, &self->m));
	EXPECT_EQ((uintptr_t)p, self->m.info.address);
	EXPECT_EQ(n * PG, self->m.info.length);
	EXPECT_EQ(n, self->m.info.num_pages);
	EXPECT_EQ(PG, self->m.info.best_pgsz);
	EXPECT_EQ(n, self->m.info.num_blocks);
	ASSERT_GE(n, self->m.info.num_segs);
	ASSERT_LE(1, self->m.info.num_segs);
	/* no IOMMU: the mapped entries are the CPU-side ones */
	EXPECT_EQ(self->m.info.num_cpu_segs, self->m.info.num_segs);
	for (i = 0; i < self->m.info.num_segs; i++) {
		sum += self->m.segs[i].len;
		if (i)
			EXPECT_NE(self->m.segs[i - 1].addr + self->m.segs[i - 1].len,
				  self->m.segs[i].addr)
				TH_LOG("entries %zu and %zu are contiguous, not merged",
				       i - 1, i);
	}
	EXPECT_EQ(n * PG, sum);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(phys(p + i * PG), seg_addr(&self->m, i * PG))
			TH_LOG("page %zu", i);
		EXPECT_EQ(phys(p + i * PG), self->m.blocks[i])
			TH_LOG("block %zu", i);
	}
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(p, n * PG);
}

/*
 * MRs smaller than a page and MRs sharing one: each umem covers the whole
 * pages its bytes touch, at their physical addresses; a page shared by
 * two MRs stays mapped for the one left.
 */
TEST_F(dma_map, sub_page_mrs_share_pages)
{
	__u64 p0, p1;
	int a, b, c;
	char *p;

	p = sub_page_mrs(_metadata, self->fd, self->pd, &p0, &p1, &a, &b, &c);

	ASSERT_EQ(0, dma_map(self->fd, a, PG, &self->m));
	EXPECT_EQ((uintptr_t)p + 100, self->m.info.address);
	EXPECT_EQ(200, self->m.info.length);
	EXPECT_EQ(1, self->m.info.num_pages);
	EXPECT_EQ(1, self->m.info.num_segs);
	EXPECT_EQ(p0, self->m.segs[0].addr);
	EXPECT_EQ(PG, self->m.segs[0].len);
	EXPECT_EQ(PG, self->m.info.best_pgsz);
	EXPECT_EQ(1, self->m.info.num_blocks);
	EXPECT_EQ(p0, self->m.blocks[0]);

	ASSERT_EQ(0, dma_map(self->fd, b, PG, &self->m));
	EXPECT_EQ(2, self->m.info.num_pages);
	EXPECT_EQ(2, self->m.info.num_blocks);
	EXPECT_EQ(p0, seg_addr(&self->m, 0));
	EXPECT_EQ(p1, seg_addr(&self->m, PG));
	EXPECT_EQ(p0, self->m.blocks[0]);
	EXPECT_EQ(p1, self->m.blocks[1]);

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, a));
	ASSERT_EQ(0, dma_map(self->fd, c, PG, &self->m));
	EXPECT_EQ(p0, self->m.segs[0].addr) TH_LOG("the shared page moved");
	EXPECT_EQ(p0, phys(p));
	EXPECT_EQ(-ENOENT, dma_map(self->fd, a, PG, &self->m));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, b));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, c));
	munmap(p, 2 * PG);
}

/*
 * A transparent huge page: one 2 MB entry; 2 MB blocks when the MR's iova
 * is 2 MB-aligned like the memory, 4 KB ones otherwise, none when only
 * 2 MB is offered then; 4 KB blocks walk the page in order.
 */
TEST_F(dma_map, huge_page_best_size)
{
	char *area, *h = huge_page(&area);
	__u64 base, i;
	int mr, off;

	if (!h) {
		if (area != MAP_FAILED)
			munmap(area, 2 * HUGE);
		SKIP(return, "no transparent huge page here");
	}
	base = phys(h);
	mr = reg_mr_at(self->fd, self->pd, h, HUGE, (uintptr_t)h);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG | HUGE, &self->m));
	EXPECT_EQ(1, self->m.info.num_segs);
	EXPECT_EQ(base, self->m.segs[0].addr);
	EXPECT_EQ(HUGE, self->m.segs[0].len);
	EXPECT_EQ(HUGE, self->m.info.best_pgsz);
	EXPECT_EQ(1, self->m.info.num_blocks);
	EXPECT_EQ(base, self->m.blocks[0]);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG, &self->m));
	EXPECT_EQ(PG, self->m.info.best_pgsz);
	EXPECT_EQ(HUGE / PG, self->m.info.num_blocks);
	for (i = 0; i < HUGE / PG; i++)	/* the first wrong block only */
		if (base + i * PG != self->m.blocks[i]) {
			EXPECT_EQ(base + i * PG, self->m.blocks[i])
				TH_LOG("block %llu", i);
			break;
		}
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));

	/* the same memory at an iova 4 KB off a 2 MB boundary */
	off = reg_mr_at(self->fd, self->pd, h, HUGE, 0x40000000ULL + PG);
	ASSERT_LE(0, off);
	ASSERT_EQ(0, dma_map(self->fd, off, PG | HUGE, &self->m));
	EXPECT_EQ(0x40000000ULL + PG, self->m.info.iova);
	EXPECT_EQ(PG, self->m.info.best_pgsz);
	EXPECT_EQ(HUGE / PG, self->m.info.num_blocks);
	ASSERT_EQ(0, dma_map(self->fd, off, HUGE, &self->m));
	EXPECT_EQ(0, self->m.info.best_pgsz);
	EXPECT_EQ(0, self->m.info.num_blocks);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, off));

	/* the second half at a 2 MB iova: one 2 MB block holding it */
	mr = reg_mr_at(self->fd, self->pd, h + HUGE / 2, HUGE / 2,
		       0x40000000ULL + HUGE / 2);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG | HUGE, &self->m));
	EXPECT_EQ(HUGE, self->m.info.best_pgsz);
	EXPECT_EQ(1, self->m.info.num_blocks);
	EXPECT_EQ(base, self->m.blocks[0]) TH_LOG("the block is the huge page");
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(area, 2 * HUGE);
}

/*
 * The first half of one huge page followed, in virtual memory, by the
 * second half of another: at an iova that keeps every page's offset in a
 * 2 MB block, but the break in physical memory falls mid-block, so 2 MB
 * blocks would map the second half to the wrong memory: 4 KB blocks.
 */
TEST_F(dma_map, physical_break_inside_a_huge_block)
{
	char *a1, *a2, *h1 = huge_page(&a1), *h2 = huge_page(&a2);
	__u64 p1, p2, i;
	int mr;

	if (!h1 || !h2) {
		if (a1 != MAP_FAILED)
			munmap(a1, 2 * HUGE);
		if (a2 != MAP_FAILED)
			munmap(a2, 2 * HUGE);
		SKIP(return, "no two transparent huge pages here");
	}
	p1 = phys(h1);
	p2 = phys(h2);
	ASSERT_NE(MAP_FAILED, mremap(h2 + HUGE / 2, HUGE / 2, HUGE / 2,
				     MREMAP_MAYMOVE | MREMAP_FIXED,
				     h1 + HUGE / 2));
	ASSERT_EQ(p2 + HUGE / 2, phys(h1 + HUGE / 2));
	mr = reg_mr_at(self->fd, self->pd, h1, HUGE, 0x40000000ULL);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG | HUGE, &self->m));
	EXPECT_EQ(PG, self->m.info.best_pgsz);
	EXPECT_EQ(HUGE / PG, self->m.info.num_blocks);
	ASSERT_EQ(2, self->m.info.num_segs);
	EXPECT_EQ(p1, self->m.segs[0].addr);
	EXPECT_EQ(HUGE / 2, self->m.segs[0].len);
	EXPECT_EQ(p2 + HUGE / 2, self->m.segs[1].addr);
	EXPECT_EQ(HUGE / 2, self->m.segs[1].len);
	for (i = 0; i < HUGE / PG; i++)	/* the first wrong block only */
		if (phys(h1 + i * PG) != self->m.blocks[i]) {
			EXPECT_EQ(phys(h1 + i * PG), self->m.blocks[i])
				TH_LOG("block %llu", i);
			break;
		}
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(a1, 2 * HUGE);
	munmap(a2, 2 * HUGE);
}

/*
 * Pages scattered in physical memory: the entries are the runs pagemap
 * shows, and where a run breaks at an address that is not 64 KB-aligned,
 * nothing bigger than a page fits (64 KB or 2 MB offered too); 2 MB alone
 * fits nothing.
 */
TEST_F(dma_map, scattered_pages_have_no_big_blocks)
{
	const size_t n = 16;
	char *p = every_other(n);
	size_t i, runs = 1, odd_break = 0;
	int mr;

	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < n; i++)
		ASSERT_EQ((char)(2 * i), p[i * PG]);
	for (i = 1; i < n; i++)
		if (phys(p + i * PG) != phys(p + (i - 1) * PG) + PG) {
			runs++;
			odd_break |= (uintptr_t)(p + i * PG) % (64 * 1024);
		}
	mr = reg_mr_at(self->fd, self->pd, p, n * PG, (uintptr_t)p);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG | 64 * 1024 | HUGE, &self->m));
	EXPECT_EQ(runs, self->m.info.num_segs);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(phys(p + i * PG), seg_addr(&self->m, i * PG)) TH_LOG("page %zu", i);
		EXPECT_EQ(phys(p + i * PG), self->m.blocks[i]) TH_LOG("block %zu", i);
	}
	if (odd_break) {
		EXPECT_EQ(PG, self->m.info.best_pgsz);
		EXPECT_EQ(n, self->m.info.num_blocks);
	}
	ASSERT_EQ(0, dma_map(self->fd, mr, HUGE, &self->m));
	EXPECT_EQ(0, self->m.info.best_pgsz);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(p, n * PG);
	if (!odd_break)
		SKIP(return, "the pages broke only at 64 KB boundaries");
}

/*
 * Physical addresses are CAP_SYS_ADMIN's to see (as /proc/self/pagemap's
 * frame numbers): a process without it, on the same file, gets EPERM; a
 * bitmap without a page size of at least a page is refused.
 */
TEST_F(dma_map, refusals)
{
	char *p = touched(1);
	pid_t pid;
	int mr, st;

	ASSERT_NE(MAP_FAILED, p);
	mr = reg_mr_at(self->fd, self->pd, p, PG, (uintptr_t)p);
	ASSERT_LE(0, mr);
	EXPECT_EQ(-EINVAL, dma_map(self->fd, mr, 1, &self->m));
	EXPECT_EQ(-EINVAL, dma_map(self->fd, mr, PG - 1, &self->m));
	EXPECT_EQ(0, dma_map(self->fd, mr, PG | 1, &self->m));
	EXPECT_EQ(PG, self->m.info.best_pgsz);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(2);
		_exit(dma_map(self->fd, mr, PG, &self->m) == -EPERM ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("unprivileged DMA_MAP: status %#x", st);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(p, PG);
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
