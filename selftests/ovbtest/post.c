// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: kernel posts on user QPs and SRQs, as rdmavt (hfi1, qib) takes
 * them: POST_SEND, POST_RECV and POST_SRQ_RECV reach these ops with the
 * chain ib_uverbs built from the user's arrays.  Nothing is sent: each
 * post is checked as rdmavt checks it and recorded, for the QP's or
 * SRQ's LAST_POST method to return.
 *
 * What rdmavt refuses, and how it names the WR (bad_wr):
 *   a send on a QP in RESET, INIT or RTR: -EINVAL, bad_wr left unset;
 *   a receive on a QP in RESET: -EINVAL, the first WR;
 *   a WR with more SGEs than the QP's (SRQ's) cap: -EINVAL, that WR;
 *   a WR past the queue's depth: -ENOMEM, that WR.
 * There is no queue to fill: each post starts from an empty one.
 */
#define UVERBS_MODULE_NAME ovbtest_post
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

static void ovbtest_post_sges(struct ovbtest_post_wr *rec,
			      const struct ib_sge *sg_list, int num_sge)
{
	int i;

	rec->num_sge = num_sge;
	for (i = 0; i < num_sge && i < OVBTEST_POST_MAX_SGE; i++) {
		rec->sge[i].addr = sg_list[i].addr;
		rec->sge[i].length = sg_list[i].length;
		rec->sge[i].lkey = sg_list[i].lkey;
	}
}

static void ovbtest_post_send_wr(struct ovbtest_post_wr *rec,
				 const struct ib_send_wr *wr,
				 enum ib_qp_type type)
{
	memset(rec, 0, sizeof(*rec));
	rec->wr_id = wr->wr_id;
	rec->opcode = wr->opcode;
	rec->send_flags = wr->send_flags;
	rec->ah_handle = ~0U;
	if (wr->opcode == IB_WR_SEND_WITH_IMM ||
	    wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		rec->ex = (__force u32)wr->ex.imm_data;
	else if (wr->opcode == IB_WR_SEND_WITH_INV)
		rec->ex = wr->ex.invalidate_rkey;
	ovbtest_post_sges(rec, wr->sg_list, wr->num_sge);

	if (type == IB_QPT_UD) {
		const struct ib_ud_wr *ud = ud_wr(wr);

		if (ud->ah && ud->ah->uobject)
			rec->ah_handle = ud->ah->uobject->id;
		rec->remote_qpn = ud->remote_qpn;
		rec->remote_qkey = ud->remote_qkey;
		return;
	}
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		rec->remote_addr = rdma_wr(wr)->remote_addr;
		rec->rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		rec->remote_addr = atomic_wr(wr)->remote_addr;
		rec->rkey = atomic_wr(wr)->rkey;
		rec->compare_add = atomic_wr(wr)->compare_add;
		rec->swap = atomic_wr(wr)->swap;
		break;
	default:
		break;
	}
}

static void ovbtest_post_recv_wr(struct ovbtest_post_wr *rec,
				 const struct ib_recv_wr *wr)
{
	memset(rec, 0, sizeof(*rec));
	rec->wr_id = wr->wr_id;
	rec->ah_handle = ~0U;
	ovbtest_post_sges(rec, wr->sg_list, wr->num_sge);
}

static void ovbtest_post_begin(struct ovbtest_post_record *rec, u32 kind)
{
	rec->kind = kind;
	rec->posts++;
	rec->chain_len = 0;
	rec->bad_index = ~0U;
	rec->ret = 0;
}

static int ovbtest_post_end(struct ovbtest_post_record *rec, u32 bad, int ret)
{
	if (ret && bad != ~0U)
		rec->bad_index = bad;
	rec->ret = ret;
	return ret;
}

/* rdmavt's states for sending (ib_rvt_state_ops' POST_SEND_OK). */
static bool ovbtest_may_send(enum ib_qp_state state)
{
	return state == IB_QPS_RTS || state == IB_QPS_SQD ||
	       state == IB_QPS_SQE || state == IB_QPS_ERR;
}

static int ovbtest_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			     const struct ib_send_wr **bad_wr)
{
	struct ovbtest_qp *qp = to_oqp(ibqp);
	struct ovbtest_post_record *rec = &qp->last_send;
	unsigned long flags;
	u32 n, bad = ~0U;
	int ret = 0;

	spin_lock_irqsave(&qp->post_lock, flags);
	ovbtest_post_begin(rec, OVBTEST_POST_SEND);
	/* As rdmavt: refused before any WR, bad_wr not set. */
	if (!ovbtest_may_send(READ_ONCE(qp->state))) {
		ret = -EINVAL;
		goto out;
	}
	for (n = 0; wr; wr = wr->next, n++) {
		if (n < OVBTEST_POST_MAX_WR)
			ovbtest_post_send_wr(&rec->wr[n], wr, ibqp->qp_type);
		rec->chain_len = n + 1;
		/* ib_uverbs holds each AH it looked up until the post returns */
		if (ibqp->qp_type == IB_QPT_UD &&
		    !READ_ONCE(to_oah(ud_wr(wr)->ah)->live))
			rec->dead_ahs++;
		if (wr->num_sge > READ_ONCE(qp->cap.max_send_sge))
			ret = -EINVAL;
		else if (n >= READ_ONCE(qp->cap.max_send_wr))
			ret = -ENOMEM;
		if (ret) {
			*bad_wr = wr;
			bad = n;
			break;
		}
	}
out:
	ret = ovbtest_post_end(rec, bad, ret);
	spin_unlock_irqrestore(&qp->post_lock, flags);
	return ret;
}

