// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the character device /dev/infiniband/uverbsN.
 *
 * Each open() is an ib_uverbs_file holding a reference on its
 * ib_uverbs_device (and on the HCA driver module, unless the driver can
 * disassociate its contexts on hot-unplug).  Closing the file destroys
 * every object the process created through it.
 */

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/nsproxy.h>
#include <net/net_namespace.h>

#include "core_types.h"

/*
 * The file's ucontext, for use under the device's disassociate_srcu:
 * -EIO once the device is gone, -EINVAL before GET_CONTEXT.
 */
struct ib_ucontext *ib_uverbs_get_ucontext_file(struct ib_uverbs_file *ufile)
{
	/* pairs with the smp_store_release() that publishes the context */
	struct ib_ucontext *ucontext = smp_load_acquire(&ufile->ucontext);

	if (!srcu_dereference(ufile->device->ib_dev,
			      &ufile->device->disassociate_srcu))
		return ERR_PTR(-EIO);
	return ucontext ? ucontext : ERR_PTR(-EINVAL);
}
EXPORT_SYMBOL(ib_uverbs_get_ucontext_file);

void ib_uverbs_release_file(struct kref *ref)
{
	struct ib_uverbs_file *ufile =
		container_of(ref, struct ib_uverbs_file, ref);
	struct ib_uverbs_device *udev = ufile->device;
	struct ib_device *ibdev;
	int srcu_key;

	uverbs_file_release_objects(ufile);
	if (ufile->default_async_file)
		uverbs_uobject_put(&ufile->default_async_file->uobj);

	srcu_key = srcu_read_lock(&udev->disassociate_srcu);
	ibdev = srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
	if (ibdev && !ibdev->ops.disassociate_ucontext)
		module_put(ibdev->ops.owner);
	srcu_read_unlock(&udev->disassociate_srcu, srcu_key);

	uverbs_device_put(udev);
	if (ufile->disassociate_page)
		__free_pages(ufile->disassociate_page, 0);
	ufile_mmap_lock_destroy(ufile);
	mutex_destroy(&ufile->umap_lock);
	mutex_destroy(&ufile->ucontext_lock);
	kfree(ufile);
}

static int uverbs_open(struct inode *inode, struct file *filp)
{
	struct ib_uverbs_device *udev =
		container_of(inode->i_cdev, struct ib_uverbs_device, cdev);
	bool pin_driver;
	struct ib_uverbs_file *ufile;
	struct ib_device *ibdev;
	int srcu_key;
	int ret;

	if (!refcount_inc_not_zero(&udev->refcount))
		return -ENXIO;
	get_device(&udev->dev);

	srcu_key = srcu_read_lock(&udev->disassociate_srcu);
	mutex_lock(&udev->lists_mutex);
	ibdev = srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
	if (!ibdev) {
		ret = -EIO;
		goto err;
	}
	if (!rdma_dev_access_netns(ibdev, current->nsproxy->net_ns)) {
		ret = -EPERM;
		goto err;
	}
	/* A driver that cannot disassociate must outlive our files. */
	pin_driver = !ibdev->ops.disassociate_ucontext;
	if (pin_driver && !try_module_get(ibdev->ops.owner)) {
		ret = -ENODEV;
		goto err;
	}

	ufile = kzalloc(sizeof(*ufile), GFP_KERNEL);
	if (!ufile) {
		ret = -ENOMEM;
		if (pin_driver)
			module_put(ibdev->ops.owner);
		goto err;
	}
	ufile->device = udev;
	kref_init(&ufile->ref);
	mutex_init(&ufile->ucontext_lock);
	spin_lock_init(&ufile->uobjects_lock);
	INIT_LIST_HEAD(&ufile->uobjects);
	init_rwsem(&ufile->hw_destroy_rwsem);
	mutex_init(&ufile->umap_lock);
	INIT_LIST_HEAD(&ufile->umaps);
	ufile_mmap_lock_init(ufile);
	uverbs_file_init_objects(ufile);

	filp->private_data = ufile;
	list_add_tail(&ufile->list, &udev->uverbs_file_list);
	mutex_unlock(&udev->lists_mutex);
	srcu_read_unlock(&udev->disassociate_srcu, srcu_key);
	return stream_open(inode, filp);

err:
	mutex_unlock(&udev->lists_mutex);
	srcu_read_unlock(&udev->disassociate_srcu, srcu_key);
	uverbs_device_put(udev);
	return ret;
}

static int uverbs_close(struct inode *inode, struct file *filp)
{
	struct ib_uverbs_file *ufile = filp->private_data;

	uverbs_destroy_ufile_hw(ufile, RDMA_REMOVE_CLOSE);

	mutex_lock(&ufile->device->lists_mutex);
	list_del_init(&ufile->list);
	mutex_unlock(&ufile->device->lists_mutex);

	kref_put(&ufile->ref, ib_uverbs_release_file);
	return 0;
}

const struct file_operations uverbs_fops = {
	.owner = THIS_MODULE,
	.write = uverbs_write,
	.open = uverbs_open,
	.release = uverbs_close,
	.unlocked_ioctl = uverbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

const struct file_operations uverbs_mmap_fops = {
	.owner = THIS_MODULE,
	.write = uverbs_write,
	.mmap = uverbs_mmap,
	.open = uverbs_open,
	.release = uverbs_close,
	.unlocked_ioctl = uverbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};
