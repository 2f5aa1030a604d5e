// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Faults and load on rxe0, on either stack: processes killed mid-traffic,
 * threads sharing objects, files passed between processes, pinned-memory
 * accounting, many objects at once, and (last) unloading the module.
 * After each, ib_core's resource tracker, the module's reference count
 * and VmPin must be back where they started.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <infiniband/verbs.h>

#include "kselftest_harness.h"
#include "uverbs_raw.h"
#include "uverbs_ioctl.h"
#include "verbs_lib.h"

static const char *const res_types[] = { "pd", "cq", "mr", "srq" };
#define NRES (sizeof(res_types) / sizeof(res_types[0]))

/* Everything the leak checks compare: tracker counts, module refcnt. */
struct census {
	int res[NRES];
	int qp;
	int refcnt;
};

static int module_refcnt(void)
{
	FILE *f = fopen("/sys/module/ib_uverbs/refcnt", "r");
	int n = -1;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static void take_census(struct census *c)
{
	size_t i;

	for (i = 0; i < NRES; i++)
		c->res[i] = raw_res_count(res_types[i]);
	c->qp = raw_res_count("qp");
	c->refcnt = module_refcnt();
}

/* How many counts differ from @before (each one is printed). */
static int census_diff(const struct census *before)
{
	struct census now;
	int diffs = 0;
	size_t i;

	take_census(&now);
	for (i = 0; i < NRES; i++)
		if (now.res[i] != before->res[i] && ++diffs)
			printf("# %s: %d before, %d now\n", res_types[i],
			       before->res[i], now.res[i]);
	if (now.qp != before->qp && ++diffs)
		printf("# qp: %d before, %d now\n", before->qp, now.qp);
	if (now.refcnt != before->refcnt && ++diffs)
		printf("# ib_uverbs refcnt: %d before, %d now\n",
		       before->refcnt, now.refcnt);
	return diffs;
}

#define EXPECT_CENSUS(before) EXPECT_EQ(0, census_diff(before))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}


static int device_present(void)
{
	return access(UVERBS_DEV, F_OK) == 0;
}

/* Only for the timeouts of TEST_F_TIMEOUT; nothing to set up. */
FIXTURE(stress) {
	int unused;
};

FIXTURE_SETUP(stress)
{
}

FIXTURE_TEARDOWN(stress)
{
}

/* ------------------------------------------------------------ kill storm */


/*
 * The victim: two connected RC QPs writing to each other in a loop; one
 * byte on @ready after the first completion.  Never returns.
 */
static void traffic_child(int ready)
{
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	const size_t len = 1 << 20;
	struct ibv_context *ctx = verbs_open_first();
	struct ibv_qp *a, *b;
	struct ibv_sge sge;
	struct ibv_send_wr wr = {}, *bad;
	struct ibv_wc wc;
	union ibv_gid gid;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char *buf;
	int sent = 0;

	if (!ctx)
		_exit(10);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	buf = malloc(len);
	if (!pd || !cq || !buf || ibv_query_gid(ctx, 1, 0, &gid))
		_exit(11);
	mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	init.send_cq = cq;
	init.recv_cq = cq;
	a = ibv_create_qp(pd, &init);
	b = ibv_create_qp(pd, &init);
	if (!mr || !a || !b || verbs_rc_connect(a, b->qp_num, &gid, 0) ||
	    verbs_rc_connect(b, a->qp_num, &gid, 0))
		_exit(12);
	sge.addr = (uintptr_t)buf;
	sge.length = 64 * 1024;
	sge.lkey = mr->lkey;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)buf + len / 2;
	wr.wr.rdma.rkey = mr->rkey;
	for (;;) {
		if (ibv_post_send(a, &wr, &bad))
			_exit(13);
		while (ibv_poll_cq(cq, 1, &wc) == 0)
			;
		if (wc.status != IBV_WC_SUCCESS)
			_exit(14);
		if (!sent++ && write(ready, "r", 1) != 1)
			_exit(15);
	}
}

