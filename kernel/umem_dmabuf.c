// SPDX-License-Identifier: GPL-2.0
/*
 * umems backed by a dma-buf (memory of another device, e.g. a GPU) instead
 * of user pages.  Dynamic importers map and unmap under the dma-buf's
 * reservation lock and get move_notify() when the exporter migrates the
 * buffer; the pinned variant pins the buffer so it never moves.
 *
 * The exporter's sg table covers the whole buffer, page aligned: mapping
 * trims its first and last DMA entries in place to the umem's window and
 * unmapping restores them before handing the table back.
 */
#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>

#include "uverbs.h"

MODULE_IMPORT_NS(DMA_BUF);

/* Trim the exporter's table to [start, end) and remember how to undo it. */
static void umem_dmabuf_trim(struct ib_umem_dmabuf *ud, struct sg_table *sgt)
{
	unsigned long start = ALIGN_DOWN(ud->umem.address, PAGE_SIZE);
	unsigned long end = ALIGN(ud->umem.address + ud->umem.length,
				  PAGE_SIZE);
	unsigned long pos = 0, len;
	struct scatterlist *sg;
	unsigned int used = 0;
	int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		len = sg_dma_len(sg);
		if (start < pos + len && pos < end)
			used++;
		if (pos <= start && start < pos + len) {
			ud->first_sg = sg;
			ud->first_sg_offset = start - pos;
			sg_dma_address(sg) += ud->first_sg_offset;
			sg_dma_len(sg) -= ud->first_sg_offset;
			pos = start;
			len = sg_dma_len(sg);
		}
		if (pos < end && end <= pos + len) {
			ud->last_sg = sg;
			ud->last_sg_trim = pos + len - end;
			sg_dma_len(sg) -= ud->last_sg_trim;
			break;
		}
		pos += len;
	}
	ud->umem.sgt_append.sgt.sgl = ud->first_sg;
	ud->umem.sgt_append.sgt.nents = used;
	ud->sgt = sgt;
}

/**
 * ib_umem_dmabuf_map_pages - map the dma-buf for the device
 * @umem_dmabuf: the umem; its dma-buf's reservation lock must be held
 *
 * Waits for the exporter's pending kernel fences (e.g. a migration) so the
 * contents are valid when this returns 0.
 */
int ib_umem_dmabuf_map_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct dma_resv *resv = umem_dmabuf->attach->dmabuf->resv;
	struct sg_table *sgt;
	long ret;

	dma_resv_assert_held(resv);
	if (!umem_dmabuf->sgt) {
		sgt = dma_buf_map_attachment(umem_dmabuf->attach,
					     DMA_BIDIRECTIONAL);
		if (IS_ERR(sgt))
			return PTR_ERR(sgt);
		umem_dmabuf_trim(umem_dmabuf, sgt);
	}

	ret = dma_resv_wait_timeout(resv, DMA_RESV_USAGE_KERNEL, false,
				    MAX_SCHEDULE_TIMEOUT);
	if (ret < 0)
		return ret;
	return ret ? 0 : -ETIMEDOUT;
}
EXPORT_SYMBOL(ib_umem_dmabuf_map_pages);

/**
 * ib_umem_dmabuf_unmap_pages - undo ib_umem_dmabuf_map_pages()
 * @umem_dmabuf: the umem; its dma-buf's reservation lock must be held
 */
void ib_umem_dmabuf_unmap_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
	dma_resv_assert_held(umem_dmabuf->attach->dmabuf->resv);
	if (!umem_dmabuf->sgt)
		return;

	if (umem_dmabuf->first_sg) {
		sg_dma_address(umem_dmabuf->first_sg) -=
			umem_dmabuf->first_sg_offset;
		sg_dma_len(umem_dmabuf->first_sg) +=
			umem_dmabuf->first_sg_offset;
		umem_dmabuf->first_sg = NULL;
		umem_dmabuf->first_sg_offset = 0;
	}
	if (umem_dmabuf->last_sg) {
		sg_dma_len(umem_dmabuf->last_sg) += umem_dmabuf->last_sg_trim;
		umem_dmabuf->last_sg = NULL;
		umem_dmabuf->last_sg_trim = 0;
	}
	dma_buf_unmap_attachment(umem_dmabuf->attach, umem_dmabuf->sgt,
				 DMA_BIDIRECTIONAL);
	umem_dmabuf->sgt = NULL;
}
EXPORT_SYMBOL(ib_umem_dmabuf_unmap_pages);

