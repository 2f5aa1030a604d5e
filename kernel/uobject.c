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
 * The file is organised by the three things an object has:
 *  - its use count (usecnt): >0 readers, 0 idle, -1 one exclusive holder
 *    (a writer, a destroyer, or the creator until commit);
 *  - its references (kref): the creator's, then the handle's or the FD's
 *    file's, plus one while it is on the uverbs file's list;
 *  - its retirement: one path for every reason an object goes, with what
 *    differs per reason in a table.
 *
 * hw_destroy_rwsem is held for read by every command that creates or
 * destroys hardware objects and for write by the teardown of the whole
 * file, so a closing file never races a command.
 */

#include <linux/file.h>
#include <linux/anon_inodes.h>
#include <linux/sched/mm.h>
#include <rdma/uverbs_types.h>

#include "core_types.h"

/* ------------------------------------------------------------ references */

static void uobject_free(struct kref *ref)
{
	kfree_rcu(container_of(ref, struct ib_uobject, ref), rcu);
}

void uverbs_uobject_put(struct ib_uobject *uobject)
{
	kref_put(&uobject->ref, uobject_free);
}
EXPORT_SYMBOL(uverbs_uobject_put);

/* ------------------------------------------------------------- use count */

static bool usecnt_claim(struct ib_uobject *uobj)
{
	return atomic_cmpxchg(&uobj->usecnt, 0, -1) == 0;
}

static void usecnt_release(struct ib_uobject *uobj)
{
	atomic_set(&uobj->usecnt, 0);
}

static bool usecnt_share(struct ib_uobject *uobj)
{
	return atomic_fetch_add_unless(&uobj->usecnt, 1, -1) != -1;
}

/* What a lookup in each mode takes from the object, and what it needs. */
static const struct lookup_rule {
	u8 shared:1;		/* one more reader */
	u8 exclusive:1;		/* the only user */
	u8 live_device:1;	/* refused (EIO) once the device is gone */
} lookup_rules[] = {
	[UVERBS_LOOKUP_READ] = { .shared = 1, .live_device = 1 },
	[UVERBS_LOOKUP_WRITE] = { .exclusive = 1, .live_device = 1 },
	/* the caller claims the object itself (uobj_destroy()) */
	[UVERBS_LOOKUP_DESTROY] = { },
};

static int usecnt_hold(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	const struct lookup_rule *rule = &lookup_rules[mode];

	if (rule->exclusive && !usecnt_claim(uobj))
		return -EBUSY;
	if (rule->shared && !usecnt_share(uobj))
		return -EBUSY;
	return 0;
}

static void usecnt_unhold(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	const struct lookup_rule *rule = &lookup_rules[mode];

	if (rule->exclusive)
		usecnt_release(uobj);
	if (rule->shared)
		atomic_dec(&uobj->usecnt);
}

static bool uverbs_device_alive(struct ib_uverbs_file *ufile)
{
	return srcu_dereference(ufile->device->ib_dev,
				&ufile->device->disassociate_srcu);
}

/* ------------------------------------------------ the uverbs file's list */

/* A listed object is kept alive by the list: one reference of its own. */
static void uobject_list(struct ib_uobject *uobj)
{
	struct ib_uverbs_file *ufile = uobj->ufile;

	kref_get(&uobj->ref);
	spin_lock_irq(&ufile->uobjects_lock);
	list_add(&uobj->list, &ufile->uobjects);
	spin_unlock_irq(&ufile->uobjects_lock);
}

static void uobject_unlist(struct ib_uobject *uobj)
{
	struct ib_uverbs_file *ufile = uobj->ufile;
	unsigned long flags;
	bool was_listed;

	spin_lock_irqsave(&ufile->uobjects_lock, flags);
	was_listed = !list_empty(&uobj->list);
	list_del_init(&uobj->list);
	spin_unlock_irqrestore(&ufile->uobjects_lock, flags);
	if (was_listed)
		uverbs_uobject_put(uobj);
}

/* ------------------------------------------------------------ retirement */

/* What retiring an object does besides the common steps, by reason. */
static const struct retire_rule {
	u8 undoes_creation:1;	/* never committed: alloc_abort, creator's ref */
	u8 frees_handle:1;	/* the user's own destroy: the handle goes now */
	u8 forgets_hw:1;	/* the driver failed: its object is abandoned */
} retire_rules[] = {
	[RDMA_REMOVE_DESTROY] = { .frees_handle = 1 },
	[RDMA_REMOVE_CLOSE] = { },
	[RDMA_REMOVE_DRIVER_REMOVE] = { },
	[RDMA_REMOVE_ABORT] = { .undoes_creation = 1 },
	[RDMA_REMOVE_DRIVER_FAILURE] = { .forgets_hw = 1 },
};

