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

#include "uverbs.h"

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
	if (!f->file)
		return -EBADF;
	*inode = file_inode(f->file);
	e = xrcd_tree_find(udev, *inode);
	if (e)
		*xrcd = e->xrcd;
	if (!*xrcd && !(cmd->oflags & O_CREAT))
		return -EAGAIN;
	if (*xrcd && (cmd->oflags & O_EXCL))
		return -EINVAL;
	return 0;
}

static int uverbs_open_xrcd(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_device *udev = attrs->ufile->device;
	struct ovb_open_xrcd_resp resp = {};
	struct ovb_open_xrcd_req cmd;
	struct ib_uxrcd_object *uxrcd;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_xrcd *xrcd;
	struct inode *inode;
	struct fd f = {};
	bool created = false;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	mutex_lock(&udev->xrcd_tree_mutex);
	ret = xrcd_lookup(udev, &cmd, &f, &inode, &xrcd);
	if (ret)
		goto out_unlock;

	uobj = uobj_alloc(OVB_OBJECT_XRCD, attrs, &ibdev);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto out_unlock;
	}
	uxrcd = container_of(uobj, struct ib_uxrcd_object, uobject);
	if (!xrcd) {
		xrcd = ib_alloc_xrcd_user(ibdev, inode, &attrs->driver_udata);
		if (IS_ERR(xrcd)) {
			ret = PTR_ERR(xrcd);
			goto err_abort;
		}
		created = true;
	}
	atomic_set(&uxrcd->refcnt, 0);
	uobj->object = xrcd;
	if (inode) {
		if (created) {
			ret = xrcd_tree_add(udev, inode, xrcd);
			if (ret)
				goto err_dealloc;
		}
		/* One count per handle on a shared domain. */
		atomic_inc(&xrcd->usecnt);
	}
	if (f.file)
		fdput(f);
	mutex_unlock(&udev->xrcd_tree_mutex);
	uobj_finalize_uobj_create(uobj, attrs);

	resp.xrcd_handle = uobj->id;
	return uverbs_response(attrs, &resp, sizeof(resp));

err_dealloc:
	ib_dealloc_xrcd_user(xrcd, uverbs_get_cleared_udata(attrs));
err_abort:
	uobj_alloc_abort(uobj, attrs);
out_unlock:
	if (f.file)
		fdput(f);
	mutex_unlock(&udev->xrcd_tree_mutex);
	return ret;
}

static int uverbs_close_xrcd(struct uverbs_attr_bundle *attrs)
{
	struct ovb_close_xrcd_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uobj_perform_destroy(OVB_OBJECT_XRCD, cmd.xrcd_handle, attrs);
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
	int ret;

	if (inode && !atomic_dec_and_test(&xrcd->usecnt))
		return 0;
	ret = ib_dealloc_xrcd_user(xrcd, &attrs->driver_udata);
	if (ret) {
		atomic_inc(&xrcd->usecnt);
		return ret;
	}
	if (inode)
		xrcd_tree_remove(attrs->ufile->device, inode);
	return 0;
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

/*
 * 6.1 hangs both driver ops on the XRCD object of its write interface:
 * every command under it (OPEN_QP too) needs alloc_xrcd and dealloc_xrcd.
 */
const struct uverbs_write_cmd uverbs_xrcd_cmds[] = {
	UVERBS_WRITE(OVB_CMD_OPEN_XRCD, uverbs_open_xrcd,
		     struct ovb_open_xrcd_req,
		     struct ovb_open_xrcd_resp, 1,
		     UVERBS_NEEDS(alloc_xrcd), UVERBS_NEEDS(dealloc_xrcd)),
	UVERBS_WRITE(OVB_CMD_CLOSE_XRCD, uverbs_close_xrcd,
		     struct ovb_close_xrcd_req, struct uverbs_no_resp, 0,
		     UVERBS_NEEDS(alloc_xrcd), UVERBS_NEEDS(dealloc_xrcd)),
	{ }
};

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_XRCD_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_XRCD_HANDLE,
						    OVB_OBJECT_XRCD,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_XRCD,
			    uverbs_xrcd_type.type,
			    &UVERBS_METHOD(OVB_METHOD_XRCD_DESTROY));

const struct uapi_definition uverbs_def_obj_xrcd[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_XRCD,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_xrcd)),
	{ }
};
