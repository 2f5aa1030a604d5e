// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Kernel posts, as rdmavt's user QPs (hfi1, qib) take them: POST_SEND,
 * POST_RECV and POST_SRQ_RECV by write(), and what the driver's post ops
 * are handed (selftests/ovbtest/post.c records each chain: opcodes, flags,
 * SGEs, the RDMA and atomic fields, a UD WR's AH with its remote QPN and
 * Q_Key), and which WR the response names when the driver refuses one:
 *  - RC: every opcode ib_uverbs builds a WR for, in one chain;
 *  - UD: the AH a WR names reaches the driver as that AH; a WR naming no
 *    AH, or an opcode UD has not, is refused before the driver;
 * raw_create_qp's QPs have 8 WRs of 1 SGE each way.
 *  - a UD post holds the AHs it names until the driver returns: raced with
 *    a thread destroying and re-creating the AH (DESTROY_AH gets EBUSY
 *    while a post holds it, a post ENOENT or EBUSY while it goes), no WR
 *    reaches the driver with an AH already destroyed (the driver counts
 *    those);
 *  - refusals: a send before RTS (rdmavt leaves bad_wr unset: the response
 *    names the whole chain), a WR with too many SGEs, a chain longer than
 *    the queue, a receive on a QP in RESET, the same on an SRQ;
 *  - the request's own checks: SGEs beyond the request's array, a WQE
 *    size below the WR's, an unknown opcode (EINVAL), a QP, SRQ or AH
 *    handle that names nothing (ENOENT).
 * Expected values are the in-tree 6.1 module's answers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_xrc.h"

enum {
	QP_TIMEOUT = 1 << 9,
	QP_RETRY_CNT = 1 << 10,
	QP_RNR_RETRY = 1 << 11,
	QP_MAX_QP_RD_ATOMIC = 1 << 13,
};

/* enum ib_wr_opcode as the write() ABI carries it */
enum {
	WR_RDMA_WRITE, WR_RDMA_WRITE_WITH_IMM, WR_SEND, WR_SEND_WITH_IMM,
	WR_RDMA_READ, WR_ATOMIC_CMP_AND_SWP, WR_ATOMIC_FETCH_AND_ADD,
	WR_LOCAL_INV = 7, WR_SEND_WITH_INV = 9,
};

static int is_atomic(__u32 opcode)
{
	return opcode == WR_ATOMIC_CMP_AND_SWP ||
	       opcode == WR_ATOMIC_FETCH_AND_ADD;
}

#define SIGNALED	(1 << 1)	/* IB_SEND_SIGNALED */
#define MAX_WR		8		/* raw_create_qp's queues */

/* ------------------------------------------------------------- requests */

/* A POST_SEND request: the header, @n WRs, then their SGEs. */
struct send_req {
	struct ib_uverbs_post_send hdr;
	struct ib_uverbs_send_wr wr[MAX_WR + 2];
	struct ib_uverbs_sge sge[2 * (MAX_WR + 2)];
};

struct recv_req {
	struct ib_uverbs_post_recv hdr;
	struct ib_uverbs_recv_wr wr[MAX_WR + 2];
	struct ib_uverbs_sge sge[2 * (MAX_WR + 2)];
};

/*
 * A post request's bytes: @hdr, @n WRs of @wr_size bytes each taken every
 * @wqe_size bytes (the WQE stride the request names), then @sges SGEs.
 */
static char *post_request(const void *hdr, size_t hdr_size, const void *wr,
			  size_t wr_size, __u32 wqe_size, __u32 n,
			  const struct ib_uverbs_sge *sge, __u32 sges,
			  size_t *len)
{
	char *buf;
	__u32 i;

	*len = hdr_size + (size_t)n * wqe_size + sges * sizeof(*sge);
	buf = calloc(1, *len);
	if (!buf)
		return NULL;
	memcpy(buf, hdr, hdr_size);
	for (i = 0; i < n; i++)
		memcpy(buf + hdr_size + (size_t)i * wqe_size,
		       (const char *)wr + i * wr_size,
		       wqe_size < wr_size ? wqe_size : wr_size);
	memcpy(buf + hdr_size + (size_t)n * wqe_size, sge, sges * sizeof(*sge));
	return buf;
}

