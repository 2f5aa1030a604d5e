// SPDX-License-Identifier: GPL-2.0
/*
 * On-demand paging (ODP) umems: nothing is pinned at registration.  The
 * umem watches its address range with an mmu_interval_notifier; when the
 * HCA faults, the driver asks ib_umem_odp_map_dma_and_lock() to fault the
 * pages in through hmm_range_fault() and DMA-map them, and when the mm
 * changes the range the driver's invalidate callback unmaps them again
 * with ib_umem_odp_unmap_dma_pages().  umem_mutex orders the two.
 *
 * dma_list holds one entry per umem page (1 << page_shift bytes): the DMA
 * address with the ODP_READ/WRITE_ALLOWED bits in its low bits, or 0 when
 * the page is not mapped.  pfn_list holds hmm's answer per CPU page.
 *
 * An implicit umem covers the whole address space and maps nothing
 * itself: it only holds the mm (mmgrab) and the owner for the children
 * the driver creates on faults.
 *
 * The exported prototypes, their kABI and their behaviour are those of
 * the in-tree ib_uverbs of 6.1 (mlx5_ib uses them).
 */
#include <linux/types.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/export.h>
#include <linux/vmalloc.h>
#include <linux/hugetlb.h>
#include <linux/interval_tree.h>
#include <linux/hmm.h>
#include <linux/pagemap.h>
#include <rdma/ib_umem_odp.h>

#include "uverbs.h"

/* A zeroed ODP umem with the fields every kind shares. */
static struct ib_umem_odp *odp_new(struct ib_device *device,
				   unsigned long addr, size_t size,
				   bool writable, struct mm_struct *mm,
				   const struct mmu_interval_notifier_ops *ops)
{
	struct ib_umem_odp *odp = kzalloc(sizeof(*odp), GFP_KERNEL);

	if (!odp)
		return NULL;
	odp->umem.ibdev = device;
	odp->umem.address = addr;
	odp->umem.length = size;
	odp->umem.writable = writable;
	/*
	 * No mmgrab here: the interval notifier holds the mm for a ranged
	 * umem; an implicit one takes its own (ib_umem_odp_alloc_implicit).
	 */
	odp->umem.owning_mm = mm;
	odp->notifier.ops = ops;
	odp->page_shift = PAGE_SHIFT;
	return odp;
}

static void odp_free_lists(struct ib_umem_odp *odp)
{
	kvfree(odp->dma_list);
	kvfree(odp->pfn_list);
}

/* Zeroed lists of @npfn CPU pages and @ndma umem pages, or neither. */
static int odp_alloc_lists(struct ib_umem_odp *odp, size_t npfn, size_t ndma)
{
	odp->pfn_list = kvcalloc(npfn, sizeof(*odp->pfn_list),
				 GFP_KERNEL | __GFP_NOWARN);
	odp->dma_list = kvcalloc(ndma, sizeof(*odp->dma_list),
				 GFP_KERNEL | __GFP_NOWARN);
	if (odp->pfn_list && odp->dma_list)
		return 0;
	odp_free_lists(odp);
	return -ENOMEM;
}

/*
 * Size the page lists of a ranged umem and start watching its range
 * (widened to whole umem pages); the caller holds a reference on the mm.
 */
static int odp_watch_range(struct ib_umem_odp *odp,
			   const struct mmu_interval_notifier_ops *ops)
{
	unsigned long page_size = BIT(odp->page_shift);
	unsigned long start, end;
	size_t ndma, npfn;
	int ret;

	if (check_add_overflow(odp->umem.address,
			       (unsigned long)odp->umem.length, &end))
		return -EOVERFLOW;
	start = ALIGN_DOWN(odp->umem.address, page_size);
	end = ALIGN(end, page_size);
	/* Aligning up past the top of the address space wraps to 0. */
	if (end < page_size)
		return -EOVERFLOW;
	ndma = (end - start) >> odp->page_shift;
	if (!ndma)
		return -EINVAL;
	npfn = (end - start) >> PAGE_SHIFT;

	ret = odp_alloc_lists(odp, npfn, ndma);
	if (ret)
		return ret;
	ret = mmu_interval_notifier_insert(&odp->notifier, odp->umem.owning_mm,
					   start, end - start, ops);
	if (ret)
		odp_free_lists(odp);
	return ret;
}

