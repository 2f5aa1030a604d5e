// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Building rxe send WQEs from ibv_send_wr: layout, validation.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "rxe.h"

using namespace rxe;

namespace {

struct Fixture : ::testing::Test {
	Fixture() : room(512, 0)
	{
		qp.ex.qp_base.qp_type = IBV_QPT_RC;
		qp.max_send_sge = 4;
		qp.max_inline = 64;
	}
	ovb_rxe_send_wqe &wqe() { return *reinterpret_cast<ovb_rxe_send_wqe *>(room.data()); }
	Qp qp;
	std::vector<uint8_t> room;
};

} // namespace

TEST(RxeWqe, KernelLayout)
{
	EXPECT_EQ(sizeof(ovb_rxe_send_wr), 144u);
	EXPECT_EQ(offsetof(ovb_rxe_send_wqe, dma), 184u);
	EXPECT_EQ(sizeof(ovb_rxe_send_wqe), 208u);
	EXPECT_EQ(sizeof(ovb_rxe_recv_wqe), 40u);
	EXPECT_EQ(offsetof(ovb_rxe_send_wr, wr.ud.ah_num), 36u);
}

TEST_F(Fixture, SendCopiesSgesAndSumsLength)
{
	ibv_sge sge[2] = {{0x1000, 100, 7}, {0x2000, 28, 8}};
	ibv_send_wr wr{};
	wr.wr_id = 42;
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = htobe32(0x1234);
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = sge;
	wr.num_sge = 2;
	ASSERT_EQ(build_send_wqe(qp, wr, wqe(), room.size()), 0);
	EXPECT_EQ(wqe().wr.wr_id, 42u);
	EXPECT_EQ(wqe().wr.opcode, uint32_t(IBV_WR_SEND_WITH_IMM));
	EXPECT_EQ(wqe().wr.ex.imm_data, htobe32(0x1234));
	EXPECT_EQ(wqe().dma.length, 128u);
	EXPECT_EQ(wqe().dma.resid, 128u);
	EXPECT_EQ(wqe().dma.num_sge, 2u);
	EXPECT_EQ(wqe().dma.sge[1].addr, 0x2000u);
	EXPECT_EQ(wqe().dma.sge[1].lkey, 8u);
}

TEST_F(Fixture, InlineCopiesTheBytes)
{
	char data[] = "hello rxe";
	ibv_sge sge{reinterpret_cast<uintptr_t>(data), sizeof(data), 0};
	ibv_send_wr wr{};
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_INLINE;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ASSERT_EQ(build_send_wqe(qp, wr, wqe(), room.size()), 0);
	EXPECT_STREQ(reinterpret_cast<char *>(wqe().dma.inline_data), "hello rxe");
	EXPECT_EQ(wqe().dma.num_sge, 0u);
	EXPECT_EQ(wqe().dma.length, sizeof(data));
}

TEST_F(Fixture, RdmaAndAtomicSetIova)
{
	uint64_t dst;
	ibv_sge sge{reinterpret_cast<uintptr_t>(&dst), 8, 1};
	ibv_send_wr wr{};
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.atomic.remote_addr = 0x10000;
	wr.wr.atomic.compare_add = 5;
	wr.wr.atomic.rkey = 9;
	ASSERT_EQ(build_send_wqe(qp, wr, wqe(), room.size()), 0);
	EXPECT_EQ(wqe().iova, 0x10000u);
	EXPECT_EQ(wqe().wr.wr.atomic.compare_add, 5u);
	wr.wr.atomic.remote_addr = 0x10004;
	EXPECT_EQ(build_send_wqe(qp, wr, wqe(), room.size()), EINVAL) << "unaligned";
	wr.wr.atomic.remote_addr = 0x10000;
	sge.length = 4;
	EXPECT_EQ(build_send_wqe(qp, wr, wqe(), room.size()), EINVAL) << "short";

	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.wr.rdma.remote_addr = 0x5000;
	wr.wr.rdma.rkey = 3;
	ASSERT_EQ(build_send_wqe(qp, wr, wqe(), room.size()), 0);
	EXPECT_EQ(wqe().iova, 0x5000u);
	EXPECT_EQ(wqe().wr.wr.rdma.rkey, 3u);
}

TEST_F(Fixture, LimitsAreEnforced)
{
	ibv_sge sge[5] = {};
	ibv_send_wr wr{};
	wr.opcode = IBV_WR_SEND;
	wr.sg_list = sge;
	wr.num_sge = 5;
	EXPECT_EQ(build_send_wqe(qp, wr, wqe(), room.size()), EINVAL);
	char big[100] = {};
	ibv_sge one{reinterpret_cast<uintptr_t>(big), sizeof(big), 0};
	wr.sg_list = &one;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_INLINE;
	EXPECT_EQ(build_send_wqe(qp, wr, wqe(), room.size()), EINVAL);
	wr.send_flags = 0;
	EXPECT_EQ(build_send_wqe(qp, wr, wqe(), 208), EINVAL) << "no room for the sge";
}

TEST_F(Fixture, UdUsesTheKernelsAhNumber)
{
	qp.ex.qp_base.qp_type = IBV_QPT_UD;
	Ah ah{};
	ah.ah_num = 17;
	ibv_send_wr wr{};
	wr.opcode = IBV_WR_SEND;
	wr.wr.ud.ah = &ah.ibv;
	wr.wr.ud.remote_qpn = 0x99;
	wr.wr.ud.remote_qkey = 0x11111111;
	ASSERT_EQ(build_send_wqe(qp, wr, wqe(), room.size()), 0);
	EXPECT_EQ(wqe().wr.wr.ud.ah_num, 17u);
	EXPECT_EQ(wqe().wr.wr.ud.remote_qpn, 0x99u);
	EXPECT_EQ(wqe().wr.wr.ud.remote_qkey, 0x11111111u);
}
