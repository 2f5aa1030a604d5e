// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The siw provider's entry point: which devices it drives, opening a
// context (siw answers GET_CONTEXT with its device id), device and port
// queries, and the ops table.
#include "siw.h"

#include <new>
#include <openverbs/ioctl-abi.h>

#include "device_query.h"	// providers/common

namespace siw {

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
	Context *ctx = to_ctx(ibctx);
	core->close_context(&ctx->vctx);
	delete ctx;
}

// Left out, so the library answers EOPNOTSUPP as libsiw does: AHs (no UD
// on iWARP), MWs and bind_mw, extended CQs and QPs, resize_cq,
// multicast.  PDs are the library's plain ones (no driver data).
const ovb_context_ops kOps = {
	.query_device_ex = query_device_ex,
	.query_port = query_port,
	.alloc_pd = nullptr,
	.dealloc_pd = nullptr,
	.reg_mr = reg_mr,
	.dereg_mr = dereg_mr,
	.alloc_mw = nullptr,
	.dealloc_mw = nullptr,
	.bind_mw = nullptr,
	.create_cq = create_cq,
	.create_cq_ex = nullptr,
	.poll_cq = poll_cq,
	.req_notify_cq = req_notify_cq,
	.resize_cq = nullptr,
	.destroy_cq = destroy_cq,
	.create_srq = create_srq,
	.modify_srq = modify_srq,
	.query_srq = query_srq,
	.destroy_srq = destroy_srq,
	.post_srq_recv = post_srq_recv,
	.create_qp = create_qp,
	.create_qp_ex = nullptr,
	.query_qp = query_qp,
	.modify_qp = modify_qp,
	.destroy_qp = destroy_qp,
	.post_send = post_send,
	.post_recv = post_recv,
	.create_ah = nullptr,
	.destroy_ah = nullptr,
	.attach_mcast = nullptr,
	.detach_mcast = nullptr,
	.free_context = free_context,
};

verbs_context *alloc_context(ibv_device *dev, int cmd_fd)
{
	auto *ctx = new (std::nothrow) Context{};
	if (!ctx) {
		errno = ENOMEM;
		return nullptr;
	}
	ovb_siw_uresp_alloc_ctx resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = core->open_context(&ctx->vctx, dev, cmd_fd, &ud, nullptr,
				    &kOps);
	if (rc) {
		delete ctx;
		errno = rc;
		return nullptr;
	}
	ctx->dev_id = resp.dev_id;
	return &ctx->vctx;
}

constexpr ovb_match kMatch[] = {
	{OVB_MATCH_DRIVER_ID, OVB_DRIVER_SIW, nullptr},
	{OVB_MATCH_NAME_PREFIX, 0, "siw"},
	{OVB_MATCH_END, 0, nullptr},
};

const ovb_provider kProvider = {
	.abi_version = OVB_PROVIDER_ABI_VERSION,
	.name = "siw",
	.min_abi = OVB_SIW_ABI_VERSION,
	.max_abi = OVB_SIW_ABI_VERSION,
	.match = kMatch,
	.alloc_context = alloc_context,
};

} // namespace

} // namespace siw

extern "C" __attribute__((visibility("default")))
const ovb_provider *OVB_PROVIDER_ENTRY(const ovb_core *core)
{
	if (!core || core->abi_version != OVB_PROVIDER_ABI_VERSION)
		return nullptr;
	siw::core = core;
	return &siw::kProvider;
}
