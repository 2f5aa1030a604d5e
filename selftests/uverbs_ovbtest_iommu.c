// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The umem of a REG_MR behind an IOMMU, as on a real server: qemu/run
 * --iommu boots the guest with an Intel IOMMU in translating mode (strict
 * unmaps) and QEMU's edu PCI device behind it; ovbtest.ko's dma_pci=1
 * makes that device the test HCA's DMA device.  ib_uverbs maps the pinned
 * pages through the IOMMU, which gives the umem IOVAs, not physical
 * addresses, and merges pages scattered in physical memory into one IOVA
 * range.  Each DMA block a driver would program (the umem's block walk,
 * OVBTEST_METHOD_MR_DMA_MAP) is translated back through the device's
 * IOMMU domain (OVBTEST_METHOD_MR_DMA_TRANSLATE) and must land on the
 * page /proc/self/pagemap shows for that place of the MR; the best page
 * size follows the IOVA's alignment; releasing the umem unmaps its IOVAs.
 * Outside an --iommu guest (no edu device) every case skips; in one
 * (OVB_IOMMU=1) a missing device or a domain that does not translate fails.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <linux/udmabuf.h>

#include "kselftest_harness.h"
#include "ovbtest_dma_map.h"
#include "ovbtest_dmabuf.h"

#define SCATTERED	64	/* pages: 256 KB */
#define IOVA_BASE	0x40000000ULL

/* The edu PCI device's sysfs directory into @dir; 0 when there is none. */
static int edu_device(char *dir, size_t size)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	int found = 0;
	char path[512];

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor",
			 e->d_name);
		if (sysfs_long(path) != 0x1234)
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device",
			 e->d_name);
		if (sysfs_long(path) != 0x11e8)
			continue;
		snprintf(dir, size, "/sys/bus/pci/devices/%s", e->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

static int iommu_guest(void)
{
	const char *v = getenv("OVB_IOMMU");

	return v && !strcmp(v, "1");
}

/*
 * OVBTEST_METHOD_MR_DMA_TRANSLATE of @n DMA addresses (@len bytes of
 * them) with room for @room results at @phys_out (0: no such attribute);
 * the domain's kind into *@t.  0 or -errno.
 */
static int translate_raw(int fd, const __u64 *iovas, size_t len,
			 __u64 *phys_out, size_t room,
			 struct ovbtest_dma_translate *t)
{
	struct ioc c;

	memset(t, 0xa5, sizeof(*t));
	memset(phys_out, 0xa5, room * sizeof(*phys_out));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, OVBTEST_METHOD_MR_DMA_TRANSLATE);
	ioc_in(&c, OVBTEST_ATTR_MR_DMA_TRANSLATE_IOVAS, iovas, len);
	ioc_out(&c, OVBTEST_ATTR_MR_DMA_TRANSLATE_OUT, t, sizeof(*t));
	if (room)
		ioc_out(&c, OVBTEST_ATTR_MR_DMA_TRANSLATE_PHYS, phys_out,
			room * sizeof(*phys_out));
	return ioc_call(fd, &c);
}

/* The same for @n DMA addresses and as many results. */
static int translate(int fd, const __u64 *iovas, size_t n, __u64 *phys_out,
		     struct ovbtest_dma_translate *t)
{
	return translate_raw(fd, iovas, n * sizeof(*iovas), phys_out, n, t);
}

/* The one DMA address @iova through the domain; ~0 on a failed call. */
static __u64 translate1(int fd, __u64 iova)
{
	struct ovbtest_dma_translate t;
	__u64 p;

	return translate(fd, &iova, 1, &p, &t) ? ~0ULL : p;
}

/*
 * The largest size of @bitmap at which a umem that is one DMA range
 * starting at @dma (the address of its first byte) can be blocks of a
 * device address space starting at @iova: both agree modulo the size.
 */
static __u64 largest_agreeing(__u64 bitmap, __u64 dma, __u64 iova)
{
	int b;

	for (b = 63; b >= 12; b--)
		if ((bitmap & (1ULL << b)) && !((dma ^ iova) & ((1ULL << b) - 1)))
			return 1ULL << b;
	return 0;
}

FIXTURE(iommu) {
	int fd, pd;
	char ioctl_abi;
	struct dma_map m;
	__u64 iovas[MAX_BLOCKS], phys[MAX_BLOCKS];
};

