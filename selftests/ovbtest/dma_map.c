// SPDX-License-Identifier: GPL-2.0
/*
 * What ib_uverbs' umem of a user-memory MR holds for the device's DMA
 * device (OVBTEST_METHOD_MR_DMA_MAP): the mapped scatterlist, the best
 * page size for a bitmap and the blocks of that size, read the way a
 * hardware driver reads them to fill its translation tables (mlx5's
 * mkey, efa's page list, irdma's PBLEs), and what the IOMMU in front of
 * the DMA device makes of those DMA addresses (OVBTEST_METHOD_MR_DMA_TRANSLATE).
 *
 * dma_pci=1: the DMA device is QEMU's edu PCI device (1234:11e8, which no
 * in-tree driver claims), bound by a driver of ours; qemu/run --iommu puts
 * it behind the guest's IOMMU, so a umem's DMA addresses are IOVAs, the
 * IOMMU merges the pages of a umem into one IOVA range, and releasing the
 * umem unmaps it.
 */
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>

#define UVERBS_MODULE_NAME ovbtest_dma_map
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

/* At most this many entries of each list are reported. */
#define OVBTEST_DMA_MAP_MAX	4096

/* Each mapped entry of @umem into @segs, up to @room; the count mapped. */
static u32 ovbtest_dma_segs(struct ib_umem *umem, struct ovbtest_dma_seg *segs,
			    size_t room)
{
	struct scatterlist *sg;
	u32 i, n = 0;

	for_each_sgtable_dma_sg(&umem->sgt_append.sgt, sg, i) {
		if (n < room) {
			segs[n].addr = sg_dma_address(sg);
			segs[n].len = sg_dma_len(sg);
		}
		n++;
	}
	return n;
}

/* The DMA address of each @pgsz block of @umem into @blocks, up to @room. */
static void ovbtest_dma_blocks(struct ib_umem *umem, unsigned long pgsz,
			       u64 *blocks, size_t room)
{
	struct ib_block_iter biter;
	size_t n = 0;

	rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
		if (n == room)
			break;
		blocks[n++] = rdma_block_iter_dma_address(&biter);
	}
}

/* An optional PTR_OUT array attribute: room for entries of @size, at most max. */
static size_t ovbtest_out_room(struct uverbs_attr_bundle *attrs, u16 idx,
			       size_t size)
{
	if (!uverbs_attr_is_valid(attrs, idx))
		return 0;
	return min_t(size_t, uverbs_attr_get_len(attrs, idx) / size,
		     OVBTEST_DMA_MAP_MAX);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_MR_DMA_MAP)(struct uverbs_attr_bundle *attrs)
{
	struct ib_mr *ibmr = uverbs_attr_get_obj(attrs,
						 OVBTEST_ATTR_MR_DMA_MAP_HANDLE);
	struct ib_umem *umem = to_omr(ibmr)->umem;
	struct ovbtest_mr_dma_map map = {};
	struct ovbtest_dma_seg *segs = NULL;
	size_t seg_room, block_room;
	u64 *blocks = NULL, pgsz_bitmap;
	int ret;

	/* physical addresses, as pagemap's frame numbers, are the admin's */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!umem || umem->is_dmabuf || umem->is_odp)
		return -EINVAL;
	ret = uverbs_copy_from(&pgsz_bitmap, attrs,
			       OVBTEST_ATTR_MR_DMA_MAP_PGSZ);
	if (ret)
		return ret;
	/* as every driver's: some size of at least a page */
	if (!(pgsz_bitmap & GENMASK_ULL(63, PAGE_SHIFT)))
		return -EINVAL;
	map.address = umem->address;
	map.length = umem->length;
	map.num_pages = ib_umem_num_pages(umem);
	/* sets the umem's iova, which ib_umem_num_dma_blocks() reads */
	map.best_pgsz = ib_umem_find_best_pgsz(umem, pgsz_bitmap, ibmr->iova);
	map.iova = umem->iova;
	if (map.best_pgsz)
		map.num_blocks = ib_umem_num_dma_blocks(umem, map.best_pgsz);

	seg_room = ovbtest_out_room(attrs, OVBTEST_ATTR_MR_DMA_MAP_SEGS,
				    sizeof(*segs));
	block_room = map.best_pgsz ?
		ovbtest_out_room(attrs, OVBTEST_ATTR_MR_DMA_MAP_BLOCKS,
				 sizeof(*blocks)) : 0;
	segs = kvcalloc(max_t(size_t, seg_room, 1), sizeof(*segs), GFP_KERNEL);
	blocks = kvcalloc(max_t(size_t, block_room, 1), sizeof(*blocks),
			  GFP_KERNEL);
	ret = -ENOMEM;
	if (!segs || !blocks)
		goto out;
	map.num_segs = ovbtest_dma_segs(umem, segs, seg_room);
	map.num_cpu_segs = umem->sgt_append.sgt.orig_nents;
	if (block_room)
		ovbtest_dma_blocks(umem, map.best_pgsz, blocks, block_room);

	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MR_DMA_MAP_OUT, &map,
			     sizeof(map));
	if (!ret && seg_room)
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MR_DMA_MAP_SEGS, segs,
				     min_t(size_t, seg_room, map.num_segs) *
				     sizeof(*segs));
	if (!ret && block_room)
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MR_DMA_MAP_BLOCKS,
				     blocks,
				     min_t(u64, block_room, map.num_blocks) *
				     sizeof(*blocks));
