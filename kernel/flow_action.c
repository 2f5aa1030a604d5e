// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: flow action objects (ioctl only).
 *
 * Drivers create flow actions with their own driver_def methods (6.1 has no
 * standard create); flows reference them through ACTION_HANDLE specs
 * (flow.c), which hold action->usecnt.  Here: the object and its DESTROY,
 * for drivers with destroy_flow_action.
 */

#include "uverbs.h"

static int uverbs_free_flow_action(struct ib_uobject *uobj,
				   enum rdma_remove_reason why,
				   struct uverbs_attr_bundle *attrs)
{
	struct ib_flow_action *action = uobj->object;

	if (atomic_read(&action->usecnt))
		return -EBUSY;
	return action->device->ops.destroy_flow_action(action);
}

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_FLOW_ACTION_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_FLOW_ACTION_HANDLE,
						    OVB_OBJECT_FLOW_ACTION,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_FLOW_ACTION,
			    UVERBS_TYPE_ALLOC_IDR(uverbs_free_flow_action),
			    &UVERBS_METHOD(OVB_METHOD_FLOW_ACTION_DESTROY));

const struct uapi_definition uverbs_def_obj_flow_action[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_FLOW_ACTION,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_flow_action)),
	{ }
};
