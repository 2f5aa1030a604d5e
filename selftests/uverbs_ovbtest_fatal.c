// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A fatal device error raised from hard-interrupt context, as an HCA
 * driver raises it (selftests/ovbtest/fatal.c: the device's hrtimer marks
 * it failed, calls comp_handler of every CQ, dispatches
 * IB_EVENT_DEVICE_FATAL once), and what ib_uverbs makes of it:
 *  - a reader blocked on each context's async fd gets exactly one
 *    DEVICE_FATAL, element the port the driver named; a second error
 *    raises none;
 *  - readers blocked on completion channels get one event per CQ of
 *    theirs, none for a CQ without a channel; DESTROY_CQ reports them;
 *  - afterwards creates fail as the driver answers (ENOLINK), destroys
 *    succeed, a new GET_CONTEXT fails EAGAIN, and rmmod adds ib_uverbs'
 *    own DEVICE_FATAL (element 0) on the async fd of a context still open;
 *  - the error raced with DESTROY_CQ (and a channel reader), close() of
 *    the uverbs file and rmmod: no WARN, no leak, no hang, never a second
 *    DEVICE_FATAL.
 * Each case runs on a freshly loaded module (a failed device stays
 * failed) and unloads it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

enum { EV_DEVICE_FATAL = 8 };
#define PORT		1
#define NCQ		8
#define ROUNDS		20

/* OVBTEST_METHOD_PORT_FATAL; *@raised, *@failed optional. */
static int fatal(int fd, __u32 delay_ns, __u32 port, __u64 *raised,
		 __u32 *failed)
{
	struct ovbtest_fatal args = { .delay_ns = delay_ns, .port = port };
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PORT_IRQ, OVBTEST_METHOD_PORT_FATAL);
	ioc_in(&c, OVBTEST_ATTR_FATAL_ARGS, &args, sizeof(args));
	if (raised)
		ioc_out(&c, OVBTEST_ATTR_FATAL_RAISED, raised, sizeof(*raised));
	if (failed)
		ioc_out(&c, OVBTEST_ATTR_FATAL_FAILED, failed, sizeof(*failed));
	return ioc_call(fd, &c);
}

static int set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	return fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

/* One read of @fd within @ms: its size, 0 on timeout, -errno. */
static ssize_t read_within(int fd, void *buf, size_t len, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (poll(&p, 1, ms) <= 0)
		return 0;
	n = read(fd, buf, len);
	return n < 0 ? -errno : n;
}

/* Nothing more on (non-blocking) @fd after @ms: EAGAIN. */
static int quiet_after(int fd, int ms)
{
	char buf[64];

	usleep(ms * 1000);
	if (set_nonblock(fd, 1))
		return -1;
	return read(fd, buf, sizeof(buf)) == -1 && errno == EAGAIN;
}

/* A blocking reader of an async fd: events until DEVICE_FATAL @last_el. */
struct areader {
	int afd;
	__u64 last_el;
	atomic_int done;
	int n, fatal_port, fatal_zero, other;
	int err;
};

static void *areader_main(void *arg)
{
	struct ib_uverbs_async_event_desc ev;
	struct areader *r = arg;

	for (;;) {
		ssize_t n = read(r->afd, &ev, sizeof(ev));

		if (n != sizeof(ev)) {
			r->err = n < 0 ? errno : -1;
			break;
		}
		r->n++;
		if (ev.event_type != EV_DEVICE_FATAL)
			r->other++;
		else if (ev.element == 0)
			r->fatal_zero++;
		else if (ev.element == PORT)
			r->fatal_port++;
		else
			r->other++;
		if (ev.event_type == EV_DEVICE_FATAL && ev.element == r->last_el)
			break;
	}
	atomic_store(&r->done, 1);
	return NULL;
}

static int wait_done(atomic_int *done, int ms)
{
	int i;

	for (i = 0; i < ms && !atomic_load(done); i++)
		usleep(1000);
	return atomic_load(done);
}

/* A blocking reader of a completion channel: one event. */
struct creader {
	int chfd;
	atomic_int done;
	ssize_t n;
	__u64 cq_handle;
};

static void *creader_main(void *arg)
{
	struct ib_uverbs_comp_event_desc ev;
	struct creader *r = arg;

	r->n = read(r->chfd, &ev, sizeof(ev));
	r->cq_handle = ev.cq_handle;
	atomic_store(&r->done, 1);
	return NULL;
}

