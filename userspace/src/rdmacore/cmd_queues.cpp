// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_* for CQs, SRQs, QPs, AHs and multicast, on our
// command layer.  The extended creates hand the kernel what rdma-core 44
// hands it (CQ flags, QP create flags, XRC and RSS QPs): its answer is
// the provider's.
#include <cerrno>
#include <cstring>

#include "../cmd/execute.h"
#include "../context.h"
#include "../core.h"
#include "../export.h"
#include "../objects.h"
#include "udata.h"

namespace ovb::rdmacore {

int answer(int rc);	// cmd_context.cpp
int destroyed(int rc);

namespace {

// rdma-core's CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX: the provider makes its
// own timestamps, the kernel need not be asked.
constexpr uint32_t kTsIgnored = 1;

ovb_create_qp_resp qp_resp(const ibv_qp *qp, const ibv_qp_cap &cap)
{
	ovb_create_qp_resp r{};
	r.qp_handle = qp->handle;
	r.qpn = qp->qp_num;
	r.max_send_wr = cap.max_send_wr;
	r.max_recv_wr = cap.max_recv_wr;
	r.max_send_sge = cap.max_send_sge;
	r.max_recv_sge = cap.max_recv_sge;
	r.max_inline_data = cap.max_inline_data;
	return r;
}

// ibv_cmd_create_qp_ex{,2}: the comp_mask bits each accepts, then the
// extended create; the XRC domain (an XRC receive QP's owner; for any
// other QP type rdma-core ignores attr's) is remembered in the provider's
// verbs_qp.
int create_qp_from_ex(ibv_context *ctx, ibv_qp_init_attr_ex *ax,
		      VerbsQp *vqp, uint32_t allowed, ovb_udata *ud)
{
	if (ax->comp_mask & ~allowed)
		return EINVAL;
	bool xrc_recv = ax->qp_type == IBV_QPT_XRC_RECV &&
			(ax->comp_mask & IBV_QP_INIT_ATTR_XRCD) && ax->xrcd;
	auto *vxrcd = xrc_recv ? reinterpret_cast<VerbsXrcd *>(ax->xrcd) : nullptr;
	int rc = core_create_qp_ex(ctx, &vqp->qp, ax,
				   vxrcd ? vxrcd->handle : 0, ud);
	if (rc)
		return rc;
	vqp->comp_mask = 0;
	vqp->xrcd = nullptr;
	if (ax->comp_mask & IBV_QP_INIT_ATTR_XRCD) {
		vqp->comp_mask |= kVerbsQpXrcd;
		vqp->xrcd = vxrcd;
	}
	return 0;
}

} // namespace

} // namespace ovb::rdmacore

using namespace ovb;
using namespace ovb::rdmacore;

OVB_EXPORT int ibv_cmd_create_cq(ibv_context *ctx, int cqe,
				 ibv_comp_channel *channel, int comp_vector,
				 ibv_cq *cq, void *cmd, size_t cmd_size,
				 ovb_create_cq_resp *resp, size_t resp_size)
