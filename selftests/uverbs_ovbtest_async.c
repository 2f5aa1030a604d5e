// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Asynchronous events of the objects rdma_rxe lacks, on the test HCA
 * (selftests/ovbtest/async.c raises one when asked, as the hardware would):
 *  - an XRC TGT QP: raised through any handle of it, the creator's or an
 *    OPEN_QP handle in another process, the event reaches the creator's
 *    file with the creator's user handle (ib_core's shared-QP handler
 *    calls each handle's handler; 6.1 gives OPEN_QP handles no event
 *    file, so theirs go nowhere);
 *  - an XRC SRQ: SRQ_ERR, and SRQ_LIMIT_REACHED once per arm;
 *  - a WQ: WQ_FATAL;
 * and in every case: the count DESTROY reports back (the events read()
 * handed out), and a destroy while events are queued drops exactly that
 * object's events from the fd.
 * Expected values are the in-tree 6.1 module's answers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_xrc.h"

#define CREATOR_UH	0x9d	/* raw_create_qp's user handle */
#define XSRQ_UH		0x5e	/* create_xsrq's */
#define WQ_UH		0x3a	/* create_wq's */

/* The next event on the non-blocking async fd: 0, or -errno (EAGAIN). */
static int next_ev(int afd, struct ib_uverbs_async_event_desc *ev)
{
	ssize_t n = read(afd, ev, sizeof(*ev));

	if (n < 0)
		return -errno;
	return n == sizeof(*ev) ? 0 : -EIO;
}

/* The async fd of a fresh context, made non-blocking; -errno on failure. */
static int nonblock_async_fd(int fd)
{
	int afd = ovbtest_async_fd(fd);

	if (afd < 0)
		return afd;
	if (fcntl(afd, F_SETFL, O_NONBLOCK))
		return -errno;
	return afd;
}

static int open_qp_as(int fd, __u32 xrcd, __u32 qpn, __u64 user_handle)
{
	struct ib_uverbs_create_qp_resp resp = {};
	struct ib_uverbs_open_qp req = {
		.response = (uintptr_t)&resp,
		.user_handle = user_handle,
		.pd_handle = xrcd,
		.qpn = qpn,
		.qp_type = QPT_XRC_TGT,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_OPEN_QP, &req, sizeof(req),
			      sizeof(resp));

	return ret < 0 ? (int)ret : (int)resp.qp_handle;
}

/* DESTROY_QP; the count of events it reports, or -errno. */
static int destroy_qp_ev(int fd, __u32 handle)
{
	struct ib_uverbs_destroy_qp_resp resp = { .events_reported = ~0u };
	struct ib_uverbs_destroy_qp req = {
		.response = (uintptr_t)&resp,
		.qp_handle = handle,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_DESTROY_QP, &req,
			      sizeof(req), sizeof(resp));

	return ret < 0 ? (int)ret : (int)resp.events_reported;
}

static int destroy_srq_ev(int fd, __u32 handle)
{
	struct ib_uverbs_destroy_srq_resp resp = { .events_reported = ~0u };
	int ret = raw_destroy_srq(fd, handle, &resp);

	return ret ? ret : (int)resp.events_reported;
}

/* ------------------------------------------------------------- fixture */

FIXTURE(async) {
	int fd, afd;
	int pd, cq;
	int file;		/* names the XRC domain */
	char name[64];
};

FIXTURE_SETUP(async)
{
	self->fd = self->afd = self->file = -1;
	HCA_SETUP_LOAD();
	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	/* first: objects made before it have no event file */
	self->afd = nonblock_async_fd(self->fd);
	ASSERT_LE(0, self->afd);
	self->pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);
	strcpy(self->name, "/tmp/uverbs_ovbtest_async.XXXXXX");
	self->file = mkstemp(self->name);
	ASSERT_LE(0, self->file);
}

FIXTURE_TEARDOWN(async)
{
	if (self->afd >= 0)
		close(self->afd);
	if (self->fd >= 0)
		close(self->fd);
	if (self->file >= 0) {
		unlink(self->name);
		close(self->file);
	}
}

