/* SPDX-License-Identifier: GPL-2.0 */
/*
 * openverbs ib_uverbs: definitions private to the module.
 *
 * The structures in the "kABI" section are not ours to design.  Public
 * ib_core headers point at them (ib_cq::uobject, ib_ucontext::ufile, ...),
 * so the symbol CRCs that HCA drivers check at load time are computed from
 * their definitions, and ib_core itself dereferences some of their members
 * (the mmap helpers take ufile->umap_lock and walk ufile->umaps).  Member
 * names, types and order therefore follow Linux 6.1 exactly; `make
 * kabi-check` proves it.  Everything below that section is our own.
 */
#ifndef OPENVERBS_KERNEL_UVERBS_H
#define OPENVERBS_KERNEL_UVERBS_H

#include <linux/kref.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/rbtree.h>
#include <linux/srcu.h>
#include <linux/xarray.h>
#include <linux/cgroup_rdma.h>

#include <rdma/ib_verbs.h>
#include <rdma/ib_umem.h>
/*
 * Both ABIs, write() and ioctl(), are spelled with our own uapi/ names; the
 * kernel's header stays for the types ib_core's exported prototypes use
 * (ib_marshall.h).  See Documentation/uapi.md for the other places upstream
 * names stay: the uverbs_ioctl.h framework and ib_core's own types.
 */
#include <rdma/ib_user_verbs.h>
#include <openverbs/uverbs-abi.h>
#include <openverbs/ioctl-abi.h>
#include <rdma/uverbs_std_types.h>
#include <rdma/uverbs_ioctl.h>

#include "compat.h"

#define UVERBS_MODULE_NAME ib_uverbs
#include <rdma/uverbs_named_ioctl.h>

/* ------------------------------------------------------------------ kABI */

/* A uverbs character device: one per ib_device that supports user contexts. */
struct ib_uverbs_device {
	refcount_t				refcount;
	u32					num_comp_vectors;
	struct completion			comp;
	struct device				dev;
	const struct attribute_group		*groups[2];
	struct ib_device	__rcu		*ib_dev;
	int					devnum;
	struct cdev				cdev;
	struct rb_root				xrcd_tree;
	struct mutex				xrcd_tree_mutex; /* xrcd_tree */
	struct srcu_struct			disassociate_srcu;
	struct mutex				lists_mutex; /* uverbs_file_list */
	struct list_head			uverbs_file_list;
	struct uverbs_api			*uapi;
};

/* Events waiting to be read() from an async event fd or a comp channel. */
struct ib_uverbs_event_queue {
	spinlock_t				lock; /* event_list, is_closed */
	int					is_closed;
	wait_queue_head_t			poll_wait;
	struct fasync_struct			*async_queue;
	struct list_head			event_list;
};

struct ib_uverbs_async_event_file {
	struct ib_uobject			uobj;
	struct ib_uverbs_event_queue		ev_queue;
	struct ib_event_handler			event_handler;
};

struct ib_uverbs_completion_event_file {
	struct ib_uobject			uobj;
	struct ib_uverbs_event_queue		ev_queue;
};

/* One open /dev/infiniband/uverbsN. */
struct ib_uverbs_file {
	struct kref				ref;
	struct ib_uverbs_device			*device;
	/* ucontext is read with smp_load_acquire or under ucontext_lock */
	struct mutex				ucontext_lock;
	struct ib_ucontext			*ucontext;
	struct ib_uverbs_async_event_file	*default_async_file;
	struct list_head			list;
	/*
	 * hw_destroy_rwsem is held for read while a command creates or uses
	 * hardware objects and for write while the file's objects are torn
	 * down; uobjects is protected by it (write) or by it (read) plus
	 * uobjects_lock.
	 */
	struct rw_semaphore			hw_destroy_rwsem;
	spinlock_t				uobjects_lock; /* see above */
	struct list_head			uobjects;
	/* driver mmaps of this file, zapped on disassociation (ib_core uses) */
	struct mutex				umap_lock; /* umaps */
	struct list_head			umaps;
	struct page				*disassociate_page;
	/* handle -> ib_uobject for IDR objects */
	struct xarray				idr;
#ifdef OVB_HAVE_MMAP_DISASSOCIATE
	/* held by every driver mmap; see mmap.c (6.12's kABI has it) */
	struct mutex				disassociation_lock;
#endif
};

