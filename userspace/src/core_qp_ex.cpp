// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The extended QP create rdma-core's providers ask for
// (ibv_cmd_create_qp_ex{,2}): the QP's owner is a PD or, for an XRC
// receive QP, an XRC domain; an RSS QP receives through an indirection
// table instead of a CQ; create flags and a source QPN reach the kernel.
// The ioctl carries all of it; without the ioctl, whatever only the
// extended write() command can carry (flags, the table) goes there, the
// rest in the plain one.
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cmd/execute.h"
#include "cmd/methods.h"
#include "cmd/transport.h"
#include "core.h"

namespace ovb {

namespace {

// The create flags rdma-core 44 lets through to the kernel.
constexpr uint32_t kKernelCreateFlags =
	IBV_QP_CREATE_BLOCK_SELF_MCAST_LB | IBV_QP_CREATE_SCATTER_FCS |
	IBV_QP_CREATE_CVLAN_STRIPPING | IBV_QP_CREATE_SOURCE_QPN |
	IBV_QP_CREATE_PCI_WRITE_END_PADDING;

struct Plan {
	ioctl::CreateQp a{};
	uint32_t owner = 0;	// PD or XRCD handle, as write() names it
	bool require_ex = false;
};

bool has(const ibv_qp_init_attr_ex *ax, uint32_t bit)
{
	return ax->comp_mask & bit;
}

// Who owns the QP and which queues it uses; EINVAL as rdma-core answers
// before any call into the kernel.
int plan_queues(const ibv_qp_init_attr_ex *ax, uint32_t xrcd, Plan &p)
{
	ioctl::CreateQp &a = p.a;
	if (ax->qp_type == IBV_QPT_XRC_RECV) {
		if (!has(ax, IBV_QP_INIT_ATTR_XRCD))
			return EINVAL;
		a.has_xrcd = true;
		a.xrcd = p.owner = xrcd;
		return 0;
	}
	constexpr ibv_qp_type kPdTypes[] = {IBV_QPT_RC, IBV_QPT_UD,
					    IBV_QPT_UC, IBV_QPT_RAW_PACKET,
					    IBV_QPT_XRC_SEND, IBV_QPT_DRIVER};
	if (std::find(std::begin(kPdTypes), std::end(kPdTypes), ax->qp_type) ==
		    std::end(kPdTypes) ||
	    !has(ax, IBV_QP_INIT_ATTR_PD))
		return EINVAL;
	a.has_pd = true;
	a.pd = p.owner = ax->pd->handle;
	if (has(ax, IBV_QP_INIT_ATTR_IND_TABLE)) {
		if (ax->cap.max_recv_wr || ax->cap.max_recv_sge ||
		    ax->recv_cq || ax->srq)
			return EINVAL;
		p.require_ex = true;
		a.has_ind_table = true;
		a.ind_table = ax->rwq_ind_tbl->ind_tbl_handle;
		a.has_send_cq = ax->cap.max_send_wr != 0;	// optional here
	} else {
		a.has_send_cq = true;
		a.has_recv_cq = ax->qp_type != IBV_QPT_XRC_SEND;
	}
	a.send_cq = a.has_send_cq ? ax->send_cq->handle : 0;
	a.recv_cq = a.has_recv_cq ? ax->recv_cq->handle : 0;
	return 0;
}

int plan_flags(const ibv_qp_init_attr_ex *ax, Plan &p)
{
	uint32_t flags = ax->sq_sig_all ? OVB_QP_CREATE_SQ_SIG_ALL : 0;
	if (has(ax, IBV_QP_INIT_ATTR_CREATE_FLAGS)) {
		if (ax->create_flags & ~kKernelCreateFlags)
			return EINVAL;
		p.require_ex = true;
		flags |= ax->create_flags;
		if (ax->create_flags & IBV_QP_CREATE_SOURCE_QPN) {
			// Its own attribute over ioctl, not a flag bit.
			p.a.has_source_qpn = true;
			p.a.source_qpn = ax->source_qpn;
			flags &= ~static_cast<uint32_t>(IBV_QP_CREATE_SOURCE_QPN);
		}
	}
	p.a.flags = flags;
	p.a.has_flags = flags != 0;
	return 0;
}

template <class Req>
void fill_write(Req &req, const ibv_qp *qp, const ibv_qp_init_attr_ex *ax,
		const Plan &p)
{
	req.user_handle = reinterpret_cast<uintptr_t>(qp);
	req.pd_handle = p.owner;
	req.send_cq_handle = p.a.send_cq;
	req.recv_cq_handle = p.a.recv_cq;
	req.srq_handle = ax->srq ? ax->srq->handle : 0;
	req.is_srq = ax->srq != nullptr;
	req.max_send_wr = ax->cap.max_send_wr;
	req.max_recv_wr = ax->cap.max_recv_wr;
	req.max_send_sge = ax->cap.max_send_sge;
	req.max_recv_sge = ax->cap.max_recv_sge;
	req.max_inline_data = ax->cap.max_inline_data;
	req.sq_sig_all = static_cast<uint8_t>(ax->sq_sig_all);
	req.qp_type = static_cast<uint8_t>(ax->qp_type);
}

int create_write(ibv_context *ctx, ibv_qp *qp, const ibv_qp_init_attr_ex *ax,
		 const Plan &p, ovb_udata *ud, ovb_create_qp_resp &resp)
{
	if (!p.require_ex) {
		ovb_create_qp_req req{};
		fill_write(req, qp, ax, p);
		return cmd::execute(ctx, cmd::spec<OVB_CMD_CREATE_QP>(), req,
				    &resp, ud);
	}
	ovb_ex_create_qp_req req{};
	ovb_ex_create_qp_resp ex{};
	fill_write(req, qp, ax, p);
	if (has(ax, IBV_QP_INIT_ATTR_CREATE_FLAGS)) {
		req.create_flags = ax->create_flags;
		if (ax->create_flags & IBV_QP_CREATE_SOURCE_QPN)
			req.source_qpn = ax->source_qpn;
	}
	if (p.a.has_ind_table) {
		req.rwq_ind_tbl_handle = p.a.ind_table;
		req.comp_mask = OVB_CREATE_QP_MASK_IND_TABLE;
	}
	int rc = cmd::execute(ctx, cmd::spec<OVB_EX_CMD_CREATE_QP,
					     cmd::Framing::extended>(),
			      req, &ex, ud);
	resp = ex.base;
	return rc;
}

} // namespace

int core_create_qp_ex(ibv_context *ctx, ibv_qp *qp, ibv_qp_init_attr_ex *ax,
		      uint32_t xrcd_handle, ovb_udata *ud)
{
	Plan p;
	int rc = plan_queues(ax, xrcd_handle, p);
	if (!rc && ax->qp_type == IBV_QPT_XRC_SEND) {	// as the write() ABI
		ax->cap.max_recv_wr = 0;
		ax->cap.max_recv_sge = 0;
	}
	if (!rc)
		rc = plan_flags(ax, p);
	if (rc)
		return rc;
	ioctl::CreateQp &a = p.a;
	a.type = ax->qp_type;
	a.user_handle = reinterpret_cast<uintptr_t>(qp);
	static_assert(sizeof(a.cap) == sizeof(ax->cap));
	std::memcpy(&a.cap, &ax->cap, sizeof(a.cap));
	a.event_fd = ctx->async_fd;
	a.has_srq = ax->srq != nullptr;
	a.srq = ax->srq ? ax->srq->handle : 0;
	ovb_create_qp_resp resp{};
	if (cmd::try_ioctl<ioctl::kCreateQpM>(ctx, a, rc, ud)) {
		if (rc)
			return rc;
		resp.qp_handle = a.handle;
		resp.qpn = a.qp_num;
		std::memcpy(&ax->cap, &a.resp_cap, sizeof(ax->cap));
	} else {
		rc = cmd::write_fallback_refused(ctx);
		if (!rc)
			rc = create_write(ctx, qp, ax, p, ud, resp);
		if (rc)
			return rc;
		ax->cap.max_send_wr = resp.max_send_wr;
		ax->cap.max_recv_wr = resp.max_recv_wr;
		ax->cap.max_send_sge = resp.max_send_sge;
		ax->cap.max_recv_sge = resp.max_recv_sge;
		ax->cap.max_inline_data = resp.max_inline_data;
	}
	qp->context = ctx;
	qp->handle = resp.qp_handle;
	qp->qp_num = resp.qpn;
	qp->qp_context = ax->qp_context;
	qp->pd = ax->pd;
	qp->send_cq = ax->send_cq;
	qp->recv_cq = ax->recv_cq;
	qp->srq = ax->srq;
	qp->qp_type = ax->qp_type;
	qp->state = IBV_QPS_RESET;
	qp->events_completed = 0;
	pthread_mutex_init(&qp->mutex, nullptr);
	pthread_cond_init(&qp->cond, nullptr);
	return 0;
}

} // namespace ovb
