// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The rxe provider's entry point: which devices it drives, opening a
// context, device and port queries.
#include "rxe.h"

#include <cerrno>
#include <openverbs/ioctl-abi.h>

#include "device_query.h"	// providers/common

namespace rxe {

const ovb_core *core;

namespace {

int query_device_ex(ibv_context *ctx, const ibv_query_device_ex_input *,
		    ibv_device_attr_ex *attr, size_t attr_size)
{
	return ovb::query_device_ex_with_fw(core, ctx, attr, attr_size);
}

int query_port(ibv_context *ctx, uint8_t port, ibv_port_attr *attr,
	       size_t attr_size)
{
	return core->query_port(ctx, port, attr, attr_size);
}

void free_context(ibv_context *ibctx)
{
	auto *ctx = reinterpret_cast<Context *>(verbs_get_ctx(ibctx));
	core->close_context(&ctx->vctx);
	delete ctx;
}

const ovb_context_ops kOps = {
	.query_device_ex = query_device_ex,
	.query_port = query_port,
	// PDs, MRs and MWs: the library's plain ones (no driver data).
	.alloc_pd = nullptr,
	.dealloc_pd = nullptr,
	.reg_mr = nullptr,
	.dereg_mr = nullptr,
	.alloc_mw = nullptr,
	.dealloc_mw = nullptr,
	.bind_mw = bind_mw,
	.create_cq = create_cq,
	.create_cq_ex = create_cq_ex,
	.poll_cq = poll_cq,
	.req_notify_cq = req_notify_cq,
	.resize_cq = resize_cq,
	.destroy_cq = destroy_cq,
	.create_srq = create_srq,
	.modify_srq = modify_srq,
	.query_srq = query_srq,
	.destroy_srq = destroy_srq,
	.post_srq_recv = post_srq_recv,
	.create_qp = create_qp,
	.create_qp_ex = create_qp_ex,
	.query_qp = query_qp,
	.modify_qp = modify_qp,
	.destroy_qp = destroy_qp,
	.post_send = post_send,
	.post_recv = post_recv,
	.create_ah = create_ah,
	.destroy_ah = destroy_ah,
	.attach_mcast = [](ibv_qp *qp, const ibv_gid *gid, uint16_t lid) {
		return core->attach_mcast(qp, gid, lid);
	},
	.detach_mcast = [](ibv_qp *qp, const ibv_gid *gid, uint16_t lid) {
		return core->detach_mcast(qp, gid, lid);
	},
	.free_context = free_context,
};

// rxe's GET_CONTEXT carries no driver data either way.
verbs_context *alloc_context(ibv_device *dev, int cmd_fd)
{
	auto *ctx = new (std::nothrow) Context{};
	int rc = ctx ? core->open_context(&ctx->vctx, dev, cmd_fd, nullptr,
					  nullptr, &kOps)
		     : ENOMEM;
	if (rc) {
		delete ctx;
		errno = rc;
		return nullptr;
	}
	return &ctx->vctx;
}

// rdma_rxe reports uverbs ABI 2 (1 is the same layout on 64-bit).
constexpr ovb_match kMatch[] = {
	{OVB_MATCH_DRIVER_ID, OVB_DRIVER_RXE, nullptr},
	{OVB_MATCH_NAME_PREFIX, 0, "rxe"},
	{OVB_MATCH_END, 0, nullptr},
};

const ovb_provider kProvider = {
	.abi_version = OVB_PROVIDER_ABI_VERSION,
	.name = "rxe",
	.min_abi = sizeof(void *) == 8 ? 1 : 2,
	.max_abi = OVB_RXE_UVERBS_ABI_VERSION,
	.match = kMatch,
	.alloc_context = alloc_context,
};

} // namespace

} // namespace rxe

extern "C" __attribute__((visibility("default")))
const ovb_provider *OVB_PROVIDER_ENTRY(const ovb_core *core)
{
	if (!core || core->abi_version != OVB_PROVIDER_ABI_VERSION)
		return nullptr;
	rxe::core = core;
	return &rxe::kProvider;
}
