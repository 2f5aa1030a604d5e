// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completion queues: a ring the kernel fills with struct ovb_wc entries
// (the layout of struct ibv_wc); polling never enters the kernel.  Both
// ibv_poll_cq() and the extended ibv_start_poll()/ibv_next_poll() API.
#include "rxe.h"

#include <cerrno>
#include <cstring>

namespace rxe {

static_assert(sizeof(ibv_wc) == sizeof(ovb_wc), "ibv_wc is the kernel's wc");

namespace {

Cq *from_ex(ibv_cq_ex *ex) { return reinterpret_cast<Cq *>(ex); }

// Makes the consumer entry current (wr_id and status visible), or ENOENT.
int load_current(Cq *cq)
{
	if (cq->ring.empty())
		return ENOENT;
	cq->cur = static_cast<const ovb_wc *>(cq->ring.consumer_slot());
	cq->ex.wr_id = cq->cur->wr_id;
	cq->ex.status = static_cast<ibv_wc_status>(cq->cur->status);
	return 0;
}

int start_poll(ibv_cq_ex *ex, ibv_poll_cq_attr *)
{
	Cq *cq = from_ex(ex);
	cq->lock.lock();
	int rc = load_current(cq);
	if (rc)
		cq->lock.unlock();	// no end_poll follows an empty start
	return rc;
}

// Consumes the current entry.  On ENOENT the batch holds none, and the
// ibv_end_poll() the man page asks for then consumes nothing either
// (rdma-core 44's librxe advances once more there: see userspace.md).
int next_poll(ibv_cq_ex *ex)
{
	Cq *cq = from_ex(ex);
	cq->ring.advance_consumer();
	cq->cur = nullptr;
	return load_current(cq);
}

void end_poll(ibv_cq_ex *ex)
{
	Cq *cq = from_ex(ex);
	if (cq->cur)
		cq->ring.advance_consumer();
	cq->cur = nullptr;
	cq->lock.unlock();
}

const ovb_wc &cur(ibv_cq_ex *ex) { return *from_ex(ex)->cur; }

ibv_wc_opcode read_opcode(ibv_cq_ex *ex) { return static_cast<ibv_wc_opcode>(cur(ex).opcode); }
uint32_t read_vendor_err(ibv_cq_ex *ex) { return cur(ex).vendor_err; }
uint32_t read_byte_len(ibv_cq_ex *ex) { return cur(ex).byte_len; }
__be32 read_imm_data(ibv_cq_ex *ex) { return cur(ex).ex.imm_data; }
uint32_t read_qp_num(ibv_cq_ex *ex) { return cur(ex).qp_num; }
uint32_t read_src_qp(ibv_cq_ex *ex) { return cur(ex).src_qp; }
unsigned int read_wc_flags(ibv_cq_ex *ex) { return cur(ex).wc_flags; }
uint32_t read_slid(ibv_cq_ex *ex) { return cur(ex).slid; }
uint8_t read_sl(ibv_cq_ex *ex) { return cur(ex).sl; }
uint8_t read_dlid_path_bits(ibv_cq_ex *ex) { return cur(ex).dlid_path_bits; }

// What rxe completions carry; anything else (timestamps, flow tags, ...)
// cannot be asked for.
constexpr uint64_t kWcFlags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM |
			      IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP |
			      IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL |
			      IBV_WC_EX_WITH_DLID_PATH_BITS;

Cq *make_cq(ibv_context *ctx, int cqe, ibv_comp_channel *ch, int vec,
	    uint32_t kernel_flags = 0)
{
	auto *cq = new (std::nothrow) Cq{};
	if (!cq) {
		errno = ENOMEM;
		return nullptr;
	}
	ovb_rxe_create_cq_resp resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = kernel_flags ? core->create_cq_flags(ctx, cqe, ch, vec,
						      kernel_flags, cq->ibv(), &ud)
			      : core->create_cq(ctx, cqe, ch, vec, cq->ibv(), &ud);
	if (rc) {
		delete cq;
		errno = rc;
		return nullptr;
	}
	if (!cq->ring.map(ctx->cmd_fd, resp.mi) ||
	    cq->ring.elem_size() < sizeof(ovb_wc)) {
		int err = cq->ring.mapped() ? EINVAL : errno;
		cq->ring.unmap();
		core->destroy_cq(cq->ibv());
		delete cq;
		errno = err;
		return nullptr;
	}
	return cq;
}

} // namespace

ibv_cq *create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *ch, int vec)
{
	Cq *cq = make_cq(ctx, cqe, ch, vec);
	return cq ? cq->ibv() : nullptr;
}

