// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// fork() safety as libibverbs 44 answers it: ibv_fork_init() turns it on
// (EINVAL once a range call came first), RDMAV_HUGEPAGES_SAFE (read by
// every ibv_fork_init) rounds ranges to the page size the kernel maps
// there, counts are kept per range (fork_ranges.h), and an MR gives back
// only the counts its registration raised.
#include "fork.h"

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <set>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "export.h"
#include "fork_ranges.h"
#include "netlink.h"

namespace ovb::fork {

namespace {

std::mutex g_lock;
// Read without the lock on every MR registration (as rdma-core does):
// until ibv_fork_init() there is nothing to do but to remember that it
// now comes too late.
std::atomic<bool> g_enabled{false};
std::atomic<bool> g_too_late{false};
std::atomic<bool> g_huge_pages{false};
size_t g_page = 0;
std::set<const void *> g_raised;	// MRs whose registration raised counts

// The page size the kernel uses for the mapping at addr
// (/proc/self/smaps' KernelPageSize), or the base page size.
size_t mapping_page_size(uintptr_t addr)
{
	size_t size = g_page;
	FILE *f = std::fopen("/proc/self/smaps", "re");
	if (!f)
		return size;
	char line[512];
	bool inside = false;
	while (std::fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;
		if (std::sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) == 2 &&
		    std::strchr(line, ' ')) {
			if (inside)
				break;
			inside = addr >= lo && addr < hi;
			continue;
		}
		unsigned long kb;
		if (inside && std::sscanf(line, "KernelPageSize: %lu kB", &kb) == 1) {
			size = kb * 1024;
			break;
		}
	}
	std::fclose(f);
	return size;
}

size_t page_for(uintptr_t addr)
{
	return g_huge_pages.load(std::memory_order_relaxed) ? mapping_page_size(addr)
							    : g_page;
}

// A failed DOFORK over many pages is retried page by page, and counts as
// done (libibverbs' rule: the range is no longer ours either way).
int advise(uintptr_t start, size_t len, RangeCounts::Advice advice)
{
	void *p = reinterpret_cast<void *>(start);
	if (advice == RangeCounts::Advice::dontfork)
		return madvise(p, len, MADV_DONTFORK) ? errno : 0;
	if (!madvise(p, len, MADV_DOFORK))
		return 0;
	size_t page = page_for(start);
	if (len > page)
		for (size_t off = 0; off < len; off += page)
			madvise(static_cast<char *>(p) + off, page, MADV_DOFORK);
	return 0;
}

RangeCounts &ranges()
{
	static RangeCounts counts(advise);
	return counts;
}

// With g_lock held.  0 or an errno.
int update(void *addr, size_t len, bool add)
{
	if (!len || !addr)
		return 0;
	uintptr_t a = reinterpret_cast<uintptr_t>(addr);
	size_t page = page_for(a);
	uintptr_t start = a & ~(page - 1);
	uintptr_t end = (a + len + page - 1) & ~(page - 1);
	try {
		return add ? ranges().add(start, end) : ranges().remove(start, end);
	} catch (const std::bad_alloc &) {
		return ENOMEM;
	}
}

// The public range calls' answer: 0, or -1 with errno.
int answer(int rc)
{
	if (!rc)
		return 0;
	errno = rc;
	return -1;
}

int range(void *addr, size_t len, bool add)
{
	if (!g_enabled.load(std::memory_order_acquire)) {
		if (!g_too_late.load(std::memory_order_relaxed))
			g_too_late.store(true, std::memory_order_relaxed);
		return 0;
	}
	std::lock_guard<std::mutex> guard(g_lock);
	return answer(update(addr, len, add));
}

} // namespace

int dontfork(void *addr, size_t len)
{
	return range(addr, len, true);
}

int dofork(void *addr, size_t len)
{
	return range(addr, len, false);
}

int remember_mr(const void *mr)
{
	if (!g_enabled.load(std::memory_order_acquire))
		return 0;
	std::lock_guard<std::mutex> guard(g_lock);
	try {
		g_raised.insert(mr);
	} catch (const std::bad_alloc &) {
		return ENOMEM;
	}
	return 0;
}

bool forget_mr(const void *mr)
{
	if (!g_enabled.load(std::memory_order_acquire))
		return false;
	std::lock_guard<std::mutex> guard(g_lock);
	return g_raised.erase(mr) != 0;
}

} // namespace ovb::fork

using namespace ovb::fork;

OVB_EXPORT int ibv_fork_init(void)
try {
	if (getenv("RDMAV_HUGEPAGES_SAFE"))
		g_huge_pages = true;
	std::lock_guard<std::mutex> guard(g_lock);
	if (g_enabled)
		return 0;
	if (g_too_late)
		return EINVAL;
	long page = sysconf(_SC_PAGESIZE);
	if (page < 0)
		return errno;
	g_page = static_cast<size_t>(page);
	void *probe = nullptr;
	if (posix_memalign(&probe, g_page, g_page))
		return ENOMEM;
	size_t size = page_for(reinterpret_cast<uintptr_t>(probe));
	void *aligned = reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(probe) &
						 ~(size - 1));
	int rc = 0;
	if (madvise(aligned, size, MADV_DONTFORK) ||
	    madvise(aligned, size, MADV_DOFORK))
		rc = ENOSYS;
	free(probe);
	if (!rc)
		g_enabled = true;
	return rc;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_dontfork_range(void *base, size_t size)
try {
	return range(base, size, true);
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT int ibv_dofork_range(void *base, size_t size)
try {
	return range(base, size, false);
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT ibv_fork_status ibv_is_fork_initialized(void)
try {
	auto sock = ovb::netlink::Socket::open();
	if (sock && sock->copy_on_fork().value_or(false))
		return IBV_FORK_UNNEEDED;
	std::lock_guard<std::mutex> guard(g_lock);
	return g_enabled ? IBV_FORK_ENABLED : IBV_FORK_DISABLED;
} OVB_ABI_CATCH
