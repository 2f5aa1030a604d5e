// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The concurrent mode (--threads N, --procs N): threads of this process
 * and short-lived forked processes run the generator's steps against the
 * same two uverbs files, so the same contexts, at once.  The threads share
 * the object pools; each has its own stream (seed and thread number), its
 * own arena slot and its own QP walks.  Nothing serializes the commands:
 * fz_lock() only keeps the pools and the files' fds consistent (pool.c,
 * main.c), so the kernel sees destroy, use and close of the same IDR and
 * FD objects racing.  Besides the generator's own operations a thread now
 * and then
 *   - closes a completion channel or async event file (taken out of its
 *     pool first) while other threads name it in CQ_CREATE's
 *     COMP_CHANNEL, the creates' EVENT_FD, or write()'s CREATE_CQ,
 *   - closes the file's async event fd the same way,
 *   - closes and reopens a whole file while other threads use it,
 *   - dup2()s a uverbs file over a channel's fd number (the object behind
 *     a number others use changes at once),
 *   - sends a file, its async fd and a channel with SCM_RIGHTS to the
 *     processes.
 * The processes are forked from the running threads (fork() in the middle
 * of their commands), inherit the files, run for 0.5-3.5 s mostly ioctl()s
 * (their write() answers EACCES: another process's credentials) and
 * install what they receive over the socket; a new one replaces each as
 * it exits, so files also die by a process's exit.
 *
 * The results are not deterministic, so there is no digest: the checks are
 * invariants.  No kernel-internal errno or short write, no errno outside
 * the classes below, every thread and process finishes within GRACE
 * seconds of the end (otherwise its kernel stack is printed), and then the
 * end checks of main.c.  The harness's kernel log scan is the main oracle.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "fuzz.h"

#define RND(n)		prng_below(&fz->rng, (n))
#define ONE_IN(n)	prng_one_in(&fz->rng, (n))

#define MAX_THREADS	16
#define MAX_PROCS	16
#define GRACE		120	/* s for everything to finish after the end */

struct worker {
	pthread_t th;
	pid_t tid;
	struct fz fz;
	uint64_t count;
	int fails;
	int joined;
};

/* Shared with the processes (MAP_SHARED): the stop flag, their results. */
struct proc_slot {
	struct fz_stats st;
	int fails;
};

struct shared {
	int stop;
	struct proc_slot slot[MAX_PROCS];
};

static struct shared *sh;
static int socks[MAX_PROCS][2];	/* [0] the threads send, [1] procs receive */
static unsigned int nprocs;
static double end_time;
static uint64_t fds_passed;

/*
 * The errno classes a command may get here: those of the single-threaded
 * stream, plus EBADF and EACCES from the concurrency itself (an fd closed
 * under the command; write() from another process), ENOTTY and EAGAIN (a
 * file's fd number reused by something else), EINTR (the wake-up at the
 * end).  ENOMSG is 6.1's answer to INFO_HANDLES of object 0xffff
 * (UVERBS_IDR_ANY_OBJECT: uapi_get_object()'s -ENOMSG returned as is).
 */
static const int expected[] = {
	EPERM, ENOENT, EINTR, EIO, ENXIO, E2BIG, EBADF, EAGAIN, ENOMEM,
	EACCES, EFAULT, EBUSY, EEXIST, ENODEV, EINVAL, ENFILE, EMFILE, ENOTTY,
	ENOSPC, ERANGE, ENOSYS, ENOMSG, ENODATA, ETIMEDOUT, EOPNOTSUPP,
	EPROTONOSUPPORT, EAFNOSUPPORT, EADDRNOTAVAIL, ENETUNREACH,
	EHOSTUNREACH, EMSGSIZE, EOVERFLOW,
};

static void seed_stream(struct fz *fz, uint64_t seed, uint64_t who)
{
	prng_seed(&fz->rng, seed ^ (0x5eedull << 48) ^ (who << 20));
}

/* A copy of @proto for one thread or process: own stream, arena, stats. */
static void init_fz(struct fz *fz, const struct fz *proto,
		    const struct fz_arena *arena, uint64_t seed, uint64_t who)
{
	*fz = *proto;
	fz->arena = *arena;
	memset(&fz->st, 0, sizeof(fz->st));
	memset(fz->walks, 0, sizeof(fz->walks));
	fz->next_walk = 0;
	fz->digest = 0;
	fz->concurrent = 1;
	seed_stream(fz, seed, who);
}

static void stats_add(struct fz_stats *to, const struct fz_stats *from)
{
	uint64_t *t = (uint64_t *)to;
	const uint64_t *f = (const uint64_t *)from;
	size_t i;

	_Static_assert(sizeof(*to) % 8 == 0, "fz_stats: u64s only");
	for (i = 0; i < sizeof(*to) / 8; i++)
		t[i] += f[i];
}

/* A file, its async fd and one of its channels to a process. */
static void pass_fds(struct fz *fz, struct fz_file *f)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(3 * sizeof(int))];
	} u;
	uint8_t what[2] = { f - fz->files, 0 };
	struct iovec iov = { what, sizeof(what) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.buf };
	struct cmsghdr *c;
	int fds[3], n = 0;
	uint32_t h;

	fds[n] = f->fd;
	if (fds[n] >= 0) {
		what[1] |= 1;
		n++;
	}
	fds[n] = f->async_fd;
	if (fds[n] >= 0) {
		what[1] |= 2;
		n++;
	}
	if (!pool_pick(fz, f, FZ_CHANNEL, &h)) {
		fds[n++] = (int)h;
		what[1] |= 4;
	}
	if (!n)
		return;
	memset(&u, 0, sizeof(u));
	mh.msg_controllen = CMSG_SPACE(n * sizeof(int));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	/* an fd closed meanwhile: EBADF, nothing sent */
	if (sendmsg(socks[RND(nprocs)][0], &mh,
		    MSG_DONTWAIT | MSG_NOSIGNAL) > 0)
		__atomic_add_fetch(&fds_passed, 1, __ATOMIC_RELAXED);
}