/* The next event is @type on @element. */
#define EXPECT_EV(afd, elem, type) do {				\
	struct ib_uverbs_async_event_desc _ev = { ~0ull, ~0u, ~0u };	\
	ASSERT_EQ(0, next_ev(afd, &_ev));				\
	EXPECT_EQ((__u64)(elem), _ev.element);			\
	EXPECT_EQ((__u32)(type), _ev.event_type);			\
} while (0)

#define EXPECT_NO_EV(afd) do {						\
	struct ib_uverbs_async_event_desc _ev;				\
	EXPECT_EQ(-EAGAIN, next_ev(afd, &_ev));				\
} while (0)

/* ------------------------------------------------------------ XRC QPs */

/*
 * The other process's side of the XRC share: its own context and async
 * fd, the domain by the same inode, two OPEN_QP handles 0xc1 and 0xc2 of
 * the creator's QP.  It answers over pipes, and exits with the line of
 * the first check that failed (0: all passed).
 */
#define CHILD_CHECK(cond) do { if (!(cond)) _exit(__LINE__ & 0xff ? : 1); } while (0)

static void opener(const char *name, int to_parent, int from_parent)
{
	int fd = ovbtest_open_ctx(), afd, file, x, h1, h2;
	struct ib_uverbs_async_event_desc ev;
	__u32 qpn;
	char go;

	CHILD_CHECK(fd >= 0);
	afd = nonblock_async_fd(fd);
	CHILD_CHECK(afd >= 0);
	CHILD_CHECK(read(from_parent, &qpn, sizeof(qpn)) == sizeof(qpn));
	file = open(name, O_RDONLY);
	CHILD_CHECK(file >= 0);
	x = open_xrcd(fd, file, 0);
	CHILD_CHECK(x >= 0);
	h1 = open_qp_as(fd, x, qpn, 0xc1);
	CHILD_CHECK(h1 >= 0);
	h2 = open_qp_as(fd, x, qpn, 0xc2);
	CHILD_CHECK(h2 >= 0);
	/* raised through one of ours: the shared QP has it */
	CHILD_CHECK(raise_ev(fd, UVERBS_OBJECT_QP, h2, EV_COMM_EST) == 0);
	CHILD_CHECK(write(to_parent, "o", 1) == 1);

	/* the parent raised QP_FATAL through its handle meanwhile */
	CHILD_CHECK(read(from_parent, &go, 1) == 1);
	/* opened handles have no event file: nothing here, nothing counted */
	CHILD_CHECK(next_ev(afd, &ev) == -EAGAIN);
	CHILD_CHECK(destroy_qp_ev(fd, h2) == 0);
	CHILD_CHECK(destroy_qp_ev(fd, h1) == 0);
	CHILD_CHECK(close_xrcd(fd, x) == 0);
	_exit(0);
}

/*
 * One XRC TGT QP, its creator here and two OPEN_QP handles in another
 * process: an event raised through any handle reaches the creator's
 * handle once, with its user handle; 6.1's OPEN_QP gives the opened
 * handles no event file (ib_uverbs_open_qp never sets one), so the
 * opener's async fd stays empty and its DESTROY reports 0.
 */
TEST_F(async, xrc_tgt_qp_events_reach_the_creator)
{
	int to_child[2], to_parent[2], x, qp, status;
	__u32 qpn = 0;
	pid_t pid;
	char c;

	x = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x);
	qp = raw_create_qp(self->fd, QPT_XRC_TGT, x, 0, -1, &qpn);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(to_parent));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(to_child[1]);
		close(to_parent[0]);
		opener(self->name, to_parent[1], to_child[0]);
	}
	close(to_child[0]);
	close(to_parent[1]);

	ASSERT_EQ(sizeof(qpn), write(to_child[1], &qpn, sizeof(qpn)));
	ASSERT_EQ(1, read(to_parent[0], &c, 1));
	EXPECT_EV(self->afd, CREATOR_UH, EV_COMM_EST);
	EXPECT_NO_EV(self->afd);
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_QP, qp, EV_QP_FATAL));
	EXPECT_EV(self->afd, CREATOR_UH, EV_QP_FATAL);
	EXPECT_NO_EV(self->afd);
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));	/* else: the opener's line */

	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_QP, qp, EV_COMM_EST));
	/* events_reported: the events read, not those raised */
	EXPECT_EQ(2, destroy_qp_ev(self->fd, qp));
	EXPECT_NO_EV(self->afd);
	EXPECT_EQ(0, close_xrcd(self->fd, x));
}

