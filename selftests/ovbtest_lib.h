/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The test HCA driver (selftests/ovbtest/, ovbtest.ko) from user space: load
 * and unload it, find its uverbs device, and call its driver-defined
 * methods with raw RDMA_VERBS_IOCTL calls (uverbs_ovbtest, uverbs_unplug).
 */
#ifndef OVBTEST_LIB_H
#define OVBTEST_LIB_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <rdma/ib_user_verbs.h>

#include "uverbs_raw.h"
#include "uverbs_ioctl.h"
#include <openverbs/ovbtest-abi.h>

#define HCA_MODULE	"ovbtest"
#define HCA_IBDEV	OVBTEST_DEVICE_PREFIX "0"

/*
 * Whether the running kernel is Debian's 6.12 (or newer): the test HCA's
 * programs key the expectations that differ from 6.1 on this; each names
 * the 6.12 change.  The uname comparison is raw_kernel_at_least()'s.
 */
static inline int ovbtest_k612(void)
{
	return raw_kernel_at_least(6, 12);
}

/*
 * Loads the module @name (@name.ko) built for the running kernel, with
 * the module parameters @params: modules/RELEASE/@name.ko beside this
 * program (`make -C selftests ovbtest-module`), else @name.ko beside it;
 * 0 or -errno (-EEXIST when it is loaded already).
 */
