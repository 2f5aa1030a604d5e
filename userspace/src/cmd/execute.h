// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Runs one command of the table on a context: with write(), or through
// ioctl INVOKE_WRITE when the context's probe found the kernel carrying
// write commands that way (rdma-core 44's choice, cmd/transport.h).
#pragma once

#include <cstddef>

#include <infiniband/verbs.h>

#include <openverbs/provider.h>

#include "table.h"

namespace ovb::cmd {

// Sends req (+ udata in); on success the core response is in resp and the
// driver response in ud->out.  Response room is zeroed first.  Returns 0
// or a positive errno.
int execute(ibv_context *ctx, const Spec &spec, const void *req,
	    size_t req_len, void *resp, size_t resp_len, const ovb_udata *ud);

template <class Req>
int execute(ibv_context *ctx, const Spec &spec, const Req &req, void *resp,
	    const ovb_udata *ud = nullptr)
{
	return execute(ctx, spec, &req, sizeof(req), resp,
		       resp ? spec.resp_size : 0, ud);
}

// The same on a bare command fd with write() (no context yet).
int execute_write(int fd, const Spec &spec, const void *req, size_t req_len,
		  void *resp, size_t resp_len, const ovb_udata *ud);

} // namespace ovb::cmd
