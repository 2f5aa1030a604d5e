// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues, work queues, RSS indirection tables and flow
 * steering through write().  SRQs are tested in depth on rxe; rxe has no
 * WQs, indirection tables or flows, so for those the test checks the
 * answer a device without them gives (EOPNOTSUPP, as in 6.1).  Every
 * expectation is the in-tree 6.1 module's answer.  The last test runs the
 * SRQ verbs through libibverbs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "kselftest_harness.h"
#include "uverbs_raw.h"

/* enum ib_srq_attr_mask, enum ib_srq_type (kernel values) */
#define SRQ_MAX_WR	1
#define SRQ_LIMIT	2
#define SRQT_BASIC	0
#define SRQT_XRC	1
#define SRQT_TM		2

FIXTURE(srq) {
	int fd;
	int async_fd;
	int pd;
	struct ib_uverbs_query_device_resp dev;
};

FIXTURE_SETUP(srq)
{
	struct ib_uverbs_get_context_resp ctx = {};

	self->async_fd = -1;
	self->fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	if (self->fd < 0 && errno == ENOENT)
		SKIP(return, "%s missing: no RDMA device (run with --hca=rxe)",
		     UVERBS_DEV);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, raw_get_context(self->fd, &ctx));
	self->async_fd = ctx.async_fd;
	ASSERT_EQ(0, raw_query_device(self->fd, &self->dev));
	self->pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, self->pd);
}

FIXTURE_TEARDOWN(srq)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->async_fd >= 0)
		close(self->async_fd);
}

struct srq_out {
	struct ib_uverbs_create_srq_resp core;
	char drv[RAW_DRV_OUT];
};

static int create_srq(int fd, __u32 pd, __u32 max_wr, __u32 max_sge,
		      struct ib_uverbs_create_srq_resp *resp)
{
	struct srq_out out = {};
	struct ib_uverbs_create_srq req = {
		.response = (uintptr_t)&out,
		.user_handle = 0xabc,
		.pd_handle = pd,
		.max_wr = max_wr,
		.max_sge = max_sge,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &req,
			      sizeof(req), sizeof(out));

	if (ret < 0)
		return ret;
	if (resp)
		*resp = out.core;
	return 0;
}

static int create_xsrq(int fd, struct ib_uverbs_create_xsrq *req,
		       struct ib_uverbs_create_srq_resp *resp)
{
	struct srq_out out = {};
	ssize_t ret;

	req->response = (uintptr_t)&out;
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_XSRQ, req, sizeof(*req),
		      sizeof(out));
	if (ret < 0)
		return ret;
	if (resp)
		*resp = out.core;
	return 0;
}

static int is_rxe(void)
{
	return !strncmp(raw_ibdev_name(), "rxe", 3);
}

TEST_F(srq, srq_create_query_modify_destroy)
{
	struct ib_uverbs_destroy_srq_resp dr = { 7 };
	struct ib_uverbs_create_srq_resp srq = {};
	struct ib_uverbs_query_srq_resp q = {};

	if (_metadata->skip)
		return;	/* the fixture setup skipped */

	ASSERT_EQ(0, create_srq(self->fd, self->pd, 16, 1, &srq));
	EXPECT_LE(16, srq.max_wr);
	EXPECT_LE(1, srq.max_sge);
	EXPECT_EQ(0, srq.srqn);	/* only XRC SRQs have a number */

	ASSERT_EQ(0, raw_query_srq(self->fd, srq.srq_handle, &q));
	EXPECT_LE(16, q.max_wr);
	EXPECT_EQ(srq.max_sge, q.max_sge);
	EXPECT_EQ(0, q.srq_limit);

	if (is_rxe()) {
		/* rxe reads an 8-byte request of its own. */
		EXPECT_EQ(-EINVAL, raw_modify_srq(self->fd, srq.srq_handle,
					      SRQ_LIMIT, 0, 4, 0));
		ASSERT_EQ(0, raw_modify_srq(self->fd, srq.srq_handle, SRQ_LIMIT,
					0, 4, 8));
		ASSERT_EQ(0, raw_query_srq(self->fd, srq.srq_handle, &q));
		EXPECT_EQ(4, q.srq_limit);
		/* A limit beyond the queue is the driver's EINVAL. */
		EXPECT_EQ(-EINVAL, raw_modify_srq(self->fd, srq.srq_handle,
					      SRQ_LIMIT, 0, 1u << 30, 8));
	}

	ASSERT_EQ(0, raw_destroy_srq(self->fd, srq.srq_handle, &dr));
	EXPECT_EQ(0, dr.events_reported);
	EXPECT_EQ(-ENOENT, raw_destroy_srq(self->fd, srq.srq_handle, NULL));
	EXPECT_EQ(-ENOENT, raw_query_srq(self->fd, srq.srq_handle, &q));
	EXPECT_EQ(-ENOENT, raw_modify_srq(self->fd, srq.srq_handle, SRQ_LIMIT, 0,
				      1, 8));
}

