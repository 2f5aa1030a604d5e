/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * dma-buf MRs on the test HCA from user space, for the programs that
 * register them (uverbs_ovbtest_dmabuf, _dmabuf_move, _udmabuf): a buffer
 * of ovbtest's exporter, REG_DMABUF_MR and QUERY_MR by ioctl, the driver's
 * count of live MRs, the kernel's WARN taint, and the byte pattern the
 * COPY method's results are checked against.
 */
#ifndef OVBTEST_DMABUF_H
#define OVBTEST_DMABUF_H

#include <stdio.h>

#include "ovbtest_lib.h"

/* /proc/sys/kernel/tainted's bit for a WARN. */
#define TAINT_WARN	(1UL << 9)

/*
 * DMABUF_ALLOC of ovbtest's exporter (ovbtest_dmabuf.ko): a dma-buf of
 * @npages plain pages; its fd or -errno.  @flags < 0: no FLAGS attribute.
 */
static inline int ovbtest_dmabuf_alloc(int fd, __u32 npages, long flags)
{
	__u32 f = flags;
	__s32 dfd = -1;
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE,
			 OVBTEST_METHOD_DEVICE_DMABUF_ALLOC);
	ioc_in(&c, OVBTEST_ATTR_DMABUF_ALLOC_PAGES, &npages, sizeof(npages));
	if (flags >= 0)
		ioc_in(&c, OVBTEST_ATTR_DMABUF_ALLOC_FLAGS, &f, sizeof(f));
	ioc_out(&c, OVBTEST_ATTR_DMABUF_ALLOC_FD, &dfd, sizeof(dfd));
	ret = ioc_call(fd, &c);
	return ret ? ret : dfd;
}

/* What REG_DMABUF_MR is asked for. */
struct ovbtest_dmabuf_mr {
	__u16 driver_id;	/* the header's; 0: RDMA_DRIVER_UNKNOWN */
	__u32 pd;
	__u64 offset;		/* into the dma-buf */
	__u64 length;
	__u64 iova;
	__s32 dmabuf_fd;
	__u32 access;
	__u32 drv_flags;	/* OVBTEST_ATTR_REG_DMABUF_MR_FLAGS if not 0 */
};

/* REG_DMABUF_MR: the handle or -errno; the keys into @lkey, @rkey (or NULL). */
static inline int ovbtest_reg_dmabuf_mr(int fd,
					const struct ovbtest_dmabuf_mr *mr,
					__u32 *lkey, __u32 *rkey)
{
	__u64 offset = mr->offset, length = mr->length, iova = mr->iova;
	__u32 access = mr->access, df = mr->drv_flags, lk = 0, rk = 0;
	__s32 dfd = mr->dmabuf_fd;
	struct ioc c;
	int ret;

	ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR);
	c.hdr.driver_id = mr->driver_id;
	ioc_obj(&c, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0);
	ioc_obj(&c, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, mr->pd);
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, &offset, sizeof(offset));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, &length, sizeof(length));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_IOVA, &iova, sizeof(iova));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_FD, &dfd, sizeof(dfd));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, &access,
	       sizeof(access));
	if (df)
		ioc_in(&c, OVBTEST_ATTR_REG_DMABUF_MR_FLAGS, &df, sizeof(df));
	ioc_out(&c, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &lk, sizeof(lk));
	ioc_out(&c, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &rk, sizeof(rk));
	ret = ioc_call(fd, &c);
	if (ret)
		return ret;
	if (lkey)
		*lkey = lk;
	if (rkey)
		*rkey = rk;
	return (int)c.attrs[0].data;
}

/* QUERY_MR by ioctl; 0 or -errno. */
static inline int ovbtest_query_mr(int fd, __u32 h, __u32 *lkey, __u32 *rkey,
				   __u64 *len, __u64 *iova)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR);
	ioc_obj(&c, UVERBS_ATTR_QUERY_MR_HANDLE, h);
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_LKEY, lkey, sizeof(*lkey));
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_RKEY, rkey, sizeof(*rkey));
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, len, sizeof(*len));
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_IOVA, iova, sizeof(*iova));
	return ioc_call(fd, &c);
}

/* The test HCA's count of live MRs (its DEVICE_INFO method), or -errno. */
static inline int ovbtest_live_mrs(int fd)
{
	struct ovbtest_device_info info = {};
	int ret = ovbtest_device_info(fd, &info);

	return ret ? ret : (int)info.mrs;
}

/* /proc/sys/kernel/tainted (0 if unreadable). */
static inline unsigned long kernel_tainted(void)
{
	unsigned long t = 0;
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");

	if (f) {
		if (fscanf(f, "%lu", &t) != 1)
			t = 0;
		fclose(f);
	}
	return t;
}

/*
 * The byte pattern of the copies: byte @i of @seed's.  Two seeds differ
 * in every byte, and within one seed neighbouring pages differ, so a
 * byte copied to the wrong place or from the wrong seed shows.
 */
static inline unsigned char pattern_byte(size_t i, unsigned int seed)
{
	return (unsigned char)(i * 13 + seed + (i >> 12) * 5);
}

static inline void pattern_fill(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = pattern_byte(i, seed);
}

/*
 * The first byte of @p[0..len) that is not pattern_fill(@seed)'s byte
 * @from + i, or -1.
 */
static inline long pattern_differs_at(const unsigned char *p, size_t len,
				      size_t from, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != pattern_byte(from + i, seed))
			return i;
	return -1;
}

/* The first byte where @p differs from pattern_fill(@seed), or -1. */
static inline long pattern_differs(const unsigned char *p, size_t len,
				   unsigned int seed)
{
	return pattern_differs_at(p, len, 0, seed);
}

#endif /* OVBTEST_DMABUF_H */
