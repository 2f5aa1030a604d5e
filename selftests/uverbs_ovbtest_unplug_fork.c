// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fork() of a process that maps a device page while a hot-unplug (rmmod
 * ovbtest) revokes the file's mappings.
 *
 * The invariant: once the unplug has returned, no process reaches the
 * device's page through a mapping made before it - neither the one that
 * made it nor any child, including a child whose fork() ran during the
 * unplug.  A read through such a mapping gives zeroes (the file's spare
 * page) or SIGBUS, never what is on the device.
 *
 * The race: the unplug holds the file's hw_destroy_rwsem for write while
 * it revokes, and waits there for the mmap_lock of the forking process,
 * which fork() holds for all of dup_mmap().  When the VMA's open op runs
 * in that window its trylock of the rwsem fails; upstream's
 * rdma_umap_open() then leaves the copy untracked and zaps it - but
 * dup_mmap() calls open before copy_page_range(), so the zap finds nothing
 * and the child gets the parent's device PTEs, which the revoke no longer
 * knows of.  To widen the window, thousands of VMAs lie below the device
 * page (dup_mmap() copies in address order), and one thread forks without
 * a pause while another unloads the driver.
 *
 * The page is the non-cached BAR page (device memory the unplug does not
 * free, so an escaped child reads the marker written there, not freed
 * memory).  The in-tree module has the bug (Documentation/testing.md,
 * Findings): there escapes are counted and logged, and only a clean
 * kernel log is asserted; on ours none may escape.
 *
 * The unplug must also end while userspace keeps copying the device VMA.
 * A revoke that lists every copy made while it runs, and loops until its
 * list is empty, never ends while processes keep forking
 * (unplug_ends_while_processes_fork) or threads keep moving the VMA with
 * mremap (unplug_ends_while_mremap_moves); the in-tree module never lists
 * a copy made during the revoke.  There the copies go on until a watchdog
 * stops them, WATCHDOG_S seconds into the unplug, and the unplug returns
 * only then: the cases assert that it returned while the copying still
 * ran, and that copies were made while it ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"
#include "ovbtest_ivshmem.h"
#include "ovbtest_stuck.h"

#define PG		4096UL
#define ROUNDS		30
#define FILLERS		4000	/* VMAs below the device page */
#define MAX_CHILDREN	200	/* per round */
#define WATCHDOG_S	60	/* the liveness cases stop the copying then */
#define FORKERS		6	/* forker processes */
#define MOVER_PROCS	8	/* mremap processes, */
#define MOVERS		2	/* each with this many threads */
#define WORKERS		(MOVER_PROCS * MOVERS)	/* the most copiers */
/*
 * The in-tree module's WARN when a move copies the VMA during the unplug:
 * rdma_umap_open() zaps the fresh copy, which has VM_PAT but no PTEs yet,
 * and x86 PAT's untrack_pfn() finds no pfn to untrack (6.1's line 1028,
 * 6.12's 983, get_pat_info() inlined).  qemu/dmesg-scan's window regex.
 */
#define INTREE_MOVE_WARN_RE	"arch/x86/mm/pat/memtype\\.c:[0-9]+ untrack_pfn"
/* below the program and every mmap: the first VMA fork copies */
#define LOW_ADDR	((char *)0x100000000UL)

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif

/* Shared by the test and its children (MAP_SHARED | MAP_ANONYMOUS). */
struct ctl {
	long zeroes;		/* reads that gave zeroes (the spare page) */
	long sigbus;		/* reads that raised SIGBUS */
	long escaped;		/* reads that gave the device's marker */
	long other;		/* reads that gave anything else */
};

/* One round's state, between the unloading and the forking thread. */
struct round {
	volatile uint64_t *dev;
	int go[2];		/* EOF on go[0]: the unplug is over */
	volatile int started, done;
	pid_t pids[MAX_CHILDREN];
	int nr;
	long overlapped;	/* forks the unplug overlapped */
};

static struct ctl *ctl;
static sigjmp_buf bus_jmp;

static void inc(long *p)
{
	__atomic_add_fetch(p, 1, __ATOMIC_SEQ_CST);
}

static void on_sigbus(int sig)
{
	siglongjmp(bus_jmp, 1);
}

