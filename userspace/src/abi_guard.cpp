// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What a C++ exception becomes at the C ABI (export.h): an errno.
#include <cerrno>
#include <new>
#include <stdexcept>
#include <system_error>

#include "export.h"

namespace ovb {

int exception_errno() noexcept
{
	try {
		throw;
	} catch (const std::bad_alloc &) {
		return ENOMEM;
	} catch (const std::length_error &) {
		return ENOMEM;	// a size no allocation can meet
	} catch (const std::system_error &e) {
		return e.code().value() > 0 ? e.code().value() : EIO;
	} catch (...) {
		return EIO;
	}
}

} // namespace ovb
