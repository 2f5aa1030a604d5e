// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * REG_DMABUF_MR over a dma-buf of the kernel's own exporter: udmabuf
 * (/dev/udmabuf, UDMABUF_CREATE), which turns pages of a sealed memfd into
 * a dma-buf.  Debian builds it into 6.12 and not into 6.1, so there every
 * case of the test HCA skips saying so (uverbs_ovbtest_dmabuf covers the
 * method with the suite's own exporter on both kernels).
 *
 * On the test HCA (ovbtest.ko, which imports pinned as efa or dynamically
 * as mlx5, and whose COPY method "DMAs" through the umem's DMA addresses):
 * bytes written through the memfd's mapping reach user memory through the
 * MR, bytes the HCA writes into the MR show in the memfd (its mapping,
 * pread(), the udmabuf's own mapping), for a udmabuf of the whole memfd, of
 * a window of it, and of two windows in reverse order (CREATE_LIST), and
 * MRs over windows of the buffer; keys and QUERY_MR; the malformed
 * requests with the in-tree module's errnos; the MR keeps the pages after
 * the udmabuf and memfd fds are gone; DEREG, closing the uverbs file and
 * rmmod ovbtest each leave no attachment (debugfs dma_buf/bufinfo), MR
 * (the driver's count, rdma res) or buffer behind.
 *
 * On rxe: no reg_user_mr_dmabuf on 6.1 or 6.12, so EOPNOTSUPP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/udmabuf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "kselftest_harness.h"
#include "ovbtest_dmabuf.h"

#define PG		4096UL
#define MEM_PAGES	16
#define MEM_LEN		(MEM_PAGES * PG)
#define RW		IB_UVERBS_ACCESS_LOCAL_WRITE
#define UDMABUF_DEV	"/dev/udmabuf"
#define BUFINFO		"/sys/kernel/debug/dma_buf/bufinfo"

/* ------------------------------------------------------------ udmabuf */

/* A memfd of @len bytes sealed against shrinking, as udmabuf requires. */
static int sealed_memfd(size_t len)
{
	int fd = memfd_create("ovb-udmabuf", MFD_ALLOW_SEALING | MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, len) || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* UDMABUF_CREATE_LIST of @n windows; the dma-buf fd or -errno. */
static int udmabuf_list(const struct udmabuf_create_item *items, unsigned int n)
{
	struct {
		struct udmabuf_create_list head;
		struct udmabuf_create_item items[4];
	} req = { .head = { .flags = UDMABUF_FLAGS_CLOEXEC, .count = n } };
	int dev, ret;

	if (n > 4)
		return -E2BIG;
	memcpy(req.items, items, n * sizeof(*items));
	dev = open(UDMABUF_DEV, O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return -errno;
	ret = ioctl(dev, UDMABUF_CREATE_LIST, &req);
	ret = ret < 0 ? -errno : ret;
	close(dev);
	return ret;
}

/* UDMABUF_CREATE: @size bytes of @memfd from @offset; the fd or -errno. */
static int udmabuf(int memfd, __u64 offset, __u64 size)
{
	struct udmabuf_create req = {
		.memfd = memfd, .flags = UDMABUF_FLAGS_CLOEXEC,
		.offset = offset, .size = size,
	};
	int dev, ret;

	dev = open(UDMABUF_DEV, O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return -errno;
	ret = ioctl(dev, UDMABUF_CREATE, &req);
	ret = ret < 0 ? -errno : ret;
	close(dev);
	return ret;
}

static unsigned long inode_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : st.st_ino;
}

/*
 * How many devices are attached to the dma-buf of inode @ino by debugfs's
 * dma_buf/bufinfo; -1 if no such dma-buf lives, -errno if unreadable.
 */
static int bufinfo_attached(unsigned long ino)
{
	unsigned long i, mine = 0;
	char line[512], name[64];
	unsigned int flags, mode;
	long count;
	size_t size;
	int n = -1, total;
	FILE *f = fopen(BUFINFO, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%zu %x %x %ld %63s %lu", &size, &flags, &mode,
			   &count, name, &i) == 6) {
			mine = i == ino;
			continue;
		}
		if (mine && strstr(line, "devices attached") &&
		    sscanf(line, "Total %d", &total) == 1) {
			n = total;
			break;
		}
	}
	fclose(f);
	return n;
}

/* /proc/self/fdinfo's exp_name of @fd into @name. */
static int fdinfo_exp_name(int fd, char name[64])
{
	char path[64], line[256];
	int ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "exp_name: %63s", name) == 1) {
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
}

/* ------------------------------------------------------------- uverbs */

/* REG_DMABUF_MR on the test HCA without its flags: the handle or -errno. */
static int hca_reg(int fd, __u32 pd, __u64 offset, __u64 length, __u64 iova,
		   __s32 dfd, __u32 access)
{
	const struct ovbtest_dmabuf_mr mr = {
		.pd = pd, .offset = offset, .length = length, .iova = iova,
		.dmabuf_fd = dfd, .access = access,
	};

	return ovbtest_reg_dmabuf_mr(fd, &mr, NULL, NULL);
}

/* ------------------------------------------------------- on ovbtest */

FIXTURE(udmabuf) {
	int fd;			/* ovbtest0, with a context */
	int pd;
	int chan;
	int mr;			/* over buf, LOCAL_WRITE */
	unsigned char *buf;	/* user memory, MEM_LEN */
	int memfd;		/* MEM_LEN, sealed against shrinking */
	unsigned char *mem;	/* its shared mapping */
	int mrs;		/* the driver's live MRs after setup */
	int res_mrs;		/* rdma res show mr after setup */
};

FIXTURE_SETUP(udmabuf)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	struct utsname u;

	self->fd = -1;
	self->memfd = -1;
	self->buf = MAP_FAILED;
	self->mem = MAP_FAILED;
	/* Debian's 6.12 builds it in: a missing node there is a failure. */
	if (access(UDMABUF_DEV, R_OK | W_OK) && !ovbtest_k612()) {
		uname(&u);
		SKIP(return, "no " UDMABUF_DEV ": kernel %s has no udmabuf (CONFIG_UDMABUF, built into Debian's 6.12, not 6.1)",
		     u.release);
	}
	ASSERT_EQ(0, access(UDMABUF_DEV, R_OK | W_OK));
	ASSERT_EQ(0, access(BUFINFO, R_OK));
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	self->buf = mmap(NULL, MEM_LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
	self->mr = ovbtest_reg_mr(self->fd, self->pd, self->buf, MEM_LEN, RW);
	ASSERT_LE(0, self->mr);
	self->chan = ovbtest_chan_create(self->fd, self->pd, 8, NULL);
	ASSERT_LE(0, self->chan);

	self->memfd = sealed_memfd(MEM_LEN);
	ASSERT_LE(0, self->memfd);
	self->mem = mmap(NULL, MEM_LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
			 self->memfd, 0);
	ASSERT_NE(MAP_FAILED, self->mem);
	pattern_fill(self->mem, MEM_LEN, 1);
	self->mrs = ovbtest_live_mrs(self->fd);
	ASSERT_LE(1, self->mrs);
	self->res_mrs = raw_res_count("mr");
	ASSERT_LE(1, self->res_mrs);
}

FIXTURE_TEARDOWN(udmabuf)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->buf != MAP_FAILED)
		munmap(self->buf, MEM_LEN);
	if (self->mem != MAP_FAILED)
		munmap(self->mem, MEM_LEN);
	if (self->memfd >= 0)
		close(self->memfd);
}

/* Nothing of the test's dma-buf MRs is left: driver, restrack, dma-buf. */
#define EXPECT_NO_DMABUF_MR(self, ino)					\
	do {								\
		EXPECT_EQ((self)->mrs, ovbtest_live_mrs((self)->fd));	\
		EXPECT_EQ((self)->res_mrs, raw_res_count("mr"));	\
		EXPECT_EQ(0, bufinfo_attached(ino));			\
	} while (0)

/* The environment: a udmabuf is a dma-buf over the memfd's pages. */
TEST_F(udmabuf, udmabuf_shows_the_memfd)
{
	char name[64] = "";
	unsigned char *p;
	int dfd;

	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	/* udmabuf's own rule: the memfd must be sealed against shrinking */
	dfd = memfd_create("unsealed", MFD_CLOEXEC);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(0, ftruncate(dfd, PG));
	EXPECT_EQ(-EINVAL, udmabuf(dfd, 0, PG));
	close(dfd);

	dfd = udmabuf(self->memfd, 2 * PG, 4 * PG);
	ASSERT_LE(0, dfd);
	EXPECT_EQ(FD_CLOEXEC, fcntl(dfd, F_GETFD));
	EXPECT_EQ(0, fdinfo_exp_name(dfd, name));
	EXPECT_STREQ("udmabuf", name);
	EXPECT_EQ((off_t)(4 * PG), lseek(dfd, 0, SEEK_END));
	EXPECT_EQ(0, bufinfo_attached(inode_of(dfd)));
	p = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, dfd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, pattern_differs_at(p, 4 * PG, 2 * PG, 1));
	munmap(p, 4 * PG);
	close(dfd);
}

