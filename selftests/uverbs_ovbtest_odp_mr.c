// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * On-demand paging MRs through ib_uverbs, on the test HCA loaded with
 * odp=1 (selftests/ovbtest/odp.c: ODP caps, REG_MR with ON_DEMAND over an
 * ib_umem_odp, implicit MRs, an interval notifier that unmaps, faults on
 * COPY and on ADVISE_MR's prefetch, all as mlx5), on whichever ib_uverbs
 * is loaded:
 *  - EX_QUERY_DEVICE's odp_caps as the driver gives them to user space;
 *  - REG_MR by write() with ON_DEMAND reaches the driver (REG_DMABUF_MR,
 *    the only registration by ioctl, refuses the bit itself); nothing is
 *    pinned (VmPin), the HCA reads what the user wrote after registering
 *    and writes what the user then reads, faulting pages in;
 *  - munmap and madvise(MADV_DONTNEED) invalidate: the MR's pages are
 *    unmapped, and the HCA then reaches the new pages, not the old ones;
 *  - implicit ODP (start 0, length U64_MAX): any address of the process,
 *    child ranges made as reached;
 *  - ADVISE_MR: the core's errnos (advice beyond the enum, flags, SGE list
 *    sizes) and mlx5's (unknown advice, unknown key, non-ODP MR, another
 *    PD, PREFETCH_WRITE on a read-only MR, ranges outside the MR with and
 *    without FLUSH, every key checked before any fault), and what each
 *    advice maps (PREFETCH read-only, PREFETCH_WRITE writable,
 *    PREFETCH_NO_FAULT only what is present);
 *  - REREG_MR of ODP MRs as mlx5 decides it;
 *  - DEREG, closing the file and rmmod with ODP MRs alive: nothing left,
 *    no WARN;
 *  - without odp=1, what the device answers stays as before.
 * Expected values are the in-tree module's answers, 6.1's and 6.12's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <poll.h>
#include <sched.h>
#include <time.h>
#include <signal.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

#define PG		4096
#define NPG		16
#define BUF_LEN		(NPG * PG)
#define LW		IB_UVERBS_ACCESS_LOCAL_WRITE
#define RR		IB_UVERBS_ACCESS_REMOTE_READ
#define ODP		IB_UVERBS_ACCESS_ON_DEMAND
#define CHILD		(1UL << OVBTEST_ODP_CHILD_SHIFT)

/* enum ib_odp_general_cap_bits and ib_odp_transport_cap_bits (ib_verbs.h) */
#define ODP_SUPPORT		1
#define ODP_SUPPORT_IMPLICIT	2
#define ODP_SEND		1
#define ODP_RECV		2
#define ODP_WRITE		4
#define ODP_READ		8
#define ODP_ATOMIC		16
#define ODP_SRQ_RECV		32

#define PREFETCH	IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH
#define PREFETCH_WRITE	IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE
#define NO_FAULT	IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT
#define FLUSH		IB_UVERBS_ADVISE_MR_FLAG_FLUSH

/* REREG_MR flags (ib_verbs.h IB_MR_REREG_*). */
enum { REREG_TRANS = 1, REREG_PD = 2, REREG_ACCESS = 4 };

struct mr {
	int h;
	__u32 lkey, rkey;
};

/* REG_MR by write(); 0 or -errno. */
static int reg_mr(int fd, __u32 pd, __u64 start, __u64 len, __u64 iova,
		  __u32 access, struct mr *mr)
{
	struct ib_uverbs_reg_mr_resp resp = {};
	struct ib_uverbs_reg_mr req = {
		.response = (uintptr_t)&resp,
		.start = start,
		.length = len,
		.hca_va = iova,
		.pd_handle = pd,
		.access_flags = access,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req),
			      sizeof(resp));

	if (ret < 0)
		return ret;
	*mr = (struct mr){ resp.mr_handle, resp.lkey, resp.rkey };
	return 0;
}

/* An explicit MR over @buf, iova the address. */
static int reg_buf(int fd, __u32 pd, void *buf, size_t len, __u32 access,
		   struct mr *mr)
{
	return reg_mr(fd, pd, (uintptr_t)buf, len, (uintptr_t)buf, access, mr);
}

/* REREG_MR by write(); 0 and the new keys in *@keys, or -errno. */
static int rereg_mr(int fd, __u32 mr, __u32 flags, void *addr, size_t len,
		    __u32 pd, __u32 access, struct mr *keys)
{
	struct ib_uverbs_rereg_mr_resp resp = {};
	struct ib_uverbs_rereg_mr req = {
		.response = (uintptr_t)&resp,
		.mr_handle = mr,
		.flags = flags,
		.start = (uintptr_t)addr,
		.length = len,
		.hca_va = (uintptr_t)addr,
		.pd_handle = pd,
		.access_flags = access,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_REREG_MR, &req,
			      sizeof(req), sizeof(resp));

	if (ret < 0)
		return ret;
	*keys = (struct mr){ mr, resp.lkey, resp.rkey };
	return 0;
}

/* ADVISE_MR with @len bytes of SGE list (the core sizes it). */
static int advise_raw(int fd, __u32 pd, __u64 advice, __u32 flags,
		      const void *sge, __u16 len)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR);
	ioc_obj(&c, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, pd);
	ioc_const(&c, UVERBS_ATTR_ADVISE_MR_ADVICE, advice);
	ioc_in(&c, UVERBS_ATTR_ADVISE_MR_FLAGS, &flags, sizeof(flags));
	ioc_in(&c, UVERBS_ATTR_ADVISE_MR_SGE_LIST, sge, len);
	return ioc_call(fd, &c);
}

/* ADVISE_MR of one range. */
static int advise(int fd, __u32 pd, __u64 advice, __u32 flags, __u32 lkey,
		  const void *addr, __u32 len)
{
	struct ib_uverbs_sge sge = {
		.addr = (uintptr_t)addr, .length = len, .lkey = lkey,
	};

	return advise_raw(fd, pd, advice, flags, &sge, sizeof(sge));
}

/* The driver's view of an ODP MR (OVBTEST_METHOD_MR_ODP_STATE). */
static int odp_state(int fd, __u32 mr, struct ovbtest_mr_odp_state *st)
{
	struct ioc c;

	memset(st, 0xa5, sizeof(*st));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, OVBTEST_METHOD_MR_ODP_STATE);
	ioc_obj(&c, OVBTEST_ATTR_MR_ODP_STATE_HANDLE, mr);
	ioc_out(&c, OVBTEST_ATTR_MR_ODP_STATE_OUT, st, sizeof(*st));
	return ioc_call(fd, &c);
}

/* The kB /proc/self/status gives for @key ("VmPin:"); -1 if absent. */
static long status_kb(const char *key)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			kb = strtol(line + strlen(key), NULL, 10);
	fclose(f);
	return kb;
}

