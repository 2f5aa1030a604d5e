// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Asynchronous events as rxe raises them, delivered through the async event
 * file to every context, waited for with epoll: port down and up when the
 * netdev goes down and up, SRQ limit reached, CQ overrun, send queue
 * drained; and the per-object event counts destroy reports back.
 *
 * Goes through libibverbs (rdma-core's, or ours with LD_LIBRARY_PATH): the
 * objects and traffic are only the means, what is checked is the event
 * path of ib_uverbs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "kselftest_harness.h"
#include "uverbs_raw.h"

#define EVENT_WAIT_MS 10000

/* An async event of @type on @ctx within @ms, other events acked and
 * skipped (address changes raise GID_CHANGE on the way); 0 when seen, the
 * event copied to @out.
 */
static int wait_async_event(struct ibv_context *ctx, enum ibv_event_type type,
			    int ms, struct ibv_async_event *out)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(EPOLL_CLOEXEC);
	int ret = -1;

	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, ctx->async_fd, &ev))
		goto out;
	while (ret) {
		struct ibv_async_event e;
		int n = epoll_wait(ep, &ev, 1, ms);

		if (n <= 0)
			break;
		/* Non-blocking: epoll said readable, a read must not wait. */
		if (ibv_get_async_event(ctx, &e))
			continue;
		if (e.event_type == type) {
			*out = e;
			ret = 0;
		}
		ibv_ack_async_event(&e);
	}
out:
	if (ep >= 0)
		close(ep);
	return ret;
}

static int set_nonblocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static struct ibv_context *open_first_device(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n;

	list = ibv_get_device_list(&n);
	if (list && n)
		ctx = ibv_open_device(list[0]);
	if (list)
		ibv_free_device_list(list);
	if (ctx && set_nonblocking(ctx->async_fd)) {
		ibv_close_device(ctx);
		ctx = NULL;
	}
	return ctx;
}

/* The netdev under port 1 of the device behind uverbs0 ("eth0"). */
static int port_netdev(char *name, size_t len)
{
	char path[256];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/gid_attrs/ndevs/0",
		 raw_ibdev_name());
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(name, len, f) != NULL;
	fclose(f);
	name[strcspn(name, "\n")] = 0;
	return ok && name[0] ? 0 : -1;
}

static int set_link(const char *netdev, const char *updown)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "ip link set dev %s %s", netdev, updown);
	return system(cmd);
}

static int port_state(struct ibv_context *ctx)
{
	struct ibv_port_attr pa;

	return ibv_query_port(ctx, 1, &pa) ? -1 : pa.state;
}

/* How many non-zero GIDs port 1 has. */
static int gid_count(struct ibv_context *ctx, int table_len)
{
	static const union ibv_gid zero;
	union ibv_gid gid;
	int i, n = 0;

	for (i = 0; i < table_len; i++)
		if (!ibv_query_gid(ctx, 1, i, &gid) &&
		    memcmp(&gid, &zero, sizeof(gid)))
			n++;
	return n;
}

/* Wait (up to 20 s) until port 1 is active with @gids GIDs again. */
static int wait_port_restored(struct ibv_context *ctx, int table_len, int gids)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (port_state(ctx) == IBV_PORT_ACTIVE &&
		    gid_count(ctx, table_len) >= gids)
			return 0;
		usleep(100000);
	}
	return -1;
}

/* ------------------------------------------------------------ port events */

FIXTURE(port) {
	struct ibv_context *a, *b;
	char netdev[64];
	int table_len, gids;
	int down;
};

FIXTURE_SETUP(port)
{
	struct ibv_port_attr pa;

	self->a = open_first_device();
	self->b = open_first_device();
	ASSERT_NE(NULL, self->a);
	ASSERT_NE(NULL, self->b);
	if (port_netdev(self->netdev, sizeof(self->netdev)))
		SKIP(return, "no netdev under port 1 of %s", raw_ibdev_name());
	ASSERT_EQ(0, ibv_query_port(self->a, 1, &pa));
	ASSERT_EQ(IBV_PORT_ACTIVE, pa.state);
	self->table_len = pa.gid_tbl_len;
	self->gids = gid_count(self->a, self->table_len);
	ASSERT_LT(0, self->gids);
}

