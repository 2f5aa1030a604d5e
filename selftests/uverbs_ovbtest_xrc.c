// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The verbs rdma_rxe lacks, on the test HCA (selftests/ovbtest/, ovbtest.ko),
 * through raw write() commands on whichever ib_uverbs is loaded:
 *  - XRC: OPEN_XRCD on a file (O_CREAT/O_EXCL; the same inode in two
 *    uverbs files is one domain), CLOSE_XRCD refused while the domain's
 *    SRQs and QPs live, CREATE_XSRQ, XRC TGT QPs made through the domain,
 *    OPEN_QP from a second file, and who keeps the TGT QP alive;
 *  - receive WQs, RWQ indirection tables and a RAW_PACKET RSS QP;
 *  - flow steering rules: the specs the driver received (read back with
 *    OVBTEST_METHOD_DEVICE_LAST_FLOW) and malformed rules.
 * The driver counts its live domains, SRQs, WQs, tables, flows and QPs
 * (OVBTEST_METHOD_DEVICE_RES), so each case sees what is left on it.
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
#include "ovbtest_xrc.h"

/* ------------------------------------------------------------- helpers */

/* The legacy CREATE_SRQ (basic); the handle or -errno. */
static int create_srq(int fd, __u32 pd, __u32 max_wr,
		      struct ib_uverbs_create_srq_resp *resp)
{
	struct {
		struct ib_uverbs_create_srq_resp core;
		char drv[RAW_DRV_OUT];
	} out;
	struct ib_uverbs_create_srq req = {
		.response = (uintptr_t)&out,
		.user_handle = 0x5f,
		.pd_handle = pd,
		.max_wr = max_wr,
		.max_sge = 1,
	};
	ssize_t ret;

	memset(&out, 0xaa, sizeof(out));
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &req, sizeof(req),
		      sizeof(out));
	if (ret < 0)
		return ret;
	if (resp)
		*resp = out.core;
	return (int)out.core.srq_handle;
}

/* RESET -> INIT of an RC or XRC QP. */
static int qp_init(int fd, __u32 qp)
{
	struct ib_uverbs_modify_qp req = {
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_PKEY_INDEX | QP_PORT |
			     QP_ACCESS_FLAGS,
		.qp_state = QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IB_UVERBS_ACCESS_REMOTE_WRITE,
	};

	return raw_modify_qp(fd, &req);
}

/* The QP's state, or -errno. */
static int qp_state(int fd, __u32 qp)
{
	struct ib_uverbs_query_qp_resp resp = {};
	struct ib_uverbs_query_qp req = {
		.response = (uintptr_t)&resp,
		.qp_handle = qp,
		.attr_mask = QP_STATE,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_QUERY_QP, &req,
			      sizeof(req), sizeof(resp));

	return ret < 0 ? (int)ret : resp.qp_state;
}

/* -------------------------------------------------------------- fixture */

FIXTURE(xrc) {
	int fd, fd2;		/* two uverbs files of the device */
	int pd, cq;		/* of fd */
	int file, file2;	/* two opens of one inode: the domain's name */
	int other;		/* another inode */
	struct ovbtest_res_info base;
};

FIXTURE_SETUP(xrc)
{
	char name[] = "/tmp/uverbs_ovbtest_xrc.XXXXXX";

	self->fd = self->fd2 = self->file = self->file2 = self->other = -1;
	HCA_SETUP_LOAD();
	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	self->fd2 = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd2);
	self->pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);

	self->file = mkstemp(name);
	ASSERT_LE(0, self->file);
	self->file2 = open(name, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->file2);
	unlink(name);
	self->other = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->other);
	ASSERT_EQ(0, res_of(self->fd, &self->base));
}

FIXTURE_TEARDOWN(xrc)
{
	if (self->fd2 >= 0)
		close(self->fd2);
	if (self->fd >= 0)
		close(self->fd);
	if (self->file >= 0)
		close(self->file);
	if (self->file2 >= 0)
		close(self->file2);
	if (self->other >= 0)
		close(self->other);
}

/* The device's live domains, SRQs and QPs, relative to the setup. */
#define EXPECT_RES(fd, n_xrcd, n_srq, n_qp) do {			\
	struct ovbtest_res_info _r;					\
	ASSERT_EQ(0, res_of(fd, &_r));					\
	EXPECT_EQ(self->base.xrcds + (n_xrcd), _r.xrcds);		\
	EXPECT_EQ(self->base.srqs + (n_srq), _r.srqs);			\
	EXPECT_EQ(self->base.qps + (n_qp), _r.qps);			\
} while (0)

/* ---------------------------------------------------------------- XRCD */

/*
 * A file names a domain: without O_CREAT only an existing one (EAGAIN),
 * O_EXCL refuses an existing one (EINVAL), a bad fd is EBADF; fd -1 is a
 * private domain whatever the flags.
 */
TEST_F(xrc, open_xrcd_flags)
{
	int x1, x2, xp;

	EXPECT_EQ(-EAGAIN, open_xrcd(self->fd, self->file, 0));
	EXPECT_EQ(-EBADF, open_xrcd(self->fd, 1000, O_CREAT));
	EXPECT_RES(self->fd, 0, 0, 0);

	x1 = open_xrcd(self->fd, self->file, O_CREAT | O_EXCL);
	ASSERT_LE(0, x1);
	EXPECT_RES(self->fd, 1, 0, 0);
	EXPECT_EQ(-EINVAL, open_xrcd(self->fd, self->file, O_CREAT | O_EXCL));
	EXPECT_EQ(-EINVAL, open_xrcd(self->fd2, self->file2, O_EXCL));
	/* the same file again: a second handle of the same domain */
	x2 = open_xrcd(self->fd, self->file, 0);
	ASSERT_LE(0, x2);
	EXPECT_NE(x1, x2);
	EXPECT_RES(self->fd, 1, 0, 0);

	xp = open_xrcd(self->fd, -1, 0);
	ASSERT_LE(0, xp);
	EXPECT_RES(self->fd, 2, 0, 0);
	EXPECT_EQ(0, close_xrcd(self->fd, xp));
	EXPECT_RES(self->fd, 1, 0, 0);

	/* the domain goes with its last handle */
	EXPECT_EQ(0, close_xrcd(self->fd, x1));
	EXPECT_RES(self->fd, 1, 0, 0);
	EXPECT_EQ(0, close_xrcd(self->fd, x2));
	EXPECT_RES(self->fd, 0, 0, 0);
	EXPECT_EQ(-ENOENT, close_xrcd(self->fd, x2));
	/* gone from the inode too: O_CREAT needed again */
	EXPECT_EQ(-EAGAIN, open_xrcd(self->fd, self->file, 0));
}