FIXTURE_SETUP(iommu)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ovbtest_dma_translate t;
	char dev[300];
	__u64 zero = 0, p;
	int ret;

	self->fd = -1;
	self->ioctl_abi = 0;
	if (!edu_device(dev, sizeof(dev))) {
		ASSERT_FALSE(iommu_guest()) TH_LOG("qemu/run --iommu, but no edu device");
		SKIP(return, "no edu PCI device (qemu/run --iommu)");
	}
	/* the test HCA on the edu device: reloaded if it runs without */
	if (ovbtest_loaded()) {
		char yn[4] = "";
		int pfd = open(OVBTEST_PARAM("dma_pci"), O_RDONLY);

		if (pfd >= 0) {
			ASSERT_LT(0, read(pfd, yn, sizeof(yn) - 1));
			close(pfd);
		}
		if (yn[0] != 'Y')
			ASSERT_EQ(0, ovbtest_unload());
	}
	ret = ovbtest_load_module_with(HCA_MODULE, "dma_pci=1");
	if (ret == -ENOENT)
		SKIP(return, "ovbtest.ko not built (make selftests KDIR=...)");
	ASSERT_TRUE(ret == 0 || ret == -EEXIST) TH_LOG("load: %d", ret);
	self->ioctl_abi = ioctl_abi_on();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	ASSERT_EQ(0, translate(self->fd, &zero, 1, &p, &t));
	ASSERT_EQ(1, t.pci) TH_LOG("the DMA device is not the edu device");
	if (t.domain != OVBTEST_DMA_DOMAIN_DMA) {
		ASSERT_FALSE(iommu_guest())
			TH_LOG("the edu device's IOMMU domain is of kind %u, not a strict DMA one",
			       t.domain);
		SKIP(return, "the edu device has no translating IOMMU domain");
	}
}

FIXTURE_TEARDOWN(iommu)
{
	if (self->fd >= 0)
		close(self->fd);
	ioctl_abi_restore(self->ioctl_abi);
}

/*
 * The kernel's own view agrees: the edu device is in an IOMMU group whose
 * default domain translates (sysfs says "DMA", not "identity" or the
 * lazy "DMA-FQ").
 */
TEST_F(iommu, default_domain_translates)
{
	char dev[300], path[400], type[32] = "";
	int fd;

	if (_metadata->skip)	/* the setup skipped: the body runs all the same */
		return;
	ASSERT_TRUE(edu_device(dev, sizeof(dev)));
	snprintf(path, sizeof(path), "%s/iommu_group/type", dev);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd) TH_LOG("%s: the device has no IOMMU group", path);
	ASSERT_LT(0, read(fd, type, sizeof(type) - 1));
	close(fd);
	EXPECT_STREQ("DMA\n", type);
}

/*
 * 64 pages scattered in physical memory (the runs pagemap shows, mostly
 * single pages): the IOMMU maps them into one IOVA range, so the umem has
 * one mapped entry of 256 KB where the CPU side has one entry per run;
 * each 4 KB block translates to its page.
 */
TEST_F(iommu, scattered_pages_are_one_iova_range)
{
	const size_t n = SCATTERED;
	char *p = every_other(n);
	struct ovbtest_dma_translate t;
	size_t i, runs = 1;
	int mr;

	if (_metadata->skip)	/* the setup skipped: the body runs all the same */
		return;
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(0, phys(p)) TH_LOG("no physical addresses in pagemap (root?)");
	for (i = 1; i < n; i++)
		runs += phys(p + i * PG) != phys(p + (i - 1) * PG) + PG;
	ASSERT_LT(1, runs) TH_LOG("the pages are physically contiguous");
	mr = reg_mr_at(self->fd, self->pd, p, n * PG, (uintptr_t)p);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG, &self->m));
	EXPECT_EQ(n, self->m.info.num_pages);
	EXPECT_EQ(PG, self->m.info.best_pgsz);
	ASSERT_EQ(n, self->m.info.num_blocks);
	EXPECT_EQ(1, self->m.info.num_segs);
	EXPECT_EQ(runs, self->m.info.num_cpu_segs);
	EXPECT_EQ(n * PG, self->m.segs[0].len);
	TH_LOG("%zu pages, %u CPU-side entries, %u mapped: IOVA %#llx + %#llx",
	       n, self->m.info.num_cpu_segs, self->m.info.num_segs,
	       (unsigned long long)self->m.segs[0].addr,
	       (unsigned long long)self->m.segs[0].len);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(self->m.segs[0].addr + i * PG, self->m.blocks[i])
			TH_LOG("block %zu is not in the IOVA range's order", i);
		self->iovas[i] = self->m.blocks[i];
	}
	ASSERT_EQ(0, translate(self->fd, self->iovas, n, self->phys, &t));
	for (i = 0; i < n; i++)
		EXPECT_EQ(phys(p + i * PG), self->phys[i])
			TH_LOG("block %zu (IOVA %#llx)", i,
			       (unsigned long long)self->iovas[i]);
	EXPECT_NE(phys(p), self->m.segs[0].addr) TH_LOG("the IOVA is the physical address");
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(p, n * PG);
}

