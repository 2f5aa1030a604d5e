// SPDX-License-Identifier: GPL-2.0
/*
 * Destroy callbacks that find their context through the udata, as mlx4,
 * mlx5, siw and irdma do with rdma_udata_to_drv_context(): ib_uverbs must
 * hand every destroy of a user object a udata inside the bundle of the
 * object's own context, on an explicit DESTROY, at close() of the file and
 * at disassociate.  Objects remember the context that created them; each
 * destroy compares.  The counts are module parameters, and the unload
 * logs them (disassociate runs inside it, after the parameters are gone).
 */
#include <linux/module.h>

#include "ovbtest.h"

static atomic_t udata_checked;
static atomic_t udata_wrong;

static int ovbtest_udata_count_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read((atomic_t *)kp->arg));
}

static const struct kernel_param_ops ovbtest_udata_count_ops = {
	.get = ovbtest_udata_count_get,
};

module_param_cb(destroy_udata_checked, &ovbtest_udata_count_ops,
		&udata_checked, 0444);
MODULE_PARM_DESC(destroy_udata_checked,
		 "destroys of user objects whose udata named a context");
module_param_cb(destroy_udata_wrong, &ovbtest_udata_count_ops, &udata_wrong,
		0444);
MODULE_PARM_DESC(destroy_udata_wrong,
		 "destroys of user objects with no udata or another context's");

struct ovbtest_ucontext *ovbtest_udata_owner(struct ib_udata *udata)
{
	return rdma_udata_to_drv_context(udata, struct ovbtest_ucontext, ibuc);
}

/* @owner: the creator's context, NULL for a kernel object (not checked). */
void ovbtest_udata_check(struct ovbtest_ucontext *owner,
			 struct ib_udata *udata)
{
	if (!owner)
		return;
	if (ovbtest_udata_owner(udata) == owner)
		atomic_inc(&udata_checked);
	else
		atomic_inc(&udata_wrong);
}

void ovbtest_udata_report(void)
{
	pr_info("ovbtest: destroy udata: %d checked, %d wrong\n",
		atomic_read(&udata_checked), atomic_read(&udata_wrong));
}