/*
 * A udmabuf of @size bytes of the fixture's memfd from @offset: its fd
 * (asserted), its inode (the dma-buf's name in bufinfo) in *@ino.
 */
static int memfd_udmabuf(struct __test_metadata *_metadata,
			 FIXTURE_DATA(udmabuf) *self, __u64 offset, __u64 size,
			 unsigned long *ino)
{
	int dfd = udmabuf(self->memfd, offset, size);

	ASSERT_LE(0, dfd);
	*ino = inode_of(dfd);
	return dfd;
}

/*
 * A udmabuf of the whole memfd as one MR, imported with @drv_flags: keys,
 * QUERY_MR, the memfd's bytes read by the HCA through the MR, the HCA's
 * writes into the MR seen through the memfd, DEREG.
 */
static void whole_memfd(struct __test_metadata *_metadata,
			FIXTURE_DATA(udmabuf) *self, __u32 drv_flags)
{
	const __u64 iova = 0x7f0000000000ULL;
	struct ovbtest_dmabuf_mr mr = {
		.pd = self->pd, .length = MEM_LEN, .iova = iova,
		.access = RW | IB_UVERBS_ACCESS_REMOTE_READ |
			  IB_UVERBS_ACCESS_REMOTE_WRITE,
		.drv_flags = drv_flags,
	};
	const size_t at = 1000, from = 77, len = 3 * PG + 5;
	__u32 lkey = 0, rkey = 0, ql = 0, qr = 0;
	unsigned char *view;
	unsigned long ino;
	__u64 qlen, qiova;
	int dfd, h;

	dfd = memfd_udmabuf(_metadata, self, 0, MEM_LEN, &ino);
	mr.dmabuf_fd = dfd;
	h = ovbtest_reg_dmabuf_mr(self->fd, &mr, &lkey, &rkey);
	ASSERT_LE(0, h);
	EXPECT_NE(0, lkey);
	EXPECT_NE(0, rkey);
	ASSERT_EQ(0, ovbtest_query_mr(self->fd, h, &ql, &qr, &qlen, &qiova));
	EXPECT_EQ(lkey, ql);
	EXPECT_EQ(rkey, qr);
	EXPECT_EQ(MEM_LEN, qlen);
	EXPECT_EQ(iova, qiova);
	EXPECT_EQ(self->mrs + 1, ovbtest_live_mrs(self->fd));
	EXPECT_EQ(self->res_mrs + 1, raw_res_count("mr"));
	EXPECT_EQ(1, bufinfo_attached(ino));

	/* memfd -> HCA: what the CPU wrote into the memfd, read via the MR */
	pattern_fill(self->mem, MEM_LEN, 3);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 0, self->mr, 0,
				  5 * PG, NULL));
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 5 * PG, self->mr,
				  5 * PG, MEM_LEN - 5 * PG, NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->buf, MEM_LEN, 0, 3));

	/* HCA -> memfd: the MR written at odd offsets across pages */
	pattern_fill(self->buf, MEM_LEN, 11);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, from, h, at,
				  len, NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->mem, at, 0, 3));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + at, len, from, 11));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + at + len,
					 MEM_LEN - at - len, at + len, 3));
	/* the same bytes through the memfd's file and the udmabuf's mapping */
	memset(self->buf, 0, len);
	ASSERT_EQ((ssize_t)len, pread(self->memfd, self->buf, len, at));
	EXPECT_EQ(-1, pattern_differs_at(self->buf, len, from, 11));
	view = mmap(NULL, MEM_LEN, PROT_READ, MAP_SHARED, dfd, 0);
	ASSERT_NE(MAP_FAILED, view);
	EXPECT_EQ(0, memcmp(view, self->mem, MEM_LEN));
	munmap(view, MEM_LEN);

	/* outside the MR */
	EXPECT_EQ(-ERANGE, ovbtest_copy(self->fd, self->chan, self->mr, 0, h,
					MEM_LEN - 4, 8, NULL));
	EXPECT_EQ(-ERANGE, ovbtest_copy(self->fd, self->chan, h, MEM_LEN,
					self->mr, 0, 1, NULL));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	EXPECT_EQ(-ENOENT, ovbtest_dereg_mr(self->fd, h));
	EXPECT_NO_DMABUF_MR(self, ino);
	close(dfd);
	EXPECT_EQ(-1, bufinfo_attached(ino));
	/* the memfd keeps what the HCA wrote */
	EXPECT_EQ(-1, pattern_differs_at(self->mem + at, len, from, 11));
}