/* Two uverbs files, two struct files of one inode: one domain. */
TEST_F(xrc, open_xrcd_shared_inode)
{
	int x1, x2, xo;

	x1 = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x1);
	x2 = open_xrcd(self->fd2, self->file2, 0);
	ASSERT_LE(0, x2);
	EXPECT_RES(self->fd, 1, 0, 0);
	xo = open_xrcd(self->fd2, self->other, O_CREAT);
	ASSERT_LE(0, xo);
	EXPECT_RES(self->fd, 2, 0, 0);

	/* the first opener leaves: the domain stays for the second */
	EXPECT_EQ(0, close_xrcd(self->fd, x1));
	EXPECT_RES(self->fd, 2, 0, 0);
	/* still named by the inode: fd opens it again without O_CREAT */
	x1 = open_xrcd(self->fd, self->file, 0);
	ASSERT_LE(0, x1);
	EXPECT_RES(self->fd, 2, 0, 0);
	EXPECT_EQ(0, close_xrcd(self->fd2, x2));
	EXPECT_EQ(0, close_xrcd(self->fd2, xo));
	/* fd's reopened handle still holds it */
	EXPECT_RES(self->fd, 1, 0, 0);
	close(self->fd2);
	self->fd2 = -1;
	close(self->fd);
	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	EXPECT_RES(self->fd, 0, 0, 0);
}

/* ----------------------------------------------------------------- SRQs */

/* An XRC SRQ: a number, its CQ and domain; limits as mlx5. */
TEST_F(xrc, xsrq_create_modify_query)
{
	struct ib_uverbs_create_srq_resp r;
	struct ib_uverbs_query_srq_resp q;
	int x, s;

	x = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x);
	s = create_xsrq(self->fd, SRQT_XRC, self->pd, x, self->cq, 32, &r);
	ASSERT_LE(0, s);
	EXPECT_NE(0, r.srqn);
	EXPECT_EQ(32, r.max_wr);
	EXPECT_EQ(1, r.max_sge);
	EXPECT_RES(self->fd, 1, 1, 0);

	memset(&q, 0xff, sizeof(q));
	EXPECT_EQ(0, raw_query_srq(self->fd, s, &q));
	EXPECT_EQ(32, q.max_wr);
	EXPECT_EQ(1, q.max_sge);
	EXPECT_EQ(0, q.srq_limit);
	EXPECT_EQ(0, raw_modify_srq(self->fd, s, SRQ_LIMIT, 0, 7, 0));
	EXPECT_EQ(0, raw_query_srq(self->fd, s, &q));
	EXPECT_EQ(7, q.srq_limit);
	EXPECT_EQ(-EINVAL, raw_modify_srq(self->fd, s, SRQ_LIMIT, 0, 32, 0));
	EXPECT_EQ(-EINVAL, raw_modify_srq(self->fd, s, SRQ_MAX_WR, 64, 0, 0));
	EXPECT_EQ(-EOPNOTSUPP, raw_modify_srq(self->fd, s, 1 << 2, 0, 0, 0));
	EXPECT_EQ(0, raw_query_srq(self->fd, s, &q));
	EXPECT_EQ(32, q.max_wr);
	EXPECT_EQ(7, q.srq_limit);

	/* the domain, the CQ and the PD are in use */
	EXPECT_EQ(-EBUSY, close_xrcd(self->fd, x));
	EXPECT_EQ(-EBUSY, raw_destroy_cq(self->fd, self->cq, NULL));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));
	EXPECT_RES(self->fd, 1, 1, 0);
	EXPECT_EQ(0, raw_destroy_srq(self->fd, s, NULL));
	EXPECT_EQ(-ENOENT, raw_destroy_srq(self->fd, s, NULL));
	EXPECT_EQ(0, close_xrcd(self->fd, x));
	EXPECT_RES(self->fd, 0, 0, 0);
}

TEST_F(xrc, xsrq_refused)
{
	struct ib_uverbs_create_srq_resp r;
	int x;

	x = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x);
	/* not a domain, not a CQ, not a PD */
	EXPECT_EQ(-EINVAL, create_xsrq(self->fd, SRQT_XRC, self->pd, self->pd,
				       self->cq, 8, &r));
	EXPECT_EQ(-EINVAL, create_xsrq(self->fd, SRQT_XRC, self->pd, x,
				       self->pd, 8, &r));
	EXPECT_EQ(-EINVAL, create_xsrq(self->fd, SRQT_XRC, x, x, self->cq, 8,
				       &r));
	/* the driver's limits; tag matching it does not do */
	EXPECT_EQ(-EINVAL, create_xsrq(self->fd, SRQT_XRC, self->pd, x,
				       self->cq, 0, &r));
	EXPECT_EQ(-EINVAL, create_xsrq(self->fd, SRQT_XRC, self->pd, x,
				       self->cq, 4096, &r));
	EXPECT_EQ(-EOPNOTSUPP, create_xsrq(self->fd, SRQT_TM, self->pd, x,
					   self->cq, 8, &r));
	/* a domain of the other file is not this file's handle */
	EXPECT_EQ(-EINVAL, create_xsrq(self->fd2, SRQT_XRC, self->pd, x,
				       self->cq, 8, &r));
	EXPECT_RES(self->fd, 1, 0, 0);
	/* nothing held: the domain closes */
	EXPECT_EQ(0, close_xrcd(self->fd, x));
	EXPECT_EQ(0, raw_destroy_cq(self->fd, self->cq, NULL));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
}

/* CREATE_SRQ and CREATE_XSRQ of a basic SRQ: no number, no domain. */
TEST_F(xrc, basic_srq)
{
	struct ib_uverbs_create_srq_resp r;
	int s1, s2, qp;

	s1 = create_srq(self->fd, self->pd, 16, &r);
	ASSERT_LE(0, s1);
	EXPECT_EQ(16, r.max_wr);
	/* the response of the legacy CREATE_SRQ too has srqn: 0 */
	EXPECT_EQ(0, r.srqn);
	s2 = create_xsrq(self->fd, SRQT_BASIC, self->pd, 12345, 12345, 16, &r);
	ASSERT_LE(0, s2);
	EXPECT_EQ(0, r.srqn);
	EXPECT_RES(self->fd, 0, 2, 0);

	/* an RC QP on a basic SRQ: the driver has no SRQ QPs */
	qp = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, s1, NULL);
	EXPECT_EQ(-EOPNOTSUPP, qp);
	EXPECT_EQ(0, raw_destroy_srq(self->fd, s1, NULL));
	EXPECT_EQ(0, raw_destroy_srq(self->fd, s2, NULL));
	EXPECT_RES(self->fd, 0, 0, 0);
}

