// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: the two ports, as a multi-port device with one port of each
 * link layer has them (mlx4 with an IB and an Ethernet port; mlx5,
 * irdma, qedr for the Ethernet one):
 *  1. InfiniBand: LID 1, SM LID 1 (parameters ib_lid, ib_sm_lid), one
 *     GID (the node GUID's link-local one, from query_gid), no MADs (no
 *     SMI, SA or CM to serve).  Loaded with opa=1 it is an OPA port
 *     (hfi1: RDMA_CORE_CAP_OPA_AH, 32-bit LIDs; opa.c), with bare=1 a
 *     port without capability flags or link layer (efa).
 *     Loaded with usnic=1 it is a USNIC port instead (usnic.c).
 *  2. Ethernet (RoCE v1 and v2): no LIDs, a GID table ib_core's cache
 *     fills from the bound netdev (netdev.c); the port is active while
 *     the netdev runs.
 *  3 and on: raw_ports=N raw-Ethernet-only ports (rawport.c).
 * All ports have one P_Key (0xffff).
 */
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <rdma/ib_mad.h>

#include "ovbtest.h"

/*
 * The InfiniBand port's active speed (enum ib_speed), settable for tests
 * of QUERY_PORT: 6.12 added IB_SPEED_XDR (256), beyond the u8 of the
 * legacy response (which ib_uverbs caps at IB_SPEED_NDR), and reports
 * the whole value in the ioctl response's active_speed_ex.
 */
static ushort ib_speed = IB_SPEED_SDR;
module_param(ib_speed, ushort, 0644);
MODULE_PARM_DESC(ib_speed, "active speed of the InfiniBand port (enum ib_speed)");

/*
 * hfi1's kind of port (opa.c): the InfiniBand port with
 * RDMA_CORE_CAP_OPA_AH, fixed at load; its LIDs settable, 32 bits when
 * it is OPA (an IB port reports their low 16 bits: ib_uverbs WARNs on more).
 */
static bool opa;
module_param(opa, bool, 0444);
MODULE_PARM_DESC(opa, "the InfiniBand port is an OPA port (32-bit LIDs)");
/*
 * efa's kind of port: no core capability flags at all (no IB, RoCE or
 * iWARP protocol, no MADs, no CM) and an unspecified link layer, fixed
 * at load; it keeps the IB port's one GID (from query_gid) and LIDs.
 */
static bool bare;
module_param(bare, bool, 0444);
MODULE_PARM_DESC(bare, "the InfiniBand port has no capability flags and an unspecified link layer");
static uint ib_lid = 1;
module_param(ib_lid, uint, 0644);
MODULE_PARM_DESC(ib_lid, "LID of the InfiniBand port");
static uint ib_sm_lid = 1;
module_param(ib_sm_lid, uint, 0644);
MODULE_PARM_DESC(ib_sm_lid, "SM LID of the InfiniBand port");

struct ovbtest_port_desc {
	enum rdma_link_layer link_layer;
	u32 core_cap_flags;
	int gid_tbl_len;
	/* LIDs and speed from the parameters ib_lid, ib_sm_lid, ib_speed */
	bool ib_params;
	u32 lid;
	u32 sm_lid;
	u8 lmc;
	u32 port_cap_flags;
	enum ib_mtu mtu;
};

static const struct ovbtest_port_desc ovbtest_ports[OVBTEST_NUM_PORTS] = {
	[OVBTEST_PORT_IB - 1] = {
		.link_layer = IB_LINK_LAYER_INFINIBAND,
		.core_cap_flags = RDMA_CORE_CAP_PROT_IB,
		.gid_tbl_len = 1,
		.ib_params = true,
		.mtu = IB_MTU_4096,
	},
	[OVBTEST_PORT_ROCE - 1] = {
		.link_layer = IB_LINK_LAYER_ETHERNET,
		.core_cap_flags = RDMA_CORE_CAP_PROT_ROCE |
				  RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP |
				  RDMA_CORE_CAP_ETH_AH,
		.gid_tbl_len = OVBTEST_ROCE_GID_TBL_LEN,
		.port_cap_flags = IB_PORT_CM_SUP,
		.mtu = IB_MTU_1024,
	},
};

/* usnic's one port (usnic.c), as usnic_ib_query_port() reports it */
static const struct ovbtest_port_desc ovbtest_usnic_port = {
	.link_layer = IB_LINK_LAYER_ETHERNET,
	.core_cap_flags = RDMA_CORE_PORT_USNIC,
	.gid_tbl_len = 1,
	.lmc = 1,
	.mtu = IB_MTU_4096,
};

