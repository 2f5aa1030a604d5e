// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: QP, SRQ, WQ and port events raised from hard-interrupt context,
 * as an HCA's event queue interrupt raises them (mlx4 calls a QP's, SRQ's
 * and port's handlers from its EQ interrupt; mlx5 an SRQ's from the EQ
 * notifier chain, in the interrupt, and a QP's from an ordered workqueue).
 * OVBTEST_METHOD_{QP,SRQ,WQ}_IRQ, added to the standard objects, and
 * OVBTEST_METHOD_PORT_IRQ (of a handle-less driver object) start the
 * object's (the device's) hrtimer in HRTIMER_MODE_REL: hard-irq context,
 * or softirq on PREEMPT_RT where real drivers' handlers are threaded.
 * Each expiry calls the object's event_handler, or ib_dispatch_event()
 * for a port event (which ib_core hands to its clients from a workqueue).
 *
 * With OVBTEST_IRQ_EV_DEFER a QP's expiry instead queues a work item
 * (GFP_ATOMIC) on an ordered workqueue that calls the handler, as mlx5
 * does with its QP events.
 *
 * The rule drivers keep, kept here: once destroy_qp/srq/wq returned, no
 * handler of the object is called again (mlx5 drops its table reference
 * and waits for the last holder, each queued QP event holding one; mlx4
 * waits for the EQ's users); here hrtimer_cancel() waits for a running
 * expiry and ends the re-arming, and destroy_qp flushes the workqueue.
 * The device's timer stops before the device is unregistered.  So a
 * late, lost or extra event, or a splat, is ib_uverbs' or ib_core's.
 */
#include <linux/hrtimer.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#define UVERBS_MODULE_NAME ovbtest_irq_events
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

#define EV(e)	BIT_ULL(IB_EVENT_##e)

/* The events each source may raise, by enum ovbtest_irq_kind. */
static const u64 ovbtest_irq_events[] = {
	[OVBTEST_IRQ_QP] = EV(QP_FATAL) | EV(QP_REQ_ERR) | EV(QP_ACCESS_ERR) |
			   EV(COMM_EST) | EV(SQ_DRAINED) | EV(PATH_MIG) |
			   EV(PATH_MIG_ERR) | EV(QP_LAST_WQE_REACHED),
	[OVBTEST_IRQ_SRQ] = EV(SRQ_ERR) | EV(SRQ_LIMIT_REACHED),
	[OVBTEST_IRQ_WQ] = EV(WQ_FATAL),
	[OVBTEST_IRQ_DEVICE] = EV(PORT_ACTIVE) | EV(PORT_ERR) |
			       EV(LID_CHANGE) | EV(PKEY_CHANGE) |
			       EV(SM_CHANGE) | EV(CLIENT_REREGISTER) |
			       EV(GID_CHANGE),
};

/* QP events deferred as mlx5 defers them; ordered, as mlx5's. */
static struct workqueue_struct *ovbtest_irq_wq;

struct ovbtest_irq_work {
	struct work_struct work;
	struct ovbtest_qp *qp;	/* lives until the workqueue is flushed */
	u32 event;
};

static void ovbtest_irq_qp_work(struct work_struct *work)
{
	struct ovbtest_irq_work *w =
		container_of(work, struct ovbtest_irq_work, work);
	struct ib_qp *ibqp = &w->qp->ibqp;
	struct ib_event ev = {
		.device = ibqp->device,
		.element.qp = ibqp,
		.event = w->event,
	};

	if (ibqp->event_handler) {
		ibqp->event_handler(&ev, ibqp->qp_context);
		/* the work items run one at a time: no race on raised */
		w->qp->irq.raised++;
		atomic64_inc(&w->qp->irq.dev->irq_obj_raised);
	}
	kfree(w);
}

int ovbtest_irq_events_init(void)
{
	ovbtest_irq_wq = alloc_ordered_workqueue("ovbtest_irq_ev", 0);
	return ovbtest_irq_wq ? 0 : -ENOMEM;
}

void ovbtest_irq_events_exit(void)
{
	destroy_workqueue(ovbtest_irq_wq);
}

/* One event of @src's owner; false when none was raised (now). */
static bool ovbtest_irq_raise(struct ovbtest_irq_src *src)
{
	struct ib_event ev = { .event = src->event };
	struct ovbtest_srq *srq;
	struct ovbtest_dev *dev;
	struct ovbtest_qp *qp;
	struct ovbtest_wq *wq;

	switch (src->kind) {
	case OVBTEST_IRQ_QP:
		qp = container_of(src, struct ovbtest_qp, irq);
		if (src->flags & OVBTEST_IRQ_EV_DEFER) {
			struct ovbtest_irq_work *w = kmalloc(sizeof(*w),
							     GFP_ATOMIC);

			if (w) {
				INIT_WORK(&w->work, ovbtest_irq_qp_work);
				w->qp = qp;
				w->event = src->event;
				queue_work(ovbtest_irq_wq, &w->work);
			}
			return false;	/* counted by the work */
		}
		if (!qp->ibqp.event_handler)
			return false;
		ev.device = qp->ibqp.device;
		ev.element.qp = &qp->ibqp;
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
		return true;
	case OVBTEST_IRQ_SRQ:
		srq = container_of(src, struct ovbtest_srq, irq);
		/* the hardware reports the limit once per arm */
		if (src->event == IB_EVENT_SRQ_LIMIT_REACHED &&
		    !atomic_xchg(&srq->limit_armed, 0))
			return false;
		if (!srq->ibsrq.event_handler)
			return false;
		ev.device = srq->ibsrq.device;
		ev.element.srq = &srq->ibsrq;
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
		return true;
	case OVBTEST_IRQ_WQ:
		wq = container_of(src, struct ovbtest_wq, irq);
		if (!wq->ibwq.event_handler)
			return false;
		ev.device = wq->ibwq.device;
		ev.element.wq = &wq->ibwq;
		wq->ibwq.event_handler(&ev, wq->ibwq.wq_context);
		return true;
	case OVBTEST_IRQ_DEVICE:
		dev = container_of(src, struct ovbtest_dev, irq);
		ev.device = &dev->ibdev;
		ev.element.port_num = src->port;
		ib_dispatch_event(&ev);
		return true;
	}
	return false;
}

/* Hard-irq context: the owner lives until ovbtest_irq_src_stop() returned. */
static enum hrtimer_restart ovbtest_irq_src_fire(struct hrtimer *timer)
{
	struct ovbtest_irq_src *src =
		container_of(timer, struct ovbtest_irq_src, timer);

	if (ovbtest_irq_raise(src)) {
		src->raised++;
		if (src->kind != OVBTEST_IRQ_DEVICE)
			atomic64_inc(&src->dev->irq_obj_raised);
	}
	if (--src->left == 0)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(src->period_ns));
	return HRTIMER_RESTART;
}

