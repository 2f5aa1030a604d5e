// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: events.
 *
 * Two kinds of event files, both FD objects: the async event file (one per
 * context, made by GET_CONTEXT; port events, QP/CQ/SRQ/WQ errors, device
 * fatal) and completion channels (CREATE_COMP_CHANNEL; one 8-byte record
 * per CQ notification).  Events queue on the file until read(); poll,
 * O_NONBLOCK and SIGIO work as for any character file.  Each queued event
 * is also linked to its object so destroying the object can drop events
 * nobody will read and report how many were delivered.
 *
 * An event is on up to two lists, both under its queue's lock: the queue's
 * (evt->list) and, when it counts towards an object's "events reported",
 * that object's (evt->obj_list, evt->counter set).
 */

#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "uverbs.h"

/* ------------------------------------------------------------ the queue */

void ib_uverbs_init_event_queue(struct ib_uverbs_event_queue *ev_queue)
{
	memset(ev_queue, 0, sizeof(*ev_queue));	/* open, no fasync */
	INIT_LIST_HEAD(&ev_queue->event_list);
	spin_lock_init(&ev_queue->lock);
	init_waitqueue_head(&ev_queue->poll_wait);
}

/* Readers, pollers and SIGIO owners: something changed. */
static void evq_notify(struct ib_uverbs_event_queue *ev_queue)
{
	wake_up_interruptible(&ev_queue->poll_wait);
	kill_fasync(&ev_queue->async_queue, SIGIO, POLL_IN);
}

/* Off the queue; @delivered counts it for its object.  Queue lock held. */
static void evq_unlink(struct ib_uverbs_event *evt, bool delivered)
{
	list_del(&evt->list);
	if (!evt->counter)
		return;
	if (delivered)
		(*evt->counter)++;
	list_del(&evt->obj_list);
}

/* No more events: drop the queued ones and wake readers (they get EIO). */
void ib_uverbs_free_event_queue(struct ib_uverbs_event_queue *ev_queue)
{
	struct ib_uverbs_event *evt, *tmp;

	spin_lock_irq(&ev_queue->lock);
	ev_queue->is_closed = 1;
	list_for_each_entry_safe(evt, tmp, &ev_queue->event_list, list) {
		evq_unlink(evt, false);
		kfree(evt);
	}
	spin_unlock_irq(&ev_queue->lock);
	evq_notify(ev_queue);
}

/* An object goes away: the events of it nobody has read go with it. */
static void evq_drop_object_events(struct ib_uverbs_event_queue *ev_queue,
				   struct list_head *object_events)
{
	struct ib_uverbs_event *evt, *tmp;

	spin_lock_irq(&ev_queue->lock);
	list_for_each_entry_safe(evt, tmp, object_events, obj_list) {
		list_del(&evt->list);
		kfree(evt);
	}
	spin_unlock_irq(&ev_queue->lock);
}

/* A copy of @proto on the queue, unless it is closed.  Queue lock held. */
static bool evq_add(struct ib_uverbs_event_queue *ev_queue,
		    const struct ib_uverbs_event *proto,
		    struct list_head *obj_list)
{
	struct ib_uverbs_event *evt;

	if (ev_queue->is_closed)
		return false;
	/* drivers report from interrupt context */
	evt = kmalloc(sizeof(*evt), GFP_ATOMIC);
	if (!evt)
		return false;
	*evt = *proto;
	list_add_tail(&evt->list, &ev_queue->event_list);
	if (obj_list)
		list_add_tail(&evt->obj_list, obj_list);
	return true;
}

static void uverbs_queue_event(struct ib_uverbs_event_queue *ev_queue,
			       const struct ib_uverbs_event *proto,
			       struct list_head *obj_list)
{
	unsigned long flags;
	bool added;

	spin_lock_irqsave(&ev_queue->lock, flags);
	added = evq_add(ev_queue, proto, obj_list);
	spin_unlock_irqrestore(&ev_queue->lock, flags);
	if (added)
		evq_notify(ev_queue);
}

