// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Standard verbs on the test HCA (selftests/ovbtest/, ovbtest.ko) where the
 * answer depends on how the driver behaves, checked with raw write()
 * commands on whichever ib_uverbs is loaded (REREG_MR: uverbs_ovbtest_rereg):
 *  - UD/RC QPs through RESET -> INIT -> RTR -> RTS;
 *  - InfiniBand multicast with rdmavt's rules (hfi1, qib): one MLID per
 *    MGID, members counted by the driver; ib_core's own rules on an IB
 *    port (UD only, multicast GIDs, MLIDs 0xc000-0xfffe);
 *  - POLL_CQ and REQ_NOTIFY_CQ on CQs where nothing completes.
 * The driver counts its live QPs, groups and memberships
 * (OVBTEST_METHOD_DEVICE_INFO), so each case sees what is left on it.
 * Expected values are the in-tree 6.1 module's answers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"
#include "qp_abi.h"

#define LW	IB_UVERBS_ACCESS_LOCAL_WRITE

/* A GID that is not a multicast one (link-local). */
static const __u8 UNICAST[16] = { 0xfe, 0x80, [15] = 0x01 };

/* ------------------------------------------------------------- helpers */

/* One step of a UD or RC QP's bring-up, with what the step needs. */
static int qp_to(int fd, __u32 qp, __u8 type, __u8 state)
{
	struct ib_uverbs_modify_qp req = {
		.qp_handle = qp,
		.attr_mask = QP_STATE,
		.qp_state = state,
	};

	if (state == QPS_INIT) {
		req.attr_mask |= QP_PKEY_INDEX | QP_PORT |
				 (type == QPT_UD ? QP_QKEY : QP_ACCESS_FLAGS);
		req.port_num = 1;
		req.qkey = 0x11111111;
		req.qp_access_flags = LW;
	}
	if (state == QPS_RTS) {
		req.attr_mask |= QP_SQ_PSN;
		req.sq_psn = 0x123;
	}
	return raw_modify_qp(fd, &req);
}

/* A UD QP in RTS; its handle or -errno. */
static int ud_qp_rts(int fd, __u32 pd, __u32 cq)
{
	int qp = raw_create_qp(fd, QPT_UD, pd, cq, -1, NULL);

	if (qp < 0)
		return qp;
	if (qp_to(fd, qp, QPT_UD, QPS_INIT) || qp_to(fd, qp, QPT_UD, QPS_RTR) ||
	    qp_to(fd, qp, QPT_UD, QPS_RTS))
		return -EIO;
	return qp;
}

static int query_qp(int fd, __u32 qp, struct ib_uverbs_query_qp_resp *resp)
{
	struct ib_uverbs_query_qp req = {
		.response = (uintptr_t)resp,
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_PORT,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_QUERY_QP, &req,
			      sizeof(req), sizeof(*resp));

	return ret < 0 ? ret : 0;
}

/* ATTACH_MCAST / DETACH_MCAST (the same layout); 0 or -errno. */
static int mcast(int fd, __u32 cmd, __u32 qp, const __u8 gid[16], __u16 lid)
{
	struct ib_uverbs_attach_mcast req = { .qp_handle = qp, .mlid = lid };
	ssize_t ret;

	memcpy(req.gid, gid, 16);
	ret = raw_cmd(fd, cmd, &req, sizeof(req), 0);
	return ret < 0 ? ret : 0;
}

static int attach(int fd, __u32 qp, const __u8 gid[16], __u16 lid)
{
	return mcast(fd, IB_USER_VERBS_CMD_ATTACH_MCAST, qp, gid, lid);
}

static int detach(int fd, __u32 qp, const __u8 gid[16], __u16 lid)
{
	return mcast(fd, IB_USER_VERBS_CMD_DETACH_MCAST, qp, gid, lid);
}

/* -------------------------------------------------------------- fixture */

FIXTURE(hv) {
	int fd;
	int pd;
	int cq;
	struct ovbtest_device_info base;
	/*
	 * Multicast GIDs (ff0e::/16) of this test alone, from its name: a
	 * group another test leaked (a failure there) cannot change the
	 * answers here.
	 */
	__u8 g1[16], g2[16];
};

/* The driver, a context, a PD and a CQ. */
FIXTURE_SETUP(hv)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	unsigned int h;

	self->fd = -1;
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);
	self->base = ovbtest_info(self->fd);
	ASSERT_EQ(OVBTEST_MAGIC, self->base.magic);

	h = 5381;
	for (const char *c = _metadata->name; *c; c++)
		h = h * 33 + (unsigned char)*c;
	memset(self->g1, 0, 16);
	self->g1[0] = 0xff;
	self->g1[1] = 0x0e;
	self->g1[12] = h >> 8;
	self->g1[13] = h;
	memcpy(self->g2, self->g1, 16);
	self->g1[15] = 1;
	self->g2[15] = 2;
}

