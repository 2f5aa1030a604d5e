// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: user QPs (UD and RC) without queues or a data path.  They exist
 * for the control path: creation on the device's CQs, the state machine
 * through modify_qp (RESET -> INIT -> RTR -> RTS, ERR, back to RESET),
 * query_qp (ib_core's multicast LID check asks it for the state and the
 * port) and destruction.  A connected QP's address vector (RTR) is
 * recorded as ah.c records an AH's, with the MAC ib_core resolved on the
 * RoCE port, and must name the QP's port.  The QP numbers start at 2: 0 and 1 are the SMI
 * and GSI QPs of an InfiniBand port, which rdmavt never lets attach to a
 * multicast group.  IB_QPT_DRIVER QPs take their sub-type from the create
 * udata (drv_qp.c) and follow UD's state machine.  RAW_PACKET QPs need an
 * RSS table (wq.c) unless the device has raw-Ethernet ports (rawport.c).
 */
#include "ovbtest.h"

#define OVBTEST_MAX_QPN		0xffffff

static int ovbtest_qp_cap_ok(const struct ib_qp_cap *cap)
{
	return cap->max_send_wr <= OVBTEST_MAX_QP_WR &&
	       cap->max_recv_wr <= OVBTEST_MAX_QP_WR &&
	       cap->max_send_sge <= OVBTEST_MAX_SGE &&
	       cap->max_recv_sge <= OVBTEST_MAX_SGE &&
	       cap->max_inline_data <= OVBTEST_MAX_INLINE;
}

static int ovbtest_create_qp(struct ib_qp *ibqp,
			     struct ib_qp_init_attr *init,
			     struct ib_udata *udata)
{
	struct ovbtest_dev *dev = to_odev(ibqp->device);
	struct ovbtest_qp *qp = to_oqp(ibqp);
	int qpn, ret;

	/*
	 * No kernel verbs: a kernel QP would expect a data path.  ib_core
	 * creates a user's XRC TGT QP without udata, as the domain's QP
	 * (xrc.c), and hands the user an opened handle of it.
	 */
	if (!udata && init->qp_type != IB_QPT_XRC_TGT)
		return -EOPNOTSUPP;
	if (ovbtest_failed(ibqp->device))
		return -ENOLINK;
	if (init->qp_type != IB_QPT_UD && init->qp_type != IB_QPT_RC &&
	    init->qp_type != IB_QPT_XRC_INI && init->qp_type != IB_QPT_XRC_TGT &&
	    init->qp_type != IB_QPT_DRIVER &&
	    !(init->qp_type == IB_QPT_RAW_PACKET &&
	      (init->rwq_ind_tbl || ovbtest_raw_qps())))
		return -EOPNOTSUPP;
	if (init->qp_type == IB_QPT_XRC_TGT && !init->xrcd)
		return -EINVAL;
	if (init->qp_type == IB_QPT_DRIVER) {
		ret = ovbtest_drv_qp_create(qp, init, udata);
		if (ret)
			return ret;
	} else if (init->create_flags || init->srq) {
		return -EOPNOTSUPP;
	}
	/* RSS as mlx5: a RAW_PACKET QP over a table (wq.c), receive only */
	if (init->rwq_ind_tbl &&
	    (init->qp_type != IB_QPT_RAW_PACKET || init->cap.max_send_wr))
		return -EOPNOTSUPP;
	if (!ovbtest_qp_cap_ok(&init->cap))
		return -EINVAL;

	if (atomic_inc_return(&dev->live.qps) > OVBTEST_MAX_QP) {
		atomic_dec(&dev->live.qps);
		return -ENOMEM;
	}
	qpn = ida_alloc_range(&dev->qpn_ida, 2, OVBTEST_MAX_QPN, GFP_KERNEL);
	if (qpn < 0) {
		atomic_dec(&dev->live.qps);
		return qpn;
	}

	mutex_init(&qp->lock);
	ovbtest_irq_src_init(&qp->irq, OVBTEST_IRQ_QP, ibqp->device);
	spin_lock_init(&qp->post_lock);
	qp->state = IB_QPS_RESET;
	qp->port_num = init->port_num;
	qp->path_mtu = IB_MTU_4096;
	qp->cap = init->cap;
	qp->sq_sig_type = init->sq_sig_type;
	qp->owner = ovbtest_udata_owner(udata);
	ibqp->qp_num = qpn;
	if (init->qp_type == IB_QPT_DRIVER) {
		ret = ovbtest_drv_qp_respond(qp, init, udata);
		if (ret) {
			mutex_destroy(&qp->lock);
			ida_free(&dev->qpn_ida, qpn);
			atomic_dec(&dev->live.qps);
			return ret;
		}
	}
	return 0;
}