/* In a process: what pass_fds() sent replaces that file's fds here. */
static void receive_fds(struct fz *fz, int sock)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(8 * sizeof(int))];
	} u;
	uint8_t what[2];
	struct iovec iov = { what, sizeof(what) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.buf,
			     .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	struct fz_file *f;
	int fds[8], n = 0, i = 0, old;
	ssize_t len = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

	if (len <= 0)
		return;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		int k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		if (k > 8 - n)
			k = 8 - n;
		memcpy(fds + n, CMSG_DATA(c), k * sizeof(int));
		n += k;
	}
	if (len < 2)		/* not from pass_fds(): a write() of junk */
		what[1] = 0;
	f = &fz->files[what[0] % FZ_NFILES];
	if ((what[1] & 1) && i < n) {
		fz_lock();
		old = f->fd;
		f->fd = fds[i++];
		fz_unlock();
		if (old > 2)
			close(old);
	}
	if ((what[1] & 2) && i < n) {
		fz_lock();
		old = f->async_fd;
		f->async_fd = fds[i++];
		fz_unlock();
		if (old > 2)
			close(old);
	}
	if ((what[1] & 4) && i < n)
		pool_add(&f->pool[FZ_CHANNEL], fds[i++]);
	while (i < n)
		close(fds[i++]);
}

/* What only the concurrent mode does between one thread's commands. */
static void thread_op(struct fz *fz)
{
	struct fz_file *f = &fz->files[RND(FZ_NFILES)];
	uint32_t r = RND(100), h;
	int fd;

	fz->st.other_ops++;
	if (r < 30) {		/* a channel or event file others may name */
		if (!pool_take(fz, f, FZ_CHANNEL, &h) && h > 2)
			close((int)h);
	} else if (r < 40) {	/* the async event file */
		fz_lock();
		fd = f->async_fd;
		f->async_fd = -1;
		fz_unlock();
		if (fd > 2)
			close(fd);
	} else if (r < 55) {
		fz_cycle_file(fz, f);
	} else if (r < 70) {	/* a channel's number becomes a uverbs file */
		if (pool_take(fz, f, FZ_CHANNEL, &h) || h <= 2)
			return;
		fd = fz->files[RND(FZ_NFILES)].fd;
		if (fd >= 0 && dup2(fd, (int)h) == (int)h)
			pool_add(&f->pool[FZ_CHANNEL], h);
		else
			close((int)h);
	} else if (nprocs) {
		pass_fds(fz, f);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fz *fz = &w->fz;
	uint64_t n;

	w->tid = gettid();
	for (n = 0; !w->count || n < w->count; n++) {
		if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED) ||
		    (!(n & 15) && fz_now() >= end_time))
			break;
		if (ONE_IN(50))
			thread_op(fz);
		if (fz_step(fz, n))
			w->fails++;
	}
	return NULL;
}

