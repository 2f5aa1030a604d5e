// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: multicast group attachment of UD QPs.
 *
 * Each QP uobject remembers the (GID, LID) pairs the user attached, so an
 * attach is idempotent, a detach of a pair never attached fails before the
 * driver sees it, and teardown can detach what the user left behind (the
 * attachments are no uobjects: nothing else would).
 *
 * What reaches the driver depends on the link layer, as ib_core decides
 * whether a multicast LID means anything:
 * - InfiniBand: the LID is part of the group.  Every new pair goes to
 *   ib_attach_mcast(), which refuses LIDs outside the multicast range, and
 *   the driver judges a second LID for the same GID (rdmavt refuses it).
 *   Each pair the driver accepted is detached with its own LID.  This is
 *   6.1's behaviour.
 * - RoCE and iWARP: the LID is ignored (RoCE annex), so the driver keys
 *   groups by GID alone and counts a second attach of a GID as none (rxe),
 *   while ib_core counts every successful attach in qp->usecnt.  The first
 *   pair of a GID attaches the driver; later pairs of the same GID are
 *   aliases that succeed without it; the driver is detached when the last
 *   pair of the GID goes.  (6.1 passes each pair down here too, which
 *   leaves usecnt one too high on rxe: the QP can then never be
 *   destroyed, and closing its file leaks it.)
 */

#include <linux/slab.h>

#include "obj_steps.h"

/*
 * Every attach and detach that reaches a driver goes one at a time.
 * rdma_rxe 6.1 races with itself: an attach that found a GID's group can
 * join it after a concurrent detach of the group's last other QP has
 * taken it out of the tree; the attach succeeds (ib_core counts it in
 * qp->usecnt) and no detach ever finds the group again, so the QP can
 * never be destroyed (WARN and leak at close; the in-tree stack oopses in
 * `rdma res show` afterwards).  Multicast membership changes are rare;
 * one lock for the module costs nothing and keeps any driver's group
 * bookkeeping out of that race.  Taken inside uqp->mcast_lock.
 */
static DEFINE_MUTEX(uverbs_mcast_driver_lock);

/* The driver's attach (@attach) or detach of @qp to (@gid, @lid). */
static int uverbs_mcast_driver(struct ib_qp *qp, union ib_gid *gid, u16 lid,
			       bool attach)
{
	int ret;

	mutex_lock(&uverbs_mcast_driver_lock);
	ret = attach ? ib_attach_mcast(qp, gid, lid) :
		       ib_detach_mcast(qp, gid, lid);
	mutex_unlock(&uverbs_mcast_driver_lock);
	return ret;
}

static struct ib_uverbs_mcast_entry *
uverbs_mcast_find(struct ib_uqp_object *uqp, const u8 *gid, u16 lid)
{
	struct ib_uverbs_mcast_entry *mcast;

	list_for_each_entry(mcast, &uqp->mcast_list, list)
		if (mcast->lid == lid &&
		    !memcmp(mcast->gid.raw, gid, sizeof(mcast->gid.raw)))
			return mcast;
	return NULL;
}

/* A pair of @gid that holds (@holds) or does not hold a driver attachment. */
static struct ib_uverbs_mcast_entry *
uverbs_mcast_find_gid(struct ib_uqp_object *uqp, const u8 *gid, bool holds)
{
	struct ib_uverbs_mcast_entry *mcast;

	list_for_each_entry(mcast, &uqp->mcast_list, list)
		if (mcast->holds == holds &&
		    !memcmp(mcast->gid.raw, gid, sizeof(mcast->gid.raw)))
			return mcast;
	return NULL;
}

/*
 * Whether ib_core ignores the multicast LID for @qp: its port is not
 * InfiniBand or, while the QP has no port yet, the device has a port that
 * is not (ib_core cannot tell which one the QP will use).
 */
static bool uverbs_mcast_lid_ignored(struct ib_qp *qp)
{
	struct ib_device *ibdev = qp->device;
	struct ib_qp_init_attr init = {};
	struct ib_qp_attr attr = {};
	u32 port;

	if (!ib_query_qp(qp, &attr, IB_QP_STATE | IB_QP_PORT, &init) &&
	    attr.qp_state >= IB_QPS_INIT)
		return rdma_port_get_link_layer(ibdev, attr.port_num) !=
		       IB_LINK_LAYER_INFINIBAND;

	rdma_for_each_port(ibdev, port)
		if (rdma_port_get_link_layer(ibdev, port) !=
		    IB_LINK_LAYER_INFINIBAND)
			return true;
	return false;
}

