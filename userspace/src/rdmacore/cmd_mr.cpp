// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_rereg_mr: the REREG_MR write() command (rdma-core 44
// has no ioctl for it), the PD handle only when the PD changes.  The
// provider's cmd and resp carry its driver data after the core parts.
#include <cerrno>

#include "../cmd/execute.h"
#include "../export.h"
#include "abi.h"
#include "udata.h"

namespace ovb::rdmacore {
int answer(int rc);	// cmd_context.cpp
}

using namespace ovb;
using namespace ovb::rdmacore;

OVB_EXPORT int ibv_cmd_rereg_mr(VerbsMr *vmr, uint32_t flags, void *addr,
				size_t length, uint64_t hca_va, int access,
				ibv_pd *pd, void *cmd, size_t cmd_size,
				ovb_rereg_mr_resp *resp, size_t resp_size)
{
	ibv_mr &mr = vmr->mr;
	ovb_rereg_mr_req req{};
	req.mr_handle = mr.handle;
	req.flags = flags;
	req.start = reinterpret_cast<uintptr_t>(addr);
	req.length = length;
	req.hca_va = hca_va;
	req.pd_handle = (flags & IBV_REREG_MR_CHANGE_PD) ? pd->handle : 0;
	req.access_flags = static_cast<uint32_t>(access);
	ovb_udata ud = write_udata<ovb_rereg_mr_req, ovb_rereg_mr_resp>(
		cmd, cmd_size, resp, resp_size);
	ovb_rereg_mr_resp core{};
	int rc = cmd::execute(mr.context, cmd::spec<OVB_CMD_REREG_MR>(), req,
			      &core, &ud);
	if (rc)
		return answer(rc);
	mr.lkey = core.lkey;
	mr.rkey = core.rkey;
	if (flags & IBV_REREG_MR_CHANGE_PD)
		mr.context = pd->context;
	if (resp) {
		resp->lkey = core.lkey;
		resp->rkey = core.rkey;
	}
	return 0;
}
