// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Every uverbs write() command the library knows, as one declarative table:
// id, framing (legacy or extended), the core request and response structs of
// uapi/openverbs/uverbs-abi.h.  The encoder and executor read nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <openverbs/uverbs-abi.h>

namespace ovb::cmd {

enum class Framing : uint8_t { legacy, extended };

struct Spec {
	uint32_t id;		// enum ovb_write_cmd / ovb_write_ex_cmd
	Framing framing;
	uint16_t req_size;	// core request (no header, no udata)
	uint16_t resp_size;	// core response, 0: the command has none
	const char *name;
};

#define OVB_CMD(id, req, resp) \
	Spec{OVB_CMD_##id, Framing::legacy, sizeof(req), resp, #id}
#define OVB_EX(id, req, resp) \
	Spec{OVB_EX_CMD_##id, Framing::extended, sizeof(req), resp, "EX_" #id}

inline constexpr Spec kCommands[] = {
	OVB_CMD(GET_CONTEXT, ovb_get_context_req, sizeof(ovb_get_context_resp)),
	OVB_CMD(QUERY_DEVICE, ovb_query_device_req, sizeof(ovb_query_device_resp)),
	OVB_CMD(QUERY_PORT, ovb_query_port_req, sizeof(ovb_query_port_resp)),
	OVB_CMD(ALLOC_PD, ovb_alloc_pd_req, sizeof(ovb_alloc_pd_resp)),
	OVB_CMD(DEALLOC_PD, ovb_dealloc_pd_req, 0),
	OVB_CMD(CREATE_AH, ovb_create_ah_req, sizeof(ovb_create_ah_resp)),
	OVB_CMD(DESTROY_AH, ovb_destroy_ah_req, 0),
	OVB_CMD(REG_MR, ovb_reg_mr_req, sizeof(ovb_reg_mr_resp)),
	OVB_CMD(REREG_MR, ovb_rereg_mr_req, sizeof(ovb_rereg_mr_resp)),
	OVB_CMD(DEREG_MR, ovb_dereg_mr_req, 0),
	OVB_CMD(ALLOC_MW, ovb_alloc_mw_req, sizeof(ovb_alloc_mw_resp)),
	OVB_CMD(DEALLOC_MW, ovb_dealloc_mw_req, 0),
	OVB_CMD(CREATE_COMP_CHANNEL, ovb_create_comp_channel_req,
		sizeof(ovb_create_comp_channel_resp)),
	OVB_CMD(CREATE_CQ, ovb_create_cq_req, sizeof(ovb_create_cq_resp)),
	OVB_CMD(RESIZE_CQ, ovb_resize_cq_req, sizeof(ovb_resize_cq_resp)),
	OVB_CMD(DESTROY_CQ, ovb_destroy_cq_req, sizeof(ovb_destroy_cq_resp)),
	OVB_CMD(POLL_CQ, ovb_poll_cq_req, sizeof(ovb_poll_cq_resp)),
	OVB_CMD(REQ_NOTIFY_CQ, ovb_req_notify_cq_req, 0),
	OVB_CMD(CREATE_QP, ovb_create_qp_req, sizeof(ovb_create_qp_resp)),
	OVB_CMD(QUERY_QP, ovb_query_qp_req, sizeof(ovb_query_qp_resp)),
	OVB_CMD(MODIFY_QP, ovb_modify_qp_req, 0),
	OVB_CMD(DESTROY_QP, ovb_destroy_qp_req, sizeof(ovb_destroy_qp_resp)),
	OVB_CMD(POST_SEND, ovb_post_send_req, sizeof(ovb_post_send_resp)),
	OVB_CMD(POST_RECV, ovb_post_recv_req, sizeof(ovb_post_recv_resp)),
	OVB_CMD(ATTACH_MCAST, ovb_attach_mcast_req, 0),
	OVB_CMD(DETACH_MCAST, ovb_detach_mcast_req, 0),
	OVB_CMD(CREATE_SRQ, ovb_create_srq_req, sizeof(ovb_create_srq_resp)),
	OVB_CMD(MODIFY_SRQ, ovb_modify_srq_req, 0),
	OVB_CMD(QUERY_SRQ, ovb_query_srq_req, sizeof(ovb_query_srq_resp)),
	OVB_CMD(DESTROY_SRQ, ovb_destroy_srq_req, sizeof(ovb_destroy_srq_resp)),
	OVB_CMD(POST_SRQ_RECV, ovb_post_srq_recv_req,
		sizeof(ovb_post_srq_recv_resp)),
	OVB_CMD(OPEN_XRCD, ovb_open_xrcd_req, sizeof(ovb_open_xrcd_resp)),
	OVB_CMD(CLOSE_XRCD, ovb_close_xrcd_req, 0),
	OVB_CMD(CREATE_XSRQ, ovb_create_xsrq_req, sizeof(ovb_create_srq_resp)),
	OVB_CMD(OPEN_QP, ovb_open_qp_req, sizeof(ovb_create_qp_resp)),
	OVB_EX(QUERY_DEVICE, ovb_ex_query_device_req,
	       sizeof(ovb_ex_query_device_resp)),
	OVB_EX(CREATE_CQ, ovb_ex_create_cq_req, sizeof(ovb_ex_create_cq_resp)),
	OVB_EX(CREATE_QP, ovb_ex_create_qp_req, sizeof(ovb_ex_create_qp_resp)),
	OVB_EX(MODIFY_QP, ovb_ex_modify_qp_req, sizeof(ovb_ex_modify_qp_resp)),
	OVB_EX(MODIFY_CQ, ovb_ex_modify_cq_req, 0),
	OVB_EX(CREATE_FLOW, ovb_create_flow_req, sizeof(ovb_create_flow_resp)),
	OVB_EX(DESTROY_FLOW, ovb_destroy_flow_req, 0),
	OVB_EX(CREATE_WQ, ovb_ex_create_wq_req, sizeof(ovb_ex_create_wq_resp)),
	OVB_EX(MODIFY_WQ, ovb_ex_modify_wq_req, 0),
	OVB_EX(DESTROY_WQ, ovb_ex_destroy_wq_req, sizeof(ovb_ex_destroy_wq_resp)),
	OVB_EX(CREATE_RWQ_IND_TBL, ovb_ex_create_rwq_ind_table_req,
	       sizeof(ovb_ex_create_rwq_ind_table_resp)),
	OVB_EX(DESTROY_RWQ_IND_TBL, ovb_ex_destroy_rwq_ind_table_req, 0),
};

#undef OVB_CMD
#undef OVB_EX

constexpr const Spec *find(uint32_t id, Framing framing)
{
	for (const Spec &s : kCommands)
		if (s.id == id && s.framing == framing)
			return &s;
	return nullptr;
}

// The spec of a command known at compile time (fails to compile if absent).
template <uint32_t Id, Framing F = Framing::legacy>
constexpr const Spec &spec()
{
	constexpr const Spec *s = find(Id, F);
	static_assert(s != nullptr, "command missing from kCommands");
	return *s;
}

} // namespace ovb::cmd
