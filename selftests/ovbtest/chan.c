// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: the driver-defined part of the device's uverbs API, in the
 * public <rdma/uverbs_named_ioctl.h> format (ib_device::driver_def):
 *  - OVBTEST_OBJECT_CHAN, a copy channel bound to a PD, with CREATE (new
 *    handle, PD handle, inline input, output, driver udata), QUERY,
 *    DESTROY (reports the final statistics) and COPY (two MR handles and
 *    a descriptor passed by address);
 *  - OVBTEST_METHOD_DEVICE_INFO on the standard DEVICE object;
 *  - OVBTEST_ATTR_CQ_CREATE_TAG on the standard CQ_CREATE method.
 */
#include <linux/slab.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "ovbtest.h"

struct ovbtest_chan {
	struct ovbtest_ucontext *uc;
	struct ib_pd *pd;
	u32 id;
	u32 depth;
	atomic64_t copies;
	atomic64_t bytes;
};

/* The handle's memory outlives the channel: DESTROY reports from it. */
struct ovbtest_chan_uobj {
	struct ib_uobject uobj;
	struct ovbtest_chan_stats final;
};

/* The counters page as the kernel updates it (layout of the ABI's). */
struct ovbtest_counters_k {
	atomic64_t completions;
	atomic64_t bytes;
	u64 magic;
};

static_assert(sizeof(struct ovbtest_counters_k) ==
	      sizeof(struct ovbtest_counters));

static void ovbtest_chan_stats(struct ovbtest_chan *chan,
			       struct ovbtest_chan_stats *st)
{
	st->copies = atomic64_read(&chan->copies);
	st->bytes = atomic64_read(&chan->bytes);
	st->id = chan->id;
	st->depth = chan->depth;
}

static int ovbtest_chan_cleanup(struct ib_uobject *uobject,
				enum rdma_remove_reason why,
				struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_chan_uobj *cu =
		container_of(uobject, struct ovbtest_chan_uobj, uobj);
	struct ovbtest_chan *chan = uobject->object;

	ovbtest_chan_stats(chan, &cu->final);
	atomic_dec(&chan->pd->usecnt);
	atomic_dec(&to_odev(chan->pd->device)->live.chans);
	kfree(chan);
	return 0;
}

static int UVERBS_HANDLER(OVBTEST_METHOD_CHAN_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVBTEST_ATTR_CHAN_CREATE_HANDLE);
	struct ib_pd *pd =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_CHAN_CREATE_PD);
	struct ovbtest_dev *dev = to_odev(pd->device);
	struct ovbtest_chan_create_resp resp = {};
	struct ovbtest_chan_create_req req = {};
	struct ovbtest_chan *chan;
	u32 depth;
	int ret;

	ret = uverbs_copy_from(&depth, attrs, OVBTEST_ATTR_CHAN_CREATE_DEPTH);
	if (ret)
		return ret;
	if (!depth || depth > 1024)
		return -EINVAL;
	/* The driver's own request and response (UHW_IN / UHW_OUT). */
	ret = ib_copy_from_udata(&req, &attrs->driver_udata,
				 min(attrs->driver_udata.inlen, sizeof(req)));
	if (ret)
		return ret;

	chan = kzalloc(sizeof(*chan), GFP_KERNEL);
	if (!chan)
		return -ENOMEM;
	chan->uc = to_ouc(uobj->context);
	chan->pd = pd;
	chan->depth = depth;
	chan->id = atomic_inc_return(&dev->next_chan);
	atomic_inc(&pd->usecnt);
	atomic_inc(&dev->live.chans);
	uobj->object = chan;
	/* From here an error destroys the channel through the cleanup. */
	uverbs_finalize_uobj_create(attrs, OVBTEST_ATTR_CHAN_CREATE_HANDLE);

	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_CHAN_CREATE_ID)) {
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_CHAN_CREATE_ID,
				     &chan->id, sizeof(chan->id));
		if (ret)
			return ret;
	}
	resp.cookie = req.cookie;
	resp.id = chan->id;
	return ib_copy_to_udata(&attrs->driver_udata, &resp,
				min(attrs->driver_udata.outlen, sizeof(resp)));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_CHAN_QUERY)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_chan *chan =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_CHAN_QUERY_HANDLE);
	struct ovbtest_chan_stats st;

	ovbtest_chan_stats(chan, &st);
	return uverbs_copy_to_struct_or_zero(attrs,
					     OVBTEST_ATTR_CHAN_QUERY_STATS,
					     &st, sizeof(st));
}

