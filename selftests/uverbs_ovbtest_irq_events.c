// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * QP, SRQ, WQ and port events delivered from hard-interrupt context, as
 * HCA drivers deliver them: the test HCA's per-object hrtimer
 * (selftests/ovbtest/irq_events.c, HRTIMER_MODE_REL) calls the object's
 * event_handler (or, for a QP asked to, queues work that calls it from a
 * workqueue, as mlx5), and the device's calls ib_dispatch_event(), while
 *  - the test reads every event: N expiries give N events of the object,
 *    the driver raised N, DESTROY reports N;
 *  - SRQ_LIMIT_REACHED fires once per arm while the timer keeps firing;
 *  - DESTROY_QP/SRQ/WQ races the interrupt and a reader: DESTROY reports
 *    what was read, never more than the driver raised, and no event of
 *    the object is read by a read() begun after DESTROY returned;
 *  - port events reach every context's async fd, N each; the port's
 *    timer stops with the context that started it;
 *  - close() of the uverbs file: no event of its objects or of the port
 *    is read after it returned, a blocked reader of the async fd stays
 *    blocked (the async fd is a file of its own; a signal ends it);
 *  - rmmod: a blocked reader of the async fd wakes with DEVICE_FATAL,
 *    and nothing follows it.
 * The driver stops its timers in destroy (no handler call after it
 * returned) and before it unregisters the device, so a lost, extra or
 * late event, a hang or a splat is ib_uverbs' (or ib_core's).  Every
 * case checks the kernel log for a WARN/BUG/lockdep report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_xrc.h"
#include "qp_abi.h"

#define EVENTS_ALL	2000		/* all_delivered: expiries */
#define PERIOD_ALL	20000		/* ... 50 kHz */
#define PORT_EVENTS	300		/* each type, at */
#define PORT_PERIOD	100000		/* ... 10 kHz (a work item each) */
#define LIMIT_ARMS	200
#define RACE_ROUNDS	150		/* per object kind */
#define RACE_PERIOD	20000
#define RACE_COUNT	1000000		/* more than a round lasts */
#define PORT		1		/* the InfiniBand port */
/*
 * The port's period under close() and rmmod: each event is a work item of
 * ib_core's that queries the port and its tables (and ib_sa's that makes
 * an AH); faster, TCG falls behind.
 */
#define PORT_PERIOD_BG	1000000

enum { EV_PORT_ERR = 10, EV_DEVICE_FATAL = 8 };

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/*
 * OVBTEST_METHOD_{QP,SRQ,WQ}_IRQ with @flags; *@raised (optional): raised
 * so far.
 */
static int obj_irq_f(int fd, __u16 object, __u32 h, __u32 count,
		     __u32 period, __u32 event, __u32 port, __u32 flags,
		     __u64 *raised)
{
	struct ovbtest_irq_ev args = {
		.count = count, .period_ns = period, .event = event,
		.port = port, .flags = flags,
	};
	struct ioc c;

	ovbtest_ioc_init(&c, object, OVBTEST_METHOD_QP_IRQ);
	ioc_obj(&c, OVBTEST_ATTR_IRQ_EV_HANDLE, h);
	ioc_in(&c, OVBTEST_ATTR_IRQ_EV_ARGS, &args, sizeof(args));
	if (raised)
		ioc_out(&c, OVBTEST_ATTR_IRQ_EV_RAISED, raised, sizeof(*raised));
	return ioc_call(fd, &c);
}

static int obj_irq(int fd, __u16 object, __u32 h, __u32 count, __u32 period,
		   __u32 event, __u32 port, __u64 *raised)
{
	return obj_irq_f(fd, object, h, count, period, event, port, 0, raised);
}