/* After the unplug: read @dev (single-threaded) and count what it gave. */
static void read_after(volatile uint64_t *dev, uint64_t marker)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	uint64_t v;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(bus_jmp, 1)) {
		inc(&ctl->sigbus);
		sigaction(SIGBUS, &old, NULL);
		return;
	}
	v = dev[0];
	sigaction(SIGBUS, &old, NULL);
	if (v == marker) {
		inc(&ctl->escaped);
		fprintf(stderr, "# pid %d: read the device's page after the unplug\n",
			getpid());
	} else if (!v) {
		inc(&ctl->zeroes);
	} else {
		inc(&ctl->other);
		fprintf(stderr, "# pid %d: read 0x%llx after the unplug\n",
			getpid(), (unsigned long long)v);
	}
}

/* A child: wait for the end of the unplug, read the page, report. */
static void __attribute__((noreturn)) child(struct round *r, uint64_t marker)
{
	char c;

	close(r->go[1]);
	while (read(r->go[0], &c, 1) < 0 && errno == EINTR)
		;
	read_after(r->dev, marker);
	_exit(0);
}

/* Forks without a pause until the unplug is over (or enough children). */
static void *forker(void *arg)
{
	struct round *r = arg;
	uint64_t marker = r->dev[0];
	int d0, s1;
	pid_t p;

	while (!r->done && r->nr < MAX_CHILDREN) {
		d0 = r->done;
		p = fork();
		if (!p)
			child(r, marker);
		s1 = r->started;
		if (p < 0)
			break;
		r->pids[r->nr] = p;
		__atomic_store_n(&r->nr, r->nr + 1, __ATOMIC_SEQ_CST);
		if (!d0 && s1)
			r->overlapped++;
	}
	return NULL;
}

FIXTURE(uf) {
	char *fill;		/* the filler VMAs, then the device page */
	size_t fill_len;
};

FIXTURE_SETUP(uf)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	int fd;

	HCA_SETUP_BAR(fd, &uctx);
	close(fd);
	/* 2 * FILLERS pages of alternating protection, then the device's */
	self->fill_len = (2 * FILLERS + 1) * PG;
	self->fill = mmap(NULL, self->fill_len, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, self->fill);
	for (int i = 0; i < FILLERS; i++)
		ASSERT_EQ(0, mprotect(self->fill + 2 * i * PG, PG, PROT_READ));
	ASSERT_EQ(0, munmap(self->fill + 2 * FILLERS * PG, PG));
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ctl);
}

FIXTURE_TEARDOWN(uf)
{
	if (self->fill && self->fill != MAP_FAILED)
		munmap(self->fill, self->fill_len);
}

/* One load, map, fork-during-unplug round; the children reaped. */
static int one_round(struct __test_metadata *_metadata, FIXTURE_DATA(uf) *self,
		     int n, long *overlapped, long *forks, long *abnormal)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	uint64_t marker = 0x0f0c000000000000ULL | ((uint64_t)getpid() << 16) | n;
	static struct round r;
	pthread_t t;
	void *p;
	int fd, st, ret;

	memset(&r, 0, sizeof(r));
	ret = ovbtest_load();
	if (ret)
		return ret;
	fd = ovbtest_open_dev();
	if (fd < 0)
		return fd;
	ret = ovbtest_get_context(fd, &uctx);
	if (ret)
		return ret;
	p = mmap(self->fill + 2 * FILLERS * PG, PG, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED_NOREPLACE, fd, uctx.nc_offset);
	if (p != self->fill + 2 * FILLERS * PG)
		return p == MAP_FAILED ? -errno : -EFAULT;
	r.dev = p;
	r.dev[0] = marker;
	if (r.dev[0] != marker || pipe(r.go))
		return -EIO;

	if (pthread_create(&t, NULL, forker, &r))
		return -EAGAIN;
	for (int i = 0; i < 100000 && __atomic_load_n(&r.nr, __ATOMIC_SEQ_CST) < 2; i++)
		usleep(100);	/* forking steadily */
	r.started = 1;
	ret = ovbtest_unload();
	r.done = 1;
	pthread_join(t, NULL);
	close(r.go[1]);
	close(r.go[0]);

	for (int i = 0; i < r.nr; i++) {
		if (waitpid(r.pids[i], &st, 0) != r.pids[i] ||
		    !WIFEXITED(st) || WEXITSTATUS(st)) {
			(*abnormal)++;
			TH_LOG("child %d: status 0x%x", r.pids[i], st);
		}
	}
	/* the parent's own mapping was revoked as well */
	if (r.dev[0] == marker)
		(*abnormal)++;
	munmap(p, PG);
	close(fd);
	*overlapped += r.overlapped;
	*forks += r.nr;
	return ret;
}

