// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion events and CQ events delivered from hard-interrupt context,
 * as hardware drivers deliver them: the test HCA's per-CQ hrtimer
 * (selftests/ovbtest/irq.c, HRTIMER_MODE_REL_HARD) calls the CQ's
 * comp_handler, never armed (as efa), and its event_handler (CQ_ERR), at a
 * high rate, while the test
 *  - reads every event: N expiries give N channel events and N async
 *    events, and DESTROY_CQ reports N of each;
 *  - destroys the CQ with a reader thread on the channel and the async
 *    fd: the counts DESTROY_CQ reports are what the reader read, and no
 *    event of the CQ is read once DESTROY_CQ returned;
 *  - closes the completion channel, then destroys the CQ;
 *  - closes the uverbs file, and unloads the driver (disassociation),
 *    with a reader blocked on the channel: it wakes with EIO.
 * The driver stops its timer in destroy_cq (no handler call after it
 * returned), so a WARN, a lost or extra event or a hang is ib_uverbs'.
 * Every case checks the kernel log for a WARN/BUG/lockdep report.
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

#define EVENTS_ALL	4000		/* all_delivered: expiries */
#define PERIOD_ALL	20000		/* ... 50 kHz */
#define RACE_ROUNDS	300
#define RACE_PERIOD	20000		/* 50 kHz while racing */
#define RACE_COUNT	1000000		/* more than a round lasts */
#define EV_CQ_ERR	0		/* enum ib_event_type IB_EVENT_CQ_ERR */

static const __u32 both = OVBTEST_CQ_IRQ_COMP | OVBTEST_CQ_IRQ_CQ_ERR;

/* OVBTEST_METHOD_CQ_IRQ; *@fired (optional): expiries so far. */
static int cq_irq(int fd, __u32 cq, __u32 count, __u32 period, __u32 flags,
		  __u64 *fired)
{
	struct ovbtest_cq_irq args = {
		.count = count, .period_ns = period, .flags = flags,
	};
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_CQ, OVBTEST_METHOD_CQ_IRQ);
	ioc_obj(&c, OVBTEST_ATTR_CQ_IRQ_HANDLE, cq);
	ioc_in(&c, OVBTEST_ATTR_CQ_IRQ_ARGS, &args, sizeof(args));
	if (fired)
		ioc_out(&c, OVBTEST_ATTR_CQ_IRQ_FIRED, fired, sizeof(*fired));
	return ioc_call(fd, &c);
}

static int set_nonblock(int fd)
{
	return fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) ? -errno : 0;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* ------------------------------------------------------------- reader */

struct reader {
	int chfd, afd;		/* non-blocking */
	__u64 uh;		/* the CQ's user handle */
	atomic_int destroyed;	/* DESTROY_CQ returned */
	atomic_int stop;
	unsigned long comp, async;	/* the CQ's events read */
	unsigned long late;	/* ... read after DESTROY_CQ returned */
	unsigned long strange;	/* other handles, other types, short reads */
};

/* One read of @fd; 1 an event of the CQ, 0 none (EAGAIN), -1 other. */
static int read_one(struct reader *r, int fd, int is_async)
{
	struct ib_uverbs_async_event_desc aev;
	struct ib_uverbs_comp_event_desc cev;
	int gone = atomic_load(&r->destroyed);
	ssize_t n;
	__u64 h;

	if (is_async) {
		n = read(fd, &aev, sizeof(aev));
		h = aev.element;
	} else {
		n = read(fd, &cev, sizeof(cev));
		h = cev.cq_handle;
	}
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n != (is_async ? sizeof(aev) : sizeof(cev)) || h != r->uh ||
	    (is_async && aev.event_type != EV_CQ_ERR)) {
		r->strange++;
		return -1;
	}
	if (gone)
		r->late++;
	if (is_async)
		r->async++;
	else
		r->comp++;
	return 1;
}