/*
 * Kernels whose drivers may revoke a device's mmaps at any time
 * (rdma_user_mmap_disassociate) serialise driver mmaps per file; on the
 * others only a hot-unplug revokes, and its SRCU already waits for them.
 */
#ifdef OVB_HAVE_MMAP_DISASSOCIATE
static inline void ufile_mmap_lock_init(struct ib_uverbs_file *ufile)
{
	mutex_init(&ufile->disassociation_lock);
}

static inline void ufile_mmap_lock_destroy(struct ib_uverbs_file *ufile)
{
	mutex_destroy(&ufile->disassociation_lock);
}

static inline void ufile_mmap_lock(struct ib_uverbs_file *ufile)
{
	mutex_lock(&ufile->disassociation_lock);
}

static inline void ufile_mmap_unlock(struct ib_uverbs_file *ufile)
{
	mutex_unlock(&ufile->disassociation_lock);
}
#else
static inline void ufile_mmap_lock_init(struct ib_uverbs_file *ufile) {}
static inline void ufile_mmap_lock_destroy(struct ib_uverbs_file *ufile) {}
static inline void ufile_mmap_lock(struct ib_uverbs_file *ufile) {}
static inline void ufile_mmap_unlock(struct ib_uverbs_file *ufile) {}
#endif

struct ib_uverbs_event {
	union {
		struct ovb_async_event_desc	async;
		struct ovb_comp_event_desc	comp;
	}					desc;
	struct list_head			list;
	struct list_head			obj_list;
	u32					*counter;
};

/*
 * One (GID, LID) pair a user attached a QP to (mcast.c).  @holds: this
 * pair keeps the driver's attachment, made with @driver_lid; a pair that
 * does not hold one is an alias the driver never saw (RoCE only).
 */
struct ib_uverbs_mcast_entry {
	struct list_head	list;
	union ib_gid		gid;
	u16			lid;
	u16			driver_lid;
	bool			holds;
};

/* An object that can report async events (CQ, QP, SRQ, WQ). */
struct ib_uevent_object {
	struct ib_uobject	uobject;
	struct ib_uverbs_async_event_file *event_file;
	struct list_head	event_list;
	u32			events_reported;
};

struct ib_uxrcd_object {
	struct ib_uobject	uobject;
	atomic_t		refcnt;
};

struct ib_usrq_object {
	struct ib_uevent_object	uevent;
	struct ib_uxrcd_object *uxrcd;
};

struct ib_uqp_object {
	struct ib_uevent_object	uevent;
	struct mutex		mcast_lock; /* mcast_list */
	struct list_head	mcast_list;
	struct ib_uxrcd_object *uxrcd;
};

struct ib_uwq_object {
	struct ib_uevent_object	uevent;
};

struct ib_ucq_object {
	struct ib_uevent_object uevent;
	struct list_head	comp_list;
	u32			comp_events_reported;
};

/*
 * struct uverbs_api and the ib_core types that only some of upstream's
 * exporting files see are in core_types.h (see there why).
 */
struct uverbs_api;

/* A write() command as the dispatcher sees it. */
struct uverbs_api_write_method {
	int (*handler)(struct uverbs_attr_bundle *attrs);
	u8 disabled:1;
	u8 is_ex:1;
	u8 has_udata:1;
	u8 has_resp:1;
	u8 req_size;
	u8 resp_size;
};

/* ------------------------------------ ib_core exports without a header */

/*
 * ib_core exports these for ib_uverbs but declares them only in its
 * private headers (core_priv.h, restrack.h).  Signatures as in 6.1.
 */
int ib_rdmacg_try_charge(struct ib_rdmacg_object *cg_obj,
			 struct ib_device *device,
			 enum rdmacg_resource_type resource_index);
void ib_rdmacg_uncharge(struct ib_rdmacg_object *cg_obj,
			struct ib_device *device,
			enum rdmacg_resource_type resource_index);
void rdma_restrack_new(struct rdma_restrack_entry *res,
		       enum rdma_restrack_type type);
void rdma_restrack_set_name(struct rdma_restrack_entry *res,
			    const char *caller);
void rdma_restrack_parent_name(struct rdma_restrack_entry *dst,
			       const struct rdma_restrack_entry *parent);
