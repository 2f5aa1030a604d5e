// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the MR object's ioctl methods.
 *
 * Besides QUERY_MR and DESTROY, three ways to make or use an MR that only
 * the ioctl ABI has: ADVISE_MR (prefetch hints for ODP ranges), DM_MR_REG
 * (an MR over device memory) and REG_DMABUF_MR (an MR over a dma-buf).  As
 * in 6.1 they are declared for every device and answer EOPNOTSUPP when the
 * driver lacks the operation; DM_MR_REG goes with the DM object when the
 * driver has no device memory.
 */

#include "obj_steps.h"

/* QUERY_MR's mandatory outputs, straight from ib_core's MR. */
static const struct uverbs_attr_field uverbs_query_mr_out[] = {
	UVERBS_ATTR_FIELD(OVB_ATTR_QUERY_MR_RESP_LKEY, struct ib_mr, lkey),
	UVERBS_ATTR_FIELD(OVB_ATTR_QUERY_MR_RESP_RKEY, struct ib_mr, rkey),
	UVERBS_ATTR_FIELD(OVB_ATTR_QUERY_MR_RESP_LENGTH, struct ib_mr, length),
};

static int UVERBS_HANDLER(OVB_METHOD_QUERY_MR)(struct uverbs_attr_bundle *attrs)
{
	struct ib_mr *mr = uverbs_attr_get_obj(attrs, OVB_ATTR_QUERY_MR_HANDLE);
	int ret = uverbs_copy_fields_out(attrs, mr, uverbs_query_mr_out,
					 ARRAY_SIZE(uverbs_query_mr_out));

	/* The IOVA is optional: only a failed copy of it counts. */
	if (!ret)
		ret = uverbs_copy_to(attrs, OVB_ATTR_QUERY_MR_RESP_IOVA,
				     &mr->iova, sizeof(mr->iova));
	return IS_UVERBS_COPY_ERR(ret) ? ret : 0;
}

static int UVERBS_HANDLER(OVB_METHOD_ADVISE_MR)(struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uverbs_attr_get_obj(attrs, OVB_ATTR_ADVISE_MR_PD_HANDLE);
	enum ib_uverbs_advise_mr_advice advice;
	int nsge, ret = -EOPNOTSUPP;
	struct ib_sge *sges;
	u32 flags;

	if (pd->device->ops.advise_mr)
		ret = uverbs_get_const(&advice, attrs,
				       OVB_ATTR_ADVISE_MR_ADVICE) ?:
		      uverbs_get_flags32(&flags, attrs,
					 OVB_ATTR_ADVISE_MR_FLAGS,
					 OVB_ADVISE_MR_FLAG_FLUSH);
	if (ret)
		return ret;
	/* struct ovb_sge and struct ib_sge share their layout */
	nsge = uverbs_attr_ptr_get_array_size(attrs, OVB_ATTR_ADVISE_MR_SGE_LIST,
					      sizeof(struct ib_sge));
	if (nsge <= 0)
		return nsge;
	sges = uverbs_attr_get_alloced_ptr(attrs, OVB_ATTR_ADVISE_MR_SGE_LIST);
	return pd->device->ops.advise_mr(pd, advice, flags, sges, nsge, attrs);
}

/* The keys of a new MR into the method's two u32 outputs. */
static int mr_copy_keys(struct uverbs_attr_bundle *attrs, struct ib_mr *mr,
			u16 lkey_attr, u16 rkey_attr)
{
	int ret = uverbs_copy_to(attrs, lkey_attr, &mr->lkey, sizeof(mr->lkey));

	return ret ?: uverbs_copy_to(attrs, rkey_attr, &mr->rkey,
				     sizeof(mr->rkey));
}

static const struct uverbs_attr_field uverbs_dm_mr_in[] = {
	UVERBS_ATTR_FIELD(OVB_ATTR_REG_DM_MR_OFFSET, struct ib_dm_mr_attr,
			  offset),
	UVERBS_ATTR_FIELD(OVB_ATTR_REG_DM_MR_LENGTH, struct ib_dm_mr_attr,
			  length),
};

