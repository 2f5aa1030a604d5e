// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * IB_QPT_DRIVER QPs (mlx5's DC, efa's SRD) on the test HCA
 * (selftests/ovbtest/drv_qp.c), raw calls on whichever ib_uverbs is
 * loaded: created by legacy CREATE_QP, EX_CREATE_QP and the ioctl
 * QP_CREATE with the sub-type in the driver udata, queried (QUERY_QP by
 * write() and INVOKE_WRITE), moved through UD's states (MODIFY_QP,
 * EX_MODIFY_QP by INVOKE_WRITE) and destroyed (DESTROY_QP, QP_DESTROY,
 * close).  The driver's response says what reached it: the type, the
 * PD, CQs and SRQ, the caps, the creation flags (ioctl skips its flag
 * rules for IB_QPT_DRIVER), the udata lengths.  What ib_uverbs still
 * requires of such a QP (a send CQ; on ioctl a receive CQ and a PD) and
 * the driver's own refusals have the errnos of the in-tree 6.1 module.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_xrc.h"

#define QPT_DRIVER	OVBTEST_QPT_DRIVER
#define NONE		(-1LL)
#define QKEY		0x11111111
#define SQ_PSN		0x4321

/* The driver request with room for a tail ib_uverbs passes on. */
struct drv_in {
	struct ovbtest_drv_qp_cmd cmd;
	__u64 tail;
};

/* The QP a create made: handle, number, the caps and the driver's view. */
struct made {
	int handle;
	__u32 qpn;
	struct ib_uverbs_qp_cap cap;
	struct ovbtest_drv_qp_resp drv;
};

static const struct ib_uverbs_qp_cap SRD_CAP = {
	.max_send_wr = 8, .max_recv_wr = 8,
	.max_send_sge = 1, .max_recv_sge = 1,
};
static const struct ib_uverbs_qp_cap DCI_CAP = {
	.max_send_wr = 16, .max_send_sge = 2, .max_inline_data = 32,
};
static const struct ib_uverbs_qp_cap DCT_CAP = {};

static void drv_set(struct drv_in *in, __u32 type)
{
	memset(in, 0, sizeof(*in));
	in->cmd.driver_qp_type = type;
}

/* ------------------------------------------------------- the creates */

/*
 * EX_CREATE_QP with @drv_len bytes of @in (0, 8 or 16); 0 or -errno, the
 * QP in *@m.  @srq < 0: none.
 */
static int ex_create(int fd, __u32 type, __u32 pd, __u32 scq, __u32 rcq,
		     int srq, const struct ib_uverbs_qp_cap *cap, __u32 flags,
		     const struct drv_in *in, size_t drv_len, struct made *m)
{
	struct {
		struct ib_uverbs_ex_create_qp core;
		struct drv_in drv;
	} req = {
		.core = {
			.user_handle = 0xd1,
			.pd_handle = pd,
			.send_cq_handle = scq,
			.recv_cq_handle = rcq,
			.srq_handle = srq < 0 ? 0 : srq,
			.max_send_wr = cap->max_send_wr,
			.max_recv_wr = cap->max_recv_wr,
			.max_send_sge = cap->max_send_sge,
			.max_recv_sge = cap->max_recv_sge,
			.max_inline_data = cap->max_inline_data,
			.qp_type = type,
			.is_srq = srq >= 0,
			.create_flags = flags,
		},
	};
	struct {
		struct ib_uverbs_ex_create_qp_resp core;
		struct ovbtest_drv_qp_resp drv;
	} out;
	ssize_t ret;

	if (in)
		req.drv = *in;
	memset(&out, 0, sizeof(out));
	ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_CREATE_QP, &req,
			 sizeof(req.core), drv_len, &out, sizeof(out.core),
			 sizeof(out.drv));
	if (ret < 0)
		return ret;
	m->handle = out.core.base.qp_handle;
	m->qpn = out.core.base.qpn;
	m->cap = (struct ib_uverbs_qp_cap) {
		.max_send_wr = out.core.base.max_send_wr,
		.max_recv_wr = out.core.base.max_recv_wr,
		.max_send_sge = out.core.base.max_send_sge,
		.max_recv_sge = out.core.base.max_recv_sge,
		.max_inline_data = out.core.base.max_inline_data,
	};
	m->drv = out.drv;
	return 0;
}

