// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "log.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace ovb::log {

namespace {

constexpr const char kPrefix[] = "libibverbs: ";
uint32_t g_level = none;
FILE *g_file = nullptr;
std::once_flag g_once;

void vprefixed(const char *kind, const char *fmt, va_list ap)
{
	int saved = errno;
	std::fprintf(stderr, "%s%s", kPrefix, kind);
	std::vfprintf(stderr, fmt, ap);
	errno = saved;
}

} // namespace

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprefixed("Warning: ", fmt, ap);
	va_end(ap);
}

void fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprefixed("Fatal: ", fmt, ap);
	va_end(ap);
}

void init()
{
	std::call_once(g_once, [] {
		if (const char *env = std::getenv("VERBS_LOG_LEVEL"))
			g_level = static_cast<uint32_t>(std::strtoul(env, nullptr, 0));
		if (g_level == none)
			return;
		const char *path = std::getenv("VERBS_LOG_FILE");
		g_file = path ? std::fopen(path, "ae") : nullptr;
		if (!g_file)
			g_level = none;
	});
}

void vwrite(uint32_t level, const char *fmt, va_list ap)
{
	init();
	if (level == none || level > g_level || !g_file)
		return;
	int saved = errno;
	std::vfprintf(g_file, fmt, ap);
	std::fflush(g_file);
	errno = saved;
}

void write(uint32_t level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwrite(level, fmt, ap);
	va_end(ap);
}

void debug(const char *fmt, ...)
{
	init();
	if (g_level < dbg || !g_file)
		return;
	int saved = errno;
	va_list ap;
	va_start(ap, fmt);
	std::fprintf(g_file, "%s", kPrefix);
	std::vfprintf(g_file, fmt, ap);
	std::fputc('\n', g_file);
	std::fflush(g_file);
	va_end(ap);
	errno = saved;
}

} // namespace ovb::log