TEST_F_TIMEOUT(stress, kill_storm, 500)
{
	const int rounds = 100;
	struct census before;
	int r, started = 0;
	double t0 = now();

	if (!device_present())
		SKIP(return, "no RDMA device");
	take_census(&before);
	srand(1);
	for (r = 0; r < rounds; r++) {
		struct pollfd pfd;
		int pipefd[2], status;
		char c;
		pid_t pid;

		ASSERT_EQ(0, pipe(pipefd));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			close(pipefd[0]);
			traffic_child(pipefd[1]);
		}
		close(pipefd[1]);
		pfd.fd = pipefd[0];
		pfd.events = POLLIN;
		/* Killed mid-traffic, or (every 4th round) mid-setup. */
		if (r % 4 && poll(&pfd, 1, 20000) == 1 &&
		    read(pipefd[0], &c, 1) == 1) {
			started++;
			usleep(rand() % 20000);
		} else if (!(r % 4)) {
			usleep(rand() % 30000);
		}
		kill(pid, SIGKILL);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status))
			TH_LOG("round %d: the child exited with %d before the kill",
			       r, WEXITSTATUS(status));
		close(pipefd[0]);
	}
	TH_LOG("%d rounds in %.1f s, %d killed mid-traffic", rounds,
	       now() - t0, started);
	EXPECT_LE(rounds / 2, started);
	EXPECT_CENSUS(&before);
}

/* ----------------------------------------------------------- concurrency */

struct shared {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	char *buf;
	int iterations;
	int failures;
	int dealloc_seq;	/* odd while the main thread tries DEALLOC_PD */
	int busy_overlaps;	/* creates refused (EBUSY) during such a try */
	pthread_mutex_t lock;
	union ibv_gid gid;
};

static void count_failure(struct shared *s, const char *what, int i)
{
	pthread_mutex_lock(&s->lock);
	if (s->failures++ < 10)
		fprintf(stderr, "# iteration %d: %s failed: %s\n", i, what,
			strerror(errno));
	pthread_mutex_unlock(&s->lock);
}

/*
 * A create on the shared PD failed.  A DEALLOC_PD of a busy PD holds the
 * PD exclusively while the destroy is tried and refused, and a create
 * looking the PD up meanwhile answers EBUSY: 6.1 does the same.  So EBUSY
 * counts as a failure only if no such try overlapped the create (@seq:
 * dealloc_seq before it).
 */
static void create_failed(struct shared *s, const char *what, int i, int seq)
{
	int err = errno;

	if (err == EBUSY &&
	    ((seq & 1) || __atomic_load_n(&s->dealloc_seq, __ATOMIC_SEQ_CST) != seq)) {
		__atomic_add_fetch(&s->busy_overlaps, 1, __ATOMIC_RELAXED);
		return;
	}
	errno = err;
	count_failure(s, what, i);
}