/* OVBTEST_METHOD_PORT_IRQ; *@obj_raised: every object's events raised. */
static int dev_irq(int fd, __u32 count, __u32 period, __u32 event, __u32 port,
		   __u64 *raised, __u64 *obj_raised)
{
	struct ovbtest_irq_ev args = {
		.count = count, .period_ns = period, .event = event,
		.port = port,
	};
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PORT_IRQ, OVBTEST_METHOD_PORT_IRQ);
	ioc_in(&c, OVBTEST_ATTR_IRQ_EV_ARGS, &args, sizeof(args));
	if (raised)
		ioc_out(&c, OVBTEST_ATTR_IRQ_EV_RAISED, raised, sizeof(*raised));
	if (obj_raised)
		ioc_out(&c, OVBTEST_ATTR_IRQ_EV_OBJ_RAISED, obj_raised,
			sizeof(*obj_raised));
	return ioc_call(fd, &c);
}

static __u64 obj_raised_total(int fd)
{
	__u64 n = ~0ull;

	/* count 0: only stops the port timer (none runs here) */
	if (dev_irq(fd, 0, 0, 0, 0, NULL, &n))
		return ~0ull;
	return n;
}

/* ------------------------------------------------------------ objects */

struct kind {
	const char *name;
	__u16 object;
	__u32 event;		/* what its interrupt raises */
	__u64 uh;		/* the user handle the helpers give */
	__u32 flags;		/* OVBTEST_IRQ_EV_DEFER: from a workqueue */
};

static const struct kind K_QP = { "QP", UVERBS_OBJECT_QP, EV_QP_FATAL, 0x9d };
static const struct kind K_SRQ = { "SRQ", UVERBS_OBJECT_SRQ, EV_SRQ_ERR, 0x5e };
static const struct kind K_WQ = { "WQ", UVERBS_OBJECT_WQ, EV_WQ_FATAL, 0x3a };
/* mlx5's way: the interrupt queues work that calls the QP's handler */
static const struct kind K_QPW = { "QP (workqueue)", UVERBS_OBJECT_QP,
				   EV_COMM_EST, 0x9d, OVBTEST_IRQ_EV_DEFER };

static int make_obj(const struct kind *k, int fd, int pd, int cq)
{
	switch (k->object) {
	case UVERBS_OBJECT_QP:
		return raw_create_qp(fd, QPT_RC, pd, cq, -1, NULL);
	case UVERBS_OBJECT_SRQ:
		return create_xsrq(fd, SRQT_BASIC, pd, 0, 0, 32, NULL);
	default:
		return create_wq(fd, pd, cq, 0, 8, 0, NULL);
	}
}

/* DESTROY; the events it reports in *@reported. 0 or -errno. */
static int destroy_obj(const struct kind *k, int fd, int h, __u32 *reported)
{
	struct ib_uverbs_destroy_srq_resp srq = { ~0u };
	struct ib_uverbs_destroy_qp_resp qp = { ~0u };
	struct ib_uverbs_destroy_qp req = {
		.response = (uintptr_t)&qp, .qp_handle = h,
	};
	ssize_t ret;

	switch (k->object) {
	case UVERBS_OBJECT_QP:
		ret = raw_cmd(fd, IB_USER_VERBS_CMD_DESTROY_QP, &req,
			      sizeof(req), sizeof(qp));
		if (ret < 0)
			return (int)ret;
		*reported = qp.events_reported;
		return 0;
	case UVERBS_OBJECT_SRQ:
		ret = raw_destroy_srq(fd, h, &srq);
		if (ret)
			return (int)ret;
		*reported = srq.events_reported;
		return 0;
	default:
		return destroy_wq_ev(fd, h, reported);
	}
}

/* ------------------------------------------------------------- reader */

struct reader {
	int afd;		/* non-blocking */
	__u64 uh;
	__u32 type;
	__u32 skip;		/* a type passed over (0: none) */
	atomic_int destroyed;	/* DESTROY returned */
	atomic_int stop;
	unsigned long got;	/* the object's events read */
	atomic_int some;	/* got is not 0 (for other threads) */
	unsigned long late;	/* ... by a read() begun after DESTROY */
	unsigned long strange;	/* others, short reads */
};

