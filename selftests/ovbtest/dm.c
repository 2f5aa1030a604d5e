// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: the optional MR and object operations a real HCA may have, so
 * that the core methods behind them run their success paths in the
 * selftests: device memory (alloc_dm, dealloc_dm, reg_dm_mr over kernel
 * pages standing in for on-chip memory, mapped to the user through an mmap
 * entry of the DM's own, as mlx5's MEMIC: the entry is removed when the DM
 * is freed, the pages stay with the mappings made before), advise_mr (accepted for up to
 * OVBTEST_ADVISE_MAX_SGE ranges, each of which must name an MR of the PD),
 * and counters objects, bound by the count action of flow rules (flow.c);
 * the core reads only bound ones, and the values show how many rules hold
 * them (OVBTEST_COUNTER_VALUE).
 */
#include <linux/slab.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

#define OVBTEST_DM_MAX		(64 * 1024)
#define OVBTEST_ADVISE_MAX_SGE	4

struct ovbtest_dm {
	struct ib_dm ibdm;
	struct ovbtest_mmap_page *mem;	/* its pages, its own mmap entry */
};

/* ib_core allocates counters objects at the size the driver declares. */
struct ovbtest_cntrs {
	struct ib_counters ibcntrs;
};

/* Where the user maps the DM, if the caller asked. */
static int ovbtest_dm_mmap_report(struct ovbtest_dm *dm,
				  struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_dm_mmap where = {
		.offset = rdma_user_mmap_get_offset(&dm->mem->rdma_entry),
		.length = PAGE_SIZE << dm->mem->order,
	};

	if (!uverbs_attr_is_valid(attrs, OVBTEST_ATTR_DM_ALLOC_MMAP))
		return 0;
	return uverbs_copy_to(attrs, OVBTEST_ATTR_DM_ALLOC_MMAP, &where,
			      sizeof(where));
}

static struct ib_dm *ovbtest_alloc_dm(struct ib_device *ibdev,
				      struct ib_ucontext *uctx,
				      struct ib_dm_alloc_attr *attr,
				      struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_dm *dm;
	int ret;

	if (!attr->length || attr->length > OVBTEST_DM_MAX ||
	    attr->alignment > PAGE_SHIFT)
		return ERR_PTR(-EINVAL);
	dm = kzalloc(sizeof(*dm), GFP_KERNEL);
	if (!dm)
		return ERR_PTR(-ENOMEM);
	dm->mem = ovbtest_mmap_insert_ram(uctx, get_order(attr->length));
	if (IS_ERR(dm->mem)) {
		ret = PTR_ERR(dm->mem);
		goto err_free;
	}
	ret = ovbtest_dm_mmap_report(dm, attrs);
	if (ret)
		goto err_remove;
	atomic_inc(&to_odev(ibdev)->live.dms);
	return &dm->ibdm;

err_remove:
	rdma_user_mmap_entry_remove(&dm->mem->rdma_entry);
err_free:
	kfree(dm);
	return ERR_PTR(ret);
}

/* The pages go with the entry's last reference: the last munmap(). */
static int ovbtest_dealloc_dm(struct ib_dm *ibdm,
			      struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_dm *dm = container_of(ibdm, struct ovbtest_dm, ibdm);

	atomic_dec(&to_odev(ibdm->device)->live.dms);
	rdma_user_mmap_entry_remove(&dm->mem->rdma_entry);
	kfree(dm);
	return 0;
}

/* An MR over device memory: no umem, zero based, keys like any MR's. */
static struct ib_mr *ovbtest_reg_dm_mr(struct ib_pd *pd, struct ib_dm *dm,
				       struct ib_dm_mr_attr *attr,
				       struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_dev *dev = to_odev(pd->device);
	struct ovbtest_mr *mr;
	u32 key;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	key = (u32)atomic_inc_return(&dev->next_key) << 8;
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	mr->ibmr.iova = 0;
	mr->ibmr.length = attr->length;
	mr->access = attr->access_flags;
	atomic_inc(&dev->live.mrs);
	return &mr->ibmr;
}

