// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Extended QPs and the ibv_wr_* API: wr_start locks the send queue, each
// builder writes a WQE at a private index, the setters patch the last one,
// wr_complete publishes them all at once and rings the doorbell.
#include "rxe.h"

#include <cerrno>
#include <cstring>

namespace rxe {

namespace {

Qp *from_ex(ibv_qp_ex *ex) { return reinterpret_cast<Qp *>(ex); }

// A new WQE of opcode at the batch's next slot, or nullptr (qp->wr_err set).
ovb_rxe_send_wqe *next_wqe(ibv_qp_ex *ex, ibv_wr_opcode opcode)
{
	Qp *qp = from_ex(ex);
	if (qp->wr_err)
		return nullptr;
	if (qp->sq.full_at(qp->wr_cur)) {
		qp->wr_err = ENOSPC;
		return nullptr;
	}
	auto *wqe = static_cast<ovb_rxe_send_wqe *>(qp->sq.slot(qp->wr_cur));
	std::memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = ex->wr_id;
	wqe->wr.send_flags = ex->wr_flags;
	wqe->wr.opcode = opcode;
	wqe->ssn = qp->ssn++;
	qp->wr_cur = ring_next(qp->wr_cur, qp->sq.mask());
	qp->wr_last = wqe;
	return wqe;
}

ovb_rxe_send_wqe *last(ibv_qp_ex *ex)
{
	Qp *qp = from_ex(ex);
	return qp->wr_err ? nullptr : qp->wr_last;
}

void rdma(ibv_qp_ex *ex, ibv_wr_opcode op, uint32_t rkey, uint64_t addr)
{
	if (auto *w = next_wqe(ex, op)) {
		w->wr.wr.rdma.remote_addr = addr;
		w->wr.wr.rdma.rkey = rkey;
		w->iova = addr;
	}
}

void atomic(ibv_qp_ex *ex, ibv_wr_opcode op, uint32_t rkey, uint64_t addr,
	    uint64_t compare_add, uint64_t swap)
{
	if (auto *w = next_wqe(ex, op)) {
		w->wr.wr.atomic.remote_addr = addr;
		w->wr.wr.atomic.compare_add = compare_add;
		w->wr.wr.atomic.swap = swap;
		w->wr.wr.atomic.rkey = rkey;
		w->iova = addr;
		w->dma.length = w->dma.resid = 8;
	}
}

void wr_send(ibv_qp_ex *ex) { next_wqe(ex, IBV_WR_SEND); }

void wr_send_imm(ibv_qp_ex *ex, __be32 imm)
{
	if (auto *w = next_wqe(ex, IBV_WR_SEND_WITH_IMM))
		w->wr.ex.imm_data = imm;
}

void wr_send_inv(ibv_qp_ex *ex, uint32_t rkey)
{
	if (auto *w = next_wqe(ex, IBV_WR_SEND_WITH_INV))
		w->wr.ex.invalidate_rkey = rkey;
}

void wr_rdma_write(ibv_qp_ex *ex, uint32_t rkey, uint64_t addr)
{
	rdma(ex, IBV_WR_RDMA_WRITE, rkey, addr);
}

void wr_rdma_write_imm(ibv_qp_ex *ex, uint32_t rkey, uint64_t addr, __be32 imm)
{
	rdma(ex, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, addr);
	if (auto *w = last(ex))
		w->wr.ex.imm_data = imm;
}

void wr_rdma_read(ibv_qp_ex *ex, uint32_t rkey, uint64_t addr)
{
	rdma(ex, IBV_WR_RDMA_READ, rkey, addr);
}

// 8 bytes written at the target in one piece (the kernel's rxe has it
// since 6.2): they travel in the WQE, where a WR's SGEs would, so its
// slot must have room for them.
void wr_atomic_write(ibv_qp_ex *ex, uint32_t rkey, uint64_t addr,
		     const void *value)
{
	Qp *qp = from_ex(ex);
	if (!qp->wr_err && sizeof(ovb_rxe_send_wqe) + 8 > qp->sq.elem_size()) {
		qp->wr_err = EINVAL;
		return;
	}
	rdma(ex, IBV_WR_ATOMIC_WRITE, rkey, addr);
	if (auto *w = last(ex)) {
		std::memcpy(w->dma.atomic_wr, value, 8);
		w->dma.length = w->dma.resid = 8;
	}
}

void wr_cmp_swp(ibv_qp_ex *ex, uint32_t rkey, uint64_t addr, uint64_t cmp,
		uint64_t swap)
{
	atomic(ex, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, addr, cmp, swap);
}

void wr_fetch_add(ibv_qp_ex *ex, uint32_t rkey, uint64_t addr, uint64_t add)
{
	atomic(ex, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, addr, add, 0);
}

void wr_local_inv(ibv_qp_ex *ex, uint32_t rkey)
{
	if (auto *w = next_wqe(ex, IBV_WR_LOCAL_INV))
		w->wr.ex.invalidate_rkey = rkey;
}

void wr_bind_mw(ibv_qp_ex *ex, ibv_mw *mw, uint32_t rkey,
		const ibv_mw_bind_info *info)
{
	if (auto *w = next_wqe(ex, IBV_WR_BIND_MW)) {
		w->wr.wr.mw.addr = info->addr;
		w->wr.wr.mw.length = info->length;
		w->wr.wr.mw.mr_lkey = info->mr ? info->mr->lkey : 0;
		w->wr.wr.mw.mw_rkey = mw->rkey;
		w->wr.wr.mw.rkey = rkey;
		w->wr.wr.mw.access = info->mw_access_flags;
	}
}

void wr_set_sge_list(ibv_qp_ex *ex, size_t n, const ibv_sge *sges)
{
	Qp *qp = from_ex(ex);
	auto *w = last(ex);
	if (!w)
		return;
	if (n > qp->max_send_sge) {
		qp->wr_err = EINVAL;
		return;
	}
	uint64_t length = 0;
	for (size_t i = 0; i < n; i++)
		length += sges[i].length;
	std::memcpy(w->dma.sge, sges, n * sizeof(ovb_rxe_sge));
	w->dma.num_sge = static_cast<uint32_t>(n);
	w->dma.length = w->dma.resid = static_cast<uint32_t>(length);
}

void wr_set_sge(ibv_qp_ex *ex, uint32_t lkey, uint64_t addr, uint32_t length)
{
	ibv_sge sge{addr, length, lkey};
	wr_set_sge_list(ex, length ? 1 : 0, &sge);
}

void wr_set_inline_data_list(ibv_qp_ex *ex, size_t n, const ibv_data_buf *bufs)
{
	Qp *qp = from_ex(ex);
	auto *w = last(ex);
	if (!w)
		return;
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += bufs[i].length;
	if (total > qp->max_inline) {
		qp->wr_err = EINVAL;
		return;
	}
	uint8_t *dst = w->dma.inline_data;
	for (size_t i = 0; i < n; i++) {
		std::memcpy(dst, bufs[i].addr, bufs[i].length);
		dst += bufs[i].length;
	}
	w->wr.send_flags |= IBV_SEND_INLINE;
	w->dma.length = w->dma.resid = static_cast<uint32_t>(total);
}

void wr_set_inline_data(ibv_qp_ex *ex, void *addr, size_t length)
{
	ibv_data_buf buf{addr, length};
	wr_set_inline_data_list(ex, 1, &buf);
}

void wr_set_ud_addr(ibv_qp_ex *ex, ibv_ah *ah, uint32_t qpn, uint32_t qkey)
{
	if (auto *w = last(ex)) {
		w->wr.wr.ud.remote_qpn = qpn;
		w->wr.wr.ud.remote_qkey = qkey;
		w->wr.wr.ud.ah_num = to_ah(ah)->ah_num;
	}
}

void wr_start(ibv_qp_ex *ex)
{
	Qp *qp = from_ex(ex);
	qp->sq_lock.lock();
	qp->wr_cur = qp->sq.producer();
	qp->wr_last = nullptr;
	qp->wr_err = 0;
}

int wr_complete(ibv_qp_ex *ex)
{
	Qp *qp = from_ex(ex);
	int err = qp->wr_err;
	if (!err)
		qp->sq.publish_producer(qp->wr_cur);
	qp->sq_lock.unlock();
	if (err)
		return err;
	return ring_doorbell(qp);
}

void wr_abort(ibv_qp_ex *ex)
{
	from_ex(ex)->sq_lock.unlock();
}

} // namespace

void install_wr_ops(Qp *qp, uint64_t send_ops)
{
	ibv_qp_ex &ex = qp->ex;
	ex.wr_start = wr_start;
	ex.wr_complete = wr_complete;
	ex.wr_abort = wr_abort;
	ex.wr_set_sge = wr_set_sge;
	ex.wr_set_sge_list = wr_set_sge_list;
	ex.wr_set_inline_data = wr_set_inline_data;
	ex.wr_set_inline_data_list = wr_set_inline_data_list;
	ex.wr_set_ud_addr = wr_set_ud_addr;
	struct Op {
		uint64_t flag;
		void (*install)(ibv_qp_ex &);
	};
	static const Op ops[] = {
		{IBV_QP_EX_WITH_SEND, [](ibv_qp_ex &e) { e.wr_send = wr_send; }},
		{IBV_QP_EX_WITH_SEND_WITH_IMM, [](ibv_qp_ex &e) { e.wr_send_imm = wr_send_imm; }},
		{IBV_QP_EX_WITH_SEND_WITH_INV, [](ibv_qp_ex &e) { e.wr_send_inv = wr_send_inv; }},
		{IBV_QP_EX_WITH_RDMA_WRITE, [](ibv_qp_ex &e) { e.wr_rdma_write = wr_rdma_write; }},
		{IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM, [](ibv_qp_ex &e) { e.wr_rdma_write_imm = wr_rdma_write_imm; }},
		{IBV_QP_EX_WITH_RDMA_READ, [](ibv_qp_ex &e) { e.wr_rdma_read = wr_rdma_read; }},
		{IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP, [](ibv_qp_ex &e) { e.wr_atomic_cmp_swp = wr_cmp_swp; }},
		{IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD, [](ibv_qp_ex &e) { e.wr_atomic_fetch_add = wr_fetch_add; }},
		{IBV_QP_EX_WITH_LOCAL_INV, [](ibv_qp_ex &e) { e.wr_local_inv = wr_local_inv; }},
		{IBV_QP_EX_WITH_BIND_MW, [](ibv_qp_ex &e) { e.wr_bind_mw = wr_bind_mw; }},
		{IBV_QP_EX_WITH_ATOMIC_WRITE, [](ibv_qp_ex &e) { e.wr_atomic_write = wr_atomic_write; }},
	};
	for (const Op &op : ops)
		if (send_ops & op.flag)
			op.install(ex);
}

namespace {

// The extended ops each QP type has (what rdma-core's librxe accepts);
// other QP types have none.
uint64_t send_ops_of(ibv_qp_type type)
{
	constexpr uint64_t ud = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM;
	constexpr uint64_t uc = ud | IBV_QP_EX_WITH_SEND_WITH_INV |
				IBV_QP_EX_WITH_RDMA_WRITE |
				IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
				IBV_QP_EX_WITH_BIND_MW;
	constexpr uint64_t rc = uc | IBV_QP_EX_WITH_RDMA_READ |
				IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
				IBV_QP_EX_WITH_LOCAL_INV |
				IBV_QP_EX_WITH_ATOMIC_WRITE;
	switch (type) {
	case IBV_QPT_RC:
		return rc;
	case IBV_QPT_UC:
		return uc;
	case IBV_QPT_UD:
		return ud;
	default:
		return 0;
	}
}

} // namespace

ibv_qp *create_qp_ex(ibv_context *, ibv_qp_init_attr_ex *attr)
{
	const uint64_t known = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS |
			       IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	bool with_ops = attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	if ((attr->comp_mask & ~known) || !(attr->comp_mask & IBV_QP_INIT_ATTR_PD) ||
	    ((attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) && attr->create_flags) ||
	    (with_ops && (!send_ops_of(attr->qp_type) ||
			  (attr->send_ops_flags & ~send_ops_of(attr->qp_type))))) {
		errno = EOPNOTSUPP;
		return nullptr;
	}
	ibv_qp_init_attr basic{};
	basic.qp_context = attr->qp_context;
	basic.send_cq = attr->send_cq;
	basic.recv_cq = attr->recv_cq;
	basic.srq = attr->srq;
	basic.cap = attr->cap;
	basic.qp_type = attr->qp_type;
	basic.sq_sig_all = attr->sq_sig_all;
	ibv_qp *ibqp = create_qp(attr->pd, &basic);
	if (!ibqp)
		return nullptr;
	attr->cap = basic.cap;
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
		install_wr_ops(to_qp(ibqp), attr->send_ops_flags);
	return ibqp;
}

} // namespace rxe
