// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The three kinds of page an HCA maps through rdma_user_mmap_io(), on the
 * test HCA (selftests/ovbtest/mmap.c): cached kernel RAM, and write-combining
 * and non-cached device memory (pages of the ivshmem-plain BAR qemu/run
 * gives the guest).  Before a hot-unplug each mapping reaches its own page
 * (the driver's fill, writes the driver reads back, x86 PAT's memtype
 * list); an entry lives until its last munmap.  The unplug (rmmod ovbtest,
 * last) must zap every mapping: reads give zeroes without SIGBUS (the zero
 * page for read-only maps, the file's one disassociate page for writable
 * ones, as 6.1's rdma_umap_fault), writes stay off the old BAR pages,
 * PAT's records of the BAR pages go, and the driver has freed every entry
 * (it WARNs at unload otherwise).
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

#include "kselftest_harness.h"
#include "ovbtest_lib.h"
#include "ovbtest_ivshmem.h"

#define PARAM_ENTRIES	OVBTEST_PARAM("mmap_entries")
#define PAT_LIST	"/sys/kernel/debug/x86/pat_memtype_list"

enum { PG_COUNTERS, PG_DOORBELL, PG_WC, PG_NC, NPAGES };

static const char *const page_name[NPAGES] = {
	"counters (cached, read-only)", "doorbell (cached)",
	"write-combining", "non-cached",
};

static const char *pname(int i)
{
	return i >= 0 && i < NPAGES ? page_name[i] : "?";
}

/* The bus address of BAR 2, 0 if unknown. */
static __u64 ivshmem_bar_start(void)
{
	unsigned long long start, end;
	char dir[PATH_MAX];

	return ivshmem_bar2(dir, sizeof(dir), &start, &end) ? 0 : start;
}

/* Whether PAT records [@start, @start + page) as @type. */
static int pat_has(__u64 start, const char *type)
{
	char want[128], line[160];
	int found = 0;
	FILE *f = fopen(PAT_LIST, "r");

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "PAT: [mem 0x%016llx-0x%016llx] %s\n",
		 (unsigned long long)start,
		 (unsigned long long)start + getpagesize(), type);
	while (!found && fgets(line, sizeof(line), f))
		found = !strcmp(line, want);
	fclose(f);
	return found;
}

