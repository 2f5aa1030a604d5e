// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CQ moderation and CQ create flags on a driver that has them, as mlx4,
 * mlx5, hns (EX_MODIFY_CQ) and mlx4, mlx5, irdma (flags) do: the test HCA
 * (selftests/ovbtest/cq_mod.c) bounds moderation by the cq_moderation_caps
 * it reports in EX_QUERY_DEVICE and shows the last values it got in its
 * cq_moderation module parameter; its CQ response reports the create
 * flags it was handed.  Checked: values reach the driver unchanged (by
 * write() and INVOKE_WRITE), the core's refusals of a bad EX_MODIFY_CQ
 * before the driver (attr_mask, reserved, handle; a short request is
 * zero-extended), the
 * driver's EINVAL past its caps; TIMESTAMP_COMPLETION and IGNORE_OVERRUN
 * taken by EX_CREATE_CQ and by CQ_CREATE, an unknown flag refused by the
 * driver (EOPNOTSUPP) on write() and by the core (EINVAL) on ioctl.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

#define MOD_PARAM	"/sys/module/" HCA_MODULE "/parameters/cq_moderation"
#define CQ_MODERATE	1	/* enum ib_cq_attr_mask */
#define TS		IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION
#define OVERRUN		IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN

/* The driver's last moderation: cqe, count, period; 0 or -1. */
static int mod_last(unsigned int v[3])
{
	char buf[64] = "";
	int fd = open(MOD_PARAM, O_RDONLY | O_CLOEXEC), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || sscanf(buf, "%u %u %u", &v[0], &v[1], &v[2]) != 3)
		return -1;
	return 0;
}

static int modify_cq(int fd, __u32 cq, __u32 mask, __u16 count,
		     __u16 period, __u32 reserved, size_t len)
{
	struct ib_uverbs_ex_modify_cq req = {
		.cq_handle = cq,
		.attr_mask = mask,
		.attr = { .cq_count = count, .cq_period = period },
		.reserved = reserved,
	};
	ssize_t ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_MODIFY_CQ, &req,
				 len, 0, NULL, 0, 0);

	return ret < 0 ? (int)ret : 0;
}

/* EX_CREATE_CQ by write() with @flags; the handle or -errno, drv resp. */
static int ex_create_cq(int fd, __u32 cqe, __u32 flags,
			struct ovbtest_create_cq_resp *drv)
{
	struct {
		struct ib_uverbs_ex_create_cq_resp core;
		struct ovbtest_create_cq_resp drv;
	} resp;
	struct ib_uverbs_ex_create_cq req = {
		.user_handle = 5,
		.cqe = cqe,
		.comp_channel = -1,
		.flags = flags,
	};
	ssize_t ret;

	memset(&resp, 0xa5, sizeof(resp));
	ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_CREATE_CQ, &req, sizeof(req),
			 0, &resp, sizeof(resp.core), sizeof(resp.drv));
	*drv = resp.drv;
	return ret < 0 ? (int)ret : (int)resp.core.base.cq_handle;
}

/* CQ_CREATE by ioctl with @flags; the handle or -errno, drv resp. */
static int ioctl_cq(int fd, __u32 cqe, __u64 flags,
		    struct ovbtest_create_cq_resp *drv)
{
	__u32 real_cqe = 0;
	struct ioc c;
	int ret;

	memset(drv, 0xa5, sizeof(*drv));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_CQE, &cqe, sizeof(cqe));
	ioc_const(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 6);
	ioc_const(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0)->len = 4;
	ioc_const(&c, UVERBS_ATTR_CREATE_CQ_FLAGS, flags);
	ioc_out(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &real_cqe,
		sizeof(real_cqe));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, drv, sizeof(*drv));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

FIXTURE(cq_mod) {
	int fd, pd, cq;
	char ioctl_abi;
	struct ib_uverbs_ex_query_device_resp dev;
};

FIXTURE_SETUP(cq_mod)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ib_uverbs_create_cq_resp cq = {};

	self->fd = -1;
	self->ioctl_abi = 0;
	HCA_SETUP_LOAD();
	self->ioctl_abi = ioctl_abi_on();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	/* an odd size, to know the CQ in the driver's report */
	ASSERT_EQ(0, raw_create_cq(self->fd, 37, 0, -1, 1, &cq));
	self->cq = cq.cq_handle;
	ASSERT_EQ(0, raw_query_device_ex(self->fd, &self->dev));
}

FIXTURE_TEARDOWN(cq_mod)
{
	if (self->fd >= 0)
		close(self->fd);
	ioctl_abi_restore(self->ioctl_abi);
}

/* The device's caps travel through EX_QUERY_DEVICE as the driver set them. */
TEST_F(cq_mod, caps)
{
	EXPECT_EQ(OVBTEST_MAX_CQ_MOD_COUNT,
		  self->dev.cq_moderation_caps.max_cq_moderation_count);
	EXPECT_EQ(OVBTEST_MAX_CQ_MOD_PERIOD,
		  self->dev.cq_moderation_caps.max_cq_moderation_period);
}

