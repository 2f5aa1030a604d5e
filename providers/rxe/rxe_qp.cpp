// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Queue pairs: creation maps the send ring (and the receive ring unless an
// SRQ feeds the QP); receive WQEs go straight into the ring.
#include "rxe.h"

#include <cerrno>
#include <cstring>

namespace rxe {

namespace {

void prepare_doorbell(Qp *qp)
{
	ovb_cmd_hdr hdr{};
	hdr.command = OVB_CMD_POST_SEND;
	hdr.in_words = sizeof(qp->doorbell) / 4;
	hdr.out_words = sizeof(qp->doorbell_resp) / 4;
	ovb_post_send_req req{};
	req.response = reinterpret_cast<uintptr_t>(&qp->doorbell_resp);
	req.qp_handle = qp->ex.qp_base.handle;
	req.wr_count = 0;
	req.sge_count = 0;
	req.wqe_size = sizeof(ibv_send_wr);
	std::memcpy(qp->doorbell, &hdr, sizeof(hdr));
	std::memcpy(qp->doorbell + sizeof(hdr), &req, sizeof(req));
}

} // namespace

ibv_qp *create_qp(ibv_pd *pd, ibv_qp_init_attr *attr)
{
	auto *qp = new (std::nothrow) Qp{};
	if (!qp) {
		errno = ENOMEM;
		return nullptr;
	}
	ibv_qp *ibqp = &qp->ex.qp_base;
	ovb_rxe_create_qp_resp resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = core->create_qp(pd, ibqp, attr, &ud);
	if (rc) {
		delete qp;
		errno = rc;
		return nullptr;
	}
	int fd = pd->context->cmd_fd;
	if (!qp->sq.map(fd, resp.sq_mi) ||
	    (!attr->srq && !qp->rq.map(fd, resp.rq_mi))) {
		int err = errno;
		qp->sq.unmap();
		core->destroy_qp(ibqp);
		delete qp;
		errno = err;
		return nullptr;
	}
	qp->max_send_sge = attr->cap.max_send_sge;
	qp->max_recv_sge = attr->cap.max_recv_sge;
	qp->max_inline = attr->cap.max_inline_data;
	clamp_send_limits(*qp, qp->sq.elem_size());
	prepare_doorbell(qp);
	return ibqp;
}

int query_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask, ibv_qp_init_attr *init)
{
	return core->query_qp(qp, attr, mask, init);
}

int modify_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask)
{
	return core->modify_qp(qp, attr, mask);
}

int destroy_qp(ibv_qp *ibqp)
{
	Qp *qp = to_qp(ibqp);
	int rc = core->destroy_qp(ibqp);
	if (rc)
		return rc;
	qp->sq.unmap();
	qp->rq.unmap();
	delete qp;
	return 0;
}

int post_recv(ibv_qp *ibqp, ibv_recv_wr *wr, ibv_recv_wr **bad)
{
	// As rdma-core's rxe: *bad set only for a WR that failed; an empty
	// list or a QP in RESET (C10-97.2.1) refused as a whole.
	Qp *qp = to_qp(ibqp);
	*bad = nullptr;
	if (!wr || ibqp->state == IBV_QPS_RESET || !qp->rq.mapped())
		return EINVAL;
	return post_recv_ring(qp->rq, qp->rq_lock, qp->max_recv_sge, wr, bad);
}

} // namespace rxe