TEST_F(udmabuf, whole_memfd_pinned)
{
	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	whole_memfd(_metadata, self, 0);
}

TEST_F(udmabuf, whole_memfd_dynamic_import)
{
	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	whole_memfd(_metadata, self, OVBTEST_DMABUF_MR_DYNAMIC);
}

/*
 * A udmabuf of memfd pages 3..10 and MRs over windows of it, the first
 * starting mid-page: MR byte 0 is memfd byte 3 pages + OFF; nothing outside
 * the window changes.
 */
TEST_F(udmabuf, windows_of_memfd_and_buffer)
{
	const __u64 base = 3 * PG, off = PG + 100, len = 3 * PG + 333;
	unsigned long ino;
	int dfd, h, h2;

	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	dfd = memfd_udmabuf(_metadata, self, base, 8 * PG, &ino);
	/* the IOVA's page offset must be the buffer offset's */
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, off, len, 0x10000, dfd,
				   RW));
	h = hca_reg(self->fd, self->pd, off, len, 0x10000 + 100, dfd, RW);
	ASSERT_LE(0, h);

	/* memfd -> HCA */
	pattern_fill(self->mem, MEM_LEN, 5);
	memset(self->buf, 0, MEM_LEN);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 0, self->mr, 0, len,
				  NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->buf, len, base + off, 5));
	EXPECT_EQ(-ERANGE, ovbtest_copy(self->fd, self->chan, h, 1, self->mr,
					0, len, NULL));

	/* HCA -> memfd: the window only */
	pattern_fill(self->buf, MEM_LEN, 9);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0, len,
				  NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->mem, base + off, 0, 5));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + base + off, len, 0, 9));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + base + off + len,
					 MEM_LEN - base - off - len,
					 base + off + len, 5));

	/* the buffer's last page as a second MR; MR to MR */
	h2 = hca_reg(self->fd, self->pd, 7 * PG, PG, 0, dfd, RW);
	ASSERT_LE(0, h2);
	EXPECT_EQ(2, bufinfo_attached(ino));
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 10, h2, 20, 3000,
				  NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + base + 7 * PG + 20, 3000,
					 10, 9));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + base + 7 * PG, 20,
					 base + 7 * PG, 5));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h2));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	EXPECT_NO_DMABUF_MR(self, ino);
	close(dfd);
}

