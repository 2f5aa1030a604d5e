// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: XRC domains.
 *
 * Processes share an XRC domain by naming a file: OPEN_XRCD with a file
 * descriptor finds (or with O_CREAT makes) the domain tied to that file's
 * inode on this device.  The per-device inode → xrcd tree lives in the
 * kABI struct ib_uverbs_device (xrcd_tree under xrcd_tree_mutex); each
 * opener's handle counts in xrcd->usecnt and the last close frees it.
 * OPEN_XRCD with fd -1 makes a private domain.
 */

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/rbtree.h>
#include <linux/slab.h>

#include "obj_steps.h"

struct xrcd_inode_entry {
	struct rb_node node;
	struct inode *inode;
	struct ib_xrcd *xrcd;
};

/* The tree slot for @inode: the entry, or where to link a new one. */
static struct rb_node **xrcd_tree_slot(struct ib_uverbs_device *udev,
				       struct inode *inode,
				       struct rb_node **parent)
{
	struct rb_node **slot = &udev->xrcd_tree.rb_node;

	*parent = NULL;
	while (*slot) {
		struct xrcd_inode_entry *e =
			rb_entry(*slot, struct xrcd_inode_entry, node);

		if (inode == e->inode)
			break;
		*parent = *slot;
		slot = inode < e->inode ? &(*slot)->rb_left : &(*slot)->rb_right;
	}
	return slot;
}

static struct xrcd_inode_entry *xrcd_tree_find(struct ib_uverbs_device *udev,
					       struct inode *inode)
{
	struct rb_node *parent, **slot = xrcd_tree_slot(udev, inode, &parent);

	return *slot ? rb_entry(*slot, struct xrcd_inode_entry, node) : NULL;
}

/* Ties @xrcd to @inode (which the tree then holds a reference on). */
static int xrcd_tree_add(struct ib_uverbs_device *udev, struct inode *inode,
			 struct ib_xrcd *xrcd)
{
	struct rb_node *parent, **slot = xrcd_tree_slot(udev, inode, &parent);
	struct xrcd_inode_entry *e;

	if (*slot)
		return -EEXIST;
	e = kmalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->inode = inode;
	e->xrcd = xrcd;
	rb_link_node(&e->node, parent, slot);
	rb_insert_color(&e->node, &udev->xrcd_tree);
	igrab(inode);
	return 0;
}

static void xrcd_tree_remove(struct ib_uverbs_device *udev,
			     struct inode *inode)
{
	struct xrcd_inode_entry *e = xrcd_tree_find(udev, inode);

	if (!e)
		return;
	rb_erase(&e->node, &udev->xrcd_tree);
	iput(inode);
	kfree(e);
}

/*
 * The domain an OPEN_XRCD names, under xrcd_tree_mutex: *xrcd is the
 * existing one for the file (or NULL to make one).  6.1's errors: EBADF
 * for a bad fd, EAGAIN when none exists and O_CREAT is absent, EINVAL for
 * O_EXCL when one exists.
 */
static int xrcd_lookup(struct ib_uverbs_device *udev,
		       const struct ovb_open_xrcd_req *cmd, struct fd *f,
		       struct inode **inode, struct ib_xrcd **xrcd)
{
	struct xrcd_inode_entry *e;

	*inode = NULL;
	*xrcd = NULL;
	if (cmd->fd == -1)
		return 0;

	*f = fdget(cmd->fd);
	if (!ovb_fd_file(*f))
		return -EBADF;
	*inode = file_inode(ovb_fd_file(*f));
	e = xrcd_tree_find(udev, *inode);
	if (e)
		*xrcd = e->xrcd;
	if (!*xrcd && !(cmd->oflags & O_CREAT))
		return -EAGAIN;
	if (*xrcd && (cmd->oflags & O_EXCL))
		return -EINVAL;
	return 0;
}

/*
 * The domain for a new handle (xrcd_tree_mutex held): the file's existing
 * one (*xrcd), or a new one, tied to the file if there is one.  Every
 * handle on a file's domain counts in its usecnt.
 */
static int xrcd_get_or_make(struct uverbs_newobj *n, struct inode *inode,
			    struct ib_xrcd **xrcd)
{
	struct ib_uverbs_device *udev = n->attrs->ufile->device;
	struct ib_xrcd *made;
	int ret;

	if (!*xrcd) {
		made = ib_alloc_xrcd_user(n->ibdev, inode,
					  &n->attrs->driver_udata);
		if (IS_ERR(made))
			return PTR_ERR(made);
		ret = inode ? xrcd_tree_add(udev, inode, made) : 0;
		if (ret) {
			ib_dealloc_xrcd_user(made,
					     uverbs_get_cleared_udata(n->attrs));
			return ret;
		}
		*xrcd = made;
	}
	if (inode)
		atomic_inc(&(*xrcd)->usecnt);
	return 0;
}