static inline int ovbtest_load_module_with(const char *name,
					   const char *params)
{
	char exe[PATH_MAX], path[PATH_MAX + 128];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct utsname u;
	int fd = -1, ret;
	char *dir;

	if (n < 0)
		return -errno;
	exe[n] = 0;
	dir = dirname(exe);
	if (!uname(&u)) {
		snprintf(path, sizeof(path), "%s/modules/%s/%s.ko", dir,
			 u.release, name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/%s.ko", dir, name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

/* The same without parameters; 0 also if loaded. */
static inline int ovbtest_load_module(const char *name)
{
	int ret = ovbtest_load_module_with(name, "");

	return ret == -EEXIST ? 0 : ret;
}

/* Loads ovbtest.ko (ovbtest_load_module); 0 (also if loaded) or -errno. */
static inline int ovbtest_load(void)
{
	return ovbtest_load_module(HCA_MODULE);
}

/*
 * The opening of a fixture setup on the test HCA: load ovbtest.ko, skip
 * the test when it was not built or was built for another kernel, and
 * assert on any other error.  A macro: SKIP and ASSERT run in the fixture.
 */
#define HCA_SETUP_LOAD()						\
	do {								\
		int __ovbtest_ret = ovbtest_load();				\
									\
		if (__ovbtest_ret == -ENOENT)				\
			SKIP(return,					\
			     "ovbtest.ko not built (make selftests KDIR=...)"); \
		if (__ovbtest_ret == -ENOEXEC)				\
			SKIP(return,					\
			     "ovbtest.ko was built for another kernel"); \
		ASSERT_EQ(0, __ovbtest_ret);				\
	} while (0)

/*
 * What most fixture setups do next: open ovbtest0's uverbs device into
 * @fd, get its context (the driver's response into *@uctx) and allocate a
 * PD into @pd, asserting each step.  A macro, as HCA_SETUP_LOAD().
 */
#define HCA_SETUP_OPEN(fd, uctx, pd)					\
	do {								\
		(fd) = ovbtest_open_dev();				\
		ASSERT_LE(0, (fd));					\
		ASSERT_EQ(0, ovbtest_get_context((fd), (uctx)));	\
		(pd) = raw_alloc_pd(fd);				\
		ASSERT_LE(0, (pd));					\
	} while (0)

/* And a CQ of 16 entries (vector 0, no channel, user handle 1) into @cq. */
#define HCA_SETUP_CQ(fd, cq)						\
	do {								\
		struct ib_uverbs_create_cq_resp __ovbtest_cq = {};	\
									\
		ASSERT_EQ(0, raw_create_cq((fd), 16, 0, -1, 1,		\
					   &__ovbtest_cq));		\
		(cq) = __ovbtest_cq.cq_handle;				\
	} while (0)

/* rmmod: the device goes, with whoever still uses it (hot-unplug). */
static inline int ovbtest_unload(void)
{
	return syscall(SYS_delete_module, HCA_MODULE, O_NONBLOCK) ? -errno : 0;
}

static inline int ovbtest_loaded(void)
{
	return access("/sys/module/" HCA_MODULE, F_OK) == 0;
}

/* A module parameter of ovbtest.ko (the driver's counters). */
#define OVBTEST_PARAM(n)	"/sys/module/" HCA_MODULE "/parameters/" n

/* The number in a sysfs file (decimal, or 0x hex); -1 if it has none. */
static inline long sysfs_long(const char *path)
{
	char buf[64] = "";
	long n = -1;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) > 0)
		n = strtol(buf, NULL, 0);
	close(fd);
	return n;
}

/*
 * The last fixture of a program that loads ovbtest: unload it, so that
 * the next program finds the stack as this one found it (it may swap
 * ib_uverbs, and the driver's unload WARNs at anything left on it).  Its
 * one case, module_unloads, checks that the module went and with it the
 * sysfs paths given (@...: string literals, none is fine), without a
 * WARN in the kernel log.  A macro: the
 * fixture and its case are made where it stands, after the others.
 */
#define OVBTEST_UNLOAD_FIXTURE(...)					\
	FIXTURE(unload) {						\
	};								\
									\
	FIXTURE_SETUP(unload)						\
	{								\
	}								\
									\
	FIXTURE_TEARDOWN(unload)					\
	{								\
	}								\
									\
	TEST_F(unload, module_unloads)					\
	{								\
		static const char *const gone_too[] = { __VA_ARGS__ };	\
		size_t i;						\
		int k;							\
									\
		if (!ovbtest_loaded())					\
			SKIP(return, "ovbtest not loaded");		\
		k = ovbtest_kmsg_mark();				\
		ASSERT_EQ(0, ovbtest_unload());				\
		EXPECT_FALSE(ovbtest_loaded());				\
		EXPECT_FALSE(ovbtest_kmsg_warned(k));			\
		for (i = 0; i < ARRAY_SIZE(gone_too); i++)		\
			EXPECT_NE(0, access(gone_too[i], F_OK))		\
				TH_LOG("%s outlived the module", gone_too[i]); \
	}

/*
 * The /dev path of ovbtest0's uverbs device into @path; 0, or -ENOENT
 * when it did not appear within @ms milliseconds.
 */
static inline int ovbtest_dev_path(char *path, size_t len, int ms)
{
	const char *cls = "/sys/class/infiniband_verbs";
	char f[PATH_MAX], name[64];
	struct dirent *de;
	int t, found;
	DIR *d;
	FILE *fp;

	for (t = 0; t <= ms; t += 10) {
		found = 0;
		d = opendir(cls);
		while (d && (de = readdir(d))) {
			if (strncmp(de->d_name, "uverbs", 6))
				continue;
			snprintf(f, sizeof(f), "%s/%s/ibdev", cls, de->d_name);
			fp = fopen(f, "r");
			if (!fp)
				continue;
			if (fgets(name, sizeof(name), fp) &&
			    !strcmp(name, HCA_IBDEV "\n")) {
				snprintf(path, len, "/dev/infiniband/%s",
					 de->d_name);
				found = 1;
			}
			fclose(fp);
		}
		if (d)
			closedir(d);
		if (found && access(path, R_OK | W_OK) == 0)
			return 0;
		usleep(10000);
	}
	return -ENOENT;
}

/* Opens ovbtest0's uverbs device; the fd, or -ENOENT / -errno. */
static inline int ovbtest_open_dev(void)
{
	char path[PATH_MAX];
	int fd;

	if (ovbtest_dev_path(path, sizeof(path), 5000))
		return -ENOENT;
	fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static inline void ovbtest_ioc_init(struct ioc *c, __u16 object, __u16 method)
{
	ioc_init(c, object, method);
	c->hdr.driver_id = RDMA_DRIVER_UNKNOWN;
}

/* GET_CONTEXT by ioctl with the driver's response; 0 or -errno. */
static inline int ovbtest_get_context(int fd, struct ovbtest_alloc_ucontext_resp *resp)
{
	__u32 vectors = 0;
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	ioc_out(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vectors,
		sizeof(vectors));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, resp, sizeof(*resp));
	return ioc_call(fd, &c);
}

/* A uverbs file of the test HCA with its context; the fd or -errno. */
static inline int ovbtest_open_ctx(void)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	int fd = ovbtest_open_dev(), ret;

	if (fd < 0)
		return fd;
	ret = ovbtest_get_context(fd, &uctx);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* The async event file of the context; the fd or -errno. */
static inline int ovbtest_async_fd(int fd)
{
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_ASYNC_EVENT,
		     UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	ioc_obj(&c, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0);
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

static inline int ovbtest_device_info(int fd, struct ovbtest_device_info *info)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, OVBTEST_METHOD_DEVICE_INFO);
	ioc_out(&c, OVBTEST_ATTR_DEVICE_INFO, info, sizeof(*info));
	return ioc_call(fd, &c);
}

