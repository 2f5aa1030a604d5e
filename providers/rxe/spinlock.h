// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The lock of every rxe queue: held for a few stores, never across a
// sleep, so a spinlock (as rdma-core's rxe provider uses) and not a mutex,
// whose lock + unlock costs ~50 instructions more per post or poll.  Inline,
// so the uncontended path is one xchg and one store.  BasicLockable: works
// with std::lock_guard.
#pragma once

#include <atomic>

namespace rxe {

class SpinLock {
public:
	void lock()
	{
		while (held_.exchange(true, std::memory_order_acquire))
			while (held_.load(std::memory_order_relaxed))
				__builtin_ia32_pause();
	}
	void unlock() { held_.store(false, std::memory_order_release); }

private:
	std::atomic<bool> held_{false};
};

} // namespace rxe