/*
 * Two windows of the memfd in reverse order (CREATE_LIST): buffer pages
 * 0-1 are memfd pages 9-10, pages 2-3 memfd pages 2-3.  Copies across the
 * seam land on both sides of it.
 */
TEST_F(udmabuf, list_of_two_windows)
{
	const struct udmabuf_create_item items[] = {
		{ .memfd = self->memfd, .offset = 9 * PG, .size = 2 * PG },
		{ .memfd = self->memfd, .offset = 2 * PG, .size = 2 * PG },
	};
	const size_t seam = 2 * PG, before = 300, len = 1000;
	unsigned long ino;
	int dfd, h;

	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	dfd = udmabuf_list(items, 2);
	ASSERT_LE(0, dfd);
	ino = inode_of(dfd);
	EXPECT_EQ((off_t)(4 * PG), lseek(dfd, 0, SEEK_END));
	h = hca_reg(self->fd, self->pd, 0, 4 * PG, 0, dfd, RW);
	ASSERT_LE(0, h);

	pattern_fill(self->mem, MEM_LEN, 7);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, seam - before,
				  self->mr, 0, len, NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->buf, before, 11 * PG - before,
					 7));
	EXPECT_EQ(-1, pattern_differs_at(self->buf + before, len - before,
					 2 * PG, 7));

	pattern_fill(self->buf, MEM_LEN, 23);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, 0, h,
				  seam - before, len, NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + 11 * PG - before, before,
					 0, 23));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + 2 * PG, len - before,
					 before, 23));
	EXPECT_EQ(-1, pattern_differs_at(self->mem, 2 * PG, 0, 7));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + 2 * PG + len - before,
					 9 * PG - len, 2 * PG + len - before,
					 7));
	EXPECT_EQ(-1, pattern_differs_at(self->mem + 11 * PG,
					 MEM_LEN - 11 * PG, 11 * PG, 7));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	EXPECT_NO_DMABUF_MR(self, ino);
	close(dfd);
}

