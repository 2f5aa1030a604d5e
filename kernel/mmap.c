// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: mmap of driver queues and doorbells.
 *
 * The driver's mmap op maps its memory through ib_core's helpers
 * (rdma_user_mmap_io, rdma_user_mmap_entry_*), which record each mapping
 * as an rdma_umap_priv on the file's umaps list.  The vm_ops here keep
 * that list true across fork/split/unmap and, after a hot-unplug has
 * zapped the mappings, fault in a harmless page instead of device memory.
 *
 * A record's life: linked by ib_core at mmap, linked again for every copy
 * of a live mapping (uverbs_umap_open), unlinked by close, or early by a
 * revoke (umap_unlink), which leaves the VMA with a record that maps
 * nothing; copies of such a VMA get such a record too.
 */

#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

/* rdma_user_mmap_disassociate's CRC: 6.12 exports it where these are seen */
#include "core_types.h"

static struct ib_uverbs_file *vma_ufile(struct vm_area_struct *vma)
{
	return vma->vm_file->private_data;
}

static void vma_zap_all(struct vm_area_struct *vma)
{
	zap_vma_ptes(vma, vma->vm_start, vma->vm_end - vma->vm_start);
}

/* Off the file's list, and the driver's entry let go.  umap_lock held. */
static void umap_unlink(struct rdma_umap_priv *priv)
{
	list_del_init(&priv->list);
	if (!priv->entry)
		return;
	rdma_user_mmap_entry_put(priv->entry);
	priv->entry = NULL;
}

/*
 * @vma, a copy, maps nothing and never will: zapping its original freed
 * the PAT memtype the copy inherited (x86), so its unmap must not look
 * for it (it would WARN in untrack_pfn).  Fork does the same for every
 * copy (untrack_pfn_clear); mremap's and a split's keep the flag.
 */
static void vma_forget_pat(struct vm_area_struct *vma)
{
#ifdef VM_PAT
	ovb_vm_flags_clear(vma, VM_PAT);
#endif
}

/*
 * The record of a mapping that maps nothing any more (revoked): off the
 * file's list and holding no entry, so the revoke never needs to visit
 * it, and faults on it get the harmless page.
 */
static void umap_init_revoked(struct rdma_umap_priv *priv,
			      struct vm_area_struct *vma)
{
	priv->vma = vma;
	priv->entry = NULL;
	INIT_LIST_HEAD(&priv->list);
	vma->vm_private_data = priv;
}

/*
 * A VMA was duplicated: fork (dup_mmap), a split, or mremap's copy_vma.
 * Each caller holds the mmap_lock of @orig's mm for write and calls open
 * before any PTE reaches the copy (copy_page_range, move_page_tables),
 * and before a split shrinks @orig.  So @orig's list membership is
 * stable here: its record leaves the list only under that lock (close,
 * the revoke's zap) or once its mm has no users (umaps_next_mm), which a
 * process running open is not.
 *
 *  - @orig still listed, no hot-unplug: the copy is listed too, with its
 *    own reference on the driver's entry, and a later revoke finds it.
 *  - A hot-unplug is under way (it holds or waits for hw_destroy_rwsem
 *    for write; only the unplug does, as a VMA keeps the file open): its
 *    revoke may be waiting for the mmap_lock we hold, and would visit a
 *    listed copy only after, while fork would fill the copy with
 *    @orig's device PTEs right after this.  So @orig is revoked here and
 *    now, its PTEs zapped before they can be copied or moved.
 *  - @orig not listed (revoked): the copy is not listed either, so
 *    nothing joins the list while a revoke empties it, and the revoke
 *    ends whatever user space keeps doing.  With the file disassociated
 *    (after an unplug, or during one) the copy is emptied and left
 *    without a record, so faults on it SIGBUS, as in 6.1; after a
 *    driver's revoke (the context lives on) it gets a revoked record,
 *    faulting in the harmless page as its original does, as in 6.12.
 *
 * A live copy cannot be left out: it would get @orig's PTEs out of
 * every revoke's sight.  Its record is a few bytes, allocated NOFAIL.
 */
