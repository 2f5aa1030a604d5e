// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Kernel memory a driver maps without rdma_user_mmap_io(), so that
 * ib_core keeps no record of the mapping: the test HCA's
 * OVBTEST_OBJECT_MMAP_KIND buffers (selftests/ovbtest/mmap_kinds.c), one
 * kind per driver: siw's vmalloc queues (remap_vmalloc_range), qedr's and
 * efa's kernel pages (vm_insert_page), mlx5's read-only clock page (also
 * VM_MAYWRITE cleared), ocrdma's and cxgb4's queues at an offset that is
 * their physical address (remap_pfn_range, VM_IO as usnic), pvrdma's UAR
 * (io_remap_pfn_range of a non-cached BAR page, VM_DONTCOPY).
 *
 * What a user sees: the driver's bytes through the map and its own writes
 * in the driver's buffer, the flags of each VMA in smaps, a fork's copies
 * (none for VM_DONTCOPY: SIGSEGV), the mmap errors.  What the driver
 * sees: nothing at munmap (no entry is pinned by these VMAs), its buffer
 * freed at its object's destroy even while mapped (the pages live on in
 * the map where vm_insert_page took a reference; the PHYS maps, which
 * hold no page, are zapped first and SIGBUS after), at close only after
 * the last munmap (the VMAs hold the file).  At a hot-unplug ib_uverbs
 * zaps only what it recorded, so every one of these maps stays: the
 * pages of vm_insert_page/remap_vmalloc_range are held by the map, and
 * ovbtest leaves its PHYS pages to the map rather than free memory a
 * process still maps (remap_pfn_range takes no reference).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

#define NKINDS		OVBTEST_MMAP_KIND_NUM
#define P_ALIVE		OVBTEST_PARAM("mmap_kinds")
#define P_FREED		OVBTEST_PARAM("mmap_kinds_freed")
#define P_LEFT		OVBTEST_PARAM("mmap_kinds_left")

static const char *const kname[NKINDS] = {
	[OVBTEST_MMAP_KIND_VMALLOC] = "vmalloc",
	[OVBTEST_MMAP_KIND_PAGE] = "page",
	[OVBTEST_MMAP_KIND_PAGE_RO] = "page_ro",
	[OVBTEST_MMAP_KIND_PHYS] = "phys",
	[OVBTEST_MMAP_KIND_DONTCOPY] = "dontcopy",
};

struct kbuf {
	__u32 handle;
	__u64 offset;
	__u64 len;
	volatile __u64 *map;
};

static int is_ro(int k)
{
	return k == OVBTEST_MMAP_KIND_PAGE_RO;
}

static int kind_create(int fd, __u32 type, __u64 fill, struct kbuf *b)
{
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_MMAP_KIND,
			 OVBTEST_METHOD_MMAP_KIND_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_MMAP_KIND_CREATE_HANDLE, 0);
	ioc_const(&c, OVBTEST_ATTR_MMAP_KIND_CREATE_KIND, type);
	ioc_in(&c, OVBTEST_ATTR_MMAP_KIND_CREATE_FILL, &fill, sizeof(fill));
	ioc_out(&c, OVBTEST_ATTR_MMAP_KIND_CREATE_OFFSET, &b->offset,
		sizeof(b->offset));
	ioc_out(&c, OVBTEST_ATTR_MMAP_KIND_CREATE_LENGTH, &b->len,
		sizeof(b->len));
	ret = ioc_call(fd, &c);
	b->handle = c.attrs[0].data;
	b->map = NULL;
	return ret;
}

/* The driver's u64 @idx of the buffer (before *@wr is stored, if given). */
static int kind_access(int fd, const struct kbuf *b, __u32 idx,
		       const __u64 *wr, __u64 *val)
{
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_MMAP_KIND,
			 OVBTEST_METHOD_MMAP_KIND_ACCESS);
	ioc_obj(&c, OVBTEST_ATTR_MMAP_KIND_ACCESS_HANDLE, b->handle);
	ioc_in(&c, OVBTEST_ATTR_MMAP_KIND_ACCESS_INDEX, &idx, sizeof(idx));
	if (wr)
		ioc_in(&c, OVBTEST_ATTR_MMAP_KIND_ACCESS_WRITE, wr, sizeof(*wr));
	ioc_out(&c, OVBTEST_ATTR_MMAP_KIND_ACCESS_READ, val, sizeof(*val));
	return ioc_call(fd, &c);
}