/* An XRC SRQ is no SRQ for a non-XRC QP (EINVAL from ib_uverbs). */
TEST_F(xrc, xsrq_not_for_rc_qp)
{
	int x, s;

	x = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x);
	s = create_xsrq(self->fd, SRQT_XRC, self->pd, x, self->cq, 8, NULL);
	ASSERT_LE(0, s);
	EXPECT_EQ(-EINVAL, raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, s,
				     NULL));
	EXPECT_RES(self->fd, 1, 1, 0);
	EXPECT_EQ(0, raw_destroy_srq(self->fd, s, NULL));
	EXPECT_EQ(0, close_xrcd(self->fd, x));
}

/* ------------------------------------------------------------- XRC QPs */

/* An XRC INI QP: PD and send CQ, no receive side. */
TEST_F(xrc, xrc_ini_qp)
{
	__u32 qpn = 0;
	int qp;

	qp = raw_create_qp(self->fd, QPT_XRC_INI, self->pd, self->cq, -1, &qpn);
	ASSERT_LE(0, qp);
	EXPECT_LE(2, qpn);
	EXPECT_RES(self->fd, 0, 0, 1);
	EXPECT_EQ(QPS_RESET, qp_state(self->fd, qp));
	EXPECT_EQ(0, qp_init(self->fd, qp));
	EXPECT_EQ(QPS_INIT, qp_state(self->fd, qp));
	EXPECT_EQ(-EBUSY, raw_destroy_cq(self->fd, self->cq, NULL));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	EXPECT_RES(self->fd, 0, 0, 0);
}

/*
 * An XRC TGT QP is made through the domain (its handle in pd_handle),
 * holds it and takes no PD or CQ.
 */
TEST_F(xrc, xrc_tgt_qp)
{
	__u32 qpn = 0;
	int x, qp;

	x = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x);
	EXPECT_EQ(-EINVAL, raw_create_qp(self->fd, QPT_XRC_TGT, self->pd, 0, -1,
				     NULL));
	qp = raw_create_qp(self->fd, QPT_XRC_TGT, x, 12345, -1, &qpn);
	ASSERT_LE(0, qp);
	EXPECT_LE(2, qpn);
	EXPECT_RES(self->fd, 1, 0, 1);
	EXPECT_EQ(-EBUSY, close_xrcd(self->fd, x));
	/* no PD or CQ is held */
	EXPECT_EQ(0, raw_destroy_cq(self->fd, self->cq, NULL));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));

	EXPECT_EQ(QPS_RESET, qp_state(self->fd, qp));
	EXPECT_EQ(0, qp_init(self->fd, qp));
	EXPECT_EQ(QPS_INIT, qp_state(self->fd, qp));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	EXPECT_RES(self->fd, 1, 0, 0);
	EXPECT_EQ(0, close_xrcd(self->fd, x));
	EXPECT_RES(self->fd, 0, 0, 0);
}

/* OPEN_QP by number from a second file through the shared domain. */
TEST_F(xrc, open_qp)
{
	__u32 qpn = 0, oqpn = 0;
	int x1, x2, xo, qp, oqp;

	x1 = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x1);
	qp = raw_create_qp(self->fd, QPT_XRC_TGT, x1, 0, -1, &qpn);
	ASSERT_LE(0, qp);
	x2 = open_xrcd(self->fd2, self->file2, 0);
	ASSERT_LE(0, x2);
	xo = open_xrcd(self->fd2, self->other, O_CREAT);
	ASSERT_LE(0, xo);

	/* a number the domain has not, the wrong type, the wrong domain */
	EXPECT_EQ(-EINVAL, open_qp(self->fd2, x2, qpn + 1000, QPT_XRC_TGT,
				   NULL));
	EXPECT_EQ(-EINVAL, open_qp(self->fd2, x2, qpn, QPT_RC, NULL));
	EXPECT_EQ(-EINVAL, open_qp(self->fd2, x2, qpn, QPT_XRC_INI, NULL));
	EXPECT_EQ(-EINVAL, open_qp(self->fd2, xo, qpn, QPT_XRC_TGT, NULL));
	EXPECT_EQ(-EINVAL, open_qp(self->fd2, 12345, qpn, QPT_XRC_TGT, NULL));

	oqp = open_qp(self->fd2, x2, qpn, QPT_XRC_TGT, &oqpn);
	ASSERT_LE(0, oqp);
	EXPECT_EQ(qpn, oqpn);
	EXPECT_RES(self->fd, 2, 0, 1);
	/* the opened handle holds fd2's domain handle */
	EXPECT_EQ(-EBUSY, close_xrcd(self->fd2, x2));

	/* one QP under two handles: a modify through one shows in both */
	EXPECT_EQ(QPS_RESET, qp_state(self->fd2, oqp));
	EXPECT_EQ(0, qp_init(self->fd2, oqp));
	EXPECT_EQ(QPS_INIT, qp_state(self->fd, qp));
	EXPECT_EQ(QPS_INIT, qp_state(self->fd2, oqp));

	EXPECT_EQ(0, raw_destroy_qp(self->fd2, oqp));
	EXPECT_EQ(-ENOENT, qp_state(self->fd2, oqp));
	EXPECT_RES(self->fd, 2, 0, 1);
	EXPECT_EQ(QPS_INIT, qp_state(self->fd, qp));
	EXPECT_EQ(0, close_xrcd(self->fd2, x2));
	EXPECT_EQ(0, close_xrcd(self->fd2, xo));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	EXPECT_EQ(0, close_xrcd(self->fd, x1));
	EXPECT_RES(self->fd, 0, 0, 0);
}

/*
 * The creator's handle goes first: the TGT QP lives on for the opener
 * (and can be opened again by number), and goes with the last handle.
 */
TEST_F(xrc, open_qp_outlives_creator_handle)
{
	__u32 qpn = 0;
	int x1, x2, qp, oqp, again;

	x1 = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x1);
	qp = raw_create_qp(self->fd, QPT_XRC_TGT, x1, 0, -1, &qpn);
	ASSERT_LE(0, qp);
	x2 = open_xrcd(self->fd2, self->file2, 0);
	ASSERT_LE(0, x2);
	oqp = open_qp(self->fd2, x2, qpn, QPT_XRC_TGT, NULL);
	ASSERT_LE(0, oqp);

	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	EXPECT_RES(self->fd, 1, 0, 1);
	EXPECT_EQ(0, close_xrcd(self->fd, x1));
	EXPECT_RES(self->fd, 1, 0, 1);
	EXPECT_EQ(QPS_RESET, qp_state(self->fd2, oqp));
	EXPECT_EQ(0, qp_init(self->fd2, oqp));

	/* still the domain's: a second handle in the same file */
	again = open_qp(self->fd2, x2, qpn, QPT_XRC_TGT, NULL);
	ASSERT_LE(0, again);
	EXPECT_EQ(QPS_INIT, qp_state(self->fd2, again));
	EXPECT_EQ(0, raw_destroy_qp(self->fd2, oqp));
	EXPECT_RES(self->fd, 1, 0, 1);
	EXPECT_EQ(-EBUSY, close_xrcd(self->fd2, x2));
	EXPECT_EQ(0, raw_destroy_qp(self->fd2, again));
	EXPECT_RES(self->fd, 1, 0, 0);
	/* the number is gone from the domain */
	EXPECT_EQ(-EINVAL, open_qp(self->fd2, x2, qpn, QPT_XRC_TGT, NULL));
	EXPECT_EQ(0, close_xrcd(self->fd2, x2));
	EXPECT_RES(self->fd, 0, 0, 0);
}

