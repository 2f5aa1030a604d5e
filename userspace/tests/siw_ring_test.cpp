// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The siw provider's ring logic on plain memory standing in for the
// kernel's mappings: SQE and RQE building, the VALID ownership protocol on
// all three rings, the doorbell rule, CQE to ibv_wc, the notify word.
// Each test plays the kernel's part by hand (clearing or setting flags).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "siw.h"

using namespace siw;

namespace {

template <typename Elem>
struct FakeRing {
	explicit FakeRing(uint32_t n) : mem(n) { ring.attach(mem.data(), n); }
	std::vector<Elem> mem;
	Ring<Elem> ring;
};

ibv_send_wr send_wr(uint64_t id, ibv_sge *sge, int n, ibv_wr_opcode op = IBV_WR_SEND)
{
	ibv_send_wr wr{};
	wr.wr_id = id;
	wr.opcode = op;
	wr.sg_list = sge;
	wr.num_sge = n;
	return wr;
}

} // namespace

TEST(SiwAbi, KernelLayout)
{
	EXPECT_EQ(sizeof(ovb_siw_sqe), 120u);
	EXPECT_EQ(sizeof(ovb_siw_rqe), 112u);
	EXPECT_EQ(sizeof(ovb_siw_cqe), 32u);
	EXPECT_EQ(offsetof(ovb_siw_sqe, sge), 24u);
	EXPECT_EQ(OVB_SIW_MAX_INLINE, 80u);
}

TEST(SiwSend, BuildsSendWithSgesAndFlags)
{
	ibv_sge sge[2] = {{0x1000, 100, 7}, {0x2000, 28, 8}};
	ibv_send_wr wr = send_wr(42, sge, 2);
	wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_SOLICITED;
	ovb_siw_sqe sqe{};
	uint16_t flags = 0;
	ASSERT_EQ(build_sqe(wr, false, sqe, flags), 0);
	EXPECT_EQ(sqe.id, 42u);
	EXPECT_EQ(sqe.opcode, OVB_SIW_OP_SEND);
	EXPECT_EQ(sqe.num_sge, 2);
	EXPECT_EQ(sqe.sge[1].laddr, 0x2000u);
	EXPECT_EQ(sqe.sge[1].length, 28u);
	EXPECT_EQ(sqe.sge[1].lkey, 8u);
	EXPECT_EQ(flags, OVB_SIW_WQE_VALID | OVB_SIW_WQE_SIGNALLED |
				 OVB_SIW_WQE_SOLICITED);
	EXPECT_EQ(sqe.flags, 0) << "build_sqe must not publish";
}

TEST(SiwSend, SigAllSignalsEveryWr)
{
	ibv_sge sge{0x1000, 1, 1};
	ibv_send_wr wr = send_wr(1, &sge, 1);
	ovb_siw_sqe sqe{};
	uint16_t flags = 0;
	ASSERT_EQ(build_sqe(wr, true, sqe, flags), 0);
	EXPECT_TRUE(flags & OVB_SIW_WQE_SIGNALLED);
}

TEST(SiwSend, RdmaOpcodesCarryRemoteAddress)
{
	ibv_sge sge{0x1000, 64, 3};
	ibv_send_wr wr = send_wr(5, &sge, 1, IBV_WR_RDMA_READ);
	wr.wr.rdma.remote_addr = 0xabc000;
	wr.wr.rdma.rkey = 0x77;
	ovb_siw_sqe sqe{};
	uint16_t flags;
	ASSERT_EQ(build_sqe(wr, false, sqe, flags), 0);
	EXPECT_EQ(sqe.opcode, OVB_SIW_OP_READ);
	EXPECT_EQ(sqe.raddr, 0xabc000u);
	EXPECT_EQ(sqe.rkey, 0x77u);
	wr.opcode = IBV_WR_RDMA_WRITE;
	ASSERT_EQ(build_sqe(wr, false, sqe, flags), 0);
	EXPECT_EQ(sqe.opcode, OVB_SIW_OP_WRITE);
}

