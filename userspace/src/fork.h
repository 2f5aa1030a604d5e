// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// fork() safety as libibverbs 44 does it: once ibv_fork_init() ran, the
// pages of every registered MR are madvise(MADV_DONTFORK)ed, reference
// counted per range so overlapping MRs work (fork_ranges.h).
#pragma once

#include <cstddef>

extern "C" int ibv_fork_init(void);

namespace ovb::fork {

// For the MR paths: no-ops (0) unless fork safety is on; the first
// call without it makes a later ibv_fork_init() fail (EINVAL), as the
// public ibv_dontfork_range()/ibv_dofork_range() do.  0, or -1 with errno.
int dontfork(void *addr, size_t len);
int dofork(void *addr, size_t len);

// An MR whose registration raised the counts (dontfork): remembered so
// that its deregistration, and only it, lowers them.  ODP MRs and MRs
// registered otherwise (dma-buf, import) are never remembered.
int remember_mr(const void *mr);		// 0 or ENOMEM
bool forget_mr(const void *mr);		// true: it was remembered
} // namespace ovb::fork
