// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: a USNIC port, as usnic_verbs has its one port.  Loaded with
 * usnic=1 the device's node type is RDMA_NODE_USNIC_UDP (usnic's, which
 * ib_core calls the USNIC_UDP transport) and its first port, the
 * InfiniBand one otherwise, has core capability RDMA_CORE_PORT_USNIC
 * alone and an Ethernet link layer; port.c gives it usnic's attributes:
 * no LIDs, LMC 1, no port capability flags, one P_Key and one GID (the
 * driver's, from query_gid; usnic builds it from its MAC and IP).
 * ib_uverbs sees the node type nowhere: QUERY_DEVICE has no field for it
 * (user space reads it from sysfs).  usnic_verbs itself creates UD QPs
 * only (EOPNOTSUPP for other types) and has no AH verbs; the test HCA
 * keeps its own QPs and AHs, so that ib_uverbs' handling of the port by
 * every command can be seen.  opa=1 and bare=1 change the InfiniBand
 * port this one replaces: the module refuses them with usnic=1 (port.c).
 */
#include <linux/moduleparam.h>

#include "ovbtest.h"

static bool usnic;
module_param(usnic, bool, 0444);
MODULE_PARM_DESC(usnic, "node type USNIC_UDP, the first port a USNIC port");

bool ovbtest_is_usnic_port(u32 port)
{
	return usnic && port == OVBTEST_PORT_IB;
}

u8 ovbtest_node_type(void)
{
	return usnic ? RDMA_NODE_USNIC_UDP : RDMA_NODE_IB_CA;
}