/* Step 1: the hardware object.  Only a driver's refusal fails. */
static int retire_hw(struct ib_uobject *uobj, enum rdma_remove_reason why,
		     struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_type_class *class = uobj->uapi_object->type_class;
	int ret;

	if (retire_rules[why].undoes_creation) {
		class->alloc_abort(uobj);
		return 0;
	}
	if (retire_rules[why].forgets_hw)
		uobj->object = NULL;
	/* Already gone (hot-unplug): nothing left to refuse. */
	if (!uobj->object)
		return 0;
	ret = class->destroy_hw(uobj, why, attrs);
	if (!ret)
		uobj->object = NULL;
	return ret;
}

/*
 * Take @uobj out of service for @why.  The caller holds hw_destroy_rwsem
 * and exclusive use of @uobj.  A refusal by the driver (an object still
 * in use) leaves everything as it was.  On success @uobj may be freed.
 */
static int retire_uobject(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	const struct retire_rule *rule = &retire_rules[why];
	int ret;

	lockdep_assert_held(&uobj->ufile->hw_destroy_rwsem);

	ret = retire_hw(uobj, why, attrs);
	if (ret)
		return ret;
	uobj->context = NULL;

	/* Only a user DESTROY frees the handle; cleanup leaves it to close. */
	if (rule->frees_handle)
		uobj->uapi_object->type_class->remove_handle(uobj);
	else
		usecnt_release(uobj);

	uobject_unlist(uobj);
	if (rule->undoes_creation)
		uverbs_uobject_put(uobj);
	return 0;
}

/* As retire_uobject(); a refusal gives the exclusive use back. */
static int retire_claimed(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	int ret = retire_uobject(uobj, why, attrs);

	if (ret)
		usecnt_release(uobj);
	return ret;
}

/*
 * Retire an object nobody can be using: its FD's file is being released,
 * or the uverbs file is torn down (users hold hw_destroy_rwsem, so none
 * are left).
 */
static int retire_unused(struct ib_uobject *uobj, enum rdma_remove_reason why)
{
	struct uverbs_attr_bundle attrs = {
		.context = uobj->context,
		.ufile = uobj->ufile,
	};

	WARN_ON(!usecnt_claim(uobj));
	return retire_claimed(uobj, why, &attrs);
}

/* Turns a DESTROY lookup into a destroyed object (the handle is freed). */
int uobj_destroy(struct ib_uobject *uobj, struct uverbs_attr_bundle *attrs)
{
	struct rw_semaphore *sem = &attrs->ufile->hw_destroy_rwsem;
	int ret = -EBUSY;

	down_read(sem);
	/*
	 * After a hot-unplug the hardware object is gone but the handle is
	 * not: destroying it succeeds and frees the handle, as in 6.1.
	 */
	if (usecnt_claim(uobj))
		ret = retire_claimed(uobj, RDMA_REMOVE_DESTROY, attrs);
	up_read(sem);
	return ret;
}

/* A write() DESTROY: the handle's object, destroyed; the caller puts it. */
struct ib_uobject *__uobj_get_destroy(const struct uverbs_api_object *obj,
				      u32 id, struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = rdma_lookup_get_uobject(obj, attrs->ufile, id,
							  UVERBS_LOOKUP_DESTROY,
							  attrs);
	int ret;

	if (IS_ERR(uobj))
		return uobj;
	ret = uobj_destroy(uobj, attrs);
	if (!ret)
		return uobj;
	rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_DESTROY);
	return ERR_PTR(ret);
}

int __uobj_perform_destroy(const struct uverbs_api_object *obj, u32 id,
			   struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = __uobj_get_destroy(obj, id, attrs);

	if (!IS_ERR(uobj))
		rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_DESTROY);
	return PTR_ERR_OR_ZERO(uobj);
}

/* ------------------------------------------------------------- creation */

