// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// SRQ commands.

#include "cmd/execute.h"
#include "cmd/methods.h"
#include "cmd/transport.h"
#include "core.h"

namespace ovb {

int core_create_srq(ibv_pd *pd, ibv_srq *srq, ibv_srq_init_attr *attr,
		    uint32_t *srq_num, ovb_udata *ud)
{
	ioctl::CreateSrq a{};
	a.type = IBV_SRQT_BASIC;
	a.user_handle = reinterpret_cast<uintptr_t>(srq);
	a.pd = pd->handle;
	a.max_wr = attr->attr.max_wr;
	a.max_sge = attr->attr.max_sge;
	a.limit = attr->attr.srq_limit;
	a.event_fd = pd->context->async_fd;
	int rc;
	if (cmd::try_ioctl<ioctl::kCreateSrqM>(pd->context, a, rc, ud)) {
		if (rc)
			return rc;
		attr->attr.max_wr = a.resp_max_wr;
		attr->attr.max_sge = a.resp_max_sge;
		srq->context = pd->context;
		srq->pd = pd;
		srq->srq_context = attr->srq_context;
		srq->handle = a.handle;
		if (srq_num)
			*srq_num = 0;
		return 0;
	}
	if (int refused = cmd::write_fallback_refused(pd->context))
		return refused;
	ovb_create_srq_req req{};
	ovb_create_srq_resp resp{};
	req.user_handle = reinterpret_cast<uintptr_t>(srq);
	req.pd_handle = pd->handle;
	req.max_wr = attr->attr.max_wr;
	req.max_sge = attr->attr.max_sge;
	req.srq_limit = attr->attr.srq_limit;
	rc = cmd::execute(pd->context, cmd::spec<OVB_CMD_CREATE_SRQ>(), req,
			  &resp, ud);
	if (rc)
		return rc;
	attr->attr.max_wr = resp.max_wr;
	attr->attr.max_sge = resp.max_sge;
	srq->context = pd->context;
	srq->pd = pd;
	srq->srq_context = attr->srq_context;
	srq->handle = resp.srq_handle;
	if (srq_num)
		*srq_num = resp.srqn;
	return 0;
}

int core_modify_srq(ibv_srq *srq, ibv_srq_attr *attr, int mask, ovb_udata *ud)
{
	ovb_modify_srq_req req{};
	req.srq_handle = srq->handle;
	req.attr_mask = static_cast<uint32_t>(mask);
	req.max_wr = attr->max_wr;
	req.srq_limit = attr->srq_limit;
	return cmd::execute(srq->context, cmd::spec<OVB_CMD_MODIFY_SRQ>(),
			    &req, sizeof(req), nullptr, 0, ud);
}

int core_query_srq(ibv_srq *srq, ibv_srq_attr *attr)
{
	ovb_query_srq_req req{};
	ovb_query_srq_resp resp{};
	req.srq_handle = srq->handle;
	int rc = cmd::execute(srq->context, cmd::spec<OVB_CMD_QUERY_SRQ>(),
			      req, &resp);
	if (rc)
		return rc;
	attr->max_wr = resp.max_wr;
	attr->max_sge = resp.max_sge;
	attr->srq_limit = resp.srq_limit;
	return 0;
}

int core_destroy_srq(ibv_srq *srq)
{
	ioctl::DestroySrq a{};
	a.handle = srq->handle;
	int rc;
	if (!cmd::try_ioctl<ioctl::kDestroySrqM>(srq->context, a, rc)) {
		ovb_destroy_srq_req req{};
		req.srq_handle = srq->handle;
		rc = cmd::execute(srq->context, cmd::spec<OVB_CMD_DESTROY_SRQ>(),
				  req, &a.resp);
	}
	const ovb_destroy_srq_resp &resp = a.resp;
	if (rc)
		return rc;
	wait_for_acks(srq, [&] { return srq->events_completed == resp.events_reported; });
	return 0;
}

} // namespace ovb