FIXTURE_TEARDOWN(hv)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The device's live QPs, groups and memberships, relative to the setup. */
#define EXPECT_LIVE(n_qp, n_grp, n_att) do {				\
	struct ovbtest_device_info _i = ovbtest_info(self->fd);		\
	EXPECT_EQ(self->base.qps + (n_qp), _i.qps);			\
	EXPECT_EQ(self->base.mcast_groups + (n_grp), _i.mcast_groups);	\
	EXPECT_EQ(self->base.mcast_attached + (n_att),			\
		  _i.mcast_attached);					\
} while (0)

/* ------------------------------------------------------------------ QPs */

TEST_F(hv, qp_state_machine)
{
	struct ib_uverbs_create_qp_resp cr;
	struct ib_uverbs_query_qp_resp q;
	struct ib_uverbs_modify_qp req;
	int ud, rc;

	ud = raw_create_qp(self->fd, QPT_UD, self->pd, self->cq, -1, &cr.qpn);
	ASSERT_LE(0, ud);
	EXPECT_LE(2, cr.qpn);	/* 0 and 1 are the SMI and GSI */
	EXPECT_LIVE(1, 0, 0);
	ASSERT_EQ(0, query_qp(self->fd, ud, &q));
	EXPECT_EQ(QPS_RESET, q.qp_state);

	/* RESET -> RTR skips INIT; INIT of a UD QP needs its Q_Key */
	EXPECT_EQ(-EINVAL, qp_to(self->fd, ud, QPT_UD, QPS_RTR));
	req = (struct ib_uverbs_modify_qp){
		.qp_handle = ud,
		.attr_mask = QP_STATE | QP_PKEY_INDEX | QP_PORT,
		.qp_state = QPS_INIT,
		.port_num = 1,
	};
	EXPECT_EQ(-EINVAL, raw_modify_qp(self->fd, &req));
	/* the device has two ports (uverbs_ovbtest_roce) and one P_Key */
	req.attr_mask |= QP_QKEY;
	req.port_num = 3;
	EXPECT_EQ(-EINVAL, raw_modify_qp(self->fd, &req));
	req.port_num = 1;
	req.pkey_index = 1;
	EXPECT_EQ(-EINVAL, raw_modify_qp(self->fd, &req));
	ASSERT_EQ(0, query_qp(self->fd, ud, &q));
	EXPECT_EQ(QPS_RESET, q.qp_state);

	ASSERT_EQ(0, qp_to(self->fd, ud, QPT_UD, QPS_INIT));
	ASSERT_EQ(0, query_qp(self->fd, ud, &q));
	EXPECT_EQ(QPS_INIT, q.qp_state);
	EXPECT_EQ(1, q.port_num);
	EXPECT_EQ(0x11111111, q.qkey);
	ASSERT_EQ(0, qp_to(self->fd, ud, QPT_UD, QPS_RTR));
	ASSERT_EQ(0, qp_to(self->fd, ud, QPT_UD, QPS_RTS));
	ASSERT_EQ(0, query_qp(self->fd, ud, &q));
	EXPECT_EQ(QPS_RTS, q.qp_state);
	EXPECT_EQ(0x123, q.sq_psn);
	/* back to RESET from anywhere */
	EXPECT_EQ(0, qp_to(self->fd, ud, QPT_UD, QPS_RESET));
	ASSERT_EQ(0, query_qp(self->fd, ud, &q));
	EXPECT_EQ(QPS_RESET, q.qp_state);

	rc = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1, &cr.qpn);
	ASSERT_LE(0, rc);
	EXPECT_EQ(0, qp_to(self->fd, rc, QPT_RC, QPS_INIT));
	ASSERT_EQ(0, query_qp(self->fd, rc, &q));
	EXPECT_EQ(QPS_INIT, q.qp_state);
	EXPECT_LIVE(2, 0, 0);

	/* a QP holds its PD and CQ */
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));
	EXPECT_EQ(-EBUSY, raw_destroy_cq(self->fd, self->cq, NULL));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, ud));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, rc));
	EXPECT_EQ(-ENOENT, raw_destroy_qp(self->fd, rc));
	EXPECT_LIVE(0, 0, 0);
}

