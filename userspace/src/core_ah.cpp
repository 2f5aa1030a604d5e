// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Address handles.
#include <cstring>

#include "cmd/execute.h"
#include "cmd/methods.h"
#include "cmd/transport.h"
#include "core.h"
#include "kern_attr.h"

namespace ovb {

int core_create_ah(ibv_pd *pd, ibv_ah *ah, ibv_ah_attr *attr, ovb_udata *ud)
{
	ovb_create_ah_req req{};
	ovb_create_ah_resp resp{};
	req.user_handle = reinterpret_cast<uintptr_t>(ah);
	req.pd_handle = pd->handle;
	encode_ah_attr(*attr, req.attr);
	int rc = cmd::execute(pd->context, cmd::spec<OVB_CMD_CREATE_AH>(),
			      req, &resp, ud);
	if (rc)
		return rc;
	ah->context = pd->context;
	ah->pd = pd;
	ah->handle = resp.ah_handle;
	return 0;
}

int core_destroy_ah(ibv_ah *ah)
{
	ioctl::Handle a{ah->handle};
	int rc;
	if (cmd::try_ioctl<ioctl::kDestroyAhM>(ah->context, a, rc))
		return rc;
	ovb_destroy_ah_req req{.ah_handle = ah->handle};
	return cmd::execute(ah->context, cmd::spec<OVB_CMD_DESTROY_AH>(),
			    req, nullptr);
}

} // namespace ovb
