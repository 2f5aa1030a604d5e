// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: module entry.  Claims the uverbs character device
 * numbers and the "infiniband_verbs" class that rdma-core looks for.
 */

#include <linux/module.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <rdma/rdma_netlink.h>

#include "uverbs.h"

dev_t uverbs_dynamic_base;

static CLASS_ATTR_STRING(abi_version, 0444,
			 __stringify(OVB_UVERBS_ABI_VERSION));

struct class *uverbs_class;

/* ib_core finds our char devices for RDMA netlink through this name. */
struct ib_client uverbs_client = {
	.name = "uverbs",
	.no_kverbs_req = true,
	.add = uverbs_add_device,
	.remove = uverbs_remove_device,
	.get_nl_info = uverbs_get_nl_info,
};
MODULE_ALIAS_RDMA_CLIENT("uverbs");

static char *uverbs_devnode(OVB_DEVNODE_CONST struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return kasprintf(GFP_KERNEL, "infiniband/%s", dev_name(dev));
}

static int __init uverbs_module_init(void)
{
	int ret;

	ret = register_chrdev_region(MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR),
				     UVERBS_NUM_FIXED_MINORS, UVERBS_CLASS_NAME);
	if (ret) {
		pr_err("ib_uverbs: char device numbers %d:%d are taken; is the in-tree ib_uverbs loaded? 'rmmod ib_uverbs' first\n",
		       UVERBS_MAJOR, UVERBS_BASE_MINOR);
		return ret;
	}
	ret = alloc_chrdev_region(&uverbs_dynamic_base, 0,
				  UVERBS_NUM_DYNAMIC_MINORS, UVERBS_CLASS_NAME);
	if (ret)
		goto err_fixed;

	uverbs_class = ovb_class_create(UVERBS_CLASS_NAME);
	if (IS_ERR(uverbs_class)) {
		ret = PTR_ERR(uverbs_class);
		goto err_dynamic;
	}
	uverbs_class->devnode = uverbs_devnode;
	ret = class_create_file(uverbs_class, &class_attr_abi_version.attr);
	if (ret)
		goto err_class;

	ret = ib_register_client(&uverbs_client);
	if (ret)
		goto err_class;

	pr_info("ib_uverbs: openverbs %s loaded\n", OPENVERBS_VERSION);
	return 0;

err_class:
	class_destroy(uverbs_class);
err_dynamic:
	unregister_chrdev_region(uverbs_dynamic_base, UVERBS_NUM_DYNAMIC_MINORS);
err_fixed:
	unregister_chrdev_region(MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR),
				 UVERBS_NUM_FIXED_MINORS);
	return ret;
}

static void __exit uverbs_module_exit(void)
{
	ib_unregister_client(&uverbs_client);
	class_destroy(uverbs_class);
	unregister_chrdev_region(uverbs_dynamic_base, UVERBS_NUM_DYNAMIC_MINORS);
	unregister_chrdev_region(MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR),
				 UVERBS_NUM_FIXED_MINORS);
}

module_init(uverbs_module_init);
module_exit(uverbs_module_exit);

MODULE_DESCRIPTION("openverbs: RDMA userspace verbs access (ib_uverbs replacement)");
MODULE_AUTHOR("openverbs developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(OPENVERBS_VERSION);