/* What a reader waits for. */
static bool evq_readable(struct ib_uverbs_event_queue *ev_queue)
{
	return !list_empty(&ev_queue->event_list) || ev_queue->is_closed;
}

/*
 * The oldest event, taken off the queue, if it fits in @room bytes:
 * ERR_PTR(-EAGAIN) while there is none, -EIO once there will be none,
 * -EINVAL when it does not fit (one event per read(), left queued).
 */
static struct ib_uverbs_event *evq_take(struct ib_uverbs_event_queue *ev_queue,
					size_t room, size_t evt_size)
{
	struct ib_uverbs_event *evt;

	spin_lock_irq(&ev_queue->lock);
	evt = list_first_entry_or_null(&ev_queue->event_list,
				       struct ib_uverbs_event, list);
	if (!evt)
		evt = ERR_PTR(ev_queue->is_closed ? -EIO : -EAGAIN);
	else if (room < evt_size)
		evt = ERR_PTR(-EINVAL);
	else
		evq_unlink(evt, true);
	spin_unlock_irq(&ev_queue->lock);
	return evt;
}

static ssize_t uverbs_event_read(struct ib_uverbs_event_queue *ev_queue,
				 struct file *filp, char __user *buf,
				 size_t count, size_t evt_size)
{
	struct ib_uverbs_event *evt;
	ssize_t ret;

	for (;;) {
		evt = evq_take(ev_queue, count, evt_size);
		if (PTR_ERR_OR_ZERO(evt) != -EAGAIN)
			break;
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ev_queue->poll_wait,
					     evq_readable(ev_queue)))
			return -ERESTARTSYS;
	}
	if (IS_ERR(evt))
		return PTR_ERR(evt);

	ret = copy_to_user(buf, &evt->desc, evt_size) ? -EFAULT : evt_size;
	kfree(evt);
	return ret;
}

static __poll_t uverbs_event_poll(struct ib_uverbs_event_queue *ev_queue,
				  struct file *filp, poll_table *wait)
{
	__poll_t mask;

	poll_wait(filp, &ev_queue->poll_wait, wait);
	spin_lock_irq(&ev_queue->lock);
	mask = !list_empty(&ev_queue->event_list) ? EPOLLIN | EPOLLRDNORM :
	       ev_queue->is_closed ? EPOLLERR : 0;
	spin_unlock_irq(&ev_queue->lock);
	return mask;
}

/* ----------------------------------------------------- completion channel */

/*
 * The file operations of one kind of event file: read, poll and fasync
 * act on its queue (<kind>_queue_of()), one @desc-sized record per
 * read(); @release ends it.
 */