/* Values reach the driver unchanged, up to the caps included. */
TEST_F(cq_mod, reaches_driver)
{
	__u16 mc = self->dev.cq_moderation_caps.max_cq_moderation_count;
	__u16 mp = self->dev.cq_moderation_caps.max_cq_moderation_period;
	unsigned int v[3];

	ASSERT_EQ(0, modify_cq(self->fd, self->cq, CQ_MODERATE, 7, 300, 0,
			       sizeof(struct ib_uverbs_ex_modify_cq)));
	ASSERT_EQ(0, mod_last(v));
	EXPECT_EQ(37, v[0]);
	EXPECT_EQ(7, v[1]);
	EXPECT_EQ(300, v[2]);
	ASSERT_EQ(0, modify_cq(self->fd, self->cq, CQ_MODERATE, mc, mp, 0,
			       sizeof(struct ib_uverbs_ex_modify_cq)));
	ASSERT_EQ(0, mod_last(v));
	EXPECT_EQ(mc, v[1]);
	EXPECT_EQ(mp, v[2]);
	/* past the caps: the driver's EINVAL, nothing kept */
	EXPECT_EQ(-EINVAL, modify_cq(self->fd, self->cq, CQ_MODERATE, mc + 1,
				     1, 0, sizeof(struct ib_uverbs_ex_modify_cq)));
	EXPECT_EQ(-EINVAL, modify_cq(self->fd, self->cq, CQ_MODERATE, 1,
				     mp + 1, 0,
				     sizeof(struct ib_uverbs_ex_modify_cq)));
	ASSERT_EQ(0, mod_last(v));
	EXPECT_EQ(mc, v[1]);
	EXPECT_EQ(mp, v[2]);
}

/* The core's refusals, before the driver sees anything. */
TEST_F(cq_mod, core_refusals)
{
	size_t len = sizeof(struct ib_uverbs_ex_modify_cq);
	unsigned int v[3];

	ASSERT_EQ(0, modify_cq(self->fd, self->cq, CQ_MODERATE, 3, 4, 0, len));
	EXPECT_EQ(-EINVAL, modify_cq(self->fd, self->cq, 0, 5, 6, 0, len));
	EXPECT_EQ(-EOPNOTSUPP,
		  modify_cq(self->fd, self->cq, CQ_MODERATE << 1, 5, 6, 0, len));
	EXPECT_EQ(-EOPNOTSUPP,
		  modify_cq(self->fd, self->cq, CQ_MODERATE | 2, 5, 6, 0, len));
	EXPECT_EQ(-EINVAL,
		  modify_cq(self->fd, self->cq, CQ_MODERATE, 5, 6, 1, len));
	EXPECT_EQ(-ENOENT,
		  modify_cq(self->fd, self->cq + 100, CQ_MODERATE, 5, 6, 0, len));
	ASSERT_EQ(0, mod_last(v));
	EXPECT_EQ(3, v[1]);
	EXPECT_EQ(4, v[2]);
	/*
	 * A request cut after attr_mask is taken, zero-extended: the driver
	 * gets count and period 0.  6.1's uverbs_uapi.c records no minimum
	 * size for extended write() commands, so verify_hdr()'s ENOSPC never
	 * applies to them; uverbs_request() zero-extends.
	 */
	EXPECT_EQ(0,
		  modify_cq(self->fd, self->cq, CQ_MODERATE, 5, 6, 0, len - 8));
	ASSERT_EQ(0, mod_last(v));
	EXPECT_EQ(37, v[0]);
	EXPECT_EQ(0, v[1]);
	EXPECT_EQ(0, v[2]);
}

/* EX_MODIFY_CQ through INVOKE_WRITE. */
TEST_F(cq_mod, invoke_write)
{
	struct ib_uverbs_ex_modify_cq req = {
		.cq_handle = self->cq,
		.attr_mask = CQ_MODERATE,
		.attr = { .cq_count = 11, .cq_period = 12 },
	};
	unsigned int v[3];
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	ioc_const(&c, UVERBS_ATTR_WRITE_CMD, IB_USER_VERBS_CMD_FLAG_EXTENDED |
		  IB_USER_VERBS_EX_CMD_MODIFY_CQ);
	ioc_in(&c, UVERBS_ATTR_CORE_IN, &req, sizeof(req));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	ASSERT_EQ(0, mod_last(v));
	EXPECT_EQ(37, v[0]);
	EXPECT_EQ(11, v[1]);
	EXPECT_EQ(12, v[2]);
}

/* EX_CREATE_CQ: the two flags reach the driver, an unknown one it refuses. */
TEST_F(cq_mod, create_flags_write)
{
	__u32 flags[] = { TS, OVERRUN, TS | OVERRUN };
	struct ovbtest_create_cq_resp drv;
	unsigned int i;
	int h;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		h = ex_create_cq(self->fd, 8, flags[i], &drv);
		ASSERT_LE(0, h);
		EXPECT_EQ(flags[i], drv.flags);
		EXPECT_EQ(8, drv.cqe);
		EXPECT_EQ(0, raw_destroy_cq(self->fd, h, NULL));
	}
	EXPECT_EQ(-EOPNOTSUPP, ex_create_cq(self->fd, 8, 1 << 2, &drv));
	EXPECT_EQ(-EOPNOTSUPP, ex_create_cq(self->fd, 8, TS | 1u << 31, &drv));
}

/* CQ_CREATE: the flags reach the driver; the core refuses unknown ones. */
TEST_F(cq_mod, create_flags_ioctl)
{
	struct ovbtest_create_cq_resp drv;
	int h;

	h = ioctl_cq(self->fd, 9, TS | OVERRUN, &drv);
	ASSERT_LE(0, h);
	EXPECT_EQ(TS | OVERRUN, drv.flags);
	EXPECT_EQ(9, drv.cqe);
	EXPECT_EQ(0, raw_destroy_cq(self->fd, h, NULL));
	h = ioctl_cq(self->fd, 9, 0, &drv);
	ASSERT_LE(0, h);
	EXPECT_EQ(0, drv.flags);
	EXPECT_EQ(0, raw_destroy_cq(self->fd, h, NULL));
	EXPECT_EQ(-EINVAL, ioctl_cq(self->fd, 9, 1 << 2, &drv));
}

OVBTEST_UNLOAD_FIXTURE(MOD_PARAM)

TEST_HARNESS_MAIN