/* The legacy CREATE_QP, the driver request after the core one. */
static int legacy_create(int fd, __u32 type, __u32 pd, __u32 scq, __u32 rcq,
			 int srq, const struct ib_uverbs_qp_cap *cap,
			 const struct drv_in *in, size_t drv_len,
			 struct made *m)
{
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct ovbtest_drv_qp_resp drv;
	} out;
	struct {
		struct ib_uverbs_create_qp core;
		struct drv_in drv;
	} req = {
		.core = {
			.response = (uintptr_t)&out,
			.user_handle = 0xd2,
			.pd_handle = pd,
			.send_cq_handle = scq,
			.recv_cq_handle = rcq,
			.srq_handle = srq < 0 ? 0 : srq,
			.max_send_wr = cap->max_send_wr,
			.max_recv_wr = cap->max_recv_wr,
			.max_send_sge = cap->max_send_sge,
			.max_recv_sge = cap->max_recv_sge,
			.max_inline_data = cap->max_inline_data,
			.qp_type = type,
			.is_srq = srq >= 0,
		},
	};
	ssize_t ret;

	if (in)
		req.drv = *in;
	memset(&out, 0, sizeof(out));
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_QP, &req,
		      sizeof(req.core) + drv_len, sizeof(out));
	if (ret < 0)
		return ret;
	m->handle = out.core.qp_handle;
	m->qpn = out.core.qpn;
	m->cap = (struct ib_uverbs_qp_cap) {
		.max_send_wr = out.core.max_send_wr,
		.max_recv_wr = out.core.max_recv_wr,
		.max_send_sge = out.core.max_send_sge,
		.max_recv_sge = out.core.max_recv_sge,
		.max_inline_data = out.core.max_inline_data,
	};
	m->drv = out.drv;
	return 0;
}

/* The objects a QP_CREATE names; NONE leaves one out. */
struct qp_objs {
	long long pd, send_cq, recv_cq, srq, xrcd;
};

static void obj_if(struct ioc *c, __u16 id, long long handle)
{
	if (handle != NONE)
		ioc_obj(c, id, handle);
}

/* QP_CREATE; @flags NONE leaves the flags out, @drv_len 0 UHW_IN. */
static int ioc_create(int fd, __u32 type, const struct qp_objs *o,
		      const struct ib_uverbs_qp_cap *cap, long long flags,
		      const struct drv_in *in, size_t drv_len, struct made *m)
{
	__u64 user_handle = 0xd3;
	struct ioc c;
	int ret;

	memset(m, 0, sizeof(*m));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE);
	ioc_obj(&c, UVERBS_ATTR_CREATE_QP_HANDLE, 0);
	obj_if(&c, UVERBS_ATTR_CREATE_QP_PD_HANDLE, o->pd);
	obj_if(&c, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, o->send_cq);
	obj_if(&c, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, o->recv_cq);
	obj_if(&c, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, o->srq);
	obj_if(&c, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE, o->xrcd);
	ioc_in(&c, UVERBS_ATTR_CREATE_QP_USER_HANDLE, &user_handle,
	       sizeof(user_handle));
	ioc_in(&c, UVERBS_ATTR_CREATE_QP_CAP, cap, sizeof(*cap));
	ioc_const(&c, UVERBS_ATTR_CREATE_QP_TYPE, type);
	if (flags != NONE)
		ioc_const(&c, UVERBS_ATTR_CREATE_QP_FLAGS, flags);
	ioc_out(&c, UVERBS_ATTR_CREATE_QP_RESP_CAP, &m->cap, sizeof(m->cap));
	ioc_out(&c, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &m->qpn,
		sizeof(m->qpn));
	if (drv_len)
		ioc_in(&c, UVERBS_ATTR_UHW_IN, in, drv_len);
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, &m->drv, sizeof(m->drv));
	ret = ioc_call(fd, &c);
	if (ret)
		return ret;
	m->handle = (int)c.attrs[0].data;
	return 0;
}