/*
 * 6.12: the test HCA revokes every user mapping of the device
 * (rdma_user_mmap_disassociate(), as hns before a reset); 0 or -errno
 * (6.1: -EPROTONOSUPPORT, the method does not exist).
 */
static inline int ovbtest_mmap_revoke(int fd)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE,
			 OVBTEST_METHOD_DEVICE_MMAP_REVOKE);
	return ioc_call(fd, &c);
}

/* The first u64 of the context's doorbell page as the driver reads it. */
static inline __u64 ovbtest_doorbell_value(int fd)
{
	struct ovbtest_device_info info = {};

	if (ovbtest_device_info(fd, &info))
		return ~0ULL;
	return info.doorbell_value;
}

/* What the driver counts live; all ones when it cannot say. */
static inline struct ovbtest_device_info ovbtest_info(int fd)
{
	struct ovbtest_device_info info;

	memset(&info, 0xff, sizeof(info));
	if (ovbtest_device_info(fd, &info))
		memset(&info, 0xff, sizeof(info));
	return info;
}

/* Leak checks: whether the kernel logged a WARN/BUG since the mark. */
static inline int ovbtest_kmsg_mark(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

static inline int ovbtest_kmsg_warned(int fd)
{
	char rec[8192];
	int found = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (n <= 0)
			break;
		rec[n] = 0;
		if (strstr(rec, "WARNING:") || strstr(rec, "BUG:"))
			found = 1;
	}
	close(fd);
	return found;
}

/*
 * REG_MR by write() of [@addr, @addr + @len) at the device address @iova;
 * 0 and the answer (handle, keys) in *@resp, or -errno.
 */
static inline int ovbtest_reg_mr_at(int fd, __u32 pd, void *addr, size_t len,
				    __u64 iova, __u32 access,
				    struct ib_uverbs_reg_mr_resp *resp)
{
	struct ib_uverbs_reg_mr req = {
		.response = (uintptr_t)resp,
		.start = (uintptr_t)addr,
		.length = len,
		.hca_va = iova,
		.pd_handle = pd,
		.access_flags = access,
	};
	ssize_t ret;

	memset(resp, 0, sizeof(*resp));
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req),
		      sizeof(*resp));
	return ret < 0 ? (int)ret : 0;
}

/* REG_MR by write() at the virtual address; the handle or -errno. */
static inline int ovbtest_reg_mr(int fd, __u32 pd, void *addr, size_t len,
			     __u32 access)
{
	struct ib_uverbs_reg_mr_resp resp;
	int ret = ovbtest_reg_mr_at(fd, pd, addr, len, (uintptr_t)addr, access,
				    &resp);

	return ret ?: (int)resp.mr_handle;
}

/*
 * REREG_MR by write() of @mr: what @flags (IB_MR_REREG_*) name of the new
 * range [@addr, @addr + @len) at @iova, @pd and @access; 0 and the answer
 * (keys) in *@resp, or -errno.
 */
static inline int ovbtest_rereg_mr(int fd, __u32 mr, __u32 flags, void *addr,
				   size_t len, __u64 iova, __u32 pd,
				   __u32 access,
				   struct ib_uverbs_rereg_mr_resp *resp)
{
	struct ib_uverbs_rereg_mr req = {
		.response = (uintptr_t)resp,
		.mr_handle = mr,
		.flags = flags,
		.start = (uintptr_t)addr,
		.length = len,
		.hca_va = iova,
		.pd_handle = pd,
		.access_flags = access,
	};
	ssize_t ret;