/*
 * POST_SEND of @req's first @n WRs and @sges SGEs (a WQE of
 * hdr.wqe_size bytes, a WR's size when 0); 0 or -errno, the response's
 * bad_wr in *@bad.
 */
static int write_post_send(int fd, __u32 qp, struct send_req *req, __u32 n,
			   __u32 sges, __u32 *bad)
{
	struct ib_uverbs_post_send_resp resp = { .bad_wr = ~0U };
	struct ib_uverbs_post_send hdr = req->hdr;
	ssize_t ret = -ENOMEM;
	size_t len;
	char *buf;

	hdr.response = (uintptr_t)&resp;
	hdr.qp_handle = qp;
	hdr.wr_count = n;
	hdr.sge_count = sges;
	if (!hdr.wqe_size)
		hdr.wqe_size = sizeof(req->wr[0]);
	buf = post_request(&hdr, sizeof(hdr), req->wr, sizeof(req->wr[0]),
			   hdr.wqe_size, n, req->sge, sges, &len);
	if (buf)
		ret = raw_cmd(fd, IB_USER_VERBS_CMD_POST_SEND, buf, len,
			      sizeof(resp));
	free(buf);
	*bad = resp.bad_wr;
	return ret < 0 ? (int)ret : 0;
}

/* POST_RECV or POST_SRQ_RECV (@cmd; the same layout) of @n WRs, @sges SGEs. */
static int write_post_recv(int fd, __u32 cmd, __u32 handle, struct recv_req *req,
			   __u32 n, __u32 sges, __u32 *bad)
{
	struct ib_uverbs_post_recv_resp resp = { .bad_wr = ~0U };
	struct ib_uverbs_post_recv hdr = {
		.response = (uintptr_t)&resp,
		.qp_handle = handle,
		.wr_count = n,
		.sge_count = sges,
		.wqe_size = sizeof(req->wr[0]),
	};
	ssize_t ret = -ENOMEM;
	size_t len;
	char *buf;

	buf = post_request(&hdr, sizeof(hdr), req->wr, sizeof(req->wr[0]),
			   hdr.wqe_size, n, req->sge, sges, &len);
	if (buf)
		ret = raw_cmd(fd, cmd, buf, len, sizeof(resp));
	free(buf);
	*bad = resp.bad_wr;
	return ret < 0 ? (int)ret : 0;
}

/* The QP's (@recv: receive) or SRQ's last post as the driver saw it. */
static int last_post(int fd, __u16 object, __u32 handle, __u32 recv,
		     struct ovbtest_post_record *rec)
{
	struct ioc c;

	memset(rec, 0xee, sizeof(*rec));
	ovbtest_ioc_init(&c, object, object == UVERBS_OBJECT_QP ?
			 OVBTEST_METHOD_QP_LAST_POST : OVBTEST_METHOD_SRQ_LAST_POST);
	ioc_obj(&c, OVBTEST_ATTR_LAST_POST_HANDLE, handle);
	ioc_out(&c, OVBTEST_ATTR_LAST_POST_RECORD, rec, sizeof(*rec));
	if (recv)
		ioc_in(&c, OVBTEST_ATTR_LAST_POST_RECV, &recv, sizeof(recv));
	return ioc_call(fd, &c);
}

/* ----------------------------------------------------------- QP set-up */

static int modify(int fd, struct ib_uverbs_modify_qp *req)
{
	return raw_modify_qp(fd, req);
}

static int to_init(int fd, __u32 qp, __u8 type)
{
	struct ib_uverbs_modify_qp req = {
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_PKEY_INDEX | QP_PORT |
			     (type == QPT_UD ? QP_QKEY : QP_ACCESS_FLAGS),
		.qp_state = QPS_INIT,
		.port_num = 1,
		.qkey = 0x11111111,
		.qp_access_flags = IB_UVERBS_ACCESS_LOCAL_WRITE,
	};

	return modify(fd, &req);
}

