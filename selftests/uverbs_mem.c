// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PD, MR, MW, AH and XRCD through raw write() commands on rxe0.  Every
 * expected errno is the in-tree 6.1 module's answer: the same test passes
 * on both stacks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>

#include "kselftest_harness.h"
#include "uverbs_raw.h"

#define ACCESS_LOCAL_WRITE	1	/* IB_ACCESS_LOCAL_WRITE */
#define ACCESS_REMOTE_WRITE	2
#define ACCESS_REMOTE_READ	4
#define MR_REREG_TRANS		1	/* IB_MR_REREG_TRANS */
#define MR_REREG_PD		2	/* IB_MR_REREG_PD */
#define MR_REREG_ACCESS		4	/* IB_MR_REREG_ACCESS */
#define BUF_SIZE		(64 * 1024)

struct mr {
	__u32 handle, lkey, rkey;
};

static int reg_mr(int fd, __u32 pd, void *addr, __u64 len, __u64 hca_va,
		  __u32 access, struct mr *mr)
{
	struct {
		struct ib_uverbs_reg_mr_resp core;
		char drv[RAW_DRV_OUT];
	} resp = {};
	struct ib_uverbs_reg_mr req = {
		.response = (uintptr_t)&resp,
		.start = (uintptr_t)addr,
		.length = len,
		.hca_va = hca_va,
		.pd_handle = pd,
		.access_flags = access,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req),
			      sizeof(resp));

	if (ret < 0)
		return ret;
	if (mr) {
		mr->handle = resp.core.mr_handle;
		mr->lkey = resp.core.lkey;
		mr->rkey = resp.core.rkey;
	}
	return 0;
}

static int destroy(int fd, __u32 cmd, __u32 handle)
{
	ssize_t ret = raw_cmd(fd, cmd, &handle, sizeof(handle), 0);

	return ret < 0 ? ret : 0;
}

static int rereg_mr(int fd, __u32 handle, __u32 flags, __u32 pd)
{
	struct ib_uverbs_rereg_mr_resp resp = {};
	struct ib_uverbs_rereg_mr req = {
		.response = (uintptr_t)&resp,
		.mr_handle = handle,
		.flags = flags,
		.pd_handle = pd,
		.access_flags = ACCESS_LOCAL_WRITE,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_REREG_MR, &req, sizeof(req),
			      sizeof(resp));

	return ret < 0 ? ret : 0;
}

/* REREG_MR of new access flags only. */
static int rereg_access(int fd, __u32 handle, __u32 access)
{
	struct ib_uverbs_rereg_mr_resp resp = {};
	struct ib_uverbs_rereg_mr req = {
		.response = (uintptr_t)&resp,
		.mr_handle = handle,
		.flags = MR_REREG_ACCESS,
		.access_flags = access,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_REREG_MR, &req, sizeof(req),
			      sizeof(resp));

	return ret < 0 ? ret : 0;
}

static int alloc_mw(int fd, __u32 pd, __u32 type, __u32 *handle)
{
	struct {
		struct ib_uverbs_alloc_mw_resp core;
		char drv[RAW_DRV_OUT];
	} resp = {};
	struct ib_uverbs_alloc_mw req = {
		.response = (uintptr_t)&resp,
		.pd_handle = pd,
		.mw_type = type,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_ALLOC_MW, &req, sizeof(req),
			      sizeof(resp));

	if (ret < 0)
		return ret;
	*handle = resp.core.mw_handle;
	return 0;
}

/* GID 0 of port 1 from sysfs ("fe80:0000:...:3456"). */
static int read_gid0(__u8 gid[16])
{
	char path[128], text[64];
	unsigned int w[8];
	FILE *f;
	int i, n;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/gids/0",
		 raw_ibdev_name());
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%63s", text);
	fclose(f);
	if (n != 1 || sscanf(text, "%x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1],
			     &w[2], &w[3], &w[4], &w[5], &w[6], &w[7]) != 8)
		return -1;
	for (i = 0; i < 8; i++) {
		gid[2 * i] = w[i] >> 8;
		gid[2 * i + 1] = w[i] & 0xff;
	}
	return 0;
}

