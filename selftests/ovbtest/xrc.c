// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: XRC domains and SRQs (basic and XRC) without queues.  A domain
 * is only a number here; an SRQ keeps its attributes for query_srq and
 * gets an XRC SRQ number (srq->ext.xrc.srq_num) from the device's IDA.
 * XRC QPs (INI and TGT) are qp.c's; ib_core creates a user XRC TGT QP as
 * a kernel QP (no udata) of the domain and hands out opened handles of it.
 * The driver counts its live domains and SRQs for
 * OVBTEST_METHOD_DEVICE_RES (below), as WQs, tables and flows.
 */
#define UVERBS_MODULE_NAME ovbtest_xrc
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

#define OVBTEST_MAX_SRQN	0xffffff

/* SRQ numbers (the XRC SRQs' srq_num), from 1. */
static DEFINE_IDA(ovbtest_srqn_ida);

static int ovbtest_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	struct ovbtest_dev *dev = to_odev(ibxrcd->device);
	struct ovbtest_xrcd *xrcd = to_oxrcd(ibxrcd);

	xrcd->xrcdn = atomic_inc_return(&dev->next_key);
	atomic_inc(&dev->live.xrcds);
	return 0;
}

static int ovbtest_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	atomic_dec(&to_odev(ibxrcd->device)->live.xrcds);
	return 0;
}

static int ovbtest_create_srq(struct ib_srq *ibsrq,
			      struct ib_srq_init_attr *init,
			      struct ib_udata *udata)
{
	struct ovbtest_dev *dev = to_odev(ibsrq->device);
	struct ovbtest_srq *srq = to_osrq(ibsrq);
	int srqn;

	if (!udata)
		return -EOPNOTSUPP;
	if (init->srq_type != IB_SRQT_BASIC && init->srq_type != IB_SRQT_XRC)
		return -EOPNOTSUPP;
	if (!init->attr.max_wr || init->attr.max_wr > OVBTEST_MAX_SRQ_WR ||
	    init->attr.max_sge > OVBTEST_MAX_SGE)
		return -EINVAL;

	srqn = ida_alloc_range(&ovbtest_srqn_ida, 1, OVBTEST_MAX_SRQN, GFP_KERNEL);
	if (srqn < 0)
		return srqn;
	mutex_init(&srq->lock);
	spin_lock_init(&srq->post_lock);
	srq->attr = init->attr;
	srq->attr.srq_limit = 0;	/* armed by modify_srq only */
	atomic_set(&srq->limit_armed, 0);
	ovbtest_irq_src_init(&srq->irq, OVBTEST_IRQ_SRQ, ibsrq->device);
	srq->srqn = srqn;
	if (init->srq_type == IB_SRQT_XRC)
		ibsrq->ext.xrc.srq_num = srqn;
	atomic_inc(&dev->live.srqs);
	return 0;
}

/* As mlx5: no resizing; the limit must be below the SRQ's size. */
static int ovbtest_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			      enum ib_srq_attr_mask mask,
			      struct ib_udata *udata)
{
	struct ovbtest_srq *srq = to_osrq(ibsrq);
	int ret = 0;

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EOPNOTSUPP;
	if (mask & IB_SRQ_MAX_WR)
		return -EINVAL;
	mutex_lock(&srq->lock);
	if (mask & IB_SRQ_LIMIT) {
		if (attr->srq_limit >= srq->attr.max_wr)
			ret = -EINVAL;
		else
			srq->attr.srq_limit = attr->srq_limit;
		if (!ret)
			atomic_set(&srq->limit_armed, !!attr->srq_limit);
	}
	mutex_unlock(&srq->lock);
	return ret;
}

static int ovbtest_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct ovbtest_srq *srq = to_osrq(ibsrq);

	mutex_lock(&srq->lock);
	*attr = srq->attr;
	if (!atomic_read(&srq->limit_armed))
		attr->srq_limit = 0;
	mutex_unlock(&srq->lock);
	return 0;
}

static int ovbtest_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct ovbtest_dev *dev = to_odev(ibsrq->device);
	struct ovbtest_srq *srq = to_osrq(ibsrq);

	/* no event of the SRQ after this returns */
	ovbtest_irq_src_stop(&srq->irq);
	mutex_destroy(&srq->lock);
	ida_free(&ovbtest_srqn_ida, srq->srqn);
	atomic_dec(&dev->live.srqs);
	return 0;
}

const struct ib_device_ops ovbtest_xrc_ops = {
	.alloc_xrcd = ovbtest_alloc_xrcd,
	.dealloc_xrcd = ovbtest_dealloc_xrcd,
	.create_srq = ovbtest_create_srq,
	.modify_srq = ovbtest_modify_srq,
	.query_srq = ovbtest_query_srq,
	.destroy_srq = ovbtest_destroy_srq,

	INIT_RDMA_OBJ_SIZE(ib_xrcd, ovbtest_xrcd, ibxrcd),
	INIT_RDMA_OBJ_SIZE(ib_srq, ovbtest_srq, ibsrq),
};

static int UVERBS_HANDLER(OVBTEST_METHOD_DEVICE_RES)(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ibuc = ib_uverbs_get_ucontext(attrs);
	struct ovbtest_res_info info = {};
	struct ovbtest_dev *dev;

	if (IS_ERR(ibuc))
		return PTR_ERR(ibuc);
	dev = to_odev(ibuc->device);
	info.xrcds = atomic_read(&dev->live.xrcds);
	info.srqs = atomic_read(&dev->live.srqs);
	info.wqs = atomic_read(&dev->live.wqs);
	info.rwq_ind_tbls = atomic_read(&dev->live.rwq_ind_tbls);
	info.flows = atomic_read(&dev->live.flows);
	info.qps = atomic_read(&dev->live.qps);
	return uverbs_copy_to_struct_or_zero(attrs, OVBTEST_ATTR_DEVICE_RES_INFO,
					     &info, sizeof(info));
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_DEVICE_RES,
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DEVICE_RES_INFO,
						UVERBS_ATTR_TYPE(struct ovbtest_res_info),
						UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_device_res, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(OVBTEST_METHOD_DEVICE_RES));

const struct uapi_definition ovbtest_xrc_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &ovbtest_device_res),
	{},
};