/* Receives on a QP or an SRQ: @max_wr and @max_sge are its caps. */
static int ovbtest_post_recvs(struct ovbtest_post_record *rec,
			      const struct ib_recv_wr *wr,
			      const struct ib_recv_wr **bad_wr,
			      u32 max_wr, u32 max_sge)
{
	u32 n;

	for (n = 0; wr; wr = wr->next, n++) {
		if (n < OVBTEST_POST_MAX_WR)
			ovbtest_post_recv_wr(&rec->wr[n], wr);
		rec->chain_len = n + 1;
		if (wr->num_sge > max_sge || n >= max_wr) {
			*bad_wr = wr;
			return ovbtest_post_end(rec, n, wr->num_sge > max_sge ?
						-EINVAL : -ENOMEM);
		}
	}
	return ovbtest_post_end(rec, ~0U, 0);
}

static int ovbtest_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			     const struct ib_recv_wr **bad_wr)
{
	struct ovbtest_qp *qp = to_oqp(ibqp);
	struct ovbtest_post_record *rec = &qp->last_recv;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&qp->post_lock, flags);
	ovbtest_post_begin(rec, OVBTEST_POST_RECV);
	if (READ_ONCE(qp->state) == IB_QPS_RESET) {
		*bad_wr = wr;
		ret = ovbtest_post_end(rec, 0, -EINVAL);
	} else {
		ret = ovbtest_post_recvs(rec, wr, bad_wr,
					 READ_ONCE(qp->cap.max_recv_wr),
					 READ_ONCE(qp->cap.max_recv_sge));
	}
	spin_unlock_irqrestore(&qp->post_lock, flags);
	return ret;
}

static int ovbtest_post_srq_recv(struct ib_srq *ibsrq,
				 const struct ib_recv_wr *wr,
				 const struct ib_recv_wr **bad_wr)
{
	struct ovbtest_srq *srq = to_osrq(ibsrq);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&srq->post_lock, flags);
	ovbtest_post_begin(&srq->last_recv, OVBTEST_POST_SRQ_RECV);
	ret = ovbtest_post_recvs(&srq->last_recv, wr, bad_wr,
				 READ_ONCE(srq->attr.max_wr), srq->attr.max_sge);
	spin_unlock_irqrestore(&srq->post_lock, flags);
	return ret;
}

const struct ib_device_ops ovbtest_post_ops = {
	.post_send = ovbtest_post_send,
	.post_recv = ovbtest_post_recv,
	.post_srq_recv = ovbtest_post_srq_recv,
};

/* A copy of @rec taken under @lock, for the user. */
static int ovbtest_last_post_copy(struct uverbs_attr_bundle *attrs,
				  const struct ovbtest_post_record *rec,
				  spinlock_t *lock)
{
	struct ovbtest_post_record *copy;
	unsigned long flags;
	int ret;

	copy = kmalloc(sizeof(*copy), GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	spin_lock_irqsave(lock, flags);
	*copy = *rec;
	spin_unlock_irqrestore(lock, flags);
	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_LAST_POST_RECORD, copy,
			     sizeof(*copy));
	kfree(copy);
	return ret;
}

/* The QP's last send post, or its last receive post with a nonzero flag. */
static int UVERBS_HANDLER(OVBTEST_METHOD_QP_LAST_POST)(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *ibqp = uverbs_attr_get_obj(attrs,
						 OVBTEST_ATTR_LAST_POST_HANDLE);
	/*
	 * The driver's QP: an XRC TGT handle names ib_core's shared QP (a
	 * bare struct ib_qp), whose real_qp is ours; posts reach real_qp.
	 */
	struct ovbtest_qp *qp = to_oqp(ibqp->real_qp);
	u32 recv = 0;
	int ret;

	ret = uverbs_copy_from(&recv, attrs, OVBTEST_ATTR_LAST_POST_RECV);
	if (ret && ret != -ENOENT)
		return ret;
	return ovbtest_last_post_copy(attrs, recv ? &qp->last_recv :
				      &qp->last_send, &qp->post_lock);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_SRQ_LAST_POST)(struct uverbs_attr_bundle *attrs)
{
	struct ib_srq *ibsrq = uverbs_attr_get_obj(attrs,
						   OVBTEST_ATTR_LAST_POST_HANDLE);
	struct ovbtest_srq *srq = to_osrq(ibsrq);

	return ovbtest_last_post_copy(attrs, &srq->last_recv, &srq->post_lock);
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_QP_LAST_POST,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_LAST_POST_HANDLE,
					    UVERBS_OBJECT_QP,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_LAST_POST_RECORD,
						UVERBS_ATTR_TYPE(struct ovbtest_post_record),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_LAST_POST_RECV,
					       UVERBS_ATTR_TYPE(u32), UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_SRQ_LAST_POST,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_LAST_POST_HANDLE,
					    UVERBS_OBJECT_SRQ,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_LAST_POST_RECORD,
						UVERBS_ATTR_TYPE(struct ovbtest_post_record),
						UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_qp_last_post, UVERBS_OBJECT_QP,
		   &UVERBS_METHOD(OVBTEST_METHOD_QP_LAST_POST));
ADD_UVERBS_METHODS(ovbtest_srq_last_post, UVERBS_OBJECT_SRQ,
		   &UVERBS_METHOD(OVBTEST_METHOD_SRQ_LAST_POST));

const struct uapi_definition ovbtest_post_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_QP, &ovbtest_qp_last_post),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_SRQ, &ovbtest_srq_last_post),
	{},
};