/* One thread: objects created on, used with and destroyed off shared ones. */
static void *worker(void *arg)
{
	struct shared *s = arg;
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.send_cq = s->cq,
		.recv_cq = s->cq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct ibv_ah_attr ah_attr = {
		.is_global = 1,
		.port_num = 1,
		.grh = { .dgid = s->gid, .hop_limit = 64 },
	};
	int i;

	for (i = 0; i < s->iterations; i++) {
		int seq = __atomic_load_n(&s->dealloc_seq, __ATOMIC_SEQ_CST);
		struct ibv_qp *qp = ibv_create_qp(s->pd, &init);
		struct ibv_mr *mr;
		struct ibv_cq *cq;
		struct ibv_ah *ah;
		struct ibv_mw *mw;

		if (!qp)
			create_failed(s, "create_qp", i, seq);
		mr = ibv_reg_mr(s->pd, s->buf + 4096 * (i % 16), 4096,
				IBV_ACCESS_LOCAL_WRITE);
		if (!mr)
			create_failed(s, "reg_mr", i, seq);
		cq = ibv_create_cq(s->ctx, 8, NULL, NULL, 0);
		if (!cq)
			count_failure(s, "create_cq", i);
		ah = ibv_create_ah(s->pd, &ah_attr);
		if (!ah)
			create_failed(s, "create_ah", i, seq);
		mw = ibv_alloc_mw(s->pd, IBV_MW_TYPE_2);
		if (!mw)
			create_failed(s, "alloc_mw", i, seq);
		if (qp && ibv_modify_qp(qp, &attr, IBV_QP_STATE |
					IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					IBV_QP_ACCESS_FLAGS))
			count_failure(s, "modify_qp", i);
		if (ibv_req_notify_cq(s->cq, i & 1))
			count_failure(s, "req_notify_cq", i);
		if (qp && ibv_destroy_qp(qp))
			count_failure(s, "destroy_qp", i);
		if (mr && ibv_dereg_mr(mr))
			count_failure(s, "dereg_mr", i);
		if (cq && ibv_destroy_cq(cq))
			count_failure(s, "destroy_cq", i);
		if (ah && ibv_destroy_ah(ah))
			count_failure(s, "destroy_ah", i);
		if (mw && ibv_dealloc_mw(mw))
			count_failure(s, "dealloc_mw", i);
	}
	return NULL;
}

TEST_F_TIMEOUT(stress, threads_share_pd_and_cq, 300)
{
	const int nthreads = 8;
	struct shared s = { .iterations = 60 };
	struct census before;
	pthread_t t[8];
	struct ibv_mr *keep;
	int i;

	if (!device_present())
		SKIP(return, "no RDMA device");
	take_census(&before);
	pthread_mutex_init(&s.lock, NULL);
	s.ctx = verbs_open_first();
	ASSERT_NE(NULL, s.ctx);
	ASSERT_EQ(0, ibv_query_gid(s.ctx, 1, 0, &s.gid));
	s.pd = ibv_alloc_pd(s.ctx);
	ASSERT_NE(NULL, s.pd);
	s.cq = ibv_create_cq(s.ctx, 1024, NULL, NULL, 0);
	ASSERT_NE(NULL, s.cq);
	s.buf = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, s.buf);
	/* Keeps the PD busy whatever the threads have at a given moment. */
	keep = ibv_reg_mr(s.pd, s.buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	ASSERT_NE(NULL, keep);

	for (i = 0; i < nthreads; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, worker, &s));
	/* Meanwhile the shared objects cannot go, and resize works. */
	for (i = 0; i < 20; i++) {
		__atomic_add_fetch(&s.dealloc_seq, 1, __ATOMIC_SEQ_CST);
		EXPECT_EQ(EBUSY, ibv_dealloc_pd(s.pd));
		__atomic_add_fetch(&s.dealloc_seq, 1, __ATOMIC_SEQ_CST);
		EXPECT_EQ(0, ibv_resize_cq(s.cq, 512 + 64 * (i % 8)));
		usleep(10000);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	EXPECT_EQ(0, s.failures);
	TH_LOG("%d threads x %d iterations of 5 creates and destroys; %d creates met a refused DEALLOC_PD (EBUSY)",
	       nthreads, s.iterations, s.busy_overlaps);
	EXPECT_EQ(EBUSY, ibv_dealloc_pd(s.pd));
	EXPECT_EQ(0, ibv_dereg_mr(keep));
	EXPECT_EQ(0, ibv_destroy_cq(s.cq));
	EXPECT_EQ(0, ibv_dealloc_pd(s.pd));
	EXPECT_EQ(0, ibv_close_device(s.ctx));
	munmap(s.buf, 16 * 4096);
	EXPECT_CENSUS(&before);
}

/* Threads racing to destroy the same handles: exactly one wins each. */
struct race {
	int fd;
	int handles[64];
	int wins[64];
};