TEST_F_TIMEOUT(uf, fork_during_unplug, 900)
{
	long overlapped = 0, forks = 0, abnormal = 0;
	int intree = raw_stack_is_intree();
	int k = ovbtest_kmsg_mark();
	int n;

	for (n = 0; n < ROUNDS; n++)
		ASSERT_EQ(0, one_round(_metadata, self, n, &overlapped, &forks,
				       &abnormal)) TH_LOG("round %d", n);
	TH_LOG("%s ib_uverbs: %d rounds, %ld forks, %ld during an unplug; children after it read zeroes %ld, SIGBUS %ld, the device's page %ld, other %ld",
	       intree ? "in-tree" : "our", ROUNDS, forks, overlapped,
	       ctl->zeroes, ctl->sigbus, ctl->escaped, ctl->other);
	EXPECT_EQ(0, abnormal);
	EXPECT_EQ(forks, ctl->zeroes + ctl->sigbus + ctl->escaped + ctl->other);
	/* not vacuous: forks ran while the unplug did */
	EXPECT_LT(0, overlapped);
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
	if (intree) {
		/* upstream's rdma_umap_open(): testing.md, Findings */
		if (ctl->escaped)
			TH_LOG("in-tree: %ld children kept the device's page after the unplug (known upstream bug)",
			       ctl->escaped);
		return;
	}
	EXPECT_EQ(0, ctl->escaped);
	EXPECT_EQ(0, ctl->other);
}

/*
 * The liveness cases: copiers (forker processes, mremap threads) copy the
 * device VMA without a pause while the test unloads the driver.  Shared
 * by the test, its watchdog and its forkers (MAP_SHARED | MAP_ANONYMOUS).
 */
struct live {
	int started;		/* the unload began */
	int unloaded;		/* the unload returned */
	int stop;		/* the copiers stop */
	int fired;		/* the watchdog set stop */
	long ops[WORKERS];	/* forks or moves, per copier */
	long errors;		/* failed forks or moves */
};

static int flag(int *f)
{
	return __atomic_load_n(f, __ATOMIC_SEQ_CST);
}

static void set_flag(int *f)
{
	__atomic_store_n(f, 1, __ATOMIC_SEQ_CST);
}

static long ops_sum(struct live *l)
{
	long n = 0;

	for (int i = 0; i < WORKERS; i++)
		n += __atomic_load_n(&l->ops[i], __ATOMIC_SEQ_CST);
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A child of the test process dies with it; 0, or -1 if it is gone. */
static int die_with(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	return getppid() == parent ? 0 : -1;
}

/*
 * A process that sets l->stop WATCHDOG_S seconds after the unload began,
 * unless it returned by then.
 */
static pid_t start_watchdog(struct live *l)
{
	pid_t parent = getpid(), p = fork();
	double end;

	if (p)
		return p;
	if (die_with(parent))
		_exit(1);
	while (!flag(&l->started) && !flag(&l->stop))
		usleep(10000);
	end = now_s() + WATCHDOG_S;
	while (!flag(&l->unloaded) && !flag(&l->stop) && now_s() < end)
		usleep(10000);
	if (!flag(&l->unloaded) && !flag(&l->stop)) {
		set_flag(&l->fired);
		set_flag(&l->stop);
	}
	_exit(0);
}

/* Until each of @n copiers copied twice (or one failed); 0 or -ETIMEDOUT. */
static int copiers_running(struct live *l, int n)
{
	for (int t = 0; t < 600000; t++) {	/* 60 s */
		int all = 1;

		for (int i = 0; i < n; i++)
			if (__atomic_load_n(&l->ops[i], __ATOMIC_SEQ_CST) < 2)
				all = 0;
		if (all || __atomic_load_n(&l->errors, __ATOMIC_SEQ_CST))
			return 0;
		usleep(100);
	}
	return -ETIMEDOUT;
}

/*
 * The unload while the copiers run: whether it returned before anything
 * stopped them, its return, how long it took and the copies made while
 * it ran.  The copiers are stopped afterwards.
 */
struct unload_result {
	int ret;
	int stopped;	/* the copiers were stopped before it returned */
	double secs;
	long copies;
};

static struct unload_result unload_copying(struct live *l)
{
	struct unload_result u;
	long c0 = ops_sum(l);
	double t0 = now_s();

	set_flag(&l->started);
	u.ret = ovbtest_unload();
	u.stopped = flag(&l->stop);
	set_flag(&l->unloaded);
	u.secs = now_s() - t0;
	u.copies = ops_sum(l) - c0;
	set_flag(&l->stop);
	return u;
}

/* The device's NC BAR page of a new context at @addr with @marker. */
static int map_bar(int *fd, char *addr, int fixed, uint64_t marker)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	volatile uint64_t *dev;
	void *p;
	int ret;

	*fd = ovbtest_open_dev();
	if (*fd < 0)
		return *fd;
	ret = ovbtest_get_context(*fd, &uctx);
	if (ret)
		return ret;
	p = mmap(addr, PG, PROT_READ | PROT_WRITE,
		 MAP_SHARED | (fixed ? MAP_FIXED : MAP_FIXED_NOREPLACE), *fd,
		 uctx.nc_offset);
	if (p != addr)
		return p == MAP_FAILED ? -errno : -EFAULT;
	dev = p;
	dev[0] = marker;
	return dev[0] == marker ? 0 : -EIO;
}

