// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: what an OPA port (hfi1) gives ib_uverbs to fold into the
 * 16-bit LIDs of its ABI.  With the module parameter opa=1 the InfiniBand
 * port has RDMA_CORE_CAP_OPA_AH (port.c) and LIDs of 32 bits (ib_lid,
 * ib_sm_lid); an OPA address vector whose GRH names an extended-LID GID
 * gets that LID, as hfi1 derives it; and a test may queue a completion
 * with a 32-bit source LID on a CQ (OVBTEST_METHOD_CQ_PUSH_WC), which the
 * next poll returns: nothing else ever completes on this device.
 */
#include <rdma/opa_addr.h>

#define UVERBS_MODULE_NAME ovbtest_opa
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

/* The DLID the driver uses for @attr: an OPA GID's extended LID wins. */
u32 ovbtest_opa_dlid(const struct rdma_ah_attr *attr)
{
	if (attr->type == RDMA_AH_ATTR_TYPE_OPA &&
	    (attr->ah_flags & IB_AH_GRH) && ib_is_opa_gid(&attr->grh.dgid))
		return opa_get_lid_from_gid(&attr->grh.dgid);
	return rdma_ah_get_dlid(attr);
}

void ovbtest_wc_cq_init(struct ovbtest_cq *cq)
{
	spin_lock_init(&cq->wc_lock);
	cq->wc_pending = false;
}

/* The pushed completion, if any; the poll_cq op. */
int ovbtest_wc_poll(struct ovbtest_cq *cq, int num_entries, struct ib_wc *wc)
{
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->wc_lock, flags);
	if (num_entries > 0 && cq->wc_pending) {
		*wc = cq->wc;
		cq->wc_pending = false;
		n = 1;
	}
	spin_unlock_irqrestore(&cq->wc_lock, flags);
	return n;
}

static void ovbtest_wc_forget(struct ib_cq *ibcq, struct ib_qp *qp)
{
	struct ovbtest_cq *cq;
	unsigned long flags;

	if (!ibcq)
		return;
	cq = to_ocq(ibcq);
	spin_lock_irqsave(&cq->wc_lock, flags);
	if (cq->wc_pending && cq->wc_owner == qp)
		cq->wc_pending = false;
	spin_unlock_irqrestore(&cq->wc_lock, flags);
}

/* A QP going: no completion of it may stay behind on its CQs. */
void ovbtest_wc_forget_qp(struct ib_qp *qp)
{
	ovbtest_wc_forget(qp->send_cq, qp);
	ovbtest_wc_forget(qp->recv_cq, qp);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_CQ_PUSH_WC)(struct uverbs_attr_bundle *attrs)
{
	struct ib_cq *ibcq =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_CQ_PUSH_WC_CQ);
	struct ib_qp *qp = uverbs_attr_get_obj(attrs, OVBTEST_ATTR_CQ_PUSH_WC_QP);
	struct ovbtest_cq *cq = to_ocq(ibcq);
	struct ovbtest_push_wc args;
	unsigned long flags;
	int ret;

	ret = uverbs_copy_from(&args, attrs, OVBTEST_ATTR_CQ_PUSH_WC_ARGS);
	if (ret)
		return ret;
	if (args.reserved || args.reserved2 ||
	    !rdma_is_port_valid(ibcq->device, args.port_num))
		return -EINVAL;
	/* 32-bit LIDs only on an OPA port (ib_uverbs WARNs on others) */
	if (args.slid > U16_MAX &&
	    !rdma_cap_opa_ah(ibcq->device, args.port_num))
		return -EINVAL;
	/* a QP completes on its own CQs only */
	if (qp->send_cq != ibcq && qp->recv_cq != ibcq)
		return -EINVAL;

	spin_lock_irqsave(&cq->wc_lock, flags);
	ret = cq->wc_pending ? -EBUSY : 0;
	if (!ret) {
		cq->wc = (struct ib_wc) {
			.wr_id = args.wr_id,
			.status = IB_WC_SUCCESS,
			.opcode = IB_WC_RECV,
			.qp = &cq->wc_qp,
			.src_qp = args.src_qp,
			.slid = args.slid,
			.sl = args.sl,
			.dlid_path_bits = args.dlid_path_bits,
			.port_num = args.port_num,
		};
		cq->wc_qp.qp_num = qp->qp_num;
		cq->wc_owner = qp;
		cq->wc_pending = true;
	}
	spin_unlock_irqrestore(&cq->wc_lock, flags);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_CQ_PUSH_WC,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CQ_PUSH_WC_CQ,
					    UVERBS_OBJECT_CQ,
					    UVERBS_ACCESS_WRITE, UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CQ_PUSH_WC_QP,
					    UVERBS_OBJECT_QP,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_CQ_PUSH_WC_ARGS,
					       UVERBS_ATTR_TYPE(struct ovbtest_push_wc),
					       UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_cq_push, UVERBS_OBJECT_CQ,
		   &UVERBS_METHOD(OVBTEST_METHOD_CQ_PUSH_WC));

const struct uapi_definition ovbtest_opa_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_CQ, &ovbtest_cq_push),
	{},
};
