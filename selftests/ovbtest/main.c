// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: a test-only RDMA device without hardware (see ovbtest.h).
 *
 * Loading the module registers one device, ovbtest0, with an InfiniBand
 * and a RoCE port (port.c) and the RoCE port's netdev (netdev.c); unloading it
 * unregisters the device, which is a hot-unplug for everybody who has it
 * open: ib_uverbs disassociates their contexts (DEVICE_FATAL, EIO, zapped
 * mappings) and the module goes without waiting for them.  The device has
 * no kernel verbs (its QPs are user QPs without a data path), so only
 * ib_uverbs and RDMA netlink use it.
 * Never load it on a production node.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "ovbtest.h"

#define OVBTEST_NODE_GUID	0x02000000000fe571ULL

static struct ovbtest_dev *ovbtest_device;
/*
 * The device's DMA device: dma-buf attachments need one (ib_core's virtual
 * DMA, as rxe has, leaves ib_device::dma_device NULL and
 * dma_buf_dynamic_attach() refuses a NULL device).  A platform device
 * with a 64-bit mask, so direct mapping without bounce buffers; or, with
 * dma_pci=1, QEMU's edu PCI device, behind the guest's IOMMU when it has
 * one (dma_map.c).
 */
static struct platform_device *ovbtest_dma_pdev;

static int ovbtest_query_device(struct ib_device *ibdev,
				struct ib_device_attr *attr,
				struct ib_udata *udata)
{
	struct ovbtest_udata_ex_cmd cmd;
	int ret;

	/* EX_QUERY_DEVICE's driver udata (udata_ex.c); none at registration */
	ret = ovbtest_udata_ex_in(udata, &cmd, -EINVAL);
	if (ret)
		return ret;

	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = 1;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = U32_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = 0xffffff;
	attr->vendor_part_id = 1;
	attr->hw_ver = 1;
	attr->max_pd = 1024;
	attr->max_mr = 65536;
	attr->max_cq = 1024;
	attr->max_cqe = 4096;
	attr->max_pkeys = 1;
	attr->max_qp = OVBTEST_MAX_QP;
	attr->max_qp_wr = OVBTEST_MAX_QP_WR;
	attr->max_send_sge = OVBTEST_MAX_SGE;
	attr->max_recv_sge = OVBTEST_MAX_SGE;
	attr->max_mcast_grp = OVBTEST_MAX_MCAST_GRP;
	attr->max_mcast_qp_attach = OVBTEST_MAX_MCAST_QP_ATTACH;
	attr->max_total_mcast_qp_attach = OVBTEST_MAX_MCAST_GRP *
					  OVBTEST_MAX_MCAST_QP_ATTACH;
	/* cq_mod.c */
	attr->cq_caps.max_cq_moderation_count = OVBTEST_MAX_CQ_MOD_COUNT;
	attr->cq_caps.max_cq_moderation_period = OVBTEST_MAX_CQ_MOD_PERIOD;
	/* xrc.c */
	attr->device_cap_flags |= IB_DEVICE_XRC;
	attr->max_srq = 1024;
	attr->max_srq_wr = OVBTEST_MAX_SRQ_WR;
	attr->max_srq_sge = OVBTEST_MAX_SGE;
	/* wq.c */
	attr->max_wq_type_rq = 256;
	attr->rss_caps.max_rwq_indirection_tables = 64;
	attr->rss_caps.max_rwq_indirection_table_size =
		1 << OVBTEST_MAX_LOG_RWQ_TBL;
	attr->rss_caps.supported_qpts = BIT(IB_QPT_RAW_PACKET);
#if OVBTEST_K612
	/*
	 * 6.12's placement types and atomic write: global visibility, not
	 * persistence, so ib_check_mr_access() takes IB_ACCESS_FLUSH_GLOBAL
	 * and refuses IB_ACCESS_FLUSH_PERSISTENT (EOPNOTSUPP).
	 */
	attr->device_cap_flags |= IB_DEVICE_FLUSH_GLOBAL |
				  IB_DEVICE_ATOMIC_WRITE;
#endif
	/* odp.c: with odp=1, ODP caps (kernel's and user space's) */
	ovbtest_odp_caps(attr, !!udata);
	return ovbtest_udata_ex_out(udata, &cmd, OVBTEST_UDATA_EX_QUERY_DEVICE);
}