/* One read; 1 the object's event, 0 none, -1 something else, 2 skipped. */
static int read_one(struct reader *r)
{
	struct ib_uverbs_async_event_desc ev;
	int gone = atomic_load(&r->destroyed);
	ssize_t n = read(r->afd, &ev, sizeof(ev));

	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n == sizeof(ev) && r->skip && ev.event_type == r->skip &&
	    ev.element == r->uh)
		return 2;
	if (n != sizeof(ev) || ev.element != r->uh ||
	    ev.event_type != r->type) {
		r->strange++;
		return -1;
	}
	r->late += gone;
	r->got++;
	atomic_store(&r->some, 1);
	return 1;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct pollfd p = { .fd = r->afd, .events = POLLIN };

	for (;;) {
		int stop = atomic_load(&r->stop);
		int got = 0, ret;

		while ((ret = read_one(r)) > 0)
			got++;
		if (ret < 0 || (stop && !got))
			break;
		poll(&p, 1, 1);
	}
	return NULL;
}

/* Reads @r until @want of its events or @ms; stops at a strange one. */
static void read_until(struct reader *r, unsigned long want, int ms)
{
	long long t0 = now_us();

	while (r->got < want && !r->strange &&
	       now_us() - t0 < ms * 1000LL) {
		struct pollfd p = { .fd = r->afd, .events = POLLIN };

		while (read_one(r) > 0)
			;
		poll(&p, 1, 10);
	}
}

static int set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl) ? -errno : 0;
}

/* ------------------------------------------------------------- fixture */

FIXTURE(irqev) {
	int fd, afd, pd, cq;
	int kmsg;
};

FIXTURE_SETUP(irqev)
{
	self->fd = self->afd = self->kmsg = -1;
	HCA_SETUP_LOAD();
	self->kmsg = ovbtest_kmsg_mark();
	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	/* before the objects: they report to it */
	self->afd = ovbtest_async_fd(self->fd);
	ASSERT_LE(0, self->afd);
	ASSERT_EQ(0, set_nonblock(self->afd, 1));
	self->pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);
}

FIXTURE_TEARDOWN(irqev)
{
	if (self->fd >= 0)
		dev_irq(self->fd, 0, 0, 0, 0, NULL, NULL);
	if (self->afd >= 0)
		close(self->afd);
	if (self->fd >= 0)
		close(self->fd);
	if (self->kmsg >= 0) {
		EXPECT_FALSE(ovbtest_kmsg_warned(self->kmsg));
		close(self->kmsg);
	}
}

