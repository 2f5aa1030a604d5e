// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: MRs over a dma-buf (REG_DMABUF_MR), pinned as efa does or, with
 * OVBTEST_DMABUF_MR_DYNAMIC, imported dynamically as mlx5 does (the
 * exporter's move_notify drops the mapping; the next "DMA" maps the
 * buffer again under its reservation lock), and the DEVICE methods
 * DMABUF_ALLOC and DMABUF_MOVE, which hand out and move dma-bufs of the
 * exporter module ovbtest_dmabuf.ko (reached through symbol_get(), so
 * ovbtest.ko loads and unloads without it).  The copy "DMA" walks the
 * umem's DMA addresses - the exporter's table as ib_umem_dmabuf_map_pages()
 * trimmed it to the MR's window - and asks the exporter for the page
 * behind each one; a dma-buf of another exporter (udmabuf, built into
 * 6.12) is reached at the physical address its DMA address names.
 */
#include <linux/dma-buf.h>
#include <linux/dma-direct.h>
#include <linux/dma-resv.h>
#include <linux/file.h>
#include <linux/highmem.h>
#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"
#include "ovbtest_dmabuf.h"

MODULE_IMPORT_NS(DMA_BUF);

static atomic_t ovbtest_move_notifies;
static atomic_t ovbtest_remaps;
static atomic_t ovbtest_revokes;

static int ovbtest_dmabuf_count_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read((atomic_t *)kp->arg));
}

static const struct kernel_param_ops ovbtest_dmabuf_count_ops = {
	.get = ovbtest_dmabuf_count_get,
};

module_param_cb(dmabuf_move_notifies, &ovbtest_dmabuf_count_ops,
		&ovbtest_move_notifies, 0444);
MODULE_PARM_DESC(dmabuf_move_notifies, "move_notify calls of dynamic dma-buf MRs");
module_param_cb(dmabuf_remaps, &ovbtest_dmabuf_count_ops, &ovbtest_remaps,
		0444);
MODULE_PARM_DESC(dmabuf_remaps, "mappings of dynamic dma-buf MRs made again");
module_param_cb(dmabuf_revokes, &ovbtest_dmabuf_count_ops, &ovbtest_revokes,
		0444);
MODULE_PARM_DESC(dmabuf_revokes, "revoke callbacks of revocable dma-buf MRs (6.12)");

/*
 * The exporter is about to move the buffer (reservation lock held): the
 * "HCA" drops its translation, as mlx5's invalidation does.
 */
static void ovbtest_dmabuf_mr_move_notify(struct dma_buf_attachment *attach)
{
	struct ib_umem_dmabuf *umem_dmabuf = attach->importer_priv;

	dma_resv_assert_held(attach->dmabuf->resv);
	ib_umem_dmabuf_unmap_pages(umem_dmabuf);
	atomic_inc(&ovbtest_move_notifies);
}

static const struct dma_buf_attach_ops ovbtest_dmabuf_mr_attach_ops = {
	.allow_peer2peer = true,
	.move_notify = ovbtest_dmabuf_mr_move_notify,
};

/* A dynamic import, mapped once before the MR is handed out (as mlx5). */
static struct ib_umem_dmabuf *ovbtest_dmabuf_get_dynamic(struct ib_device *ibdev,
							 u64 offset, u64 length,
							 int fd, int access)
{
	struct ib_umem_dmabuf *umem_dmabuf;
	struct dma_resv *resv;
	int ret;

	umem_dmabuf = ib_umem_dmabuf_get(ibdev, offset, length, fd, access,
					 &ovbtest_dmabuf_mr_attach_ops);
	if (IS_ERR(umem_dmabuf))
		return umem_dmabuf;
	resv = umem_dmabuf->attach->dmabuf->resv;
	dma_resv_lock(resv, NULL);
	ret = ib_umem_dmabuf_map_pages(umem_dmabuf);
	dma_resv_unlock(resv);
	if (ret) {
		ib_umem_release(&umem_dmabuf->umem);
		return ERR_PTR(ret);
	}
	return umem_dmabuf;
}

