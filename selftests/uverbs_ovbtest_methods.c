// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Driver-defined method shapes that real drivers (mlx5 DEVX) use, through
 * the test HCA driver (selftests/ovbtest/events.c, probe.c):
 *  - a driver FD object with its own read()/poll() (EVENTS) and a method
 *    that takes it with READ access (PROBE_POST), including a close() of
 *    that FD racing the method;
 *  - IDR attributes of UVERBS_IDR_ANY_OBJECT (READ and WRITE);
 *  - IDRS_ARRAY, ENUM_IN and RAW_FD attributes;
 *  - a response from uverbs_alloc() the driver fills only partly.
 * Each case expects what the in-tree 6.1 ib_uverbs answers; the same
 * ovbtest.ko loads on both stacks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

#define MR0_LEN		(16 * 1024)
#define MR1_LEN		(64 * 1024)
#define RACE_ROUNDS	3000

FIXTURE(meth) {
	int fd;
	int pd;
	int cq;
	int chan;
	int mr[2];
	char *buf[2];
};

FIXTURE_SETUP(meth)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ib_uverbs_create_cq_resp cq = {};

	self->fd = -1;
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	ASSERT_EQ(0, raw_create_cq(self->fd, 16, 0, -1, 0, &cq));
	self->cq = cq.cq_handle;
	self->buf[0] = mmap(NULL, MR0_LEN, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	self->buf[1] = mmap(NULL, MR1_LEN, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf[0]);
	ASSERT_NE(MAP_FAILED, self->buf[1]);
	self->mr[0] = ovbtest_reg_mr(self->fd, self->pd, self->buf[0], MR0_LEN, 0);
	self->mr[1] = ovbtest_reg_mr(self->fd, self->pd, self->buf[1], MR1_LEN, 0);
	ASSERT_LE(0, self->mr[0]);
	ASSERT_LE(0, self->mr[1]);
	self->chan = ovbtest_chan_create(self->fd, self->pd, 8, NULL);
	ASSERT_LE(0, self->chan);
}

FIXTURE_TEARDOWN(meth)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ---- calls ---------------------------------------------------------- */

/* EVENTS_ALLOC: the new FD or -errno. */
static int events_alloc(int fd)
{
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_EVENTS, OVBTEST_METHOD_EVENTS_ALLOC);
	ioc_obj(&c, OVBTEST_ATTR_EVENTS_ALLOC_FD, 0);
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

static void post_call(struct ioc *c, __s64 evfd, __u64 *cookie, __u32 *seq)
{
	ovbtest_ioc_init(c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_POST);
	ioc_obj(c, OVBTEST_ATTR_PROBE_POST_FD, evfd);
	ioc_in(c, OVBTEST_ATTR_PROBE_POST_COOKIE, cookie, sizeof(*cookie));
	if (seq)
		ioc_out(c, OVBTEST_ATTR_PROBE_POST_SEQ, seq, sizeof(*seq));
}

static int post(int fd, __s64 evfd, __u64 cookie, __u32 *seq)
{
	struct ioc c;

	post_call(&c, evfd, &cookie, seq);
	return ioc_call(fd, &c);
}

static int any_call(int fd, __u16 method, __u64 handle,
		    struct ovbtest_any_info *info)
{
	struct ioc c;

	memset(info, 0xff, sizeof(*info));
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, method);
	ioc_obj(&c, OVBTEST_ATTR_PROBE_ANY_HANDLE, handle);
	ioc_out(&c, OVBTEST_ATTR_PROBE_ANY_INFO, info, sizeof(*info));
	return ioc_call(fd, &c);
}

static int mrs_call(int fd, const __u32 *h, __u16 bytes,
		    struct ovbtest_mrs_info *info)
{
	struct ioc c;

	memset(info, 0xff, sizeof(*info));
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_MRS);
	ioc_in(&c, OVBTEST_ATTR_PROBE_MRS_HANDLES, h, bytes);
	ioc_out(&c, OVBTEST_ATTR_PROBE_MRS_INFO, info, sizeof(*info));
	return ioc_call(fd, &c);
}

