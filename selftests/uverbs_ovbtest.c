// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Driver-defined uverbs methods end to end: the test HCA driver
 * (selftests/ovbtest/, ovbtest.ko) adds an object with CREATE/QUERY/DESTROY/
 * COPY methods, a method on the DEVICE object and an attribute on
 * CQ_CREATE, in the public <rdma/uverbs_ioctl.h> format.  Each case calls
 * them with raw RDMA_VERBS_IOCTL and expects what the in-tree 6.1
 * ib_uverbs answers (the same module binary loads on both stacks).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

#define MR_LEN	(64 * 1024)
#define RW	(IB_UVERBS_ACCESS_LOCAL_WRITE)

FIXTURE(ovbtest) {
	int fd;
	int pd;
	struct ovbtest_alloc_ucontext_resp uctx;
	char *src, *dst;
	int src_mr, dst_mr;
};

/* Loads the driver, opens its device, a context, a PD and two MRs. */
FIXTURE_SETUP(ovbtest)
{

	self->fd = -1;
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &self->uctx, self->pd);

	self->src = mmap(NULL, MR_LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	self->dst = mmap(NULL, MR_LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->src);
	ASSERT_NE(MAP_FAILED, self->dst);
	for (int i = 0; i < MR_LEN; i++)
		self->src[i] = (char)(i * 7 + 3);
	memset(self->dst, 0, MR_LEN);
	self->src_mr = ovbtest_reg_mr(self->fd, self->pd, self->src, MR_LEN, 0);
	self->dst_mr = ovbtest_reg_mr(self->fd, self->pd, self->dst, MR_LEN, RW);
	ASSERT_LE(0, self->src_mr);
	ASSERT_LE(0, self->dst_mr);
}

FIXTURE_TEARDOWN(ovbtest)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(ovbtest, get_context_carries_driver_response)
{
	EXPECT_EQ(OVBTEST_MAGIC, self->uctx.magic);
	EXPECT_NE(self->uctx.counters_offset, self->uctx.doorbell_offset);
	EXPECT_EQ(0, self->uctx.counters_offset % getpagesize());
}

TEST_F(ovbtest, device_info_is_a_driver_method_of_device)
{
	struct ovbtest_device_info info = {};
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, OVBTEST_METHOD_DEVICE_INFO);
	ioc_out(&c, OVBTEST_ATTR_DEVICE_INFO, &info, sizeof(info));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_TRUE(c.attrs[0].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	EXPECT_EQ(OVBTEST_MAGIC, info.magic);
	EXPECT_EQ(self->uctx.counters_offset, info.counters_offset);
	EXPECT_EQ(self->uctx.doorbell_offset, info.doorbell_offset);
	EXPECT_LE(1, info.contexts);
	EXPECT_LE(1, info.pds);
	EXPECT_LE(2, info.mrs);

	/* shorter than the minimum (up to .qps) / mandatory missing */
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, OVBTEST_METHOD_DEVICE_INFO);
	ioc_out(&c, OVBTEST_ATTR_DEVICE_INFO, &info, 8);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, OVBTEST_METHOD_DEVICE_INFO);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* the next method id of the driver namespace does not exist */
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, OVBTEST_METHOD_DEVICE_INFO + 1);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
	/* another driver's id */
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, OVBTEST_METHOD_DEVICE_INFO);
	ioc_out(&c, OVBTEST_ATTR_DEVICE_INFO, &info, sizeof(info));
	c.hdr.driver_id = RDMA_DRIVER_RXE;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(ovbtest, device_info_needs_a_context)
{
	struct ovbtest_device_info info;
	char path[PATH_MAX];
	int fd;

	ASSERT_EQ(0, ovbtest_dev_path(path, sizeof(path), 0));
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, ovbtest_device_info(fd, &info));
	close(fd);
}