#if OVBTEST_K612
/*
 * 6.12: the revoke callback of a revocable import, called once, under the
 * reservation lock, by an exporter's move, by OVBTEST_METHOD_MR_DMABUF_REVOKE
 * or at the latest by the umem's release: from here the "HCA" no longer
 * reaches the buffer (COPY sees umem_dmabuf->revoked under the same lock).
 */
static void ovbtest_dmabuf_mr_revoke_cb(void *priv)
{
	atomic_inc(&ovbtest_revokes);
}

/* 6.12: as a driver that can stop its DMA on demand would import. */
static struct ib_umem_dmabuf *
ovbtest_dmabuf_get_revocable(struct ovbtest_mr *mr, struct ib_device *ibdev,
			     u64 offset, u64 length, int fd, int access)
{
	struct ib_umem_dmabuf *umem_dmabuf;

	umem_dmabuf = ib_umem_dmabuf_get_pinned_revocable_and_lock(ibdev, offset,
								   length, fd,
								   access);
	if (IS_ERR(umem_dmabuf))
		return umem_dmabuf;
	ib_umem_dmabuf_set_revoke_locked(umem_dmabuf,
					 ovbtest_dmabuf_mr_revoke_cb, mr);
	dma_resv_unlock(umem_dmabuf->attach->dmabuf->resv);
	return umem_dmabuf;
}

/* 6.12: a pin against the device's own DMA device, as mlx5's data direct. */
static struct ib_umem_dmabuf *
ovbtest_dmabuf_get_pinned(struct ovbtest_mr *mr, struct ib_device *ibdev,
			  u64 offset, u64 length, int fd, int access)
{
	return ib_umem_dmabuf_get_pinned_with_dma_device(ibdev,
							 ibdev->dma_device,
							 offset, length, fd,
							 access);
}

#define OVBTEST_DMABUF_MR_FLAGS \
	(OVBTEST_DMABUF_MR_DYNAMIC | OVBTEST_DMABUF_MR_REVOCABLE)
#define ovbtest_dmabuf_lock(u)		ib_umem_dmabuf_revoke_lock(u)
#define ovbtest_dmabuf_unlock(u)	ib_umem_dmabuf_revoke_unlock(u)
#define ovbtest_dmabuf_revoked(u)	((u)->revoked)
#else
static struct ib_umem_dmabuf *
ovbtest_dmabuf_get_pinned(struct ovbtest_mr *mr, struct ib_device *ibdev,
			  u64 offset, u64 length, int fd, int access)
{
	return ib_umem_dmabuf_get_pinned(ibdev, offset, length, fd, access);
}

#define OVBTEST_DMABUF_MR_FLAGS		OVBTEST_DMABUF_MR_DYNAMIC
#define ovbtest_dmabuf_lock(u)		dma_resv_lock((u)->attach->dmabuf->resv, NULL)
#define ovbtest_dmabuf_unlock(u)	dma_resv_unlock((u)->attach->dmabuf->resv)
#define ovbtest_dmabuf_revoked(u)	false
#endif

