// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A driver's mmap revoke (6.12's rdma_user_mmap_disassociate(), which the
 * test HCA calls for OVBTEST_METHOD_DEVICE_MMAP_REVOKE, as hns does before
 * a reset) racing fork() of processes that map the device's doorbell page.
 *
 * ib_uverbs records each copy of a mapping that fork() makes (the VMA's
 * open op) so that the revoke finds it.  The invariant: once a revoke
 * that began after a mapping was made has returned, no process - the one
 * that made it, a child forked before, during or after that revoke, a
 * child of that child - writes the device's page through that mapping or
 * a copy of it: the write lands on the file's disassociate page (no
 * SIGBUS), the driver's doorbell keeps its value.  Every fork() succeeds,
 * nothing is reported in the kernel log, and a new mmap() after the
 * revokes maps the device's page again, in every process.
 *
 * Each mapping carries the number of revokes begun when it was made
 * (epoch); a write through it after more revokes have returned is one
 * that must not land.  Every write carries a tag of its own, so the
 * doorbell showing that tag proves that write landed.
 *
 * On the in-tree 6.12 stack the forks (and the parent's mmaps) do not
 * overlap a revoke: there, rdma_umap_open() takes the file's
 * disassociation_lock under the forking process's mmap_lock, while the
 * revoke holds that lock and waits for the same mmap_lock - an ABBA
 * deadlock (Documentation/testing.md, Findings).  Our module takes no
 * lock there across the revoke's mmap_lock, so the race is real on it.
 * 6.1 has no such export: the method does not exist.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

#define PG		4096UL
#define FORKS		300	/* by the test process */
#define RING		4	/* mappings the test process keeps */
#define SHORT_WAIT	3	/* revokes a short-lived child outlives */

/* A mapping of the doorbell page and the revokes begun when it was made. */
struct umap {
	volatile uint64_t *db;
	long epoch;
};

/* Shared by every process of the test (MAP_SHARED | MAP_ANONYMOUS). */
struct ctl {
	pthread_mutex_t lock;	/* in-tree: no fork/mmap during a revoke */
	int serialise;
	volatile int phase;	/* 0 race, 1 old mappings, 2 new mappings */
	volatile int stop;	/* no more revokes in the race */
	long started, done;	/* revokes begun, returned */
	long forks, grandchildren, fork_failures;
	long overlapped;	/* forks during which a revoke ran */
	long writes, landed;	/* writes in the race; those seen landing */
	long checked;		/* writes that must not land */
	long escaped;		/* ... and did */
	long final_writes, fresh_ok, fresh_bad;
	long settled;		/* forked processes done racing */
	long reported;		/* processes through phase 1 */
	long alive;		/* processes that wait for phase 1 */
};

static struct ctl *ctl;
static int dev_fd;
/*
 * Wall clock after which a process of the test gives up waiting and
 * exits 3 (counted abnormal): none outlives a killed harness for long.
 */
static time_t deadline;

static void check_deadline(void)
{
	if (time(NULL) > deadline)
		_exit(3);
}

static long rd(long *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static void inc(long *p)
{
	__atomic_add_fetch(p, 1, __ATOMIC_SEQ_CST);
}

static void ser_lock(void)
{
	if (ctl->serialise)
		pthread_mutex_lock(&ctl->lock);
}

static void ser_unlock(void)
{
	if (ctl->serialise)
		pthread_mutex_unlock(&ctl->lock);
}

/* fork(), counting the calls a revoke overlapped. */
static pid_t fork_counted(void)
{
	long s0, d0, s1;
	pid_t p;

	ser_lock();
	s0 = rd(&ctl->started);
	d0 = rd(&ctl->done);
	p = fork();
	if (!p)
		return 0;	/* the lock is the caller's to release */
	s1 = rd(&ctl->started);
	if (s0 != d0 || s1 != s0)
		inc(&ctl->overlapped);
	ser_unlock();
	return p;
}

/* A value no other write of the test uses. */
static uint64_t tag(void)
{
	static uint64_t n;

	return 0x5e00000000000000ULL | ((uint64_t)getpid() << 24) | ++n;
}

/*
 * One write through @m.  When a revoke begun after @m was made has
 * returned before the write, the write must not reach the device.
 */
static void write_checked(const struct umap *m)
{
	long done = rd(&ctl->done);
	uint64_t t = tag();

	m->db[0] = t;
	inc(&ctl->writes);
	if (ovbtest_doorbell_value(dev_fd) == t)
		inc(&ctl->landed);
	else
		return;
	if (done > m->epoch) {
		inc(&ctl->escaped);
		fprintf(stderr, "# pid %d: a write landed after revoke %ld returned (mapping of epoch %ld)\n",
			getpid(), done, m->epoch);
	}
}

static void write_all(const struct umap *ms, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (ms[i].db) {
			if (rd(&ctl->done) > ms[i].epoch)
				inc(&ctl->checked);
			write_checked(&ms[i]);
		}
}

/* Blocks (futex, shared) until the test process sets @phase. */
static void wait_phase(int phase)
{
	struct timespec ts = { .tv_sec = 1 };
	int cur;

	while ((cur = __atomic_load_n(&ctl->phase, __ATOMIC_SEQ_CST)) < phase) {
		check_deadline();
		syscall(SYS_futex, (int *)&ctl->phase, FUTEX_WAIT, cur, &ts,
			NULL, 0);
	}
}

static void set_phase(int phase)
{
	__atomic_store_n(&ctl->phase, phase, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, (int *)&ctl->phase, FUTEX_WAKE, INT_MAX, NULL,
		NULL, 0);
}

/* Until *@p reaches @want or @secs of wall clock passed. */
static void wait_count(long *p, long want, int secs)
{
	time_t end = time(NULL) + secs;

	while (rd(p) < want && time(NULL) < end)
		usleep(5000);
}

/*
 * After the revokes: every old mapping once more (none may land), then
 * under the lock a new mapping, which must reach the device.
 */
static void final_phases(const struct umap *ms, int n, __u64 off)
{
	struct umap fresh;
	uint64_t t;

	wait_phase(1);
	write_all(ms, n);
	inc(&ctl->final_writes);
	inc(&ctl->reported);
	wait_phase(2);
	pthread_mutex_lock(&ctl->lock);
	fresh.db = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, dev_fd,
			off);
	if (fresh.db != MAP_FAILED) {
		t = tag();
		fresh.db[0] = t;
		if (ovbtest_doorbell_value(dev_fd) == t && fresh.db[0] == t)
			inc(&ctl->fresh_ok);
		else
			inc(&ctl->fresh_bad);
		munmap((void *)fresh.db, PG);
	} else {
		inc(&ctl->fresh_bad);
	}
	pthread_mutex_unlock(&ctl->lock);
}

/* A process that waits for the end: phases 1 and 2, then exit. */
static void __attribute__((noreturn)) wait_end(const struct umap *ms, int n,
						__u64 off)
{
	inc(&ctl->alive);
	inc(&ctl->settled);
	final_phases(ms, n, off);
	_exit(0);
}

/*
 * Everything a forked process does; never returns.  Every other child
 * lives across SHORT_WAIT revokes and exits; the others wait for the end,
 * and each of those forks a child of its own, at once or after a
 * revoke.
 */
static void child(struct umap *ms, int n, int nr, __u64 off)
{
	long born = rd(&ctl->done);
	pid_t p;

	write_all(ms, n);
	if (nr % 2 == 1) {
		while (rd(&ctl->done) < born + SHORT_WAIT && !ctl->stop) {
			check_deadline();
			usleep(1000);
		}
		write_all(ms, n);
		inc(&ctl->settled);
		_exit(0);
	}
	if (nr % 4 == 2)
		while (rd(&ctl->done) < born + 1 && !ctl->stop) {
			check_deadline();
			usleep(1000);
		}
	if (nr % 2 == 0) {
		p = fork_counted();
		if (p == 0) {
			write_all(ms, n);
			wait_end(ms, n, off);
		}
		if (p < 0)
			inc(&ctl->fork_failures);
		else
			inc(&ctl->grandchildren);
		write_all(ms, n);
	}
	wait_end(ms, n, off);
}

static void *revoker(void *arg)
{
	long *ret = arg;

	while (!ctl->stop && !*ret) {
		ser_lock();
		inc(&ctl->started);
		*ret = ovbtest_mmap_revoke(dev_fd);
		inc(&ctl->done);
		ser_unlock();
		usleep(100);
	}
	return NULL;
}

FIXTURE(rf) {
	int fd;
	int pd;
	struct ovbtest_alloc_ucontext_resp uctx;
};

FIXTURE_SETUP(rf)
{
	self->fd = -1;
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &self->uctx, self->pd);
}

