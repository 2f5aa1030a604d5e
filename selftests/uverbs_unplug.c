// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Hot-unplug with users attached.  NPROC processes each hold a context, a
 * PD, a CQ, two MRs, a copy channel of the test HCA driver (ovbtest.ko,
 * selftests/ovbtest/) and both of its mappings, and copy between their MRs in
 * a loop (checking every byte); one thread per process blocks reading the
 * async event file.  Then the driver module is removed, which unregisters
 * the device under them.  As in 6.1, every process must see:
 *  - its COPY fail with EIO, every later command too (write() and ioctl),
 *    a new mmap() refused with EIO, except the destroys of core objects,
 *    which free the dead handles (the driver's DESTROY method is EIO);
 *  - IBV_EVENT_DEVICE_FATAL on the async event file (the blocked reader
 *    wakes up with it), then nothing more (EAGAIN, not EIO: the event
 *    queue stays open until the file is closed);
 *  - the read-only counters mapping read zeroes (the zero page), the
 *    writable doorbell mapping turn into a private zeroed page that takes
 *    writes (no SIGBUS), while the copies a fork makes afterwards are dead
 *    (SIGBUS on access: the file has no context left to track them);
 * rmmod must return promptly, no process may hang, and once they exit
 * ib_uverbs is held by nobody more than before.  UNPLUG_ROUNDS (default
 * 20) rounds in a row; the guest's kernel log must stay clean.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

#define NPROC		8
#define MR_LEN		(64 * 1024)
#define COPY_LEN	(16 * 1024)
/* Copies each process makes before the device goes. */
#define MIN_COPIES	100
/* IB_EVENT_DEVICE_FATAL, IBV_EVENT_DEVICE_FATAL */
#define EVENT_DEVICE_FATAL	8

/* What a process saw; in shared memory, read by the parent. */
struct unplug_report {
	int stage;		/* the last step reached, UNPLUG_* */
	int failed_line;	/* the check that failed, 0 if none */
	long copies;		/* successful COPYs before the unplug */
	int copy_err;		/* the COPY that failed: -errno */
	int event;		/* the async event the reader got */
	int reader_err;		/* the reader's next (non-blocking) read */
	int later_write;	/* ALLOC_PD by write() after the unplug */
	int later_ioctl;	/* DEVICE_INFO after the unplug */
	int later_mmap;		/* mmap() after the unplug: -errno */
	int later_dereg;	/* DEREG_MR after the unplug */
	int later_dereg2;	/* the same handle again */
	int later_dealloc_pd;	/* DEALLOC_PD (its MRs and channel gone) */
	int later_chan_destroy;	/* the driver's DESTROY method */
	int later_cq_destroy;	/* DESTROY_CQ */
	int later_fd_attr;	/* CQ_CREATE naming the async fd first */
	int later_bad_fd_attr;	/* ... naming /dev/null as its channel first */
	__u64 counters_magic;	/* the counters page after the unplug */
	__u64 doorbell;		/* the doorbell page after the unplug */
	int doorbell_rw;	/* a write to it read back */
	int ctr_zero_seen;	/* the traffic loop read the zero page already */
	int fork_counters_sig;	/* a child forked after: its read of counters */
	int fork_doorbell_sig;	/* ... and of the doorbell: the signal */
};

enum { UNPLUG_START, UNPLUG_READY, UNPLUG_GONE, UNPLUG_DONE };

struct reader {
	int fd;
	int event;
	int next_err;
};

/*
 * CQ_CREATE whose FD attributes come first, before the new handle: the
 * lookups of @event_fd and @chan (when not IOC_NO_FD) run before anything
 * else in the call.
 */
static int cq_create_fds_first(int fd, __s64 event_fd, __s64 chan)
{
	__u32 cqe = 4, vector = 0, real_cqe;
	__u64 user_handle = 1;
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	if (event_fd != IOC_NO_FD)
		ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_EVENT_FD, event_fd);
	if (chan != IOC_NO_FD)
		ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, chan);
	ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_CQE, &cqe, sizeof(cqe));
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, &user_handle,
	       sizeof(user_handle));
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, &vector, sizeof(vector));
	ioc_out(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &real_cqe, sizeof(real_cqe));
	return ioc_call(fd, &c);
}