static int create_ah(int fd, __u32 pd, __u8 port, __u32 *handle)
{
	struct {
		struct ib_uverbs_create_ah_resp core;
		char drv[RAW_DRV_OUT];
	} resp = {};
	struct ib_uverbs_create_ah req = {
		.response = (uintptr_t)&resp,
		.user_handle = 0x1234,
		.pd_handle = pd,
		.attr = {
			.is_global = 1,
			.port_num = port,
			.grh = { .sgid_index = 0, .hop_limit = 64 },
		},
	};
	ssize_t ret;

	/* Our own GID 0 as the destination: resolvable without a peer. */
	if (read_gid0(req.attr.grh.dgid))
		return -EIO;
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_AH, &req, sizeof(req),
		      sizeof(resp));
	if (ret < 0)
		return ret;
	*handle = resp.core.ah_handle;
	return 0;
}

/* An AH towards our own GID 0 with @sgid_index and GRH or not. */
static int create_ah_attr(int fd, __u32 pd, __u8 is_global, __u8 sgid_index,
			  __u32 *handle)
{
	struct {
		struct ib_uverbs_create_ah_resp core;
		char drv[RAW_DRV_OUT];
	} resp = {};
	struct ib_uverbs_create_ah req = {
		.response = (uintptr_t)&resp,
		.pd_handle = pd,
		.attr = {
			.is_global = is_global,
			.port_num = 1,
			.grh = { .sgid_index = sgid_index, .hop_limit = 64 },
		},
	};
	ssize_t ret;

	if (read_gid0(req.attr.grh.dgid))
		return -EIO;
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_AH, &req, sizeof(req),
		      sizeof(resp));
	if (ret < 0)
		return ret;
	*handle = resp.core.ah_handle;
	return 0;
}

/*
 * Drop CAP_IPC_LOCK (keeping everything else), so RLIMIT_MEMLOCK binds.
 * The credentials change: uverbs files opened before answer EACCES.
 */
static int drop_ipc_lock(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[CAP_IPC_LOCK / 32].effective &= ~(1u << (CAP_IPC_LOCK % 32));
	data[CAP_IPC_LOCK / 32].permitted &= ~(1u << (CAP_IPC_LOCK % 32));
	data[CAP_IPC_LOCK / 32].inheritable &= ~(1u << (CAP_IPC_LOCK % 32));
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

static int set_memlock(rlim_t bytes)
{
	struct rlimit rl = { .rlim_cur = bytes, .rlim_max = bytes };

	return setrlimit(RLIMIT_MEMLOCK, &rl) ? -errno : 0;
}

/* A fresh uverbs file with its context; *@async gets its async fd. */
static int open_ctx(int *async)
{
	struct ib_uverbs_get_context_resp ctx = {};
	int fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (raw_get_context(fd, &ctx)) {
		close(fd);
		return -EIO;
	}
	*async = ctx.async_fd;
	return fd;
}

FIXTURE(mem) {
	int fd;
	int async_fd;
	int pd;
	char *buf;
};

FIXTURE_SETUP(mem)
{
	struct ib_uverbs_get_context_resp ctx = {};

	self->async_fd = -1;
	self->buf = NULL;
	self->fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	if (self->fd < 0 && errno == ENOENT)
		SKIP(return, "%s missing: no RDMA device (run with --hca=rxe)",
		     UVERBS_DEV);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, raw_get_context(self->fd, &ctx));
	self->async_fd = ctx.async_fd;
	self->pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, self->pd);
	self->buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
}

FIXTURE_TEARDOWN(mem)
{
	if (self->buf)
		munmap(self->buf, BUF_SIZE);
	if (self->fd >= 0)
		close(self->fd);
	if (self->async_fd >= 0)
		close(self->async_fd);
}

TEST_F(mem, mr_register_and_deregister)
{
	struct mr mr;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, self->buf, BUF_SIZE,
			    (uintptr_t)self->buf,
			    ACCESS_LOCAL_WRITE | ACCESS_REMOTE_WRITE |
			    ACCESS_REMOTE_READ, &mr));
	EXPECT_NE(0, mr.lkey);
	/* The PD is busy while the MR lives on it. */
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
	EXPECT_EQ(-ENOENT, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR,
				   mr.handle));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
}

