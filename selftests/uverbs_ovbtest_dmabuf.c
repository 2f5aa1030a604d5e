// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MRs over a dma-buf (UVERBS_METHOD_REG_DMABUF_MR) on the test HCA: the
 * success path, which needs a driver with a DMA device and a dma-buf
 * exporter, neither of which Debian's 6.1 guest has otherwise (no
 * udmabuf; uverbs_ovbtest_udmabuf uses 6.12's).
 * ovbtest.ko registers them pinned (ib_umem_dmabuf_get_pinned, as efa);
 * its exporter, ovbtest_dmabuf.ko, hands out dma-bufs of plain pages
 * (OVBTEST_METHOD_DEVICE_DMABUF_ALLOC) that mmap() for the test to read
 * and write, and the COPY method of the CHAN object moves bytes between a
 * user-memory MR and a dma-buf MR through the umem's DMA addresses, i.e.
 * through the table ib_umem_dmabuf_map_pages() trimmed to the MR.
 * Covered: keys, QUERY_MR, copies both ways and inside a window of the
 * buffer, both exporter flavours (dynamic with pin/unpin, static), the
 * errors of REG_DMABUF_MR, rereg, DEREG, closing the dma-buf fd first,
 * closing the uverbs file, and rmmod ovbtest (hot-unplug) with a live
 * dma-buf MR.  Each case expects what the in-tree 6.1 ib_uverbs answers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "ovbtest_dmabuf.h"

#define PG		4096UL
#define MR_LEN		(16 * PG)
#define RW		IB_UVERBS_ACCESS_LOCAL_WRITE
#define EXP_MODULE	"ovbtest_dmabuf"
#define EXP_PARAMS	"/sys/module/" EXP_MODULE "/parameters/"
/* enum ib_mr_rereg_flags (kernel-internal, the write() ABI's values) */
#define REREG_PD	(1 << 1)
#define REREG_ACCESS	(1 << 2)

FIXTURE(dmabuf) {
	int fd;
	int pd;
	int chan;
	int mr;			/* over buf, LOCAL_WRITE */
	unsigned char *buf;
};

static int exp_unload(void)
{
	return syscall(SYS_delete_module, EXP_MODULE, O_NONBLOCK) ? -errno : 0;
}

/* A live count of the exporter (buffers, attachments, mappings, pins). */
static int exp_count(const char *name)
{
	char path[128];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), EXP_PARAMS "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (fscanf(f, "%d", &v) != 1)
		v = -EIO;
	fclose(f);
	return v;
}

/* REG_DMABUF_MR without the driver's flags: the handle or -errno. */
static int reg_dmabuf(int fd, __u32 pd, __u64 offset, __u64 length,
		      __u64 iova, __s32 dfd, __u32 access, __u32 *lkey,
		      __u32 *rkey)
{
	const struct ovbtest_dmabuf_mr mr = {
		.pd = pd, .offset = offset, .length = length, .iova = iova,
		.dmabuf_fd = dfd, .access = access,
	};

	return ovbtest_reg_dmabuf_mr(fd, &mr, lkey, rkey);
}

static long nonzero(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return i;
	return -1;
}

FIXTURE_SETUP(dmabuf)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	HCA_SETUP_LOAD();
	ASSERT_EQ(0, ovbtest_load_module(EXP_MODULE));
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	self->buf = mmap(NULL, MR_LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
	self->mr = ovbtest_reg_mr(self->fd, self->pd, self->buf, MR_LEN, RW);
	ASSERT_LE(0, self->mr);
	self->chan = ovbtest_chan_create(self->fd, self->pd, 8, NULL);
	ASSERT_LE(0, self->chan);
}

FIXTURE_TEARDOWN(dmabuf)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->buf && self->buf != MAP_FAILED)
		munmap(self->buf, MR_LEN);
}

