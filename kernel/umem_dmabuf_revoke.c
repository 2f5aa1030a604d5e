// SPDX-License-Identifier: GPL-2.0
/*
 * Revocable pinned dma-buf umems (kernels whose ib_uverbs exports them,
 * 6.12): the buffer is pinned and mapped like ib_umem_dmabuf_get_pinned()'s,
 * but its exporter may take it back (a VFIO device reset, a GPU that goes
 * away) through move_notify.  The driver registers a callback that stops
 * the HCA's DMA; then the umem is unmapped and unpinned and stays dead:
 * ib_umem_dmabuf_map_pages() refuses it.  Releasing the umem revokes it
 * first, so the callback runs at most once, always before the pages go.
 */
#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/module.h>

#include "uverbs.h"

#ifdef OVB_HAVE_UMEM_DMABUF_REVOKE

/*
 * Revoke (reservation lock held): the driver stops first, then the pages
 * go.  The callback runs once; the unmap and unpin run every time, so that
 * a pin taken after an early revocation (one between attach and pin) is
 * still dropped at release.  6.12 returns early and leaks that pin.
 */
void umem_dmabuf_revoke_locked(struct ib_umem_dmabuf *ud)
{
	dma_resv_assert_held(ud->attach->dmabuf->resv);
	if (!ud->revoked && ud->pinned_revoke)
		ud->pinned_revoke(ud->private);
	ud->revoked = 1;
	umem_dmabuf_unmap_unpin_locked(ud);
}

/*
 * The exporter takes the buffer back; possibly already while attaching,
 * before the umem knows its attachment (nothing is mapped yet then).
 */
static void umem_dmabuf_revocable_move_notify(struct dma_buf_attachment *attach)
{
	struct ib_umem_dmabuf *ud = attach->importer_priv;

	if (!ud->attach) {
		ud->revoked = 1;
		return;
	}
	umem_dmabuf_revoke_locked(ud);
}

static struct dma_buf_attach_ops umem_dmabuf_revocable_ops = {
	.allow_peer2peer = true,
	.move_notify = umem_dmabuf_revocable_move_notify,
};

/**
 * ib_umem_dmabuf_get_pinned_revocable_and_lock - pin and map a dma-buf
 *	window that its exporter may revoke
 * @device: the importing device
 * @offset: start of the window in the dma-buf
 * @size: window length
 * @fd: the dma-buf file descriptor
 * @access: IB_ACCESS_* flags
 *
 * Returns with the dma-buf's reservation lock held: the driver registers
 * its revoke callback (ib_umem_dmabuf_set_revoke_locked()) before it
 * unlocks, so no revocation can pass unnoticed.
 */
struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned_revocable_and_lock(struct ib_device *device,
					     unsigned long offset, size_t size,
					     int fd, int access)
{
	return umem_dmabuf_get_pinned_locked(device, device->dma_device,
					     offset, size, fd, access,
					     &umem_dmabuf_revocable_ops);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get_pinned_revocable_and_lock);

/**
 * ib_umem_dmabuf_set_revoke_locked - the driver's revoke callback
 * @umem_dmabuf: a revocable umem, its reservation lock held
 * @revoke: called (lock held) when the buffer is taken back or released;
 *	the HCA must not touch the pages once it returns
 * @priv: its argument
 */
void ib_umem_dmabuf_set_revoke_locked(struct ib_umem_dmabuf *umem_dmabuf,
				      void (*revoke)(void *priv), void *priv)
{
	dma_resv_assert_held(umem_dmabuf->attach->dmabuf->resv);
	umem_dmabuf->pinned_revoke = revoke;
	umem_dmabuf->private = priv;
}
EXPORT_SYMBOL(ib_umem_dmabuf_set_revoke_locked);

/**
 * ib_umem_dmabuf_revoke_lock - take the lock revocations run under
 * @umem_dmabuf: the umem
 *
 * A driver serialises with revocation through it (e.g. to re-check
 * whether the umem still maps anything).
 */
void ib_umem_dmabuf_revoke_lock(struct ib_umem_dmabuf *umem_dmabuf)
{
	dma_resv_lock(umem_dmabuf->attach->dmabuf->resv, NULL);
}
EXPORT_SYMBOL(ib_umem_dmabuf_revoke_lock);

/**
 * ib_umem_dmabuf_revoke_unlock - drop ib_umem_dmabuf_revoke_lock()
 * @umem_dmabuf: the umem
 */
void ib_umem_dmabuf_revoke_unlock(struct ib_umem_dmabuf *umem_dmabuf)
{
	dma_resv_unlock(umem_dmabuf->attach->dmabuf->resv);
}
EXPORT_SYMBOL(ib_umem_dmabuf_revoke_unlock);

/**
 * ib_umem_dmabuf_revoke - revoke a umem now (the driver's own decision)
 * @umem_dmabuf: the umem; its lock must not be held
 */
void ib_umem_dmabuf_revoke(struct ib_umem_dmabuf *umem_dmabuf)
{
	ib_umem_dmabuf_revoke_lock(umem_dmabuf);
	umem_dmabuf_revoke_locked(umem_dmabuf);
	ib_umem_dmabuf_revoke_unlock(umem_dmabuf);
}
EXPORT_SYMBOL(ib_umem_dmabuf_revoke);

#endif