static const struct ib_device_ops ovbtest_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = OVBTEST_UVERBS_ABI_VERSION,

	.query_device = ovbtest_query_device,
};

/*
 * The device's ops and fields before registration, @ports of them (the
 * SMI sub-device of subdev.c has the InfiniBand port only).
 */
void ovbtest_dev_init(struct ovbtest_dev *dev, unsigned int ports)
{
	ib_set_device_ops(&dev->ibdev, &ovbtest_dev_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_port_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_ah_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_verbs_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_cq_mod_ops);
	ovbtest_binding_init(&dev->ibdev);
	ib_set_device_ops(&dev->ibdev, &ovbtest_mr_rereg_ops);
	/* before dm_ops: with odp=1 odp.c's advise_mr, not dm.c's stub */
	ovbtest_odp_dev_init(dev);
	ib_set_device_ops(&dev->ibdev, &ovbtest_mmap_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_dm_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_qp_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_post_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_mcast_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_xrc_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_wq_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_flow_ops);
	ib_set_device_ops(&dev->ibdev, &ovbtest_ctx_ops);
	dev->ibdev.node_type = ovbtest_node_type();
	dev->ibdev.node_guid = cpu_to_be64(OVBTEST_NODE_GUID);
	dev->ibdev.phys_port_cnt = ports;
	dev->ibdev.num_comp_vectors = 1;
	dev->ibdev.driver_def = ovbtest_uapi_defs;
	/*
	 * The write() commands of the data path are the driver's to offer
	 * (ib_core's default mask leaves them out), as rdmavt and rxe do:
	 * CQs can be polled (empty) and armed, posts are recorded (post.c).
	 */
	dev->ibdev.uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POLL_CQ) |
				      BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ) |
				      BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				      BIT_ULL(IB_USER_VERBS_CMD_POST_RECV) |
				      BIT_ULL(IB_USER_VERBS_CMD_POST_SRQ_RECV);
	strscpy(dev->ibdev.node_desc, "openverbs test HCA",
		sizeof(dev->ibdev.node_desc));
	atomic_set(&dev->next_key, 1);
	ida_init(&dev->qpn_ida);
	ovbtest_mcast_init(dev);
	spin_lock_init(&dev->stuck_lock);
	INIT_LIST_HEAD(&dev->stuck);
	ovbtest_irq_src_init(&dev->irq, OVBTEST_IRQ_DEVICE, &dev->ibdev);
	atomic64_set(&dev->irq_obj_raised, 0);
	ovbtest_fatal_init(dev);
}

/*
 * The IB device goes, with whoever still uses it (disassociated before
 * this returns): at rmmod, or with dma_pci when the edu PCI device it
 * maps through goes (dma_map.c).  Once; later calls return at once.  The
 * port "interrupt" and the fatal-error timer (fatal.c) first:
 * ib_dispatch_event() queues work that
 * unregistration flushes, none may be queued after (a driver quiesces its
 * event queue before it unregisters).
 */
void ovbtest_unplug(struct ovbtest_dev *dev)
{
	static DEFINE_MUTEX(lock);
	static bool gone;

	mutex_lock(&lock);
	if (!gone) {
		ovbtest_irq_src_stop(&dev->irq);
		ovbtest_fatal_shutdown(dev);
		ib_unregister_device(&dev->ibdev);
		gone = true;
	}
	mutex_unlock(&lock);
}