/*
 * The same scattered pages at a 1 GB-aligned MR iova, 4 KB, 64 KB and
 * 2 MB offered: the one IOVA range lets a block be bigger than a physical
 * run; the size is the largest at which the IOVA and the iova agree
 * (the IOVA allocator aligns a 256 KB range to 256 KB: at least 64 KB),
 * and every 4 KB of every block translates to the page of that offset.
 * At an iova 4 KB off alignment, only 4 KB blocks.
 */
TEST_F(iommu, best_pgsz_follows_iova_alignment)
{
	const __u64 bitmap = PG | 64 * 1024 | HUGE;
	const size_t n = SCATTERED;
	char *p = every_other(n);
	struct ovbtest_dma_translate t;
	__u64 want, pgsz;
	size_t i, per;
	int mr;

	if (_metadata->skip)	/* the setup skipped: the body runs all the same */
		return;
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(0, phys(p));
	mr = reg_mr_at(self->fd, self->pd, p, n * PG, IOVA_BASE);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, bitmap, &self->m));
	ASSERT_EQ(1, self->m.info.num_segs);
	want = largest_agreeing(bitmap, self->m.segs[0].addr, IOVA_BASE);
	pgsz = self->m.info.best_pgsz;
	EXPECT_EQ(want, pgsz) TH_LOG("IOVA %#llx", (unsigned long long)self->m.segs[0].addr);
	EXPECT_LE(64 * 1024, pgsz) TH_LOG("no block bigger than a page");
	TH_LOG("IOVA %#llx, MR iova %#llx: best page size %#llx, %llu blocks",
	       (unsigned long long)self->m.segs[0].addr, IOVA_BASE,
	       (unsigned long long)pgsz,
	       (unsigned long long)self->m.info.num_blocks);
	ASSERT_NE(0, pgsz);
	ASSERT_EQ((n * PG + pgsz - 1) / pgsz, self->m.info.num_blocks);
	/* each 4 KB of each block, as the device would reach it */
	per = pgsz / PG;
	for (i = 0; i < n; i++)
		self->iovas[i] = self->m.blocks[i / per] + (i % per) * PG;
	ASSERT_EQ(0, translate(self->fd, self->iovas, n, self->phys, &t));
	for (i = 0; i < n; i++)
		EXPECT_EQ(phys(p + i * PG), self->phys[i])
			TH_LOG("page %zu: block %zu + %zu KB", i, i / per,
			       (i % per) * 4);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));

	mr = reg_mr_at(self->fd, self->pd, p, n * PG, IOVA_BASE + PG);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, bitmap, &self->m));
	EXPECT_EQ(PG, self->m.info.best_pgsz);
	EXPECT_EQ(n, self->m.info.num_blocks);
	EXPECT_EQ(0, dma_map(self->fd, mr, HUGE, &self->m));
	EXPECT_EQ(0, self->m.info.best_pgsz);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(p, n * PG);
}

/*
 * Sub-page MRs and MRs sharing a page: each umem maps the whole pages its
 * bytes touch at IOVAs of its own (page-aligned), two pages into one
 * 8 KB range; the MRs on the same page translate to it; deregistering one
 * unmaps its IOVA and leaves the other's.
 */