/* ------------------------------------------- query and modify, two ways */

static int query(int fd, __u32 qp, int by_ioctl,
		 struct ib_uverbs_query_qp_resp *resp)
{
	struct ib_uverbs_query_qp req = {
		.response = (uintptr_t)resp,
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_PORT | QP_QKEY | QP_SQ_PSN,
	};
	struct ioc c;

	memset(resp, 0xee, sizeof(*resp));
	if (!by_ioctl) {
		ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_QUERY_QP, &req,
				      sizeof(req), sizeof(*resp));

		return ret < 0 ? (int)ret : 0;
	}
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	ioc_const(&c, UVERBS_ATTR_WRITE_CMD, IB_USER_VERBS_CMD_QUERY_QP);
	ioc_in(&c, UVERBS_ATTR_CORE_IN, &req, sizeof(req));
	ioc_out(&c, UVERBS_ATTR_CORE_OUT, resp, sizeof(*resp));
	return ioc_call(fd, &c);
}

/* UD's next step to @state, by MODIFY_QP or EX_MODIFY_QP by INVOKE_WRITE. */
static int modify(int fd, __u32 qp, __u8 state, __u32 extra, int by_ioctl)
{
	struct ib_uverbs_ex_modify_qp_resp resp;
	struct ib_uverbs_ex_modify_qp ex = {
		.base = {
			.qp_handle = qp,
			.attr_mask = QP_STATE | extra,
			.qp_state = state,
			.port_num = 1,
			.qkey = QKEY,
			.sq_psn = SQ_PSN,
			.dest_qp_num = 7,
		},
	};
	struct ioc c;

	if (state == QPS_INIT)
		ex.base.attr_mask |= QP_PKEY_INDEX | QP_PORT | QP_QKEY;
	if (state == QPS_RTS)
		ex.base.attr_mask |= QP_SQ_PSN;
	if (!by_ioctl)
		return raw_modify_qp(fd, &ex.base);
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	ioc_const(&c, UVERBS_ATTR_WRITE_CMD,
		  IB_USER_VERBS_CMD_FLAG_EXTENDED |
		  IB_USER_VERBS_EX_CMD_MODIFY_QP);
	ioc_in(&c, UVERBS_ATTR_CORE_IN, &ex, sizeof(ex));
	ioc_out(&c, UVERBS_ATTR_CORE_OUT, &resp, sizeof(resp));
	return ioc_call(fd, &c);
}

static int attach_mcast(int fd, __u32 qp)
{
	struct ib_uverbs_attach_mcast req = { .qp_handle = qp, .mlid = 0xc001 };
	ssize_t ret;

	req.gid[0] = 0xff;
	req.gid[1] = 0x12;
	req.gid[15] = 0x01;
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_ATTACH_MCAST, &req, sizeof(req),
		      0);
	return ret < 0 ? (int)ret : 0;
}

/* ------------------------------------------------------------- fixture */

FIXTURE(drvqp) {
	int fd;
	struct ovbtest_alloc_ucontext_resp uctx;
	int pd, cq, cq2;
	int srq;		/* a basic SRQ */
	__u32 qps;		/* the driver's live QPs before the case */
};

FIXTURE_SETUP(drvqp)
{
	struct ib_uverbs_create_srq_resp sr;

	self->fd = -1;
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &self->uctx, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);
	HCA_SETUP_CQ(self->fd, self->cq2);
	self->srq = create_xsrq(self->fd, SRQT_BASIC, self->pd, 0, 0, 16, &sr);
	ASSERT_LE(0, self->srq);
	self->qps = ovbtest_info(self->fd).qps;
	ASSERT_NE(~0u, self->qps);
}

