// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest_dmabuf: a dma-buf exporter over plain kernel pages, for the test
 * HCA's dma-buf MRs (ovbtest_dmabuf.h).  Each mapping is a table of one
 * entry per page, DMA-mapped for the attaching device; the exporter
 * remembers each page's DMA address so that ovbtest's "DMA engine" can
 * turn the addresses of its umem back into pages.  Buffers mmap() for the
 * CPU (faulted in, so that a move can zap them).  Two flavours: dynamic
 * (pin/unpin; the core maps under the reservation lock; the buffer can
 * move, ovbtest_dmabuf_move()) and static (the core maps a dynamic
 * importer's attachment once, at attach time; it never moves).  The live
 * counts are read-only module parameters, so tests can see that an
 * importer let go.
 */
#include <linux/atomic.h>
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <openverbs/ovbtest-abi.h>

#include "compat.h"
#include "ovbtest_dmabuf.h"

MODULE_IMPORT_NS(DMA_BUF);

/* pages, pins and moves change under the buffer's reservation lock */
struct ovbtest_dmabuf {
	unsigned int npages;
	struct page **pages;
	unsigned int pins;
	unsigned int moves;
};

/* One mapping of a buffer for one attachment (attach->priv). */
struct ovbtest_dmabuf_map {
	struct sg_table sgt;
	dma_addr_t *dma;	/* per page, as mapped (importers trim sgt) */
};

static atomic_t live_buffers;
static atomic_t live_attachments;
static atomic_t live_mappings;
static atomic_t live_pins;

static int ovbtest_dmabuf_count_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read((atomic_t *)kp->arg));
}

static const struct kernel_param_ops ovbtest_dmabuf_count_ops = {
	.get = ovbtest_dmabuf_count_get,
};

module_param_cb(buffers, &ovbtest_dmabuf_count_ops, &live_buffers, 0444);
MODULE_PARM_DESC(buffers, "dma-bufs alive");
module_param_cb(attachments, &ovbtest_dmabuf_count_ops, &live_attachments,
		0444);
MODULE_PARM_DESC(attachments, "attachments of importers");
module_param_cb(mappings, &ovbtest_dmabuf_count_ops, &live_mappings, 0444);
MODULE_PARM_DESC(mappings, "mapped attachments");
module_param_cb(pins, &ovbtest_dmabuf_count_ops, &live_pins, 0444);
MODULE_PARM_DESC(pins, "pins of dynamic buffers");

static int ovbtest_dmabuf_attach(struct dma_buf *dmabuf,
				 struct dma_buf_attachment *attach)
{
	attach->priv = NULL;
	atomic_inc(&live_attachments);
	return 0;
}

static void ovbtest_dmabuf_detach(struct dma_buf *dmabuf,
				  struct dma_buf_attachment *attach)
{
	WARN_ON(attach->priv);
	atomic_dec(&live_attachments);
}

/* A pinned buffer does not move (ovbtest_dmabuf_move answers EBUSY). */
static int ovbtest_dmabuf_pin(struct dma_buf_attachment *attach)
{
	struct ovbtest_dmabuf *buf = attach->dmabuf->priv;

	dma_resv_assert_held(attach->dmabuf->resv);
	buf->pins++;
	atomic_inc(&live_pins);
	return 0;
}

static void ovbtest_dmabuf_unpin(struct dma_buf_attachment *attach)
{
	struct ovbtest_dmabuf *buf = attach->dmabuf->priv;

	dma_resv_assert_held(attach->dmabuf->resv);
	buf->pins--;
	atomic_dec(&live_pins);
}

static void ovbtest_dmabuf_map_free(struct ovbtest_dmabuf_map *map)
{
	sg_free_table(&map->sgt);
	kfree(map->dma);
	kfree(map);
}

static struct sg_table *
ovbtest_dmabuf_map_dma_buf(struct dma_buf_attachment *attach,
			   enum dma_data_direction dir)
{
	struct ovbtest_dmabuf *buf = attach->dmabuf->priv;
	struct ovbtest_dmabuf_map *map;
	struct scatterlist *sg;
	unsigned int i, p = 0;
	dma_addr_t off;
	int ret;

