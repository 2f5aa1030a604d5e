// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: the Ethernet netdev behind the RoCE port (port 2), as an mlx5
 * or mlx4 Ethernet port has its mlx5e/mlx4_en interface.  The guest has
 * no NIC of its own to spare (rxe may use it), so the module makes one:
 * ovbeth<N>, an Ethernet device with a fixed locally administered MAC
 * that drops what it is given to send.  Bound to the port with
 * ib_device_set_netdev() before registration, it is what ib_core's GID
 * cache builds the port's table from: the two default GIDs (RoCE v1 and
 * v2) of its MAC at once, one per IP address once it is up and has some.
 * It stays down unless someone brings it up; the port's state follows it.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>

#include "ovbtest.h"

static const u8 ovbtest_mac[ETH_ALEN] = OVBTEST_ROCE_MAC;

static netdev_tx_t ovbtest_netdev_xmit(struct sk_buff *skb,
				       struct net_device *ndev)
{
	ndev->stats.tx_dropped++;
	dev_kfree_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops ovbtest_netdev_ops = {
	.ndo_start_xmit = ovbtest_netdev_xmit,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static void ovbtest_netdev_setup(struct net_device *ndev)
{
	ether_setup(ndev);
	ndev->netdev_ops = &ovbtest_netdev_ops;
}

/* Registers the netdev; 0 or -errno. */
int ovbtest_netdev_add(struct ovbtest_dev *dev)
{
	struct net_device *ndev;
	int ret;

	ndev = alloc_netdev(0, "ovbeth%d", NET_NAME_ENUM, ovbtest_netdev_setup);
	if (!ndev)
		return -ENOMEM;
	eth_hw_addr_set(ndev, ovbtest_mac);
	ret = register_netdev(ndev);
	if (ret) {
		free_netdev(ndev);
		return ret;
	}
	dev->ndev = ndev;
	return 0;
}

/* After ib_unregister_device(), which let go of it. */
void ovbtest_netdev_remove(struct ovbtest_dev *dev)
{
	unregister_netdev(dev->ndev);
	free_netdev(dev->ndev);
	dev->ndev = NULL;
}
