// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Marks a C function as part of libibverbs.so.1's ABI.  The library builds
// with -fvisibility=hidden; libibverbs.map gives each export its version.
#pragma once

#define OVB_EXPORT extern "C" __attribute__((visibility("default")))

// For the names that also have an IBVERBS_1.0 compat version: makes the
// definition in this file the default (name@@ver); use after it.
#define OVB_DEFAULT_VERSION(name, ver) \
	__asm__(".symver " #name ", " #name "@@@" ver)