TEST_F(ovbtest, chan_create_query_destroy)
{
	struct ovbtest_chan_create_resp resp = {};
	struct ovbtest_chan_create_req req = { .cookie = 0x1122334455667788ULL };
	struct ovbtest_chan_stats st, fin;
	__u32 depth = 16, id = 0;
	struct ioc c;
	int chan;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_CREATE_HANDLE, 0);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_CREATE_PD, self->pd);
	ioc_in(&c, OVBTEST_ATTR_CHAN_CREATE_DEPTH, &depth, sizeof(depth));
	ioc_out(&c, OVBTEST_ATTR_CHAN_CREATE_ID, &id, sizeof(id));
	ioc_in(&c, UVERBS_ATTR_UHW_IN, &req, sizeof(req));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, &resp, sizeof(resp));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	chan = c.attrs[0].data;
	EXPECT_TRUE(c.attrs[3].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	EXPECT_TRUE(c.attrs[5].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	EXPECT_EQ(req.cookie, resp.cookie);
	EXPECT_EQ(id, resp.id);
	EXPECT_NE(0, id);

	memset(&st, 0xff, sizeof(st));
	ASSERT_EQ(0, ovbtest_chan_query(self->fd, chan, &st));
	EXPECT_EQ(0, st.copies);
	EXPECT_EQ(0, st.bytes);
	EXPECT_EQ(id, st.id);
	EXPECT_EQ(16, st.depth);

	/* The channel holds its PD. */
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));

	ASSERT_EQ(0, ovbtest_copy(self->fd, chan, self->src_mr, 0, self->dst_mr, 0,
			      100, NULL));
	memset(&fin, 0, sizeof(fin));
	ASSERT_EQ(0, ovbtest_chan_destroy(self->fd, chan, &fin));
	EXPECT_EQ(1, fin.copies);
	EXPECT_EQ(100, fin.bytes);
	EXPECT_EQ(id, fin.id);
	EXPECT_EQ(-ENOENT, ovbtest_chan_query(self->fd, chan, &st));
	EXPECT_EQ(-ENOENT, ovbtest_chan_destroy(self->fd, chan, NULL));
}

TEST_F(ovbtest, chan_create_checks)
{
	__u32 depth = 4;
	__u64 big = 4;
	struct ioc c;

	EXPECT_EQ(-EINVAL, ovbtest_chan_create(self->fd, self->pd, 0, NULL));
	EXPECT_EQ(-EINVAL, ovbtest_chan_create(self->fd, self->pd, 5000, NULL));
	/* a PD handle that is an MR: another object type */
	EXPECT_EQ(-EINVAL, ovbtest_chan_create(self->fd, self->src_mr, 4, NULL));
	EXPECT_EQ(-ENOENT, ovbtest_chan_create(self->fd, 999, 4, NULL));

	/* the PD is mandatory */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_CREATE_HANDLE, 0);
	ioc_in(&c, OVBTEST_ATTR_CHAN_CREATE_DEPTH, &depth, sizeof(depth));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* the depth is a u32 exactly */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_CREATE_HANDLE, 0);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_CREATE_PD, self->pd);
	ioc_in(&c, OVBTEST_ATTR_CHAN_CREATE_DEPTH, &big, sizeof(big));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* an unknown driver attribute: ignored, unless mandatory */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_CREATE_HANDLE, 0);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_CREATE_PD, self->pd);
	ioc_in(&c, OVBTEST_ATTR_CHAN_CREATE_DEPTH, &depth, sizeof(depth));
	ioc_const(&c, OVBTEST_ATTR_CHAN_CREATE_ID + 10, 1);
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(0, ovbtest_chan_destroy(self->fd, c.attrs[0].data, NULL));
	c.attrs[3].flags = UVERBS_ATTR_F_MANDATORY;
	c.attrs[0].data = 0;
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
	/* a method of the driver's object that does not exist */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_COPY + 1);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
	/* a driver object id the driver does not define (see ovbtest-abi.h) */
	ovbtest_ioc_init(&c, OVBTEST_NS + 9, OVBTEST_METHOD_CHAN_CREATE);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
}