static int enum_call(int fd, __u8 elem, const void *val, __u16 len,
		     struct ovbtest_enum_info *info)
{
	struct ib_uverbs_attr *a;
	struct ioc c;

	memset(info, 0xff, sizeof(*info));
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_ENUM);
	a = ioc_in(&c, OVBTEST_ATTR_PROBE_ENUM_IN, val, len);
	a->attr_data.enum_data.elem_id = elem;
	ioc_out(&c, OVBTEST_ATTR_PROBE_ENUM_INFO, info, sizeof(*info));
	return ioc_call(fd, &c);
}

static int raw_fd_call(int fd, __s64 value, __s32 *echo)
{
	struct ioc c;

	*echo = 0x5a5a5a5a;
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_RAW_FD);
	ioc_attr(&c, OVBTEST_ATTR_PROBE_RAW_FD, 0, value);
	ioc_out(&c, OVBTEST_ATTR_PROBE_RAW_FD_ECHO, echo, sizeof(*echo));
	return ioc_call(fd, &c);
}

/* ---- UVERBS_IDR_ANY_OBJECT ------------------------------------------ */

TEST_F(meth, any_object_read_takes_every_type)
{
	struct {
		const char *name;
		int handle;
		__u32 type;
	} objs[] = {
		{ "PD", self->pd, UVERBS_OBJECT_PD },
		{ "CQ", self->cq, UVERBS_OBJECT_CQ },
		{ "MR", self->mr[1], UVERBS_OBJECT_MR },
		{ "CHAN", self->chan, OVBTEST_OBJECT_CHAN },
	};
	struct ovbtest_any_info info;

	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		TH_LOG("%s handle %d", objs[i].name, objs[i].handle);
		ASSERT_EQ(0, any_call(self->fd, OVBTEST_METHOD_PROBE_ANY_READ,
				      objs[i].handle, &info));
		EXPECT_EQ(objs[i].type, info.object_id);
		EXPECT_EQ(objs[i].handle, info.handle);
		EXPECT_EQ(OVBTEST_ANY_OWN_DEVICE | OVBTEST_ANY_OWN_CONTEXT,
			  info.flags);
		EXPECT_EQ(0, info.other_object_id);
	}
}

TEST_F(meth, any_object_bad_handles)
{
	struct ovbtest_any_info info;
	struct ioc c;
	int pd;

	/* nothing behind it */
	EXPECT_EQ(-ENOENT, any_call(self->fd, OVBTEST_METHOD_PROBE_ANY_READ,
				    999, &info));
	EXPECT_EQ(-ENOENT, any_call(self->fd, OVBTEST_METHOD_PROBE_ANY_READ,
				    1ULL << 32, &info));
	/* a negative id */
	EXPECT_EQ(-EINVAL, any_call(self->fd, OVBTEST_METHOD_PROBE_ANY_READ,
				    (__u64)-1, &info));
	/* a handle that was destroyed */
	pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, pd);
	ASSERT_EQ(0, any_call(self->fd, OVBTEST_METHOD_PROBE_ANY_READ, pd,
			      &info));
	ASSERT_EQ(0, raw_dealloc_pd(self->fd, pd));
	EXPECT_EQ(-ENOENT, any_call(self->fd, OVBTEST_METHOD_PROBE_ANY_READ,
				    pd, &info));
	/* mandatory; an IDR attribute has no length */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_ANY_READ);
	ioc_out(&c, OVBTEST_ATTR_PROBE_ANY_INFO, &info, sizeof(info));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_ANY_READ);
	ioc_attr(&c, OVBTEST_ATTR_PROBE_ANY_HANDLE, 4, self->pd);
	ioc_out(&c, OVBTEST_ATTR_PROBE_ANY_INFO, &info, sizeof(info));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(meth, any_object_write_is_exclusive)
{
	struct ovbtest_any_info info;
	struct ioc c;

	ASSERT_EQ(0, any_call(self->fd, OVBTEST_METHOD_PROBE_ANY_WRITE,
			      self->mr[0], &info));
	EXPECT_EQ(UVERBS_OBJECT_MR, info.object_id);
	EXPECT_EQ(self->mr[0], info.handle);
	EXPECT_EQ(0, info.other_object_id);

	/* a second handle, READ: another object is fine */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_ANY_WRITE);
	ioc_obj(&c, OVBTEST_ATTR_PROBE_ANY_HANDLE, self->pd);
	ioc_out(&c, OVBTEST_ATTR_PROBE_ANY_INFO, &info, sizeof(info));
	ioc_obj(&c, OVBTEST_ATTR_PROBE_ANY_OTHER, self->chan);
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(UVERBS_OBJECT_PD, info.object_id);
	EXPECT_EQ(OVBTEST_OBJECT_CHAN, info.other_object_id);

	/* the same object read while this call holds it for writing */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_ANY_WRITE);
	ioc_obj(&c, OVBTEST_ATTR_PROBE_ANY_HANDLE, self->pd);
	ioc_out(&c, OVBTEST_ATTR_PROBE_ANY_INFO, &info, sizeof(info));
	ioc_obj(&c, OVBTEST_ATTR_PROBE_ANY_OTHER, self->pd);
	EXPECT_EQ(-EBUSY, ioc_call(self->fd, &c));
	/* ... in the other order too */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_ANY_WRITE);
	ioc_obj(&c, OVBTEST_ATTR_PROBE_ANY_OTHER, self->cq);
	ioc_obj(&c, OVBTEST_ATTR_PROBE_ANY_HANDLE, self->cq);
	ioc_out(&c, OVBTEST_ATTR_PROBE_ANY_INFO, &info, sizeof(info));
	EXPECT_EQ(-EBUSY, ioc_call(self->fd, &c));

	/* the locks went with the calls: the objects can still be used */
	ASSERT_EQ(0, any_call(self->fd, OVBTEST_METHOD_PROBE_ANY_WRITE,
			      self->pd, &info));
	EXPECT_EQ(0, ovbtest_chan_destroy(self->fd, self->chan, NULL));
	EXPECT_EQ(0, raw_destroy_cq(self->fd, self->cq, NULL));
}

