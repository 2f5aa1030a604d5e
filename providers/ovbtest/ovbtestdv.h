/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ovbtest "direct verbs": the driver-defined methods of the test HCA
 * (selftests/ovbtest/, uapi/openverbs/ovbtest-abi.h) for applications, on an
 * ibv_context the ovbtest provider opened.  Like a vendor's <xxxdv.h>: the
 * application passes verbs objects, the functions issue the driver's
 * ioctl methods on the context's command fd with the objects' handles.
 * Each returns 0 or a positive errno.
 */
#ifndef OVBTESTDV_H
#define OVBTESTDV_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <openverbs/ioctl-abi.h>

#include <openverbs/ovbtest-abi.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ovbtestdv_chan {
	struct ibv_context *context;
	uint32_t handle;
	uint32_t id;
};

/*
 * One ioctl method call with up to 8 attributes: struct
 * ovb_ioctl_hdr, whose attrs[] flexible array cannot be followed by
 * storage in C++, spelled out.
 */
struct ovbtestdv_call {
	struct {
		uint16_t length;
		uint16_t object_id;
		uint16_t method_id;
		uint16_t num_attrs;
		uint64_t reserved1;
		uint32_t driver_id;
		uint32_t reserved2;
	} hdr;
	struct ovb_ioctl_attr attrs[8];
};

static inline void ovbtestdv_init(struct ovbtestdv_call *c, uint16_t object,
				  uint16_t method)
{
	memset(c, 0, sizeof(*c));
	c->hdr.object_id = object;
	c->hdr.method_id = method;
	c->hdr.driver_id = OVB_DRIVER_UNKNOWN;
}

static inline struct ovb_ioctl_attr *
ovbtestdv_attr(struct ovbtestdv_call *c, uint16_t id, uint16_t len,
	       uint64_t data)
{
	struct ovb_ioctl_attr *a = &c->attrs[c->hdr.num_attrs++];

	a->attr_id = id;
	a->len = len;
	a->data = data;
	return a;
}

static inline int ovbtestdv_run(struct ibv_context *ctx,
				struct ovbtestdv_call *c)
{
	c->hdr.length = sizeof(c->hdr) + c->hdr.num_attrs * sizeof(c->attrs[0]);
	return ioctl(ctx->cmd_fd, OVB_VERBS_IOCTL, c) ? errno : 0;
}

/* The objects alive on the device and the context's mmap offsets. */
static inline int ovbtestdv_query_device(struct ibv_context *ctx,
					 struct ovbtest_device_info *info)
{
	struct ovbtestdv_call c;

	ovbtestdv_init(&c, OVB_OBJECT_DEVICE, OVBTEST_METHOD_DEVICE_INFO);
	ovbtestdv_attr(&c, OVBTEST_ATTR_DEVICE_INFO, sizeof(*info),
		       (uintptr_t)info);
	return ovbtestdv_run(ctx, &c);
}

/*
 * What the driver's post ops last got (the kernel posts of QPs and SRQs):
 * @qp's sends, or its receives with @recv; or @srq's receives (@qp NULL).
 */
static inline int ovbtestdv_last_post(struct ibv_qp *qp, int recv,
				      struct ibv_srq *srq,
				      struct ovbtest_post_record *rec)
{
	struct ovbtestdv_call c;
	uint64_t inl = 1;

	if (qp)
		ovbtestdv_init(&c, OVB_OBJECT_QP, OVBTEST_METHOD_QP_LAST_POST);
	else
		ovbtestdv_init(&c, OVB_OBJECT_SRQ, OVBTEST_METHOD_SRQ_LAST_POST);
	ovbtestdv_attr(&c, OVBTEST_ATTR_LAST_POST_HANDLE, 0,
		       qp ? qp->handle : srq->handle);
	ovbtestdv_attr(&c, OVBTEST_ATTR_LAST_POST_RECORD, sizeof(*rec),
		       (uintptr_t)rec);
	if (qp && recv)
		ovbtestdv_attr(&c, OVBTEST_ATTR_LAST_POST_RECV, sizeof(uint32_t),
			       inl);
	return ovbtestdv_run(qp ? qp->context : srq->context, &c);
}

