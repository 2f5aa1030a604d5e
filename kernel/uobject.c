// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: user objects.
 *
 * Every object a process creates through a uverbs file is an ib_uobject.
 * IDR objects (PD, CQ, QP, ...) are found by a 32-bit handle in the file's
 * xarray; FD objects (completion channels, the async event file) are
 * found by a file descriptor.  Both follow the contract of
 * <rdma/uverbs_types.h>: alloc_begin/commit/abort to create, lookup_get/
 * lookup_put to use, destroy_hw to take the hardware object down.
 *
 * Locking: a read lookup raises usecnt, a write/destroy lookup moves it
 * from 0 to -1 (else EBUSY).  hw_destroy_rwsem is held for read by every
 * command that creates or destroys hardware objects and for write by the
 * teardown of the whole file, so a closing file never races a command.
 */

#include <linux/file.h>
#include <linux/anon_inodes.h>
#include <linux/sched/mm.h>
#include <rdma/uverbs_types.h>

#include "core_types.h"

static void uobject_free(struct kref *ref)
{
	struct ib_uobject *uobj = container_of(ref, struct ib_uobject, ref);

	kfree_rcu(uobj, rcu);
}

void uverbs_uobject_put(struct ib_uobject *uobject)
{
	kref_put(&uobject->ref, uobject_free);
}
EXPORT_SYMBOL(uverbs_uobject_put);

static int uobject_try_lock(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	switch (mode) {
	case UVERBS_LOOKUP_READ:
		if (atomic_fetch_add_unless(&uobj->usecnt, 1, -1) == -1)
			return -EBUSY;
		return 0;
	case UVERBS_LOOKUP_WRITE:
		return atomic_cmpxchg(&uobj->usecnt, 0, -1) ? -EBUSY : 0;
	case UVERBS_LOOKUP_DESTROY:
		return 0;
	}
	return 0;
}

static void uobject_unlock(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	switch (mode) {
	case UVERBS_LOOKUP_READ:
		atomic_dec(&uobj->usecnt);
		break;
	case UVERBS_LOOKUP_WRITE:
		atomic_set(&uobj->usecnt, 0);
		break;
	case UVERBS_LOOKUP_DESTROY:
		break;
	}
}

static bool uverbs_device_alive(struct ib_uverbs_file *ufile)
{
	return srcu_dereference(ufile->device->ib_dev,
				&ufile->device->disassociate_srcu);
}

/*
 * Take the hardware object down and unlink the uobject from its file.  The
 * caller holds hw_destroy_rwsem and exclusive use of @uobj.  A DESTROY that
 * the driver refuses (an object still in use) leaves everything unchanged.
 */
static int uobject_destroy(struct ib_uobject *uobj, enum rdma_remove_reason why,
			   struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_type_class *class = uobj->uapi_object->type_class;
	struct ib_uverbs_file *ufile = uobj->ufile;
	unsigned long flags;
	int ret;

	lockdep_assert_held(&ufile->hw_destroy_rwsem);

	if (why == RDMA_REMOVE_ABORT) {
		class->alloc_abort(uobj);
	} else if (uobj->object) {
		ret = class->destroy_hw(uobj, why, attrs);
		if (ret)
			return ret;
		uobj->object = NULL;
	}
	uobj->context = NULL;

	/* Only a user DESTROY frees the handle; cleanup leaves it to close. */
	if (why == RDMA_REMOVE_DESTROY)
		class->remove_handle(uobj);
	else
		atomic_set(&uobj->usecnt, 0);

	if (!list_empty(&uobj->list)) {
		spin_lock_irqsave(&ufile->uobjects_lock, flags);
		list_del_init(&uobj->list);
		spin_unlock_irqrestore(&ufile->uobjects_lock, flags);
		/* the reference the file's list held */
		uverbs_uobject_put(uobj);
	}
	/* An aborted object also drops the reference of its creator. */
	if (why == RDMA_REMOVE_ABORT)
		uverbs_uobject_put(uobj);
	return 0;
}

/* Turns a DESTROY lookup into a destroyed object (the handle is freed). */
int uobj_destroy(struct ib_uobject *uobj, struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = attrs->ufile;
	int ret;

	down_read(&ufile->hw_destroy_rwsem);
	ret = uobject_try_lock(uobj, UVERBS_LOOKUP_WRITE);
	if (ret)
		goto out;
	/*
	 * After a hot-unplug the hardware object is gone but the handle is
	 * not: destroying it succeeds and frees the handle, as in 6.1.
	 */
	ret = uobject_destroy(uobj, RDMA_REMOVE_DESTROY, attrs);
	if (ret)
		atomic_set(&uobj->usecnt, 0);
out:
	up_read(&ufile->hw_destroy_rwsem);
	return ret;
}

