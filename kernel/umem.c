// SPDX-License-Identifier: GPL-2.0
/*
 * Pinned user memory: HCA drivers turn a user buffer into a DMA-mapped
 * scatter table (struct ib_umem) for memory regions, queues and rings.
 * The exported prototypes, their kABI and their behaviour are those of the
 * in-tree ib_uverbs of 6.1; drivers call them unmodified.
 *
 * Pinned pages count against the owner's RLIMIT_MEMLOCK through
 * mm->pinned_vm, and stay charged to that mm until the umem is released,
 * even if another process (after fork or fd passing) releases it.
 */
#include <linux/mm.h>
#include <linux/dma-mapping.h>
#include <linux/sched/signal.h>
#include <linux/sched/mm.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/pagemap.h>
#include <linux/count_zeros.h>
#include <rdma/ib_umem_odp.h>

#include "uverbs.h"

/* Pages asked from pin_user_pages_fast() per call: one page of pointers. */
#define UMEM_PIN_BATCH	(PAGE_SIZE / sizeof(struct page *))

/* Drop the DMA mapping (if made) and the page pins of a plain umem. */
static void umem_unmap_unpin(struct ib_umem *umem, bool mapped)
{
	bool dirty = mapped && umem->writable;
	struct scatterlist *sg;
	unsigned int i;

	if (mapped)
		ib_dma_unmap_sgtable_attrs(umem->ibdev, &umem->sgt_append.sgt,
					   DMA_BIDIRECTIONAL, 0);
	for_each_sgtable_sg(&umem->sgt_append.sgt, sg, i)
		unpin_user_page_range_dirty_lock(sg_page(sg),
						 DIV_ROUND_UP(sg->length, PAGE_SIZE),
						 dirty);
	sg_free_append_table(&umem->sgt_append);
}