static __u64 drv_read(int fd, const struct kbuf *b, __u32 idx)
{
	__u64 v = ~0ULL;

	if (kind_access(fd, b, idx, NULL, &v))
		return ~0ULL;
	return v;
}

static int drv_write(int fd, const struct kbuf *b, __u32 idx, __u64 v)
{
	__u64 old;

	return kind_access(fd, b, idx, &v, &old);
}

static int kind_destroy(int fd, __u32 handle)
{
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_MMAP_KIND,
			 OVBTEST_METHOD_MMAP_KIND_DESTROY);
	ioc_obj(&c, OVBTEST_ATTR_MMAP_KIND_DESTROY_HANDLE, handle);
	return ioc_call(fd, &c);
}

static volatile __u64 *kind_map(int fd, const struct kbuf *b, int prot)
{
	void *p = mmap(NULL, b->len, prot, MAP_SHARED, fd, b->offset);

	return p == MAP_FAILED ? NULL : p;
}

static int kind_prot(int k)
{
	return is_ro(k) ? PROT_READ : PROT_READ | PROT_WRITE;
}

/* A read (or write, then read) of @addr: 0, or SIGBUS (1), SIGSEGV (2). */
static sigjmp_buf probe_jmp;
static volatile int probe_sig;

static void probe_handler(int sig)
{
	probe_sig = sig;
	siglongjmp(probe_jmp, 1);
}

static int probe(volatile __u64 *addr, __u64 *val, int write, __u64 v)
{
	struct sigaction sa = { .sa_handler = probe_handler }, obus, osegv;
	int ret = 0;

	sigaction(SIGBUS, &sa, &obus);
	sigaction(SIGSEGV, &sa, &osegv);
	probe_sig = 0;
	if (!sigsetjmp(probe_jmp, 1)) {
		if (write)
			*addr = v;
		*val = *addr;
	} else {
		ret = probe_sig == SIGBUS ? 1 : 2;
	}
	sigaction(SIGBUS, &obus, NULL);
	sigaction(SIGSEGV, &osegv, NULL);
	return ret;
}

/* The VmFlags and the name of the mapping at @addr (/proc/self/smaps). */
static int smaps_of(const volatile void *addr, char *flags, size_t flen,
		    char *name, size_t nlen)
{
	char line[512], path[256];
	unsigned long lo, hi;
	int in = 0, ret = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = lo <= (uintptr_t)addr && (uintptr_t)addr < hi;
			path[0] = 0;
			if (in)
				sscanf(line, "%*s %*s %*s %*s %*s %255s", path);
			if (in)
				snprintf(name, nlen, "%s", path);
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(flags, flen, " %.200s", line + 8);
			flags[strcspn(flags, "\n")] = ' ';
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

/* Whether the padded VmFlags @flags hold the two-letter flag @f. */
static int has(const char *flags, const char *f)
{
	char want[8];

	snprintf(want, sizeof(want), " %s ", f);
	return strstr(flags, want) != NULL;
}

/*
 * The records since the mark @fd (consumed) from @needle on, one after
 * the other, into @out.
 */
static void kmsg_collect(int fd, const char *needle, char *out, size_t len)
{
	char rec[8192];
	size_t used = 0;
	ssize_t n;

	out[0] = 0;
	if (fd < 0)
		return;
	for (;;) {
		const char *at;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		at = strstr(rec, needle);
		if (at && used + strlen(at) < len) {
			strcpy(out + used, at);
			used += strlen(at);
		}
	}
	close(fd);
}

/* @param's value once it reaches @want within a second, else its last. */
static long param_wait(const char *param, long want)
{
	long v = sysfs_long(param);

	for (int i = 0; i < 100 && v != want; i++) {
		usleep(10000);
		v = sysfs_long(param);
	}
	return v;
}

FIXTURE(kinds) {
	int fd;
	struct kbuf b[NKINDS];
	long alive, freed;	/* the counters before the test */
};

FIXTURE_SETUP(kinds)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	HCA_SETUP_LOAD();
	self->fd = ovbtest_open_dev();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ovbtest_get_context(self->fd, &uctx));
	if (!(uctx.flags & OVBTEST_UCTX_BAR))
		SKIP(return, "no ivshmem-plain BAR in this guest (qemu/run adds one)");
	self->alive = sysfs_long(P_ALIVE);
	self->freed = sysfs_long(P_FREED);
	ASSERT_LE(0, self->alive);
	ASSERT_LE(0, self->freed);
	for (int k = 0; k < NKINDS; k++) {
		ASSERT_EQ(0, kind_create(self->fd, k, 0xf111 + k, &self->b[k]))
			TH_LOG("%s", kname[k]);
		ASSERT_EQ(k == OVBTEST_MMAP_KIND_VMALLOC ?
			  OVBTEST_MMAP_KIND_VMALLOC_PAGES * getpagesize() :
			  k == OVBTEST_MMAP_KIND_PHYS ? 2 * getpagesize() :
			  getpagesize(), self->b[k].len);
	}
	ASSERT_EQ(self->alive + NKINDS, sysfs_long(P_ALIVE));
}