/* The exporter's own checks, and its buffers as the CPU sees them. */
TEST_F(dmabuf, exporter_alloc_and_mmap)
{
	int before = exp_count("buffers"), dfd;
	unsigned char *p;

	ASSERT_LE(0, before);
	EXPECT_EQ(-EINVAL, ovbtest_dmabuf_alloc(self->fd, 0, -1));
	EXPECT_EQ(-EINVAL,
		  ovbtest_dmabuf_alloc(self->fd, OVBTEST_DMABUF_MAX_PAGES + 1,
				       -1));
	EXPECT_EQ(-EINVAL, ovbtest_dmabuf_alloc(self->fd, 1, 2));
	EXPECT_EQ(before, exp_count("buffers"));

	dfd = ovbtest_dmabuf_alloc(self->fd, 4, -1);
	ASSERT_LE(0, dfd);
	EXPECT_EQ(FD_CLOEXEC, fcntl(dfd, F_GETFD));
	EXPECT_EQ(O_RDWR, fcntl(dfd, F_GETFL) & O_ACCMODE);
	EXPECT_EQ(before + 1, exp_count("buffers"));
	EXPECT_EQ((off_t)(4 * PG), lseek(dfd, 0, SEEK_END));
	p = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, nonzero(p, 4 * PG));
	pattern_fill(self->buf, 4 * PG, 1);
	memcpy(p, self->buf, 4 * PG);
	munmap(p, 4 * PG);
	/* a second mapping sees the same pages; none beyond the buffer */
	p = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, dfd, 2 * PG);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, memcmp(p, self->buf + 2 * PG, 2 * PG));
	munmap(p, 2 * PG);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, dfd,
				   3 * PG));
	EXPECT_EQ(EINVAL, errno);
	close(dfd);
	EXPECT_EQ(before, exp_count("buffers"));
}

/*
 * A whole buffer as an MR: keys, QUERY_MR, a copy in from user memory and
 * one back out, checked byte for byte through the buffer's mapping.
 */
static void copy_roundtrip(struct __test_metadata *_metadata,
			   FIXTURE_DATA(dmabuf) *self, long flags)
{
	__u32 lkey = 0, rkey = 0, ql, qr;
	int dfd, h, mrs = ovbtest_live_mrs(self->fd);
	__u64 len, iova;
	unsigned char *p;

	dfd = ovbtest_dmabuf_alloc(self->fd, 8, flags);
	ASSERT_LE(0, dfd);
	p = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
	ASSERT_NE(MAP_FAILED, p);

	h = reg_dmabuf(self->fd, self->pd, 0, 8 * PG, 0x7f0000000000ULL, dfd,
		       RW | IB_UVERBS_ACCESS_REMOTE_READ |
		       IB_UVERBS_ACCESS_REMOTE_WRITE, &lkey, &rkey);
	ASSERT_LE(0, h);
	EXPECT_NE(0, lkey);
	EXPECT_NE(0, rkey);
	EXPECT_EQ(mrs + 1, ovbtest_live_mrs(self->fd));
	EXPECT_EQ(1, exp_count("attachments"));
	EXPECT_EQ(1, exp_count("mappings"));
	/* a static exporter has no pins; a dynamic one is pinned */
	EXPECT_EQ(flags == OVBTEST_DMABUF_STATIC, exp_count("pins") == 0);
	ASSERT_EQ(0, ovbtest_query_mr(self->fd, h, &ql, &qr, &len, &iova));
	EXPECT_EQ(lkey, ql);
	EXPECT_EQ(rkey, qr);
	EXPECT_EQ(8 * PG, len);
	EXPECT_EQ(0x7f0000000000ULL, iova);

	/* user memory -> dma-buf: all of the MR, in two copies */
	pattern_fill(self->buf, MR_LEN, 3);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0, 5 * PG,
			      NULL));
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, 5 * PG, h,
			      5 * PG, 3 * PG, NULL));
	EXPECT_EQ(-1, pattern_differs(p, 8 * PG, 3));

	/* dma-buf -> user memory, at odd offsets across page boundaries */
	pattern_fill(p, 8 * PG, 11);
	memset(self->buf, 0, MR_LEN);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 1000, self->mr, 77,
			      3 * PG + 5, NULL));
	EXPECT_EQ(-1, nonzero(self->buf, 77));
	EXPECT_EQ(0, memcmp(self->buf + 77, p + 1000, 3 * PG + 5));
	EXPECT_EQ(-1, nonzero(self->buf + 77 + 3 * PG + 5,
			      MR_LEN - 77 - 3 * PG - 5));
	/* outside the dma-buf MR */
	EXPECT_EQ(-ERANGE, ovbtest_copy(self->fd, self->chan, self->mr, 0, h,
				    8 * PG - 4, 8, NULL));
	EXPECT_EQ(-ERANGE, ovbtest_copy(self->fd, self->chan, h, 8 * PG, self->mr,
				    0, 1, NULL));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	EXPECT_EQ(mrs, ovbtest_live_mrs(self->fd));
	EXPECT_EQ(0, exp_count("attachments"));
	EXPECT_EQ(0, exp_count("mappings"));
	EXPECT_EQ(0, exp_count("pins"));
	EXPECT_EQ(-ENOENT, ovbtest_dereg_mr(self->fd, h));
	/* the buffer is the exporter's again, unchanged */
	EXPECT_EQ(-1, pattern_differs(p, 8 * PG, 11));
	munmap(p, 8 * PG);
	close(dfd);
	EXPECT_EQ(0, exp_count("buffers"));
}

