// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ibv_init_ah_from_wc()'s logic, apart from the device: the reply address
// built from a received completion and its GRH, answering as libibverbs 44.
#pragma once

#include <cstdint>
#include <functional>

#include <infiniband/verbs.h>

namespace ovb::ah {

// The GID table of a port, read entry by entry: 0 with the entry's GID and
// its sysfs type (0: IB/RoCE v1, 1: RoCE v2), or the failed query's return
// value (errno set) once past the end.
using GidReader = std::function<int(int index, ibv_gid &gid, unsigned &type)>;

// What the 40 bytes in front of a UD receive hold.
enum class GrhKind { ipv4, ipv6, unknown };
GrhKind classify(const ibv_grh &grh);

// 0, or -1 / the GID reader's failure with errno set (EINVAL: multicast
// destination; EPROTONOSUPPORT: neither IPv4 nor IPv6, or an IPv6 next
// header that is neither UDP nor the IB BTH).
int from_wc(const GidReader &gids, uint8_t port, const ibv_wc &wc,
	    const ibv_grh &grh, ibv_ah_attr &attr);

} // namespace ovb::ah
