// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// struct ibv_device as the library keeps it: one per kernel device ever
// seen, alive until the process ends (applications may hold a device
// pointer after freeing the list, while a context is open).
#pragma once

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
	ibv_device *ibv() { return rc_ ? &rc_->device : &shell_.ibv; }
	const KernelDevice &kernel() const { return kdev_; }
	const ovb_provider *provider() const { return provider_; }
	rdmacore::VerbsDevice *rdmacore() const { return rc_; }

	// The Device of an ibv_device the library handed out.
	static Device *from(ibv_device *d);

private:
	DeviceShell shell_{};
	KernelDevice kdev_;
	const ovb_provider *provider_ = nullptr;
	rdmacore::VerbsDevice *rc_ = nullptr;
};

// The current device list (discovers, loads providers as needed).
int current_devices(std::vector<Device *> &out);

// Prints the library's identity once if OPENVERBS_IDENTIFY is set.
void identify_once();

} // namespace ovb