static int UVERBS_HANDLER(OVB_METHOD_DM_MR_REG)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, OVB_ATTR_REG_DM_MR_HANDLE);
	struct ib_dm *dm = uverbs_attr_get_obj(attrs, OVB_ATTR_REG_DM_MR_DM_HANDLE);
	struct ib_pd *pd = uverbs_attr_get_obj(attrs, OVB_ATTR_REG_DM_MR_PD_HANDLE);
	struct ib_dm_mr_attr mr_attr = {};
	struct ib_mr *mr;
	int ret;

	if (!pd->device->ops.reg_dm_mr)
		return -EOPNOTSUPP;
	ret = uverbs_copy_fields(attrs, &mr_attr, uverbs_dm_mr_in,
				 ARRAY_SIZE(uverbs_dm_mr_in)) ?:
	      uverbs_get_flags32(&mr_attr.access_flags, attrs,
				 OVB_ATTR_REG_DM_MR_ACCESS_FLAGS,
				 IB_ACCESS_SUPPORTED);
	if (ret)
		return ret;
	/* Device memory has no user address: the MR must be zero based. */
	if (!(mr_attr.access_flags & IB_ZERO_BASED))
		return -EINVAL;
	ret = ib_check_mr_access(pd->device, mr_attr.access_flags);
	if (ret)
		return ret;
	if (mr_attr.offset > dm->length ||
	    mr_attr.length > dm->length - mr_attr.offset)
		return -EINVAL;

	mr = pd->device->ops.reg_dm_mr(pd, dm, &mr_attr, attrs);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	uverbs_mr_init(mr, pd, uobj);
	mr->type = IB_MR_TYPE_DM;
	mr->dm = dm;
	atomic_inc(&dm->usecnt);
	uobj->object = mr;
	uverbs_finalize_uobj_create(attrs, OVB_ATTR_REG_DM_MR_HANDLE);
	return mr_copy_keys(attrs, mr, OVB_ATTR_REG_DM_MR_RESP_LKEY,
			    OVB_ATTR_REG_DM_MR_RESP_RKEY);
}

/* The access rights an MR over a dma-buf may have. */
#define DMABUF_MR_ACCESS (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ | \
			  IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC | \
			  IB_ACCESS_RELAXED_ORDERING)

