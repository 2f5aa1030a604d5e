// SPDX-License-Identifier: GPL-2.0
/*
 * uverbs_no_driver_id_binding, as mthca and hns set it: the device's
 * driver_id is then left out of RDMA netlink's uverbs chardev answer, so
 * rdma-core binds a provider by other means (modalias, name).  ib_uverbs
 * still checks the driver_id of every ioctl against ops.driver_id.  The
 * module parameter no_driver_id_binding, given at load, sets the flag.
 */
#include <linux/module.h>

#include "ovbtest.h"

static bool no_driver_id_binding;
module_param(no_driver_id_binding, bool, 0444);
MODULE_PARM_DESC(no_driver_id_binding,
		 "register with uverbs_no_driver_id_binding (load time)");

static const struct ib_device_ops ovbtest_unbound_ops = {
	.uverbs_no_driver_id_binding = 1,
};

void ovbtest_binding_init(struct ib_device *ibdev)
{
	if (no_driver_id_binding)
		ib_set_device_ops(ibdev, &ovbtest_unbound_ops);
}