FIXTURE_TEARDOWN(port)
{
	/* Whatever happened, leave the port as the next test needs it. */
	if (self->down) {
		set_link(self->netdev, "up");
		wait_port_restored(self->a, self->table_len, self->gids);
	}
	if (self->b)
		ibv_close_device(self->b);
	if (self->a)
		ibv_close_device(self->a);
}

TEST_F_TIMEOUT(port, netdev_down_and_up_reach_every_context, 120)
{
	struct ibv_async_event e;

	self->down = 1;
	ASSERT_EQ(0, set_link(self->netdev, "down"));
	ASSERT_EQ(0, wait_async_event(self->a, IBV_EVENT_PORT_ERR,
				      EVENT_WAIT_MS, &e));
	EXPECT_EQ(1, e.element.port_num);
	ASSERT_EQ(0, wait_async_event(self->b, IBV_EVENT_PORT_ERR,
				      EVENT_WAIT_MS, &e));
	EXPECT_EQ(1, e.element.port_num);
	EXPECT_EQ(IBV_PORT_DOWN, port_state(self->a));

	ASSERT_EQ(0, set_link(self->netdev, "up"));
	ASSERT_EQ(0, wait_async_event(self->a, IBV_EVENT_PORT_ACTIVE,
				      EVENT_WAIT_MS, &e));
	EXPECT_EQ(1, e.element.port_num);
	ASSERT_EQ(0, wait_async_event(self->b, IBV_EVENT_PORT_ACTIVE,
				      EVENT_WAIT_MS, &e));
	EXPECT_EQ(0, wait_port_restored(self->a, self->table_len, self->gids));
	self->down = 0;
}

TEST_F(port, no_event_without_a_change)
{
	struct ibv_async_event e;

	EXPECT_EQ(-1, wait_async_event(self->a, IBV_EVENT_PORT_ERR, 200, &e));
	EXPECT_EQ(-1, ibv_get_async_event(self->a, &e));
	EXPECT_EQ(EAGAIN, errno);
}

/* ---------------------------------------------------- object events (RC) */

#define MSG 64

/* Two RC QPs on one device connected to each other (loopback over rxe). */
FIXTURE(rc) {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char buf[16 * MSG];
	union ibv_gid gid;
	int gid_index;
};

static int rc_connect(struct ibv_qp *qp, uint32_t dest_qpn,
		      const union ibv_gid *gid, int gid_index)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest_qpn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = gid_index;
	a.ah_attr.grh.hop_limit = 64;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static struct ibv_qp *rc_qp(struct ibv_pd *pd, struct ibv_cq *scq,
			    struct ibv_cq *rcq, struct ibv_srq *srq)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = scq,
		.recv_cq = rcq,
		.srq = srq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = srq ? 0 : 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ibv_create_qp(pd, &ia);
}

static int connect_pair(FIXTURE_DATA(rc) *self, struct ibv_qp *a,
			struct ibv_qp *b)
{
	return rc_connect(a, b->qp_num, &self->gid, self->gid_index) ||
	       rc_connect(b, a->qp_num, &self->gid, self->gid_index);
}

static int post_send(FIXTURE_DATA(rc) *self, struct ibv_qp *qp,
		     enum ibv_wr_opcode op, int slot, int signaled)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)self->buf + slot * MSG,
		.length = MSG,
		.lkey = self->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = slot,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = signaled ? IBV_SEND_SIGNALED : 0,
	}, *bad;

	if (op == IBV_WR_RDMA_WRITE) {
		wr.wr.rdma.remote_addr = (uintptr_t)self->buf + 8 * MSG;
		wr.wr.rdma.rkey = self->mr->rkey;
	}
	return ibv_post_send(qp, &wr, &bad);
}

