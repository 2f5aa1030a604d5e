// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completion queues: a ring the kernel fills with struct ovb_wc entries
// (the layout of struct ibv_wc); polling never enters the kernel.
#include "rxe.h"

#include <cerrno>
#include <cstring>

namespace rxe {

static_assert(sizeof(ibv_wc) == sizeof(ovb_wc), "ibv_wc is the kernel's wc");

ibv_cq *create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *ch, int vec)
{
	auto *cq = new (std::nothrow) Cq{};
	if (!cq) {
		errno = ENOMEM;
		return nullptr;
	}
	ovb_rxe_create_cq_resp resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = core->create_cq(ctx, cqe, ch, vec, &cq->ibv, &ud);
	if (rc) {
		delete cq;
		errno = rc;
		return nullptr;
	}
	if (!cq->ring.map(ctx->cmd_fd, resp.mi) ||
	    cq->ring.elem_size() < sizeof(ovb_wc)) {
		int err = cq->ring.mapped() ? EINVAL : errno;
		cq->ring.unmap();
		core->destroy_cq(&cq->ibv);
		delete cq;
		errno = err;
		return nullptr;
	}
	return &cq->ibv;
}

int poll_cq(ibv_cq *ibcq, int ne, ibv_wc *wc)
{
	Cq *cq = to_cq(ibcq);
	std::lock_guard<std::mutex> guard(cq->lock);
	int n = 0;
	while (n < ne && !cq->ring.empty()) {
		std::memcpy(&wc[n++], cq->ring.consumer_slot(), sizeof(ibv_wc));
		cq->ring.advance_consumer();
	}
	return n;
}

int req_notify_cq(ibv_cq *cq, int solicited_only)
{
	return core->req_notify_cq(cq, solicited_only);
}

int resize_cq(ibv_cq *ibcq, int cqe)
{
	Cq *cq = to_cq(ibcq);
	std::lock_guard<std::mutex> guard(cq->lock);
	ovb_rxe_resize_cq_resp resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = core->resize_cq(ibcq, cqe, &ud);
	if (rc)
		return rc;
	// The kernel copied the pending entries into the new ring.
	cq->ring.unmap();
	if (!cq->ring.map(ibcq->context->cmd_fd, resp.mi))
		return errno;
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

} // namespace rxe