TEST_F(irqev, bad_arguments)
{
	int qp = make_obj(&K_QP, self->fd, self->pd, self->cq);
	int srq = make_obj(&K_SRQ, self->fd, self->pd, self->cq);
	int wq = make_obj(&K_WQ, self->fd, self->pd, self->cq);
	__u32 rep;

	ASSERT_LE(0, qp);
	ASSERT_LE(0, srq);
	ASSERT_LE(0, wq);
	/* period, event of another object, a port on an object */
	EXPECT_EQ(-EINVAL, obj_irq(self->fd, UVERBS_OBJECT_QP, qp, 1, 999,
				   EV_QP_FATAL, 0, NULL));
	EXPECT_EQ(-EINVAL, obj_irq(self->fd, UVERBS_OBJECT_QP, qp, 1, 100000,
				   EV_SRQ_ERR, 0, NULL));
	EXPECT_EQ(-EINVAL, obj_irq(self->fd, UVERBS_OBJECT_QP, qp, 1, 100000,
				   EV_QP_FATAL, PORT, NULL));
	EXPECT_EQ(-EINVAL, obj_irq(self->fd, UVERBS_OBJECT_SRQ, srq, 1, 100000,
				   EV_WQ_FATAL, 0, NULL));
	EXPECT_EQ(-EINVAL, obj_irq(self->fd, UVERBS_OBJECT_WQ, wq, 1, 100000,
				   EV_QP_FATAL, 0, NULL));
	EXPECT_EQ(-EINVAL, obj_irq(self->fd, UVERBS_OBJECT_WQ, wq, 1, 100000,
				   200, 0, NULL));
	/* flags: unknown, or on an SRQ */
	EXPECT_EQ(-EINVAL, obj_irq_f(self->fd, UVERBS_OBJECT_QP, qp, 1, 100000,
				     EV_QP_FATAL, 0, 1 << 1, NULL));
	EXPECT_EQ(-EINVAL, obj_irq_f(self->fd, UVERBS_OBJECT_SRQ, srq, 1,
				     100000, EV_SRQ_ERR, 0,
				     OVBTEST_IRQ_EV_DEFER, NULL));
	/* a handle of another type */
	EXPECT_EQ(-ENOENT, obj_irq(self->fd, UVERBS_OBJECT_WQ, wq + 100, 1,
				   100000, EV_WQ_FATAL, 0, NULL));
	/* the device: port events only (DEVICE_FATAL not), a valid port */
	EXPECT_EQ(-EINVAL, dev_irq(self->fd, 1, 100000, EV_DEVICE_FATAL, PORT,
				   NULL, NULL));
	EXPECT_EQ(-EINVAL, dev_irq(self->fd, 1, 100000, EV_QP_FATAL, PORT,
				   NULL, NULL));
	EXPECT_EQ(-EINVAL, dev_irq(self->fd, 1, 100000, EV_PORT_ACTIVE, 0,
				   NULL, NULL));
	EXPECT_EQ(-EINVAL, dev_irq(self->fd, 1, 100000, EV_PORT_ACTIVE, 99,
				   NULL, NULL));
	EXPECT_EQ(-EINVAL, dev_irq(self->fd, 1, OVBTEST_PORT_IRQ_MIN_PERIOD - 1,
				   EV_PORT_ACTIVE, PORT, NULL, NULL));
	/* count 0 stops, whatever else */
	EXPECT_EQ(0, obj_irq(self->fd, UVERBS_OBJECT_QP, qp, 0, 0, 77, 5,
			     NULL));
	EXPECT_EQ(0, destroy_obj(&K_QP, self->fd, qp, &rep));
	EXPECT_EQ(0, rep);
	EXPECT_EQ(0, destroy_obj(&K_SRQ, self->fd, srq, &rep));
	EXPECT_EQ(0, destroy_obj(&K_WQ, self->fd, wq, &rep));
}

/* N expiries: N events read, N raised, N reported by DESTROY. */
static void all_delivered(struct __test_metadata *_metadata,
			  FIXTURE_DATA(irqev) * self, const struct kind *k)
{
	struct reader r = { .afd = self->afd, .uh = k->uh, .type = k->event };
	__u64 raised = ~0ull, before = obj_raised_total(self->fd);
	long long t0, t1;
	__u32 rep = ~0u;
	int h = make_obj(k, self->fd, self->pd, self->cq);

	ASSERT_LE(0, h);
	t0 = now_us();
	ASSERT_EQ(0, obj_irq_f(self->fd, k->object, h, EVENTS_ALL, PERIOD_ALL,
			       k->event, 0, k->flags, &raised));
	EXPECT_EQ(0, raised);
	read_until(&r, EVENTS_ALL, 20000);
	t1 = now_us();
	EXPECT_EQ(0, r.strange);
	EXPECT_EQ(EVENTS_ALL, r.got);
	ASSERT_EQ(0, obj_irq(self->fd, k->object, h, 0, 0, 0, 0, &raised));
	EXPECT_EQ(EVENTS_ALL, raised);
	EXPECT_EQ(EVENTS_ALL, obj_raised_total(self->fd) - before);
	EXPECT_EQ(0, read_one(&r));	/* nothing more */
	ASSERT_EQ(0, destroy_obj(k, self->fd, h, &rep));
	EXPECT_EQ(EVENTS_ALL, rep);
	TH_LOG("%s: %d events in %lld us (%lld/s)", k->name, EVENTS_ALL,
	       t1 - t0, EVENTS_ALL * 1000000LL / (t1 - t0 ? t1 - t0 : 1));
}