/* Reaps @n exited children (all of them when @all); how many are left. */
static int reap(struct live *l, int n, int all)
{
	int st;

	while (n && waitpid(-1, &st, all ? 0 : WNOHANG) > 0) {
		n--;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			__atomic_add_fetch(&l->errors, 1, __ATOMIC_SEQ_CST);
	}
	return n;
}

/*
 * A forker: forks without waiting for the child, which exits at once,
 * and reaps the children that have exited (waits when MAX_PENDING are
 * left); until stopped.  So nearly always one of its forks is in
 * dup_mmap(), past the device VMA.
 */
#define MAX_PENDING	16
static void __attribute__((noreturn))
fork_loop(struct live *l, int i, pid_t parent, uint64_t marker)
{
	int pending = 0;
	double end;
	pid_t p;

	if (die_with(parent))
		_exit(1);
	while (!flag(&l->stop)) {
		p = fork();
		if (!p)
			_exit(0);
		if (p < 0) {
			__atomic_add_fetch(&l->errors, 1, __ATOMIC_SEQ_CST);
			usleep(1000);
		} else {
			pending++;
			__atomic_add_fetch(&l->ops[i], 1, __ATOMIC_SEQ_CST);
		}
		pending = reap(l, pending, 0);
		if (pending >= MAX_PENDING)
			pending = reap(l, 1, 1) + pending - 1;
	}
	reap(l, pending, 1);
	/* the watchdog may stop us before the unload is over */
	end = now_s() + 300;
	while (!flag(&l->unloaded) && now_s() < end)
		usleep(1000);
	if (!flag(&l->unloaded))
		_exit(3);
	read_after((volatile uint64_t *)LOW_ADDR, marker);
	_exit(0);
}

static const char *stack_name(void)
{
	return raw_stack_is_intree() ? "in-tree" : "our";
}

/*
 * The device page is the process's lowest VMA and the fixture's thousands
 * of VMAs lie above it, so that fork's dup_mmap() copies (and opens) it
 * first and is busy long after: a copy made during the unplug is on a
 * revoke's list nearly all the time.  With forkers that waited for each
 * child, the module that lists every copy still let the unplug end
 * (25.7 s, TCG, 6.1); forking without waiting keeps it past the watchdog.
 */