static int __init ovbtest_init(void)
{
	struct ovbtest_dev *dev;
	u32 ports;
	int ret;

	ret = ovbtest_port_params_check();
	if (!ret)
		ret = ovbtest_port_count(&ports);
	if (ret)
		return ret;
	ret = ovbtest_irq_events_init();
	if (ret)
		return ret;
	dev = ib_alloc_device(ovbtest_dev, ibdev);
	if (!dev) {
		ovbtest_irq_events_exit();
		return -ENOMEM;
	}
	ovbtest_dev_init(dev, ports);
	ib_set_device_ops(&dev->ibdev, &ovbtest_subdev_ops);

	ovbtest_mmap_init();
	ovbtest_dma_pdev = platform_device_register_simple(OVBTEST_DEVICE_PREFIX,
							   PLATFORM_DEVID_NONE,
							   NULL, 0);
	if (IS_ERR(ovbtest_dma_pdev)) {
		ret = PTR_ERR(ovbtest_dma_pdev);
		goto err_dealloc;
	}
	ret = dma_set_mask_and_coherent(&ovbtest_dma_pdev->dev,
					DMA_BIT_MASK(64));
	if (!ret)
		ret = ovbtest_dma_set_max_seg_size(&ovbtest_dma_pdev->dev,
						   UINT_MAX);
	if (ret)
		goto err_pdev;
	ret = ovbtest_dma_pci_init();
	if (ret)
		goto err_pdev;
	/* the RoCE port's netdev (netdev.c), bound before registration */
	ret = ovbtest_netdev_add(dev);
	if (ret)
		goto err_pci;
	ret = ib_device_set_netdev(&dev->ibdev, dev->ndev, OVBTEST_PORT_ROCE);
	if (!ret)
		ret = ovbtest_dma_register(dev, OVBTEST_DEVICE_PREFIX "%d",
					   &ovbtest_dma_pdev->dev);
	if (ret)
		goto err_netdev;
	ovbtest_device = dev;
	return 0;

err_netdev:
	ib_device_set_netdev(&dev->ibdev, NULL, OVBTEST_PORT_ROCE);
	ovbtest_netdev_remove(dev);
err_pci:
	ovbtest_dma_pci_exit();
err_pdev:
	platform_device_unregister(ovbtest_dma_pdev);
err_dealloc:
	ovbtest_mmap_exit();
	ida_destroy(&dev->qpn_ida);
	ib_dealloc_device(&dev->ibdev);
	ovbtest_irq_events_exit();
	return ret;
}

static void __exit ovbtest_exit(void)
{
	struct ovbtest_dev *dev = ovbtest_device;

	/* with dma_pci, the edu device's remove unplugs it (dma_map.c) */
	ovbtest_dma_pci_exit();
	ovbtest_unplug(dev);
	WARN_ON(atomic_read(&dev->live.contexts) ||
		atomic_read(&dev->live.pds) || atomic_read(&dev->live.cqs) ||
		atomic_read(&dev->live.mrs) || atomic_read(&dev->live.chans) ||
		atomic_read(&dev->live.dms) || atomic_read(&dev->live.counters) ||
		atomic_read(&dev->live.qps) ||
		atomic_read(&dev->live.mcast_groups) ||
		atomic_read(&dev->live.mcast_attached) ||
		atomic_read(&dev->live.xrcds) || atomic_read(&dev->live.srqs) ||
		atomic_read(&dev->live.wqs) ||
		atomic_read(&dev->live.rwq_ind_tbls) ||
		atomic_read(&dev->live.flows) || atomic_read(&dev->live.ahs));
	/* Refused objects ib_uverbs gave up on are expected: not counted. */
	ovbtest_stuck_free_all(dev);
	ovbtest_drv_flow_report();
	ovbtest_udata_report();
	ovbtest_mmap_exit();
	ida_destroy(&dev->qpn_ida);
	ovbtest_netdev_remove(dev);
	ib_dealloc_device(&dev->ibdev);
	platform_device_unregister(ovbtest_dma_pdev);
	ovbtest_irq_events_exit();
}

module_init(ovbtest_init);
module_exit(ovbtest_exit);

MODULE_DESCRIPTION("openverbs test HCA: no hardware, driver-defined uverbs methods");
MODULE_LICENSE("GPL");