/*
 * Closing the creator's file with the QP opened elsewhere: the QP and
 * the domain live on; closing the opener's file frees them.
 */
TEST_F(xrc, close_files_frees_everything)
{
	__u32 qpn = 0;
	int x1, x2, qp, oqp, s, fd3;

	x1 = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x1);
	qp = raw_create_qp(self->fd, QPT_XRC_TGT, x1, 0, -1, &qpn);
	ASSERT_LE(0, qp);
	s = create_xsrq(self->fd, SRQT_XRC, self->pd, x1, self->cq, 8, NULL);
	ASSERT_LE(0, s);
	ASSERT_LE(0, raw_create_qp(self->fd, QPT_XRC_INI, self->pd, self->cq, -1,
			       NULL));
	x2 = open_xrcd(self->fd2, self->file2, 0);
	ASSERT_LE(0, x2);
	oqp = open_qp(self->fd2, x2, qpn, QPT_XRC_TGT, NULL);
	ASSERT_LE(0, oqp);
	EXPECT_RES(self->fd, 1, 1, 2);

	fd3 = ovbtest_open_ctx();
	ASSERT_LE(0, fd3);
	close(self->fd);
	self->fd = -1;
	/* the TGT QP and the domain are fd2's now; the INI QP and SRQ went */
	EXPECT_RES(fd3, 1, 0, 1);
	EXPECT_EQ(QPS_RESET, qp_state(self->fd2, oqp));
	close(self->fd2);
	self->fd2 = -1;
	EXPECT_RES(fd3, 0, 0, 0);
	/* and the inode names no domain any more */
	EXPECT_EQ(-EAGAIN, open_xrcd(fd3, self->file, 0));
	close(fd3);
}

/* The other order: the opener's file goes first. */
TEST_F(xrc, close_opener_first)
{
	__u32 qpn = 0;
	int x1, x2, qp, oqp;

	x1 = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x1);
	qp = raw_create_qp(self->fd, QPT_XRC_TGT, x1, 0, -1, &qpn);
	ASSERT_LE(0, qp);
	x2 = open_xrcd(self->fd2, self->file2, 0);
	ASSERT_LE(0, x2);
	oqp = open_qp(self->fd2, x2, qpn, QPT_XRC_TGT, NULL);
	ASSERT_LE(0, oqp);
	close(self->fd2);
	self->fd2 = -1;
	EXPECT_RES(self->fd, 1, 0, 1);
	EXPECT_EQ(QPS_RESET, qp_state(self->fd, qp));
	EXPECT_EQ(-EBUSY, close_xrcd(self->fd, x1));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	EXPECT_EQ(0, close_xrcd(self->fd, x1));
	EXPECT_RES(self->fd, 0, 0, 0);
}

/* ------------------------------------------------------ WQs and tables */

static int modify_wq(int fd, __u32 handle, __u32 mask, __u32 state,
		     __u32 cur)
{
	struct ib_uverbs_ex_modify_wq req = {
		.attr_mask = mask,
		.wq_handle = handle,
		.wq_state = state,
		.curr_wq_state = cur,
	};
	ssize_t ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_MODIFY_WQ, &req,
				 sizeof(req), 0, NULL, 0, 0);

	return ret < 0 ? (int)ret : 0;
}

/*
 * CREATE_RWQ_IND_TBL of 2^@log WQs (@n handles given, the words after
 * them @pad); the handle or -errno.
 */
static int create_tbl(int fd, __u32 log, const __u32 *wqs, int n, __u32 pad,
		      __u32 comp_mask, __u32 *num)
{
	struct ib_uverbs_ex_create_rwq_ind_table_resp out = {};
	struct {
		struct ib_uverbs_ex_create_rwq_ind_table hdr;
		__u32 h[34];
	} req;
	size_t len;
	ssize_t ret;
	int i;

	memset(&req, 0, sizeof(req));
	req.hdr.comp_mask = comp_mask;
	req.hdr.log_ind_tbl_size = log;
	for (i = 0; i < n; i++)
		req.h[i] = wqs[i];
	req.h[n] = pad;
	len = (sizeof(req.hdr) + (n + 1) * sizeof(__u32) + 7) & ~7UL;
	ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL, &req,
			 len, 0, &out, sizeof(out), 0);
	if (ret < 0)
		return ret;
	if (num)
		*num = out.ind_tbl_num;
	return (int)out.ind_tbl_handle;
}

static int destroy_tbl(int fd, __u32 handle)
{
	struct ib_uverbs_ex_destroy_rwq_ind_table req = {
		.ind_tbl_handle = handle,
	};
	ssize_t ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL,
				 &req, sizeof(req), 0, NULL, 0, 0);

	return ret < 0 ? (int)ret : 0;
}

/* EX_CREATE_QP of a RAW_PACKET QP over table @tbl (RSS). */
static int create_rss_qp(int fd, __u32 pd, __u32 cq, __u32 tbl,
			 __u32 send_wr, __u32 recv_wr)
{
	struct ib_uverbs_ex_create_qp_resp out = {};
	struct ib_uverbs_ex_create_qp req = {
		.user_handle = 0x55,
		.pd_handle = pd,
		.send_cq_handle = cq,
		.recv_cq_handle = cq,
		.max_send_wr = send_wr,
		.max_send_sge = send_wr ? 1 : 0,
		.max_recv_wr = recv_wr,
		.qp_type = QPT_RAW_PACKET,
		.comp_mask = IB_UVERBS_CREATE_QP_MASK_IND_TABLE,
		.rwq_ind_tbl_handle = tbl,
	};
	ssize_t ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_CREATE_QP, &req,
				 sizeof(req), 0, &out, sizeof(out), 0);

	return ret < 0 ? (int)ret : (int)out.base.qp_handle;
}

FIXTURE(wq) {
	int fd;
	int pd, cq;
	struct ovbtest_res_info base;
};

FIXTURE_SETUP(wq)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);
	ASSERT_EQ(0, res_of(self->fd, &self->base));
}

FIXTURE_TEARDOWN(wq)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The device's live WQs, tables and QPs, relative to the setup. */
#define EXPECT_WQS(fd, n_wq, n_tbl, n_qp) do {				\
	struct ovbtest_res_info _r;					\
	ASSERT_EQ(0, res_of(fd, &_r));					\
	EXPECT_EQ(self->base.wqs + (n_wq), _r.wqs);			\
	EXPECT_EQ(self->base.rwq_ind_tbls + (n_tbl), _r.rwq_ind_tbls);	\
	EXPECT_EQ(self->base.qps + (n_qp), _r.qps);			\
} while (0)