try {
	ovb_udata ud = write_udata<ovb_create_cq_req, ovb_create_cq_resp>(
		cmd, cmd_size, resp, resp_size);
	int rc = core_create_cq(ctx, cqe, channel, comp_vector, cq, &ud);
	if (!rc && resp) {
		resp->cq_handle = cq->handle;
		resp->cqe = static_cast<uint32_t>(cq->cqe);
	}
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_create_cq_ex(ibv_context *ctx,
				    const ibv_cq_init_attr_ex *attr,
				    ibv_cq_ex *cq, void *cmd, size_t cmd_size,
				    ovb_ex_create_cq_resp *resp,
				    size_t resp_size, uint32_t cmd_flags)
try {
	if (attr->comp_mask &
	    ~static_cast<uint32_t>(IBV_CQ_INIT_ATTR_MASK_FLAGS |
				   IBV_CQ_INIT_ATTR_MASK_PD))
		return answer(EOPNOTSUPP);
	uint32_t flags = 0;
	if (attr->wc_flags & (IBV_WC_EX_WITH_COMPLETION_TIMESTAMP |
			      IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK))
		flags |= OVB_CREATE_CQ_FLAG_TIMESTAMP_COMPLETION;
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	    (attr->flags & IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN))
		flags |= OVB_CREATE_CQ_FLAG_IGNORE_OVERRUN;
	// Without the ioctl, only the extended write() carries flags; a
	// timestamp the provider makes itself may be dropped there.
	bool require_ex = (flags & ~uint32_t{OVB_CREATE_CQ_FLAG_TIMESTAMP_COMPLETION}) ||
			  (flags && !(cmd_flags & kTsIgnored));
	ovb_udata ud = ex_udata<ovb_ex_create_cq_req, ovb_ex_create_cq_resp>(
		cmd, cmd_size, resp, resp_size);
	ibv_cq *base = ibv_cq_ex_to_cq(cq);
	int rc = core_create_cq_flags(ctx, static_cast<int>(attr->cqe),
				      attr->channel,
				      static_cast<int>(attr->comp_vector), base,
				      &ud, flags, require_ex);
	if (!rc && resp) {
		resp->base.cq_handle = base->handle;
		resp->base.cqe = static_cast<uint32_t>(base->cqe);
		resp->response_length = sizeof(*resp);
	}
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_req_notify_cq(ibv_cq *cq, int solicited_only)
try {
	return answer(core_req_notify_cq(cq, solicited_only));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_resize_cq(ibv_cq *cq, int cqe, void *cmd,
				 size_t cmd_size, ovb_resize_cq_resp *resp,
				 size_t resp_size)
try {
	ovb_udata ud = write_udata<ovb_resize_cq_req, ovb_resize_cq_resp>(
		cmd, cmd_size, resp, resp_size);
	int rc = core_resize_cq(cq, cqe, &ud);
	if (!rc && resp)
		resp->cqe = static_cast<uint32_t>(cq->cqe);
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_destroy_cq(ibv_cq *cq)
try {
	return destroyed(core_destroy_cq(cq));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_create_srq(ibv_pd *pd, ibv_srq *srq,
				  ibv_srq_init_attr *attr, void *cmd,
				  size_t cmd_size, ovb_create_srq_resp *resp,
				  size_t resp_size)
try {
	ovb_udata ud = write_udata<ovb_create_srq_req, ovb_create_srq_resp>(
		cmd, cmd_size, resp, resp_size);
	uint32_t srq_num = 0;
	int rc = core_create_srq(pd, srq, attr, &srq_num, &ud);
	if (!rc && resp) {
		resp->srq_handle = srq->handle;
		resp->max_wr = attr->attr.max_wr;
		resp->max_sge = attr->attr.max_sge;
		resp->srqn = srq_num;
	}
	return answer(rc);
} OVB_ABI_CATCH

// Basic, XRC and tag-matching SRQs.  The provider's create_srq_ex is
// called by the application directly, so the generic fields are set
// here, as rdma-core's command does.
OVB_EXPORT int ibv_cmd_create_srq_ex(ibv_context *ctx, VerbsSrq *vsrq,
				     ibv_srq_init_attr_ex *ax, void *cmd,
				     size_t cmd_size,
				     ovb_create_srq_resp *resp,
				     size_t resp_size)
try {
	uint32_t mask = ax->comp_mask;
	if (mask >= IBV_SRQ_INIT_ATTR_RESERVED)
		return answer(EOPNOTSUPP);
	if (!(mask & IBV_SRQ_INIT_ATTR_PD))
		return answer(EINVAL);
	ovb_udata ud = write_udata<ovb_create_xsrq_req, ovb_create_srq_resp>(
		cmd, cmd_size, resp, resp_size);
	auto *vxrcd = (mask & IBV_SRQ_INIT_ATTR_XRCD) && ax->xrcd
			      ? reinterpret_cast<VerbsXrcd *>(ax->xrcd)
			      : nullptr;
	init_srq_fields(&vsrq->srq, ctx, ax->srq_context);
	uint32_t srq_num = 0;
	int rc = core_create_srq_ex(ax->pd, &vsrq->srq, ax,
				    vxrcd ? vxrcd->handle : 0, &srq_num, &ud);
	if (rc)
		return answer(rc);
	vsrq->srq_type = (mask & IBV_SRQ_INIT_ATTR_TYPE) ? ax->srq_type
							: IBV_SRQT_BASIC;
	if (vsrq->srq_type == IBV_SRQT_XRC) {
		vsrq->srq_num = srq_num;
		vsrq->xrcd = vxrcd;
	}
	if (mask & IBV_SRQ_INIT_ATTR_CQ)
		vsrq->cq = ax->cq;
	if (resp) {
		resp->srq_handle = vsrq->srq.handle;
		resp->max_wr = ax->attr.max_wr;
		resp->max_sge = ax->attr.max_sge;
		resp->srqn = srq_num;
	}
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_modify_srq(ibv_srq *srq, ibv_srq_attr *attr, int mask,
				  void *cmd, size_t cmd_size)
try {
	ovb_udata ud = driver_udata(cmd, cmd_size, kCmdHdr,
				    sizeof(ovb_modify_srq_req), nullptr, 0, 0);
	return answer(core_modify_srq(srq, attr, mask, &ud));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_query_srq(ibv_srq *srq, ibv_srq_attr *attr, void *,
				 size_t)
try {
	return answer(core_query_srq(srq, attr));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_destroy_srq(ibv_srq *srq)
try {
	return destroyed(core_destroy_srq(srq));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_create_qp(ibv_pd *pd, ibv_qp *qp,
				 ibv_qp_init_attr *attr, void *cmd,
				 size_t cmd_size, ovb_create_qp_resp *resp,
				 size_t resp_size)
try {
	ovb_udata ud = write_udata<ovb_create_qp_req, ovb_create_qp_resp>(
		cmd, cmd_size, resp, resp_size);
	int rc = core_create_qp(pd, qp, attr, &ud);
	if (!rc)
		put_core_resp(resp, resp_size, qp_resp(qp, attr->cap));
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_create_qp_ex(ibv_context *ctx, VerbsQp *vqp,
				    ibv_qp_init_attr_ex *ax, void *cmd,
				    size_t cmd_size, ovb_create_qp_resp *resp,
				    size_t resp_size)
try {
	ovb_udata ud = write_udata<ovb_create_qp_req, ovb_create_qp_resp>(
		cmd, cmd_size, resp, resp_size);
	int rc = create_qp_from_ex(ctx, ax, vqp,
				   IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_XRCD |
					   IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
				   &ud);
	if (!rc)
		put_core_resp(resp, resp_size, qp_resp(&vqp->qp, ax->cap));
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_create_qp_ex2(ibv_context *ctx, VerbsQp *vqp,
				     ibv_qp_init_attr_ex *ax, void *cmd,
				     size_t cmd_size,
				     ovb_ex_create_qp_resp *resp,
				     size_t resp_size)
try {
	ovb_udata ud = ex_udata<ovb_ex_create_qp_req, ovb_ex_create_qp_resp>(
		cmd, cmd_size, resp, resp_size);
	int rc = create_qp_from_ex(
		ctx, ax, vqp,
		IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_XRCD |
			IBV_QP_INIT_ATTR_CREATE_FLAGS |
			IBV_QP_INIT_ATTR_MAX_TSO_HEADER |
			IBV_QP_INIT_ATTR_IND_TABLE | IBV_QP_INIT_ATTR_RX_HASH |
			IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		&ud);
	if (!rc) {
		ovb_ex_create_qp_resp core{};
		core.base = qp_resp(&vqp->qp, ax->cap);
		core.response_length = sizeof(core);
		put_core_resp(resp, resp_size, core);
	}
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_query_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask,
				ibv_qp_init_attr *init_attr, void *, size_t)
try {
	return answer(core_query_qp(qp, attr, mask, init_attr));
} OVB_ABI_CATCH

// cmd: rdma-core's struct ibv_modify_qp (write header, core request)
// with the provider's data after it.
OVB_EXPORT int ibv_cmd_modify_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask,
				 void *cmd, size_t cmd_size)
try {
	ovb_udata ud = driver_udata(cmd, cmd_size, kCmdHdr,
				    sizeof(ovb_modify_qp_req), nullptr, 0, 0);
	return answer(core_modify_qp_ud(qp, attr, mask, &ud));
} OVB_ABI_CATCH

// cmd: struct ibv_modify_qp_ex (extended header, core request with the
// rate limit) and the provider's data; resp likewise.  A rate limit
// needs room for it in cmd, as rdma-core checks.
OVB_EXPORT int ibv_cmd_modify_qp_ex(ibv_qp *qp, ibv_qp_attr *attr, int mask,
				    void *cmd, size_t cmd_size,
				    ovb_ex_modify_qp_resp *resp,
				    size_t resp_size)
try {
	constexpr size_t kRateLimitEnd =
		kExCmdHdr + offsetof(ovb_ex_modify_qp_req, rate_limit) +
		sizeof(ovb_ex_modify_qp_req::rate_limit);
	if ((mask & IBV_QP_RATE_LIMIT) && cmd_size < kRateLimitEnd)
		return answer(EINVAL);
	ovb_udata ud = ex_udata<ovb_ex_modify_qp_req, ovb_ex_modify_qp_resp>(
		cmd, cmd_size, resp, resp_size);
	ovb_ex_modify_qp_resp core{};
	int rc = core_modify_qp_ex(qp, attr, mask, &core, &ud);
	if (!rc && resp)
		std::memcpy(resp, &core,
			    resp_size < sizeof(core) ? resp_size : sizeof(core));
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_destroy_qp(ibv_qp *qp)
try {
	return destroyed(core_destroy_qp(qp));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_create_ah(ibv_pd *pd, ibv_ah *ah, ibv_ah_attr *attr,
				 ovb_create_ah_resp *resp, size_t resp_size)
try {
	ovb_udata ud = driver_udata(nullptr, 0, 0, 0, resp, resp_size,
				    sizeof(ovb_create_ah_resp));
	int rc = core_create_ah(pd, ah, attr, &ud);
	if (!rc && resp)
		resp->ah_handle = ah->handle;
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_destroy_ah(ibv_ah *ah)
try {
	return destroyed(core_destroy_ah(ah));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_attach_mcast(ibv_qp *qp, const ibv_gid *gid,
				    uint16_t lid)
try {
	return answer(core_attach_mcast(qp, gid, lid));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_detach_mcast(ibv_qp *qp, const ibv_gid *gid,
				    uint16_t lid)
try {
	return answer(core_detach_mcast(qp, gid, lid));
} OVB_ABI_CATCH

// cmd: the provider's struct ibv_modify_cq (extended header, core
// request, its own data): CQ moderation, an extended write() command.
OVB_EXPORT int ibv_cmd_modify_cq(ibv_cq *cq, ibv_modify_cq_attr *attr,
				 void *cmd, size_t cmd_size)
try {
	if (attr->attr_mask >= IBV_CQ_ATTR_RESERVED)
		return answer(EINVAL);
	ovb_ex_modify_cq_req req{};
	req.cq_handle = cq->handle;
	req.attr_mask = attr->attr_mask;
	req.attr.cq_count = attr->moderate.cq_count;
	req.attr.cq_period = attr->moderate.cq_period;
	ovb_udata ud = driver_udata(cmd, cmd_size, kExCmdHdr, sizeof(req),
				    nullptr, 0, 0);
	return answer(cmd::execute(cq->context,
				   cmd::spec<OVB_EX_CMD_MODIFY_CQ,
					     cmd::Framing::extended>(),
				   req, nullptr, &ud));
} OVB_ABI_CATCH
