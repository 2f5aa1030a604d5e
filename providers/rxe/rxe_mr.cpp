// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Protection domains, memory regions and memory windows.
#include "rxe.h"

#include <cerrno>

namespace rxe {

namespace {

template <class T>
T *fail(T *obj, int rc)
{
	delete obj;
	errno = rc;
	return nullptr;
}

} // namespace

ibv_pd *alloc_pd(ibv_context *ctx)
{
	auto *pd = new (std::nothrow) ibv_pd{};
	if (!pd)
		return fail(pd, ENOMEM);
	if (int rc = core->alloc_pd(ctx, pd, nullptr))
		return fail(pd, rc);
	return pd;
}

int dealloc_pd(ibv_pd *pd)
{
	int rc = core->dealloc_pd(pd);
	if (!rc)
		delete pd;
	return rc;
}

ibv_mr *reg_mr(ibv_pd *pd, void *addr, size_t len, uint64_t hca_va, int access)
{
	auto *mr = new (std::nothrow) ibv_mr{};
	if (!mr)
		return fail(mr, ENOMEM);
	if (int rc = core->reg_mr(pd, addr, len, hca_va, access, mr, nullptr))
		return fail(mr, rc);
	return mr;
}

int dereg_mr(ibv_mr *mr)
{
	int rc = core->dereg_mr(mr);
	if (!rc)
		delete mr;
	return rc;
}

ibv_mw *alloc_mw(ibv_pd *pd, ibv_mw_type type)
{
	auto *mw = new (std::nothrow) ibv_mw{};
	if (!mw)
		return fail(mw, ENOMEM);
	if (int rc = core->alloc_mw(pd, type, mw, nullptr))
		return fail(mw, rc);
	return mw;
}

int dealloc_mw(ibv_mw *mw)
{
	int rc = core->dealloc_mw(mw);
	if (!rc)
		delete mw;
	return rc;
}

// A type 1 bind is a BIND_MW work request with the next rkey of the window.
int bind_mw(ibv_qp *qp, ibv_mw *mw, ibv_mw_bind *bind)
{
	if (mw->type != IBV_MW_TYPE_1 || qp->pd != mw->pd)
		return EINVAL;
	ibv_send_wr wr{};
	wr.wr_id = bind->wr_id;
	wr.opcode = IBV_WR_BIND_MW;
	wr.send_flags = bind->send_flags;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = bind->bind_info;
	ibv_send_wr *bad;
	int rc = post_send(qp, &wr, &bad);
	if (!rc)
		mw->rkey = wr.bind_mw.rkey;
	return rc;
}

} // namespace rxe