static void uverbs_umap_open(struct vm_area_struct *vma)
{
	struct rdma_umap_priv *orig = vma->vm_private_data;
	struct ib_uverbs_file *ufile = vma_ufile(vma);
	struct rdma_umap_priv *copy = NULL;
	bool unplugging, listed;

	if (!orig)
		return;
	unplugging = !down_read_trylock(&ufile->hw_destroy_rwsem);

	mutex_lock(&ufile->umap_lock);
	if (unplugging && !list_empty(&orig->list)) {
		vma_zap_all(orig->vma);
		umap_unlink(orig);
	}
	listed = !list_empty(&orig->list);
	mutex_unlock(&ufile->umap_lock);

	if (listed || (!unplugging && ufile->ucontext))
		copy = kzalloc(sizeof(*copy), GFP_KERNEL | __GFP_NOFAIL);
	if (listed) {
		/* links the copy, taking umap_lock itself */
		rdma_umap_priv_init(copy, vma, orig->entry);
	} else if (copy) {
		umap_init_revoked(copy, vma);
	} else if (unplugging) {
		/* nothing to zap: @orig's PTEs went, with its PAT memtype */
		vma->vm_private_data = NULL;
		vma_forget_pat(vma);
	} else {
		vma->vm_private_data = NULL;
		vma_zap_all(vma);
	}
	if (!unplugging)
		up_read(&ufile->hw_destroy_rwsem);
}

static void uverbs_umap_close(struct vm_area_struct *vma)
{
	struct ib_uverbs_file *ufile = vma_ufile(vma);
	struct rdma_umap_priv *priv = vma->vm_private_data;

	if (!priv)
		return;
	mutex_lock(&ufile->umap_lock);
	umap_unlink(priv);
	mutex_unlock(&ufile->umap_lock);
	kfree(priv);
}

/* The file's one zeroed page that writes after a hot-unplug land in. */
static struct page *ufile_spare_page(struct ib_uverbs_file *ufile, gfp_t gfp)
{
	struct page *page;

	mutex_lock(&ufile->umap_lock);
	if (!ufile->disassociate_page)
		ufile->disassociate_page = alloc_pages(gfp | __GFP_ZERO, 0);
	page = ufile->disassociate_page;
	if (page)
		get_page(page);
	mutex_unlock(&ufile->umap_lock);
	return page;
}

/*
 * Only reached after disassociation zapped the PTEs: reads see zeroes,
 * writes land in one private page per file so the process does not crash.
 */
static vm_fault_t uverbs_umap_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct page *page;

	if (!vma->vm_private_data)
		return VM_FAULT_SIGBUS;
	if (vma->vm_flags & (VM_WRITE | VM_MAYWRITE)) {
		page = ufile_spare_page(vma_ufile(vma), vmf->gfp_mask);
		if (!page)
			return VM_FAULT_SIGBUS;
	} else {
		page = ZERO_PAGE(vmf->address);
		get_page(page);
	}
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct uverbs_umap_ops = {
	.open = uverbs_umap_open,
	.close = uverbs_umap_close,
	.fault = uverbs_umap_fault,
};

/* The driver maps under the disassociate SRCU, so a hot-unplug waits. */
int uverbs_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct srcu_struct *unplug = &ufile->device->disassociate_srcu;
	int key = srcu_read_lock(unplug);
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext_file(ufile);
	int ret = PTR_ERR_OR_ZERO(ucontext);

	if (!ret) {
		ufile_mmap_lock(ufile);
		/* Set before the driver runs: ib_core's helpers rely on it. */
		vma->vm_ops = &uverbs_umap_ops;
		ret = ucontext->device->ops.mmap(ucontext, vma);
		ufile_mmap_unlock(ufile);
	}
	srcu_read_unlock(unplug, key);
	return ret;
}

/*
 * One mm that still maps this file, with a reference; NULL when none is
 * left.  The oldest record first (ib_core adds at the head): a process
 * that keeps forking is reached before its children, and once revoked
 * makes only revoked copies.  Records of exiting processes are dropped
 * on the way: their VMAs go without our help.
 */