/* INIT -> RTR; an RC QP gets a LID path on the IB port. */
static int to_rtr(int fd, __u32 qp, __u8 type)
{
	struct ib_uverbs_modify_qp req = {
		.qp_handle = qp,
		.attr_mask = QP_STATE,
		.qp_state = QPS_RTR,
	};

	if (type == QPT_RC) {
		req.attr_mask |= QP_AV | QP_PATH_MTU | QP_DEST_QPN | QP_RQ_PSN |
				 QP_MAX_DEST_RD_ATOMIC | QP_MIN_RNR_TIMER;
		req.path_mtu = 3;
		req.dest_qp_num = 0x77;
		req.rq_psn = 0x42;
		req.max_dest_rd_atomic = 1;
		req.min_rnr_timer = 12;
		req.dest.dlid = 0x17;
		req.dest.port_num = 1;
	}
	return modify(fd, &req);
}

static int to_rts(int fd, __u32 qp, __u8 type)
{
	struct ib_uverbs_modify_qp req = {
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_SQ_PSN,
		.qp_state = QPS_RTS,
		.sq_psn = 0x123,
	};

	if (type == QPT_RC) {
		req.attr_mask |= QP_TIMEOUT | QP_RETRY_CNT | QP_RNR_RETRY |
				 QP_MAX_QP_RD_ATOMIC;
		req.timeout = 14;
		req.retry_cnt = 7;
		req.rnr_retry = 7;
		req.max_rd_atomic = 1;
	}
	return modify(fd, &req);
}

/* A QP of @type brought to @state (RESET to RTS); handle or -errno. */
static int qp_in(int fd, __u32 pd, __u32 cq, __u8 type, __u8 state)
{
	int qp = raw_create_qp(fd, type, pd, cq, -1, NULL);

	if (qp < 0)
		return qp;
	if ((state >= QPS_INIT && to_init(fd, qp, type)) ||
	    (state >= QPS_RTR && to_rtr(fd, qp, type)) ||
	    (state >= QPS_RTS && to_rts(fd, qp, type)))
		return -EIO;
	return qp;
}

/* A LID AH on the IB port; handle or -errno. */
static int lid_ah(int fd, __u32 pd, __u16 dlid)
{
	struct {
		struct ib_uverbs_create_ah_resp core;
		struct ovbtest_av_info drv;
	} __attribute__((packed)) resp;
	struct ib_uverbs_create_ah req = {
		.response = (uintptr_t)&resp,
		.user_handle = 0xa4,
		.pd_handle = pd,
		.attr = { .dlid = dlid, .port_num = 1 },
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_AH, &req,
			      sizeof(req), sizeof(resp));

	return ret < 0 ? (int)ret : (int)resp.core.ah_handle;
}

static int destroy_ah(int fd, __u32 handle)
{
	struct ib_uverbs_destroy_ah req = { .ah_handle = handle };
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_DESTROY_AH, &req,
			      sizeof(req), 0);

	return ret < 0 ? (int)ret : 0;
}

/* The legacy CREATE_SRQ of a basic SRQ with 2 SGEs; handle or -errno. */
static int basic_srq(int fd, __u32 pd, __u32 max_wr)
{
	struct {
		struct ib_uverbs_create_srq_resp core;
		char drv[RAW_DRV_OUT];
	} out = {};
	struct ib_uverbs_create_srq req = {
		.response = (uintptr_t)&out,
		.user_handle = 0x5e,
		.pd_handle = pd,
		.max_wr = max_wr,
		.max_sge = 2,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &req,
			      sizeof(req), sizeof(out));

	return ret < 0 ? (int)ret : (int)out.core.srq_handle;
}

/* WR @i of @r: id 0x1000 + i, @nsge SGEs from @s (addr 0x10000 * (s + 1)). */
static void sge_fill(struct ib_uverbs_sge *sge, __u32 s)
{
	sge->addr = 0x10000ull * (s + 1) + 0x40;
	sge->length = 0x100 + s;
	sge->lkey = 0x5000 + s;
}

static void send_wr(struct send_req *r, __u32 i, __u32 opcode, __u32 nsge,
		    __u32 *s)
{
	struct ib_uverbs_send_wr *wr = &r->wr[i];
	__u32 k;

	memset(wr, 0, sizeof(*wr));
	wr->wr_id = 0x1000 + i;
	wr->opcode = opcode;
	wr->num_sge = nsge;
	wr->send_flags = i & 1 ? SIGNALED : 0;
	for (k = 0; k < nsge; k++, (*s)++)
		sge_fill(&r->sge[*s], *s);
}