/* The attributes the transition may carry, checked before any is applied. */
static int ovbtest_qp_attr_ok(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			      int mask)
{
	if ((mask & IB_QP_PORT) &&
	    !rdma_is_port_valid(ibqp->device, attr->port_num))
		return -EINVAL;
	if ((mask & IB_QP_AV) &&
	    rdma_ah_get_port_num(&attr->ah_attr) !=
	    ((mask & IB_QP_PORT) ? attr->port_num : to_oqp(ibqp)->port_num))
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= 1)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_CAP) && !ovbtest_qp_cap_ok(&attr->cap))
		return -EINVAL;
	return 0;
}

static int ovbtest_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			     int mask, struct ib_udata *udata)
{
	struct ovbtest_qp *qp = to_oqp(ibqp);
	struct ovbtest_udata_ex_cmd cmd;
	enum ib_qp_state cur, next;
	/* ib_core's state table has no column for IB_QPT_DRIVER */
	enum ib_qp_type sm_type = ibqp->qp_type == IB_QPT_DRIVER ?
				  IB_QPT_UD : ibqp->qp_type;
	int ret;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	/* the driver request of EX_MODIFY_QP (udata_ex.c), as mlx5 reads it */
	if (udata) {
		ret = ovbtest_udata_ex_in(udata, &cmd, -EOPNOTSUPP);
		if (ret)
			return ret;
	}

	mutex_lock(&qp->lock);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	ret = -EINVAL;
	if (!ib_modify_qp_is_ok(cur, next, sm_type, mask))
		goto out;
	ret = ovbtest_qp_attr_ok(ibqp, attr, mask);
	if (ret)
		goto out;

	if (mask & IB_QP_PORT)
		qp->port_num = attr->port_num;
	if (mask & IB_QP_PKEY_INDEX)
		qp->pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_SQ_PSN)
		qp->sq_psn = attr->sq_psn & 0xffffff;
	if (mask & IB_QP_RQ_PSN)
		qp->rq_psn = attr->rq_psn & 0xffffff;
	if (mask & IB_QP_DEST_QPN)
		qp->dest_qp_num = attr->dest_qp_num;
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->access = attr->qp_access_flags;
	if (mask & IB_QP_PATH_MTU)
		qp->path_mtu = attr->path_mtu;
	if (mask & IB_QP_CAP)
		qp->cap = attr->cap;
	if (mask & IB_QP_AV) {
		struct ovbtest_av_info av;

		qp->av = attr->ah_attr;
		qp->av.grh.sgid_attr = NULL;
		/* hfi1: an OPA GID carries the 32-bit LID (opa.c) */
		rdma_ah_set_dlid(&qp->av, ovbtest_opa_dlid(&qp->av));
		ovbtest_av_record(&attr->ah_attr, OVBTEST_AV_MODIFY_QP,
				  ibqp->qp_num, &av);
	}
	/* Read without the lock by attach_mcast (RESET or not). */
	WRITE_ONCE(qp->state, next);
	if (udata)
		ret = ovbtest_udata_ex_out(udata, &cmd,
					   OVBTEST_UDATA_EX_MODIFY_QP);
out:
	mutex_unlock(&qp->lock);
	return ret;
}

static int ovbtest_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			    int mask, struct ib_qp_init_attr *init)
{
	struct ovbtest_qp *qp = to_oqp(ibqp);

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	mutex_lock(&qp->lock);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->path_mtu = qp->path_mtu;
	attr->qkey = qp->qkey;
	attr->rq_psn = qp->rq_psn;
	attr->sq_psn = qp->sq_psn;
	attr->dest_qp_num = qp->dest_qp_num;
	attr->qp_access_flags = qp->access;
	attr->cap = qp->cap;
	attr->pkey_index = qp->pkey_index;
	attr->port_num = qp->port_num;
	attr->ah_attr = qp->av;

	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = qp->cap;
	init->sq_sig_type = qp->sq_sig_type;
	init->port_num = qp->port_num;
	mutex_unlock(&qp->lock);
	return 0;
}

/*
 * ib_core refuses to destroy a QP while it counts multicast attachments
 * (qp->usecnt), so none may be left here; if one is, that accounting
 * broke: say so and drop the memberships rather than leave them pointing
 * at a freed QP.
 */
static int ovbtest_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct ovbtest_dev *dev = to_odev(ibqp->device);
	struct ovbtest_qp *qp = to_oqp(ibqp);

	ovbtest_udata_check(qp->owner, udata);
	ovbtest_drv_flow_qp_gone(qp);
	/* no event of the QP after this returns */
	ovbtest_irq_src_stop(&qp->irq);
	ovbtest_wc_forget_qp(ibqp);
	ovbtest_mcast_drop_qp(qp);
	mutex_destroy(&qp->lock);
	ida_free(&dev->qpn_ida, ibqp->qp_num);
	atomic_dec(&dev->live.qps);
	return 0;
}

const struct ib_device_ops ovbtest_qp_ops = {
	.create_qp = ovbtest_create_qp,
	.modify_qp = ovbtest_modify_qp,
	.query_qp = ovbtest_query_qp,
	.destroy_qp = ovbtest_destroy_qp,

	INIT_RDMA_OBJ_SIZE(ib_qp, ovbtest_qp, ibqp),
};