TEST_F(ovbtest, copy_moves_bytes_and_counts)
{
	const struct ovbtest_counters *ctr;
	__u64 seq = 0;
	int chan;

	chan = ovbtest_chan_create(self->fd, self->pd, 8, NULL);
	ASSERT_LE(0, chan);
	ctr = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd,
		   self->uctx.counters_offset);
	ASSERT_NE(MAP_FAILED, ctr);
	EXPECT_EQ(OVBTEST_MAGIC, ctr->magic);
	EXPECT_EQ(0, ctr->completions);

	/* across page boundaries, at odd offsets */
	ASSERT_EQ(0, ovbtest_copy(self->fd, chan, self->src_mr, 1000,
			      self->dst_mr, 3001, 20000, &seq));
	EXPECT_EQ(1, seq);
	EXPECT_EQ(0, memcmp(self->src + 1000, self->dst + 3001, 20000));
	EXPECT_EQ(0, self->dst[3000]);
	EXPECT_EQ(0, self->dst[3001 + 20000]);
	/* the whole MR, and a zero-length copy */
	ASSERT_EQ(0, ovbtest_copy(self->fd, chan, self->src_mr, 0, self->dst_mr, 0,
			      MR_LEN, &seq));
	EXPECT_EQ(2, seq);
	EXPECT_EQ(0, memcmp(self->src, self->dst, MR_LEN));
	ASSERT_EQ(0, ovbtest_copy(self->fd, chan, self->src_mr, MR_LEN,
			      self->dst_mr, MR_LEN, 0, &seq));
	EXPECT_EQ(3, seq);
	/* the driver bumped the counters page */
	EXPECT_EQ(3, ctr->completions);
	EXPECT_EQ(20000 + MR_LEN, ctr->bytes);
	munmap((void *)ctr, getpagesize());
	EXPECT_EQ(0, ovbtest_chan_destroy(self->fd, chan, NULL));
}

/* ---------------------------- core methods over optional driver operations */

static int dm_alloc(int fd, __u64 length, __u32 alignment)
{
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	ioc_obj(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, &length, sizeof(length));
	ioc_in(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, &alignment, sizeof(alignment));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

static int destroy(int fd, __u16 object, __u16 method, __u16 attr, __u32 h)
{
	struct ioc c;

	ovbtest_ioc_init(&c, object, method);
	ioc_obj(&c, attr, h);
	return ioc_call(fd, &c);
}

static int dm_mr_reg(int fd, __u32 pd, __u32 dm, __u64 offset, __u64 length,
		     __u32 access, __u32 *lkey)
{
	__u32 rkey;
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG);
	ioc_obj(&c, UVERBS_ATTR_REG_DM_MR_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_REG_DM_MR_OFFSET, &offset, sizeof(offset));
	ioc_in(&c, UVERBS_ATTR_REG_DM_MR_LENGTH, &length, sizeof(length));
	ioc_obj(&c, UVERBS_ATTR_REG_DM_MR_PD_HANDLE, pd);
	ioc_const(&c, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, access);
	ioc_obj(&c, UVERBS_ATTR_REG_DM_MR_DM_HANDLE, dm);
	ioc_out(&c, UVERBS_ATTR_REG_DM_MR_RESP_LKEY, lkey, sizeof(*lkey));
	ioc_out(&c, UVERBS_ATTR_REG_DM_MR_RESP_RKEY, &rkey, sizeof(rkey));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

TEST_F(ovbtest, device_memory_and_its_mrs)
{
	__u32 lkey = 0;
	int chan;
	int dm, mr;

	EXPECT_EQ(-EINVAL, dm_alloc(self->fd, 0, 0));		/* driver */
	EXPECT_EQ(-EINVAL, dm_alloc(self->fd, 1 << 20, 0));	/* driver */
	dm = dm_alloc(self->fd, 8192, 6);
	ASSERT_LE(0, dm);

	/* device memory has no address: only zero-based MRs */
	EXPECT_EQ(-EINVAL, dm_mr_reg(self->fd, self->pd, dm, 0, 4096,
				     IB_UVERBS_ACCESS_LOCAL_WRITE, &lkey));
	EXPECT_EQ(-EINVAL, dm_mr_reg(self->fd, self->pd, dm, 4096, 4097,
				     IB_UVERBS_ACCESS_ZERO_BASED, &lkey));
	EXPECT_EQ(-EINVAL, dm_mr_reg(self->fd, self->pd, dm, 8193, 0,
				     IB_UVERBS_ACCESS_ZERO_BASED, &lkey));
	/* remote write without local write */
	EXPECT_EQ(-EINVAL, dm_mr_reg(self->fd, self->pd, dm, 0, 4096,
				     IB_UVERBS_ACCESS_ZERO_BASED |
				     IB_UVERBS_ACCESS_REMOTE_WRITE, &lkey));
	mr = dm_mr_reg(self->fd, self->pd, dm, 4096, 4096,
		       IB_UVERBS_ACCESS_ZERO_BASED |
		       IB_UVERBS_ACCESS_LOCAL_WRITE, &lkey);
	ASSERT_LE(0, mr);
	EXPECT_NE(0, lkey);

	/* device memory has no pages: the copy channel refuses its MRs */
	chan = ovbtest_chan_create(self->fd, self->pd, 4, NULL);
	ASSERT_LE(0, chan);
	EXPECT_EQ(-EINVAL, ovbtest_copy(self->fd, chan, mr, 0, self->dst_mr, 0,
					16, NULL));
	EXPECT_EQ(-EINVAL, ovbtest_copy(self->fd, chan, self->src_mr, 0, mr, 0,
					16, NULL));
	EXPECT_EQ(0, ovbtest_chan_destroy(self->fd, chan, NULL));

	/* the MR holds the DM and the PD */
	EXPECT_EQ(-EBUSY, destroy(self->fd, UVERBS_OBJECT_DM,
				  UVERBS_METHOD_DM_FREE,
				  UVERBS_ATTR_FREE_DM_HANDLE, dm));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	EXPECT_EQ(0, destroy(self->fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE,
			     UVERBS_ATTR_FREE_DM_HANDLE, dm));
	EXPECT_EQ(-ENOENT, destroy(self->fd, UVERBS_OBJECT_DM,
				   UVERBS_METHOD_DM_FREE,
				   UVERBS_ATTR_FREE_DM_HANDLE, dm));
	/* one left alive goes with the file (the unload checks the count) */
	ASSERT_LE(0, dm_alloc(self->fd, 4096, 0));
}

static int advise(int fd, __u32 pd, __u32 advice, __u32 flags,
		  const struct ib_uverbs_sge *sge, int nsge)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR);
	ioc_obj(&c, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, pd);
	ioc_const(&c, UVERBS_ATTR_ADVISE_MR_ADVICE, advice);
	ioc_const(&c, UVERBS_ATTR_ADVISE_MR_FLAGS, flags);
	ioc_in(&c, UVERBS_ATTR_ADVISE_MR_SGE_LIST, sge, nsge * sizeof(*sge));
	return ioc_call(fd, &c);
}