static void recv_wr(struct recv_req *r, __u32 i, __u32 nsge, __u32 *s)
{
	__u32 k;

	r->wr[i].wr_id = 0x2000 + i;
	r->wr[i].num_sge = nsge;
	r->wr[i].reserved = 0;
	for (k = 0; k < nsge; k++, (*s)++)
		sge_fill(&r->sge[*s], *s);
}

/* The driver's record of WR @i holds the SGEs from @s on. */
#define EXPECT_SGES(w, nsge, s) do {					\
	__u32 _k;							\
	EXPECT_EQ((__u32)(nsge), (w)->num_sge);			\
	for (_k = 0; _k < (nsge); _k++) {				\
		EXPECT_EQ(0x10000ull * ((s) + _k + 1) + 0x40,		\
			  (w)->sge[_k].addr);				\
		EXPECT_EQ(0x100u + (s) + _k, (w)->sge[_k].length);	\
		EXPECT_EQ(0x5000u + (s) + _k, (w)->sge[_k].lkey);	\
	}								\
} while (0)

/* -------------------------------------------------------------- fixture */

FIXTURE(post) {
	int fd;
	int pd, cq;
};

FIXTURE_SETUP(post)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);
}

FIXTURE_TEARDOWN(post)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Every RC opcode ib_uverbs builds a WR for, in one chain. */
TEST_F(post, rc_opcodes)
{
	static const __u32 ops[] = {
		WR_SEND, WR_SEND_WITH_IMM, WR_SEND_WITH_INV, WR_RDMA_WRITE,
		WR_RDMA_WRITE_WITH_IMM, WR_RDMA_READ, WR_ATOMIC_CMP_AND_SWP,
		WR_ATOMIC_FETCH_AND_ADD,
	};
	struct ovbtest_post_record rec;
	struct send_req *r = calloc(1, sizeof(*r));
	__u32 i, s = 0, bad = 0;
	int qp = qp_in(self->fd, self->pd, self->cq, QPT_RC, QPS_RTS);

	ASSERT_LE(0, qp);
	for (i = 0; i < 8; i++) {
		send_wr(r, i, ops[i], i % 2, &s);
		r->wr[i].ex.imm_data = 0xa1b2c3d0 + i;
		r->wr[i].wr.rdma.remote_addr = 0x7000000000ull + i;
		r->wr[i].wr.rdma.rkey = 0x3300 + i;
		if (is_atomic(ops[i])) {
			r->wr[i].wr.atomic.compare_add = 0xc0c0c0c0c0ull + i;
			r->wr[i].wr.atomic.swap = 0x5a5a5a5a5aull + i;
			r->wr[i].wr.atomic.rkey = 0x4400 + i;
		}
	}
	ASSERT_EQ(0, write_post_send(self->fd, qp, r, 8, s, &bad));
	EXPECT_EQ(0u, bad);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ(OVBTEST_POST_SEND, rec.kind);
	EXPECT_EQ(1u, rec.posts);
	EXPECT_EQ(8u, rec.chain_len);
	EXPECT_EQ(~0u, rec.bad_index);
	EXPECT_EQ(0, rec.ret);
	for (i = 0, s = 0; i < 8; s += i % 2, i++) {
		const struct ovbtest_post_wr *w = &rec.wr[i];
		int rdma = ops[i] == WR_RDMA_WRITE || ops[i] == WR_RDMA_READ ||
			   ops[i] == WR_RDMA_WRITE_WITH_IMM;
		int atomic = is_atomic(ops[i]);

		EXPECT_EQ(0x1000u + i, w->wr_id);
		EXPECT_EQ(ops[i], w->opcode);
		EXPECT_EQ(i & 1 ? SIGNALED : 0u, w->send_flags);
		EXPECT_SGES(w, i % 2, s);
		/* the immediate's bytes as posted; SEND_WITH_INV's rkey */
		EXPECT_EQ(ops[i] == WR_SEND_WITH_IMM || ops[i] == WR_RDMA_WRITE_WITH_IMM ||
			  ops[i] == WR_SEND_WITH_INV ? 0xa1b2c3d0 + i : 0u, w->ex);
		EXPECT_EQ(rdma || atomic ? 0x7000000000ull + i : 0ull, w->remote_addr);
		EXPECT_EQ(rdma ? 0x3300 + i : atomic ? 0x4400 + i : 0u, w->rkey);
		EXPECT_EQ(atomic ? 0xc0c0c0c0c0ull + i : 0ull, w->compare_add);
		EXPECT_EQ(atomic ? 0x5a5a5a5a5aull + i : 0ull, w->swap);
		EXPECT_EQ(~0u, w->ah_handle);
	}
	free(r);
}