struct ib_uobject *__uobj_get_destroy(const struct uverbs_api_object *obj,
				      u32 id, struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj;
	int ret;

	uobj = rdma_lookup_get_uobject(obj, attrs->ufile, id,
				       UVERBS_LOOKUP_DESTROY, attrs);
	if (IS_ERR(uobj))
		return uobj;

	ret = uobj_destroy(uobj, attrs);
	if (ret) {
		rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_DESTROY);
		return ERR_PTR(ret);
	}
	return uobj;
}

int __uobj_perform_destroy(const struct uverbs_api_object *obj, u32 id,
			   struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = __uobj_get_destroy(obj, id, attrs);

	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_DESTROY);
	return 0;
}

/* ------------------------------------------------------------ IDR objects */

static struct ib_uobject *uobject_alloc(const struct uverbs_api_object *obj,
					struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj;
	struct ib_ucontext *ucontext;

	/* GET_CONTEXT creates its async file before the context is public. */
	ucontext = attrs->context;
	if (!ucontext) {
		ucontext = ib_uverbs_get_ucontext_file(attrs->ufile);
		if (IS_ERR(ucontext))
			return ERR_CAST(ucontext);
	}

	uobj = kzalloc(obj->type_attrs->obj_size, GFP_KERNEL);
	if (!uobj)
		return ERR_PTR(-ENOMEM);
	uobj->ufile = attrs->ufile;
	uobj->context = ucontext;
	uobj->uapi_object = obj;
	INIT_LIST_HEAD(&uobj->list);
	kref_init(&uobj->ref);
	/* A new object is exclusively owned by its creator. */
	atomic_set(&uobj->usecnt, -1);
	attrs->context = ucontext;
	return uobj;
}

static struct ib_uobject *idr_alloc_begin(const struct uverbs_api_object *obj,
					  struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj;
	u32 id;
	int ret;

	uobj = uobject_alloc(obj, attrs);
	if (IS_ERR(uobj))
		return uobj;

	/* Reserve the handle; lookups see NULL until the object commits. */
	ret = xa_alloc(&attrs->ufile->idr, &id, NULL, xa_limit_32b, GFP_KERNEL);
	if (ret) {
		uverbs_uobject_put(uobj);
		return ERR_PTR(ret);
	}
	uobj->id = id;

	ret = ib_rdmacg_try_charge(&uobj->cg_obj, uobj->context->device,
				   RDMACG_RESOURCE_HCA_OBJECT);
	if (ret) {
		xa_erase(&attrs->ufile->idr, id);
		uverbs_uobject_put(uobj);
		return ERR_PTR(ret);
	}
	return uobj;
}

static void idr_alloc_commit(struct ib_uobject *uobj)
{
	struct ib_uverbs_file *ufile = uobj->ufile;
	void *old;

	/* The handle now owns the creator's reference. */
	old = xa_store(&ufile->idr, uobj->id, uobj, GFP_KERNEL);
	WARN_ON(old);
}

static void idr_alloc_abort(struct ib_uobject *uobj)
{
	ib_rdmacg_uncharge(&uobj->cg_obj, uobj->context->device,
			   RDMACG_RESOURCE_HCA_OBJECT);
	xa_erase(&uobj->ufile->idr, uobj->id);
}

static struct ib_uobject *idr_lookup_get(const struct uverbs_api_object *obj,
					 struct ib_uverbs_file *ufile, s64 id,
					 enum rdma_lookup_mode mode)
{
	struct ib_uobject *uobj;

	if (id < 0 || id > ULONG_MAX)
		return ERR_PTR(-EINVAL);

	rcu_read_lock();
	uobj = xa_load(&ufile->idr, id);
	if (!uobj || !kref_get_unless_zero(&uobj->ref))
		uobj = ERR_PTR(-ENOENT);
	rcu_read_unlock();
	return uobj;
}

static void idr_lookup_put(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
}