TEST_F(irqev, qp_all_delivered)
{
	all_delivered(_metadata, self, &K_QP);
}

TEST_F(irqev, srq_all_delivered)
{
	all_delivered(_metadata, self, &K_SRQ);
}

TEST_F(irqev, wq_all_delivered)
{
	all_delivered(_metadata, self, &K_WQ);
}

TEST_F(irqev, qp_workqueue_all_delivered)
{
	all_delivered(_metadata, self, &K_QPW);
}

/*
 * The SRQ limit under a fast interrupt that reports it on every expiry
 * it is armed: exactly one event per arm (the driver disarms it, as the
 * hardware does), each read before the next arm; DESTROY reports them.
 */
TEST_F(irqev, srq_limit_once_per_arm)
{
	struct reader r = { .afd = self->afd, .uh = K_SRQ.uh,
			    .type = EV_SRQ_LIMIT };
	struct ib_uverbs_query_srq_resp q;
	__u64 raised = ~0ull;
	__u32 rep = ~0u;
	int s = make_obj(&K_SRQ, self->fd, self->pd, self->cq);
	int i;

	ASSERT_LE(0, s);
	ASSERT_EQ(0, obj_irq(self->fd, UVERBS_OBJECT_SRQ, s, RACE_COUNT,
			     RACE_PERIOD, EV_SRQ_LIMIT, 0, NULL));
	usleep(2000);		/* expiries, nothing armed */
	EXPECT_EQ(0, read_one(&r));
	for (i = 0; i < LIMIT_ARMS; i++) {
		ASSERT_EQ(0, raw_modify_srq(self->fd, s, SRQ_LIMIT, 0, 4, 0));
		read_until(&r, i + 1, 5000);
		ASSERT_EQ(i + 1, r.got) TH_LOG("arm %d", i);
		ASSERT_EQ(0, r.strange);
		/* disarmed by the event */
		ASSERT_EQ(0, raw_query_srq(self->fd, s, &q));
		ASSERT_EQ(0, q.srq_limit) TH_LOG("arm %d", i);
	}
	usleep(2000);		/* more expiries, still disarmed */
	ASSERT_EQ(0, obj_irq(self->fd, UVERBS_OBJECT_SRQ, s, 0, 0, 0, 0,
			     &raised));
	EXPECT_EQ(0, read_one(&r));
	EXPECT_EQ(LIMIT_ARMS, raised);
	ASSERT_EQ(0, destroy_obj(&K_SRQ, self->fd, s, &rep));
	EXPECT_EQ(LIMIT_ARMS, rep);
}

/*
 * DESTROY against the interrupt and a reader: it reports what was read,
 * no more than the driver raised; nothing of the object is read once it
 * returned.
 */
static void destroy_races(struct __test_metadata *_metadata,
			  FIXTURE_DATA(irqev) * self, const struct kind *k)
{
	unsigned long got = 0, raised = 0, with = 0;
	unsigned int seed = 0x5eed + k->object;
	int i, wait;

	for (i = 0; i < RACE_ROUNDS; i++) {
		struct reader r = { .afd = self->afd, .uh = k->uh,
				    .type = k->event };
		__u64 before = obj_raised_total(self->fd), after;
		__u32 rep = ~0u;
		pthread_t t;
		int h = make_obj(k, self->fd, self->pd, self->cq);

		ASSERT_LE(0, h);
		ASSERT_EQ(0, pthread_create(&t, NULL, reader_main, &r));
		ASSERT_EQ(0, obj_irq_f(self->fd, k->object, h, RACE_COUNT,
				       RACE_PERIOD, k->event, 0, k->flags,
				       NULL));
		usleep(rand_r(&seed) % 3000);
		/*
		 * Every other round destroys only once an event was read
		 * (or after a second): the race runs with events in flight
		 * however slow the host is.
		 */
		for (wait = 0; i % 2 == 0 && !atomic_load(&r.some) &&
		     wait < 1000; wait++)
			usleep(1000);
		ASSERT_EQ(0, destroy_obj(k, self->fd, h, &rep));
		atomic_store(&r.destroyed, 1);
		atomic_store(&r.stop, 1);
		ASSERT_EQ(0, pthread_join(t, NULL));
		after = obj_raised_total(self->fd);
		ASSERT_EQ(0, r.strange) TH_LOG("round %d", i);
		ASSERT_EQ(0, r.late) TH_LOG("round %d", i);
		ASSERT_EQ(r.got, rep) TH_LOG("round %d", i);
		ASSERT_GE(after - before, r.got) TH_LOG("round %d", i);
		got += r.got;
		raised += after - before;
		with += r.got > 0;
	}
	TH_LOG("%s: %d rounds, %lu events raised, %lu read, %lu rounds with some",
	       k->name, RACE_ROUNDS, raised, got, with);
	/* the race was run: events in at least the rounds that waited */
	EXPECT_LE(RACE_ROUNDS / 2, with);
}

