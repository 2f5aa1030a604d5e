// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_* for counters objects (flow counters, mlx5): ioctl
// methods only, with the provider's chained driver attributes.
#include <cerrno>

#include "../export.h"
#include "cmdbuf.h"

namespace ovb::rdmacore {
int answer(int rc);	// cmd_context.cpp
int destroyed(int rc);
}

using namespace ovb::rdmacore;

OVB_EXPORT int ibv_cmd_create_counters(ibv_context *ctx,
				       ibv_counters_init_attr *attr,
				       VerbsCounters *vc, CommandBuffer *link)
try {
	IoctlCall call(OVB_OBJECT_COUNTERS, OVB_METHOD_COUNTERS_CREATE, 1, link);
	size_t handle = call.obj_out(OVB_ATTR_CREATE_COUNTERS_HANDLE);
	if (attr->comp_mask)
		return answer(EOPNOTSUPP);
	int rc = call.run(ctx);
	if (rc)
		return answer(rc);
	vc->counters.context = ctx;
	vc->handle = call.handle(handle);
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_destroy_counters(VerbsCounters *vc)
try {
	IoctlCall call(OVB_OBJECT_COUNTERS, OVB_METHOD_COUNTERS_DESTROY, 1);
	call.obj_in(OVB_ATTR_DESTROY_COUNTERS_HANDLE, vc->handle);
	return destroyed(call.run(vc->counters.context));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_read_counters(VerbsCounters *vc, uint64_t *values,
				     uint32_t count, uint32_t flags,
				     CommandBuffer *link)
try {
	IoctlCall call(OVB_OBJECT_COUNTERS, OVB_METHOD_COUNTERS_READ, 3, link);
	call.obj_in(OVB_ATTR_READ_COUNTERS_HANDLE, vc->handle);
	call.ptr_out(OVB_ATTR_READ_COUNTERS_BUFF, values,
		     size_t{count} * sizeof(*values));
	call.u32_in(OVB_ATTR_READ_COUNTERS_FLAGS, flags);
	return answer(call.run(vc->counters.context));
} OVB_ABI_CATCH