/* ------------------------------------------------------------ multicast */

/*
 * The sequence this test exists for: an MLID another than the group's is
 * refused (by ib_core below 0xc000 and at 0xffff, by the driver for a
 * multicast LID), nothing of it stays counted against the QP, and after
 * the one real attachment is detached the QP can be destroyed (EBUSY if
 * a refused attach left the QP's use count raised).  (6.1's DETACH_MCAST
 * drops its own record of the pair before asking the driver and keeps it
 * dropped if the driver refuses; with rdmavt's rules every recorded pair
 * is one the driver holds, so that cannot happen from user space.)
 */
TEST_F(hv, mcast_one_mlid_per_mgid)
{
	int qp = ud_qp_rts(self->fd, self->pd, self->cq);

	ASSERT_LE(0, qp);
	EXPECT_EQ(0, attach(self->fd, qp, self->g1, 0xc001));
	EXPECT_LIVE(1, 1, 1);
	/* the same pair again: nothing changes */
	EXPECT_EQ(0, attach(self->fd, qp, self->g1, 0xc001));
	EXPECT_LIVE(1, 1, 1);
	/* ib_core on an IB port: a unicast LID, the permissive LID */
	EXPECT_EQ(-EINVAL, attach(self->fd, qp, self->g1, 0x0005));
	EXPECT_EQ(-EINVAL, attach(self->fd, qp, self->g1, 0xffff));
	/* the driver (rdmavt): the group's MLID is 0xc001 */
	EXPECT_EQ(-EINVAL, attach(self->fd, qp, self->g1, 0xc002));
	EXPECT_LIVE(1, 1, 1);
	/* attached: DESTROY_QP is refused */
	EXPECT_EQ(-EBUSY, raw_destroy_qp(self->fd, qp));

	EXPECT_EQ(0, detach(self->fd, qp, self->g1, 0xc001));
	EXPECT_LIVE(1, 0, 0);
	EXPECT_EQ(-EINVAL, detach(self->fd, qp, self->g1, 0xc001));
	/* the refused pairs were never attached */
	EXPECT_EQ(-EINVAL, detach(self->fd, qp, self->g1, 0xc002));
	EXPECT_EQ(-EINVAL, detach(self->fd, qp, self->g1, 0x0005));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	EXPECT_LIVE(0, 0, 0);
}

/* Several QPs in one group; another QP asking for another MLID. */
TEST_F(hv, mcast_group_members)
{
	int a, b, c;

	a = ud_qp_rts(self->fd, self->pd, self->cq);
	b = ud_qp_rts(self->fd, self->pd, self->cq);
	c = ud_qp_rts(self->fd, self->pd, self->cq);
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_LE(0, c);
	EXPECT_EQ(0, attach(self->fd, a, self->g1, 0xc001));
	EXPECT_EQ(0, attach(self->fd, b, self->g1, 0xc001));
	EXPECT_EQ(0, attach(self->fd, b, self->g2, 0xc002));
	EXPECT_LIVE(3, 2, 3);
	/* c has nothing of self->g1: its refusal comes from the driver */
	EXPECT_EQ(-EINVAL, attach(self->fd, c, self->g1, 0xc003));
	/* not a member of self->g2: uverbs refuses before the driver */
	EXPECT_EQ(-EINVAL, detach(self->fd, a, self->g2, 0xc002));
	EXPECT_LIVE(3, 2, 3);

	/* the group stays while it has a member */
	EXPECT_EQ(0, detach(self->fd, a, self->g1, 0xc001));
	EXPECT_LIVE(3, 2, 2);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, a));
	/* the last member takes it: then another MLID makes a new group */
	EXPECT_EQ(0, detach(self->fd, b, self->g1, 0xc001));
	EXPECT_LIVE(2, 1, 1);
	EXPECT_EQ(0, attach(self->fd, c, self->g1, 0xc003));
	EXPECT_LIVE(2, 2, 2);
	EXPECT_EQ(0, detach(self->fd, c, self->g1, 0xc003));
	EXPECT_EQ(0, detach(self->fd, b, self->g2, 0xc002));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, b));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, c));
	EXPECT_LIVE(0, 0, 0);
}