TEST_F(wq, create_destroy)
{
	struct ib_uverbs_ex_create_wq_resp r = {};
	int wq;

	EXPECT_EQ(-EOPNOTSUPP, create_wq(self->fd, self->pd, self->cq, 0, 8, 1,
					 &r));
	EXPECT_EQ(-EOPNOTSUPP, create_wq(self->fd, self->pd, self->cq, 1, 8, 0,
					 &r));
	EXPECT_EQ(-EINVAL, create_wq(self->fd, self->pd, self->cq, 0, 0, 0,
				     &r));
	EXPECT_EQ(-EINVAL, create_wq(self->fd, self->pd, self->pd, 0, 8, 0,
				     &r));
	EXPECT_WQS(self->fd, 0, 0, 0);

	wq = create_wq(self->fd, self->pd, self->cq, 0, 8, 0, &r);
	ASSERT_LE(0, wq);
	EXPECT_NE(0, r.wqn);
	EXPECT_EQ(8, r.max_wr);
	EXPECT_EQ(1, r.max_sge);
	EXPECT_EQ(sizeof(r), r.response_length);
	EXPECT_WQS(self->fd, 1, 0, 0);
	EXPECT_EQ(-EBUSY, raw_destroy_cq(self->fd, self->cq, NULL));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));
	EXPECT_EQ(0, destroy_wq(self->fd, wq));
	EXPECT_EQ(-ENOENT, destroy_wq(self->fd, wq));
	EXPECT_WQS(self->fd, 0, 0, 0);
	EXPECT_EQ(0, raw_destroy_cq(self->fd, self->cq, NULL));
}

/*
 * MODIFY_WQ: ib_uverbs checks the mask, the driver the transition (the
 * state it keeps in ib_wq::state is what ib_uverbs fills in as the
 * current one when the user does not name it).
 */
TEST_F(wq, modify_states)
{
	int wq;

	wq = create_wq(self->fd, self->pd, self->cq, 0, 8, 0, NULL);
	ASSERT_LE(0, wq);
	EXPECT_EQ(-EINVAL, modify_wq(self->fd, wq, 0, WQS_RDY, 0));
	EXPECT_EQ(-EINVAL, modify_wq(self->fd, wq, 1 << 3, WQS_RDY, 0));
	EXPECT_EQ(-EOPNOTSUPP, modify_wq(self->fd, wq, WQ_FLAGS, 0, 0));
	EXPECT_EQ(-EINVAL, modify_wq(self->fd, wq, WQ_STATE, WQS_ERR, 0));
	EXPECT_EQ(0, modify_wq(self->fd, wq, WQ_STATE, WQS_RDY, 0));
	/* a current state that is not the WQ's */
	EXPECT_EQ(-EINVAL, modify_wq(self->fd, wq, WQ_STATE | WQ_CUR_STATE,
				     WQS_ERR, WQS_RESET));
	EXPECT_EQ(0, modify_wq(self->fd, wq, WQ_STATE | WQ_CUR_STATE,
			       WQS_ERR, WQS_RDY));
	EXPECT_EQ(-EINVAL, modify_wq(self->fd, wq, WQ_STATE, WQS_RDY, 0));
	/* CUR_STATE alone: a move to the same state */
	EXPECT_EQ(0, modify_wq(self->fd, wq, WQ_CUR_STATE, 0, WQS_ERR));
	EXPECT_EQ(0, modify_wq(self->fd, wq, WQ_STATE, WQS_RESET, 0));
	EXPECT_EQ(0, modify_wq(self->fd, wq, WQ_STATE, WQS_RDY, 0));
	EXPECT_EQ(-ENOENT, modify_wq(self->fd, wq + 100, WQ_STATE, WQS_RDY,
				     0));
	EXPECT_EQ(0, destroy_wq(self->fd, wq));
}

/*
 * A state beyond ERR: EINVAL, and the WQ must stay destroyable.  6.1
 * returns before releasing the WQ it looked up (ib_uverbs_ex_modify_wq):
 * the WQ is read-locked for good, DESTROY_WQ answers EBUSY and closing
 * the file WARNs in __uverbs_cleanup_ufile; ours releases it.  Not run
 * on the in-tree stack (it would splat).
 */
TEST_F(wq, modify_bad_state_releases_wq)
{
	int wq;

	if (raw_stack_is_intree())
		SKIP(return, "6.1 and 6.12 leak the WQ's read lock here (WARN on close)");
	wq = create_wq(self->fd, self->pd, self->cq, 0, 8, 0, NULL);
	ASSERT_LE(0, wq);
	EXPECT_EQ(-EINVAL, modify_wq(self->fd, wq, WQ_STATE, WQS_ERR + 1, 0));
	EXPECT_EQ(-EINVAL, modify_wq(self->fd, wq, WQ_CUR_STATE | WQ_STATE,
				     WQS_RDY, WQS_ERR + 1));
	EXPECT_EQ(0, destroy_wq(self->fd, wq));
	EXPECT_WQS(self->fd, 0, 0, 0);
}

TEST_F(wq, ind_table)
{
	__u32 wqs[4], two[2], many[32], num = 0, bad[1];
	int i, t, t2;

	for (i = 0; i < 4; i++) {
		t = create_wq(self->fd, self->pd, self->cq, 0, 8, 0, NULL);
		ASSERT_LE(0, t);
		wqs[i] = t;
	}
	/* ib_uverbs: log size at most 13, no comp_mask, zero padding */
	EXPECT_EQ(-EINVAL, create_tbl(self->fd, 14, wqs, 0, 0, 0, NULL));
	EXPECT_EQ(-EOPNOTSUPP, create_tbl(self->fd, 2, wqs, 4, 0, 1, NULL));
	EXPECT_EQ(-EOPNOTSUPP, create_tbl(self->fd, 1, wqs, 2, 7, 0, NULL));
	/* too few handles for the size: the request is short */
	EXPECT_EQ(-ENOSPC, create_tbl(self->fd, 2, wqs, 1, 0, 0, NULL));
	/* not WQs */
	bad[0] = self->pd;
	EXPECT_EQ(-EINVAL, create_tbl(self->fd, 0, bad, 1, 0, 0, NULL));
	bad[0] = 1000;
	EXPECT_EQ(-ENOENT, create_tbl(self->fd, 0, bad, 1, 0, 0, NULL));
	/* the driver's limit: 2^4 entries */
	for (i = 0; i < 32; i++)
		many[i] = wqs[i % 4];
	EXPECT_EQ(-EINVAL, create_tbl(self->fd, 5, many, 32, 0, 0, NULL));
	EXPECT_WQS(self->fd, 4, 0, 0);

	t = create_tbl(self->fd, 2, wqs, 4, 0, 0, &num);
	ASSERT_LE(0, t);
	EXPECT_NE(0, num);
	/* one WQ twice in a table */
	two[0] = two[1] = wqs[0];
	t2 = create_tbl(self->fd, 1, two, 2, 0, 0, NULL);
	ASSERT_LE(0, t2);
	EXPECT_WQS(self->fd, 4, 2, 0);

	/* a WQ in a table cannot go */
	EXPECT_EQ(-EBUSY, destroy_wq(self->fd, wqs[3]));
	EXPECT_EQ(0, destroy_tbl(self->fd, t));
	EXPECT_EQ(0, destroy_wq(self->fd, wqs[3]));
	EXPECT_EQ(-EBUSY, destroy_wq(self->fd, wqs[0]));
	EXPECT_EQ(0, destroy_tbl(self->fd, t2));
	EXPECT_EQ(-ENOENT, destroy_tbl(self->fd, t2));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, destroy_wq(self->fd, wqs[i]));
	EXPECT_WQS(self->fd, 0, 0, 0);
}