/* A typed IDR attribute still checks the type (the ANY ones do not). */
TEST_F(meth, typed_idr_attr_rejects_other_types)
{
	struct ovbtest_chan_stats st;
	__u32 h[2] = { self->mr[0], self->pd };
	struct ovbtest_mrs_info info;

	EXPECT_EQ(-EINVAL, ovbtest_chan_query(self->fd, self->pd, &st));
	EXPECT_EQ(-EINVAL, ovbtest_chan_query(self->fd, self->mr[0], &st));
	EXPECT_EQ(-EINVAL, mrs_call(self->fd, h, sizeof(h), &info));
}

/* ---- IDRS_ARRAY ----------------------------------------------------- */

TEST_F(meth, idrs_array_of_mrs)
{
	__u32 h[OVBTEST_MRS_MAX + 1];
	struct ovbtest_mrs_info info;
	struct ib_uverbs_attr *a;
	struct ioc c;

	/* one handle, inline */
	h[0] = self->mr[1];
	ASSERT_EQ(0, mrs_call(self->fd, h, 4, &info));
	EXPECT_EQ(1, info.count);
	EXPECT_EQ(MR1_LEN, info.bytes);
	EXPECT_EQ(self->mr[1], info.handles[0]);
	EXPECT_EQ(0, info.handles[1]);

	/* two, inline */
	h[0] = self->mr[0];
	h[1] = self->mr[1];
	ASSERT_EQ(0, mrs_call(self->fd, h, 8, &info));
	EXPECT_EQ(2, info.count);
	EXPECT_EQ(MR0_LEN + MR1_LEN, info.bytes);
	EXPECT_EQ(self->mr[0], info.handles[0]);
	EXPECT_EQ(self->mr[1], info.handles[1]);

	/* the maximum, by pointer, one MR several times (READ is shared) */
	h[2] = self->mr[0];
	h[3] = self->mr[0];
	ASSERT_EQ(0, mrs_call(self->fd, h, 16, &info));
	EXPECT_EQ(4, info.count);
	EXPECT_EQ(3 * MR0_LEN + MR1_LEN, info.bytes);
	EXPECT_EQ(self->mr[0], info.handles[3]);

	/* too short, too long, not a whole number of handles */
	EXPECT_EQ(-EINVAL, mrs_call(self->fd, h, 0, &info));
	h[4] = self->mr[1];
	EXPECT_EQ(-EINVAL, mrs_call(self->fd, h, 20, &info));
	EXPECT_EQ(-EINVAL, mrs_call(self->fd, h, 6, &info));
	EXPECT_EQ(-EINVAL, mrs_call(self->fd, h, 14, &info));

	/* a handle with nothing behind it, inline and by pointer */
	h[1] = 999;
	EXPECT_EQ(-ENOENT, mrs_call(self->fd, h, 8, &info));
	EXPECT_EQ(-ENOENT, mrs_call(self->fd, h, 12, &info));
	/* another type in the array */
	h[1] = self->cq;
	EXPECT_EQ(-EINVAL, mrs_call(self->fd, h, 12, &info));

	/* reserved set */
	h[1] = self->mr[1];
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_MRS);
	a = ioc_in(&c, OVBTEST_ATTR_PROBE_MRS_HANDLES, h, 8);
	a->attr_data.reserved = 1;
	ioc_out(&c, OVBTEST_ATTR_PROBE_MRS_INFO, &info, sizeof(info));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* mandatory */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_MRS);
	ioc_out(&c, OVBTEST_ATTR_PROBE_MRS_INFO, &info, sizeof(info));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));

	/* nothing stayed locked: the MRs go */
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, self->mr[0]));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, self->mr[1]));
}

