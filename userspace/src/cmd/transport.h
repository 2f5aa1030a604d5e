// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Sending ioctl methods on a context with rdma-core 44's fallback rules:
// a method whose class is marked unsupported is not tried; ENOTTY marks
// every class (the kernel has no ioctl ABI), EPROTONOSUPPORT marks the
// method's class; both send the caller to write() (or sysfs for GIDs) for
// this call.  Any other errno is the verb's answer.
#pragma once

#include <infiniband/verbs.h>

#include "ioctl.h"

namespace ovb::cmd {

// True when the ioctl decided the call (rc is 0 or the errno), false when
// the caller must use its fallback.
bool try_ioctl(ibv_context *ctx, const ioctl::Method &m, void *args,
	       const ovb_udata *ud, int &rc);

template <class Args>
bool try_ioctl(ibv_context *ctx, const ioctl::Method &m, Args &args, int &rc,
	       const ovb_udata *ud = nullptr)
{
	return try_ioctl(ctx, m, static_cast<void *>(&args), ud, rc);
}

// Methods without a write() twin: 0 or the ioctl's errno.
int ioctl_only(ibv_context *ctx, const ioctl::Method &m, void *args);

// rdma-core's probe at open: INVOKE_WRITE of QUERY_DEVICE.  ENOTTY or
// EPROTONOSUPPORT mean plain write(); anything else means the kernel
// carries write commands over ioctl.
bool probe_invoke_write(int fd, uint32_t driver_id);

} // namespace ovb::cmd
