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

#endif /* UVERBS_IOCTL_H */
