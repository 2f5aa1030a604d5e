// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the library keeps per open context.  <infiniband/verbs.h> declares
// struct verbs_ex_private but leaves it to the library: this is ours,
// reached through verbs_context::priv.
#pragma once

#include <cerrno>
#include <type_traits>

#include <infiniband/verbs.h>

#include <openverbs/provider.h>

namespace ovb {
class Device;
}

struct verbs_ex_private {
	ovb_context_ops ops;		// the provider's, plain PD/MR/MW added
	ovb::Device *device;
	// The transport (rdma-core 44's rules, cmd/transport.h): the INVOKE_WRITE
	// probe's answer decides whether write commands travel through ioctl;
	// bit i of `unsupported` set means ioctl method class i falls back to
	// write() (EPROTONOSUPPORT sets it, ENOTTY sets all of them).
	bool write_via_ioctl;
	uint32_t driver_id;
	uint32_t unsupported;
	// GET_CONTEXT's CORE_SUPPORT (0 when it came by write()).
	uint64_t core_support;
};

namespace ovb {

inline verbs_ex_private *priv(ibv_context *ctx)
{
	return verbs_get_ctx(ctx)->priv;
}

inline const ovb_context_ops &ops(ibv_context *ctx)
{
	return priv(ctx)->ops;
}

// Calls a provider op, or answers EOPNOTSUPP (as errno for pointer ops).
template <class R, class... P, class... A>
R call(ibv_context *ctx, R (*ovb_context_ops::*op)(P...), A... args)
{
	auto fn = ops(ctx).*op;
	if (!fn) {
		if constexpr (std::is_pointer_v<R>) {
			errno = EOPNOTSUPP;
			return nullptr;
		} else {
			return EOPNOTSUPP;
		}
	}
	return fn(args...);
}

// ops.cpp: installs a provider's ops (with add_plain_ops) in a context.
void install_ops(ibv_context *ctx, const ovb_context_ops *ops);

// plain_ops.cpp: fills each PD/MR/MW pair (alloc/dealloc, reg/dereg) whose
// members are both NULL with the library's plain one: a bare object and the
// core command without driver data.
void add_plain_ops(ovb_context_ops &ops);

// Generic fields of a new object, set after the provider created it.
void init_cq_fields(ibv_cq *cq, ibv_context *ctx, ibv_comp_channel *ch,
		    void *cq_context);

} // namespace ovb
