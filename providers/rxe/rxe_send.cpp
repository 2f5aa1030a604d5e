// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The send path: ibv_send_wr -> struct ovb_rxe_send_wqe in the send ring,
// then the doorbell (a POST_SEND write with no work requests) so the
// kernel's requester picks the new WQEs up.  Binding a type 1 memory
// window is one such work request.
#include "rxe.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace rxe {

namespace {

static_assert(sizeof(ovb_rxe_sge) == sizeof(ibv_sge), "sge layouts match");

// The opcode-specific part of the work request, with the checks that
// depend on the opcode.  Every field the kernel reads for the opcode is
// written; the rest of the union keeps whatever the slot held (the kernel
// ignores it, as with rdma-core's WQEs).
[[gnu::always_inline]] inline int fill_wr(const Qp &qp, const ibv_send_wr &wr,
					  ovb_rxe_send_wqe &wqe, uint64_t length)
{
	ovb_rxe_send_wr &w = wqe.wr;
	switch (wr.opcode) {
	case IBV_WR_SEND:
		w.ex.imm_data = 0;
		break;
	case IBV_WR_SEND_WITH_IMM:
		w.ex.imm_data = wr.imm_data;
		break;
	case IBV_WR_SEND_WITH_INV:
		w.ex.invalidate_rkey = wr.invalidate_rkey;
		break;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		w.ex.imm_data = wr.opcode == IBV_WR_RDMA_WRITE_WITH_IMM ? wr.imm_data : 0;
		w.wr.rdma.remote_addr = wr.wr.rdma.remote_addr;
		w.wr.rdma.rkey = wr.wr.rdma.rkey;
		w.wr.rdma.reserved = 0;
		wqe.iova = wr.wr.rdma.remote_addr;
		return 0;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		if (length < 8 || (wr.wr.atomic.remote_addr & 7))
			return EINVAL;
		w.ex.imm_data = 0;
		w.wr.atomic.remote_addr = wr.wr.atomic.remote_addr;
		w.wr.atomic.compare_add = wr.wr.atomic.compare_add;
		w.wr.atomic.swap = wr.wr.atomic.swap;
		w.wr.atomic.rkey = wr.wr.atomic.rkey;
		w.wr.atomic.reserved = 0;
		wqe.iova = wr.wr.atomic.remote_addr;
		return 0;
	case IBV_WR_LOCAL_INV:
		w.ex.invalidate_rkey = wr.invalidate_rkey;
		return 0;
	case IBV_WR_BIND_MW: {
		// Only RC and UC bind; nothing to gather, no immediate.
		ibv_qp_type t = qp.ex.qp_base.qp_type;
		if ((t != IBV_QPT_RC && t != IBV_QPT_UC) || wr.num_sge ||
		    length || wr.imm_data)
			return EINVAL;
		w.ex.imm_data = 0;
		w.wr.mw.addr = wr.bind_mw.bind_info.addr;
		w.wr.mw.length = wr.bind_mw.bind_info.length;
		w.wr.mw.mr_lkey = wr.bind_mw.bind_info.mr ? wr.bind_mw.bind_info.mr->lkey : 0;
		w.wr.mw.mw_rkey = wr.bind_mw.mw->rkey;
		w.wr.mw.rkey = wr.bind_mw.rkey;
		w.wr.mw.access = wr.bind_mw.bind_info.mw_access_flags;
		return 0;
	}
	default:
		// Not ours to judge (TSO, driver opcodes, ...): as with
		// rdma-core's rxe the kernel's requester does, and the WR
		// completes with IBV_WC_LOC_QP_OP_ERR.
		w.ex.imm_data = wr.imm_data;
		w.wr.rdma.remote_addr = wr.wr.rdma.remote_addr;
		w.wr.rdma.rkey = wr.wr.rdma.rkey;
		w.wr.rdma.reserved = 0;
		wqe.iova = wr.wr.rdma.remote_addr;
		return 0;
	}
	// Sends: UD carries the destination (always the kernel's AH number,
	// so the address vector stays unused).
	if (qp.ex.qp_base.qp_type == IBV_QPT_UD) {
		Ah *ah = to_ah(wr.wr.ud.ah);
		if (!ah)
			return EINVAL;
		w.wr.ud.remote_qpn = wr.wr.ud.remote_qpn;
		w.wr.ud.remote_qkey = wr.wr.ud.remote_qkey;
		w.wr.ud.pkey_index = 0;
		w.wr.ud.reserved = 0;
		w.wr.ud.ah_num = ah->ah_num;
	}
	return 0;
}

// One WQE, written field by field (no memset of the 208-byte element);
// the SGEs are copied and summed in one pass.  The limits fit the ring
// element (clamp_send_limits).
[[gnu::always_inline]] inline int build_one(const Qp &qp, const ibv_send_wr &wr,
					    ovb_rxe_send_wqe &wqe, uint32_t max_sge,
					    uint32_t max_inline)
{
	// Unsigned: a negative count is too large as well.
	const uint32_t num_sge = static_cast<uint32_t>(wr.num_sge);
	if (num_sge > max_sge)
		return EINVAL;
	uint64_t length = 0;
	if (wr.send_flags & IBV_SEND_INLINE) {
		for (uint32_t i = 0; i < num_sge; i++)
			length += wr.sg_list[i].length;
		if (length > max_inline)
			return EINVAL;
		uint8_t *dst = wqe.dma.inline_data;
		for (uint32_t i = 0; i < num_sge; i++) {
			std::memcpy(dst, reinterpret_cast<void *>(wr.sg_list[i].addr),
				    wr.sg_list[i].length);
			dst += wr.sg_list[i].length;
		}
		wqe.dma.num_sge = 0;
	} else {
		for (uint32_t i = 0; i < num_sge; i++) {
			const ibv_sge &s = wr.sg_list[i];
			wqe.dma.sge[i] = {s.addr, s.length, s.lkey};
			length += s.length;
		}
		wqe.dma.num_sge = num_sge;
	}
	wqe.iova = 0;
	if (int rc = fill_wr(qp, wr, wqe, length))
		return rc;
	wqe.wr.wr_id = wr.wr_id;
	wqe.wr.reserved = 0;
	wqe.wr.opcode = wr.opcode;
	wqe.wr.send_flags = wr.send_flags;
	// What the kernel's requester starts from: posted, nothing sent yet.
	wqe.status = 0;
	wqe.state = 0;
	wqe.mask = 0;
	wqe.first_psn = 0;
	wqe.last_psn = 0;
	wqe.ack_length = 0;
	wqe.has_rd_atomic = 0;
	wqe.dma.length = static_cast<uint32_t>(length);
	wqe.dma.resid = static_cast<uint32_t>(length);
	wqe.dma.cur_sge = 0;
	wqe.dma.sge_offset = 0;
	wqe.dma.reserved = 0;
	return 0;
}

} // namespace

