// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_create_flow (the EX_CREATE_FLOW write() command:
// the rule, its specs converted to the kernel's layout, the provider's
// data as udata) and ibv_cmd_destroy_flow (by ioctl first, the extended
// write() command as fallback; rdma-core 44 files it under the AH
// destroy's fallback class).
#include <cerrno>
#include <vector>

#include "../cmd/execute.h"
#include "../cmd/methods.h"
#include "../cmd/transport.h"
#include "../export.h"
#include "flow_specs.h"

namespace ovb::rdmacore {
int answer(int rc);	// cmd_context.cpp
int destroyed(int rc);
}

using namespace ovb;
using namespace ovb::rdmacore;

OVB_EXPORT int ibv_cmd_create_flow(ibv_qp *qp, ibv_flow *flow,
				   ibv_flow_attr *attr, void *ucmd,
				   size_t ucmd_size)
try {
	std::vector<unsigned char> req(sizeof(ovb_create_flow_req) +
				       attr->num_of_specs * kMaxKernSpec);
	auto *head = reinterpret_cast<ovb_create_flow_req *>(req.data());
	head->qp_handle = qp->handle;
	head->flow_attr.type = attr->type;
	head->flow_attr.priority = attr->priority;
	head->flow_attr.num_of_specs = attr->num_of_specs;
	head->flow_attr.port = attr->port;
	head->flow_attr.flags = attr->flags;
	size_t used = sizeof(*head);
	const auto *spec = reinterpret_cast<const unsigned char *>(attr + 1);
	for (unsigned int i = 0; i < attr->num_of_specs; i++) {
		const auto *in = reinterpret_cast<const ibv_flow_spec *>(spec);
		int err;
		size_t n = flow_spec_to_kernel(in, req.data() + used, err);
		if (err)
			return answer(err);
		used += n;
		spec += in->hdr.size;
	}
	head->flow_attr.size = static_cast<uint16_t>(used - sizeof(*head));
	ovb_udata ud{};
	ud.in = ucmd;
	ud.in_len = ucmd ? ucmd_size : 0;
	ovb_create_flow_resp resp{};
	int rc = cmd::execute(qp->context,
			      cmd::spec<OVB_EX_CMD_CREATE_FLOW,
					cmd::Framing::extended>(),
			      req.data(), used, &resp, sizeof(resp), &ud);
	if (rc)
		return answer(rc);
	flow->context = qp->context;
	flow->handle = resp.flow_handle;
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_destroy_flow(ibv_flow *flow)
try {
	ioctl::Handle a{flow->handle};
	int rc;
	if (!cmd::try_ioctl<ioctl::kDestroyFlowM>(flow->context, a, rc)) {
		ovb_destroy_flow_req req{};
		req.flow_handle = flow->handle;
		rc = cmd::execute(flow->context,
				  cmd::spec<OVB_EX_CMD_DESTROY_FLOW,
					    cmd::Framing::extended>(),
				  req, nullptr);
	}
	return rdmacore::destroyed(rc);
} OVB_ABI_CATCH
