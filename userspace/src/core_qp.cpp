// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// QP commands and multicast attach/detach.
#include <cerrno>
#include <cstring>

#include "cmd/execute.h"
#include "cmd/methods.h"
#include "cmd/transport.h"
#include "core.h"
#include "kern_attr.h"

namespace ovb {

static int create_qp_write(ibv_pd *pd, ibv_qp *qp, ibv_qp_init_attr *attr,
			   ovb_udata *ud, ovb_create_qp_resp &resp);

// QP types a PD-based create can make (libibverbs' list); XRC_RECV needs
// an XRC domain, which this path has no room for: EINVAL before any call
// into the kernel, as libibverbs.
static bool pd_qp_type(ibv_qp_type t)
{
	constexpr ibv_qp_type kTypes[] = {IBV_QPT_RC, IBV_QPT_UD, IBV_QPT_UC,
					  IBV_QPT_RAW_PACKET, IBV_QPT_XRC_SEND,
					  IBV_QPT_DRIVER};
	for (ibv_qp_type k : kTypes)
		if (k == t)
			return true;
	return false;
}

int core_create_qp(ibv_pd *pd, ibv_qp *qp, ibv_qp_init_attr *attr,
		   ovb_udata *ud)
{
	if (!pd_qp_type(attr->qp_type))
		return EINVAL;
	if (attr->qp_type == IBV_QPT_XRC_SEND) {	// as the write() ABI
		attr->cap.max_recv_wr = 0;
		attr->cap.max_recv_sge = 0;
	}
	ioctl::CreateQp a{};
	a.has_pd = true;
	a.pd = pd->handle;
	a.has_send_cq = attr->send_cq != nullptr;
	a.send_cq = attr->send_cq ? attr->send_cq->handle : 0;
	a.has_recv_cq = attr->recv_cq && attr->qp_type != IBV_QPT_XRC_SEND;
	a.recv_cq = attr->recv_cq ? attr->recv_cq->handle : 0;
	a.type = attr->qp_type;
	a.user_handle = reinterpret_cast<uintptr_t>(qp);
	static_assert(sizeof(a.cap) == sizeof(attr->cap));
	std::memcpy(&a.cap, &attr->cap, sizeof(a.cap));
	a.event_fd = pd->context->async_fd;
	a.flags = attr->sq_sig_all ? OVB_QP_CREATE_SQ_SIG_ALL : 0;
	a.has_flags = a.flags != 0;
	a.has_srq = attr->srq != nullptr;
	a.srq = attr->srq ? attr->srq->handle : 0;
	int rc;
	ovb_create_qp_resp resp{};
	if (cmd::try_ioctl<ioctl::kCreateQpM>(pd->context, a, rc, ud)) {
		if (rc)
			return rc;
		resp.qp_handle = a.handle;
		resp.qpn = a.qp_num;
		resp.max_send_wr = a.resp_cap.max_send_wr;
		resp.max_recv_wr = a.resp_cap.max_recv_wr;
		resp.max_send_sge = a.resp_cap.max_send_sge;
		resp.max_recv_sge = a.resp_cap.max_recv_sge;
		resp.max_inline_data = a.resp_cap.max_inline_data;
	} else {
		rc = cmd::write_fallback_refused(pd->context);
		if (!rc)
			rc = create_qp_write(pd, qp, attr, ud, resp);
		if (rc)
			return rc;
	}
	attr->cap.max_send_wr = resp.max_send_wr;
	attr->cap.max_recv_wr = resp.max_recv_wr;
	attr->cap.max_send_sge = resp.max_send_sge;
	attr->cap.max_recv_sge = resp.max_recv_sge;
	attr->cap.max_inline_data = resp.max_inline_data;
	qp->context = pd->context;
	qp->pd = pd;
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
	qp->srq = attr->srq;
	qp->qp_context = attr->qp_context;
	qp->handle = resp.qp_handle;
	qp->qp_num = resp.qpn;
	qp->qp_type = attr->qp_type;
	qp->state = IBV_QPS_RESET;
	return 0;
}

static int create_qp_write(ibv_pd *pd, ibv_qp *qp, ibv_qp_init_attr *attr,
			   ovb_udata *ud, ovb_create_qp_resp &resp)
{
	ovb_create_qp_req req{};
	req.user_handle = reinterpret_cast<uintptr_t>(qp);
	req.pd_handle = pd->handle;
	req.send_cq_handle = attr->send_cq ? attr->send_cq->handle : 0;
	req.recv_cq_handle = attr->recv_cq ? attr->recv_cq->handle : 0;
	req.srq_handle = attr->srq ? attr->srq->handle : 0;
	req.is_srq = attr->srq != nullptr;
	req.max_send_wr = attr->cap.max_send_wr;
	req.max_recv_wr = attr->cap.max_recv_wr;
	req.max_send_sge = attr->cap.max_send_sge;
	req.max_recv_sge = attr->cap.max_recv_sge;
	req.max_inline_data = attr->cap.max_inline_data;
	req.sq_sig_all = static_cast<uint8_t>(attr->sq_sig_all);
	req.qp_type = static_cast<uint8_t>(attr->qp_type);
	return cmd::execute(pd->context, cmd::spec<OVB_CMD_CREATE_QP>(), req,
			    &resp, ud);
}

int core_query_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask,
		  ibv_qp_init_attr *init)
{
	ovb_query_qp_req req{};
	ovb_query_qp_resp resp{};
	req.qp_handle = qp->handle;
	req.attr_mask = static_cast<uint32_t>(mask);
	int rc = cmd::execute(qp->context, cmd::spec<OVB_CMD_QUERY_QP>(),
			      req, &resp);
	if (rc)
		return rc;
	*attr = {};
	*init = {};
	decode_query_qp(resp, *attr, *init);
	init->qp_context = qp->qp_context;
	init->send_cq = qp->send_cq;
	init->recv_cq = qp->recv_cq;
	init->srq = qp->srq;
	init->qp_type = qp->qp_type;
	return 0;
}