static int uverbs_open_xrcd(struct uverbs_attr_bundle *attrs)
{
	struct mutex *tree_mutex = &attrs->ufile->device->xrcd_tree_mutex;
	struct ovb_open_xrcd_resp resp = {};
	struct ovb_open_xrcd_req cmd;
	struct uverbs_newobj n;
	struct ib_xrcd *xrcd;
	struct inode *inode;
	struct fd f = {};
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	mutex_lock(tree_mutex);
	ret = xrcd_lookup(attrs->ufile->device, &cmd, &f, &inode, &xrcd) ?:
	      uverbs_newobj_begin(&n, OVB_OBJECT_XRCD, attrs, 0);
	if (!ret) {
		ret = xrcd_get_or_make(&n, inode, &xrcd);
		if (ret)
			uverbs_newobj_cancel(&n, ret);
	}
	if (ovb_fd_file(f))
		fdput(f);
	mutex_unlock(tree_mutex);
	if (ret)
		return ret;

	/* uxrcd->refcnt starts at 0: the uobject was zeroed. */
	resp.xrcd_handle = uverbs_newobj_publish(&n, xrcd);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static const struct uverbs_destroy_cmd uverbs_close_xrcd_cmd = {
	UVERBS_DESTROY_CMD(OVB_OBJECT_XRCD, struct ovb_close_xrcd_req, xrcd_handle),
};

static int uverbs_close_xrcd(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_close_xrcd_cmd);
}

/*
 * Drops one handle's hold on @xrcd (xrcd_tree_mutex held); the last one
 * frees the domain and unties it from its file.
 */
int ib_uverbs_dealloc_xrcd(struct ib_uobject *uobject, struct ib_xrcd *xrcd,
			   enum rdma_remove_reason why,
			   struct uverbs_attr_bundle *attrs)
{
	struct inode *inode = xrcd->inode;
	bool last = !inode || atomic_dec_and_test(&xrcd->usecnt);
	int ret = last ? ib_dealloc_xrcd_user(xrcd, &attrs->driver_udata) : 0;

	if (ret)	/* the handle stays: so does its count */
		atomic_inc(&xrcd->usecnt);
	else if (last && inode)
		xrcd_tree_remove(attrs->ufile->device, inode);
	return ret;
}

static int uverbs_free_xrcd(struct ib_uobject *uobj,
			    enum rdma_remove_reason why,
			    struct uverbs_attr_bundle *attrs)
{
	struct ib_uxrcd_object *uxrcd =
		container_of(uobj, struct ib_uxrcd_object, uobject);
	struct mutex *tree_mutex = &attrs->ufile->device->xrcd_tree_mutex;
	int ret;

	/* XRC SRQs and target QPs of this handle still use it. */
	if (atomic_read(&uxrcd->refcnt))
		return -EBUSY;
	mutex_lock(tree_mutex);
	ret = ib_uverbs_dealloc_xrcd(uobj, uobj->object, why, attrs);
	mutex_unlock(tree_mutex);
	return ret;
}

const struct uverbs_obj_idr_type uverbs_xrcd_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uxrcd_object),
	},
	.destroy_object = uverbs_free_xrcd,
};

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_XRCD_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_XRCD_HANDLE,
						    OVB_OBJECT_XRCD,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_XRCD,
			    uverbs_xrcd_type.type,
			    &UVERBS_METHOD(OVB_METHOD_XRCD_DESTROY));

/*
 * 6.1 states both ops on this object: a device without them has no XRC
 * domains, neither their ioctl method nor their write() commands, OPEN_QP
 * among them (declared in qp.c).
 */
const struct uapi_definition uverbs_def_obj_xrcd[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_XRCD),
	UAPI_DEF_OBJ_NEEDS_FN(alloc_xrcd),
	UAPI_DEF_OBJ_NEEDS_FN(dealloc_xrcd),
	UVERBS_DECLARE_WRITE(OVB_CMD_OPEN_XRCD, uverbs_open_xrcd,
			     UVERBS_IN_OUT_UDATA(struct ovb_open_xrcd_req,
						 struct ovb_open_xrcd_resp)),
	UVERBS_DECLARE_WRITE(OVB_CMD_CLOSE_XRCD, uverbs_close_xrcd,
			     UVERBS_IN(struct ovb_close_xrcd_req)),
	{ }
};
