// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Installing a provider's ops: the library's plain PD/MR/MW pairs where
// the provider left a pair out, the data-path members of ibv_context_ops
// (called by the inline functions of <infiniband/verbs.h>) and the
// extension members of verbs_context.  Ops the provider lacks stay NULL in
// verbs_context (the inline functions then answer EOPNOTSUPP) and become
// EOPNOTSUPP stubs in ibv_context_ops (which inline code calls blindly).
#include "context.h"

#include <cerrno>

#include "core.h"
#include "objects.h"

namespace ovb {

namespace {

int no_poll_cq(ibv_cq *, int, ibv_wc *) { return -1; }
int no_notify(ibv_cq *, int) { return EOPNOTSUPP; }
int no_post_send(ibv_qp *, ibv_send_wr *wr, ibv_send_wr **bad)
{
	*bad = wr;
	return EOPNOTSUPP;
}
int no_post_recv(ibv_qp *, ibv_recv_wr *wr, ibv_recv_wr **bad)
{
	*bad = wr;
	return EOPNOTSUPP;
}
int no_post_srq_recv(ibv_srq *, ibv_recv_wr *wr, ibv_recv_wr **bad)
{
	*bad = wr;
	return EOPNOTSUPP;
}
ibv_mw *no_alloc_mw(ibv_pd *, ibv_mw_type)
{
	errno = EOPNOTSUPP;
	return nullptr;
}
int no_bind_mw(ibv_qp *, ibv_mw *, ibv_mw_bind *) { return EOPNOTSUPP; }
int no_dealloc_mw(ibv_mw *) { return EOPNOTSUPP; }

// verbs_context entries that need the library's object set-up.
ibv_cq_ex *lib_create_cq_ex(ibv_context *ctx, ibv_cq_init_attr_ex *attr)
{
	ibv_cq_ex *cq = ops(ctx).create_cq_ex(ctx, attr);
	if (cq)
		init_cq_fields(ibv_cq_ex_to_cq(cq), ctx, attr->channel,
			       attr->cq_context);
	return cq;
}

ibv_qp *lib_create_qp_ex(ibv_context *ctx, ibv_qp_init_attr_ex *attr)
{
	ibv_qp *qp = ops(ctx).create_qp_ex(ctx, attr);
	if (qp)
		init_qp_fields(qp, ctx, attr->qp_context);
	return qp;
}

// Only basic SRQs: what a provider's create_srq can make.  XRC and
// tag-matching SRQs get libibverbs' argument checks (EINVAL without their
// XRCD/CQ/TM attributes), then EOPNOTSUPP: no provider of ours has them.
ibv_srq *lib_create_srq_ex(ibv_context *, ibv_srq_init_attr_ex *attr)
{
	uint32_t mask = attr->comp_mask;
	ibv_srq_type type = (mask & IBV_SRQ_INIT_ATTR_TYPE) ? attr->srq_type
							     : IBV_SRQT_BASIC;
	int err = 0;
	if (mask >= IBV_SRQ_INIT_ATTR_RESERVED)
		err = EOPNOTSUPP;
	else if (type == IBV_SRQT_XRC)
		err = (mask & IBV_SRQ_INIT_ATTR_XRCD) && (mask & IBV_SRQ_INIT_ATTR_CQ)
			      ? EOPNOTSUPP : EINVAL;
	else if (type == IBV_SRQT_TM)
		err = (mask & IBV_SRQ_INIT_ATTR_CQ) && (mask & IBV_SRQ_INIT_ATTR_TM) &&
				      attr->tm_cap.max_num_tags
			      ? EOPNOTSUPP : EINVAL;
	else if (type != IBV_SRQT_BASIC || !(mask & IBV_SRQ_INIT_ATTR_PD) ||
		 (mask & ~(IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD)))
		err = EOPNOTSUPP;
	if (err) {
		errno = err;
		return nullptr;
	}
	ibv_srq_init_attr basic{};
	basic.srq_context = attr->srq_context;
	basic.attr = attr->attr;
	ibv_srq *srq = ibv_create_srq(attr->pd, &basic);
	if (srq)
		attr->attr = basic.attr;
	return srq;
}

} // namespace

template <class T>
static void set(T &dst, T provided, T fallback)
{
	dst = provided ? provided : fallback;
}

void install_ops(ibv_context *ctx, const ovb_context_ops *provided,
		 bool plain_defaults)
{
	verbs_context *vctx = verbs_get_ctx(ctx);
	priv(ctx)->ops = *provided;
	if (plain_defaults)
		add_plain_ops(priv(ctx)->ops);
	const ovb_context_ops *o = &priv(ctx)->ops;

	ibv_context_ops &c = ctx->ops;
	set(c.poll_cq, o->poll_cq, no_poll_cq);
	set(c.req_notify_cq, o->req_notify_cq, no_notify);
	set(c.post_send, o->post_send, no_post_send);
	set(c.post_recv, o->post_recv, no_post_recv);
	set(c.post_srq_recv, o->post_srq_recv, no_post_srq_recv);
	set(c.alloc_mw, o->alloc_mw ? alloc_mw_entry : nullptr, no_alloc_mw);
	set(c.bind_mw, o->bind_mw, no_bind_mw);
	set(c.dealloc_mw, o->dealloc_mw ? dealloc_mw_entry : nullptr, no_dealloc_mw);

	vctx->query_port = o->query_port;
	vctx->query_device_ex = o->query_device_ex;
	vctx->create_cq_ex = o->create_cq_ex ? lib_create_cq_ex : nullptr;
	vctx->create_qp_ex = o->create_qp_ex ? lib_create_qp_ex : nullptr;
	vctx->create_srq_ex = o->create_srq ? lib_create_srq_ex : nullptr;
}

} // namespace ovb
