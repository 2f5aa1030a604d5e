// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdmacore_device_release DEV NETDEV: when a library releases an rdma-core
// provider's device (its uninit_device op), on whichever libibverbs.so.1
// runs this program; rdma-core's is the reference (run it on both, expect
// the same lines).  The program registers a driver of its own for DEV (an
// rxe device on NETDEV) before the first device list, as a plugin does,
// and counts the devices it allocates and releases.  DEV is deleted and
// added again with `rdma link` on the way (root only), and is back at the
// end.  Prints one "ok"/"FAIL" line per check; exits 1 if one failed.
//
// Not covered: a device removed while one of its contexts is open (rxe
// has no disassociate: the removal waits for the context to close).
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

#include "../../src/rdmacore/abi.h"

using ovb::rdmacore::ContextOps;
using ovb::rdmacore::DeviceOps;
using ovb::rdmacore::MatchEnt;
using ovb::rdmacore::SysfsDev;
using ovb::rdmacore::VerbsDevice;

// rdma-core 44's private entry points (driver.h is not installed).
extern "C" {
void verbs_register_driver_34(const DeviceOps *ops);
void *_verbs_init_and_alloc_context(ibv_device *device, int cmd_fd,
				    size_t alloc_size,
				    verbs_context *context_offset,
				    uint32_t driver_id);
void verbs_uninit_context(verbs_context *context);
void verbs_set_ops(verbs_context *vctx, const ContextOps *ops);
int ibv_cmd_get_context(verbs_context *context, void *cmd, size_t cmd_size,
			ib_uverbs_get_context_resp *resp, size_t resp_size);
}

namespace {

int failed;
int allocated, released;
VerbsDevice *last_allocated, *last_released;

void check(bool ok, const std::string &what)
{
	std::printf("%s %s (allocated %d, released %d)\n", ok ? "ok" : "FAIL",
		    what.c_str(), allocated, released);
	failed |= !ok;
}

VerbsDevice *alloc_device(SysfsDev *)
{
	auto *v = static_cast<VerbsDevice *>(calloc(1, sizeof(VerbsDevice)));
	allocated++;
	last_allocated = v;
	return v;
}

void uninit_device(VerbsDevice *v)
{
	released++;
	last_released = v;
	free(v);
}

void free_context(ibv_context *ctx)
{
	auto *v = reinterpret_cast<verbs_context *>(
		reinterpret_cast<char *>(ctx) - offsetof(verbs_context, context));
	verbs_uninit_context(v);
	free(v);
}

verbs_context *alloc_context(ibv_device *dev, int fd, void *)
{
	auto *v = static_cast<verbs_context *>(_verbs_init_and_alloc_context(
		dev, fd, sizeof(verbs_context), nullptr, RDMA_DRIVER_RXE));
	if (!v)
		return nullptr;
	struct {
		ib_uverbs_cmd_hdr hdr;
		ib_uverbs_get_context core;
	} cmd{};
	ib_uverbs_get_context_resp resp{};
	if (ibv_cmd_get_context(v, &cmd, sizeof(cmd), &resp, sizeof(resp))) {
		verbs_uninit_context(v);
		free(v);
		return nullptr;
	}
	static ContextOps ops{};
	ops.free_context = free_context;
	verbs_set_ops(v, &ops);
	return v;
}

const MatchEnt kMatch[] = {
	{nullptr, {.driver_id = RDMA_DRIVER_RXE}, 0, 0,
	 ovb::rdmacore::kMatchDriverId},
	{},
};

const DeviceOps kOps = {
	.name = "release-check",
	.match_min_abi_version = 0,
	.match_max_abi_version = INT_MAX,
	.match_table = kMatch,
	.static_providers = nullptr,
	.match_device = nullptr,
	.alloc_context = alloc_context,
	.import_context = nullptr,
	.alloc_device = alloc_device,
	.uninit_device = uninit_device,
};

const char *g_dev, *g_netdev;

// The list and DEV in it (nullptr when absent).
ibv_device **list(ibv_device **dev)
{
	ibv_device **l = ibv_get_device_list(nullptr);
	*dev = nullptr;
	for (int i = 0; l && l[i]; i++)
		if (!std::strcmp(l[i]->name, g_dev))
			*dev = l[i];
	return l;
}

bool link(bool add)
{
	std::string cmd = add ? std::string("rdma link add ") + g_dev +
					" type rxe netdev " + g_netdev
			      : std::string("rdma link delete ") + g_dev;
	return std::system(cmd.c_str()) == 0;
}

// After `rdma link add`, the device node may take a moment.
ibv_device **list_until_present(ibv_device **dev)
{
	for (int i = 0; i < 50; i++) {
		ibv_device **l = list(dev);
		if (*dev)
			return l;
		ibv_free_device_list(l);
		usleep(100000);
	}
	return list(dev);
}

} // namespace

int main(int argc, char **argv)
{
	if (argc < 3) {
		std::fprintf(stderr, "usage: %s DEV NETDEV\n", argv[0]);
		return 2;
	}
	g_dev = argv[1];
	g_netdev = argv[2];
	verbs_register_driver_34(&kOps);

	ibv_device *dev, *again;
	ibv_device **l1 = list(&dev);
	check(dev && allocated == 1 && released == 0,
	      "first list: the driver allocated DEV");
	ibv_context *ctx = dev ? ibv_open_device(dev) : nullptr;
	check(ctx != nullptr, "DEV opens through the driver's alloc_context");
	ibv_free_device_list(l1);
	if (ctx)
		ibv_close_device(ctx);
	check(released == 0,
	      "list freed, context closed: a present device stays allocated");

	ibv_device **l2 = list(&again);
	check(again == dev && allocated == 1,
	      "next list: the same device, not allocated again");

	check(link(false), "rdma link delete DEV");
	ibv_device **l3 = list(&again);
	check(!again && released == 0,
	      "list after the removal: DEV gone, still held by the earlier list");
	ibv_free_device_list(l3);
	check(released == 0, "freeing the newer list releases nothing");
	ibv_free_device_list(l2);
	check(released == 1 && last_released == last_allocated,
	      "freeing the last list holding it: uninit_device of that device");

	check(link(true), "rdma link add DEV");
	ibv_device **l4 = list_until_present(&again);
	check(again && allocated == 2, "DEV back: a new device allocated");
	ibv_free_device_list(l4);
	check(released == 1, "its list freed: still present, still allocated");

	check(link(false), "rdma link delete DEV again");
	ibv_device **l5 = list(&again);
	check(!again && released == 2,
	      "held by nothing when it left the list: released at once");
	ibv_free_device_list(l5);

	check(link(true), "rdma link add DEV again");
	ibv_device **l6 = list_until_present(&again);
	check(again && allocated == 3 && released == 2, "DEV back at the end");
	ibv_free_device_list(l6);
	return failed;
}