static int UVERBS_HANDLER(OVB_METHOD_REG_DMABUF_MR)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs,
							  OVB_ATTR_REG_DMABUF_MR_HANDLE);
	struct ib_pd *pd = uverbs_attr_get_obj(attrs, OVB_ATTR_REG_DMABUF_MR_PD_HANDLE);
	u64 offset, length, iova;
	u32 fd, access;
	struct ib_mr *mr;
	int ret;

	if (!pd->device->ops.reg_user_mr_dmabuf)
		return -EOPNOTSUPP;
	ret = uverbs_copy_from(&offset, attrs, OVB_ATTR_REG_DMABUF_MR_OFFSET);
	if (!ret)
		ret = uverbs_copy_from(&length, attrs,
				       OVB_ATTR_REG_DMABUF_MR_LENGTH);
	if (!ret)
		ret = uverbs_copy_from(&iova, attrs, OVB_ATTR_REG_DMABUF_MR_IOVA);
	if (ret)
		return ret;
	/* As for REG_MR: the HCA maps pages, offset and IOVA must agree. */
	if ((offset & ~PAGE_MASK) != (iova & ~PAGE_MASK))
		return -EINVAL;
	ret = uverbs_copy_from(&fd, attrs, OVB_ATTR_REG_DMABUF_MR_FD);
	if (!ret)
		ret = uverbs_get_flags32(&access, attrs,
					 OVB_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
					 DMABUF_MR_ACCESS);
	if (!ret)
		ret = ib_check_mr_access(pd->device, access);
	if (ret)
		return ret;

	mr = pd->device->ops.reg_user_mr_dmabuf(pd, offset, length, iova, fd,
						access,
						ovb_reg_dmabuf_mr_driver_arg(attrs));
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	uverbs_mr_init(mr, pd, uobj);
	uobj->object = mr;
	uverbs_finalize_uobj_create(attrs, OVB_ATTR_REG_DMABUF_MR_HANDLE);
	return mr_copy_keys(attrs, mr, OVB_ATTR_REG_DMABUF_MR_RESP_LKEY,
			    OVB_ATTR_REG_DMABUF_MR_RESP_RKEY);
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_QUERY_MR,
			    UVERBS_ATTR_IDR(OVB_ATTR_QUERY_MR_HANDLE, OVB_OBJECT_MR,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_MR_RESP_RKEY,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_MR_RESP_LKEY,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_MR_RESP_LENGTH,
						UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_MR_RESP_IOVA,
						UVERBS_ATTR_TYPE(u64), UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_ADVISE_MR,
			    UVERBS_ATTR_IDR(OVB_ATTR_ADVISE_MR_PD_HANDLE, OVB_OBJECT_PD,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_ADVISE_MR_ADVICE,
						 enum ib_uverbs_advise_mr_advice,
						 UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVB_ATTR_ADVISE_MR_FLAGS,
						 enum ovb_advise_mr_flag, UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_ADVISE_MR_SGE_LIST,
					       UVERBS_ATTR_MIN_SIZE(sizeof(struct ovb_sge)),
					       UA_MANDATORY, UA_ALLOC_AND_COPY));

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_DM_MR_REG,
			    UVERBS_ATTR_IDR(OVB_ATTR_REG_DM_MR_HANDLE, OVB_OBJECT_MR,
					    UVERBS_ACCESS_NEW, UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_REG_DM_MR_OFFSET,
					       UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_REG_DM_MR_LENGTH,
					       UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVB_ATTR_REG_DM_MR_PD_HANDLE, OVB_OBJECT_PD,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVB_ATTR_REG_DM_MR_ACCESS_FLAGS,
						 enum ib_access_flags),
			    UVERBS_ATTR_IDR(OVB_ATTR_REG_DM_MR_DM_HANDLE, OVB_OBJECT_DM,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_REG_DM_MR_RESP_LKEY,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_REG_DM_MR_RESP_RKEY,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_REG_DMABUF_MR,
			    UVERBS_ATTR_IDR(OVB_ATTR_REG_DMABUF_MR_HANDLE, OVB_OBJECT_MR,
					    UVERBS_ACCESS_NEW, UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVB_ATTR_REG_DMABUF_MR_PD_HANDLE,
					    OVB_OBJECT_PD, UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_REG_DMABUF_MR_OFFSET,
					       UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_REG_DMABUF_MR_LENGTH,
					       UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_REG_DMABUF_MR_IOVA,
					       UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_REG_DMABUF_MR_FD,
					       UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVB_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
						 enum ib_access_flags),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_REG_DMABUF_MR_RESP_LKEY,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_REG_DMABUF_MR_RESP_RKEY,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_MR_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_MR_HANDLE, OVB_OBJECT_MR,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_MR, uverbs_mr_type.type,
			    &UVERBS_METHOD(OVB_METHOD_ADVISE_MR),
			    &UVERBS_METHOD(OVB_METHOD_DM_MR_REG),
			    &UVERBS_METHOD(OVB_METHOD_MR_DESTROY),
			    &UVERBS_METHOD(OVB_METHOD_QUERY_MR),
			    &UVERBS_METHOD(OVB_METHOD_REG_DMABUF_MR));

/* Part of the MR object's chain (mr.c). */
const struct uapi_definition uverbs_def_mr_ioctl[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_MR),
	{ }
};