/* Runs after the framework destroyed the channel. */
static int UVERBS_HANDLER(OVBTEST_METHOD_CHAN_DESTROY)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVBTEST_ATTR_CHAN_DESTROY_HANDLE);
	struct ovbtest_chan_uobj *cu =
		container_of(uobj, struct ovbtest_chan_uobj, uobj);

	if (!uverbs_attr_is_valid(attrs, OVBTEST_ATTR_CHAN_DESTROY_STATS))
		return 0;
	return uverbs_copy_to_struct_or_zero(attrs,
					     OVBTEST_ATTR_CHAN_DESTROY_STATS,
					     &cu->final, sizeof(cu->final));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_CHAN_COPY)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_chan *chan =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_CHAN_COPY_HANDLE);
	struct ib_mr *src = uverbs_attr_get_obj(attrs,
						OVBTEST_ATTR_CHAN_COPY_SRC_MR);
	struct ib_mr *dst = uverbs_attr_get_obj(attrs,
						OVBTEST_ATTR_CHAN_COPY_DST_MR);
	struct ovbtest_counters_k *ctr = chan->uc->counters->page;
	struct ovbtest_copy_desc desc;
	u64 seq;
	int ret;

	ret = uverbs_copy_from(&desc, attrs, OVBTEST_ATTR_CHAN_COPY_DESC);
	if (ret)
		return ret;
	if (desc.flags || desc.length > OVBTEST_COPY_MAX)
		return -EINVAL;
	/* As a QP: only the memory of its own PD. */
	if (src->pd != chan->pd || dst->pd != chan->pd)
		return -EINVAL;
	ret = ovbtest_mr_copy(to_omr(src), desc.src_offset, to_omr(dst),
			      desc.dst_offset, desc.length);
	if (ret)
		return ret;

	seq = atomic64_inc_return(&chan->copies);
	atomic64_add(desc.length, &chan->bytes);
	atomic64_add(desc.length, &ctr->bytes);
	atomic64_inc(&ctr->completions);
	if (!uverbs_attr_is_valid(attrs, OVBTEST_ATTR_CHAN_COPY_SEQ))
		return 0;
	return uverbs_copy_to(attrs, OVBTEST_ATTR_CHAN_COPY_SEQ, &seq,
			      sizeof(seq));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_DEVICE_INFO)(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ibuc = ib_uverbs_get_ucontext(attrs);
	struct ovbtest_device_info info = {};
	struct ovbtest_ucontext *uc;
	struct ovbtest_dev *dev;
	unsigned int i;

	if (IS_ERR(ibuc))
		return PTR_ERR(ibuc);
	uc = to_ouc(ibuc);
	dev = to_odev(ibuc->device);
	info.magic = OVBTEST_MAGIC;
	info.counters_offset = rdma_user_mmap_get_offset(&uc->counters->rdma_entry);
	info.doorbell_offset = rdma_user_mmap_get_offset(&uc->doorbell->rdma_entry);
	info.doorbell_value = ovbtest_mmap_read(uc->doorbell);
	info.wc_value = ovbtest_mmap_read(uc->wc);
	info.nc_value = ovbtest_mmap_read(uc->nc);
	for (i = 0; i < OVBTEST_MMAP_FIXED_PAGES; i++)
		info.fixed_value[i] = ovbtest_mmap_fixed_read(i);
	info.contexts = atomic_read(&dev->live.contexts);
	info.pds = atomic_read(&dev->live.pds);
	info.cqs = atomic_read(&dev->live.cqs);
	info.mrs = atomic_read(&dev->live.mrs);
	info.chans = atomic_read(&dev->live.chans);
	info.qps = atomic_read(&dev->live.qps);
	info.mcast_groups = atomic_read(&dev->live.mcast_groups);
	info.mcast_attached = atomic_read(&dev->live.mcast_attached);
	ovbtest_stuck_count(dev, &info.stuck, &info.stuck_orphans);
	return uverbs_copy_to_struct_or_zero(attrs, OVBTEST_ATTR_DEVICE_INFO,
					     &info, sizeof(info));
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_CHAN_CREATE,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CHAN_CREATE_HANDLE,
					    OVBTEST_OBJECT_CHAN,
					    UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CHAN_CREATE_PD,
					    UVERBS_OBJECT_PD,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_CHAN_CREATE_DEPTH,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_CHAN_CREATE_ID,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_CHAN_QUERY,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CHAN_QUERY_HANDLE,
					    OVBTEST_OBJECT_CHAN,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_CHAN_QUERY_STATS,
						UVERBS_ATTR_STRUCT(struct ovbtest_chan_stats,
								   depth),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_CHAN_DESTROY,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CHAN_DESTROY_HANDLE,
					    OVBTEST_OBJECT_CHAN,
					    UVERBS_ACCESS_DESTROY,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_CHAN_DESTROY_STATS,
						UVERBS_ATTR_STRUCT(struct ovbtest_chan_stats,
								   depth),
						UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_CHAN_COPY,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CHAN_COPY_HANDLE,
					    OVBTEST_OBJECT_CHAN,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CHAN_COPY_SRC_MR,
					    UVERBS_OBJECT_MR,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CHAN_COPY_DST_MR,
					    UVERBS_OBJECT_MR,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_CHAN_COPY_DESC,
					       UVERBS_ATTR_TYPE(struct ovbtest_copy_desc),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_CHAN_COPY_SEQ,
						UVERBS_ATTR_TYPE(u64),
						UA_OPTIONAL));

