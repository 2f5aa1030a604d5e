// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbs_fuzz [--seed N] [--count M] [--seconds S] [--trace] [--steer]
 *             [--dump N] [--ioctl PERCENT] [--device PATH]
 *             [--threads N] [--procs N]
 *
 * Sends a seeded stream of random and mutated write() commands and
 * RDMA_VERBS_IOCTL calls (PERCENT of them, default 30; ioctl.c), plus
 * object sequences (create, use, destroy; handle reuse, forged handles,
 * bad lengths, bad pointers), to two files of /dev/infiniband/uverbs0,
 * with file close/reopen, event reads, mmaps and forks mixed in.  Stops
 * after M commands or S seconds (default 20 s), whichever comes first.
 * The same seed and count replay the same stream.  --trace prints every
 * command and its result; --steer steers around the in-tree stack's known
 * bugs (quirks.c) on our stack too, so that the traces and the digest of
 * one seed can be compared between the two stacks; --dump N prints the
 * bytes of command N as written.
 *
 * --threads N / --procs N: the concurrent mode instead (threads.c), N
 * threads and N short-lived processes on the same files; no digest there,
 * only invariants.  Without --count, --seconds, --threads and --procs (the
 * suite's run): 20 s single-threaded, then 20 s with 4 threads + 2 procs.
 *
 * TAP output; it fails when a write() returns a kernel-internal errno
 * (>= 512) or a short count, or when the objects or pinned pages are not
 * all gone once every file is closed.  The kernel log is the harness's
 * business (qemu/run fails the run on any splat).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../uverbs_raw.h"

#include "fuzz.h"

#define RND(n)		prng_below(&fz->rng, (n))
#define ONE_IN(n)	prng_one_in(&fz->rng, (n))

static const char *device = "/dev/infiniband/uverbs0";
static const char *const res_types[] = { "pd", "cq", "qp", "mr", "srq" };
#define NRES (sizeof(res_types) / sizeof(res_types[0]))

static __thread uint64_t last_mmap_offset;

static void digest(struct fz *fz, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++) {
		fz->digest ^= (v >> (8 * i)) & 0xff;
		fz->digest *= 0x100000001b3ull;
	}
}

static void close_pool_fds(struct fz_pool *p)
{
	int i;

	for (i = 0; i < p->nlive; i++)
		if (p->live[i] > 2)
			close((int)p->live[i]);
	p->nlive = 0;
}

/*
 * Opens @f afresh (empty pools).  Threads may cycle one file at once
 * (threads.c): the bookkeeping changes under fz_lock(), and of two
 * reopens of one closed file the first wins, the other closes its fd.
 */
int fz_file_open(struct fz_file *f)
{
	int fd = open(device, O_RDWR | O_CLOEXEC), err = errno;

	fz_lock();
	if (f->fd >= 0) {
		fz_unlock();
		if (fd >= 0)
			close(fd);
		return 0;
	}
	memset(f, 0, sizeof(*f));
	f->async_fd = -1;
	f->fd = fd;
	fz_unlock();
	return fd < 0 ? -err : 0;
}

/*
 * Close with everything alive; channels before or after the file.  The
 * fds are taken out of @f first, so that only one thread closes them;
 * others may still be using the numbers: that is the race wanted.
 */
void fz_file_close(struct fz *fz, struct fz_file *f)
{
	int channels_first = ONE_IN(2), fd, async_fd;
	struct fz_pool channels;

	fz_lock();
	channels = f->pool[FZ_CHANNEL];
	f->pool[FZ_CHANNEL].nlive = 0;
	fd = f->fd;
	async_fd = f->async_fd;
	f->fd = -1;
	f->async_fd = -1;
	fz_unlock();
	if (channels_first)
		close_pool_fds(&channels);
	if (fd > 2)	/* never 0-2, whatever a race left in @f */
		close(fd);
	if (async_fd > 2)
		close(async_fd);
	if (!channels_first)
		close_pool_fds(&channels);
}

