// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// fork() safety as a program sees it, without a device: which madvise()
// calls the library makes (this program's madvise() stands in for libc's,
// and the library's calls reach it), what ibv_fork_init() answers, how the
// environment switches it on.  Run on rdma-core's library and on ours by
// tests/host/compare-libraries; the outputs must be identical.
//
//   ovb_fork_check early|ranges|env|huge
#include <infiniband/verbs.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

// Exported by both libraries, declared by neither's public headers.
extern "C" int ibv_dontfork_range(void *base, size_t size);
extern "C" int ibv_dofork_range(void *base, size_t size);

namespace {

uintptr_t g_base;	// addresses print relative to this, in pages
size_t g_page;
int g_calls;

const char *advice_name(int advice)
{
	return advice == MADV_DONTFORK ? "DONTFORK" :
	       advice == MADV_DOFORK ? "DOFORK" : "other";
}

void line(const char *what, int rc)
{
	std::printf("%s -> %d%s%s\n", what, rc, rc ? " errno " : "",
		    rc ? std::strerror(errno) : "");
}

// Pages [first, first + n) of a fresh 16-page mapping.
void *pages(size_t first)
{
	return reinterpret_cast<void *>(g_base + first * g_page);
}

char *map_area(size_t n, int extra)
{
	void *p = mmap(nullptr, n * g_page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | extra, -1, 0);
	return p == MAP_FAILED ? nullptr : static_cast<char *>(p);
}

void count(const char *what, int rc, int before)
{
	std::printf("%s -> %d, %d madvise call(s)\n", what, rc, g_calls - before);
}

void early()
{
	char *a = map_area(4, 0);
	g_base = reinterpret_cast<uintptr_t>(a);
	line("ibv_dontfork_range before ibv_fork_init", ibv_dontfork_range(a, g_page));
	std::printf("ibv_fork_init -> %d\n", ibv_fork_init());
	int before = g_calls;
	count("ibv_dontfork_range", ibv_dontfork_range(a, g_page), before);
}

void ranges()
{
	std::printf("ibv_fork_init -> %d\n", ibv_fork_init());
	std::printf("ibv_fork_init again -> %d\n", ibv_fork_init());
	g_base = reinterpret_cast<uintptr_t>(map_area(16, 0));
	int b = g_calls;
	count("dontfork pages 0-15", ibv_dontfork_range(pages(0), 16 * g_page), b);
	b = g_calls;
	count("dontfork pages 4-7", ibv_dontfork_range(pages(4), 4 * g_page), b);
	b = g_calls;
	count("dofork pages 0-15", ibv_dofork_range(pages(0), 16 * g_page), b);
	b = g_calls;
	count("dofork pages 4-7", ibv_dofork_range(pages(4), 4 * g_page), b);
	b = g_calls;
	count("dontfork 5000 bytes from page 2 + 100",
	      ibv_dontfork_range(static_cast<char *>(pages(2)) + 100, 5000), b);
	b = g_calls;
	count("dontfork pages 1-5", ibv_dontfork_range(pages(1), 5 * g_page), b);
	b = g_calls;
	count("dofork 5000 bytes from page 2 + 100",
	      ibv_dofork_range(static_cast<char *>(pages(2)) + 100, 5000), b);
	b = g_calls;
	count("dofork pages 1-5", ibv_dofork_range(pages(1), 5 * g_page), b);
	b = g_calls;
	count("dontfork 0 bytes", ibv_dontfork_range(pages(0), 0), b);
	b = g_calls;
	count("dontfork NULL", ibv_dontfork_range(nullptr, g_page), b);
	// An unmapped range: the kernel refuses, and the count stays 0.
	munmap(pages(8), 8 * g_page);
	b = g_calls;
	int rc = ibv_dontfork_range(pages(8), 8 * g_page);
	int err = errno;
	std::printf("dontfork unmapped pages 8-15 -> %d (%s), %d madvise call(s)\n",
		    rc, rc ? std::strerror(err) : "-", g_calls - b);
	b = g_calls;
	count("dontfork pages 0-7", ibv_dontfork_range(pages(0), 8 * g_page), b);
	b = g_calls;
	count("dofork pages 0-7", ibv_dofork_range(pages(0), 8 * g_page), b);
}

// The environment was read by the library's initialization.
void env()
{
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	if (list)
		ibv_free_device_list(list);
	char *a = map_area(2, 0);
	g_base = reinterpret_cast<uintptr_t>(a);
	int b = g_calls;
	count("dontfork after ibv_get_device_list", ibv_dontfork_range(a, g_page), b);
	std::printf("ibv_fork_init -> %d\n", ibv_fork_init());
}

// RDMAV_HUGEPAGES_SAFE: ranges round to the mapping's page size.
void huge()
{
	std::printf("ibv_fork_init -> %d\n", ibv_fork_init());
	size_t huge = 2u << 20;
	void *p = mmap(nullptr, 2 * huge, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED) {
		std::printf("no huge pages here (MAP_HUGETLB: %s)\n",
			    std::strerror(errno));
		return;
	}
	g_base = reinterpret_cast<uintptr_t>(p);
	int b = g_calls;
	count("dontfork 1 page inside a 2 MiB page",
	      ibv_dontfork_range(static_cast<char *>(p) + 3 * g_page, g_page), b);
	b = g_calls;
	count("dofork the same page",
	      ibv_dofork_range(static_cast<char *>(p) + 3 * g_page, g_page), b);
}

} // namespace

// Stands in for libc's madvise(): every call the library makes is printed.
extern "C" [[gnu::visibility("default")]] int madvise(void *addr, size_t len,
						     int advice)
{
	g_calls++;
	uintptr_t a = reinterpret_cast<uintptr_t>(addr);
	if (g_base && a >= g_base && a < g_base + (64u << 20))
		std::printf("  madvise(page %+ld, %zu bytes, %s)\n",
			    static_cast<long>((a - g_base) / g_page), len,
			    advice_name(advice));
	else
		std::printf("  madvise(elsewhere, %zu bytes, %s)\n", len,
			    advice_name(advice));
	return static_cast<int>(syscall(SYS_madvise, addr, len, advice));
}

int main(int argc, char **argv)
{
	g_page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
	setvbuf(stdout, nullptr, _IOLBF, 0);
	std::string mode = argc > 1 ? argv[1] : "";
	if (mode == "early")
		early();
	else if (mode == "ranges")
		ranges();
	else if (mode == "env")
		env();
	else if (mode == "huge")
		huge();
	else {
		std::fprintf(stderr, "usage: %s early|ranges|env|huge\n", argv[0]);
		return 2;
	}
	return 0;
}