static struct mm_struct *umaps_next_mm(struct ib_uverbs_file *ufile)
{
	struct rdma_umap_priv *first;
	struct mm_struct *mm = NULL;

	mutex_lock(&ufile->umap_lock);
	while (!mm && !list_empty(&ufile->umaps)) {
		first = list_last_entry(&ufile->umaps, struct rdma_umap_priv,
					list);
		if (mmget_not_zero(first->vma->vm_mm))
			mm = first->vma->vm_mm;
		else
			umap_unlink(first);
	}
	mutex_unlock(&ufile->umap_lock);
	return mm;
}

/*
 * Empty every VMA of @mm that maps this file.  mmap_lock held for read.
 *
 * munmap takes VMAs out of the tree, then may drop to a read lock while
 * it frees their page tables, and only then closes them: such a VMA is
 * still listed, but zapping it would walk page tables being freed.  It
 * is skipped; its close, soon, unlinks it.  True if anything was zapped.
 */
static bool umaps_zap_mm(struct ib_uverbs_file *ufile, struct mm_struct *mm)
{
	struct rdma_umap_priv *priv, *next;
	bool zapped = false;

	mutex_lock(&ufile->umap_lock);
	list_for_each_entry_safe(priv, next, &ufile->umaps, list) {
		if (priv->vma->vm_mm != mm ||
		    vma_lookup(mm, priv->vma->vm_start) != priv->vma)
			continue;
		/* the pages go before the driver may free what they map */
		vma_zap_all(priv->vma);
		umap_unlink(priv);
		zapped = true;
	}
	mutex_unlock(&ufile->umap_lock);
	return zapped;
}

/*
 * Remove every device page of @ufile from every process mapping it.
 *
 * A driver mmap that began before this call must not survive it: taking
 * and dropping the file's mmap lock waits for any that is running, and
 * its record is on the list by then.  The lock is not held across the
 * zap, which takes mmap_lock: driver mmaps run under mmap_lock and take
 * the file's lock, so holding it here would invert that order.  Mmaps
 * that begin later are the driver's to refuse (while it resets, say).
 */
static void umaps_revoke(struct ib_uverbs_file *ufile)
{
	struct mm_struct *mm;
	bool zapped;

	ufile_mmap_lock(ufile);
	ufile_mmap_unlock(ufile);
	while ((mm = umaps_next_mm(ufile))) {
		mmap_read_lock(mm);
		zapped = umaps_zap_mm(ufile, mm);
		mmap_read_unlock(mm);
		mmput(mm);
		/*
		 * Nothing zapped: the mm's only records are VMAs munmap is
		 * closing.  Sleep a tick, not just yield: a revoke running
		 * at a realtime priority would otherwise starve that munmap.
		 */
		if (zapped)
			cond_resched();
		else
			schedule_timeout_uninterruptible(1);
	}
}

/* Hot-unplug (the file's objects are going): revoke its mmaps. */
void uverbs_user_mmap_disassociate(struct ib_uverbs_file *ufile)
{
	lockdep_assert_held(&ufile->hw_destroy_rwsem);
	umaps_revoke(ufile);
}

#ifdef OVB_HAVE_MMAP_DISASSOCIATE
/**
 * rdma_user_mmap_disassociate - revoke every user mmap of a device
 * @device: the device, e.g. before a reset
 *
 * Afterwards no process maps the device's pages through any uverbs file;
 * faults on the old mappings get a harmless page.  The files, their
 * objects and later mmaps stay the driver's business.
 */
void rdma_user_mmap_disassociate(struct ib_device *device)
{
	struct ib_uverbs_device *udev =
		ib_get_client_data(device, &uverbs_client);
	struct ib_uverbs_file *ufile;

	if (!udev)
		return;
	mutex_lock(&udev->lists_mutex);
	list_for_each_entry(ufile, &udev->uverbs_file_list, list)
		if (READ_ONCE(ufile->ucontext))
			umaps_revoke(ufile);
	mutex_unlock(&udev->lists_mutex);
}
EXPORT_SYMBOL(rdma_user_mmap_disassociate);
#endif
