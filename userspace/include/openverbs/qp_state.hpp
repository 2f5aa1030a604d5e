// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// openverbs: QP state transitions as typed attributes.  Init, Rtr and Rts
// hold what each step needs (a connected QP's Rtr cannot be made without
// the peer's address, QP number and PSN); transition() turns one into the
// ibv_qp_attr and the attribute mask ibv_modify_qp wants for the QP's
// type.  The masks are the ones rdma-core's example programs pass
// (ibv_rc_pingpong, ibv_uc_pingpong, ibv_ud_pingpong), as one table.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>

namespace openverbs {

struct Init {
	uint8_t port = 1;
	uint16_t pkey_index = 0;
	unsigned access = 0;	// IBV_ACCESS_REMOTE_*: what the peer may do (RC, UC)
	uint32_t qkey = 0;	// UD
};

struct Rtr {
	// A connected QP (RC, UC): the peer's path, QP number and first PSN.
	Rtr(const ibv_ah_attr &ah_, uint32_t dest_qpn_, uint32_t rq_psn_) noexcept
		: ah(ah_), dest_qpn(dest_qpn_), rq_psn(rq_psn_) {}
	// The same over RoCE: the peer's GID through our GID index sgid.
	static Rtr roce(const ibv_gid &dgid, uint8_t sgid, uint32_t dest_qpn, uint32_t rq_psn,
			uint8_t port = 1) noexcept
	{
		ibv_ah_attr ah{};
		ah.is_global = 1;
		ah.grh.dgid = dgid;
		ah.grh.sgid_index = sgid;
		ah.grh.hop_limit = 1;
		ah.port_num = port;
		return {ah, dest_qpn, rq_psn};
	}
	// A datagram QP (UD, raw packet): nothing to know.
	static Rtr datagram() noexcept { return {}; }

	ibv_ah_attr ah{};
	uint32_t dest_qpn = 0, rq_psn = 0;
	ibv_mtu mtu = IBV_MTU_1024;
	uint8_t max_dest_rd_atomic = 1, min_rnr_timer = 12;

private:
	Rtr() = default;
};

struct Rts {
	explicit Rts(uint32_t sq_psn_ = 0) noexcept : sq_psn(sq_psn_) {}
	uint32_t sq_psn;
	uint8_t timeout = 14, retry_cnt = 7, rnr_retry = 7, max_rd_atomic = 1;
};

namespace detail {

// The mask of each step, indexed by the state stepped to (RESET, INIT,
// RTR, RTS).
struct TransitionMasks {
	ibv_qp_type type;
	int to[IBV_QPS_RTS + 1];
};

constexpr int kConnectedInit = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
constexpr int kUcRtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
constexpr int kRcRtr = kUcRtr | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
constexpr int kRcRts = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
		       IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;

inline constexpr TransitionMasks kTransitionMasks[] = {
	{IBV_QPT_RC, {IBV_QP_STATE, kConnectedInit, kRcRtr, kRcRts}},
	{IBV_QPT_UC, {IBV_QP_STATE, kConnectedInit, kUcRtr, IBV_QP_STATE | IBV_QP_SQ_PSN}},
	{IBV_QPT_UD, {IBV_QP_STATE, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY,
		      IBV_QP_STATE, IBV_QP_STATE | IBV_QP_SQ_PSN}},
	{IBV_QPT_RAW_PACKET, {IBV_QP_STATE, IBV_QP_STATE | IBV_QP_PORT, IBV_QP_STATE, IBV_QP_STATE}},
};

} // namespace detail

// The mask of the step to state (RESET ... RTS) for a QP of type; 0 for
// a pair the table lacks (ibv_modify_qp then answers EINVAL).
constexpr int transition_mask(ibv_qp_type type, ibv_qp_state state) noexcept
{
	if (state < IBV_QPS_RESET || state > IBV_QPS_RTS)
		return 0;
	for (const detail::TransitionMasks &m : detail::kTransitionMasks)
		if (m.type == type)
			return m.to[state];
	return 0;
}

struct Transition {
	ibv_qp_attr attr;
	int mask;
};

inline Transition transition(ibv_qp_type type, const Init &s) noexcept
{
	Transition t{{}, transition_mask(type, IBV_QPS_INIT)};
	t.attr.qp_state = IBV_QPS_INIT;
	t.attr.port_num = s.port;
	t.attr.pkey_index = s.pkey_index;
	t.attr.qp_access_flags = s.access;
	t.attr.qkey = s.qkey;
	return t;
}

inline Transition transition(ibv_qp_type type, const Rtr &s) noexcept
{
	Transition t{{}, transition_mask(type, IBV_QPS_RTR)};
	t.attr.qp_state = IBV_QPS_RTR;
	t.attr.ah_attr = s.ah;
	t.attr.path_mtu = s.mtu;
	t.attr.dest_qp_num = s.dest_qpn;
	t.attr.rq_psn = s.rq_psn;
	t.attr.max_dest_rd_atomic = s.max_dest_rd_atomic;
	t.attr.min_rnr_timer = s.min_rnr_timer;
	return t;
}

inline Transition transition(ibv_qp_type type, const Rts &s) noexcept
{
	Transition t{{}, transition_mask(type, IBV_QPS_RTS)};
	t.attr.qp_state = IBV_QPS_RTS;
	t.attr.sq_psn = s.sq_psn;
	t.attr.timeout = s.timeout;
	t.attr.retry_cnt = s.retry_cnt;
	t.attr.rnr_retry = s.rnr_retry;
	t.attr.max_rd_atomic = s.max_rd_atomic;
	return t;
}

// To ERROR (flushes both queues) or RESET: the state alone, any type.
inline Transition transition(ibv_qp_state to) noexcept
{
	Transition t{{}, IBV_QP_STATE};
	t.attr.qp_state = to;
	return t;
}

} // namespace openverbs