void rdma_restrack_add(struct rdma_restrack_entry *res);
void rdma_restrack_del(struct rdma_restrack_entry *res);
void rdma_restrack_sync(struct rdma_restrack_entry *res);
struct ib_qp *ib_create_qp_user(struct ib_device *dev, struct ib_pd *pd,
				struct ib_qp_init_attr *attr,
				struct ib_udata *udata,
				struct ib_uqp_object *uobj, const char *caller);
void ib_qp_usecnt_inc(struct ib_qp *qp);
void ib_qp_usecnt_dec(struct ib_qp *qp);
bool rdma_nl_get_privileged_qkey(void);

/*
 * ib_core's record of one mapping (core_priv.h in 6.1, where ib_core's
 * rdma_umap_priv_init() fills it and links it on ufile->umaps).
 */
struct rdma_umap_priv {
	struct vm_area_struct *vma;
	struct list_head list;
	struct rdma_user_mmap_entry *entry;
};

void rdma_umap_priv_init(struct rdma_umap_priv *priv,
			 struct vm_area_struct *vma,
			 struct rdma_user_mmap_entry *entry);

/* ------------------------------------------------------- module identity */

#define OPENVERBS_VERSION	"0.2.0"

#define UVERBS_CLASS_NAME		"infiniband_verbs"
#define UVERBS_MAJOR			231
#define UVERBS_BASE_MINOR		192
#define UVERBS_MAX_DEVICES		8192
#define UVERBS_NUM_FIXED_MINORS		32
#define UVERBS_NUM_DYNAMIC_MINORS	(UVERBS_MAX_DEVICES - UVERBS_NUM_FIXED_MINORS)

extern struct class *uverbs_class;
extern dev_t uverbs_dynamic_base;
extern struct ib_client uverbs_client;

/* ------------------------------------------ declaring write() commands */

/*
 * Every object of the module is declared by one struct uapi_definition
 * chain (the public <rdma/uverbs_ioctl.h> format, the one drivers use for
 * ib_device::driver_def).  An entry that names an object (its ioctl tree,
 * UAPI_DEF_CHAIN_OBJ_TREE_NAMED(), or DECLARE_UVERBS_OBJECT()) opens it;
 * what follows belongs to it: what the device must implement for the
 * object to exist, stated once (UAPI_DEF_OBJ_NEEDS_FN()), and its write()
 * commands, each followed by what it needs besides
 * (UAPI_DEF_METHOD_NEEDS_FN()):
 *
 *	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_PD),
 *	UAPI_DEF_OBJ_NEEDS_FN(dealloc_pd),
 *	UVERBS_DECLARE_WRITE(OVB_CMD_ALLOC_PD, uverbs_alloc_pd,
 *			     UVERBS_IN_OUT_UDATA(struct ovb_alloc_pd_req,
 *						 struct ovb_alloc_pd_resp)),
 *	UAPI_DEF_METHOD_NEEDS_FN(alloc_pd),
 *
 * uapi.c serves a command when its object exists on the device, the
 * device implements every op the command needs and, for a legacy command,
 * its bit is in ib_device::uverbs_cmd_mask; any other command answers
 * EOPNOTSUPP, exactly like one that does not exist.  A command belongs to
 * the object 6.1 files it under (OPEN_QP: the XRC domain), whose needs it
 * shares.  A chain included with UAPI_DEF_CHAIN() opens its own objects.
 *
 * <rdma/uverbs_ioctl.h>'s DECLARE_UVERBS_WRITE() cannot take the sizes
 * without initialising .write twice (sparse rejects that), hence ours; the
 * entry it makes is the same.
 */
#define UVERBS_DECLARE_WRITE(_cmd, _fn, _layout)			\
	{ .kind = UAPI_DEF_WRITE, .scope = UAPI_SCOPE_OBJECT,		\
	  .write = { .command_num = (_cmd), _layout },			\
	  .func_write = (_fn) }

/* Extended command (_cmd without OVB_CMD_FLAG_EXTENDED). */
#define UVERBS_DECLARE_WRITE_EX(_cmd, _fn, _layout)			\
	{ .kind = UAPI_DEF_WRITE, .scope = UAPI_SCOPE_OBJECT,		\
	  .write = { .command_num = (_cmd), .is_ex = 1, _layout },	\
	  .func_write = (_fn) }

/*
 * The fixed part of a legacy command: its request, its response (whose
 * user address starts the request), and whether driver data follows both.
 */
