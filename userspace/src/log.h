// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// User-facing messages (the "libibverbs: " lines rdma-core users know) and
// debug logging (VERBS_LOG_LEVEL, VERBS_LOG_FILE).
#pragma once

#include <cstdarg>
#include <cstdint>

#define OVB_PRINTF(a, b) __attribute__((format(printf, a, b)))

namespace ovb::log {

// "libibverbs: Warning: <text>" on stderr (text brings its own newline).
void warning(const char *fmt, ...) OVB_PRINTF(1, 2);
// "libibverbs: Fatal: <text>" on stderr.
void fatal(const char *fmt, ...) OVB_PRINTF(1, 2);

// Levels of VERBS_LOG_LEVEL, numbered as rdma-core's.
enum Level : uint32_t { none = 0, err = 1, warn = 2, info = 3, dbg = 4 };

// Reads VERBS_LOG_LEVEL and VERBS_LOG_FILE; without a file nothing is
// logged (as a release build of rdma-core).  Idempotent.
void init();
void vwrite(uint32_t level, const char *fmt, va_list ap) OVB_PRINTF(2, 0);
void write(uint32_t level, const char *fmt, ...) OVB_PRINTF(2, 3);
// One line at level dbg, newline added.
void debug(const char *fmt, ...) OVB_PRINTF(1, 2);

} // namespace ovb::log