static void *destroyer(void *arg)
{
	struct race *r = arg;
	int i;

	for (i = 0; i < 64; i++)
		if (raw_dealloc_pd(r->fd, r->handles[i]) == 0)
			__atomic_fetch_add(&r->wins[i], 1, __ATOMIC_RELAXED);
	return NULL;
}

TEST_F(stress, threads_race_to_destroy)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct race r = {};
	pthread_t t[8];
	int i;

	if (!device_present())
		SKIP(return, "no RDMA device");
	r.fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, r.fd);
	ASSERT_EQ(0, raw_get_context(r.fd, &ctx));
	for (i = 0; i < 64; i++) {
		r.handles[i] = raw_alloc_pd(r.fd);
		ASSERT_LE(0, r.handles[i]);
	}
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, destroyer, &r));
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 64; i++)
		EXPECT_EQ(1, r.wins[i]);
	close(ctx.async_fd);
	close(r.fd);
}

/* ------------------------------------------- close() racing a command */

#define TAINT_WARN	(1 << 9)

/* /proc/sys/kernel/tainted: any WARN sets TAINT_WARN. */
static long kernel_taint(void)
{
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");
	long t = -1;

	if (f) {
		if (fscanf(f, "%ld", &t) != 1)
			t = -1;
		fclose(f);
	}
	return t;
}

/*
 * One thread creates CQs naming a completion channel and an async event
 * file by fd, while another closes those fds and opens new ones.  A
 * command that has looked an FD object up must keep its file until it
 * ends (6.1 does): a close() meanwhile may not run the file's release
 * under the command (that WARNs in uverbs_uobject_fd_release and corrupts
 * the object's use count).  Half the creations go by write(), which looks
 * the channel up only for a moment.
 */
struct fd_race {
	int fd;
	int chan;		/* the fds the next creation names */
	int async;
	int stop;
	int made, refused, unexpected;
};

#define FD_RACE_ROUNDS	3000

static void *fd_race_creator(void *arg)
{
	struct ib_uverbs_create_cq_resp resp;
	struct fd_race *r = arg;
	__u32 handle, cqe;
	int i, chan, async, ret;

	for (i = 0; i < FD_RACE_ROUNDS; i++) {
		chan = __atomic_load_n(&r->chan, __ATOMIC_RELAXED);
		async = __atomic_load_n(&r->async, __ATOMIC_RELAXED);
		if (i % 2) {
			ret = raw_create_cq(r->fd, 2, 0, chan, 0, &resp);
			handle = resp.cq_handle;
		} else {
			ret = ioctl_create_cq_fds(r->fd, 2, 0, 0, chan, async,
						  &handle, &cqe);
		}
		if (ret == -EBADF) {	/* closed, or reused by the other kind */
			r->refused++;
			continue;
		}
		if (ret || raw_destroy_cq(r->fd, handle, NULL)) {
			if (r->unexpected++ < 5)
				printf("# round %d: create %d\n", i, ret);
			continue;
		}
		r->made++;
	}
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	return NULL;
}

TEST_F_TIMEOUT(stress, close_racing_a_command_on_the_fd, 600)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct fd_race r = {};
	struct census before;
	long taint_before;
	int swaps = 0;
	pthread_t t;

	if (!device_present())
		SKIP(return, "no RDMA device");
	take_census(&before);
	taint_before = kernel_taint();
	r.fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, r.fd);
	ASSERT_EQ(0, raw_get_context(r.fd, &ctx));
	r.chan = raw_create_comp_channel(r.fd);
	ASSERT_LE(0, r.chan);
	r.async = ioctl_async_event_alloc(r.fd);
	ASSERT_LE(0, r.async);

	ASSERT_EQ(0, pthread_create(&t, NULL, fd_race_creator, &r));
	while (!__atomic_load_n(&r.stop, __ATOMIC_ACQUIRE)) {
		int chan = raw_create_comp_channel(r.fd);
		int async = ioctl_async_event_alloc(r.fd);
		int old_chan = __atomic_exchange_n(&r.chan, chan, __ATOMIC_RELAXED);
		int old_async = __atomic_exchange_n(&r.async, async,
						    __ATOMIC_RELAXED);

		ASSERT_LE(0, chan);
		ASSERT_LE(0, async);
		close(old_chan);
		close(old_async);
		swaps++;
	}
	pthread_join(t, NULL);
	close(r.chan);
	close(r.async);
	close(ctx.async_fd);
	close(r.fd);

	printf("# %d CQs made, %d refused (EBADF), %d fd swaps\n", r.made,
	       r.refused, swaps);
	EXPECT_EQ(0, r.unexpected);
	EXPECT_LT(0, r.made);
	EXPECT_LT(0, swaps);
	if (taint_before >= 0 && !(taint_before & TAINT_WARN))
		EXPECT_FALSE(kernel_taint() & TAINT_WARN)
			TH_LOG("the kernel WARNed during the race (dmesg)");
	EXPECT_CENSUS(&before);
}

