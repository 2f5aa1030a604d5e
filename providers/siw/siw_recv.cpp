// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Receive queues, of a QP or of an SRQ (the same RQE ring): ibv_recv_wr to
// RQE and pushing RQEs under the ring's ownership rule.  The kernel finds
// them by itself: receives need no doorbell.
#include "siw.h"

#include <cstring>

namespace siw {

// A receive without buffers is refused, as libsiw refuses it.
int build_rqe(const ibv_recv_wr &wr, ovb_siw_rqe &rqe)
{
	if (wr.num_sge < 1 || wr.num_sge > OVB_SIW_MAX_SGE)
		return EINVAL;
	rqe.id = wr.wr_id;
	rqe.num_sge = static_cast<uint8_t>(wr.num_sge);
	// same layout, static_assert in siw_send.cpp
	std::memcpy(rqe.sge, wr.sg_list, wr.num_sge * sizeof(ibv_sge));
	return 0;
}

int push_recvs(Ring<ovb_siw_rqe> &ring, uint32_t &put, ibv_recv_wr *wr,
	       ibv_recv_wr **bad)
{
	for (; wr; wr = wr->next) {
		ovb_siw_rqe &rqe = ring.at(put);
		if (valid(rqe)) {
			*bad = wr;
			return ENOMEM;
		}
		int rc = build_rqe(*wr, rqe);
		if (rc) {
			*bad = wr;
			return rc;
		}
		publish(rqe, FlagsOf<ovb_siw_rqe>{OVB_SIW_WQE_VALID});
		put = ring.next(put);
	}
	return 0;
}

} // namespace siw
