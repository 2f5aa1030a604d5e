// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: memory windows.
 *
 * A window grants remote access to part of an MR and is bound later with
 * a work request; allocating it only needs a PD (held through usecnt).
 */

#include <linux/slab.h>

#include "obj_steps.h"

/* The window of an ALLOC_MW request on @pd, which the caller holds. */
static struct ib_mw *uverbs_mw_make(struct uverbs_newobj *n, struct ib_pd *pd,
				    u32 type)
{
	struct ib_mw *mw;
	int ret;

	if (type != IB_MW_TYPE_1 && type != IB_MW_TYPE_2)
		return ERR_PTR(-EINVAL);
	mw = rdma_zalloc_drv_obj(n->ibdev, ib_mw);
	if (!mw)
		return ERR_PTR(-ENOMEM);
	*mw = (struct ib_mw) {
		.device = n->ibdev,
		.pd = pd,
		.uobject = n->uobj,
		.type = type,
	};
	ret = n->ibdev->ops.alloc_mw(mw, &n->attrs->driver_udata);
	if (ret) {
		kfree(mw);
		return ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	return mw;
}

static int uverbs_alloc_mw(struct uverbs_attr_bundle *attrs)
{
	struct ovb_alloc_mw_resp resp;
	struct ovb_alloc_mw_req cmd;
	struct uverbs_newobj n;
	struct ib_pd *pd;
	struct ib_mw *mw;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	ret = ret ?: uverbs_newobj_begin(&n, OVB_OBJECT_MW, attrs, 0);
	if (ret)
		return ret;
	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd.pd_handle, attrs);
	if (IS_ERR(pd))
		return uverbs_newobj_cancel(&n, PTR_ERR(pd));
	mw = uverbs_mw_make(&n, pd, cmd.mw_type);
	uobj_put_obj_read(pd);
	if (IS_ERR(mw))
		return uverbs_newobj_cancel(&n, PTR_ERR(mw));

	resp = (struct ovb_alloc_mw_resp) {
		.mw_handle = uverbs_newobj_publish(&n, mw),
		.rkey = mw->rkey,
	};
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static const struct uverbs_destroy_cmd uverbs_dealloc_mw_cmd_cmd = {
	UVERBS_DESTROY_CMD(OVB_OBJECT_MW, struct ovb_dealloc_mw_req, mw_handle),
};

static int uverbs_dealloc_mw_cmd(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_dealloc_mw_cmd_cmd);
}

/* Frees @mw and releases its PD; on a driver error nothing is released. */
int uverbs_dealloc_mw(struct ib_mw *mw)
{
	struct ib_pd *pd = mw->pd;
	int ret = mw->device->ops.dealloc_mw(mw);

	if (!ret) {
		kfree(mw);
		atomic_dec(&pd->usecnt);
	}
	return ret;
}

static int uverbs_free_mw(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	return uverbs_dealloc_mw(uobj->object);
}

const struct uverbs_obj_idr_type uverbs_mw_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uobject),
	},
	.destroy_object = uverbs_free_mw,
};

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_MW_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_MW_HANDLE,
						    OVB_OBJECT_MW,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_MW,
			    uverbs_mw_type.type,
			    &UVERBS_METHOD(OVB_METHOD_MW_DESTROY));

const struct uapi_definition uverbs_def_obj_mw[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_MW),
	UAPI_DEF_OBJ_NEEDS_FN(dealloc_mw),
	UVERBS_DECLARE_WRITE(OVB_CMD_ALLOC_MW, uverbs_alloc_mw,
			     UVERBS_IN_OUT_UDATA(struct ovb_alloc_mw_req,
						 struct ovb_alloc_mw_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(alloc_mw),
	UVERBS_DECLARE_WRITE(OVB_CMD_DEALLOC_MW, uverbs_dealloc_mw_cmd,
			     UVERBS_IN(struct ovb_dealloc_mw_req)),
	{ }
};
