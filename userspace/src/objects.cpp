// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "objects.h"

#include "context.h"

namespace ovb {

void init_cq_fields(ibv_cq *cq, ibv_context *ctx, ibv_comp_channel *ch,
		    void *cq_context)
{
	cq->context = ctx;
	cq->channel = ch;
	cq->cq_context = cq_context;
	cq->comp_events_completed = 0;
	cq->async_events_completed = 0;
	pthread_mutex_init(&cq->mutex, nullptr);
	pthread_cond_init(&cq->cond, nullptr);
	if (ch) {
		pthread_mutex_lock(&ctx->mutex);
		ch->refcnt++;
		pthread_mutex_unlock(&ctx->mutex);
	}
}

void init_qp_fields(ibv_qp *qp, ibv_context *ctx, void *qp_context)
{
	qp->context = ctx;
	qp->qp_context = qp_context;
	qp->events_completed = 0;
	pthread_mutex_init(&qp->mutex, nullptr);
	pthread_cond_init(&qp->cond, nullptr);
}

void init_srq_fields(ibv_srq *srq, ibv_context *ctx, void *srq_context)
{
	srq->context = ctx;
	srq->srq_context = srq_context;
	srq->events_completed = 0;
	pthread_mutex_init(&srq->mutex, nullptr);
	pthread_cond_init(&srq->cond, nullptr);
}

ibv_mw *alloc_mw_entry(ibv_pd *pd, ibv_mw_type type)
{
	ibv_mw *mw = ops(pd->context).alloc_mw(pd, type);
	if (mw) {
		mw->context = pd->context;
		mw->pd = pd;
		mw->type = type;
	}
	return mw;
}

int dealloc_mw_entry(ibv_mw *mw)
{
	return ops(mw->context).dealloc_mw(mw);
}

} // namespace ovb
