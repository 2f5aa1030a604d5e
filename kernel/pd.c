// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: protection domains.
 *
 * Every object that touches memory (MR, MW, AH, QP, SRQ, WQ) hangs off a
 * PD and holds pd->usecnt; DEALLOC_PD refuses with EBUSY while any does,
 * and the file's teardown destroys the dependants first.
 */

#include <linux/slab.h>

#include "uverbs.h"

static int uverbs_alloc_pd(struct uverbs_attr_bundle *attrs)
{
	struct ovb_alloc_pd_resp resp = {};
	struct ovb_alloc_pd_req cmd;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_pd *pd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	uobj = uobj_alloc(OVB_OBJECT_PD, attrs, &ibdev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);

	pd = rdma_zalloc_drv_obj(ibdev, ib_pd);
	if (!pd) {
		uobj_alloc_abort(uobj, attrs);
		return -ENOMEM;
	}
	pd->device = ibdev;
	pd->uobject = uobj;
	atomic_set(&pd->usecnt, 0);
	rdma_restrack_new(&pd->res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&pd->res, NULL);

	ret = ibdev->ops.alloc_pd(pd, &attrs->driver_udata);
	if (ret) {
		rdma_restrack_put(&pd->res);
		kfree(pd);
		uobj_alloc_abort(uobj, attrs);
		return ret;
	}
	rdma_restrack_add(&pd->res);
	uobj->object = pd;
	uobj_finalize_uobj_create(uobj, attrs);

	resp.pd_handle = uobj->id;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static int uverbs_dealloc_pd(struct uverbs_attr_bundle *attrs)
{
	struct ovb_dealloc_pd_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uobj_perform_destroy(OVB_OBJECT_PD, cmd.pd_handle, attrs);
}

static int uverbs_free_pd(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uobj->object;

	if (atomic_read(&pd->usecnt))
		return -EBUSY;
	return ib_dealloc_pd_user(pd, &attrs->driver_udata);
}

const struct uverbs_obj_idr_type uverbs_pd_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uobject),
	},
	.destroy_object = uverbs_free_pd,
};

const struct uverbs_write_cmd uverbs_pd_cmds[] = {
	UVERBS_WRITE(OVB_CMD_ALLOC_PD, uverbs_alloc_pd,
		     struct ovb_alloc_pd_req, struct ovb_alloc_pd_resp,
		     1, UVERBS_NEEDS(alloc_pd), UVERBS_NEEDS(dealloc_pd)),
	UVERBS_WRITE(OVB_CMD_DEALLOC_PD, uverbs_dealloc_pd,
		     struct ovb_dealloc_pd_req, struct uverbs_no_resp, 0,
		     UVERBS_NEEDS(dealloc_pd)),
	{ }
};

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_PD_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_PD_HANDLE,
						    OVB_OBJECT_PD,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_PD,
			    uverbs_pd_type.type,
			    &UVERBS_METHOD(OVB_METHOD_PD_DESTROY));

const struct uapi_definition uverbs_def_obj_pd[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_PD,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_pd)),
	{ }
};