/* The uobject itself: owned by its creator, in its context. */
static struct ib_uobject *uobject_alloc(const struct uverbs_api_object *obj,
					struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext = attrs->context;
	struct ib_uobject *uobj;

	/* GET_CONTEXT creates its async file before the context is public. */
	if (!ucontext)
		ucontext = ib_uverbs_get_ucontext_file(attrs->ufile);
	if (IS_ERR(ucontext))
		return ERR_CAST(ucontext);

	uobj = kzalloc(obj->type_attrs->obj_size, GFP_KERNEL);
	if (!uobj)
		return ERR_PTR(-ENOMEM);
	*uobj = (struct ib_uobject) {
		.ufile = attrs->ufile,
		.context = ucontext,
		.uapi_object = obj,
		.list = LIST_HEAD_INIT(uobj->list),
		.ref = KREF_INIT(1),
		/* A new object is exclusively owned by its creator. */
		.usecnt = ATOMIC_INIT(-1),
	};
	attrs->context = ucontext;
	return uobj;
}

/*
 * Both classes begin alike: the uobject, then what names it to the user
 * (@reserve: a handle or a file descriptor), undone together on failure.
 */
static struct ib_uobject *begin_uobject(const struct uverbs_api_object *obj,
					struct uverbs_attr_bundle *attrs,
					int (*reserve)(struct ib_uobject *uobj))
{
	struct ib_uobject *uobj = uobject_alloc(obj, attrs);
	int ret;

	if (IS_ERR(uobj))
		return uobj;
	ret = reserve(uobj);
	if (!ret)
		return uobj;
	uverbs_uobject_put(uobj);
	return ERR_PTR(ret);
}

/* ------------------------------------------------------------ IDR objects */

/* The file's handles: an allocating xarray, one per uverbs file. */
void uverbs_file_init_objects(struct ib_uverbs_file *ufile)
{
	xa_init_flags(&ufile->idr, XA_FLAGS_ALLOC);
}

static int hca_object_charge(struct ib_uobject *uobj)
{
	return ib_rdmacg_try_charge(&uobj->cg_obj, uobj->context->device,
				    RDMACG_RESOURCE_HCA_OBJECT);
}

static void hca_object_uncharge(struct ib_uobject *uobj)
{
	ib_rdmacg_uncharge(&uobj->cg_obj, uobj->context->device,
			   RDMACG_RESOURCE_HCA_OBJECT);
}

/* A handle, reserved: lookups see NULL there until the object commits. */
static int idr_reserve(struct ib_uobject *uobj)
{
	struct xarray *handles = &uobj->ufile->idr;
	u32 handle;
	int ret;

	ret = xa_alloc(handles, &handle, NULL, xa_limit_32b, GFP_KERNEL);
	if (ret)
		return ret;
	uobj->id = handle;
	ret = hca_object_charge(uobj);
	if (ret)
		xa_erase(handles, handle);
	return ret;
}

static struct ib_uobject *idr_alloc_begin(const struct uverbs_api_object *obj,
					  struct uverbs_attr_bundle *attrs)
{
	return begin_uobject(obj, attrs, idr_reserve);
}

static void idr_alloc_commit(struct ib_uobject *uobj)
{
	/* The handle now owns the creator's reference. */
	WARN_ON(xa_store(&uobj->ufile->idr, uobj->id, uobj, GFP_KERNEL));
}

static void idr_alloc_abort(struct ib_uobject *uobj)
{
	hca_object_uncharge(uobj);
	xa_erase(&uobj->ufile->idr, uobj->id);
}

/* The object under @handle with a reference, or NULL. */
static struct ib_uobject *handle_find(struct ib_uverbs_file *ufile,
				      unsigned long handle)
{
	struct ib_uobject *found;

	rcu_read_lock();
	found = xa_load(&ufile->idr, handle);
	if (found && !kref_get_unless_zero(&found->ref))
		found = NULL;
	rcu_read_unlock();
	return found;
}

static struct ib_uobject *idr_lookup_get(const struct uverbs_api_object *obj,
					 struct ib_uverbs_file *ufile, s64 id,
					 enum rdma_lookup_mode mode)
{
	struct ib_uobject *found;

	if (id < 0 || id > ULONG_MAX)
		return ERR_PTR(-EINVAL);
	found = handle_find(ufile, id);
	return found ?: ERR_PTR(-ENOENT);
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
	int ret = idr_type->destroy_object(uobj, why, attrs);

