// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: multicast group attachment of UD QPs.
 *
 * Each QP uobject remembers the (GID, LID) pairs the user attached, so an
 * attach is idempotent, a detach of a group never attached fails before
 * the driver sees it, and teardown can detach what the user left behind
 * (the attachments are no uobjects: nothing else would).
 *
 * The driver sees one attachment per GID, however many LIDs the user
 * pairs it with: drivers key groups by GID alone (rxe counts a second
 * attach of a GID as none), while ib_core counts every successful
 * ib_attach_mcast() in qp->usecnt.  The in-tree 6.1 module passes each
 * (GID, LID) pair down, so the same GID under two LIDs leaves usecnt one
 * too high on rxe: the QP can never be destroyed, its file's close WARNs
 * and leaks it, and a later `rdma res show` oopses on the freed context.
 * Here the first pair of a GID attaches the driver and the last one to go
 * detaches it.
 */

#include <linux/slab.h>

#include "uverbs.h"

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

/* Whether another pair than @skip holds @gid (the driver's attachment). */
static bool uverbs_mcast_gid_held(struct ib_uqp_object *uqp, const u8 *gid,
				  const struct ib_uverbs_mcast_entry *skip)
{
	struct ib_uverbs_mcast_entry *mcast;

	list_for_each_entry(mcast, &uqp->mcast_list, list)
		if (mcast != skip &&
		    !memcmp(mcast->gid.raw, gid, sizeof(mcast->gid.raw)))
			return true;
	return false;
}

static int uverbs_attach_mcast(struct uverbs_attr_bundle *attrs)
{
	struct ovb_attach_mcast_req cmd;
	struct ib_uverbs_mcast_entry *mcast;
	struct ib_uqp_object *uqp;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	qp = uobj_get_obj_read(qp, UVERBS_OBJECT_QP, cmd.qp_handle, attrs);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	uqp = qp->uobject;

	mutex_lock(&uqp->mcast_lock);
	if (uverbs_mcast_find(uqp, cmd.gid, cmd.mlid))
		goto out;	/* already attached: success, as in 6.1 */

	mcast = kmalloc(sizeof(*mcast), GFP_KERNEL);
	if (!mcast) {
		ret = -ENOMEM;
		goto out;
	}
	mcast->lid = cmd.mlid;
	memcpy(mcast->gid.raw, cmd.gid, sizeof(mcast->gid.raw));

	if (!uverbs_mcast_gid_held(uqp, cmd.gid, NULL))
		ret = ib_attach_mcast(qp, &mcast->gid, cmd.mlid);
	if (ret)
		kfree(mcast);
	else
		list_add_tail(&mcast->list, &uqp->mcast_list);
out:
	mutex_unlock(&uqp->mcast_lock);
	rdma_lookup_put_uobject(&uqp->uevent.uobject, UVERBS_LOOKUP_READ);
	return ret;
}

/*
 * The entry goes even when the driver's detach fails, as in 6.1; the
 * driver is told only when no other LID keeps the GID attached.
 */
static int uverbs_detach_mcast(struct uverbs_attr_bundle *attrs)
{
	struct ovb_detach_mcast_req cmd;
	struct ib_uverbs_mcast_entry *mcast;
	struct ib_uqp_object *uqp;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	qp = uobj_get_obj_read(qp, UVERBS_OBJECT_QP, cmd.qp_handle, attrs);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	uqp = qp->uobject;

	mutex_lock(&uqp->mcast_lock);
	mcast = uverbs_mcast_find(uqp, cmd.gid, cmd.mlid);
	if (mcast) {
		list_del(&mcast->list);
		kfree(mcast);
		if (!uverbs_mcast_gid_held(uqp, cmd.gid, NULL))
			ret = ib_detach_mcast(qp, (union ib_gid *)cmd.gid,
					      cmd.mlid);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&uqp->mcast_lock);
	rdma_lookup_put_uobject(&uqp->uevent.uobject, UVERBS_LOOKUP_READ);
	return ret;
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
		if (!uverbs_mcast_gid_held(uobj, mcast->gid.raw, mcast))
			ib_detach_mcast(qp, &mcast->gid, mcast->lid);
		list_del(&mcast->list);
		kfree(mcast);
	}
}

/* Both also need destroy_qp: the QP object's own need. */
const struct uverbs_write_cmd uverbs_mcast_cmds[] = {
	UVERBS_WRITE(OVB_CMD_ATTACH_MCAST, uverbs_attach_mcast,
		     struct ovb_attach_mcast_req, struct uverbs_no_resp, 0,
		     UVERBS_NEEDS(attach_mcast), UVERBS_NEEDS(detach_mcast),
		     UVERBS_NEEDS(destroy_qp)),
	UVERBS_WRITE(OVB_CMD_DETACH_MCAST, uverbs_detach_mcast,
		     struct ovb_detach_mcast_req, struct uverbs_no_resp, 0,
		     UVERBS_NEEDS(detach_mcast), UVERBS_NEEDS(destroy_qp)),
	{ }
};