// As rdma-core 44's rxe: completion fields it cannot carry are refused
// here; a PD is accepted (and unused); of the create flags only "ignore
// overrun" means anything, and it goes to the kernel, which decides (rxe
// refuses it with EOPNOTSUPP); other flag bits are ignored.
ibv_cq_ex *create_cq_ex(ibv_context *ctx, ibv_cq_init_attr_ex *attr)
{
	constexpr uint32_t kMasks = IBV_CQ_INIT_ATTR_MASK_FLAGS |
				    IBV_CQ_INIT_ATTR_MASK_PD;
	if ((attr->wc_flags & ~kWcFlags) || (attr->comp_mask & ~kMasks)) {
		errno = EOPNOTSUPP;
		return nullptr;
	}
	uint32_t kernel_flags = 0;
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	    (attr->flags & IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN))
		kernel_flags |= OVB_CREATE_CQ_FLAG_IGNORE_OVERRUN;
	Cq *cq = make_cq(ctx, static_cast<int>(attr->cqe), attr->channel,
			 static_cast<int>(attr->comp_vector), kernel_flags);
	if (!cq)
		return nullptr;
	set_ex_poll_ops(*cq, attr->wc_flags);
	return &cq->ex;
}

void set_ex_poll_ops(Cq &cq, uint64_t wc_flags)
{
	ibv_cq_ex &ex = cq.ex;
	ex.start_poll = start_poll;
	ex.next_poll = next_poll;
	ex.end_poll = end_poll;
	ex.read_opcode = read_opcode;
	ex.read_vendor_err = read_vendor_err;
	ex.read_wc_flags = read_wc_flags;
	uint64_t f = wc_flags;
	if (f & IBV_WC_EX_WITH_BYTE_LEN)
		ex.read_byte_len = read_byte_len;
	if (f & IBV_WC_EX_WITH_IMM)
		ex.read_imm_data = read_imm_data;
	if (f & IBV_WC_EX_WITH_QP_NUM)
		ex.read_qp_num = read_qp_num;
	if (f & IBV_WC_EX_WITH_SRC_QP)
		ex.read_src_qp = read_src_qp;
	if (f & IBV_WC_EX_WITH_SLID)
		ex.read_slid = read_slid;
	if (f & IBV_WC_EX_WITH_SL)
		ex.read_sl = read_sl;
	if (f & IBV_WC_EX_WITH_DLID_PATH_BITS)
		ex.read_dlid_path_bits = read_dlid_path_bits;
}

// Copies up to ne completions; the kernel's producer index is read once
// and our consumer index published once.
int poll_cq(ibv_cq *ibcq, int ne, ibv_wc *wc)
{
	Cq *cq = to_cq(ibcq);
	Ring &ring = cq->ring;
	cq->lock.lock();
	const uint32_t mask = ring.mask();
	uint32_t cons = ring.consumer();
	int n = static_cast<int>(ring_count(ring.producer_acquire(), cons, mask));
	if (n > ne)
		n = ne < 0 ? 0 : ne;
	for (int i = 0; i < n; i++) {
		std::memcpy(&wc[i], ring.slot(cons), sizeof(ibv_wc));
		cons = ring_next(cons, mask);
	}
	if (n)
		ring.publish_consumer(cons);
	cq->lock.unlock();
	return n;
}

int req_notify_cq(ibv_cq *cq, int solicited_only)
{
	return core->req_notify_cq(cq, solicited_only);
}

int resize_cq(ibv_cq *ibcq, int cqe)
{
	Cq *cq = to_cq(ibcq);
	std::lock_guard<SpinLock> guard(cq->lock);
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
