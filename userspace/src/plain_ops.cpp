// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The library's plain PD, MR and MW ops, for providers whose kernel driver
// wants no private data with these verbs: a bare verbs object, filled by the
// core command (core_pd_mr.cpp), freed after a successful destroy.
#include <cerrno>
#include <new>

#include "context.h"
#include "core.h"

namespace ovb {

namespace {

// One object kind: how the core creates and destroys it.
template <class T, auto Create, auto Destroy>
struct Plain {
	template <class Owner, class... A>
	static T *create(Owner *owner, A... args)
	{
		auto *obj = new (std::nothrow) T{};
		int rc = obj ? Create(owner, args..., obj, nullptr) : ENOMEM;
		if (rc) {
			delete obj;
			errno = rc;
			return nullptr;
		}
		return obj;
	}

	static int destroy(T *obj)
	{
		int rc = Destroy(obj);
		if (!rc)
			delete obj;
		return rc;
	}
};

using PlainPd = Plain<ibv_pd, core_alloc_pd, core_dealloc_pd>;
using PlainMr = Plain<ibv_mr, core_reg_mr, core_dereg_mr>;
using PlainMw = Plain<ibv_mw, core_alloc_mw, core_dealloc_mw>;

ibv_pd *alloc_pd(ibv_context *ctx)
{
	return PlainPd::create(ctx);
}

ibv_mr *reg_mr(ibv_pd *pd, void *addr, size_t length, uint64_t hca_va,
	       int access)
{
	return PlainMr::create(pd, addr, length, hca_va, access);
}

ibv_mw *alloc_mw(ibv_pd *pd, ibv_mw_type type)
{
	return PlainMw::create(pd, type);
}

// Both members of a pair, or neither: a provider's object is never freed
// by the library, nor the library's by the provider.
template <class A, class D>
void pair(A &alloc, D &dealloc, A plain_alloc, D plain_dealloc)
{
	if (!alloc && !dealloc) {
		alloc = plain_alloc;
		dealloc = plain_dealloc;
	}
}

} // namespace

void add_plain_ops(ovb_context_ops &o)
{
	pair(o.alloc_pd, o.dealloc_pd, alloc_pd, PlainPd::destroy);
	pair(o.reg_mr, o.dereg_mr, reg_mr, PlainMr::destroy);
	pair(o.alloc_mw, o.dealloc_mw, alloc_mw, PlainMw::destroy);
}

} // namespace ovb