/* What REG_DMABUF_MR refuses with a real dma-buf, and its errnos. */
TEST_F(udmabuf, reg_errors)
{
	int dfd, dev;
	unsigned long ino;

	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	dfd = memfd_udmabuf(_metadata, self, 0, 4 * PG, &ino);
	dev = open(UDMABUF_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, dev);

	/* beyond the buffer, empty, wrapping */
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, PG, 4 * PG, PG, dfd,
				   RW));
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, 4 * PG + 1, 0, dfd,
				   RW));
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 4 * PG, 1, 0, dfd, RW));
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, 0, 0, dfd, RW));
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, ~0ULL & ~(PG - 1),
				   2 * PG, 0, dfd, RW));
	/* not a dma-buf: the memfd behind it, /dev/udmabuf, the uverbs file */
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, PG, 0, self->memfd,
				   RW));
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, PG, 0, dev, RW));
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, PG, 0, self->fd,
				   RW));
	EXPECT_EQ(-EBADF, hca_reg(self->fd, self->pd, 0, PG, 0, -1, RW));
	EXPECT_EQ(-EBADF, hca_reg(self->fd, self->pd, 0, PG, 0, 1000, RW));
	/* access flags the method does not take */
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, PG, 0, dfd,
				   RW | IB_UVERBS_ACCESS_MW_BIND));
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, PG, 0, dfd,
				   IB_UVERBS_ACCESS_ZERO_BASED));
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, PG, 0, dfd,
				   RW | IB_UVERBS_ACCESS_ON_DEMAND));
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, PG, 0, dfd,
				   1U << 30));
	/* remote write needs local write (ib_check_mr_access) */
	EXPECT_EQ(-EINVAL, hca_reg(self->fd, self->pd, 0, PG, 0, dfd,
				   IB_UVERBS_ACCESS_REMOTE_WRITE));
	/* no such PD */
	EXPECT_EQ(-ENOENT, hca_reg(self->fd, 999, 0, PG, 0, dfd, RW));
	EXPECT_NO_DMABUF_MR(self, ino);

	close(dev);
	close(dfd);
	EXPECT_EQ(-1, bufinfo_attached(ino));
}