TEST_F(iommu, sub_page_mrs_share_pages)
{
	__u64 p0, p1, ia, ic;
	int a, b, c;
	char *p;

	if (_metadata->skip)	/* the setup skipped: the body runs all the same */
		return;
	p = sub_page_mrs(_metadata, self->fd, self->pd, &p0, &p1, &a, &b, &c);

	ASSERT_EQ(0, dma_map(self->fd, a, PG, &self->m));
	EXPECT_EQ(1, self->m.info.num_pages);
	ASSERT_EQ(1, self->m.info.num_segs);
	EXPECT_EQ(PG, self->m.segs[0].len);
	EXPECT_EQ(0, self->m.segs[0].addr % PG);
	EXPECT_EQ(1, self->m.info.num_blocks);
	EXPECT_EQ(self->m.segs[0].addr, self->m.blocks[0]);
	ia = self->m.blocks[0];
	EXPECT_EQ(p0, translate1(self->fd, ia));
	EXPECT_EQ(p0 + 100, translate1(self->fd, ia + 100));

	ASSERT_EQ(0, dma_map(self->fd, c, PG, &self->m));
	ic = self->m.blocks[0];
	EXPECT_NE(ia, ic) TH_LOG("two umems share an IOVA");
	EXPECT_EQ(p0, translate1(self->fd, ic));

	ASSERT_EQ(0, dma_map(self->fd, b, PG, &self->m));
	EXPECT_EQ(2, self->m.info.num_pages);
	EXPECT_EQ(1, self->m.info.num_segs);
	EXPECT_EQ(2 * PG, self->m.segs[0].len);
	ASSERT_EQ(2, self->m.info.num_blocks);
	EXPECT_EQ(self->m.blocks[0] + PG, self->m.blocks[1]);
	EXPECT_EQ(p0, translate1(self->fd, self->m.blocks[0]));
	EXPECT_EQ(p1, translate1(self->fd, self->m.blocks[1]));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, a));
	EXPECT_EQ(0, translate1(self->fd, ia)) TH_LOG("a's IOVA still maps");
	EXPECT_EQ(p0, translate1(self->fd, ic)) TH_LOG("c's IOVA went with a");
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, c));
	EXPECT_EQ(0, translate1(self->fd, ic));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, b));
	munmap(p, 2 * PG);
}

/*
 * Releasing the umem (DEREG_MR) unmaps it: every IOVA that translated to
 * the MR's pages translates to nothing after (strict mode: no deferred
 * flush to wait for).
 */
TEST_F(iommu, dereg_unmaps_the_iovas)
{
	const size_t n = SCATTERED;
	char *p = every_other(n);
	struct ovbtest_dma_translate t;
	size_t i;
	int mr;

	if (_metadata->skip)	/* the setup skipped: the body runs all the same */
		return;
	ASSERT_NE(MAP_FAILED, p);
	mr = reg_mr_at(self->fd, self->pd, p, n * PG, (uintptr_t)p);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG, &self->m));
	ASSERT_EQ(n, self->m.info.num_blocks);
	memcpy(self->iovas, self->m.blocks, n * sizeof(__u64));
	ASSERT_EQ(0, translate(self->fd, self->iovas, n, self->phys, &t));
	for (i = 0; i < n; i++)
		ASSERT_EQ(phys(p + i * PG), self->phys[i]) TH_LOG("block %zu", i);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	ASSERT_EQ(0, translate(self->fd, self->iovas, n, self->phys, &t));
	for (i = 0; i < n; i++)
		EXPECT_EQ(0, self->phys[i])
			TH_LOG("IOVA %#llx still maps %#llx after DEREG_MR",
			       (unsigned long long)self->iovas[i],
			       (unsigned long long)self->phys[i]);
	munmap(p, n * PG);
}

/*
 * What the method refuses and how much it writes.  The physical addresses
 * are the admin's (as pagemap's): a process without CAP_SYS_ADMIN on the
 * same file gets EPERM for an IOVA that maps.  More than 4096 addresses,
 * or a length that is not a whole number of them: EINVAL.  Results go
 * only where there is room: with room for 2 of 3 the third slot is left
 * alone; with no result attribute only the domain's kind comes back.
 */
