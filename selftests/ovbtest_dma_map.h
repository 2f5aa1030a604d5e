/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What uverbs_ovbtest_dma_map and uverbs_ovbtest_iommu share: the test
 * HCA's OVBTEST_METHOD_MR_DMA_MAP, REG_MR at an iova, physical addresses
 * from /proc/self/pagemap and memory whose pages are scattered.
 */
#ifndef OVBTEST_DMA_MAP_H
#define OVBTEST_DMA_MAP_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ovbtest_lib.h"

#define PG		4096UL
#define HUGE		(2UL << 20)
#define MAX_SEGS	1024
#define MAX_BLOCKS	1024

struct dma_map {
	struct ovbtest_mr_dma_map info;
	struct ovbtest_dma_seg segs[MAX_SEGS];
	__u64 blocks[MAX_BLOCKS];
};

/* OVBTEST_METHOD_MR_DMA_MAP on @mr for @pgsz_bitmap; 0 or -errno. */
static inline int dma_map(int fd, __u32 mr, __u64 pgsz_bitmap, struct dma_map *m)
{
	struct ioc c;

	memset(m, 0xa5, sizeof(*m));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, OVBTEST_METHOD_MR_DMA_MAP);
	ioc_obj(&c, OVBTEST_ATTR_MR_DMA_MAP_HANDLE, mr);
	ioc_in(&c, OVBTEST_ATTR_MR_DMA_MAP_PGSZ, &pgsz_bitmap,
	       sizeof(pgsz_bitmap));
	ioc_out(&c, OVBTEST_ATTR_MR_DMA_MAP_OUT, &m->info, sizeof(m->info));
	ioc_out(&c, OVBTEST_ATTR_MR_DMA_MAP_SEGS, m->segs, sizeof(m->segs));
	ioc_out(&c, OVBTEST_ATTR_MR_DMA_MAP_BLOCKS, m->blocks,
		sizeof(m->blocks));
	return ioc_call(fd, &c);
}

/* REG_MR of [@addr, @addr + @len) with the device address @iova. */
static inline int reg_mr_at(int fd, __u32 pd, void *addr, size_t len, __u64 iova)
{
	struct ib_uverbs_reg_mr_resp resp;
	int ret = ovbtest_reg_mr_at(fd, pd, addr, len, iova,
				    IB_UVERBS_ACCESS_LOCAL_WRITE, &resp);

	return ret ?: (int)resp.mr_handle;
}

/* The physical address of the page at @va (present, root); 0 if unknown. */
static inline __u64 phys(const void *va)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	__u64 e = 0;

	if (fd < 0)
		return 0;
	if (pread(fd, &e, sizeof(e), (uintptr_t)va / PG * sizeof(e)) != sizeof(e))
		e = 0;
	close(fd);
	if (!(e >> 63))
		return 0;
	return (e & ((1ULL << 55) - 1)) * PG;
}

/* The DMA address the segments give to byte @off of the umem's first page. */
static inline __u64 seg_addr(const struct dma_map *m, __u64 off)
{
	__u32 i;

	for (i = 0; i < m->info.num_segs && i < MAX_SEGS; i++) {
		if (off < m->segs[i].len)
			return m->segs[i].addr + off;
		off -= m->segs[i].len;
	}
	return ~0ULL;
}

/* @n pages of anonymous memory, each written; MAP_FAILED on failure. */
static inline char *touched(size_t n)
{
	char *p = mmap(NULL, n * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	for (i = 0; p != MAP_FAILED && i < n; i++)
		p[i * PG] = (char)i;
	return p;
}

/*
 * The sub-page tests' start: two written pages (returned; their physical
 * addresses in *@p0 and *@p1) and three MRs at their virtual addresses,
 * *@a and *@c on the same 200 bytes of the first page, *@b on 2000 bytes
 * across both.  Asserts each step (the harness jumps out of the test).
 */
static inline char *sub_page_mrs(struct __test_metadata *_metadata, int fd,
				 __u32 pd, __u64 *p0, __u64 *p1,
				 int *a, int *b, int *c)
{
	char *p = touched(2);

	ASSERT_NE(MAP_FAILED, p);
	*p0 = phys(p);
	*p1 = phys(p + PG);
	ASSERT_NE(0, *p0);
	*a = reg_mr_at(fd, pd, p + 100, 200, (uintptr_t)p + 100);
	*b = reg_mr_at(fd, pd, p + 3000, 2000, (uintptr_t)p + 3000);
	*c = reg_mr_at(fd, pd, p + 100, 200, (uintptr_t)p + 100);
	ASSERT_LE(0, *a);
	ASSERT_LE(0, *b);
	ASSERT_LE(0, *c);
	return p;
}

/*
 * @n written pages, every other one of 2 * @n (mremap() moves pages, not
 * their contents): whether the allocator handed the 2 * @n out in rising
 * or falling order, no page follows its predecessor in physical memory.
 */
static inline char *every_other(size_t n)
{
	char *a = touched(2 * n), *b;
	size_t i;

	if (a == MAP_FAILED)
		return a;
	b = mmap(NULL, n * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; b != MAP_FAILED && i < n; i++)
		if (mremap(a + 2 * i * PG, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED,
			   b + i * PG) == MAP_FAILED)
			return MAP_FAILED;
	munmap(a, 2 * n * PG);
	return b;
}

#endif /* OVBTEST_DMA_MAP_H */
