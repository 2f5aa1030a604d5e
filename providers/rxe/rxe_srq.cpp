// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Shared receive queues, and the receive-WQE writer shared with QPs.
#include "rxe.h"

#include <cerrno>
#include <cstring>

namespace rxe {

int post_recv_ring(Ring &ring, SpinLock &lock, uint32_t max_sge,
		   ibv_recv_wr *wr, ibv_recv_wr **bad)
{
	std::lock_guard<SpinLock> guard(lock);
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || static_cast<uint32_t>(wr->num_sge) > max_sge) {
			*bad = wr;
			return EINVAL;
		}
		if (ring.full()) {
			*bad = wr;
			return ENOMEM;
		}
		auto *wqe = static_cast<ovb_rxe_recv_wqe *>(ring.producer_slot());
		size_t sges = static_cast<size_t>(wr->num_sge) * sizeof(ovb_rxe_sge);
		if (sizeof(*wqe) + sges > ring.elem_size()) {
			*bad = wr;
			return EINVAL;
		}
		uint64_t length = 0;
		for (int i = 0; i < wr->num_sge; i++)
			length += wr->sg_list[i].length;
		std::memset(wqe, 0, sizeof(*wqe));
		wqe->wr_id = wr->wr_id;
		std::memcpy(wqe->dma.sge, wr->sg_list, sges);
		wqe->dma.num_sge = static_cast<uint32_t>(wr->num_sge);
		wqe->dma.length = static_cast<uint32_t>(length);
		wqe->dma.resid = static_cast<uint32_t>(length);
		ring.advance_producer();
	}
	return 0;
}

ibv_srq *create_srq(ibv_pd *pd, ibv_srq_init_attr *attr)
{
	auto *srq = new (std::nothrow) Srq{};
	if (!srq) {
		errno = ENOMEM;
		return nullptr;
	}
	ovb_rxe_create_srq_resp resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = core->create_srq(pd, &srq->ibv, attr, nullptr, &ud);
	if (rc) {
		delete srq;
		errno = rc;
		return nullptr;
	}
	srq->mi = resp.mi;
	srq->srq_num = resp.srq_num;
	srq->max_sge = attr->attr.max_sge;
	if (!srq->ring.map(pd->context->cmd_fd, srq->mi)) {
		int err = errno;
		core->destroy_srq(&srq->ibv);
		delete srq;
		errno = err;
		return nullptr;
	}
	return &srq->ibv;
}

int modify_srq(ibv_srq *ibsrq, ibv_srq_attr *attr, int mask)
{
	Srq *srq = to_srq(ibsrq);
	std::lock_guard<SpinLock> guard(srq->lock);
	// With a new size the kernel writes the new ring's mmap info here.
	ovb_rxe_modify_srq_req req{};
	ovb_rxe_mmap_info mi{};
	req.mmap_info_addr = reinterpret_cast<uintptr_t>(&mi);
	ovb_udata ud{&req, sizeof(req), nullptr, 0};
	int rc = core->modify_srq(ibsrq, attr, mask, &ud);
	if (rc)
		return rc;
	if (mask & IBV_SRQ_MAX_WR) {
		srq->ring.unmap();
		srq->mi = mi;
		if (!srq->ring.map(ibsrq->context->cmd_fd, srq->mi))
			return errno;
	}
	return 0;
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
	return post_recv_ring(srq->ring, srq->lock, srq->max_sge, wr, bad);
}

} // namespace rxe
