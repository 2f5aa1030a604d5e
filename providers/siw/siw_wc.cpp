// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completions: siw's CQE as an ibv_wc (tables, not branches), polling the
// CQE ring, and the value that arms the CQ.  No system call here; the unit
// tests drive these on plain memory.
#include "siw.h"

#include <array>

namespace siw {

namespace {

// Completion opcode per siw opcode.  A read that also invalidated reports
// as a read; siw never completes the kernel-only and unsupported opcodes
// to userspace, which get IBV_WC_SEND like any unknown value would.
constexpr auto kWcOpcode = [] {
	std::array<ibv_wc_opcode, OVB_SIW_NUM_OPCODES> t{};
	t.fill(IBV_WC_SEND);
	t[OVB_SIW_OP_WRITE] = IBV_WC_RDMA_WRITE;
	t[OVB_SIW_OP_READ] = IBV_WC_RDMA_READ;
	t[OVB_SIW_OP_READ_LOCAL_INV] = IBV_WC_RDMA_READ;
	t[OVB_SIW_OP_FETCH_AND_ADD] = IBV_WC_FETCH_ADD;
	t[OVB_SIW_OP_COMP_AND_SWAP] = IBV_WC_COMP_SWAP;
	t[OVB_SIW_OP_RECEIVE] = IBV_WC_RECV;
	return t;
}();

// Completion status per siw status; anything else is a general error.
constexpr auto kWcStatus = [] {
	std::array<ibv_wc_status, OVB_SIW_NUM_WC_STATUS> t{};
	t[OVB_SIW_WC_SUCCESS] = IBV_WC_SUCCESS;
	t[OVB_SIW_WC_LOC_LEN_ERR] = IBV_WC_LOC_LEN_ERR;
	t[OVB_SIW_WC_LOC_PROT_ERR] = IBV_WC_LOC_PROT_ERR;
	t[OVB_SIW_WC_LOC_QP_OP_ERR] = IBV_WC_LOC_QP_OP_ERR;
	t[OVB_SIW_WC_WR_FLUSH_ERR] = IBV_WC_WR_FLUSH_ERR;
	t[OVB_SIW_WC_BAD_RESP_ERR] = IBV_WC_BAD_RESP_ERR;
	t[OVB_SIW_WC_LOC_ACCESS_ERR] = IBV_WC_LOC_ACCESS_ERR;
	t[OVB_SIW_WC_REM_ACCESS_ERR] = IBV_WC_REM_ACCESS_ERR;
	t[OVB_SIW_WC_REM_INV_REQ_ERR] = IBV_WC_REM_INV_REQ_ERR;
	t[OVB_SIW_WC_GENERAL_ERR] = IBV_WC_GENERAL_ERR;
	return t;
}();

} // namespace

void cqe_to_wc(const ovb_siw_cqe &cqe, ibv_wc &wc)
{
	wc = ibv_wc{};
	wc.wr_id = cqe.id;
	wc.opcode = cqe.opcode < kWcOpcode.size() ? kWcOpcode[cqe.opcode]
						  : IBV_WC_SEND;
	wc.status = cqe.status < kWcStatus.size() ? kWcStatus[cqe.status]
						  : IBV_WC_GENERAL_ERR;
	wc.byte_len = cqe.bytes;
	wc.qp_num = static_cast<uint32_t>(cqe.qp_id);
	// siw completes neither immediate data nor invalidations to
	// userspace: wc_flags stay 0, as with libsiw.
}

int poll_ring(Ring<ovb_siw_cqe> &ring, uint32_t &get, int ne, ibv_wc *wc)
{
	int n = 0;
	while (n < ne) {
		ovb_siw_cqe &cqe = ring.at(get);
		if (!valid(cqe))
			break;
		cqe_to_wc(cqe, wc[n++]);
		publish(cqe, FlagsOf<ovb_siw_cqe>{0});	// back to the kernel
		get = ring.next(get);
	}
	return n;
}

uint32_t notify_flags(bool solicited_only)
{
	// The kernel tests SOLICITED for a solicited completion and
	// NEXT_COMPLETION for any; arming for "any" therefore sets both.
	return solicited_only ? OVB_SIW_NOTIFY_SOLICITED
			      : OVB_SIW_NOTIFY_SOLICITED |
					OVB_SIW_NOTIFY_NEXT_COMPLETION;
}

} // namespace siw