	/* An abort uncharges in idr_alloc_abort(). */
	if (!ret && why != RDMA_REMOVE_ABORT)
		hca_object_uncharge(uobj);
	return ret;
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

/* Our release must run when the file goes, or the object would leak. */
static bool fd_type_released_by_us(const struct uverbs_obj_fd_type *fd_type)
{
	return fd_type->fops->release == uverbs_uobject_fd_release ||
	       fd_type->fops->release == uverbs_async_event_fops.release;
}

/* A descriptor and its file, not installed: private_data stays NULL. */
static int fd_reserve(struct ib_uobject *uobj)
{
	const struct uverbs_obj_fd_type *fd_type = fd_type_of(uobj->uapi_object);
	struct file *filp;
	int fd;

	if (WARN_ON(!fd_type_released_by_us(fd_type)))
		return -EINVAL;
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return fd;
	filp = anon_inode_getfile(fd_type->name, fd_type->fops, NULL,
				  fd_type->flags);
	if (IS_ERR(filp)) {
		put_unused_fd(fd);
		return PTR_ERR(filp);
	}
	uobj->id = fd;
	uobj->object = filp;
	return 0;
}

static struct ib_uobject *fd_alloc_begin(const struct uverbs_api_object *obj,
					 struct uverbs_attr_bundle *attrs)
{
	/* The uobject first: a driver's fops are not read once it is gone. */
	return begin_uobject(obj, attrs, fd_reserve);
}

static void fd_alloc_commit(struct ib_uobject *uobj)
{
	struct file *filp = uobj->object;
	int fd = uobj->id;

	/*
	 * From here the file holds the uverbs file and the creator's uobject
	 * reference; the release drops both.  An aborted (never installed)
	 * file has no private_data and is inert.
	 */
	uobj->id = 0;
	kref_get(&uobj->ufile->ref);
	filp->private_data = uobj;
	fd_install(fd, filp);
}

static void fd_alloc_abort(struct ib_uobject *uobj)
{
	fput(uobj->object);
	put_unused_fd(uobj->id);
}

/* @fd's file if it is an object of @fd_type of this uverbs file. */
static struct file *fd_file_of(struct ib_uverbs_file *ufile, int fd,
			       const struct uverbs_obj_fd_type *fd_type)
{
	struct file *f = fget(fd);
	struct ib_uobject *owner;

	if (!f)
		return NULL;
	owner = f->private_data;
	if (f->f_op == fd_type->fops && owner->ufile == ufile)
		return f;
	fput(f);
	return NULL;
}

static struct ib_uobject *fd_lookup_get(const struct uverbs_api_object *obj,
					struct ib_uverbs_file *ufile, s64 id,
					enum rdma_lookup_mode mode)
{
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

	f = fd_file_of(ufile, id, fd_type_of(obj));
	if (!f)
		return ERR_PTR(-EBADF);
	/*
	 * The file reference is kept until fd_lookup_put(): while a command
	 * uses the object, a close() of its fd cannot reach the release and
	 * destroy the object under the command.
	 */
	uobj = f->private_data;
	kref_get(&uobj->ref);
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
	fd_type_of(uobj->uapi_object)->destroy_object(uobj, why);
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
 * uverbs file's teardown already did (or is doing it now: then the
 * teardown holds hw_destroy_rwsem for write), then drop the file's
 * references.  Lookups hold the struct file, so nobody holds the uobject.
 */
int uverbs_uobject_fd_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;
	struct ib_uverbs_file *ufile;

	/* The creation was aborted before the file reached the process. */
	if (!uobj)
		return 0;

	ufile = uobj->ufile;
	if (down_read_trylock(&ufile->hw_destroy_rwsem)) {
		retire_unused(uobj, RDMA_REMOVE_CLOSE);
		up_read(&ufile->hw_destroy_rwsem);
	}
	kref_put(&ufile->ref, ib_uverbs_release_file);
	uverbs_uobject_put(uobj);
	return 0;
}
EXPORT_SYMBOL(uverbs_uobject_fd_release);

/* ------------------------------------------------------ the public contract */

/* The class's lookup reference, and ours, dropped together. */
static void lookup_drop(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	uobj->uapi_object->type_class->lookup_put(uobj, mode);
	uverbs_uobject_put(uobj);
}

/* The object @id names for @obj, with a lookup reference; not yet held. */
static struct ib_uobject *lookup_find(const struct uverbs_api_object *obj,
				      struct ib_uverbs_file *ufile, s64 id,
				      enum rdma_lookup_mode mode)
{
	struct ib_uobject *uobj;

	/* UVERBS_IDR_ANY_OBJECT (uapi_get_object()): any IDR handle */
	if (obj == ERR_PTR(-ENOMSG))
		return uverbs_idr_class.lookup_get(NULL, ufile, id, mode);
	if (IS_ERR(obj))
		return ERR_PTR(-EINVAL);