static int ovbtest_advise_mr(struct ib_pd *pd,
			     enum ib_uverbs_advise_mr_advice advice, u32 flags,
			     struct ib_sge *sg_list, u32 num_sge,
			     struct uverbs_attr_bundle *attrs)
{
	u32 i;

	if (advice > IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT)
		return -EOPNOTSUPP;
	if (num_sge > OVBTEST_ADVISE_MAX_SGE)
		return -EINVAL;
	for (i = 0; i < num_sge; i++)
		if (!sg_list[i].lkey || !sg_list[i].length)
			return -EINVAL;
	return 0;
}

static int ovbtest_create_counters(struct ib_counters *counters,
				   struct uverbs_attr_bundle *attrs)
{
	atomic_inc(&to_odev(counters->device)->live.counters);
	return 0;
}

static int ovbtest_destroy_counters(struct ib_counters *counters)
{
	atomic_dec(&to_odev(counters->device)->live.counters);
	return 0;
}

static int ovbtest_read_counters(struct ib_counters *counters,
				 struct ib_counters_read_attr *read_attr,
				 struct uverbs_attr_bundle *attrs)
{
	u32 rules = atomic_read(&counters->usecnt);
	u32 i;

	for (i = 0; i < read_attr->ncounters; i++)
		read_attr->counters_buff[i] = OVBTEST_COUNTER_VALUE(i, rules);
	return 0;
}

const struct ib_device_ops ovbtest_dm_ops = {
	.alloc_dm = ovbtest_alloc_dm,
	.dealloc_dm = ovbtest_dealloc_dm,
	.reg_dm_mr = ovbtest_reg_dm_mr,
	.advise_mr = ovbtest_advise_mr,
	.create_counters = ovbtest_create_counters,
	.destroy_counters = ovbtest_destroy_counters,
	.read_counters = ovbtest_read_counters,

	INIT_RDMA_OBJ_SIZE(ib_counters, ovbtest_cntrs, ibcntrs),
};

ADD_UVERBS_ATTRIBUTES_SIMPLE(ovbtest_dm_alloc, UVERBS_OBJECT_DM,
			     UVERBS_METHOD_DM_ALLOC,
			     UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DM_ALLOC_MMAP,
						 UVERBS_ATTR_TYPE(struct ovbtest_dm_mmap),
						 UA_OPTIONAL));

/*
 * A method the driver adds to the core DM object, as mlx5's DM_QUERY: the
 * DM's mmap page index (the driver's), its length (the core's record of
 * DM_ALLOC) and the MRs over it (the core's usecnt).
 */
static int UVERBS_HANDLER(OVBTEST_METHOD_DM_QUERY)(struct uverbs_attr_bundle *attrs)
{
	struct ib_dm *ibdm =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_DM_QUERY_HANDLE);
	struct ovbtest_dm *dm = container_of(ibdm, struct ovbtest_dm, ibdm);
	u16 page_idx = dm->mem->rdma_entry.start_pgoff & 0xffff;
	u32 mrs = atomic_read(&ibdm->usecnt);
	u64 length = ibdm->length;
	int ret;

	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_DM_QUERY_PAGE_INDEX,
			     &page_idx, sizeof(page_idx));
	if (!ret)
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_DM_QUERY_LENGTH,
				     &length, sizeof(length));
	if (!ret && uverbs_attr_is_valid(attrs, OVBTEST_ATTR_DM_QUERY_MRS))
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_DM_QUERY_MRS, &mrs,
				     sizeof(mrs));
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_DM_QUERY,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_DM_QUERY_HANDLE,
					    UVERBS_OBJECT_DM,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DM_QUERY_PAGE_INDEX,
						UVERBS_ATTR_TYPE(u16),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DM_QUERY_LENGTH,
						UVERBS_ATTR_TYPE(u64),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DM_QUERY_MRS,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL));

/* As mlx5 declares its DM methods: a global method tree of the object. */
DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_DM,
			      &UVERBS_METHOD(OVBTEST_METHOD_DM_QUERY));

const struct uapi_definition ovbtest_dm_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DM, &ovbtest_dm_alloc),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_DM),
	{},
};