/* ---- ENUM_IN -------------------------------------------------------- */

TEST_F(meth, enum_in_alternatives)
{
	struct ovbtest_enum_wide wide = { .a = 1ULL << 40, .b = 7 };
	struct ovbtest_enum_info info;
	__u32 narrow = 0xdeadbeef;
	__u64 eight = 5;
	struct ib_uverbs_attr *a;
	struct ioc c;

	ASSERT_EQ(0, enum_call(self->fd, OVBTEST_ENUM_NARROW, &narrow,
			       sizeof(narrow), &info));
	EXPECT_EQ(OVBTEST_ENUM_NARROW, info.elem_id);
	EXPECT_EQ(4, info.len);
	EXPECT_EQ(0xdeadbeef, info.sum);

	ASSERT_EQ(0, enum_call(self->fd, OVBTEST_ENUM_WIDE, &wide,
			       sizeof(wide), &info));
	EXPECT_EQ(OVBTEST_ENUM_WIDE, info.elem_id);
	EXPECT_EQ(16, info.len);
	EXPECT_EQ((1ULL << 40) + 7, info.sum);

	/* each alternative has its own size */
	EXPECT_EQ(-EINVAL, enum_call(self->fd, OVBTEST_ENUM_NARROW, &eight,
				     sizeof(eight), &info));
	EXPECT_EQ(-EINVAL, enum_call(self->fd, OVBTEST_ENUM_WIDE, &narrow,
				     sizeof(narrow), &info));
	/* an elem_id beyond the declared ones */
	EXPECT_EQ(-EOPNOTSUPP, enum_call(self->fd, OVBTEST_ENUM_WIDE + 1,
					 &narrow, sizeof(narrow), &info));
	EXPECT_EQ(-EOPNOTSUPP, enum_call(self->fd, 255, &narrow,
					 sizeof(narrow), &info));
	/* enum_data.reserved */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_ENUM);
	a = ioc_in(&c, OVBTEST_ATTR_PROBE_ENUM_IN, &narrow, sizeof(narrow));
	a->attr_data.enum_data.reserved = 1;
	ioc_out(&c, OVBTEST_ATTR_PROBE_ENUM_INFO, &info, sizeof(info));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

/* ---- RAW_FD --------------------------------------------------------- */

