// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: counters objects (ioctl only).
 *
 * A set of driver counters a flow binds to (flow.c's ACTION_COUNT spec takes
 * a reference in counters->usecnt); READ asks the driver for their values
 * and is only meaningful, and only allowed, once something is bound.
 */

#include "uverbs.h"

/* Bound to a flow (flow.c's ACTION_COUNT holds a use). */
static bool counters_bound(struct ib_counters *counters)
{
	return atomic_read(&counters->usecnt);
}

static int uverbs_free_counters(struct ib_uobject *uobj,
				enum rdma_remove_reason why,
				struct uverbs_attr_bundle *attrs)
{
	struct ib_counters *counters = uobj->object;
	int ret = counters_bound(counters) ? -EBUSY :
		  counters->device->ops.destroy_counters(counters);

	if (!ret)
		kfree(counters);
	return ret;
}

/* The driver's counters object behind @uobj; nothing is left on failure. */
static int counters_create(struct ib_device *ibdev, struct ib_uobject *uobj,
			   struct uverbs_attr_bundle *attrs)
{
	struct ib_counters *counters = rdma_zalloc_drv_obj(ibdev, ib_counters);
	int ret;

	if (!counters)
		return -ENOMEM;
	*counters = (struct ib_counters) {
		.device = ibdev,
		.uobject = uobj,
		.usecnt = ATOMIC_INIT(0),
	};
	uobj->object = counters;
	ret = ibdev->ops.create_counters(counters, attrs);
	if (ret)
		kfree(counters);
	return ret;
}

static int UVERBS_HANDLER(OVB_METHOD_COUNTERS_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_device *ibdev = attrs->context->device;

	/* optional: destroy_counters alone keeps the object in the tree */
	if (!ibdev->ops.create_counters)
		return -EOPNOTSUPP;
	return counters_create(ibdev,
			       uverbs_attr_get_uobject(attrs,
						       OVB_ATTR_CREATE_COUNTERS_HANDLE),
			       attrs);
}

/* The user's buffer as whole u64 counters, zeroed, freed with the call. */
static int counters_read_buffer(struct uverbs_attr_bundle *attrs,
				struct ib_counters_read_attr *read)
{
	const struct uverbs_attr *buf =
		uverbs_attr_get(attrs, OVB_ATTR_READ_COUNTERS_BUFF);

	if (IS_ERR(buf))
		return PTR_ERR(buf);
	read->ncounters = buf->ptr_attr.len / sizeof(u64);
	read->counters_buff = uverbs_zalloc(attrs, array_size(read->ncounters,
							      sizeof(u64)));
	return PTR_ERR_OR_ZERO(read->counters_buff);
}

static int UVERBS_HANDLER(OVB_METHOD_COUNTERS_READ)(struct uverbs_attr_bundle *attrs)
{
	struct ib_counters *counters = uverbs_attr_get_obj(attrs,
							   OVB_ATTR_READ_COUNTERS_HANDLE);
	int (*read_op)(struct ib_counters *counters,
		       struct ib_counters_read_attr *read,
		       struct uverbs_attr_bundle *attrs) =
		counters->device->ops.read_counters;
	struct ib_counters_read_attr read = {};
	int ret;

	if (!read_op)
		return -EOPNOTSUPP;
	/* nothing counts before a flow is bound */
	if (!counters_bound(counters))
		return -EINVAL;
	ret = uverbs_get_flags32(&read.flags, attrs, OVB_ATTR_READ_COUNTERS_FLAGS,
				 OVB_READ_COUNTERS_PREFER_CACHED) ?:
	      counters_read_buffer(attrs, &read) ?:
	      read_op(counters, &read, attrs);
	return ret ?: uverbs_copy_to(attrs, OVB_ATTR_READ_COUNTERS_BUFF,
				     read.counters_buff,
				     read.ncounters * sizeof(u64));
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