/*
 * An opcode ib_uverbs has no WR for (LOCAL_INV, or past the last) is
 * EINVAL before the driver: its record stays as the last good post.
 */
TEST_F(post, rc_unknown_opcode)
{
	struct ovbtest_post_record rec;
	struct send_req *r = calloc(1, sizeof(*r));
	__u32 s = 0, bad = 0;
	int qp = qp_in(self->fd, self->pd, self->cq, QPT_RC, QPS_RTS);

	ASSERT_LE(0, qp);
	send_wr(r, 0, WR_SEND, 1, &s);
	ASSERT_EQ(0, write_post_send(self->fd, qp, r, 1, s, &bad));
	s = 0;
	send_wr(r, 0, WR_SEND, 1, &s);
	send_wr(r, 1, WR_LOCAL_INV, 0, &s);
	EXPECT_EQ(-EINVAL, write_post_send(self->fd, qp, r, 2, s, &bad));
	send_wr(r, 1, 0xff, 0, &s);
	EXPECT_EQ(-EINVAL, write_post_send(self->fd, qp, r, 2, s, &bad));
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ(1u, rec.posts);
	EXPECT_EQ(1u, rec.chain_len);
	free(r);
}

/* UD: the AH each WR names, its remote QPN and Q_Key. */
TEST_F(post, ud_ah)
{
	struct ovbtest_post_record rec;
	struct send_req *r = calloc(1, sizeof(*r));
	int qp = qp_in(self->fd, self->pd, self->cq, QPT_UD, QPS_RTS);
	int ah1 = lid_ah(self->fd, self->pd, 0x21);
	int ah2 = lid_ah(self->fd, self->pd, 0x22);
	__u32 s = 0, bad = 0;

	ASSERT_LE(0, qp);
	ASSERT_LE(0, ah1);
	ASSERT_LE(0, ah2);
	send_wr(r, 0, WR_SEND, 1, &s);
	r->wr[0].wr.ud.ah = ah2;
	r->wr[0].wr.ud.remote_qpn = 0xabcd;
	r->wr[0].wr.ud.remote_qkey = 0x11111111;
	send_wr(r, 1, WR_SEND_WITH_IMM, 1, &s);
	r->wr[1].ex.imm_data = 0x01020304;
	r->wr[1].wr.ud.ah = ah1;
	r->wr[1].wr.ud.remote_qpn = 0xffffff;
	r->wr[1].wr.ud.remote_qkey = 0x80010000;
	ASSERT_EQ(0, write_post_send(self->fd, qp, r, 2, s, &bad));
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ(2u, rec.chain_len);
	EXPECT_EQ((__u32)ah2, rec.wr[0].ah_handle);
	EXPECT_EQ(0xabcdu, rec.wr[0].remote_qpn);
	EXPECT_EQ(0x11111111u, rec.wr[0].remote_qkey);
	EXPECT_EQ((__u32)ah1, rec.wr[1].ah_handle);
	EXPECT_EQ(0xffffffu, rec.wr[1].remote_qpn);
	EXPECT_EQ(0x80010000u, rec.wr[1].remote_qkey);
	EXPECT_EQ(0x01020304u, rec.wr[1].ex);
	EXPECT_SGES(&rec.wr[1], 1, 1);

	/* an AH handle that names none; an RDMA opcode on UD */
	r->wr[1].wr.ud.ah = ah2 + 100;
	EXPECT_EQ(-ENOENT, write_post_send(self->fd, qp, r, 2, s, &bad));
	r->wr[1].wr.ud.ah = ah1;
	r->wr[1].opcode = WR_RDMA_WRITE;
	EXPECT_EQ(-EINVAL, write_post_send(self->fd, qp, r, 2, s, &bad));
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ(1u, rec.posts);
	free(r);
}

#define AH_RACE_ROUNDS	3000

struct ah_race {
	int fd, pd;
	volatile int ah;	/* the AH the poster names */
	volatile int stop;
	int destroyed, busy, other;
};