/* ---------------------------------------------- fork, SCM_RIGHTS, close */

static int send_fd(int sock, int fd)
{
	char c = 'f';
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u = {};
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * A uverbs fd used by a process with other credentials than its opener's
 * (inherited over fork, or passed): write() refuses every command with
 * EACCES (ib_safe_file_access()), ioctl() serves them, as in 6.1.  Puts
 * the write() result and the ioctl one (a PD made and destroyed: 0, or
 * -errno) into @res.
 */
static void foreign_fd_commands(int fd, int res[2])
{
	int pd;

	res[0] = raw_alloc_pd(fd);
	pd = ioctl_alloc_pd(fd);
	res[1] = pd < 0 ? pd : ioctl_destroy_pd(fd, pd);
}

/*
 * Child: receive a uverbs fd, hold it, let go of it on the second go.
 * Answers with what write() and ioctl() said on it (foreign_fd_commands).
 */
static void receiver(int sock)
{
	int fd = recv_fd(sock), res[2];
	char c;

	if (fd < 0)
		_exit(20);
	foreign_fd_commands(fd, res);
	if (write(sock, res, sizeof(res)) != sizeof(res))
		_exit(21);
	if (read(sock, &c, 1) != 1)
		_exit(22);
	close(fd);
	if (write(sock, "c", 1) != 1)
		_exit(23);
	if (read(sock, &c, 1) != 1)
		_exit(24);
	_exit(0);
}

/*
 * A uverbs fd passed to another process with SCM_RIGHTS: whichever
 * process closes last destroys the objects, not the first.
 */
TEST_F_TIMEOUT(stress, fd_passing_and_close_ordering, 200)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct census before, alive;
	int order, status;

	if (!device_present())
		SKIP(return, "no RDMA device");
	take_census(&before);
	/* 0: the sender closes first; 1: the receiver does. */
	for (order = 0; order < 2; order++) {
		int sv[2], fd, pd, theirs[2];
		char c;
		pid_t pid;

		ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			close(sv[0]);
			receiver(sv[1]);
		}
		close(sv[1]);
		fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, raw_get_context(fd, &ctx));
		pd = raw_alloc_pd(fd);
		ASSERT_LE(0, pd);
		take_census(&alive);
		ASSERT_EQ(0, send_fd(sv[0], fd));
		ASSERT_EQ(sizeof(theirs), read(sv[0], theirs, sizeof(theirs)));
		EXPECT_EQ(-EACCES, theirs[0]);
		EXPECT_EQ(0, theirs[1]);
		if (order == 0) {
			/* Our copy goes; the file and its PD live on there. */
			close(fd);
			EXPECT_EQ(0, census_diff(&alive));
			close(ctx.async_fd);
			ASSERT_EQ(1, write(sv[0], "g", 1));
			ASSERT_EQ(1, read(sv[0], &c, 1));
			EXPECT_EQ(0, census_diff(&before));
		} else {
			ASSERT_EQ(1, write(sv[0], "g", 1));
			ASSERT_EQ(1, read(sv[0], &c, 1));
			/* Its close dropped only its reference. */
			EXPECT_EQ(0, raw_dealloc_pd(fd, pd));
			close(fd);
			close(ctx.async_fd);
		}
		ASSERT_EQ(1, write(sv[0], "g", 1));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(0, WEXITSTATUS(status));
		close(sv[0]);
	}
	EXPECT_CENSUS(&before);
}

