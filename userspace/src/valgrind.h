// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Valgrind annotations (cmake -DOPENVERBS_VALGRIND=ON): memory the kernel
// writes behind valgrind's back, i.e. the response of a write() command,
// whose address travels inside the request.
#pragma once

#include <cstddef>

#ifdef OPENVERBS_VALGRIND
#include <valgrind/memcheck.h>
#endif

namespace ovb::vg {

inline void kernel_wrote(const void *p, size_t len)
{
#ifdef OPENVERBS_VALGRIND
	VALGRIND_MAKE_MEM_DEFINED(p, len);
#else
	(void)p;
	(void)len;
#endif
}

} // namespace ovb::vg
