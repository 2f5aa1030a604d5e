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
 */
#include <linux/slab.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

struct ovbtest_stuck {
	struct list_head node;		/* on ovbtest_dev::stuck */
	struct ovbtest_dev *dev;
	struct ovbtest_ucontext *uc;	/* NULL once the context is gone */
	u32 id;
	u32 flags;
};

static void ovbtest_stuck_free(struct ovbtest_stuck *st)
{
	spin_lock(&st->dev->stuck_lock);
	list_del(&st->node);
	spin_unlock(&st->dev->stuck_lock);
	kfree(st);
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
	if ((st->flags & OVBTEST_STUCK_REFUSE) && why != RDMA_REMOVE_ABORT &&
	    why != RDMA_REMOVE_DRIVER_FAILURE)
		return -EBUSY;
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
	unsigned int n = 0;

	list_for_each_entry_safe(st, next, &dev->stuck, node) {
		list_del(&st->node);
		kfree(st);
		n++;
	}
	if (n)
		pr_info("ovbtest: freed %u STUCK object(s) that ib_uverbs gave up on\n",
			n);
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
	struct ovbtest_stuck *st;
	u32 flags;
	int ret;

	ret = uverbs_get_flags32(&flags, attrs, OVBTEST_ATTR_STUCK_CREATE_FLAGS,
				 OVBTEST_STUCK_REFUSE);
	if (ret)
		return ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->dev = dev;
	st->uc = to_ouc(uobj->context);
	st->flags = flags;
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

DECLARE_UVERBS_NAMED_OBJECT(OVBTEST_OBJECT_STUCK,
			    UVERBS_TYPE_ALLOC_IDR(ovbtest_stuck_cleanup),
			    &UVERBS_METHOD(OVBTEST_METHOD_STUCK_CREATE),
			    &UVERBS_METHOD(OVBTEST_METHOD_STUCK_QUERY),
			    &UVERBS_METHOD(OVBTEST_METHOD_STUCK_DESTROY));

const struct uapi_definition ovbtest_stuck_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVBTEST_OBJECT_STUCK),
	{},
};