#define UVERBS_IN(_req)		.req_size = sizeof(_req)
#define UVERBS_IN_OUT(_req, _resp)					\
	UVERBS_IN(_req), .has_resp = 1, .resp_size = sizeof(_resp)
#define UVERBS_IN_UDATA(_req)	UVERBS_IN(_req), .has_udata = 1
#define UVERBS_IN_OUT_UDATA(_req, _resp)				\
	UVERBS_IN_OUT(_req, _resp), .has_udata = 1

/*
 * An extended command's minimum request and response, upstream's declared
 * values, kept as documentation only: 6.1 records sizes for legacy commands
 * alone (so does uapi.c), so it never answers ENOSPC for a short _ex
 * request or response buffer; the handler zero-extends the request and
 * truncates the response instead.
 */
#define UVERBS_EX_MIN(_req_min, _resp_min)				\
	.req_size = (_req_min), .resp_size = (_resp_min)

/* ------------------------------------------------------- object types */

/* uverbs_idr_class / uverbs_fd_class come from <rdma/uverbs_types.h> */
extern const struct uverbs_obj_fd_type uverbs_async_event_type;
extern const struct uverbs_obj_fd_type uverbs_comp_channel_type;
extern const struct uverbs_obj_idr_type uverbs_pd_type;
extern const struct uverbs_obj_idr_type uverbs_mr_type;
extern const struct uverbs_obj_idr_type uverbs_mw_type;
extern const struct uverbs_obj_idr_type uverbs_ah_type;
extern const struct uverbs_obj_idr_type uverbs_cq_type;
extern const struct uverbs_obj_idr_type uverbs_qp_type;
extern const struct uverbs_obj_idr_type uverbs_srq_type;
extern const struct uverbs_obj_idr_type uverbs_xrcd_type;
extern const struct uverbs_obj_idr_type uverbs_wq_type;
extern const struct uverbs_obj_idr_type uverbs_rwq_ind_tbl_type;
extern const struct uverbs_obj_idr_type uverbs_flow_type;

/*
 * The module's API, one chain per object (see "declaring write()
 * commands"); uapi.c walks them, then the driver's driver_def.  A file that
 * shares an object with its object file exports a part of the object's
 * chain, included by it: uverbs_def_<object>_<part>.
 */
extern const struct uapi_definition uverbs_def_obj_device[];
extern const struct uapi_definition uverbs_def_device_write[];
extern const struct uapi_definition uverbs_def_device_gid[];
extern const struct uapi_definition uverbs_def_obj_async_fd[];
extern const struct uapi_definition uverbs_def_obj_comp_channel[];
extern const struct uapi_definition uverbs_def_obj_pd[];
extern const struct uapi_definition uverbs_def_obj_mr[];
extern const struct uapi_definition uverbs_def_mr_ioctl[];
extern const struct uapi_definition uverbs_def_obj_mw[];
extern const struct uapi_definition uverbs_def_obj_ah[];
extern const struct uapi_definition uverbs_def_obj_cq[];
extern const struct uapi_definition uverbs_def_obj_qp[];
extern const struct uapi_definition uverbs_def_qp_ioctl[];
extern const struct uapi_definition uverbs_def_qp_post[];
extern const struct uapi_definition uverbs_def_qp_mcast[];
extern const struct uapi_definition uverbs_def_obj_srq[];
extern const struct uapi_definition uverbs_def_obj_xrcd[];
extern const struct uapi_definition uverbs_def_obj_wq[];
extern const struct uapi_definition uverbs_def_obj_rwq_ind_tbl[];
extern const struct uapi_definition uverbs_def_obj_flow[];
extern const struct uapi_definition uverbs_def_obj_flow_action[];
extern const struct uapi_definition uverbs_def_obj_counters[];
extern const struct uapi_definition uverbs_def_obj_dm[];

/* mr.c: what ib_core expects of a user MR a driver just made */
void uverbs_mr_init(struct ib_mr *mr, struct ib_pd *pd, struct ib_uobject *uobj);

/* uapi.c: the per-device API (objects, ioctl methods, write commands) */
struct uverbs_api *uverbs_build_api(struct ib_device *ibdev);
void uverbs_destroy_api(struct uverbs_api *uapi);
const struct uverbs_api_write_method *
uverbs_find_write_method(const struct uverbs_api *uapi, u32 command);
const struct uverbs_api_object *uapi_get_object(struct uverbs_api *uapi,
						u16 object_id);