/* Blocks in read() on the async event file until the device goes. */
static void *read_events(void *arg)
{
	struct reader *r = arg;
	struct ib_uverbs_async_event_desc ev;
	ssize_t n;

	n = read(r->fd, &ev, sizeof(ev));
	r->event = n == sizeof(ev) ? (int)ev.event_type : -errno;
	/*
	 * DEVICE_FATAL is the end of the stream, yet the file stays open
	 * (as in 6.1: a blocking read would wait forever).
	 */
	fcntl(r->fd, F_SETFL, O_NONBLOCK);
	n = read(r->fd, &ev, sizeof(ev));
	r->next_err = n < 0 ? -errno : (int)n;
	return NULL;
}

/* The signal that killed a child reading *@p, 0 if it read it. */
static int touch_in_child(const volatile __u64 *p)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		(void)*p;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			rep->failed_line = __LINE__;			\
			_exit(1);					\
		}							\
	} while (0)

/* One user of the device; exits 0 when everything was as upstream. */
static void user_process(const char *path, int idx, struct unplug_report *rep)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ib_uverbs_create_cq_resp cq_resp = {};
	struct ovbtest_device_info info;
	volatile struct ovbtest_counters *ctr;
	struct reader rd = { .event = 0 };
	long pg = getpagesize();
	int fd, pd, cq, chan, src_mr, dst_mr, ret;
	volatile __u64 *db;
	__u64 done;
	char *src, *dst;
	pthread_t thr;
	void *p;
	long i;

	alarm(120);
	fd = open(path, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(ovbtest_get_context(fd, &uctx) == 0);
	rd.fd = ovbtest_async_fd(fd);
	CHECK(rd.fd >= 0);
	pd = raw_alloc_pd(fd);
	CHECK(pd >= 0);
	CHECK(raw_create_cq(fd, 16, 0, -1, idx, &cq_resp) == 0);
	cq = cq_resp.cq_handle;
	src = mmap(NULL, MR_LEN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	dst = mmap(NULL, MR_LEN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(src != MAP_FAILED && dst != MAP_FAILED);
	src_mr = ovbtest_reg_mr(fd, pd, src, MR_LEN, 0);
	dst_mr = ovbtest_reg_mr(fd, pd, dst, MR_LEN, IB_UVERBS_ACCESS_LOCAL_WRITE);
	CHECK(src_mr >= 0 && dst_mr >= 0);
	chan = ovbtest_chan_create(fd, pd, 8, NULL);
	CHECK(chan >= 0);
	ctr = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, uctx.counters_offset);
	db = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  uctx.doorbell_offset);
	CHECK(ctr != MAP_FAILED && db != MAP_FAILED);
	CHECK(ctr->magic == OVBTEST_MAGIC);
	*db = 0x5eed0000 + idx;
	CHECK(ovbtest_device_info(fd, &info) == 0);
	CHECK(info.doorbell_value == 0x5eed0000ULL + idx);
	CHECK(pthread_create(&thr, NULL, read_events, &rd) == 0);
	rep->stage = UNPLUG_READY;

	/* Traffic until the device goes. */
	for (i = 0;; i++) {
		__u64 off = (i * 4096) % (MR_LEN - COPY_LEN);

		memset(src + off, (int)(i + idx), COPY_LEN);
		ret = ovbtest_copy(fd, chan, src_mr, off, dst_mr, off, COPY_LEN,
			       NULL);
		if (ret)
			break;
		CHECK(!memcmp(src + off, dst + off, COPY_LEN));
		/* 0 once the mapping was zapped, between our two calls */
		done = ctr->completions;
		CHECK(done == (__u64)i + 1 || done == 0);
		rep->ctr_zero_seen |= done == 0;
		rep->copies = i + 1;
	}
	rep->copy_err = ret;
	rep->stage = UNPLUG_GONE;

	/* The reader wakes up with DEVICE_FATAL. */
	CHECK(pthread_join(thr, NULL) == 0);
	rep->event = rd.event;
	rep->reader_err = rd.next_err;

	rep->later_write = raw_alloc_pd(fd);
	rep->later_ioctl = ovbtest_device_info(fd, &info);
	/*
	 * An FD attribute after the unplug: EIO before the fd is looked at,
	 * for a live fd of ours (whose object the unplug tore down) and for
	 * a file that is no uverbs one.  Not on the in-tree stack: while the
	 * unplug is still tearing down other processes' files, 6.1 finds
	 * the async fd's object (its types are cleared only at the very
	 * end), then answers EIO with fput(NULL): an oops (testing.md).
	 */
	if (!raw_stack_is_intree()) {
		rep->later_fd_attr = cq_create_fds_first(fd, rd.fd, IOC_NO_FD);
		ret = open("/dev/null", O_RDONLY | O_CLOEXEC);
		CHECK(ret >= 0);
		rep->later_bad_fd_attr = cq_create_fds_first(fd, IOC_NO_FD,
							     ret);
		close(ret);
	}
	/* Destroys still free the handles; the driver's method is gone. */
	rep->later_dereg = ovbtest_dereg_mr(fd, src_mr);
	rep->later_dereg2 = ovbtest_dereg_mr(fd, src_mr);
	rep->later_chan_destroy = ovbtest_chan_destroy(fd, chan, NULL);
	rep->later_cq_destroy = raw_destroy_cq(fd, cq, NULL);
	CHECK(ovbtest_dereg_mr(fd, dst_mr) == 0);
	rep->later_dealloc_pd = raw_dealloc_pd(fd, pd);
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, uctx.counters_offset);
	rep->later_mmap = p == MAP_FAILED ? -errno : 0;
	/*
	 * A copy of the zapped mappings made by a fork after the unplug is
	 * dead: SIGBUS on access (nothing tracks it).  Forked before this
	 * process touches them again, so no PTE is copied along.
	 */
	rep->fork_counters_sig = touch_in_child(&ctr->magic);
	rep->fork_doorbell_sig = touch_in_child(db);
	/* Zapped mappings: zero page / a private page that takes writes. */
	rep->counters_magic = ctr->magic;
	rep->doorbell = *db;
	*db = 0xfeed;
	rep->doorbell_rw = *db == 0xfeed;
	rep->stage = UNPLUG_DONE;
	close(rd.fd);
	close(fd);
	_exit(0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether every process made MIN_COPIES copies (or stopped). */
static int all_in_traffic(struct unplug_report *rep)
{
	for (int i = 0; i < NPROC; i++) {
		if (rep[i].failed_line)
			return 1;
		if (rep[i].stage < UNPLUG_READY || rep[i].copies < MIN_COPIES)
			return 0;
	}
	return 1;
}

FIXTURE(unplug) {
};

FIXTURE_SETUP(unplug)
{
}

FIXTURE_TEARDOWN(unplug)
{
}

/* run_tests' OVB_TEST_TIMEOUT bounds the whole program as well. */
TEST_F_TIMEOUT(unplug, in_traffic, 1800)
{
	const char *env = getenv("UNPLUG_ROUNDS");
	int rounds = env ? atoi(env) : 20;
	int intree = raw_stack_is_intree();
	double t, rmmod_max = 0, round_max = 0, start = now();
	struct unplug_report *rep;
	long uverbs_ref;
	char path[PATH_MAX];
	pid_t pids[NPROC];
	int r, i, st, ret;

	ret = ovbtest_load();
	if (ret == -ENOENT)
		SKIP(return, "ovbtest.ko not built (make selftests KDIR=...)");
	if (ret == -ENOEXEC)
		SKIP(return, "ovbtest.ko was built for another kernel");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, ovbtest_unload());
	uverbs_ref = sysfs_long("/sys/module/ib_uverbs/refcnt");
	if (intree)
		TH_LOG("in-tree stack: no FD attribute after the unplug (6.1 and 6.12 oops: fput(NULL))");
	rep = mmap(NULL, sizeof(*rep) * NPROC, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, rep);

	for (r = 0; r < rounds; r++) {
		double t0 = now();

		memset(rep, 0, sizeof(*rep) * NPROC);
		ASSERT_EQ(0, ovbtest_load());
		ASSERT_EQ(0, ovbtest_dev_path(path, sizeof(path), 5000));
		for (i = 0; i < NPROC; i++) {
			pids[i] = fork();
			ASSERT_LE(0, pids[i]);
			if (!pids[i])
				user_process(path, i, &rep[i]);
		}
		/* Everybody set up and copying (60 s at most). */
		for (t = now(); now() - t < 60 && !all_in_traffic(rep);)
			usleep(10000);
		for (i = 0; i < NPROC; i++) {
			EXPECT_EQ(0, rep[i].failed_line);
			EXPECT_EQ(UNPLUG_READY, rep[i].stage);
			EXPECT_LE(MIN_COPIES, rep[i].copies);
		}

		/* The hot-unplug. */
		t = now();
		ASSERT_EQ(0, ovbtest_unload()) TH_LOG("round %d", r);
		t = now() - t;
		rmmod_max = t > rmmod_max ? t : rmmod_max;
		EXPECT_FALSE(ovbtest_loaded());

		for (i = 0; i < NPROC; i++) {
			ASSERT_EQ(pids[i], waitpid(pids[i], &st, 0));
			EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
				TH_LOG("round %d process %d: status %#x, check at line %d",
				       r, i, st, rep[i].failed_line);
			EXPECT_EQ(UNPLUG_DONE, rep[i].stage);
			EXPECT_EQ(-EIO, rep[i].copy_err);
			EXPECT_EQ(EVENT_DEVICE_FATAL, rep[i].event);
			EXPECT_EQ(-EAGAIN, rep[i].reader_err);
			EXPECT_EQ(-EIO, rep[i].later_write);
			EXPECT_EQ(-EIO, rep[i].later_ioctl);
			if (!intree) {
				EXPECT_EQ(-EIO, rep[i].later_fd_attr);
				EXPECT_EQ(-EIO, rep[i].later_bad_fd_attr);
			}
			EXPECT_EQ(0, rep[i].later_dereg);
			EXPECT_EQ(-ENOENT, rep[i].later_dereg2);
			EXPECT_EQ(-EIO, rep[i].later_chan_destroy);
			EXPECT_EQ(0, rep[i].later_cq_destroy);
			EXPECT_EQ(0, rep[i].later_dealloc_pd);
			EXPECT_EQ(-EIO, rep[i].later_mmap);
			EXPECT_EQ(0, rep[i].counters_magic);
			EXPECT_EQ(0, rep[i].doorbell);
			EXPECT_EQ(1, rep[i].doorbell_rw);
			/* unless that PTE was in place and copied along */
			EXPECT_EQ(rep[i].ctr_zero_seen ? 0 : SIGBUS,
				  rep[i].fork_counters_sig);
			EXPECT_EQ(SIGBUS, rep[i].fork_doorbell_sig);
		}
		/* Nobody holds ib_uverbs for the dead device. */
		EXPECT_EQ(uverbs_ref, sysfs_long("/sys/module/ib_uverbs/refcnt"));
		t = now() - t0;
		round_max = t > round_max ? t : round_max;
		TH_LOG("round %d: %.1f s", r, t);
		if (!_metadata->passed)	/* stop at the first bad round */
			break;
	}
	if (r < rounds)
		r++;
	TH_LOG("%d rounds x %d processes in %.1f s; rmmod at most %.3f s, a round at most %.1f s",
	       r, NPROC, now() - start, rmmod_max, round_max);
	munmap(rep, sizeof(*rep) * NPROC);
}

TEST_HARNESS_MAIN