TEST_F(irqev, qp_destroy_races_interrupt)
{
	destroy_races(_metadata, self, &K_QP);
}

TEST_F(irqev, srq_destroy_races_interrupt)
{
	destroy_races(_metadata, self, &K_SRQ);
}

TEST_F(irqev, wq_destroy_races_interrupt)
{
	destroy_races(_metadata, self, &K_WQ);
}

TEST_F(irqev, qp_workqueue_destroy_races)
{
	destroy_races(_metadata, self, &K_QPW);
}

/* Port events: N of each type on every context's async fd. */
TEST_F(irqev, port_events_reach_every_context)
{
	static const __u32 types[] = { EV_PORT_ACTIVE, EV_PORT_ERR };
	int fd2 = ovbtest_open_ctx(), afd2, i;
	__u64 raised = ~0ull, total = 0;

	ASSERT_LE(0, fd2);
	afd2 = ovbtest_async_fd(fd2);
	ASSERT_LE(0, afd2);
	ASSERT_EQ(0, set_nonblock(afd2, 1));
	ASSERT_EQ(0, dev_irq(self->fd, 0, 0, 0, 0, &total, NULL));
	for (i = 0; i < 2; i++) {
		struct reader a = { .afd = self->afd, .uh = PORT,
				    .type = types[i] };
		struct reader b = { .afd = afd2, .uh = PORT, .type = types[i] };

		ASSERT_EQ(0, dev_irq(self->fd, PORT_EVENTS, PORT_PERIOD,
				     types[i], PORT, NULL, NULL));
		read_until(&a, PORT_EVENTS, 20000);
		read_until(&b, PORT_EVENTS, 20000);
		ASSERT_EQ(0, dev_irq(self->fd, 0, 0, 0, 0, &raised, NULL));
		EXPECT_EQ(total + PORT_EVENTS, raised);
		total = raised;
		EXPECT_EQ(0, a.strange);
		EXPECT_EQ(0, b.strange);
		EXPECT_EQ(PORT_EVENTS, a.got);
		EXPECT_EQ(PORT_EVENTS, b.got);
		usleep(50000);	/* ib_core's work items: none left over */
		EXPECT_EQ(0, read_one(&a));
		EXPECT_EQ(0, read_one(&b));
	}
	/* the port's timer goes with the context that started it */
	ASSERT_EQ(0, dev_irq(fd2, RACE_COUNT, PORT_PERIOD, EV_PORT_ACTIVE,
			     PORT, NULL, NULL));
	usleep(20000);
	close(afd2);
	close(fd2);
	{
		struct reader a = { .afd = self->afd, .uh = PORT,
				    .type = EV_PORT_ACTIVE };
		unsigned long seen = 1;
		int quiet;

		/* what was queued before, until 20 ms without any */
		for (quiet = 0; quiet < 100 && seen; quiet++) {
			seen = a.got;
			usleep(20000);
			while (read_one(&a) > 0)
				;
			seen = a.got != seen;
		}
		EXPECT_LT(0, a.got);
		EXPECT_EQ(0, a.strange);
		usleep(50000);	/* 500 expiries if it still ran */
		EXPECT_EQ(0, read_one(&a));
	}
}