TEST_F(srq, pd_is_busy_while_an_srq_uses_it)
{
	struct ib_uverbs_create_srq_resp srq;
	int before = raw_res_count("srq");

	if (_metadata->skip)
		return;	/* the fixture setup skipped */

	ASSERT_EQ(0, create_srq(self->fd, self->pd, 8, 1, &srq));
	if (before >= 0)
		EXPECT_EQ(before + 1, raw_res_count("srq"));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));
	ASSERT_EQ(0, raw_destroy_srq(self->fd, srq.srq_handle, NULL));
	if (before >= 0)
		EXPECT_EQ(before, raw_res_count("srq"));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
}

TEST_F(srq, bad_pd_handles)
{
	struct ib_uverbs_create_cq_resp cq;

	if (_metadata->skip)
		return;	/* the fixture setup skipped */

	EXPECT_EQ(-ENOENT, create_srq(self->fd, self->pd + 1000, 8, 1, NULL));
	/* A CQ handle is not a PD handle. */
	ASSERT_EQ(0, raw_create_cq(self->fd, 4, 0, -1, 0, &cq));
	EXPECT_EQ(-EINVAL, create_srq(self->fd, cq.cq_handle, 8, 1, NULL));
	EXPECT_EQ(0, raw_destroy_cq(self->fd, cq.cq_handle, NULL));
}

TEST_F(srq, driver_checks_sizes)
{
	if (_metadata->skip)
		return;	/* the fixture setup skipped */
	if (!is_rxe())
		SKIP(return, "expectation is rxe's (device %s)", raw_ibdev_name());
	EXPECT_EQ(-EINVAL, create_srq(self->fd, self->pd, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, create_srq(self->fd, self->pd,
				      self->dev.max_srq_wr + 1, 1, NULL));
	EXPECT_EQ(-EINVAL, create_srq(self->fd, self->pd, 8,
				      self->dev.max_srq_sge + 1, NULL));
}

TEST_F(srq, xsrq_types)
{
	struct ib_uverbs_create_srq_resp srq;
	struct ib_uverbs_create_cq_resp cq;
	struct ib_uverbs_create_xsrq req = {
		.srq_type = SRQT_BASIC,
		.pd_handle = self->pd,
		.max_wr = 8,
		.max_sge = 1,
	};

	if (_metadata->skip)
		return;	/* the fixture setup skipped */

	if (!is_rxe())
		SKIP(return, "expectation is rxe's (device %s)", raw_ibdev_name());
	ASSERT_EQ(0, create_xsrq(self->fd, &req, &srq));
	EXPECT_EQ(0, raw_destroy_srq(self->fd, srq.srq_handle, NULL));

	/* XRC: any XRCD handle that does not resolve is EINVAL. */
	req.srq_type = SRQT_XRC;
	req.xrcd_handle = 0;
	EXPECT_EQ(-EINVAL, create_xsrq(self->fd, &req, NULL));

	/* Tag matching needs a CQ, looked up before the PD. */
	req.srq_type = SRQT_TM;
	req.cq_handle = 1000;
	req.pd_handle = self->pd + 1000;
	EXPECT_EQ(-ENOENT, create_xsrq(self->fd, &req, NULL));
	ASSERT_EQ(0, raw_create_cq(self->fd, 4, 0, -1, 0, &cq));
	req.cq_handle = cq.cq_handle;
	EXPECT_EQ(-ENOENT, create_xsrq(self->fd, &req, NULL));
	req.pd_handle = self->pd;
	/* rxe has only basic SRQs; the CQ reference is dropped again. */
	EXPECT_EQ(-EOPNOTSUPP, create_xsrq(self->fd, &req, NULL));
	EXPECT_EQ(0, raw_destroy_cq(self->fd, cq.cq_handle, NULL));

	/* An unknown type goes to the driver as is. */
	req.srq_type = 77;
	EXPECT_EQ(-EOPNOTSUPP, create_xsrq(self->fd, &req, NULL));
}

TEST_F(srq, response_errors)
{
	struct ib_uverbs_create_srq_resp srq;
	struct ib_uverbs_destroy_srq dreq = { .response = 8 };
	struct ib_uverbs_query_srq_resp q;
	struct ib_uverbs_query_srq qreq;

	if (_metadata->skip)
		return;	/* the fixture setup skipped */

	ASSERT_EQ(0, create_srq(self->fd, self->pd, 8, 1, &srq));
	EXPECT_EQ(-EFAULT, raw_query_srq(self->fd, srq.srq_handle, (void *)8));
	/* Room for less than the response is malformed. */
	qreq.response = (uintptr_t)&q;
	qreq.srq_handle = srq.srq_handle;
	EXPECT_EQ(-ENOSPC, raw_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_SRQ,
				   &qreq, sizeof(qreq), sizeof(q) - 4));
	/* A destroy whose response cannot be written still destroys. */
	dreq.srq_handle = srq.srq_handle;
	EXPECT_EQ(-EFAULT, raw_cmd(self->fd, IB_USER_VERBS_CMD_DESTROY_SRQ,
				   &dreq, sizeof(dreq),
				   sizeof(struct ib_uverbs_destroy_srq_resp)));
	EXPECT_EQ(-ENOENT, raw_destroy_srq(self->fd, srq.srq_handle, NULL));
}

