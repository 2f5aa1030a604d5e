// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: InfiniBand multicast groups with the rules of rdmavt (hfi1,
 * qib), the in-tree drivers of IB ports that keep groups in software:
 *  - a group is known by its MGID and has one MLID, the one it was made
 *    with: attaching its MGID with another MLID is EINVAL;
 *  - attaching a QP that is already a member succeeds and changes nothing
 *    (ib_core would still count it as one more use of the QP; ib_uverbs
 *    never asks twice for the same pair, only a kernel caller could);
 *  - detaching from an MGID that has no group, with another MLID, or a QP
 *    that is not a member is EINVAL; the last member takes the group away;
 *  - QPs 0 and 1, and a QP in RESET, cannot attach (EINVAL);
 *  - OVBTEST_MAX_MCAST_GRP groups and OVBTEST_MAX_MCAST_QP_ATTACH members
 *    per group, then ENOMEM.
 * ib_core has checked before either call that the QP is UD, the GID a
 * multicast one and the MLID a multicast LID of the IB port (0xc000 to
 * 0xfffe), and counts each successful attach as a use of the QP.  The
 * device has one port, so its groups are the port's.
 */
#include <linux/slab.h>

#include "ovbtest.h"

struct ovbtest_mcast {
	struct list_head list;		/* on ovbtest_dev::mcast_groups */
	union ib_gid mgid;
	u16 mlid;
	unsigned int n_attached;
	struct list_head members;
};

struct ovbtest_mcast_member {
	struct list_head list;		/* on ovbtest_mcast::members */
	struct ovbtest_qp *qp;
};

void ovbtest_mcast_init(struct ovbtest_dev *dev)
{
	mutex_init(&dev->mcast_lock);
	INIT_LIST_HEAD(&dev->mcast_groups);
}

static struct ovbtest_mcast *ovbtest_mcast_find(struct ovbtest_dev *dev,
						const union ib_gid *mgid)
{
	struct ovbtest_mcast *grp;

	lockdep_assert_held(&dev->mcast_lock);
	list_for_each_entry(grp, &dev->mcast_groups, list)
		if (!memcmp(grp->mgid.raw, mgid->raw, sizeof(mgid->raw)))
			return grp;
	return NULL;
}

static struct ovbtest_mcast_member *
ovbtest_mcast_member(struct ovbtest_mcast *grp, struct ovbtest_qp *qp)
{
	struct ovbtest_mcast_member *m;

	list_for_each_entry(m, &grp->members, list)
		if (m->qp == qp)
			return m;
	return NULL;
}

static void ovbtest_mcast_remove(struct ovbtest_dev *dev,
				 struct ovbtest_mcast *grp,
				 struct ovbtest_mcast_member *m)
{
	list_del(&m->list);
	m->qp->n_mcast--;
	grp->n_attached--;
	atomic_dec(&dev->live.mcast_attached);
	kfree(m);
	if (grp->n_attached)
		return;
	list_del(&grp->list);
	atomic_dec(&dev->live.mcast_groups);
	kfree(grp);
}

static int ovbtest_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid,
				u16 lid)
{
	struct ovbtest_dev *dev = to_odev(ibqp->device);
	struct ovbtest_qp *qp = to_oqp(ibqp);
	struct ovbtest_mcast *grp, *new_grp;
	struct ovbtest_mcast_member *m;
	int ret = 0;

	if (ibqp->qp_num <= 1 || READ_ONCE(qp->state) == IB_QPS_RESET)
		return -EINVAL;

	/* Allocated up front, freed below if the group or member exists. */
	new_grp = kzalloc(sizeof(*new_grp), GFP_KERNEL);
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!new_grp || !m) {
		ret = -ENOMEM;
		goto out_free;
	}
	m->qp = qp;

	mutex_lock(&dev->mcast_lock);
	grp = ovbtest_mcast_find(dev, gid);
	if (grp) {
		if (grp->mlid != lid)
			ret = -EINVAL;	/* one MLID per MGID */
		else if (ovbtest_mcast_member(grp, qp))
			ret = 0;	/* already a member: nothing to do */
		else if (grp->n_attached == OVBTEST_MAX_MCAST_QP_ATTACH)
			ret = -ENOMEM;
		else
			goto add_member;
		goto out_unlock;
	}
	if (atomic_read(&dev->live.mcast_groups) == OVBTEST_MAX_MCAST_GRP) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	grp = new_grp;
	new_grp = NULL;
	grp->mgid = *gid;
	grp->mlid = lid;
	INIT_LIST_HEAD(&grp->members);
	list_add_tail(&grp->list, &dev->mcast_groups);
	atomic_inc(&dev->live.mcast_groups);
add_member:
	list_add_tail(&m->list, &grp->members);
	m = NULL;
	grp->n_attached++;
	qp->n_mcast++;
	atomic_inc(&dev->live.mcast_attached);
out_unlock:
	mutex_unlock(&dev->mcast_lock);
out_free:
	kfree(m);
	kfree(new_grp);
	return ret;
}

static int ovbtest_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid,
				u16 lid)
{
	struct ovbtest_dev *dev = to_odev(ibqp->device);
	struct ovbtest_mcast_member *m = NULL;
	struct ovbtest_mcast *grp;

	if (ibqp->qp_num <= 1)
		return -EINVAL;

	mutex_lock(&dev->mcast_lock);
	grp = ovbtest_mcast_find(dev, gid);
	if (grp && grp->mlid == lid)
		m = ovbtest_mcast_member(grp, to_oqp(ibqp));
	if (m)
		ovbtest_mcast_remove(dev, grp, m);
	mutex_unlock(&dev->mcast_lock);
	/* no such group, its MLID is another, or the QP is not a member */
	return m ? 0 : -EINVAL;
}

/*
 * Drops every membership of @qp (destroy_qp: there should be none, as
 * ib_core keeps a QP with attachments busy); WARNs if there was one.
 */
void ovbtest_mcast_drop_qp(struct ovbtest_qp *qp)
{
	struct ovbtest_dev *dev = to_odev(qp->ibqp.device);
	struct ovbtest_mcast *grp, *next;
	struct ovbtest_mcast_member *m;

	mutex_lock(&dev->mcast_lock);
	WARN_ON(qp->n_mcast);
	list_for_each_entry_safe(grp, next, &dev->mcast_groups, list) {
		if (!qp->n_mcast)
			break;
		m = ovbtest_mcast_member(grp, qp);
		if (m)
			ovbtest_mcast_remove(dev, grp, m);
	}
	mutex_unlock(&dev->mcast_lock);
}

const struct ib_device_ops ovbtest_mcast_ops = {
	.attach_mcast = ovbtest_attach_mcast,
	.detach_mcast = ovbtest_detach_mcast,
};
