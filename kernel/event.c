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
 */

#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "uverbs.h"

void ib_uverbs_init_event_queue(struct ib_uverbs_event_queue *ev_queue)
{
	spin_lock_init(&ev_queue->lock);
	INIT_LIST_HEAD(&ev_queue->event_list);
	init_waitqueue_head(&ev_queue->poll_wait);
	ev_queue->is_closed = 0;
	ev_queue->async_queue = NULL;
}

/* No more events: drop the queued ones and wake readers (they get EIO). */
void ib_uverbs_free_event_queue(struct ib_uverbs_event_queue *ev_queue)
{
	struct ib_uverbs_event *evt, *tmp;

	spin_lock_irq(&ev_queue->lock);
	ev_queue->is_closed = 1;
	list_for_each_entry_safe(evt, tmp, &ev_queue->event_list, list) {
		list_del(&evt->list);
		if (evt->counter)
			list_del(&evt->obj_list);
		kfree(evt);
	}
	spin_unlock_irq(&ev_queue->lock);
	wake_up_interruptible(&ev_queue->poll_wait);
	kill_fasync(&ev_queue->async_queue, SIGIO, POLL_IN);
}

/* Queue one event; called from interrupt context by drivers. */
static void uverbs_queue_event(struct ib_uverbs_event_queue *ev_queue,
			       const struct ib_uverbs_event *proto,
			       struct list_head *obj_list)
{
	struct ib_uverbs_event *evt;
	unsigned long flags;

	spin_lock_irqsave(&ev_queue->lock, flags);
	if (ev_queue->is_closed) {
		spin_unlock_irqrestore(&ev_queue->lock, flags);
		return;
	}
	evt = kmalloc(sizeof(*evt), GFP_ATOMIC);
	if (!evt) {
		spin_unlock_irqrestore(&ev_queue->lock, flags);
		return;
	}
	evt->desc = proto->desc;
	evt->counter = proto->counter;
	list_add_tail(&evt->list, &ev_queue->event_list);
	if (obj_list)
		list_add_tail(&evt->obj_list, obj_list);
	spin_unlock_irqrestore(&ev_queue->lock, flags);

	wake_up_interruptible(&ev_queue->poll_wait);
	kill_fasync(&ev_queue->async_queue, SIGIO, POLL_IN);
}

static ssize_t uverbs_event_read(struct ib_uverbs_event_queue *ev_queue,
				 struct file *filp, char __user *buf,
				 size_t count, size_t evt_size)
{
	struct ib_uverbs_event *evt;
	int ret;

	spin_lock_irq(&ev_queue->lock);
	while (list_empty(&ev_queue->event_list)) {
		if (ev_queue->is_closed) {
			spin_unlock_irq(&ev_queue->lock);
			return -EIO;
		}
		spin_unlock_irq(&ev_queue->lock);
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ev_queue->poll_wait,
					     !list_empty(&ev_queue->event_list) ||
					     ev_queue->is_closed))
			return -ERESTARTSYS;
		spin_lock_irq(&ev_queue->lock);
	}

	/* One event per read(); a buffer too small for it is an error. */
	if (count < evt_size) {
		spin_unlock_irq(&ev_queue->lock);
		return -EINVAL;
	}
	evt = list_first_entry(&ev_queue->event_list, struct ib_uverbs_event,
			       list);
	list_del(&evt->list);
	if (evt->counter) {
		++(*evt->counter);
		list_del(&evt->obj_list);
	}
	spin_unlock_irq(&ev_queue->lock);

	ret = copy_to_user(buf, &evt->desc, evt_size) ? -EFAULT : evt_size;
	kfree(evt);
	return ret;
}

static __poll_t uverbs_event_poll(struct ib_uverbs_event_queue *ev_queue,
				  struct file *filp, poll_table *wait)
{
	__poll_t mask = 0;

	poll_wait(filp, &ev_queue->poll_wait, wait);
	spin_lock_irq(&ev_queue->lock);
	if (!list_empty(&ev_queue->event_list))
		mask = EPOLLIN | EPOLLRDNORM;
	else if (ev_queue->is_closed)
		mask = EPOLLERR;
	spin_unlock_irq(&ev_queue->lock);
	return mask;
}

/* ----------------------------------------------------- completion channel */

static struct ib_uverbs_event_queue *comp_queue_of(struct file *filp)
{
	struct ib_uverbs_completion_event_file *comp = filp->private_data;

	return &comp->ev_queue;
}

static ssize_t uverbs_comp_event_read(struct file *filp, char __user *buf,
				      size_t count, loff_t *pos)
{
	return uverbs_event_read(comp_queue_of(filp), filp, buf, count,
				 sizeof(struct ovb_comp_event_desc));
}

static __poll_t uverbs_comp_event_poll(struct file *filp, poll_table *wait)
{
	return uverbs_event_poll(comp_queue_of(filp), filp, wait);
}

static int uverbs_comp_event_fasync(int fd, struct file *filp, int on)
{
	return fasync_helper(fd, filp, on, &comp_queue_of(filp)->async_queue);
}

const struct file_operations uverbs_event_fops = {
	.owner = THIS_MODULE,
	.read = uverbs_comp_event_read,
	.poll = uverbs_comp_event_poll,
	.release = uverbs_uobject_fd_release,
	.fasync = uverbs_comp_event_fasync,
	.llseek = no_llseek,
};

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

/* Returns the channel behind @fd with a reference the caller keeps. */
struct ib_uverbs_completion_event_file *
uverbs_lookup_comp_file(s32 fd, struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = ufd_get_read(OVB_OBJECT_COMP_CHANNEL,
					       fd, attrs);

	if (IS_ERR(uobj))
		return ERR_CAST(uobj);
	uverbs_uobject_get(uobj);
	uobj_put_read(uobj);
	return container_of(uobj, struct ib_uverbs_completion_event_file, uobj);
}

