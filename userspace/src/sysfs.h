// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Reading sysfs the way libibverbs does: the root can be moved with
// SYSFS_PATH, a file is read with one read(), a trailing newline is
// dropped, and content that fills the buffer without one is an error.
#pragma once

#include <cstddef>
#include <string>

namespace ovb::sysfs {

// "/sys", or $SYSFS_PATH without trailing '/' (not when setuid).
const char *root();

// Reads dir/file into buf; returns the length (newline stripped, buf NUL
// terminated) or -1 with errno.
int read(const char *dir, const char *file, char *buf, size_t size);
int read(const std::string &path, char *buf, size_t size);

// The file as a number (strtoul of its start); false when unreadable.
bool read_ulong(const std::string &path, unsigned long &value, int base = 10);

} // namespace ovb::sysfs
