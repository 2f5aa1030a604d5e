// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "fork.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "export.h"
#include "netlink.h"

namespace ovb::fork {

namespace {

std::mutex g_lock;
// Read without the lock on every MR registration (as rdma-core does):
// until ibv_fork_init() there is nothing to do but to remember that it
// now comes too late.
std::atomic<bool> g_enabled{false};
std::atomic<bool> g_too_late{false};
size_t g_page = 0;
std::map<uintptr_t, unsigned> g_pages;	// page -> MRs covering it

// Applies advice to [addr, addr+len) page by page where the count moves
// between 0 and 1.
int update(void *addr, size_t len, bool add)
{
	if (!len)
		return 0;
	uintptr_t start = reinterpret_cast<uintptr_t>(addr) & ~(g_page - 1);
	uintptr_t end = (reinterpret_cast<uintptr_t>(addr) + len + g_page - 1) &
			~(g_page - 1);
	for (uintptr_t p = start; p < end; p += g_page) {
		unsigned &n = g_pages[p];
		if (add && n++ == 0 &&
		    madvise(reinterpret_cast<void *>(p), g_page, MADV_DONTFORK)) {
			n--;
			return errno;
		}
		if (!add && n && --n == 0) {
			g_pages.erase(p);
			if (madvise(reinterpret_cast<void *>(p), g_page, MADV_DOFORK))
				return errno;
		}
	}
	return 0;
}

int range(void *addr, size_t len, bool add)
{
	if (!g_enabled.load(std::memory_order_acquire)) {
		if (!g_too_late.load(std::memory_order_relaxed))
			g_too_late.store(true, std::memory_order_relaxed);
		return 0;
	}
	std::lock_guard<std::mutex> guard(g_lock);
	return update(addr, len, add);
}

} // namespace

int dontfork(void *addr, size_t len)
{
	int rc = range(addr, len, true);
	if (rc)
		errno = rc;
	return rc ? -1 : 0;
}

int dofork(void *addr, size_t len)
{
	int rc = range(addr, len, false);
	if (rc)
		errno = rc;
	return rc ? -1 : 0;
}

} // namespace ovb::fork

using namespace ovb::fork;

OVB_EXPORT int ibv_fork_init(void)
{
	std::lock_guard<std::mutex> guard(g_lock);
	if (g_enabled)
		return 0;
	if (g_too_late)
		return EINVAL;
	g_page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
	void *probe = nullptr;
	if (posix_memalign(&probe, g_page, g_page))
		return ENOMEM;
	int rc = 0;
	if (madvise(probe, g_page, MADV_DONTFORK) ||
	    madvise(probe, g_page, MADV_DOFORK))
		rc = ENOSYS;
	free(probe);
	if (!rc)
		g_enabled = true;
	return rc;
}

OVB_EXPORT int ibv_dontfork_range(void *base, size_t size)
{
	std::lock_guard<std::mutex> guard(g_lock);
	return g_enabled ? update(base, size, true) : 0;
}

OVB_EXPORT int ibv_dofork_range(void *base, size_t size)
{
	std::lock_guard<std::mutex> guard(g_lock);
	return g_enabled ? update(base, size, false) : 0;
}

OVB_EXPORT ibv_fork_status ibv_is_fork_initialized(void)
{
	auto sock = ovb::netlink::Socket::open();
	if (sock && sock->copy_on_fork().value_or(false))
		return IBV_FORK_UNNEEDED;
	std::lock_guard<std::mutex> guard(g_lock);
	return g_enabled ? IBV_FORK_ENABLED : IBV_FORK_DISABLED;
}
