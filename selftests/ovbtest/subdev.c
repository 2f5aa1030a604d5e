// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: an SMI sub-device on request, as mlx5 offers one for its
 * multi-plane ports (6.12: `rdma dev add NAME type SMI parent ovbtest0`,
 * RDMA_NLDEV_CMD_NEWDEV, reaches ib_device_ops::add_sub_dev).  The
 * sub-device is a second ovbtest device with the InfiniBand port only,
 * typed RDMA_DEVICE_TYPE_SMI before it registers: 6.12's ib_uverbs gives
 * such a device no uverbs char device.  It goes with DELDEV or with its
 * parent (ib_core calls del_sub_dev).  6.1 has neither op: no sub-device.
 */
#include <linux/mutex.h>

#include "ovbtest.h"

#if OVBTEST_K612
static DEFINE_MUTEX(ovbtest_subdev_lock);	/* each parent's ->smi */

static struct ib_device *ovbtest_add_sub_dev(struct ib_device *parent,
					     enum rdma_nl_dev_type type,
					     const char *name)
{
	struct ovbtest_dev *odev = to_odev(parent), *smi;
	int ret;

	if (type != RDMA_DEVICE_TYPE_SMI)
		return ERR_PTR(-EOPNOTSUPP);
	mutex_lock(&ovbtest_subdev_lock);
	if (odev->smi) {
		ret = -EEXIST;
		goto out_unlock;
	}
	smi = ib_alloc_device(ovbtest_dev, ibdev);
	if (!smi) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	ovbtest_dev_init(smi, 1);
	smi->ibdev.type = type;
	ret = ib_register_device(&smi->ibdev, name, parent->dma_device);
	if (ret) {
		ida_destroy(&smi->qpn_ida);
		ib_dealloc_device(&smi->ibdev);
		goto out_unlock;
	}
	odev->smi = smi;
	mutex_unlock(&ovbtest_subdev_lock);
	return &smi->ibdev;

out_unlock:
	mutex_unlock(&ovbtest_subdev_lock);
	return ERR_PTR(ret);
}

static void ovbtest_del_sub_dev(struct ib_device *sub)
{
	struct ovbtest_dev *smi = to_odev(sub);

	mutex_lock(&ovbtest_subdev_lock);
	to_odev(sub->parent)->smi = NULL;
	mutex_unlock(&ovbtest_subdev_lock);
	ovbtest_irq_src_stop(&smi->irq);
	ib_unregister_device(sub);
	ida_destroy(&smi->qpn_ida);
	ib_dealloc_device(sub);
}

const struct ib_device_ops ovbtest_subdev_ops = {
	.add_sub_dev = ovbtest_add_sub_dev,
	.del_sub_dev = ovbtest_del_sub_dev,
};
#else
const struct ib_device_ops ovbtest_subdev_ops = {};
#endif