static int idr_destroy_hw(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_idr_type *idr_type =
		container_of(uobj->uapi_object->type_attrs,
			     struct uverbs_obj_idr_type, type);
	int ret;

	ret = idr_type->destroy_object(uobj, why, attrs);
	if (ret)
		return ret;

	if (why == RDMA_REMOVE_ABORT)
		return 0;
	ib_rdmacg_uncharge(&uobj->cg_obj, uobj->context->device,
			   RDMACG_RESOURCE_HCA_OBJECT);
	return 0;
}

static void idr_remove_handle(struct ib_uobject *uobj)
{
	xa_erase(&uobj->ufile->idr, uobj->id);
	/* the handle's reference */
	uverbs_uobject_put(uobj);
}

/*
 * @new (begun, not committed) takes over @old's handle, which becomes a
 * reservation (XA_ZERO_ENTRY) until @new commits: meanwhile no lookup
 * finds either object under it.  @old takes the handle @new had reserved
 * and stays unlisted there (lookups: ENOENT, as in 6.1) until its destroy
 * erases the reservation.
 */
static void idr_swap(struct ib_uobject *old, struct ib_uobject *new)
{
	void *prev;

	prev = xa_cmpxchg(&old->ufile->idr, old->id, old, XA_ZERO_ENTRY,
			  GFP_KERNEL);
	if (WARN_ON(prev != old))
		return;
	swap(old->id, new->id);
}

const struct uverbs_obj_type_class uverbs_idr_class = {
	.alloc_begin = idr_alloc_begin,
	.alloc_commit = idr_alloc_commit,
	.alloc_abort = idr_alloc_abort,
	.lookup_get = idr_lookup_get,
	.lookup_put = idr_lookup_put,
	.destroy_hw = idr_destroy_hw,
	.remove_handle = idr_remove_handle,
	.swap_uobjects = idr_swap,
};
EXPORT_SYMBOL(uverbs_idr_class);

/* ------------------------------------------------------------- FD objects */

static const struct uverbs_obj_fd_type *fd_type_of(const struct uverbs_api_object *obj)
{
	return container_of(obj->type_attrs, struct uverbs_obj_fd_type, type);
}

static struct ib_uobject *fd_alloc_begin(const struct uverbs_api_object *obj,
					 struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_fd_type *fd_type = fd_type_of(obj);
	struct ib_uobject *uobj;
	struct file *filp;
	int fd;

	/* First: a driver's fops are not to be read once its device is gone. */
	uobj = uobject_alloc(obj, attrs);
	if (IS_ERR(uobj))
		return uobj;

	if (WARN_ON(fd_type->fops->release != uverbs_uobject_fd_release &&
		    fd_type->fops->release != uverbs_async_event_fops.release)) {
		uverbs_uobject_put(uobj);
		return ERR_PTR(-EINVAL);
	}

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		uverbs_uobject_put(uobj);
		return ERR_PTR(fd);
	}

	/* private_data stays NULL until commit: an aborted file is inert. */
	filp = anon_inode_getfile(fd_type->name, fd_type->fops, NULL,
				  fd_type->flags);
	if (IS_ERR(filp)) {
		uverbs_uobject_put(uobj);
		put_unused_fd(fd);
		return ERR_CAST(filp);
	}
	uobj->id = fd;
	uobj->object = filp;
	return uobj;
}

static void fd_alloc_commit(struct ib_uobject *uobj)
{
	struct file *filp = uobj->object;
	int fd = uobj->id;

	/* A live FD object keeps its uverbs file; the release drops it. */
	kref_get(&uobj->ufile->ref);
	uobj->id = 0;
	/* The creator's uobject reference now belongs to the file. */
	filp->private_data = uobj;
	fd_install(fd, filp);
}

static void fd_alloc_abort(struct ib_uobject *uobj)
{
	fput(uobj->object);
	put_unused_fd(uobj->id);
}

static struct ib_uobject *fd_lookup_get(const struct uverbs_api_object *obj,
					struct ib_uverbs_file *ufile, s64 id,
					enum rdma_lookup_mode mode)
{
	const struct uverbs_obj_fd_type *fd_type = fd_type_of(obj);
	struct ib_uobject *uobj;
	struct file *f;

	if (mode != UVERBS_LOOKUP_READ)
		return ERR_PTR(-EOPNOTSUPP);
	/* Any int is looked up (-1 included: EBADF); wider is EINVAL. */
	if (id != (int)id)
		return ERR_PTR(-EINVAL);
	/*
	 * After a hot-unplug the FD objects are torn down (their ->object
	 * is gone) while their files may live on: EIO before the fd is even
	 * looked at, as 6.1.  A command that gets past this holds the
	 * disassociate SRCU, so the teardown waits until it has ended.
	 */
	if (!uverbs_device_alive(ufile))
		return ERR_PTR(-EIO);