/* Wait for @n completions on @cq; the count seen. */
static int drain_cq(struct ibv_cq *cq, int n, int ms)
{
	struct timespec end, now;
	struct ibv_wc wc[16];
	int got = 0;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ms / 1000;
	while (got < n) {
		int r = ibv_poll_cq(cq, 16, wc);

		if (r < 0)
			break;
		got += r;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec)
			break;
		if (!r)
			usleep(1000);
	}
	return got;
}

/* The IPv4-mapped RoCE v2 GID if the port has one, else index 0. */
static int pick_gid(struct ibv_context *ctx, union ibv_gid *gid)
{
	static const unsigned char v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	struct ibv_port_attr pa;
	int i;

	if (ibv_query_port(ctx, 1, &pa))
		return -1;
	for (i = 0; i < pa.gid_tbl_len; i++)
		if (!ibv_query_gid(ctx, 1, i, gid) &&
		    !memcmp(gid->raw, v4mapped, sizeof(v4mapped)))
			return i;
	return ibv_query_gid(ctx, 1, 0, gid) ? -1 : 0;
}

FIXTURE_SETUP(rc)
{
	self->ctx = open_first_device();
	ASSERT_NE(NULL, self->ctx);
	self->gid_index = pick_gid(self->ctx, &self->gid);
	ASSERT_LE(0, self->gid_index);
	self->pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, self->pd);
	self->cq = ibv_create_cq(self->ctx, 64, NULL, NULL, 0);
	ASSERT_NE(NULL, self->cq);
	self->mr = ibv_reg_mr(self->pd, self->buf, sizeof(self->buf),
			      IBV_ACCESS_LOCAL_WRITE |
			      IBV_ACCESS_REMOTE_WRITE);
	ASSERT_NE(NULL, self->mr);
}

FIXTURE_TEARDOWN(rc)
{
	if (self->mr)
		ibv_dereg_mr(self->mr);
	if (self->cq)
		ibv_destroy_cq(self->cq);
	if (self->pd)
		ibv_dealloc_pd(self->pd);
	if (self->ctx)
		ibv_close_device(self->ctx);
}

TEST_F_TIMEOUT(rc, srq_limit_reached_once_when_armed, 60)
{
	struct ibv_srq_init_attr sia = { .attr = { .max_wr = 16, .max_sge = 1 } };
	struct ibv_srq_attr limit = { .srq_limit = 4 };
	struct ibv_async_event e;
	struct ibv_qp *a, *b;
	struct ibv_srq *srq;
	int i;

	srq = ibv_create_srq(self->pd, &sia);
	ASSERT_NE(NULL, srq);
	for (i = 0; i < 8; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)self->buf + i * MSG,
			.length = MSG, .lkey = self->mr->lkey,
		};
		struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge,
					  .num_sge = 1 }, *bad;

		ASSERT_EQ(0, ibv_post_srq_recv(srq, &wr, &bad));
	}
	a = rc_qp(self->pd, self->cq, self->cq, srq);
	b = rc_qp(self->pd, self->cq, self->cq, NULL);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, connect_pair(self, a, b));

	/* Armed at 4 with 8 posted: nothing until fewer than 4 are left. */
	ASSERT_EQ(0, ibv_modify_srq(srq, &limit, IBV_SRQ_LIMIT));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, post_send(self, b, IBV_WR_SEND, 8 + i, 1));
	EXPECT_EQ(8, drain_cq(self->cq, 8, EVENT_WAIT_MS));
	EXPECT_EQ(-1, wait_async_event(self->ctx, IBV_EVENT_SRQ_LIMIT_REACHED,
				       200, &e));
	ASSERT_EQ(0, post_send(self, b, IBV_WR_SEND, 12, 1));
	EXPECT_EQ(2, drain_cq(self->cq, 2, EVENT_WAIT_MS));
	ASSERT_EQ(0, wait_async_event(self->ctx, IBV_EVENT_SRQ_LIMIT_REACHED,
				      EVENT_WAIT_MS, &e));
	EXPECT_EQ(srq, e.element.srq);

	/* The limit disarms itself: one more receive, no second event. */
	ASSERT_EQ(0, post_send(self, b, IBV_WR_SEND, 13, 1));
	EXPECT_EQ(2, drain_cq(self->cq, 2, EVENT_WAIT_MS));
	EXPECT_EQ(-1, wait_async_event(self->ctx, IBV_EVENT_SRQ_LIMIT_REACHED,
				       200, &e));
	ASSERT_EQ(0, ibv_query_srq(srq, &limit));
	EXPECT_EQ(0, limit.srq_limit);

	EXPECT_EQ(0, ibv_destroy_qp(a));
	EXPECT_EQ(0, ibv_destroy_qp(b));
	EXPECT_EQ(0, ibv_destroy_srq(srq));
}