/* Adds the pair (@gid, @lid) to a QP that does not have it yet. */
static int uverbs_mcast_add(struct ib_qp *qp, struct ib_uqp_object *uqp,
			    const u8 *gid, u16 lid)
{
	struct ib_uverbs_mcast_entry *mcast;
	int ret = 0;

	mcast = kzalloc(sizeof(*mcast), GFP_KERNEL);
	if (!mcast)
		return -ENOMEM;
	memcpy(mcast->gid.raw, gid, sizeof(mcast->gid.raw));
	mcast->lid = lid;

	if (!uverbs_mcast_find_gid(uqp, gid, true) ||
	    !uverbs_mcast_lid_ignored(qp)) {
		ret = uverbs_mcast_driver(qp, &mcast->gid, lid, true);
		mcast->holds = !ret;
		mcast->driver_lid = lid;
	}
	if (ret)
		kfree(mcast);
	else
		list_add_tail(&mcast->list, &uqp->mcast_list);
	return ret;
}

/*
 * Removes @mcast; the entry goes even when the driver's detach fails, as
 * in 6.1.  An alias of the same GID, if any, takes the driver's attachment
 * over instead of detaching it.
 */
static int uverbs_mcast_remove(struct ib_qp *qp, struct ib_uqp_object *uqp,
			       struct ib_uverbs_mcast_entry *mcast)
{
	struct ib_uverbs_mcast_entry *alias;
	int ret = 0;

	list_del(&mcast->list);
	if (mcast->holds) {
		alias = uverbs_mcast_find_gid(uqp, mcast->gid.raw, false);
		if (alias) {
			alias->holds = true;
			alias->driver_lid = mcast->driver_lid;
		} else {
			ret = uverbs_mcast_driver(qp, &mcast->gid,
						  mcast->driver_lid, false);
		}
	}
	kfree(mcast);
	return ret;
}

/* ATTACH_MCAST and DETACH_MCAST: the same request, the same QP lookup. */
static int uverbs_mcast_cmd(struct uverbs_attr_bundle *attrs, bool attach)
{
	struct ovb_attach_mcast_req cmd;
	struct ib_uverbs_mcast_entry *mcast;
	struct ib_uqp_object *uqp;
	struct ib_qp *qp;
	int ret;

	BUILD_BUG_ON(sizeof(struct ovb_attach_mcast_req) !=
		     sizeof(struct ovb_detach_mcast_req));
	qp = uverbs_req_get_read(attrs, &cmd, sizeof(cmd), OVB_OBJECT_QP,
				 &cmd.qp_handle);
	if (IS_ERR(qp))
		return PTR_ERR(qp);

	uqp = qp->uobject;

	mutex_lock(&uqp->mcast_lock);
	mcast = uverbs_mcast_find(uqp, cmd.gid, cmd.mlid);
	if (attach)	/* a pair already attached: success, as in 6.1 */
		ret = mcast ? 0 : uverbs_mcast_add(qp, uqp, cmd.gid, cmd.mlid);
	else
		ret = mcast ? uverbs_mcast_remove(qp, uqp, mcast) : -EINVAL;
	mutex_unlock(&uqp->mcast_lock);
	rdma_lookup_put_uobject(&uqp->uevent.uobject, UVERBS_LOOKUP_READ);
	return ret;
}

static int uverbs_attach_mcast(struct uverbs_attr_bundle *attrs)
{
	return uverbs_mcast_cmd(attrs, true);
}

static int uverbs_detach_mcast(struct uverbs_attr_bundle *attrs)
{
	return uverbs_mcast_cmd(attrs, false);
}

/*
 * Drops every attachment of a QP that is going away (not by the user's
 * DESTROY_QP, which refuses while groups are attached).  No lock: the QP
 * uobject is already exclusively ours.
 */
void ib_uverbs_detach_umcast(struct ib_qp *qp, struct ib_uqp_object *uobj)
{
	struct ib_uverbs_mcast_entry *mcast, *tmp;

	list_for_each_entry_safe(mcast, tmp, &uobj->mcast_list, list) {
		if (mcast->holds)
			uverbs_mcast_driver(qp, &mcast->gid, mcast->driver_lid,
					    false);
		list_del(&mcast->list);
		kfree(mcast);
	}
}

/* Part of the QP object's chain (qp.c). */
const struct uapi_definition uverbs_def_qp_mcast[] = {
	DECLARE_UVERBS_OBJECT(OVB_OBJECT_QP),
	UVERBS_DECLARE_WRITE(OVB_CMD_ATTACH_MCAST, uverbs_attach_mcast,
			     UVERBS_IN(struct ovb_attach_mcast_req)),
	UAPI_DEF_METHOD_NEEDS_FN(attach_mcast),
	UAPI_DEF_METHOD_NEEDS_FN(detach_mcast),
	UVERBS_DECLARE_WRITE(OVB_CMD_DETACH_MCAST, uverbs_detach_mcast,
			     UVERBS_IN(struct ovb_detach_mcast_req)),
	UAPI_DEF_METHOD_NEEDS_FN(detach_mcast),
	{ }
};