/* The VmFlags line of the mapping at @addr in /proc/self/smaps. */
static int vmflags_of(const void *addr, char *out, size_t len)
{
	char line[256];
	unsigned long lo, hi;
	int in = 0, ret = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		/* "lo-hi perms ..." starts each mapping's block */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = lo <= (uintptr_t)addr && (uintptr_t)addr < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(out, len, "%.100s", line + 8);
			out[strcspn(out, "\n")] = 0;
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

/* Whether the VmFlags line @flags holds the two-letter flag @f. */
static int has_flag(const char *flags, const char *f)
{
	char pad[160], want[8];

	snprintf(pad, sizeof(pad), " %s ", flags);
	pad[strcspn(pad, "\n")] = ' ';
	snprintf(want, sizeof(want), " %s ", f);
	return strstr(pad, want) != NULL;
}

/* The page's mmap offset and protection. */
static void page_offset(const struct ovbtest_alloc_ucontext_resp *u, int pg,
			__u64 *off, int *prot)
{
	const __u64 offs[NPAGES] = {
		u->counters_offset, u->doorbell_offset, u->wc_offset,
		u->nc_offset,
	};

	*off = offs[pg];
	*prot = pg == PG_COUNTERS ? PROT_READ : PROT_READ | PROT_WRITE;
}

static volatile __u64 *map_page(int fd, const struct ovbtest_alloc_ucontext_resp *u,
				int pg)
{
	__u64 off;
	int prot;
	void *p;

	page_offset(u, pg, &off, &prot);
	p = mmap(NULL, getpagesize(), prot, MAP_SHARED, fd, off);
	return p == MAP_FAILED ? NULL : p;
}

static int all_zero(const volatile __u64 *p)
{
	for (size_t i = 0; i < getpagesize() / sizeof(*p); i++)
		if (p[i])
			return 0;
	return 1;
}

FIXTURE(ovbtest_mmap) {
	int fd;
	struct ovbtest_alloc_ucontext_resp uctx;
	volatile __u64 *pg[NPAGES];
	__u64 bar;		/* bus address of BAR 2 */
};

FIXTURE_SETUP(ovbtest_mmap)
{
	memset(self->pg, 0, sizeof(self->pg));
	self->fd = -1;
	HCA_SETUP_BAR(self->fd, &self->uctx);
	self->bar = ivshmem_bar_start();
	ASSERT_NE(0, self->bar);
	for (int i = 0; i < NPAGES; i++) {
		self->pg[i] = map_page(self->fd, &self->uctx, i);
		ASSERT_NE(NULL, self->pg[i]) TH_LOG("%s: %s", pname(i),
						     strerror(errno));
	}
}

FIXTURE_TEARDOWN(ovbtest_mmap)
{
	for (int i = 0; i < NPAGES; i++)
		if (self->pg[i])
			munmap((void *)self->pg[i], getpagesize());
	if (self->fd >= 0)
		close(self->fd);
}

/* Each kind reaches its own page, with the type the driver asked for. */
TEST_F(ovbtest_mmap, kinds_map_their_pages)
{
	const __u64 wc_phys = self->bar + self->uctx.wc_bar_offset;
	const __u64 nc_phys = self->bar + self->uctx.nc_bar_offset;
	struct ovbtest_device_info info;
	char flags[128];
	void *p;

	EXPECT_EQ(OVBTEST_MAGIC, self->pg[PG_COUNTERS][2]);
	EXPECT_EQ(0, self->pg[PG_DOORBELL][0]);
	EXPECT_EQ(OVBTEST_WC_FILL, self->pg[PG_WC][0]);
	EXPECT_EQ(OVBTEST_NC_FILL, self->pg[PG_NC][0]);
	EXPECT_NE(self->uctx.wc_bar_offset, self->uctx.nc_bar_offset);

	/* Writes reach the device's pages. */
	self->pg[PG_DOORBELL][0] = 0xd00b;
	self->pg[PG_WC][0] = 0x3c3c;
	self->pg[PG_NC][0] = 0x7e7e;
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &info));
	EXPECT_EQ(0xd00b, info.doorbell_value);
	EXPECT_EQ(0x3c3c, info.wc_value);
	EXPECT_EQ(0x7e7e, info.nc_value);

	/*
	 * x86 PAT records each BAR page's user mapping with its type
	 * (pgprot_noncached is UC- on x86); RAM mapped write-back has no
	 * record.  smaps shows no cache type, only VM_IO and VM_PFNMAP.
	 */
	if (access(PAT_LIST, R_OK))
		TH_LOG("no %s: PAT records not checked", PAT_LIST);
	else {
		EXPECT_EQ(1, pat_has(wc_phys, "write-combining"));
		EXPECT_EQ(1, pat_has(nc_phys, "uncached-minus"));
	}
	for (int i = 0; i < NPAGES; i++) {
		ASSERT_EQ(0, vmflags_of((void *)self->pg[i], flags, sizeof(flags)));
		EXPECT_TRUE(has_flag(flags, "io") && has_flag(flags, "pf"))
			TH_LOG("%s: VmFlags%s", pname(i), flags);
	}

	/* Private maps are refused (rdma_user_mmap_io: shared only). */
	p = mmap(NULL, getpagesize(), PROT_READ, MAP_PRIVATE, self->fd,
		 self->uctx.wc_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

/*
 * An entry belongs to its context: a munmap frees none, and the mappings
 * hold the file, so close() leaves the context and its entries (mapped
 * or not) alive; the last munmap of the closed file ends the context and
 * so frees every entry, of every kind.
 */
TEST_F(ovbtest_mmap, entries_live_with_their_context)
{
	struct ovbtest_alloc_ucontext_resp u;
	volatile __u64 *pg[NPAGES];
	long base = sysfs_long(PARAM_ENTRIES);
	int fd;

	ASSERT_LE(NPAGES, base);	/* the fixture's context */
	fd = ovbtest_open_dev();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ovbtest_get_context(fd, &u));
	EXPECT_EQ(base + NPAGES, sysfs_long(PARAM_ENTRIES));
	for (int i = 0; i < NPAGES; i++) {
		pg[i] = map_page(fd, &u, i);
		ASSERT_NE(NULL, pg[i]);
	}
	munmap((void *)pg[PG_COUNTERS], getpagesize());
	munmap((void *)pg[PG_DOORBELL], getpagesize());
	EXPECT_EQ(base + NPAGES, sysfs_long(PARAM_ENTRIES));
	pg[PG_WC][1] = 1;
	close(fd);
	EXPECT_EQ(base + NPAGES, sysfs_long(PARAM_ENTRIES));
	EXPECT_EQ(OVBTEST_WC_FILL, pg[PG_WC][0]);
	EXPECT_EQ(1, pg[PG_WC][1]);
	munmap((void *)pg[PG_WC], getpagesize());
	EXPECT_EQ(base + NPAGES, sysfs_long(PARAM_ENTRIES));
	EXPECT_EQ(OVBTEST_NC_FILL, pg[PG_NC][0]);
	munmap((void *)pg[PG_NC], getpagesize());
	EXPECT_EQ(base, sysfs_long(PARAM_ENTRIES));
}