TEST_F(dmabuf, copy_roundtrip_dynamic_exporter)
{
	copy_roundtrip(_metadata, self, -1);
}

TEST_F(dmabuf, copy_roundtrip_static_exporter)
{
	copy_roundtrip(_metadata, self, OVBTEST_DMABUF_STATIC);
}

/*
 * A window inside the buffer, starting mid-page: MR offset 0 is buffer
 * byte OFF; nothing outside the window changes.
 */
TEST_F(dmabuf, window_inside_the_buffer)
{
	const __u64 off = 2 * PG + 100, len = 3 * PG + 333;
	unsigned char *p;
	int dfd, h, h2;

	dfd = ovbtest_dmabuf_alloc(self->fd, 8, -1);
	ASSERT_LE(0, dfd);
	p = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
	ASSERT_NE(MAP_FAILED, p);
	/* the IOVA's page offset must be the buffer offset's */
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, off, len, 0x10000,
				      dfd, RW, NULL, NULL));
	h = reg_dmabuf(self->fd, self->pd, off, len, 0x10000 + 100, dfd, RW,
		       NULL, NULL);
	ASSERT_LE(0, h);

	pattern_fill(self->buf, MR_LEN, 5);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0, len,
			      NULL));
	EXPECT_EQ(-1, nonzero(p, off));
	EXPECT_EQ(-1, pattern_differs(p + off, len, 5));
	EXPECT_EQ(-1, nonzero(p + off + len, 8 * PG - off - len));
	EXPECT_EQ(-ERANGE, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 1,
				    len, NULL));

	/* the last page alone, as a second MR of the same buffer */
	h2 = reg_dmabuf(self->fd, self->pd, 7 * PG, PG, 0, dfd, RW, NULL,
			NULL);
	ASSERT_LE(0, h2);
	EXPECT_EQ(2, exp_count("attachments"));
	/* dma-buf MR to dma-buf MR */
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 10, h2, 20, 3000, NULL));
	EXPECT_EQ(0, memcmp(p + 7 * PG + 20, p + off + 10, 3000));
	memset(self->buf, 0, MR_LEN);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h2, 0, self->mr, 0, PG,
			      NULL));
	EXPECT_EQ(0, memcmp(self->buf, p + 7 * PG, PG));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h2));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	EXPECT_EQ(0, exp_count("attachments"));
	munmap(p, 8 * PG);
	close(dfd);
}

/* What REG_DMABUF_MR refuses, before or in the driver. */
TEST_F(dmabuf, reg_errors)
{
	int dfd, mrs = ovbtest_live_mrs(self->fd), pipefd[2];

	dfd = ovbtest_dmabuf_alloc(self->fd, 4, -1);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(0, pipe(pipefd));

	/* beyond the buffer, empty, wrapping */
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, PG, 4 * PG, PG, dfd,
				      RW, NULL, NULL));
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 0, 4 * PG + 1, 0,
				      dfd, RW, NULL, NULL));
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 4 * PG, 1, 0, dfd,
				      RW, NULL, NULL));
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 0, 0, 0, dfd, RW,
				      NULL, NULL));
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, ~0ULL & ~(PG - 1),
				      2 * PG, 0, dfd, RW, NULL, NULL));
	/* not a dma-buf: a pipe, the uverbs file; no file at all */
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 0, PG, 0, pipefd[0],
				      RW, NULL, NULL));
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 0, PG, 0, self->fd,
				      RW, NULL, NULL));
	EXPECT_EQ(-EBADF, reg_dmabuf(self->fd, self->pd, 0, PG, 0, -1, RW,
				     NULL, NULL));
	EXPECT_EQ(-EBADF, reg_dmabuf(self->fd, self->pd, 0, PG, 0, 1000, RW,
				     NULL, NULL));
	/* access flags the method does not take: MW_BIND, ZERO_BASED, ODP */
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 0, PG, 0, dfd,
				      RW | IB_UVERBS_ACCESS_MW_BIND, NULL,
				      NULL));
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 0, PG, 0, dfd,
				      IB_UVERBS_ACCESS_ZERO_BASED, NULL, NULL));
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 0, PG, 0, dfd,
				      RW | IB_UVERBS_ACCESS_ON_DEMAND, NULL,
				      NULL));
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 0, PG, 0, dfd,
				      1U << 30, NULL, NULL));
	/* remote write needs local write (ib_check_mr_access) */
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, 0, PG, 0, dfd,
				      IB_UVERBS_ACCESS_REMOTE_WRITE, NULL,
				      NULL));
	/* no such PD */
	EXPECT_EQ(-ENOENT, reg_dmabuf(self->fd, 999, 0, PG, 0, dfd, RW, NULL,
				      NULL));

	EXPECT_EQ(mrs, ovbtest_live_mrs(self->fd));
	EXPECT_EQ(0, exp_count("attachments"));
	/* relaxed ordering is optional: accepted */
	EXPECT_LE(0, reg_dmabuf(self->fd, self->pd, 0, PG, 0, dfd,
				IB_UVERBS_ACCESS_RELAXED_ORDERING, NULL, NULL));
	close(pipefd[0]);
	close(pipefd[1]);
	close(dfd);
}