static long param(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), OVBTEST_PARAM("%s"), name);
	return sysfs_long(path);
}

/*
 * Anonymous memory of the test, without transparent huge pages: neither
 * a huge page fault nor khugepaged's collapse (which moves pages, an
 * invalidation of its own, at any time) may change what is mapped.
 */
static void *anon(void *at, size_t len)
{
	void *p = mmap(at, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED : 0),
		       -1, 0);

	if (p != MAP_FAILED && madvise(p, len, MADV_NOHUGEPAGE)) {
		munmap(p, len);
		p = MAP_FAILED;
	}
	return p;
}

/* Bytes of @p that are not 0. */
static size_t nonzero(const char *p, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += p[i] != 0;
	return n;
}

static void fill(char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (char)(i * 13 + seed);
}

/* Set ovbtest's odp_mm_hold (Y or N); 0 or -errno. */
static int set_mm_hold(char yn)
{
	int fd = open(OVBTEST_PARAM("odp_mm_hold"), O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, &yn, 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

/* Whether ovbtest.ko is loaded with odp=Y (@want 1) or =N (0). */
static int odp_param_is(int want)
{
	char yn[4] = "";
	int fd = open(OVBTEST_PARAM("odp"), O_RDONLY);

	if (fd < 0)
		return 0;
	if (read(fd, yn, sizeof(yn) - 1) <= 0)
		yn[0] = 0;
	close(fd);
	return yn[0] == (want ? 'Y' : 'N');
}

/*
 * ovbtest.ko loaded with @params ("odp=1" or ""), reloaded if it runs
 * otherwise; 0, or the load's -errno.
 */
static int load_odp(int want)
{
	int ret;

	if (ovbtest_loaded() && !odp_param_is(want)) {
		ret = ovbtest_unload();
		if (ret)
			return ret;
	}
	ret = ovbtest_load_module_with(HCA_MODULE, want ? "odp=1" : "");
	return ret == -EEXIST ? 0 : ret;
}

#define ODP_SETUP_LOAD(want) do {					\
	int __r = load_odp(want);					\
									\
	if (__r == -ENOENT)						\
		SKIP(return, "ovbtest.ko not built (make selftests KDIR=...)"); \
	if (__r == -ENOEXEC)						\
		SKIP(return, "ovbtest.ko was built for another kernel"); \
	ASSERT_EQ(0, __r);						\
	ASSERT_TRUE(odp_param_is(want));				\
} while (0)

/*
 * Page migration and compaction (kcompactd, NUMA balancing; khugepaged
 * is kept off the test's memory by anon()) may invalidate an MR's pages
 * at any moment, which unmaps them (fewer mapped) and makes the next
 * access fault again (more faulted).  An exact count is asserted only
 * when no invalidation reached the module since @inv0 (odp_invalidations);
 * after one, only that direction, and the case says so in its log.
 */
#define EXPECT_MAPPED(want, got, inv0) do {				\
	long __w = (want), __g = (got);					\
									\
	if (param("odp_invalidations") == (inv0)) {			\
		EXPECT_EQ(__w, __g);					\
	} else {							\
		TH_LOG("an invalidation came between: %ld mapped, %ld expected", \
		       __g, __w);					\
		EXPECT_GE(__w, __g);					\
	}								\
} while (0)

#define EXPECT_FAULTED(want, got, inv0) do {				\
	long __w = (want), __g = (got);					\
									\
	if (param("odp_invalidations") == (inv0)) {			\
		EXPECT_EQ(__w, __g);					\
	} else {							\
		TH_LOG("an invalidation came between: %ld faulted, %ld expected", \
		       __g, __w);					\
		EXPECT_LE(__w, __g);					\
	}								\
} while (0)

/* -------------------------------------------------------------- fixture */

FIXTURE(odp) {
	int fd;
	int pd;
	int kmsg;
	char ioctl_abi;
	int chan;
	char *buf;		/* BUF_LEN, untouched at setup */
	char *pbuf;		/* BUF_LEN, pinned by pmr */
	struct mr pmr;		/* a plain MR, local write */
	struct ovbtest_device_info base;
};

FIXTURE_SETUP(odp)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	self->kmsg = -1;
	self->ioctl_abi = 0;
	ODP_SETUP_LOAD(1);
	self->ioctl_abi = ioctl_abi_on();
	self->kmsg = ovbtest_kmsg_mark();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	self->base = ovbtest_info(self->fd);
	ASSERT_EQ(OVBTEST_MAGIC, self->base.magic);
	self->buf = anon(NULL, BUF_LEN);
	self->pbuf = anon(NULL, BUF_LEN);
	ASSERT_NE(MAP_FAILED, self->buf);
	ASSERT_NE(MAP_FAILED, self->pbuf);
	memset(self->pbuf, 0, BUF_LEN);
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->pbuf, BUF_LEN, LW,
			     &self->pmr));
	self->chan = ovbtest_chan_create(self->fd, self->pd, 4, NULL);
	ASSERT_LE(0, self->chan);
}

FIXTURE_TEARDOWN(odp)
{
	set_mm_hold('Y');
	if (self->fd >= 0)
		close(self->fd);
	if (self->kmsg >= 0)
		close(self->kmsg);
	ioctl_abi_restore(self->ioctl_abi);
}

/* COPY of @len bytes: @src at @soff to @dst at @doff (offsets in the MRs). */
#define COPY(src, soff, dst, doff, len)					\
	ovbtest_copy(self->fd, self->chan, (src), (soff), (dst), (doff),	\
		     (len), NULL)

/* The end of a case: DEREG'd or not, closing leaves nothing, no WARN. */
#define EXPECT_CLEAN_CLOSE() do {					\
	struct ovbtest_device_info _i;					\
									\
	EXPECT_EQ(0, ovbtest_chan_destroy(self->fd, self->chan, NULL));	\
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, self->pmr.h));		\
	_i = ovbtest_info(self->fd);					\
	EXPECT_EQ(self->base.mrs, _i.mrs);				\
	close(self->fd);						\
	self->fd = -1;							\
	EXPECT_FALSE(ovbtest_kmsg_warned(self->kmsg));			\
	self->kmsg = -1;						\
} while (0)

static struct ovbtest_mr_odp_state state_of(int fd, int mr)
{
	struct ovbtest_mr_odp_state st;

	if (odp_state(fd, mr, &st))
		memset(&st, 0xff, sizeof(st));
	return st;
}

/*
 * EX_QUERY_DEVICE: mlx5's caps with every ODP bit its firmware can
 * report, READ and SRQ_RECV included (the driver leaves those out of the
 * kernel's own query only: a stack that asked without the driver udata
 * would show them missing).
 */