/* A CQ goes away: drop its unread notifications and its channel ref. */
void ib_uverbs_release_ucq(struct ib_uverbs_completion_event_file *ev_file,
			   struct ib_ucq_object *ucq)
{
	struct ib_uverbs_event *evt, *tmp;

	if (ev_file) {
		spin_lock_irq(&ev_file->ev_queue.lock);
		list_for_each_entry_safe(evt, tmp, &ucq->comp_list, obj_list) {
			list_del(&evt->list);
			kfree(evt);
		}
		spin_unlock_irq(&ev_file->ev_queue.lock);
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

static struct ib_uverbs_event_queue *async_queue_of(struct file *filp)
{
	struct ib_uverbs_async_event_file *async = filp->private_data;

	return &async->ev_queue;
}

static ssize_t uverbs_async_event_read(struct file *filp, char __user *buf,
				       size_t count, loff_t *pos)
{
	return uverbs_event_read(async_queue_of(filp), filp, buf, count,
				 sizeof(struct ovb_async_event_desc));
}

static __poll_t uverbs_async_event_poll(struct file *filp, poll_table *wait)
{
	return uverbs_event_poll(async_queue_of(filp), filp, wait);
}

static int uverbs_async_event_fasync(int fd, struct file *filp, int on)
{
	return fasync_helper(fd, filp, on, &async_queue_of(filp)->async_queue);
}

/*
 * The async file must still deliver DEVICE_FATAL after a hot-unplug
 * destroyed its object, so its queue is emptied only when it is closed.
 */
static int uverbs_async_event_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;
	struct ib_uverbs_async_event_file *async;
	int ret;

	if (!uobj)
		return uverbs_uobject_fd_release(inode, filp);

	async = container_of(uobj, struct ib_uverbs_async_event_file, uobj);
	uverbs_uobject_get(uobj);
	ret = uverbs_uobject_fd_release(inode, filp);
	ib_uverbs_free_event_queue(&async->ev_queue);
	uverbs_uobject_put(uobj);
	return ret;
}

const struct file_operations uverbs_async_event_fops = {
	.owner = THIS_MODULE,
	.read = uverbs_async_event_read,
	.poll = uverbs_async_event_poll,
	.release = uverbs_async_event_release,
	.fasync = uverbs_async_event_fasync,
	.llseek = no_llseek,
};

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

static void uverbs_object_event(struct ib_uevent_object *uevent,
				struct ib_event *event)
{
	ib_uverbs_async_handler(uevent->event_file,
				uevent->uobject.user_handle, event->event,
				&uevent->event_list, &uevent->events_reported);
}

void ib_uverbs_cq_event_handler(struct ib_event *event, void *context_ptr)
{
	uverbs_object_event(&event->element.cq->uobject->uevent, event);
}

void ib_uverbs_qp_event_handler(struct ib_event *event, void *context_ptr)
{
	/* QPs opened with OPEN_QP share a kernel QP without a uobject. */
	if (event->element.qp->uobject)
		uverbs_object_event(&event->element.qp->uobject->uevent, event);
}

void ib_uverbs_wq_event_handler(struct ib_event *event, void *context_ptr)
{
	uverbs_object_event(&event->element.wq->uobject->uevent, event);
}

void ib_uverbs_srq_event_handler(struct ib_event *event, void *context_ptr)
{
	uverbs_object_event(&event->element.srq->uobject->uevent, event);
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
	struct ib_uverbs_event *evt, *tmp;

	if (!async)
		return;
	spin_lock_irq(&async->ev_queue.lock);
	list_for_each_entry_safe(evt, tmp, &uevent->event_list, obj_list) {
		list_del(&evt->list);
		kfree(evt);
	}
	spin_unlock_irq(&async->ev_queue.lock);
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

/* Sets up a new async file; the first one becomes the file's default. */
void ib_uverbs_init_async_event_file(struct ib_uverbs_async_event_file *async)
{
	struct ib_uverbs_file *ufile = async->uobj.ufile;
	struct ib_device *ibdev = async->uobj.context->device;

	ib_uverbs_init_event_queue(&async->ev_queue);

	mutex_lock(&ufile->ucontext_lock);
	if (!ufile->default_async_file) {
		uverbs_uobject_get(&async->uobj);
		/* pairs with READ_ONCE/acquire of default_async_file readers */
		smp_store_release(&ufile->default_async_file, async);
	}
	mutex_unlock(&ufile->ucontext_lock);

	INIT_IB_EVENT_HANDLER(&async->event_handler, ibdev, uverbs_device_event);
	ib_register_event_handler(&async->event_handler);
}

static void uverbs_async_event_destroy(struct ib_uobject *uobj,
				       enum rdma_remove_reason why)
{
	struct ib_uverbs_async_event_file *async =
		container_of(uobj, struct ib_uverbs_async_event_file, uobj);

	ib_unregister_event_handler(&async->event_handler);
	/* The last event a user sees from an unplugged device. */
	if (why == RDMA_REMOVE_DRIVER_REMOVE)
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

const struct uverbs_write_cmd uverbs_event_cmds[] = {
	UVERBS_WRITE(OVB_CMD_CREATE_COMP_CHANNEL,
		     uverbs_create_comp_channel,
		     struct ovb_create_comp_channel_req,
		     struct ovb_create_comp_channel_resp, 0),
	{ }
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

/* No methods; 6.1 serves completion channels on devices with PDs only. */
DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_COMP_CHANNEL,
			    uverbs_comp_channel_type.type);

const struct uapi_definition uverbs_def_obj_comp_channel[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_COMP_CHANNEL,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_pd)),
	{ }
};