/* Destroys the AH and makes another, AH_RACE_ROUNDS times. */
static void *ah_churn(void *arg)
{
	struct ah_race *a = arg;
	int i, ret;

	for (i = 0; i < AH_RACE_ROUNDS; i++) {
		ret = destroy_ah(a->fd, a->ah);
		if (ret == -EBUSY) {
			a->busy++;
			continue;
		}
		if (ret) {
			a->other++;
			break;
		}
		a->destroyed++;
		a->ah = lid_ah(a->fd, a->pd, 0x30 + i % 8);
		if (a->ah < 0) {
			a->other++;
			break;
		}
	}
	a->stop = 1;
	return NULL;
}

TEST_F(post, ud_ah_destroy_race)
{
	struct ah_race a = { .fd = self->fd, .pd = self->pd };
	struct send_req *r = calloc(1, sizeof(*r));
	int qp = qp_in(self->fd, self->pd, self->cq, QPT_UD, QPS_RTS);
	int posted = 0, gone = 0, locked = 0, other = 0, other_errno = 0, ret;
	struct ovbtest_post_record rec;
	__u32 s = 0, bad;
	pthread_t t;

	ASSERT_LE(0, qp);
	a.ah = lid_ah(self->fd, self->pd, 0x2f);
	ASSERT_LE(0, a.ah);
	send_wr(r, 0, WR_SEND, 1, &s);
	r->wr[0].wr.ud.remote_qpn = 0x99;
	ASSERT_EQ(0, pthread_create(&t, NULL, ah_churn, &a));
	while (!a.stop) {
		r->wr[0].wr.ud.ah = a.ah;
		ret = write_post_send(self->fd, qp, r, 1, s, &bad);
		if (!ret)
			posted++;
		else if (ret == -ENOENT)	/* between destroy and create */
			gone++;
		else if (ret == -EBUSY)		/* while a destroy holds it */
			locked++;
		else
			other++, other_errno = ret;
	}
	pthread_join(t, NULL);
	TH_LOG("%d posts, %d to no AH, %d to one being destroyed, %d other (%d);"
	       " %d destroys, %d busy, %d other", posted, gone, locked, other,
	       other_errno, a.destroyed, a.busy, a.other);
	EXPECT_EQ(0, other);
	EXPECT_EQ(0, a.other);
	EXPECT_LT(0, posted);
	EXPECT_LT(0, a.destroyed);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ((__u32)posted, rec.posts);
	EXPECT_EQ(0u, rec.dead_ahs);
	free(r);
}

/*
 * rdmavt refuses a send before RTS without naming a WR: ib_uverbs counts
 * the whole chain (both stacks; 6.1's bad_wr is an uninitialised local,
 * zero with Debian's CONFIG_INIT_STACK_ALL_ZERO).
 */
TEST_F(post, send_before_rts)
{
	struct ovbtest_post_record rec;
	struct send_req *r = calloc(1, sizeof(*r));
	int qp = qp_in(self->fd, self->pd, self->cq, QPT_RC, QPS_RTR);
	__u32 s = 0, bad = 0;

	ASSERT_LE(0, qp);
	send_wr(r, 0, WR_SEND, 1, &s);
	send_wr(r, 1, WR_SEND, 1, &s);
	send_wr(r, 2, WR_SEND, 0, &s);
	EXPECT_EQ(-EINVAL, write_post_send(self->fd, qp, r, 3, s, &bad));
	EXPECT_EQ(3u, bad);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ(1u, rec.posts);
	EXPECT_EQ(0u, rec.chain_len);
	EXPECT_EQ(-EINVAL, rec.ret);
	EXPECT_EQ(~0u, rec.bad_index);
	free(r);
}