/* A RAW_PACKET QP spread over a table (RSS), receive only, as mlx5. */
TEST_F(wq, rss_qp)
{
	__u32 wqs[2];
	int i, t, qp;

	for (i = 0; i < 2; i++) {
		t = create_wq(self->fd, self->pd, self->cq, 0, 8, 0, NULL);
		ASSERT_LE(0, t);
		wqs[i] = t;
	}
	t = create_tbl(self->fd, 1, wqs, 2, 0, 0, NULL);
	ASSERT_LE(0, t);
	/* receive work comes from the WQs: not from the QP (ib_uverbs) */
	EXPECT_EQ(-EINVAL, create_rss_qp(self->fd, self->pd, self->cq, t, 0,
					 4));
	/* a send queue the driver has not */
	EXPECT_EQ(-EOPNOTSUPP, create_rss_qp(self->fd, self->pd, self->cq, t,
					     4, 0));
	EXPECT_EQ(-EINVAL, create_rss_qp(self->fd, self->pd, self->cq,
					 self->pd, 0, 0));
	qp = create_rss_qp(self->fd, self->pd, 12345, t, 0, 0);
	ASSERT_LE(0, qp);
	EXPECT_WQS(self->fd, 2, 1, 1);
	EXPECT_EQ(-EBUSY, destroy_tbl(self->fd, t));
	EXPECT_EQ(-EBUSY, destroy_wq(self->fd, wqs[0]));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	EXPECT_EQ(0, destroy_tbl(self->fd, t));
	EXPECT_EQ(0, destroy_wq(self->fd, wqs[0]));
	EXPECT_EQ(0, destroy_wq(self->fd, wqs[1]));
	EXPECT_WQS(self->fd, 0, 0, 0);
}

/* Closing the file frees QP, table and WQs in a working order. */
TEST_F(wq, close_frees_everything)
{
	__u32 wqs[2];
	int i, t, fd2;

	for (i = 0; i < 2; i++) {
		t = create_wq(self->fd, self->pd, self->cq, 0, 8, 0, NULL);
		ASSERT_LE(0, t);
		wqs[i] = t;
	}
	ASSERT_EQ(0, modify_wq(self->fd, wqs[0], WQ_STATE, WQS_RDY, 0));
	t = create_tbl(self->fd, 1, wqs, 2, 0, 0, NULL);
	ASSERT_LE(0, t);
	ASSERT_LE(0, create_rss_qp(self->fd, self->pd, self->cq, t, 0, 0));
	ASSERT_LE(0, ovbtest_async_fd(self->fd));
	ASSERT_LE(0, create_wq(self->fd, self->pd, self->cq, 0, 8, 0, NULL));
	EXPECT_WQS(self->fd, 3, 1, 1);
	fd2 = ovbtest_open_ctx();
	ASSERT_LE(0, fd2);
	close(self->fd);
	self->fd = -1;
	EXPECT_WQS(fd2, 0, 0, 0);
	close(fd2);
}

/* -------------------------------------------------------- flow steering */

enum {
	SPEC_ETH = 0x20, SPEC_IPV4 = 0x30, SPEC_IPV6 = 0x31,
	SPEC_TCP = 0x40, SPEC_UDP = 0x41,
	SPEC_TAG = 0x1000, SPEC_DROP = 0x1001,
};
enum { FLOW_NORMAL, FLOW_ALL_DEFAULT };

/* A rule as the user writes it: the header, then @len bytes of specs. */
struct flow_req {
	struct ib_uverbs_create_flow cmd;
	__u8 specs[512];
};

static void flow_init(struct flow_req *r, __u32 qp)
{
	memset(r, 0, sizeof(*r));
	r->cmd.qp_handle = qp;
	r->cmd.flow_attr.type = FLOW_NORMAL;
	r->cmd.flow_attr.priority = 3;
	r->cmd.flow_attr.port = 1;
}

/* Appends a spec of @type, @size bytes whose body is @body. */
static void flow_add(struct flow_req *r, __u32 type, __u16 size,
		     const void *body)
{
	struct ib_uverbs_flow_spec_hdr *h =
		(void *)(r->specs + r->cmd.flow_attr.size);

	h->type = type;
	h->size = size;
	if (size > sizeof(*h))
		memcpy(h + 1, body, size - sizeof(*h));
	r->cmd.flow_attr.size += size;
	r->cmd.flow_attr.num_of_specs++;
}

/* EX_CREATE_FLOW with @extra bytes beyond the specs; the handle or -errno. */
static int create_flow(int fd, struct flow_req *r, size_t extra)
{
	struct ib_uverbs_create_flow_resp out = {};
	size_t len = sizeof(r->cmd) + r->cmd.flow_attr.size + extra;
	ssize_t ret;

	ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_CREATE_FLOW, r,
			 (len + 7) & ~7UL, 0, &out, sizeof(out), 0);
	return ret < 0 ? (int)ret : (int)out.flow_handle;
}

static const struct ib_uverbs_flow_eth_filter ETH_VAL = {
	.dst_mac = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
	.ether_type = 0x0008,		/* htons(0x0800) */
};
static const struct ib_uverbs_flow_eth_filter ETH_MASK = {
	.dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	.ether_type = 0xffff,
};
static const struct ib_uverbs_flow_ipv4_filter IP_VAL = {
	.src_ip = 0x0100000a, .dst_ip = 0x0200000a, .proto = 6, .tos = 0x10,
};
static const struct ib_uverbs_flow_ipv4_filter IP_MASK = {
	.src_ip = 0xffffffff, .dst_ip = 0x00ffffff, .proto = 0xff,
};
static const struct ib_uverbs_flow_tcp_udp_filter TCP_VAL = {
	.dst_port = 0x5000, .src_port = 0x3930,
};
static const struct ib_uverbs_flow_tcp_udp_filter TCP_MASK = {
	.dst_port = 0xffff,
};