TEST_F(ovbtest, advise_mr_reaches_the_driver)
{
	struct ib_uverbs_sge sge[5];
	int i;

	for (i = 0; i < 5; i++)
		sge[i] = (struct ib_uverbs_sge){ .addr = (uintptr_t)self->src,
						 .length = 4096, .lkey = 1 };
	EXPECT_EQ(0, advise(self->fd, self->pd,
			    IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE,
			    IB_UVERBS_ADVISE_MR_FLAG_FLUSH, sge, 4));
	/* the driver's own limits: 4 ranges, no empty range */
	EXPECT_EQ(-EINVAL, advise(self->fd, self->pd,
				  IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH, 0, sge, 5));
	sge[1].length = 0;
	EXPECT_EQ(-EINVAL, advise(self->fd, self->pd,
				  IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH, 0, sge, 2));
	/* the core's: flags it does not know, an advice out of the enum */
	EXPECT_EQ(-EINVAL, advise(self->fd, self->pd,
				  IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH, 2, sge, 1));
	EXPECT_EQ(-EOPNOTSUPP, advise(self->fd, self->pd, 7, 0, sge, 1));
}

TEST_F(ovbtest, counters_create_read_destroy)
{
	__u64 values[4];
	struct ioc c;
	int h;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_CREATE);
	ioc_obj(&c, UVERBS_ATTR_CREATE_COUNTERS_HANDLE, 0);
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	h = c.attrs[0].data;

	/* nothing is bound to them: the core refuses to read */
	ovbtest_ioc_init(&c, UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_READ);
	ioc_obj(&c, UVERBS_ATTR_READ_COUNTERS_HANDLE, h);
	ioc_out(&c, UVERBS_ATTR_READ_COUNTERS_BUFF, values, sizeof(values));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));

	EXPECT_EQ(0, destroy(self->fd, UVERBS_OBJECT_COUNTERS,
			     UVERBS_METHOD_COUNTERS_DESTROY,
			     UVERBS_ATTR_DESTROY_COUNTERS_HANDLE, h));
	EXPECT_EQ(-ENOENT, destroy(self->fd, UVERBS_OBJECT_COUNTERS,
				   UVERBS_METHOD_COUNTERS_DESTROY,
				   UVERBS_ATTR_DESTROY_COUNTERS_HANDLE, h));
}