TEST_F(mem, mr_request_checks)
{
	if (_metadata->skip)
		return;
	/* Start and IOVA must share their offset within a page. */
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, self->buf + 8, 64,
				  (uintptr_t)self->buf + 16,
				  ACCESS_LOCAL_WRITE, NULL));
	/* Remote write needs local write. */
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, self->buf, BUF_SIZE,
				  (uintptr_t)self->buf, ACCESS_REMOTE_WRITE,
				  NULL));
	/* Unknown PD. */
	EXPECT_EQ(-ENOENT, reg_mr(self->fd, self->pd + 100, self->buf,
				  BUF_SIZE, (uintptr_t)self->buf,
				  ACCESS_LOCAL_WRITE, NULL));
	/* Memory that is not mapped cannot be pinned. */
	EXPECT_EQ(-EFAULT, reg_mr(self->fd, self->pd, (void *)4096, 4096, 4096,
				  ACCESS_LOCAL_WRITE, NULL));
}

TEST_F(mem, mr_rereg_on_rxe)
{
	/* 6.12's rdma_rxe has rereg_user_mr (new PD or access only). */
	const int rxe_rereg = raw_kernel_at_least(6, 12);
	struct mr mr;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, self->buf, BUF_SIZE,
			    (uintptr_t)self->buf, ACCESS_LOCAL_WRITE, &mr));
	/*
	 * 6.1's rxe cannot re-register: the command does not exist for it.
	 * On 6.12 the command checks that some flag is set, then rxe moves
	 * the MR to the (same) PD.
	 */
	EXPECT_EQ(rxe_rereg ? -EINVAL : -EOPNOTSUPP,
		  rereg_mr(self->fd, mr.handle, 0, self->pd));
	EXPECT_EQ(rxe_rereg ? 0 : -EOPNOTSUPP,
		  rereg_mr(self->fd, mr.handle, MR_REREG_PD, self->pd));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
}

/*
 * A move to another PD in place: rxe (6.12) sets ib_mr::pd itself, as
 * mlx5's UMR path does, and the core must still release the PD the MR
 * left (ours kept it busy until the fix: DEALLOC_PD EBUSY, and a WARN
 * when the file closed).
 */
TEST_F(mem, mr_rereg_pd_releases_the_old_pd)
{
	const int rxe_rereg = raw_kernel_at_least(6, 12);
	struct mr mr;
	int pd2;

	if (_metadata->skip)
		return;
	pd2 = raw_alloc_pd(self->fd);
	ASSERT_LE(0, pd2);
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, self->buf, BUF_SIZE,
			    (uintptr_t)self->buf, ACCESS_LOCAL_WRITE, &mr));
	EXPECT_EQ(rxe_rereg ? 0 : -EOPNOTSUPP,
		  rereg_mr(self->fd, mr.handle, MR_REREG_PD, pd2));
	if (rxe_rereg) {
		EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
		EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, pd2));
	} else {
		EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));
		EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd2));
	}
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
	EXPECT_EQ(-ENOENT, raw_dealloc_pd(self->fd, rxe_rereg ? self->pd : pd2));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, rxe_rereg ? pd2 : self->pd));
}

TEST_F(mem, mw_types)
{
	__u32 mw = 0;

	if (_metadata->skip)
		return;
	EXPECT_EQ(-EINVAL, alloc_mw(self->fd, self->pd, 3, &mw));
	ASSERT_EQ(0, alloc_mw(self->fd, self->pd, 2, &mw));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEALLOC_MW, mw));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
}

TEST_F(mem, ah_create_and_destroy)
{
	__u32 ah = 0;

	if (_metadata->skip)
		return;
	EXPECT_EQ(-EINVAL, create_ah(self->fd, self->pd, 0, &ah));
	EXPECT_EQ(-EINVAL, create_ah(self->fd, self->pd, 2, &ah));
	ASSERT_EQ(0, create_ah(self->fd, self->pd, 1, &ah));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DESTROY_AH, ah));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
}

TEST_F(mem, xrcd_absent_without_driver_support)
{
	struct ib_uverbs_open_xrcd_resp resp = {};
	struct ib_uverbs_open_xrcd req = {
		.response = (uintptr_t)&resp,
		.fd = -1,
	};

	if (_metadata->skip)
		return;
	/* rxe has no XRC: the command does not exist for it. */
	EXPECT_EQ(-EOPNOTSUPP, raw_cmd(self->fd, IB_USER_VERBS_CMD_OPEN_XRCD,
				       &req, sizeof(req), sizeof(resp)));
}

