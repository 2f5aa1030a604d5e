// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_* for the context, device, port, PD, MR and MW, on
// our command layer (core_*.cpp).  Each returns 0 or a positive errno
// (also left in errno), as rdma-core's.
#include <cerrno>
#include <cstring>

#include "../context.h"
#include "../core.h"
#include "../export.h"
#include "../device.h"
#include "cmdbuf.h"
#include "udata.h"

extern "C" bool verbs_allow_disassociate_destroy;	// private_34.cpp

namespace ovb::rdmacore {

int answer(int rc)
{
	if (rc)
		errno = rc;
	return rc;
}

// A destroy after a hot-unplug (EIO) counts as done when the application
// allows it (RDMAV_ALLOW_DISASSOC_DESTROY), so the provider frees its
// object, as rdma-core's destroys do.
int destroyed(int rc)
{
	if (rc == EIO && verbs_allow_disassociate_destroy)
		rc = 0;
	return answer(rc);
}

} // namespace ovb::rdmacore

using namespace ovb;
using namespace ovb::rdmacore;

OVB_EXPORT int ibv_cmd_get_context(verbs_context *vctx, void *cmd,
				   size_t cmd_size, ovb_get_context_resp *resp,
				   size_t resp_size)
try {
	ovb_udata ud = write_udata<ovb_get_context_req, ovb_get_context_resp>(
		cmd, cmd_size, resp, resp_size);
	ibv_context *ctx = &vctx->context;
	int rc = get_context(ctx, &ud);
	if (rc)
		return answer(rc);
	if (resp && resp_size >= sizeof(*resp)) {
		resp->async_fd = static_cast<uint32_t>(ctx->async_fd);
		resp->num_comp_vectors = static_cast<uint32_t>(ctx->num_comp_vectors);
	}
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_query_device_any(ibv_context *ctx,
					const ibv_query_device_ex_input *input,
					ibv_device_attr_ex *attr,
					size_t attr_size,
					ovb_ex_query_device_resp *resp,
					size_t *resp_size)
try {
	if (input && input->comp_mask)
		return answer(EINVAL);
	if (attr_size < sizeof(attr->orig_attr))
		return answer(EINVAL);
	std::memset(attr, 0, attr_size);
	// The provider's response struct is the kernel's core response with
	// its driver's after it (efa's limits, mlx5's capabilities): the
	// extended command asks for both.
	ovb_udata ud{};
	if (resp && resp_size)
		ud = driver_udata(nullptr, 0, 0, 0, resp, *resp_size,
				  sizeof(ovb_ex_query_device_resp));
	ovb_ex_query_device_resp raw;
	int rc = core_query_device_any(ctx, attr, attr_size, raw, &ud);
	if (rc)
		return answer(rc);
	if (resp && resp_size) {
		size_t n = sizeof(raw);
		if (n > *resp_size)
			n = *resp_size;
		std::memcpy(resp, &raw, n);
		*resp_size = raw.response_length;
	}
	return 0;
} OVB_ABI_CATCH

// The context's comp vectors and the kernel's core support bits (which
// rdma-core keeps in the verbs_device), an ioctl method only.
OVB_EXPORT int ibv_cmd_query_context(ibv_context *ctx, CommandBuffer *link)
try {
	IoctlCall call(OVB_OBJECT_DEVICE, OVB_METHOD_QUERY_CONTEXT, 2, link);
	uint64_t core_support = 0;
	call.ptr_out(OVB_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
		     &ctx->num_comp_vectors, sizeof(ctx->num_comp_vectors));
	call.ptr_out(OVB_ATTR_QUERY_CONTEXT_CORE_SUPPORT, &core_support,
		     sizeof(core_support));
	int rc = call.run(ctx);
	if (rc)
		return rc;
	priv(ctx)->core_support = core_support;
	if (VerbsDevice *v = priv(ctx)->device->rdmacore())
		v->core_support = core_support;
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_query_port(ibv_context *ctx, uint8_t port,
				  ibv_port_attr *attr, void *, size_t)
try {
	return answer(core_query_port(ctx, port, attr, sizeof(*attr)));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_alloc_pd(ibv_context *ctx, ibv_pd *pd, void *cmd,
				size_t cmd_size, ovb_alloc_pd_resp *resp,
				size_t resp_size)
try {
	ovb_udata ud = write_udata<ovb_alloc_pd_req, ovb_alloc_pd_resp>(
		cmd, cmd_size, resp, resp_size);
	int rc = core_alloc_pd(ctx, pd, &ud);
	if (!rc && resp)
		resp->pd_handle = pd->handle;
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_dealloc_pd(ibv_pd *pd)
try {
	return destroyed(core_dealloc_pd(pd));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_reg_mr(ibv_pd *pd, void *addr, size_t length,
			      uint64_t hca_va, int access, VerbsMr *vmr,
			      void *cmd, size_t cmd_size,
			      ovb_reg_mr_resp *resp, size_t resp_size)
try {
	ovb_udata ud = write_udata<ovb_reg_mr_req, ovb_reg_mr_resp>(
		cmd, cmd_size, resp, resp_size);
	int rc = core_reg_mr(pd, addr, length, hca_va, access, &vmr->mr,
			     &ud);
	if (rc)
		return answer(rc);
	vmr->mr_type = 0;	// IBV_MR_TYPE_MR
	vmr->access = access;
	if (resp) {
		resp->mr_handle = vmr->mr.handle;
		resp->lkey = vmr->mr.lkey;
		resp->rkey = vmr->mr.rkey;
	}
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_dereg_mr(VerbsMr *vmr)
try {
	return destroyed(core_dereg_mr(&vmr->mr));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_alloc_mw(ibv_pd *pd, ibv_mw_type type, ibv_mw *mw,
				void *cmd, size_t cmd_size,
				ovb_alloc_mw_resp *resp, size_t resp_size)
try {
	ovb_udata ud = write_udata<ovb_alloc_mw_req, ovb_alloc_mw_resp>(
		cmd, cmd_size, resp, resp_size);
	int rc = core_alloc_mw(pd, type, mw, &ud);
	if (!rc && resp) {
		resp->mw_handle = mw->handle;
		resp->rkey = mw->rkey;
	}
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_dealloc_mw(ibv_mw *mw)
try {
	return destroyed(core_dealloc_mw(mw));
} OVB_ABI_CATCH
