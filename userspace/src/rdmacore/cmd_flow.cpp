// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_destroy_flow: by ioctl first, the extended write()
// command as fallback (rdma-core 44 files it under the AH destroy's
// fallback class).  Creating a flow (its specs) is not here yet.
#include "../cmd/execute.h"
#include "../cmd/methods.h"
#include "../cmd/transport.h"
#include "../export.h"

namespace ovb::rdmacore {
int destroyed(int rc);	// cmd_context.cpp
}

using namespace ovb;

OVB_EXPORT int ibv_cmd_destroy_flow(ibv_flow *flow)
{
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
}
