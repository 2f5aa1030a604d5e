// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: one uverbs device per RDMA device.
 *
 * ib_core calls uverbs_add_device() for every ib_device that supports
 * user contexts (and for devices present when we load).  Each gets a
 * minor number, a uverbsN class device under the HCA's parent device with
 * the ibdev and abi_version attributes rdma-core reads, and a cdev.
 */

#include <linux/idr.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <rdma/rdma_netlink.h>

#include "uverbs.h"

/* Filled by ib_core for RDMA_NLDEV_CMD_GET_CHARDEV (core_priv.h in 6.1). */
struct ib_client_nl_info {
	struct sk_buff *nl_msg;
	struct device *cdev;
	u32 port;
	u64 abi;
};

static DEFINE_IDA(uverbs_minor_ida);

static void uverbs_device_release(struct device *dev)
{
	struct ib_uverbs_device *udev =
		container_of(dev, struct ib_uverbs_device, dev);

	if (udev->uapi)
		uverbs_destroy_api(udev->uapi);
	cleanup_srcu_struct(&udev->disassociate_srcu);
	mutex_destroy(&udev->lists_mutex);
	mutex_destroy(&udev->xrcd_tree_mutex);
	kfree(udev);
}

/* Drops a file's (or the module's) hold; the last one wakes removal. */
void uverbs_device_put(struct ib_uverbs_device *udev)
{
	if (refcount_dec_and_test(&udev->refcount))
		complete(&udev->comp);
	put_device(&udev->dev);
}

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct ib_uverbs_device *udev = dev_get_drvdata(dev);
	struct ib_device *ibdev;
	int srcu_key;
	int ret = -ENODEV;

	srcu_key = srcu_read_lock(&udev->disassociate_srcu);
	ibdev = srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
	if (ibdev)
		ret = sysfs_emit(buf, "%s\n", dev_name(&ibdev->dev));
	srcu_read_unlock(&udev->disassociate_srcu, srcu_key);
	return ret;
}
static DEVICE_ATTR_RO(ibdev);

/* The driver's own ABI version (rxe: 2), not the uverbs one. */
static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct ib_uverbs_device *udev = dev_get_drvdata(dev);
	struct ib_device *ibdev;
	int srcu_key;
	int ret = -ENODEV;

	srcu_key = srcu_read_lock(&udev->disassociate_srcu);
	ibdev = srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
	if (ibdev)
		ret = sysfs_emit(buf, "%u\n", ibdev->ops.uverbs_abi_ver);
	srcu_read_unlock(&udev->disassociate_srcu, srcu_key);
	return ret;
}
static DEVICE_ATTR_RO(abi_version);

static struct attribute *uverbs_device_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_abi_version.attr,
	NULL,
};

static const struct attribute_group uverbs_device_group = {
	.attrs = uverbs_device_attrs,
};