/*
 * A destroy with events queued drops exactly that object's: an SRQ's and
 * a QP's events interleaved on one fd, the SRQ goes, the QP's remain.
 */
TEST_F(async, destroy_drops_only_its_events)
{
	int x, s, qp;

	x = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x);
	s = create_xsrq(self->fd, SRQT_XRC, self->pd, x, self->cq, 8, NULL);
	ASSERT_LE(0, s);
	qp = raw_create_qp(self->fd, QPT_XRC_TGT, x, 0, -1, NULL);
	ASSERT_LE(0, qp);
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_SRQ, s, EV_SRQ_ERR));
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_QP, qp, EV_QP_FATAL));
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_SRQ, s, EV_SRQ_ERR));
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_QP, qp, EV_COMM_EST));
	EXPECT_EV(self->afd, XSRQ_UH, EV_SRQ_ERR);
	EXPECT_EQ(1, destroy_srq_ev(self->fd, s));
	EXPECT_EV(self->afd, CREATOR_UH, EV_QP_FATAL);
	EXPECT_EV(self->afd, CREATOR_UH, EV_COMM_EST);
	EXPECT_NO_EV(self->afd);
	EXPECT_EQ(2, destroy_qp_ev(self->fd, qp));
	EXPECT_EQ(0, close_xrcd(self->fd, x));
}

/*
 * The creator's handle gone, the QP alive through an opened handle: its
 * events reach no file any more (the opened handle has none), and the
 * creator's queued ones went with its handle.
 */
TEST_F(async, opened_qp_after_creator_destroy)
{
	int x, qp, oqp;
	__u32 qpn = 0;

	x = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x);
	qp = raw_create_qp(self->fd, QPT_XRC_TGT, x, 0, -1, &qpn);
	ASSERT_LE(0, qp);
	oqp = open_qp_as(self->fd, x, qpn, 0xc7);
	ASSERT_LE(0, oqp);
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_QP, oqp, EV_QP_FATAL));
	EXPECT_EQ(0, destroy_qp_ev(self->fd, qp));
	EXPECT_NO_EV(self->afd);
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_QP, oqp, EV_COMM_EST));
	EXPECT_NO_EV(self->afd);
	EXPECT_EQ(0, destroy_qp_ev(self->fd, oqp));
	EXPECT_EQ(0, close_xrcd(self->fd, x));
}

/* Only a QP's own events; a handle that is no QP. */
TEST_F(async, qp_event_types)
{
	int qp = raw_create_qp(self->fd, QPT_UD, self->pd, self->cq, -1, NULL);

	ASSERT_LE(0, qp);
	EXPECT_EQ(-EINVAL, raise_ev(self->fd, UVERBS_OBJECT_QP, qp,
				    EV_PORT_ACTIVE));
	EXPECT_EQ(-EINVAL, raise_ev(self->fd, UVERBS_OBJECT_QP, qp,
				    EV_SRQ_ERR));
	EXPECT_EQ(-EINVAL, raise_ev(self->fd, UVERBS_OBJECT_QP, self->pd,
				    EV_QP_FATAL));
	EXPECT_EQ(-ENOENT, raise_ev(self->fd, UVERBS_OBJECT_QP, qp + 100,
				    EV_QP_FATAL));
	EXPECT_NO_EV(self->afd);
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_QP, qp, EV_QP_FATAL));
	EXPECT_EV(self->afd, CREATOR_UH, EV_QP_FATAL);
	EXPECT_EQ(1, destroy_qp_ev(self->fd, qp));
}