static const struct fz_cmd *pick_cmd(struct fz *fz, struct fz_file *f)
{
	static unsigned int total;
	unsigned int r, sum = 0;
	size_t i;

	if (!f->has_ctx && !ONE_IN(10))
		return &fz_cmds[0];	/* GET_CONTEXT */
	if (!total) {	/* threads may get here at once */
		for (i = 0; i < fz_ncmds; i++)
			sum += fz_cmds[i].weight;
		total = sum;
	}
	r = RND(total);
	for (i = 0; r >= fz_cmds[i].weight; i++)
		r -= fz_cmds[i].weight;
	return &fz_cmds[i];
}

/* The table entry for a (maybe mutated) header command word. */
static const struct fz_cmd *find_cmd(uint32_t command)
{
	int ex = !!(command & IB_USER_VERBS_CMD_FLAG_EXTENDED);
	size_t i;

	if (command & ~(IB_USER_VERBS_CMD_FLAG_EXTENDED | 0xffu))
		return NULL;
	for (i = 0; i < fz_ncmds; i++)
		if (fz_cmds[i].ex == ex && fz_cmds[i].cmd == (command & 0xff))
			return &fz_cmds[i];
	return NULL;
}

static void build(struct fz *fz, struct fz_file *f, const struct fz_cmd *c,
		  struct fz_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->cmd = c;
	m->command = c->cmd | (c->ex ? IB_USER_VERBS_CMD_FLAG_EXTENDED : 0);
	m->ex = c->ex;
	m->req_len = c->req_size;
	m->resp_len = c->resp_size;
	m->drv_out_len = c->drv_out;
	m->has_resp_ptr = !c->ex && c->resp_size;
	m->response = (uintptr_t)fz->arena.resp;
	c->build(fz, f, m);
	if (m->ex && !m->resp_len && !m->drv_out_len)
		m->response = 0;
}

/* The bytes of one command as written, for --dump. */
static void dump(const char *at, size_t count, const struct fz_msg *m)
{
	size_t i;

	printf("# %s: command %#x, %zu bytes written%s:", m->cmd->name,
	       m->command, count, m->bad_buf ? " (from a bad address)" : "");
	for (i = 0; i < count && !m->bad_buf; i++)
		printf("%s%02x", i % 32 ? (i % 4 ? "" : " ") : "\n#  ",
		       (unsigned char)at[i]);
	printf("\n");
}

/*
 * Lays the message out in the arena and writes it.  Returns write()'s
 * result or -errno; *@resp_at is where the response went.
 */
static ssize_t submit(struct fz *fz, struct fz_file *f, struct fz_msg *m,
		      size_t *count_out, uint64_t *resp_at)
{
	struct fz_arena *a = &fz->arena;
	size_t hdr = sizeof(struct ib_uverbs_cmd_hdr) +
		     (m->ex ? sizeof(struct ib_uverbs_ex_cmd_hdr) : 0);
	size_t body = m->req_len + m->drv_in_len, room, total = hdr + body;
	size_t resp_room = m->resp_len + m->drv_out_len;
	struct ib_uverbs_cmd_hdr h = { .command = m->command };
	struct ib_uverbs_ex_cmd_hdr ex = {};
	char *at;
	ssize_t ret, count;

	if (total > ARENA_REQ_SPAN || resp_room > ARENA_RESP_SPAN)
		return -E2BIG;	/* never sent */
	if (m->resp_near_guard)
		m->response = (uintptr_t)a->resp + ARENA_RESP_SPAN - resp_room +
			      8 * RND(2);
	memset(a->resp, 0, ARENA_RESP_SPAN);
	if (m->ex) {
		h.in_words = m->req_len / 8 + m->in_words_delta;
		h.out_words = m->resp_len / 8 + m->out_words_delta;
		ex.response = m->response;
		ex.provider_in_words = m->drv_in_len / 8;
		ex.provider_out_words = m->drv_out_len / 8;
		ex.cmd_hdr_reserved = m->ex_reserved;
	} else {
		h.in_words = total / 4 + m->in_words_delta;
		h.out_words = resp_room / 4 + m->out_words_delta;
		if (m->has_resp_ptr && m->req_len >= 8)
			memcpy(m->req, &m->response, 8);
	}
	*resp_at = m->ex ? m->response : 0;
	if (!m->ex && m->req_len >= 8)
		memcpy(resp_at, m->req, 8);

	at = a->req;
	if (m->req_near_guard)
		at = a->guard - total;
	memcpy(at, &h, sizeof(h));
	if (m->ex)
		memcpy(at + sizeof(h), &ex, sizeof(ex));
	memcpy(at + hdr, m->req, body);

	count = (ssize_t)total + m->count_delta;
	room = a->guard + 4096 - at;	/* one byte into the guard at most */
	if (count < 0)
		count = 0;
	if ((size_t)count > room)
		count = room;
	*count_out = count;
	if (m->bad_buf)
		at = (char *)(uintptr_t)arena_bad_ptr(fz);
	if (fz->dump)
		dump(at, count, m);
	ret = write(f->fd, at, count);
	return ret < 0 ? -errno : ret;
}

