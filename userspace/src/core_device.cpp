// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Device and port queries: QUERY_DEVICE, EX_QUERY_DEVICE, QUERY_PORT.
#include <cerrno>
#include <cstring>

#include "cmd/execute.h"
#include "cmd/methods.h"
#include "cmd/transport.h"
#include "context.h"
#include "core.h"
#include "device.h"

namespace ovb {

namespace {

using cmd::Framing;

void decode_base(const ovb_query_device_resp &r, ibv_device_attr &a)
{
	a.node_guid = r.node_guid;
	a.sys_image_guid = r.sys_image_guid;
	a.max_mr_size = r.max_mr_size;
	a.page_size_cap = r.page_size_cap;
	a.vendor_id = r.vendor_id;
	a.vendor_part_id = r.vendor_part_id;
	a.hw_ver = r.hw_ver;
	a.max_qp = static_cast<int>(r.max_qp);
	a.max_qp_wr = static_cast<int>(r.max_qp_wr);
	a.device_cap_flags = r.device_cap_flags;
	a.max_sge = static_cast<int>(r.max_sge);
	a.max_sge_rd = static_cast<int>(r.max_sge_rd);
	a.max_cq = static_cast<int>(r.max_cq);
	a.max_cqe = static_cast<int>(r.max_cqe);
	a.max_mr = static_cast<int>(r.max_mr);
	a.max_pd = static_cast<int>(r.max_pd);
	a.max_qp_rd_atom = static_cast<int>(r.max_qp_rd_atom);
	a.max_ee_rd_atom = static_cast<int>(r.max_ee_rd_atom);
	a.max_res_rd_atom = static_cast<int>(r.max_res_rd_atom);
	a.max_qp_init_rd_atom = static_cast<int>(r.max_qp_init_rd_atom);
	a.max_ee_init_rd_atom = static_cast<int>(r.max_ee_init_rd_atom);
	a.atomic_cap = static_cast<ibv_atomic_cap>(r.atomic_cap);
	a.max_ee = static_cast<int>(r.max_ee);
	a.max_rdd = static_cast<int>(r.max_rdd);
	a.max_mw = static_cast<int>(r.max_mw);
	a.max_raw_ipv6_qp = static_cast<int>(r.max_raw_ipv6_qp);
	a.max_raw_ethy_qp = static_cast<int>(r.max_raw_ethy_qp);
	a.max_mcast_grp = static_cast<int>(r.max_mcast_grp);
	a.max_mcast_qp_attach = static_cast<int>(r.max_mcast_qp_attach);
	a.max_total_mcast_qp_attach = static_cast<int>(r.max_total_mcast_qp_attach);
	a.max_ah = static_cast<int>(r.max_ah);
	a.max_fmr = static_cast<int>(r.max_fmr);
	a.max_map_per_fmr = static_cast<int>(r.max_map_per_fmr);
	a.max_srq = static_cast<int>(r.max_srq);
	a.max_srq_wr = static_cast<int>(r.max_srq_wr);
	a.max_srq_sge = static_cast<int>(r.max_srq_sge);
	a.max_pkeys = r.max_pkeys;
	a.local_ca_ack_delay = r.local_ca_ack_delay;
	a.phys_port_cnt = r.phys_port_cnt;
}

void decode_ex(const ovb_ex_query_device_resp &r, ibv_device_attr_ex &a)
{
	a.odp_caps.general_caps = r.odp_caps.general_caps;
	a.odp_caps.per_transport_caps.rc_odp_caps = r.odp_caps.per_transport_caps.rc_odp_caps;
	a.odp_caps.per_transport_caps.uc_odp_caps = r.odp_caps.per_transport_caps.uc_odp_caps;
	a.odp_caps.per_transport_caps.ud_odp_caps = r.odp_caps.per_transport_caps.ud_odp_caps;
	a.completion_timestamp_mask = r.timestamp_mask;
	a.hca_core_clock = r.hca_core_clock;
	a.device_cap_flags_ex = r.device_cap_flags_ex;
	a.rss_caps.supported_qpts = r.rss_caps.supported_qpts;
	a.rss_caps.max_rwq_indirection_tables = r.rss_caps.max_rwq_indirection_tables;
	a.rss_caps.max_rwq_indirection_table_size = r.rss_caps.max_rwq_indirection_table_size;
	a.max_wq_type_rq = r.max_wq_type_rq;
	a.raw_packet_caps = r.raw_packet_caps;
	a.tm_caps.max_rndv_hdr_size = r.tm_caps.max_rndv_hdr_size;
	a.tm_caps.max_num_tags = r.tm_caps.max_num_tags;
	a.tm_caps.flags = r.tm_caps.flags;
	a.tm_caps.max_ops = r.tm_caps.max_ops;
	a.tm_caps.max_sge = r.tm_caps.max_sge;
	a.cq_mod_caps.max_cq_count = r.cq_moderation_caps.max_cq_moderation_count;
	a.cq_mod_caps.max_cq_period = r.cq_moderation_caps.max_cq_moderation_period;
	a.max_dm_size = r.max_dm_size;
	a.xrc_odp_caps = r.xrc_odp_caps;
}

} // namespace

int core_query_device_any(ibv_context *ctx, ibv_device_attr_ex *attr,
			  size_t attr_size, ovb_ex_query_device_resp &resp,
			  const ovb_udata *ud)
{
	ibv_device_attr_ex full{};
	int rc = EOPNOTSUPP;

	resp = {};
	if (attr_size > sizeof(ibv_device_attr)) {
		ovb_ex_query_device_req req{};
		rc = cmd::execute(ctx,
				  cmd::spec<OVB_EX_CMD_QUERY_DEVICE, Framing::extended>(),
				  req, &resp, ud);
		if (rc == 0) {
			decode_base(resp.base, full.orig_attr);
			decode_ex(resp, full);
		} else if (rc != EOPNOTSUPP && rc != ENOSYS) {
			return rc;
		}
	}
	if (rc) {
		ovb_query_device_req req{};
		resp = {};
		rc = cmd::execute(ctx, cmd::spec<OVB_CMD_QUERY_DEVICE>(),
				  req, &resp.base);
		if (rc)
			return rc;
		decode_base(resp.base, full.orig_attr);
		resp.response_length = sizeof(resp.base);
	}
	const KernelDevice &k = priv(ctx)->device->kernel();
	full.phys_port_cnt_ex = k.num_ports ? k.num_ports
					    : full.orig_attr.phys_port_cnt;
	std::memcpy(attr, &full, attr_size < sizeof(full) ? attr_size : sizeof(full));
	return 0;
}

int core_query_device_ex(ibv_context *ctx, ibv_device_attr_ex *attr,
			 size_t attr_size, uint64_t *raw_fw_ver)
{
	ovb_ex_query_device_resp resp;
	int rc = core_query_device_any(ctx, attr, attr_size, resp);
	if (!rc && raw_fw_ver)
		*raw_fw_ver = resp.base.fw_ver;
	return rc;
}

int core_query_port(ibv_context *ctx, uint8_t port, ibv_port_attr *attr,
		    size_t attr_size)
{
	// By ioctl (which adds port_cap_flags2) unless the kernel lacks it.
	ioctl::QueryPort q{};
	q.port = port;
	ovb_query_port_resp r{};
	uint16_t cap_flags2 = 0;
	int rc;
	static_assert(sizeof(q.resp.legacy_resp) == sizeof(r));
	if (cmd::try_ioctl<ioctl::kQueryPortM>(ctx, q, rc)) {
		if (rc)
			return rc;
		std::memcpy(&r, &q.resp.legacy_resp, sizeof(r));
		cap_flags2 = q.resp.port_cap_flags2;
	} else {
		ovb_query_port_req req{};
		req.port_num = port;
		rc = cmd::execute(ctx, cmd::spec<OVB_CMD_QUERY_PORT>(), req, &r);
		if (rc)
			return rc;
	}
	ibv_port_attr a{};
	a.port_cap_flags2 = cap_flags2;
	a.state = static_cast<ibv_port_state>(r.state);
	a.max_mtu = static_cast<ibv_mtu>(r.max_mtu);
	a.active_mtu = static_cast<ibv_mtu>(r.active_mtu);
	a.gid_tbl_len = static_cast<int>(r.gid_tbl_len);
	a.port_cap_flags = r.port_cap_flags;
	a.max_msg_sz = r.max_msg_sz;
	a.bad_pkey_cntr = r.bad_pkey_cntr;
	a.qkey_viol_cntr = r.qkey_viol_cntr;
	a.pkey_tbl_len = r.pkey_tbl_len;
	a.lid = r.lid;
	a.sm_lid = r.sm_lid;
	a.lmc = r.lmc;
	a.max_vl_num = r.max_vl_num;
	a.sm_sl = r.sm_sl;
	a.subnet_timeout = r.subnet_timeout;
	a.init_type_reply = r.init_type_reply;
	a.active_width = r.active_width;
	a.active_speed = r.active_speed;
	a.phys_state = r.phys_state;
	a.link_layer = r.link_layer;
	a.flags = r.flags;
	std::memcpy(attr, &a, attr_size < sizeof(a) ? attr_size : sizeof(a));
	return 0;
}

} // namespace ovb