#define UVERBS_EVENT_FILE_FOPS(fops, kind, desc, release_fn)		\
static ssize_t kind##_event_read(struct file *filp, char __user *buf,	\
				 size_t count, loff_t *pos)		\
{									\
	return uverbs_event_read(kind##_queue_of(filp), filp, buf,	\
				 count, sizeof(desc));			\
}									\
static __poll_t kind##_event_poll(struct file *filp, poll_table *wait)	\
{									\
	return uverbs_event_poll(kind##_queue_of(filp), filp, wait);	\
}									\
static int kind##_event_fasync(int fd, struct file *filp, int on)	\
{									\
	return fasync_helper(fd, filp, on,				\
			     &kind##_queue_of(filp)->async_queue);	\
}									\
const struct file_operations fops = {					\
	.owner = THIS_MODULE,						\
	.read = kind##_event_read,					\
	.poll = kind##_event_poll,					\
	.fasync = kind##_event_fasync,					\
	.release = release_fn,						\
}

static struct ib_uverbs_event_queue *comp_queue_of(struct file *filp)
{
	struct ib_uverbs_completion_event_file *comp = filp->private_data;

	return &comp->ev_queue;
}

UVERBS_EVENT_FILE_FOPS(uverbs_event_fops, comp, struct ovb_comp_event_desc,
		       uverbs_uobject_fd_release);

static void uverbs_comp_channel_destroy(struct ib_uobject *uobj,
					enum rdma_remove_reason why)
{
	struct ib_uverbs_completion_event_file *comp =
		container_of(uobj, struct ib_uverbs_completion_event_file, uobj);

	ib_uverbs_free_event_queue(&comp->ev_queue);
}

const struct uverbs_obj_fd_type uverbs_comp_channel_type = {
	.type = {
		.type_class = &uverbs_fd_class,
		.obj_size = sizeof(struct ib_uverbs_completion_event_file),
	},
	.destroy_object = uverbs_comp_channel_destroy,
	.fops = &uverbs_event_fops,
	.name = "[infinibandevent]",
	.flags = O_RDONLY,
};

/* A CQ notification: queued on the CQ's channel (cq_context). */
void ib_uverbs_comp_handler(struct ib_cq *cq, void *cq_context)
{
	struct ib_uverbs_event_queue *ev_queue = cq_context;
	struct ib_ucq_object *ucq = cq->uobject;
	struct ib_uverbs_event proto = {
		.desc.comp.cq_handle = ucq->uevent.uobject.user_handle,
		.counter = &ucq->comp_events_reported,
	};

	if (ev_queue)
		uverbs_queue_event(ev_queue, &proto, &ucq->comp_list);
}

/*
 * The channel behind @fd, with a reference the caller keeps (the CQ's):
 * the read lookup only proves it is one of this file's channels.
 */
struct ib_uverbs_completion_event_file *
uverbs_lookup_comp_file(s32 fd, struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = ufd_get_read(OVB_OBJECT_COMP_CHANNEL,
					       fd, attrs);

	if (!IS_ERR(uobj)) {
		kref_get(&uobj->ref);
		uobj_put_read(uobj);
	}
	return IS_ERR(uobj) ? ERR_CAST(uobj) :
	       container_of(uobj, struct ib_uverbs_completion_event_file, uobj);
}

/* A CQ goes away: drop its unread notifications and its channel ref. */
void ib_uverbs_release_ucq(struct ib_uverbs_completion_event_file *ev_file,
			   struct ib_ucq_object *ucq)
{
	if (ev_file) {
		evq_drop_object_events(&ev_file->ev_queue, &ucq->comp_list);
		uverbs_uobject_put(&ev_file->uobj);
	}
	ib_uverbs_release_uevent(&ucq->uevent);
}

static int uverbs_create_comp_channel(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_comp_channel_resp resp = {};
	struct ovb_create_comp_channel_req cmd;
	struct ib_uverbs_completion_event_file *comp;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	uobj = uobj_alloc(OVB_OBJECT_COMP_CHANNEL, attrs, &ibdev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);

	comp = container_of(uobj, struct ib_uverbs_completion_event_file, uobj);
	ib_uverbs_init_event_queue(&comp->ev_queue);
	resp.fd = uobj->id;

	uobj_finalize_uobj_create(uobj, attrs);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/* ------------------------------------------------------- async event file */

static struct ib_uverbs_async_event_file *async_file_of(struct ib_uobject *uobj)
{
	return container_of(uobj, struct ib_uverbs_async_event_file, uobj);
}

/*
 * The async file must still deliver DEVICE_FATAL after a hot-unplug
 * destroyed its object, so its queue is emptied only when it is closed:
 * after the object's release, which the reference taken here outlives.
 */
static int uverbs_async_event_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;
	int ret;

	/* no uobject: a creation aborted before the file was installed */
	if (uobj)
		uverbs_uobject_get(uobj);
	ret = uverbs_uobject_fd_release(inode, filp);
	if (uobj) {
		ib_uverbs_free_event_queue(&async_file_of(uobj)->ev_queue);
		uverbs_uobject_put(uobj);
	}
	return ret;
}

static struct ib_uverbs_event_queue *async_queue_of(struct file *filp)
{
	struct ib_uverbs_async_event_file *async = filp->private_data;

	return &async->ev_queue;
}

UVERBS_EVENT_FILE_FOPS(uverbs_async_event_fops, async,
		       struct ovb_async_event_desc, uverbs_async_event_release);

/* Every async event: queued on @async_file (none: nobody listens). */
void ib_uverbs_async_handler(struct ib_uverbs_async_event_file *async_file,
			     __u64 element, __u64 event,
			     struct list_head *obj_list, u32 *counter)
{
	struct ib_uverbs_event proto = {
		.desc.async.element = element,
		.desc.async.event_type = event,
		.counter = counter,
	};

	if (async_file)
		uverbs_queue_event(&async_file->ev_queue, &proto, obj_list);
}

/*
 * An object's event, for its user: element is the object's user handle,
 * and the event counts towards the object's "events reported".
 */
static void uverbs_object_event(struct ib_uevent_object *uevent,
				const struct ib_event *event)
{
	ib_uverbs_async_handler(uevent->event_file,
				uevent->uobject.user_handle, event->event,
				&uevent->event_list, &uevent->events_reported);
}

/* The event_handler of every CQ, QP, SRQ and WQ a user creates. */
void ib_uverbs_cq_event_handler(struct ib_event *event, void *context_ptr)
{
	struct ib_ucq_object *ucq = event->element.cq->uobject;

	uverbs_object_event(&ucq->uevent, event);
}

void ib_uverbs_qp_event_handler(struct ib_event *event, void *context_ptr)
{
	struct ib_uqp_object *uqp = event->element.qp->uobject;

	/* QPs opened with OPEN_QP share a kernel QP without a uobject. */
	if (uqp)
		uverbs_object_event(&uqp->uevent, event);
}

void ib_uverbs_srq_event_handler(struct ib_event *event, void *context_ptr)
{
	struct ib_usrq_object *usrq = event->element.srq->uobject;

	uverbs_object_event(&usrq->uevent, event);
}

void ib_uverbs_wq_event_handler(struct ib_event *event, void *context_ptr)
{
	struct ib_uwq_object *uwq = event->element.wq->uobject;

	uverbs_object_event(&uwq->uevent, event);
}

/*
 * The async event file a new CQ/QP/SRQ/WQ reports to, not referenced.  A
 * write() command has no attribute for it: the file's default one (also
 * when the command came through INVOKE_WRITE, whose attributes are not the
 * create method's).
 */
struct ib_uverbs_async_event_file *
uverbs_default_async_event(struct ib_uverbs_file *ufile)
{
	return READ_ONCE(ufile->default_async_file);
}

/* An ioctl create method: the one its attribute @attr names, else the default. */
struct ib_uverbs_async_event_file *
uverbs_async_event_attr(struct uverbs_attr_bundle *attrs, u16 attr)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, attr);

	if (IS_ERR(uobj))
		return uverbs_default_async_event(attrs->ufile);
	return container_of(uobj, struct ib_uverbs_async_event_file, uobj);
}