/* ib_core: UD only, multicast GIDs only; rdmavt: not from RESET. */
TEST_F(hv, mcast_who_may_attach)
{
	int ud, rc, reset;

	ud = ud_qp_rts(self->fd, self->pd, self->cq);
	rc = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1, NULL);
	reset = raw_create_qp(self->fd, QPT_UD, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, ud);
	ASSERT_LE(0, rc);
	ASSERT_LE(0, reset);
	ASSERT_EQ(0, qp_to(self->fd, rc, QPT_RC, QPS_INIT));

	EXPECT_EQ(-EINVAL, attach(self->fd, ud, UNICAST, 0xc001));
	EXPECT_EQ(-EINVAL, attach(self->fd, rc, self->g1, 0xc001));
	EXPECT_EQ(-EINVAL, attach(self->fd, reset, self->g1, 0xc001));
	/* a handle of nothing, or of a PD */
	EXPECT_EQ(-ENOENT, attach(self->fd, 999, self->g1, 0xc001));
	EXPECT_EQ(-EINVAL, attach(self->fd, self->pd, self->g1, 0xc001));
	EXPECT_LIVE(3, 0, 0);

	/* out of RESET it may */
	ASSERT_EQ(0, qp_to(self->fd, reset, QPT_UD, QPS_INIT));
	EXPECT_EQ(0, attach(self->fd, reset, self->g1, 0xc001));
	EXPECT_LIVE(3, 1, 1);
	EXPECT_EQ(0, detach(self->fd, reset, self->g1, 0xc001));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, ud));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, rc));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, reset));
	EXPECT_LIVE(0, 0, 0);
}

/* The driver's limits (query_device max_mcast_grp, max_mcast_qp_attach). */
TEST_F(hv, mcast_limits)
{
	struct ib_uverbs_query_device_resp dev;
	int qp[16], i, n_grp, n_att;
	__u8 gid[16];

	ASSERT_EQ(0, raw_query_device(self->fd, &dev));
	n_grp = dev.max_mcast_grp;
	n_att = dev.max_mcast_qp_attach;
	ASSERT_LE(1, n_att);
	ASSERT_GT(16, n_att);
	ASSERT_GE(0x7f, n_grp);
	ASSERT_GT(n_grp, self->base.mcast_groups);
	/* groups left on the device (by a failed test) count as well */
	n_grp -= self->base.mcast_groups;

	for (i = 0; i <= n_att; i++) {
		qp[i] = ud_qp_rts(self->fd, self->pd, self->cq);
		ASSERT_LE(0, qp[i]);
	}
	/* n_att members, then ENOMEM */
	for (i = 0; i < n_att; i++)
		EXPECT_EQ(0, attach(self->fd, qp[i], self->g1, 0xc001));
	EXPECT_EQ(-ENOMEM, attach(self->fd, qp[n_att], self->g1, 0xc001));
	/* groups up to the device's limit (g1 is one), then ENOMEM */
	memcpy(gid, self->g2, 16);
	for (i = 1; i < n_grp; i++) {
		gid[14] = i;
		EXPECT_EQ(0, attach(self->fd, qp[n_att], gid, 0xc100 + i));
	}
	gid[14] = 0x7f;
	EXPECT_EQ(-ENOMEM, attach(self->fd, qp[n_att], gid, 0xc001));
	EXPECT_LIVE(n_att + 1, n_grp, n_att + n_grp - 1);
	/* everything goes with the file (the fixture closes it) */
}

/* Closing the file detaches what was left and destroys the QPs. */
TEST_F(hv, mcast_left_attached_freed_on_close)
{
	struct ib_uverbs_create_cq_resp cr;
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ovbtest_device_info now;
	char path[PATH_MAX];
	int fd, pd, a, b;

	ASSERT_EQ(0, ovbtest_dev_path(path, sizeof(path), 0));
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ovbtest_get_context(fd, &uctx));
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	ASSERT_EQ(0, raw_create_cq(fd, 8, 0, -1, 2, &cr));
	a = ud_qp_rts(fd, pd, cr.cq_handle);
	b = ud_qp_rts(fd, pd, cr.cq_handle);
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	EXPECT_EQ(0, attach(fd, a, self->g1, 0xc001));
	EXPECT_EQ(0, attach(fd, a, self->g2, 0xc002));
	EXPECT_EQ(0, attach(fd, b, self->g1, 0xc001));
	EXPECT_LIVE(2, 2, 3);
	close(fd);

	now = ovbtest_info(self->fd);
	EXPECT_EQ(self->base.qps, now.qps);
	EXPECT_EQ(self->base.mcast_groups, now.mcast_groups);
	EXPECT_EQ(self->base.mcast_attached, now.mcast_attached);
	EXPECT_EQ(self->base.contexts, now.contexts);
	EXPECT_EQ(self->base.cqs, now.cqs);
	EXPECT_EQ(self->base.pds, now.pds);
}

