// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The C++ API (include/openverbs/*.hpp) without a device: what must not
// compile (static_assert here, cxx_api_negative.cpp through the compiler),
// the C work requests the typed ones build, the ibv_wr_* calls they make
// on an extended QP (a fake one recording them), the QP state steps, the
// extended CQ range over a fake CQ, and the events that ack themselves
// (on fake objects; the library only counts the ack).
#include <openverbs/rdmacm.hpp>
#include <openverbs/verbs.hpp>

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

using namespace openverbs;

namespace {

using Sges = std::span<const ibv_sge>;

// ---------------------------------------------------------------- types
static_assert(!std::is_default_constructible_v<Remote>);
static_assert(!std::is_constructible_v<Remote, uint64_t>);
static_assert(!std::is_constructible_v<RdmaWrite, Sges>);
static_assert(!std::is_constructible_v<RdmaWrite, Sges, WrTag>);
static_assert(std::is_constructible_v<RdmaWrite, Sges, Remote>);
static_assert(!std::is_constructible_v<RdmaWriteImm, Sges, __be32>);
static_assert(!std::is_constructible_v<RdmaRead, Sges>);
static_assert(std::is_constructible_v<RdmaRead, Sges, Remote, WrTag>);
static_assert(!std::is_constructible_v<AtomicCas, ibv_sge &, uint64_t, uint64_t>);
static_assert(std::is_constructible_v<AtomicCas, ibv_sge &, Remote, uint64_t, uint64_t>);
static_assert(!std::is_constructible_v<AtomicFetchAdd, ibv_sge &, uint64_t>);
static_assert(std::is_constructible_v<AtomicFetchAdd, ibv_sge &, Remote, uint64_t>);
// The atomics' entry is named, never a temporary that would dangle.
static_assert(!std::is_constructible_v<AtomicCas, ibv_sge, Remote, uint64_t, uint64_t>);
static_assert(!std::is_constructible_v<AtomicFetchAdd, ibv_sge, Remote, uint64_t>);
static_assert(!std::is_constructible_v<SendUd, Sges>);
static_assert(SendRequest<Send> && SendRequest<SendImm> && SendRequest<SendUd> &&
	      SendRequest<RdmaWrite> && SendRequest<RdmaWriteImm> && SendRequest<RdmaRead> &&
	      SendRequest<AtomicCas> && SendRequest<AtomicFetchAdd>);
static_assert(!SendRequest<Recv> && !SendRequest<ibv_send_wr>);
// A connected QP's RTR needs the peer; a datagram's does not.
static_assert(!std::is_default_constructible_v<Rtr>);
// Handles move, never copy; events too.
static_assert(!std::is_copy_constructible_v<Qp> && std::is_nothrow_move_constructible_v<Qp>);
static_assert(!std::is_copy_constructible_v<CqEvent> && !std::is_copy_constructible_v<AsyncEvent>);
static_assert(!std::is_copy_constructible_v<cm::Event> && !std::is_copy_constructible_v<cm::Qp>);
static_assert(!std::is_copy_constructible_v<WrBatch>);
// Nothing virtual: a handle is its pointer and deleter.
static_assert(!std::is_polymorphic_v<Qp> && !std::is_polymorphic_v<QpEx> &&
	      !std::is_polymorphic_v<CqEx> && !std::is_polymorphic_v<cm::Id>);
// The masks rdma-core's ping-pongs pass.
static_assert(transition_mask(IBV_QPT_RC, IBV_QPS_RTR) ==
	      (IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
	       IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER));

// ---------------------------------------------------------------- WR building
const ibv_sge kSges[2] = {{0x1000, 64, 11}, {0x2000, 32, 12}};
constexpr Remote kRemote{0xfeed0000beef1000ULL, 0x1234};

TEST(CxxWr, RdmaWriteCarriesRemoteAndSges)
{
	ibv_send_wr w = RdmaWrite(kSges, kRemote, {42, IBV_SEND_SIGNALED | IBV_SEND_FENCE}).wr();
	EXPECT_EQ(w.opcode, IBV_WR_RDMA_WRITE);
	EXPECT_EQ(w.wr_id, 42u);
	EXPECT_EQ(w.send_flags, unsigned(IBV_SEND_SIGNALED | IBV_SEND_FENCE));
	EXPECT_EQ(w.wr.rdma.remote_addr, kRemote.addr);
	EXPECT_EQ(w.wr.rdma.rkey, kRemote.rkey);
	EXPECT_EQ(w.sg_list, kSges);
	EXPECT_EQ(w.num_sge, 2);
	EXPECT_EQ(w.next, nullptr);
}

TEST(CxxWr, RdmaWriteImmAndRead)
{
	ibv_send_wr w = RdmaWriteImm(kSges, kRemote, htobe32(7)).wr();
	EXPECT_EQ(w.opcode, IBV_WR_RDMA_WRITE_WITH_IMM);
	EXPECT_EQ(w.imm_data, htobe32(7));
	EXPECT_EQ(w.wr.rdma.remote_addr, kRemote.addr);
	EXPECT_EQ(w.wr.rdma.rkey, kRemote.rkey);
	EXPECT_EQ(w.send_flags, unsigned(IBV_SEND_SIGNALED));	// the default
	w = RdmaRead({kSges, 1}, kRemote.offset(8), {3, 0}).wr();
	EXPECT_EQ(w.opcode, IBV_WR_RDMA_READ);
	EXPECT_EQ(w.wr.rdma.remote_addr, kRemote.addr + 8);
	EXPECT_EQ(w.wr.rdma.rkey, kRemote.rkey);
	EXPECT_EQ(w.num_sge, 1);
	EXPECT_EQ(w.send_flags, 0u);
	EXPECT_EQ(w.wr_id, 3u);
}

TEST(CxxWr, Atomics)
{
	ibv_sge res{0x3000, 8, 13};
	AtomicCas cas(res, kRemote, 5, 9, {1});
	ibv_send_wr w = cas.wr();
	EXPECT_EQ(w.opcode, IBV_WR_ATOMIC_CMP_AND_SWP);
	EXPECT_EQ(w.wr.atomic.remote_addr, kRemote.addr);
	EXPECT_EQ(w.wr.atomic.rkey, kRemote.rkey);
	EXPECT_EQ(w.wr.atomic.compare_add, 5u);
	EXPECT_EQ(w.wr.atomic.swap, 9u);
	ASSERT_EQ(w.num_sge, 1);
	EXPECT_EQ(w.sg_list, &res);	// the caller's entry
	EXPECT_EQ(w.sg_list->addr, 0x3000u);
	AtomicFetchAdd faa(res, kRemote.offset(16), 100);
	w = faa.wr();
	EXPECT_EQ(w.opcode, IBV_WR_ATOMIC_FETCH_AND_ADD);
	EXPECT_EQ(w.wr.atomic.remote_addr, kRemote.addr + 16);
	EXPECT_EQ(w.wr.atomic.rkey, kRemote.rkey);
	EXPECT_EQ(w.wr.atomic.compare_add, 100u);
	EXPECT_EQ(w.sg_list->lkey, 13u);
}

TEST(CxxWr, SendsAndRecv)
{
	ibv_send_wr w = Send(kSges, {5, IBV_SEND_INLINE}).wr();
	EXPECT_EQ(w.opcode, IBV_WR_SEND);
	EXPECT_EQ(w.send_flags, unsigned(IBV_SEND_INLINE));
	EXPECT_EQ(w.wr.rdma.remote_addr, 0u);
	w = SendImm(kSges, htobe32(0xabcd)).wr();
	EXPECT_EQ(w.opcode, IBV_WR_SEND_WITH_IMM);
	EXPECT_EQ(w.imm_data, htobe32(0xabcd));
	auto *ah = reinterpret_cast<ibv_ah *>(0x10);
	w = SendUd(kSges, ah, 77, 0x11111111).wr();
	EXPECT_EQ(w.wr.ud.ah, ah);
	EXPECT_EQ(w.wr.ud.remote_qpn, 77u);
	EXPECT_EQ(w.wr.ud.remote_qkey, 0x11111111u);
	ibv_recv_wr r = Recv(kSges, 9).wr();
	EXPECT_EQ(r.wr_id, 9u);
	EXPECT_EQ(r.sg_list, kSges);
	EXPECT_EQ(r.num_sge, 2);
}

// ---------------------------------------------------------------- ibv_wr_* calls
// A fake ibv_qp_ex: each op records what it was called with.
struct Recorder {
	ibv_qp_ex qpx{};
	std::vector<std::string> calls;
	static Recorder &of(ibv_qp_ex *q) { return *reinterpret_cast<Recorder *>(q); }
	void add(std::string s) { calls.push_back(std::to_string(qpx.wr_id) + "/" +
					       std::to_string(qpx.wr_flags) + " " + s); }
	Recorder()
	{
		qpx.wr_start = [](ibv_qp_ex *q) { of(q).calls.push_back("start"); };
		qpx.wr_complete = [](ibv_qp_ex *q) { of(q).calls.push_back("complete"); return 0; };
		qpx.wr_abort = [](ibv_qp_ex *q) { of(q).calls.push_back("abort"); };
		qpx.wr_send = [](ibv_qp_ex *q) { of(q).add("send"); };
		qpx.wr_send_imm = [](ibv_qp_ex *q, __be32 imm) {
			of(q).add("send_imm " + std::to_string(be32toh(imm)));
		};
		qpx.wr_rdma_write = [](ibv_qp_ex *q, uint32_t rkey, uint64_t addr) {
			of(q).add("rdma_write " + std::to_string(rkey) + " " + std::to_string(addr));
		};
		qpx.wr_rdma_read = [](ibv_qp_ex *q, uint32_t rkey, uint64_t addr) {
			of(q).add("rdma_read " + std::to_string(rkey) + " " + std::to_string(addr));
		};
		qpx.wr_atomic_cmp_swp = [](ibv_qp_ex *q, uint32_t rkey, uint64_t addr,
					   uint64_t cmp, uint64_t swap) {
			of(q).add("cas " + std::to_string(rkey) + " " + std::to_string(addr) + " " +
				  std::to_string(cmp) + " " + std::to_string(swap));
		};
		qpx.wr_atomic_fetch_add = [](ibv_qp_ex *q, uint32_t rkey, uint64_t addr, uint64_t add) {
			of(q).add("faa " + std::to_string(rkey) + " " + std::to_string(addr) + " " +
				  std::to_string(add));
		};
		qpx.wr_set_sge = [](ibv_qp_ex *q, uint32_t lkey, uint64_t addr, uint32_t len) {
			of(q).calls.push_back("sge " + std::to_string(lkey) + " " +
					      std::to_string(addr) + " " + std::to_string(len));
		};
		qpx.wr_set_sge_list = [](ibv_qp_ex *q, size_t n, const ibv_sge *l) {
			of(q).calls.push_back("sge_list " + std::to_string(n) + " " +
					      std::to_string(l[0].lkey));
		};
		qpx.wr_set_ud_addr = [](ibv_qp_ex *q, ibv_ah *, uint32_t qpn, uint32_t qkey) {
			of(q).calls.push_back("ud " + std::to_string(qpn) + " " + std::to_string(qkey));
		};
	}
};
static_assert(offsetof(Recorder, qpx) == 0);

TEST(CxxWrEx, TypedRequestsMakeTheirCalls)
{
	Recorder r;
	ibv_sge res{0x3000, 8, 13};
	{
		WrBatch b(&r.qpx);
		b.add(RdmaWrite(kSges, {4096, 7}, {1}))
			.add(RdmaRead({kSges, 1}, {8192, 8}, {2, 0}))
			.add(AtomicCas(res, {64, 9}, 1, 2, {3}))
			.add(AtomicFetchAdd(res, {72, 9}, 5, {4}))
			.add(SendImm(kSges, htobe32(6), {5}))
			.add(SendUd(kSges, nullptr, 77, 88, {6}));
		EXPECT_EQ(b.complete(), 0);
	}
	std::vector<std::string> want = {
		"start",
		"1/2 rdma_write 7 4096", "sge_list 2 11",
		"2/0 rdma_read 8 8192", "sge_list 1 11",
		"3/2 cas 9 64 1 2", "sge 13 12288 8",
		"4/2 faa 9 72 5", "sge 13 12288 8",
		"5/2 send_imm 6", "sge_list 2 11",
		"6/2 send", "ud 77 88", "sge_list 2 11",
		"complete",
	};
	EXPECT_EQ(r.calls, want);
}

TEST(CxxWrEx, UncompletedBatchAborts)
{
	Recorder r;
	{
		WrBatch b(&r.qpx);
		b.add(Send(kSges));
	}
	ASSERT_EQ(r.calls.size(), 4u);
	EXPECT_EQ(r.calls.back(), "abort");
}

// ---------------------------------------------------------------- QP states
TEST(CxxQpState, MasksAsRdmaCorePingpongs)
{
	EXPECT_EQ(transition(IBV_QPT_RC, Init{1, 0, IBV_ACCESS_REMOTE_WRITE}).mask,
		  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	EXPECT_EQ(transition(IBV_QPT_UD, Init{}).mask,
		  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY);
	EXPECT_EQ(transition(IBV_QPT_UC, Rtr::roce({}, 1, 5, 6)).mask,
		  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN);
	EXPECT_EQ(transition(IBV_QPT_UD, Rtr::datagram()).mask, IBV_QP_STATE);
	EXPECT_EQ(transition(IBV_QPT_RC, Rts(9)).mask,
		  IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
		  IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	EXPECT_EQ(transition(IBV_QPT_UD, Rts(9)).mask, IBV_QP_STATE | IBV_QP_SQ_PSN);
	EXPECT_EQ(transition(IBV_QPT_UC, Rts(9)).mask, IBV_QP_STATE | IBV_QP_SQ_PSN);
	// Types the table lacks: no mask (the helper then throws EINVAL).
	EXPECT_EQ(transition_mask(IBV_QPT_XRC_RECV, IBV_QPS_INIT), 0);
	EXPECT_EQ(transition_mask(IBV_QPT_RC, IBV_QPS_SQD), 0);
	EXPECT_EQ(transition(IBV_QPS_ERR).mask, IBV_QP_STATE);
}

TEST(CxxQpState, AttributesFilled)
{
	ibv_gid gid{};
	gid.raw[15] = 0x2a;
	Transition t = transition(IBV_QPT_RC, Rtr::roce(gid, 1, 0x123, 0x456, 1));
	EXPECT_EQ(t.attr.qp_state, IBV_QPS_RTR);
	EXPECT_EQ(t.attr.dest_qp_num, 0x123u);
	EXPECT_EQ(t.attr.rq_psn, 0x456u);
	EXPECT_EQ(t.attr.path_mtu, IBV_MTU_1024);
	EXPECT_EQ(t.attr.ah_attr.is_global, 1);
	EXPECT_EQ(t.attr.ah_attr.grh.dgid.raw[15], 0x2a);
	EXPECT_EQ(t.attr.ah_attr.grh.sgid_index, 1);
	EXPECT_EQ(t.attr.ah_attr.port_num, 1);
	EXPECT_EQ(t.attr.max_dest_rd_atomic, 1);
	EXPECT_EQ(t.attr.min_rnr_timer, 12);
	t = transition(IBV_QPT_RC, Rts(0x789));
	EXPECT_EQ(t.attr.qp_state, IBV_QPS_RTS);
	EXPECT_EQ(t.attr.sq_psn, 0x789u);
	EXPECT_EQ(t.attr.timeout, 14);
	EXPECT_EQ(t.attr.retry_cnt, 7);
	EXPECT_EQ(t.attr.rnr_retry, 7);
	EXPECT_EQ(t.attr.max_rd_atomic, 1);
	t = transition(IBV_QPT_RC, Init{1, 3, IBV_ACCESS_REMOTE_READ});
	EXPECT_EQ(t.attr.qp_state, IBV_QPS_INIT);
	EXPECT_EQ(t.attr.pkey_index, 3);
	EXPECT_EQ(t.attr.qp_access_flags, unsigned(IBV_ACCESS_REMOTE_READ));
}

// ---------------------------------------------------------------- extended CQ
// A fake ibv_cq_ex over a list of (wr_id, status); start/next/end as a
// provider implements them; counts the end_poll calls.
struct FakeCq {
	ibv_cq_ex cq{};
	std::vector<std::pair<uint64_t, ibv_wc_status>> wcs;
	size_t at = 0;
	int ends = 0, fail_at = -1;
	static FakeCq &of(ibv_cq_ex *c) { return *reinterpret_cast<FakeCq *>(c); }
	int load()
	{
		if (int(at) == fail_at)
			return EIO;
		if (at >= wcs.size())
			return ENOENT;
		cq.wr_id = wcs[at].first;
		cq.status = wcs[at].second;
		return 0;
	}
	FakeCq()
	{
		cq.start_poll = [](ibv_cq_ex *c, ibv_poll_cq_attr *) { return of(c).load(); };
		cq.next_poll = [](ibv_cq_ex *c) { of(c).at++; return of(c).load(); };
		cq.end_poll = [](ibv_cq_ex *c) { of(c).at++; of(c).ends++; };
		cq.read_opcode = [](ibv_cq_ex *) { return IBV_WC_RDMA_READ; };
		cq.read_byte_len = [](ibv_cq_ex *c) { return uint32_t(c->wr_id * 10); };
	}
};
static_assert(offsetof(FakeCq, cq) == 0);

TEST(CxxCqEx, RangeReadsEachCompletionAndEndsOnce)
{
	FakeCq f;
	f.wcs = {{1, IBV_WC_SUCCESS}, {2, IBV_WC_REM_ACCESS_ERR}, {3, IBV_WC_SUCCESS}};
	std::vector<uint64_t> ids;
	std::vector<uint32_t> lens;
	{
		CqEx::Polling p(&f.cq);
		for (const CqEx::Completion &c : p) {
			ids.push_back(c.wr_id());
			lens.push_back(c.byte_len());
			EXPECT_EQ(c.opcode(), IBV_WC_RDMA_READ);
			EXPECT_EQ(c.status() == IBV_WC_SUCCESS, c.wr_id() != 2);
		}
		EXPECT_EQ(p.error(), 0);
	}
	EXPECT_EQ(ids, (std::vector<uint64_t>{1, 2, 3}));
	EXPECT_EQ(lens, (std::vector<uint32_t>{10, 20, 30}));
	EXPECT_EQ(f.ends, 1);
}

TEST(CxxCqEx, EmptyCqNeverEndsAPoll)
{
	FakeCq f;
	{
		CqEx::Polling p(&f.cq);
		EXPECT_TRUE(p.begin() == p.end());
		EXPECT_EQ(p.error(), 0);
	}
	EXPECT_EQ(f.ends, 0);
}

TEST(CxxCqEx, ErrorEndsTheRangeAndIsReported)
{
	FakeCq f;
	f.wcs = {{1, IBV_WC_SUCCESS}, {2, IBV_WC_SUCCESS}};
	f.fail_at = 1;
	int seen = 0;
	{
		CqEx::Polling p(&f.cq);
		for (const CqEx::Completion &c : p)
			seen += c.wr_id() == 1;
		EXPECT_EQ(p.error(), EIO);
	}
	EXPECT_EQ(seen, 1);
	EXPECT_EQ(f.ends, 1);	// the poll had started
}

TEST(CxxCqEx, LeavingEarlyConsumesOnlyWhatWasReached)
{
	FakeCq f;
	f.wcs = {{1, IBV_WC_SUCCESS}, {2, IBV_WC_SUCCESS}, {3, IBV_WC_SUCCESS}};
	{
		CqEx::Polling p(&f.cq);
		for (const CqEx::Completion &c : p)
			if (c.wr_id() == 1)
				break;
	}
	EXPECT_EQ(f.at, 1u);	// the next poll starts at 2
	EXPECT_EQ(f.ends, 1);
}

// ---------------------------------------------------------------- events ack
// The library's ack only counts (under the object's mutex), so fake
// objects show whether and how often the RAII events acked.
TEST(CxxEvents, CqEventAcksOnceWhenItGoes)
{
	ibv_cq cq{};
	pthread_mutex_init(&cq.mutex, nullptr);
	pthread_cond_init(&cq.cond, nullptr);
	{
		CqEvent a(&cq, nullptr);
		CqEvent b = std::move(a);	// the moved-from one acks nothing
		EXPECT_EQ(cq.comp_events_completed, 0u);
	}
	EXPECT_EQ(cq.comp_events_completed, 1u);
	{
		CqEvent a(&cq, nullptr), b(&cq, nullptr);
		a = std::move(b);	// a's own event is acked now
		EXPECT_EQ(cq.comp_events_completed, 2u);
	}
	EXPECT_EQ(cq.comp_events_completed, 3u);
}

TEST(CxxEvents, AsyncEventAcksItsObject)
{
	ibv_qp qp{};
	pthread_mutex_init(&qp.mutex, nullptr);
	pthread_cond_init(&qp.cond, nullptr);
	ibv_async_event ev{};
	ev.event_type = IBV_EVENT_QP_LAST_WQE_REACHED;
	ev.element.qp = &qp;
	{
		AsyncEvent e(ev);
		EXPECT_EQ(e.type(), IBV_EVENT_QP_LAST_WQE_REACHED);
		EXPECT_EQ(e.qp(), &qp);
		AsyncEvent moved = std::move(e);
		EXPECT_EQ(qp.events_completed, 0u);
	}
	EXPECT_EQ(qp.events_completed, 1u);
}

// ---------------------------------------------------------------- handles
int destroyed;
int count_destroy(ibv_pd *)
{
	destroyed++;
	return 0;
}

TEST(CxxHandle, BorrowedIsNeverDestroyed)
{
	using PdLike = detail::Handle<ibv_pd, count_destroy>;
	ibv_pd pd{};
	destroyed = 0;
	{
		PdLike owned(&pd);
		PdLike borrowed(&pd, borrow);
		PdLike moved = std::move(borrowed);
		EXPECT_EQ(moved.get(), &pd);
	}
	EXPECT_EQ(destroyed, 1);
}

TEST(CxxHandle, MrRemoteAndSge)
{
	alignas(8) char buf[64];
	ibv_mr mr{};
	mr.addr = buf;
	mr.length = sizeof buf;
	mr.lkey = 5;
	mr.rkey = 6;
	Mr m(&mr, borrow);
	Remote r = m.remote(16);
	EXPECT_EQ(r.addr, reinterpret_cast<uintptr_t>(buf) + 16);
	EXPECT_EQ(r.rkey, 6u);
	ibv_sge s = m.sge(8, 8);
	EXPECT_EQ(s.addr, reinterpret_cast<uintptr_t>(buf) + 8);
	EXPECT_EQ(s.lkey, 5u);
}

TEST(CxxRdmacm, ConnParamCarriesPrivateData)
{
	const uint32_t offer[3] = {1, 2, 3};
	cm::ConnParam p{std::as_bytes(std::span(offer))};
	rdma_conn_param c = p.c();
	EXPECT_EQ(c.private_data, offer);
	EXPECT_EQ(c.private_data_len, sizeof offer);
	EXPECT_EQ(c.responder_resources, 1);
	EXPECT_EQ(c.initiator_depth, 1);
	EXPECT_EQ(c.rnr_retry_count, 7);
}

} // namespace
