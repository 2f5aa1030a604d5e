// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: OVBTEST_OBJECT_STUCK, an IDR object whose destroy can fail, as
 * a real driver's can (mlx5 DEVX when the firmware refuses a command).
 *
 * Created with OVBTEST_STUCK_REFUSE, its destroy answers -EBUSY to a user
 * DESTROY, to the close of its uverbs file and to a hot-unplug.  At close
 * ib_uverbs retries pass by pass, then WARNs in uverbs_destroy_ufile_hw()
 * and forgets the object (RDMA_REMOVE_DRIVER_FAILURE, the driver is not
 * called): the driver's object leaks.  The driver keeps every object on a
 * device list, marks those of a context that goes as orphans (ucontext
 * dealloc) and frees what is left at module unload, without a WARN of its
 * own: selftests/uverbs_ovbtest_leak.c expects exactly the core's.
 *
 * Created with a holder (an older STUCK object of the same file), its
 * destroy answers -EBUSY while the holder exists, as firmware refuses to
 * destroy an object another one points to.  ib_uverbs walks a file's
 * objects newest first, so at close the held object refuses, its holder
 * goes, and the next pass destroys it (selftests/uverbs_ovbtest_retry.c).
 * Every call of the destroy is logged (object, reason, answer) for the
 * tests to read with STUCK_LOG; what is unread at unload is printed.
 */
#include <linux/slab.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

struct ovbtest_stuck {
	struct list_head node;		/* on ovbtest_dev::stuck */
	struct ovbtest_dev *dev;
	struct ovbtest_ucontext *uc;	/* NULL once the context is gone */
	struct ovbtest_stuck *holder;	/* refuses while it exists */
	u32 id;
	u32 flags;
};

/* The log of destroy calls, module-wide: STUCK_LOG reads it. */
static DEFINE_SPINLOCK(stuck_log_lock);
static struct ovbtest_stuck_record stuck_log[OVBTEST_STUCK_LOG_MAX];
static unsigned int stuck_log_len;
static unsigned int stuck_log_lost;

static void ovbtest_stuck_log(const struct ovbtest_stuck *st,
			      enum rdma_remove_reason why, int result)
{
	static const u32 reasons[] = {
		[RDMA_REMOVE_DESTROY] = OVBTEST_STUCK_WHY_DESTROY,
		[RDMA_REMOVE_CLOSE] = OVBTEST_STUCK_WHY_CLOSE,
		[RDMA_REMOVE_DRIVER_REMOVE] = OVBTEST_STUCK_WHY_DRIVER_REMOVE,
		[RDMA_REMOVE_ABORT] = OVBTEST_STUCK_WHY_ABORT,
		[RDMA_REMOVE_DRIVER_FAILURE] = OVBTEST_STUCK_WHY_DRIVER_FAILURE,
	};
	struct ovbtest_stuck_record *rec;

	spin_lock(&stuck_log_lock);
	if (stuck_log_len == ARRAY_SIZE(stuck_log)) {
		stuck_log_lost++;
	} else {
		rec = &stuck_log[stuck_log_len++];
		rec->id = st->id;
		rec->reason = why < ARRAY_SIZE(reasons) ? reasons[why] : 0;
		rec->result = result;
		rec->reserved = 0;
	}
	spin_unlock(&stuck_log_lock);
}

/* Frees @st and releases the objects it holds. */
static void ovbtest_stuck_free(struct ovbtest_stuck *st)
{
	struct ovbtest_stuck *other;

	spin_lock(&st->dev->stuck_lock);
	list_del(&st->node);
	list_for_each_entry(other, &st->dev->stuck, node)
		if (other->holder == st)
			other->holder = NULL;
	spin_unlock(&st->dev->stuck_lock);
	kfree(st);
}

static bool ovbtest_stuck_held(struct ovbtest_stuck *st)
{
	bool held;

	spin_lock(&st->dev->stuck_lock);
	held = st->holder;
	spin_unlock(&st->dev->stuck_lock);
	return held;
}

static int ovbtest_stuck_cleanup(struct ib_uobject *uobject,
				 enum rdma_remove_reason why,
				 struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_stuck *st = uobject->object;

	/*
	 * An aborted create must succeed (ib_uverbs WARNs otherwise: the
	 * object never reached user space); 6.1 never calls the driver with
	 * DRIVER_FAILURE, but if it did, that is the end.
	 */
	if (why != RDMA_REMOVE_ABORT && why != RDMA_REMOVE_DRIVER_FAILURE &&
	    ((st->flags & OVBTEST_STUCK_REFUSE) || ovbtest_stuck_held(st))) {
		ovbtest_stuck_log(st, why, -EBUSY);
		return -EBUSY;
	}
	ovbtest_stuck_log(st, why, 0);
	ovbtest_stuck_free(st);
	return 0;
}

/* The context goes: its objects still on the list were leaked by uverbs. */
void ovbtest_stuck_orphan(struct ovbtest_ucontext *uc)
{
	struct ovbtest_dev *dev = to_odev(uc->ibuc.device);
	struct ovbtest_stuck *st;

	spin_lock(&dev->stuck_lock);
	list_for_each_entry(st, &dev->stuck, node)
		if (st->uc == uc)
			st->uc = NULL;
	spin_unlock(&dev->stuck_lock);
}