/* Keeps the pools true after a command that worked. */
static void account(struct fz *fz, struct fz_file *f, const struct fz_msg *m,
		    uint64_t resp_at)
{
	const struct fz_cmd *c = find_cmd(m->command);
	const char *resp = (const char *)(uintptr_t)resp_at;
	struct fz_arena *a = &fz->arena;
	int in_arena = resp_at >= (uintptr_t)a->resp &&
		       resp_at + 8 <= (uintptr_t)a->resp + ARENA_RESP_SPAN;
	uint32_t h;
	int old;

	if (!c)
		return;
	fz->st.per_cmd_ok[c - fz_cmds]++;
	if (c == &fz_cmds[0] && in_arena) {	/* GET_CONTEXT */
		struct ib_uverbs_get_context_resp r;

		memcpy(&r, resp, sizeof(r) <= 8 ? sizeof(r) : 8);
		fz_lock();
		old = f->async_fd;
		f->async_fd = (int)r.async_fd;
		f->has_ctx = 1;
		fz_unlock();
		if (old > 2)
			close(old);
		return;
	}
	if (c->creates != FZ_NOBJ && in_arena &&
	    resp_at + c->resp_handle_off + 4 <=
	    (uintptr_t)a->resp + ARENA_RESP_SPAN) {
		memcpy(&h, resp + c->resp_handle_off, 4);
		if (c->creates == FZ_CHANNEL &&
		    f->pool[FZ_CHANNEL].nlive == FZ_POOL_MAX) {
			close((int)h);
			return;
		}
		pool_add(&f->pool[c->creates], h);
		/* rxe's queues: the mmap offset follows the core response. */
		if (c->drv_out && m->drv_out_len >= 8 && c->resp_size &&
		    resp_at + c->resp_size + 8 <=
		    (uintptr_t)a->resp + ARENA_RESP_SPAN)
			memcpy(&last_mmap_offset, resp + c->resp_size, 8);
	}
	if (c->destroys != FZ_NOBJ && m->req_len >= c->req_handle_off + 4) {
		memcpy(&h, m->req + c->req_handle_off, 4);
		pool_remove(&f->pool[c->destroys], h);
	}
}

/*
 * Counts @err.  The concurrent mode's first errno outside its classes is
 * told with what the fd number was just after (a number reused by some
 * other file answers with that file's errnos).
 */