/* A copy channel on @pd, @depth copies deep (1..1024). */
static inline int ovbtestdv_create_chan(struct ibv_pd *pd, uint32_t depth,
					struct ovbtestdv_chan *chan)
{
	struct ovbtestdv_call c;
	uint64_t inl = depth;
	int rc;

	ovbtestdv_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_CREATE);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_CREATE_HANDLE, 0, 0);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_CREATE_PD, 0, pd->handle);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_CREATE_DEPTH, sizeof(depth), inl);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_CREATE_ID, sizeof(chan->id),
		       (uintptr_t)&chan->id);
	rc = ovbtestdv_run(pd->context, &c);
	if (rc)
		return rc;
	chan->context = pd->context;
	chan->handle = (uint32_t)c.attrs[0].data;
	return 0;
}

static inline int ovbtestdv_destroy_chan(struct ovbtestdv_chan *chan,
					 struct ovbtest_chan_stats *final)
{
	struct ovbtestdv_call c;

	ovbtestdv_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_DESTROY);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_DESTROY_HANDLE, 0, chan->handle);
	if (final)
		ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_DESTROY_STATS,
			       sizeof(*final), (uintptr_t)final);
	return ovbtestdv_run(chan->context, &c);
}

static inline int ovbtestdv_query_chan(struct ovbtestdv_chan *chan,
				       struct ovbtest_chan_stats *stats)
{
	struct ovbtestdv_call c;

	ovbtestdv_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_QUERY);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_QUERY_HANDLE, 0, chan->handle);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_QUERY_STATS, sizeof(*stats),
		       (uintptr_t)stats);
	return ovbtestdv_run(chan->context, &c);
}

/*
 * Copies @len bytes from @src at @src_off to @dst at @dst_off (offsets from
 * the start of each MR), like an RDMA WRITE on a loopback HCA; *@seq (may
 * be NULL) gets the channel's copy number.  @dst needs LOCAL_WRITE.
 */
static inline int ovbtestdv_copy(struct ovbtestdv_chan *chan,
				 struct ibv_mr *src, uint64_t src_off,
				 struct ibv_mr *dst, uint64_t dst_off,
				 uint32_t len, uint64_t *seq)
{
	struct ovbtest_copy_desc desc = {
		.src_offset = src_off, .dst_offset = dst_off, .length = len,
		.flags = 0,
	};
	struct ovbtestdv_call c;

	ovbtestdv_init(&c, OVBTEST_OBJECT_CHAN, OVBTEST_METHOD_CHAN_COPY);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_COPY_HANDLE, 0, chan->handle);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_COPY_SRC_MR, 0, src->handle);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_COPY_DST_MR, 0, dst->handle);
	ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_COPY_DESC, sizeof(desc),
		       (uintptr_t)&desc);
	if (seq)
		ovbtestdv_attr(&c, OVBTEST_ATTR_CHAN_COPY_SEQ, sizeof(*seq),
			       (uintptr_t)seq);
	return ovbtestdv_run(chan->context, &c);
}

/*
 * The context's counters page (read-only), which the device bumps after
 * every copy; munmap() it with the page size.  NULL with errno set.
 */
static inline const volatile struct ovbtest_counters *
ovbtestdv_map_counters(struct ibv_context *ctx)
{
	struct ovbtest_device_info info;
	void *p;
	int rc;

	rc = ovbtestdv_query_device(ctx, &info);
	if (rc) {
		errno = rc;
		return NULL;
	}
	p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		 ctx->cmd_fd, info.counters_offset);
	return p == MAP_FAILED ? NULL : (const volatile struct ovbtest_counters *)p;
}

#ifdef __cplusplus
}
#endif

#endif /* OVBTESTDV_H */
