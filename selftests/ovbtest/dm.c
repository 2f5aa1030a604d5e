// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: the optional MR and object operations a real HCA may have, so
 * that the core methods behind them run their success paths in the
 * selftests: device memory (alloc_dm, dealloc_dm, reg_dm_mr over a kernel
 * buffer standing in for on-chip memory), advise_mr (accepted for up to
 * OVBTEST_ADVISE_MAX_SGE ranges, each of which must name an MR of the PD),
 * and counters objects (nothing ever binds them, so reading them is
 * refused by the core).
 */
#include <linux/slab.h>

#include "ovbtest.h"

#define OVBTEST_DM_MAX		(64 * 1024)
#define OVBTEST_ADVISE_MAX_SGE	4

struct ovbtest_dm {
	struct ib_dm ibdm;
	void *mem;
};

/* ib_core allocates counters objects at the size the driver declares. */
struct ovbtest_cntrs {
	struct ib_counters ibcntrs;
};

static struct ib_dm *ovbtest_alloc_dm(struct ib_device *ibdev,
				      struct ib_ucontext *uctx,
				      struct ib_dm_alloc_attr *attr,
				      struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_dm *dm;

	if (!attr->length || attr->length > OVBTEST_DM_MAX ||
	    attr->alignment > PAGE_SHIFT)
		return ERR_PTR(-EINVAL);
	dm = kzalloc(sizeof(*dm), GFP_KERNEL);
	if (!dm)
		return ERR_PTR(-ENOMEM);
	dm->mem = kzalloc(attr->length, GFP_KERNEL);
	if (!dm->mem) {
		kfree(dm);
		return ERR_PTR(-ENOMEM);
	}
	atomic_inc(&to_odev(ibdev)->live.dms);
	return &dm->ibdm;
}

static int ovbtest_dealloc_dm(struct ib_dm *ibdm,
			      struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_dm *dm = container_of(ibdm, struct ovbtest_dm, ibdm);

	atomic_dec(&to_odev(ibdm->device)->live.dms);
	kfree(dm->mem);
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
	return 0;	/* never reached: nothing binds them (usecnt 0) */
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
