// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Converting a flow's specs from <infiniband/verbs.h>'s layout to the
// kernel's (uapi flow specs), as rdma-core 44's ibv_cmd_create_flow does:
// one rule per spec type says how.  Returns the kernel spec's size, or
// sets err (EINVAL: a type rdma-core does not convert or a filter shorter
// than the kernel's minimum; EOPNOTSUPP: mask bits beyond what the kernel
// filter can carry).
#pragma once

#include <cstddef>
#include <cstdint>

#include <infiniband/verbs.h>

namespace ovb::rdmacore {

// out: room for the kernel spec (the largest is kMaxKernSpec bytes).
size_t flow_spec_to_kernel(const ibv_flow_spec *in, void *out, int &err);
constexpr size_t kMaxKernSpec = 96;

} // namespace ovb::rdmacore
