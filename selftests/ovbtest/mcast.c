// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: multicast groups per port.  On the InfiniBand port, the rules
 * of rdmavt (hfi1, qib), the in-tree drivers of IB ports that keep groups
 * in software:
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
 * On the RoCE port the MLID means nothing (RoCE annex; ib_core passes any
 * value): a group is known by its MGID alone, as rxe and the Ethernet
 * drivers keep them, so another MLID for a member's MGID is the same
 * membership again (success, nothing changes), and a detach matches the
 * MGID whatever its MLID.  The rest is as on the IB port.
 * ib_core has checked before either call that the QP is UD and the GID a
 * multicast one, on the IB port that the MLID is a multicast LID (0xc000
 * to 0xfffe), and counts each successful attach as a use of the QP.  A
 * group belongs to the port of the QP that made it.
 */
#include <linux/slab.h>

#include "ovbtest.h"

struct ovbtest_mcast {
	struct list_head list;		/* on ovbtest_dev::mcast_groups */
	union ib_gid mgid;
	u32 port;
	u16 mlid;		/* IB port only */
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
						u32 port,
						const union ib_gid *mgid)
{
	struct ovbtest_mcast *grp;

	lockdep_assert_held(&dev->mcast_lock);
	list_for_each_entry(grp, &dev->mcast_groups, list)
		if (grp->port == port &&
		    !memcmp(grp->mgid.raw, mgid->raw, sizeof(mgid->raw)))
			return grp;
	return NULL;
}

/* Whether @lid names @grp: always on a RoCE port, where it means nothing. */
static bool ovbtest_mcast_lid_matches(struct ovbtest_dev *dev,
				      struct ovbtest_mcast *grp, u16 lid)
{
	return !rdma_protocol_ib(&dev->ibdev, grp->port) || grp->mlid == lid;
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
	u32 port;

	if (ibqp->qp_num <= 1 || READ_ONCE(qp->state) == IB_QPS_RESET)
		return -EINVAL;
	port = READ_ONCE(qp->port_num);

	/* Allocated up front, freed below if the group or member exists. */
	new_grp = kzalloc(sizeof(*new_grp), GFP_KERNEL);
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!new_grp || !m) {
		ret = -ENOMEM;
		goto out_free;
	}
	m->qp = qp;

	mutex_lock(&dev->mcast_lock);
	grp = ovbtest_mcast_find(dev, port, gid);
	if (grp) {
		if (!ovbtest_mcast_lid_matches(dev, grp, lid))
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
	grp->port = port;
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

/*
 * The group of the port the QP was on when it attached, whichever port
 * it is on now (INIT -> INIT may move it).
 */
static int ovbtest_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid,
				u16 lid)
{
	struct ovbtest_dev *dev = to_odev(ibqp->device);
	struct ovbtest_mcast_member *m = NULL;
	struct ovbtest_mcast *grp;

	if (ibqp->qp_num <= 1)
		return -EINVAL;

	mutex_lock(&dev->mcast_lock);
	list_for_each_entry(grp, &dev->mcast_groups, list) {
		if (memcmp(grp->mgid.raw, gid->raw, sizeof(gid->raw)) ||
		    !ovbtest_mcast_lid_matches(dev, grp, lid))
			continue;
		m = ovbtest_mcast_member(grp, to_oqp(ibqp));
		if (m)
			break;
	}
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