/* ------------------------------------------------ close() and rmmod */

struct blocked {
	int afd;
	atomic_int closed;	/* close() of the uverbs file returned */
	atomic_int done;
	atomic_ulong events;
	unsigned long late_obj;	/* objects' events read after close() */
	unsigned long port_err;	/* PORT_ERR: raised only after close() */
	ssize_t ret;
	int err;
	__u32 last_type;
	__u64 last_element;
};

static void on_usr1(int sig)
{
	(void)sig;
}

/* Blocking reads of the async fd until one fails. */
static void *blocked_main(void *arg)
{
	struct ib_uverbs_async_event_desc ev;
	struct blocked *b = arg;

	for (;;) {
		int closed = atomic_load(&b->closed);

		b->ret = read(b->afd, &ev, sizeof(ev));
		if (b->ret != sizeof(ev))
			break;
		atomic_fetch_add(&b->events, 1);
		/* port events queued before close() stay on the fd */
		if (ev.event_type == EV_PORT_ERR)
			b->port_err++;
		else if (closed && ev.event_type != EV_PORT_ACTIVE)
			b->late_obj++;
		b->last_type = ev.event_type;
		b->last_element = ev.element;
		if (ev.event_type == EV_DEVICE_FATAL)
			break;
	}
	b->err = b->ret < 0 ? errno : 0;
	atomic_store(&b->done, 1);
	return NULL;
}

/* A context with a QP, an SRQ, a WQ, a deferring QP and the port firing. */
static void start_all(struct __test_metadata *_metadata, int fd)
{
	const struct kind *ks[] = { &K_QP, &K_SRQ, &K_WQ, &K_QPW };
	int pd = raw_alloc_pd(fd), cq, i;

	ASSERT_LE(0, pd);
	HCA_SETUP_CQ(fd, cq);
	for (i = 0; i < 4; i++) {
		int h = make_obj(ks[i], fd, pd, cq);

		ASSERT_LE(0, h);
		ASSERT_EQ(0, obj_irq_f(fd, ks[i]->object, h, RACE_COUNT,
				       RACE_PERIOD, ks[i]->event, 0,
				       ks[i]->flags, NULL));
	}
	ASSERT_EQ(0, dev_irq(fd, RACE_COUNT, PORT_PERIOD_BG, EV_PORT_ACTIVE,
			     PORT, NULL, NULL));
}

/*
 * close() of the uverbs file with a reader blocked on the async fd and
 * every interrupt firing: ib_uverbs destroys the objects (the driver
 * stops their timers) and drops their unread events, and unregisters the
 * file's port handler: a read() begun after close() returned gets no
 * event of an object, and no port event raised after close() returned
 * (the fixture's context restarts the port with PORT_ERR then, which it
 * sees arrive and the closed one must not); the reader
 * is not woken (the async fd is a file of its own) until a signal.
 */
