// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// dlopens rdma-core provider plugins (lib<name>-rdmav34.so), one after the
// other, in a process linked against our libibverbs.so.1: each
// constructor calls verbs_register_driver_34, which the library logs
// ("rdma-core provider <name> registered", VERBS_LOG_LEVEL=4).  With
// VERBS_LOG_FILE=/dev/stdout the log lines follow the "plugin PATH" line
// this prints before each dlopen.  Run by tests/guest/rdmacore-provider
// for every plugin Debian installs.
#include <cstdio>
#include <dlfcn.h>

#include <infiniband/verbs.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s PLUGIN.so...\n", argv[0]);
		return 2;
	}
	Dl_info info{};
	if (dladdr(reinterpret_cast<void *>(&ibv_get_device_list), &info))
		std::printf("ibv_get_device_list from %s\n", info.dli_fname);
	int failed = 0;
	for (int i = 1; i < argc; i++) {
		std::printf("plugin %s\n", argv[i]);
		std::fflush(stdout);
		if (!dlopen(argv[i], RTLD_NOW)) {
			std::printf("dlopen failed: %s\n", dlerror());
			failed++;
		}
		std::fflush(stdout);
	}
	return failed ? 1 : 0;
}
