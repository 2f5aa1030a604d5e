// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// dlopens one rdma-core provider plugin (lib<name>-rdmav34.so) in a
// process linked against our libibverbs.so.1: its constructor calls
// verbs_register_driver_34, which the library logs ("rdma-core provider
// <name> registered", VERBS_LOG_LEVEL=4).  Run by
// tests/guest/rdmacore-provider for each plugin Debian installs.
#include <cstdio>
#include <dlfcn.h>

#include <infiniband/verbs.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s PLUGIN.so\n", argv[0]);
		return 2;
	}
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		std::fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	Dl_info info{};
	if (dladdr(reinterpret_cast<void *>(&ibv_get_device_list), &info))
		std::printf("ibv_get_device_list from %s\n", info.dli_fname);
	return 0;
}
