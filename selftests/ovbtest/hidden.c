// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: OVBTEST_OBJECT_HIDDEN, an IDR object the driver declares and
 * then hides: its UAPI_DEF_IS_OBJ_SUPPORTED function says no, as mlx5's
 * devx_is_supported() does on a device without DEVX.  ib_uverbs builds the
 * device's API without it, without its methods, and without any method
 * (of another object) whose mandatory attribute is a handle of it:
 * ATTRS_HIDDEN_MAND goes, ATTRS_HIDDEN_OPT (the same handle, optional)
 * stays.  The handlers count their calls: none may run for HIDDEN.
 */
#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "ovbtest.h"

static atomic_t ovbtest_hidden_calls = ATOMIC_INIT(0);

static int ovbtest_hidden_cleanup(struct ib_uobject *uobject,
				  enum rdma_remove_reason why,
				  struct uverbs_attr_bundle *attrs)
{
	return 0;
}

static int ovbtest_hidden_calls_out(struct uverbs_attr_bundle *attrs)
{
	u32 calls = atomic_inc_return(&ovbtest_hidden_calls);

	if (!uverbs_attr_is_valid(attrs, OVBTEST_ATTR_ATTRS_HIDDEN_CALLS))
		return 0;
	return uverbs_copy_to(attrs, OVBTEST_ATTR_ATTRS_HIDDEN_CALLS, &calls,
			      sizeof(calls));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_HIDDEN_CREATE)(struct uverbs_attr_bundle *attrs)
{
	atomic_inc(&ovbtest_hidden_calls);
	return 0;
}

static int UVERBS_HANDLER(OVBTEST_METHOD_ATTRS_HIDDEN_MAND)(struct uverbs_attr_bundle *attrs)
{
	return ovbtest_hidden_calls_out(attrs);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_ATTRS_HIDDEN_OPT)(struct uverbs_attr_bundle *attrs)
{
	return ovbtest_hidden_calls_out(attrs);
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_HIDDEN_CREATE,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_HIDDEN_CREATE_HANDLE,
					    OVBTEST_OBJECT_HIDDEN,
					    UVERBS_ACCESS_NEW,
					    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVBTEST_OBJECT_HIDDEN,
			    UVERBS_TYPE_ALLOC_IDR(ovbtest_hidden_cleanup),
			    &UVERBS_METHOD(OVBTEST_METHOD_HIDDEN_CREATE));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_ATTRS_HIDDEN_MAND,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_ATTRS_HIDDEN_HANDLE,
					    OVBTEST_OBJECT_HIDDEN,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_ATTRS_HIDDEN_CALLS,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_ATTRS_HIDDEN_OPT,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_ATTRS_HIDDEN_HANDLE,
					    OVBTEST_OBJECT_HIDDEN,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_ATTRS_HIDDEN_CALLS,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL));

ADD_UVERBS_METHODS(ovbtest_attrs_hidden, OVBTEST_OBJECT_ATTRS,
		   &UVERBS_METHOD(OVBTEST_METHOD_ATTRS_HIDDEN_MAND),
		   &UVERBS_METHOD(OVBTEST_METHOD_ATTRS_HIDDEN_OPT));

/* No device of this driver has the object. */
static bool ovbtest_hidden_supported(struct ib_device *ibdev)
{
	return false;
}

const struct uapi_definition ovbtest_hidden_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVBTEST_OBJECT_HIDDEN,
				      UAPI_DEF_IS_OBJ_SUPPORTED(ovbtest_hidden_supported)),
	UAPI_DEF_CHAIN_OBJ_TREE(OVBTEST_OBJECT_ATTRS, &ovbtest_attrs_hidden),
	{},
};