int core_modify_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask)
{
	return core_modify_qp_ud(qp, attr, mask, nullptr);
}

int core_modify_qp_ud(ibv_qp *qp, ibv_qp_attr *attr, int mask,
		      const ovb_udata *ud)
{
	ovb_modify_qp_req req{};
	encode_modify_qp(*attr, mask, req);
	req.qp_handle = qp->handle;
	int rc = cmd::execute(qp->context, cmd::spec<OVB_CMD_MODIFY_QP>(),
			      req, nullptr, ud);
	if (rc)
		return rc;
	if (mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

int core_modify_qp_ex(ibv_qp *qp, ibv_qp_attr *attr, int mask,
		      ovb_ex_modify_qp_resp *resp, const ovb_udata *ud)
{
	ovb_ex_modify_qp_req req{};
	encode_modify_qp(*attr, mask, req.base);
	req.base.qp_handle = qp->handle;
	if (mask & IBV_QP_RATE_LIMIT)
		req.rate_limit = attr->rate_limit;
	ovb_ex_modify_qp_resp room{};
	int rc = cmd::execute(qp->context,
			      cmd::spec<OVB_EX_CMD_MODIFY_QP, cmd::Framing::extended>(),
			      req, resp ? resp : &room, ud);
	if (rc)
		return rc;
	if (mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

int core_destroy_qp(ibv_qp *qp)
{
	ioctl::DestroyQp a{};
	a.handle = qp->handle;
	int rc;
	if (!cmd::try_ioctl<ioctl::kDestroyQpM>(qp->context, a, rc)) {
		ovb_destroy_qp_req req{};
		req.qp_handle = qp->handle;
		rc = cmd::execute(qp->context, cmd::spec<OVB_CMD_DESTROY_QP>(),
				  req, &a.resp);
	}
	const ovb_destroy_qp_resp &resp = a.resp;
	if (rc)
		return rc;
	wait_for_acks(qp, [&] { return qp->events_completed == resp.events_reported; });
	return 0;
}

template <class Req>
static int mcast(ibv_qp *qp, const ibv_gid *gid, uint16_t lid,
		 const cmd::Spec &spec)
{
	Req req{};
	std::memcpy(req.gid, gid->raw, sizeof(req.gid));
	req.qp_handle = qp->handle;
	req.mlid = lid;
	return cmd::execute(qp->context, spec, req, nullptr);
}

int core_attach_mcast(ibv_qp *qp, const ibv_gid *gid, uint16_t lid)
{
	return mcast<ovb_attach_mcast_req>(qp, gid, lid,
					   cmd::spec<OVB_CMD_ATTACH_MCAST>());
}

int core_detach_mcast(ibv_qp *qp, const ibv_gid *gid, uint16_t lid)
{
	return mcast<ovb_detach_mcast_req>(qp, gid, lid,
					   cmd::spec<OVB_CMD_DETACH_MCAST>());
}

} // namespace ovb