TEST(SiwSend, SendWithInvalidateCarriesTheRkeyToInvalidate)
{
	ibv_sge sge{0x1000, 8, 3};
	ibv_send_wr wr = send_wr(5, &sge, 1, IBV_WR_SEND_WITH_INV);
	wr.invalidate_rkey = 0x1234;
	ovb_siw_sqe sqe{};
	uint16_t flags;
	ASSERT_EQ(build_sqe(wr, false, sqe, flags), 0);
	EXPECT_EQ(sqe.opcode, OVB_SIW_OP_SEND_REMOTE_INV);
	EXPECT_EQ(sqe.rkey, 0x1234u);
}

TEST(SiwSend, RefusesWhatIwarpLacks)
{
	ibv_sge sge{0x1000, 8, 3};
	ovb_siw_sqe sqe{};
	uint16_t flags;
	for (ibv_wr_opcode op : {IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_SEND_WITH_IMM,
				 IBV_WR_ATOMIC_CMP_AND_SWP,
				 IBV_WR_ATOMIC_FETCH_AND_ADD, IBV_WR_LOCAL_INV,
				 IBV_WR_BIND_MW, IBV_WR_TSO, IBV_WR_DRIVER1,
				 static_cast<ibv_wr_opcode>(200)}) {
		ibv_send_wr wr = send_wr(1, &sge, 1, op);
		EXPECT_EQ(build_sqe(wr, false, sqe, flags), EINVAL) << op;
	}
}

TEST(SiwSend, RefusesTooManySges)
{
	std::vector<ibv_sge> sge(OVB_SIW_MAX_SGE + 1, ibv_sge{0x1000, 1, 1});
	ibv_send_wr wr = send_wr(1, sge.data(), OVB_SIW_MAX_SGE + 1);
	ovb_siw_sqe sqe{};
	uint16_t flags;
	EXPECT_EQ(build_sqe(wr, false, sqe, flags), EINVAL);
	wr.num_sge = OVB_SIW_MAX_SGE;
	EXPECT_EQ(build_sqe(wr, false, sqe, flags), 0);
}

TEST(SiwSend, InlineCopiesDataBehindTheFirstSge)
{
	char a[] = "hello ", b[] = "world";
	ibv_sge sge[2] = {{reinterpret_cast<uintptr_t>(a), 6, 0},
			  {reinterpret_cast<uintptr_t>(b), 5, 0}};
	ibv_send_wr wr = send_wr(9, sge, 2);
	wr.send_flags = IBV_SEND_INLINE;
	ovb_siw_sqe sqe{};
	uint16_t flags;
	ASSERT_EQ(build_sqe(wr, false, sqe, flags), 0);
	EXPECT_TRUE(flags & OVB_SIW_WQE_INLINE);
	EXPECT_EQ(sqe.sge[0].length, 11u);
	EXPECT_EQ(std::memcmp(&sqe.sge[1], "hello world", 11), 0);
}

TEST(SiwSend, InlineLimitIsTheElementsRoom)
{
	std::vector<char> data(OVB_SIW_MAX_INLINE + 1, 'x');
	ibv_sge sge{reinterpret_cast<uintptr_t>(data.data()),
		    static_cast<uint32_t>(OVB_SIW_MAX_INLINE), 0};
	ibv_send_wr wr = send_wr(1, &sge, 1);
	wr.send_flags = IBV_SEND_INLINE;
	ovb_siw_sqe sqe{};
	uint16_t flags;
	EXPECT_EQ(build_sqe(wr, false, sqe, flags), 0);
	sge.length++;
	EXPECT_EQ(build_sqe(wr, false, sqe, flags), EINVAL);
}

