// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The send queue: ibv_send_wr to SQE (opcode and flag tables, inline data
// copied into the element), pushing SQEs under the ring's ownership rule,
// and the doorbell.
#include "siw.h"

#include <array>
#include <atomic>
#include <bit>
#include <cstring>

namespace siw {

namespace {

constexpr uint8_t kNoOp = 0xff;

// siw opcode per ibv_wr_opcode; kNoOp where iWARP (or siw) has none.
constexpr auto kSqOpcode = [] {
	std::array<uint8_t, IBV_WR_DRIVER1 + 1> t{};
	t.fill(kNoOp);
	t[IBV_WR_RDMA_WRITE] = OVB_SIW_OP_WRITE;
	t[IBV_WR_SEND] = OVB_SIW_OP_SEND;
	t[IBV_WR_RDMA_READ] = OVB_SIW_OP_READ;
	t[IBV_WR_SEND_WITH_INV] = OVB_SIW_OP_SEND_REMOTE_INV;
	return t;
}();

struct FlagMap {
	unsigned int ibv;
	uint16_t siw;
};
constexpr FlagMap kSendFlags[] = {
	{IBV_SEND_SIGNALED, OVB_SIW_WQE_SIGNALLED},
	{IBV_SEND_SOLICITED, OVB_SIW_WQE_SOLICITED},
	{IBV_SEND_INLINE, OVB_SIW_WQE_INLINE},
	{IBV_SEND_FENCE, OVB_SIW_WQE_READ_FENCE},
};

// The ibv send flags siw carries, and the SQE flags (VALID included) of
// each combination of them: one load per post instead of a loop.
constexpr unsigned int kMappedSendFlags = [] {
	unsigned int m = 0;
	for (const FlagMap &f : kSendFlags)
		m |= f.ibv;
	return m;
}();
static_assert(kMappedSendFlags < 64, "the flag table stays small");
constexpr auto kSqeFlags = [] {
	std::array<uint16_t, kMappedSendFlags + 1> t{};
	for (unsigned int i = 0; i < t.size(); i++) {
		t[i] = OVB_SIW_WQE_VALID;
		for (const FlagMap &f : kSendFlags)
			if (i & f.ibv)
				t[i] |= f.siw;
	}
	return t;
}();

static_assert(sizeof(ibv_sge) == sizeof(ovb_siw_sge) &&
		      offsetof(ibv_sge, addr) == offsetof(ovb_siw_sge, laddr) &&
		      offsetof(ibv_sge, length) == offsetof(ovb_siw_sge, length) &&
		      offsetof(ibv_sge, lkey) == offsetof(ovb_siw_sge, lkey),
	      "siw's SGE has the layout of ibv_sge");

// Inline data goes where sge[1..] would be; sge[0].length says how much.
int copy_inline(const ibv_send_wr &wr, ovb_siw_sqe &sqe)
{
	auto *dst = reinterpret_cast<uint8_t *>(&sqe.sge[1]);
	size_t total = 0;
	for (int i = 0; i < wr.num_sge; i++) {
		const ibv_sge &s = wr.sg_list[i];
		if (s.length > OVB_SIW_MAX_INLINE - total)
			return EINVAL;
		std::memcpy(dst + total, reinterpret_cast<const void *>(s.addr),
			    s.length);
		total += s.length;
	}
	sqe.sge[0].length = static_cast<uint32_t>(total);
	return 0;
}

int ring_doorbell(Qp *qp)
{
	ssize_t n = write(qp->ibv.context->cmd_fd, qp->doorbell,
			  sizeof(qp->doorbell));
	return n == static_cast<ssize_t>(sizeof(qp->doorbell)) ? 0 : errno;
}

// The post path, inlined into post_send(); build_sqe() and push_sends()
// are the same code for the unit tests.
[[gnu::always_inline]] inline int fill_sqe(const ibv_send_wr &wr, bool sig_all,
					   ovb_siw_sqe &sqe, uint16_t &flags)
{
	unsigned int op = wr.opcode;
	if (op >= kSqOpcode.size() || kSqOpcode[op] == kNoOp || wr.num_sge < 0)
		return EINVAL;
	flags = kSqeFlags[wr.send_flags & kMappedSendFlags];
	if (sig_all)
		flags |= OVB_SIW_WQE_SIGNALLED;

	sqe.id = wr.wr_id;
	sqe.opcode = kSqOpcode[op];
	sqe.num_sge = static_cast<uint8_t>(wr.num_sge);
	sqe.raddr = wr.wr.rdma.remote_addr;
	sqe.rkey = wr.opcode == IBV_WR_SEND_WITH_INV ? wr.invalidate_rkey
						     : wr.wr.rdma.rkey;
	if (flags & OVB_SIW_WQE_INLINE)
		return copy_inline(wr, sqe);
	if (wr.num_sge > OVB_SIW_MAX_SGE)
		return EINVAL;
	if (wr.num_sge == 1)	// the common case, without a call to memcpy
		sqe.sge[0] = std::bit_cast<ovb_siw_sge>(wr.sg_list[0]);
	else if (wr.num_sge)
		std::memcpy(sqe.sge, wr.sg_list, wr.num_sge * sizeof(ibv_sge));
	return 0;
}

[[gnu::always_inline]] inline int fill_ring(Ring<ovb_siw_sqe> &ring, uint32_t &put,
					    bool sig_all, ibv_send_wr *wr,
					    ibv_send_wr **bad, uint32_t &posted)
{
	posted = 0;
	for (; wr; wr = wr->next) {
		ovb_siw_sqe &sqe = ring.at(put);
		if (valid(sqe)) {	// the kernel has not taken it yet
			*bad = wr;
			return ENOMEM;
		}
		uint16_t flags;
		int rc = fill_sqe(*wr, sig_all, sqe, flags);
		if (rc) {
			*bad = wr;
			return rc;
		}
		publish(sqe, flags);
		put = ring.next(put);
		posted++;
	}
	return 0;
}

} // namespace

int build_sqe(const ibv_send_wr &wr, bool sig_all, ovb_siw_sqe &sqe,
	      uint16_t &flags)
{
	return fill_sqe(wr, sig_all, sqe, flags);
}

int push_sends(Ring<ovb_siw_sqe> &ring, uint32_t &put, bool sig_all,
	       ibv_send_wr *wr, ibv_send_wr **bad, uint32_t &posted)
{
	return fill_ring(ring, put, sig_all, wr, bad, posted);
}

int post_send(ibv_qp *ibqp, ibv_send_wr *wr, ibv_send_wr **bad)
{
	Qp *qp = to_qp(ibqp);
	*bad = nullptr;
	qp->sq_lock.lock();
	uint32_t first = qp->sq_put;
	uint32_t posted;
	int rc = fill_ring(qp->sq, qp->sq_put, qp->sig_all, wr, bad, posted);
	if (posted) {
		std::atomic_thread_fence(std::memory_order_seq_cst);
		bool busy = valid(qp->sq.at(qp->sq.prev(first)));
		if (sq_needs_doorbell(posted, qp->sq.size(), busy)) {
			int db = ring_doorbell(qp);
			if (db && !rc) {
				// the WRs are in the ring; only the kick failed
				rc = db;
			}
		}
	}
	qp->sq_lock.unlock();
	return rc;
}

} // namespace siw
