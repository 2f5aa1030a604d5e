// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: address handles (the destination of UD sends).
 *
 * ib_core's rdma_create_user_ah() resolves the route (for RoCE: the
 * destination MAC from the GID) and holds the PD.
 */

#include "uverbs.h"

/* The write ABI's flat AH description → ib_core's rdma_ah_attr. */
static void ah_attr_from_user(struct ib_device *ibdev,
			      struct ovb_ah_attr *uattr,
			      struct rdma_ah_attr *attr)
{
	attr->type = rdma_ah_find_type(ibdev, uattr->port_num);
	rdma_ah_set_make_grd(attr, false);
	rdma_ah_set_dlid(attr, uattr->dlid);
	rdma_ah_set_sl(attr, uattr->sl);
	rdma_ah_set_path_bits(attr, uattr->src_path_bits);
	rdma_ah_set_static_rate(attr, uattr->static_rate);
	rdma_ah_set_port_num(attr, uattr->port_num);
	if (uattr->is_global) {
		rdma_ah_set_grh(attr, NULL, uattr->grh.flow_label,
				uattr->grh.sgid_index, uattr->grh.hop_limit,
				uattr->grh.traffic_class);
		rdma_ah_set_dgid_raw(attr, uattr->grh.dgid);
	} else {
		rdma_ah_set_ah_flags(attr, 0);
	}
}

static int uverbs_create_ah(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_ah_resp resp = {};
	struct rdma_ah_attr ah_attr = {};
	struct ovb_create_ah_req cmd;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_pd *pd;
	struct ib_ah *ah;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	uobj = uobj_alloc(OVB_OBJECT_AH, attrs, &ibdev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	if (!rdma_is_port_valid(ibdev, cmd.attr.port_num)) {
		ret = -EINVAL;
		goto err_abort;
	}
	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd.pd_handle, attrs);
	if (IS_ERR(pd)) {
		ret = PTR_ERR(pd);
		goto err_abort;
	}

	ah_attr_from_user(ibdev, &cmd.attr, &ah_attr);
	ah = rdma_create_user_ah(pd, &ah_attr, &attrs->driver_udata);
	uobj_put_obj_read(pd);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto err_abort;
	}
	ah->uobject = uobj;
	uobj->user_handle = cmd.user_handle;
	uobj->object = ah;
	uobj_finalize_uobj_create(uobj, attrs);

	resp.ah_handle = uobj->id;
	return uverbs_response(attrs, &resp, sizeof(resp));

err_abort:
	uobj_alloc_abort(uobj, attrs);
	return ret;
}

static int uverbs_destroy_ah(struct uverbs_attr_bundle *attrs)
{
	struct ovb_destroy_ah_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uobj_perform_destroy(OVB_OBJECT_AH, cmd.ah_handle, attrs);
}

static int uverbs_free_ah(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	return rdma_destroy_ah_user(uobj->object, RDMA_DESTROY_AH_SLEEPABLE,
				    &attrs->driver_udata);
}

const struct uverbs_obj_idr_type uverbs_ah_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uobject),
	},
	.destroy_object = uverbs_free_ah,
};

const struct uverbs_write_cmd uverbs_ah_cmds[] = {
	UVERBS_WRITE(OVB_CMD_CREATE_AH, uverbs_create_ah,
		     struct ovb_create_ah_req, struct ovb_create_ah_resp,
		     1, UVERBS_NEEDS(create_user_ah), UVERBS_NEEDS(destroy_ah)),
	UVERBS_WRITE(OVB_CMD_DESTROY_AH, uverbs_destroy_ah,
		     struct ovb_destroy_ah_req, struct uverbs_no_resp, 0,
		     UVERBS_NEEDS(create_user_ah), UVERBS_NEEDS(destroy_ah)),
	{ }
};

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_AH_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_AH_HANDLE,
						    OVB_OBJECT_AH,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_AH,
			    uverbs_ah_type.type,
			    &UVERBS_METHOD(OVB_METHOD_AH_DESTROY));

const struct uapi_definition uverbs_def_obj_ah[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_AH,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_ah)),
	{ }
};