/* ------------------------------------------------------------ fixture */

FIXTURE(fatal) {
	int fd, afd;
	int kmsg;
};

FIXTURE_SETUP(fatal)
{
	self->fd = self->afd = self->kmsg = -1;
	if (ovbtest_loaded())
		ASSERT_EQ(0, ovbtest_unload());
	HCA_SETUP_LOAD();
	self->kmsg = ovbtest_kmsg_mark();
	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	self->afd = ovbtest_async_fd(self->fd);
	ASSERT_LE(0, self->afd);
}

FIXTURE_TEARDOWN(fatal)
{
	if (self->afd >= 0)
		close(self->afd);
	if (self->fd >= 0)
		close(self->fd);
	if (ovbtest_loaded())
		EXPECT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_kmsg_warned(self->kmsg));
}

/* Bad arguments: EINVAL, and nothing armed. */
TEST_F(fatal, bad_args)
{
	struct ovbtest_fatal a = { .delay_ns = 1000, .port = PORT, .flags = 1 };
	struct ioc c;
	__u32 failed = 9;
	__u64 raised = 9;

	EXPECT_EQ(-EINVAL, fatal(self->fd, 999, PORT, NULL, NULL));
	EXPECT_EQ(-EINVAL, fatal(self->fd, 1000, 3, NULL, NULL));
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PORT_IRQ, OVBTEST_METHOD_PORT_FATAL);
	ioc_in(&c, OVBTEST_ATTR_FATAL_ARGS, &a, sizeof(a));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	usleep(20000);
	EXPECT_EQ(0, fatal(self->fd, 0, 0, &raised, &failed));
	EXPECT_EQ(0, raised);
	EXPECT_EQ(0, failed);
	EXPECT_EQ(1, quiet_after(self->afd, 10));
}

/*
 * Every context's async fd gets one DEVICE_FATAL with the driver's port,
 * a blocked reader wakes with it; a second error of the failed device
 * raises no event (the driver dispatches once, as mlx5 while ib_active).
 */
TEST_F(fatal, async_readers_get_one)
{
	struct areader r = { .afd = self->afd, .last_el = PORT };
	struct ib_uverbs_async_event_desc ev;
	int fd2 = ovbtest_open_ctx(), afd2;
	__u64 raised = 0;
	__u32 failed = 0;
	pthread_t t;

	ASSERT_LE(0, fd2);
	afd2 = ovbtest_async_fd(fd2);
	ASSERT_LE(0, afd2);
	ASSERT_EQ(0, pthread_create(&t, NULL, areader_main, &r));
	usleep(20000);
	ASSERT_FALSE(atomic_load(&r.done));
	ASSERT_EQ(0, fatal(self->fd, 1000000, PORT, NULL, NULL));
	ASSERT_TRUE(wait_done(&r.done, 5000));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(1, r.n);
	EXPECT_EQ(1, r.fatal_port);
	EXPECT_EQ(sizeof(ev), read_within(afd2, &ev, sizeof(ev), 2000));
	EXPECT_EQ(EV_DEVICE_FATAL, ev.event_type);
	EXPECT_EQ(PORT, ev.element);
	EXPECT_EQ(1, quiet_after(self->afd, 100));
	EXPECT_EQ(1, quiet_after(afd2, 0));
	/* again: the CQs are notified, no second event */
	ASSERT_EQ(0, fatal(self->fd, 1000, PORT, &raised, &failed));
	EXPECT_EQ(1, raised);
	EXPECT_EQ(1, failed);
	EXPECT_EQ(1, quiet_after(self->afd, 100));
	EXPECT_EQ(1, quiet_after(afd2, 0));
	ASSERT_EQ(0, fatal(self->fd, 0, 0, &raised, NULL));
	EXPECT_EQ(2, raised);
	close(afd2);
	close(fd2);
}

/* Port 0 (mthca, cxgb4): element 0, the same as an unplug's. */
TEST_F(fatal, port_zero)
{
	struct ib_uverbs_async_event_desc ev;

	ASSERT_EQ(0, fatal(self->fd, 1000, 0, NULL, NULL));
	ASSERT_EQ(sizeof(ev), read_within(self->afd, &ev, sizeof(ev), 5000));
	EXPECT_EQ(EV_DEVICE_FATAL, ev.event_type);
	EXPECT_EQ(0, ev.element);
	EXPECT_EQ(1, quiet_after(self->afd, 100));
}