/* The reference a new object holds on its async event file (or NULL). */
struct ib_uverbs_async_event_file *
uverbs_async_event_get(struct ib_uverbs_async_event_file *async)
{
	if (async)
		uverbs_uobject_get(&async->uobj);
	return async;
}

/* An object goes away: drop its unread events and its async file ref. */
void ib_uverbs_release_uevent(struct ib_uevent_object *uevent)
{
	struct ib_uverbs_async_event_file *async = uevent->event_file;

	if (!async)
		return;
	evq_drop_object_events(&async->ev_queue, &uevent->event_list);
	uverbs_uobject_put(&async->uobj);
}

/* Device-wide events (port up/down, ...): element is the port number. */
static void uverbs_device_event(struct ib_event_handler *handler,
				struct ib_event *event)
{
	struct ib_uverbs_async_event_file *async =
		container_of(handler, struct ib_uverbs_async_event_file,
			     event_handler);

	ib_uverbs_async_handler(async, event->element.port_num, event->event,
				NULL, NULL);
}

/* The file's first async file becomes its default (for write() creates). */
static void ufile_adopt_default_async(struct ib_uverbs_file *ufile,
				      struct ib_uverbs_async_event_file *async)
{
	mutex_lock(&ufile->ucontext_lock);
	if (!ufile->default_async_file) {
		/* the default's own reference, dropped with the file */
		uverbs_uobject_get(&async->uobj);
		/* pairs with READ_ONCE/acquire of default_async_file readers */
		smp_store_release(&ufile->default_async_file, async);
	}
	mutex_unlock(&ufile->ucontext_lock);
}

