// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Sending ioctl methods on a context with rdma-core 44's fallback rules:
// a method whose class is marked unsupported is not tried; ENOTTY marks
// every class (the kernel has no ioctl ABI), EPROTONOSUPPORT marks the
// method's class; both send the caller to write() (or sysfs for GIDs) for
// this call.  Any other errno is the verb's answer.
#pragma once

#include <cerrno>
#include <sys/ioctl.h>

#include <infiniband/verbs.h>
#include <openverbs/ioctl-abi.h>

#include "../context.h"
#include "ioctl.h"

namespace ovb::cmd {

// After a failed ioctl: true when rc is the verb's answer, false when the
// caller must use its fallback (ENOTTY, EPROTONOSUPPORT: marks the class).
bool decided(ibv_context *ctx, const ioctl::Method &m, int rc);

// Outputs the kernel wrote, for memcheck (a no-op in a normal build).
void mark_written_attrs(const ioctl::Frame &f);
inline void mark_written([[maybe_unused]] const ioctl::Frame &f)
{
#ifdef OPENVERBS_VALGRIND
	mark_written_attrs(f);
#endif
}

// True when the ioctl decided the call (rc is 0 or the errno), false when
// the caller must use its fallback.  M is one of methods.h's tables, so
// its attribute walk unrolls at compile time.
template <const ioctl::Method &M, class Args>
inline bool try_ioctl(ibv_context *ctx, Args &args, int &rc,
		      const ovb_udata *ud = nullptr)
{
	constexpr auto idx = std::make_index_sequence<M.attrs.size()>();
	static_assert(M.attrs.size() + 2 <= ioctl::kMaxAttrs);
	verbs_ex_private *p = priv(ctx);
	if (__atomic_load_n(&p->unsupported, __ATOMIC_RELAXED) & (1u << M.bit))
		return false;
	ioctl::Frame f;
	ioctl::encode_static<M>(&args, ud, p->driver_id, f, idx);
	if (::ioctl(ctx->cmd_fd, OVB_VERBS_IOCTL, f.bytes)) {
		rc = errno;
		return decided(ctx, M, rc);
	}
	rc = 0;
	mark_written(f);
	ioctl::decode_static<M>(&args, f, idx);
	return true;
}

// A create whose ioctl did not decide it falls back to write(), whose
// objects report their events to the context's first async event fd.  An
// imported context has another one: there the create answers EOPNOTSUPP
// (rdma-core 44's fallback_require_ioctl for CQs, QPs, SRQs and WQs).
inline int write_fallback_refused(ibv_context *ctx)
{
	return priv(ctx)->imported ? EOPNOTSUPP : 0;
}

// Methods without a write() twin: 0 or the ioctl's errno.
int ioctl_only(ibv_context *ctx, const ioctl::Method &m, void *args);

// rdma-core's probe at open: INVOKE_WRITE of QUERY_DEVICE.  ENOTTY or
// EPROTONOSUPPORT mean plain write(); anything else means the kernel
// carries write commands over ioctl.
bool probe_invoke_write(int fd, uint32_t driver_id);

} // namespace ovb::cmd
