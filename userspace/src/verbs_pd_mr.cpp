// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Protection domains and memory regions.
#include <cerrno>

#include <openverbs/ioctl-abi.h>

#include "context.h"
#include "export.h"
#include "fork.h"

using ovb::rdmacore::VerbsMr;

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

namespace {

// The provider's rereg_mr: an rdma-core provider's if it has one; none of
// our providers has one (nor rxe), so theirs fail as a failed command.
int provider_rereg(ibv_mr *mr, int flags, ibv_pd *pd, void *addr,
		   size_t length, int access)
{
	const ovb::rdmacore::ContextOps *rc = ovb::rdmacore_ops(mr->context);
	if (!rc || !rc->rereg_mr) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return rc->rereg_mr(reinterpret_cast<VerbsMr *>(mr), flags, pd, addr,
			    length, access);
}

bool bad_rereg(ibv_mr *mr, int flags, void *addr, size_t length, int access)
{
	if (ovb::rdmacore_ops(mr->context) &&
	    reinterpret_cast<const VerbsMr *>(mr)->mr_type !=
		    ovb::rdmacore::kMrTypeMr)
		return true;
	return (flags & ~IBV_REREG_MR_FLAGS_SUPPORTED) ||
	       ((flags & IBV_REREG_MR_CHANGE_TRANSLATION) && (!length || !addr)) ||
	       (access && !(flags & IBV_REREG_MR_CHANGE_ACCESS));
}

} // namespace

// rdma-core's checks, the new range kept from fork()ed children, the
// provider's op; on success the MR takes the new PD and range and the old
// range is released, on failure the new one.
OVB_EXPORT int ibv_rereg_mr(ibv_mr *mr, int flags, ibv_pd *pd, void *addr,
			    size_t length, int access)
try {
	if (bad_rereg(mr, flags, addr, length, access)) {
		errno = EINVAL;
		return IBV_REREG_MR_ERR_INPUT;
	}
	bool translation = flags & IBV_REREG_MR_CHANGE_TRANSLATION;
	if (translation && ovb::fork::dontfork(addr, length))
		return IBV_REREG_MR_ERR_DONT_FORK_NEW;
	void *old_addr = mr->addr;
	size_t old_length = mr->length;
	if (provider_rereg(mr, flags, pd, addr, length, access)) {
		if (translation && ovb::fork::dofork(addr, length))
			return IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW;
		return IBV_REREG_MR_ERR_CMD;
	}
	if (flags & IBV_REREG_MR_CHANGE_PD)
		mr->pd = pd;
	if (translation) {
		mr->addr = addr;
		mr->length = length;
		if (ovb::fork::dofork(old_addr, old_length))
			return IBV_REREG_MR_ERR_DO_FORK_OLD;
	}
	return 0;
} OVB_ABI_CATCH

// Only an rdma-core provider may have reg_dmabuf_mr; the MR's addr is the
// offset into the dma-buf.
OVB_EXPORT ibv_mr *ibv_reg_dmabuf_mr(ibv_pd *pd, uint64_t offset,
				     size_t length, uint64_t iova, int fd,
				     int access)
try {
	const ovb::rdmacore::ContextOps *rc = ovb::rdmacore_ops(pd->context);
	if (!rc || !rc->reg_dmabuf_mr) {
		errno = EOPNOTSUPP;
		return nullptr;
	}
	ibv_mr *mr = rc->reg_dmabuf_mr(pd, offset, length, iova, fd, access);
	if (!mr)
		return nullptr;
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = reinterpret_cast<void *>(static_cast<uintptr_t>(offset));
	mr->length = length;
	return mr;
} OVB_ABI_CATCH

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_alloc_pd, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_dealloc_pd, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_dereg_mr, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_reg_mr, "IBVERBS_1.1");
