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
	ovb_context_ops ops;		// the provider's, NULLs kept
	ovb::Device *device;
	// What the INVOKE_WRITE ioctl probe answered: true when the kernel
	// would carry write commands over ioctl (we still use write(), which
	// every 6.1 kernel serves; the probe decides nothing else yet).
	bool kernel_has_ioctl;
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

// Generic fields of a new object, set after the provider created it.
void init_cq_fields(ibv_cq *cq, ibv_context *ctx, ibv_comp_channel *ch,
		    void *cq_context);

} // namespace ovb