/* device.c: ib_client callbacks */
int uverbs_add_device(struct ib_device *ibdev);
void uverbs_remove_device(struct ib_device *ibdev, void *client_data);
int uverbs_get_nl_info(struct ib_device *ibdev, void *client_data,
		       struct ib_client_nl_info *res);
void uverbs_device_put(struct ib_uverbs_device *udev);

/* file.c: the character device */
extern const struct file_operations uverbs_fops;
extern const struct file_operations uverbs_mmap_fops;
void ib_uverbs_release_file(struct kref *ref);
struct ib_ucontext *ib_uverbs_get_ucontext_file(struct ib_uverbs_file *ufile);

/* write.c: the write() ABI */
ssize_t uverbs_write(struct file *filp, const char __user *buf, size_t count,
		     loff_t *pos);
int uverbs_request(struct uverbs_attr_bundle *attrs, void *req, size_t len);
int uverbs_response(struct uverbs_attr_bundle *attrs, const void *resp,
		    size_t len);
int uverbs_response_written(struct uverbs_attr_bundle *attrs);
u32 uverbs_response_length(struct uverbs_attr_bundle *attrs, size_t len);
struct ib_udata *uverbs_get_cleared_udata(struct uverbs_attr_bundle *attrs);

/* A cursor over a request with a variable-length tail (POST_SEND, flows). */
struct uverbs_req_iter {
	const void __user *cur;
	const void __user *end;
};

int uverbs_request_start(struct uverbs_attr_bundle *attrs,
			 struct uverbs_req_iter *iter, void *req, size_t len);
int uverbs_request_next(struct uverbs_req_iter *iter, void *val, size_t len);
int uverbs_request_take(struct uverbs_req_iter *iter, size_t len,
			const void __user **at);
int uverbs_request_finish(struct uverbs_req_iter *iter);

/* uobject.c: handles, locking, lifetime */
void uverbs_file_init_objects(struct ib_uverbs_file *ufile);
void uverbs_file_release_objects(struct ib_uverbs_file *ufile);
void uverbs_destroy_ufile_hw(struct ib_uverbs_file *ufile,
			     enum rdma_remove_reason reason);
int uobj_destroy(struct ib_uobject *uobj, struct uverbs_attr_bundle *attrs);
void uverbs_finalize_new_object(struct ib_uobject *uobj, bool commit,
				struct uverbs_attr_bundle *attrs);

/* ioctl.c: the ioctl() ABI */
long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
size_t uverbs_call_size(unsigned int key_bitmap_len, unsigned int num_attrs);
void uverbs_fill_udata(struct uverbs_attr_bundle *bundle,
		       struct ib_udata *udata, unsigned int attr_in,
		       unsigned int attr_out);
int uverbs_output_written(const struct uverbs_attr_bundle *bundle, size_t idx);
struct ib_uobject *uverbs_get_uobject_from_file(u16 object_id,
						enum uverbs_obj_access access,
						s64 id,
						struct uverbs_attr_bundle *attrs);
void uverbs_finalize_object(struct ib_uobject *uobj,
			    enum uverbs_obj_access access, bool hw_obj_valid,
			    bool commit, struct uverbs_attr_bundle *attrs);

/* mmap.c: driver mmaps through ib_core's rdma_user_mmap_* helpers */
int uverbs_mmap(struct file *filp, struct vm_area_struct *vma);

/* umem_dmabuf.c, umem_dmabuf_revoke.c */
void umem_dmabuf_unmap_unpin_locked(struct ib_umem_dmabuf *ud);
struct ib_umem_dmabuf *
umem_dmabuf_get_pinned_locked(struct ib_device *device,
			      struct device *dma_device, unsigned long offset,
			      size_t size, int fd, int access,
			      const struct dma_buf_attach_ops *ops);
#ifdef OVB_HAVE_UMEM_DMABUF_REVOKE
void umem_dmabuf_revoke_locked(struct ib_umem_dmabuf *ud);
static inline bool umem_dmabuf_revoked(const struct ib_umem_dmabuf *ud)
{
	return ud->revoked;
}
#else
/* Without revocable imports, "revoking" at release is unmap and unpin. */
static inline void umem_dmabuf_revoke_locked(struct ib_umem_dmabuf *ud)
{
	umem_dmabuf_unmap_unpin_locked(ud);
}

