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
#include <sys/mman.h>
#include <rdma/ib_user_verbs.h>

#include "kselftest_harness.h"
#include "uverbs_raw.h"

#define ACCESS_LOCAL_WRITE	1	/* IB_ACCESS_LOCAL_WRITE */
#define ACCESS_REMOTE_WRITE	2
#define ACCESS_REMOTE_READ	4
#define MR_REREG_PD		2	/* IB_MR_REREG_PD */
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

TEST_F(mem, mr_rereg_absent_on_rxe)
{
	struct mr mr;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, reg_mr(self->fd, self->pd, self->buf, BUF_SIZE,
			    (uintptr_t)self->buf, ACCESS_LOCAL_WRITE, &mr));
	/* rxe cannot re-register: the command does not exist for it. */
	EXPECT_EQ(-EOPNOTSUPP, rereg_mr(self->fd, mr.handle, 0, self->pd));
	EXPECT_EQ(-EOPNOTSUPP, rereg_mr(self->fd, mr.handle, MR_REREG_PD,
					self->pd));
	EXPECT_EQ(0, destroy(self->fd, IB_USER_VERBS_CMD_DEREG_MR, mr.handle));
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

TEST_HARNESS_MAIN