	uobj = obj->type_class->lookup_get(obj, ufile, id, mode);
	/* A handle of another type is simply not a valid handle. */
	if (!IS_ERR(uobj) && uobj->uapi_object != obj) {
		lookup_drop(uobj, mode);
		return ERR_PTR(-EINVAL);
	}
	return uobj;
}

struct ib_uobject *rdma_lookup_get_uobject(const struct uverbs_api_object *obj,
					   struct ib_uverbs_file *ufile, s64 id,
					   enum rdma_lookup_mode mode,
					   struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = lookup_find(obj, ufile, id, mode);
	int ret = 0;

	if (IS_ERR(uobj))
		return uobj;
	/* After hot-unplug only destroys are still served. */
	if (lookup_rules[mode].live_device && !uverbs_device_alive(ufile))
		ret = -EIO;
	else
		ret = usecnt_hold(uobj, mode);
	if (ret) {
		lookup_drop(uobj, mode);
		return ERR_PTR(ret);
	}
	if (attrs)
		attrs->context = uobj->context;
	return uobj;
}

void rdma_lookup_put_uobject(struct ib_uobject *uobj,
			     enum rdma_lookup_mode mode)
{
	/* Unheld first: the lookup_put may run an FD object's release. */
	usecnt_unhold(uobj, mode);
	lookup_drop(uobj, mode);
}

struct ib_uobject *rdma_alloc_begin_uobject(const struct uverbs_api_object *obj,
					    struct uverbs_attr_bundle *attrs)
{
	struct rw_semaphore *sem = &attrs->ufile->hw_destroy_rwsem;
	struct ib_uobject *uobj;

	if (IS_ERR(obj))
		return ERR_PTR(-EINVAL);
	if (obj->disabled)
		return ERR_PTR(-EOPNOTSUPP);

	/* Held until commit or abort so the file teardown waits for us. */
	if (!down_read_trylock(sem))
		return ERR_PTR(-EIO);
	uobj = obj->type_class->alloc_begin(obj, attrs);
	if (IS_ERR(uobj))
		up_read(sem);
	return uobj;
}

void rdma_alloc_commit_uobject(struct ib_uobject *uobj,
			       struct uverbs_attr_bundle *attrs)
{
	struct rw_semaphore *sem = &attrs->ufile->hw_destroy_rwsem;

	uobject_list(uobj);
	usecnt_release(uobj);
	uobj->uapi_object->type_class->alloc_commit(uobj);
	up_read(sem);
}

void rdma_alloc_abort_uobject(struct ib_uobject *uobj,
			      struct uverbs_attr_bundle *attrs,
			      bool hw_obj_valid)
{
	/* read before the retirement may free @uobj */
	struct rw_semaphore *sem = &uobj->ufile->hw_destroy_rwsem;
	const struct uverbs_obj_type_class *class = uobj->uapi_object->type_class;

	/* A hardware object that will not die stays the file's. */
	if (hw_obj_valid &&
	    WARN_ON(class->destroy_hw(uobj, RDMA_REMOVE_ABORT, attrs))) {
		rdma_alloc_commit_uobject(uobj, attrs);
		return;
	}
	retire_uobject(uobj, RDMA_REMOVE_ABORT, attrs);
	up_read(sem);
}

/* @new_uobj takes the place of @to_uobj, which is destroyed (REREG_MR). */
void rdma_assign_uobject(struct ib_uobject *to_uobj, struct ib_uobject *new_uobj,
			 struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_type_class *class = to_uobj->uapi_object->type_class;

	if (WARN_ON(to_uobj->uapi_object != new_uobj->uapi_object ||
		    !class->swap_uobjects))
		return;

	class->swap_uobjects(to_uobj, new_uobj);
	/* to_uobj now holds the new handle; destroy it under that name. */
	retire_claimed(to_uobj, RDMA_REMOVE_DESTROY, attrs);
}

/* Called by the write dispatcher once a creating handler has returned. */
void uverbs_finalize_new_object(struct ib_uobject *uobj, bool commit,
				struct uverbs_attr_bundle *attrs)
{
	uverbs_finalize_object(uobj, UVERBS_ACCESS_NEW, true, commit, attrs);
}

/* ------------------------------------------------- ioctl attribute access */

/* How an attribute's declared access looks its object up (not NEW). */
static const enum rdma_lookup_mode access_lookup_modes[] = {
	[UVERBS_ACCESS_READ] = UVERBS_LOOKUP_READ,
	[UVERBS_ACCESS_WRITE] = UVERBS_LOOKUP_WRITE,
	[UVERBS_ACCESS_DESTROY] = UVERBS_LOOKUP_DESTROY,
};

