// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The extended SRQ create rdma-core's providers ask for
// (ibv_cmd_create_srq_ex): XRC SRQs belong to an XRC domain and complete
// into a CQ, tag-matching SRQs have a CQ and a tag count.  The ioctl
// carries either; without it they go as the CREATE_XSRQ write() command.
#include <cerrno>

#include "cmd/execute.h"
#include "cmd/methods.h"
#include "cmd/transport.h"
#include "core.h"

namespace ovb {

namespace {

bool has(const ibv_srq_init_attr_ex *ax, uint32_t bits)
{
	return (ax->comp_mask & bits) == bits;
}

int create_xsrq_write(ibv_pd *pd, ibv_srq *srq, ibv_srq_init_attr_ex *ax,
		      const ioctl::CreateSrq &a, uint32_t *srq_num,
		      ovb_udata *ud)
{
	ovb_create_xsrq_req req{};
	ovb_create_srq_resp resp{};
	req.user_handle = a.user_handle;
	req.srq_type = static_cast<uint32_t>(a.type);
	req.pd_handle = a.pd;
	req.max_wr = a.max_wr;
	req.max_sge = a.max_sge;
	req.srq_limit = a.limit;
	req.cq_handle = a.cq;
	req.max_num_tags = a.max_num_tags;
	req.xrcd_handle = a.xrcd;
	int rc = cmd::execute(pd->context, cmd::spec<OVB_CMD_CREATE_XSRQ>(),
			      req, &resp, ud);
	if (rc)
		return rc;
	srq->handle = resp.srq_handle;
	ax->attr.max_wr = resp.max_wr;
	ax->attr.max_sge = resp.max_sge;
	*srq_num = resp.srqn;
	return 0;
}

} // namespace

int core_create_srq_ex(ibv_pd *pd, ibv_srq *srq, ibv_srq_init_attr_ex *ax,
		       uint32_t xrcd_handle, uint32_t *srq_num, ovb_udata *ud)
{
	ibv_srq_type type = has(ax, IBV_SRQ_INIT_ATTR_TYPE) ? ax->srq_type
							    : IBV_SRQT_BASIC;
	*srq_num = 0;
	if (type == IBV_SRQT_BASIC) {
		ibv_srq_init_attr basic{ax->srq_context, ax->attr};
		int rc = core_create_srq(pd, srq, &basic, srq_num, ud);
		if (!rc)
			ax->attr = basic.attr;
		return rc;
	}
	ioctl::CreateSrq a{};
	if (type == IBV_SRQT_XRC) {
		if (!has(ax, IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ))
			return EINVAL;
		a.is_xrc = true;
		a.xrcd = xrcd_handle;
	} else if (type == IBV_SRQT_TM) {
		if (!has(ax, IBV_SRQ_INIT_ATTR_CQ | IBV_SRQ_INIT_ATTR_TM) ||
		    !ax->tm_cap.max_num_tags)
			return EINVAL;
		a.is_tm = true;
		a.max_num_tags = ax->tm_cap.max_num_tags;
	}
	a.has_cq = a.is_xrc || a.is_tm;
	a.cq = a.has_cq ? ax->cq->handle : 0;
	a.type = type;
	a.user_handle = reinterpret_cast<uintptr_t>(srq);
	a.pd = pd->handle;
	a.max_wr = ax->attr.max_wr;
	a.max_sge = ax->attr.max_sge;
	a.limit = ax->attr.srq_limit;
	a.event_fd = pd->context->async_fd;
	int rc;
	if (cmd::try_ioctl<ioctl::kCreateSrqM>(pd->context, a, rc, ud)) {
		if (rc)
			return rc;
		srq->handle = a.handle;
		ax->attr.max_wr = a.resp_max_wr;
		ax->attr.max_sge = a.resp_max_sge;
		*srq_num = a.srq_num;
	} else {
		rc = cmd::write_fallback_refused(pd->context);
		if (!rc)
			rc = create_xsrq_write(pd, srq, ax, a, srq_num, ud);
		if (rc)
			return rc;
	}
	srq->context = pd->context;
	srq->pd = pd;
	srq->srq_context = ax->srq_context;
	return 0;
}

} // namespace ovb
