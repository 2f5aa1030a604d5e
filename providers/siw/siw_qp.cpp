// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Queue pairs: creation maps the SQE ring (and the RQE ring unless an SRQ
// feeds the QP) and prepares the doorbell; receives go straight into the
// ring.  The kernel refuses every QP type but RC.
#include "siw.h"

#include <cstring>
#include <new>

namespace siw {

namespace {

void prepare_doorbell(Qp *qp)
{
	ovb_cmd_hdr hdr{};
	hdr.command = OVB_CMD_POST_SEND;
	hdr.in_words = sizeof(qp->doorbell) / 4;
	hdr.out_words = sizeof(qp->doorbell_resp) / 4;
	ovb_post_send_req req{};
	req.response = reinterpret_cast<uintptr_t>(&qp->doorbell_resp);
	req.qp_handle = qp->ibv.handle;
	req.wqe_size = sizeof(ibv_send_wr);	// no WRs follow
	std::memcpy(qp->doorbell, &hdr, sizeof(hdr));
	std::memcpy(qp->doorbell + sizeof(hdr), &req, sizeof(req));
}

bool map_rings(Qp *qp, int fd, const ovb_siw_uresp_create_qp &resp,
	       bool srq)
{
	if (resp.sq_key == OVB_SIW_INVAL_UOBJ_KEY ||
	    (!srq && resp.rq_key == OVB_SIW_INVAL_UOBJ_KEY)) {
		errno = ENOMEM;
		return false;
	}
	if (!qp->sq.map(fd, resp.sq_key, resp.num_sqe))
		return false;
	if (!srq && !qp->rq.map(fd, resp.rq_key, resp.num_rqe)) {
		int err = errno;
		qp->sq.unmap();
		errno = err;
		return false;
	}
	return true;
}

} // namespace

ibv_qp *create_qp(ibv_pd *pd, ibv_qp_init_attr *attr)
{
	auto *qp = new (std::nothrow) Qp{};
	if (!qp) {
		errno = ENOMEM;
		return nullptr;
	}
	ovb_siw_uresp_create_qp resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = core->create_qp(pd, &qp->ibv, attr, &ud);
	if (rc) {
		delete qp;
		errno = rc;
		return nullptr;
	}
	if (!map_rings(qp, pd->context->cmd_fd, resp, attr->srq)) {
		int err = errno;
		core->log(pd->context, 1, "siw: QP %u: cannot map its rings (%d)\n",
			  resp.qp_id, err);
		core->destroy_qp(&qp->ibv);
		delete qp;
		errno = err;
		return nullptr;
	}
	qp->id = resp.qp_id;
	qp->sig_all = attr->sq_sig_all;
	prepare_doorbell(qp);
	return &qp->ibv;
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
	Qp *qp = to_qp(ibqp);
	if (!qp->rq.mapped()) {		// receives go to the SRQ
		*bad = wr;
		return EINVAL;
	}
	*bad = nullptr;
	qp->rq_lock.lock();
	int rc = push_recvs(qp->rq, qp->rq_put, wr, bad);
	qp->rq_lock.unlock();
	return rc;
}

} // namespace siw