	if (attach->priv)
		return ERR_PTR(-EBUSY);	/* one mapping per attachment */
	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return ERR_PTR(-ENOMEM);
	map->dma = kcalloc(buf->npages, sizeof(*map->dma), GFP_KERNEL);
	ret = map->dma ? sg_alloc_table(&map->sgt, buf->npages, GFP_KERNEL) :
			 -ENOMEM;
	if (ret) {
		kfree(map->dma);
		kfree(map);
		return ERR_PTR(ret);
	}
	for_each_sgtable_sg(&map->sgt, sg, i)
		sg_set_page(sg, buf->pages[i], PAGE_SIZE, 0);
	ret = dma_map_sgtable(attach->dev, &map->sgt, dir, 0);
	if (ret) {
		ovbtest_dmabuf_map_free(map);
		return ERR_PTR(ret);
	}
	/* An IOMMU may merge pages into one segment: split it again. */
	for_each_sgtable_dma_sg(&map->sgt, sg, i)
		for (off = 0; off < sg_dma_len(sg) && p < buf->npages;
		     off += PAGE_SIZE)
			map->dma[p++] = sg_dma_address(sg) + off;
	attach->priv = map;
	atomic_inc(&live_mappings);
	return &map->sgt;
}

static void ovbtest_dmabuf_unmap_dma_buf(struct dma_buf_attachment *attach,
					 struct sg_table *sgt,
					 enum dma_data_direction dir)
{
	struct ovbtest_dmabuf_map *map =
		container_of(sgt, struct ovbtest_dmabuf_map, sgt);

	WARN_ON(attach->priv != map);
	attach->priv = NULL;
	dma_unmap_sgtable(attach->dev, sgt, dir, 0);
	ovbtest_dmabuf_map_free(map);
	atomic_dec(&live_mappings);
}

static void ovbtest_dmabuf_free_pages(struct page **pages,
				      unsigned int npages)
{
	unsigned int i;

	for (i = 0; i < npages; i++)
		if (pages[i])
			__free_page(pages[i]);
	kfree(pages);
}

static struct page **ovbtest_dmabuf_alloc_pages(unsigned int npages)
{
	struct page **pages;
	unsigned int i;

	pages = kcalloc(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return NULL;
	for (i = 0; i < npages; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!pages[i]) {
			ovbtest_dmabuf_free_pages(pages, npages);
			return NULL;
		}
	}
	return pages;
}

static void ovbtest_dmabuf_free(struct ovbtest_dmabuf *buf)
{
	if (buf->pages)
		ovbtest_dmabuf_free_pages(buf->pages, buf->npages);
	kfree(buf);
}

static void ovbtest_dmabuf_release(struct dma_buf *dmabuf)
{
	ovbtest_dmabuf_free(dmabuf->priv);
	atomic_dec(&live_buffers);
}

/* The page where the buffer is now (a move zaps what was there). */
static vm_fault_t ovbtest_dmabuf_fault(struct vm_fault *vmf)
{
	struct dma_buf *dmabuf = vmf->vma->vm_private_data;
	struct ovbtest_dmabuf *buf = dmabuf->priv;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	dma_resv_lock(dmabuf->resv, NULL);
	if (vmf->pgoff < buf->npages)
		ret = vmf_insert_page(vmf->vma, vmf->address,
				      buf->pages[vmf->pgoff]);
	dma_resv_unlock(dmabuf->resv);
	return ret;
}

static const struct vm_operations_struct ovbtest_dmabuf_vm_ops = {
	.fault = ovbtest_dmabuf_fault,
};

/* The core has checked vm_pgoff and the length against the size. */
static int ovbtest_dmabuf_mmap(struct dma_buf *dmabuf,
			       struct vm_area_struct *vma)
{
	ovbtest_vm_flags_set(vma, VM_MIXEDMAP);
	vma->vm_ops = &ovbtest_dmabuf_vm_ops;
	vma->vm_private_data = dmabuf;
	return 0;
}

static const struct dma_buf_ops ovbtest_dmabuf_dynamic_ops = {
	.attach = ovbtest_dmabuf_attach,
	.detach = ovbtest_dmabuf_detach,
	.pin = ovbtest_dmabuf_pin,
	.unpin = ovbtest_dmabuf_unpin,
	.map_dma_buf = ovbtest_dmabuf_map_dma_buf,
	.unmap_dma_buf = ovbtest_dmabuf_unmap_dma_buf,
	.release = ovbtest_dmabuf_release,
	.mmap = ovbtest_dmabuf_mmap,
};