/* eth + ipv4 + tcp + tag, as ib_uverbs_flow_spec_* lay them out. */
static void flow_l4(struct flow_req *r, __u32 qp)
{
	__u8 b[64];
	__u32 tag[2] = { 0xabc, 0 };

	flow_init(r, qp);
	memcpy(b, &ETH_VAL, sizeof(ETH_VAL));
	memcpy(b + sizeof(ETH_VAL), &ETH_MASK, sizeof(ETH_MASK));
	flow_add(r, SPEC_ETH, 8 + 2 * sizeof(ETH_VAL), b);
	memcpy(b, &IP_VAL, sizeof(IP_VAL));
	memcpy(b + sizeof(IP_VAL), &IP_MASK, sizeof(IP_MASK));
	flow_add(r, SPEC_IPV4, 8 + 2 * sizeof(IP_VAL), b);
	memcpy(b, &TCP_VAL, sizeof(TCP_VAL));
	memcpy(b + sizeof(TCP_VAL), &TCP_MASK, sizeof(TCP_MASK));
	flow_add(r, SPEC_TCP, 8 + 2 * sizeof(TCP_VAL), b);
	flow_add(r, SPEC_TAG, 16, tag);
}

FIXTURE(flow) {
	int fd;
	int pd, cq, ud;
	struct ovbtest_res_info base;
};

FIXTURE_SETUP(flow)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);
	self->ud = raw_create_qp(self->fd, QPT_UD, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, self->ud);
	ASSERT_EQ(0, res_of(self->fd, &self->base));
}

FIXTURE_TEARDOWN(flow)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* What the driver received: the rule and each spec, as the user wrote. */
TEST_F(flow, specs_reach_driver)
{
	struct ovbtest_flow_info before, fi;
	struct ib_uverbs_query_qp_resp qr = {};
	struct ib_uverbs_query_qp qreq = {
		.response = (uintptr_t)&qr, .qp_handle = self->ud,
	};
	struct flow_req r;
	struct ovbtest_res_info res;
	int f;

	ASSERT_EQ(0, last_flow(self->fd, &before));
	ASSERT_LE(0, raw_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_QP, &qreq,
			     sizeof(qreq), sizeof(qr)));
	flow_l4(&r, self->ud);
	f = create_flow(self->fd, &r, 0);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, last_flow(self->fd, &fi));
	EXPECT_EQ(before.seq + 1, fi.seq);
	EXPECT_EQ(FLOW_NORMAL, fi.type);
	EXPECT_EQ(3, fi.priority);
	EXPECT_EQ(1, fi.port);
	EXPECT_EQ(0, fi.flags);
	EXPECT_EQ(4, fi.num_of_specs);
	EXPECT_EQ(SPEC_ETH, fi.specs[0].type);
	EXPECT_EQ(40, fi.specs[0].size);	/* struct ib_flow_spec_eth */
	EXPECT_EQ(0, memcmp(fi.specs[0].val, &ETH_VAL, sizeof(ETH_VAL)));
	EXPECT_EQ(0, memcmp(fi.specs[0].mask, &ETH_MASK, sizeof(ETH_MASK)));
	EXPECT_EQ(SPEC_IPV4, fi.specs[1].type);
	EXPECT_EQ(32, fi.specs[1].size);
	EXPECT_EQ(0, memcmp(fi.specs[1].val, &IP_VAL, sizeof(IP_VAL)));
	EXPECT_EQ(0, memcmp(fi.specs[1].mask, &IP_MASK, sizeof(IP_MASK)));
	EXPECT_EQ(SPEC_TCP, fi.specs[2].type);
	EXPECT_EQ(16, fi.specs[2].size);
	EXPECT_EQ(0, memcmp(fi.specs[2].val, &TCP_VAL, sizeof(TCP_VAL)));
	EXPECT_EQ(0, memcmp(fi.specs[2].mask, &TCP_MASK, sizeof(TCP_MASK)));
	EXPECT_EQ(SPEC_TAG, fi.specs[3].type);
	EXPECT_EQ(12, fi.specs[3].size);
	EXPECT_EQ(0xabc, *(__u32 *)fi.specs[3].val);
	ASSERT_EQ(0, res_of(self->fd, &res));
	EXPECT_EQ(self->base.flows + 1, res.flows);

	/* the QP is in use; the flow goes first */
	EXPECT_EQ(-EBUSY, raw_destroy_qp(self->fd, self->ud));
	EXPECT_EQ(0, destroy_flow(self->fd, f));
	EXPECT_EQ(-ENOENT, destroy_flow(self->fd, f));
	ASSERT_EQ(0, res_of(self->fd, &res));
	EXPECT_EQ(self->base.flows, res.flows);

	/* a drop rule of one UDP spec, no ethernet layer */
	flow_init(&r, self->ud);
	{
		__u8 b[8] = { 0x12, 0x34, 0, 0, 0xff, 0xff, 0, 0 };

		flow_add(&r, SPEC_UDP, 16, b);
	}
	flow_add(&r, SPEC_DROP, 8, NULL);
	f = create_flow(self->fd, &r, 0);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, last_flow(self->fd, &fi));
	EXPECT_EQ(2, fi.num_of_specs);
	EXPECT_EQ(SPEC_UDP, fi.specs[0].type);
	EXPECT_EQ(0x3412, *(__u16 *)fi.specs[0].val);
	EXPECT_EQ(SPEC_DROP, fi.specs[1].type);
	EXPECT_EQ(8, fi.specs[1].size);
	/* left to the file's close */
}