TEST_F_TIMEOUT(rc, cq_overrun_raises_cq_err, 60)
{
	struct ibv_async_event e;
	struct ibv_qp *a, *b;
	struct ibv_cq *small;
	int i;

	small = ibv_create_cq(self->ctx, 1, NULL, NULL, 0);
	ASSERT_NE(NULL, small);
	a = rc_qp(self->pd, small, self->cq, NULL);
	b = rc_qp(self->pd, self->cq, self->cq, NULL);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, connect_pair(self, a, b));

	/* More signaled writes than the CQ holds, nothing polled. */
	for (i = 0; i < small->cqe + 3; i++)
		ASSERT_EQ(0, post_send(self, a, IBV_WR_RDMA_WRITE, i, 1));
	ASSERT_EQ(0, wait_async_event(self->ctx, IBV_EVENT_CQ_ERR,
				      EVENT_WAIT_MS, &e));
	EXPECT_EQ(small, e.element.cq);

	EXPECT_EQ(0, ibv_destroy_qp(a));
	EXPECT_EQ(0, ibv_destroy_qp(b));
	EXPECT_EQ(0, ibv_destroy_cq(small));
}

TEST_F_TIMEOUT(rc, sq_drained_after_moving_to_sqd, 60)
{
	struct ibv_qp_attr sqd = { .qp_state = IBV_QPS_SQD,
				   .en_sqd_async_notify = 1 };
	struct ibv_async_event e;
	struct ibv_qp *a, *b;
	int i;

	a = rc_qp(self->pd, self->cq, self->cq, NULL);
	b = rc_qp(self->pd, self->cq, self->cq, NULL);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, connect_pair(self, a, b));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, post_send(self, a, IBV_WR_RDMA_WRITE, i, 1));
	EXPECT_EQ(4, drain_cq(self->cq, 4, EVENT_WAIT_MS));
	EXPECT_EQ(-1, wait_async_event(self->ctx, IBV_EVENT_SQ_DRAINED,
				       200, &e));
	ASSERT_EQ(0, ibv_modify_qp(a, &sqd, IBV_QP_STATE |
				   IBV_QP_EN_SQD_ASYNC_NOTIFY));
	ASSERT_EQ(0, wait_async_event(self->ctx, IBV_EVENT_SQ_DRAINED,
				      EVENT_WAIT_MS, &e));
	EXPECT_EQ(a, e.element.qp);

	EXPECT_EQ(0, ibv_destroy_qp(a));
	EXPECT_EQ(0, ibv_destroy_qp(b));
}

/*
 * An event nobody has read yet stays queued while other objects come and
 * go: raise SRQ_LIMIT, destroy the QPs, then read it and destroy the SRQ
 * (whose destroy counts the event as reported; libibverbs checks the ack).
 */
