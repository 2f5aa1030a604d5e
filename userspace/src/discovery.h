// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Finding the kernel's verbs devices: RDMA netlink first, sysfs
// (/sys/class/infiniband_verbs) only when NETLINK_RDMA is unavailable or
// its dump fails, exactly when libibverbs falls back.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ovb {

// One kernel verbs device, as discovery saw it.
struct KernelDevice {
	std::string sysfs_name;		// "uverbs0"
	std::string ibdev_name;		// "rxe0"
	std::string sysfs_path;		// /sys/class/infiniband_verbs/uverbs0
	std::string ibdev_path;		// /sys/class/infiniband/rxe0
	dev_t devnum = 0;		// of /dev/infiniband/uverbs0
	uint32_t abi_ver = 0;		// the driver's uverbs ABI
	uint32_t driver_id = 0;		// enum ovb_driver_id, 0 unknown
	int ibdev_idx = -1;		// netlink index, -1 in sysfs mode
	uint32_t num_ports = 0;		// netlink only
	uint64_t node_guid = 0;		// host order, netlink only
	bool have_node_guid = false;
	int node_type = 0;		// enum ibv_node_type
	timespec time_created{};	// mtime of ibdev_path (sysfs mode)

	bool same(const KernelDevice &o) const;
};

// The kernel's RDMA_NODE_* numbering to enum ibv_node_type.
int node_type_from_kernel(unsigned long knode);

// 0 and the devices, or a positive errno (ENOSYS: no verbs support at
// all, which ibv_get_device_list reports).  Prints rdma-core's fatal ABI
// message when the class ABI does not fit.
int discover_devices(std::vector<KernelDevice> &out);

} // namespace ovb
