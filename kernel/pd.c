// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: protection domains.
 *
 * Every object that touches memory (MR, MW, AH, QP, SRQ, WQ) hangs off a
 * PD and holds pd->usecnt; DEALLOC_PD refuses with EBUSY while any does,
 * and the file's teardown destroys the dependants first.
 */

#include <linux/slab.h>

#include "obj_steps.h"

/* A PD shell for the driver to fill, with its restrack entry begun. */
static struct ib_pd *uverbs_pd_shell(struct uverbs_newobj *n)
{
	struct ib_pd *pd = rdma_zalloc_drv_obj(n->ibdev, ib_pd);

	if (!pd)
		return NULL;
	*pd = (struct ib_pd) {
		.device = n->ibdev,
		.uobject = n->uobj,
	};
	rdma_restrack_new(&pd->res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&pd->res, NULL);
	return pd;
}

static int uverbs_alloc_pd(struct uverbs_attr_bundle *attrs)
{
	struct ovb_alloc_pd_resp resp = {};
	struct ovb_alloc_pd_req cmd;
	struct uverbs_newobj n;
	struct ib_pd *pd;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	ret = ret ?: uverbs_newobj_begin(&n, OVB_OBJECT_PD, attrs, 0);
	if (ret)
		return ret;
	pd = uverbs_pd_shell(&n);
	ret = pd ? n.ibdev->ops.alloc_pd(pd, &attrs->driver_udata) : -ENOMEM;
	if (ret) {
		if (pd) {
			rdma_restrack_put(&pd->res);
			kfree(pd);
		}
		return uverbs_newobj_cancel(&n, ret);
	}
	rdma_restrack_add(&pd->res);
	resp.pd_handle = uverbs_newobj_publish(&n, pd);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static const struct uverbs_destroy_cmd uverbs_dealloc_pd_cmd = {
	UVERBS_DESTROY_CMD(OVB_OBJECT_PD, struct ovb_dealloc_pd_req, pd_handle),
};

static int uverbs_dealloc_pd(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_dealloc_pd_cmd);
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

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_PD_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_PD_HANDLE,
						    OVB_OBJECT_PD,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_PD,
			    uverbs_pd_type.type,
			    &UVERBS_METHOD(OVB_METHOD_PD_DESTROY));

const struct uapi_definition uverbs_def_obj_pd[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_PD),
	UAPI_DEF_OBJ_NEEDS_FN(dealloc_pd),
	UVERBS_DECLARE_WRITE(OVB_CMD_ALLOC_PD, uverbs_alloc_pd,
			     UVERBS_IN_OUT_UDATA(struct ovb_alloc_pd_req,
						 struct ovb_alloc_pd_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(alloc_pd),
	UVERBS_DECLARE_WRITE(OVB_CMD_DEALLOC_PD, uverbs_dealloc_pd,
			     UVERBS_IN(struct ovb_dealloc_pd_req)),
	{ }
};
