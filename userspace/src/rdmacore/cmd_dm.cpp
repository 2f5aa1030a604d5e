// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_* for device memory: allocating and freeing it and
// registering an MR on it, ioctl methods only (rdma-core 44 has no
// write() form), with the provider's chained driver attributes.
#include <cerrno>

#include "../export.h"
#include "cmdbuf.h"

namespace ovb::rdmacore {
int answer(int rc);	// cmd_context.cpp
int destroyed(int rc);
}

using namespace ovb::rdmacore;

OVB_EXPORT int ibv_cmd_alloc_dm(ibv_context *ctx, const ibv_alloc_dm_attr *attr,
				VerbsDm *vdm, CommandBuffer *link)
try {
	IoctlCall call(OVB_OBJECT_DM, OVB_METHOD_DM_ALLOC, 3, link);
	size_t handle = call.obj_out(OVB_ATTR_ALLOC_DM_HANDLE);
	call.u64_in(OVB_ATTR_ALLOC_DM_LENGTH, attr->length);
	call.u32_in(OVB_ATTR_ALLOC_DM_ALIGNMENT, attr->log_align_req);
	int rc = call.run(ctx);
	if (rc)
		return answer(rc);
	vdm->handle = call.handle(handle);
	vdm->dm.handle = vdm->handle;
	vdm->dm.comp_mask = IBV_DM_MASK_HANDLE;
	vdm->dm.context = ctx;
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_free_dm(VerbsDm *vdm)
try {
	IoctlCall call(OVB_OBJECT_DM, OVB_METHOD_DM_FREE, 1);
	call.obj_in(OVB_ATTR_FREE_DM_HANDLE, vdm->handle);
	return destroyed(call.run(vdm->dm.context));
} OVB_ABI_CATCH

// DM MRs are zero-based (the memory has no address of the process's).
OVB_EXPORT int ibv_cmd_reg_dm_mr(ibv_pd *pd, VerbsDm *vdm, uint64_t offset,
				 size_t length, unsigned int access,
				 VerbsMr *vmr, CommandBuffer *link)
try {
	if (!(access & IBV_ACCESS_ZERO_BASED))
		return answer(EINVAL);
	IoctlCall call(OVB_OBJECT_MR, OVB_METHOD_DM_MR_REG, 8, link);
	uint32_t lkey = 0, rkey = 0;
	size_t handle = call.obj_out(OVB_ATTR_REG_DM_MR_HANDLE);
	call.ptr_out(OVB_ATTR_REG_DM_MR_RESP_LKEY, &lkey, sizeof(lkey));
	call.ptr_out(OVB_ATTR_REG_DM_MR_RESP_RKEY, &rkey, sizeof(rkey));
	call.obj_in(OVB_ATTR_REG_DM_MR_PD_HANDLE, pd->handle);
	call.obj_in(OVB_ATTR_REG_DM_MR_DM_HANDLE, vdm->handle);
	call.u64_in(OVB_ATTR_REG_DM_MR_OFFSET, offset);
	call.u64_in(OVB_ATTR_REG_DM_MR_LENGTH, length);
	call.u32_in(OVB_ATTR_REG_DM_MR_ACCESS_FLAGS, access);
	int rc = call.run(pd->context);
	if (rc)
		return answer(rc);
	ibv_mr &mr = vmr->mr;
	mr.handle = call.handle(handle);
	mr.context = pd->context;
	mr.lkey = lkey;
	mr.rkey = rkey;
	mr.length = length;
	mr.pd = pd;
	mr.addr = nullptr;
	vmr->mr_type = kMrTypeMr;
	return 0;
} OVB_ABI_CATCH