TEST_F(odp, ex_query_device_odp_caps)
{
	struct ib_uverbs_ex_query_device_resp dev;
	const __u32 rc = ODP_SEND | ODP_RECV | ODP_WRITE | ODP_READ |
			 ODP_ATOMIC | ODP_SRQ_RECV;

	ASSERT_EQ(0, raw_query_device_ex(self->fd, &dev));
	EXPECT_EQ(ODP_SUPPORT | ODP_SUPPORT_IMPLICIT, dev.odp_caps.general_caps);
	EXPECT_EQ(rc, dev.odp_caps.per_transport_caps.rc_odp_caps);
	EXPECT_EQ(0, dev.odp_caps.per_transport_caps.uc_odp_caps);
	EXPECT_EQ(ODP_SEND | ODP_SRQ_RECV,
		  dev.odp_caps.per_transport_caps.ud_odp_caps);
	EXPECT_EQ(rc, dev.xrc_odp_caps);
	EXPECT_CLEAN_CLOSE();
}

/*
 * REG_MR with ON_DEMAND by write(): an ODP MR (the driver's state says
 * so), nothing pinned, where a plain MR of the same memory pins it all.
 * REG_DMABUF_MR, the one registration by ioctl on these kernels, refuses
 * ON_DEMAND among its access flags before the driver (EINVAL).
 */
TEST_F(odp, reg_mr_on_demand_pins_nothing)
{
	struct ovbtest_mr_odp_state st;
	struct mr mr, plain;
	long pin0, pin1;
	__u64 off = 0, len = PG, iova = 0;
	__u32 access = LW | ODP;
	__s32 dfd = -1;
	struct ioc c;
	char *q;

	pin0 = status_kb("VmPin:");
	ASSERT_LE(0, pin0);
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW | ODP,
			     &mr));
	pin1 = status_kb("VmPin:");
	EXPECT_EQ(pin0, pin1);
	ASSERT_EQ(0, odp_state(self->fd, mr.h, &st));
	EXPECT_EQ(0, st.implicit);
	/* untouched memory: nothing present, nothing mapped */
	EXPECT_EQ(0, st.readable);
	EXPECT_EQ(0, st.invalidations);
	EXPECT_EQ(self->base.mrs + 2, ovbtest_info(self->fd).mrs);

	/* the measure works: a plain MR pins the 16 pages */
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW,
			     &plain));
	EXPECT_EQ(pin0 + BUF_LEN / 1024, status_kb("VmPin:"));
	EXPECT_EQ(-EINVAL, odp_state(self->fd, plain.h, &st));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, plain.h));
	EXPECT_EQ(pin0, status_kb("VmPin:"));

	/*
	 * Present pages are mapped at registration, none faulted (the plain
	 * MR faulted all of self->buf in: a new mapping, 3 of 8 touched).
	 */
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr.h));
	q = anon(NULL, 8 * PG);
	ASSERT_NE(MAP_FAILED, q);
	memset(q + 2 * PG, 1, 3 * PG);
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, q, 8 * PG, LW | ODP, &mr));
	EXPECT_EQ(3, state_of(self->fd, mr.h).readable);
	EXPECT_EQ(pin0, status_kb("VmPin:"));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr.h));
	munmap(q, 8 * PG);

	/* the ioctl registration: ON_DEMAND is not among its flags */
	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR);
	ioc_obj(&c, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0);
	ioc_obj(&c, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, self->pd);
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, &off, sizeof(off));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, &len, sizeof(len));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_IOVA, &iova, sizeof(iova));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_FD, &dfd, sizeof(dfd));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, &access,
	       sizeof(access));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	EXPECT_EQ(self->base.mrs + 1, ovbtest_info(self->fd).mrs);
	EXPECT_CLEAN_CLOSE();
}

/*
 * The HCA reaches the user's memory as it is when it reaches it: bytes
 * written after the registration are read, bytes the HCA writes are seen
 * by the user, each access faulting in the pages it needs (and only
 * those), writes mapping them writable.
 */
TEST_F(odp, hca_faults_pages_in)
{
	struct ovbtest_mr_odp_state st;
	long faults0 = param("odp_fault_pages");
	long inv0 = param("odp_invalidations");
	long pin0 = status_kb("VmPin:");
	struct mr mr;

	ASSERT_LE(0, faults0);
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW | ODP,
			     &mr));
	/* pages 2-4 written after registration, read by the HCA */
	fill(self->buf + 2 * PG, 3 * PG, 5);
	ASSERT_EQ(0, COPY(mr.h, 2 * PG + 100, self->pmr.h, 0, 2 * PG));
	EXPECT_EQ(0, memcmp(self->pbuf, self->buf + 2 * PG + 100, 2 * PG));
	st = state_of(self->fd, mr.h);
	EXPECT_MAPPED(3, st.readable, inv0);
	EXPECT_EQ(0, st.writable);
	EXPECT_FAULTED(faults0 + 3, param("odp_fault_pages"), inv0);
	/* a second read of the same pages faults nothing */
	ASSERT_EQ(0, COPY(mr.h, 2 * PG, self->pmr.h, 0, PG));
	EXPECT_FAULTED(faults0 + 3, param("odp_fault_pages"), inv0);

	/* the HCA writes pages 10-11 the user never touched */
	fill(self->pbuf, PG + 8, 9);
	ASSERT_EQ(0, COPY(self->pmr.h, 0, mr.h, 10 * PG + PG / 2, PG + 8));
	EXPECT_EQ(0, memcmp(self->buf + 10 * PG + PG / 2, self->pbuf, PG + 8));
	st = state_of(self->fd, mr.h);
	EXPECT_MAPPED(5, st.readable, inv0);
	EXPECT_MAPPED(2, st.writable, inv0);
	/* and the user's later write is what the HCA reads next */
	self->buf[10 * PG + PG / 2] ^= 0x5a;
	ASSERT_EQ(0, COPY(mr.h, 10 * PG + PG / 2, self->pmr.h, 0, 1));
	EXPECT_EQ(self->buf[10 * PG + PG / 2], self->pbuf[0]);
	/* beyond the MR: the range check, nothing mapped */
	EXPECT_EQ(-ERANGE, COPY(mr.h, BUF_LEN - 8, self->pmr.h, 0, 16));
	EXPECT_EQ(pin0, status_kb("VmPin:"));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr.h));
	EXPECT_CLEAN_CLOSE();
}

/*
 * The kernel takes the pages: madvise(MADV_DONTNEED) and munmap reach the
 * MR's notifier, which unmaps them (the driver counts the invalidations),
 * and the HCA then reaches the new pages - zero-fill after DONTNEED, the
 * new mapping's after a munmap and mmap at the same address - where a
 * pinned MR keeps the old ones.  Without any mapping, the fault fails
 * (EFAULT).
 */