TEST_F(mem, handles_are_per_file)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct mr mr;
	int other;

	if (_metadata->skip)
		return;
	other = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, raw_get_context(other, &ctx));
	EXPECT_EQ(-ENOENT, reg_mr(other, self->pd, self->buf, BUF_SIZE,
				  (uintptr_t)self->buf, ACCESS_LOCAL_WRITE,
				  &mr));
	EXPECT_EQ(-ENOENT, raw_dealloc_pd(other, self->pd));
	close(ctx.async_fd);
	close(other);
}

TEST_F(mem, mr_access_flag_rules)
{
	char *p = self->buf;
	__u64 va = (uintptr_t)p;
	struct mr mr;

	if (_metadata->skip)
		return;
	/* Remote write and remote atomic need local write. */
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
				  IB_UVERBS_ACCESS_REMOTE_ATOMIC, NULL));
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
				  IB_UVERBS_ACCESS_REMOTE_WRITE |
				  IB_UVERBS_ACCESS_REMOTE_READ, NULL));
	/* Bits outside the supported set, below and above the optional range. */
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
				  IB_UVERBS_ACCESS_LOCAL_WRITE | (1u << 10), NULL));
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
				  IB_UVERBS_ACCESS_LOCAL_WRITE | (1u << 30),
				  NULL));
	/*
	 * Bit 8 is outside 6.1's set; 6.12 names it FLUSH_GLOBAL and accepts
	 * it from a device with IB_DEVICE_FLUSH_GLOBAL, which its rxe is.
	 */
	if (raw_kernel_at_least(6, 12)) {
		ASSERT_EQ(0, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
				    IB_UVERBS_ACCESS_LOCAL_WRITE | (1u << 8), &mr));
		EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR,
				     mr.handle));
	} else {
		EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
					  IB_UVERBS_ACCESS_LOCAL_WRITE | (1u << 8),
					  NULL));
	}
	/*
	 * rxe has no on-demand paging: 6.1's ib_check_mr_access() says
	 * EINVAL, 6.12's EOPNOTSUPP.
	 */
	EXPECT_EQ(raw_kernel_at_least(6, 12) ? -EOPNOTSUPP : -EINVAL,
		  reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
			 IB_UVERBS_ACCESS_LOCAL_WRITE |
			 IB_UVERBS_ACCESS_ON_DEMAND, NULL));
	/* The access check comes before the PD lookup. */
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd + 100, p, BUF_SIZE, va,
				  IB_UVERBS_ACCESS_REMOTE_WRITE, NULL));
	/* ... and the offset check before everything. */
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd + 100, p + 1, 64, va,
				  IB_UVERBS_ACCESS_LOCAL_WRITE, NULL));

	/* Optional bits (relaxed ordering) are accepted and ignorable. */
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
			    IB_UVERBS_ACCESS_LOCAL_WRITE |
			    IB_UVERBS_ACCESS_RELAXED_ORDERING, &mr));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
	/* Every right at once, and none at all. */
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
			    IB_UVERBS_ACCESS_LOCAL_WRITE |
			    IB_UVERBS_ACCESS_REMOTE_WRITE |
			    IB_UVERBS_ACCESS_REMOTE_READ |
			    IB_UVERBS_ACCESS_REMOTE_ATOMIC |
			    IB_UVERBS_ACCESS_MW_BIND, &mr));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, p, BUF_SIZE, va, 0, &mr));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
}

/*
 * The RDMA FLUSH placement bits on rxe (mr_access_flag_rules has bit 8
 * on a good PD).  6.1 knows neither bit: ib_check_mr_access() answers
 * EINVAL before the PD lookup, and rxe has no REREG_MR.  6.12's rxe has
 * IB_DEVICE_FLUSH_GLOBAL, _FLUSH_PERSISTENT and _ATOMIC_WRITE, so both
 * bits pass that check (a bad PD is then ENOENT); rxe refuses
 * FLUSH_PERSISTENT over pages that are not persistent memory (EINVAL
 * from rxe_mr_init_user), while its REREG_MR takes either bit into the
 * access without looking at the pages.
 */
