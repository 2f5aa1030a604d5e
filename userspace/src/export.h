// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Marks a C function as part of libibverbs.so.1's ABI.  The library builds
// with -fvisibility=hidden; libibverbs.map gives each export its version.
#pragma once

#include <cerrno>
#include <type_traits>

#define OVB_EXPORT extern "C" __attribute__((visibility("default")))

// For the names that also have an IBVERBS_1.0 compat version: makes the
// definition in this file the default (name@@ver); use after it.
#define OVB_DEFAULT_VERSION(name, ver) \
	__asm__(".symver " #name ", " #name "@@@" ver)

// No C++ exception crosses the C ABI: every exported function with a body
// of its own is a function-try-block ending in one of these, so a failed
// allocation (or any other exception) answers as the C function would:
// NULL, the errno (OVB_ABI_CATCH), or -1 (OVB_ABI_CATCH_MINUS1: the
// functions whose failures are -1), with errno set (ENOMEM for
// std::bad_alloc).  abi_guard.cpp.
namespace ovb {

int exception_errno() noexcept;	// of the exception being handled

struct AbiFailure {
	int rc;
	template <class T>
	operator T() const noexcept
	{
		if constexpr (std::is_pointer_v<T>)
			return nullptr;
		else
			return static_cast<T>(rc);
	}
};

inline AbiFailure abi_failure(bool minus_one) noexcept
{
	int err = exception_errno();
	errno = err;
	return {minus_one ? -1 : err};
}

} // namespace ovb

#define OVB_ABI_CATCH \
	catch (...) { return ::ovb::abi_failure(false); }
#define OVB_ABI_CATCH_MINUS1 \
	catch (...) { return ::ovb::abi_failure(true); }
#define OVB_ABI_CATCH_VOID \
	catch (...) { errno = ::ovb::exception_errno(); }