/*
 * Blocked completion channel readers: one event each, naming their CQ;
 * a CQ without a channel gives none; DESTROY_CQ reports what was read,
 * and the async fd carries no CQ event.
 */
TEST_F(fatal, comp_channel_readers)
{
	struct creader r1 = {}, r2 = {};
	struct ib_uverbs_create_cq_resp c1, c2, c3;
	struct ib_uverbs_destroy_cq_resp d;
	struct ib_uverbs_async_event_desc ev;
	pthread_t t1, t2;

	r1.chfd = raw_create_comp_channel(self->fd);
	r2.chfd = raw_create_comp_channel(self->fd);
	ASSERT_LE(0, r1.chfd);
	ASSERT_LE(0, r2.chfd);
	ASSERT_EQ(0, raw_create_cq(self->fd, 16, 0, r1.chfd, 0x11, &c1));
	ASSERT_EQ(0, raw_create_cq(self->fd, 16, 0, r2.chfd, 0x22, &c2));
	ASSERT_EQ(0, raw_create_cq(self->fd, 16, 0, -1, 0x33, &c3));
	ASSERT_EQ(0, pthread_create(&t1, NULL, creader_main, &r1));
	ASSERT_EQ(0, pthread_create(&t2, NULL, creader_main, &r2));
	usleep(20000);
	ASSERT_FALSE(atomic_load(&r1.done) || atomic_load(&r2.done));
	ASSERT_EQ(0, fatal(self->fd, 500000, PORT, NULL, NULL));
	ASSERT_TRUE(wait_done(&r1.done, 5000));
	ASSERT_TRUE(wait_done(&r2.done, 5000));
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	EXPECT_EQ(sizeof(struct ib_uverbs_comp_event_desc), r1.n);
	EXPECT_EQ(0x11, r1.cq_handle);
	EXPECT_EQ(sizeof(struct ib_uverbs_comp_event_desc), r2.n);
	EXPECT_EQ(0x22, r2.cq_handle);
	ASSERT_EQ(sizeof(ev), read_within(self->afd, &ev, sizeof(ev), 5000));
	EXPECT_EQ(EV_DEVICE_FATAL, ev.event_type);
	EXPECT_EQ(1, quiet_after(r1.chfd, 100));
	EXPECT_EQ(1, quiet_after(r2.chfd, 0));
	EXPECT_EQ(1, quiet_after(self->afd, 0));
	/* destroys succeed on the failed device and report the reads */
	ASSERT_EQ(0, raw_destroy_cq(self->fd, c1.cq_handle, &d));
	EXPECT_EQ(1, d.comp_events_reported);
	EXPECT_EQ(0, d.async_events_reported);
	ASSERT_EQ(0, raw_destroy_cq(self->fd, c2.cq_handle, &d));
	EXPECT_EQ(1, d.comp_events_reported);
	ASSERT_EQ(0, raw_destroy_cq(self->fd, c3.cq_handle, &d));
	EXPECT_EQ(0, d.comp_events_reported);
	close(r1.chfd);
	close(r2.chfd);
}

/*
 * After the error: creates fail ENOLINK, destroys and queries succeed, a
 * new context is refused (EAGAIN, write and ioctl), closing is clean; at
 * rmmod a context still open gets ib_uverbs' DEVICE_FATAL (element 0)
 * after the driver's (element PORT), and nothing more.
 */