/*
 * A refused pair leaves nothing behind: closing the file with the one real
 * attachment left detaches it, and the QP goes (the unload would WARN if
 * it stayed on the device).
 */
TEST_F(hv, mcast_refused_pair_then_close)
{
	struct ib_uverbs_create_cq_resp cr;
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ovbtest_device_info now;
	char path[PATH_MAX];
	int fd, pd, qp;

	ASSERT_EQ(0, ovbtest_dev_path(path, sizeof(path), 0));
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ovbtest_get_context(fd, &uctx));
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	ASSERT_EQ(0, raw_create_cq(fd, 8, 0, -1, 3, &cr));
	qp = ud_qp_rts(fd, pd, cr.cq_handle);
	ASSERT_LE(0, qp);
	EXPECT_EQ(0, attach(fd, qp, self->g1, 0xc001));
	EXPECT_EQ(-EINVAL, attach(fd, qp, self->g1, 0xc002));
	EXPECT_LIVE(1, 1, 1);
	close(fd);

	now = ovbtest_info(self->fd);
	EXPECT_EQ(self->base.qps, now.qps);
	EXPECT_EQ(self->base.mcast_groups, now.mcast_groups);
	EXPECT_EQ(self->base.mcast_attached, now.mcast_attached);
	EXPECT_EQ(self->base.pds, now.pds);
}

/* ------------------------------------------------------------------ CQs */

TEST_F(hv, poll_cq_empty_and_notify)
{
	struct {
		struct ib_uverbs_poll_cq_resp hdr;
		struct ib_uverbs_wc wc[4];
	} resp;
	struct ib_uverbs_poll_cq req = {
		.response = (uintptr_t)&resp,
		.cq_handle = self->cq,
		.ne = 4,
	};
	struct ib_uverbs_req_notify_cq nreq = { .cq_handle = self->cq };

	memset(&resp, 0xa5, sizeof(resp));
	EXPECT_EQ(sizeof(struct ib_uverbs_cmd_hdr) + sizeof(req),
		  raw_cmd(self->fd, IB_USER_VERBS_CMD_POLL_CQ, &req,
			  sizeof(req), sizeof(resp)));
	EXPECT_EQ(0, resp.hdr.count);

	EXPECT_EQ(sizeof(struct ib_uverbs_cmd_hdr) + sizeof(nreq),
		  raw_cmd(self->fd, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &nreq,
			  sizeof(nreq), 0));
	nreq.solicited_only = 1;
	EXPECT_EQ(sizeof(struct ib_uverbs_cmd_hdr) + sizeof(nreq),
		  raw_cmd(self->fd, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &nreq,
			  sizeof(nreq), 0));
	nreq.cq_handle = self->cq + 100;
	EXPECT_EQ(-ENOENT, raw_cmd(self->fd, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ,
				   &nreq, sizeof(nreq), 0));
}

/* Last: nothing may be left on the driver; its unload WARNs if so. */
FIXTURE(unload) {
};

FIXTURE_SETUP(unload)
{
}

FIXTURE_TEARDOWN(unload)
{
}

TEST_F(unload, module_unloads)
{
	int k;

	if (!ovbtest_loaded())
		SKIP(return, "ovbtest not loaded");
	k = ovbtest_kmsg_mark();
	ASSERT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_loaded());
	/* the driver WARNs at exit if a QP, group or membership is left */
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
}

/*
 * Hot-unplug under a QP with a membership: ib_uverbs detaches and
 * destroys it for the driver before the module goes (no WARN), and the
 * file answers EIO afterwards.
 */
TEST_F(unload, unplug_with_attached_qp)
{
	static const __u8 g[16] = { 0xff, 0x0e, [14] = 0x55, [15] = 0x01 };
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ib_uverbs_create_cq_resp cr;
	char path[PATH_MAX];
	int fd, pd, qp, k, ret;

	ret = ovbtest_load();
	if (ret == -ENOENT)
		SKIP(return, "ovbtest.ko not built (make selftests KDIR=...)");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, ovbtest_dev_path(path, sizeof(path), 5000));
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ovbtest_get_context(fd, &uctx));
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	ASSERT_EQ(0, raw_create_cq(fd, 8, 0, -1, 4, &cr));
	qp = ud_qp_rts(fd, pd, cr.cq_handle);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, attach(fd, qp, g, 0xc001));

	k = ovbtest_kmsg_mark();
	ASSERT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_loaded());
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
	EXPECT_EQ(-EIO, detach(fd, qp, g, 0xc001));
	close(fd);
}

TEST_HARNESS_MAIN