struct ib_mr *ovbtest_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
					 u64 length, u64 virt_addr, int fd,
					 int access, ovbtest_op_bundle *op)
{
	struct uverbs_attr_bundle *attrs = ovbtest_op_attrs(op);
	struct ovbtest_dev *dev = to_odev(ibpd->device);
	struct ib_umem_dmabuf *umem_dmabuf;
	struct ovbtest_mr *mr;
	u32 key, flags;
	int ret;

	if (access & IB_ACCESS_ON_DEMAND)
		return ERR_PTR(-EOPNOTSUPP);
	ret = uverbs_get_flags32(&flags, attrs,
				 OVBTEST_ATTR_REG_DMABUF_MR_FLAGS,
				 OVBTEST_DMABUF_MR_FLAGS);
	if (ret)
		return ERR_PTR(ret);
	if (hweight32(flags) > 1)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->dmabuf_dynamic = flags & OVBTEST_DMABUF_MR_DYNAMIC;
	if (mr->dmabuf_dynamic)
		umem_dmabuf = ovbtest_dmabuf_get_dynamic(ibpd->device, offset,
							 length, fd, access);
#if OVBTEST_K612
	else if (flags & OVBTEST_DMABUF_MR_REVOCABLE)
		umem_dmabuf = ovbtest_dmabuf_get_revocable(mr, ibpd->device,
							   offset, length, fd,
							   access);
#endif
	else
		umem_dmabuf = ovbtest_dmabuf_get_pinned(mr, ibpd->device,
							offset, length, fd,
							access);
	if (IS_ERR(umem_dmabuf)) {
		kfree(mr);
		return ERR_CAST(umem_dmabuf);
	}
	mr->umem = &umem_dmabuf->umem;
	/* NULL without the exporter module: COPY then refuses the MR. */
	mr->dmabuf_page = symbol_get(ovbtest_dmabuf_page);
	key = (u32)atomic_inc_return(&dev->next_key) << 8;
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	mr->ibmr.iova = virt_addr;
	mr->ibmr.length = length;
	mr->access = access;
	atomic_inc(&dev->live.mrs);
	return &mr->ibmr;
}

/* Before the umem goes (dereg_mr). */
void ovbtest_dmabuf_mr_release(struct ovbtest_mr *mr)
{
	if (mr->dmabuf_page)
		symbol_put(ovbtest_dmabuf_page);
	mr->dmabuf_page = NULL;
}

/*
 * A dma-buf of another exporter (udmabuf on 6.12), or an ODP MR's page
 * (odp.c): the page the device's DMA reaches at @addr.  Without an IOMMU
 * in front of the DMA device (the platform device; or an identity
 * domain) its DMA is direct: a DMA address is the physical one.  Behind
 * a translating IOMMU domain (the edu device of dma_pci=1 under qemu/run
 * --iommu) it is an IOVA of that domain, which the IOMMU translates.
 * NULL when neither holds or @addr reaches no RAM.
 */
struct page *ovbtest_dma_page(struct device *dev, dma_addr_t addr,
			      unsigned int *offset)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(dev);
	phys_addr_t phys;

	if (!device_iommu_mapped(dev) ||
	    (domain && domain->type == IOMMU_DOMAIN_IDENTITY))
		phys = dma_to_phys(dev, addr);
	else if (domain && (domain->type == IOMMU_DOMAIN_DMA ||
			    domain->type == IOMMU_DOMAIN_DMA_FQ))
		phys = iommu_iova_to_phys(domain, addr);	/* 0: unmapped */
	else
		return NULL;
	if ((domain && !phys) || !pfn_valid(PHYS_PFN(phys)))
		return NULL;
	*offset = offset_in_page(phys);
	return pfn_to_page(PHYS_PFN(phys));
}

/* The exporter module's own buffers (DEFINE_DMA_BUF_EXPORT_INFO's name). */
static bool ovbtest_dmabuf_is_ours(const struct dma_buf *dmabuf)
{
	return !strcmp(dmabuf->exp_name, "ovbtest_dmabuf");
}

/*
 * @len bytes at @off of a mapped dma-buf MR to (or from) @buf.  The umem's
 * table starts at the page of its first byte, as for user memory.  Our
 * exporter's buffers are looked up in its mapping; another exporter's
 * through the DMA address.
 */