TEST(SiwRing, SendRingPublishesValidAndStopsAtKernelOwned)
{
	FakeRing<ovb_siw_sqe> f(3);
	ibv_sge sge{0x1000, 4, 1};
	ibv_send_wr w[4];
	for (int i = 0; i < 4; i++) {
		w[i] = send_wr(100 + i, &sge, 1);
		w[i].next = i < 3 ? &w[i + 1] : nullptr;
	}
	uint32_t put = 0, posted = 0;
	ibv_send_wr *bad = nullptr;
	// Three slots, four WRs: the fourth finds slot 0 still the kernel's.
	EXPECT_EQ(push_sends(f.ring, put, false, &w[0], &bad, posted), ENOMEM);
	EXPECT_EQ(bad, &w[3]);
	EXPECT_EQ(posted, 3u);
	EXPECT_EQ(put, 0u);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(f.mem[i].flags, OVB_SIW_WQE_VALID);
		EXPECT_EQ(f.mem[i].id, 100u + i);
	}
	// The kernel takes slot 0: the same WR now goes in there.
	f.mem[0].flags = 0;
	bad = nullptr;
	EXPECT_EQ(push_sends(f.ring, put, false, &w[3], &bad, posted), 0);
	EXPECT_EQ(bad, nullptr);
	EXPECT_EQ(f.mem[0].id, 103u);
	EXPECT_EQ(put, 1u);
}

TEST(SiwRing, RefusedWrLeavesItsSlotUnpublished)
{
	FakeRing<ovb_siw_sqe> f(4);
	ibv_sge sge{0x1000, 4, 1};
	ibv_send_wr ok = send_wr(1, &sge, 1);
	ibv_send_wr no = send_wr(2, &sge, 1, IBV_WR_ATOMIC_FETCH_AND_ADD);
	ok.next = &no;
	uint32_t put = 0, posted;
	ibv_send_wr *bad = nullptr;
	EXPECT_EQ(push_sends(f.ring, put, false, &ok, &bad, posted), EINVAL);
	EXPECT_EQ(bad, &no);
	EXPECT_EQ(posted, 1u);
	EXPECT_EQ(put, 1u);
	EXPECT_EQ(f.mem[1].flags, 0);
}

TEST(SiwRing, DoorbellRule)
{
	EXPECT_FALSE(sq_needs_doorbell(0, 8, false));
	EXPECT_TRUE(sq_needs_doorbell(1, 8, false));	// kernel idle
	EXPECT_FALSE(sq_needs_doorbell(1, 8, true));	// kernel still busy
	EXPECT_TRUE(sq_needs_doorbell(8, 8, true));	// whole ring rewritten
}

TEST(SiwRing, RingIndexWraps)
{
	FakeRing<ovb_siw_rqe> f(3);
	EXPECT_EQ(f.ring.next(2), 0u);
	EXPECT_EQ(f.ring.prev(0), 2u);
	EXPECT_EQ(f.ring.next(0), 1u);
}

TEST(SiwRecv, RqeCopiesSgesAndPublishes)
{
	FakeRing<ovb_siw_rqe> f(2);
	ibv_sge sge[2] = {{0x1000, 10, 1}, {0x2000, 20, 2}};
	ibv_recv_wr wr{};
	wr.wr_id = 7;
	wr.sg_list = sge;
	wr.num_sge = 2;
	uint32_t put = 0;
	ibv_recv_wr *bad = nullptr;
	ASSERT_EQ(push_recvs(f.ring, put, &wr, &bad), 0);
	EXPECT_EQ(f.mem[0].flags, OVB_SIW_WQE_VALID);
	EXPECT_EQ(f.mem[0].id, 7u);
	EXPECT_EQ(f.mem[0].num_sge, 2);
	EXPECT_EQ(f.mem[0].sge[1].length, 20u);
	EXPECT_EQ(put, 1u);
}

TEST(SiwRecv, RefusesNoSgeAndTooMany)
{
	std::vector<ibv_sge> sge(OVB_SIW_MAX_SGE + 1, ibv_sge{0x1000, 1, 1});
	ibv_recv_wr wr{};
	wr.sg_list = sge.data();
	ovb_siw_rqe rqe{};
	wr.num_sge = 0;
	EXPECT_EQ(build_rqe(wr, rqe), EINVAL);
	wr.num_sge = OVB_SIW_MAX_SGE + 1;
	EXPECT_EQ(build_rqe(wr, rqe), EINVAL);
	wr.num_sge = OVB_SIW_MAX_SGE;
	EXPECT_EQ(build_rqe(wr, rqe), 0);
}