	f = fget(id);
	if (!f)
		return ERR_PTR(-EBADF);

	uobj = f->private_data;
	if (f->f_op != fd_type->fops || uobj->ufile != ufile) {
		fput(f);
		return ERR_PTR(-EBADF);
	}
	/*
	 * The file reference is kept until fd_lookup_put(): while a command
	 * uses the object, a close() of its fd cannot reach the release and
	 * destroy the object under the command.
	 */
	uverbs_uobject_get(uobj);
	return uobj;
}

static void fd_lookup_put(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	/* The last reference (closed meanwhile) releases the object. */
	fput(uobj->object);
}

static int fd_destroy_hw(struct ib_uobject *uobj, enum rdma_remove_reason why,
			 struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_fd_type *fd_type = fd_type_of(uobj->uapi_object);

	fd_type->destroy_object(uobj, why);
	return 0;
}

static void fd_remove_handle(struct ib_uobject *uobj)
{
}

const struct uverbs_obj_type_class uverbs_fd_class = {
	.alloc_begin = fd_alloc_begin,
	.alloc_commit = fd_alloc_commit,
	.alloc_abort = fd_alloc_abort,
	.lookup_get = fd_lookup_get,
	.lookup_put = fd_lookup_put,
	.destroy_hw = fd_destroy_hw,
	.remove_handle = fd_remove_handle,
};
EXPORT_SYMBOL(uverbs_fd_class);

/*
 * The release of every FD object's file: destroy the object unless the
 * uverbs file's teardown already did, then drop the file's references.
 */
int uverbs_uobject_fd_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;
	struct ib_uverbs_file *ufile;

	/* The creation was aborted before the file reached the process. */
	if (!uobj)
		return 0;
	ufile = uobj->ufile;

	/* If the uverbs file is being torn down, that teardown destroys it. */
	if (down_read_trylock(&ufile->hw_destroy_rwsem)) {
		struct uverbs_attr_bundle attrs = {
			.context = uobj->context,
			.ufile = ufile,
		};

		/* Lookups hold the struct file, so nobody can hold the uobject. */
		WARN_ON(uobject_try_lock(uobj, UVERBS_LOOKUP_WRITE));
		uobject_destroy(uobj, RDMA_REMOVE_CLOSE, &attrs);
		up_read(&ufile->hw_destroy_rwsem);
	}
	kref_put(&ufile->ref, ib_uverbs_release_file);
	uverbs_uobject_put(uobj);
	return 0;
}
EXPORT_SYMBOL(uverbs_uobject_fd_release);

/* ------------------------------------------------------ the public contract */

struct ib_uobject *rdma_lookup_get_uobject(const struct uverbs_api_object *obj,
					   struct ib_uverbs_file *ufile, s64 id,
					   enum rdma_lookup_mode mode,
					   struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj;
	int ret;

	if (obj == ERR_PTR(-ENOMSG)) {
		/* UVERBS_IDR_ANY_OBJECT (uapi_get_object()): any IDR handle */
		uobj = uverbs_idr_class.lookup_get(NULL, ufile, id, mode);
		if (IS_ERR(uobj))
			return uobj;
	} else {
		if (IS_ERR(obj))
			return ERR_PTR(-EINVAL);
		uobj = obj->type_class->lookup_get(obj, ufile, id, mode);
		if (IS_ERR(uobj))
			return uobj;
		/* A handle of another type is simply not a valid handle. */
		if (uobj->uapi_object != obj) {
			ret = -EINVAL;
			goto err;
		}
	}
	/* After hot-unplug only destroys are still served. */
	if (mode != UVERBS_LOOKUP_DESTROY && !uverbs_device_alive(ufile)) {
		ret = -EIO;
		goto err;
	}
	ret = uobject_try_lock(uobj, mode);
	if (ret)
		goto err;
	if (attrs)
		attrs->context = uobj->context;
	return uobj;

err:
	uobj->uapi_object->type_class->lookup_put(uobj, mode);
	uverbs_uobject_put(uobj);
	return ERR_PTR(ret);
}