/* Undo odp_watch_range(), unmapping whatever is still mapped first. */
static void odp_unwatch_range(struct ib_umem_odp *odp)
{
	mutex_lock(&odp->umem_mutex);
	ib_umem_odp_unmap_dma_pages(odp, ib_umem_start(odp), ib_umem_end(odp));
	mutex_unlock(&odp->umem_mutex);
	mmu_interval_notifier_remove(&odp->notifier);
	odp_free_lists(odp);
}

/* The umem, its owner reference and an implicit umem's mm reference. */
static void odp_free(struct ib_umem_odp *odp)
{
	if (odp->is_implicit_odp)
		mmdrop(odp->umem.owning_mm);
	put_pid(odp->tgid);
	kfree(odp);
}

/*
 * Make @odp usable, owned by @owner (a reference the umem keeps): @odp,
 * or on failure the errno, with @owner dropped and @odp freed.
 */
static struct ib_umem_odp *odp_finish(struct ib_umem_odp *odp,
				      struct pid *owner,
				      const struct mmu_interval_notifier_ops *ops)
{
	int ret = 0;

	odp->tgid = owner;
	odp->umem.is_odp = 1;
	mutex_init(&odp->umem_mutex);
	if (!odp->is_implicit_odp)
		ret = odp_watch_range(odp, ops);
	if (!ret)
		return odp;
	odp_free(odp);
	return ERR_PTR(ret);
}

/* The calling process's thread group, which faults are served for. */
static struct pid *odp_current_owner(void)
{
	return get_task_pid(current->group_leader, PIDTYPE_PID);
}

/**
 * ib_umem_odp_alloc_implicit - the parent umem of an implicit ODP MR
 * @device: the device
 * @access: IB_ACCESS_* flags of the MR (huge pages are not supported)
 *
 * It has no range and no page lists; the driver makes children under it
 * with ib_umem_odp_alloc_child() for the ranges the HCA touches.  It
 * holds the caller's mm_struct (not its address space) until released,
 * because the MR can outlive the process: a fork child or a process the
 * file was passed to keeps it, and a child made after the registering
 * process exited must find the mm dead (-EFAULT), not freed or reused.
 * 6.1 and 6.12 hold nothing here, and mlx5 nothing in its MR.
 *
 * Return: the umem, or ERR_PTR(-EINVAL) for IB_ACCESS_HUGETLB, -ENOMEM.
 */
struct ib_umem_odp *ib_umem_odp_alloc_implicit(struct ib_device *device,
					       int access)
{
	struct ib_umem_odp *odp;

	if (access & IB_ACCESS_HUGETLB)
		return ERR_PTR(-EINVAL);
	odp = odp_new(device, 0, 0, ib_access_writable(access), current->mm,
		      NULL);
	if (!odp)
		return ERR_PTR(-ENOMEM);
	odp->is_implicit_odp = 1;
	mmgrab(odp->umem.owning_mm);
	return odp_finish(odp, odp_current_owner(), NULL);
}
EXPORT_SYMBOL(ib_umem_odp_alloc_implicit);

/**
 * ib_umem_odp_alloc_child - a ranged umem under an implicit parent
 * @root: the parent, from ib_umem_odp_alloc_implicit(); the caller keeps
 *	it alive during the call
 * @addr: user virtual address of the range
 * @size: length of the range in bytes
 * @ops: the driver's interval notifier ops (invalidate)
 *
 * Return: the umem, or ERR_PTR(-EFAULT) when the owner's mm is already
 * gone, -EINVAL/-EOVERFLOW for a bad range, -ENOMEM.
 */
