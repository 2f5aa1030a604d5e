// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Protection domains and memory regions.
#include <cerrno>

#include <openverbs/ioctl-abi.h>

#include "context.h"
#include "export.h"
#include "fork.h"

#undef ibv_reg_mr
#undef ibv_reg_mr_iova

namespace {

// Optional access flags reach only a kernel whose GET_CONTEXT (ioctl)
// announced support for them; otherwise they are dropped, as libibverbs.
ibv_mr *reg_mr(ibv_pd *pd, void *addr, size_t length, uint64_t iova,
	       unsigned access)
{
	if (!(ovb::priv(pd->context)->core_support &
	      OVB_CORE_SUPPORT_OPTIONAL_MR_ACCESS))
		access &= ~static_cast<unsigned>(IBV_ACCESS_OPTIONAL_RANGE);
	bool odp = access & IBV_ACCESS_ON_DEMAND;
	if (!odp && ovb::fork::dontfork(addr, length))
		return nullptr;
	ibv_mr *mr = ovb::call(pd->context, &ovb_context_ops::reg_mr, pd, addr,
			       length, iova, static_cast<int>(access));
	if (!mr) {
		int saved = errno;
		if (!odp)
			ovb::fork::dofork(addr, length);
		errno = saved;
		return nullptr;
	}
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
	if (!odp && ovb::fork::remember_mr(mr)) {
		ovb::call(pd->context, &ovb_context_ops::dereg_mr, mr);
		ovb::fork::dofork(addr, length);
		errno = ENOMEM;
		return nullptr;
	}
	return mr;
}

} // namespace

OVB_EXPORT ibv_pd *ibv_alloc_pd(ibv_context *ctx)
try {
	ibv_pd *pd = ovb::call(ctx, &ovb_context_ops::alloc_pd, ctx);
	if (pd)
		pd->context = ctx;
	return pd;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_dealloc_pd(ibv_pd *pd)
try {
	return ovb::call(pd->context, &ovb_context_ops::dealloc_pd, pd);
} OVB_ABI_CATCH

OVB_EXPORT ibv_mr *ibv_reg_mr(ibv_pd *pd, void *addr, size_t length,
			      int access)
try {
	return reg_mr(pd, addr, length, reinterpret_cast<uintptr_t>(addr),
		      static_cast<unsigned>(access));
} OVB_ABI_CATCH

OVB_EXPORT ibv_mr *ibv_reg_mr_iova(ibv_pd *pd, void *addr, size_t length,
				   uint64_t iova, int access)
try {
	return reg_mr(pd, addr, length, iova, static_cast<unsigned>(access));
} OVB_ABI_CATCH

OVB_EXPORT ibv_mr *ibv_reg_mr_iova2(ibv_pd *pd, void *addr, size_t length,
				    uint64_t iova, unsigned int access)
try {
	return reg_mr(pd, addr, length, iova, access);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_dereg_mr(ibv_mr *mr)
try {
	// Only what this MR's registration raised goes down (not an ODP MR's
	// range, nor one never counted); forgotten before the MR is freed,
	// so a new MR at the same address cannot be forgotten instead.
	void *addr = mr->addr;
	size_t length = mr->length;
	bool raised = ovb::fork::forget_mr(mr);
	int rc = ovb::call(mr->context, &ovb_context_ops::dereg_mr, mr);
	if (rc && raised)
		ovb::fork::remember_mr(mr);
	else if (!rc && raised)
		ovb::fork::dofork(addr, length);
	return rc;
} OVB_ABI_CATCH

// rdma-core's checks, then the provider's op.  No provider of ours has
// one (rxe has none either): valid input fails as a failed command would,
// IBV_REREG_MR_ERR_CMD with errno EOPNOTSUPP, exactly as libibverbs' stub.
OVB_EXPORT int ibv_rereg_mr(ibv_mr *mr, int flags, ibv_pd *, void *addr,
			    size_t length, int access)
try {
	if ((flags & ~IBV_REREG_MR_FLAGS_SUPPORTED) ||
	    ((flags & IBV_REREG_MR_CHANGE_TRANSLATION) && (!length || !addr)) ||
	    (access && !(flags & IBV_REREG_MR_CHANGE_ACCESS))) {
		errno = EINVAL;
		return IBV_REREG_MR_ERR_INPUT;
	}
	(void)mr;
	errno = EOPNOTSUPP;
	return IBV_REREG_MR_ERR_CMD;
} OVB_ABI_CATCH

OVB_EXPORT ibv_mr *ibv_reg_dmabuf_mr(ibv_pd *, uint64_t, size_t, uint64_t,
				     int, int)
try {
	errno = EOPNOTSUPP;
	return nullptr;
} OVB_ABI_CATCH

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_alloc_pd, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_dealloc_pd, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_dereg_mr, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_reg_mr, "IBVERBS_1.1");
