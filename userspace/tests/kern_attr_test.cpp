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

// ibv_copy_qp_attr_from_kern: every member of the kernel's struct lands in
// its ibv_qp_attr member (distinct values, so a swap shows).
TEST(KernAttr, QpAttrFromKernelEveryMember)
{
	ovb_qp_attr k{};
	k.qp_state = IBV_QPS_RTS;
	k.cur_qp_state = IBV_QPS_RTR;
	k.path_mtu = IBV_MTU_1024;
	k.path_mig_state = IBV_MIG_ARMED;
	k.qkey = 101;
	k.rq_psn = 102;
	k.sq_psn = 103;
	k.dest_qp_num = 104;
	k.qp_access_flags = IBV_ACCESS_REMOTE_READ;
	k.ah_attr.dlid = 105;
	k.ah_attr.port_num = 1;
	k.alt_ah_attr.dlid = 106;
	k.alt_ah_attr.port_num = 2;
	k.max_send_wr = 107;
	k.max_recv_wr = 108;
	k.max_send_sge = 109;
	k.max_recv_sge = 110;
	k.max_inline_data = 111;
	k.pkey_index = 112;
	k.alt_pkey_index = 113;
	k.en_sqd_async_notify = 1;
	k.sq_draining = 1;
	k.max_rd_atomic = 114;
	k.max_dest_rd_atomic = 115;
	k.min_rnr_timer = 116;
	k.port_num = 3;
	k.timeout = 117;
	k.retry_cnt = 5;
	k.rnr_retry = 6;
	k.alt_port_num = 4;
	k.alt_timeout = 118;
	ibv_qp_attr a{};
	ovb::decode_qp_attr(k, a);
	EXPECT_EQ(a.qp_state, IBV_QPS_RTS);
	EXPECT_EQ(a.cur_qp_state, IBV_QPS_RTR);
	EXPECT_EQ(a.path_mtu, IBV_MTU_1024);
	EXPECT_EQ(a.path_mig_state, IBV_MIG_ARMED);
	EXPECT_EQ(a.qkey, 101u);
	EXPECT_EQ(a.rq_psn, 102u);
	EXPECT_EQ(a.sq_psn, 103u);
	EXPECT_EQ(a.dest_qp_num, 104u);
	EXPECT_EQ(a.qp_access_flags, unsigned(IBV_ACCESS_REMOTE_READ));
	EXPECT_EQ(a.ah_attr.dlid, 105);
	EXPECT_EQ(a.ah_attr.port_num, 1);
	EXPECT_EQ(a.alt_ah_attr.dlid, 106);
	EXPECT_EQ(a.alt_ah_attr.port_num, 2);
	EXPECT_EQ(a.cap.max_send_wr, 107u);
	EXPECT_EQ(a.cap.max_recv_wr, 108u);
	EXPECT_EQ(a.cap.max_send_sge, 109u);
	EXPECT_EQ(a.cap.max_recv_sge, 110u);
	EXPECT_EQ(a.cap.max_inline_data, 111u);
	EXPECT_EQ(a.pkey_index, 112);
	EXPECT_EQ(a.alt_pkey_index, 113);
	EXPECT_EQ(a.en_sqd_async_notify, 1);
	EXPECT_EQ(a.sq_draining, 1);
	EXPECT_EQ(a.max_rd_atomic, 114);
	EXPECT_EQ(a.max_dest_rd_atomic, 115);
	EXPECT_EQ(a.min_rnr_timer, 116);
	EXPECT_EQ(a.port_num, 3);
	EXPECT_EQ(a.timeout, 117);
	EXPECT_EQ(a.retry_cnt, 5);
	EXPECT_EQ(a.rnr_retry, 6);
	EXPECT_EQ(a.alt_port_num, 4);
	EXPECT_EQ(a.alt_timeout, 118);
}
