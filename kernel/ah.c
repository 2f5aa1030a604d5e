// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: address handles (the destination of UD sends).
 *
 * ib_core's rdma_create_user_ah() resolves the route (for RoCE: the
 * destination MAC from the GID) and holds the PD.
 */

#include "obj_steps.h"

/* The write ABI's flat AH description → ib_core's rdma_ah_attr. */
static void ah_attr_from_user(struct ib_device *ibdev,
			      const struct ovb_ah_attr *uattr,
			      struct rdma_ah_attr *attr)
{
	const struct uverbs_av av = {
		.dgid = uattr->grh.dgid,
		.flow_label = uattr->grh.flow_label,
		.dlid = uattr->dlid,
		.sgid_index = uattr->grh.sgid_index,
		.hop_limit = uattr->grh.hop_limit,
		.traffic_class = uattr->grh.traffic_class,
		.sl = uattr->sl,
		.src_path_bits = uattr->src_path_bits,
		.static_rate = uattr->static_rate,
		.is_global = uattr->is_global,
		.port_num = uattr->port_num,
	};

	uverbs_av_to_ah_attr(ibdev, &av, attr);
}

/* The AH of a CREATE_AH request; the PD is held only while it is made. */
static struct ib_ah *uverbs_ah_make(struct ib_device *ibdev,
				    const struct ovb_create_ah_req *cmd,
				    struct uverbs_attr_bundle *attrs)
{
	struct rdma_ah_attr ah_attr = {};
	struct ib_pd *pd;
	struct ib_ah *ah;

	if (!rdma_is_port_valid(ibdev, cmd->attr.port_num))
		return ERR_PTR(-EINVAL);
	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd->pd_handle, attrs);
	if (IS_ERR(pd))
		return ERR_CAST(pd);
	ah_attr_from_user(ibdev, &cmd->attr, &ah_attr);
	ah = rdma_create_user_ah(pd, &ah_attr, &attrs->driver_udata);
	uobj_put_obj_read(pd);
	return ah;
}

static int uverbs_create_ah(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_ah_resp resp = {};
	struct ovb_create_ah_req cmd;
	struct uverbs_newobj n;
	struct ib_ah *ah;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	ret = ret ?: uverbs_newobj_begin(&n, OVB_OBJECT_AH, attrs,
					 cmd.user_handle);
	if (ret)
		return ret;
	ah = uverbs_ah_make(n.ibdev, &cmd, attrs);
	if (IS_ERR(ah))
		return uverbs_newobj_cancel(&n, PTR_ERR(ah));
	ah->uobject = n.uobj;
	resp.ah_handle = uverbs_newobj_publish(&n, ah);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static const struct uverbs_destroy_cmd uverbs_destroy_ah_cmd = {
	UVERBS_DESTROY_CMD(OVB_OBJECT_AH, struct ovb_destroy_ah_req, ah_handle),
};

static int uverbs_destroy_ah(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_destroy_ah_cmd);
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

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_AH_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_AH_HANDLE,
						    OVB_OBJECT_AH,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_AH,
			    uverbs_ah_type.type,
			    &UVERBS_METHOD(OVB_METHOD_AH_DESTROY));

const struct uapi_definition uverbs_def_obj_ah[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_AH),
	UAPI_DEF_OBJ_NEEDS_FN(create_user_ah),
	UAPI_DEF_OBJ_NEEDS_FN(destroy_ah),
	UVERBS_DECLARE_WRITE(OVB_CMD_CREATE_AH, uverbs_create_ah,
			     UVERBS_IN_OUT_UDATA(struct ovb_create_ah_req,
						 struct ovb_create_ah_resp)),
	UVERBS_DECLARE_WRITE(OVB_CMD_DESTROY_AH, uverbs_destroy_ah,
			     UVERBS_IN(struct ovb_destroy_ah_req)),
	{ }
};