static int ovbtest_dmabuf_xfer_mapped(struct ovbtest_mr *mr, u64 off,
				      void *buf, size_t len, bool to_umem)
{
	struct ib_umem *umem = mr->umem;
	struct dma_buf_attachment *attach = to_ib_umem_dmabuf(umem)->attach;
	u64 skip = ib_umem_offset(umem) + off;
	struct scatterlist *sg;
	unsigned int i, in;
	struct page *page;
	bool ours = ovbtest_dmabuf_is_ours(attach->dmabuf);
	size_t done = 0, n;
	dma_addr_t addr;
	void *va;

	if (ours && !mr->dmabuf_page)
		return -EOPNOTSUPP;
	for_each_sg(umem->sgt_append.sgt.sgl, sg, umem->sgt_append.sgt.nents,
		    i) {
		if (skip >= sg_dma_len(sg)) {
			skip -= sg_dma_len(sg);
			continue;
		}
		while (done < len && skip < sg_dma_len(sg)) {
			addr = sg_dma_address(sg) + skip;
			page = ours ? mr->dmabuf_page(attach, addr, &in) :
				      ovbtest_dma_page(attach->dev, addr, &in);
			if (WARN_ON_ONCE(!page))
				return -EFAULT;
			n = min_t(size_t, len - done, PAGE_SIZE - in);
			n = min_t(size_t, n, sg_dma_len(sg) - skip);
			va = kmap_local_page(page);
			if (to_umem)
				memcpy(va + in, buf + done, n);
			else
				memcpy(buf + done, va + in, n);
			kunmap_local(va);
			done += n;
			skip += n;
		}
		if (done == len)
			return 0;
		skip = 0;
	}
	/* the table ended before the MR did */
	WARN_ON_ONCE(1);
	return -EFAULT;
}

/*
 * Under the buffer's reservation lock (on 6.12 through the revoke lock
 * helpers, as a driver serialises its DMA with a revoke): a revoked
 * import (6.12) answers EIO; a dynamic one whose mapping a move dropped
 * is mapped again first; a pinned one stays mapped.
 */
int ovbtest_dmabuf_xfer(struct ovbtest_mr *mr, u64 off, void *buf,
			size_t len, bool to_umem)
{
	struct ib_umem_dmabuf *umem_dmabuf = to_ib_umem_dmabuf(mr->umem);
	int ret = 0;

	ovbtest_dmabuf_lock(umem_dmabuf);
	if (ovbtest_dmabuf_revoked(umem_dmabuf)) {
		ret = -EIO;
	} else if (!umem_dmabuf->sgt) {
		ret = ib_umem_dmabuf_map_pages(umem_dmabuf);
		if (!ret)
			atomic_inc(&ovbtest_remaps);
	}
	if (!ret)
		ret = ovbtest_dmabuf_xfer_mapped(mr, off, buf, len, to_umem);
	ovbtest_dmabuf_unlock(umem_dmabuf);
	return ret;
}

#if OVBTEST_K612
/* 6.12: the exporter's access ends now, as mlx5's data-direct revoke. */
static int UVERBS_HANDLER(OVBTEST_METHOD_MR_DMABUF_REVOKE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_mr *ibmr = uverbs_attr_get_obj(attrs,
						 OVBTEST_ATTR_MR_REVOKE_HANDLE);
	struct ovbtest_mr *mr;

	if (IS_ERR(ibmr))
		return PTR_ERR(ibmr);
	mr = to_omr(ibmr);
	if (!mr->umem || !mr->umem->is_dmabuf)
		return -EINVAL;
	if (mr->dmabuf_dynamic)
		return -EOPNOTSUPP;
	ib_umem_dmabuf_revoke(to_ib_umem_dmabuf(mr->umem));
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_MR_DMABUF_REVOKE,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_MR_REVOKE_HANDLE,
					    UVERBS_OBJECT_MR,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_mr_revoke, UVERBS_OBJECT_MR,
		   &UVERBS_METHOD(OVBTEST_METHOD_MR_DMABUF_REVOKE));
#endif

