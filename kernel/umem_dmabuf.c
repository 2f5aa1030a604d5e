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

/* Undo umem_dmabuf_trim(): the exporter gets its table back as it gave it. */
static void umem_dmabuf_untrim(struct ib_umem_dmabuf *ud)
{
	struct scatterlist *first = ud->first_sg, *last = ud->last_sg;

	if (first) {
		sg_dma_address(first) -= ud->first_sg_offset;
		sg_dma_len(first) += ud->first_sg_offset;
	}
	if (last)
		sg_dma_len(last) += ud->last_sg_trim;
	ud->first_sg = NULL;
	ud->last_sg = NULL;
	ud->first_sg_offset = 0;
	ud->last_sg_trim = 0;
}

/* The exporter's pending kernel fences (a migration): 0 once none is left. */
static int umem_dmabuf_wait_kernel_fences(struct dma_resv *resv)
{
	long left = dma_resv_wait_timeout(resv, DMA_RESV_USAGE_KERNEL, false,
					  MAX_SCHEDULE_TIMEOUT);

	if (left < 0)
		return left;
	return left ? 0 : -ETIMEDOUT;
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
	struct sg_table *whole;

	dma_resv_assert_held(resv);
	if (umem_dmabuf_revoked(umem_dmabuf))
		return -EINVAL;
	/* mapped already: only the fences are waited for again */
	if (!umem_dmabuf->sgt) {
		whole = dma_buf_map_attachment(umem_dmabuf->attach,
					       DMA_BIDIRECTIONAL);
		if (IS_ERR(whole))
			return PTR_ERR(whole);
		umem_dmabuf_trim(umem_dmabuf, whole);
	}
	return umem_dmabuf_wait_kernel_fences(resv);
}
EXPORT_SYMBOL(ib_umem_dmabuf_map_pages);

/**
 * ib_umem_dmabuf_unmap_pages - undo ib_umem_dmabuf_map_pages()
 * @umem_dmabuf: the umem; its dma-buf's reservation lock must be held
 */
void ib_umem_dmabuf_unmap_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct sg_table *whole = umem_dmabuf->sgt;

	dma_resv_assert_held(umem_dmabuf->attach->dmabuf->resv);
	if (!whole)
		return;
	umem_dmabuf_untrim(umem_dmabuf);
	umem_dmabuf->sgt = NULL;
	dma_buf_unmap_attachment(umem_dmabuf->attach, whole, DMA_BIDIRECTIONAL);
}
EXPORT_SYMBOL(ib_umem_dmabuf_unmap_pages);

/*
 * The umem of a window of @dmabuf, attached as a dynamic importer for
 * @dma_device (the device's own, or a DMA function of it); the caller's
 * dma-buf reference becomes the umem's on success.
 */
static struct ib_umem_dmabuf *
umem_dmabuf_attach(struct dma_buf *dmabuf, struct ib_device *device,
		   struct device *dma_device, unsigned long offset,
		   size_t size, int access,
		   const struct dma_buf_attach_ops *ops)
{
	struct ib_umem_dmabuf *ud = kzalloc(sizeof(*ud), GFP_KERNEL);
	struct dma_buf_attachment *attach;

	if (!ud)
		return ERR_PTR(-ENOMEM);
	ud->umem = (struct ib_umem) {
		.ibdev = device,
		.address = offset,
		.length = size,
		.writable = ib_access_writable(access),
		.is_dmabuf = 1,
	};
	if (!ib_umem_num_pages(&ud->umem))	/* an empty window */
		attach = ERR_PTR(-EINVAL);
	else
		attach = dma_buf_dynamic_attach(dmabuf, dma_device, ops, ud);
	if (IS_ERR(attach)) {
		kfree(ud);
		return ERR_CAST(attach);
	}
	ud->attach = attach;
	return ud;
}

/* ib_umem_dmabuf_get() for @dma_device. */
static struct ib_umem_dmabuf *
umem_dmabuf_get(struct ib_device *device, struct device *dma_device,
		unsigned long offset, size_t size, int fd, int access,
		const struct dma_buf_attach_ops *ops)
{
	struct ib_umem_dmabuf *ud;
	struct dma_buf *dmabuf;
	unsigned long end;

	if (check_add_overflow(offset, (unsigned long)size, &end) ||
	    !ops || !ops->move_notify)
		return ERR_PTR(-EINVAL);
	dmabuf = dma_buf_get(fd);
	if (IS_ERR(dmabuf))
		return ERR_CAST(dmabuf);

	ud = end > dmabuf->size ? ERR_PTR(-EINVAL) :
	     umem_dmabuf_attach(dmabuf, device, dma_device, offset, size,
				access, ops);
	if (IS_ERR(ud))
		dma_buf_put(dmabuf);
	return ud;
}

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
	return umem_dmabuf_get(device, device->dma_device, offset, size, fd,
			       access, ops);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get);