FIXTURE_TEARDOWN(kinds)
{
	for (int k = 0; k < NKINDS; k++)
		if (self->b[k].map)
			munmap((void *)self->b[k].map, self->b[k].len);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Each kind maps its driver's buffer: the bytes the driver wrote read
 * through the map, a write through the map lands in the driver's buffer
 * (every page of it), and the VMA carries the flags the driver's mapping
 * call sets.
 */
TEST_F(kinds, maps_driver_memory)
{
	int ps = getpagesize();

	for (int k = 0; k < NKINDS; k++) {
		struct kbuf *b = &self->b[k];
		__u32 last = b->len / 8 - 1;
		char flags[256] = "", name[256] = "";

		b->map = kind_map(self->fd, b, kind_prot(k));
		ASSERT_NE(NULL, b->map) TH_LOG("%s: %s", kname[k], strerror(errno));
		EXPECT_EQ(0xf111 + k, b->map[0]) TH_LOG("%s", kname[k]);
		/* the driver writes, the user reads, every page */
		for (__u32 i = 1; i < b->len / 8; i += ps / 8) {
			ASSERT_EQ(0, drv_write(self->fd, b, i, 0xd000 + i));
			EXPECT_EQ(0xd000 + i, b->map[i]) TH_LOG("%s [%u]", kname[k], i);
		}
		if (!is_ro(k)) {
			b->map[last] = 0xa000 + k;
			EXPECT_EQ(0xa000 + k, drv_read(self->fd, b, last))
				TH_LOG("%s", kname[k]);
		}
		ASSERT_EQ(0, smaps_of(b->map, flags, sizeof(flags), name,
				      sizeof(name)));
		TH_LOG("%s: %s VmFlags%s", kname[k], name, flags);
		EXPECT_NE(NULL, strstr(name, "/dev/infiniband/uverbs"));
		EXPECT_TRUE(has(flags, "sh"));
		/* vm_insert_page(): VM_MIXEDMAP; remap_pfn_range(): VM_PFNMAP | VM_IO */
		EXPECT_EQ(k <= OVBTEST_MMAP_KIND_PAGE_RO, has(flags, "mm"))
			TH_LOG("%s", kname[k]);
		EXPECT_EQ(k >= OVBTEST_MMAP_KIND_PHYS, has(flags, "pf"))
			TH_LOG("%s", kname[k]);
		EXPECT_EQ(k >= OVBTEST_MMAP_KIND_PHYS, has(flags, "io"))
			TH_LOG("%s", kname[k]);
		EXPECT_EQ(k == OVBTEST_MMAP_KIND_DONTCOPY, has(flags, "dc"))
			TH_LOG("%s", kname[k]);
		EXPECT_EQ(k != OVBTEST_MMAP_KIND_PAGE && k != OVBTEST_MMAP_KIND_PAGE_RO,
			  has(flags, "de")) TH_LOG("%s", kname[k]);
		EXPECT_EQ(!is_ro(k), has(flags, "mw")) TH_LOG("%s", kname[k]);
		EXPECT_EQ(!is_ro(k), has(flags, "wr")) TH_LOG("%s", kname[k]);
	}
	/* the physical-address offset is the buffer's: 2 pages, page-aligned */
	EXPECT_EQ(0, self->b[OVBTEST_MMAP_KIND_PHYS].offset % ps);
	/* nothing was freed or pinned by mapping */
	EXPECT_EQ(self->alive + NKINDS, sysfs_long(P_ALIVE));
	EXPECT_EQ(self->freed, sysfs_long(P_FREED));
}

/* What each kind refuses, and the read-only page's rules. */
TEST_F(kinds, mmap_errors)
{
	volatile __u64 *ro;
	void *p;

	for (int k = 0; k < NKINDS; k++) {
		struct kbuf *b = &self->b[k];

		/* longer or shorter than the buffer */
		p = mmap(NULL, b->len + getpagesize(), PROT_READ, MAP_SHARED,
			 self->fd, b->offset);
		EXPECT_EQ(MAP_FAILED, p) TH_LOG("%s", kname[k]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s", kname[k]);
		if (b->len > (__u64)getpagesize()) {
			p = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED,
				 self->fd, b->offset);
			EXPECT_EQ(MAP_FAILED, p) TH_LOG("%s", kname[k]);
			EXPECT_EQ(EINVAL, errno) TH_LOG("%s", kname[k]);
		}
		/* private */
		p = mmap(NULL, b->len, PROT_READ, MAP_PRIVATE, self->fd,
			 b->offset);
		EXPECT_EQ(MAP_FAILED, p) TH_LOG("%s", kname[k]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s", kname[k]);
	}
	/* an offset one page into the physical buffer is no buffer's */
	p = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd,
		 self->b[OVBTEST_MMAP_KIND_PHYS].offset + getpagesize());
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);

	/* mlx5's clock page: never writable nor executable */
	ro = kind_map(self->fd, &self->b[OVBTEST_MMAP_KIND_PAGE_RO],
		      PROT_READ | PROT_WRITE);
	EXPECT_EQ(NULL, ro);
	EXPECT_EQ(EPERM, errno);
	ro = kind_map(self->fd, &self->b[OVBTEST_MMAP_KIND_PAGE_RO],
		      PROT_READ | PROT_EXEC);
	EXPECT_EQ(NULL, ro);
	EXPECT_EQ(EPERM, errno);
	ro = kind_map(self->fd, &self->b[OVBTEST_MMAP_KIND_PAGE_RO], PROT_READ);
	ASSERT_NE(NULL, ro);
	self->b[OVBTEST_MMAP_KIND_PAGE_RO].map = ro;
	EXPECT_EQ(-1, mprotect((void *)ro, getpagesize(), PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	/* the other kinds leave VM_MAYWRITE: a read-only map may become writable */
	for (int k = 0; k < NKINDS; k++) {
		struct kbuf *b = &self->b[k];
		volatile __u64 *m;

		if (is_ro(k))
			continue;
		m = kind_map(self->fd, b, PROT_READ);
		ASSERT_NE(NULL, m) TH_LOG("%s", kname[k]);
		EXPECT_EQ(0, mprotect((void *)m, b->len, PROT_READ | PROT_WRITE))
			TH_LOG("%s: %s", kname[k], strerror(errno));
		m[1] = 0xbeef;
		EXPECT_EQ(0xbeef, drv_read(self->fd, b, 1)) TH_LOG("%s", kname[k]);
		munmap((void *)m, b->len);
	}
}

/*
 * fork: a child gets every map but pvrdma's (VM_DONTCOPY: SIGSEGV), on
 * the same pages: its writes reach the driver.
 */
TEST_F(kinds, fork)
{
	int status;
	pid_t pid;

	for (int k = 0; k < NKINDS; k++) {
		self->b[k].map = kind_map(self->fd, &self->b[k], kind_prot(k));
		ASSERT_NE(NULL, self->b[k].map) TH_LOG("%s", kname[k]);
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int r = 0;
		__u64 v;

		for (int k = 0; k < NKINDS; k++) {
			int want = k == OVBTEST_MMAP_KIND_DONTCOPY ? 2 : 0;

			if (probe(self->b[k].map, &v, 0, 0) != want)
				r |= 1 << k;
			else if (!want && v != 0xf111 + (__u64)k)
				r |= 1 << k;
			else if (!want && !is_ro(k))
				self->b[k].map[2] = 0xc000 + k;
		}
		_exit(r);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("child status %#x", status);
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("kinds failing: %#x", WEXITSTATUS(status));
	for (int k = 0; k < NKINDS; k++) {
		if (is_ro(k) || k == OVBTEST_MMAP_KIND_DONTCOPY)
			continue;
		EXPECT_EQ(0xc000 + k, drv_read(self->fd, &self->b[k], 2))
			TH_LOG("%s", kname[k]);
	}
	/* the parent's own maps are untouched by the child's exit */
	for (int k = 0; k < NKINDS; k++) {
		EXPECT_EQ(0xf111 + k, self->b[k].map[0]) TH_LOG("%s", kname[k]);
	}
}

/*
 * When the driver frees: munmap() tells it nothing; destroying the object
 * frees the buffer at once even while mapped, and the vm_insert_page /
 * remap_vmalloc_range maps keep their pages (still the same bytes, still
 * writable); the offset maps nothing any more.
 */
TEST_F(kinds, munmap_and_destroy)
{
	int ps = getpagesize();

	for (int k = 0; k < NKINDS; k++) {
		volatile __u64 *m = kind_map(self->fd, &self->b[k], kind_prot(k));

		ASSERT_NE(NULL, m);
		ASSERT_EQ(0, munmap((void *)m, self->b[k].len));
	}
	EXPECT_EQ(self->alive + NKINDS, sysfs_long(P_ALIVE));
	EXPECT_EQ(self->freed, sysfs_long(P_FREED));

	for (int k = 0; k < NKINDS; k++) {
		struct kbuf *b = &self->b[k];
		int held = k <= OVBTEST_MMAP_KIND_PAGE_RO;
		__u64 v;
		void *p;

		b->map = kind_map(self->fd, b, kind_prot(k));
		ASSERT_NE(NULL, b->map);
		if (!is_ro(k))
			b->map[3] = 0x3000 + k;
		/* PHYS and DONTCOPY hold no page: unmapped first */
		if (!held) {
			munmap((void *)b->map, b->len);
			b->map = NULL;
		}
		ASSERT_EQ(0, kind_destroy(self->fd, b->handle));
		EXPECT_EQ(self->alive + NKINDS - 1 - k, sysfs_long(P_ALIVE))
			TH_LOG("%s", kname[k]);
		EXPECT_EQ(self->freed + 1 + k, sysfs_long(P_FREED))
			TH_LOG("%s", kname[k]);
		p = mmap(NULL, b->len, PROT_READ, MAP_SHARED, self->fd, b->offset);
		EXPECT_EQ(MAP_FAILED, p) TH_LOG("%s", kname[k]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s", kname[k]);
		if (!held)
			continue;
		/* the map outlives the buffer: same pages, same bytes */
		EXPECT_EQ(0, probe(b->map, &v, 0, 0)) TH_LOG("%s", kname[k]);
		EXPECT_EQ(0xf111 + k, v) TH_LOG("%s", kname[k]);
		if (!is_ro(k)) {
			EXPECT_EQ(0x3000 + k, b->map[3]);
			EXPECT_EQ(0, probe(&b->map[b->len / 8 - 1], &v, 1, 0x77))
				TH_LOG("%s", kname[k]);
		}
		for (__u64 i = 0; i < b->len / 8; i += ps / 8) {
			EXPECT_EQ(0, probe(&b->map[i], &v, 0, 0));
		}
	}
}

/*
 * DESTROY of a PHYS buffer while it is mapped, twice in this process and
 * once in a fork child: remap_pfn_range() holds no page, so the driver
 * zaps every mapping of the offset before it frees the pages.  Each map
 * then SIGBUSes (no PTE, no fault handler) instead of reaching the freed
 * pages, which the kernel may already have handed to someone else; the
 * buffer counts as freed.  Fails where the driver frees first: the maps
 * still read the old bytes (or whatever reused the pages).
 */
TEST_F(kinds, phys_destroy_zaps_maps)
{
	struct kbuf *b = &self->b[OVBTEST_MMAP_KIND_PHYS];
	int up[2], down[2], st;
	volatile __u64 *m2;
	pid_t child;
	__u64 v;
	char c;

	b->map = kind_map(self->fd, b, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, b->map);
	m2 = kind_map(self->fd, b, PROT_READ);
	ASSERT_NE(NULL, m2);
	b->map[1] = 0x7777;
	EXPECT_EQ(0x7777, m2[1]);
	EXPECT_EQ(0xf111 + OVBTEST_MMAP_KIND_PHYS, m2[0]);
	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		int r = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (probe(b->map, &v, 0, 0) || v != 0xf111 + OVBTEST_MMAP_KIND_PHYS)
			r |= 1;
		if (write(up[1], "r", 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(64);
		/* after the parent's DESTROY: the copy is zapped too */
		if (probe(b->map, &v, 0, 0) != 1)
			r |= 2;
		if (probe(&b->map[b->len / 8 - 1], &v, 1, 5) != 1)
			r |= 4;
		_exit(r);
	}
	ASSERT_EQ(1, read(up[0], &c, 1));
	ASSERT_EQ(0, kind_destroy(self->fd, b->handle));
	EXPECT_EQ(self->alive + NKINDS - 1, sysfs_long(P_ALIVE));
	EXPECT_EQ(self->freed + 1, sysfs_long(P_FREED));
	for (__u64 i = 0; i < b->len / 8; i += getpagesize() / 8) {
		EXPECT_EQ(1, probe(&b->map[i], &v, 0, 0)) TH_LOG("u64 %llu: %#llx",
			(unsigned long long)i, (unsigned long long)v);
		EXPECT_EQ(1, probe(&m2[i], &v, 0, 0)) TH_LOG("u64 %llu: %#llx",
			(unsigned long long)i, (unsigned long long)v);
	}
	EXPECT_EQ(1, probe(&b->map[2], &v, 1, 9));
	ASSERT_EQ(1, write(down[1], "g", 1));
	ASSERT_EQ(child, waitpid(child, &st, 0));
	ASSERT_TRUE(WIFEXITED(st)) TH_LOG("child status %#x", st);
	EXPECT_EQ(0, WEXITSTATUS(st)) TH_LOG("child: %#x (1: no copy before, 2/4: read/write after)",
					     WEXITSTATUS(st));
	/* the maps end without a word from the driver */
	EXPECT_EQ(0, munmap((void *)m2, b->len));
	EXPECT_EQ(0, munmap((void *)b->map, b->len));
	b->map = NULL;
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

/*
 * close() with every kind mapped: the maps hold the file, so the context
 * and its objects stay until the last munmap(), which frees them all.
 */
TEST_F(kinds, close_then_munmap)
{
	for (int k = 0; k < NKINDS; k++) {
		self->b[k].map = kind_map(self->fd, &self->b[k], kind_prot(k));
		ASSERT_NE(NULL, self->b[k].map);
	}
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	EXPECT_EQ(self->alive + NKINDS, sysfs_long(P_ALIVE));
	EXPECT_EQ(self->freed, sysfs_long(P_FREED));
	for (int k = 0; k < NKINDS; k++) {
		if (!is_ro(k))
			self->b[k].map[1] = 0x1000 + k;
		EXPECT_EQ(0xf111 + k, self->b[k].map[0]);
	}
	for (int k = 0; k < NKINDS - 1; k++) {
		ASSERT_EQ(0, munmap((void *)self->b[k].map, self->b[k].len));
		self->b[k].map = NULL;
	}
	EXPECT_EQ(self->alive + NKINDS, sysfs_long(P_ALIVE));
	EXPECT_EQ(self->freed, sysfs_long(P_FREED));
	ASSERT_EQ(0, munmap((void *)self->b[NKINDS - 1].map,
			    self->b[NKINDS - 1].len));
	self->b[NKINDS - 1].map = NULL;
	EXPECT_EQ(self->alive, param_wait(P_ALIVE, self->alive));
	EXPECT_EQ(self->freed + NKINDS, sysfs_long(P_FREED));
}

/*
 * Last: rmmod ovbtest with every kind mapped.  ib_uverbs zaps nothing of
 * these (none is on its list); the driver frees what the maps hold
 * pages of and leaves the PHYS pages to their map.  Every map still
 * reads what was there and still takes writes; close and munmap after
 * the unplug end it without a kernel warning.
 */
TEST_F(kinds, unplug_leaves_untracked_maps)
{
	int ps = getpagesize(), k0, k1, child_st, up[2], down[2];
	char flags[256], name[256], log[4096], c;
	__u64 v;
	pid_t child;

	for (int k = 0; k < NKINDS; k++) {
		self->b[k].map = kind_map(self->fd, &self->b[k], kind_prot(k));
		ASSERT_NE(NULL, self->b[k].map);
		if (!is_ro(k))
			self->b[k].map[1] = 0x5000 + k;
	}
	/* a child holds copies across the unplug (all but DONTCOPY) */
	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		int r = 0;

		if (write(up[1], "r", 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(64);
		for (int k = 0; k < NKINDS; k++) {
			if (k == OVBTEST_MMAP_KIND_DONTCOPY)
				continue;
			if (probe(self->b[k].map, &v, 0, 0) || v != 0xf111 + (__u64)k)
				r |= 1 << k;
			else if (!is_ro(k) && self->b[k].map[1] != 0x5000 + (__u64)k)
				r |= 1 << k;
		}
		_exit(r);
	}
	ASSERT_EQ(1, read(up[0], &c, 1));

	k0 = ovbtest_kmsg_mark();
	k1 = ovbtest_kmsg_mark();
	ASSERT_EQ(0, ovbtest_unload());
	ASSERT_FALSE(ovbtest_loaded());
	/* what the driver did, one line per buffer */
	kmsg_collect(k1, "ovbtest: mmap kind ", log, sizeof(log));
	TH_LOG("unplug: %s", log);
	for (int k = 0; k < NKINDS; k++) {
		char line[128];

		snprintf(line, sizeof(line), "ovbtest: mmap kind %s: %s\n",
			 kname[k], k == OVBTEST_MMAP_KIND_PHYS ?
			 "left to its mappings at unplug (8192 bytes)" :
			 "freed at unplug");
		EXPECT_NE(NULL, strstr(log, line)) TH_LOG("no '%s'", line);
	}

	/* every map stays, with the bytes it had, and takes writes */
	for (int k = 0; k < NKINDS; k++) {
		volatile __u64 *m = self->b[k].map;

		EXPECT_EQ(0, probe(m, &v, 0, 0)) TH_LOG("%s", kname[k]);
		EXPECT_EQ(0xf111 + k, v) TH_LOG("%s", kname[k]);
		if (!is_ro(k)) {
			EXPECT_EQ(0x5000 + k, m[1]) TH_LOG("%s", kname[k]);
			EXPECT_EQ(0, probe(&m[2], &v, 1, 0x6000 + k));
			EXPECT_EQ(0x6000 + k, v);
		}
		for (__u64 i = 0; i < self->b[k].len / 8; i += ps / 8) {
			EXPECT_EQ(0, probe(&m[i], &v, 0, 0)) TH_LOG("%s", kname[k]);
		}
		ASSERT_EQ(0, smaps_of(m, flags, sizeof(flags), name, sizeof(name)));
		TH_LOG("%s after the unplug: %s VmFlags%s", kname[k], name, flags);
		EXPECT_NE(NULL, strstr(name, "/dev/infiniband/uverbs"));
	}
	EXPECT_EQ(-1, mprotect((void *)self->b[OVBTEST_MMAP_KIND_PAGE_RO].map,
			       ps, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);

	/* the child's copies are the same pages */
	ASSERT_EQ(1, write(down[1], "g", 1));
	ASSERT_EQ(child, waitpid(child, &child_st, 0));
	ASSERT_TRUE(WIFEXITED(child_st)) TH_LOG("child status %#x", child_st);
	EXPECT_EQ(0, WEXITSTATUS(child_st)) TH_LOG("kinds failing: %#x",
						    WEXITSTATUS(child_st));

	/* close, then the maps go: no warning */
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0x6000, self->b[0].map[2]);
	for (int k = 0; k < NKINDS; k++) {
		munmap((void *)self->b[k].map, self->b[k].len);
		self->b[k].map = NULL;
	}
	EXPECT_FALSE(ovbtest_kmsg_warned(k0));
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

TEST_HARNESS_MAIN