/* Reads both fds until told to stop and both are empty. */
static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct pollfd p[2] = {
		{ .fd = r->chfd, .events = POLLIN },
		{ .fd = r->afd, .events = POLLIN },
	};

	for (;;) {
		int stop = atomic_load(&r->stop);
		int got = 0, ret;

		while ((ret = read_one(r, r->chfd, 0)) > 0)
			got++;
		if (ret < 0)
			break;
		while ((ret = read_one(r, r->afd, 1)) > 0)
			got++;
		if (ret < 0)
			break;
		if (stop && !got)
			break;
		poll(p, 2, 1);
	}
	return NULL;
}

/* ------------------------------------------------------------- fixture */

FIXTURE(irq) {
	int fd, afd, chfd;
	int kmsg;
};

FIXTURE_SETUP(irq)
{
	self->fd = self->afd = self->chfd = self->kmsg = -1;
	HCA_SETUP_LOAD();
	self->kmsg = ovbtest_kmsg_mark();
	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	/* before the CQs: they report to it */
	self->afd = ovbtest_async_fd(self->fd);
	ASSERT_LE(0, self->afd);
	ASSERT_EQ(0, set_nonblock(self->afd));
	self->chfd = raw_create_comp_channel(self->fd);
	ASSERT_LE(0, self->chfd);
	ASSERT_EQ(0, set_nonblock(self->chfd));
}

FIXTURE_TEARDOWN(irq)
{
	if (self->chfd >= 0)
		close(self->chfd);
	if (self->afd >= 0)
		close(self->afd);
	if (self->fd >= 0)
		close(self->fd);
	if (self->kmsg >= 0) {
		EXPECT_FALSE(ovbtest_kmsg_warned(self->kmsg));
		close(self->kmsg);
	}
}

static int make_cq(int fd, int chfd, __u64 uh)
{
	struct ib_uverbs_create_cq_resp resp = {};
	int ret = raw_create_cq(fd, 16, 0, chfd, uh, &resp);

	return ret ? ret : (int)resp.cq_handle;
}

TEST_F(irq, bad_arguments)
{
	int cq = make_cq(self->fd, self->chfd, 1);

	ASSERT_LE(0, cq);
	EXPECT_EQ(-EINVAL, cq_irq(self->fd, cq, 1, 999, both, NULL));
	EXPECT_EQ(-EINVAL, cq_irq(self->fd, cq, 1, 100000, 0, NULL));
	EXPECT_EQ(-EINVAL, cq_irq(self->fd, cq, 1, 100000, 1 << 2, NULL));
	EXPECT_EQ(0, cq_irq(self->fd, cq, 0, 0, 0, NULL));
	EXPECT_EQ(0, raw_destroy_cq(self->fd, cq, NULL));
}

/* Unarmed, N expiries: N events on each fd, N reported by DESTROY_CQ. */
TEST_F(irq, all_delivered)
{
	struct ib_uverbs_destroy_cq_resp resp = { ~0u, ~0u };
	struct reader r = {
		.chfd = self->chfd, .afd = self->afd, .uh = 0x1e7,
	};
	long long t0, t1;
	__u64 fired = ~0ull;
	int cq = make_cq(self->fd, self->chfd, r.uh);

	ASSERT_LE(0, cq);
	t0 = now_us();
	ASSERT_EQ(0, cq_irq(self->fd, cq, EVENTS_ALL, PERIOD_ALL, both, &fired));
	EXPECT_EQ(0, fired);
	/* read until both counts are reached, or 20 s */
	while ((r.comp < EVENTS_ALL || r.async < EVENTS_ALL) && !r.strange &&
	       now_us() - t0 < 20000000) {
		struct pollfd p[2] = {
			{ .fd = self->chfd, .events = POLLIN },
			{ .fd = self->afd, .events = POLLIN },
		};

		while (read_one(&r, self->chfd, 0) > 0)
			;
		while (read_one(&r, self->afd, 1) > 0)
			;
		poll(p, 2, 10);
	}
	t1 = now_us();
	EXPECT_EQ(0, r.strange);
	EXPECT_EQ(EVENTS_ALL, r.comp);
	EXPECT_EQ(EVENTS_ALL, r.async);
	ASSERT_EQ(0, cq_irq(self->fd, cq, 0, 0, 0, &fired));
	EXPECT_EQ(EVENTS_ALL, fired);
	/* nothing more */
	EXPECT_EQ(0, read_one(&r, self->chfd, 0));
	EXPECT_EQ(0, read_one(&r, self->afd, 1));
	ASSERT_EQ(0, raw_destroy_cq(self->fd, cq, &resp));
	EXPECT_EQ(EVENTS_ALL, resp.comp_events_reported);
	EXPECT_EQ(EVENTS_ALL, resp.async_events_reported);
	TH_LOG("%d expiries in %lld us (%lld/s per event kind)", EVENTS_ALL,
	       t1 - t0, EVENTS_ALL * 1000000LL / (t1 - t0 ? t1 - t0 : 1));
}