static void count_errno(struct fz *fz, uint64_t n, const struct fz_file *f,
			const char *how, const char *what, int err)
{
	static int told;
	char path[64], target[256] = "?";
	ssize_t len;
	int fd = f->fd;

	if (err < (int)(sizeof(fz->st.errnos) / sizeof(fz->st.errnos[0])))
		fz->st.errnos[err]++;
	else
		fz->st.errno_other++;
	if (!fz->concurrent || fz_errno_expected(err) ||
	    __atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	len = readlink(path, target, sizeof(target) - 1);
	target[len > 0 ? len : 1] = 0;
	printf("# %" PRIu64 " %s %s on fd %d (now %s): %s\n", n, how, what,
	       fd, target, strerrorname_np(err) ?: "?");
}

/* One ioctl call; 0, or -1 when the kernel answered what it never may. */
static int one_ioctl(struct fz *fz, struct fz_file *f, uint64_t n)
{
	int mutated = ONE_IN(3), ret;
	unsigned int id;

	ret = fz_ioctl(fz, f, mutated, &id);
	fz->st.commands++;
	fz->st.ioctls++;
	if (mutated)
		fz->st.mutated++;
	digest(fz, ((uint64_t)(0x80 + id) << 40) |
		   ((uint64_t)mutated << 32) | (uint32_t)ret);
	if (fz->trace)
		printf("# %" PRIu64 " file%d ioctl %s%s -> %d\n", n,
		       (int)(f - fz->files), fz_ioctl_method_name(id),
		       mutated ? " (mutated)" : "", ret);
	if (!ret) {
		fz->st.ok++;
		fz->st.per_ioctl_ok[id]++;
		return 0;
	}
	if (ret > 0) {
		printf("# %" PRIu64 " ioctl %s returned %d (only 0 or -1 may come back)\n",
		       n, fz_ioctl_method_name(id), ret);
		return -1;
	}
	if (-ret >= 512) {
		printf("# %" PRIu64 " ioctl %s: kernel-internal errno %d reached user space\n",
		       n, fz_ioctl_method_name(id), -ret);
		return -1;
	}
	count_errno(fz, n, f, "ioctl", fz_ioctl_method_name(id), -ret);
	return 0;
}

static int one_command(struct fz *fz, uint64_t n)
{
	struct fz_file *f = &fz->files[RND(FZ_NFILES)];
	const struct fz_cmd *c;
	static __thread struct fz_msg m;
	uint64_t resp_at = 0;
	size_t count = 0;
	ssize_t ret;
	int mutated;

	if (fz->ioctl_share && RND(100) < fz->ioctl_share)
		return one_ioctl(fz, f, n);
	c = pick_cmd(fz, f);
	mutated = ONE_IN(4);
	build(fz, f, c, &m);
	if (mutated) {
		fz_mutate(fz, &m);
		fz->st.mutated++;
	}
	if (fz->intree)
		fz_steer_intree(&m);
	if (fz->lockdep || fz->kmemleak)
		fz_steer_debug_kernel(fz, &m);
	if (fz->concurrent)
		fz_steer_concurrent(&m);
	fz->dump = fz->dump_at == n + 1;
	ret = submit(fz, f, &m, &count, &resp_at);
	fz->st.commands++;
	if (m.walk && !mutated)
		fz_qp_walk_done(m.walk, ret >= 0);
	digest(fz, ((uint64_t)(c - fz_cmds) << 40) |
		   ((uint64_t)mutated << 32) | (uint32_t)ret);
	if (fz->trace)
		printf("# %" PRIu64 " file%d %s%s -> %zd\n", n,
		       (int)(f - fz->files), c->name, mutated ? " (mutated)" : "",
		       ret);
	if (ret >= 0 && (size_t)ret != count) {
		printf("# %" PRIu64 " %s: write() returned %zd for %zu bytes\n",
		       n, c->name, ret, count);
		return -1;
	}
	if (ret >= 0) {
		fz->st.ok++;
		account(fz, f, &m, resp_at);
		return 0;
	}
	if (-ret >= 512) {
		printf("# %" PRIu64 " %s: kernel-internal errno %zd reached user space\n",
		       n, c->name, -ret);
		return -1;
	}
	count_errno(fz, n, f, "write", c->name, (int)-ret);
	return 0;
}

/* Reads (nonblocking) from an event file: small, bad and good buffers. */
static void op_read_events(struct fz *fz, struct fz_file *f)
{
	uint32_t h;
	int fd = f->async_fd;
	char *buf = fz->arena.resp;
	size_t len = ONE_IN(3) ? RND(64) : 256;

	if (!pool_pick(fz, f, FZ_CHANNEL, &h) && ONE_IN(2))
		fd = (int)h;
	if (fd < 0)
		return;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	if (ONE_IN(4))
		buf = (char *)(uintptr_t)arena_bad_ptr(fz);
	if (read(fd, buf, len) < 0 && errno >= 512)
		printf("# read: kernel-internal errno %d\n", errno);
}

/* Maps a queue (or any offset) of the file and unmaps it at once. */
static void op_mmap(struct fz *fz, struct fz_file *f)
{
	uint64_t off = ONE_IN(2) ? last_mmap_offset :
		       (uint64_t)RND(64) << 12;
	size_t len = 4096ul << RND(5);
	int prot = ONE_IN(4) ? PROT_READ : PROT_READ | PROT_WRITE;
	volatile char *p = mmap(NULL, len, prot, MAP_SHARED, f->fd, off);

	if (p == MAP_FAILED)
		return;
	(void)p[0];
	munmap((void *)p, len);
}

void fz_cycle_file(struct fz *fz, struct fz_file *f)
{
	fz_file_close(fz, f);
	if (fz_file_open(f))
		printf("# reopen: %s\n", strerror(errno));
	fz->st.file_cycles++;
}

/* A child runs a few commands on the shared files, then exits. */
static void op_fork(struct fz *fz, struct fz_file *f)
{
	uint64_t i;
	pid_t pid = fork();

	if (pid == 0) {
		for (i = 0; i < 20; i++)
			one_command(fz, i);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	/* The child moved the same streams: skip ahead alike. */
	prng_next(&fz->rng);
}

static void other_op(struct fz *fz)
{
	struct fz_file *f = &fz->files[RND(FZ_NFILES)];
	uint32_t r = RND(100), h;

	fz->st.other_ops++;
	if (r < 40)
		op_read_events(fz, f);
	else if (r < 70)
		op_mmap(fz, f);
	else if (r < 85 && !pool_take(fz, f, FZ_CHANNEL, &h)) {
		if (h > 2)
			close((int)h);
	} else if (r < 97)
		fz_cycle_file(fz, f);
	else
		op_fork(fz, f);
}

/* One step of the loop: now and then another operation, then a command. */
int fz_step(struct fz *fz, uint64_t n)
{
	if (ONE_IN(200))
		other_op(fz);
	return one_command(fz, n);
}

double fz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_gid0(uint8_t gid[16])
{
	char path[160], name[64] = "", text[64];
	unsigned int w[8];
	FILE *f = fopen("/sys/class/infiniband_verbs/uverbs0/ibdev", "r");
	int i, ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%63s", name) == 1;
	fclose(f);
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/gids/0",
		 name);
	f = ok ? fopen(path, "r") : NULL;
	if (!f)
		return -1;
	ok = fscanf(f, "%63s", text) == 1;
	fclose(f);
	if (!ok || sscanf(text, "%x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1], &w[2],
			  &w[3], &w[4], &w[5], &w[6], &w[7]) != 8)
		return -1;
	for (i = 0; i < 8; i++) {
		gid[2 * i] = w[i] >> 8;
		gid[2 * i + 1] = w[i] & 0xff;
	}
	return 0;
}

static int open_files(struct fz *fz)
{
	int i;

	for (i = 0; i < FZ_NFILES; i++) {
		fz->files[i].fd = -1;
		if (fz_file_open(&fz->files[i])) {
			printf("Bail out! open %s: %s\n", device,
			       strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void print_stats(const struct fz_stats *st)
{
	int i;

	printf("# errnos:");
	for (i = 0; i < 160; i++)
		if (st->errnos[i])
			printf(" %s=%" PRIu64, strerrorname_np(i) ?: "?",
			       st->errnos[i]);
	printf("\n# succeeded per command:");
	for (i = 0; i < (int)fz_ncmds; i++)
		if (st->per_cmd_ok[i])
			printf(" %s=%" PRIu64, fz_cmds[i].name,
			       st->per_cmd_ok[i]);
	printf("\n# ioctl calls %" PRIu64 ", succeeded per method:", st->ioctls);
	for (i = 0; i < (int)fz_ioctl_nmethods(); i++)
		if (st->per_ioctl_ok[i])
			printf(" %s=%" PRIu64, fz_ioctl_method_name(i),
			       st->per_ioctl_ok[i]);
	printf("\n");
}

/* ib_uverbs's module reference count, -1 if unknown. */
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

/* Whether every resource count and the module's refcnt are back at @base. */
static int objects_back(const int *base, int refcnt)
{
	int i;

	for (i = 0; i < (int)NRES; i++)
		if (raw_res_count(res_types[i]) != base[i])
			return 0;
	return refcnt == -1 || module_refcnt() == refcnt;
}

/*
 * The end checks, test points @test and @test + 1: every object gone (and,
 * when @refcnt is not -1, the module's references back to it), no pinned
 * memory.  Returns how many failed.
 */
static int end_checks(const int *base, int refcnt, int test, const char *what)
{
	int i, after, leaks = 0, waited = 0;
	long pin;

	/*
	 * Files whose last reference went from a kernel context (fds in
	 * flight over a closed socket, a process's exit) are released by a
	 * worker a moment later: wait up to 10 s for the counts, and say so.
	 */
	while (!objects_back(base, refcnt) && waited < 100) {
		usleep(100 * 1000);
		waited++;
	}
	if (waited)
		printf("# the counts %s after %.1f s\n",
		       waited < 100 ? "settled" : "did not settle",
		       waited / 10.0);
	for (i = 0; i < (int)NRES; i++) {
		after = raw_res_count(res_types[i]);
		if (after != base[i]) {
			printf("# %s: %d before, %d after closing every file\n",
			       res_types[i], base[i], after);
			leaks++;
		}
	}
	if (refcnt != -1 && module_refcnt() != refcnt) {
		printf("# ib_uverbs refcnt %d before, %d after\n", refcnt,
		       module_refcnt());
		leaks++;
	}
	printf("%sok %d every object is gone once the files are closed%s\n",
	       leaks ? "not " : "", test, what);
	pin = raw_vm_pin_kb();
	if (pin)
		printf("# VmPin %ld kB after closing every file\n", pin);
	printf("%sok %d no pinned memory left%s\n", pin ? "not " : "",
	       test + 1, what);
	return !!leaks + !!pin;
}

/*
 * The concurrent phase (threads.c), test points @test to @test + 3.
 * Returns how many failed.
 */
static int run_concurrent(struct fz *fz, struct fz_conc *c, const int *base,
			  int refcnt, int test)
{
	int bad, lost, fails = 0, i;
	double start = fz_now(), took;

	if (open_files(fz))
		exit(1);
	memset(&fz->st, 0, sizeof(fz->st));
	fz_concurrent(fz, c);
	took = fz_now() - start;
	if (c->hung) {
		/* a thread stuck in the kernel: nothing after this is sound */
		printf("not ok %d every thread and process finishes (concurrent)\n",
		       test + 1);
		printf("Bail out! a thread or process hung (its kernel stack is above)\n");
		fflush(stdout);
		_exit(1);
	}
	for (i = 0; i < FZ_NFILES; i++)
		fz_file_close(fz, &fz->files[i]);
	lost = fz_close_lost_fds();
	printf("# concurrent, seed %" PRIu64 ": %u threads + %u processes (%"
	       PRIu64 " forked, %" PRIu64 " fd passings): %" PRIu64
	       " commands (%" PRIu64 " succeeded, %" PRIu64 " mutated), %"
	       PRIu64 " other operations, %" PRIu64
	       " file cycles in %.1f s: %.0f commands/s\n", c->seed, c->threads,
	       c->procs, c->proc_runs, c->fds_passed, fz->st.commands,
	       fz->st.ok, fz->st.mutated, fz->st.other_ops,
	       fz->st.file_cycles, took, fz->st.commands / took);
	printf("# commands by the threads %" PRIu64 ", by the processes %"
	       PRIu64 "\n", c->thread_cmds, c->proc_cmds);
	if (lost)
		printf("# %d fds lost by the bookkeeping's races closed at the end\n",
		       lost);
	print_stats(&fz->st);
	bad = fz_unexpected_errnos(&fz->st);
	printf("%sok %d no kernel-internal or unexpected errno, short write or crash (concurrent)\n",
	       c->fails || bad ? "not " : "", test);
	fails += c->fails || bad;
	printf("ok %d every thread and process finishes (concurrent)\n",
	       test + 1);
	return fails + end_checks(base, refcnt, test + 2, " (concurrent)");
}

static void usage(void)
{
	fprintf(stderr, "usage: uverbs_fuzz [--seed N] [--count M] [--seconds S] [--trace] [--steer] [--dump N] [--ioctl PERCENT] [--device PATH] [--threads N] [--procs N]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static struct fz_file files[FZ_NFILES];
	static struct fz fzs;
	struct fz *fz = &fzs;
	struct fz_conc conc = {};
	uint64_t seed = 0, count = 0, n;
	double seconds = 0, start, end;
	int base[NRES], i, fails = 0, steer = 0, single, failed, refcnt;

	fz->files = files;
	fz->ioctl_share = 30;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--count") && i + 1 < argc)
			count = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--device") && i + 1 < argc)
			device = argv[++i];
		else if (!strcmp(argv[i], "--trace"))
			fz->trace = 1;
		else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
			fz->dump_at = strtoull(argv[++i], NULL, 0) + 1;
		else if (!strcmp(argv[i], "--steer"))
			steer = 1;
		else if (!strcmp(argv[i], "--ioctl") && i + 1 < argc)
			fz->ioctl_share = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			conc.threads = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--procs") && i + 1 < argc)
			conc.procs = strtoul(argv[++i], NULL, 0);
		else
			usage();
	}
	if (!seed) {
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		if (!seed)
			seed = 1;
	}
	/*
	 * Without --threads/--procs: the single-threaded stream; without a
	 * length either (the suite's run): 20 s of it, then 20 s of 4 threads
	 * and 2 processes.
	 */
	single = !conc.threads && !conc.procs;
	if (!count && !seconds) {
		seconds = 20;
		if (single) {
			conc.threads = 4;
			conc.procs = 2;
		}
	}
	if (fz->ioctl_share > 100 || conc.threads > 16 || conc.procs > 16)
		usage();
	conc.seconds = seconds;
	conc.count = count;
	conc.seed = seed;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (access(device, F_OK)) {
		printf("1..0 # SKIP %s missing: no RDMA device\n", device);
		return 4;
	}
	printf("1..%d\n", (single ? 3 : 0) + (conc.threads || conc.procs ? 4 : 0));
	printf("# seed %" PRIu64 " (replay: uverbs_fuzz --seed %" PRIu64
	       " --count N)\n", seed, seed);
	prng_seed(&fz->rng, seed);
	fz->intree = steer || fz_stack_is_intree();
	printf("# stack: %s ib_uverbs%s\n",
	       fz_stack_is_intree() ? "in-tree" : "openverbs",
	       fz->intree ? " (steering around known upstream bugs)" : "");
	fz->lockdep = fz_kernel_has_lockdep();
	fz->kmemleak = fz_kernel_has_kmemleak();
	if (fz->lockdep || fz->kmemleak)
		printf("# debug kernel:%s%s keep a writable response (rdma_rxe bugs, quirks.c)\n",
		       fz->lockdep ? " RC QP creates" : "",
		       fz->kmemleak ? " CQ creates" : "");
	if (arena_init(&fz->arena, 0) || read_gid0(fz->gid)) {
		printf("Bail out! arena or GID setup failed: %s\n",
		       strerror(errno));
		return 1;
	}
	for (i = 0; i < (int)NRES; i++)
		base[i] = raw_res_count(res_types[i]);
	refcnt = module_refcnt();
	if (!single)
		return run_concurrent(fz, &conc, base, refcnt, 1) ? 1 : 0;
	if (open_files(fz))
		return 1;

	start = fz_now();
	end = seconds ? start + seconds : 0;
	for (n = 0; !count || n < count; n++) {
		if (end && !(n & 63) && fz_now() >= end)
			break;
		if (fz_step(fz, n))
			fails++;
		if (n && !(n % 20000))
			printf("# %" PRIu64 " commands, %.0f s\n", n,
			       fz_now() - start);
	}
	for (i = 0; i < FZ_NFILES; i++)
		fz_file_close(fz, &fz->files[i]);

	printf("# seed %" PRIu64 ": %" PRIu64 " commands (%" PRIu64
	       " succeeded, %" PRIu64 " mutated), %" PRIu64
	       " other operations, %" PRIu64 " file cycles in %.1f s; digest %016"
	       PRIx64 "\n", seed, fz->st.commands, fz->st.ok, fz->st.mutated,
	       fz->st.other_ops, fz->st.file_cycles, fz_now() - start, fz->digest);
	print_stats(&fz->st);
	printf("%sok 1 no kernel-internal errno or short write\n",
	       fails ? "not " : "");

	failed = fails + end_checks(base, -1, 2, "");
	if (conc.threads || conc.procs)
		failed += run_concurrent(fz, &conc, base, refcnt, 4);
	return failed ? 1 : 0;
}