namespace {

void clamp(uint32_t &max_sge, uint32_t &max_inline, size_t wqe_room)
{
	size_t room = wqe_room > sizeof(ovb_rxe_send_wqe) ?
		wqe_room - sizeof(ovb_rxe_send_wqe) : 0;
	if (max_sge > room / sizeof(ovb_rxe_sge))
		max_sge = static_cast<uint32_t>(room / sizeof(ovb_rxe_sge));
	if (max_inline > room)
		max_inline = static_cast<uint32_t>(room);
}

} // namespace

void clamp_send_limits(Qp &qp, size_t wqe_room)
{
	clamp(qp.max_send_sge, qp.max_inline, wqe_room);
}

int build_send_wqe(const Qp &qp, const ibv_send_wr &wr, ovb_rxe_send_wqe &wqe,
		   size_t wqe_room)
{
	uint32_t max_sge = qp.max_send_sge, max_inline = qp.max_inline;
	clamp(max_sge, max_inline, wqe_room);
	return build_one(qp, wr, wqe, max_sge, max_inline);
}

// The ring's geometry is read once per call and the producer index
// published once, after the last WQE.
int post_send(ibv_qp *ibqp, ibv_send_wr *wr, ibv_send_wr **bad)
{
	// An empty list is refused before anything happens (no doorbell).
	*bad = nullptr;
	if (!wr)
		return EINVAL;
	Qp *qp = to_qp(ibqp);
	int rc = 0;
	qp->sq_lock.lock();
	Ring &sq = qp->sq;
	const uint32_t mask = sq.mask();
	const uint32_t start = sq.producer();
	uint32_t prod = start;
	for (; wr; wr = wr->next) {
		if (sq.full_at(prod)) {
			rc = ENOMEM;
			break;
		}
		auto *wqe = static_cast<ovb_rxe_send_wqe *>(sq.slot(prod));
		rc = build_one(*qp, *wr, *wqe, qp->max_send_sge, qp->max_inline);
		if (rc)
			break;
		wqe->ssn = qp->ssn++;
		prod = ring_next(prod, mask);
	}
	if (prod != start)
		sq.publish_producer(prod);
	if (rc)
		*bad = wr;
	qp->sq_lock.unlock();
	// As rdma_rxe expects: the doorbell rings even after a failed WR, so
	// the WQEs posted before it run.
	int db = ring_doorbell(qp);
	return rc ? rc : db;
}

// A type 1 bind is a BIND_MW work request with the next rkey of the
// window.  As rdma-core's rxe, a window on another PD than the QP's is
// posted: the kernel fails it in its completion (IBV_WC_MW_BIND_ERR).
// (ibv_bind_mw() itself refused type 2 windows and an MR on another PD.)
int bind_mw(ibv_qp *qp, ibv_mw *mw, ibv_mw_bind *bind)
{
	if (bind->bind_info.mw_access_flags & IBV_ACCESS_ZERO_BASED) {
		errno = EINVAL;
		return EINVAL;
	}
	ibv_send_wr wr{};
	wr.wr_id = bind->wr_id;
	wr.opcode = IBV_WR_BIND_MW;
	wr.send_flags = bind->send_flags;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = bind->bind_info;
	ibv_send_wr *bad;
	int rc = post_send(qp, &wr, &bad);
	if (!rc)
		mw->rkey = wr.bind_mw.rkey;	// an error completion: the caller's to undo
	else
		errno = rc;
	return rc;
}

} // namespace rxe