TEST_F(odp, invalidation_then_new_pages)
{
	long inval0 = param("odp_invalidations"), inv1;
	struct ovbtest_mr_odp_state st;
	struct mr mr, pinned;
	char *p;

	ASSERT_LE(0, inval0);
	fill(self->buf, BUF_LEN, 3);
	/* pinned first: a long-term pin may move pages (an invalidation) */
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW,
			     &pinned));
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW | ODP,
			     &mr));
	ASSERT_EQ(0, advise(self->fd, self->pd, PREFETCH_WRITE, FLUSH, mr.lkey,
			    self->buf, BUF_LEN));
	st = state_of(self->fd, mr.h);
	EXPECT_MAPPED(NPG, st.readable, inval0);
	EXPECT_MAPPED(NPG, st.writable, inval0);
	if (param("odp_invalidations") == inval0)
		EXPECT_EQ(0, st.invalidations);

	/* DONTNEED on pages 4-5: unmapped from the MR, zero pages next */
	inv1 = param("odp_invalidations") + 1;	/* the DONTNEED's own */
	ASSERT_EQ(0, madvise(self->buf + 4 * PG, 2 * PG, MADV_DONTNEED));
	st = state_of(self->fd, mr.h);
	EXPECT_MAPPED(NPG - 2, st.readable, inv1);
	EXPECT_LE(1, st.invalidations);
	EXPECT_LT(inval0, param("odp_invalidations"));
	ASSERT_EQ(0, COPY(mr.h, 4 * PG, self->pmr.h, 0, 2 * PG));
	EXPECT_EQ(0, nonzero(self->pbuf, 2 * PG));
	/* the pinned MR still has the old pages (not the process's now) */
	ASSERT_EQ(0, COPY(pinned.h, 4 * PG, self->pmr.h, 0, 16));
	EXPECT_EQ((char)(4 * PG * 13 + 3), self->pbuf[0]);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, pinned.h));

	/* munmap and a new mapping at the same address */
	st = state_of(self->fd, mr.h);
	ASSERT_EQ(0, munmap(self->buf, BUF_LEN));
	EXPECT_EQ(0, state_of(self->fd, mr.h).readable);
	EXPECT_LT(st.invalidations, state_of(self->fd, mr.h).invalidations);
	/* no mapping at all: the HCA's fault fails */
	EXPECT_EQ(-EFAULT, COPY(mr.h, 0, self->pmr.h, 0, 16));
	p = anon(self->buf, BUF_LEN);
	ASSERT_EQ(self->buf, p);
	fill(self->buf, BUF_LEN, 77);
	ASSERT_EQ(0, COPY(mr.h, 7 * PG, self->pmr.h, 0, PG));
	EXPECT_EQ(0, memcmp(self->pbuf, self->buf + 7 * PG, PG));
	EXPECT_EQ(1, state_of(self->fd, mr.h).readable);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr.h));
	EXPECT_CLEAN_CLOSE();
}

/*
 * Implicit ODP: start 0 and length U64_MAX (iova 0, else EINVAL) cover
 * the whole process; COPY's offset is the address.  Child ranges appear
 * as reached (two for a copy across a 2 MiB boundary), their pages are
 * invalidated as an explicit MR's.  ADVISE_MR beyond user space: EFAULT.
 */
TEST_F(odp, implicit_mr)
{
	struct ovbtest_mr_odp_state st;
	struct mr imr, bad;
	char *area, *p;
	long inv;

	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, 0, UINT64_MAX, PG,
				  LW | ODP, &bad));
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, 0, UINT64_MAX, 0, LW | ODP,
			    &imr));
	st = state_of(self->fd, imr.h);
	EXPECT_EQ(1, st.implicit);
	EXPECT_EQ(0, st.children);
	EXPECT_EQ(0, st.readable);

	/* 4 MiB, aligned to 2 MiB: a copy across the middle */
	area = anon(NULL, 3 * CHILD);
	ASSERT_NE(MAP_FAILED, area);
	p = (char *)(((uintptr_t)area + CHILD - 1) & ~(CHILD - 1));
	fill(p + CHILD - 2 * PG, 4 * PG, 11);
	ASSERT_EQ(0, COPY(imr.h, (uintptr_t)p + CHILD - 2 * PG, self->pmr.h,
			  0, 4 * PG));
	EXPECT_EQ(0, memcmp(self->pbuf, p + CHILD - 2 * PG, 4 * PG));
	st = state_of(self->fd, imr.h);
	EXPECT_EQ(2, st.children);
	EXPECT_EQ(4, st.readable);
	EXPECT_EQ(0, st.writable);
	/* the HCA writes into the fixture's buffer through it */
	fill(self->pbuf, PG, 21);
	ASSERT_EQ(0, COPY(self->pmr.h, 0, imr.h, (uintptr_t)self->buf, PG));
	EXPECT_EQ(0, memcmp(self->buf, self->pbuf, PG));
	EXPECT_EQ(3, state_of(self->fd, imr.h).children);

	/* munmap: the children's pages invalidated (two children, two) */
	inv = param("odp_invalidations") + 2;
	ASSERT_EQ(0, munmap(area, 3 * CHILD));
	st = state_of(self->fd, imr.h);
	EXPECT_MAPPED(1, st.readable, inv);
	EXPECT_LE(1, st.invalidations);
	EXPECT_EQ(-EFAULT, COPY(imr.h, (uintptr_t)p, self->pmr.h, 0, 16));

	/* prefetch through it; beyond user space EFAULT (with FLUSH) */
	fill(self->buf + PG, PG, 1);
	EXPECT_EQ(0, advise(self->fd, self->pd, PREFETCH, FLUSH, imr.lkey,
			    self->buf + PG, PG));
	EXPECT_MAPPED(2, state_of(self->fd, imr.h).readable, inv);
	EXPECT_EQ(-EFAULT, advise(self->fd, self->pd, PREFETCH, FLUSH,
				  imr.lkey, (void *)(uintptr_t)-PG, 16));
	EXPECT_EQ(0, advise(self->fd, self->pd, PREFETCH, 0, imr.lkey,
			    (void *)(uintptr_t)-PG, 16));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, imr.h));
	EXPECT_CLEAN_CLOSE();
}

/*
 * What each advice maps: PREFETCH read-only (mlx5's downgrade),
 * PREFETCH_WRITE writable, PREFETCH_NO_FAULT only the present pages (as
 * the CPU maps them); FLUSH or not, the pages are mapped on return (the
 * driver does the work mlx5 queues before returning).
 */
