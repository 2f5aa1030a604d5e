// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// struct ibv_device as the library keeps it: one per kernel device ever
// seen, alive until the process ends (applications may hold a device
// pointer after freeing the list, while a context is open).
#pragma once

#include <infiniband/verbs.h>

#include <openverbs/provider.h>

#include "discovery.h"

namespace ovb {

class Device;

// Standard-layout shell, so ibv_device * converts back to our Device.
struct DeviceShell {
	ibv_device ibv;
	Device *self;
};

class Device {
public:
	Device(const KernelDevice &k, const ovb_provider *p);
	ibv_device *ibv() { return &shell_.ibv; }
	const KernelDevice &kernel() const { return kdev_; }
	const ovb_provider *provider() const { return provider_; }

	static Device *from(ibv_device *d)
	{
		return reinterpret_cast<DeviceShell *>(d)->self;
	}

private:
	DeviceShell shell_{};
	KernelDevice kdev_;
	const ovb_provider *provider_;
};

// The current device list (discovers, loads providers as needed).
int current_devices(std::vector<Device *> &out);

// Prints the library's identity once if OPENVERBS_IDENTIFY is set.
void identify_once();

} // namespace ovb