void ovbtest_irq_src_init(struct ovbtest_irq_src *src,
			  enum ovbtest_irq_kind kind, struct ib_device *ibdev)
{
	src->dev = to_odev(ibdev);
	mutex_init(&src->lock);
	hrtimer_init(&src->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	src->timer.function = ovbtest_irq_src_fire;
	src->kind = kind;
	src->left = 0;
	src->flags = 0;
	src->owner = NULL;
	src->raised = 0;
}

/* Waits for a running expiry and the work it queued; none follows. */
void ovbtest_irq_src_stop(struct ovbtest_irq_src *src)
{
	hrtimer_cancel(&src->timer);
	if (src->kind == OVBTEST_IRQ_QP)
		flush_workqueue(ovbtest_irq_wq);
}

/*
 * The port's timer belongs to the device, not to an object ib_uverbs
 * destroys: it stops when the context that started it goes (or at
 * unload), so none outlives its user.
 */
void ovbtest_irq_ctx_gone(struct ib_ucontext *ibuc)
{
	struct ovbtest_irq_src *src = &to_odev(ibuc->device)->irq;

	mutex_lock(&src->lock);
	if (src->owner == ibuc) {
		ovbtest_irq_src_stop(src);
		src->owner = NULL;
	}
	mutex_unlock(&src->lock);
}

/* The method of every source: (re)start or stop, answer what was raised. */
static int ovbtest_irq_src_method(struct uverbs_attr_bundle *attrs,
				  struct ovbtest_irq_src *src,
				  struct ib_device *ibdev,
				  struct ib_ucontext *owner)
{
	struct ovbtest_irq_ev args;
	u64 raised, obj_raised;
	int ret;

	ret = uverbs_copy_from(&args, attrs, OVBTEST_ATTR_IRQ_EV_ARGS);
	if (ret)
		return ret;
	if (args.reserved || (args.flags & ~OVBTEST_IRQ_EV_DEFER) ||
	    (args.flags && src->kind != OVBTEST_IRQ_QP))
		return -EINVAL;
	if (args.count) {
		if (args.period_ns < (owner ? OVBTEST_PORT_IRQ_MIN_PERIOD : 1000) ||
		    args.event >= 64 ||
		    !(ovbtest_irq_events[src->kind] & BIT_ULL(args.event)))
			return -EINVAL;
		if (src->kind == OVBTEST_IRQ_DEVICE ?
		    !rdma_is_port_valid(ibdev, args.port) : args.port)
			return -EINVAL;
	}

