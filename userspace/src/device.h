// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// struct ibv_device as the library keeps it: one per kernel device, counted
// as rdma-core 44 counts its verbs_device.  The library's list of present
// devices holds one reference, every list ibv_get_device_list() hands out
// one, every open context one.  A device gone from the kernel leaves the
// library's list at the next ibv_get_device_list(); when its last
// reference goes, an rdma-core provider's device is released through its
// uninit_device op, and the ibv_device pointer is no longer valid.
#pragma once

#include <atomic>

#include <infiniband/verbs.h>

#include <openverbs/provider.h>

#include "discovery.h"
#include "rdmacore/abi.h"

namespace ovb {

class Device;

// The ibv_device of a device one of our providers drives.
struct DeviceShell {
	ibv_device ibv;
	Device *self;
};

// A device is driven either by one of our providers (provider()) or by
// one of rdma-core's (rdmacore(): the verbs_device its alloc_device made,
// which is then the ibv_device applications see).
class Device {
public:
	Device(const KernelDevice &k, const ovb_provider *p);
	Device(const KernelDevice &k, rdmacore::VerbsDevice *v);
	~Device();
	Device(const Device &) = delete;
	Device &operator=(const Device &) = delete;
	ibv_device *ibv() { return rc_ ? &rc_->device : &shell_.ibv; }
	const KernelDevice &kernel() const { return kdev_; }
	const ovb_provider *provider() const { return provider_; }
	rdmacore::VerbsDevice *rdmacore() const { return rc_; }

	// The Device of an ibv_device the library handed out.
	static Device *from(ibv_device *d);

	// rdma-core's ibverbs_device_hold/_put: the last put of a device
	// gone from the kernel releases it.
	void hold() { refs_.fetch_add(1, std::memory_order_relaxed); }
	void put();

private:
	DeviceShell shell_{};
	KernelDevice kdev_;
	const ovb_provider *provider_ = nullptr;
	rdmacore::VerbsDevice *rc_ = nullptr;
	std::atomic<int> refs_{1};	// the library's list's
	bool gone_ = false;		// left the library's list
	friend int current_devices(std::vector<Device *> &out);
};

// The current device list (discovers, loads providers as needed; drops
// the devices the kernel no longer has).  Each device in out comes with a
// reference for the caller.
int current_devices(std::vector<Device *> &out);

// Prints the library's identity once if OPENVERBS_IDENTIFY is set.
void identify_once();

} // namespace ovb