TEST_F(iommu, translate_refusals)
{
	static __u64 many[4097], out[4097];
	struct ovbtest_dma_translate t;
	char *p = touched(1);
	__u64 three[3], ph = phys(p);
	pid_t pid;
	int mr, st;

	if (_metadata->skip)	/* the setup skipped: the body runs all the same */
		return;
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(0, ph);
	mr = reg_mr_at(self->fd, self->pd, p, PG, (uintptr_t)p);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG, &self->m));
	ASSERT_EQ(1, self->m.info.num_blocks);
	three[0] = self->m.blocks[0];
	three[1] = self->m.blocks[0] + 8;
	three[2] = self->m.blocks[0] + 16;
	ASSERT_EQ(ph, translate1(self->fd, three[0]));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(2);
		st = translate(self->fd, three, 1, out, &t);
		_exit(st == -EPERM && out[0] == 0xa5a5a5a5a5a5a5a5ULL ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("unprivileged TRANSLATE: status %#x", st);

	EXPECT_EQ(0, translate(self->fd, many, 4096, out, &t));
	EXPECT_EQ(0, out[4095]);
	EXPECT_EQ(-EINVAL, translate(self->fd, many, 4097, out, &t));
	EXPECT_EQ(-EINVAL, translate_raw(self->fd, three, 12, out, 1, &t));

	memset(out, 0xa5, sizeof(out));
	EXPECT_EQ(0, translate_raw(self->fd, three, sizeof(three), out, 2, &t));
	EXPECT_EQ(ph, out[0]);
	EXPECT_EQ(ph + 8, out[1]);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, out[2]);
	memset(out, 0xa5, sizeof(out));
	EXPECT_EQ(0, translate_raw(self->fd, three, sizeof(three), out, 0, &t));
	EXPECT_EQ(OVBTEST_DMA_DOMAIN_DMA, t.domain);
	EXPECT_EQ(1, t.pci);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, out[0]);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(p, PG);
}

/*
 * A dma-buf of another exporter (udmabuf over a memfd; Debian builds it
 * into 6.12, not 6.1) as an MR of the test HCA: the HCA's COPY reaches
 * the exporter's pages through the DMA addresses of the attachment, which
 * behind the IOMMU are IOVAs of the edu device's domain.  Bytes the CPU
 * wrote into the memfd come out through the MR; bytes COPY writes into
 * the MR show in the memfd; no WARN.
 */
TEST_F(iommu, foreign_dmabuf_copy)
{
	const size_t len = 4 * PG;
	struct ovbtest_dmabuf_mr req = {
		.pd = self->pd, .length = len, .iova = IOVA_BASE,
		.access = IB_UVERBS_ACCESS_LOCAL_WRITE,
	};
	struct udmabuf_create uc = { .flags = UDMABUF_FLAGS_CLOEXEC, .size = len };
	unsigned char *mem, *buf;
	int memfd, udev, dfd, h, mr, chan, k;

	if (_metadata->skip)	/* the setup skipped: the body runs all the same */
		return;
	if (access("/dev/udmabuf", R_OK | W_OK)) {
		ASSERT_FALSE(ovbtest_k612()) TH_LOG("6.12 without /dev/udmabuf");
		SKIP(return, "no /dev/udmabuf (Debian's 6.1 has no udmabuf)");
	}
	memfd = memfd_create("ovb-iommu", MFD_ALLOW_SEALING | MFD_CLOEXEC);
	ASSERT_LE(0, memfd);
	ASSERT_EQ(0, ftruncate(memfd, len));
	ASSERT_EQ(0, fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK));
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	ASSERT_NE(MAP_FAILED, mem);
	pattern_fill(mem, len, 5);
	udev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, udev);
	uc.memfd = memfd;
	dfd = ioctl(udev, UDMABUF_CREATE, &uc);
	close(udev);
	ASSERT_LE(0, dfd);
	buf = (unsigned char *)touched(4);
	ASSERT_NE(MAP_FAILED, buf);
	mr = reg_mr_at(self->fd, self->pd, buf, len, (uintptr_t)buf);
	ASSERT_LE(0, mr);
	chan = ovbtest_chan_create(self->fd, self->pd, 8, NULL);
	ASSERT_LE(0, chan);
	k = ovbtest_kmsg_mark();
	req.dmabuf_fd = dfd;
	h = ovbtest_reg_dmabuf_mr(self->fd, &req, NULL, NULL);
	ASSERT_LE(0, h);

	/* memfd -> HCA, across the page boundaries */
	memset(buf, 0, len);
	EXPECT_EQ(0, ovbtest_copy(self->fd, chan, h, 100, mr, 0, len - 200,
				  NULL));
	EXPECT_EQ(-1, pattern_differs_at(buf, len - 200, 100, 5));
	/* HCA -> memfd */
	pattern_fill(buf, len, 9);
	EXPECT_EQ(0, ovbtest_copy(self->fd, chan, mr, 0, h, 0, len, NULL));
	EXPECT_EQ(-1, pattern_differs_at(mem, len, 0, 9));
	EXPECT_FALSE(ovbtest_kmsg_warned(k));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, h));
	EXPECT_EQ(0, ovbtest_chan_destroy(self->fd, chan, NULL));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	close(dfd);
	munmap(mem, len);
	close(memfd);
	munmap(buf, len);
}

