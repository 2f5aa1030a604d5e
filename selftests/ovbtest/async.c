// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: asynchronous events of QPs, SRQs and WQs, raised when a test
 * asks for one (OVBTEST_METHOD_{QP,SRQ,WQ}_RAISE, added to the standard
 * objects).  A real HCA raises them from its event queue; here the method
 * plays the event queue and calls the object's handler as a driver does,
 * so what is tested is everything after: ib_core's shared-QP fan-out for
 * XRC TGT QPs and ib_uverbs' per-object event lists and counts.
 */
#define UVERBS_MODULE_NAME ovbtest_async
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

#define EV(e)	BIT_ULL(IB_EVENT_##e)

/* The events each kind of object can have. */
static const u64 ovbtest_qp_events =
	EV(QP_FATAL) | EV(QP_REQ_ERR) | EV(QP_ACCESS_ERR) | EV(COMM_EST) |
	EV(SQ_DRAINED) | EV(PATH_MIG) | EV(PATH_MIG_ERR) |
	EV(QP_LAST_WQE_REACHED);
static const u64 ovbtest_srq_events = EV(SRQ_ERR) | EV(SRQ_LIMIT_REACHED);
static const u64 ovbtest_wq_events = EV(WQ_FATAL);

/* The requested event type if @allowed has it; -EINVAL otherwise. */
static int ovbtest_raise_type(struct uverbs_attr_bundle *attrs, u64 allowed)
{
	u32 type;
	int ret;

	ret = uverbs_copy_from(&type, attrs, OVBTEST_ATTR_RAISE_EVENT);
	if (ret)
		return ret;
	if (type >= 64 || !(allowed & BIT_ULL(type)))
		return -EINVAL;
	return type;
}

/*
 * The QP's hardware object is real_qp: for an XRC TGT QP every uverbs
 * handle is an opened QP of it, and its handler (ib_core's) calls each.
 */
static int UVERBS_HANDLER(OVBTEST_METHOD_QP_RAISE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *qp = uverbs_attr_get_obj(attrs, OVBTEST_ATTR_RAISE_HANDLE);
	struct ib_event ev = { .device = qp->device };
	int type = ovbtest_raise_type(attrs, ovbtest_qp_events);

	if (type < 0)
		return type;
	qp = qp->real_qp;
	ev.event = type;
	ev.element.qp = qp;
	if (qp->event_handler)
		qp->event_handler(&ev, qp->qp_context);
	return 0;
}

/* The limit event needs an armed limit and disarms it (mlx5, rxe). */
static int UVERBS_HANDLER(OVBTEST_METHOD_SRQ_RAISE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_srq *ibsrq =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_RAISE_HANDLE);
	struct ovbtest_srq *srq = to_osrq(ibsrq);
	struct ib_event ev = { .device = ibsrq->device };
	int type = ovbtest_raise_type(attrs, ovbtest_srq_events);

	if (type < 0)
		return type;
	if (type == IB_EVENT_SRQ_LIMIT_REACHED &&
	    !atomic_xchg(&srq->limit_armed, 0))
		return -EINVAL;
	ev.event = type;
	ev.element.srq = ibsrq;
	if (ibsrq->event_handler)
		ibsrq->event_handler(&ev, ibsrq->srq_context);
	return 0;
}

static int UVERBS_HANDLER(OVBTEST_METHOD_WQ_RAISE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_wq *wq = uverbs_attr_get_obj(attrs, OVBTEST_ATTR_RAISE_HANDLE);
	struct ib_event ev = { .device = wq->device };
	int type = ovbtest_raise_type(attrs, ovbtest_wq_events);

	if (type < 0)
		return type;
	ev.event = type;
	ev.element.wq = wq;
	if (wq->event_handler)
		wq->event_handler(&ev, wq->wq_context);
	return 0;
}

#define OVBTEST_RAISE_METHOD(method, object)				\
	DECLARE_UVERBS_NAMED_METHOD(method,				\
		UVERBS_ATTR_IDR(OVBTEST_ATTR_RAISE_HANDLE, object,	\
				UVERBS_ACCESS_READ, UA_MANDATORY),	\
		UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_RAISE_EVENT,		\
				   UVERBS_ATTR_TYPE(u32), UA_MANDATORY))

OVBTEST_RAISE_METHOD(OVBTEST_METHOD_QP_RAISE, UVERBS_OBJECT_QP);
OVBTEST_RAISE_METHOD(OVBTEST_METHOD_SRQ_RAISE, UVERBS_OBJECT_SRQ);
OVBTEST_RAISE_METHOD(OVBTEST_METHOD_WQ_RAISE, UVERBS_OBJECT_WQ);

ADD_UVERBS_METHODS(ovbtest_qp_raise, UVERBS_OBJECT_QP,
		   &UVERBS_METHOD(OVBTEST_METHOD_QP_RAISE));
ADD_UVERBS_METHODS(ovbtest_srq_raise, UVERBS_OBJECT_SRQ,
		   &UVERBS_METHOD(OVBTEST_METHOD_SRQ_RAISE));
ADD_UVERBS_METHODS(ovbtest_wq_raise, UVERBS_OBJECT_WQ,
		   &UVERBS_METHOD(OVBTEST_METHOD_WQ_RAISE));

const struct uapi_definition ovbtest_async_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_QP, &ovbtest_qp_raise),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_SRQ, &ovbtest_srq_raise),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_WQ, &ovbtest_wq_raise),
	{},
};
