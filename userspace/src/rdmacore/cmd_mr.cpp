// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_* for MRs beyond reg/dereg: rereg_mr (the REREG_MR
// write() command, rdma-core 44 has no ioctl for it; the PD handle only
// when the PD changes; the provider's driver data after the core parts),
// and the ioctl-only query_mr, reg_dmabuf_mr and advise_mr.
#include <cerrno>

#include "../cmd/execute.h"
#include "../export.h"
#include "abi.h"
#include "cmdbuf.h"
#include "udata.h"

namespace ovb::rdmacore {
int answer(int rc);	// cmd_context.cpp
}

using namespace ovb;
using namespace ovb::rdmacore;

OVB_EXPORT int ibv_cmd_rereg_mr(VerbsMr *vmr, uint32_t flags, void *addr,
				size_t length, uint64_t hca_va, int access,
				ibv_pd *pd, void *cmd, size_t cmd_size,
				ovb_rereg_mr_resp *resp, size_t resp_size)
try {
	ibv_mr &mr = vmr->mr;
	ovb_rereg_mr_req req{};
	req.mr_handle = mr.handle;
	req.flags = flags;
	req.start = reinterpret_cast<uintptr_t>(addr);
	req.length = length;
	req.hca_va = hca_va;
	req.pd_handle = (flags & IBV_REREG_MR_CHANGE_PD) ? pd->handle : 0;
	req.access_flags = static_cast<uint32_t>(access);
	ovb_udata ud = write_udata<ovb_rereg_mr_req, ovb_rereg_mr_resp>(
		cmd, cmd_size, resp, resp_size);
	ovb_rereg_mr_resp core{};
	int rc = cmd::execute(mr.context, cmd::spec<OVB_CMD_REREG_MR>(), req,
			      &core, &ud);
	if (rc)
		return answer(rc);
	mr.lkey = core.lkey;
	mr.rkey = core.rkey;
	if (flags & IBV_REREG_MR_CHANGE_PD)
		mr.context = pd->context;
	if (resp) {
		resp->lkey = core.lkey;
		resp->rkey = core.rkey;
	}
	return 0;
} OVB_ABI_CATCH

// An MR another context exported (ibv_import_mr): its keys and length by
// handle, an ioctl method only.
OVB_EXPORT int ibv_cmd_query_mr(ibv_pd *pd, VerbsMr *vmr, uint32_t mr_handle)
try {
	ibv_mr &mr = vmr->mr;
	IoctlCall call(OVB_OBJECT_MR, OVB_METHOD_QUERY_MR, 4);
	call.obj_in(OVB_ATTR_QUERY_MR_HANDLE, mr_handle);
	call.ptr_out(OVB_ATTR_QUERY_MR_RESP_LKEY, &mr.lkey, sizeof(mr.lkey));
	call.ptr_out(OVB_ATTR_QUERY_MR_RESP_RKEY, &mr.rkey, sizeof(mr.rkey));
	call.ptr_out(OVB_ATTR_QUERY_MR_RESP_LENGTH, &mr.length,
		     sizeof(mr.length));
	int rc = call.run(pd->context);
	if (rc)
		return answer(rc);
	mr.handle = mr_handle;
	mr.context = pd->context;
	mr.pd = pd;
	mr.addr = nullptr;
	vmr->mr_type = kMrTypeImportedMr;
	return 0;
} OVB_ABI_CATCH

// An MR on a dma-buf (fd, offset into it): an ioctl method only.
OVB_EXPORT int ibv_cmd_reg_dmabuf_mr(ibv_pd *pd, uint64_t offset,
				     size_t length, uint64_t iova, int fd,
				     int access, VerbsMr *vmr)
try {
	IoctlCall call(OVB_OBJECT_MR, OVB_METHOD_REG_DMABUF_MR, 9);
	uint32_t lkey = 0, rkey = 0;
	size_t handle = call.obj_out(OVB_ATTR_REG_DMABUF_MR_HANDLE);
	call.ptr_out(OVB_ATTR_REG_DMABUF_MR_RESP_LKEY, &lkey, sizeof(lkey));
	call.ptr_out(OVB_ATTR_REG_DMABUF_MR_RESP_RKEY, &rkey, sizeof(rkey));
	call.obj_in(OVB_ATTR_REG_DMABUF_MR_PD_HANDLE, pd->handle);
	call.u64_in(OVB_ATTR_REG_DMABUF_MR_OFFSET, offset);
	call.u64_in(OVB_ATTR_REG_DMABUF_MR_LENGTH, length);
	call.u64_in(OVB_ATTR_REG_DMABUF_MR_IOVA, iova);
	call.u32_in(OVB_ATTR_REG_DMABUF_MR_FD, static_cast<uint32_t>(fd));
	call.u32_in(OVB_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
		    static_cast<uint32_t>(access));
	int rc = call.run(pd->context);
	if (rc)
		return answer(rc);
	ibv_mr &mr = vmr->mr;
	mr.handle = call.handle(handle);
	mr.context = pd->context;
	mr.lkey = lkey;
	mr.rkey = rkey;
	mr.pd = pd;
	mr.addr = reinterpret_cast<void *>(static_cast<uintptr_t>(offset));
	mr.length = length;
	vmr->mr_type = kMrTypeDmabufMr;
	return 0;
} OVB_ABI_CATCH

// Prefetch advice for ODP MRs: an ioctl method only.
OVB_EXPORT int ibv_cmd_advise_mr(ibv_pd *pd, ibv_advise_mr_advice advice,
				 uint32_t flags, ibv_sge *sg_list,
				 uint32_t num_sge)
try {
	IoctlCall call(OVB_OBJECT_MR, OVB_METHOD_ADVISE_MR, 4);
	call.obj_in(OVB_ATTR_ADVISE_MR_PD_HANDLE, pd->handle);
	call.u64_in(OVB_ATTR_ADVISE_MR_ADVICE, advice);
	call.u32_in(OVB_ATTR_ADVISE_MR_FLAGS, flags);
	call.ptr_in(OVB_ATTR_ADVISE_MR_SGE_LIST, sg_list,
		    size_t{num_sge} * sizeof(*sg_list));
	return call.run(pd->context);
} OVB_ABI_CATCH