FIXTURE_TEARDOWN(drvqp)
{
	if (self->fd >= 0)
		close(self->fd);
}

#define EXPECT_QPS(n) EXPECT_EQ(self->qps + (n), ovbtest_info(self->fd).qps)

/* What the driver reports of a QP it made, against what was asked. */
static void check_made(struct __test_metadata *_metadata, const struct made *m,
		       __u32 drv_type, __u32 seen,
		       const struct ib_uverbs_qp_cap *cap, __u32 flags,
		       __u32 inlen)
{
	EXPECT_EQ(drv_type, m->drv.driver_qp_type);
	EXPECT_EQ(QPT_DRIVER, m->drv.qp_type);
	EXPECT_EQ(seen, m->drv.seen);
	EXPECT_EQ(flags, m->drv.create_flags);
	EXPECT_EQ(cap->max_send_wr, m->drv.max_send_wr);
	EXPECT_EQ(cap->max_recv_wr, m->drv.max_recv_wr);
	EXPECT_EQ(cap->max_send_sge, m->drv.max_send_sge);
	EXPECT_EQ(cap->max_recv_sge, m->drv.max_recv_sge);
	EXPECT_EQ(cap->max_inline_data, m->drv.max_inline_data);
	EXPECT_EQ(inlen, m->drv.inlen);
	EXPECT_EQ(sizeof(m->drv), m->drv.outlen);
	EXPECT_EQ(m->qpn, m->drv.qpn);
	EXPECT_LE(2, m->qpn);
	EXPECT_EQ(0, memcmp(cap, &m->cap, sizeof(*cap)));
}

#define CHECK_MADE(m, ...) check_made(_metadata, m, __VA_ARGS__)

/* RESET -> INIT -> RTR -> RTS, alternating the paths; QUERY_QP both ways. */
static void walk(struct __test_metadata *_metadata, int fd,
		 const struct made *m, const struct ib_uverbs_qp_cap *cap,
		 int first_by_ioctl)
{
	struct ib_uverbs_query_qp_resp q;
	int i = first_by_ioctl;

	ASSERT_EQ(0, query(fd, m->handle, i, &q));
	EXPECT_EQ(QPS_RESET, q.qp_state);
	EXPECT_EQ(cap->max_send_wr, q.max_send_wr);
	EXPECT_EQ(cap->max_recv_wr, q.max_recv_wr);
	EXPECT_EQ(cap->max_inline_data, q.max_inline_data);
	/* UD's table: RTR straight from RESET is no transition */
	EXPECT_EQ(-EINVAL, modify(fd, m->handle, QPS_RTR, 0, i));
	ASSERT_EQ(0, modify(fd, m->handle, QPS_INIT, 0, i));
	/* ... nor is a destination QP number on INIT -> RTR (RC's) */
	EXPECT_EQ(-EINVAL, modify(fd, m->handle, QPS_RTR, QP_DEST_QPN, !i));
	ASSERT_EQ(0, modify(fd, m->handle, QPS_RTR, 0, !i));
	ASSERT_EQ(0, modify(fd, m->handle, QPS_RTS, 0, i));
	ASSERT_EQ(0, query(fd, m->handle, !i, &q));
	EXPECT_EQ(QPS_RTS, q.qp_state);
	EXPECT_EQ(1, q.port_num);
	EXPECT_EQ(QKEY, q.qkey);
	EXPECT_EQ(SQ_PSN, q.sq_psn);
}

#define WALK(m, cap, i) walk(_metadata, self->fd, m, cap, i)

#define SEEN_QUEUES (OVBTEST_DRV_QP_PD | OVBTEST_DRV_QP_SEND_CQ | \
		     OVBTEST_DRV_QP_RECV_CQ)
#define SEEN_SAME (SEEN_QUEUES | OVBTEST_DRV_QP_SAME_CQ)

/* ---------------------------------------------------------------- cases */

