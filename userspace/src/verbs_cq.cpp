// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completion queues, completion channels and completion events.
#include <cerrno>
#include <cstdlib>
#include <unistd.h>

#include "cmd/execute.h"
#include "context.h"
#include "export.h"
#include "objects.h"

OVB_EXPORT ibv_comp_channel *ibv_create_comp_channel(ibv_context *ctx)
try {
	ovb_create_comp_channel_req req{};
	ovb_create_comp_channel_resp resp{};
	int rc = ovb::cmd::execute(ctx,
				   ovb::cmd::spec<OVB_CMD_CREATE_COMP_CHANNEL>(),
				   req, &resp);
	if (rc) {
		errno = rc;
		return nullptr;
	}
	auto *ch = static_cast<ibv_comp_channel *>(calloc(1, sizeof(ibv_comp_channel)));
	if (!ch) {
		close(static_cast<int>(resp.fd));
		errno = ENOMEM;
		return nullptr;
	}
	ch->context = ctx;
	ch->fd = static_cast<int>(resp.fd);
	ch->refcnt = 0;
	return ch;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_destroy_comp_channel(ibv_comp_channel *ch)
try {
	ibv_context *ctx = ch->context;
	pthread_mutex_lock(&ctx->mutex);
	if (ch->refcnt) {
		pthread_mutex_unlock(&ctx->mutex);
		return EBUSY;
	}
	close(ch->fd);
	free(ch);
	pthread_mutex_unlock(&ctx->mutex);
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT ibv_cq *ibv_create_cq(ibv_context *ctx, int cqe, void *cq_context,
				 ibv_comp_channel *channel, int comp_vector)
try {
	ibv_cq *cq = ovb::call(ctx, &ovb_context_ops::create_cq, ctx, cqe,
			       channel, comp_vector);
	if (cq)
		ovb::init_cq_fields(cq, ctx, channel, cq_context);
	return cq;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_resize_cq(ibv_cq *cq, int cqe)
try {
	return ovb::call(cq->context, &ovb_context_ops::resize_cq, cq, cqe);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_destroy_cq(ibv_cq *cq)
try {
	ibv_comp_channel *ch = cq->channel;
	ibv_context *ctx = cq->context;
	int rc = ovb::call(ctx, &ovb_context_ops::destroy_cq, cq);
	if (!rc && ch) {
		pthread_mutex_lock(&ctx->mutex);
		ch->refcnt--;
		pthread_mutex_unlock(&ctx->mutex);
	}
	return rc;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_get_cq_event(ibv_comp_channel *ch, ibv_cq **cq,
				void **cq_context)
try {
	ovb_comp_event_desc ev;
	if (read(ch->fd, &ev, sizeof(ev)) != sizeof(ev))
		return -1;
	*cq = reinterpret_cast<ibv_cq *>(static_cast<uintptr_t>(ev.cq_handle));
	*cq_context = (*cq)->cq_context;
	// An rdma-core provider's hook (mlx4/mlx5 re-arm state there).
	if (auto hook = ovb::priv((*cq)->context)->rc_ops.cq_event)
		hook(*cq);
	return 0;
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT void ibv_ack_cq_events(ibv_cq *cq, unsigned int nevents)
try {
	pthread_mutex_lock(&cq->mutex);
	cq->comp_events_completed += nevents;
	pthread_cond_signal(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
} OVB_ABI_CATCH_VOID

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_ack_cq_events, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_create_cq, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_destroy_cq, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_get_cq_event, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_resize_cq, "IBVERBS_1.1");
