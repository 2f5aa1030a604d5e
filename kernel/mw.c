// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: memory windows.
 *
 * A window grants remote access to part of an MR and is bound later with
 * a work request; allocating it only needs a PD (held through usecnt).
 */

#include <linux/slab.h>

#include "uverbs.h"

static int uverbs_alloc_mw(struct uverbs_attr_bundle *attrs)
{
	struct ovb_alloc_mw_resp resp = {};
	struct ovb_alloc_mw_req cmd;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_pd *pd;
	struct ib_mw *mw;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	uobj = uobj_alloc(OVB_OBJECT_MW, attrs, &ibdev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd.pd_handle, attrs);
	if (IS_ERR(pd)) {
		ret = PTR_ERR(pd);
		goto err_abort;
	}
	if (cmd.mw_type != IB_MW_TYPE_1 && cmd.mw_type != IB_MW_TYPE_2) {
		ret = -EINVAL;
		goto err_put;
	}

	mw = rdma_zalloc_drv_obj(ibdev, ib_mw);
	if (!mw) {
		ret = -ENOMEM;
		goto err_put;
	}
	mw->device = ibdev;
	mw->pd = pd;
	mw->uobject = uobj;
	mw->type = cmd.mw_type;
	ret = ibdev->ops.alloc_mw(mw, &attrs->driver_udata);
	if (ret) {
		kfree(mw);
		goto err_put;
	}
	atomic_inc(&pd->usecnt);
	uobj->object = mw;
	uobj_put_obj_read(pd);
	uobj_finalize_uobj_create(uobj, attrs);

	resp.rkey = mw->rkey;
	resp.mw_handle = uobj->id;
	return uverbs_response(attrs, &resp, sizeof(resp));

err_put:
	uobj_put_obj_read(pd);
err_abort:
	uobj_alloc_abort(uobj, attrs);
	return ret;
}

static int uverbs_dealloc_mw_cmd(struct uverbs_attr_bundle *attrs)
{
	struct ovb_dealloc_mw_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uobj_perform_destroy(OVB_OBJECT_MW, cmd.mw_handle, attrs);
}

/* Frees @mw and releases its PD; on a driver error nothing is released. */
int uverbs_dealloc_mw(struct ib_mw *mw)
{
	struct ib_pd *pd = mw->pd;
	int ret;

	ret = mw->device->ops.dealloc_mw(mw);
	if (ret)
		return ret;
	atomic_dec(&pd->usecnt);
	kfree(mw);
	return 0;
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

const struct uverbs_write_cmd uverbs_mw_cmds[] = {
	UVERBS_WRITE(OVB_CMD_ALLOC_MW, uverbs_alloc_mw,
		     struct ovb_alloc_mw_req, struct ovb_alloc_mw_resp, 1,
		     UVERBS_NEEDS(alloc_mw), UVERBS_NEEDS(dealloc_mw)),
	UVERBS_WRITE(OVB_CMD_DEALLOC_MW, uverbs_dealloc_mw_cmd,
		     struct ovb_dealloc_mw_req, struct uverbs_no_resp, 0,
		     UVERBS_NEEDS(dealloc_mw)),
	{ }
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
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_MW,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_mw)),
	{ }
};