/* The object an IDR/FD attribute names, looked up for @access. */
struct ib_uobject *uverbs_get_uobject_from_file(u16 object_id,
						enum uverbs_obj_access access,
						s64 id,
						struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_api_object *obj =
		uapi_get_object(attrs->ufile->device->uapi, object_id);

	if (access == UVERBS_ACCESS_NEW)
		return rdma_alloc_begin_uobject(obj, attrs);
	if (WARN_ON(access >= ARRAY_SIZE(access_lookup_modes)))
		return ERR_PTR(-EOPNOTSUPP);
	return rdma_lookup_get_uobject(obj, attrs->ufile, id,
				       access_lookup_modes[access], attrs);
}

/*
 * The end of a command: commit or abort a NEW object, give the others
 * back (a DESTROY whose object is already destroyed has none).
 */
void uverbs_finalize_object(struct ib_uobject *uobj,
			    enum uverbs_obj_access access, bool hw_obj_valid,
			    bool commit, struct uverbs_attr_bundle *attrs)
{
	if (access != UVERBS_ACCESS_NEW) {
		if (uobj)
			rdma_lookup_put_uobject(uobj,
						access_lookup_modes[access]);
	} else if (commit) {
		rdma_alloc_commit_uobject(uobj, attrs);
	} else {
		rdma_alloc_abort_uobject(uobj, attrs, hw_obj_valid);
	}
}

/* ------------------------------------------------------------- file teardown */

/* A handle the teardown left: only retired objects are left behind. */
static void drop_left_handle(struct ib_uobject *left)
{
	WARN_ON(left->object);
	uverbs_uobject_put(left);
}

/* Last reference to the file: drop the handles the teardown left behind. */
void uverbs_file_release_objects(struct ib_uverbs_file *ufile)
{
	struct ib_uobject *left;
	unsigned long handle;

	xa_for_each(&ufile->idr, handle, left)
		drop_left_handle(left);
	xa_destroy(&ufile->idr);
}

/* One round over the file's objects: how many it retired. */
static unsigned int ufile_retire_round(struct ib_uverbs_file *ufile,
				       enum rdma_remove_reason why)
{
	struct ib_uobject *uobj, *next;
	unsigned int retired = 0;

	list_for_each_entry_safe(uobj, next, &ufile->uobjects, list)
		if (!retire_unused(uobj, why))
			retired++;
	return retired;
}

/* Hot-unplug: the user's mappings and the driver's hold on them go first. */
static void ucontext_disassociate(struct ib_uverbs_file *ufile)
{
	struct ib_ucontext *ucontext = ufile->ucontext;
	void (*let_go)(struct ib_ucontext *ucontext) =
		ucontext->device->ops.disassociate_ucontext;

	uverbs_user_mmap_disassociate(ufile);
	if (let_go)
		let_go(ucontext);
}

static void ucontext_free(struct ib_uverbs_file *ufile)
{
	struct ib_ucontext *ucontext = ufile->ucontext;
	struct ib_device *ibdev = ucontext->device;

	ib_rdmacg_uncharge(&ucontext->cg_obj, ibdev, RDMACG_RESOURCE_HCA_HANDLE);
	rdma_restrack_del(&ucontext->res);
	ibdev->ops.dealloc_ucontext(ucontext);
	/* every driver mmap entry was removed with the object it maps */
	WARN_ON(!xa_empty(&ucontext->mmap_xa));
	kfree(ucontext);
	ufile->ucontext = NULL;
}

/*
 * Destroy every hardware object of the file, children before parents:
 * objects that are still referenced (a PD with MRs) refuse and are retried
 * in the next round.  After the rounds the ucontext itself goes.
 */
void uverbs_destroy_ufile_hw(struct ib_uverbs_file *ufile,
			     enum rdma_remove_reason why)
{
	down_write(&ufile->hw_destroy_rwsem);
	if (ufile->ucontext) {
		while (!list_empty(&ufile->uobjects) &&
		       ufile_retire_round(ufile, why))
			;
		/* What the driver refuses to destroy leaks: say so, as 6.1. */
		if (WARN_ON(!list_empty(&ufile->uobjects)))
			ufile_retire_round(ufile, RDMA_REMOVE_DRIVER_FAILURE);
		if (why == RDMA_REMOVE_DRIVER_REMOVE)
			ucontext_disassociate(ufile);
		ucontext_free(ufile);
	}
	up_write(&ufile->hw_destroy_rwsem);
}
