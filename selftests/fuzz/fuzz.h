/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * uverbs_fuzz: a seeded generator of write() and ioctl() commands for
 * /dev/infiniband/uverbsN.  Shared types of its files:
 *   main.c    options, the run loop, the end-of-run leak checks
 *   cmds.c    the command table: one builder per command
 *   mutate.c  what is done to a well-formed command to break it
 *   pool.c    the objects each file holds, handles picked for requests
 *   arena.c   the memory requests, responses and MRs point into
 *   ioctl.c   the RDMA_VERBS_IOCTL calls: a method table, their mutations
 *   quirks.c  upstream bugs the fuzzer steers around on the in-tree stack
 *   threads.c the concurrent mode: threads and processes on shared files
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>

#include "prng.h"

/* The objects a uverbs file can hold, as the fuzzer tracks them. */
enum fz_obj {
	FZ_PD, FZ_MR, FZ_MW, FZ_AH, FZ_CQ, FZ_QP, FZ_SRQ, FZ_XRCD, FZ_WQ,
	FZ_IND_TBL, FZ_FLOW, FZ_CHANNEL, FZ_NOBJ
};

#define FZ_NFILES	2	/* uverbs files open at once */
#define FZ_POOL_MAX	24	/* live objects of one type in one file */
#define FZ_STALE_MAX	16	/* handles remembered after their destroy */
#define FZ_REQ_MAX	2048	/* request bytes (core + driver) */
#define FZ_RESP_MAX	1024	/* response room the fuzzer offers */

struct fz_pool {
	uint32_t live[FZ_POOL_MAX];
	int nlive;
	uint32_t stale[FZ_STALE_MAX];
	int nstale;
};

struct fz_file {
	int fd;
	int async_fd;
	int has_ctx;
	struct fz_pool pool[FZ_NOBJ];
};

/* Memory the kernel may read and write without touching fuzzer state. */
struct fz_arena {
	char *base;
	size_t size;
	char *mr;		/* what MRs register (writable, FZ_MR_SPAN) */
	char *resp;		/* response room */
	char *req;		/* requests, the end adjoining @guard */
	char *guard;		/* PROT_NONE page */
	char *ro;		/* read-only page */
};

/* One command as built, before it is laid out for write(). */
struct fz_msg {
	const struct fz_cmd *cmd;
	uint32_t command;	/* header command word, flags included */
	int ex;			/* extended header */
	size_t req_len;		/* core request bytes */
	size_t drv_in_len;	/* driver request bytes after them */
	size_t resp_len;	/* core response room */
	size_t drv_out_len;	/* driver response room */
	uint64_t response;	/* response address */
	int has_resp_ptr;	/* legacy: request starts with the address */
	uint8_t req[FZ_REQ_MAX];
	/* mutations that break the header rather than the request */
	int32_t in_words_delta, out_words_delta;
	int32_t count_delta;	/* bytes written vs. bytes described */
	uint32_t ex_reserved;	/* ex header's cmd_hdr_reserved */
	int bad_buf;		/* write() from an unreadable address */
	int req_near_guard;	/* the request ends at the guard page */
	int resp_near_guard;	/* response room ends at the guard page */
	struct fz_qp_walk *walk;	/* a MODIFY_QP step of this walk */
};

/*
 * Where one QP is on its way RESET -> INIT -> RTR -> RTS, so that some
 * QPs get to where POST_SEND does real work; advanced by results.
 */
struct fz_qp_walk {
	int file;
	uint32_t handle;
	uint8_t next;		/* 0 RESET, 1 INIT, 2 RTR, 3 RTS */
	uint8_t ud;		/* use UD's masks rather than RC's */
	uint8_t rts;		/* the last step, to RTS, worked */
};

#define FZ_QP_WALKS	32

struct fz;
typedef void (*fz_build_fn)(struct fz *fz, struct fz_file *f,
			    struct fz_msg *m);

struct fz_cmd {
	const char *name;
	uint32_t cmd;		/* without the extended flag */
	int ex;
	size_t req_size;	/* core request struct */
	size_t resp_size;	/* core response struct (0: none) */
	size_t drv_out;		/* driver response room to offer */
	enum fz_obj creates;	/* FZ_NOBJ: none */
	size_t resp_handle_off;	/* where the new handle is in the response */
	enum fz_obj destroys;	/* FZ_NOBJ: none */
	size_t req_handle_off;	/* where the destroyed handle is */
	unsigned int weight;
	fz_build_fn build;
};

