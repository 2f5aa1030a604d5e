// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Asynchronous events: read from the context's async fd, the element is the
// user_handle of the object (its address) or the port number.
#include <pthread.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <openverbs/uverbs-abi.h>

#include "export.h"

OVB_EXPORT int ibv_get_async_event(ibv_context *ctx, ibv_async_event *event)
{
	ovb_async_event_desc ev;
	if (read(ctx->async_fd, &ev, sizeof(ev)) != sizeof(ev))
		return -1;
	event->event_type = static_cast<ibv_event_type>(ev.event_type);
	void *obj = reinterpret_cast<void *>(static_cast<uintptr_t>(ev.element));
	switch (event->event_type) {
	case IBV_EVENT_CQ_ERR:
		event->element.cq = static_cast<ibv_cq *>(obj);
		break;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		event->element.qp = static_cast<ibv_qp *>(obj);
		break;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		event->element.srq = static_cast<ibv_srq *>(obj);
		break;
	case IBV_EVENT_WQ_FATAL:
		event->element.wq = static_cast<ibv_wq *>(obj);
		break;
	default:
		event->element.port_num = static_cast<int>(ev.element);
		break;
	}
	return 0;
}

namespace {

template <class T>
void count_event(T *obj, unsigned T::*counter)
{
	pthread_mutex_lock(&obj->mutex);
	++(obj->*counter);
	pthread_cond_signal(&obj->cond);
	pthread_mutex_unlock(&obj->mutex);
}

} // namespace

OVB_EXPORT void ibv_ack_async_event(ibv_async_event *event)
{
	switch (event->event_type) {
	case IBV_EVENT_CQ_ERR:
		count_event(event->element.cq, &ibv_cq::async_events_completed);
		break;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		count_event(event->element.qp, &ibv_qp::events_completed);
		break;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		count_event(event->element.srq, &ibv_srq::events_completed);
		break;
	case IBV_EVENT_WQ_FATAL:
		count_event(event->element.wq, &ibv_wq::events_completed);
		break;
	default:
		break;
	}
}

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_ack_async_event, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_get_async_event, "IBVERBS_1.1");
