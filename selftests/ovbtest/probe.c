// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: OVBTEST_OBJECT_PROBE, global methods (no handles of their own,
 * like MLX5_IB_OBJECT_DEVX) in the attribute shapes real drivers use:
 *  - POST: an FD attribute with READ access (the EVENTS FD of events.c);
 *  - ANY_READ / ANY_WRITE: an IDR attribute of UVERBS_IDR_ANY_OBJECT, as
 *    DEVX_OBJ_QUERY/MODIFY take any handle and check its type themselves;
 *  - MRS: an IDRS_ARRAY of MR handles;
 *  - ENUM: an ENUM_IN of two PTR_IN alternatives of different sizes;
 *  - RAW_FD: a RAW_FD attribute, echoed;
 *  - ALLOC: memory from uverbs_alloc() (not zeroed by its caller), partly
 *    written and copied out whole.
 */
#include <linux/slab.h>
#include <linux/string.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "ovbtest.h"

static int UVERBS_HANDLER(OVBTEST_METHOD_PROBE_POST)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *fd_uobj =
		uverbs_attr_get_uobject(attrs, OVBTEST_ATTR_PROBE_POST_FD);
	u64 cookie;
	u32 seq;
	int ret;

	if (IS_ERR(fd_uobj))
		return PTR_ERR(fd_uobj);
	ret = uverbs_copy_from(&cookie, attrs, OVBTEST_ATTR_PROBE_POST_COOKIE);
	if (ret)
		return ret;
	ret = ovbtest_events_post(fd_uobj, cookie, &seq);
	if (ret)
		return ret;
	if (!uverbs_attr_is_valid(attrs, OVBTEST_ATTR_PROBE_POST_SEQ))
		return 0;
	return uverbs_copy_to(attrs, OVBTEST_ATTR_PROBE_POST_SEQ, &seq,
			      sizeof(seq));
}

/* What a driver learns of a handle of any type: its type, and whose. */
static int ovbtest_any_info(struct uverbs_attr_bundle *attrs,
			    struct ovbtest_any_info *info)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVBTEST_ATTR_PROBE_ANY_HANDLE);
	struct ib_ucontext *ctx = ib_uverbs_get_ucontext(attrs);

	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	memset(info, 0, sizeof(*info));
	info->object_id = uobj_get_object_id(uobj);
	info->handle = uobj->id;
	if (uobj->context && uobj->context->device == ctx->device)
		info->flags |= OVBTEST_ANY_OWN_DEVICE;
	if (uobj->context == ctx)
		info->flags |= OVBTEST_ANY_OWN_CONTEXT;
	return 0;
}

static int UVERBS_HANDLER(OVBTEST_METHOD_PROBE_ANY_READ)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_any_info info;
	int ret;

	ret = ovbtest_any_info(attrs, &info);
	if (ret)
		return ret;
	return uverbs_copy_to_struct_or_zero(attrs, OVBTEST_ATTR_PROBE_ANY_INFO,
					     &info, sizeof(info));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_PROBE_ANY_WRITE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *other;
	struct ovbtest_any_info info;
	int ret;

	ret = ovbtest_any_info(attrs, &info);
	if (ret)
		return ret;
	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_PROBE_ANY_OTHER)) {
		other = uverbs_attr_get_uobject(attrs,
						OVBTEST_ATTR_PROBE_ANY_OTHER);
		info.other_object_id = uobj_get_object_id(other);
	}
	return uverbs_copy_to_struct_or_zero(attrs, OVBTEST_ATTR_PROBE_ANY_INFO,
					     &info, sizeof(info));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_PROBE_MRS)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_mrs_info info = {};
	struct ib_uobject **uobjs;
	int i, n;

	n = uverbs_attr_get_uobjs_arr(attrs, OVBTEST_ATTR_PROBE_MRS_HANDLES,
				      &uobjs);
	if (n < OVBTEST_MRS_MIN || n > OVBTEST_MRS_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		struct ib_mr *mr = uobjs[i]->object;

		info.bytes += mr->length;
		info.handles[i] = uobjs[i]->id;
	}
	info.count = n;
	return uverbs_copy_to_struct_or_zero(attrs, OVBTEST_ATTR_PROBE_MRS_INFO,
					     &info, sizeof(info));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_PROBE_ENUM)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_enum_info info = {};
	struct ovbtest_enum_wide wide;
	int elem, len, ret;
	u32 narrow;

	elem = uverbs_attr_get_enum_id(attrs, OVBTEST_ATTR_PROBE_ENUM_IN);
	if (elem < 0)
		return elem;
	len = uverbs_attr_get_len(attrs, OVBTEST_ATTR_PROBE_ENUM_IN);
	if (len < 0)
		return len;

	switch (elem) {
	case OVBTEST_ENUM_NARROW:
		ret = uverbs_copy_from(&narrow, attrs,
				       OVBTEST_ATTR_PROBE_ENUM_IN);
		info.sum = narrow;
		break;
	case OVBTEST_ENUM_WIDE:
		ret = uverbs_copy_from(&wide, attrs, OVBTEST_ATTR_PROBE_ENUM_IN);
		info.sum = wide.a + wide.b;
		break;
	default:
		return -EINVAL;
	}
	if (ret)
		return ret;
	info.elem_id = elem;
	info.len = len;
	return uverbs_copy_to_struct_or_zero(attrs, OVBTEST_ATTR_PROBE_ENUM_INFO,
					     &info, sizeof(info));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_PROBE_RAW_FD)(struct uverbs_attr_bundle *attrs)
{
	s32 echo;
	int fd;
	int ret;

	ret = uverbs_get_raw_fd(&fd, attrs, OVBTEST_ATTR_PROBE_RAW_FD);
	if (ret)
		return ret;
	echo = fd;
	return uverbs_copy_to(attrs, OVBTEST_ATTR_PROBE_RAW_FD_ECHO, &echo,
			      sizeof(echo));
}