/* A process: inherits the files mid-run, runs a while, exits. */
static void __attribute__((noreturn))
proc_main(const struct fz *proto, const struct fz_arena *arena,
	  unsigned int slot, uint64_t seed, uint64_t who)
{
	static struct fz fzp;
	struct fz *fz = &fzp;
	struct proc_slot *ps = &sh->slot[slot];
	double until;
	uint64_t n;
	int fails = 0;

	init_fz(fz, proto, arena, seed, who);
	fz->ioctl_share = 90;	/* write() answers EACCES here */
	until = fz_now() + 0.5 + RND(31) / 10.0;
	if (until > end_time)
		until = end_time;
	for (n = 0;; n++) {
		if (!(n & 15)) {
			if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED) ||
			    fz_now() >= until)
				break;
			receive_fds(fz, socks[slot][1]);
		}
		if (ONE_IN(50))
			thread_op(fz);
		if (fz_step(fz, n))
			fails++;
	}
	stats_add(&ps->st, &fz->st);
	ps->fails += fails;
	_exit(0);
}

/* Where a thread or process that does not finish sits in the kernel. */
static void print_stack(const char *what, pid_t pid, pid_t tid)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", pid, tid);
	printf("# %s %d has not finished %d s after the end; kernel stack:\n",
	       what, tid, GRACE);
	f = fopen(path, "r");
	if (!f) {
		printf("#   (%s: %s)\n", path, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f))
		printf("#   %s", line);
	fclose(f);
}

static void reap(struct fz_conc *c, pid_t pid, int status)
{
	c->proc_runs++;
	if (WIFSIGNALED(status)) {
		printf("# process %d killed by signal %d\n", pid,
		       WTERMSIG(status));
		c->fails++;
	} else if (WEXITSTATUS(status)) {
		printf("# process %d exited %d\n", pid, WEXITSTATUS(status));
		c->fails++;
	}
}

static void wake(int sig)
{
}

static void lock_for_fork(void)
{
	fz_lock();	/* a child must not inherit the pools mid-change */
}

static void unlock_after_fork(void)
{
	fz_unlock();
}

/*
 * Runs the concurrent mode on @proto's files (open), @c says how; fills
 * @proto->st with everyone's statistics and @c with the results.
 */