out:
	kvfree(blocks);
	kvfree(segs);
	return ret;
}

static bool dma_pci;
module_param(dma_pci, bool, 0444);
MODULE_PARM_DESC(dma_pci,
		 "DMA device: QEMU's edu PCI device (1234:11e8) instead of a platform device");

/*
 * The edu device while ovbtest's PCI driver is bound to it, and the test
 * HCA registered on it (NULL when none, or once the device went); both
 * under ovbtest_pci_lock.  An HCA's IB device lives no longer than its
 * PCI function: the function's remove (rmmod, or the device's removal:
 * sysfs "remove", hot-unplug) unregisters it, so nothing maps through a
 * device that is gone.
 */
static DEFINE_MUTEX(ovbtest_pci_lock);
static struct pci_dev *ovbtest_pci_dev;
static struct ovbtest_dev *ovbtest_pci_user;

static int ovbtest_pci_probe(struct pci_dev *pdev,
			     const struct pci_device_id *id)
{
	int ret;

	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (!ret)	/* as the platform device: one segment can be any size */
		ret = ovbtest_dma_set_max_seg_size(&pdev->dev, UINT_MAX);
	if (ret)
		return ret;
	mutex_lock(&ovbtest_pci_lock);
	if (ovbtest_pci_dev)	/* one is enough: not a failure to report */
		ret = -ENODEV;
	else
		ovbtest_pci_dev = pdev;
	mutex_unlock(&ovbtest_pci_lock);
	return ret;
}

static void ovbtest_pci_remove(struct pci_dev *pdev)
{
	mutex_lock(&ovbtest_pci_lock);
	if (pdev == ovbtest_pci_dev) {
		if (ovbtest_pci_user)
			ovbtest_unplug(ovbtest_pci_user);
		ovbtest_pci_user = NULL;
		ovbtest_pci_dev = NULL;
	}
	mutex_unlock(&ovbtest_pci_lock);
}

static const struct pci_device_id ovbtest_pci_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },		/* QEMU's edu device */
	{}
};

/*
 * No bind/unbind through sysfs; the device's own removal is handled
 * (ovbtest_pci_remove()).  Nothing on the device is touched: it is only
 * the subject of DMA mappings.
 */
static struct pci_driver ovbtest_pci_driver = {
	.name = "ovbtest_dma",
	.id_table = ovbtest_pci_ids,
	.probe = ovbtest_pci_probe,
	.remove = ovbtest_pci_remove,
	.driver.suppress_bind_attrs = true,
	/* bound before pci_register_driver() returns, whatever async_probe says */
	.driver.probe_type = PROBE_FORCE_SYNCHRONOUS,
};

/* With dma_pci, binds the edu device: 0, or -ENODEV when there is none. */
int ovbtest_dma_pci_init(void)
{
	int ret;

	if (!dma_pci)
		return 0;
	ret = pci_register_driver(&ovbtest_pci_driver);
	if (ret)
		return ret;
	if (!READ_ONCE(ovbtest_pci_dev)) {	/* probing is synchronous (forced) */
		pci_unregister_driver(&ovbtest_pci_driver);
		return -ENODEV;
	}
	return 0;
}

/*
 * ib_register_device() of @dev with its DMA device: @dflt, or with dma_pci
 * the edu device, unless that went since ovbtest_dma_pci_init() (-ENODEV).
 */
int ovbtest_dma_register(struct ovbtest_dev *dev, const char *name,
			 struct device *dflt)
{
	int ret = -ENODEV;

	if (!dma_pci)
		return ib_register_device(&dev->ibdev, name, dflt);
	mutex_lock(&ovbtest_pci_lock);
	if (ovbtest_pci_dev) {
		ret = ib_register_device(&dev->ibdev, name,
					 &ovbtest_pci_dev->dev);
		if (!ret)
			ovbtest_pci_user = dev;
	}
	mutex_unlock(&ovbtest_pci_lock);
	return ret;
}

