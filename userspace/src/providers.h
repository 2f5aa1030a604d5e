// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Finding, loading and matching providers.  Names come from RDMAV_DRIVERS /
// IBV_DRIVERS, our own config directory (config_dir(), same format) and
// rdma-core's (/etc/libibverbs.d/*.driver: "driver <name>"), so installed
// systems select ours without new configuration; the shared objects are
// ours (see <openverbs/provider.h>).
#pragma once

#include <string>
#include <vector>

#include <openverbs/provider.h>

#include "discovery.h"

namespace ovb {

// The directory libibverbs.so.1 was loaded from.
std::string library_dir();

// Where lib<name>-openverbs.so files live: $OPENVERBS_PROVIDER_DIR, else
// providers/ next to the library.
std::string provider_dir();

// Our config directory: $OPENVERBS_CONFIG_DIR, else OVB_CONFIG_RELDIR (the
// install's <sysconfdir>/openverbs/libibverbs.d, relative to the library's
// directory so that an install prefix can move).  Environment variables are
// ignored in setuid programs.
std::string config_dir();

// The provider file name for a configured driver name.
std::string provider_path(const std::string &name);

// Names listed in the config directory, in directory order (warnings as
// libibverbs prints them; a missing directory only when warn_missing).
// Exposed for tests.
std::vector<std::string> read_config_dir(const char *dir, bool warn_missing = true);

// Splits an RDMAV_DRIVERS value at ':' and ';'.
std::vector<std::string> split_driver_list(const char *env);

// Does one provider claim this device (table only, ABI not checked)?
// by_id: only OVB_MATCH_DRIVER_ID entries, else only name/modalias ones.
bool provider_matches(const ovb_provider &p, const KernelDevice &d,
		      bool by_id, const std::string &modalias);

// Loads one family's plugin for every configured name, once per family
// (rdma-core's register themselves from their constructors).
enum class ProviderFamily { openverbs, rdmacore };
void load_providers(ProviderFamily family);

// The providers registered so far (built-in order of loading).
const std::vector<const ovb_provider *> &registered_providers();

// The provider for d (after the ABI check, with libibverbs' warning), or
// nullptr.
const ovb_provider *match_provider(const KernelDevice &d);

// The services every provider receives.
const ovb_core &core();

} // namespace ovb