int fz_concurrent(struct fz *proto, struct fz_conc *c)
{
	static struct worker workers[MAX_THREADS];
	static struct fz_arena arenas[MAX_THREADS + MAX_PROCS];
	static pid_t pids[MAX_PROCS];
	unsigned int i, alive, nthreads = c->threads;
	uint64_t who = 0;
	struct sigaction sa = { .sa_handler = wake };
	double deadline;
	int status;
	pid_t pid;

	nprocs = c->procs;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		goto fail;
	for (i = 0; i < nthreads + nprocs; i++)
		if (arena_init(&arenas[i], 1 + i))
			goto fail;
	for (i = 0; i < nprocs; i++)
		if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			       0, socks[i]))
			goto fail;
	signal(SIGPIPE, SIG_IGN);	/* a write() to a reused fd number */
	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART */
	pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
	fz_set_shared(1);

	/* by time; by count only with threads (processes run until those end) */
	end_time = c->seconds || !nthreads ? fz_now() + (c->seconds ?: 20) :
					     1e300;
	for (i = 0; i < nthreads; i++) {
		struct worker *w = &workers[i];

		init_fz(&w->fz, proto, &arenas[i], c->seed, ++who);
		w->count = c->count;
		if (pthread_create(&w->th, NULL, worker_main, w))
			goto fail;
	}

	/* Keeps @nprocs processes alive till the end: each one a fork mid-run. */
	for (;;) {
		alive = 0;
		for (i = 0; i < nthreads; i++) {
			if (!workers[i].joined &&
			    !pthread_tryjoin_np(workers[i].th, NULL))
				workers[i].joined = 1;
			alive += !workers[i].joined;
		}
		if (fz_now() >= end_time || (nthreads && !alive))
			break;
		for (i = 0; i < nprocs; i++) {
			if (pids[i] > 0 && waitpid(pids[i], &status, WNOHANG) ==
			    pids[i]) {
				reap(c, pids[i], status);
				pids[i] = 0;
			}
			if (pids[i] > 0)
				continue;
			who++;
			pid = fork();
			if (!pid)
				proc_main(proto, &arenas[nthreads + i], i,
					  c->seed, who);
			pids[i] = pid > 0 ? pid : 0;
		}
		usleep(20000);
	}
	/*
	 * Stop, and wait for everyone.  A read() of an event file may wait
	 * for an event (its number reused by a new channel between the
	 * O_NONBLOCK and the read): SIGUSR1 ends such interruptible waits.
	 * Whoever is still in the kernel after GRACE seconds is reported.
	 */
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	deadline = fz_now() + GRACE;
	do {
		alive = 0;
		for (i = 0; i < nthreads; i++) {
			if (workers[i].joined)
				continue;
			if (!pthread_tryjoin_np(workers[i].th, NULL)) {
				workers[i].joined = 1;
				continue;
			}
			pthread_kill(workers[i].th, SIGUSR1);
			alive++;
		}
		for (i = 0; i < nprocs; i++) {
			if (pids[i] <= 0)
				continue;
			pid = waitpid(pids[i], &status, WNOHANG);
			if (pid == pids[i])
				reap(c, pid, status);
			if (pid == pids[i] || (pid < 0 && errno != EINTR)) {
				pids[i] = 0;
				continue;
			}
			kill(pids[i], SIGUSR1);
			alive++;
		}
		if (alive)
			usleep(100000);
	} while (alive && fz_now() < deadline);
	for (i = 0; i < nthreads; i++)
		if (!workers[i].joined) {
			print_stack("thread", getpid(), workers[i].tid);
			c->hung++;
		}
	for (i = 0; i < nprocs; i++)
		if (pids[i] > 0) {
			print_stack("process", pids[i], pids[i]);
			kill(pids[i], SIGKILL);
			c->hung++;
		}
	if (c->hung)
		return -1;
	fz_set_shared(0);
	for (i = 0; i < nthreads; i++) {
		stats_add(&proto->st, &workers[i].fz.st);
		c->fails += workers[i].fails;
		c->thread_cmds += workers[i].fz.st.commands;
	}
	for (i = 0; i < nprocs; i++) {
		stats_add(&proto->st, &sh->slot[i].st);
		c->proc_cmds += sh->slot[i].st.commands;
		c->fails += sh->slot[i].fails;
		/* fds still in flight are released with the sockets */
		close(socks[i][0]);
		close(socks[i][1]);
	}
	c->fds_passed = fds_passed;
	return 0;
fail:
	printf("Bail out! concurrent mode setup: %s\n", strerror(errno));
	exit(1);
}

int fz_errno_expected(int err)
{
	size_t j;

	for (j = 0; j < sizeof(expected) / sizeof(expected[0]); j++)
		if (expected[j] == err)
			return 1;
	return 0;
}

/* Prints and counts the errnos outside expected[]. */
int fz_unexpected_errnos(const struct fz_stats *st)
{
	size_t i;
	int bad = 0;

	for (i = 1; i < sizeof(st->errnos) / sizeof(st->errnos[0]); i++) {
		if (!st->errnos[i] || fz_errno_expected((int)i))
			continue;
		printf("# unexpected errno %s: %" PRIu64 " times\n",
		       strerrorname_np(i) ?: "?", st->errnos[i]);
		bad++;
	}
	if (st->errno_other) {
		printf("# unexpected errnos >= 160: %" PRIu64 " times\n",
		       st->errno_other);
		bad++;
	}
	return bad;
}

/*
 * The bookkeeping's own races (an fd added to a pool just reset, two
 * reopens of one file, a dup2 of a number just reused) can lose fds; they
 * would hold kernel objects past the end checks.  Closes every fd left on
 * a uverbs file or an infiniband event file; returns how many.
 */
int fz_close_lost_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	char path[64], target[128];
	struct dirent *e;
	int fd, n = 0;
	ssize_t len;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		fd = atoi(e->d_name);
		if (fd <= 2 || fd == dirfd(d))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		if (!strncmp(target, "/dev/infiniband/", 16) ||
		    !strncmp(target, "anon_inode:[infiniband", 22)) {
			close(fd);
			n++;
		}
	}
	closedir(d);
	return n;
}