TEST_F(fatal, commands_after)
{
	struct ib_uverbs_get_context_resp gc;
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ib_uverbs_query_device_resp qd;
	struct ib_uverbs_create_cq_resp cq;
	struct ib_uverbs_async_event_desc ev;
	static char buf[8192];
	int pd, mr, fd2, afd2, fd3;

	fd2 = ovbtest_open_ctx();
	ASSERT_LE(0, fd2);
	afd2 = ovbtest_async_fd(fd2);
	ASSERT_LE(0, afd2);
	pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, pd);
	ASSERT_EQ(0, raw_create_cq(self->fd, 16, 0, -1, 1, &cq));
	mr = ovbtest_reg_mr(self->fd, pd, buf, sizeof(buf), 0);
	ASSERT_LE(0, mr);

	ASSERT_EQ(0, fatal(self->fd, 1000, PORT, NULL, NULL));
	ASSERT_EQ(sizeof(ev), read_within(self->afd, &ev, sizeof(ev), 5000));
	ASSERT_EQ(EV_DEVICE_FATAL, ev.event_type);

	EXPECT_EQ(-ENOLINK, raw_alloc_pd(self->fd));
	EXPECT_EQ(-ENOLINK, raw_create_cq(self->fd, 16, 0, -1, 2, NULL));
	EXPECT_EQ(-ENOLINK, ovbtest_reg_mr(self->fd, pd, buf, sizeof(buf), 0));
	EXPECT_EQ(0, raw_query_device(self->fd, &qd));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	EXPECT_EQ(0, raw_destroy_cq(self->fd, cq.cq_handle, NULL));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd));
	EXPECT_EQ(0, ovbtest_info(self->fd).cqs);

	fd3 = ovbtest_open_dev();
	ASSERT_LE(0, fd3);
	EXPECT_EQ(-EAGAIN, ovbtest_get_context(fd3, &uctx));
	EXPECT_EQ(-EAGAIN, raw_get_context(fd3, &gc));
	close(fd3);

	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	EXPECT_EQ(1, quiet_after(self->afd, 50));

	ASSERT_EQ(sizeof(ev), read_within(afd2, &ev, sizeof(ev), 2000));
	EXPECT_EQ(EV_DEVICE_FATAL, ev.event_type);
	EXPECT_EQ(PORT, ev.element);
	ASSERT_EQ(0, ovbtest_unload());
	ASSERT_EQ(sizeof(ev), read_within(afd2, &ev, sizeof(ev), 2000));
	EXPECT_EQ(EV_DEVICE_FATAL, ev.event_type);
	EXPECT_EQ(0, ev.element);
	EXPECT_EQ(1, quiet_after(afd2, 50));
	EXPECT_EQ(1, quiet_after(self->afd, 0));
	close(afd2);
	close(fd2);
}

/* ------------------------------------------------------------- races */

struct chdrain {
	int chfd;		/* non-blocking */
	atomic_int stop;
	unsigned long n;
};

static void *chdrain_main(void *arg)
{
	struct ib_uverbs_comp_event_desc ev;
	struct chdrain *c = arg;

	while (!atomic_load(&c->stop)) {
		if (read_within(c->chfd, &ev, sizeof(ev), 1) == sizeof(ev))
			c->n++;
	}
	return NULL;
}

/*
 * DESTROY_CQ of CQs on a channel as the error fires, a reader draining
 * the channel: each CQ reports at most one event, they add up to what
 * the reader read, nothing is read after the last destroy, no CQ leaks.
 */
TEST_F_TIMEOUT(fatal, destroy_cq_races_fatal, 300)
{
	unsigned int seed = 0xfa7a1;
	unsigned long read_all = 0, reported_all = 0;
	int round, i;

	for (round = 0; round < ROUNDS; round++) {
		struct ib_uverbs_create_cq_resp c[NCQ];
		struct ib_uverbs_destroy_cq_resp d;
		struct ib_uverbs_async_event_desc ev;
		struct chdrain dr = {};
		unsigned long reported = 0;
		pthread_t t;

		if (round) {
			close(self->afd);
			close(self->fd);
			ASSERT_EQ(0, ovbtest_unload());
			ASSERT_EQ(0, ovbtest_load());
			self->fd = ovbtest_open_ctx();
			ASSERT_LE(0, self->fd);
			self->afd = ovbtest_async_fd(self->fd);
			ASSERT_LE(0, self->afd);
		}
		dr.chfd = raw_create_comp_channel(self->fd);
		ASSERT_LE(0, dr.chfd);
		/* a destroy drops the CQ's unread event between poll and read */
		ASSERT_EQ(0, set_nonblock(dr.chfd, 1));
		for (i = 0; i < NCQ; i++)
			ASSERT_EQ(0, raw_create_cq(self->fd, 16, 0, dr.chfd,
						   0x100 + i, &c[i]));
		ASSERT_EQ(0, pthread_create(&t, NULL, chdrain_main, &dr));
		ASSERT_EQ(0, fatal(self->fd, 1000 + rand_r(&seed) % 400000,
				   PORT, NULL, NULL));
		usleep(rand_r(&seed) % 400);
		for (i = 0; i < NCQ; i++) {
			ASSERT_EQ(0, raw_destroy_cq(self->fd, c[i].cq_handle,
						    &d));
			EXPECT_GE(1, d.comp_events_reported) TH_LOG("round %d", round);
			reported += d.comp_events_reported;
		}
		usleep(20000);
		atomic_store(&dr.stop, 1);
		pthread_join(t, NULL);
		EXPECT_EQ(reported, dr.n) TH_LOG("round %d", round);
		EXPECT_EQ(0, ovbtest_info(self->fd).cqs);
		/* the error fired by now: one DEVICE_FATAL */
		ASSERT_EQ(sizeof(ev), read_within(self->afd, &ev, sizeof(ev),
						  5000));
		EXPECT_EQ(EV_DEVICE_FATAL, ev.event_type);
		EXPECT_EQ(1, quiet_after(self->afd, 20));
		close(dr.chfd);
		read_all += dr.n;
		reported_all += reported;
	}
	TH_LOG("%d rounds, %lu completion events read and reported of %d CQs",
	       ROUNDS, read_all, ROUNDS * NCQ);
	EXPECT_EQ(read_all, reported_all);
}