struct ib_umem_odp *
ib_umem_odp_alloc_child(struct ib_umem_odp *root, unsigned long addr,
			size_t size,
			const struct mmu_interval_notifier_ops *ops)
{
	struct mm_struct *mm = root->umem.owning_mm;
	struct ib_umem_odp *child;

	if (WARN_ON(!root->is_implicit_odp))
		return ERR_PTR(-EINVAL);
	child = odp_new(root->umem.ibdev, addr, size, root->umem.writable, mm,
			ops);
	if (!child)
		return ERR_PTR(-ENOMEM);

	/* Inserting a notifier needs a live mm, not just a grabbed one. */
	if (mmget_not_zero(mm)) {
		child = odp_finish(child, get_pid(root->tgid), ops);
		mmput(mm);
		return child;
	}
	kfree(child);
	return ERR_PTR(-EFAULT);
}
EXPORT_SYMBOL(ib_umem_odp_alloc_child);

/* IB_ACCESS_HUGETLB makes a umem page one huge page, where there are any. */
static unsigned int odp_page_shift(int access)
{
#ifdef CONFIG_HUGETLB_PAGE
	if (access & IB_ACCESS_HUGETLB)
		return HPAGE_SHIFT;
#endif
	return PAGE_SHIFT;
}

/**
 * ib_umem_odp_get - an ODP umem for a range of the caller's memory
 * @device: the device
 * @addr: user virtual address of the range
 * @size: length of the range in bytes
 * @access: IB_ACCESS_* flags; must include IB_ACCESS_ON_DEMAND, and
 *	IB_ACCESS_HUGETLB makes the umem's page the huge page
 * @ops: the driver's interval notifier ops (invalidate)
 *
 * Nothing is pinned or mapped yet, so nothing is charged to
 * RLIMIT_MEMLOCK.
 *
 * Return: the umem, or ERR_PTR(-EINVAL/-EOVERFLOW) for a bad range or
 * missing ON_DEMAND flag, -ENOMEM.
 */
struct ib_umem_odp *ib_umem_odp_get(struct ib_device *device,
				    unsigned long addr, size_t size, int access,
				    const struct mmu_interval_notifier_ops *ops)
{
	struct ib_umem_odp *odp;

	if (WARN_ON_ONCE(!(access & IB_ACCESS_ON_DEMAND)))
		return ERR_PTR(-EINVAL);
	odp = odp_new(device, addr, size, ib_access_writable(access),
		      current->mm, ops);
	if (!odp)
		return ERR_PTR(-ENOMEM);
	odp->page_shift = odp_page_shift(access);
	return odp_finish(odp, odp_current_owner(), ops);
}
EXPORT_SYMBOL(ib_umem_odp_get);

/**
 * ib_umem_odp_release - undo ib_umem_odp_get() and the other allocators
 * @umem_odp: the umem
 *
 * The driver has already made sure the HCA no longer uses the range;
 * whatever is still mapped is unmapped here.
 */
void ib_umem_odp_release(struct ib_umem_odp *umem_odp)
{
	/* an implicit umem watches nothing and has no lists */
	if (!umem_odp->is_implicit_odp)
		odp_unwatch_range(umem_odp);
	odp_free(umem_odp);
}
EXPORT_SYMBOL(ib_umem_odp_release);

/*
 * Record @page in dma_list[@idx] with @access.  A page that is already
 * mapped stays mapped and only takes the new rights (a read-only page
 * becoming writable is no invalidation).  -EFAULT if mapping fails.
 */
static int odp_map_page(struct ib_umem_odp *odp, unsigned int idx,
			struct page *page, u64 access)
{
	struct ib_device *dev = odp->umem.ibdev;
	dma_addr_t *entry = &odp->dma_list[idx];
	dma_addr_t addr;

	if (*entry) {
		*entry = (*entry & ODP_DMA_ADDR_MASK) | access;
		return 0;
	}
	addr = ib_dma_map_page(dev, page, 0, BIT(odp->page_shift),
			       DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(dev, addr))
		return -EFAULT;
	*entry = addr | access;
	odp->npages++;
	return 0;
}