FIXTURE_TEARDOWN(rf)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Waits for every process of the test (it is their subreaper). */
static void reap(long *abnormal, long *reaped, int secs)
{
	time_t end = time(NULL) + secs;
	int st;
	pid_t p;

	while (time(NULL) < end) {
		p = waitpid(-1, &st, WNOHANG);
		if (p < 0)
			return;
		if (p == 0) {
			usleep(2000);
			continue;
		}
		(*reaped)++;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			(*abnormal)++;
			fprintf(stderr, "# pid %d: status 0x%x\n", p, st);
		}
	}
}

TEST_F_TIMEOUT(rf, revoke_races_fork, 600)
{
	struct umap ring[RING] = {};
	long revoke_ret = 0, abnormal = 0, reaped = 0, procs;
	__u64 off = self->uctx.doorbell_offset;
	pthread_mutexattr_t ma;
	pid_t test_pid = getpid();
	pthread_t t;
	uint64_t before;
	int i, k, fk;
	void *p;
	pid_t pid;

	if (!ovbtest_k612()) {
		EXPECT_EQ(-EPROTONOSUPPORT, ovbtest_mmap_revoke(self->fd));
		return;
	}
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ctl);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&ctl->lock, &ma);
	ctl->serialise = raw_stack_is_intree();
	dev_fd = self->fd;
	/* the harness kills the test at 600 s; its processes give up before */
	deadline = time(NULL) + 480;
	k = ovbtest_kmsg_mark();
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	TH_LOG("%s ib_uverbs: forks %s the revokes", ctl->serialise ?
	       "in-tree" : "our", ctl->serialise ? "between" : "racing");

	ASSERT_EQ(0, pthread_create(&t, NULL, revoker, &revoke_ret));
	for (i = 0; i < FORKS; i++) {
		struct umap *m = &ring[i % RING];

		if (m->db) {
			m->db[1] = 1;	/* a touch before munmap, as elsewhere */
			munmap((void *)m->db, PG);
			m->db = NULL;
		}
		ser_lock();
		p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED,
			 dev_fd, off);
		/* revokes begun after mmap() returned must take it */
		m->epoch = rd(&ctl->started);
		ser_unlock();
		if (p == MAP_FAILED) {
			EXPECT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
			break;
		}
		m->db = (volatile uint64_t *)p;
		write_all(m, 1);
		pid = fork_counted();
		fk = errno;
		if (pid == 0) {
			/* the test process waits for each: none outlives it */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != test_pid)
				_exit(4);
			child(ring, RING, i, off);
		}
		if (pid < 0) {
			inc(&ctl->fork_failures);
			TH_LOG("fork %d: %s", i, strerror(fk));
			continue;
		}
		inc(&ctl->forks);
		if (i % 8 == 7)
			usleep(2000);	/* let a few revokes through */
	}
	ctl->stop = 1;
	pthread_join(t, NULL);
	EXPECT_EQ(0, revoke_ret);
	/* every process forked has done its forks and race writes */
	while (rd(&ctl->settled) < rd(&ctl->forks) + rd(&ctl->grandchildren) &&
	       time(NULL) < deadline)
		usleep(5000);
	EXPECT_EQ(rd(&ctl->forks) + rd(&ctl->grandchildren),
		  rd(&ctl->settled));
	/* one more, after every fork and mmap of the test */
	inc(&ctl->started);
	ASSERT_EQ(0, ovbtest_mmap_revoke(dev_fd));
	inc(&ctl->done);

	/* phase 1: every old mapping of every process, none may land */
	before = ovbtest_doorbell_value(dev_fd);
	set_phase(1);
	write_all(ring, RING);
	procs = rd(&ctl->alive);
	wait_count(&ctl->reported, procs, 120);
	EXPECT_EQ(procs, rd(&ctl->reported));
	EXPECT_EQ(before, ovbtest_doorbell_value(dev_fd));

	/* phase 2: a new mapping reaches the device again, in each */
	set_phase(2);
	final_phases(ring, 0, off);
	reap(&abnormal, &reaped, 120);
	for (i = 0; i < RING; i++)
		if (ring[i].db) {
			ring[i].db[1] = 1;
			munmap((void *)ring[i].db, PG);
		}

	TH_LOG("%ld revokes, %ld forks (+%ld by children), %ld of them overlapping a revoke, %ld processes reaped, %ld waited for the end",
	       rd(&ctl->done), rd(&ctl->forks), rd(&ctl->grandchildren),
	       rd(&ctl->overlapped), reaped, procs);
	TH_LOG("%ld writes through old mappings, %ld landed on the device, %ld after a revoke that had to take them (%ld landed anyway)",
	       rd(&ctl->writes), rd(&ctl->landed), rd(&ctl->checked),
	       rd(&ctl->escaped));
	TH_LOG("new mappings after the revokes: %ld reached the device, %ld did not",
	       rd(&ctl->fresh_ok), rd(&ctl->fresh_bad));
	EXPECT_EQ(0, rd(&ctl->escaped));
	EXPECT_EQ(0, rd(&ctl->fork_failures));
	EXPECT_EQ(FORKS, rd(&ctl->forks));
	EXPECT_EQ(0, abnormal);
	EXPECT_EQ(rd(&ctl->forks) + rd(&ctl->grandchildren), reaped);
	EXPECT_EQ(procs + 1, rd(&ctl->final_writes));
	EXPECT_EQ(procs + 1, rd(&ctl->fresh_ok));
	EXPECT_EQ(0, rd(&ctl->fresh_bad));
	/*
	 * Not vacuous: revokes came between forks, writes both ways.  On a
	 * loaded 2-CPU TCG host the revoker gets less time: a low bound
	 * (386-1018 were measured idle).
	 */
	EXPECT_LT(FORKS / 10, rd(&ctl->done));
	EXPECT_LT(0, rd(&ctl->landed));
	EXPECT_LT(FORKS, rd(&ctl->checked));
	if (ctl->serialise) {
		EXPECT_EQ(0, rd(&ctl->overlapped));
	} else {
		EXPECT_LT(0, rd(&ctl->overlapped));
	}
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
