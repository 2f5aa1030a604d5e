// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// PD, MR and MW commands.
#include "cmd/execute.h"
#include "cmd/methods.h"
#include "cmd/transport.h"
#include "core.h"

namespace ovb {

int core_alloc_pd(ibv_context *ctx, ibv_pd *pd, ovb_udata *ud)
{
	ovb_alloc_pd_req req{};
	ovb_alloc_pd_resp resp{};
	int rc = cmd::execute(ctx, cmd::spec<OVB_CMD_ALLOC_PD>(), req,
			      &resp, ud);
	if (rc)
		return rc;
	pd->context = ctx;
	pd->handle = resp.pd_handle;
	return 0;
}

// Destroy by handle: ioctl first, the write() command as fallback.
template <const ioctl::Method &M, class Req>
static int destroy(ibv_context *ctx, uint32_t handle, const cmd::Spec &spec,
		   const Req &req)
{
	ioctl::Handle a{handle};
	int rc;
	if (cmd::try_ioctl<M>(ctx, a, rc))
		return rc;
	return cmd::execute(ctx, spec, req, nullptr);
}

int core_dealloc_pd(ibv_pd *pd)
{
	return destroy<ioctl::kDeallocPdM>(pd->context, pd->handle,
		       cmd::spec<OVB_CMD_DEALLOC_PD>(),
		       ovb_dealloc_pd_req{.pd_handle = pd->handle});
}

int core_reg_mr(ibv_pd *pd, void *addr, size_t length, uint64_t hca_va,
		int access, ibv_mr *mr, ovb_udata *ud)
{
	ovb_reg_mr_req req{};
	ovb_reg_mr_resp resp{};
	req.start = reinterpret_cast<uintptr_t>(addr);
	req.length = length;
	req.hca_va = hca_va;
	req.pd_handle = pd->handle;
	req.access_flags = static_cast<uint32_t>(access);
	int rc = cmd::execute(pd->context, cmd::spec<OVB_CMD_REG_MR>(),
			      req, &resp, ud);
	if (rc)
		return rc;
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
	mr->handle = resp.mr_handle;
	mr->lkey = resp.lkey;
	mr->rkey = resp.rkey;
	return 0;
}

int core_dereg_mr(ibv_mr *mr)
{
	return destroy<ioctl::kDeregMrM>(mr->context, mr->handle,
		       cmd::spec<OVB_CMD_DEREG_MR>(),
		       ovb_dereg_mr_req{.mr_handle = mr->handle});
}

int core_alloc_mw(ibv_pd *pd, ibv_mw_type type, ibv_mw *mw, ovb_udata *ud)
{
	ovb_alloc_mw_req req{};
	ovb_alloc_mw_resp resp{};
	req.pd_handle = pd->handle;
	req.mw_type = static_cast<uint8_t>(type);
	int rc = cmd::execute(pd->context, cmd::spec<OVB_CMD_ALLOC_MW>(),
			      req, &resp, ud);
	if (rc)
		return rc;
	mw->context = pd->context;
	mw->pd = pd;
	mw->rkey = resp.rkey;
	mw->handle = resp.mw_handle;
	mw->type = type;
	return 0;
}

int core_dealloc_mw(ibv_mw *mw)
{
	return destroy<ioctl::kDeallocMwM>(mw->context, mw->handle,
		       cmd::spec<OVB_CMD_DEALLOC_MW>(),
		       ovb_dealloc_mw_req{.mw_handle = mw->handle});
}

} // namespace ovb
