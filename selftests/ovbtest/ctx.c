// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: the query_ucontext op, which ib_uverbs' QUERY_CONTEXT method
 * (DEVICE object) calls after writing its own NUM_COMP_VECTORS and
 * CORE_SUPPORT outputs.  As mlx5 does, the driver adds a mandatory output
 * attribute to that core method and answers in it what GET_CONTEXT's
 * driver data said: the context's mmap offsets, from its pages.
 */
#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "ovbtest.h"

#define OVBTEST_UCTX_RESP	struct ovbtest_alloc_ucontext_resp

static u64 ovbtest_ctx_offset(struct ovbtest_mmap_page *p)
{
	return p ? rdma_user_mmap_get_offset(&p->rdma_entry) : 0;
}

static int ovbtest_query_ucontext(struct ib_ucontext *ibuc,
				  struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_ucontext *uc = to_ouc(ibuc);
	struct ovbtest_alloc_ucontext_resp resp = {};

	resp.magic = OVBTEST_MAGIC;
	resp.counters_offset = ovbtest_ctx_offset(uc->counters);
	resp.doorbell_offset = ovbtest_ctx_offset(uc->doorbell);
	if (uc->wc && uc->nc) {
		resp.flags = OVBTEST_UCTX_BAR;
		resp.wc_offset = ovbtest_ctx_offset(uc->wc);
		resp.nc_offset = ovbtest_ctx_offset(uc->nc);
		resp.wc_bar_offset = uc->wc->bar_offset;
		resp.nc_bar_offset = uc->nc->bar_offset;
	}
	return uverbs_copy_to_struct_or_zero(attrs,
					     OVBTEST_ATTR_QUERY_CONTEXT_RESP,
					     &resp, sizeof(resp));
}

const struct ib_device_ops ovbtest_ctx_ops = {
	.query_ucontext = ovbtest_query_ucontext,
};

ADD_UVERBS_ATTRIBUTES_SIMPLE(ovbtest_query_context, UVERBS_OBJECT_DEVICE,
			     UVERBS_METHOD_QUERY_CONTEXT,
			     UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_QUERY_CONTEXT_RESP,
						 UVERBS_ATTR_STRUCT(OVBTEST_UCTX_RESP,
								    flags),
						 UA_MANDATORY));

const struct uapi_definition ovbtest_ctx_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &ovbtest_query_context),
	{},
};