	memset(resp, 0, sizeof(*resp));
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_REREG_MR, &req, sizeof(req),
		      sizeof(*resp));
	return ret < 0 ? (int)ret : 0;
}

static inline int ovbtest_dereg_mr(int fd, __u32 handle)
{
	struct ib_uverbs_dereg_mr req = { .mr_handle = handle };
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_DEREG_MR, &req,
			      sizeof(req), 0);

	return ret < 0 ? (int)ret : 0;
}

/* CHAN_CREATE with everything optional too; the handle or -errno. */
static inline int ovbtest_chan_create(int fd, __u32 pd, __u32 depth, __u32 *id)
{
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_CREATE_HANDLE, 0);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_CREATE_PD, pd);
	ioc_in(&c, OVBTEST_ATTR_CHAN_CREATE_DEPTH, &depth, sizeof(depth));
	if (id)
		ioc_out(&c, OVBTEST_ATTR_CHAN_CREATE_ID, id, sizeof(*id));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

static inline int ovbtest_chan_destroy(int fd, __u32 chan,
				   struct ovbtest_chan_stats *st)
{
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_DESTROY);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_DESTROY_HANDLE, chan);
	if (st)
		ioc_out(&c, OVBTEST_ATTR_CHAN_DESTROY_STATS, st, sizeof(*st));
	return ioc_call(fd, &c);
}

static inline int ovbtest_chan_query(int fd, __u32 chan,
				 struct ovbtest_chan_stats *st)
{
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_QUERY);
	ioc_obj(&c, OVBTEST_ATTR_CHAN_QUERY_HANDLE, chan);
	ioc_out(&c, OVBTEST_ATTR_CHAN_QUERY_STATS, st, sizeof(*st));
	return ioc_call(fd, &c);
}

/* The COPY call, for tests to take apart; ioc_call() runs it. */
static inline void ovbtest_copy_call(struct ioc *c, __u32 chan, __u32 src,
				 __u32 dst, struct ovbtest_copy_desc *desc,
				 __u64 *seq)
{
	ovbtest_ioc_init(c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_COPY);
	ioc_obj(c, OVBTEST_ATTR_CHAN_COPY_HANDLE, chan);
	ioc_obj(c, OVBTEST_ATTR_CHAN_COPY_SRC_MR, src);
	ioc_obj(c, OVBTEST_ATTR_CHAN_COPY_DST_MR, dst);
	ioc_in(c, OVBTEST_ATTR_CHAN_COPY_DESC, desc, sizeof(*desc));
	if (seq)
		ioc_out(c, OVBTEST_ATTR_CHAN_COPY_SEQ, seq, sizeof(*seq));
}

static inline int ovbtest_copy(int fd, __u32 chan, __u32 src, __u64 src_off,
			   __u32 dst, __u64 dst_off, __u32 len, __u64 *seq)
{
	struct ovbtest_copy_desc desc = {
		.src_offset = src_off, .dst_offset = dst_off, .length = len,
	};
	struct ioc c;

	ovbtest_copy_call(&c, chan, src, dst, &desc, seq);
	return ioc_call(fd, &c);
}

/* EX_DESTROY_FLOW; 0 or -errno. */
static inline int destroy_flow(int fd, __u32 handle)
{
	struct ib_uverbs_destroy_flow req = { .flow_handle = handle };
	ssize_t ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_DESTROY_FLOW, &req,
				 sizeof(req), 0, NULL, 0, 0);

	return ret < 0 ? (int)ret : 0;
}

/* The rule of the device's last CREATE_FLOW as its driver got it. */
static inline int last_flow(int fd, struct ovbtest_flow_info *info)
{
	struct ioc c;

	memset(info, 0xff, sizeof(*info));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE,
			 OVBTEST_METHOD_DEVICE_LAST_FLOW);
	ioc_out(&c, OVBTEST_ATTR_DEVICE_LAST_FLOW_INFO, info, sizeof(*info));
	return ioc_call(fd, &c);
}

#endif /* OVBTEST_LIB_H */