/* Last: the unplug zaps every kind (rmmod ovbtest). */
TEST_F(ovbtest_mmap, unplug_zaps_every_kind)
{
	const __u64 wc_phys = self->bar + self->uctx.wc_bar_offset;
	const __u64 nc_phys = self->bar + self->uctx.nc_bar_offset;
	volatile __u64 *bar_wc, *bar_nc;
	char dir[PATH_MAX], path[PATH_MAX + 16], flags[128];
	int i, bfd;

	self->pg[PG_DOORBELL][0] = 0xd00b;
	self->pg[PG_WC][0] = 0x3c3c;
	self->pg[PG_NC][0] = 0x7e7e;

	ASSERT_EQ(0, ovbtest_unload());
	ASSERT_FALSE(ovbtest_loaded());

	/* Zapped: zeroes, no SIGBUS (read before anything is written). */
	for (i = 0; i < NPAGES; i++) {
		EXPECT_TRUE(all_zero(self->pg[i])) TH_LOG("%s", pname(i));
	}
	/*
	 * Writable maps fault in the file's one spare page (6.1's
	 * rdma_umap_fault): a write through one shows in all of them.
	 */
	self->pg[PG_WC][0] = 0xdead;
	EXPECT_EQ(0xdead, self->pg[PG_NC][0]);
	EXPECT_EQ(0xdead, self->pg[PG_DOORBELL][0]);
	EXPECT_EQ(0, self->pg[PG_COUNTERS][0]);

	/* PAT's records of the BAR pages went with the zap. */
	if (!access(PAT_LIST, R_OK)) {
		EXPECT_EQ(0, pat_has(wc_phys, "write-combining"));
		EXPECT_EQ(0, pat_has(nc_phys, "uncached-minus"));
	}
	for (i = 0; i < NPAGES; i++)
		if (!vmflags_of((void *)self->pg[i], flags, sizeof(flags)))
			TH_LOG("%s after the unplug: VmFlags%s", pname(i), flags);

	/*
	 * The old BAR pages kept what was written before the unplug and
	 * nothing after (the driver is gone, so the BAR is free to map).
	 */
	ASSERT_EQ(0, ivshmem_dir(dir, sizeof(dir)));
	snprintf(path, sizeof(path), "%s/resource2", dir);
	bfd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, bfd) TH_LOG("%s: %s", path, strerror(errno));
	bar_wc = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, bfd,
		      self->uctx.wc_bar_offset);
	bar_nc = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, bfd,
		      self->uctx.nc_bar_offset);
	ASSERT_NE(MAP_FAILED, bar_wc);
	ASSERT_NE(MAP_FAILED, bar_nc);
	EXPECT_EQ(0x3c3c, bar_wc[0]);
	EXPECT_EQ(0x7e7e, bar_nc[0]);
	munmap((void *)bar_wc, getpagesize());
	munmap((void *)bar_nc, getpagesize());
	close(bfd);
}

TEST_HARNESS_MAIN
