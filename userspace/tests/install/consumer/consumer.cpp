// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The smallest program of an openverbs user: the C++ API over the C API.
// Prints the number of devices (none, or no RDMA at all, is fine).
#include <openverbs/verbs.hpp>
#include <openverbs/uverbs-abi.h>

#include <cstdio>

int main()
{
	try {
		openverbs::DeviceList list;
		std::printf("consumer: %zu device(s)\n", list.size());
	} catch (const openverbs::Error &e) {
		std::printf("consumer: %s\n", e.what());	// no RDMA here
	}
	return 0;
}
