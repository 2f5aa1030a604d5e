// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Shared receive queues: an RQE ring like a QP's (siw_recv.cpp), mapped at
// creation.  Modify and query are the core commands.
#include "siw.h"

#include <new>

namespace siw {

ibv_srq *create_srq(ibv_pd *pd, ibv_srq_init_attr *attr)
{
	auto *srq = new (std::nothrow) Srq{};
	if (!srq) {
		errno = ENOMEM;
		return nullptr;
	}
	ovb_siw_uresp_create_srq resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = core->create_srq(pd, &srq->ibv, attr, nullptr, &ud);
	if (rc) {
		delete srq;
		errno = rc;
		return nullptr;
	}
	if (resp.srq_key == OVB_SIW_INVAL_UOBJ_KEY ||
	    !srq->ring.map(pd->context->cmd_fd, resp.srq_key, resp.num_rqe)) {
		int err = resp.srq_key == OVB_SIW_INVAL_UOBJ_KEY ? ENOMEM : errno;
		core->log(pd->context, 1, "siw: SRQ: cannot map its ring (%d)\n",
			  err);
		core->destroy_srq(&srq->ibv);
		delete srq;
		errno = err;
		return nullptr;
	}
	return &srq->ibv;
}

int modify_srq(ibv_srq *srq, ibv_srq_attr *attr, int mask)
{
	return core->modify_srq(srq, attr, mask, nullptr);
}

int query_srq(ibv_srq *srq, ibv_srq_attr *attr)
{
	return core->query_srq(srq, attr);
}

int destroy_srq(ibv_srq *ibsrq)
{
	Srq *srq = to_srq(ibsrq);
	int rc = core->destroy_srq(ibsrq);
	if (rc)
		return rc;
	srq->ring.unmap();
	delete srq;
	return 0;
}

int post_srq_recv(ibv_srq *ibsrq, ibv_recv_wr *wr, ibv_recv_wr **bad)
{
	Srq *srq = to_srq(ibsrq);
	*bad = nullptr;
	srq->lock.lock();
	int rc = push_recvs(srq->ring, srq->put, wr, bad);
	srq->lock.unlock();
	return rc;
}

} // namespace siw