DECLARE_UVERBS_NAMED_OBJECT(OVBTEST_OBJECT_CHAN,
			    UVERBS_TYPE_ALLOC_IDR_SZ(sizeof(struct ovbtest_chan_uobj),
						     ovbtest_chan_cleanup),
			    &UVERBS_METHOD(OVBTEST_METHOD_CHAN_CREATE),
			    &UVERBS_METHOD(OVBTEST_METHOD_CHAN_QUERY),
			    &UVERBS_METHOD(OVBTEST_METHOD_CHAN_DESTROY),
			    &UVERBS_METHOD(OVBTEST_METHOD_CHAN_COPY));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_DEVICE_INFO,
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DEVICE_INFO,
						UVERBS_ATTR_STRUCT(struct ovbtest_device_info,
								   qps),
						UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_device, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(OVBTEST_METHOD_DEVICE_INFO));

ADD_UVERBS_ATTRIBUTES_SIMPLE(ovbtest_cq_create, UVERBS_OBJECT_CQ,
			     UVERBS_METHOD_CQ_CREATE,
			     UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_CQ_CREATE_TAG,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL));

const struct uapi_definition ovbtest_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVBTEST_OBJECT_CHAN),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &ovbtest_device),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_CQ, &ovbtest_cq_create),
	UAPI_DEF_CHAIN(ovbtest_events_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_probe_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_dmabuf_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_xrc_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_flow_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_drv_flow_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_stuck_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_ah_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_async_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_post_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_irq_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_opa_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_irq_events_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_fatal_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_mmap_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_mmap_kinds_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_dm_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_ctx_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_attrs_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_hidden_uapi_defs),
	UAPI_DEF_CHAIN(ovbtest_dma_map_uapi_defs),
	OVBTEST_ODP_UAPI_DEFS
	{},
};