/*
 * close() of the uverbs file as the error fires: its async fd gets the
 * event or not (it was unregistered first), never twice; no WARN.
 */
TEST_F_TIMEOUT(fatal, close_races_fatal, 300)
{
	unsigned int seed = 0xc105e;
	int round, got = 0;

	for (round = 0; round < ROUNDS; round++) {
		struct ib_uverbs_async_event_desc ev;
		int n = 0;

		if (round) {
			ASSERT_EQ(0, ovbtest_unload());
			ASSERT_EQ(0, ovbtest_load());
			self->fd = ovbtest_open_ctx();
			ASSERT_LE(0, self->fd);
			self->afd = ovbtest_async_fd(self->fd);
			ASSERT_LE(0, self->afd);
		}
		ASSERT_EQ(0, fatal(self->fd, 1000 + rand_r(&seed) % 1000000,
				   PORT, NULL, NULL));
		usleep(rand_r(&seed) % 1000);
		close(self->fd);
		self->fd = -1;
		usleep(50000);
		ASSERT_EQ(0, set_nonblock(self->afd, 1));
		while (read(self->afd, &ev, sizeof(ev)) == sizeof(ev)) {
			EXPECT_EQ(EV_DEVICE_FATAL, ev.event_type);
			EXPECT_EQ(PORT, ev.element);
			n++;
		}
		EXPECT_EQ(EAGAIN, errno);
		EXPECT_GE(1, n) TH_LOG("round %d", round);
		got += n;
		close(self->afd);
		self->afd = -1;
	}
	TH_LOG("%d rounds: DEVICE_FATAL read by %d closed contexts", ROUNDS,
	       got);
	/* a delay up to 1 ms, a close() after up to 1 ms: most rounds get it */
	EXPECT_LT(0, got);
}

/*
 * rmmod as the error fires, a reader blocked on the async fd: at most one
 * driver DEVICE_FATAL, then ib_uverbs' (element 0), last; no WARN.
 */
TEST_F_TIMEOUT(fatal, unload_races_fatal, 300)
{
	unsigned int seed = 0xdead;
	int round, drv = 0;

	for (round = 0; round < ROUNDS; round++) {
		struct areader r = { .last_el = 0 };
		pthread_t t;

		if (round) {
			ASSERT_EQ(0, ovbtest_load());
			self->fd = ovbtest_open_ctx();
			ASSERT_LE(0, self->fd);
			self->afd = ovbtest_async_fd(self->fd);
			ASSERT_LE(0, self->afd);
		}
		r.afd = self->afd;
		ASSERT_EQ(0, pthread_create(&t, NULL, areader_main, &r));
		ASSERT_EQ(0, fatal(self->fd, 1000 + rand_r(&seed) % 1000000,
				   PORT, NULL, NULL));
		usleep(rand_r(&seed) % 1000);
		ASSERT_EQ(0, ovbtest_unload());
		ASSERT_TRUE(wait_done(&r.done, 10000)) TH_LOG("round %d", round);
		pthread_join(t, NULL);
		EXPECT_EQ(1, r.fatal_zero) TH_LOG("round %d", round);
		EXPECT_GE(1, r.fatal_port) TH_LOG("round %d", round);
		EXPECT_EQ(0, r.other);
		EXPECT_EQ(1, quiet_after(self->afd, 20));
		drv += r.fatal_port;
		close(self->afd);
		close(self->fd);
		self->afd = self->fd = -1;
	}
	TH_LOG("%d rounds: the driver's DEVICE_FATAL came before rmmod's in %d",
	       ROUNDS, drv);
	EXPECT_LT(0, drv);
}

TEST_HARNESS_MAIN