TEST_F(meth, raw_fd_range)
{
	__s32 echo;
	struct ioc c;

	ASSERT_EQ(0, raw_fd_call(self->fd, self->fd, &echo));
	EXPECT_EQ(self->fd, echo);
	/* not looked up: any int goes */
	ASSERT_EQ(0, raw_fd_call(self->fd, -1, &echo));
	EXPECT_EQ(-1, echo);
	ASSERT_EQ(0, raw_fd_call(self->fd, INT_MAX, &echo));
	EXPECT_EQ(INT_MAX, echo);
	ASSERT_EQ(0, raw_fd_call(self->fd, INT_MIN, &echo));
	EXPECT_EQ(INT_MIN, echo);
	/* beyond an int */
	EXPECT_EQ(-EINVAL, raw_fd_call(self->fd, (__s64)INT_MAX + 1, &echo));
	EXPECT_EQ(-EINVAL, raw_fd_call(self->fd, (__s64)INT_MIN - 1, &echo));
	EXPECT_EQ(-EINVAL, raw_fd_call(self->fd, 1LL << 40, &echo));
	/* a length, reserved set */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_RAW_FD);
	ioc_attr(&c, OVBTEST_ATTR_PROBE_RAW_FD, 4, 3);
	ioc_out(&c, OVBTEST_ATTR_PROBE_RAW_FD_ECHO, &echo, sizeof(echo));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_RAW_FD);
	ioc_attr(&c, OVBTEST_ATTR_PROBE_RAW_FD, 0, 3)->attr_data.reserved = 1;
	ioc_out(&c, OVBTEST_ATTR_PROBE_RAW_FD_ECHO, &echo, sizeof(echo));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* mandatory */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_RAW_FD);
	ioc_out(&c, OVBTEST_ATTR_PROBE_RAW_FD_ECHO, &echo, sizeof(echo));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

/* ---- the driver FD object ------------------------------------------- */

TEST_F(meth, events_fd_read_poll_close)
{
	struct pollfd p = { .events = POLLIN | POLLRDHUP };
	struct ovbtest_event ev[2];
	char link[64], target[128];
	__u32 seq = 0;
	ssize_t n;
	int evfd, flags;

	evfd = events_alloc(self->fd);
	ASSERT_LE(0, evfd);
	p.fd = evfd;
	/* O_CLOEXEC, read-only, an anonymous inode of the driver's name */
	EXPECT_EQ(FD_CLOEXEC, fcntl(evfd, F_GETFD));
	flags = fcntl(evfd, F_GETFL);
	EXPECT_EQ(O_RDONLY, flags & O_ACCMODE);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", evfd);
	n = readlink(link, target, sizeof(target) - 1);
	ASSERT_LT(0, n);
	target[n] = 0;
	EXPECT_STREQ("anon_inode:[ovbtest_events]", target);
	EXPECT_EQ(-1, write(evfd, "x", 1));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, lseek(evfd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);

	/* empty: not readable, EAGAIN without blocking */
	EXPECT_EQ(0, poll(&p, 1, 0));
	ASSERT_EQ(0, fcntl(evfd, F_SETFL, flags | O_NONBLOCK));
	EXPECT_EQ(-1, read(evfd, ev, sizeof(ev)));
	EXPECT_EQ(EAGAIN, errno);

	ASSERT_EQ(0, post(self->fd, evfd, 0x1111, &seq));
	EXPECT_EQ(1, seq);
	ASSERT_EQ(0, post(self->fd, evfd, 0x2222, NULL));
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLIN, p.revents);

	/* whole records only */
	EXPECT_EQ(-1, read(evfd, ev, sizeof(ev[0]) - 1));
	EXPECT_EQ(ENOSPC, errno);
	/* one record per read */
	memset(ev, 0, sizeof(ev));
	ASSERT_EQ(sizeof(ev[0]), read(evfd, ev, sizeof(ev)));
	EXPECT_EQ(0x1111, ev[0].cookie);
	EXPECT_EQ(1, ev[0].seq);
	ASSERT_EQ(sizeof(ev[0]), read(evfd, ev, sizeof(ev)));
	EXPECT_EQ(0x2222, ev[0].cookie);
	EXPECT_EQ(2, ev[0].seq);
	EXPECT_EQ(-1, read(evfd, ev, sizeof(ev)));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, poll(&p, 1, 0));

	/* queued records go with the FD; the number is dead after close */
	ASSERT_EQ(0, post(self->fd, evfd, 0x3333, NULL));
	ASSERT_EQ(0, close(evfd));
	EXPECT_EQ(-EBADF, post(self->fd, evfd, 0x4444, NULL));
}