void rdma_lookup_put_uobject(struct ib_uobject *uobj,
			     enum rdma_lookup_mode mode)
{
	/* Unlocked first: the lookup_put may run an FD object's release. */
	uobject_unlock(uobj, mode);
	uobj->uapi_object->type_class->lookup_put(uobj, mode);
	uverbs_uobject_put(uobj);
}

struct ib_uobject *rdma_alloc_begin_uobject(const struct uverbs_api_object *obj,
					    struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = attrs->ufile;
	struct ib_uobject *uobj;

	if (IS_ERR(obj))
		return ERR_PTR(-EINVAL);
	if (obj->disabled)
		return ERR_PTR(-EOPNOTSUPP);

	/* Held until commit or abort so the file teardown waits for us. */
	if (!down_read_trylock(&ufile->hw_destroy_rwsem))
		return ERR_PTR(-EIO);

	uobj = obj->type_class->alloc_begin(obj, attrs);
	if (IS_ERR(uobj))
		up_read(&ufile->hw_destroy_rwsem);
	return uobj;
}

void rdma_alloc_commit_uobject(struct ib_uobject *uobj,
			       struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = attrs->ufile;

	/* The file's list holds one reference of its own. */
	kref_get(&uobj->ref);
	spin_lock_irq(&ufile->uobjects_lock);
	list_add(&uobj->list, &ufile->uobjects);
	spin_unlock_irq(&ufile->uobjects_lock);

	atomic_set(&uobj->usecnt, 0);
	uobj->uapi_object->type_class->alloc_commit(uobj);
	up_read(&ufile->hw_destroy_rwsem);
}

void rdma_alloc_abort_uobject(struct ib_uobject *uobj,
			      struct uverbs_attr_bundle *attrs,
			      bool hw_obj_valid)
{
	struct ib_uverbs_file *ufile = uobj->ufile;
	int ret;

	if (hw_obj_valid) {
		ret = uobj->uapi_object->type_class->destroy_hw(uobj,
								RDMA_REMOVE_ABORT,
								attrs);
		/* A hardware object that will not die stays the file's. */
		if (WARN_ON(ret)) {
			rdma_alloc_commit_uobject(uobj, attrs);
			return;
		}
	}
	uobject_destroy(uobj, RDMA_REMOVE_ABORT, attrs);
	up_read(&ufile->hw_destroy_rwsem);
}

/* @new_uobj takes the place of @to_uobj, which is destroyed (REREG_MR). */
void rdma_assign_uobject(struct ib_uobject *to_uobj, struct ib_uobject *new_uobj,
			 struct uverbs_attr_bundle *attrs)
{
	if (WARN_ON(to_uobj->uapi_object != new_uobj->uapi_object ||
		    !to_uobj->uapi_object->type_class->swap_uobjects))
		return;

	to_uobj->uapi_object->type_class->swap_uobjects(to_uobj, new_uobj);
	/* to_uobj now holds the new handle; destroy it under that name. */
	if (uobject_destroy(to_uobj, RDMA_REMOVE_DESTROY, attrs))
		atomic_set(&to_uobj->usecnt, 0);
}

/* Called by the write dispatcher once a creating handler has returned. */
void uverbs_finalize_new_object(struct ib_uobject *uobj, bool commit,
				struct uverbs_attr_bundle *attrs)
{
	if (commit)
		rdma_alloc_commit_uobject(uobj, attrs);
	else
		rdma_alloc_abort_uobject(uobj, attrs, true);
}

/* ------------------------------------------------- ioctl attribute access */

/* The object an IDR/FD attribute names, looked up for @access. */
struct ib_uobject *uverbs_get_uobject_from_file(u16 object_id,
						enum uverbs_obj_access access,
						s64 id,
						struct uverbs_attr_bundle *attrs)
{
	static const enum rdma_lookup_mode modes[] = {
		[UVERBS_ACCESS_READ] = UVERBS_LOOKUP_READ,
		[UVERBS_ACCESS_WRITE] = UVERBS_LOOKUP_WRITE,
		[UVERBS_ACCESS_DESTROY] = UVERBS_LOOKUP_DESTROY,
	};
	const struct uverbs_api_object *obj =
		uapi_get_object(attrs->ufile->device->uapi, object_id);

	if (access == UVERBS_ACCESS_NEW)
		return rdma_alloc_begin_uobject(obj, attrs);
	if (WARN_ON(access >= ARRAY_SIZE(modes)))
		return ERR_PTR(-EOPNOTSUPP);
	return rdma_lookup_get_uobject(obj, attrs->ufile, id, modes[access],
				       attrs);
}