/* Charge @npages to the owner's locked-memory limit. */
static int umem_charge(struct mm_struct *mm, unsigned long npages)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;

	if (atomic64_add_return(npages, &mm->pinned_vm) > limit &&
	    !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Pin the pages under the umem batch by batch and append each batch to the
 * scatter table (merging contiguous pages up to the device's segment size).
 * On failure the caller unpins what the table already holds.
 */
static int umem_pin(struct ib_umem *umem, unsigned long npages,
		    unsigned int gup_flags)
{
	unsigned long next = umem->address & PAGE_MASK;
	struct page **batch;
	long pinned;
	int ret = 0;

	batch = (struct page **)__get_free_page(GFP_KERNEL);
	if (!batch)
		return -ENOMEM;

	while (npages) {
		cond_resched();
		pinned = pin_user_pages_fast(next, min(npages, UMEM_PIN_BATCH),
					     gup_flags, batch);
		if (pinned < 0) {
			ret = pinned;
			break;
		}
		next += pinned * PAGE_SIZE;
		npages -= pinned;
		ret = sg_alloc_append_table_from_pages(&umem->sgt_append, batch,
						       pinned, 0,
						       pinned << PAGE_SHIFT,
						       ib_dma_max_seg_size(umem->ibdev),
						       npages, GFP_KERNEL);
		if (ret) {
			unpin_user_pages_dirty_lock(batch, pinned, false);
			break;
		}
	}
	free_page((unsigned long)batch);
	return ret;
}

/* A plain umem of the caller's range, owned by (and charged to) its mm. */
static struct ib_umem *umem_new(struct ib_device *device, unsigned long addr,
				size_t size, int access)
{
	struct ib_umem *umem = kzalloc(sizeof(*umem), GFP_KERNEL);

	if (!umem)
		return NULL;
	*umem = (struct ib_umem) {
		.ibdev = device,
		.owning_mm = current->mm,
		/* until the driver picks a page size (ib_umem_find_best_pgsz) */
		.iova = addr,
		.length = size,
		.address = addr,
		.writable = ib_access_writable(access),
	};
	mmgrab(umem->owning_mm);
	return umem;
}

static void umem_free(struct ib_umem *umem)
{
	mmdrop(umem->owning_mm);
	kfree(umem);
}

static void umem_uncharge(struct ib_umem *umem, unsigned long npages)
{
	atomic64_sub(npages, &umem->owning_mm->pinned_vm);
}

/*
 * How to pin: for writing when the device may write.  Up to 6.1 read-only
 * pins are forced writes too, which breaks COW so that the HCA sees what
 * the task sees; later memory managers keep read-only long-term pins
 * coherent by themselves (compat.h).
 */
static unsigned int umem_gup_flags(const struct ib_umem *umem)
{
	if (umem->writable)
		return FOLL_LONGTERM | FOLL_WRITE;
	if (OVB_UMEM_FORCE_READONLY_PINS)
		return FOLL_LONGTERM | FOLL_WRITE | FOLL_FORCE;
	return FOLL_LONGTERM;
}

/*
 * Pin every page of a new umem and map them for its device; on failure
 * nothing stays pinned nor charged.
 */
static int umem_pin_and_map(struct ib_umem *umem, unsigned long npages,
			    int access)
{
	unsigned int gup_flags = umem_gup_flags(umem);
	unsigned long dma_attrs = access & IB_ACCESS_RELAXED_ORDERING ?
				  DMA_ATTR_WEAK_ORDERING : 0;
	int ret;

	if (npages == 0 || npages > UINT_MAX)
		return -EINVAL;
	ret = umem_charge(umem->owning_mm, npages);
	if (ret)
		return ret;
	ret = umem_pin(umem, npages, gup_flags) ?:
	      ib_dma_map_sgtable_attrs(umem->ibdev, &umem->sgt_append.sgt,
				       DMA_BIDIRECTIONAL, dma_attrs);
	if (ret) {
		umem_unmap_unpin(umem, false);
		umem_uncharge(umem, npages);
	}
	return ret;
}

/* ib_umem_release() of a umem of ib_umem_get(). */
static void umem_release_pinned(struct ib_umem *umem)
{
	umem_unmap_unpin(umem, true);
	umem_uncharge(umem, ib_umem_num_pages(umem));
	umem_free(umem);
}

/**
 * ib_umem_get - pin and DMA-map a range of the caller's memory
 * @device: the device that will access the memory
 * @addr: user virtual address of the first byte
 * @size: length in bytes
 * @access: IB_ACCESS_* flags; a writable access pins for writing
 *
 * Return: the umem, or ERR_PTR(-EINVAL) for an empty or wrapping range,
 * -EPERM when the caller may not lock memory at all, -EOPNOTSUPP for
 * on-demand paging (drivers use ib_umem_odp_get() for that), -ENOMEM over
 * RLIMIT_MEMLOCK without CAP_IPC_LOCK, or the pinning/mapping error.
 */
struct ib_umem *ib_umem_get(struct ib_device *device, unsigned long addr,
			    size_t size, int access)
{
	unsigned long end = addr + size;
	struct ib_umem *umem;
	int ret;

	if (end < addr || PAGE_ALIGN(end) < end)
		return ERR_PTR(-EINVAL);
	if (!can_do_mlock())
		return ERR_PTR(-EPERM);
	if (access & IB_ACCESS_ON_DEMAND)
		return ERR_PTR(-EOPNOTSUPP);

	umem = umem_new(device, addr, size, access);
	if (!umem)
		return ERR_PTR(-ENOMEM);
	ret = umem_pin_and_map(umem, ib_umem_num_pages(umem), access);
	if (!ret)
		return umem;
	umem_free(umem);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_umem_get);

/**
 * ib_umem_release - undo ib_umem_get() (or the dma-buf/ODP variants)
 * @umem: the umem; NULL is allowed
 */
void ib_umem_release(struct ib_umem *umem)
{
	if (!umem)
		return;
	if (umem->is_dmabuf)
		ib_umem_dmabuf_release(to_ib_umem_dmabuf(umem));
	else if (umem->is_odp)
		ib_umem_odp_release(to_ib_umem_odp(umem));
	else
		umem_release_pinned(umem);
}
EXPORT_SYMBOL(ib_umem_release);

/*
 * The largest size of @pgsz_bitmap that every set bit of @mask allows:
 * none above the lowest set bit (an address disagreeing in that bit).
 */
static unsigned long largest_fitting_pgsz(unsigned long pgsz_bitmap,
					  unsigned long mask)
{
	unsigned long fitting = pgsz_bitmap;

	if (mask)
		fitting &= GENMASK(count_trailing_zeros(mask), 0);
	return fitting ? rounddown_pow_of_two(fitting) : 0;
}

/**
 * ib_umem_find_best_pgsz - the largest device page size that maps the umem
 * @umem: the umem; its iova is set to @virt
 * @pgsz_bitmap: page sizes the device supports
 * @virt: the I/O virtual address the device will use for the first byte
 *
 * A device page of size S can map the umem at @virt only if, at every
 * point where the DMA addresses are not contiguous, the IOVA and the DMA
 * address agree in their low log2(S) bits and the IOVA there is S-aligned.
 * Every such disagreement is collected as set bits in one mask; the lowest
 * set bit caps the page size.  Sizes above what the whole IOVA range spans
 * are pointless and dropped first.
 *
 * Return: the chosen page size, or 0 if no supported size fits (never 0
 * when @pgsz_bitmap includes PAGE_SIZE or smaller).
 */
unsigned long ib_umem_find_best_pgsz(struct ib_umem *umem,
				     unsigned long pgsz_bitmap, u64 virt)
{
	unsigned long offset = umem->address & ~PAGE_MASK;
	dma_addr_t run_start = ~(dma_addr_t)0, run_end;
	unsigned long run_len = 0, mask = 0;
	struct scatterlist *sg;
	unsigned int span_bits;
	u64 iova = virt, last;
	int i;

	umem->iova = virt;
	if (umem->is_odp) {
		unsigned long odp_page = BIT(to_ib_umem_odp(umem)->page_shift);

		/* ODP umems have one fixed page size. */
		return (pgsz_bitmap & odp_page) ? odp_page : 0;
	}

	if (check_add_overflow(umem->length - 1, virt, &last))
		return 0;
	span_bits = bits_per(virt ^ last);
	if (span_bits < BITS_PER_LONG)
		mask = pgsz_bitmap & GENMASK(BITS_PER_LONG - 1, span_bits);

	for_each_sgtable_dma_sg(&umem->sgt_append.sgt, sg, i) {
		bool contiguous = !check_add_overflow(run_start, run_len,
						      &run_end) &&
				  run_end == sg_dma_address(sg);

		if (!contiguous) {
			run_start = sg_dma_address(sg);
			run_len = 0;
			mask |= (run_start + offset) ^ iova;
			/* A new run starts a device page: its IOVA aligns it. */
			if (i)
				mask |= iova;
		}
		run_len += sg_dma_len(sg);
		iova += sg_dma_len(sg) - offset;
		offset = 0;
	}
	return largest_fitting_pgsz(pgsz_bitmap, mask);
}
EXPORT_SYMBOL(ib_umem_find_best_pgsz);

/**
 * ib_umem_copy_from - copy bytes out of pinned user memory
 * @dst: kernel buffer
 * @umem: the umem
 * @offset: byte offset from the start of the umem
 * @length: bytes to copy
 *
 * Return: 0, or -EINVAL when the range is outside the umem.
 */
int ib_umem_copy_from(void *dst, struct ib_umem *umem, size_t offset,
		      size_t length)
{
	size_t copied;

	if (offset > umem->length || length > umem->length - offset) {
		pr_err("%s: range %zu+%zu outside umem of %zu bytes\n",
		       __func__, offset, length, umem->length);
		return -EINVAL;
	}
	copied = sg_pcopy_to_buffer(umem->sgt_append.sgt.sgl,
				    umem->sgt_append.sgt.orig_nents, dst,
				    length, offset + ib_umem_offset(umem));
	return copied == length ? 0 : -EINVAL;
}
EXPORT_SYMBOL(ib_umem_copy_from);

#ifdef OVB_HAVE_UMEM_CHECK_REREG
/**
 * ib_umem_check_rereg - may a driver keep @umem for a re-registration?
 * @umem: the MR's umem, or NULL (then there is nothing to check)
 * @flags: IB_MR_REREG_* of the request
 * @new_access_flags: the access the MR is to have
 *
 * A change of access alone keeps the pages as they were pinned: granting
 * write access to pages pinned read-only needs new pins, hence -EACCES
 * (the caller must ask for a translation change as well).
 */
int ib_umem_check_rereg(struct ib_umem *umem, int flags, int new_access_flags)
{
	bool access_only = (flags & IB_MR_REREG_ACCESS) &&
			   !(flags & IB_MR_REREG_TRANS);

	if (umem && access_only && !umem->writable &&
	    ib_access_writable(new_access_flags))
		return -EACCES;
	return 0;
}
EXPORT_SYMBOL(ib_umem_check_rereg);
#endif