/* efa's SRD by EX_CREATE_QP: one CQ for both queues, UD's states. */
TEST_F(drvqp, srd_ex_create_query_modify_destroy)
{
	struct drv_in in;
	struct made m;

	drv_set(&in, OVBTEST_DRV_QPT_SRD);
	ASSERT_EQ(0, ex_create(self->fd, QPT_DRIVER, self->pd, self->cq,
			       self->cq, -1, &SRD_CAP, 0, &in, 8, &m));
	CHECK_MADE(&m, OVBTEST_DRV_QPT_SRD, SEEN_SAME, &SRD_CAP, 0, 8);
	EXPECT_QPS(1);
	WALK(&m, &SRD_CAP, 0);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, m.handle));
	EXPECT_QPS(0);
	EXPECT_EQ(-ENOENT, raw_destroy_qp(self->fd, m.handle));
}

/*
 * The legacy CREATE_QP with two CQs: each reaches the driver; a zero
 * tail past the driver's struct is taken.
 */
TEST_F(drvqp, srd_legacy_two_cqs_zero_tail)
{
	struct drv_in in;
	struct made m;

	drv_set(&in, OVBTEST_DRV_QPT_SRD);
	ASSERT_EQ(0, legacy_create(self->fd, QPT_DRIVER, self->pd, self->cq,
				   self->cq2, -1, &SRD_CAP, &in, sizeof(in),
				   &m));
	CHECK_MADE(&m, OVBTEST_DRV_QPT_SRD, SEEN_QUEUES, &SRD_CAP, 0,
		   sizeof(in));
	WALK(&m, &SRD_CAP, 1);
	EXPECT_EQ(0, ioc_qp_destroy(self->fd, m.handle));
	EXPECT_QPS(0);
}

/*
 * QP_CREATE of mlx5's DC initiator: ioctl skips its creation-flag rules
 * for IB_QPT_DRIVER, so SCATTER_FCS (raw packet QPs only otherwise)
 * reaches the driver; SQ_SIG_ALL becomes the signalling type, not a flag.
 */
TEST_F(drvqp, dci_ioctl_flags_reach_driver)
{
	const struct qp_objs o = { self->pd, self->cq, self->cq2, NONE, NONE };
	const __u32 flags = IB_UVERBS_QP_CREATE_SCATTER_FCS |
			    IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK;
	struct drv_in in;
	struct made m;

	drv_set(&in, OVBTEST_DRV_QPT_DCI);
	ASSERT_EQ(0, ioc_create(self->fd, QPT_DRIVER, &o, &DCI_CAP,
				flags | IB_UVERBS_QP_CREATE_SQ_SIG_ALL, &in,
				sizeof(in.cmd), &m));
	CHECK_MADE(&m, OVBTEST_DRV_QPT_DCI,
		   SEEN_QUEUES | OVBTEST_DRV_QP_SIG_ALL, &DCI_CAP, flags,
		   sizeof(in.cmd));
	WALK(&m, &DCI_CAP, 1);
	EXPECT_EQ(0, ioc_qp_destroy(self->fd, m.handle));
	EXPECT_QPS(0);

	/* the same flag on an RC QP: ib_uverbs refuses, nothing is made */
	EXPECT_EQ(-EINVAL, ioc_create(self->fd, QPT_RC, &o, &DCI_CAP,
				      IB_UVERBS_QP_CREATE_SCATTER_FCS, NULL, 0,
				      &m));
	/* by EX_CREATE_QP the flags reach the driver too */
	ASSERT_EQ(0, ex_create(self->fd, QPT_DRIVER, self->pd, self->cq,
			       self->cq, -1, &DCI_CAP, flags, &in, 8, &m));
	CHECK_MADE(&m, OVBTEST_DRV_QPT_DCI, SEEN_SAME, &DCI_CAP, flags, 8);
	EXPECT_EQ(0, ioc_qp_destroy(self->fd, m.handle));
	EXPECT_QPS(0);
}