static int UVERBS_HANDLER(OVBTEST_METHOD_DEVICE_DMABUF_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	struct dma_buf *(*create)(unsigned int npages, u32 flags);
	struct dma_buf *dmabuf;
	u32 npages, flags;
	int fd, ret;

	ret = uverbs_copy_from(&npages, attrs, OVBTEST_ATTR_DMABUF_ALLOC_PAGES);
	if (!ret)
		ret = uverbs_get_flags32(&flags, attrs,
					 OVBTEST_ATTR_DMABUF_ALLOC_FLAGS,
					 OVBTEST_DMABUF_STATIC);
	if (ret)
		return ret;
	create = symbol_get(ovbtest_dmabuf_create);
	if (!create)
		return -EOPNOTSUPP;
	dmabuf = create(npages, flags);
	/* the dma-buf holds the exporter module from here */
	symbol_put(ovbtest_dmabuf_create);
	if (IS_ERR(dmabuf))
		return PTR_ERR(dmabuf);

	/* The fd goes live only once user space has been told its number. */
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		dma_buf_put(dmabuf);
		return fd;
	}
	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_DMABUF_ALLOC_FD, &fd,
			     sizeof(fd));
	if (ret) {
		put_unused_fd(fd);
		dma_buf_put(dmabuf);
		return ret;
	}
	fd_install(fd, dmabuf->file);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_DEVICE_DMABUF_ALLOC,
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_DMABUF_ALLOC_PAGES,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVBTEST_ATTR_DMABUF_ALLOC_FLAGS,
						 enum ovbtest_dmabuf_flags,
						 UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DMABUF_ALLOC_FD,
						UVERBS_ATTR_TYPE(s32),
						UA_MANDATORY));

static int UVERBS_HANDLER(OVBTEST_METHOD_DEVICE_DMABUF_MOVE)(struct uverbs_attr_bundle *attrs)
{
	int (*move)(struct dma_buf *dmabuf, u32 *moves);
	struct dma_buf *dmabuf;
	u32 moves = 0;
	s32 fd;
	int ret;

	ret = uverbs_copy_from(&fd, attrs, OVBTEST_ATTR_DMABUF_MOVE_FD);
	if (ret)
		return ret;
	move = symbol_get(ovbtest_dmabuf_move);
	if (!move)
		return -EOPNOTSUPP;
	dmabuf = dma_buf_get(fd);
	if (IS_ERR(dmabuf)) {
		ret = PTR_ERR(dmabuf);
	} else {
		ret = move(dmabuf, &moves);
		dma_buf_put(dmabuf);
	}
	symbol_put(ovbtest_dmabuf_move);
	if (ret && ret != -EBUSY)
		return ret;
	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_DMABUF_MOVE_MOVES)) {
		int err = uverbs_copy_to(attrs, OVBTEST_ATTR_DMABUF_MOVE_MOVES,
					 &moves, sizeof(moves));

		if (err)
			return err;
	}
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_DEVICE_DMABUF_MOVE,
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_DMABUF_MOVE_FD,
					       UVERBS_ATTR_TYPE(s32),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DMABUF_MOVE_MOVES,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL));

ADD_UVERBS_METHODS(ovbtest_device_dmabuf, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(OVBTEST_METHOD_DEVICE_DMABUF_ALLOC),
		   &UVERBS_METHOD(OVBTEST_METHOD_DEVICE_DMABUF_MOVE));

ADD_UVERBS_ATTRIBUTES_SIMPLE(ovbtest_reg_dmabuf_mr, UVERBS_OBJECT_MR,
			     UVERBS_METHOD_REG_DMABUF_MR,
			     UVERBS_ATTR_FLAGS_IN(OVBTEST_ATTR_REG_DMABUF_MR_FLAGS,
						  enum ovbtest_dmabuf_mr_flags,
						  UA_OPTIONAL));

const struct uapi_definition ovbtest_dmabuf_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &ovbtest_device_dmabuf),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_MR, &ovbtest_reg_dmabuf_mr),
#if OVBTEST_K612
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_MR, &ovbtest_mr_revoke),
#endif
	{},
};