TEST_F(mem, mr_flush_access_on_rxe)
{
	const int k612 = raw_kernel_at_least(6, 12);
	const __u64 caps = RAW_DEVICE_FLUSH_GLOBAL |
			   RAW_DEVICE_FLUSH_PERSISTENT |
			   RAW_DEVICE_ATOMIC_WRITE;
	struct ib_uverbs_ex_query_device_resp dev;
	char *p = self->buf;
	__u64 va = (uintptr_t)p;
	struct mr mr;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, raw_query_device_ex(self->fd, &dev));
	EXPECT_EQ(k612 ? caps : 0, dev.device_cap_flags_ex & caps);

	EXPECT_EQ(k612 ? -ENOENT : -EINVAL,
		  reg_mr(self->fd, self->pd + 100, p, BUF_SIZE, va,
			 ACCESS_LOCAL_WRITE | RAW_ACCESS_FLUSH_GLOBAL, NULL));
	EXPECT_EQ(k612 ? -ENOENT : -EINVAL,
		  reg_mr(self->fd, self->pd + 100, p, BUF_SIZE, va,
			 ACCESS_LOCAL_WRITE | RAW_ACCESS_FLUSH_PERSISTENT,
			 NULL));
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
				  ACCESS_LOCAL_WRITE |
				  RAW_ACCESS_FLUSH_PERSISTENT, NULL));

	ASSERT_EQ(0, reg_mr(self->fd, self->pd, p, BUF_SIZE, va,
			    ACCESS_LOCAL_WRITE, &mr));
	EXPECT_EQ(k612 ? 0 : -EOPNOTSUPP,
		  rereg_access(self->fd, mr.handle,
			       ACCESS_LOCAL_WRITE | RAW_ACCESS_FLUSH_GLOBAL));
	EXPECT_EQ(k612 ? 0 : -EOPNOTSUPP,
		  rereg_access(self->fd, mr.handle,
			       ACCESS_LOCAL_WRITE |
			       RAW_ACCESS_FLUSH_PERSISTENT));
	/* 6.12: the bit above them is still outside the set */
	EXPECT_EQ(k612 ? -EINVAL : -EOPNOTSUPP,
		  rereg_access(self->fd, mr.handle,
			       ACCESS_LOCAL_WRITE | (1u << 10)));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
}

TEST_F(mem, mr_ranges)
{
	char *p = self->buf, *hole;
	struct mr mr;

	if (_metadata->skip)
		return;
	/* Zero bytes at a page boundary are zero pages. */
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, p, 0, (uintptr_t)p,
				  IB_UVERBS_ACCESS_LOCAL_WRITE, NULL));
	/* A range that wraps the address space. */
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, self->pd, p, ~(__u64)0 - 4095,
				  (uintptr_t)p, IB_UVERBS_ACCESS_LOCAL_WRITE,
				  NULL));
	/* A range running into a hole: the first page pins, then undone. */
	hole = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, hole);
	ASSERT_EQ(0, munmap(hole + 4096, 4096));
	EXPECT_EQ(-EFAULT, reg_mr(self->fd, self->pd, hole, 2 * 4096,
				  (uintptr_t)hole, IB_UVERBS_ACCESS_LOCAL_WRITE,
				  NULL));
	munmap(hole, 4096);
	/* Unaligned start, a different IOVA with the same page offset. */
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, p + 100, 5000, 0x10000064,
			    IB_UVERBS_ACCESS_LOCAL_WRITE, &mr));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
}

TEST_F(mem, mr_on_read_only_memory)
{
	struct mr mr;
	char *ro;

	if (_metadata->skip)
		return;
	ro = mmap(NULL, BUF_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	/* Remote read only: pinned through a forced copy-on-write. */
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, ro, BUF_SIZE, (uintptr_t)ro,
			    IB_UVERBS_ACCESS_REMOTE_READ, &mr));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
	/* Any write right needs a writable mapping. */
	EXPECT_EQ(-EFAULT, reg_mr(self->fd, self->pd, ro, BUF_SIZE,
				  (uintptr_t)ro, IB_UVERBS_ACCESS_LOCAL_WRITE,
				  NULL));
	EXPECT_EQ(-EFAULT, reg_mr(self->fd, self->pd, ro, BUF_SIZE,
				  (uintptr_t)ro, IB_UVERBS_ACCESS_MW_BIND,
				  NULL));
	munmap(ro, BUF_SIZE);
}