/*
 * uverbs_alloc() zeroes only when the kernel initialises every allocation
 * (init_on_alloc); whatever this does not write goes to user space as
 * the allocator left it.
 */
static int UVERBS_HANDLER(OVBTEST_METHOD_PROBE_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	int len = uverbs_attr_get_len(attrs, OVBTEST_ATTR_PROBE_ALLOC_OUT);
	u64 magic = OVBTEST_MAGIC;
	void *buf;

	if (len < 0)
		return len;
	if (len < sizeof(u64) || len > OVBTEST_ALLOC_MAX)
		return -EINVAL;
	buf = uverbs_alloc(attrs, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	memcpy(buf, &magic, sizeof(magic));
	return uverbs_copy_to(attrs, OVBTEST_ATTR_PROBE_ALLOC_OUT, buf, len);
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_PROBE_POST,
			    UVERBS_ATTR_FD(OVBTEST_ATTR_PROBE_POST_FD,
					   OVBTEST_OBJECT_EVENTS,
					   UVERBS_ACCESS_READ,
					   UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_PROBE_POST_COOKIE,
					       UVERBS_ATTR_TYPE(u64),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_PROBE_POST_SEQ,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_PROBE_ANY_READ,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_PROBE_ANY_HANDLE,
					    UVERBS_IDR_ANY_OBJECT,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_PROBE_ANY_INFO,
						UVERBS_ATTR_TYPE(struct ovbtest_any_info),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_PROBE_ANY_WRITE,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_PROBE_ANY_HANDLE,
					    UVERBS_IDR_ANY_OBJECT,
					    UVERBS_ACCESS_WRITE,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_PROBE_ANY_INFO,
						UVERBS_ATTR_TYPE(struct ovbtest_any_info),
						UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_PROBE_ANY_OTHER,
					    UVERBS_IDR_ANY_OBJECT,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_PROBE_MRS,
			    UVERBS_ATTR_IDRS_ARR(OVBTEST_ATTR_PROBE_MRS_HANDLES,
						 UVERBS_OBJECT_MR,
						 UVERBS_ACCESS_READ,
						 OVBTEST_MRS_MIN,
						 OVBTEST_MRS_MAX,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_PROBE_MRS_INFO,
						UVERBS_ATTR_TYPE(struct ovbtest_mrs_info),
						UA_MANDATORY));

static const struct uverbs_attr_spec ovbtest_enum_elems[] = {
	[OVBTEST_ENUM_NARROW] = {
		.type = UVERBS_ATTR_TYPE_PTR_IN,
		UVERBS_ATTR_TYPE(u32),
	},
	[OVBTEST_ENUM_WIDE] = {
		.type = UVERBS_ATTR_TYPE_PTR_IN,
		UVERBS_ATTR_TYPE(struct ovbtest_enum_wide),
	},
};

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_PROBE_ENUM,
			    UVERBS_ATTR_ENUM_IN(OVBTEST_ATTR_PROBE_ENUM_IN,
						ovbtest_enum_elems,
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_PROBE_ENUM_INFO,
						UVERBS_ATTR_TYPE(struct ovbtest_enum_info),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_PROBE_RAW_FD,
			    UVERBS_ATTR_RAW_FD(OVBTEST_ATTR_PROBE_RAW_FD,
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_PROBE_RAW_FD_ECHO,
						UVERBS_ATTR_TYPE(s32),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_PROBE_ALLOC,
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_PROBE_ALLOC_OUT,
						UVERBS_ATTR_MIN_SIZE(sizeof(u64)),
						UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(OVBTEST_OBJECT_PROBE,
			      &UVERBS_METHOD(OVBTEST_METHOD_PROBE_POST),
			      &UVERBS_METHOD(OVBTEST_METHOD_PROBE_ANY_READ),
			      &UVERBS_METHOD(OVBTEST_METHOD_PROBE_ANY_WRITE),
			      &UVERBS_METHOD(OVBTEST_METHOD_PROBE_MRS),
			      &UVERBS_METHOD(OVBTEST_METHOD_PROBE_ENUM),
			      &UVERBS_METHOD(OVBTEST_METHOD_PROBE_RAW_FD),
			      &UVERBS_METHOD(OVBTEST_METHOD_PROBE_ALLOC));

const struct uapi_definition ovbtest_probe_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVBTEST_OBJECT_PROBE),
	{},
};