TEST_F_TIMEOUT(irqev, file_close_races_interrupt, 120)
{
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	unsigned int seed = 0xc105e;
	struct reader mine = { .afd = self->afd, .uh = PORT,
			       .type = EV_PORT_ERR, .skip = EV_PORT_ACTIVE };
	struct ib_uverbs_async_event_desc ev;
	unsigned long events = 0, port_err = 0;
	long long t0 = now_us();
	int i, j;

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	for (i = 0; i < 30; i++) {
		struct blocked b = {};
		pthread_t t;
		int fd = ovbtest_open_ctx(), afd;

		ASSERT_LE(0, fd);
		afd = ovbtest_async_fd(fd);
		ASSERT_LE(0, afd);
		b.afd = afd;
		ASSERT_EQ(0, pthread_create(&t, NULL, blocked_main, &b));
		start_all(_metadata, fd);
		usleep(rand_r(&seed) % 3000);
		close(fd);
		atomic_store(&b.closed, 1);
		/* the port (stopped with its context) fires PORT_ERR now */
		ASSERT_EQ(0, dev_irq(self->fd, RACE_COUNT, PORT_PERIOD_BG,
				     EV_PORT_ERR, PORT, NULL, NULL));
		/* ... until the open context has read some */
		mine.got = 0;
		read_until(&mine, 3, 10000);
		ASSERT_LE(3, mine.got) TH_LOG("round %d", i);
		ASSERT_EQ(0, mine.strange) TH_LOG("round %d", i);
		usleep(10000);
		ASSERT_FALSE(atomic_load(&b.done)) TH_LOG("round %d", i);
		/* again if it came between two reads */
		for (j = 0; j < 500 && !atomic_load(&b.done); j++) {
			pthread_kill(t, SIGUSR1);
			usleep(10000);
		}
		ASSERT_EQ(0, pthread_join(t, NULL));
		EXPECT_EQ(-1, b.ret);
		EXPECT_EQ(EINTR, b.err) TH_LOG("round %d", i);
		ASSERT_EQ(0, b.late_obj) TH_LOG("round %d", i);
		ASSERT_EQ(0, b.port_err) TH_LOG("round %d", i);
		close(afd);
		events += atomic_load(&b.events);
		/* the port timer of the device: this test's file stops it */
		ASSERT_EQ(0, dev_irq(self->fd, 0, 0, 0, 0, NULL, NULL));
		port_err += mine.got;
		/* the fixture's fd: PORT_ACTIVEs from before, left unread */
		usleep(10000);
		while (read(self->afd, &ev, sizeof(ev)) == sizeof(ev))
			;
	}
	TH_LOG("30 rounds, %lu events read by the closed file, %lu PORT_ERR by the open one, %lld ms",
	       events, port_err, (now_us() - t0) / 1000);
	EXPECT_LT(0, events);
}

/*
 * rmmod with every interrupt firing and a reader blocked on the async
 * fd: it wakes with DEVICE_FATAL, the last event it gets.  Last of the
 * fixture: it leaves the module loaded again.
 */
TEST_F_TIMEOUT(irqev, unload_races_interrupt, 120)
{
	unsigned int seed = 0xdead;
	int i;

	close(self->afd);
	close(self->fd);
	self->afd = self->fd = -1;
	for (i = 0; i < 10; i++) {
		struct ib_uverbs_async_event_desc ev;
		struct blocked b = {};
		pthread_t t;
		int fd, afd, k;

		ASSERT_EQ(0, ovbtest_load());
		k = ovbtest_kmsg_mark();
		fd = ovbtest_open_ctx();
		ASSERT_LE(0, fd);
		afd = ovbtest_async_fd(fd);
		ASSERT_LE(0, afd);
		b.afd = afd;
		ASSERT_EQ(0, pthread_create(&t, NULL, blocked_main, &b));
		start_all(_metadata, fd);
		usleep(rand_r(&seed) % 3000);
		ASSERT_EQ(0, ovbtest_unload());
		ASSERT_EQ(0, pthread_join(t, NULL));
		EXPECT_EQ(sizeof(ev), b.ret) TH_LOG("round %d", i);
		EXPECT_EQ(EV_DEVICE_FATAL, b.last_type) TH_LOG("round %d", i);
		EXPECT_EQ(0, b.last_element);
		/* nothing after it */
		ASSERT_EQ(0, set_nonblock(afd, 1));
		EXPECT_EQ(-1, read(afd, &ev, sizeof(ev)));
		EXPECT_EQ(EAGAIN, errno) TH_LOG("round %d", i);
		close(afd);
		close(fd);
		EXPECT_FALSE(ovbtest_kmsg_warned(k));
		close(k);
		if (i == 0)
			TH_LOG("round 0: %lu events, DEVICE_FATAL last",
			       atomic_load(&b.events));
	}
	ASSERT_EQ(0, ovbtest_load());
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