/* Sets up a new async file and starts listening to its device. */
void ib_uverbs_init_async_event_file(struct ib_uverbs_async_event_file *async)
{
	struct ib_event_handler *listener = &async->event_handler;

	ib_uverbs_init_event_queue(&async->ev_queue);
	ufile_adopt_default_async(async->uobj.ufile, async);
	INIT_IB_EVENT_HANDLER(listener, async->uobj.context->device,
			      uverbs_device_event);
	ib_register_event_handler(listener);
}

/* The last event a user sees from an unplugged device is DEVICE_FATAL. */
static void uverbs_async_event_destroy(struct ib_uobject *uobj,
				       enum rdma_remove_reason why)
{
	struct ib_uverbs_async_event_file *async = async_file_of(uobj);
	bool unplugged = why == RDMA_REMOVE_DRIVER_REMOVE;

	ib_unregister_event_handler(&async->event_handler);
	if (unplugged)
		ib_uverbs_async_handler(async, 0, IB_EVENT_DEVICE_FATAL,
					NULL, NULL);
}

const struct uverbs_obj_fd_type uverbs_async_event_type = {
	.type = {
		.type_class = &uverbs_fd_class,
		.obj_size = sizeof(struct ib_uverbs_async_event_file),
	},
	.destroy_object = uverbs_async_event_destroy,
	.fops = &uverbs_async_event_fops,
	.name = "[infinibandevent]",
	.flags = O_RDONLY,
};

/* ASYNC_EVENT_ALLOC: what write() GET_CONTEXT does for its async_fd. */
static int UVERBS_HANDLER(OVB_METHOD_ASYNC_EVENT_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVB_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);
	struct ib_uverbs_async_event_file *async =
		container_of(uobj, struct ib_uverbs_async_event_file, uobj);

	ib_uverbs_init_async_event_file(async);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_ASYNC_EVENT_ALLOC,
			    UVERBS_ATTR_FD(OVB_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE,
					   OVB_OBJECT_ASYNC_EVENT, UVERBS_ACCESS_NEW,
					   UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_ASYNC_EVENT,
			    uverbs_async_event_type.type,
			    &UVERBS_METHOD(OVB_METHOD_ASYNC_EVENT_ALLOC));

const struct uapi_definition uverbs_def_obj_async_fd[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_ASYNC_EVENT),
	{ }
};

/* No ioctl methods; 6.1 serves completion channels on devices with PDs only. */
DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_COMP_CHANNEL,
			    uverbs_comp_channel_type.type);

const struct uapi_definition uverbs_def_obj_comp_channel[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_COMP_CHANNEL),
	UAPI_DEF_OBJ_NEEDS_FN(dealloc_pd),
	UVERBS_DECLARE_WRITE(OVB_CMD_CREATE_COMP_CHANNEL, uverbs_create_comp_channel,
			     UVERBS_IN_OUT(struct ovb_create_comp_channel_req,
					   struct ovb_create_comp_channel_resp)),
	{ }
};
