// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: IB_QPT_DRIVER QPs.  ib_uverbs hands a QP of that type to the
 * driver with no check of its own on what it is made of beyond what every
 * QP needs (a PD and, by write(), a send CQ), and on ioctl without the
 * creation flag rules of the other types; the driver learns the kind of
 * QP from its create udata, as efa learns SRD and mlx5 learns a DC
 * initiator or target.  The sub-types and their rules are in
 * ovbtest-abi.h (struct ovbtest_drv_qp_cmd); the response says what the
 * driver was given, so a test can compare both ib_uverbs.
 */
#include "ovbtest.h"

/* The request, read as efa reads its own create udata. */
static int ovbtest_drv_qp_cmd(struct ib_udata *udata,
			      struct ovbtest_drv_qp_cmd *cmd)
{
	memset(cmd, 0, sizeof(*cmd));
	if (udata->inlen < offsetofend(typeof(*cmd), driver_qp_type))
		return -EINVAL;
	if (udata->inlen > sizeof(*cmd) &&
	    !ib_is_udata_cleared(udata, sizeof(*cmd),
				 udata->inlen - sizeof(*cmd)))
		return -EINVAL;
	if (ib_copy_from_udata(cmd, udata, min(sizeof(*cmd), udata->inlen)))
		return -EFAULT;
	return cmd->comp_mask ? -EINVAL : 0;
}

static int ovbtest_drv_qp_check(u32 type, const struct ib_qp_init_attr *init)
{
	const struct ib_qp_cap *cap = &init->cap;

	switch (type) {
	case OVBTEST_DRV_QPT_SRD:
		return init->srq || init->create_flags ? -EOPNOTSUPP : 0;
	case OVBTEST_DRV_QPT_DCI:
		if (init->srq || cap->max_recv_wr || cap->max_recv_sge)
			return -EINVAL;
		return 0;
	case OVBTEST_DRV_QPT_DCT:
		if (!init->srq || cap->max_send_wr || cap->max_send_sge ||
		    cap->max_inline_data || init->create_flags)
			return -EINVAL;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/*
 * The driver part of creating an IB_QPT_DRIVER QP: the sub-type into
 * qp->drv_type, or -errno.  The response is written by
 * ovbtest_drv_qp_respond() once the QP has its number.
 */
int ovbtest_drv_qp_create(struct ovbtest_qp *qp, struct ib_qp_init_attr *init,
			  struct ib_udata *udata)
{
	struct ovbtest_drv_qp_cmd cmd;
	int ret = ovbtest_drv_qp_cmd(udata, &cmd);

	ret = ret ?: ovbtest_drv_qp_check(cmd.driver_qp_type, init);
	if (ret)
		return ret;
	qp->drv_type = cmd.driver_qp_type;
	return 0;
}

int ovbtest_drv_qp_respond(struct ovbtest_qp *qp,
			   const struct ib_qp_init_attr *init,
			   struct ib_udata *udata)
{
	struct ovbtest_drv_qp_resp resp = {
		.driver_qp_type = qp->drv_type,
		.qp_type = init->qp_type,
		.create_flags = init->create_flags,
		.max_send_wr = init->cap.max_send_wr,
		.max_recv_wr = init->cap.max_recv_wr,
		.max_send_sge = init->cap.max_send_sge,
		.max_recv_sge = init->cap.max_recv_sge,
		.max_inline_data = init->cap.max_inline_data,
		.qpn = qp->ibqp.qp_num,
		.inlen = udata->inlen,
		.outlen = udata->outlen,
	};

	if (qp->ibqp.pd)
		resp.seen |= OVBTEST_DRV_QP_PD;
	if (init->send_cq)
		resp.seen |= OVBTEST_DRV_QP_SEND_CQ;
	if (init->recv_cq)
		resp.seen |= OVBTEST_DRV_QP_RECV_CQ;
	if (init->send_cq && init->send_cq == init->recv_cq)
		resp.seen |= OVBTEST_DRV_QP_SAME_CQ;
	if (init->srq)
		resp.seen |= OVBTEST_DRV_QP_SRQ;
	if (init->sq_sig_type == IB_SIGNAL_ALL_WR)
		resp.seen |= OVBTEST_DRV_QP_SIG_ALL;
	if (!udata->outlen)
		return 0;
	return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
}