TEST_F(mem, mr_memlock_limit)
{
	const size_t chunk = 16 * 4096;
	int fd, async, pd;
	struct mr a, b, c;
	char *p;

	if (_metadata->skip)
		return;
	p = mmap(NULL, 4 * chunk, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, drop_ipc_lock());
	/* The fixture's file was opened with other credentials. */
	EXPECT_EQ(-EACCES, raw_alloc_pd(self->fd));

	/* No locked memory at all: pinning is not allowed. */
	ASSERT_EQ(0, set_memlock(0));
	fd = open_ctx(&async);
	ASSERT_LE(0, fd);
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	EXPECT_EQ(-EPERM, reg_mr(fd, pd, p, chunk, (uintptr_t)p,
				 IB_UVERBS_ACCESS_LOCAL_WRITE, NULL));

	/* Two chunks' worth: the limit itself is reachable, not beyond. */
	ASSERT_EQ(0, set_memlock(2 * chunk));
	ASSERT_EQ(0, reg_mr(fd, pd, p, chunk, (uintptr_t)p,
			    IB_UVERBS_ACCESS_LOCAL_WRITE, &a));
	ASSERT_EQ(0, reg_mr(fd, pd, p + chunk, chunk, (uintptr_t)p + chunk,
			    IB_UVERBS_ACCESS_LOCAL_WRITE, &b));
	EXPECT_EQ(-ENOMEM, reg_mr(fd, pd, p + 2 * chunk, 4096,
				  (uintptr_t)p + 2 * chunk,
				  IB_UVERBS_ACCESS_LOCAL_WRITE, NULL));
	/* The same pages again count again. */
	EXPECT_EQ(-ENOMEM, reg_mr(fd, pd, p, 4096, (uintptr_t)p,
				  IB_UVERBS_ACCESS_LOCAL_WRITE, NULL));
	/* Deregistering gives the pages back... */
	EXPECT_EQ(0, destroy(fd, IB_USER_VERBS_CMD_DEREG_MR, a.handle));
	ASSERT_EQ(0, reg_mr(fd, pd, p + 2 * chunk, chunk,
			    (uintptr_t)p + 2 * chunk,
			    IB_UVERBS_ACCESS_LOCAL_WRITE, &c));
	EXPECT_EQ(-ENOMEM, reg_mr(fd, pd, p, 4096, (uintptr_t)p,
				  IB_UVERBS_ACCESS_LOCAL_WRITE, NULL));
	/* ... and so does closing the file with MRs still registered. */
	close(fd);
	close(async);
	fd = open_ctx(&async);
	ASSERT_LE(0, fd);
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	ASSERT_EQ(0, reg_mr(fd, pd, p, 2 * chunk, (uintptr_t)p,
			    IB_UVERBS_ACCESS_LOCAL_WRITE, &a));
	EXPECT_EQ(-ENOMEM, reg_mr(fd, pd, p + 2 * chunk, 4096,
				  (uintptr_t)p + 2 * chunk,
				  IB_UVERBS_ACCESS_LOCAL_WRITE, NULL));
	close(fd);
	close(async);
	munmap(p, 4 * chunk);
}

TEST_F(mem, rereg_request_order_on_rxe)
{
	struct mr mr;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, self->buf, BUF_SIZE,
			    (uintptr_t)self->buf, IB_UVERBS_ACCESS_LOCAL_WRITE,
			    &mr));
	/*
	 * Without rereg_user_mr (6.1's rxe) the command has no handler at
	 * all: every combination, even on a bad handle, is EOPNOTSUPP.
	 * 6.12's rxe has one that refuses a new translation (EOPNOTSUPP) and
	 * takes new access flags; flags beyond the known three are the
	 * command's EOPNOTSUPP, before the handle.
	 */
	EXPECT_EQ(-EOPNOTSUPP, rereg_mr(self->fd, mr.handle, MR_REREG_TRANS,
					self->pd));
	EXPECT_EQ(raw_kernel_at_least(6, 12) ? 0 : -EOPNOTSUPP,
		  rereg_mr(self->fd, mr.handle, MR_REREG_ACCESS, self->pd));
	EXPECT_EQ(-EOPNOTSUPP, rereg_mr(self->fd, mr.handle,
					MR_REREG_TRANS | MR_REREG_PD |
					MR_REREG_ACCESS, self->pd));
	EXPECT_EQ(-EOPNOTSUPP, rereg_mr(self->fd, mr.handle + 100, 8,
					self->pd));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
}

