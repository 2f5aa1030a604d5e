// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// QUERY_DEVICE_EX as the software providers answer it: the core's query,
// then the firmware version, which the kernel reports as one u64 of 16-bit
// fields, printed "major.minor.sub" into fw_ver as rdma-core's providers do.
#pragma once

#include <cstdint>
#include <cstdio>

#include <openverbs/provider.h>

namespace ovb {

inline int query_device_ex_with_fw(const ovb_core *core, ibv_context *ctx,
				   ibv_device_attr_ex *attr, size_t attr_size)
{
	uint64_t fw;
	int rc = core->query_device_ex(ctx, attr, attr_size, &fw);

	if (rc)
		return rc;
	std::snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
		      "%d.%d.%d", static_cast<int>((fw >> 32) & 0xffff),
		      static_cast<int>((fw >> 16) & 0xffff),
		      static_cast<int>(fw & 0xffff));
	return 0;
}

} // namespace ovb