TEST_F(meth, events_fd_attr_errors)
{
	int evfd, other_fd, other_ev, async, chfd, pipefd[2];
	__u32 cqe = 4, vector = 0, resp_cqe = 0;
	struct ovbtest_alloc_ucontext_resp uctx;
	__u64 cookie = 1, uh = 0;
	struct ioc c;

	evfd = events_alloc(self->fd);
	ASSERT_LE(0, evfd);
	async = ovbtest_async_fd(self->fd);
	ASSERT_LE(0, async);
	ASSERT_EQ(0, pipe(pipefd));

	/* not a file; not one of this type; numbers beyond an int */
	EXPECT_EQ(-EBADF, post(self->fd, -1, 1, NULL));
	EXPECT_EQ(-EBADF, post(self->fd, 1000000, 1, NULL));
	EXPECT_EQ(-EBADF, post(self->fd, self->fd, 1, NULL));
	EXPECT_EQ(-EBADF, post(self->fd, async, 1, NULL));
	EXPECT_EQ(-EBADF, post(self->fd, pipefd[0], 1, NULL));
	EXPECT_EQ(-EINVAL, post(self->fd, (1LL << 32) + evfd, 1, NULL));
	/* one of another uverbs file (context) */
	other_fd = ovbtest_open_dev();
	ASSERT_LE(0, other_fd);
	ASSERT_EQ(0, ovbtest_get_context(other_fd, &uctx));
	other_ev = events_alloc(other_fd);
	ASSERT_LE(0, other_ev);
	EXPECT_EQ(-EBADF, post(self->fd, other_ev, 1, NULL));
	EXPECT_EQ(0, post(other_fd, other_ev, 1, NULL));
	EXPECT_EQ(-EBADF, post(other_fd, evfd, 1, NULL));
	/* an FD attribute has no length, no reserved bits */
	post_call(&c, evfd, &cookie, NULL);
	c.attrs[0].len = 4;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	post_call(&c, evfd, &cookie, NULL);
	c.attrs[0].attr_data.reserved = 1;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* the other way round: ours where the core wants a comp channel */
	chfd = raw_create_comp_channel(self->fd);
	ASSERT_LE(0, chfd);
	EXPECT_EQ(-EBADF, post(self->fd, chfd, 1, NULL));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_CQE, &cqe, sizeof(cqe));
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, &uh, sizeof(uh));
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, &vector, sizeof(vector));
	ioc_out(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &resp_cqe, sizeof(resp_cqe));
	ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, evfd);
	EXPECT_EQ(-EBADF, ioc_call(self->fd, &c));
	/* the same call with the right FD type works */
	c.attrs[5].data = chfd;
	EXPECT_EQ(0, ioc_call(self->fd, &c));
	/* mandatory */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_POST);
	ioc_in(&c, OVBTEST_ATTR_PROBE_POST_COOKIE, &cookie, sizeof(cookie));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));

	EXPECT_EQ(0, post(self->fd, evfd, 1, NULL));
	close(chfd);
	close(other_ev);
	close(other_fd);
	close(pipefd[0]);
	close(pipefd[1]);
	close(async);
	close(evfd);
}

struct reader {
	int fd;
	ssize_t ret;
	int err;
	struct ovbtest_event ev;
	atomic_int started;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	atomic_store(&r->started, 1);
	r->ret = read(r->fd, &r->ev, sizeof(r->ev));
	r->err = r->ret < 0 ? errno : 0;
	return NULL;
}

/* Waits up to @ms for the thread to end; 0 when it did. */
static int join_within(pthread_t t, int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return pthread_timedjoin_np(t, NULL, &ts);
}