TEST_F_TIMEOUT(uf, unplug_ends_while_processes_fork, 600)
{
	uint64_t marker = 0x0f0d000000000000ULL | ((uint64_t)getpid() << 16);
	pid_t pids[FORKERS], dog, me = getpid();
	int k = ovbtest_kmsg_mark(), fd, st, bad = 0;
	struct unload_result u;
	struct live *l;

	l = mmap(NULL, sizeof(*l), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, l);
	memset(l, 0, sizeof(*l));
	dog = start_watchdog(l);	/* before the mapping: it has none */
	ASSERT_LT(0, dog);
	ASSERT_EQ(0, map_bar(&fd, LOW_ADDR, 0, marker));
	for (int i = 0; i < FORKERS; i++) {
		pids[i] = fork();
		if (!pids[i])
			fork_loop(l, i, me, marker);
		ASSERT_LT(0, pids[i]);
	}
	ASSERT_EQ(0, copiers_running(l, FORKERS));

	u = unload_copying(l);

	for (int i = 0; i < FORKERS; i++)
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			bad++;
			TH_LOG("forker %d: status 0x%x", pids[i], st);
		}
	EXPECT_EQ(dog, waitpid(dog, &st, 0));
	read_after((volatile uint64_t *)LOW_ADDR, marker);
	munmap(LOW_ADDR, PG);
	close(fd);
	TH_LOG("%s ib_uverbs: the unload took %.2f s (rmmod %d) while %d processes forked, %ld forks during it, %ld in all, %ld failed; %s; the device page afterwards: zeroes %ld, SIGBUS %ld, the marker %ld, other %ld",
	       stack_name(), u.secs, u.ret, FORKERS, u.copies, ops_sum(l),
	       l->errors, u.stopped ? (l->fired ?
	       "it returned only after the watchdog stopped the forks" :
	       "the forks stopped before it returned") :
	       "it returned while they forked",
	       ctl->zeroes, ctl->sigbus, ctl->escaped, ctl->other);
	EXPECT_EQ(0, u.ret);
	/* liveness: the unplug ended while the forks went on */
	EXPECT_FALSE(u.stopped);
	/* not vacuous: forks ran while the unplug did */
	EXPECT_LT(0, u.copies);
	EXPECT_EQ(0, l->errors);
	EXPECT_EQ(0, bad);
	/* the test and its forkers: the revoke reached every mapping */
	EXPECT_EQ(FORKERS + 1, ctl->zeroes + ctl->sigbus);
	EXPECT_EQ(0, ctl->escaped);
	EXPECT_EQ(0, ctl->other);
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
}

/* A mover: its own device VMA from one page to the other, until stopped. */
struct mover {
	struct live *l;
	int i;
	char *at[2];	/* the two pages it moves between */
	char *now;	/* where its VMA is */
};