int uverbs_add_device(struct ib_device *ibdev)
{
	struct ib_uverbs_device *udev;
	dev_t devt;
	int minor;
	int ret;

	/*
	 * Without user contexts there is nothing userspace could do; an SMI
	 * sub-device only serves its parent's management QPs.
	 */
	if (!ibdev->ops.alloc_ucontext || ovb_device_is_smi(ibdev))
		return -EOPNOTSUPP;

	udev = kzalloc(sizeof(*udev), GFP_KERNEL);
	if (!udev)
		return -ENOMEM;
	ret = init_srcu_struct(&udev->disassociate_srcu);
	if (ret) {
		kfree(udev);
		return ret;
	}

	device_initialize(&udev->dev);
	udev->dev.class = uverbs_class;
	udev->dev.parent = ibdev->dev.parent;
	udev->dev.release = uverbs_device_release;
	udev->groups[0] = &uverbs_device_group;
	udev->dev.groups = udev->groups;
	dev_set_drvdata(&udev->dev, udev);
	refcount_set(&udev->refcount, 1);
	init_completion(&udev->comp);
	udev->xrcd_tree = RB_ROOT;
	mutex_init(&udev->xrcd_tree_mutex);
	mutex_init(&udev->lists_mutex);
	INIT_LIST_HEAD(&udev->uverbs_file_list);
	rcu_assign_pointer(udev->ib_dev, ibdev);
	udev->num_comp_vectors = ibdev->num_comp_vectors;

	minor = ida_alloc_max(&uverbs_minor_ida, UVERBS_MAX_DEVICES - 1,
			      GFP_KERNEL);
	if (minor < 0) {
		ret = minor;
		goto err;
	}
	udev->devnum = minor;
	if (minor < UVERBS_NUM_FIXED_MINORS)
		devt = MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR + minor);
	else
		devt = uverbs_dynamic_base + minor - UVERBS_NUM_FIXED_MINORS;

	udev->uapi = uverbs_build_api(ibdev);
	if (IS_ERR(udev->uapi)) {
		ret = PTR_ERR(udev->uapi);
		udev->uapi = NULL;
		goto err_minor;
	}

	udev->dev.devt = devt;
	dev_set_name(&udev->dev, "uverbs%d", minor);
	cdev_init(&udev->cdev, ibdev->ops.mmap ? &uverbs_mmap_fops : &uverbs_fops);
	udev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret)
		goto err_minor;

	ib_set_client_data(ibdev, &uverbs_client, udev);
	return 0;

err_minor:
	ida_free(&uverbs_minor_ida, minor);
err:
	if (refcount_dec_and_test(&udev->refcount))
		complete(&udev->comp);
	wait_for_completion(&udev->comp);
	put_device(&udev->dev);
	return ret;
}

/* Tear down every open file's hardware objects; the files stay, dead. */
static void uverbs_disassociate_files(struct ib_uverbs_device *udev)
{
	struct ib_uverbs_file *ufile;

	mutex_lock(&udev->lists_mutex);
	while (!list_empty(&udev->uverbs_file_list)) {
		ufile = list_first_entry(&udev->uverbs_file_list,
					 struct ib_uverbs_file, list);
		list_del_init(&ufile->list);
		kref_get(&ufile->ref);
		/* Destroying objects may close files: not under lists_mutex. */
		mutex_unlock(&udev->lists_mutex);

		uverbs_destroy_ufile_hw(ufile, RDMA_REMOVE_DRIVER_REMOVE);
		kref_put(&ufile->ref, ib_uverbs_release_file);

		mutex_lock(&udev->lists_mutex);
	}
	mutex_unlock(&udev->lists_mutex);
}

void uverbs_remove_device(struct ib_device *ibdev, void *client_data)
{
	struct ib_uverbs_device *udev = client_data;
	bool wait_for_files = true;

	cdev_device_del(&udev->cdev, &udev->dev);
	ida_free(&uverbs_minor_ida, udev->devnum);

	if (ibdev->ops.disassociate_ucontext) {
		/*
		 * Hot-unplug: stop new commands (they see -EIO), wait for the
		 * running ones, then destroy every user's objects now.
		 */
		rcu_assign_pointer(udev->ib_dev, NULL);
		synchronize_srcu(&udev->disassociate_srcu);
		uverbs_disassociate_files(udev);
		wait_for_files = false;
	}

	if (refcount_dec_and_test(&udev->refcount))
		complete(&udev->comp);
	/* Otherwise each file pins the driver module: wait for them. */
	if (wait_for_files)
		wait_for_completion(&udev->comp);
	put_device(&udev->dev);
}

int uverbs_get_nl_info(struct ib_device *ibdev, void *client_data,
		       struct ib_client_nl_info *res)
{
	struct ib_uverbs_device *udev = client_data;

	if (res->port != -1)
		return -EINVAL;
	res->abi = ibdev->ops.uverbs_abi_ver;
	res->cdev = &udev->dev;
	/* Lets rdma-core bind its provider by driver id, not by name. */
	if (ibdev->ops.uverbs_no_driver_id_binding)
		return 0;
	return nla_put_u32(res->nl_msg, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID,
			   ibdev->ops.driver_id);
}