/**
 * ib_umem_dmabuf_get - attach to a dma-buf as a dynamic importer
 * @device: the importing device
 * @offset: start of the window in the dma-buf
 * @size: window length
 * @fd: the dma-buf file descriptor
 * @access: IB_ACCESS_* flags
 * @ops: importer callbacks; move_notify is mandatory
 *
 * Return: the umem (not mapped yet), ERR_PTR(-EINVAL) for a window that
 * wraps, is empty or lies outside the buffer, or the dma-buf error.
 */
struct ib_umem_dmabuf *ib_umem_dmabuf_get(struct ib_device *device,
					  unsigned long offset, size_t size,
					  int fd, int access,
					  const struct dma_buf_attach_ops *ops)
{
	struct ib_umem_dmabuf *umem_dmabuf;
	struct dma_buf_attachment *attach;
	struct dma_buf *dmabuf;
	unsigned long end;
	int ret = -EINVAL;

	if (check_add_overflow(offset, (unsigned long)size, &end) ||
	    !ops || !ops->move_notify)
		return ERR_PTR(-EINVAL);

	dmabuf = dma_buf_get(fd);
	if (IS_ERR(dmabuf))
		return ERR_CAST(dmabuf);
	if (dmabuf->size < end)
		goto err_put;

	umem_dmabuf = kzalloc(sizeof(*umem_dmabuf), GFP_KERNEL);
	if (!umem_dmabuf) {
		ret = -ENOMEM;
		goto err_put;
	}
	umem_dmabuf->umem.ibdev = device;
	umem_dmabuf->umem.length = size;
	umem_dmabuf->umem.address = offset;
	umem_dmabuf->umem.writable = ib_access_writable(access);
	umem_dmabuf->umem.is_dmabuf = 1;
	if (!ib_umem_num_pages(&umem_dmabuf->umem))
		goto err_free;

	attach = dma_buf_dynamic_attach(dmabuf, device->dma_device, ops,
					umem_dmabuf);
	if (IS_ERR(attach)) {
		ret = PTR_ERR(attach);
		goto err_free;
	}
	umem_dmabuf->attach = attach;
	return umem_dmabuf;

err_free:
	kfree(umem_dmabuf);
err_put:
	dma_buf_put(dmabuf);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get);

/* A pinned buffer never moves: an exporter calling this is broken. */
static void umem_dmabuf_pinned_move_notify(struct dma_buf_attachment *attach)
{
	struct ib_umem_dmabuf *umem_dmabuf = attach->importer_priv;

	ibdev_warn_ratelimited(umem_dmabuf->umem.ibdev,
			       "dma-buf moved although it is pinned\n");
}

static struct dma_buf_attach_ops umem_dmabuf_pinned_ops = {
	.allow_peer2peer = true,
	.move_notify = umem_dmabuf_pinned_move_notify,
};

/**
 * ib_umem_dmabuf_get_pinned - attach, pin and map a dma-buf window
 * @device: the importing device
 * @offset: start of the window in the dma-buf
 * @size: window length
 * @fd: the dma-buf file descriptor
 * @access: IB_ACCESS_* flags
 *
 * For devices that cannot handle move_notify(): the buffer stays put and
 * mapped until ib_umem_release().
 */
struct ib_umem_dmabuf *ib_umem_dmabuf_get_pinned(struct ib_device *device,
						 unsigned long offset,
						 size_t size, int fd,
						 int access)
{
	struct ib_umem_dmabuf *umem_dmabuf;
	struct dma_resv *resv;
	int ret;

	umem_dmabuf = ib_umem_dmabuf_get(device, offset, size, fd, access,
					 &umem_dmabuf_pinned_ops);
	if (IS_ERR(umem_dmabuf))
		return umem_dmabuf;

	resv = umem_dmabuf->attach->dmabuf->resv;
	dma_resv_lock(resv, NULL);
	ret = dma_buf_pin(umem_dmabuf->attach);
	if (!ret) {
		umem_dmabuf->pinned = 1;
		ret = ib_umem_dmabuf_map_pages(umem_dmabuf);
	}
	dma_resv_unlock(resv);
	if (ret) {
		ib_umem_release(&umem_dmabuf->umem);
		return ERR_PTR(ret);
	}
	return umem_dmabuf;
}
EXPORT_SYMBOL(ib_umem_dmabuf_get_pinned);

/* ib_umem_release() of a dma-buf umem. */
void ib_umem_dmabuf_release(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct dma_buf *dmabuf = umem_dmabuf->attach->dmabuf;

	dma_resv_lock(dmabuf->resv, NULL);
	ib_umem_dmabuf_unmap_pages(umem_dmabuf);
	if (umem_dmabuf->pinned)
		dma_buf_unpin(umem_dmabuf->attach);
	dma_resv_unlock(dmabuf->resv);

	dma_buf_detach(dmabuf, umem_dmabuf->attach);
	dma_buf_put(dmabuf);
	kfree(umem_dmabuf);
}