TEST_F_TIMEOUT(stress, fork_child_keeps_out_and_the_parents_objects_stay, 120)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct census before;
	int fd, pd, status;
	pid_t pid;

	if (!device_present())
		SKIP(return, "no RDMA device");
	take_census(&before);
	fd = open(UVERBS_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, raw_get_context(fd, &ctx));
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int res[2];

		/* Inherited: write() refuses it, ioctl() does not. */
		foreign_fd_commands(fd, res);
		if (res[0] != -EACCES)
			_exit(1);
		if (res[1])
			_exit(2);
		/* Exiting drops a reference only. */
		_exit(raw_dealloc_pd(fd, pd) == -EACCES ? 0 : 3);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The PD outlives the child: the file is still open here. */
	EXPECT_EQ(0, raw_dealloc_pd(fd, pd));
	pd = raw_alloc_pd(fd);
	EXPECT_LE(0, pd);
	/* The async fd closed after the file, as a careless program would. */
	close(fd);
	close(ctx.async_fd);
	EXPECT_CENSUS(&before);
}

/* ----------------------------------------------------- RLIMIT_MEMLOCK */

static int reg_mr(int fd, __u32 pd, void *addr, __u64 len, __u32 *handle)
{
	struct {
		struct ib_uverbs_reg_mr_resp core;
		char drv[RAW_DRV_OUT];
	} resp = {};
	struct ib_uverbs_reg_mr req = {
		.response = (uintptr_t)&resp,
		.start = (uintptr_t)addr,
		.length = len,
		.hca_va = (uintptr_t)addr,
		.pd_handle = pd,
		.access_flags = IB_UVERBS_ACCESS_LOCAL_WRITE,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req),
			      sizeof(resp));

	if (ret < 0)
		return ret;
	if (handle)
		*handle = resp.core.mr_handle;
	return 0;
}

static int dereg_mr(int fd, __u32 handle)
{
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_DEREG_MR, &handle,
			      sizeof(handle), 0);

	return ret < 0 ? ret : 0;
}

static int set_memlock(rlim_t bytes)
{
	struct rlimit rl = { .rlim_cur = bytes, .rlim_max = bytes };

	return setrlimit(RLIMIT_MEMLOCK, &rl);
}

/*
 * With CAP_IPC_LOCK a zero limit does not bind, but the pages are still
 * counted in VmPin, and handed back on dereg and on close; without it the
 * limit binds (ENOMEM past it).  uverbs_mem covers EPERM, the limit's edge
 * and release on close in more detail.
 */