extern const struct fz_cmd fz_cmds[];
extern const size_t fz_ncmds;

struct fz_stats {
	uint64_t commands, ok, mutated, file_cycles, other_ops;
	uint64_t errnos[160];
	uint64_t per_cmd_ok[64];
	uint64_t ioctls, per_ioctl_ok[32];
	uint64_t errno_other;	/* errnos beyond errnos[] (none >= 512) */
};

struct fz {
	struct prng rng;
	struct fz_file *files;	/* FZ_NFILES, shared by the threads */
	struct fz_arena arena;
	struct fz_stats st;
	uint8_t gid[16];	/* GID 0 of port 1: a resolvable AH target */
	struct fz_qp_walk walks[FZ_QP_WALKS];
	unsigned int next_walk;
	uint64_t digest;	/* FNV-1a of every (command, result) */
	int trace;
	int dump;		/* print this command's bytes */
	uint64_t dump_at;	/* --dump N: N + 1, 0 for none */
	int intree;		/* the distro's ib_uverbs: steer (quirks.c) */
	unsigned int ioctl_share;	/* percent of commands sent by ioctl */
	int lockdep;		/* a lockdep kernel: steer (quirks.c) */
	int kmemleak;		/* a kmemleak kernel: steer (quirks.c) */
	int concurrent;		/* threads.c: steer (quirks.c) */
};

/* main.c: what the concurrent mode runs */
int fz_step(struct fz *fz, uint64_t n);
int fz_file_open(struct fz_file *f);
void fz_file_close(struct fz *fz, struct fz_file *f);
void fz_cycle_file(struct fz *fz, struct fz_file *f);
double fz_now(void);

/* pool.c */
void fz_set_shared(int shared);
void fz_lock(void);
void fz_unlock(void);
void pool_add(struct fz_pool *p, uint32_t h);
void pool_remove(struct fz_pool *p, uint32_t h);
int pool_pick(struct fz *fz, struct fz_file *f, enum fz_obj t, uint32_t *h);
int pool_take(struct fz *fz, struct fz_file *f, enum fz_obj t, uint32_t *h);
uint32_t fz_handle(struct fz *fz, struct fz_file *f, enum fz_obj t);
int fz_channel_fd(struct fz *fz, struct fz_file *f);

/* arena.c: slot 0 for the single-threaded run, one more per thread/process */
int arena_init(struct fz_arena *a, unsigned int slot);
uint64_t arena_bad_ptr(struct fz *fz);
uint64_t arena_mr_addr(struct fz *fz, uint64_t *len);
#define ARENA_RESP_SPAN	(2 * 4096ul)
#define ARENA_REQ_SPAN	(2 * 4096ul)

/* mutate.c */
void fz_mutate(struct fz *fz, struct fz_msg *m);

/* ioctl.c: RDMA_VERBS_IOCTL calls */
int fz_ioctl(struct fz *fz, struct fz_file *f, int mutated, unsigned int *id);
const char *fz_ioctl_method_name(unsigned int id);
size_t fz_ioctl_nmethods(void);

/* quirks.c */
int fz_stack_is_intree(void);
void fz_steer_intree(struct fz_msg *m);
int fz_kernel_has_lockdep(void);
int fz_kernel_has_kmemleak(void);
void fz_steer_debug_kernel(struct fz *fz, struct fz_msg *m);
void fz_steer_concurrent(struct fz_msg *m);

/* threads.c */
struct fz_conc {
	unsigned int threads, procs;
	double seconds;
	uint64_t count;		/* commands per thread (0: by time) */
	uint64_t seed;
	/* results */
	int fails;		/* kernel-internal errno, short write, crash */
	int hung;		/* a thread or process that never finished */
	uint64_t proc_runs;	/* processes forked and reaped */
	uint64_t thread_cmds, proc_cmds;
	uint64_t fds_passed;
};
int fz_concurrent(struct fz *fz, struct fz_conc *c);
int fz_errno_expected(int err);
int fz_unexpected_errnos(const struct fz_stats *st);
int fz_close_lost_fds(void);

/* cmds.c helpers the mutations share */
uint32_t fz_random_word(struct fz *fz);
void fz_qp_walk_done(struct fz_qp_walk *w, int ok);

#endif /* FUZZ_H */
