// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// GID and P_Key tables from sysfs (ib_core's ports/<p>/gids, gid_attrs,
// pkeys): how libibverbs reads them when the kernel has no GID ioctl.
#pragma once

#include <infiniband/verbs.h>
#include <string>

namespace ovb::gid {

// Parses "xxxx:xxxx:...:xxxx" (8 groups).
bool parse(const char *text, ibv_gid &gid);

bool is_zero(const ibv_gid &gid);

// 0 or an errno.
int read_gid(const std::string &ibdev_path, unsigned port, unsigned index,
	     ibv_gid &gid);

enum class SysfsType { ib_roce_v1, roce_v2 };
// 0, or an errno (EINVAL for an unknown type string).
int read_type(const std::string &ibdev_path, unsigned port, unsigned index,
	      SysfsType &type);

// The netdev ifindex of a GID, 0 when none is reported; -1 on error.
int read_ifindex(const std::string &ibdev_path, unsigned port, unsigned index);

} // namespace ovb::gid