TEST_F_TIMEOUT(stress, memlock_cap_ipc_lock_and_vmpin, 120)
{
	struct ib_uverbs_get_context_resp ctx = {};
	const size_t len = 64 * 4096;
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[2];
	__u32 a = 0, b = 0;
	int fd, pd;
	char *p;

	if (!device_present())
		SKIP(return, "no RDMA device");
	p = mmap(NULL, 2 * len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, raw_vm_pin_kb());
	ASSERT_EQ(0, set_memlock(4096));
	fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, raw_get_context(fd, &ctx));
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	/* root: CAP_IPC_LOCK bypasses the limit, VmPin still counts. */
	ASSERT_EQ(0, reg_mr(fd, pd, p, len, &a));
	ASSERT_EQ(0, reg_mr(fd, pd, p + len, len, &b));
	EXPECT_EQ(2 * len / 1024, raw_vm_pin_kb());
	EXPECT_EQ(0, dereg_mr(fd, a));
	EXPECT_EQ(len / 1024, raw_vm_pin_kb());
	/* Closing with an MR registered gives its pages back. */
	close(fd);
	close(ctx.async_fd);
	EXPECT_EQ(0, raw_vm_pin_kb());

	/* Without CAP_IPC_LOCK (a new file: new credentials) it binds. */
	ASSERT_EQ(0, syscall(SYS_capget, &hdr, caps));
	caps[0].effective &= ~(1u << CAP_IPC_LOCK);
	ASSERT_EQ(0, syscall(SYS_capset, &hdr, caps));
	ASSERT_EQ(0, set_memlock(len));
	fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, raw_get_context(fd, &ctx));
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	ASSERT_EQ(0, reg_mr(fd, pd, p, len, &a));
	EXPECT_EQ(-ENOMEM, reg_mr(fd, pd, p + len, 4096, NULL));
	EXPECT_EQ(len / 1024, raw_vm_pin_kb());
	EXPECT_EQ(0, dereg_mr(fd, a));
	EXPECT_EQ(0, raw_vm_pin_kb());
	EXPECT_EQ(0, reg_mr(fd, pd, p + len, len, &b));
	close(fd);
	close(ctx.async_fd);
	EXPECT_EQ(0, raw_vm_pin_kb());
	munmap(p, 2 * len);
}

/* --------------------------------------------------------- many objects */

/* What the child of the many-objects test saw, for its parent. */
struct many_report {
	int mr, qp;
	long pin_kb;
	double mr_s, qp_s;
	int failed_at;
};

/*
 * Child: @nmr MRs and @nqp QPs on one context, a report on @out, then an
 * exit on the go (process death tears it all down: rxe's queue mappings
 * hold the file, so closing the context alone would not).
 */
static void many_child(int nmr, int nqp, int out, int go)
{
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct many_report r = { .failed_at = -1 };
	struct ibv_context *ctx = verbs_open_first();
	struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	struct ibv_cq *cq = ctx ? ibv_create_cq(ctx, 16, NULL, NULL, 0) : NULL;
	/* 16 pages, registered over and over: each MR pins its own. */
	char *buf = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double t0 = now();
	char c;
	int i;

	if (!pd || !cq || buf == MAP_FAILED)
		_exit(30);
	init.send_cq = cq;
	init.recv_cq = cq;
	for (i = 0; i < nmr && r.failed_at < 0; i++)
		if (!ibv_reg_mr(pd, buf + 4096 * (i % 16), 4096,
				IBV_ACCESS_LOCAL_WRITE))
			r.failed_at = i;
	r.mr_s = now() - t0;
	t0 = now();
	for (i = 0; i < nqp && r.failed_at < 0; i++)
		if (!ibv_create_qp(pd, &init))
			r.failed_at = nmr + i;
	r.qp_s = now() - t0;
	r.mr = raw_res_count("mr");
	r.qp = raw_res_count("qp");
	r.pin_kb = raw_vm_pin_kb();
	if (write(out, &r, sizeof(r)) != sizeof(r) || read(go, &c, 1) != 1)
		_exit(31);
	_exit(0);
}

TEST_F_TIMEOUT(stress, ten_thousand_mrs_and_a_thousand_qps, 500)
{
	const int nmr = 10000, nqp = 1000;
	struct many_report r;
	struct census before;
	int out[2], go[2], status;
	double t0;
	pid_t pid;

	if (!device_present())
		SKIP(return, "no RDMA device");
	take_census(&before);
	ASSERT_EQ(0, pipe(out));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		many_child(nmr, nqp, out[1], go[0]);
	ASSERT_EQ(sizeof(r), read(out[0], &r, sizeof(r)));
	EXPECT_EQ(-1, r.failed_at);
	EXPECT_EQ(before.res[2] + nmr, r.mr);
	EXPECT_EQ(before.qp + nqp, r.qp);
	EXPECT_EQ(nmr * 4, r.pin_kb);
	TH_LOG("%d MRs in %.1f s, %d QPs in %.1f s", nmr, r.mr_s, nqp, r.qp_s);
	t0 = now();
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	TH_LOG("process exit with all of it alive: %.1f s", now() - t0);
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_CENSUS(&before);
}