/* Unbinds the edu device, which unregisters the IB device on it. */
void ovbtest_dma_pci_exit(void)
{
	if (dma_pci)
		pci_unregister_driver(&ovbtest_pci_driver);
}

static u32 ovbtest_dma_domain(struct iommu_domain *domain)
{
	if (!domain)
		return OVBTEST_DMA_DOMAIN_NONE;
	switch (domain->type) {
	case IOMMU_DOMAIN_IDENTITY:
		return OVBTEST_DMA_DOMAIN_IDENTITY;
	case IOMMU_DOMAIN_DMA:
		return OVBTEST_DMA_DOMAIN_DMA;
	case IOMMU_DOMAIN_DMA_FQ:
		return OVBTEST_DMA_DOMAIN_DMA_FQ;
	default:
		return OVBTEST_DMA_DOMAIN_OTHER;
	}
}

static int UVERBS_HANDLER(OVBTEST_METHOD_MR_DMA_TRANSLATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);
	struct ovbtest_dma_translate out = {};
	struct iommu_domain *domain;
	struct device *dma;
	size_t n, out_n, i;
	u64 *addrs;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	dma = ucontext->device->dma_device;
	domain = iommu_get_domain_for_dev(dma);
	out.domain = ovbtest_dma_domain(domain);
	out.pci = dev_is_pci(dma);
	if (out.domain != OVBTEST_DMA_DOMAIN_DMA &&
	    out.domain != OVBTEST_DMA_DOMAIN_DMA_FQ)
		domain = NULL;

	n = uverbs_attr_get_len(attrs, OVBTEST_ATTR_MR_DMA_TRANSLATE_IOVAS) /
	    sizeof(u64);
	if (!n || n > OVBTEST_DMA_MAP_MAX)
		return -EINVAL;
	out_n = min(n, ovbtest_out_room(attrs, OVBTEST_ATTR_MR_DMA_TRANSLATE_PHYS,
					sizeof(u64)));
	addrs = kvcalloc(n, sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		return -ENOMEM;
	ret = _uverbs_copy_from(addrs, attrs, OVBTEST_ATTR_MR_DMA_TRANSLATE_IOVAS,
				n * sizeof(*addrs));
	if (ret)
		goto out;
	for (i = 0; i < out_n; i++)
		addrs[i] = domain ? iommu_iova_to_phys(domain, addrs[i]) : 0;
	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MR_DMA_TRANSLATE_OUT, &out,
			     sizeof(out));
	if (!ret && out_n)
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MR_DMA_TRANSLATE_PHYS,
				     addrs, out_n * sizeof(*addrs));
out:
	kvfree(addrs);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_MR_DMA_TRANSLATE,
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_MR_DMA_TRANSLATE_IOVAS,
					       UVERBS_ATTR_MIN_SIZE(sizeof(u64)),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MR_DMA_TRANSLATE_OUT,
						UVERBS_ATTR_TYPE(struct ovbtest_dma_translate),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MR_DMA_TRANSLATE_PHYS,
						UVERBS_ATTR_MIN_SIZE(sizeof(u64)),
						UA_OPTIONAL));

#define DMA_SEG_SIZE	sizeof(struct ovbtest_dma_seg)

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_MR_DMA_MAP,
			    /* exclusive: ib_umem_find_best_pgsz() sets the iova */
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_MR_DMA_MAP_HANDLE,
					    UVERBS_OBJECT_MR,
					    UVERBS_ACCESS_WRITE,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_MR_DMA_MAP_PGSZ,
					       UVERBS_ATTR_TYPE(u64),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MR_DMA_MAP_OUT,
						UVERBS_ATTR_STRUCT(struct ovbtest_mr_dma_map,
								   num_segs),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MR_DMA_MAP_SEGS,
						UVERBS_ATTR_MIN_SIZE(DMA_SEG_SIZE),
						UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MR_DMA_MAP_BLOCKS,
						UVERBS_ATTR_MIN_SIZE(sizeof(u64)),
						UA_OPTIONAL));

ADD_UVERBS_METHODS(ovbtest_mr_dma_map, UVERBS_OBJECT_MR,
		   &UVERBS_METHOD(OVBTEST_METHOD_MR_DMA_MAP),
		   &UVERBS_METHOD(OVBTEST_METHOD_MR_DMA_TRANSLATE));

const struct uapi_definition ovbtest_dma_map_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_MR, &ovbtest_mr_dma_map),
	{},
};
