// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: mmap of driver queues and doorbells.
 *
 * The driver's mmap op maps its memory through ib_core's helpers
 * (rdma_user_mmap_io, rdma_user_mmap_entry_*), which record each mapping
 * as an rdma_umap_priv on the file's umaps list.  The vm_ops here keep
 * that list true across fork/split/unmap and, after a hot-unplug has
 * zapped the mappings, fault in a harmless page instead of device memory.
 */

#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "uverbs.h"

/* A VMA was duplicated (fork, split): track the copy as well. */
static void uverbs_umap_open(struct vm_area_struct *vma)
{
	struct ib_uverbs_file *ufile = vma->vm_file->private_data;
	struct rdma_umap_priv *orig = vma->vm_private_data;
	struct rdma_umap_priv *priv;

	if (!orig)
		return;
	/* The file is being torn down: the copy must not reach the device. */
	if (!down_read_trylock(&ufile->hw_destroy_rwsem))
		goto zap;
	if (!ufile->ucontext)
		goto unlock_zap;
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		goto unlock_zap;
	rdma_umap_priv_init(priv, vma, orig->entry);
	up_read(&ufile->hw_destroy_rwsem);
	return;

unlock_zap:
	up_read(&ufile->hw_destroy_rwsem);
zap:
	vma->vm_private_data = NULL;
	zap_vma_ptes(vma, vma->vm_start, vma->vm_end - vma->vm_start);
}

static void uverbs_umap_close(struct vm_area_struct *vma)
{
	struct ib_uverbs_file *ufile = vma->vm_file->private_data;
	struct rdma_umap_priv *priv = vma->vm_private_data;

	if (!priv)
		return;
	mutex_lock(&ufile->umap_lock);
	if (priv->entry)
		rdma_user_mmap_entry_put(priv->entry);
	list_del(&priv->list);
	mutex_unlock(&ufile->umap_lock);
	kfree(priv);
}

/*
 * Only reached after disassociation zapped the PTEs: reads see zeroes,
 * writes land in one private page per file so the process does not crash.
 */
static vm_fault_t uverbs_umap_fault(struct vm_fault *vmf)
{
	struct ib_uverbs_file *ufile = vmf->vma->vm_file->private_data;
	vm_fault_t ret = 0;

	if (!vmf->vma->vm_private_data)
		return VM_FAULT_SIGBUS;

	if (!(vmf->vma->vm_flags & (VM_WRITE | VM_MAYWRITE))) {
		vmf->page = ZERO_PAGE(vmf->address);
		get_page(vmf->page);
		return 0;
	}

	mutex_lock(&ufile->umap_lock);
	if (!ufile->disassociate_page)
		ufile->disassociate_page =
			alloc_pages(vmf->gfp_mask | __GFP_ZERO, 0);
	if (ufile->disassociate_page) {
		vmf->page = ufile->disassociate_page;
		get_page(vmf->page);
	} else {
		ret = VM_FAULT_SIGBUS;
	}
	mutex_unlock(&ufile->umap_lock);
	return ret;
}

static const struct vm_operations_struct uverbs_umap_ops = {
	.open = uverbs_umap_open,
	.close = uverbs_umap_close,
	.fault = uverbs_umap_fault,
};

int uverbs_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct ib_ucontext *ucontext;
	int srcu_key;
	int ret;

	srcu_key = srcu_read_lock(&ufile->device->disassociate_srcu);
	ucontext = ib_uverbs_get_ucontext_file(ufile);
	if (IS_ERR(ucontext)) {
		ret = PTR_ERR(ucontext);
		goto out;
	}
	/* Set before the driver runs: ib_core's helpers rely on it. */
	vma->vm_ops = &uverbs_umap_ops;
	ret = ucontext->device->ops.mmap(ucontext, vma);
out:
	srcu_read_unlock(&ufile->device->disassociate_srcu, srcu_key);
	return ret;
}

/* Finds one mm that still maps this file; NULL when none is left. */
static struct mm_struct *uverbs_next_umap_mm(struct ib_uverbs_file *ufile)
{
	struct rdma_umap_priv *priv;
	struct mm_struct *mm = NULL;

	mutex_lock(&ufile->umap_lock);
	while (!list_empty(&ufile->umaps)) {
		priv = list_first_entry(&ufile->umaps, struct rdma_umap_priv,
					list);
		if (mmget_not_zero(priv->vma->vm_mm)) {
			mm = priv->vma->vm_mm;
			break;
		}
		/* That process is exiting: its VMAs go without our help. */
		list_del_init(&priv->list);
		if (priv->entry) {
			rdma_user_mmap_entry_put(priv->entry);
			priv->entry = NULL;
		}
	}
	mutex_unlock(&ufile->umap_lock);
	return mm;
}

/* Hot-unplug: remove every device page from every process mapping it. */
void uverbs_user_mmap_disassociate(struct ib_uverbs_file *ufile)
{
	struct rdma_umap_priv *priv, *next;
	struct mm_struct *mm;

	lockdep_assert_held(&ufile->hw_destroy_rwsem);

	while ((mm = uverbs_next_umap_mm(ufile))) {
		mmap_read_lock(mm);
		mutex_lock(&ufile->umap_lock);
		list_for_each_entry_safe(priv, next, &ufile->umaps, list) {
			struct vm_area_struct *vma = priv->vma;

			if (vma->vm_mm != mm)
				continue;
			list_del_init(&priv->list);
			zap_vma_ptes(vma, vma->vm_start,
				     vma->vm_end - vma->vm_start);
			if (priv->entry) {
				rdma_user_mmap_entry_put(priv->entry);
				priv->entry = NULL;
			}
		}
		mutex_unlock(&ufile->umap_lock);
		mmap_read_unlock(mm);
		mmput(mm);
	}
}