/*
 * mlx5's DC target receives on an SRQ: by EX_CREATE_QP (is_srq) and by
 * QP_CREATE; the SRQ is then busy.  An XRC SRQ is refused by ib_uverbs.
 */
TEST_F(drvqp, dct_on_srq)
{
	const struct qp_objs o = { self->pd, self->cq, self->cq, self->srq,
				   NONE };
	struct ib_uverbs_create_srq_resp sr;
	char name[] = "/tmp/uverbs_ovbtest_drv_qp.XXXXXX";
	struct qp_objs ox = o, od = o;
	struct made m, m2;
	struct drv_in in;
	int file, xrcd, xsrq;

	drv_set(&in, OVBTEST_DRV_QPT_DCT);
	ASSERT_EQ(0, ex_create(self->fd, QPT_DRIVER, self->pd, self->cq,
			       self->cq, self->srq, &DCT_CAP, 0, &in, 8, &m));
	CHECK_MADE(&m, OVBTEST_DRV_QPT_DCT,
		   SEEN_SAME | OVBTEST_DRV_QP_SRQ, &DCT_CAP, 0, 8);
	ASSERT_EQ(0, ioc_create(self->fd, QPT_DRIVER, &o, &DCT_CAP, NONE,
				&in, sizeof(in.cmd), &m2));
	CHECK_MADE(&m2, OVBTEST_DRV_QPT_DCT,
		   SEEN_SAME | OVBTEST_DRV_QP_SRQ, &DCT_CAP, 0,
		   sizeof(in.cmd));
	WALK(&m2, &DCT_CAP, 0);
	EXPECT_EQ(-EBUSY, raw_destroy_srq(self->fd, self->srq, NULL));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, m.handle));
	EXPECT_EQ(-EBUSY, raw_destroy_srq(self->fd, self->srq, NULL));
	EXPECT_EQ(0, ioc_qp_destroy(self->fd, m2.handle));
	EXPECT_QPS(0);

	/* without an SRQ: the driver's EINVAL, on both paths */
	EXPECT_EQ(-EINVAL, ex_create(self->fd, QPT_DRIVER, self->pd, self->cq,
				     self->cq, -1, &DCT_CAP, 0, &in, 8, &m));
	EXPECT_EQ(-EINVAL, legacy_create(self->fd, QPT_DRIVER, self->pd,
					 self->cq, self->cq, -1, &DCT_CAP, &in,
					 8, &m));

	/* an XRC SRQ: ib_uverbs' EINVAL before the driver */
	file = mkstemp(name);
	ASSERT_LE(0, file);
	unlink(name);
	xrcd = open_xrcd(self->fd, file, O_CREAT);
	ASSERT_LE(0, xrcd);
	xsrq = create_xsrq(self->fd, SRQT_XRC, self->pd, xrcd, self->cq, 16,
			   &sr);
	ASSERT_LE(0, xsrq);
	EXPECT_EQ(-EINVAL, ex_create(self->fd, QPT_DRIVER, self->pd, self->cq,
				     self->cq, xsrq, &DCT_CAP, 0, &in, 8, &m));
	ox.srq = xsrq;
	EXPECT_EQ(-EINVAL, ioc_create(self->fd, QPT_DRIVER, &ox, &DCT_CAP,
				      NONE, &in, sizeof(in.cmd), &m));
	/* and an XRCD with a driver QP */
	od.xrcd = xrcd;
	EXPECT_EQ(-EINVAL, ioc_create(self->fd, QPT_DRIVER, &od, &DCT_CAP,
				      NONE, &in, sizeof(in.cmd), &m));
	EXPECT_QPS(0);
	EXPECT_EQ(0, raw_destroy_srq(self->fd, xsrq, NULL));
	EXPECT_EQ(0, close_xrcd(self->fd, xrcd));
	close(file);
}

