// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: counters objects (ioctl only).
 *
 * A set of driver counters a flow binds to (flow.c's ACTION_COUNT spec takes
 * a reference in counters->usecnt); READ asks the driver for their values
 * and is only meaningful, and only allowed, once something is bound.
 */

#include "uverbs.h"

static int uverbs_free_counters(struct ib_uobject *uobj,
				enum rdma_remove_reason why,
				struct uverbs_attr_bundle *attrs)
{
	struct ib_counters *counters = uobj->object;
	int ret;

	if (atomic_read(&counters->usecnt))
		return -EBUSY;
	ret = counters->device->ops.destroy_counters(counters);
	if (!ret)
		kfree(counters);
	return ret;
}

static int UVERBS_HANDLER(OVB_METHOD_COUNTERS_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs,
							  OVB_ATTR_CREATE_COUNTERS_HANDLE);
	struct ib_device *ibdev = attrs->context->device;
	struct ib_counters *counters;
	int ret;

	if (!ibdev->ops.create_counters)
		return -EOPNOTSUPP;
	counters = rdma_zalloc_drv_obj(ibdev, ib_counters);
	if (!counters)
		return -ENOMEM;
	counters->device = ibdev;
	counters->uobject = uobj;
	atomic_set(&counters->usecnt, 0);
	uobj->object = counters;
	ret = ibdev->ops.create_counters(counters, attrs);
	if (ret)
		kfree(counters);
	return ret;
}

static int UVERBS_HANDLER(OVB_METHOD_COUNTERS_READ)(struct uverbs_attr_bundle *attrs)
{
	struct ib_counters *counters = uverbs_attr_get_obj(attrs,
							   OVB_ATTR_READ_COUNTERS_HANDLE);
	struct ib_counters_read_attr read = {};
	const struct uverbs_attr *buf;
	int ret;

	if (!counters->device->ops.read_counters)
		return -EOPNOTSUPP;
	if (!atomic_read(&counters->usecnt))
		return -EINVAL;
	ret = uverbs_get_flags32(&read.flags, attrs, OVB_ATTR_READ_COUNTERS_FLAGS,
				 OVB_READ_COUNTERS_PREFER_CACHED);
	if (ret)
		return ret;
	buf = uverbs_attr_get(attrs, OVB_ATTR_READ_COUNTERS_BUFF);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	read.ncounters = buf->ptr_attr.len / sizeof(u64);
	read.counters_buff = uverbs_zalloc(attrs, array_size(read.ncounters,
							     sizeof(u64)));
	if (IS_ERR(read.counters_buff))
		return PTR_ERR(read.counters_buff);

	ret = counters->device->ops.read_counters(counters, &read, attrs);
	if (ret)
		return ret;
	return uverbs_copy_to(attrs, OVB_ATTR_READ_COUNTERS_BUFF,
			      read.counters_buff, read.ncounters * sizeof(u64));
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_COUNTERS_CREATE,
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_COUNTERS_HANDLE,
					    OVB_OBJECT_COUNTERS, UVERBS_ACCESS_NEW,
					    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_COUNTERS_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_COUNTERS_HANDLE,
						    OVB_OBJECT_COUNTERS,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_COUNTERS_READ,
			    UVERBS_ATTR_IDR(OVB_ATTR_READ_COUNTERS_HANDLE,
					    OVB_OBJECT_COUNTERS, UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_READ_COUNTERS_BUFF,
						UVERBS_ATTR_MIN_SIZE(0), UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVB_ATTR_READ_COUNTERS_FLAGS,
						 enum ovb_read_counters_flags));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_COUNTERS,
			    UVERBS_TYPE_ALLOC_IDR(uverbs_free_counters),
			    &UVERBS_METHOD(OVB_METHOD_COUNTERS_CREATE),
			    &UVERBS_METHOD(OVB_METHOD_COUNTERS_DESTROY),
			    &UVERBS_METHOD(OVB_METHOD_COUNTERS_READ));

const struct uapi_definition uverbs_def_obj_counters[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_COUNTERS,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_counters)),
	{ }
};
