// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: completions and CQ events delivered from hard-interrupt
 * context, as a hardware driver's event-queue interrupt delivers them.
 * OVBTEST_METHOD_CQ_IRQ, added to the standard CQ object, starts the CQ's
 * hrtimer (HRTIMER_MODE_REL: the callback runs in hard-irq context, or
 * on PREEMPT_RT in softirq context, as RT force-threads a driver's
 * interrupt handler); each expiry calls cq->comp_handler whether or not
 * the CQ was armed (efa signals every completion), and/or
 * cq->event_handler with IB_EVENT_CQ_ERR.
 *
 * The driver keeps the rule drivers keep: once destroy_cq returns, no
 * handler of the CQ is called again.  mlx5 gets there by waiting for the
 * EQ's interrupt (synchronize_irq) after removing the CQ from its table;
 * here hrtimer_cancel() waits for a running callback and stops the
 * re-arming one.  So whatever goes wrong while the timer races a destroy,
 * a close or a disassociation is ib_uverbs' doing.
 */
#include <linux/hrtimer.h>

#define UVERBS_MODULE_NAME ovbtest_irq
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

/* Hard-irq context: the CQ lives until ovbtest_irq_cq_stop() returned. */
static enum hrtimer_restart ovbtest_irq_fire(struct hrtimer *timer)
{
	struct ovbtest_cq *cq = container_of(timer, struct ovbtest_cq,
					     irq_timer);
	struct ib_cq *ibcq = &cq->ibcq;

	if ((cq->irq_flags & OVBTEST_CQ_IRQ_COMP) && ibcq->comp_handler)
		ibcq->comp_handler(ibcq, ibcq->cq_context);
	if ((cq->irq_flags & OVBTEST_CQ_IRQ_CQ_ERR) && ibcq->event_handler) {
		struct ib_event ev = {
			.device = ibcq->device,
			.element.cq = ibcq,
			.event = IB_EVENT_CQ_ERR,
		};

		ibcq->event_handler(&ev, ibcq->cq_context);
	}
	cq->irq_fired++;
	if (--cq->irq_left == 0)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(cq->irq_period_ns));
	return HRTIMER_RESTART;
}

void ovbtest_irq_cq_init(struct ovbtest_cq *cq)
{
	mutex_init(&cq->irq_lock);
	hrtimer_init(&cq->irq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	cq->irq_timer.function = ovbtest_irq_fire;
	cq->irq_left = 0;
	cq->irq_flags = 0;
	cq->irq_fired = 0;
}

/* Waits for a running expiry; none follows. */
void ovbtest_irq_cq_stop(struct ovbtest_cq *cq)
{
	hrtimer_cancel(&cq->irq_timer);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_CQ_IRQ)(struct uverbs_attr_bundle *attrs)
{
	struct ib_cq *ibcq =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_CQ_IRQ_HANDLE);
	struct ovbtest_cq *cq = to_ocq(ibcq);
	struct ovbtest_cq_irq args;
	u64 fired;
	int ret;

	ret = uverbs_copy_from(&args, attrs, OVBTEST_ATTR_CQ_IRQ_ARGS);
	if (ret)
		return ret;
	if (args.reserved ||
	    (args.flags & ~(OVBTEST_CQ_IRQ_COMP | OVBTEST_CQ_IRQ_CQ_ERR)))
		return -EINVAL;
	if (args.count && (!args.flags || args.period_ns < 1000))
		return -EINVAL;

	mutex_lock(&cq->irq_lock);
	ovbtest_irq_cq_stop(cq);
	fired = cq->irq_fired;
	if (args.count) {
		cq->irq_left = args.count;
		cq->irq_flags = args.flags;
		cq->irq_period_ns = args.period_ns;
		hrtimer_start(&cq->irq_timer, ns_to_ktime(args.period_ns),
			      HRTIMER_MODE_REL);
	}
	mutex_unlock(&cq->irq_lock);

	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_CQ_IRQ_FIRED))
		return uverbs_copy_to(attrs, OVBTEST_ATTR_CQ_IRQ_FIRED,
				      &fired, sizeof(fired));
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_CQ_IRQ,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_CQ_IRQ_HANDLE,
					    UVERBS_OBJECT_CQ,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_CQ_IRQ_ARGS,
					       UVERBS_ATTR_TYPE(struct ovbtest_cq_irq),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_CQ_IRQ_FIRED,
						UVERBS_ATTR_TYPE(u64),
						UA_OPTIONAL));

ADD_UVERBS_METHODS(ovbtest_cq_irq, UVERBS_OBJECT_CQ,
		   &UVERBS_METHOD(OVBTEST_METHOD_CQ_IRQ));

const struct uapi_definition ovbtest_irq_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_CQ, &ovbtest_cq_irq),
	{},
};
