// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include "kern_attr.h"

TEST(KernAttr, QpDestRoundTrip)
{
	ibv_ah_attr a{};
	for (int i = 0; i < 16; i++)
		a.grh.dgid.raw[i] = static_cast<uint8_t>(i + 1);
	a.grh.flow_label = 0xabcde;
	a.grh.sgid_index = 3;
	a.grh.hop_limit = 64;
	a.grh.traffic_class = 7;
	a.dlid = 0x1234;
	a.sl = 5;
	a.src_path_bits = 1;
	a.static_rate = 2;
	a.is_global = 1;
	a.port_num = 1;
	ovb_qp_dest k{};
	ovb::encode_qp_dest(a, k);
	EXPECT_EQ(k.dgid[0], 1);
	EXPECT_EQ(k.dgid[15], 16);
	EXPECT_EQ(k.sgid_index, 3);
	EXPECT_EQ(k.is_global, 1);
	ibv_ah_attr b{};
	ovb::decode_qp_dest(k, b);
	EXPECT_EQ(0, memcmp(&a.grh.dgid, &b.grh.dgid, 16));
	EXPECT_EQ(b.dlid, 0x1234);
	EXPECT_EQ(b.grh.hop_limit, 64);
	EXPECT_EQ(b.grh.flow_label, 0xabcdeu);
}

TEST(KernAttr, ModifyQpCarriesMaskAndPathOnlyWhenAsked)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = 0x11;
	a.rq_psn = 0x22;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.sgid_index = 1;
	a.ah_attr.port_num = 1;
	ovb_modify_qp_req k{};
	int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
		   IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	ovb::encode_modify_qp(a, mask, k);
	EXPECT_EQ(k.attr_mask, static_cast<uint32_t>(mask));
	EXPECT_EQ(k.qp_state, IBV_QPS_RTR);
	EXPECT_EQ(k.path_mtu, IBV_MTU_1024);
	EXPECT_EQ(k.dest_qp_num, 0x11u);
	EXPECT_EQ(k.dest.is_global, 1);
	EXPECT_EQ(k.dest.sgid_index, 1);
	EXPECT_EQ(k.alt_dest.port_num, 0);

	ovb_modify_qp_req k2{};
	a.ah_attr.port_num = 9;
	ovb::encode_modify_qp(a, IBV_QP_STATE, k2);
	EXPECT_EQ(k2.dest.port_num, 0) << "no AV without IBV_QP_AV";
}

TEST(KernAttr, QueryQpCaps)
{
	ovb_query_qp_resp r{};
	r.max_send_wr = 63;
	r.max_inline_data = 256;
	r.qp_state = IBV_QPS_RTS;
	r.sq_sig_all = 1;
	ibv_qp_attr a{};
	ibv_qp_init_attr init{};
	ovb::decode_query_qp(r, a, init);
	EXPECT_EQ(a.cap.max_send_wr, 63u);
	EXPECT_EQ(init.cap.max_inline_data, 256u);
	EXPECT_EQ(a.qp_state, IBV_QPS_RTS);
	EXPECT_EQ(init.sq_sig_all, 1);
}
