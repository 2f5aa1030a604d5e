// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: OVBTEST_OBJECT_EVENTS, a driver FD object with its own read()
 * and poll(), the shape of mlx5 DEVX's async command FD.  EVENTS_ALLOC
 * makes one (an FD attribute with NEW access); OVBTEST_METHOD_PROBE_POST
 * (probe.c) takes it with READ access and queues a record that read()
 * returns.
 *
 * Lifetime, as ib_uverbs gives it to every FD object type:
 *  - close() of the last reference runs uverbs_uobject_fd_release(), which
 *    destroys the object (RDMA_REMOVE_CLOSE);
 *  - closing the uverbs file that made it, or the device going away
 *    (disassociation), destroys it while the struct file lives on: the
 *    file then only answers read() with EIO and poll() with EPOLLRDHUP, so
 *    blocked readers wake up;
 *  - the file_operations are this module's, so an open file pins the module
 *    (.owner): rmmod fails while one is open, as for any driver FD type.
 */
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "ovbtest.h"

/* Records queued and not read; POST answers EAGAIN beyond (as DEVX). */
#define OVBTEST_EVENTS_QUEUE_MAX	1024

struct ovbtest_events_file {
	struct ib_uobject uobj;
	spinlock_t lock;		/* records, queued, next_seq, destroyed */
	wait_queue_head_t wait;
	struct list_head records;
	unsigned int queued;
	u32 next_seq;
	bool destroyed;
};

struct ovbtest_event_rec {
	struct list_head list;
	struct ovbtest_event ev;
};

static struct ovbtest_events_file *to_oevf(struct ib_uobject *uobj)
{
	return container_of(uobj, struct ovbtest_events_file, uobj);
}

int ovbtest_events_post(struct ib_uobject *uobj, u64 cookie, u32 *seq)
{
	struct ovbtest_events_file *evf = to_oevf(uobj);
	struct ovbtest_event_rec *rec;
	int ret = 0;

	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	rec->ev.cookie = cookie;

	spin_lock_irq(&evf->lock);
	if (evf->destroyed) {
		ret = -EIO;
	} else if (evf->queued >= OVBTEST_EVENTS_QUEUE_MAX) {
		ret = -EAGAIN;
	} else {
		rec->ev.seq = ++evf->next_seq;
		*seq = rec->ev.seq;
		list_add_tail(&rec->list, &evf->records);
		evf->queued++;
	}
	spin_unlock_irq(&evf->lock);

	if (ret) {
		kfree(rec);
		return ret;
	}
	wake_up_interruptible(&evf->wait);
	return 0;
}

static ssize_t ovbtest_events_read(struct file *filp, char __user *buf,
				   size_t count, loff_t *pos)
{
	struct ovbtest_events_file *evf = to_oevf(filp->private_data);
	struct ovbtest_event_rec *rec;
	int ret;

	spin_lock_irq(&evf->lock);
	for (;;) {
		if (evf->destroyed) {
			spin_unlock_irq(&evf->lock);
			return -EIO;
		}
		if (!list_empty(&evf->records))
			break;
		spin_unlock_irq(&evf->lock);
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(evf->wait,
					       !list_empty(&evf->records) ||
					       READ_ONCE(evf->destroyed));
		if (ret)
			return ret;
		spin_lock_irq(&evf->lock);
	}

	/* Whole records only; the record stays queued for a bigger read. */
	if (count < sizeof(rec->ev)) {
		spin_unlock_irq(&evf->lock);
		return -ENOSPC;
	}
	rec = list_first_entry(&evf->records, struct ovbtest_event_rec, list);
	list_del(&rec->list);
	evf->queued--;
	spin_unlock_irq(&evf->lock);

	ret = copy_to_user(buf, &rec->ev, sizeof(rec->ev)) ? -EFAULT :
							     sizeof(rec->ev);
	kfree(rec);
	return ret;
}

static __poll_t ovbtest_events_poll(struct file *filp,
				    struct poll_table_struct *wait)
{
	struct ovbtest_events_file *evf = to_oevf(filp->private_data);
	__poll_t mask = 0;

	poll_wait(filp, &evf->wait, wait);

	spin_lock_irq(&evf->lock);
	if (evf->destroyed)
		mask = EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	else if (!list_empty(&evf->records))
		mask = EPOLLIN | EPOLLRDNORM;
	spin_unlock_irq(&evf->lock);
	return mask;
}

static const struct file_operations ovbtest_events_fops = {
	.owner = THIS_MODULE,
	.read = ovbtest_events_read,
	.poll = ovbtest_events_poll,
	.release = uverbs_uobject_fd_release,
	.llseek = OVBTEST_NO_LLSEEK,
};

/*
 * Called once per object, for every reason (close of the file, close of
 * the uverbs file, disassociation).  The struct file, and with it this
 * memory, may outlive it: keep answering read/poll from "destroyed".
 */
static void ovbtest_events_destroy(struct ib_uobject *uobj,
				   enum rdma_remove_reason why)
{
	struct ovbtest_events_file *evf = to_oevf(uobj);
	struct ovbtest_event_rec *rec, *next;
	LIST_HEAD(drop);

	spin_lock_irq(&evf->lock);
	evf->destroyed = true;
	list_splice_init(&evf->records, &drop);
	evf->queued = 0;
	spin_unlock_irq(&evf->lock);
	wake_up_interruptible(&evf->wait);

	list_for_each_entry_safe(rec, next, &drop, list)
		kfree(rec);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_EVENTS_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVBTEST_ATTR_EVENTS_ALLOC_FD);
	struct ovbtest_events_file *evf = to_oevf(uobj);

	spin_lock_init(&evf->lock);
	init_waitqueue_head(&evf->wait);
	INIT_LIST_HEAD(&evf->records);
	evf->queued = 0;
	evf->next_seq = 0;
	evf->destroyed = false;
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_EVENTS_ALLOC,
			    UVERBS_ATTR_FD(OVBTEST_ATTR_EVENTS_ALLOC_FD,
					   OVBTEST_OBJECT_EVENTS,
					   UVERBS_ACCESS_NEW,
					   UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVBTEST_OBJECT_EVENTS,
			    UVERBS_TYPE_ALLOC_FD(sizeof(struct ovbtest_events_file),
						 ovbtest_events_destroy,
						 &ovbtest_events_fops,
						 "[ovbtest_events]", O_RDONLY),
			    &UVERBS_METHOD(OVBTEST_METHOD_EVENTS_ALLOC));

const struct uapi_definition ovbtest_events_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVBTEST_OBJECT_EVENTS),
	{},
};