	mutex_lock(&src->lock);
	ovbtest_irq_src_stop(src);
	raised = src->raised;
	if (args.count) {
		src->left = args.count;
		src->event = args.event;
		src->port = args.port;
		src->flags = args.flags;
		src->owner = owner;
		src->period_ns = args.period_ns;
		hrtimer_start(&src->timer, ns_to_ktime(args.period_ns),
			      HRTIMER_MODE_REL);
	}
	mutex_unlock(&src->lock);

	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_IRQ_EV_OBJ_RAISED)) {
		obj_raised = atomic64_read(&to_odev(ibdev)->irq_obj_raised);
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_IRQ_EV_OBJ_RAISED,
				     &obj_raised, sizeof(obj_raised));
		if (ret)
			return ret;
	}
	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_IRQ_EV_RAISED))
		return uverbs_copy_to(attrs, OVBTEST_ATTR_IRQ_EV_RAISED,
				      &raised, sizeof(raised));
	return 0;
}

/* An XRC TGT QP's events are the shared QP's (as async.c raises them). */
static int UVERBS_HANDLER(OVBTEST_METHOD_QP_IRQ)(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *ibqp =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_IRQ_EV_HANDLE);

	ibqp = ibqp->real_qp;
	return ovbtest_irq_src_method(attrs, &to_oqp(ibqp)->irq, ibqp->device,
				      NULL);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_SRQ_IRQ)(struct uverbs_attr_bundle *attrs)
{
	struct ib_srq *ibsrq =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_IRQ_EV_HANDLE);

	return ovbtest_irq_src_method(attrs, &to_osrq(ibsrq)->irq,
				      ibsrq->device, NULL);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_WQ_IRQ)(struct uverbs_attr_bundle *attrs)
{
	struct ib_wq *ibwq =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_IRQ_EV_HANDLE);

	return ovbtest_irq_src_method(attrs, &to_owq(ibwq)->irq, ibwq->device,
				      NULL);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_PORT_IRQ)(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ibuc = ib_uverbs_get_ucontext(attrs);

	if (IS_ERR(ibuc))
		return PTR_ERR(ibuc);
	return ovbtest_irq_src_method(attrs, &to_odev(ibuc->device)->irq,
				      ibuc->device, ibuc);
}

#define OVBTEST_IRQ_EV_METHOD(method, object)				\
	DECLARE_UVERBS_NAMED_METHOD(method,				\
		UVERBS_ATTR_IDR(OVBTEST_ATTR_IRQ_EV_HANDLE, object,	\
				UVERBS_ACCESS_READ, UA_MANDATORY),	\
		UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_IRQ_EV_ARGS,		\
				   UVERBS_ATTR_TYPE(struct ovbtest_irq_ev), \
				   UA_MANDATORY),			\
		UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_IRQ_EV_RAISED,		\
				    UVERBS_ATTR_TYPE(u64), UA_OPTIONAL))

OVBTEST_IRQ_EV_METHOD(OVBTEST_METHOD_QP_IRQ, UVERBS_OBJECT_QP);
OVBTEST_IRQ_EV_METHOD(OVBTEST_METHOD_SRQ_IRQ, UVERBS_OBJECT_SRQ);
OVBTEST_IRQ_EV_METHOD(OVBTEST_METHOD_WQ_IRQ, UVERBS_OBJECT_WQ);
DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_PORT_IRQ,
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_IRQ_EV_ARGS,
					       UVERBS_ATTR_TYPE(struct ovbtest_irq_ev),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_IRQ_EV_RAISED,
						UVERBS_ATTR_TYPE(u64),
						UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_IRQ_EV_OBJ_RAISED,
						UVERBS_ATTR_TYPE(u64),
						UA_OPTIONAL));

ADD_UVERBS_METHODS(ovbtest_qp_irq, UVERBS_OBJECT_QP,
		   &UVERBS_METHOD(OVBTEST_METHOD_QP_IRQ));
ADD_UVERBS_METHODS(ovbtest_srq_irq, UVERBS_OBJECT_SRQ,
		   &UVERBS_METHOD(OVBTEST_METHOD_SRQ_IRQ));
ADD_UVERBS_METHODS(ovbtest_wq_irq, UVERBS_OBJECT_WQ,
		   &UVERBS_METHOD(OVBTEST_METHOD_WQ_IRQ));
DECLARE_UVERBS_GLOBAL_METHODS(OVBTEST_OBJECT_PORT_IRQ,
			      &UVERBS_METHOD(OVBTEST_METHOD_PORT_IRQ));

const struct uapi_definition ovbtest_irq_events_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_QP, &ovbtest_qp_irq),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_SRQ, &ovbtest_srq_irq),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_WQ, &ovbtest_wq_irq),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVBTEST_OBJECT_PORT_IRQ),
	{},
};
