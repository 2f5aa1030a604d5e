// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Asynchronous events: read from the context's async fd, the element is the
// user_handle of the object (its address) or the port number.
#include <iterator>
#include <pthread.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <openverbs/uverbs-abi.h>

#include "context.h"
#include "export.h"

namespace {

// What an event's element is: an object of the library's (the kernel hands
// back the user_handle we gave it, the object's address) or a number (the
// port; nothing for DEVICE_FATAL).
enum class Element { number, cq, qp, srq, wq };

// Indexed by enum ibv_event_type, in its order.
constexpr Element kElementOf[] = {
	Element::cq,		// CQ_ERR
	Element::qp,		// QP_FATAL
	Element::qp,		// QP_REQ_ERR
	Element::qp,		// QP_ACCESS_ERR
	Element::qp,		// COMM_EST
	Element::qp,		// SQ_DRAINED
	Element::qp,		// PATH_MIG
	Element::qp,		// PATH_MIG_ERR
	Element::number,	// DEVICE_FATAL
	Element::number,	// PORT_ACTIVE
	Element::number,	// PORT_ERR
	Element::number,	// LID_CHANGE
	Element::number,	// PKEY_CHANGE
	Element::number,	// SM_CHANGE
	Element::srq,		// SRQ_ERR
	Element::srq,		// SRQ_LIMIT_REACHED
	Element::qp,		// QP_LAST_WQE_REACHED
	Element::number,	// CLIENT_REREGISTER
	Element::number,	// GID_CHANGE
	Element::wq,		// WQ_FATAL
};
static_assert(std::size(kElementOf) == IBV_EVENT_WQ_FATAL + 1);

// Types the table does not know (a newer kernel's) carry a number.
Element element_of(ibv_event_type type)
{
	auto i = static_cast<size_t>(type);
	return i < std::size(kElementOf) ? kElementOf[i] : Element::number;
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
try {
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
	case Element::number:
		event->element.port_num = static_cast<int>(ev.element);
		break;
	}
	// An rdma-core provider's hook (mlx5 marks a fatal device there).
	if (auto hook = ovb::priv(ctx)->rc_ops.async_event)
		hook(ctx, event);
	return 0;
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT void ibv_ack_async_event(ibv_async_event *event)
try {
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
	case Element::number:
		break;
	}
} OVB_ABI_CATCH_VOID

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_ack_async_event, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_get_async_event, "IBVERBS_1.1");
