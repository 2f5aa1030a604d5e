// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The lock of every ring a provider shares with the kernel (rxe's and
// siw's queues): a spinlock (as rdma-core's providers use) and not a mutex, whose lock + unlock costs ~50 instructions more
// per post or poll.  Inline, so the uncontended path is one xchg and one
// store.  BasicLockable: works with std::lock_guard.
//
// Posts and polls hold it for a few stores.  One holder may sleep:
// resize_cq keeps the CQ's lock across the RESIZE_CQ system call and the
// remapping of the ring (as rdma-core's rxe does), because the kernel
// copies the unpolled entries into the new ring, and a poll meanwhile would
// take them twice or read the unmapped ring.  A thread polling that CQ
// spins for as long; resizing a CQ that other threads poll is rare.
#pragma once

#include <atomic>

namespace ovb {

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

} // namespace ovb