TEST_F(srq, handles_are_per_file_and_typed)
{
	struct ib_uverbs_get_context_resp ctx2 = {};
	struct ib_uverbs_create_srq_resp srq;
	struct ib_uverbs_query_srq_resp q;
	int other;

	if (_metadata->skip)
		return;	/* the fixture setup skipped */

	ASSERT_EQ(0, create_srq(self->fd, self->pd, 8, 1, &srq));
	/* The PD handle as an SRQ handle. */
	EXPECT_EQ(-EINVAL, raw_query_srq(self->fd, self->pd, &q));
	EXPECT_EQ(-EINVAL, raw_destroy_srq(self->fd, self->pd, NULL));

	other = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, raw_get_context(other, &ctx2));
	EXPECT_EQ(-ENOENT, raw_query_srq(other, srq.srq_handle, &q));
	EXPECT_EQ(-ENOENT, raw_destroy_srq(other, srq.srq_handle, NULL));
	close(ctx2.async_fd);
	close(other);
	/* This file's SRQ and PD go with the file (teardown). */
}

/* --------------------------------------- WQ, RWQ_IND_TBL and flows */

/*
 * rxe implements none of them, so 6.1 does not even have the commands for
 * it: every one answers EOPNOTSUPP before looking at the request.
 */
TEST_F(srq, wq_commands_absent_without_driver_support)
{
	struct ib_uverbs_ex_create_wq_resp wresp;
	struct ib_uverbs_ex_create_wq wreq = {
		.wq_type = 0,
		.pd_handle = self->pd,
		.max_wr = 8,
		.max_sge = 1,
	};
	struct ib_uverbs_ex_modify_wq mreq = { .attr_mask = 1 };
	struct ib_uverbs_ex_destroy_wq dreq = {};
	struct ib_uverbs_ex_destroy_wq_resp dresp;

	if (_metadata->skip)
		return;	/* the fixture setup skipped */

	if (!is_rxe())
		SKIP(return, "expectation is rxe's (device %s)", raw_ibdev_name());
	EXPECT_EQ(-EOPNOTSUPP, raw_ex_cmd(self->fd, IB_USER_VERBS_EX_CMD_CREATE_WQ,
					  &wreq, sizeof(wreq), 0, &wresp,
					  sizeof(wresp), 0));
	EXPECT_EQ(-EOPNOTSUPP, raw_ex_cmd(self->fd, IB_USER_VERBS_EX_CMD_MODIFY_WQ,
					  &mreq, sizeof(mreq), 0, NULL, 0, 0));
	EXPECT_EQ(-EOPNOTSUPP, raw_ex_cmd(self->fd, IB_USER_VERBS_EX_CMD_DESTROY_WQ,
					  &dreq, sizeof(dreq), 0, &dresp,
					  sizeof(dresp), 0));
}