/* ----------------------------------------------------------- XRC SRQs */

TEST_F(async, xsrq_limit_and_error)
{
	struct ib_uverbs_query_srq_resp q;
	int x, s;

	x = open_xrcd(self->fd, self->file, O_CREAT);
	ASSERT_LE(0, x);
	s = create_xsrq(self->fd, SRQT_XRC, self->pd, x, self->cq, 32, NULL);
	ASSERT_LE(0, s);
	/* not armed; not an SRQ event */
	EXPECT_EQ(-EINVAL, raise_ev(self->fd, UVERBS_OBJECT_SRQ, s,
				    EV_SRQ_LIMIT));
	EXPECT_EQ(-EINVAL, raise_ev(self->fd, UVERBS_OBJECT_SRQ, s,
				    EV_QP_FATAL));
	EXPECT_EQ(-EINVAL, raise_ev(self->fd, UVERBS_OBJECT_SRQ, self->cq,
				    EV_SRQ_ERR));
	EXPECT_NO_EV(self->afd);

	/* once per arm: the event disarms the limit */
	ASSERT_EQ(0, raw_modify_srq(self->fd, s, SRQ_LIMIT, 0, 4, 0));
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_SRQ, s, EV_SRQ_LIMIT));
	EXPECT_EQ(-EINVAL, raise_ev(self->fd, UVERBS_OBJECT_SRQ, s,
				    EV_SRQ_LIMIT));
	EXPECT_EQ(0, raw_query_srq(self->fd, s, &q));
	EXPECT_EQ(0, q.srq_limit);
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_SRQ, s, EV_SRQ_ERR));
	EXPECT_EV(self->afd, XSRQ_UH, EV_SRQ_LIMIT);
	EXPECT_EV(self->afd, XSRQ_UH, EV_SRQ_ERR);
	EXPECT_NO_EV(self->afd);

	/*
	 * Two more left queued: dropped with the SRQ, and not counted
	 * (events_reported counts what read() handed out).
	 */
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_SRQ, s, EV_SRQ_ERR));
	ASSERT_EQ(0, raw_modify_srq(self->fd, s, SRQ_LIMIT, 0, 1, 0));
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_SRQ, s, EV_SRQ_LIMIT));
	EXPECT_EQ(2, destroy_srq_ev(self->fd, s));
	EXPECT_NO_EV(self->afd);
	EXPECT_EQ(0, close_xrcd(self->fd, x));
}

/* ----------------------------------------------------------------- WQs */

TEST_F(async, wq_fatal)
{
	__u32 events = ~0u;
	int wq, other;

	wq = create_wq(self->fd, self->pd, self->cq, 0, 8, 0, NULL);
	ASSERT_LE(0, wq);
	other = create_wq(self->fd, self->pd, self->cq, 0, 8, 0, NULL);
	ASSERT_LE(0, other);
	EXPECT_EQ(-EINVAL, raise_ev(self->fd, UVERBS_OBJECT_WQ, wq,
				    EV_SRQ_ERR));
	EXPECT_EQ(-EINVAL, raise_ev(self->fd, UVERBS_OBJECT_WQ, self->pd,
				    EV_WQ_FATAL));
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_WQ, wq, EV_WQ_FATAL));
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_WQ, other, EV_WQ_FATAL));
	EXPECT_EQ(0, raise_ev(self->fd, UVERBS_OBJECT_WQ, wq, EV_WQ_FATAL));
	EXPECT_EV(self->afd, WQ_UH, EV_WQ_FATAL);
	/* wq's second stays queued and goes with it; other's stays */
	EXPECT_EQ(0, destroy_wq_ev(self->fd, wq, &events));
	EXPECT_EQ(1, events);
	EXPECT_EV(self->afd, WQ_UH, EV_WQ_FATAL);
	EXPECT_NO_EV(self->afd);
	EXPECT_EQ(0, destroy_wq_ev(self->fd, other, &events));
	EXPECT_EQ(1, events);
}

/* -------------------------------------------------------------- unload */

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
