// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: receive work queues (IB_WQT_RQ) and RSS indirection tables
 * over them, without queues: a WQ keeps its state machine as an mlx5 RQ
 * (RESET -> RDY -> ERR, back to RESET; the state ib_uverbs reads is
 * ib_wq::state, which the driver sets), a table only its number.  qp.c
 * takes a table for a RAW_PACKET QP without a send queue (mlx5's RSS QP).
 */
#include <linux/slab.h>

#include "ovbtest.h"

#define OVBTEST_MAX_WQN		0xffffff

/* WQ and table numbers, from 1. */
static DEFINE_IDA(ovbtest_wqn_ida);
static DEFINE_IDA(ovbtest_rwq_tbl_ida);

struct ovbtest_rwq_ind_table {
	struct ib_rwq_ind_table ibtbl;
};

static struct ib_wq *ovbtest_create_wq(struct ib_pd *pd,
				       struct ib_wq_init_attr *init,
				       struct ib_udata *udata)
{
	struct ovbtest_dev *dev = to_odev(pd->device);
	struct ovbtest_wq *wq;
	int wqn;

	if (!udata)
		return ERR_PTR(-EOPNOTSUPP);
	if (init->wq_type != IB_WQT_RQ || init->create_flags)
		return ERR_PTR(-EOPNOTSUPP);
	if (!init->max_wr || init->max_wr > OVBTEST_MAX_QP_WR ||
	    !init->max_sge || init->max_sge > OVBTEST_MAX_SGE)
		return ERR_PTR(-EINVAL);

	wq = kzalloc(sizeof(*wq), GFP_KERNEL);
	if (!wq)
		return ERR_PTR(-ENOMEM);
	wqn = ida_alloc_range(&ovbtest_wqn_ida, 1, OVBTEST_MAX_WQN, GFP_KERNEL);
	if (wqn < 0) {
		kfree(wq);
		return ERR_PTR(wqn);
	}
	mutex_init(&wq->lock);
	ovbtest_irq_src_init(&wq->irq, OVBTEST_IRQ_WQ, pd->device);
	wq->ibwq.wq_num = wqn;
	wq->ibwq.state = IB_WQS_RESET;
	/* ib_uverbs leaves the handler to the driver, as mlx5 and mlx4 take it */
	wq->ibwq.event_handler = init->event_handler;
	atomic_inc(&dev->live.wqs);
	return &wq->ibwq;
}

static int ovbtest_destroy_wq(struct ib_wq *ibwq, struct ib_udata *udata)
{
	struct ovbtest_dev *dev = to_odev(ibwq->device);
	struct ovbtest_wq *wq = to_owq(ibwq);

	/* no event of the WQ after this returns */
	ovbtest_irq_src_stop(&wq->irq);
	ida_free(&ovbtest_wqn_ida, ibwq->wq_num);
	mutex_destroy(&wq->lock);
	kfree(wq);
	atomic_dec(&dev->live.wqs);
	return 0;
}

/* The transitions of an mlx5 RQ; the current state must be the WQ's. */
static bool ovbtest_wq_transition_ok(enum ib_wq_state cur,
				     enum ib_wq_state next)
{
	switch (cur) {
	case IB_WQS_RESET:
		return next == IB_WQS_RESET || next == IB_WQS_RDY;
	case IB_WQS_RDY:
		return true;
	case IB_WQS_ERR:
		return next == IB_WQS_ERR || next == IB_WQS_RESET;
	}
	return false;
}

static int ovbtest_modify_wq(struct ib_wq *ibwq, struct ib_wq_attr *attr,
			     u32 mask, struct ib_udata *udata)
{
	struct ovbtest_wq *wq = to_owq(ibwq);
	int ret = 0;

	if (mask & IB_WQ_FLAGS)
		return -EOPNOTSUPP;
	mutex_lock(&wq->lock);
	if (attr->curr_wq_state != ibwq->state ||
	    !ovbtest_wq_transition_ok(attr->curr_wq_state, attr->wq_state))
		ret = -EINVAL;
	else
		ibwq->state = attr->wq_state;
	mutex_unlock(&wq->lock);
	return ret;
}

static int ovbtest_create_rwq_ind_table(struct ib_rwq_ind_table *ibtbl,
					struct ib_rwq_ind_table_init_attr *init,
					struct ib_udata *udata)
{
	struct ovbtest_dev *dev = to_odev(ibtbl->device);
	int n;

	if (init->log_ind_tbl_size > OVBTEST_MAX_LOG_RWQ_TBL)
		return -EINVAL;
	n = ida_alloc_range(&ovbtest_rwq_tbl_ida, 1, OVBTEST_MAX_WQN,
			    GFP_KERNEL);
	if (n < 0)
		return n;
	ibtbl->ind_tbl_num = n;
	atomic_inc(&dev->live.rwq_ind_tbls);
	return 0;
}

static int ovbtest_destroy_rwq_ind_table(struct ib_rwq_ind_table *ibtbl)
{
	ida_free(&ovbtest_rwq_tbl_ida, ibtbl->ind_tbl_num);
	atomic_dec(&to_odev(ibtbl->device)->live.rwq_ind_tbls);
	return 0;
}

const struct ib_device_ops ovbtest_wq_ops = {
	.create_wq = ovbtest_create_wq,
	.modify_wq = ovbtest_modify_wq,
	.destroy_wq = ovbtest_destroy_wq,
	.create_rwq_ind_table = ovbtest_create_rwq_ind_table,
	.destroy_rwq_ind_table = ovbtest_destroy_rwq_ind_table,

	INIT_RDMA_OBJ_SIZE(ib_rwq_ind_table, ovbtest_rwq_ind_table, ibtbl),
};
