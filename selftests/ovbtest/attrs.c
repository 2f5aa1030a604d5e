// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: OVBTEST_OBJECT_ATTRS, global methods; ECHO reads constant and
 * flags attributes the way mlx5 does (uverbs_get_const(),
 * uverbs_get_const_default(), uverbs_get_flags32/64()) and answers what it
 * got.  A helper's error is the method's, except an absent S32 (no
 * default), whose -ENOENT is reported instead.  The object's
 * UAPI_DEF_IS_OBJ_SUPPORTED function says yes; hidden.c adds the methods
 * that name the hidden object.
 */
#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "ovbtest.h"

/* ECHO handler runs: a test sees whether a refused call reached it. */
static atomic_t ovbtest_echo_calls = ATOMIC_INIT(0);

static int UVERBS_HANDLER(OVBTEST_METHOD_ATTRS_ECHO)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_attrs_info info = {};
	u16 u16v;
	u8 u8v;
	s16 s16v;
	s32 s32v = 0;
	int ret;

	info.calls = atomic_inc_return(&ovbtest_echo_calls);
	ret = uverbs_get_const(&u16v, attrs, OVBTEST_ATTR_ATTRS_ECHO_U16);
	if (ret)
		return ret;
	ret = uverbs_get_const_default(&u8v, attrs, OVBTEST_ATTR_ATTRS_ECHO_U8,
				       OVBTEST_ATTRS_U8_DEFAULT);
	if (ret)
		return ret;
	ret = uverbs_get_const_default(&s16v, attrs,
				       OVBTEST_ATTR_ATTRS_ECHO_S16,
				       OVBTEST_ATTRS_S16_DEFAULT);
	if (ret)
		return ret;
	ret = uverbs_get_const(&s32v, attrs, OVBTEST_ATTR_ATTRS_ECHO_S32);
	if (ret && ret != -ENOENT)
		return ret;
	info.s32_ret = ret;
	ret = uverbs_get_flags32(&info.flags32, attrs,
				 OVBTEST_ATTR_ATTRS_ECHO_FLAGS32,
				 OVBTEST_ATTRS_F32_ALLOWED);
	if (ret)
		return ret;
	ret = uverbs_get_flags64(&info.flags64, attrs,
				 OVBTEST_ATTR_ATTRS_ECHO_FLAGS64,
				 OVBTEST_ATTRS_F64_ALLOWED);
	if (ret)
		return ret;
	info.u16 = u16v;
	info.u8 = u8v;
	info.s16 = s16v;
	info.s32 = info.s32_ret ? 0 : s32v;
	return uverbs_copy_to_struct_or_zero(attrs, OVBTEST_ATTR_ATTRS_ECHO_INFO,
					     &info, sizeof(info));
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_ATTRS_ECHO,
			    UVERBS_ATTR_CONST_IN(OVBTEST_ATTR_ATTRS_ECHO_U16, u16,
						 UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(OVBTEST_ATTR_ATTRS_ECHO_U8, u8,
						 UA_OPTIONAL),
			    UVERBS_ATTR_CONST_IN(OVBTEST_ATTR_ATTRS_ECHO_S16, s16,
						 UA_OPTIONAL),
			    UVERBS_ATTR_CONST_IN(OVBTEST_ATTR_ATTRS_ECHO_S32, s32,
						 UA_OPTIONAL),
			    UVERBS_ATTR_FLAGS_IN(OVBTEST_ATTR_ATTRS_ECHO_FLAGS32,
						 u32, UA_OPTIONAL),
			    UVERBS_ATTR_FLAGS_IN(OVBTEST_ATTR_ATTRS_ECHO_FLAGS64,
						 u64, UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_ATTRS_ECHO_INFO,
						UVERBS_ATTR_TYPE(struct ovbtest_attrs_info),
						UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(OVBTEST_OBJECT_ATTRS,
			      &UVERBS_METHOD(OVBTEST_METHOD_ATTRS_ECHO));

static bool ovbtest_attrs_supported(struct ib_device *ibdev)
{
	return true;
}

const struct uapi_definition ovbtest_attrs_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVBTEST_OBJECT_ATTRS,
				      UAPI_DEF_IS_OBJ_SUPPORTED(ovbtest_attrs_supported)),
	{},
};