TEST_F(ovbtest, copy_checks)
{
	struct ovbtest_copy_desc desc = { .length = 8 };
	int chan, pd2, mr2, ro;
	struct ioc c;

	chan = ovbtest_chan_create(self->fd, self->pd, 8, NULL);
	ASSERT_LE(0, chan);
	/* outside either MR */
	EXPECT_EQ(-ERANGE, ovbtest_copy(self->fd, chan, self->src_mr, MR_LEN - 4,
				    self->dst_mr, 0, 8, NULL));
	EXPECT_EQ(-ERANGE, ovbtest_copy(self->fd, chan, self->src_mr, 0,
				    self->dst_mr, ~0ULL, 8, NULL));
	/* the destination is read-only */
	EXPECT_EQ(-EACCES, ovbtest_copy(self->fd, chan, self->dst_mr, 0,
				    self->src_mr, 0, 8, NULL));
	EXPECT_EQ(-EINVAL, ovbtest_copy(self->fd, chan, self->src_mr, 0,
				    self->dst_mr, 0, OVBTEST_COPY_MAX + 1, NULL));
	/* an MR of another PD */
	pd2 = raw_alloc_pd(self->fd);
	ASSERT_LE(0, pd2);
	mr2 = ovbtest_reg_mr(self->fd, pd2, self->dst, MR_LEN, RW);
	ASSERT_LE(0, mr2);
	EXPECT_EQ(-EINVAL, ovbtest_copy(self->fd, chan, self->src_mr, 0, mr2, 0, 8,
				    NULL));
	/* handles of the wrong type, or of nothing */
	EXPECT_EQ(-EINVAL, ovbtest_copy(self->fd, self->src_mr, self->src_mr, 0,
				    self->dst_mr, 0, 8, NULL));
	EXPECT_EQ(-EINVAL, ovbtest_copy(self->fd, chan, chan, 0, self->dst_mr, 0,
				    8, NULL));
	EXPECT_EQ(-ENOENT, ovbtest_copy(self->fd, chan, 1000, 0, self->dst_mr, 0,
				    8, NULL));
	/* flags must be 0 */
	desc.flags = 1;
	ovbtest_copy_call(&c, chan, self->src_mr, self->dst_mr, &desc, NULL);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* the descriptor: exact size, mandatory, readable */
	desc.flags = 0;
	ovbtest_copy_call(&c, chan, self->src_mr, self->dst_mr, &desc, NULL);
	c.attrs[3].len = sizeof(desc) - 8;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	c.attrs[3].len = sizeof(desc) + 8;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	c.attrs[3].len = sizeof(desc);
	c.attrs[3].data = 8;
	EXPECT_EQ(-EFAULT, ioc_call(self->fd, &c));
	c.hdr.num_attrs = 3;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* an unwritable SEQ fails after the copy was made */
	ovbtest_copy_call(&c, chan, self->src_mr, self->dst_mr, &desc,
		      (__u64 *)8);
	EXPECT_EQ(-EFAULT, ioc_call(self->fd, &c));

	/* a read-only MR may be a source */
	ro = ovbtest_reg_mr(self->fd, self->pd, self->src, MR_LEN, 0);
	ASSERT_LE(0, ro);
	EXPECT_EQ(0, ovbtest_copy(self->fd, chan, ro, 0, self->dst_mr, 0, 8, NULL));
	EXPECT_EQ(0, ovbtest_chan_destroy(self->fd, chan, NULL));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr2));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd2));
}

/* The driver's attribute on the standard CQ_CREATE, and its udata. */
TEST_F(ovbtest, cq_create_driver_attribute)
{
	struct ovbtest_create_cq_resp resp = {};
	__u32 tag = 0xabcd1234, cqe = 32;
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_CQE, &cqe, sizeof(cqe));
	ioc_const(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 7);
	ioc_const(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0)->len = 4;
	ioc_out(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cqe, sizeof(cqe));
	ioc_in(&c, OVBTEST_ATTR_CQ_CREATE_TAG, &tag, sizeof(tag));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, &resp, sizeof(resp));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(tag, resp.tag);
	EXPECT_EQ(32, resp.cqe);
	EXPECT_TRUE(c.attrs[6].flags & UVERBS_ATTR_F_VALID_OUTPUT);

	/* the tag is a u32 exactly */
	c.attrs[0].data = 0;
	c.attrs[5].len = 2;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));

	/* without the tag */
	memset(&resp, 0xff, sizeof(resp));
	c.hdr.num_attrs = 5;
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, &resp, sizeof(resp));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(0, resp.tag);
	EXPECT_EQ(32, resp.cqe);
}

