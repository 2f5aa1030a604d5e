// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// fork() safety as libibverbs 44 does it: once ibv_fork_init() ran, the
// pages of every registered MR are madvise(MADV_DONTFORK)ed, reference
// counted per page so overlapping MRs work.
#pragma once

#include <cstddef>

extern "C" int ibv_fork_init(void);

namespace ovb::fork {

// For the MR paths: no-ops (0) unless fork safety is on; the first
// registration without it makes a later ibv_fork_init() fail (EINVAL).
int dontfork(void *addr, size_t len);
int dofork(void *addr, size_t len);

} // namespace ovb::fork
