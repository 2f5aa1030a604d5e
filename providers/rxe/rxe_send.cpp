// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The send path: ibv_send_wr -> struct ovb_rxe_send_wqe in the send ring,
// then the doorbell (a POST_SEND write with no work requests) so the
// kernel's requester picks the new WQEs up.
#include "rxe.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace rxe {

namespace {

static_assert(sizeof(ovb_rxe_sge) == sizeof(ibv_sge), "sge layouts match");

bool is_atomic(ibv_wr_opcode op)
{
	return op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

uint64_t total_length(const ibv_send_wr &wr)
{
	uint64_t n = 0;
	for (int i = 0; i < wr.num_sge; i++)
		n += wr.sg_list[i].length;
	return n;
}

// The opcode-specific part of the work request.
int fill_wr(const Qp &qp, const ibv_send_wr &wr, ovb_rxe_send_wqe &wqe)
{
	ovb_rxe_send_wr &w = wqe.wr;
	switch (wr.opcode) {
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		w.ex.imm_data = wr.imm_data;
		[[fallthrough]];
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_READ:
		w.wr.rdma.remote_addr = wr.wr.rdma.remote_addr;
		w.wr.rdma.rkey = wr.wr.rdma.rkey;
		wqe.iova = wr.wr.rdma.remote_addr;
		return 0;
	case IBV_WR_SEND_WITH_IMM:
		w.ex.imm_data = wr.imm_data;
		break;
	case IBV_WR_SEND_WITH_INV:
		w.ex.invalidate_rkey = wr.invalidate_rkey;
		break;
	case IBV_WR_SEND:
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		w.wr.atomic.remote_addr = wr.wr.atomic.remote_addr;
		w.wr.atomic.compare_add = wr.wr.atomic.compare_add;
		w.wr.atomic.swap = wr.wr.atomic.swap;
		w.wr.atomic.rkey = wr.wr.atomic.rkey;
		wqe.iova = wr.wr.atomic.remote_addr;
		return 0;
	case IBV_WR_LOCAL_INV:
		w.ex.invalidate_rkey = wr.invalidate_rkey;
		return 0;
	case IBV_WR_BIND_MW:
		w.wr.mw.addr = wr.bind_mw.bind_info.addr;
		w.wr.mw.length = wr.bind_mw.bind_info.length;
		w.wr.mw.mr_lkey = wr.bind_mw.bind_info.mr ? wr.bind_mw.bind_info.mr->lkey : 0;
		w.wr.mw.mw_rkey = wr.bind_mw.mw->rkey;
		w.wr.mw.rkey = wr.bind_mw.rkey;
		w.wr.mw.access = wr.bind_mw.bind_info.mw_access_flags;
		return 0;
	default:
		return EINVAL;
	}
	// Sends: UD carries the destination.
	if (qp.ex.qp_base.qp_type == IBV_QPT_UD) {
		Ah *ah = to_ah(wr.wr.ud.ah);
		if (!ah)
			return EINVAL;
		w.wr.ud.remote_qpn = wr.wr.ud.remote_qpn;
		w.wr.ud.remote_qkey = wr.wr.ud.remote_qkey;
		w.wr.ud.ah_num = ah->ah_num;
	}
	return 0;
}

} // namespace

int build_send_wqe(const Qp &qp, const ibv_send_wr &wr, ovb_rxe_send_wqe &wqe,
		   size_t wqe_room)
{
	uint64_t length = total_length(wr);
	bool inline_data = wr.send_flags & IBV_SEND_INLINE;

	if (wr.num_sge < 0 || static_cast<uint32_t>(wr.num_sge) > qp.max_send_sge)
		return EINVAL;
	if (is_atomic(wr.opcode) && (length < 8 || (wr.wr.atomic.remote_addr & 7)))
		return EINVAL;
	if (inline_data && length > qp.max_inline)
		return EINVAL;
	if (wr.opcode == IBV_WR_BIND_MW &&
	    (qp.ex.qp_base.qp_type == IBV_QPT_UD || wr.num_sge))
		return EINVAL;
	size_t payload = inline_data ? length : wr.num_sge * sizeof(ovb_rxe_sge);
	if (sizeof(wqe) + payload > wqe_room)
		return EINVAL;

	std::memset(&wqe, 0, sizeof(wqe));
	wqe.wr.wr_id = wr.wr_id;
	wqe.wr.opcode = wr.opcode;
	wqe.wr.send_flags = wr.send_flags;
	if (int rc = fill_wr(qp, wr, wqe))
		return rc;

	if (inline_data) {
		uint8_t *dst = wqe.dma.inline_data;
		for (int i = 0; i < wr.num_sge; i++) {
			std::memcpy(dst, reinterpret_cast<void *>(wr.sg_list[i].addr),
				    wr.sg_list[i].length);
			dst += wr.sg_list[i].length;
		}
	} else {
		std::memcpy(wqe.dma.sge, wr.sg_list, payload);
		wqe.dma.num_sge = static_cast<uint32_t>(wr.num_sge);
	}
	wqe.dma.length = static_cast<uint32_t>(length);
	wqe.dma.resid = static_cast<uint32_t>(length);
	return 0;
}

int ring_doorbell(Qp *qp)
{
	ssize_t n = write(qp->ex.qp_base.context->cmd_fd, &qp->doorbell,
			  sizeof(qp->doorbell));
	return n == static_cast<ssize_t>(sizeof(qp->doorbell)) ? 0 : errno;
}

int post_send(ibv_qp *ibqp, ibv_send_wr *wr, ibv_send_wr **bad)
{
	Qp *qp = to_qp(ibqp);
	int rc = 0;
	{
		std::lock_guard<std::mutex> guard(qp->sq_lock);
		for (; wr; wr = wr->next) {
			if (qp->sq.full()) {
				rc = ENOMEM;
				break;
			}
			auto *wqe = static_cast<ovb_rxe_send_wqe *>(qp->sq.producer_slot());
			rc = build_send_wqe(*qp, *wr, *wqe, qp->sq.elem_size());
			if (rc)
				break;
			wqe->ssn = qp->ssn++;
			qp->sq.advance_producer();
		}
		if (rc)
			*bad = wr;
	}
	// As rdma_rxe expects: the doorbell rings even after a failed WR, so
	// the WQEs posted before it run.
	int db = ring_doorbell(qp);
	return rc ? rc : db;
}

} // namespace rxe