TEST_F(srq, rwq_ind_tbl_and_flow_commands_absent_without_driver_support)
{
	struct {
		struct ib_uverbs_ex_create_rwq_ind_table req;
		__u32 handles[2];
	} treq = {};
	struct ib_uverbs_ex_create_rwq_ind_table_resp tresp;
	struct ib_uverbs_ex_destroy_rwq_ind_table tdreq = {};
	struct ib_uverbs_create_flow freq = {};
	struct ib_uverbs_create_flow_resp fresp;
	struct ib_uverbs_destroy_flow fdreq = {};

	if (_metadata->skip)
		return;	/* the fixture setup skipped */

	if (!is_rxe())
		SKIP(return, "expectation is rxe's (device %s)", raw_ibdev_name());
	EXPECT_EQ(-EOPNOTSUPP,
		  raw_ex_cmd(self->fd, IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL,
			     &treq, sizeof(treq), 0, &tresp, sizeof(tresp), 0));
	EXPECT_EQ(-EOPNOTSUPP,
		  raw_ex_cmd(self->fd, IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL,
			     &tdreq, sizeof(tdreq), 0, NULL, 0, 0));
	EXPECT_EQ(-EOPNOTSUPP,
		  raw_ex_cmd(self->fd, IB_USER_VERBS_EX_CMD_CREATE_FLOW,
			     &freq, sizeof(freq), 0, &fresp, sizeof(fresp), 0));
	EXPECT_EQ(-EOPNOTSUPP,
		  raw_ex_cmd(self->fd, IB_USER_VERBS_EX_CMD_DESTROY_FLOW,
			     &fdreq, sizeof(fdreq), 0, NULL, 0, 0));
}

/* ------------------------------------ the same through rdma-core 44 */

TEST(libibverbs_srq_lifecycle)
{
	struct ibv_srq_init_attr init = {
		.attr = { .max_wr = 32, .max_sge = 1 },
	};
	struct ibv_srq_attr attr = {};
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_srq *srq;
	struct ibv_pd *pd;

	list = ibv_get_device_list(NULL);
	if (!list || !list[0])
		SKIP(return, "no RDMA device (run with --hca=rxe)");
	ctx = ibv_open_device(list[0]);
	ASSERT_NE(NULL, ctx);
	pd = ibv_alloc_pd(ctx);
	ASSERT_NE(NULL, pd);

	srq = ibv_create_srq(pd, &init);
	ASSERT_NE(NULL, srq);
	EXPECT_LE(32, init.attr.max_wr);
	ASSERT_EQ(0, ibv_query_srq(srq, &attr));
	EXPECT_LE(32, attr.max_wr);
	EXPECT_EQ(0, attr.srq_limit);
	attr.srq_limit = 8;
	ASSERT_EQ(0, ibv_modify_srq(srq, &attr, IBV_SRQ_LIMIT));
	ASSERT_EQ(0, ibv_query_srq(srq, &attr));
	EXPECT_EQ(8, attr.srq_limit);
	/* The SRQ holds the PD. */
	EXPECT_EQ(EBUSY, ibv_dealloc_pd(pd));
	EXPECT_EQ(0, ibv_destroy_srq(srq));
	EXPECT_EQ(0, ibv_dealloc_pd(pd));

	init.attr.max_wr = 0;
	EXPECT_EQ(NULL, ibv_create_srq(pd = ibv_alloc_pd(ctx), &init));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, ibv_dealloc_pd(pd));
	EXPECT_EQ(0, ibv_close_device(ctx));
	ibv_free_device_list(list);
}

TEST_HARNESS_MAIN
