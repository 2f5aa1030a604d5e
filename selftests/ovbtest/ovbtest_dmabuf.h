/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ovbtest_dmabuf.ko: the dma-buf exporter of the test HCA (dmabuf.c).
 * ovbtest.ko reaches it with symbol_get() only, so that neither module
 * needs the other loaded and rmmod ovbtest works while dma-bufs live (a
 * dma-buf holds its exporter's module, which therefore cannot be ovbtest).
 */
#ifndef OVBTEST_DMABUF_H
#define OVBTEST_DMABUF_H

#include <linux/dma-buf.h>
#include <linux/types.h>

/*
 * A new dma-buf of @npages zeroed pages (1..OVBTEST_DMABUF_MAX_PAGES),
 * @flags OVBTEST_DMABUF_*; the caller owns the file reference.
 */
struct dma_buf *ovbtest_dmabuf_create(unsigned int npages, u32 flags);

/*
 * The page behind @addr in the exporter's current mapping for @attach and
 * the offset of @addr in it; NULL if the dma-buf is not this exporter's
 * or @addr is not in the mapping.
 */
struct page *ovbtest_dmabuf_page(struct dma_buf_attachment *attach,
				 dma_addr_t addr, unsigned int *offset);

/*
 * Moves a dynamic buffer of this exporter to new pages, contents copied,
 * as a GPU driver evicts one: every importer gets move_notify under the
 * reservation lock, then the move happens unless one still maps or pins
 * the buffer (-EBUSY).  -EINVAL for a static buffer.  *@moves: how often
 * the buffer has moved.
 */
int ovbtest_dmabuf_move(struct dma_buf *dmabuf, u32 *moves);

#endif /* OVBTEST_DMABUF_H */