TEST_F(odp, advise_mr_maps)
{
	long pf0 = param("odp_prefetch_pages");
	long inv0 = param("odp_invalidations");
	struct ovbtest_mr_odp_state st;
	struct mr mr;

	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW | ODP,
			     &mr));
	/* NO_FAULT over untouched memory maps nothing */
	ASSERT_EQ(0, advise(self->fd, self->pd, NO_FAULT, FLUSH, mr.lkey,
			    self->buf, BUF_LEN));
	EXPECT_EQ(0, state_of(self->fd, mr.h).readable);
	/* the user writes pages 0-1: NO_FAULT maps them, writable */
	memset(self->buf, 7, 2 * PG);
	ASSERT_EQ(0, advise(self->fd, self->pd, NO_FAULT, FLUSH, mr.lkey,
			    self->buf, BUF_LEN));
	st = state_of(self->fd, mr.h);
	EXPECT_MAPPED(2, st.readable, inv0);
	EXPECT_MAPPED(2, st.writable, inv0);
	/* PREFETCH of pages 4-7, without FLUSH: read-only */
	ASSERT_EQ(0, advise(self->fd, self->pd, PREFETCH, 0, mr.lkey,
			    self->buf + 4 * PG, 4 * PG));
	st = state_of(self->fd, mr.h);
	EXPECT_MAPPED(6, st.readable, inv0);
	EXPECT_MAPPED(2, st.writable, inv0);
	/*
	 * PREFETCH_WRITE of pages 6-9: writable.  Pages 6-7 hold the zero
	 * page read-only: their write fault copies it, one invalidation each.
	 */
	inv0 = param("odp_invalidations") + 2;
	ASSERT_EQ(0, advise(self->fd, self->pd, PREFETCH_WRITE, 0, mr.lkey,
			    self->buf + 6 * PG, 4 * PG));
	st = state_of(self->fd, mr.h);
	EXPECT_MAPPED(8, st.readable, inv0);
	EXPECT_MAPPED(6, st.writable, inv0);
	EXPECT_FAULTED(pf0 + 8, param("odp_prefetch_pages"), inv0);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr.h));
	EXPECT_CLEAN_CLOSE();
}

/*
 * ADVISE_MR's errnos.  The core's: an advice beyond the enum's type, a
 * flag it does not know, an SGE list shorter than one entry or not a
 * whole number of them (EINVAL).  mlx5's: an advice it does not do
 * (EOPNOTSUPP), a key of no ODP MR - unknown, or a plain MR's (ENOENT),
 * another PD's MR (EPERM), PREFETCH_WRITE on a read-only MR (EPERM), a
 * range outside the MR (EFAULT with FLUSH; without FLUSH the fault's
 * error reaches nobody: 0), and without FLUSH every key is checked before
 * any range is faulted (an error maps nothing), with FLUSH in order.
 */
TEST_F(odp, advise_mr_errnos)
{
	struct ib_uverbs_sge sge[2];
	struct mr mr, ro, other;
	int pd2;

	/* self->buf untouched: nothing mapped at registration */
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW | ODP,
			     &mr));
	sge[0] = (struct ib_uverbs_sge){ (uintptr_t)self->buf, PG, mr.lkey };
	sge[1] = sge[0];

	/* the core */
	EXPECT_EQ(-EINVAL, advise(self->fd, self->pd, 1ULL << 32, 0, mr.lkey,
				  self->buf, PG));
	EXPECT_EQ(-EINVAL, advise(self->fd, self->pd, PREFETCH, 2, mr.lkey,
				  self->buf, PG));
	EXPECT_EQ(-EINVAL, advise_raw(self->fd, self->pd, PREFETCH, 0, sge, 8));
	EXPECT_EQ(-EINVAL, advise_raw(self->fd, self->pd, PREFETCH, 0, sge,
				      sizeof(sge[0]) + 8));
	/* the driver */
	EXPECT_EQ(-EOPNOTSUPP, advise(self->fd, self->pd, 3, 0, mr.lkey,
				      self->buf, PG));
	EXPECT_EQ(-ENOENT, advise(self->fd, self->pd, PREFETCH, 0,
				  mr.lkey + 0x100, self->buf, PG));
	EXPECT_EQ(-ENOENT, advise(self->fd, self->pd, PREFETCH, FLUSH,
				  self->pmr.lkey, self->pbuf, PG));
	pd2 = raw_alloc_pd(self->fd);
	ASSERT_LE(0, pd2);
	ASSERT_EQ(0, reg_buf(self->fd, pd2, self->buf, BUF_LEN, LW | ODP,
			     &other));
	EXPECT_EQ(-EPERM, advise(self->fd, self->pd, PREFETCH, 0, other.lkey,
				 self->buf, PG));
	EXPECT_EQ(0, advise(self->fd, pd2, PREFETCH, 0, other.lkey,
			    self->buf, PG));
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, ODP, &ro));
	EXPECT_EQ(-EPERM, advise(self->fd, self->pd, PREFETCH_WRITE, 0,
				 ro.lkey, self->buf, PG));
	EXPECT_EQ(0, advise(self->fd, self->pd, PREFETCH, FLUSH, ro.lkey,
			    self->buf, PG));
	EXPECT_EQ(0, state_of(self->fd, mr.h).readable);

	/* outside the MR: below its iova, beyond its end */
	EXPECT_EQ(-EFAULT, advise(self->fd, self->pd, PREFETCH, FLUSH,
				  mr.lkey, self->buf - 1, 16));
	EXPECT_EQ(-EFAULT, advise(self->fd, self->pd, PREFETCH, FLUSH,
				  mr.lkey, self->buf + BUF_LEN - 8, 16));
	EXPECT_EQ(0, advise(self->fd, self->pd, PREFETCH, 0, mr.lkey,
			    self->buf + BUF_LEN - 8, 16));
	EXPECT_EQ(0, state_of(self->fd, mr.h).readable);

	/* a bad key second: without FLUSH nothing mapped, with FLUSH the first */
	sge[1].lkey = self->pmr.lkey;
	EXPECT_EQ(-ENOENT, advise_raw(self->fd, self->pd, PREFETCH, 0, sge,
				      sizeof(sge)));
	EXPECT_EQ(0, state_of(self->fd, mr.h).readable);
	EXPECT_EQ(-ENOENT, advise_raw(self->fd, self->pd, PREFETCH, FLUSH, sge,
				      sizeof(sge)));
	EXPECT_EQ(1, state_of(self->fd, mr.h).readable);
	/* after DEREG the key is unknown */
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr.h));
	EXPECT_EQ(-ENOENT, advise(self->fd, self->pd, PREFETCH, 0, mr.lkey,
				  self->buf, PG));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, ro.h));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, other.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd2));
	EXPECT_CLEAN_CLOSE();
}