static inline bool umem_dmabuf_revoked(const struct ib_umem_dmabuf *ud)
{
	return false;
}
#endif
void uverbs_user_mmap_disassociate(struct ib_uverbs_file *ufile);

/*
 * event.c, what ib_core and drivers call as events happen (any context):
 * a CQ's completion (its channel in cq_context), an object's async event.
 */
void ib_uverbs_comp_handler(struct ib_cq *cq, void *cq_context);
void ib_uverbs_cq_event_handler(struct ib_event *event, void *context_ptr);
void ib_uverbs_qp_event_handler(struct ib_event *event, void *context_ptr);
void ib_uverbs_srq_event_handler(struct ib_event *event, void *context_ptr);
void ib_uverbs_wq_event_handler(struct ib_event *event, void *context_ptr);
void ib_uverbs_async_handler(struct ib_uverbs_async_event_file *async_file,
			     __u64 element, __u64 event,
			     struct list_head *obj_list, u32 *counter);

/* event.c, the event files: their queues and file operations */
extern const struct file_operations uverbs_event_fops;
extern const struct file_operations uverbs_async_event_fops;
void ib_uverbs_init_event_queue(struct ib_uverbs_event_queue *ev_queue);
void ib_uverbs_free_event_queue(struct ib_uverbs_event_queue *ev_queue);
void ib_uverbs_init_async_event_file(struct ib_uverbs_async_event_file *ev_file);

/* event.c, for the command files: which file an object reports to */
struct ib_uverbs_async_event_file *
uverbs_default_async_event(struct ib_uverbs_file *ufile);
struct ib_uverbs_async_event_file *
uverbs_async_event_attr(struct uverbs_attr_bundle *attrs, u16 attr);
struct ib_uverbs_async_event_file *
uverbs_async_event_get(struct ib_uverbs_async_event_file *async);
struct ib_uverbs_completion_event_file *
uverbs_lookup_comp_file(s32 fd, struct uverbs_attr_bundle *attrs);
/* and the undelivered events that go with an object */
void ib_uverbs_release_ucq(struct ib_uverbs_completion_event_file *ev_file,
			   struct ib_ucq_object *uobj);
void ib_uverbs_release_uevent(struct ib_uevent_object *uobj);

/* Shared helpers of the command files */
struct ib_qp *uverbs_qp_create_hw(struct ib_uqp_object *uqp,
				  struct ib_device *ibdev, struct ib_pd *pd,
				  struct ib_qp_init_attr *init,
				  struct ib_uobject *xrcd_uobj,
				  struct uverbs_attr_bundle *attrs,
				  struct ib_uverbs_async_event_file *async);
int uverbs_dealloc_mw(struct ib_mw *mw);
void ib_uverbs_detach_umcast(struct ib_qp *qp, struct ib_uqp_object *uobj);
int ib_uverbs_dealloc_xrcd(struct ib_uobject *uobject, struct ib_xrcd *xrcd,
			   enum rdma_remove_reason why,
			   struct uverbs_attr_bundle *attrs);
int ib_uverbs_kern_spec_to_ib_spec_filter(enum ib_flow_spec_type type,
					  const void *kern_spec_mask,
					  const void *kern_spec_val,
					  size_t kern_filter_sz,
					  union ib_flow_spec *ib_spec);

static inline void uverbs_init_udata(struct ib_udata *udata,
				     const void __user *ibuf, void __user *obuf,
				     size_t ilen, size_t olen)
{
	udata->inbuf = ilen ? ibuf : NULL;
	udata->outbuf = olen ? obuf : NULL;
	udata->inlen = ilen;
	udata->outlen = olen;
}

/*
 * Port capability flags as the ABI reports them: the IBA CapabilityMask
 * except bit 26, which carries "GIDs are IP based".
 */
static inline u32 uverbs_port_cap_flags(const struct ib_port_attr *attr)
{
	u32 flags = attr->port_cap_flags & ~(u32)OVB_PCF_IP_BASED_GIDS;

	if (attr->ip_gids)
		flags |= OVB_PCF_IP_BASED_GIDS;
	return flags;
}

#endif /* OPENVERBS_KERNEL_UVERBS_H */