TEST_F(mem, wrong_object_types)
{
	__u32 mw = 0, ah = 0;
	struct mr mr;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, self->buf, BUF_SIZE,
			    (uintptr_t)self->buf, IB_UVERBS_ACCESS_LOCAL_WRITE,
			    &mr));
	ASSERT_EQ(0, alloc_mw(self->fd, self->pd, 2, &mw));
	ASSERT_EQ(0, create_ah(self->fd, self->pd, 1, &ah));
	/* A handle of another type is EINVAL, not ENOENT. */
	EXPECT_EQ(-EINVAL, raw_dealloc_pd(self->fd, mr.handle));
	EXPECT_EQ(-EINVAL, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR,
				   self->pd));
	EXPECT_EQ(-EINVAL, destroy(self->fd, IB_USER_VERBS_CMD_DEALLOC_MW,
				   ah));
	EXPECT_EQ(-EINVAL, destroy(self->fd, IB_USER_VERBS_CMD_DESTROY_AH,
				   mw));
	EXPECT_EQ(-EINVAL, reg_mr(self->fd, mr.handle, self->buf, 4096,
				  (uintptr_t)self->buf,
				  IB_UVERBS_ACCESS_LOCAL_WRITE, NULL));
	EXPECT_EQ(-EINVAL, alloc_mw(self->fd, ah, 2, &mw));
	/* Nothing was destroyed by the failed attempts. */
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DESTROY_AH, ah));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEALLOC_MW, mw));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
	EXPECT_EQ(-ENOENT, raw_dealloc_pd(self->fd, self->pd));
}

TEST_F(mem, malformed_requests)
{
	struct ib_uverbs_alloc_pd pd_req = { .response = 8 };
	struct ib_uverbs_reg_mr_resp mr_resp;
	struct ib_uverbs_reg_mr mr_req = {
		.response = (uintptr_t)&mr_resp,
		.start = (uintptr_t)self->buf,
		.length = 4096,
		.hca_va = (uintptr_t)self->buf,
		.pd_handle = self->pd,
		.access_flags = IB_UVERBS_ACCESS_LOCAL_WRITE,
	};
	__u32 handle = self->pd;

	if (_metadata->skip)
		return;
	/* Requests shorter than the command's struct. */
	EXPECT_EQ(-ENOSPC, raw_cmd(self->fd, IB_USER_VERBS_CMD_DEALLOC_PD,
				   &handle, 0, 0));
	EXPECT_EQ(-ENOSPC, raw_cmd(self->fd, IB_USER_VERBS_CMD_REG_MR, &mr_req,
				   sizeof(mr_req) - 8, sizeof(mr_resp)));
	/* Response room smaller than the response. */
	EXPECT_EQ(-ENOSPC, raw_cmd(self->fd, IB_USER_VERBS_CMD_REG_MR, &mr_req,
				   sizeof(mr_req), sizeof(mr_resp) - 4));
	/* A response the kernel cannot write: the new PD is undone. */
	EXPECT_EQ(-EFAULT, raw_cmd(self->fd, IB_USER_VERBS_CMD_ALLOC_PD,
				   &pd_req, sizeof(pd_req), 8));
	mr_req.response = 8;
	EXPECT_EQ(-EFAULT, raw_cmd(self->fd, IB_USER_VERBS_CMD_REG_MR, &mr_req,
				   sizeof(mr_req), sizeof(mr_resp)));
	/* Neither left anything on the PD behind. */
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
}

TEST_F(mem, mw_checks)
{
	__u32 mw1 = 0, mw2 = 0;

	if (_metadata->skip)
		return;
	/* The PD is looked up before the type is checked. */
	EXPECT_EQ(-ENOENT, alloc_mw(self->fd, self->pd + 100, 7, &mw1));
	EXPECT_EQ(-EINVAL, alloc_mw(self->fd, self->pd, 0, &mw1));
	ASSERT_EQ(0, alloc_mw(self->fd, self->pd, 1, &mw1));
	ASSERT_EQ(0, alloc_mw(self->fd, self->pd, 2, &mw2));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEALLOC_MW, mw1));
	EXPECT_EQ(-ENOENT, destroy(self->fd, IB_USER_VERBS_CMD_DEALLOC_MW,
				   mw1));
	/* One window left: still busy. */
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, self->pd));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEALLOC_MW, mw2));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
}