/* A read-only MR over the memfd: the HCA reads it and cannot write it. */
TEST_F(udmabuf, read_only_mr)
{
	unsigned long ino;
	int dfd, h;

	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	dfd = memfd_udmabuf(_metadata, self, 0, 2 * PG, &ino);
	h = hca_reg(self->fd, self->pd, 0, 2 * PG, 0, dfd,
		    IB_UVERBS_ACCESS_REMOTE_READ);
	ASSERT_LE(0, h);
	pattern_fill(self->buf, MEM_LEN, 31);
	EXPECT_EQ(-EACCES, ovbtest_copy(self->fd, self->chan, self->mr, 0, h,
					0, 8, NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->mem, 2 * PG, 0, 1));
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 0, self->mr, 0,
				  2 * PG, NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->buf, 2 * PG, 0, 1));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	EXPECT_NO_DMABUF_MR(self, ino);
	close(dfd);
}

/*
 * The MR holds the dma-buf and the dma-buf the memfd's pages: with the
 * udmabuf fd, the memfd's mapping and the memfd closed, the HCA still
 * moves bytes through the MR; DEREG lets everything go.
 */
TEST_F(udmabuf, fds_closed_before_dereg)
{
	unsigned long ino;
	int dfd, h;

	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	dfd = memfd_udmabuf(_metadata, self, 0, 4 * PG, &ino);
	h = hca_reg(self->fd, self->pd, 0, 4 * PG, 0, dfd, RW);
	ASSERT_LE(0, h);
	pattern_fill(self->mem, MEM_LEN, 13);
	ASSERT_EQ(0, close(dfd));
	ASSERT_EQ(0, munmap(self->mem, MEM_LEN));
	self->mem = MAP_FAILED;
	ASSERT_EQ(0, close(self->memfd));
	self->memfd = -1;
	EXPECT_EQ(1, bufinfo_attached(ino));

	/* the pages are still there: out, in elsewhere, out again */
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 0, self->mr, 0,
				  4 * PG, NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->buf, 4 * PG, 0, 13));
	pattern_fill(self->buf, 4 * PG, 17);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0,
				  4 * PG, NULL));
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, h, 0, self->mr, 8 * PG,
				  4 * PG, NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->buf + 8 * PG, 4 * PG, 0, 17));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	EXPECT_EQ(self->mrs, ovbtest_live_mrs(self->fd));
	EXPECT_EQ(-1, bufinfo_attached(ino));
}

/* Closing the uverbs file destroys a live udmabuf MR and frees the buffer. */
TEST_F(udmabuf, uverbs_close_frees_the_mr)
{
	struct ovbtest_dmabuf_mr dynamic = {
		.pd = self->pd, .length = PG, .access = RW,
		.drv_flags = OVBTEST_DMABUF_MR_DYNAMIC,
	};
	unsigned long ino;
	int dfd, fd2;

	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	dfd = memfd_udmabuf(_metadata, self, PG, 4 * PG, &ino);
	ASSERT_LE(0, hca_reg(self->fd, self->pd, PG, 2 * PG, PG, dfd, RW));
	dynamic.dmabuf_fd = dfd;
	ASSERT_LE(0, ovbtest_reg_dmabuf_mr(self->fd, &dynamic, NULL, NULL));
	ASSERT_EQ(0, close(dfd));
	EXPECT_EQ(2, bufinfo_attached(ino));

	fd2 = ovbtest_open_ctx();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	EXPECT_EQ(-1, bufinfo_attached(ino));
	EXPECT_EQ(0, ovbtest_live_mrs(fd2));
	close(fd2);
}

/*
 * rmmod ovbtest with a live udmabuf MR: ib_core destroys it while the
 * device goes, without a WARN; the udmabuf and the memfd live on with what
 * the HCA wrote.
 */
