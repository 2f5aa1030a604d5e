// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CQ commands.  Destroy waits until the application acknowledged every
// event the kernel reported for the CQ.

#include "cmd/execute.h"
#include "cmd/methods.h"
#include "cmd/transport.h"
#include "core.h"

namespace ovb {

// The extended write() command: the one that carries CQ flags.
static int create_cq_write_ex(ibv_context *ctx, int cqe,
			      ibv_comp_channel *channel, int comp_vector,
			      uint32_t flags, ibv_cq *cq, ovb_udata *ud)
{
	ovb_ex_create_cq_req req{};
	ovb_ex_create_cq_resp resp{};
	req.user_handle = reinterpret_cast<uintptr_t>(cq);
	req.cqe = static_cast<uint32_t>(cqe);
	req.comp_vector = static_cast<uint32_t>(comp_vector);
	req.comp_channel = channel ? channel->fd : -1;
	req.flags = flags;
	int rc = cmd::execute(ctx, cmd::spec<OVB_EX_CMD_CREATE_CQ,
					     cmd::Framing::extended>(),
			      req, &resp, ud);
	if (rc)
		return rc;
	cq->context = ctx;
	cq->handle = resp.base.cq_handle;
	cq->cqe = static_cast<int>(resp.base.cqe);
	return 0;
}

int core_create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *channel,
		   int comp_vector, ibv_cq *cq, ovb_udata *ud)
{
	return core_create_cq_flags(ctx, cqe, channel, comp_vector, cq, ud, 0,
				    false);
}

int core_create_cq_flags(ibv_context *ctx, int cqe, ibv_comp_channel *channel,
			 int comp_vector, ibv_cq *cq, ovb_udata *ud,
			 uint32_t flags, bool require_ex)
{
	ioctl::CreateCq a{};
	a.cqe = static_cast<uint32_t>(cqe);
	a.user_handle = reinterpret_cast<uintptr_t>(cq);
	a.channel = channel ? channel->fd : -1;
	a.comp_vector = static_cast<uint32_t>(comp_vector);
	a.event_fd = ctx->async_fd;
	a.flags = flags;
	a.has_flags = flags != 0;
	int rc;
	if (cmd::try_ioctl<ioctl::kCreateCqM>(ctx, a, rc, ud)) {
		if (rc)
			return rc;
		cq->context = ctx;
		cq->handle = a.handle;
		cq->cqe = static_cast<int>(a.resp_cqe);
		return 0;
	}
	if (int refused = cmd::write_fallback_refused(ctx))
		return refused;
	if (require_ex)
		return create_cq_write_ex(ctx, cqe, channel, comp_vector, flags,
					  cq, ud);
	ovb_create_cq_req req{};
	ovb_create_cq_resp resp{};
	req.user_handle = reinterpret_cast<uintptr_t>(cq);
	req.cqe = static_cast<uint32_t>(cqe);
	req.comp_vector = static_cast<uint32_t>(comp_vector);
	req.comp_channel = channel ? channel->fd : -1;
	rc = cmd::execute(ctx, cmd::spec<OVB_CMD_CREATE_CQ>(), req, &resp, ud);
	if (rc)
		return rc;
	cq->context = ctx;
	cq->handle = resp.cq_handle;
	cq->cqe = static_cast<int>(resp.cqe);
	return 0;
}

int core_resize_cq(ibv_cq *cq, int cqe, ovb_udata *ud)
{
	ovb_resize_cq_req req{};
	ovb_resize_cq_resp resp{};
	req.cq_handle = cq->handle;
	req.cqe = static_cast<uint32_t>(cqe);
	int rc = cmd::execute(cq->context, cmd::spec<OVB_CMD_RESIZE_CQ>(),
			      req, &resp, ud);
	if (rc)
		return rc;
	cq->cqe = static_cast<int>(resp.cqe);
	return 0;
}

int core_req_notify_cq(ibv_cq *cq, int solicited_only)
{
	ovb_req_notify_cq_req req{};
	req.cq_handle = cq->handle;
	req.solicited_only = solicited_only ? 1 : 0;
	return cmd::execute(cq->context,
			    cmd::spec<OVB_CMD_REQ_NOTIFY_CQ>(), req, nullptr);
}

int core_destroy_cq(ibv_cq *cq)
{
	ioctl::DestroyCq a{};
	a.handle = cq->handle;
	int rc;
	if (!cmd::try_ioctl<ioctl::kDestroyCqM>(cq->context, a, rc)) {
		ovb_destroy_cq_req req{};
		req.cq_handle = cq->handle;
		rc = cmd::execute(cq->context, cmd::spec<OVB_CMD_DESTROY_CQ>(),
				  req, &a.resp);
	}
	const ovb_destroy_cq_resp &resp = a.resp;
	if (rc)
		return rc;
	wait_for_acks(cq, [&] {
		return cq->comp_events_completed == resp.comp_events_reported &&
		       cq->async_events_completed == resp.async_events_reported;
	});
	return 0;
}

} // namespace ovb
