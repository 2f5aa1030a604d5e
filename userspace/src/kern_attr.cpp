// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "kern_attr.h"

#include <cstring>

namespace ovb {

void encode_ah_attr(const ibv_ah_attr &a, ovb_ah_attr &k)
{
	std::memcpy(k.grh.dgid, a.grh.dgid.raw, sizeof(k.grh.dgid));
	k.grh.flow_label = a.grh.flow_label;
	k.grh.sgid_index = a.grh.sgid_index;
	k.grh.hop_limit = a.grh.hop_limit;
	k.grh.traffic_class = a.grh.traffic_class;
	k.dlid = a.dlid;
	k.sl = a.sl;
	k.src_path_bits = a.src_path_bits;
	k.static_rate = a.static_rate;
	k.is_global = a.is_global;
	k.port_num = a.port_num;
}

void decode_ah_attr(const ovb_ah_attr &k, ibv_ah_attr &a)
{
	std::memcpy(a.grh.dgid.raw, k.grh.dgid, sizeof(k.grh.dgid));
	a.grh.flow_label = k.grh.flow_label;
	a.grh.sgid_index = k.grh.sgid_index;
	a.grh.hop_limit = k.grh.hop_limit;
	a.grh.traffic_class = k.grh.traffic_class;
	a.dlid = k.dlid;
	a.sl = k.sl;
	a.src_path_bits = k.src_path_bits;
	a.static_rate = k.static_rate;
	a.is_global = k.is_global;
	a.port_num = k.port_num;
}

void encode_qp_dest(const ibv_ah_attr &a, ovb_qp_dest &k)
{
	std::memcpy(k.dgid, a.grh.dgid.raw, sizeof(k.dgid));
	k.flow_label = a.grh.flow_label;
	k.dlid = a.dlid;
	k.sgid_index = a.grh.sgid_index;
	k.hop_limit = a.grh.hop_limit;
	k.traffic_class = a.grh.traffic_class;
	k.sl = a.sl;
	k.src_path_bits = a.src_path_bits;
	k.static_rate = a.static_rate;
	k.is_global = a.is_global;
	k.port_num = a.port_num;
}

void decode_qp_dest(const ovb_qp_dest &k, ibv_ah_attr &a)
{
	std::memcpy(a.grh.dgid.raw, k.dgid, sizeof(k.dgid));
	a.grh.flow_label = k.flow_label;
	a.dlid = k.dlid;
	a.grh.sgid_index = k.sgid_index;
	a.grh.hop_limit = k.hop_limit;
	a.grh.traffic_class = k.traffic_class;
	a.sl = k.sl;
	a.src_path_bits = k.src_path_bits;
	a.static_rate = k.static_rate;
	a.is_global = k.is_global;
	a.port_num = k.port_num;
}

void encode_modify_qp(const ibv_qp_attr &a, int mask, ovb_modify_qp_req &k)
{
	k.attr_mask = static_cast<uint32_t>(mask);
	k.qkey = a.qkey;
	k.rq_psn = a.rq_psn;
	k.sq_psn = a.sq_psn;
	k.dest_qp_num = a.dest_qp_num;
	k.qp_access_flags = static_cast<uint32_t>(a.qp_access_flags);
	k.pkey_index = a.pkey_index;
	k.alt_pkey_index = a.alt_pkey_index;
	k.qp_state = static_cast<uint8_t>(a.qp_state);
	k.cur_qp_state = static_cast<uint8_t>(a.cur_qp_state);
	k.path_mtu = static_cast<uint8_t>(a.path_mtu);
	k.path_mig_state = static_cast<uint8_t>(a.path_mig_state);
	k.en_sqd_async_notify = a.en_sqd_async_notify;
	k.max_rd_atomic = a.max_rd_atomic;
	k.max_dest_rd_atomic = a.max_dest_rd_atomic;
	k.min_rnr_timer = a.min_rnr_timer;
	k.port_num = a.port_num;
	k.timeout = a.timeout;
	k.retry_cnt = a.retry_cnt;
	k.rnr_retry = a.rnr_retry;
	k.alt_port_num = a.alt_port_num;
	k.alt_timeout = a.alt_timeout;
	if (mask & IBV_QP_AV)
		encode_qp_dest(a.ah_attr, k.dest);
	if (mask & IBV_QP_ALT_PATH)
		encode_qp_dest(a.alt_ah_attr, k.alt_dest);
}

// The QP attributes that QUERY_QP's response and the kernel's struct
// ib_uverbs_qp_attr (ovb_qp_attr) both carry, under the same names.
template <class K>
static void decode_qp_common(const K &k, ibv_qp_attr &a)
{
	a.qkey = k.qkey;
	a.rq_psn = k.rq_psn;
	a.sq_psn = k.sq_psn;
	a.dest_qp_num = k.dest_qp_num;
	a.qp_access_flags = static_cast<unsigned>(k.qp_access_flags);
	a.pkey_index = k.pkey_index;
	a.alt_pkey_index = k.alt_pkey_index;
	a.qp_state = static_cast<ibv_qp_state>(k.qp_state);
	a.cur_qp_state = static_cast<ibv_qp_state>(k.cur_qp_state);
	a.path_mtu = static_cast<ibv_mtu>(k.path_mtu);
	a.path_mig_state = static_cast<ibv_mig_state>(k.path_mig_state);
	a.sq_draining = k.sq_draining;
	a.max_rd_atomic = k.max_rd_atomic;
	a.max_dest_rd_atomic = k.max_dest_rd_atomic;
	a.min_rnr_timer = k.min_rnr_timer;
	a.port_num = k.port_num;
	a.timeout = k.timeout;
	a.retry_cnt = k.retry_cnt;
	a.rnr_retry = k.rnr_retry;
	a.alt_port_num = k.alt_port_num;
	a.alt_timeout = k.alt_timeout;
	a.cap.max_send_wr = k.max_send_wr;
	a.cap.max_recv_wr = k.max_recv_wr;
	a.cap.max_send_sge = k.max_send_sge;
	a.cap.max_recv_sge = k.max_recv_sge;
	a.cap.max_inline_data = k.max_inline_data;
}

void decode_query_qp(const ovb_query_qp_resp &k, ibv_qp_attr &a,
		     ibv_qp_init_attr &init)
{
	decode_qp_common(k, a);
	decode_qp_dest(k.dest, a.ah_attr);
	decode_qp_dest(k.alt_dest, a.alt_ah_attr);
	init.cap = a.cap;
	init.sq_sig_all = k.sq_sig_all;
}

// Unlike QUERY_QP's response, this one carries full address vectors and
// en_sqd_async_notify.
void decode_qp_attr(const ovb_qp_attr &k, ibv_qp_attr &a)
{
	decode_qp_common(k, a);
	decode_ah_attr(k.ah_attr, a.ah_attr);
	decode_ah_attr(k.alt_ah_attr, a.alt_ah_attr);
	a.en_sqd_async_notify = k.en_sqd_async_notify;
}

} // namespace ovb
