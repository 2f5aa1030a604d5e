// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: a fatal device error raised from hard-interrupt context.
 *
 * What drivers do when their HCA dies, as read in 6.1 and 6.12: mlx5
 * (mlx5_ib_handle_internal_error, from its event workqueue once mlx5_core
 * reports MLX5_DEV_EVENT_SYS_ERROR) calls the completion handler of every
 * CQ that a QP with posted, uncompleted work feeds, so that a consumer
 * waiting for a completion polls and finds the flush errors; then it
 * dispatches IB_EVENT_DEVICE_FATAL on port 1 while ib_active, and clears
 * ib_active.  mlx4 does the same from its catastrophic-error path; ocrdma
 * dispatches DEVICE_FATAL from its event queue interrupt handler (hard
 * irq), mthca from a timer (softirq), cxgb4 from process context;
 * ib_dispatch_event() only queues a work item, so ib_uverbs' handlers run
 * in a workqueue whatever the driver's context.
 *
 * OVBTEST_METHOD_PORT_FATAL arms the device's one-shot hrtimer in
 * HRTIMER_MODE_REL (hard irq; softirq on PREEMPT_RT); its expiry marks the
 * device failed, calls comp_handler of every CQ of the device (the test
 * HCA executes no work request, so which CQ holds outstanding work is not
 * known: all of them, the superset of mlx5's choice) and, the first time,
 * dispatches DEVICE_FATAL.  The CQ list's lock is held across the calls
 * and destroy_cq takes the CQ off the list under it, so no handler runs
 * after destroy_cq returned, as mlx5 holds its reset-flow lock.  From then
 * on the verbs that would reach mlx5's firmware fail (verbs.c, qp.c).
 */
#include <linux/hrtimer.h>

#define UVERBS_MODULE_NAME ovbtest_fatal
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

void ovbtest_fatal_cq_add(struct ovbtest_cq *cq)
{
	struct ovbtest_dev *dev = to_odev(cq->ibcq.device);
	unsigned long flags;

	spin_lock_irqsave(&dev->cq_lock, flags);
	list_add_tail(&cq->dev_entry, &dev->cqs);
	spin_unlock_irqrestore(&dev->cq_lock, flags);
}

/* After it returns no comp_handler call of the fatal error reaches @cq. */
void ovbtest_fatal_cq_del(struct ovbtest_cq *cq)
{
	struct ovbtest_dev *dev = to_odev(cq->ibcq.device);
	unsigned long flags;

	spin_lock_irqsave(&dev->cq_lock, flags);
	list_del(&cq->dev_entry);
	spin_unlock_irqrestore(&dev->cq_lock, flags);
}

/* Hard-irq context; the device lives until ovbtest_fatal_shutdown(). */
static enum hrtimer_restart ovbtest_fatal_fire(struct hrtimer *timer)
{
	struct ovbtest_dev *dev =
		container_of(timer, struct ovbtest_dev, fatal_timer);
	struct ib_event ev = {
		.device = &dev->ibdev,
		.event = IB_EVENT_DEVICE_FATAL,
		.element.port_num = dev->fatal_port,
	};
	struct ovbtest_cq *cq;
	bool first;

	first = !atomic_xchg(&dev->failed, 1);
	spin_lock(&dev->cq_lock);
	list_for_each_entry(cq, &dev->cqs, dev_entry)
		if (cq->ibcq.comp_handler)
			cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	spin_unlock(&dev->cq_lock);
	if (first)
		ib_dispatch_event(&ev);
	dev->fatal_raised++;
	return HRTIMER_NORESTART;
}

void ovbtest_fatal_init(struct ovbtest_dev *dev)
{
	spin_lock_init(&dev->cq_lock);
	INIT_LIST_HEAD(&dev->cqs);
	mutex_init(&dev->fatal_lock);
	hrtimer_init(&dev->fatal_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	dev->fatal_timer.function = ovbtest_fatal_fire;
	atomic_set(&dev->failed, 0);
	dev->fatal_raised = 0;
	dev->fatal_shut = false;
}

/* Waits for a running expiry; the caller holds fatal_lock. */
static void ovbtest_fatal_stop(struct ovbtest_dev *dev)
{
	hrtimer_cancel(&dev->fatal_timer);
}

/*
 * Before unregistering: the timer stopped for good.  A PORT_FATAL still
 * running (unregistration waits for it) cannot arm it again, or it could
 * fire, and queue an event, after the device went.
 */
void ovbtest_fatal_shutdown(struct ovbtest_dev *dev)
{
	mutex_lock(&dev->fatal_lock);
	dev->fatal_shut = true;
	ovbtest_fatal_stop(dev);
	mutex_unlock(&dev->fatal_lock);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_PORT_FATAL)(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ibuc = ib_uverbs_get_ucontext(attrs);
	struct ovbtest_fatal args;
	struct ovbtest_dev *dev;
	u32 failed;
	u64 raised;
	int ret;

	if (IS_ERR(ibuc))
		return PTR_ERR(ibuc);
	dev = to_odev(ibuc->device);
	ret = uverbs_copy_from(&args, attrs, OVBTEST_ATTR_FATAL_ARGS);
	if (ret)
		return ret;
	if (args.flags || args.reserved)
		return -EINVAL;
	if (args.delay_ns &&
	    (args.delay_ns < 1000 ||
	     (args.port && !rdma_is_port_valid(&dev->ibdev, args.port))))
		return -EINVAL;

	mutex_lock(&dev->fatal_lock);
	if (dev->fatal_shut) {
		mutex_unlock(&dev->fatal_lock);
		return -EIO;
	}
	ovbtest_fatal_stop(dev);
	raised = dev->fatal_raised;
	failed = atomic_read(&dev->failed);
	if (args.delay_ns) {
		dev->fatal_port = args.port;
		hrtimer_start(&dev->fatal_timer, ns_to_ktime(args.delay_ns),
			      HRTIMER_MODE_REL);
	}
	mutex_unlock(&dev->fatal_lock);

	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_FATAL_FAILED)) {
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_FATAL_FAILED, &failed,
				     sizeof(failed));
		if (ret)
			return ret;
	}
	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_FATAL_RAISED))
		return uverbs_copy_to(attrs, OVBTEST_ATTR_FATAL_RAISED,
				      &raised, sizeof(raised));
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_PORT_FATAL,
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_FATAL_ARGS,
					       UVERBS_ATTR_TYPE(struct ovbtest_fatal),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_FATAL_RAISED,
						UVERBS_ATTR_TYPE(u64),
						UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_FATAL_FAILED,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL));

ADD_UVERBS_METHODS(ovbtest_fatal, OVBTEST_OBJECT_PORT_IRQ,
		   &UVERBS_METHOD(OVBTEST_METHOD_PORT_FATAL));

const struct uapi_definition ovbtest_fatal_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(OVBTEST_OBJECT_PORT_IRQ, &ovbtest_fatal),
	{},
};