/* The driver names the WR it refused: the response counts up to it. */
TEST_F(post, send_refused_wr)
{
	struct ovbtest_post_record rec;
	struct send_req *r = calloc(1, sizeof(*r));
	int qp = qp_in(self->fd, self->pd, self->cq, QPT_RC, QPS_RTS);
	__u32 i, s = 0, bad = 0;

	ASSERT_LE(0, qp);
	/* raw_create_qp: 1 send SGE; the third WR has 2 */
	send_wr(r, 0, WR_SEND, 1, &s);
	send_wr(r, 1, WR_SEND, 0, &s);
	send_wr(r, 2, WR_SEND, 2, &s);
	send_wr(r, 3, WR_SEND, 1, &s);
	EXPECT_EQ(-EINVAL, write_post_send(self->fd, qp, r, 4, s, &bad));
	EXPECT_EQ(3u, bad);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ(3u, rec.chain_len);
	EXPECT_EQ(2u, rec.bad_index);
	EXPECT_SGES(&rec.wr[2], 2, 1);

	/* MAX_WR + 1 WRs: the queue holds MAX_WR */
	for (i = 0, s = 0; i <= MAX_WR; i++)
		send_wr(r, i, WR_RDMA_WRITE, 1, &s);
	EXPECT_EQ(-ENOMEM, write_post_send(self->fd, qp, r, MAX_WR + 1, s, &bad));
	EXPECT_EQ(MAX_WR + 1u, bad);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ(2u, rec.posts);
	EXPECT_EQ((__u32)MAX_WR, rec.bad_index);
	EXPECT_EQ(-ENOMEM, rec.ret);
	free(r);
}

/* The request's own checks, before the driver. */
TEST_F(post, send_request_checks)
{
	struct ovbtest_post_record rec;
	struct send_req *r = calloc(1, sizeof(*r));
	int qp = qp_in(self->fd, self->pd, self->cq, QPT_RC, QPS_RTS);
	__u32 s = 0, bad = 0;

	ASSERT_LE(0, qp);
	send_wr(r, 0, WR_SEND, 1, &s);
	send_wr(r, 1, WR_SEND, 1, &s);
	/* the WRs name more SGEs than the request carries */
	EXPECT_EQ(-EINVAL, write_post_send(self->fd, qp, r, 2, 1, &bad));
	/* a WQE smaller than a WR */
	r->hdr.wqe_size = sizeof(r->wr[0]) - 8;
	EXPECT_EQ(-EINVAL, write_post_send(self->fd, qp, r, 1, 1, &bad));
	r->hdr.wqe_size = 0;
	/* a QP handle that names none */
	EXPECT_EQ(-ENOENT, write_post_send(self->fd, qp + 100, r, 2, s, &bad));
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ(OVBTEST_POST_NONE, rec.kind);
	EXPECT_EQ(0u, rec.posts);
	free(r);
}

/* Receives: recorded apart from sends; refused in RESET, past the queue. */
TEST_F(post, recv_qp)
{
	struct ovbtest_post_record rec;
	struct recv_req *r = calloc(1, sizeof(*r));
	int qp = qp_in(self->fd, self->pd, self->cq, QPT_RC, QPS_RESET);
	__u32 i, s = 0, bad = 0;

	ASSERT_LE(0, qp);
	recv_wr(r, 0, 1, &s);
	recv_wr(r, 1, 0, &s);
	EXPECT_EQ(-EINVAL, write_post_recv(self->fd, IB_USER_VERBS_CMD_POST_RECV, qp,
				     r, 2, s, &bad));
	EXPECT_EQ(1u, bad);
	ASSERT_EQ(0, to_init(self->fd, qp, QPT_RC));
	ASSERT_EQ(0, write_post_recv(self->fd, IB_USER_VERBS_CMD_POST_RECV, qp, r, 2,
			       s, &bad));
	EXPECT_EQ(0u, bad);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 1, &rec));
	EXPECT_EQ(OVBTEST_POST_RECV, rec.kind);
	EXPECT_EQ(2u, rec.posts);
	EXPECT_EQ(2u, rec.chain_len);
	EXPECT_EQ(0x2000u, rec.wr[0].wr_id);
	EXPECT_SGES(&rec.wr[0], 1, 0);
	EXPECT_EQ(0x2001u, rec.wr[1].wr_id);
	EXPECT_EQ(0u, rec.wr[1].num_sge);
	EXPECT_EQ(0u, rec.wr[1].opcode);
	/* the send record saw none of it */
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 0, &rec));
	EXPECT_EQ(0u, rec.posts);

	for (i = 0, s = 0; i <= MAX_WR; i++)
		recv_wr(r, i, 1, &s);
	EXPECT_EQ(-ENOMEM, write_post_recv(self->fd, IB_USER_VERBS_CMD_POST_RECV, qp,
				     r, MAX_WR + 1, s, &bad));
	EXPECT_EQ(MAX_WR + 1u, bad);
	/* SGEs beyond the request's array */
	EXPECT_EQ(-EINVAL, write_post_recv(self->fd, IB_USER_VERBS_CMD_POST_RECV, qp,
				     r, 2, 1, &bad));
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, qp, 1, &rec));
	EXPECT_EQ(3u, rec.posts);
	free(r);
}

