// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: device memory (the DM object, ioctl only).
 *
 * A range of the HCA's own memory the driver hands out; MRs over it come
 * from the MR object's DM_MR_REG and hold dm->usecnt, so a DM with MRs is
 * busy.  Only drivers with alloc_dm/dealloc_dm (mlx5) get the object.
 */

#include "uverbs.h"

static int uverbs_free_dm(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	struct ib_dm *dm = uobj->object;

	if (atomic_read(&dm->usecnt))
		return -EBUSY;
	return dm->device->ops.dealloc_dm(dm, attrs);
}

static int UVERBS_HANDLER(OVB_METHOD_DM_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, OVB_ATTR_ALLOC_DM_HANDLE);
	struct ib_device *ibdev = attrs->context->device;
	struct ib_dm_alloc_attr dm_attr = {};
	struct ib_dm *dm;
	int ret;

	if (!ibdev->ops.alloc_dm)
		return -EOPNOTSUPP;
	ret = uverbs_copy_from(&dm_attr.length, attrs, OVB_ATTR_ALLOC_DM_LENGTH);
	if (!ret)
		ret = uverbs_copy_from(&dm_attr.alignment, attrs,
				       OVB_ATTR_ALLOC_DM_ALIGNMENT);
	if (ret)
		return ret;

	dm = ibdev->ops.alloc_dm(ibdev, attrs->context, &dm_attr, attrs);
	if (IS_ERR(dm))
		return PTR_ERR(dm);
	dm->device = ibdev;
	dm->length = dm_attr.length;
	dm->uobject = uobj;
	atomic_set(&dm->usecnt, 0);
	uobj->object = dm;
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_DM_ALLOC,
			    UVERBS_ATTR_IDR(OVB_ATTR_ALLOC_DM_HANDLE, OVB_OBJECT_DM,
					    UVERBS_ACCESS_NEW, UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_ALLOC_DM_LENGTH,
					       UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_ALLOC_DM_ALIGNMENT,
					       UVERBS_ATTR_TYPE(u32), UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_DM_FREE,
				    UVERBS_ATTR_IDR(OVB_ATTR_FREE_DM_HANDLE, OVB_OBJECT_DM,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_DM, UVERBS_TYPE_ALLOC_IDR(uverbs_free_dm),
			    &UVERBS_METHOD(OVB_METHOD_DM_ALLOC),
			    &UVERBS_METHOD(OVB_METHOD_DM_FREE));

const struct uapi_definition uverbs_def_obj_dm[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_DM,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_dm)),
	{ }
};