/* Module unload, after the device is unregistered: nobody can reach them. */
void ovbtest_stuck_free_all(struct ovbtest_dev *dev)
{
	struct ovbtest_stuck *st, *next;
	unsigned int i, n = 0;

	list_for_each_entry_safe(st, next, &dev->stuck, node) {
		list_del(&st->node);
		kfree(st);
		n++;
	}
	if (n)
		pr_info("ovbtest: freed %u STUCK object(s) that ib_uverbs gave up on\n",
			n);

	/* Read by the tests that unplug the device (they cannot ask). */
	spin_lock(&stuck_log_lock);
	for (i = 0; i < stuck_log_len; i++)
		pr_info("ovbtest: stuck log: id %u %u %d\n", stuck_log[i].id,
			stuck_log[i].reason, stuck_log[i].result);
	if (stuck_log_lost)
		pr_info("ovbtest: stuck log: %u record(s) lost\n",
			stuck_log_lost);
	stuck_log_len = 0;
	stuck_log_lost = 0;
	spin_unlock(&stuck_log_lock);
}

void ovbtest_stuck_count(struct ovbtest_dev *dev, u32 *all, u32 *orphans)
{
	struct ovbtest_stuck *st;

	*all = 0;
	*orphans = 0;
	spin_lock(&dev->stuck_lock);
	list_for_each_entry(st, &dev->stuck, node) {
		(*all)++;
		if (!st->uc)
			(*orphans)++;
	}
	spin_unlock(&dev->stuck_lock);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_STUCK_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVBTEST_ATTR_STUCK_CREATE_HANDLE);
	struct ovbtest_dev *dev = to_odev(uobj->context->device);
	struct ovbtest_stuck *st, *holder = NULL;
	u32 flags;
	int ret;

	ret = uverbs_get_flags32(&flags, attrs, OVBTEST_ATTR_STUCK_CREATE_FLAGS,
				 OVBTEST_STUCK_REFUSE);
	if (ret)
		return ret;
	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_STUCK_CREATE_HOLDER))
		holder = uverbs_attr_get_obj(attrs,
					     OVBTEST_ATTR_STUCK_CREATE_HOLDER);

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->dev = dev;
	st->uc = to_ouc(uobj->context);
	st->flags = flags;
	/* The READ lock on the holder keeps it alive until it is recorded. */
	st->holder = holder;
	st->id = atomic_inc_return(&dev->next_stuck);
	spin_lock(&dev->stuck_lock);
	list_add_tail(&st->node, &dev->stuck);
	spin_unlock(&dev->stuck_lock);
	uobj->object = st;
	/* From here an error destroys the object (RDMA_REMOVE_ABORT). */
	uverbs_finalize_uobj_create(attrs, OVBTEST_ATTR_STUCK_CREATE_HANDLE);

	if (!uverbs_attr_is_valid(attrs, OVBTEST_ATTR_STUCK_CREATE_ID))
		return 0;
	return uverbs_copy_to(attrs, OVBTEST_ATTR_STUCK_CREATE_ID, &st->id,
			      sizeof(st->id));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_STUCK_QUERY)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_stuck *st =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_STUCK_QUERY_HANDLE);

	return uverbs_copy_to(attrs, OVBTEST_ATTR_STUCK_QUERY_ID, &st->id,
			      sizeof(st->id));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_STUCK_LOG)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_stuck_record *out;
	int len;
	u32 n;
	int ret;

	len = uverbs_attr_get_len(attrs, OVBTEST_ATTR_STUCK_LOG_RECORDS);
	if (len < 0)
		return len;
	out = kcalloc(OVBTEST_STUCK_LOG_MAX, sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	spin_lock(&stuck_log_lock);
	n = min_t(u32, len / sizeof(*out), stuck_log_len);
	memcpy(out, stuck_log, n * sizeof(*out));
	memmove(stuck_log, stuck_log + n,
		(stuck_log_len - n) * sizeof(*out));
	stuck_log_len -= n;
	spin_unlock(&stuck_log_lock);

	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_STUCK_LOG_COUNT, &n,
			     sizeof(n));
	if (!ret && n)
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_STUCK_LOG_RECORDS,
				     out, n * sizeof(*out));
	kfree(out);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_STUCK_CREATE,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_STUCK_CREATE_HANDLE,
					    OVBTEST_OBJECT_STUCK,
					    UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVBTEST_ATTR_STUCK_CREATE_FLAGS,
						 enum ovbtest_stuck_flags,
						 UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_STUCK_CREATE_ID,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL),
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_STUCK_CREATE_HOLDER,
					    OVBTEST_OBJECT_STUCK,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_STUCK_QUERY,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_STUCK_QUERY_HANDLE,
					    OVBTEST_OBJECT_STUCK,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_STUCK_QUERY_ID,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVBTEST_METHOD_STUCK_DESTROY,
				    UVERBS_ATTR_IDR(OVBTEST_ATTR_STUCK_DESTROY_HANDLE,
						    OVBTEST_OBJECT_STUCK,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_STUCK_LOG,
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_STUCK_LOG_RECORDS,
						UVERBS_ATTR_MIN_SIZE(0),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_STUCK_LOG_COUNT,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVBTEST_OBJECT_STUCK,
			    UVERBS_TYPE_ALLOC_IDR(ovbtest_stuck_cleanup),
			    &UVERBS_METHOD(OVBTEST_METHOD_STUCK_CREATE),
			    &UVERBS_METHOD(OVBTEST_METHOD_STUCK_QUERY),
			    &UVERBS_METHOD(OVBTEST_METHOD_STUCK_DESTROY),
			    &UVERBS_METHOD(OVBTEST_METHOD_STUCK_LOG));

const struct uapi_definition ovbtest_stuck_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVBTEST_OBJECT_STUCK),
	{},
};