static const struct dma_buf_ops ovbtest_dmabuf_static_ops = {
	.attach = ovbtest_dmabuf_attach,
	.detach = ovbtest_dmabuf_detach,
	.map_dma_buf = ovbtest_dmabuf_map_dma_buf,
	.unmap_dma_buf = ovbtest_dmabuf_unmap_dma_buf,
	.release = ovbtest_dmabuf_release,
	.mmap = ovbtest_dmabuf_mmap,
};

struct dma_buf *ovbtest_dmabuf_create(unsigned int npages, u32 flags)
{
	DEFINE_DMA_BUF_EXPORT_INFO(exp);
	struct ovbtest_dmabuf *buf;
	struct dma_buf *dmabuf;

	if (!npages || npages > OVBTEST_DMABUF_MAX_PAGES ||
	    (flags & ~OVBTEST_DMABUF_STATIC))
		return ERR_PTR(-EINVAL);
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	buf->npages = npages;
	buf->pages = ovbtest_dmabuf_alloc_pages(npages);
	if (!buf->pages)
		goto err_free;

	exp.ops = flags & OVBTEST_DMABUF_STATIC ? &ovbtest_dmabuf_static_ops :
						  &ovbtest_dmabuf_dynamic_ops;
	exp.size = (size_t)npages << PAGE_SHIFT;
	exp.flags = O_RDWR;
	exp.priv = buf;
	dmabuf = dma_buf_export(&exp);
	if (IS_ERR(dmabuf)) {
		ovbtest_dmabuf_free(buf);
		return dmabuf;
	}
	atomic_inc(&live_buffers);
	return dmabuf;

err_free:
	ovbtest_dmabuf_free(buf);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_GPL(ovbtest_dmabuf_create);

struct page *ovbtest_dmabuf_page(struct dma_buf_attachment *attach,
				 dma_addr_t addr, unsigned int *offset)
{
	struct ovbtest_dmabuf_map *map = attach->priv;
	struct dma_buf *dmabuf = attach->dmabuf;
	struct ovbtest_dmabuf *buf;
	unsigned int i;

	if (dmabuf->ops != &ovbtest_dmabuf_dynamic_ops &&
	    dmabuf->ops != &ovbtest_dmabuf_static_ops)
		return NULL;
	if (!map)
		return NULL;
	buf = dmabuf->priv;
	for (i = 0; i < buf->npages; i++) {
		if (addr >= map->dma[i] && addr - map->dma[i] < PAGE_SIZE) {
			*offset = addr - map->dma[i];
			return buf->pages[i];
		}
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(ovbtest_dmabuf_page);

/* Whether an importer still maps or pins @dmabuf (resv held). */
static bool ovbtest_dmabuf_busy(struct dma_buf *dmabuf)
{
	struct ovbtest_dmabuf *buf = dmabuf->priv;
	struct dma_buf_attachment *attach;

	if (buf->pins)
		return true;
	list_for_each_entry(attach, &dmabuf->attachments, node)
		if (attach->priv)
			return true;
	return false;
}

int ovbtest_dmabuf_move(struct dma_buf *dmabuf, u32 *moves)
{
	struct ovbtest_dmabuf *buf = dmabuf->priv;
	struct page **pages, **old;
	unsigned int i;
	int ret = 0;

	if (dmabuf->ops != &ovbtest_dmabuf_dynamic_ops)
		return -EINVAL;
	pages = ovbtest_dmabuf_alloc_pages(buf->npages);
	if (!pages)
		return -ENOMEM;

	dma_resv_lock(dmabuf->resv, NULL);
	/* Importers drop their mappings (and so their pins) now. */
	dma_buf_move_notify(dmabuf);
	if (ovbtest_dmabuf_busy(dmabuf)) {
		ret = -EBUSY;
		goto out;
	}
	for (i = 0; i < buf->npages; i++)
		copy_highpage(pages[i], buf->pages[i]);
	old = buf->pages;
	buf->pages = pages;
	pages = old;
	/* CPU mappings fault the new pages in. */
	unmap_mapping_range(dmabuf->file->f_mapping, 0, 0, 1);
	buf->moves++;
out:
	*moves = buf->moves;
	dma_resv_unlock(dmabuf->resv);
	ovbtest_dmabuf_free_pages(pages, buf->npages);
	return ret;
}
EXPORT_SYMBOL_GPL(ovbtest_dmabuf_move);

MODULE_DESCRIPTION("openverbs test HCA: a dma-buf exporter for its dma-buf MRs");
MODULE_LICENSE("GPL");
