// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's providers under our library: the drivers that called
// verbs_register_driver_34, loading their plugins, matching a kernel
// device against them as rdma-core 44 does, and the devices they allocate.
#pragma once

#include <string>
#include <vector>

#include "../discovery.h"
#include "abi.h"

namespace ovb::rdmacore {

// Which provider families the library uses, in order of preference
// ($OPENVERBS_PROVIDERS: "openverbs", "rdma-core", or both separated by
// ',' or ':'; default "openverbs,rdma-core").  Ignored when setuid.
struct Families {
	bool ours = true;
	bool rdmacore = true;
	bool rdmacore_first = false;
};
Families families();
Families parse_families(const char *value);

// The drivers registered so far, in registration order.
std::vector<const DeviceOps *> drivers();

// dlopens rdma-core's plugin for a configured name as rdma-core's
// load_driver does (an absolute name, then <provider dir>/lib<name>-rdmav34.so,
// then the loader's search path).  False (with rdma-core's warning when
// warn) if none loads.
bool load_plugin(const std::string &name, bool warn);

// Where rdma-core's plugins live: $OPENVERBS_RDMACORE_PROVIDER_DIR, else
// the directory rdma-core was built with.
std::string plugin_dir();

// The device a registered driver makes for k (rdma-core's try_drivers:
// driver-id matches first, then names/modaliases/match_device, ABI
// window checked), or nullptr.  The device owns its SysfsDev.
VerbsDevice *make_device(const KernelDevice &k);

// Does one driver's table claim a device (without match_device and the
// ABI check)?  Exposed for tests.
const MatchEnt *table_match(const DeviceOps &ops, SysfsDev &dev,
			    bool by_id_only);

} // namespace ovb::rdmacore