/*
 * A zero-length range, as mlx5 answers it (the explicit MR's range goes
 * to ib_umem_odp_map_dma_and_lock(), widened to whole pages: none at a
 * page-aligned address, hmm's walk of an empty range EINVAL; one page at
 * an unaligned one, mapped; an implicit MR's loop over its children runs
 * no round: 0, no child).  Without FLUSH no error is seen.
 */
TEST_F(odp, advise_zero_length)
{
	struct ovbtest_mr_odp_state st;
	struct mr mr, imr;

	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW | ODP,
			     &mr));
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, 0, UINT64_MAX, 0, LW | ODP,
			    &imr));
	EXPECT_EQ(-EINVAL, advise(self->fd, self->pd, PREFETCH, FLUSH, mr.lkey,
				  self->buf + PG, 0));
	EXPECT_EQ(0, advise(self->fd, self->pd, PREFETCH, 0, mr.lkey,
			    self->buf + PG, 0));
	EXPECT_EQ(0, state_of(self->fd, mr.h).readable);
	EXPECT_EQ(0, advise(self->fd, self->pd, PREFETCH, FLUSH, mr.lkey,
			    self->buf + 2 * PG + 8, 0));
	EXPECT_EQ(1, state_of(self->fd, mr.h).readable);
	EXPECT_EQ(0, advise(self->fd, self->pd, PREFETCH, FLUSH, imr.lkey,
			    self->buf + PG, 0));
	EXPECT_EQ(0, advise(self->fd, self->pd, PREFETCH, FLUSH, imr.lkey,
			    self->buf + 2 * PG + 8, 0));
	ASSERT_EQ(0, odp_state(self->fd, imr.h, &st));
	EXPECT_EQ(0, st.children);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, imr.h));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr.h));
	EXPECT_CLEAN_CLOSE();
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * One ADVISE_MR of the largest SGE list the core takes (4095 entries),
 * each nearly 4 GiB of an implicit MR, PREFETCH_NO_FAULT, 16 TiB in all
 * where nothing is mapped but one page: the driver makes a child only
 * where a VMA is (one, that page mapped), and answers at once, FLUSH or
 * not.  Where a VMA is, children are made, up to OVBTEST_ODP_MAX_CHILDREN
 * per MR: a PROT_NONE reservation larger than that, NO_FAULT with FLUSH:
 * ENOMEM, the cap's worth of children made.  Fails where every 2 MiB of
 * the range gets its child (8 M children: the guest runs out of memory,
 * or takes minutes), or where children are not capped.
 */
TEST_F(odp, advise_huge_no_fault_ranges)
{
	const size_t nsge = 4095, res_len = (OVBTEST_ODP_MAX_CHILDREN + 2) * CHILD;
	const uint64_t base = 0x400000000000ULL, step = 1ULL << 32;
	struct ovbtest_mr_odp_state st;
	struct ib_uverbs_sge *sge;
	double t0, t;
	char *one, *res;
	struct mr imr;
	size_t n;

	sge = calloc(nsge, sizeof(*sge));
	ASSERT_NE(NULL, sge);
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, 0, UINT64_MAX, 0, LW | ODP,
			    &imr));
	one = mmap((void *)(uintptr_t)(base + step + step / 4), PG,
		   PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ASSERT_NE(MAP_FAILED, one) TH_LOG("64 TiB + 5 GiB taken: %s", strerror(errno));
	fill(one, PG, 3);
	for (size_t i = 0; i < nsge; i++)
		sge[i] = (struct ib_uverbs_sge){ base + i * step,
						 (__u32)(step - PG), imr.lkey };
	t0 = now_s();
	EXPECT_EQ(0, advise_raw(self->fd, self->pd, NO_FAULT, FLUSH, sge,
				nsge * sizeof(*sge)));
	EXPECT_EQ(0, advise_raw(self->fd, self->pd, NO_FAULT, 0, sge,
				nsge * sizeof(*sge)));
	t = now_s() - t0;
	TH_LOG("two ADVISE_MR of 16 TiB NO_FAULT: %.3f s", t);
	EXPECT_GT(20.0, t);
	ASSERT_EQ(0, odp_state(self->fd, imr.h, &st));
	EXPECT_EQ(1, st.children);
	EXPECT_EQ(1, st.readable);
	EXPECT_EQ(1, st.writable);

	/* a VMA of more children than the cap: ENOMEM at the cap */
	res = mmap(NULL, res_len, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, res);
	for (n = 0; n * (step / 2) < res_len; n++)
		sge[n] = (struct ib_uverbs_sge){ (uintptr_t)res + n * (step / 2),
			(__u32)(res_len - n * (step / 2) < step / 2 ?
				res_len - n * (step / 2) : step / 2), imr.lkey };
	t0 = now_s();
	EXPECT_EQ(-ENOMEM, advise_raw(self->fd, self->pd, NO_FAULT, FLUSH, sge,
				      n * sizeof(*sge)));
	TH_LOG("NO_FAULT over %zu MiB PROT_NONE: %.3f s", res_len >> 20,
	       now_s() - t0);
	ASSERT_EQ(0, odp_state(self->fd, imr.h, &st));
	EXPECT_EQ(OVBTEST_ODP_MAX_CHILDREN, st.children);
	EXPECT_EQ(1, st.readable);
	/* COPY needs a child past the cap too */
	EXPECT_EQ(-ENOMEM, COPY(imr.h, (uintptr_t)res + res_len - PG,
				self->pmr.h, 0, 8));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, imr.h));
	EXPECT_EQ(0, munmap(res, res_len));
	EXPECT_EQ(0, munmap(one, PG));
	free(sge);
	EXPECT_CLEAN_CLOSE();
}

/*
 * REREG_MR of ODP MRs, as mlx5: an access change the key takes is done in
 * place (same keys, still ODP); dropping ON_DEMAND without a new range is
 * refused (EOPNOTSUPP: nothing to keep); a new range is a new ODP MR (new
 * keys, still nothing pinned).  An implicit MR is replaced by a new
 * implicit one even for a PD move (new keys), and keeps ON_DEMAND
 * (EOPNOTSUPP without).
 */
