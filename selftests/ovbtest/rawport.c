// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: raw-Ethernet-only ports, as mlx5 has them: a switchdev
 * representor's port, or an Ethernet port without RoCE, offers raw packet
 * QPs and flow steering only.  Loaded with raw_ports=N the device has N
 * such ports after its RoCE port (OVBTEST_PORT_RAW_FIRST on; port.c has
 * their attributes): core capability RDMA_CORE_PORT_RAW_PACKET alone, an
 * Ethernet link layer, one P_Key and no GID table (mlx5 reports a GID
 * table length of 0 for a representor), no LIDs, active.  mlx5 has one
 * port per vport of its eswitch, so more than 255 of them can be asked
 * for.  With raw ports the driver also creates RAW_PACKET QPs without an
 * RSS table (qp.c), as mlx5 does.  No netdev is bound to them (mlx5 binds
 * each representor's): ib_core keeps no GID table of theirs either way,
 * and their state stays active.
 */
#include <linux/moduleparam.h>

#include "ovbtest.h"

static uint raw_ports;
module_param(raw_ports, uint, 0444);
MODULE_PARM_DESC(raw_ports, "raw-Ethernet-only ports after the RoCE port");

/* The device's ports: raw_ports, checked at load, after the two. */
int ovbtest_port_count(u32 *count)
{
	if (raw_ports > OVBTEST_MAX_RAW_PORTS)
		return -EINVAL;
	*count = OVBTEST_NUM_PORTS + raw_ports;
	return 0;
}

bool ovbtest_is_raw_port(u32 port)
{
	return port >= OVBTEST_PORT_RAW_FIRST;
}

/* Whether plain RAW_PACKET QPs are created (a device with raw ports). */
bool ovbtest_raw_qps(void)
{
	return raw_ports;
}