TEST(SiwRecv, FullRingRefusesWithEnomem)
{
	FakeRing<ovb_siw_rqe> f(1);
	ibv_sge sge{0x1000, 1, 1};
	ibv_recv_wr a{}, b{};
	a.sg_list = b.sg_list = &sge;
	a.num_sge = b.num_sge = 1;
	a.next = &b;
	uint32_t put = 0;
	ibv_recv_wr *bad = nullptr;
	EXPECT_EQ(push_recvs(f.ring, put, &a, &bad), ENOMEM);
	EXPECT_EQ(bad, &b);
}

TEST(SiwCq, PollTakesValidEntriesInOrderAndHandsThemBack)
{
	FakeRing<ovb_siw_cqe> f(2);
	uint32_t get = 0;
	ibv_wc wc[4];
	EXPECT_EQ(poll_ring(f.ring, get, 4, wc), 0);
	// The kernel completes two: a receive and a failed read.
	f.mem[0] = ovb_siw_cqe{};
	f.mem[0].id = 11;
	f.mem[0].opcode = OVB_SIW_OP_RECEIVE;
	f.mem[0].bytes = 64;
	f.mem[0].qp_id = 5;
	f.mem[0].flags = OVB_SIW_WQE_VALID;
	f.mem[1] = ovb_siw_cqe{};
	f.mem[1].id = 12;
	f.mem[1].opcode = OVB_SIW_OP_READ;
	f.mem[1].status = OVB_SIW_WC_REM_ACCESS_ERR;
	f.mem[1].flags = OVB_SIW_WQE_VALID;
	EXPECT_EQ(poll_ring(f.ring, get, 1, wc), 1);
	EXPECT_EQ(wc[0].wr_id, 11u);
	EXPECT_EQ(wc[0].opcode, IBV_WC_RECV);
	EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS);
	EXPECT_EQ(wc[0].byte_len, 64u);
	EXPECT_EQ(wc[0].qp_num, 5u);
	EXPECT_EQ(f.mem[0].flags, 0) << "a polled CQE goes back to the kernel";
	EXPECT_EQ(poll_ring(f.ring, get, 4, wc), 1);
	EXPECT_EQ(wc[0].wr_id, 12u);
	EXPECT_EQ(wc[0].opcode, IBV_WC_RDMA_READ);
	EXPECT_EQ(wc[0].status, IBV_WC_REM_ACCESS_ERR);
	EXPECT_EQ(get, 0u);
	EXPECT_EQ(poll_ring(f.ring, get, 4, wc), 0);
}

TEST(SiwCq, OpcodeAndStatusTables)
{
	struct {
		uint8_t siw;
		ibv_wc_opcode wc;
	} ops[] = {{OVB_SIW_OP_WRITE, IBV_WC_RDMA_WRITE},
		   {OVB_SIW_OP_READ_LOCAL_INV, IBV_WC_RDMA_READ},
		   {OVB_SIW_OP_SEND, IBV_WC_SEND},
		   {OVB_SIW_OP_SEND_REMOTE_INV, IBV_WC_SEND},
		   {OVB_SIW_OP_RECEIVE, IBV_WC_RECV}};
	for (auto &o : ops) {
		ovb_siw_cqe c{};
		c.opcode = o.siw;
		ibv_wc wc;
		cqe_to_wc(c, wc);
		EXPECT_EQ(wc.opcode, o.wc) << int(o.siw);
		EXPECT_EQ(wc.wc_flags, 0u);
	}
	ovb_siw_cqe c{};
	c.status = OVB_SIW_WC_WR_FLUSH_ERR;
	ibv_wc wc;
	cqe_to_wc(c, wc);
	EXPECT_EQ(wc.status, IBV_WC_WR_FLUSH_ERR);
	c.status = 999;
	cqe_to_wc(c, wc);
	EXPECT_EQ(wc.status, IBV_WC_GENERAL_ERR);
}

TEST(SiwCq, NotifyWord)
{
	EXPECT_EQ(notify_flags(true), uint32_t(OVB_SIW_NOTIFY_SOLICITED));
	EXPECT_EQ(notify_flags(false), uint32_t(OVB_SIW_NOTIFY_SOLICITED |
						OVB_SIW_NOTIFY_NEXT_COMPLETION));
}