TEST_F(odp, rereg_odp_mr)
{
	long pin0 = status_kb("VmPin:");
	struct mr mr, keys, imr;
	int pd2;

	fill(self->buf, BUF_LEN, 2);
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW | ODP,
			     &mr));
	ASSERT_EQ(0, rereg_mr(self->fd, mr.h, REREG_ACCESS, NULL, 0, 0,
			      LW | RR | ODP, &keys));
	EXPECT_EQ(mr.lkey, keys.lkey);
	EXPECT_EQ(0, state_of(self->fd, mr.h).implicit);
	EXPECT_EQ(-EOPNOTSUPP, rereg_mr(self->fd, mr.h, REREG_ACCESS, NULL, 0,
					0, LW | RR, &keys));
	/* a new range: pages 8-15 */
	ASSERT_EQ(0, rereg_mr(self->fd, mr.h, REREG_TRANS, self->buf + 8 * PG,
			      8 * PG, 0, 0, &keys));
	EXPECT_NE(mr.lkey, keys.lkey);
	EXPECT_EQ(pin0, status_kb("VmPin:"));
	ASSERT_EQ(0, COPY(mr.h, 0, self->pmr.h, 0, PG));
	EXPECT_EQ(0, memcmp(self->pbuf, self->buf + 8 * PG, PG));
	EXPECT_EQ(-ERANGE, COPY(mr.h, 8 * PG, self->pmr.h, 0, 1));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr.h));

	ASSERT_EQ(0, reg_mr(self->fd, self->pd, 0, UINT64_MAX, 0, LW | ODP,
			    &imr));
	EXPECT_EQ(-EOPNOTSUPP, rereg_mr(self->fd, imr.h, REREG_ACCESS, NULL, 0,
					0, LW, &keys));
	pd2 = raw_alloc_pd(self->fd);
	ASSERT_LE(0, pd2);
	ASSERT_EQ(0, rereg_mr(self->fd, imr.h, REREG_PD, NULL, 0, pd2, 0,
			      &keys));
	EXPECT_NE(imr.lkey, keys.lkey);
	EXPECT_EQ(1, state_of(self->fd, imr.h).implicit);
	/* now of pd2: the fixture's channel (of the first PD) refuses it */
	EXPECT_EQ(-EINVAL, COPY(imr.h, (uintptr_t)self->buf, self->pmr.h, 0,
				16));
	EXPECT_EQ(0, advise(self->fd, pd2, PREFETCH, FLUSH, keys.lkey,
			    self->buf, PG));
	EXPECT_EQ(1, state_of(self->fd, imr.h).readable);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, imr.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd2));
	EXPECT_CLEAN_CLOSE();
}

/* One byte from @fd within @ms milliseconds: 1, else 0. */
static int wait_byte(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	return poll(&pfd, 1, ms) == 1 && read(fd, &c, 1) == 1;
}

struct orphan_result {
	int copy, advise, state, children;
};

/*
 * The implicit MR's child, whose process P registered only that MR and
 * exited: C, its fork child, still has the file.  An implicit umem holds
 * no reference on P's mm (only its children's interval notifiers do), so
 * without the driver's own mmgrab() the mm is freed with P, and the
 * next child would be made from freed memory.  C forks processes G first,
 * whose new mms take the freed mm_struct's place (one CPU: the slab hands
 * out the object last freed); without the hold the child then lands in
 * a G's mm (its COPY: EINVAL, P's pid is gone, and a child is left) or
 * worse.  With it, COPY and ADVISE_MR with FLUSH fail cleanly: EFAULT,
 * as ib_umem_odp_alloc_child() answers for an mm with no users, and no
 * child is made.  DEREG at C's exit drops the hold; no WARN.
 */
static void implicit_orphan(struct __test_metadata *_metadata,
			    FIXTURE_DATA(odp) *self)
{
	struct orphan_result r = { 1, 1, 1, -1 };
	int go[2], res[2], st, got;
	struct pollfd pfd = { .events = POLLIN };
	cpu_set_t one, old;
	pid_t p, c = 0;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(old), &old));
	CPU_ZERO(&one);
	for (int i = 0; i < CPU_SETSIZE; i++) {
		if (CPU_ISSET(i, &old)) {
			CPU_SET(i, &one);
			break;
		}
	}
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(res));
	p = fork();
	ASSERT_LE(0, p);
	if (!p) {
		struct ovbtest_alloc_ucontext_resp uctx;
		struct mr imr;
		char *x;
		int fd, pd;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fd = ovbtest_open_dev();
		if (fd < 0 || ovbtest_get_context(fd, &uctx))
			_exit(10);
		pd = raw_alloc_pd(fd);
		x = anon(NULL, PG);
		if (pd < 0 || x == MAP_FAILED)
			_exit(11);
		memset(x, 'P', PG);
		if (reg_mr(fd, pd, 0, UINT64_MAX, 0, LW | ODP, &imr))
			_exit(12);
		c = fork();
		if (c < 0)
			_exit(13);
		if (c) {
			/* C's pid for the record; P's mm goes with P */
			if (write(res[1], &c, sizeof(c)) != sizeof(c))
				_exit(14);
			_exit(0);
		}
		/* C: the file and the MR, and P's address space as a copy */
		{
			struct ovbtest_mr_odp_state ost;
			int gp[2], ready[2], chan;
			pid_t g[4] = {};
			char *dst;

			close(go[1]);
			close(res[0]);
			if (!wait_byte(go[0], 60000))
				_exit(20);
			if (pipe(gp) || pipe(ready))
				_exit(21);
			for (int i = 0; i < 4; i++) {
				g[i] = fork();
				if (g[i] < 0)
					_exit(22);
				if (!g[i]) {
					/* G: a live mm, P's bytes made G's */
					close(gp[1]);
					memset(x, 'G', PG);
					if (write(ready[1], "r", 1) != 1)
						_exit(1);
					wait_byte(gp[0], 60000);
					_exit(0);
				}
			}
			close(gp[0]);
			for (int i = 0; i < 4; i++)
				if (!wait_byte(ready[0], 60000))
					_exit(23);
			/*
			 * write() commands refuse a fork child's file (its
			 * creds are a copy: EACCES), ioctl ones take it: the
			 * copy goes from and to the implicit MR itself.
			 */
			dst = anon(NULL, PG);
			if (dst == MAP_FAILED)
				_exit(24);
			memset(dst, 0, PG);
			chan = ovbtest_chan_create(fd, pd, 4, NULL);
			if (chan < 0)
				_exit(25);
			r.copy = ovbtest_copy(fd, chan, imr.h, (uintptr_t)x,
					      imr.h, (uintptr_t)dst, PG, NULL);
			r.advise = advise(fd, pd, PREFETCH, FLUSH, imr.lkey,
					  x, PG);
			r.state = odp_state(fd, imr.h, &ost);
			r.children = r.state ? -1 : (int)ost.children;
			if (write(res[1], &r, sizeof(r)) != sizeof(r))
				_exit(26);
			close(gp[1]);
			for (int i = 0; i < 4; i++)
				waitpid(g[i], NULL, 0);
			_exit(0);
		}
	}
	close(res[1]);
	close(go[0]);
	pfd.fd = res[0];
	ASSERT_EQ(p, waitpid(p, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st)) TH_LOG("P: %#x", st);
	ASSERT_EQ(sizeof(c), read(res[0], &c, sizeof(c)));
	/* P reaped: its mm is gone from every CPU; C goes on */
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(1, poll(&pfd, 1, 60000));
	got = read(res[0], &r, sizeof(r));
	EXPECT_EQ(sizeof(r), got);
	/* C is the subreaper's now */
	ASSERT_EQ(c, waitpid(c, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st)) TH_LOG("C: %#x", st);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	sched_setaffinity(0, sizeof(old), &old);
	close(res[0]);
	close(go[1]);
	EXPECT_EQ(-EFAULT, r.copy);
	EXPECT_EQ(-EFAULT, r.advise);
	EXPECT_EQ(0, r.state);
	EXPECT_EQ(0, r.children);
	EXPECT_CLEAN_CLOSE();
}

