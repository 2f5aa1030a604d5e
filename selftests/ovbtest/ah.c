// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: address handles, and the address vectors the driver is given
 * (by CREATE_AH, and by MODIFY_QP with IB_QP_AV: qp.c).  Each is recorded
 * as ib_core handed it over - the type ib_core chose for the port, the
 * GRH with the source GID's entry, the destination MAC ib_core resolved
 * on the RoCE port - returned in CREATE_AH's driver response (as mlx5
 * returns the MAC it will use) and kept as the last AV for
 * OVBTEST_METHOD_DEVICE_LAST_AV.  An AH on the IB port needs a LID
 * unless it has a GRH; one on the RoCE port always has a GRH (ib_core
 * refuses it otherwise) and a MAC.
 */
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>

#define UVERBS_MODULE_NAME ovbtest_ah
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

/* a spinlock: a kernel caller may create an AH where it cannot sleep */
static DEFINE_SPINLOCK(ovbtest_av_lock);
static struct ovbtest_av_info ovbtest_last_av;	/* ovbtest_av_lock */

static void ovbtest_av_fill(struct ovbtest_av_info *av,
			    const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh = &attr->grh;
	struct net_device *ndev;

	av->type = attr->type;
	av->port_num = attr->port_num;
	av->ah_flags = attr->ah_flags;
	av->sl = attr->sl;
	av->static_rate = attr->static_rate;
	av->gid_type = 0xff;
	if (attr->type == RDMA_AH_ATTR_TYPE_ROCE)
		memcpy(av->dmac, attr->roce.dmac, sizeof(av->dmac));
	else
		av->dlid = rdma_ah_get_dlid(attr);
	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE)
		av->dlid32 = ovbtest_opa_dlid(attr);
	if (!(attr->ah_flags & IB_AH_GRH))
		return;
	memcpy(av->dgid, grh->dgid.raw, sizeof(av->dgid));
	av->flow_label = grh->flow_label;
	av->sgid_index = grh->sgid_index;
	av->hop_limit = grh->hop_limit;
	av->traffic_class = grh->traffic_class;
	if (!grh->sgid_attr)
		return;
	av->gid_type = grh->sgid_attr->gid_type;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(grh->sgid_attr);
	if (!IS_ERR(ndev))
		av->ndev_ifindex = ndev->ifindex;
	rcu_read_unlock();
}

/* Records @attr as the last AV; @av gets the record. */
void ovbtest_av_record(const struct rdma_ah_attr *attr, u8 source,
		       u32 qp_num, struct ovbtest_av_info *av)
{
	memset(av, 0, sizeof(*av));
	ovbtest_av_fill(av, attr);
	av->source = source;
	av->qp_num = qp_num;
	spin_lock(&ovbtest_av_lock);
	av->seq = ++ovbtest_last_av.seq;
	ovbtest_last_av = *av;
	spin_unlock(&ovbtest_av_lock);
}

static int ovbtest_create_ah(struct ib_ah *ibah,
			     struct rdma_ah_init_attr *init,
			     struct ib_udata *udata)
{
	const struct rdma_ah_attr *attr = init->ah_attr;
	struct ovbtest_av_info av;
	int ret;

	/* as rdmavt: an IB or OPA AH without a GRH needs a destination LID */
	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE &&
	    !(attr->ah_flags & IB_AH_GRH) && !rdma_ah_get_dlid(attr))
		return -EINVAL;
	ovbtest_av_record(attr, OVBTEST_AV_CREATE_AH, 0, &av);
	if (udata) {
		ret = ib_copy_to_udata(udata, &av,
				       min(udata->outlen, sizeof(av)));
		if (ret)
			return ret;
	}
	WRITE_ONCE(to_oah(ibah)->live, true);
	atomic_inc(&to_odev(ibah->device)->live.ahs);
	return 0;
}

static int ovbtest_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	/* ib_core frees it next: a post that still sees it sees this */
	WRITE_ONCE(to_oah(ibah)->live, false);
	atomic_dec(&to_odev(ibah->device)->live.ahs);
	return 0;
}

const struct ib_device_ops ovbtest_ah_ops = {
	.create_ah = ovbtest_create_ah,
	.create_user_ah = ovbtest_create_ah,
	.destroy_ah = ovbtest_destroy_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, ovbtest_ah, ibah),
};

static int UVERBS_HANDLER(OVBTEST_METHOD_DEVICE_LAST_AV)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_av_info av;

	spin_lock(&ovbtest_av_lock);
	av = ovbtest_last_av;
	spin_unlock(&ovbtest_av_lock);
	return uverbs_copy_to_struct_or_zero(attrs,
					     OVBTEST_ATTR_DEVICE_LAST_AV_INFO,
					     &av, sizeof(av));
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_DEVICE_LAST_AV,
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DEVICE_LAST_AV_INFO,
						UVERBS_ATTR_TYPE(struct ovbtest_av_info),
						UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_device_av, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(OVBTEST_METHOD_DEVICE_LAST_AV));

const struct uapi_definition ovbtest_ah_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &ovbtest_device_av),
	{},
};