TEST_F(meth, events_fd_read_blocks_until_post)
{
	struct reader r = {};
	pthread_t t;

	r.fd = events_alloc(self->fd);
	ASSERT_LE(0, r.fd);
	ASSERT_EQ(0, pthread_create(&t, NULL, reader_main, &r));
	while (!atomic_load(&r.started))
		usleep(1000);
	usleep(200000);
	/* still blocked */
	EXPECT_EQ(ETIMEDOUT, join_within(t, 0));
	ASSERT_EQ(0, post(self->fd, r.fd, 0xabcd, NULL));
	ASSERT_EQ(0, join_within(t, 10000));
	EXPECT_EQ(sizeof(r.ev), r.ret);
	EXPECT_EQ(0xabcd, r.ev.cookie);
	close(r.fd);
}

/*
 * The uverbs file that made the FD object goes: the object is destroyed
 * (destroy_object(RDMA_REMOVE_CLOSE)) while its struct file lives on, and
 * a blocked reader wakes with EIO, as DEVX's do on any destruction.  The
 * open FD pins the driver module (its file_operations), so rmmod cannot
 * unplug the device meanwhile.
 */
TEST_F(meth, events_fd_readers_wake_when_destroyed)
{
	struct pollfd p = { .events = POLLIN | POLLRDHUP };
	struct ovbtest_event ev;
	struct reader r = {};
	pthread_t t;

	r.fd = events_alloc(self->fd);
	ASSERT_LE(0, r.fd);
	p.fd = r.fd;
	ASSERT_EQ(0, post(self->fd, r.fd, 1, NULL));
	ASSERT_EQ(sizeof(ev), read(r.fd, &ev, sizeof(ev)));
	ASSERT_EQ(0, pthread_create(&t, NULL, reader_main, &r));
	while (!atomic_load(&r.started))
		usleep(1000);
	usleep(100000);

	/* the driver module cannot go while its file is open */
	EXPECT_EQ(-EWOULDBLOCK, ovbtest_unload());
	EXPECT_TRUE(ovbtest_loaded());
	EXPECT_EQ(ETIMEDOUT, join_within(t, 0));

	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	ASSERT_EQ(0, join_within(t, 10000));
	EXPECT_EQ(-1, r.ret);
	EXPECT_EQ(EIO, r.err);
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLIN | POLLRDHUP, p.revents);
	EXPECT_EQ(-1, read(r.fd, &ev, sizeof(ev)));
	EXPECT_EQ(EIO, errno);

	/* the last close lets the module go */
	ASSERT_EQ(0, close(r.fd));
	EXPECT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_loaded());
	ASSERT_EQ(0, ovbtest_load());
}

/*
 * Thread A calls the method that takes the FD in a loop while thread B
 * closes the FD.  6.1 holds the struct file from the lookup to the end of
 * the command, so the close's release runs after the method: A sees
 * successes (or EAGAIN, queue full) and then EBADF, never anything else,
 * and the kernel does not WARN.
 */
struct race {
	int fd;
	atomic_int evfd;
	atomic_int round;	/* A runs round n when round == n */
	atomic_int done;	/* A finished round n: done == n */
	atomic_int stop;
	int last_err;
	long posts;
};

static void *race_poster(void *arg)
{
	struct race *r = arg;
	int n = 0, ret;

	for (;;) {
		while (atomic_load(&r->round) == n && !atomic_load(&r->stop))
			;
		if (atomic_load(&r->stop))
			return NULL;
		n = atomic_load(&r->round);
		do {
			ret = post(r->fd, atomic_load(&r->evfd), n, NULL);
			if (!ret)
				r->posts++;
		} while (!ret || ret == -EAGAIN);
		r->last_err = ret;
		atomic_store(&r->done, n);
	}
}

TEST_F_TIMEOUT(meth, events_fd_close_races_post, 300)
{
	struct race r = { .fd = self->fd };
	int bad = 0, round, evfd;
	pthread_t t;

	ASSERT_EQ(0, pthread_create(&t, NULL, race_poster, &r));
	for (round = 1; round <= RACE_ROUNDS; round++) {
		evfd = events_alloc(self->fd);
		ASSERT_LE(0, evfd);
		atomic_store(&r.evfd, evfd);
		atomic_store(&r.round, round);
		/* let A get going, by a varying amount */
		for (volatile int i = 0; i < (round * 7919) % 20000; i++)
			;
		ASSERT_EQ(0, close(evfd));
		while (atomic_load(&r.done) != round)
			;
		if (r.last_err != -EBADF && bad++ < 5)
			TH_LOG("round %d: the post ended with %d, not -EBADF",
			       round, r.last_err);
	}
	atomic_store(&r.stop, 1);
	pthread_join(t, NULL);
	TH_LOG("%d rounds, %ld posts", RACE_ROUNDS, r.posts);
	EXPECT_EQ(0, bad);
}

