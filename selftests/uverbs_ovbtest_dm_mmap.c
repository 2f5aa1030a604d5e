// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An mmap entry removed with its own object, not with the context: device
 * memory as mlx5 hands it out (MEMIC), on the test HCA (selftests/ovbtest/
 * dm.c).  DM_ALLOC's driver attribute gives the mmap() offset of the DM's
 * pages; DM_FREE removes that entry.  What ib_uverbs must do about it is
 * keep the entry referenced once per mapping (VMA): a split by a partial
 * munmap() adds one, each munmap() drops one, and the pages are freed
 * (ovbtest's mmap_free, counted in its mmap_entries parameter) with the
 * last, never before and never not at all.  An entry freed early would
 * show here as pages given back while still mapped; one never freed as
 * the count not coming back, and as ovbtest's WARN at unload.
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

#define PARAM_ENTRIES	OVBTEST_PARAM("mmap_entries")
#define DM_PAGES	4

/* A DM of @length; its handle (where into *@where), or -errno. */
static int dm_alloc(int fd, __u64 length, struct ovbtest_dm_mmap *where)
{
	__u32 alignment = 0;
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	ioc_obj(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, &length, sizeof(length));
	ioc_in(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, &alignment,
	       sizeof(alignment));
	if (where)
		ioc_out(&c, OVBTEST_ATTR_DM_ALLOC_MMAP, where, sizeof(*where));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

static int dm_free(int fd, __u32 dm)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE);
	ioc_obj(&c, UVERBS_ATTR_FREE_DM_HANDLE, dm);
	return ioc_call(fd, &c);
}

static char *page_of(volatile void *base, int pg)
{
	return (char *)base + (size_t)pg * getpagesize();
}

/* Each page of @base starts with its number and @tag. */
static void fill(volatile void *base, int npages, __u64 tag)
{
	for (int i = 0; i < npages; i++)
		*(volatile __u64 *)page_of(base, i) = tag + i;
}

FIXTURE(dm_mmap) {
	int fd;
	long base;		/* entries alive before the test's own DM */
};

FIXTURE_SETUP(dm_mmap)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	HCA_SETUP_LOAD();
	self->fd = ovbtest_open_dev();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ovbtest_get_context(self->fd, &uctx));
	self->base = sysfs_long(PARAM_ENTRIES);
	ASSERT_LE(0, self->base);
}

FIXTURE_TEARDOWN(dm_mmap)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The offset names the DM's pages only, mapped whole and shared. */
TEST_F(dm_mmap, offset_maps_the_dm)
{
	const size_t len = DM_PAGES * getpagesize();
	struct ovbtest_dm_mmap where = {};
	void *p;
	int dm;

	dm = dm_alloc(self->fd, len - 100, &where);
	ASSERT_LE(0, dm);
	EXPECT_EQ(len, where.length);	/* rounded up to pages */
	EXPECT_EQ(0, where.offset % getpagesize());
	EXPECT_EQ(self->base + 1, sysfs_long(PARAM_ENTRIES));

	/* rdma_user_mmap_io(): the whole entry, MAP_SHARED */
	p = mmap(NULL, len / 2, PROT_READ, MAP_SHARED, self->fd, where.offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, self->fd, where.offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 where.offset);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(0, *(__u64 *)page_of(p, DM_PAGES - 1));	/* zeroed */
	munmap(p, len);

	/* Without the attribute the DM is made all the same. */
	EXPECT_LE(0, dm_alloc(self->fd, 64, NULL));
	EXPECT_EQ(self->base + 2, sysfs_long(PARAM_ENTRIES));
	EXPECT_EQ(0, dm_free(self->fd, dm));
	EXPECT_EQ(self->base + 1, sysfs_long(PARAM_ENTRIES));	/* not mapped: freed at once */
}

/*
 * The pages outlive their DM for as long as any piece of a mapping made
 * before is left, pieces split off by a partial munmap() included.
 */
