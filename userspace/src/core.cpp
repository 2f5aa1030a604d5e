// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The table of services handed to every provider.
#include "core.h"

#include <cstdarg>

#include "log.h"
#include "providers.h"

namespace ovb {

void core_log(ibv_context *, int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log::vwrite(static_cast<uint32_t>(level), fmt, ap);
	va_end(ap);
}

static int core_create_cq_with_flags(ibv_context *ctx, int cqe,
				     ibv_comp_channel *channel, int comp_vector,
				     uint32_t flags, ibv_cq *cq, ovb_udata *ud)
{
	return core_create_cq_flags(ctx, cqe, channel, comp_vector, cq, ud,
				    flags, flags != 0);
}

const ovb_core &core()
{
	static const ovb_core table = {
		.abi_version = OVB_PROVIDER_ABI_VERSION,
		.open_context = core_open_context,
		.close_context = core_close_context,
		.query_device_ex = core_query_device_ex,
		.query_port = core_query_port,
		.alloc_pd = core_alloc_pd,
		.dealloc_pd = core_dealloc_pd,
		.reg_mr = core_reg_mr,
		.dereg_mr = core_dereg_mr,
		.alloc_mw = core_alloc_mw,
		.dealloc_mw = core_dealloc_mw,
		.create_cq = core_create_cq,
		.resize_cq = core_resize_cq,
		.req_notify_cq = core_req_notify_cq,
		.destroy_cq = core_destroy_cq,
		.create_qp = core_create_qp,
		.query_qp = core_query_qp,
		.modify_qp = core_modify_qp,
		.destroy_qp = core_destroy_qp,
		.create_srq = core_create_srq,
		.modify_srq = core_modify_srq,
		.query_srq = core_query_srq,
		.destroy_srq = core_destroy_srq,
		.create_ah = core_create_ah,
		.destroy_ah = core_destroy_ah,
		.attach_mcast = core_attach_mcast,
		.detach_mcast = core_detach_mcast,
		.log = core_log,
		.create_cq_flags = core_create_cq_with_flags,
		.post_send = core_post_send,
		.post_recv = core_post_recv,
		.post_srq_recv = core_post_srq_recv,
		.poll_cq = core_poll_cq,
	};
	return table;
}

} // namespace ovb