/*
 * A read-only dma-buf MR is no COPY destination.  Re-registered without a
 * new range, it keeps its key as mlx5's: the access bits a key takes are
 * rewritten in place (6.1), unless 6.12's ib_umem_check_rereg() refuses
 * write access over the read-only umem first (EACCES); a "move" to its own
 * PD is no change at all.
 */
TEST_F(dmabuf, read_only_and_rereg)
{
	struct ib_uverbs_rereg_mr_resp resp;
	struct ib_uverbs_rereg_mr req = {
		.response = (uintptr_t)&resp,
		.flags = REREG_ACCESS,
		.access_flags = RW,
	};
	const int done = sizeof(struct ib_uverbs_cmd_hdr) + sizeof(req);
	int dfd, h;

	dfd = ovbtest_dmabuf_alloc(self->fd, 2, -1);
	ASSERT_LE(0, dfd);
	h = reg_dmabuf(self->fd, self->pd, 0, 2 * PG, 0, dfd, 0, NULL, NULL);
	ASSERT_LE(0, h);
	EXPECT_EQ(-EACCES, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0, 8,
				    NULL));
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 0, self->mr, 0, 8,
			      NULL));
	req.mr_handle = h;
	EXPECT_EQ(ovbtest_k612() ? -EACCES : done,
		  (int)raw_cmd(self->fd, IB_USER_VERBS_CMD_REREG_MR, &req,
			       sizeof(req), sizeof(resp)));
	/*
	 * bits no key takes: mlx5 has no pin to build a new MR on; MW_BIND
	 * counts as write access for 6.12's ib_umem_check_rereg() first
	 */
	req.access_flags = IB_UVERBS_ACCESS_MW_BIND;
	EXPECT_EQ(ovbtest_k612() ? -EACCES : -EOPNOTSUPP,
		  (int)raw_cmd(self->fd, IB_USER_VERBS_CMD_REREG_MR, &req,
			       sizeof(req), sizeof(resp)));
	req.access_flags = IB_UVERBS_ACCESS_HUGETLB;
	EXPECT_EQ(-EOPNOTSUPP, (int)raw_cmd(self->fd, IB_USER_VERBS_CMD_REREG_MR,
					    &req, sizeof(req), sizeof(resp)));
	req.flags = REREG_PD;
	req.pd_handle = self->pd;
	EXPECT_EQ(done, (int)raw_cmd(self->fd, IB_USER_VERBS_CMD_REREG_MR, &req,
				     sizeof(req), sizeof(resp)));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	close(dfd);
}

/* The MR holds the dma-buf: closing the fd first changes nothing. */
TEST_F(dmabuf, dmabuf_fd_closed_before_dereg)
{
	int dfd, h, buffers = exp_count("buffers");

	dfd = ovbtest_dmabuf_alloc(self->fd, 4, -1);
	ASSERT_LE(0, dfd);
	h = reg_dmabuf(self->fd, self->pd, 0, 4 * PG, 0, dfd, RW, NULL, NULL);
	ASSERT_LE(0, h);
	ASSERT_EQ(0, close(dfd));
	EXPECT_EQ(buffers + 1, exp_count("buffers"));
	EXPECT_EQ(1, exp_count("attachments"));

	/* still works: in, and back out elsewhere */
	pattern_fill(self->buf, 4 * PG, 9);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0, 4 * PG,
			      NULL));
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 0, self->mr, 8 * PG,
			      4 * PG, NULL));
	EXPECT_EQ(0, memcmp(self->buf, self->buf + 8 * PG, 4 * PG));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	EXPECT_EQ(buffers, exp_count("buffers"));
	EXPECT_EQ(0, exp_count("attachments"));
}