/* The end of an ioctl: commit or abort NEW objects, unlock the others. */
void uverbs_finalize_object(struct ib_uobject *uobj,
			    enum uverbs_obj_access access, bool hw_obj_valid,
			    bool commit, struct uverbs_attr_bundle *attrs)
{
	switch (access) {
	case UVERBS_ACCESS_READ:
		rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_READ);
		break;
	case UVERBS_ACCESS_WRITE:
		rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_WRITE);
		break;
	case UVERBS_ACCESS_DESTROY:
		if (uobj)
			rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_DESTROY);
		break;
	case UVERBS_ACCESS_NEW:
		if (commit)
			rdma_alloc_commit_uobject(uobj, attrs);
		else
			rdma_alloc_abort_uobject(uobj, attrs, hw_obj_valid);
		break;
	}
}

/* ------------------------------------------------------------- file teardown */

void uverbs_file_init_objects(struct ib_uverbs_file *ufile)
{
	xa_init_flags(&ufile->idr, XA_FLAGS_ALLOC);
}

/* Last reference to the file: drop the handles the teardown left behind. */
void uverbs_file_release_objects(struct ib_uverbs_file *ufile)
{
	struct ib_uobject *uobj;
	unsigned long id;

	xa_for_each(&ufile->idr, id, uobj) {
		WARN_ON(uobj->object);
		uverbs_uobject_put(uobj);
	}
	xa_destroy(&ufile->idr);
}

/*
 * One pass over the file's objects.  Returns 0 when it destroyed at least
 * one; a pass that destroys nothing means the rest refuse for good.
 */
static int uverbs_cleanup_pass(struct ib_uverbs_file *ufile,
			       enum rdma_remove_reason why)
{
	struct uverbs_attr_bundle attrs = { .ufile = ufile };
	struct ib_uobject *uobj, *next;
	int ret = -EBUSY;

	list_for_each_entry_safe(uobj, next, &ufile->uobjects, list) {
		attrs.context = uobj->context;
		/* Users of an object hold hw_destroy_rwsem: none are left. */
		WARN_ON(uobject_try_lock(uobj, UVERBS_LOOKUP_WRITE));
		/* The driver failed: forget the hardware object, free ours. */
		if (why == RDMA_REMOVE_DRIVER_FAILURE)
			uobj->object = NULL;
		if (!uobject_destroy(uobj, why, &attrs))
			ret = 0;
		else
			atomic_set(&uobj->usecnt, 0);
	}
	return ret;
}

static void uverbs_destroy_ucontext(struct ib_uverbs_file *ufile,
				    enum rdma_remove_reason why)
{
	struct ib_ucontext *ucontext = ufile->ucontext;
	struct ib_device *ibdev = ucontext->device;

	/* Hot-unplug: zap the user's mappings, then let the driver let go. */
	if (why == RDMA_REMOVE_DRIVER_REMOVE) {
		uverbs_user_mmap_disassociate(ufile);
		if (ibdev->ops.disassociate_ucontext)
			ibdev->ops.disassociate_ucontext(ucontext);
	}

	ib_rdmacg_uncharge(&ucontext->cg_obj, ibdev, RDMACG_RESOURCE_HCA_HANDLE);
	rdma_restrack_del(&ucontext->res);
	ibdev->ops.dealloc_ucontext(ucontext);
	WARN_ON(!xa_empty(&ucontext->mmap_xa));
	kfree(ucontext);
	ufile->ucontext = NULL;
}

/*
 * Destroy every hardware object of the file, children before parents:
 * objects that are still referenced (a PD with MRs) refuse and are retried
 * on the next pass.  After the passes the ucontext itself goes.
 */
void uverbs_destroy_ufile_hw(struct ib_uverbs_file *ufile,
			     enum rdma_remove_reason why)
{
	down_write(&ufile->hw_destroy_rwsem);
	if (!ufile->ucontext)
		goto done;

	while (!list_empty(&ufile->uobjects) &&
	       !uverbs_cleanup_pass(ufile, why))
		;
	/* What the driver refuses to destroy leaks: say so, as 6.1 does. */
	if (WARN_ON(!list_empty(&ufile->uobjects)))
		uverbs_cleanup_pass(ufile, RDMA_REMOVE_DRIVER_FAILURE);

	uverbs_destroy_ucontext(ufile, why);
done:
	up_write(&ufile->hw_destroy_rwsem);
}