/*
 * Fill range->hmm_pfns for the range and take umem_mutex, at a moment no
 * invalidation has hit the range since hmm looked.  hmm answers -EBUSY
 * while an invalidation runs: retry that until the default timeout.
 */
static int odp_fault_and_lock(struct ib_umem_odp *odp, struct hmm_range *range)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(HMM_RANGE_DEFAULT_TIMEOUT);
	struct mm_struct *mm = odp->umem.owning_mm;
	int ret;

	for (;;) {
		range->notifier_seq = mmu_interval_read_begin(&odp->notifier);
		mmap_read_lock(mm);
		ret = hmm_range_fault(range);
		mmap_read_unlock(mm);
		if (ret == -EBUSY && !time_after(jiffies, deadline))
			continue;
		if (ret)
			return ret;

		mutex_lock(&odp->umem_mutex);
		if (!mmu_interval_read_retry(&odp->notifier,
					     range->notifier_seq))
			return 0;
		mutex_unlock(&odp->umem_mutex);
	}
}

/*
 * DMA-map what hmm found, umem page by umem page, from dma_list[@first].
 * Without @fault only the pages hmm saw present are mapped, with the
 * rights their CPU mapping has.  Returns the number of umem pages
 * walked, or the error that stopped the walk.
 */
static int odp_map_range(struct ib_umem_odp *odp, struct hmm_range *range,
			 unsigned int first, u64 access, bool fault)
{
	unsigned long npfns = (range->end - range->start) >> PAGE_SHIFT;
	unsigned int step = BIT(odp->page_shift - PAGE_SHIFT);
	unsigned int idx = first;
	unsigned long i;
	int ret;

	for (i = 0; i < npfns; i += step, idx++) {
		unsigned long pfn = range->hmm_pfns[i];

		if (fault) {
			/* hmm_range_fault() succeeded: all are present. */
			WARN_ON(pfn & HMM_PFN_ERROR);
			WARN_ON(!(pfn & HMM_PFN_VALID));
		} else {
			if (!(pfn & HMM_PFN_VALID)) {
				WARN_ON(odp->dma_list[idx]);
				continue;
			}
			access = ODP_READ_ALLOWED_BIT;
			if (pfn & HMM_PFN_WRITE)
				access |= ODP_WRITE_ALLOWED_BIT;
		}

		/* A CPU page smaller than the umem's page cannot be mapped. */
		if (hmm_pfn_to_map_order(pfn) + PAGE_SHIFT < odp->page_shift) {
			ibdev_dbg(odp->umem.ibdev,
				  "%s: map order %u below umem page shift %u\n",
				  __func__, hmm_pfn_to_map_order(pfn),
				  odp->page_shift);
			return -EINVAL;
		}
		ret = odp_map_page(odp, idx, hmm_pfn_to_page(pfn), access);
		if (ret) {
			ibdev_dbg(odp->umem.ibdev,
				  "%s: DMA mapping failed: %d\n", __func__,
				  ret);
			return ret;
		}
	}
	return idx - first;
}

/**
 * ib_umem_odp_map_dma_and_lock - fault in and DMA-map part of an ODP umem
 * @umem_odp: the umem (not implicit)
 * @user_virt: first user address needed
 * @bcnt: bytes needed from @user_virt (widened to whole umem pages)
 * @access_mask: ODP_READ_ALLOWED_BIT / ODP_WRITE_ALLOWED_BIT wanted
 * @fault: fault missing pages in; without it only the pages present in
 *	the CPU page table are mapped (prefetch of what is there)
 *
 * On success umem_mutex is held, so the caller can program the device's
 * page table before an invalidation can take the pages away.
 *
 * Return: the number of umem pages covered (umem_mutex held), or -EINVAL
 * (no access asked, the owner is gone, a page smaller than the umem's),
 * -EFAULT (outside the umem, a DMA mapping failed) or hmm's error
 * (umem_mutex not held).
 */