/* ------------------------------------------------------- module unload */

static int sh(const char *cmd)
{
	int status = system(cmd);

	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * Modules holding ib_uverbs other than rdma_rxe; our own test module
 * (uverbs_odp's) is unloaded on the way.  Returns how many are left.
 */
static int other_holders(char *names, size_t len)
{
	FILE *p = popen("ls /sys/module/ib_uverbs/holders 2>/dev/null", "r");
	char line[128];
	int n = 0;

	names[0] = 0;
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "rdma_rxe"))
			continue;
		if (!strcmp(line, "odp_umem_test") && !sh("rmmod odp_umem_test"))
			continue;
		snprintf(names + strlen(names), len - strlen(names), " %s",
			 line);
		n++;
	}
	pclose(p);
	return n;
}

/* Loads ib_uverbs (if gone) and rdma_rxe again, and re-creates rxe0. */
static int restore_stack(const char *stack, const char *module,
			 const char *netdev)
{
	char cmd[512];
	int ret = 0, i;

	if (access("/sys/module/ib_uverbs", F_OK)) {
		if (!strcmp(stack, "ours"))
			snprintf(cmd, sizeof(cmd), "insmod %s", module);
		else
			snprintf(cmd, sizeof(cmd), "modprobe ib_uverbs");
		ret |= sh(cmd);
	}
	ret |= sh("modprobe rdma_rxe");
	snprintf(cmd, sizeof(cmd),
		 "rdma link show rxe0/1 >/dev/null 2>&1 || rdma link add rxe0 type rxe netdev %s",
		 netdev);
	ret |= sh(cmd);
	/* No udev: the node comes from devtmpfs; give it a moment. */
	for (i = 0; i < 50 && !device_present(); i++)
		usleep(100000);
	return ret || !device_present();
}

/*
 * Last: with every file closed, rdma_rxe and ib_uverbs unload (nothing
 * leaked holds them), and load again with rxe0 back for what follows,
 * whatever the outcome.
 */
TEST_F_TIMEOUT(stress, module_unloads_and_reloads, 120)
{
	const char *stack = getenv("OVB_UVERBS");
	const char *module = getenv("OVB_MODULE");
	char netdev[64] = "", holders[256];
	int refcnt, unloaded, gone;
	FILE *p;

	if (!device_present())
		SKIP(return, "no RDMA device");
	if (!stack || (strcmp(stack, "intree") &&
		       !(module && !strcmp(stack, "ours"))))
		SKIP(return, "not in the QEMU guest (OVB_UVERBS, OVB_MODULE)");
	if (other_holders(holders, sizeof(holders)))
		SKIP(return, "other modules use ib_uverbs:%s", holders);
	p = popen("rdma link show rxe0/1 | sed -n 's/.* netdev \\([^ ]*\\).*/\\1/p'",
		  "r");
	ASSERT_NE(NULL, p);
	if (!fgets(netdev, sizeof(netdev), p))
		netdev[0] = 0;
	pclose(p);
	netdev[strcspn(netdev, "\n")] = 0;
	ASSERT_NE(0, netdev[0]);

	EXPECT_EQ(0, sh("rdma link delete rxe0"));
	EXPECT_EQ(0, sh("rmmod rdma_rxe"));
	refcnt = module_refcnt();
	unloaded = sh("rmmod ib_uverbs");
	gone = access("/sys/module/ib_uverbs", F_OK) != 0;
	ASSERT_EQ(0, restore_stack(stack, module, netdev));
	EXPECT_EQ(0, refcnt);
	EXPECT_EQ(0, unloaded);
	EXPECT_TRUE(gone);
}

TEST_HARNESS_MAIN
