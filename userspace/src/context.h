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

#include "rdmacore/abi.h"

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
	// Made by ibv_import_device(): its async event fd is its own, which
	// only the ioctl create methods can name (cmd/transport.h).
	bool imported;
	// An rdma-core provider's ops, merged over its verbs_set_ops calls
	// (rdmacore/context.cpp turns them into `ops`); unused for ours.
	ovb::rdmacore::ContextOps rc_ops;
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

// An rdma-core provider's ops (merged from its verbs_set_ops calls), or
// nullptr for a context of one of our providers (rdmacore/context.cpp).
const rdmacore::ContextOps *rdmacore_ops(ibv_context *ctx);

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

// context.cpp: the library's part of a new context (closes nothing on
// failure), GET_CONTEXT with the provider's udata, and ibv_open_device()
// with rdma-core's private_data (NULL from ibv_open_device()).
int init_context(verbs_context *vctx, ibv_device *dev, int cmd_fd);
int get_context(ibv_context *ctx, ovb_udata *ud);
ibv_context *open_device(ibv_device *device, void *private_data);
// The async event fd of a context a provider made (opened or imported),
// if GET_CONTEXT did not bring one; closes the context on failure.
ibv_context *finish_context(verbs_context *vctx);

// ops.cpp: installs a provider's ops in a context; ours get the plain
// PD/MR/MW ops they leave out (add_plain_ops), rdma-core's providers do
// not (rdma-core answers EOPNOTSUPP for an op a provider lacks).
void install_ops(ibv_context *ctx, const ovb_context_ops *ops,
		 bool plain_defaults = true);

// plain_ops.cpp: fills each PD/MR/MW pair (alloc/dealloc, reg/dereg) whose
// members are both NULL with the library's plain one: a bare object and the
// core command without driver data.
void add_plain_ops(ovb_context_ops &ops);

// Generic fields of a new object, set after the provider created it.
void init_cq_fields(ibv_cq *cq, ibv_context *ctx, ibv_comp_channel *ch,
		    void *cq_context);

} // namespace ovb
