/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The ioctl interface of odp_umem_test.ko (/dev/odp_umem_test), shared by
 * the module and selftests/uverbs_odp.c.  One umem per open file.
 */
#ifndef ODP_UMEM_TEST_H
#define ODP_UMEM_TEST_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define ODP_TEST_DEV "/dev/odp_umem_test"

/* Access bits of odp_test_map.access (ODP_READ/WRITE_ALLOWED_BIT). */
#define ODP_TEST_READ	1
#define ODP_TEST_WRITE	2

struct odp_test_reg {
	__u64 addr;
	__u64 length;
	__u32 access;		/* IB_ACCESS_* for the umem */
	__u32 implicit;		/* ib_umem_odp_alloc_implicit() + a child */
};

struct odp_test_map {
	__u64 addr;
	__u64 length;
	__u32 access;		/* ODP_TEST_* asked for */
	__u32 fault;
};

/* Copy through the DMA mapping (virtual DMA: rxe, siw). */
struct odp_test_copy {
	__u64 addr;		/* user address the bytes belong to */
	__u64 length;		/* within one page */
	__u64 buf;		/* user buffer to copy from/to */
};

struct odp_test_state {
	__u64 start;		/* ib_umem_start() */
	__u64 end;		/* ib_umem_end() */
	__u64 npages;		/* umem_odp->npages */
	__u64 invalidations;	/* invalidate callbacks that unmapped */
	__u32 page_shift;
	__u32 readable;		/* mapped pages with ODP_READ_ALLOWED_BIT */
	__u32 writable;		/* mapped pages with ODP_WRITE_ALLOWED_BIT */
	__u32 reserved;
};

#define ODP_TEST_REG		_IOW('O', 1, struct odp_test_reg)
/* Returns ib_umem_odp_map_dma_and_lock()'s result (the lock is dropped). */
#define ODP_TEST_MAP		_IOW('O', 2, struct odp_test_map)
#define ODP_TEST_READ_DMA	_IOW('O', 3, struct odp_test_copy)
#define ODP_TEST_WRITE_DMA	_IOW('O', 4, struct odp_test_copy)
#define ODP_TEST_STATE		_IOR('O', 5, struct odp_test_state)
/* ib_umem_odp_unmap_dma_pages() over [addr, addr + length). */
#define ODP_TEST_UNMAP		_IOW('O', 6, struct odp_test_map)

#endif