/* a raw-Ethernet-only port (rawport.c), as mlx5 reports a representor's */
static const struct ovbtest_port_desc ovbtest_raw_port = {
	.link_layer = IB_LINK_LAYER_ETHERNET,
	.core_cap_flags = RDMA_CORE_PORT_RAW_PACKET,
	.gid_tbl_len = 0,
	.mtu = IB_MTU_4096,
};

static const struct ovbtest_port_desc *ovbtest_port(u32 port)
{
	if (ovbtest_is_raw_port(port))
		return &ovbtest_raw_port;
	if (ovbtest_is_usnic_port(port))
		return &ovbtest_usnic_port;
	return &ovbtest_ports[port - 1];
}

/* The InfiniBand port as it is unless usnic=1: opa=1 and bare=1 apply. */
static bool ovbtest_ib_port(u32 port)
{
	return ovbtest_port(port) == &ovbtest_ports[OVBTEST_PORT_IB - 1];
}

/* Only the RoCE port has a netdev; the others are always up. */
static bool ovbtest_port_up(struct ovbtest_dev *dev, u32 port)
{
	if (port != OVBTEST_PORT_ROCE)
		return true;
	return netif_running(dev->ndev) && netif_carrier_ok(dev->ndev);
}

static int ovbtest_query_port(struct ib_device *ibdev, u32 port,
			      struct ib_port_attr *attr)
{
	const struct ovbtest_port_desc *desc = ovbtest_port(port);
	bool up = ovbtest_port_up(to_odev(ibdev), port);

	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = desc->mtu;
	attr->active_mtu = desc->mtu;
	attr->gid_tbl_len = desc->gid_tbl_len;
	attr->pkey_tbl_len = 1;
	attr->lid = desc->ib_params ? READ_ONCE(ib_lid) : desc->lid;
	attr->sm_lid = desc->ib_params ? READ_ONCE(ib_sm_lid) : desc->sm_lid;
	attr->lmc = desc->lmc;
	/* 32-bit LIDs on an OPA port only, as hfi1 keeps them */
	if (!rdma_cap_opa_ah(ibdev, port)) {
		attr->lid = (u16)attr->lid;
		attr->sm_lid = (u16)attr->sm_lid;
	}
	attr->port_cap_flags = desc->port_cap_flags;
	attr->max_msg_sz = OVBTEST_COPY_MAX;
	attr->active_width = IB_WIDTH_1X;
	attr->active_speed = desc->ib_params ? READ_ONCE(ib_speed) :
					       IB_SPEED_SDR;
	return 0;
}

static int ovbtest_get_port_immutable(struct ib_device *ibdev, u32 port,
				      struct ib_port_immutable *immutable)
{
	const struct ovbtest_port_desc *desc = ovbtest_port(port);

	immutable->pkey_tbl_len = 1;
	immutable->gid_tbl_len = desc->gid_tbl_len;
	immutable->core_cap_flags = desc->core_cap_flags;
	if (ovbtest_ib_port(port) && opa)
		immutable->core_cap_flags |= RDMA_CORE_CAP_OPA_AH;
	if (ovbtest_ib_port(port) && bare)
		immutable->core_cap_flags = 0;
	immutable->max_mad_size = 0;
	return 0;
}

static enum rdma_link_layer ovbtest_get_link_layer(struct ib_device *ibdev,
						   u32 port)
{
	if (ovbtest_ib_port(port) && bare)
		return IB_LINK_LAYER_UNSPECIFIED;
	return ovbtest_port(port)->link_layer;
}

static int ovbtest_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			      u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = 0xffff;
	return 0;
}

/*
 * The IB port's only GID: the link-local one of the node GUID; the USNIC
 * port's too.  (ib_core asks only for ports whose table it does not keep
 * itself: not RoCE; a raw port has no table.)
 */
static int ovbtest_query_gid(struct ib_device *ibdev, u32 port, int index,
			     union ib_gid *gid)
{
	if (port != OVBTEST_PORT_IB || index)
		return -EINVAL;
	gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	gid->global.interface_id = ibdev->node_guid;
	return 0;
}

/*
 * The parameters that change port 1 exclude each other where one would
 * be ignored: opa=1 and bare=1 apply to the InfiniBand port, which
 * usnic=1 replaces.  Refused at load (EINVAL), as an unknown value is.
 */
int ovbtest_port_params_check(void)
{
	if (ovbtest_is_usnic_port(OVBTEST_PORT_IB) && (opa || bare))
		return -EINVAL;
	return 0;
}

const struct ib_device_ops ovbtest_port_ops = {
	.query_port = ovbtest_query_port,
	.get_port_immutable = ovbtest_get_port_immutable,
	.get_link_layer = ovbtest_get_link_layer,
	.query_pkey = ovbtest_query_pkey,
	.query_gid = ovbtest_query_gid,
};
