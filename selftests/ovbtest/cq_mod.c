// SPDX-License-Identifier: GPL-2.0
/*
 * CQ interrupt moderation, as mlx4, mlx5 and hns offer it through
 * EX_MODIFY_CQ: ib_core's rdma_set_cq_moderation() reaches modify_cq with
 * a count and a period, which the driver bounds by the cq_moderation_caps
 * it reports (main.c).  Nothing completes on the CQs, so the values are
 * only kept: the module parameter cq_moderation reads "cqe count period"
 * of the last CQ moderated, for the test to see what the driver got.
 * The CQ create flags the driver takes are OVBTEST_CQ_FLAGS (verbs.c).
 */
#include <linux/module.h>

#include "ovbtest.h"

static DEFINE_SPINLOCK(cq_mod_lock);
static u32 cq_mod_last[3];	/* cqe, count, period */

static int ovbtest_cq_mod_get(char *buf, const struct kernel_param *kp)
{
	u32 v[3];

	spin_lock(&cq_mod_lock);
	memcpy(v, cq_mod_last, sizeof(v));
	spin_unlock(&cq_mod_lock);
	return sysfs_emit(buf, "%u %u %u\n", v[0], v[1], v[2]);
}

static const struct kernel_param_ops ovbtest_cq_mod_param_ops = {
	.get = ovbtest_cq_mod_get,
};

module_param_cb(cq_moderation, &ovbtest_cq_mod_param_ops, NULL, 0444);
MODULE_PARM_DESC(cq_moderation,
		 "cqe, count and period of the last CQ moderated");

static int ovbtest_modify_cq(struct ib_cq *ibcq, u16 count, u16 period)
{
	if (count > OVBTEST_MAX_CQ_MOD_COUNT ||
	    period > OVBTEST_MAX_CQ_MOD_PERIOD)
		return -EINVAL;
	spin_lock(&cq_mod_lock);
	cq_mod_last[0] = ibcq->cqe;
	cq_mod_last[1] = count;
	cq_mod_last[2] = period;
	spin_unlock(&cq_mod_lock);
	return 0;
}

const struct ib_device_ops ovbtest_cq_mod_ops = {
	.modify_cq = ovbtest_modify_cq,
};