TEST_F(odp, implicit_mr_outlives_its_process)
{
	implicit_orphan(_metadata, self);
}

/*
 * The same with the driver as mlx5 is (odp_mm_hold=N): it takes no mm
 * reference of its own, so only the implicit umem can keep P's mm.  Ours
 * does (ib_umem_odp_alloc_implicit() mmgrab()s it): EFAULT, no child, as
 * above.  The in-tree module keeps none, and the child would be made in
 * freed memory or in another process's mm; that is not run there.
 */
TEST_F(odp, implicit_mr_outlives_its_process_mlx5)
{
	if (raw_stack_is_intree())
		SKIP(return, "in-tree ib_uverbs: an implicit umem holds no mm (testing.md)");
	ASSERT_EQ(0, set_mm_hold('N'));
	implicit_orphan(_metadata, self);
	EXPECT_EQ(0, set_mm_hold('Y'));
}

/*
 * ODP MRs left to the file's close, with mapped pages and implicit
 * children: destroyed by the core, nothing left, no WARN.
 */
TEST_F(odp, close_with_odp_mrs)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	struct mr mr, imr;

	fill(self->buf, BUF_LEN, 4);
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW | ODP,
			     &mr));
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, 0, UINT64_MAX, 0, LW | ODP,
			    &imr));
	ASSERT_EQ(0, advise(self->fd, self->pd, PREFETCH_WRITE, FLUSH, mr.lkey,
			    self->buf, BUF_LEN));
	ASSERT_EQ(0, advise(self->fd, self->pd, PREFETCH_WRITE, FLUSH,
			    imr.lkey, self->buf, BUF_LEN));
	EXPECT_EQ(self->base.mrs + 3, ovbtest_info(self->fd).mrs);
	close(self->fd);
	self->fd = ovbtest_open_dev();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ovbtest_get_context(self->fd, &uctx));
	EXPECT_EQ(self->base.mrs, ovbtest_info(self->fd).mrs);
	/* the memory's later invalidation reaches no MR */
	ASSERT_EQ(0, munmap(self->buf, BUF_LEN));
	close(self->fd);
	self->fd = -1;
	EXPECT_FALSE(ovbtest_kmsg_warned(self->kmsg));
	self->kmsg = -1;
}

/*
 * rmmod with ODP MRs alive (mapped pages, implicit children): the unplug
 * destroys them (the driver WARNs at unload about any MR left), the file
 * answers EIO, no WARN; the module's counters go with it.
 */
TEST_F(odp, rmmod_with_odp_mrs)
{
	struct ovbtest_mr_odp_state st;
	struct mr mr, imr;
	int k;

	fill(self->buf, BUF_LEN, 6);
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, self->buf, BUF_LEN, LW | ODP,
			     &mr));
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, 0, UINT64_MAX, 0, LW | ODP,
			    &imr));
	ASSERT_EQ(0, advise(self->fd, self->pd, PREFETCH, FLUSH, mr.lkey,
			    self->buf, BUF_LEN));
	ASSERT_EQ(0, COPY(imr.h, (uintptr_t)self->buf, self->pmr.h, 0, PG));
	k = ovbtest_kmsg_mark();
	ASSERT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_loaded());
	EXPECT_EQ(-EIO, odp_state(self->fd, mr.h, &st));
	EXPECT_NE(0, access(OVBTEST_PARAM("odp_invalidations"), F_OK));
	/* the memory's later invalidation reaches no MR */
	ASSERT_EQ(0, munmap(self->buf, BUF_LEN));
	close(self->fd);
	self->fd = -1;
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
	EXPECT_FALSE(ovbtest_kmsg_warned(self->kmsg));
	self->kmsg = -1;
}

/* ------------------------------------------------------------ odp=0 */

FIXTURE(plain) {
	int fd;
	int pd;
	char ioctl_abi;
};

FIXTURE_SETUP(plain)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	self->ioctl_abi = 0;
	ODP_SETUP_LOAD(0);
	self->ioctl_abi = ioctl_abi_on();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
}

FIXTURE_TEARDOWN(plain)
{
	if (self->fd >= 0)
		close(self->fd);
	ioctl_abi_restore(self->ioctl_abi);
}

/*
 * The default module: no ODP caps, ON_DEMAND refused by the core
 * (6.1 EINVAL, 6.12 EOPNOTSUPP: ib_check_mr_access()), implicit too, and
 * ADVISE_MR reaches the driver's stub (dm.c), which knows no ODP MR.
 */
TEST_F(plain, no_odp_without_the_parameter)
{
	struct ib_uverbs_ex_query_device_resp dev;
	const int err = ovbtest_k612() ? -EOPNOTSUPP : -EINVAL;
	struct ovbtest_mr_odp_state st;
	struct mr mr;
	char *buf;

	ASSERT_EQ(0, raw_query_device_ex(self->fd, &dev));
	EXPECT_EQ(0, dev.odp_caps.general_caps);
	EXPECT_EQ(0, dev.odp_caps.per_transport_caps.rc_odp_caps);
	EXPECT_EQ(0, dev.xrc_odp_caps);
	buf = mmap(NULL, PG, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	EXPECT_EQ(err, reg_buf(self->fd, self->pd, buf, PG, LW | ODP, &mr));
	EXPECT_EQ(err, reg_mr(self->fd, self->pd, 0, UINT64_MAX, 0, LW | ODP,
			      &mr));
	ASSERT_EQ(0, reg_buf(self->fd, self->pd, buf, PG, LW, &mr));
	EXPECT_EQ(-EINVAL, odp_state(self->fd, mr.h, &st));
	/* the stub: any key of the PD's, up to 4 ranges */
	EXPECT_EQ(0, advise(self->fd, self->pd, PREFETCH, FLUSH, mr.lkey, buf,
			    PG));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr.h));
	munmap(buf, PG);
}

/* Last: unloaded, so the next program loads the default module. */
OVBTEST_UNLOAD_FIXTURE(OVBTEST_PARAM("odp"))

TEST_HARNESS_MAIN