/* Rules ib_uverbs refuses before the driver sees them. */
TEST_F(flow, malformed)
{
	struct ovbtest_flow_info before, after;
	struct flow_req r;
	int rc;

	ASSERT_EQ(0, last_flow(self->fd, &before));
	flow_l4(&r, self->ud);
	r.cmd.comp_mask = 1;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	flow_l4(&r, self->ud);
	r.cmd.flow_attr.flags = 1 << 3;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	flow_l4(&r, self->ud);
	r.cmd.flow_attr.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	flow_l4(&r, self->ud);
	r.cmd.flow_attr.num_of_specs = 11;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	/* size beyond num_of_specs of the largest spec */
	flow_init(&r, self->ud);
	flow_add(&r, SPEC_DROP, 8, NULL);
	r.cmd.flow_attr.size = 400;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	/* fewer specs than num_of_specs */
	flow_l4(&r, self->ud);
	r.cmd.flow_attr.num_of_specs = 5;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	/* specs smaller than the attribute's size says */
	flow_l4(&r, self->ud);
	r.cmd.flow_attr.size += 8;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	/* nonzero bytes after the specs */
	flow_l4(&r, self->ud);
	r.specs[r.cmd.flow_attr.size] = 1;
	EXPECT_EQ(-EOPNOTSUPP, create_flow(self->fd, &r, 8));
	/* a spec header's reserved word, an unknown type */
	flow_l4(&r, self->ud);
	((struct ib_uverbs_flow_spec_hdr *)r.specs)->reserved = 1;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	flow_init(&r, self->ud);
	flow_add(&r, 0x77, 16, "\0\0\0\0\0\0\0");
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	/*
	 * An eth filter longer than the kernel's (24 bytes each): the mask's
	 * excess must be 0 (the value's is not looked at, below).
	 */
	flow_init(&r, self->ud);
	{
		__u8 b[48] = { 0 };

		memcpy(b, &ETH_VAL, sizeof(ETH_VAL));
		b[24 + sizeof(ETH_VAL)] = 1;
		flow_add(&r, SPEC_ETH, 8 + 48, b);
	}
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	/* a spec shorter than its header */
	flow_init(&r, self->ud);
	flow_add(&r, SPEC_DROP, 4, NULL);
	r.cmd.flow_attr.size = 8;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	/* port (the device has two), QP type, QP handle */
	flow_l4(&r, self->ud);
	r.cmd.flow_attr.port = 3;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	rc = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, rc);
	flow_l4(&r, rc);
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	flow_l4(&r, 1000);
	EXPECT_EQ(-ENOENT, create_flow(self->fd, &r, 0));
	/* DONT_TRAP on a default rule */
	flow_l4(&r, self->ud);
	r.cmd.flow_attr.type = FLOW_ALL_DEFAULT;
	r.cmd.flow_attr.flags = 1 << 1;
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));

	/* none reached the driver */
	ASSERT_EQ(0, last_flow(self->fd, &after));
	EXPECT_EQ(before.seq, after.seq);
	/* the driver's own refusals: rule types, flags */
	flow_l4(&r, self->ud);
	r.cmd.flow_attr.type = FLOW_ALL_DEFAULT;
	EXPECT_EQ(-EOPNOTSUPP, create_flow(self->fd, &r, 0));
	flow_l4(&r, self->ud);
	r.cmd.flow_attr.flags = 1 << 1;
	EXPECT_EQ(-EOPNOTSUPP, create_flow(self->fd, &r, 0));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, rc));

	/* the value's excess is ignored (6.1 checks the mask's only) */
	flow_init(&r, self->ud);
	{
		__u8 b[48] = { 0 };

		memcpy(b, &ETH_VAL, sizeof(ETH_VAL));
		b[sizeof(ETH_VAL)] = 1;
		memcpy(b + 24, &ETH_MASK, sizeof(ETH_MASK));
		flow_add(&r, SPEC_ETH, 8 + 48, b);
	}
	rc = create_flow(self->fd, &r, 0);
	ASSERT_LE(0, rc);
	ASSERT_EQ(0, last_flow(self->fd, &after));
	EXPECT_EQ(40, after.specs[0].size);
	EXPECT_EQ(0, memcmp(after.specs[0].val, &ETH_VAL, sizeof(ETH_VAL)));
	EXPECT_EQ(0, memcmp(after.specs[0].mask, &ETH_MASK, sizeof(ETH_MASK)));
	EXPECT_EQ(0, destroy_flow(self->fd, rc));
}

/*
 * The ipv6 filter's length in the kernel: 39 bytes on both kernels (6.1:
 * offsetof its real_sz; 6.12 dropped real_sz for sizeof of a __packed
 * struct), against the user's 40 (a reserved byte): byte 39 of the mask
 * must be 0, byte 38 (hop_limit) is the last the driver gets.  The
 * driver's union ib_flow_spec differs: its ipv6 spec is 88 bytes on 6.1
 * and 84 on 6.12 (the packed filter is byte-aligned).
 */
TEST_F(flow, ipv6_filter_boundary)
{
	struct ib_uverbs_flow_ipv6_filter val = {
		.flow_label = 0x45230100,	/* htonl(0x12345) */
		.next_hdr = 17, .traffic_class = 0x20, .hop_limit = 64,
	}, mask = {
		.flow_label = 0xffff0f00, .next_hdr = 0xff, .hop_limit = 0xff,
	};
	/* 6.12: struct ib_flow_ipv6_filter became __packed */
	const unsigned int kspec = ovbtest_k612() ? 84 : 88;
	struct ovbtest_flow_info info;
	struct flow_req r;
	__u8 b[2 * sizeof(val)];
	int h;

	ASSERT_EQ(40, sizeof(val));
	val.dst_ip[15] = 0x2a;
	memcpy(b, &val, sizeof(val));
	memcpy(b + sizeof(val), &mask, sizeof(mask));
	flow_init(&r, self->ud);
	flow_add(&r, SPEC_IPV6, 8 + sizeof(b), b);
	h = create_flow(self->fd, &r, 0);
	ASSERT_LE(0, h);
	ASSERT_EQ(0, last_flow(self->fd, &info));
	ASSERT_EQ(1, info.num_of_specs);
	EXPECT_EQ(SPEC_IPV6, info.specs[0].type);
	EXPECT_EQ(kspec, info.specs[0].size);
	/* the last 16 of 39 bytes: dst_ip[7..15], flow_label, next_hdr,
	 * traffic_class, hop_limit
	 */
	EXPECT_EQ(0x2a, info.specs[0].val[8]);
	EXPECT_EQ(0, memcmp(&info.specs[0].val[9], &val.flow_label, 7));
	EXPECT_EQ(0, memcmp(&info.specs[0].mask[9], &mask.flow_label, 7));
	EXPECT_EQ(0, destroy_flow(self->fd, h));

	/* the user's reserved byte (39) in the mask: beyond the kernel's */
	b[sizeof(val) + 39] = 1;
	flow_init(&r, self->ud);
	flow_add(&r, SPEC_IPV6, 8 + sizeof(b), b);
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
	/* in the value it is not looked at */
	b[sizeof(val) + 39] = 0;
	b[39] = 1;
	flow_init(&r, self->ud);
	flow_add(&r, SPEC_IPV6, 8 + sizeof(b), b);
	h = create_flow(self->fd, &r, 0);
	ASSERT_LE(0, h);
	EXPECT_EQ(0, destroy_flow(self->fd, h));
	/* a flow label of more than 20 bits */
	b[39] = 0;
	b[sizeof(val) + 32] = 0x10;
	flow_init(&r, self->ud);
	flow_add(&r, SPEC_IPV6, 8 + sizeof(b), b);
	EXPECT_EQ(-EINVAL, create_flow(self->fd, &r, 0));
}

/* -------------------------------------------------------------- unload */

/* Last: nothing may be left on the driver; its unload WARNs if so. */
OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