TEST_F(mem, ah_attr_checks)
{
	__u32 ah = 0;

	if (_metadata->skip)
		return;
	/* RoCE needs a GRH. */
	EXPECT_EQ(-EINVAL, create_ah_attr(self->fd, self->pd, 0, 0, &ah));
	/* A source GID index with no GID behind it. */
	EXPECT_EQ(-ENODATA, create_ah_attr(self->fd, self->pd, 1, 255, &ah));
	/* An unknown PD, after the port check. */
	EXPECT_EQ(-ENOENT, create_ah(self->fd, self->pd + 100, 1, &ah));
	EXPECT_EQ(-EINVAL, create_ah(self->fd, self->pd + 100, 9, &ah));
	ASSERT_EQ(0, create_ah_attr(self->fd, self->pd, 1, 0, &ah));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DESTROY_AH, ah));
	EXPECT_EQ(-ENOENT, destroy(self->fd, IB_USER_VERBS_CMD_DESTROY_AH, ah));
}

TEST_F(mem, close_with_everything_alive)
{
	int fd, async, pd, before_mr, before_pd;
	__u32 mw = 0, ah = 0;
	struct mr mr;

	if (_metadata->skip)
		return;
	before_mr = raw_res_count("mr");
	before_pd = raw_res_count("pd");
	/* iproute2's rdma tool reads ib_core's resource tracker. */
	ASSERT_LE(0, before_mr);
	ASSERT_LE(0, before_pd);
	fd = open_ctx(&async);
	ASSERT_LE(0, fd);
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	ASSERT_EQ(0, reg_mr(fd, pd, self->buf, BUF_SIZE, (uintptr_t)self->buf,
			    IB_UVERBS_ACCESS_LOCAL_WRITE, &mr));
	ASSERT_EQ(0, alloc_mw(fd, pd, 2, &mw));
	ASSERT_EQ(0, create_ah(fd, pd, 1, &ah));
	EXPECT_EQ(before_mr + 1, raw_res_count("mr"));
	EXPECT_EQ(before_pd + 1, raw_res_count("pd"));
	/* The teardown destroys the dependants before their PD. */
	close(fd);
	close(async);
	EXPECT_EQ(before_mr, raw_res_count("mr"));
	EXPECT_EQ(before_pd, raw_res_count("pd"));
}

TEST_F(mem, other_files_objects)
{
	int other, async, opd;
	__u32 mw = 0, ah = 0;
	struct mr mr;

	if (_metadata->skip)
		return;
	other = open_ctx(&async);
	ASSERT_LE(0, other);
	opd = raw_alloc_pd(other);
	ASSERT_LE(0, opd);
	ASSERT_EQ(0, reg_mr(other, opd, self->buf, BUF_SIZE,
			    (uintptr_t)self->buf, IB_UVERBS_ACCESS_LOCAL_WRITE,
			    &mr));
	ASSERT_EQ(0, alloc_mw(other, opd, 2, &mw));
	ASSERT_EQ(0, create_ah(other, opd, 1, &ah));
	/* None of them can be reached through our file. */
	EXPECT_EQ(-ENOENT, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR,
				   mr.handle));
	EXPECT_EQ(-ENOENT, destroy(self->fd, IB_USER_VERBS_CMD_DEALLOC_MW, mw));
	EXPECT_EQ(-ENOENT, destroy(self->fd, IB_USER_VERBS_CMD_DESTROY_AH, ah));
	/* Their MR's handle is no PD of ours either. */
	EXPECT_EQ(-ENOENT, reg_mr(self->fd, mr.handle, self->buf, 4096,
				  (uintptr_t)self->buf,
				  IB_UVERBS_ACCESS_LOCAL_WRITE, NULL));
	/* Both files number their objects alike: same PD handle, two PDs. */
	EXPECT_EQ(self->pd, opd);
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, self->pd));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(other, opd));
	close(other);
	close(async);
}

TEST_HARNESS_MAIN