/*
 * DESTROY_CQ against the interrupt and a reader: what it reports is what
 * was read, and nothing of the CQ is read after it returned.
 */
TEST_F(irq, destroy_races_interrupt)
{
	unsigned long comp = 0, async = 0, rounds_with_events = 0;
	unsigned int seed = 0x5eed;
	int i;

	for (i = 0; i < RACE_ROUNDS; i++) {
		struct ib_uverbs_destroy_cq_resp resp = { ~0u, ~0u };
		struct reader r = {
			.chfd = self->chfd, .afd = self->afd, .uh = 0x100 + i,
		};
		pthread_t t;
		int cq = make_cq(self->fd, self->chfd, r.uh);

		ASSERT_LE(0, cq);
		ASSERT_EQ(0, pthread_create(&t, NULL, reader_main, &r));
		ASSERT_EQ(0, cq_irq(self->fd, cq, RACE_COUNT, RACE_PERIOD,
				    both, NULL));
		usleep(rand_r(&seed) % 3000);
		ASSERT_EQ(0, raw_destroy_cq(self->fd, cq, &resp));
		atomic_store(&r.destroyed, 1);
		atomic_store(&r.stop, 1);
		ASSERT_EQ(0, pthread_join(t, NULL));
		ASSERT_EQ(0, r.strange) TH_LOG("round %d", i);
		ASSERT_EQ(0, r.late) TH_LOG("round %d", i);
		ASSERT_EQ(r.comp, resp.comp_events_reported)
			TH_LOG("round %d", i);
		ASSERT_EQ(r.async, resp.async_events_reported)
			TH_LOG("round %d", i);
		comp += r.comp;
		async += r.async;
		rounds_with_events += r.comp > 0;
	}
	TH_LOG("%d rounds, %lu completion and %lu CQ events read, %lu rounds with some",
	       RACE_ROUNDS, comp, async, rounds_with_events);
	/* the race was run: the interrupt fired in most rounds */
	EXPECT_LT(RACE_ROUNDS / 2, rounds_with_events);
}

/*
 * close() of the channel while the interrupt queues on it and a reader
 * reads: the CQ keeps the channel; the reader's next read after the
 * close fails with EBADF; DESTROY_CQ then reports what was read.
 */