int ib_umem_odp_map_dma_and_lock(struct ib_umem_odp *umem_odp, u64 user_virt,
				 u64 bcnt, u64 access_mask, bool fault)
{
	unsigned long page_size = BIT(umem_odp->page_shift);
	struct mm_struct *mm = umem_odp->umem.owning_mm;
	unsigned long umem_start = ib_umem_start(umem_odp);
	struct hmm_range range = { .notifier = &umem_odp->notifier };
	struct task_struct *owner;
	int ret;

	if (!access_mask)
		return -EINVAL;
	if (user_virt < umem_start ||
	    user_virt + bcnt > ib_umem_end(umem_odp))
		return -EFAULT;

	/*
	 * The mm may outlive the process that registered the umem; then
	 * there is nobody left to fault pages in for.
	 */
	owner = get_pid_task(umem_odp->tgid, PIDTYPE_PID);
	if (!owner)
		return -EINVAL;
	if (!mmget_not_zero(mm)) {
		ret = -EINVAL;
		goto out_task;
	}

	range.start = ALIGN_DOWN(user_virt, page_size);
	range.end = ALIGN(user_virt + bcnt, page_size);
	range.hmm_pfns = &umem_odp->pfn_list[(range.start - umem_start) >>
					     PAGE_SHIFT];
	if (fault) {
		range.default_flags = HMM_PFN_REQ_FAULT;
		if (access_mask & ODP_WRITE_ALLOWED_BIT)
			range.default_flags |= HMM_PFN_REQ_WRITE;
	}

	ret = odp_fault_and_lock(umem_odp, &range);
	if (ret)
		goto out_mm;
	ret = odp_map_range(umem_odp, &range,
			    (range.start - umem_start) >> umem_odp->page_shift,
			    access_mask, fault);
	/* The caller unlocks after using the mapping; not on failure. */
	if (ret < 0)
		mutex_unlock(&umem_odp->umem_mutex);
out_mm:
	/* Possibly the last user of the mm: do not tear it down here. */
	mmput_async(mm);
out_task:
	put_task_struct(owner);
	return ret;
}
EXPORT_SYMBOL(ib_umem_odp_map_dma_and_lock);

/**
 * ib_umem_odp_unmap_dma_pages - DMA-unmap part of an ODP umem
 * @umem_odp: the umem; its umem_mutex must be held
 * @virt: first user address (clamped to the umem)
 * @bound: address after the last one (clamped to the umem)
 *
 * Pages the device could write are marked dirty: umem_mutex, not the
 * page lock, keeps the invalidation from completing meanwhile.
 */
void ib_umem_odp_unmap_dma_pages(struct ib_umem_odp *umem_odp, u64 virt,
				 u64 bound)
{
	unsigned long umem_start = ib_umem_start(umem_odp);
	struct ib_device *dev = umem_odp->umem.ibdev;
	u64 page_size = BIT(umem_odp->page_shift);
	u64 addr;

	lockdep_assert_held(&umem_odp->umem_mutex);

	virt = max_t(u64, virt, umem_start);
	bound = min_t(u64, bound, ib_umem_end(umem_odp));
	for (addr = virt; addr < bound; addr += page_size) {
		unsigned long offset = addr - umem_start;
		unsigned long idx = offset >> umem_odp->page_shift;
		dma_addr_t entry = umem_odp->dma_list[idx];
		unsigned long pfn;

		if (!entry)
			continue;
		ib_dma_unmap_page(dev, entry & ODP_DMA_ADDR_MASK, page_size,
				  DMA_BIDIRECTIONAL);
		if (entry & ODP_WRITE_ALLOWED_BIT) {
			pfn = umem_odp->pfn_list[offset >> PAGE_SHIFT];
			set_page_dirty(compound_head(hmm_pfn_to_page(pfn)));
		}
		umem_odp->dma_list[idx] = 0;
		umem_odp->npages--;
	}
}
EXPORT_SYMBOL(ib_umem_odp_unmap_dma_pages);