/* Closing the uverbs file destroys the MR, and the MR lets the buffer go. */
TEST_F(dmabuf, uverbs_close_frees_a_live_dmabuf_mr)
{
	int dfd, h, fd2, mrs;

	dfd = ovbtest_dmabuf_alloc(self->fd, 4, OVBTEST_DMABUF_STATIC);
	ASSERT_LE(0, dfd);
	h = reg_dmabuf(self->fd, self->pd, PG, 2 * PG, PG, dfd, RW, NULL,
		       NULL);
	ASSERT_LE(0, h);
	ASSERT_EQ(0, close(dfd));
	mrs = ovbtest_live_mrs(self->fd);
	ASSERT_LE(2, mrs);

	fd2 = ovbtest_open_dev();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	EXPECT_EQ(0, exp_count("buffers"));
	EXPECT_EQ(0, exp_count("attachments"));
	EXPECT_EQ(0, exp_count("mappings"));
	/* a second file's context sees the device empty */
	ASSERT_EQ(0, ovbtest_get_context(fd2, &(struct ovbtest_alloc_ucontext_resp){}));
	EXPECT_EQ(0, ovbtest_live_mrs(fd2));
	close(fd2);
}

/*
 * rmmod ovbtest with a live dma-buf MR: the core destroys the MR (and with
 * it the attachment) while unregistering the device, the module goes
 * without a WARN, and the dma-buf lives on with its user's fd.
 */
TEST_F(dmabuf, unplug_with_a_live_dmabuf_mr)
{
	unsigned long taint = kernel_tainted();
	int dfd, dfd2, h;
	unsigned char *p;

	dfd = ovbtest_dmabuf_alloc(self->fd, 4, -1);
	ASSERT_LE(0, dfd);
	p = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
	ASSERT_NE(MAP_FAILED, p);
	h = reg_dmabuf(self->fd, self->pd, 0, 4 * PG, 0, dfd, RW, NULL, NULL);
	ASSERT_LE(0, h);
	/* a second MR whose fd is closed already */
	dfd2 = ovbtest_dmabuf_alloc(self->fd, 2, OVBTEST_DMABUF_STATIC);
	ASSERT_LE(0, dfd2);
	ASSERT_LE(0, reg_dmabuf(self->fd, self->pd, PG, PG, PG, dfd2, RW, NULL,
				NULL));
	ASSERT_EQ(0, close(dfd2));
	EXPECT_EQ(2, exp_count("buffers"));
	pattern_fill(self->buf, 4 * PG, 21);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0, 4 * PG,
			      NULL));

	ASSERT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_loaded());
	EXPECT_EQ(0, exp_count("attachments"));
	EXPECT_EQ(0, exp_count("mappings"));
	EXPECT_EQ(0, exp_count("pins"));
	EXPECT_EQ(1, exp_count("buffers"));
	EXPECT_EQ(-EIO, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0, 8,
				 NULL));
	EXPECT_EQ(-1, pattern_differs(p, 4 * PG, 21));
	EXPECT_EQ(0, kernel_tainted() & TAINT_WARN & ~taint);

	munmap(p, 4 * PG);
	close(dfd);
	EXPECT_EQ(0, exp_count("buffers"));
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, ovbtest_load());
}

/* Without the exporter module the method has nothing to export. */
TEST_F(dmabuf, exporter_module_unloaded)
{
	int dfd;

	EXPECT_EQ(0, exp_count("buffers"));
	ASSERT_EQ(0, exp_unload());
	EXPECT_EQ(-EOPNOTSUPP, ovbtest_dmabuf_alloc(self->fd, 1, -1));
	ASSERT_EQ(0, ovbtest_load_module(EXP_MODULE));
	dfd = ovbtest_dmabuf_alloc(self->fd, 1, -1);
	EXPECT_LE(0, dfd);
	close(dfd);
}

TEST_HARNESS_MAIN