/* A pinned buffer never moves: an exporter calling this is broken. */
static void umem_dmabuf_pinned_move_notify(struct dma_buf_attachment *attach)
{
	struct ib_umem_dmabuf *umem_dmabuf = attach->importer_priv;

	ibdev_warn_ratelimited(umem_dmabuf->umem.ibdev,
			       "dma-buf moved although it is pinned\n");
}

/* What a pinned importer tells the exporter. */
static struct dma_buf_attach_ops umem_dmabuf_pinned_ops = {
	.allow_peer2peer = true,
	.move_notify = umem_dmabuf_pinned_move_notify,
};

/* Undo the pin and the mapping, whatever part was done (lock held). */
void umem_dmabuf_unmap_unpin_locked(struct ib_umem_dmabuf *ud)
{
	ib_umem_dmabuf_unmap_pages(ud);
	if (ud->pinned) {
		dma_buf_unpin(ud->attach);
		ud->pinned = 0;
	}
}

/*
 * Attach for @dma_device, pin and map: a buffer that stays put until
 * ib_umem_release().  Returns with the reservation lock held on success.
 */
struct ib_umem_dmabuf *
umem_dmabuf_get_pinned_locked(struct ib_device *device,
			      struct device *dma_device, unsigned long offset,
			      size_t size, int fd, int access,
			      const struct dma_buf_attach_ops *ops)
{
	struct ib_umem_dmabuf *ud = umem_dmabuf_get(device, dma_device, offset,
						    size, fd, access, ops);
	struct dma_resv *resv;
	int ret;

	if (IS_ERR(ud))
		return ud;
	resv = ud->attach->dmabuf->resv;
	dma_resv_lock(resv, NULL);
	ret = dma_buf_pin(ud->attach);
	if (!ret) {
		ud->pinned = 1;
		ret = ib_umem_dmabuf_map_pages(ud);
	}
	if (!ret)
		return ud;
	dma_resv_unlock(resv);
	ib_umem_release(&ud->umem);
	return ERR_PTR(ret);
}

/* The pinned import, unlocked, for @dma_device. */
static struct ib_umem_dmabuf *
umem_dmabuf_get_pinned(struct ib_device *device, struct device *dma_device,
		       unsigned long offset, size_t size, int fd, int access)
{
	struct ib_umem_dmabuf *ud =
		umem_dmabuf_get_pinned_locked(device, dma_device, offset, size,
					      fd, access,
					      &umem_dmabuf_pinned_ops);

	if (!IS_ERR(ud))
		dma_resv_unlock(ud->attach->dmabuf->resv);
	return ud;
}

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
	return umem_dmabuf_get_pinned(device, device->dma_device, offset, size,
				      fd, access);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get_pinned);

#ifdef OVB_HAVE_UMEM_DMABUF_DMA_DEVICE
/**
 * ib_umem_dmabuf_get_pinned_with_dma_device - ib_umem_dmabuf_get_pinned()
 *	for another DMA device than the IB device's own
 * @device: the importing IB device
 * @dma_device: the device that performs the DMA (e.g. a data-direct
 *	function of the same HCA)
 * @offset: start of the window in the dma-buf
 * @size: window length
 * @fd: the dma-buf file descriptor
 * @access: IB_ACCESS_* flags
 */
struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned_with_dma_device(struct ib_device *device,
					  struct device *dma_device,
					  unsigned long offset, size_t size,
					  int fd, int access)
{
	return umem_dmabuf_get_pinned(device, dma_device, offset, size, fd,
				      access);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get_pinned_with_dma_device);
#endif

/* ib_umem_release() of a dma-buf umem. */
void ib_umem_dmabuf_release(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct dma_buf_attachment *attach = umem_dmabuf->attach;
	struct dma_buf *dmabuf = attach->dmabuf;

	dma_resv_lock(dmabuf->resv, NULL);
	umem_dmabuf_revoke_locked(umem_dmabuf);
	dma_resv_unlock(dmabuf->resv);
	dma_buf_detach(dmabuf, attach);
	dma_buf_put(dmabuf);
	kfree(umem_dmabuf);
}