TEST_F(ovbtest, mmap_rules)
{
	struct ovbtest_device_info info;
	long pg = getpagesize();
	__u64 *db;
	void *p;

	/* the counters page is never writable */
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 self->uctx.counters_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EPERM, errno);
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, self->fd,
		 self->uctx.counters_offset);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, mprotect(p, pg, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	munmap(p, pg);
	/* private, too long, or no entry */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, pg, PROT_READ, MAP_PRIVATE, self->fd,
				   self->uctx.counters_offset));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED,
				   self->fd, self->uctx.counters_offset));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, pg, PROT_READ, MAP_SHARED, self->fd,
				   self->uctx.doorbell_offset + 64 * pg));
	EXPECT_EQ(EINVAL, errno);

	/* the doorbell page is shared with the driver */
	db = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		  self->uctx.doorbell_offset);
	ASSERT_NE(MAP_FAILED, db);
	*db = 0x5eed;
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &info));
	EXPECT_EQ(0x5eed, info.doorbell_value);
	munmap(db, pg);
}

/*
 * Everything of a file goes with it, on the driver too; a mapping of the
 * file keeps it (and its context) until munmap.
 */
TEST_F(ovbtest, objects_freed_on_close)
{
	struct ovbtest_device_info before, after;
	struct ovbtest_alloc_ucontext_resp uctx;
	char path[PATH_MAX];
	int fd, pd, i;
	void *db;

	ASSERT_EQ(0, ovbtest_device_info(self->fd, &before));
	ASSERT_EQ(0, ovbtest_dev_path(path, sizeof(path), 0));
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ovbtest_get_context(fd, &uctx));
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	for (i = 0; i < 4; i++) {
		ASSERT_LE(0, ovbtest_chan_create(fd, pd, 4, NULL));
		ASSERT_LE(0, ovbtest_reg_mr(fd, pd, self->dst, MR_LEN, RW));
		ASSERT_EQ(0, raw_create_cq(fd, 8, 0, -1, i, NULL));
	}
	ASSERT_EQ(0, ovbtest_device_info(fd, &after));
	EXPECT_EQ(before.contexts + 1, after.contexts);
	EXPECT_EQ(before.pds + 1, after.pds);
	EXPECT_EQ(before.mrs + 4, after.mrs);
	EXPECT_EQ(before.cqs + 4, after.cqs);
	EXPECT_EQ(before.chans + 4, after.chans);

	db = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd,
		  uctx.doorbell_offset);
	ASSERT_NE(MAP_FAILED, db);
	close(fd);
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &after));
	EXPECT_EQ(before.contexts + 1, after.contexts);
	EXPECT_EQ(before.chans + 4, after.chans);
	munmap(db, getpagesize());
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &after));
	EXPECT_EQ(before.contexts, after.contexts);
	EXPECT_EQ(before.pds, after.pds);
	EXPECT_EQ(before.mrs, after.mrs);
	EXPECT_EQ(before.cqs, after.cqs);
	EXPECT_EQ(before.chans, after.chans);
}

/* Last: with nobody attached the driver unloads and loads again. */
FIXTURE(unload) {
};

FIXTURE_SETUP(unload)
{
}

FIXTURE_TEARDOWN(unload)
{
}

TEST_F(unload, module_unloads_and_reloads)
{
	char path[PATH_MAX];

	if (!ovbtest_loaded())
		SKIP(return, "ovbtest not loaded");
	ASSERT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_loaded());
	EXPECT_EQ(-ENOENT, ovbtest_dev_path(path, sizeof(path), 0));
	ASSERT_EQ(0, ovbtest_load());
	ASSERT_EQ(0, ovbtest_dev_path(path, sizeof(path), 5000));
	ASSERT_EQ(0, ovbtest_unload());
}

TEST_HARNESS_MAIN