static void *move_loop(void *arg)
{
	struct mover *m = arg;
	int to = 1;
	void *p;

	while (!flag(&m->l->stop)) {
		p = mremap(m->now, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED,
			   m->at[to]);
		if (p != m->at[to]) {
			__atomic_add_fetch(&m->l->errors, 1, __ATOMIC_SEQ_CST);
			break;
		}
		m->now = p;
		to = !to;
		__atomic_add_fetch(&m->l->ops[m->i], 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

/*
 * Mover process @n: maps the device page MOVERS times in its part of
 * [@base, ...), moves each VMA in a thread of its own until stopped,
 * then after the unload reads each; exits 0, 2 when a step failed, 3
 * when the unload did not end.
 */
static void __attribute__((noreturn))
move_proc(struct live *l, int n, pid_t parent, int fd, __u64 off,
	  char *base, uint64_t marker)
{
	struct mover m[MOVERS];
	pthread_t t[MOVERS];
	double end;

	if (die_with(parent))
		_exit(1);
	for (int j = 0; j < MOVERS; j++) {
		int i = n * MOVERS + j;
		volatile uint64_t *dev;

		m[j] = (struct mover){ .l = l, .i = i,
				       .at = { base + 4 * i * PG,
					       base + (4 * i + 2) * PG } };
		m[j].now = mmap(m[j].at[0], PG, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_FIXED, fd, off);
		if (m[j].now != m[j].at[0])
			_exit(2);
		dev = (volatile uint64_t *)m[j].now;
		dev[0] = marker;
		if (dev[0] != marker)
			_exit(2);
	}
	for (int j = 0; j < MOVERS; j++)
		if (pthread_create(&t[j], NULL, move_loop, &m[j]))
			_exit(2);
	for (int j = 0; j < MOVERS; j++)
		pthread_join(t[j], NULL);
	end = now_s() + 300;
	while (!flag(&l->unloaded) && now_s() < end)
		usleep(1000);
	if (!flag(&l->unloaded))
		_exit(3);
	for (int j = 0; j < MOVERS; j++)
		read_after((volatile uint64_t *)m[j].now, marker);
	_exit(0);
}

/*
 * MOVER_PROCS processes, each with MOVERS threads that move a VMA of the
 * device page of their own (one context's NC page, mapped WORKERS times)
 * between two pages of a reserved range (PROT_NONE pages between them):
 * mremap copies the VMA (vm_ops->open), moves the PTEs into the copy and
 * unmaps the old VMA.  Several processes, because a revoke zaps one mm
 * at a time: while it holds one process's mmap_lock the others move.
 * Measured on a 2-CPU TCG guest (6.1, the module that lists every copy):
 * one process of 6 threads, or 2-3 processes, let the unplug end within
 * 0.2-1.1 s (its revoke catches every mm idle now and then); 6 processes
 * of one thread kept it 47 s and past the watchdog, 8 or more every time.
 * Afterwards every moved VMA reads zeroes or raises SIGBUS, never the
 * device's marker.  The in-tree module has the fork bug here too: a copy
 * made while its revoke waits for the mmap_lock is zapped untracked, the
 * move then puts the device PTEs into it (Findings).  There such reads
 * are logged, not asserted, and the WARN that zap gives is expected
 * (INTREE_MOVE_WARN_RE, an ovb-expect window around the unplug).
 */
TEST_F_TIMEOUT(uf, unplug_ends_while_mremap_moves, 600)
{
	uint64_t marker = 0x0f0e000000000000ULL | ((uint64_t)getpid() << 16);
	struct ovbtest_alloc_ucontext_resp uctx;
	int intree = raw_stack_is_intree();
	int k = ovbtest_kmsg_mark(), fd, st, bad = 0, warned;
	pid_t pids[MOVER_PROCS], dog, me = getpid();
	struct unload_result u;
	struct live *l;
	size_t len = 4 * WORKERS * PG;
	char *base;

	l = mmap(NULL, sizeof(*l), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, l);
	memset(l, 0, sizeof(*l));
	dog = start_watchdog(l);
	ASSERT_LT(0, dog);
	base = mmap(NULL, len, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, base);
	fd = ovbtest_open_dev();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ovbtest_get_context(fd, &uctx));
	for (int n = 0; n < MOVER_PROCS; n++) {
		pids[n] = fork();
		if (!pids[n])
			move_proc(l, n, me, fd, uctx.nc_offset, base, marker);
		ASSERT_LT(0, pids[n]);
	}
	ASSERT_EQ(0, copiers_running(l, WORKERS));

	if (intree)
		kmsg_say("ovb-expect: begin " INTREE_MOVE_WARN_RE "\n");
	u = unload_copying(l);

	for (int n = 0; n < MOVER_PROCS; n++)
		if (waitpid(pids[n], &st, 0) != pids[n] || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			bad++;
			TH_LOG("mover process %d: status 0x%x", pids[n], st);
		}
	warned = ovbtest_kmsg_warned(k);
	if (intree)
		kmsg_say("ovb-expect: end\n");
	EXPECT_EQ(dog, waitpid(dog, &st, 0));
	munmap(base, len);
	close(fd);
	TH_LOG("%s ib_uverbs: the unload took %.2f s (rmmod %d) while %d threads in %d processes moved the device page, %ld moves during it, %ld in all, %ld failed; %s; the moved VMAs afterwards: zeroes %ld, SIGBUS %ld, the marker %ld, other %ld",
	       stack_name(), u.secs, u.ret, WORKERS,
	       MOVER_PROCS, u.copies, ops_sum(l), l->errors,
	       u.stopped ? (l->fired ?
	       "it returned only after the watchdog stopped the moves" :
	       "the moves stopped before it returned") :
	       "it returned while they moved",
	       ctl->zeroes, ctl->sigbus, ctl->escaped, ctl->other);
	EXPECT_EQ(0, u.ret);
	/* liveness: the unplug ended while the moves went on */
	EXPECT_FALSE(u.stopped);
	/* not vacuous: moves ran while the unplug did */
	EXPECT_LT(0, u.copies);
	EXPECT_EQ(0, l->errors);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(WORKERS, ctl->zeroes + ctl->sigbus + ctl->escaped +
			   ctl->other);
	if (intree) {
		if (ctl->escaped)
			TH_LOG("in-tree: %ld moved VMAs kept the device's page after the unplug (the known upstream bug, as fork's)%s",
			       ctl->escaped, warned ?
			       "; the kernel WARNed (expected: " INTREE_MOVE_WARN_RE ")" :
			       "");
		return;
	}
	EXPECT_FALSE(warned);
	EXPECT_EQ(0, ctl->escaped);
	EXPECT_EQ(0, ctl->other);
}

TEST_HARNESS_MAIN
