// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completion queues: creation maps the CQE ring and the control word
// behind it; polling and arming never enter the kernel (siw_wc.cpp has the
// ring logic).
#include "siw.h"

#include <new>

namespace siw {

ibv_cq *create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *ch, int vec)
{
	auto *cq = new (std::nothrow) Cq{};
	if (!cq) {
		errno = ENOMEM;
		return nullptr;
	}
	ovb_siw_uresp_create_cq resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = core->create_cq(ctx, cqe, ch, vec, &cq->ibv, &ud);
	if (rc) {
		delete cq;
		errno = rc;
		return nullptr;
	}
	if (resp.cq_key == OVB_SIW_INVAL_UOBJ_KEY ||
	    !cq->ring.map(ctx->cmd_fd, resp.cq_key, resp.num_cqe,
			  sizeof(ovb_siw_cq_ctrl))) {
		int err = resp.cq_key == OVB_SIW_INVAL_UOBJ_KEY ? ENOMEM : errno;
		core->log(ctx, 1, "siw: CQ %u: cannot map its ring (%d)\n",
			  resp.cq_id, err);
		core->destroy_cq(&cq->ibv);
		delete cq;
		errno = err;
		return nullptr;
	}
	cq->id = resp.cq_id;
	std::atomic_ref<uint32_t>(cq->ctrl()->flags)
		.store(OVB_SIW_NOTIFY_NOT, std::memory_order_relaxed);
	return &cq->ibv;
}

int poll_cq(ibv_cq *ibcq, int ne, ibv_wc *wc)
{
	Cq *cq = to_cq(ibcq);
	cq->lock.lock();
	int n = poll_ring(cq->ring, cq->get, ne, wc);
	cq->lock.unlock();
	return n;
}

int req_notify_cq(ibv_cq *ibcq, int solicited_only)
{
	Cq *cq = to_cq(ibcq);
	std::atomic_ref<uint32_t>(cq->ctrl()->flags)
		.store(notify_flags(solicited_only), std::memory_order_seq_cst);
	return 0;
}

int destroy_cq(ibv_cq *ibcq)
{
	Cq *cq = to_cq(ibcq);
	int rc = core->destroy_cq(ibcq);
	if (rc)
		return rc;
	cq->ring.unmap();
	delete cq;
	return 0;
}

} // namespace siw