/*
 * Loaded with the module's generic async_probe=1 (or booted with
 * driver_async_probe=), the driver core would probe the edu device after
 * pci_register_driver() returned; the load still finds it (the driver
 * probes synchronously), and the device translates as before.
 */
TEST_F(iommu, loads_with_async_probe)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ovbtest_dma_translate t;
	__u64 zero = 0, ph;
	int pd;

	if (_metadata->skip)	/* the setup skipped: the body runs all the same */
		return;
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, ovbtest_unload());
	ASSERT_EQ(0, ovbtest_load_module_with(HCA_MODULE, "dma_pci=1 async_probe=1"));
	HCA_SETUP_OPEN(self->fd, &uctx, pd);
	ASSERT_EQ(0, translate(self->fd, &zero, 1, &ph, &t));
	EXPECT_EQ(1, t.pci);
	EXPECT_EQ(OVBTEST_DMA_DOMAIN_DMA, t.domain);
	EXPECT_LE(0, pd);
}

/* "1" into the sysfs file @path; 0 or -errno. */
static int sysfs_write1(const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * The edu device removed under the registered IB device (sysfs "remove",
 * as a hot-unplug of an HCA): the PCI driver's remove takes the IB device
 * with it, as an HCA driver's does, so nothing maps through the removed
 * (freed) device after: the IB device's sysfs entry goes, the open file is
 * disassociated (REG_MR EIO) and its MR released without a WARN.  A rescan
 * brings the edu device back and ovbtest's PCI driver binds it; rmmod and
 * a reload with dma_pci=1 find it behind a translating domain again.
 * The fixture's last case: rmmod and the reload are its own.
 */
TEST_F(iommu, pci_remove_takes_the_ib_device)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	char dev[300], path[400], link[400] = "";
	struct ovbtest_dma_translate t;
	__u64 zero = 0, ph;
	int mr, k, pd;
	char *p;

	if (_metadata->skip)	/* the setup skipped: the body runs all the same */
		return;
	p = touched(1);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(0, phys(p));
	mr = reg_mr_at(self->fd, self->pd, p, PG, (uintptr_t)p);
	ASSERT_LE(0, mr);
	ASSERT_TRUE(edu_device(dev, sizeof(dev)));
	k = ovbtest_kmsg_mark();
	snprintf(path, sizeof(path), "%s/remove", dev);
	ASSERT_EQ(0, sysfs_write1(path));
	EXPECT_FALSE(edu_device(dev, sizeof(dev)));
	/* before any REG_MR: on a driver that keeps it, that maps through freed memory */
	ASSERT_NE(0, access("/sys/class/infiniband/" HCA_IBDEV, F_OK))
		TH_LOG("the IB device outlived its DMA device (PCI remove)");
	EXPECT_EQ(-EIO, reg_mr_at(self->fd, self->pd, p, PG, (uintptr_t)p));
	close(self->fd);
	self->fd = -1;
	EXPECT_FALSE(ovbtest_kmsg_warned(k));

	ASSERT_EQ(0, sysfs_write1("/sys/bus/pci/rescan"));
	ASSERT_TRUE(edu_device(dev, sizeof(dev))) TH_LOG("no edu device after rescan");
	snprintf(path, sizeof(path), "%s/driver", dev);
	ASSERT_LT(0, readlink(path, link, sizeof(link) - 1));
	EXPECT_STREQ("ovbtest_dma", strrchr(link, '/') + 1);
	ASSERT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_kmsg_warned(k));

	ASSERT_EQ(0, ovbtest_load_module_with(HCA_MODULE, "dma_pci=1"));
	HCA_SETUP_OPEN(self->fd, &uctx, pd);
	ASSERT_EQ(0, translate(self->fd, &zero, 1, &ph, &t));
	EXPECT_EQ(1, t.pci);
	EXPECT_EQ(OVBTEST_DMA_DOMAIN_DMA, t.domain);
	mr = reg_mr_at(self->fd, pd, p, PG, (uintptr_t)p);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dma_map(self->fd, mr, PG, &self->m));
	ASSERT_EQ(1, self->m.info.num_blocks);
	EXPECT_EQ(phys(p), translate1(self->fd, self->m.blocks[0]));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(p, PG);
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