TEST_F(udmabuf, unplug_with_a_live_mr)
{
	unsigned long taint = kernel_tainted(), ino;
	int dfd, h;

	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	dfd = memfd_udmabuf(_metadata, self, 0, 4 * PG, &ino);
	h = hca_reg(self->fd, self->pd, 0, 4 * PG, 0, dfd, RW);
	ASSERT_LE(0, h);
	pattern_fill(self->buf, 4 * PG, 21);
	EXPECT_EQ(0, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0,
				  4 * PG, NULL));
	EXPECT_EQ(1, bufinfo_attached(ino));

	ASSERT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_loaded());
	EXPECT_EQ(0, bufinfo_attached(ino));
	EXPECT_EQ(-EIO, ovbtest_copy(self->fd, self->chan, self->mr, 0, h, 0,
				     8, NULL));
	EXPECT_EQ(-1, pattern_differs_at(self->mem, 4 * PG, 0, 21));
	EXPECT_EQ(0, kernel_tainted() & TAINT_WARN & ~taint);
	close(dfd);
	EXPECT_EQ(-1, bufinfo_attached(ino));
	close(self->fd);
	self->fd = -1;
	/* ovbtest stays unloaded: the programs after this one expect that */
}

/* ------------------------------------------------------------ on rxe */

FIXTURE(rxe) {
	int fd;
	int pd;
};

/* rxe0's uverbs device, opened; -ENOENT without rxe0. */
static int open_rxe(void)
{
	char path[64], name[64], dev[64];
	int i, fd = -ENOENT;
	FILE *f;

	for (i = 0; i < 8 && fd == -ENOENT; i++) {
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband_verbs/uverbs%d/ibdev", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strcmp(name, "rxe0\n")) {
			snprintf(dev, sizeof(dev), "/dev/infiniband/uverbs%d",
				 i);
			fd = open(dev, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				fd = -errno;
		}
		fclose(f);
	}
	return fd;
}

FIXTURE_SETUP(rxe)
{
	struct ib_uverbs_get_context_resp resp;

	self->fd = open_rxe();
	if (self->fd == -ENOENT)
		SKIP(return, "no rxe0 (qemu/run --hca=rxe)");
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, raw_get_context(self->fd, &resp));
	self->pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, self->pd);
}

FIXTURE_TEARDOWN(rxe)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * rxe has no reg_user_mr_dmabuf on 6.1 or 6.12: EOPNOTSUPP, whatever the
 * dma-buf (a udmabuf where the kernel has one, else the memfd), and
 * nothing attached or registered.
 */
TEST_F(rxe, reg_dmabuf_mr_unsupported)
{
	struct ovbtest_dmabuf_mr mr = {
		.driver_id = RDMA_DRIVER_RXE, .pd = self->pd,
		.length = 4 * PG, .access = RW,
	};
	int memfd, dfd = -1, mrs = raw_res_count("mr");
	unsigned long ino = 0;

	if (_metadata->skip)
		return;	/* the fixture setup skipped (6.1's harness runs the body) */

	ASSERT_LE(0, mrs);
	memfd = sealed_memfd(4 * PG);
	ASSERT_LE(0, memfd);
	if (!access(UDMABUF_DEV, R_OK | W_OK)) {
		dfd = udmabuf(memfd, 0, 4 * PG);
		ASSERT_LE(0, dfd);
		ino = inode_of(dfd);
	}
	mr.dmabuf_fd = dfd >= 0 ? dfd : memfd;
	EXPECT_EQ(-EOPNOTSUPP,
		  ovbtest_reg_dmabuf_mr(self->fd, &mr, NULL, NULL));
	/* the method is there: its PD is looked up before the driver's op */
	mr.pd = 999;
	mr.length = PG;
	mr.dmabuf_fd = memfd;
	EXPECT_EQ(-ENOENT, ovbtest_reg_dmabuf_mr(self->fd, &mr, NULL, NULL));
	EXPECT_EQ(mrs, raw_res_count("mr"));
	if (dfd >= 0) {
		EXPECT_EQ(0, bufinfo_attached(ino));
		close(dfd);
	}
	close(memfd);
}

TEST_HARNESS_MAIN
