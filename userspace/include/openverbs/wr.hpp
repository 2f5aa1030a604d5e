// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// openverbs: typed work requests.  Each operation is its own type whose
// constructor takes what the operation needs, so a remote operation
// without its remote address and rkey does not compile (Remote has no
// default constructor).  Every type builds the C work request
// (.wr(): an ibv_send_wr / ibv_recv_wr, as a C program fills it) and posts
// itself through the extended QP API (.post_ex(): the ibv_wr_* calls);
// both inline, no virtuals.
//
// The scatter/gather entries are the caller's, alive until the post
// returns (as in C): spans, and for atomics one named ibv_sge (a temporary
// does not compile).  The request objects then never escape into the
// post, so the compiler keeps them in registers: qp.post(RdmaWrite{...})
// is the instructions of the C code that fills an ibv_send_wr
// (tests/cxx-cost counts both).
#pragma once

#include <infiniband/verbs.h>

#include <concepts>
#include <cstdint>
#include <span>

namespace openverbs {

// Where a remote operation goes: an address in the peer's registered
// memory and that region's rkey.  Both, always.
struct Remote {
	constexpr Remote(uint64_t addr_, uint32_t rkey_) noexcept : addr(addr_), rkey(rkey_) {}
	constexpr Remote offset(uint64_t by) const noexcept { return {addr + by, rkey}; }
	uint64_t addr;
	uint32_t rkey;
};

// What every send-queue request has besides its operation: the id its
// completion reports and the IBV_SEND_* flags (signaled by default).
struct WrTag {
	uint64_t id = 0;
	unsigned flags = IBV_SEND_SIGNALED;
};

namespace detail {

inline ibv_send_wr send_wr(const WrTag &t, std::span<const ibv_sge> sg,
			   ibv_wr_opcode op) noexcept
{
	ibv_send_wr w{};
	w.wr_id = t.id;
	w.sg_list = const_cast<ibv_sge *>(sg.data());	// never written by post_send
	w.num_sge = static_cast<int>(sg.size());
	w.opcode = op;
	w.send_flags = t.flags;
	return w;
}

inline void tag_ex(ibv_qp_ex *q, const WrTag &t) noexcept
{
	q->wr_id = t.id;
	q->wr_flags = t.flags;
}

} // namespace detail

struct Send {
	Send(std::span<const ibv_sge> local_, WrTag tag_ = {}) noexcept : local(local_), tag(tag_) {}
	ibv_send_wr wr() const noexcept { return detail::send_wr(tag, local, IBV_WR_SEND); }
	void post_ex(ibv_qp_ex *q) const noexcept
	{
		detail::tag_ex(q, tag);
		ibv_wr_send(q);
		ibv_wr_set_sge_list(q, local.size(), local.data());
	}
	std::span<const ibv_sge> local;
	WrTag tag;
};

// imm is sent as given (network byte order, as ibv_send_wr.imm_data).
struct SendImm {
	SendImm(std::span<const ibv_sge> local_, __be32 imm_, WrTag tag_ = {}) noexcept
		: local(local_), imm(imm_), tag(tag_) {}
	ibv_send_wr wr() const noexcept
	{
		ibv_send_wr w = detail::send_wr(tag, local, IBV_WR_SEND_WITH_IMM);
		w.imm_data = imm;
		return w;
	}
	void post_ex(ibv_qp_ex *q) const noexcept
	{
		detail::tag_ex(q, tag);
		ibv_wr_send_imm(q, imm);
		ibv_wr_set_sge_list(q, local.size(), local.data());
	}
	std::span<const ibv_sge> local;
	__be32 imm;
	WrTag tag;
};

// A datagram send: the peer's address handle, QP number and Q_Key.
struct SendUd {
	SendUd(std::span<const ibv_sge> local_, ibv_ah *ah_, uint32_t qpn_, uint32_t qkey_,
	       WrTag tag_ = {}) noexcept
		: local(local_), ah(ah_), qpn(qpn_), qkey(qkey_), tag(tag_) {}
	ibv_send_wr wr() const noexcept
	{
		ibv_send_wr w = detail::send_wr(tag, local, IBV_WR_SEND);
		w.wr.ud = {ah, qpn, qkey};
		return w;
	}
	void post_ex(ibv_qp_ex *q) const noexcept
	{
		detail::tag_ex(q, tag);
		ibv_wr_send(q);
		ibv_wr_set_ud_addr(q, ah, qpn, qkey);
		ibv_wr_set_sge_list(q, local.size(), local.data());
	}
	std::span<const ibv_sge> local;
	ibv_ah *ah;
	uint32_t qpn, qkey;
	WrTag tag;
};

struct RdmaWrite {
	RdmaWrite(std::span<const ibv_sge> local_, Remote remote_, WrTag tag_ = {}) noexcept
		: local(local_), remote(remote_), tag(tag_) {}
	ibv_send_wr wr() const noexcept
	{
		ibv_send_wr w = detail::send_wr(tag, local, IBV_WR_RDMA_WRITE);
		w.wr.rdma = {remote.addr, remote.rkey};
		return w;
	}
	void post_ex(ibv_qp_ex *q) const noexcept
	{
		detail::tag_ex(q, tag);
		ibv_wr_rdma_write(q, remote.rkey, remote.addr);
		ibv_wr_set_sge_list(q, local.size(), local.data());
	}
	std::span<const ibv_sge> local;
	Remote remote;
	WrTag tag;
};

struct RdmaWriteImm {
	RdmaWriteImm(std::span<const ibv_sge> local_, Remote remote_, __be32 imm_,
		     WrTag tag_ = {}) noexcept
		: local(local_), remote(remote_), imm(imm_), tag(tag_) {}
	ibv_send_wr wr() const noexcept
	{
		ibv_send_wr w = detail::send_wr(tag, local, IBV_WR_RDMA_WRITE_WITH_IMM);
		w.wr.rdma = {remote.addr, remote.rkey};
		w.imm_data = imm;
		return w;
	}
	void post_ex(ibv_qp_ex *q) const noexcept
	{
		detail::tag_ex(q, tag);
		ibv_wr_rdma_write_imm(q, remote.rkey, remote.addr, imm);
		ibv_wr_set_sge_list(q, local.size(), local.data());
	}
	std::span<const ibv_sge> local;
	Remote remote;
	__be32 imm;
	WrTag tag;
};

struct RdmaRead {
	RdmaRead(std::span<const ibv_sge> local_, Remote remote_, WrTag tag_ = {}) noexcept
		: local(local_), remote(remote_), tag(tag_) {}
	ibv_send_wr wr() const noexcept
	{
		ibv_send_wr w = detail::send_wr(tag, local, IBV_WR_RDMA_READ);
		w.wr.rdma = {remote.addr, remote.rkey};
		return w;
	}
	void post_ex(ibv_qp_ex *q) const noexcept
	{
		detail::tag_ex(q, tag);
		ibv_wr_rdma_read(q, remote.rkey, remote.addr);
		ibv_wr_set_sge_list(q, local.size(), local.data());
	}
	std::span<const ibv_sge> local;
	Remote remote;
	WrTag tag;
};

// Atomics: the 8-byte remote word is at remote (8-byte aligned); its
// previous value lands in local (8 bytes of a local MR; a named ibv_sge).
struct AtomicCas {
	AtomicCas(const ibv_sge &local_, Remote remote_, uint64_t compare_, uint64_t swap_,
		  WrTag tag_ = {}) noexcept
		: local(&local_), remote(remote_), compare(compare_), swap(swap_), tag(tag_) {}
	AtomicCas(const ibv_sge &&, Remote, uint64_t, uint64_t, WrTag = {}) = delete;
	ibv_send_wr wr() const noexcept
	{
		ibv_send_wr w = detail::send_wr(tag, {local, 1}, IBV_WR_ATOMIC_CMP_AND_SWP);
		w.wr.atomic = {remote.addr, compare, swap, remote.rkey};
		return w;
	}
	void post_ex(ibv_qp_ex *q) const noexcept
	{
		detail::tag_ex(q, tag);
		ibv_wr_atomic_cmp_swp(q, remote.rkey, remote.addr, compare, swap);
		ibv_wr_set_sge(q, local->lkey, local->addr, local->length);
	}
	const ibv_sge *local;
	Remote remote;
	uint64_t compare, swap;
	WrTag tag;
};

struct AtomicFetchAdd {
	AtomicFetchAdd(const ibv_sge &local_, Remote remote_, uint64_t add_,
		       WrTag tag_ = {}) noexcept
		: local(&local_), remote(remote_), add(add_), tag(tag_) {}
	AtomicFetchAdd(const ibv_sge &&, Remote, uint64_t, WrTag = {}) = delete;
	ibv_send_wr wr() const noexcept
	{
		ibv_send_wr w = detail::send_wr(tag, {local, 1}, IBV_WR_ATOMIC_FETCH_AND_ADD);
		w.wr.atomic = {remote.addr, add, 0, remote.rkey};
		return w;
	}
	void post_ex(ibv_qp_ex *q) const noexcept
	{
		detail::tag_ex(q, tag);
		ibv_wr_atomic_fetch_add(q, remote.rkey, remote.addr, add);
		ibv_wr_set_sge(q, local->lkey, local->addr, local->length);
	}
	const ibv_sge *local;
	Remote remote;
	uint64_t add;
	WrTag tag;
};

// A receive-queue request.
struct Recv {
	Recv(std::span<const ibv_sge> local_, uint64_t id_ = 0) noexcept : local(local_), id(id_) {}
	ibv_recv_wr wr() const noexcept
	{
		ibv_recv_wr w{};
		w.wr_id = id;
		w.sg_list = const_cast<ibv_sge *>(local.data());
		w.num_sge = static_cast<int>(local.size());
		return w;
	}
	std::span<const ibv_sge> local;
	uint64_t id;
};

// A send-queue request: builds its ibv_send_wr and its ibv_wr_* calls.
template <class W>
concept SendRequest = requires(const W &w, ibv_qp_ex *q) {
	{ w.wr() } -> std::same_as<ibv_send_wr>;
	{ w.post_ex(q) } noexcept;
};

} // namespace openverbs