TEST_F_TIMEOUT(rc, unread_event_is_kept_until_read, 60)
{
	struct ibv_srq_init_attr sia = { .attr = { .max_wr = 4, .max_sge = 1 } };
	struct ibv_srq_attr limit = { .srq_limit = 2 };
	struct ibv_sge sge = { .addr = (uintptr_t)self->buf, .length = MSG,
			       .lkey = self->mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	struct ibv_async_event e;
	struct ibv_qp *a, *b;
	struct ibv_srq *srq;

	srq = ibv_create_srq(self->pd, &sia);
	ASSERT_NE(NULL, srq);
	ASSERT_EQ(0, ibv_post_srq_recv(srq, &wr, &bad));
	ASSERT_EQ(0, ibv_post_srq_recv(srq, &wr, &bad));
	a = rc_qp(self->pd, self->cq, self->cq, srq);
	b = rc_qp(self->pd, self->cq, self->cq, NULL);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, connect_pair(self, a, b));
	ASSERT_EQ(0, ibv_modify_srq(srq, &limit, IBV_SRQ_LIMIT));
	ASSERT_EQ(0, post_send(self, b, IBV_WR_SEND, 8, 1));
	EXPECT_EQ(2, drain_cq(self->cq, 2, EVENT_WAIT_MS));
	EXPECT_EQ(0, ibv_destroy_qp(a));
	EXPECT_EQ(0, ibv_destroy_qp(b));

	ASSERT_EQ(0, wait_async_event(self->ctx, IBV_EVENT_SRQ_LIMIT_REACHED,
				      EVENT_WAIT_MS, &e));
	EXPECT_EQ(srq, e.element.srq);
	EXPECT_EQ(0, ibv_destroy_srq(srq));
}

/* ----------------------------------------------- completion channel epoll */

TEST_F_TIMEOUT(rc, comp_channel_wakes_epoll_once_per_arm, 60)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq, *got_cq;
	struct ibv_qp *a, *b;
	void *got_ctx;
	int ep;

	ch = ibv_create_comp_channel(self->ctx);
	ASSERT_NE(NULL, ch);
	ASSERT_EQ(0, set_nonblocking(ch->fd));
	cq = ibv_create_cq(self->ctx, 16, self, ch, 0);
	ASSERT_NE(NULL, cq);
	a = rc_qp(self->pd, cq, self->cq, NULL);
	b = rc_qp(self->pd, self->cq, self->cq, NULL);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, connect_pair(self, a, b));
	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, ch->fd, &ev));

	/* Not armed: a completion arrives, the channel stays quiet. */
	ASSERT_EQ(0, post_send(self, a, IBV_WR_RDMA_WRITE, 0, 1));
	EXPECT_EQ(1, drain_cq(cq, 1, EVENT_WAIT_MS));
	EXPECT_EQ(0, epoll_wait(ep, &ev, 1, 200));

	/* Armed: the next completion wakes epoll, one event to read. */
	ASSERT_EQ(0, ibv_req_notify_cq(cq, 0));
	ASSERT_EQ(0, post_send(self, a, IBV_WR_RDMA_WRITE, 1, 1));
	ASSERT_EQ(1, epoll_wait(ep, &ev, 1, EVENT_WAIT_MS));
	ASSERT_EQ(0, ibv_get_cq_event(ch, &got_cq, &got_ctx));
	EXPECT_EQ(cq, got_cq);
	EXPECT_EQ(self, got_ctx);
	ibv_ack_cq_events(cq, 1);
	EXPECT_EQ(1, drain_cq(cq, 1, EVENT_WAIT_MS));

	/* The arm is used up: another completion, no second event. */
	ASSERT_EQ(0, post_send(self, a, IBV_WR_RDMA_WRITE, 2, 1));
	EXPECT_EQ(1, drain_cq(cq, 1, EVENT_WAIT_MS));
	EXPECT_EQ(0, epoll_wait(ep, &ev, 1, 200));
	EXPECT_EQ(-1, ibv_get_cq_event(ch, &got_cq, &got_ctx));
	EXPECT_EQ(EAGAIN, errno);

	/* Solicited-only arm: an unsolicited completion does not wake it. */
	ASSERT_EQ(0, ibv_req_notify_cq(cq, 1));
	ASSERT_EQ(0, post_send(self, a, IBV_WR_RDMA_WRITE, 3, 1));
	EXPECT_EQ(1, drain_cq(cq, 1, EVENT_WAIT_MS));
	EXPECT_EQ(0, epoll_wait(ep, &ev, 1, 200));

	close(ep);
	EXPECT_EQ(0, ibv_destroy_qp(a));
	EXPECT_EQ(0, ibv_destroy_qp(b));
	EXPECT_EQ(0, ibv_destroy_cq(cq));
	EXPECT_EQ(0, ibv_destroy_comp_channel(ch));
}

TEST_HARNESS_MAIN
