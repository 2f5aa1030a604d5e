// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Runs one command of the table on a uverbs command fd with write().
#pragma once

#include <cstddef>

#include <openverbs/provider.h>

#include "table.h"

namespace ovb::cmd {

// Encodes req (+ udata in), writes it, and on success copies the core
// response into resp and the driver response into ud->out.  The response
// room is zeroed first.  Returns 0 or a positive errno.
int execute(int fd, const Spec &spec, const void *req, size_t req_len,
	    void *resp, size_t resp_len, const ovb_udata *ud);

template <class Req>
int execute(int fd, const Spec &spec, const Req &req, void *resp,
	    const ovb_udata *ud = nullptr)
{
	return execute(fd, spec, &req, sizeof(req), resp,
		       resp ? spec.resp_size : 0, ud);
}

} // namespace ovb::cmd