/* What ib_uverbs itself still requires of an IB_QPT_DRIVER QP. */
TEST_F(drvqp, core_requirements)
{
	const struct qp_objs no_rcq = { self->pd, self->cq, NONE, NONE, NONE };
	const struct qp_objs no_scq = { self->pd, NONE, self->cq, NONE, NONE };
	const struct qp_objs no_pd = { NONE, self->cq, self->cq, NONE, NONE };
	const struct qp_objs o = { self->pd, self->cq, self->cq, NONE, NONE };
	struct drv_in in;
	struct made m;

	drv_set(&in, OVBTEST_DRV_QPT_DCI);
	EXPECT_EQ(-ENOENT, ioc_create(self->fd, QPT_DRIVER, &no_rcq, &DCI_CAP,
				      NONE, &in, sizeof(in.cmd), &m));
	EXPECT_EQ(-ENOENT, ioc_create(self->fd, QPT_DRIVER, &no_scq, &DCI_CAP,
				      NONE, &in, sizeof(in.cmd), &m));
	EXPECT_EQ(-ENOENT, ioc_create(self->fd, QPT_DRIVER, &no_pd, &DCI_CAP,
				      NONE, &in, sizeof(in.cmd), &m));
	/* write(): the send CQ's handle is looked up, the PD's too */
	EXPECT_EQ(-ENOENT, ex_create(self->fd, QPT_DRIVER, self->pd, 999,
				     self->cq, -1, &DCI_CAP, 0, &in, 8, &m));
	EXPECT_EQ(-ENOENT, legacy_create(self->fd, QPT_DRIVER, self->pd, 999,
					 999, -1, &DCI_CAP, &in, 8, &m));
	EXPECT_EQ(-ENOENT, ex_create(self->fd, QPT_DRIVER, 999, self->cq,
				     self->cq, -1, &DCI_CAP, 0, &in, 8, &m));
	/* a type next to it is no type */
	EXPECT_EQ(-EINVAL, ex_create(self->fd, QPT_DRIVER - 1, self->pd,
				     self->cq, self->cq, -1, &DCI_CAP, 0, &in,
				     8, &m));
	EXPECT_EQ(-EINVAL, legacy_create(self->fd, QPT_DRIVER - 1, self->pd,
					 self->cq, self->cq, -1, &DCI_CAP, &in,
					 8, &m));
	EXPECT_EQ(-EINVAL, ioc_create(self->fd, QPT_DRIVER - 1, &o, &DCI_CAP,
				      NONE, &in, sizeof(in.cmd), &m));
	EXPECT_QPS(0);
}