TEST_F(irq, channel_close_races_interrupt)
{
	unsigned int seed = 0xc105e;
	unsigned long comp = 0;
	int i;

	for (i = 0; i < RACE_ROUNDS / 3; i++) {
		struct ib_uverbs_destroy_cq_resp resp = { ~0u, ~0u };
		int chfd = raw_create_comp_channel(self->fd);
		struct reader r = { .afd = self->afd, .uh = 0x200 + i };
		pthread_t t;
		int cq;

		ASSERT_LE(0, chfd);
		ASSERT_EQ(0, set_nonblock(chfd));
		r.chfd = chfd;
		cq = make_cq(self->fd, chfd, r.uh);
		ASSERT_LE(0, cq);
		ASSERT_EQ(0, pthread_create(&t, NULL, reader_main, &r));
		ASSERT_EQ(0, cq_irq(self->fd, cq, RACE_COUNT, RACE_PERIOD,
				    both, NULL));
		usleep(rand_r(&seed) % 2000);
		/* the reader may be inside read(): the file stays for it */
		ASSERT_EQ(0, close(chfd));
		usleep(rand_r(&seed) % 1000);
		ASSERT_EQ(0, raw_destroy_cq(self->fd, cq, &resp));
		atomic_store(&r.destroyed, 1);
		atomic_store(&r.stop, 1);
		ASSERT_EQ(0, pthread_join(t, NULL));
		/* its one strange read: EBADF on the closed fd */
		ASSERT_GE(1, r.strange) TH_LOG("round %d", i);
		ASSERT_EQ(0, r.late) TH_LOG("round %d", i);
		ASSERT_EQ(r.comp, resp.comp_events_reported)
			TH_LOG("round %d", i);
		ASSERT_EQ(r.async, resp.async_events_reported)
			TH_LOG("round %d", i);
		comp += r.comp;
		/* what the reader left unread went with the CQ */
		r.strange = 0;
		ASSERT_EQ(0, read_one(&r, self->afd, 1)) TH_LOG("round %d", i);
	}
	TH_LOG("%d rounds, %lu completion events read", RACE_ROUNDS / 3, comp);
	EXPECT_LT(0, comp);
}

struct blocked {
	int fd;
	ssize_t ret;
	int err;
	unsigned long events;
};

/* Blocking reads of the channel until one fails. */
static void *blocked_main(void *arg)
{
	struct ib_uverbs_comp_event_desc ev;
	struct blocked *b = arg;

	for (;;) {
		b->ret = read(b->fd, &ev, sizeof(ev));
		if (b->ret != sizeof(ev))
			break;
		b->events++;
	}
	b->err = b->ret < 0 ? errno : 0;
	return NULL;
}

/*
 * close() of the uverbs file, then rmmod, with the interrupt firing and
 * a reader blocked on the channel: ib_uverbs destroys the CQ (the driver
 * stops its interrupt), the channel's reader wakes with EIO.
 */
static void close_or_unload(struct __test_metadata *_metadata, int rounds,
			    int unload)
{
	unsigned int seed = 0xdead;
	int i;

	for (i = 0; i < rounds; i++) {
		struct blocked b = {};
		pthread_t t;
		int fd, chfd, cq, k;

		if (unload)
			ASSERT_EQ(0, ovbtest_load());
		k = ovbtest_kmsg_mark();
		fd = ovbtest_open_ctx();
		ASSERT_LE(0, fd);
		chfd = raw_create_comp_channel(fd);
		ASSERT_LE(0, chfd);
		cq = make_cq(fd, chfd, 0x300 + i);
		ASSERT_LE(0, cq);
		b.fd = chfd;
		ASSERT_EQ(0, pthread_create(&t, NULL, blocked_main, &b));
		ASSERT_EQ(0, cq_irq(fd, cq, RACE_COUNT, RACE_PERIOD,
				    OVBTEST_CQ_IRQ_COMP, NULL));
		usleep(rand_r(&seed) % 3000);
		if (unload) {
			ASSERT_EQ(0, ovbtest_unload());
			/* the file and its reader outlive the device */
			ASSERT_EQ(0, pthread_join(t, NULL));
			close(fd);
		} else {
			close(fd);
			ASSERT_EQ(0, pthread_join(t, NULL));
		}
		EXPECT_EQ(-1, b.ret);
		EXPECT_EQ(EIO, b.err) TH_LOG("round %d", i);
		close(chfd);
		EXPECT_FALSE(ovbtest_kmsg_warned(k));
		close(k);
		if (i == 0)
			TH_LOG("round 0: %lu events before the end", b.events);
	}
}

TEST_F(irq, file_close_races_interrupt)
{
	close_or_unload(_metadata, RACE_ROUNDS / 3, 0);
}

/* Last of the fixture: it leaves the module loaded again. */
TEST_F(irq, unload_races_interrupt)
{
	close(self->chfd);
	close(self->afd);
	close(self->fd);
	self->chfd = self->afd = self->fd = -1;
	ASSERT_EQ(0, ovbtest_unload());
	close_or_unload(_metadata, 10, 1);
	ASSERT_EQ(0, ovbtest_load());
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
