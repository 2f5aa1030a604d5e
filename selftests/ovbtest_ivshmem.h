/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What uverbs_ovbtest_mmap and uverbs_ovbtest_mmap_fixed share: the
 * ivshmem-plain PCI device qemu/run adds (vendor 0x1af4, device 0x1110),
 * whose BAR 2 the test HCA maps into user space, and their fixtures'
 * start.
 */
#ifndef OVBTEST_IVSHMEM_H
#define OVBTEST_IVSHMEM_H

#include <glob.h>
#include <limits.h>
#include <stdio.h>

#include "ovbtest_lib.h"

/* The ivshmem-plain device's sysfs directory into @dir; 0 or -1. */
static inline int ivshmem_dir(char *dir, size_t len)
{
	char path[PATH_MAX];
	glob_t g;
	int ret = -1;

	if (glob("/sys/bus/pci/devices/*", 0, NULL, &g))
		return -1;
	for (size_t i = 0; i < g.gl_pathc && ret; i++) {
		snprintf(path, sizeof(path), "%s/vendor", g.gl_pathv[i]);
		if (sysfs_long(path) != 0x1af4)
			continue;
		snprintf(path, sizeof(path), "%s/device", g.gl_pathv[i]);
		if (sysfs_long(path) != 0x1110)
			continue;
		snprintf(dir, len, "%s", g.gl_pathv[i]);
		ret = 0;
	}
	globfree(&g);
	return ret;
}

/*
 * The device's sysfs directory into @dir and its BAR 2's bus addresses
 * (from the "resource" file) into *@start and *@end; 0 or -1.
 */
static inline int ivshmem_bar2(char *dir, size_t len,
			       unsigned long long *start,
			       unsigned long long *end)
{
	char path[PATH_MAX + 16];
	unsigned long long flags;
	int ret = 0;
	FILE *f;

	if (ivshmem_dir(dir, len))
		return -1;
	snprintf(path, sizeof(path), "%s/resource", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	for (int i = 0; i <= 2 && !ret; i++)
		if (fscanf(f, "%llx %llx %llx", start, end, &flags) != 3)
			ret = -1;
	fclose(f);
	return ret;
}

/*
 * The BAR tests' fixture start: ovbtest.ko, its uverbs device open in @fd
 * and a context on it (the driver's response in *@uctx); the test skips
 * when the driver found no ivshmem-plain BAR to map.  A macro, as
 * HCA_SETUP_LOAD().
 */
#define HCA_SETUP_BAR(fd, uctx)						\
	do {								\
		HCA_SETUP_LOAD();					\
		(fd) = ovbtest_open_dev();				\
		ASSERT_LE(0, (fd));					\
		ASSERT_EQ(0, ovbtest_get_context((fd), (uctx)));	\
		if (!((uctx)->flags & OVBTEST_UCTX_BAR))		\
			SKIP(return, "no ivshmem-plain BAR in this guest " \
			     "(qemu/run adds one)");			\
	} while (0)

#endif /* OVBTEST_IVSHMEM_H */
