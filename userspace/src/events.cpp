// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Asynchronous events: read from the context's async fd, the element is the
// user_handle of the object (its address) or the port number.
#include <pthread.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <openverbs/uverbs-abi.h>

#include "export.h"

namespace {

// What the element of each event type is.
enum class Element { cq, qp, srq, wq, port, none };

Element element_of(ibv_event_type type)
{
	switch (type) {
	case IBV_EVENT_CQ_ERR:
		return Element::cq;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		return Element::qp;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		return Element::srq;
	case IBV_EVENT_WQ_FATAL:
		return Element::wq;
	case IBV_EVENT_DEVICE_FATAL:
		return Element::none;
	default:
		return Element::port;
	}
}

template <class T>
void count_event(T *obj, unsigned T::*counter)
{
	pthread_mutex_lock(&obj->mutex);
	++(obj->*counter);
	pthread_cond_signal(&obj->cond);
	pthread_mutex_unlock(&obj->mutex);
}

} // namespace

OVB_EXPORT int ibv_get_async_event(ibv_context *ctx, ibv_async_event *event)
{
	ovb_async_event_desc ev;
	if (read(ctx->async_fd, &ev, sizeof(ev)) != sizeof(ev))
		return -1;
	event->event_type = static_cast<ibv_event_type>(ev.event_type);
	void *obj = reinterpret_cast<void *>(static_cast<uintptr_t>(ev.element));
	switch (element_of(event->event_type)) {
	case Element::cq:
		event->element.cq = static_cast<ibv_cq *>(obj);
		break;
	case Element::qp:
		event->element.qp = static_cast<ibv_qp *>(obj);
		break;
	case Element::srq:
		event->element.srq = static_cast<ibv_srq *>(obj);
		break;
	case Element::wq:
		event->element.wq = static_cast<ibv_wq *>(obj);
		break;
	case Element::port:
	case Element::none:
		event->element.port_num = static_cast<int>(ev.element);
		break;
	}
	return 0;
}

OVB_EXPORT void ibv_ack_async_event(ibv_async_event *event)
{
	switch (element_of(event->event_type)) {
	case Element::cq:
		count_event(event->element.cq, &ibv_cq::async_events_completed);
		break;
	case Element::qp:
		count_event(event->element.qp, &ibv_qp::events_completed);
		break;
	case Element::srq:
		count_event(event->element.srq, &ibv_srq::events_completed);
		break;
	case Element::wq:
		count_event(event->element.wq, &ibv_wq::events_completed);
		break;
	case Element::port:
	case Element::none:
		break;
	}
}

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_ack_async_event, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_get_async_event, "IBVERBS_1.1");