/* ---- a partly filled uverbs_alloc() response ------------------------ */

static int cmdline_has(const char *word)
{
	char line[4096], *p;
	size_t n = strlen(word);
	FILE *f = fopen("/proc/cmdline", "r");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		for (p = strstr(line, word); p && !found; p = strstr(p + 1, word))
			found = (p == line || p[-1] == ' ') &&
				(p[n] == ' ' || p[n] == '\n' || !p[n]);
	fclose(f);
	return found;
}

/*
 * The driver writes 8 bytes of a uverbs_alloc() buffer and copies it all
 * out: the rest must not carry old kernel memory.  6.1's uverbs_alloc()
 * zeroes only under init_on_alloc (Debian's default; its stack buffer is
 * zero too under CONFIG_INIT_STACK_ALL_ZERO), so this only means something
 * on a boot with init_on_alloc=0 (qemu/run --append=init_on_alloc=0).
 */
TEST_F(meth, alloc_partly_filled_is_zero_elsewhere)
{
	/* within 6.1's on-stack bundle buffer, and beyond it (kvmalloc) */
	static const int sizes[] = { 8, 64, 192, 1024, 2048, OVBTEST_ALLOC_MAX };
	int init_off = cmdline_has("init_on_alloc=0");
	int intree = raw_stack_is_intree();
	static unsigned char buf[OVBTEST_ALLOC_MAX + 8];
	long stale = 0, first_size = 0;
	struct ioc c;

	TH_LOG("%s ib_uverbs, init_on_alloc %s", intree ? "in-tree" : "our",
	       init_off ? "off (init_on_alloc=0)" : "on (the default)");
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		long at_size = 0;

		for (int rep = 0; rep < 20; rep++) {
			long nz = 0;

			memset(buf, 0xa5, sizeof(buf));
			ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE,
				     OVBTEST_METHOD_PROBE_ALLOC);
			ioc_out(&c, OVBTEST_ATTR_PROBE_ALLOC_OUT, buf, sizes[s]);
			ASSERT_EQ(0, ioc_call(self->fd, &c));
			EXPECT_TRUE(c.attrs[0].flags & UVERBS_ATTR_F_VALID_OUTPUT);
			EXPECT_EQ(OVBTEST_MAGIC, *(__u64 *)buf);
			/* nothing beyond the attribute's length */
			EXPECT_EQ(0xa5, buf[sizes[s]]);
			for (int i = 8; i < sizes[s]; i++)
				nz += buf[i] != 0;
			if (nz && !first_size)
				first_size = sizes[s];
			at_size += nz;
		}
		if (at_size)
			TH_LOG("size %d: %ld stale bytes in 20 calls", sizes[s],
			       at_size);
		stale += at_size;
	}
	/* too short, too long */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_ALLOC);
	ioc_out(&c, OVBTEST_ATTR_PROBE_ALLOC_OUT, buf, 7);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_PROBE, OVBTEST_METHOD_PROBE_ALLOC);
	ioc_out(&c, OVBTEST_ATTR_PROBE_ALLOC_OUT, buf, OVBTEST_ALLOC_MAX + 1);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));

	if (stale)
		TH_LOG("%ld bytes of the responses were not zero (first at size %ld)",
		       stale, first_size);
	if (stale && intree)
		SKIP(return,
		     "in-tree ib_uverbs (6.1, 6.12): uverbs_alloc() handed out %ld stale bytes (init_on_alloc %s): upstream does not zero it either",
		     stale, init_off ? "off" : "on");
	EXPECT_EQ(0, stale);
	if (!init_off)
		TH_LOG("note: init_on_alloc is on, so the kernel zeroed every allocation: boot with init_on_alloc=0 to test this");
}

TEST_HARNESS_MAIN