TEST_F(dm_mmap, pages_outlive_their_dm)
{
	const size_t pg = getpagesize(), len = DM_PAGES * pg;
	struct ovbtest_dm_mmap where = {};
	volatile char *a, *b;
	void *p;
	int dm;

	dm = dm_alloc(self->fd, len, &where);
	ASSERT_LE(0, dm);
	a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 where.offset);
	ASSERT_NE(MAP_FAILED, a);
	b = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd, where.offset);
	ASSERT_NE(MAP_FAILED, b);
	fill(a, DM_PAGES, 0x5000);
	EXPECT_EQ(0x5002, *(volatile __u64 *)page_of(b, 2));

	/* a is cut in three: pages 0, (1 unmapped), 2-3 */
	ASSERT_EQ(0, munmap(page_of(a, 1), pg));
	EXPECT_EQ(self->base + 1, sysfs_long(PARAM_ENTRIES));

	ASSERT_EQ(0, dm_free(self->fd, dm));
	EXPECT_EQ(self->base + 1, sysfs_long(PARAM_ENTRIES));	/* still mapped */
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd, where.offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	/* The pages are still the DM's, through every piece. */
	*(volatile __u64 *)page_of(a, 3) = 0x6003;
	EXPECT_EQ(0x6003, *(volatile __u64 *)page_of(b, 3));
	EXPECT_EQ(0x5000, *(volatile __u64 *)page_of(b, 0));

	/*
	 * The first piece (the VMA mmap() made) goes before the one split
	 * off: the pages must stay for the split piece's own reference.
	 */
	munmap((void *)b, len);
	EXPECT_EQ(self->base + 1, sysfs_long(PARAM_ENTRIES));
	EXPECT_EQ(0x5000, *(volatile __u64 *)page_of(a, 0));
	munmap((void *)a, pg);
	EXPECT_EQ(self->base + 1, sysfs_long(PARAM_ENTRIES));
	EXPECT_EQ(0x5002, *(volatile __u64 *)page_of(a, 2));
	EXPECT_EQ(0x6003, *(volatile __u64 *)page_of(a, 3));
	munmap(page_of(a, 2), 2 * pg);
	EXPECT_EQ(self->base, sysfs_long(PARAM_ENTRIES));	/* the last piece went */
}

/*
 * close() with a DM mapped: the mapping holds the file, so nothing goes
 * until its munmap() ends the context, which frees the DM, whose entry
 * then goes at once (the context's own entries with it).
 */
TEST_F(dm_mmap, last_munmap_ends_context_and_dm)
{
	const size_t len = DM_PAGES * getpagesize();
	struct ovbtest_alloc_ucontext_resp u;
	struct ovbtest_dm_mmap where = {};
	long before = sysfs_long(PARAM_ENTRIES);
	volatile char *a;
	int fd, dm;

	fd = ovbtest_open_dev();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ovbtest_get_context(fd, &u));
	dm = dm_alloc(fd, len, &where);
	ASSERT_LE(0, dm);
	a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 where.offset);
	ASSERT_NE(MAP_FAILED, a);
	fill(a, DM_PAGES, 0x7000);
	close(fd);
	EXPECT_LT(before + 1, sysfs_long(PARAM_ENTRIES));	/* context's and the DM's */
	EXPECT_EQ(0x7001, *(volatile __u64 *)page_of(a, 1));
	munmap((void *)a, len);
	EXPECT_EQ(before, sysfs_long(PARAM_ENTRIES));
}

/*
 * Last: an unplug with a DM alive and mapped, and the pages of a freed
 * DM still mapped.  Both mappings are zapped and read zeroes; every
 * entry is freed (ovbtest WARNs at unload otherwise).
 */
TEST_F(dm_mmap, unplug_with_dm_pages_mapped)
{
	const size_t len = DM_PAGES * getpagesize();
	struct ovbtest_dm_mmap w1 = {}, w2 = {};
	volatile char *live, *freed;
	int dm1, dm2, k;

	dm1 = dm_alloc(self->fd, len, &w1);
	dm2 = dm_alloc(self->fd, len, &w2);
	ASSERT_LE(0, dm1);
	ASSERT_LE(0, dm2);
	live = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		    w1.offset);
	freed = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		     w2.offset);
	ASSERT_NE(MAP_FAILED, live);
	ASSERT_NE(MAP_FAILED, freed);
	fill(live, DM_PAGES, 0x8000);
	fill(freed, DM_PAGES, 0x9000);
	ASSERT_EQ(0, dm_free(self->fd, dm2));

	k = ovbtest_kmsg_mark();
	ASSERT_EQ(0, ovbtest_unload());
	ASSERT_FALSE(ovbtest_loaded());
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
	for (int i = 0; i < DM_PAGES; i++) {
		EXPECT_EQ(0, *(volatile __u64 *)page_of(live, i));
		EXPECT_EQ(0, *(volatile __u64 *)page_of(freed, i));
	}
	munmap((void *)live, len);
	munmap((void *)freed, len);
}

TEST_HARNESS_MAIN