/* POST_SRQ_RECV: the SRQ's own record, its caps (2 SGEs, 4 WRs). */
TEST_F(post, recv_srq)
{
	struct ovbtest_post_record rec;
	struct recv_req *r = calloc(1, sizeof(*r));
	int srq = basic_srq(self->fd, self->pd, 4);
	__u32 i, s = 0, bad = 0;

	ASSERT_LE(0, srq);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_SRQ, srq, 0, &rec));
	EXPECT_EQ(OVBTEST_POST_NONE, rec.kind);
	recv_wr(r, 0, 2, &s);
	recv_wr(r, 1, 1, &s);
	ASSERT_EQ(0, write_post_recv(self->fd, IB_USER_VERBS_CMD_POST_SRQ_RECV, srq,
			       r, 2, s, &bad));
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_SRQ, srq, 0, &rec));
	EXPECT_EQ(OVBTEST_POST_SRQ_RECV, rec.kind);
	EXPECT_EQ(2u, rec.chain_len);
	EXPECT_SGES(&rec.wr[0], 2, 0);
	EXPECT_SGES(&rec.wr[1], 1, 2);

	/* 3 SGEs on the second WR; then 5 WRs on a queue of 4 */
	s = 0;
	recv_wr(r, 0, 1, &s);
	recv_wr(r, 1, 3, &s);
	EXPECT_EQ(-EINVAL, write_post_recv(self->fd, IB_USER_VERBS_CMD_POST_SRQ_RECV,
				     srq, r, 2, s, &bad));
	EXPECT_EQ(2u, bad);
	for (i = 0, s = 0; i < 5; i++)
		recv_wr(r, i, 1, &s);
	EXPECT_EQ(-ENOMEM, write_post_recv(self->fd, IB_USER_VERBS_CMD_POST_SRQ_RECV,
				     srq, r, 5, s, &bad));
	EXPECT_EQ(5u, bad);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_SRQ, srq, 0, &rec));
	EXPECT_EQ(3u, rec.posts);
	EXPECT_EQ(4u, rec.bad_index);
	/* an SRQ handle that names none */
	EXPECT_EQ(-ENOENT, write_post_recv(self->fd, IB_USER_VERBS_CMD_POST_SRQ_RECV,
				     srq + 100, r, 1, 1, &bad));
	free(r);
}

/*
 * An XRC TGT QP's handles (the creator's and an OPEN_QP one) name
 * ib_core's shared QP, a bare struct ib_qp: LAST_POST must read the
 * driver's QP behind it (real_qp), which no post has reached.
 */
TEST_F(post, xrc_tgt_handles)
{
	struct ovbtest_post_record rec;
	char name[] = "/tmp/uverbs_ovbtest_post.XXXXXX";
	int file = mkstemp(name);
	int xrcd, tgt, opened;
	__u32 qpn = 0;

	ASSERT_LE(0, file);
	unlink(name);
	xrcd = open_xrcd(self->fd, file, O_CREAT);
	ASSERT_LE(0, xrcd);
	tgt = raw_create_qp(self->fd, QPT_XRC_TGT, xrcd, self->cq, -1, &qpn);
	ASSERT_LE(0, tgt);
	opened = open_qp(self->fd, xrcd, qpn, QPT_XRC_TGT, NULL);
	ASSERT_LE(0, opened);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, tgt, 0, &rec));
	EXPECT_EQ(OVBTEST_POST_NONE, rec.kind);
	EXPECT_EQ(0u, rec.posts);
	ASSERT_EQ(0, last_post(self->fd, UVERBS_OBJECT_QP, opened, 1, &rec));
	EXPECT_EQ(OVBTEST_POST_NONE, rec.kind);
	EXPECT_EQ(0u, rec.posts);
	EXPECT_EQ(0u, rec.dead_ahs);
	close(file);
}

TEST_HARNESS_MAIN