/* The driver's refusals, the same whichever command carried the udata. */
TEST_F(drvqp, driver_refusals)
{
	const struct qp_objs o = { self->pd, self->cq, self->cq, NONE, NONE };
	const struct qp_objs os = { self->pd, self->cq, self->cq, self->srq,
				    NONE };
	struct drv_in in;
	struct made m;
	int path;

	for (path = 0; path < 3; path++) {
		/* legacy write, EX write, ioctl: @in of @len, SRQ or not */
#define TRY(len, srq, cap)						\
	(path == 0 ? legacy_create(self->fd, QPT_DRIVER, self->pd,	\
				   self->cq, self->cq, (srq), (cap),	\
				   &in, (len), &m) :			\
	 path == 1 ? ex_create(self->fd, QPT_DRIVER, self->pd,		\
			       self->cq, self->cq, (srq), (cap), 0,	\
			       &in, (len), &m) :			\
	 ioc_create(self->fd, QPT_DRIVER, (srq) < 0 ? &o : &os, (cap),	\
		    NONE, &in, (len), &m))

		drv_set(&in, OVBTEST_DRV_QPT_SRD);
		/* no driver request at all */
		EXPECT_EQ(-EINVAL, TRY(0, -1, &SRD_CAP)) TH_LOG("path %d", path);
		/* a nonzero byte past the driver's struct */
		in.tail = 1ULL << 40;
		EXPECT_EQ(-EINVAL, TRY(sizeof(in), -1, &SRD_CAP))
			TH_LOG("path %d", path);
		/* comp_mask */
		drv_set(&in, OVBTEST_DRV_QPT_SRD);
		in.cmd.comp_mask = 1;
		EXPECT_EQ(-EINVAL, TRY(8, -1, &SRD_CAP)) TH_LOG("path %d", path);
		/* an unknown sub-type, none */
		drv_set(&in, 9);
		EXPECT_EQ(-EOPNOTSUPP, TRY(8, -1, &SRD_CAP))
			TH_LOG("path %d", path);
		drv_set(&in, 0);
		EXPECT_EQ(-EOPNOTSUPP, TRY(8, -1, &SRD_CAP))
			TH_LOG("path %d", path);
		/* SRD on an SRQ (efa has none) */
		drv_set(&in, OVBTEST_DRV_QPT_SRD);
		EXPECT_EQ(-EOPNOTSUPP, TRY(8, self->srq, &SRD_CAP))
			TH_LOG("path %d", path);
		/* a DC initiator with a receive queue */
		drv_set(&in, OVBTEST_DRV_QPT_DCI);
		EXPECT_EQ(-EINVAL, TRY(8, -1, &SRD_CAP)) TH_LOG("path %d", path);
		/* a DC target with a send queue */
		drv_set(&in, OVBTEST_DRV_QPT_DCT);
		EXPECT_EQ(-EINVAL, TRY(8, self->srq, &DCI_CAP))
			TH_LOG("path %d", path);
#undef TRY
	}
	/* creation flags on SRD: the driver's EOPNOTSUPP, on both paths */
	drv_set(&in, OVBTEST_DRV_QPT_SRD);
	EXPECT_EQ(-EOPNOTSUPP,
		  ioc_create(self->fd, QPT_DRIVER, &o, &SRD_CAP,
			     IB_UVERBS_QP_CREATE_SCATTER_FCS, &in,
			     sizeof(in.cmd), &m));
	EXPECT_EQ(-EOPNOTSUPP,
		  ex_create(self->fd, QPT_DRIVER, self->pd, self->cq, self->cq,
			    -1, &SRD_CAP,
			    IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK, &in,
			    8, &m));
	/* a 2-byte request by ioctl does not reach driver_qp_type's end */
	EXPECT_EQ(-EINVAL, ioc_create(self->fd, QPT_DRIVER, &o, &SRD_CAP,
				      NONE, &in, 2, &m));
	EXPECT_QPS(0);
}

/*
 * ib_core's multicast needs a UD QP: an IB_QPT_DRIVER one is refused
 * whatever it is underneath; and close() destroys driver QPs like others.
 */
TEST_F(drvqp, mcast_refused_close_destroys)
{
	struct drv_in in;
	struct qp_objs o2 = { NONE, NONE, NONE, NONE, NONE };
	struct made m;
	int fd2, pd, cq;

	drv_set(&in, OVBTEST_DRV_QPT_SRD);
	ASSERT_EQ(0, ex_create(self->fd, QPT_DRIVER, self->pd, self->cq,
			       self->cq, -1, &SRD_CAP, 0, &in, 8, &m));
	WALK(&m, &SRD_CAP, 0);
	EXPECT_EQ(-EINVAL, attach_mcast(self->fd, m.handle));

	fd2 = ovbtest_open_ctx();
	ASSERT_LE(0, fd2);
	pd = raw_alloc_pd(fd2);
	ASSERT_LE(0, pd);
	HCA_SETUP_CQ(fd2, cq);
	o2.pd = pd;
	o2.send_cq = cq;
	o2.recv_cq = cq;
	ASSERT_EQ(0, ioc_create(fd2, QPT_DRIVER, &o2, &SRD_CAP, NONE, &in,
				sizeof(in.cmd), &m));
	ASSERT_EQ(0, legacy_create(fd2, QPT_DRIVER, pd, cq, cq, -1, &SRD_CAP,
				   &in, 8, &m));
	EXPECT_QPS(3);
	close(fd2);
	EXPECT_QPS(1);
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
