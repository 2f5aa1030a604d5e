/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Raw RDMA_VERBS_IOCTL calls for the uverbs selftests: a header and an
 * attribute array built by hand, so a test controls every field.  On our
 * module the ioctl ABI sits behind the ioctl_abi parameter; tests switch it
 * on for their run (and back) with ioctl_abi_on()/ioctl_abi_restore().
 */
#ifndef UVERBS_IOCTL_H
#define UVERBS_IOCTL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#define IOC_MAX_ATTRS	16
#define IOC_PARAM	"/sys/module/ib_uverbs/parameters/ioctl_abi"

struct ioc {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[IOC_MAX_ATTRS];
};

static inline void ioc_init(struct ioc *c, __u16 object, __u16 method)
{
	memset(c, 0, sizeof(*c));
	c->hdr.object_id = object;
	c->hdr.method_id = method;
	c->hdr.driver_id = RDMA_DRIVER_RXE;
}

static inline struct ib_uverbs_attr *ioc_attr(struct ioc *c, __u16 id,
					      __u16 len, __u64 data)
{
	struct ib_uverbs_attr *a = &c->attrs[c->hdr.num_attrs++];

	a->attr_id = id;
	a->len = len;
	a->data = data;
	return a;
}

/* PTR_IN: up to 8 bytes travel inline, more by address. */
static inline struct ib_uverbs_attr *ioc_in(struct ioc *c, __u16 id,
					    const void *p, __u16 len)
{
	struct ib_uverbs_attr *a = ioc_attr(c, id, len, (uintptr_t)p);

	if (len <= sizeof(a->data)) {
		a->data = 0;
		memcpy(&a->data, p, len);
	}
	return a;
}

static inline struct ib_uverbs_attr *ioc_const(struct ioc *c, __u16 id,
					       __u64 v)
{
	return ioc_attr(c, id, sizeof(v), v);
}

static inline struct ib_uverbs_attr *ioc_out(struct ioc *c, __u16 id,
					     void *p, __u16 len)
{
	return ioc_attr(c, id, len, (uintptr_t)p);
}

static inline struct ib_uverbs_attr *ioc_obj(struct ioc *c, __u16 id,
					     __s64 handle)
{
	return ioc_attr(c, id, 0, handle);
}

/* The ioctl with a consistent header; 0 or -errno. */
static inline int ioc_call(int fd, struct ioc *c)
{
	c->hdr.length = sizeof(c->hdr) + c->hdr.num_attrs * sizeof(c->attrs[0]);
	return ioctl(fd, RDMA_VERBS_IOCTL, c) ? -errno : 0;
}

/* Our module: switch the ioctl ABI on; returns the previous setting. */
static inline char ioctl_abi_on(void)
{
	char old = 0;
	int fd = open(IOC_PARAM, O_RDWR);

	if (fd < 0)
		return 0;	/* the in-tree module always serves ioctl */
	if (read(fd, &old, 1) != 1 || pwrite(fd, "1", 1, 0) != 1)
		old = 0;
	close(fd);
	return old;
}

static inline void ioctl_abi_restore(char old)
{
	int fd;

	if (!old)
		return;
	fd = open(IOC_PARAM, O_WRONLY);
	if (fd < 0)
		return;
	if (write(fd, old == 'Y' ? "1" : "0", 1) != 1)
		old = 0;
	close(fd);
}

/* ------------------------------------------- common objects by ioctl */

/* An FD attribute left out of a call (any int is a valid test value). */
#define IOC_NO_FD	INT64_MIN

/* ALLOC_PD through INVOKE_WRITE; the handle, or -errno. */
static inline int ioctl_alloc_pd(int fd)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct ib_uverbs_alloc_pd req = {};
	char drv[64];
	struct ioc c;
	int ret;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	ioc_const(&c, UVERBS_ATTR_WRITE_CMD, IB_USER_VERBS_CMD_ALLOC_PD);
	ioc_in(&c, UVERBS_ATTR_CORE_IN, &req, sizeof(req));
	ioc_out(&c, UVERBS_ATTR_CORE_OUT, &resp, sizeof(resp));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, drv, sizeof(drv));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)resp.pd_handle;
}

static inline int ioctl_destroy_pd(int fd, __u32 handle)
{
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_PD_HANDLE, handle);
	return ioc_call(fd, &c);
}

/*
 * CQ_CREATE with a completion channel and an async event file (either may
 * be IOC_NO_FD); 0 or -errno, the handle and real size in @handle/@real_cqe.
 */
static inline int ioctl_create_cq_fds(int fd, __u32 cqe, __u32 vector,
				      __u64 flags, __s64 channel,
				      __s64 event_fd, __u32 *handle,
				      __u32 *real_cqe)
{
	__u64 user_handle = 0xc0ffee;
	char drv[64];
	struct ioc c;
	int ret;

	ioc_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_CQE, &cqe, sizeof(cqe));
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, &user_handle,
	       sizeof(user_handle));
	ioc_in(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, &vector, sizeof(vector));
	ioc_const(&c, UVERBS_ATTR_CREATE_CQ_FLAGS, flags);
	ioc_out(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, real_cqe, sizeof(*real_cqe));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, drv, sizeof(drv));
	if (channel != IOC_NO_FD)
		ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, channel);
	if (event_fd != IOC_NO_FD)
		ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_EVENT_FD, event_fd);
	ret = ioc_call(fd, &c);
	if (!ret)
		*handle = c.attrs[0].data;
	return ret;
}

static inline int ioctl_create_cq(int fd, __u32 cqe, __u32 vector,
				  __u64 flags, __u32 *handle, __u32 *real_cqe)
{
	return ioctl_create_cq_fds(fd, cqe, vector, flags, IOC_NO_FD,
				   IOC_NO_FD, handle, real_cqe);
}

static inline int ioctl_destroy_cq(int fd, __u32 handle)
{
	struct ib_uverbs_destroy_cq_resp resp;
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_CQ_HANDLE, handle);
	ioc_out(&c, UVERBS_ATTR_DESTROY_CQ_RESP, &resp, sizeof(resp));
	return ioc_call(fd, &c);
}

/* ASYNC_EVENT_ALLOC: a new async event fd, or -errno. */
static inline int ioctl_async_event_alloc(int fd)
{
	struct ioc c;
	int ret;

	ioc_init(&c, UVERBS_OBJECT_ASYNC_EVENT, UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	ioc_obj(&c, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0);
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

#endif /* UVERBS_IOCTL_H */
