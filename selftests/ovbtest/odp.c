// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: on-demand paging MRs and ADVISE_MR, loaded with odp=1, as an
 * ODP-capable HCA driver (mlx5) has them:
 *  - query_device reports ODP caps, and IBK_ON_DEMAND_PAGING so that
 *    ib_check_mr_access() lets IB_ACCESS_ON_DEMAND through;
 *  - REG_MR with IB_ACCESS_ON_DEMAND registers an ib_umem_odp without
 *    pinning anything (what is present already is mapped, nothing is
 *    faulted), or, for start 0 and length U64_MAX, an implicit MR whose
 *    child ranges are made when first reached;
 *  - the umem's interval notifier unmaps what the kernel invalidates;
 *  - the HCA's "DMA" (COPY, verbs.c) faults in the pages it reaches,
 *    as a device's page fault would, and reaches them under umem_mutex;
 *  - ADVISE_MR prefetches (PREFETCH read-only, PREFETCH_WRITE, and
 *    PREFETCH_NO_FAULT what is present), with mlx5's lookups and errnos;
 *    mlx5 runs a prefetch without FLUSH on a workqueue after checking
 *    every key, this driver runs it before returning, its errors unseen
 *    as there.
 * Without odp=1 none of it exists and the device has no advise_mr.
 */
#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/srcu.h>
#include <linux/uaccess.h>
#include <rdma/ib_umem_odp.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

static bool odp;
module_param(odp, bool, 0444);
MODULE_PARM_DESC(odp, "on-demand paging MRs and ADVISE_MR, as mlx5 (default off)");

/*
 * Whether an implicit MR registered from now on holds its mm itself
 * (ovbtest_odp_mr_new()).  N is mlx5's way: the mm is then only as safe
 * as ib_uverbs' implicit umem keeps it.
 */
static bool odp_mm_hold = true;
module_param(odp_mm_hold, bool, 0644);
MODULE_PARM_DESC(odp_mm_hold, "implicit ODP MRs take their own mm reference (N: as mlx5, default Y)");

static atomic64_t ovbtest_odp_invalidations;
static atomic64_t ovbtest_odp_fault_pages;
static atomic64_t ovbtest_odp_prefetch_pages;

static int ovbtest_odp_count_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lld\n",
			  (long long)atomic64_read((atomic64_t *)kp->arg));
}

static const struct kernel_param_ops ovbtest_odp_count_ops = {
	.get = ovbtest_odp_count_get,
};

module_param_cb(odp_invalidations, &ovbtest_odp_count_ops,
		&ovbtest_odp_invalidations, 0444);
MODULE_PARM_DESC(odp_invalidations, "ODP invalidate callbacks that unmapped pages");
module_param_cb(odp_fault_pages, &ovbtest_odp_count_ops,
		&ovbtest_odp_fault_pages, 0444);
MODULE_PARM_DESC(odp_fault_pages, "ODP pages mapped by the HCA's faults (COPY)");
module_param_cb(odp_prefetch_pages, &ovbtest_odp_count_ops,
		&ovbtest_odp_prefetch_pages, 0444);
MODULE_PARM_DESC(odp_prefetch_pages, "ODP pages mapped by ADVISE_MR");

/* ADVISE_MR finds MRs by key under it; DEREG waits for it. */
DEFINE_STATIC_SRCU(ovbtest_odp_srcu);

bool ovbtest_odp_enabled(void)
{
	return odp;
}

#define OVBTEST_ODP_RC	(IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV | \
			 IB_ODP_SUPPORT_WRITE | IB_ODP_SUPPORT_READ | \
			 IB_ODP_SUPPORT_ATOMIC | IB_ODP_SUPPORT_SRQ_RECV)
#define OVBTEST_ODP_UD	(IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_SRQ_RECV)

/*
 * The caps mlx5 reports for a device with every ODP capability bit; to
 * the kernel's own query (@user false: no udata, at registration) without
 * READ and SRQ_RECV, which mlx5 does not do for kernel QPs.
 */
void ovbtest_odp_caps(struct ib_device_attr *attr, bool user)
{
	u32 off = user ? 0 : IB_ODP_SUPPORT_READ | IB_ODP_SUPPORT_SRQ_RECV;
	struct ib_odp_caps *caps = &attr->odp_caps;

	if (!odp)
		return;
	attr->kernel_cap_flags |= IBK_ON_DEMAND_PAGING;
	caps->general_caps = IB_ODP_SUPPORT | IB_ODP_SUPPORT_IMPLICIT;
	caps->per_transport_caps.rc_odp_caps = OVBTEST_ODP_RC & ~off;
	caps->per_transport_caps.xrc_odp_caps = OVBTEST_ODP_RC & ~off;
	caps->per_transport_caps.ud_odp_caps = OVBTEST_ODP_UD & ~off;
}

/*
 * The kernel takes pages away from the range: the "HCA" forgets them
 * (unmaps them) before the kernel goes on, as mlx5 zaps its MTTs.
 */
static bool ovbtest_odp_invalidate(struct mmu_interval_notifier *mni,
				   const struct mmu_notifier_range *range,
				   unsigned long cur_seq)
{
	struct ib_umem_odp *umem_odp =
		container_of(mni, struct ib_umem_odp, notifier);
	struct ovbtest_mr *mr;
	int before;

	if (!mmu_notifier_range_blockable(range))
		return false;
	mutex_lock(&umem_odp->umem_mutex);
	mmu_interval_set_seq(mni, cur_seq);
	before = umem_odp->npages;
	ib_umem_odp_unmap_dma_pages(umem_odp,
				    max_t(u64, ib_umem_start(umem_odp),
					  range->start),
				    min_t(u64, ib_umem_end(umem_odp),
					  range->end));
	/* set before any page is mapped, and the notifier goes first */
	mr = umem_odp->private;
	if (umem_odp->npages != before && mr) {
		atomic64_inc(&ovbtest_odp_invalidations);
		atomic64_inc(&mr->odp_invalidations);
	}
	mutex_unlock(&umem_odp->umem_mutex);
	return true;
}

static const struct mmu_interval_notifier_ops ovbtest_odp_mn_ops = {
	.invalidate = ovbtest_odp_invalidate,
};

/*
 * [@va, @va + @len) of @umem_odp mapped (for writing too when @write),
 * faulted in when @fault, else what is present; the pages newly mapped
 * counted into @count (if not NULL).  Returns with umem_mutex held when >= 0.
 */
static int ovbtest_odp_map_locked(struct ib_umem_odp *umem_odp, u64 va,
				  u64 len, bool write, bool fault,
				  atomic64_t *count)
{
	u64 mask = ODP_READ_ALLOWED_BIT | (write ? ODP_WRITE_ALLOWED_BIT : 0);
	int before = READ_ONCE(umem_odp->npages);
	int ret;

	ret = ib_umem_odp_map_dma_and_lock(umem_odp, va, len, mask, fault);
	if (ret >= 0 && count && umem_odp->npages > before)
		atomic64_add(umem_odp->npages - before, count);
	return ret;
}

/*
 * An implicit MR's child range around @va, made if not yet there; ENOMEM
 * past OVBTEST_ODP_MAX_CHILDREN (mlx5 has no such cap: its 1 GiB children
 * are made until an allocation fails).
 */
static struct ib_umem_odp *ovbtest_odp_child(struct ovbtest_mr *mr, u64 va)
{
	unsigned long idx = va >> OVBTEST_ODP_CHILD_SHIFT;
	struct ib_umem_odp *child;
	int ret;

	mutex_lock(&mr->odp_lock);
	child = xa_load(&mr->odp_children, idx);
	if (child)
		goto out;
	if (mr->odp_nchildren >= OVBTEST_ODP_MAX_CHILDREN) {
		child = ERR_PTR(-ENOMEM);
		goto out;
	}
	child = ib_umem_odp_alloc_child(to_ib_umem_odp(mr->umem),
					(u64)idx << OVBTEST_ODP_CHILD_SHIFT,
					BIT_ULL(OVBTEST_ODP_CHILD_SHIFT),
					&ovbtest_odp_mn_ops);
	if (IS_ERR(child))
		goto out;
	mutex_lock(&child->umem_mutex);
	child->private = mr;
	mutex_unlock(&child->umem_mutex);
	ret = xa_err(xa_store(&mr->odp_children, idx, child, GFP_KERNEL));
	if (ret) {
		ib_umem_odp_release(child);
		child = ERR_PTR(ret);
	} else {
		mr->odp_nchildren++;
	}
out:
	mutex_unlock(&mr->odp_lock);
	return child;
}

/*
 * @len bytes at @va of @umem_odp (all inside it) to or from @buf: the
 * pages faulted in as a device's page fault would, then reached at the
 * DMA addresses ib_umem_odp mapped (what the device's translation holds;
 * dmabuf_mr.c turns them into pages), under umem_mutex, which keeps
 * invalidations out until the copy is done.
 */
static int ovbtest_odp_copy(struct ib_umem_odp *umem_odp, u64 va, void *buf,
			    size_t len, bool to_umem)
{
	u64 need = ODP_READ_ALLOWED_BIT | (to_umem ? ODP_WRITE_ALLOWED_BIT : 0);
	struct device *dma_dev = umem_odp->umem.ibdev->dma_device;
	unsigned int in;
	size_t done, n;
	struct page *page;
	u64 at, dma;
	int ret;
	void *p;

	ret = ovbtest_odp_map_locked(umem_odp, va, len, to_umem, true,
				     &ovbtest_odp_fault_pages);
	if (ret < 0)
		return ret;
	ret = 0;
	for (done = 0; done < len; done += n) {
		at = va + done - ib_umem_start(umem_odp);
		dma = umem_odp->dma_list[at >> umem_odp->page_shift];
		if (WARN_ON_ONCE((dma & need) != need)) {
			ret = -EFAULT;
			break;
		}
		/* the device page's address, then the page behind it */
		dma = (dma & ODP_DMA_ADDR_MASK) +
		      (at & (BIT(umem_odp->page_shift) - 1) & PAGE_MASK);
		page = ovbtest_dma_page(dma_dev, dma, &in);
		if (WARN_ON_ONCE(!page)) {
			ret = -EFAULT;
			break;
		}
		in += offset_in_page(va + done);
		n = min_t(size_t, len - done, PAGE_SIZE - offset_in_page(va + done));
		p = kmap_local_page(page);
		if (to_umem)
			memcpy(p + in, buf + done, n);
		else
			memcpy(buf + done, p + in, n);
		kunmap_local(p);
	}
	mutex_unlock(&umem_odp->umem_mutex);
	return ret;
}

/* Where the MR ends for COPY: an implicit one covers user space. */
u64 ovbtest_odp_mr_limit(struct ovbtest_mr *mr)
{
	return mr->odp_implicit ? TASK_SIZE_MAX : mr->umem->length;
}

/* COPY's access to @len bytes at @off of an ODP MR (verbs.c). */
int ovbtest_odp_xfer(struct ovbtest_mr *mr, u64 off, void *buf, size_t len,
		     bool to_umem)
{
	struct ib_umem_odp *umem_odp = to_ib_umem_odp(mr->umem);
	u64 va = mr->odp_implicit ? off : mr->umem->address + off;
	size_t done, n;
	int ret;

	for (done = 0; done < len; done += n) {
		cond_resched();
		n = len - done;
		if (mr->odp_implicit) {
			umem_odp = ovbtest_odp_child(mr, va + done);
			if (IS_ERR(umem_odp))
				return PTR_ERR(umem_odp);
			n = min_t(u64, n, ib_umem_end(umem_odp) - (va + done));
		}
		ret = ovbtest_odp_copy(umem_odp, va + done, buf + done, n,
				       to_umem);
		if (ret)
			return ret;
	}
	return 0;
}

/* After an ODP MR's umem went: the implicit MR's hold on the mm goes. */
void ovbtest_odp_mr_put_mm(struct ovbtest_mr *mr)
{
	if (mr->odp_mm)
		mmdrop(mr->odp_mm);
	mr->odp_mm = NULL;
}

static void ovbtest_odp_mr_free(struct ovbtest_mr *mr)
{
	ovbtest_odp_mr_release(mr);
	ib_umem_release(mr->umem);
	ovbtest_odp_mr_put_mm(mr);
	kfree(mr);
}

/*
 * REG_MR (or REREG_MR's new MR) with IB_ACCESS_ON_DEMAND: an implicit MR
 * for start 0 and length U64_MAX (its iova must be 0), else an ODP umem
 * over the range.  EOPNOTSUPP without odp=1.
 *
 * A ranged umem's interval notifier holds its mm (mmgrab), and so does
 * each child of an implicit MR; the implicit umem itself holds nothing
 * (ib_umem_odp_alloc_implicit() only notes current->mm), so an implicit
 * MR without children would keep a pointer to a freed mm once the
 * registering process is gone while the file lives on (a fork child, an
 * exec), and the next child (COPY, ADVISE_MR) would be made from it by
 * ib_umem_odp_alloc_child()'s mmget_not_zero().  The MR holds the mm
 * itself (mr->odp_mm, dropped after the umem): that mmget_not_zero()
 * then fails cleanly, EFAULT.  mlx5 has no such hold (6.1, 6.12), and
 * neither has it with odp_mm_hold=N: the in-tree ib_uverbs then leaves
 * the gap open, ours closes it in the implicit umem (kernel/umem_odp.c).
 */
struct ib_mr *ovbtest_odp_mr_new(struct ib_device *ibdev, u64 start,
				 u64 length, u64 virt_addr, int access)
{
	bool implicit = !start && length == U64_MAX;
	struct ovbtest_dev *dev = to_odev(ibdev);
	struct ib_umem_odp *umem_odp;
	struct ovbtest_mr *mr;
	struct ib_mr *ibmr;
	int ret = 0;

	if (!odp)
		return ERR_PTR(-EOPNOTSUPP);
	if (implicit && virt_addr)
		return ERR_PTR(-EINVAL);
	if (implicit)
		umem_odp = ib_umem_odp_alloc_implicit(ibdev, access);
	else
		umem_odp = ib_umem_odp_get(ibdev, start, length, access,
					   &ovbtest_odp_mn_ops);
	if (IS_ERR(umem_odp))
		return ERR_CAST(umem_odp);
	ibmr = ovbtest_mr_around(ibdev, &umem_odp->umem, virt_addr, access);
	if (IS_ERR(ibmr)) {
		ib_umem_release(&umem_odp->umem);
		return ibmr;
	}
	mr = to_omr(ibmr);
	if (implicit && READ_ONCE(odp_mm_hold)) {
		mr->odp_mm = umem_odp->umem.owning_mm;
		mmgrab(mr->odp_mm);
	}
	mr->ibmr.device = ibdev;
	mr->odp_implicit = implicit;
	mutex_init(&mr->odp_lock);
	xa_init(&mr->odp_children);
	mutex_lock(&umem_odp->umem_mutex);
	umem_odp->private = mr;
	mutex_unlock(&umem_odp->umem_mutex);
	/* as mlx5 at registration: what is present is mapped, no fault */
	if (!implicit)
		ret = ovbtest_odp_map_locked(umem_odp, start, length,
					     umem_odp->umem.writable, false,
					     NULL);
	if (ret >= 0) {
		if (!implicit)
			mutex_unlock(&umem_odp->umem_mutex);
		ret = xa_insert(&dev->odp_mrs, ibmr->lkey, mr, GFP_KERNEL);
	}
	if (ret < 0) {
		atomic_dec(&dev->live.mrs);
		ovbtest_odp_mr_free(mr);
		return ERR_PTR(ret);
	}
	return ibmr;
}

/*
 * Before an ODP MR's umem goes (dereg_mr): ADVISE_MR no longer finds it
 * and none still uses it; an implicit MR's children go.
 */
void ovbtest_odp_mr_release(struct ovbtest_mr *mr)
{
	struct ib_umem_odp *child;
	unsigned long idx;

	if (!mr->umem || !mr->umem->is_odp)
		return;
	xa_cmpxchg(&to_odev(mr->ibmr.device)->odp_mrs, mr->ibmr.lkey, mr,
		   NULL, GFP_KERNEL);
	synchronize_srcu(&ovbtest_odp_srcu);
	xa_for_each(&mr->odp_children, idx, child) {
		ib_umem_odp_release(child);
		cond_resched();
	}
	xa_destroy(&mr->odp_children);
}

/* ------------------------------------------------------------ ADVISE_MR */

/* mlx5's get_prefetchable_mr(): the key's ODP MR, of @pd. */
static struct ovbtest_mr *ovbtest_odp_lookup(struct ib_pd *pd, u32 lkey,
					     bool write)
{
	struct ovbtest_mr *mr = xa_load(&to_odev(pd->device)->odp_mrs, lkey);

	if (!mr)
		return ERR_PTR(-ENOENT);
	if (mr->ibmr.pd != pd)
		return ERR_PTR(-EPERM);
	if (write && !mr->umem->writable)
		return ERR_PTR(-EPERM);
	return mr;
}

static int ovbtest_odp_prefetch_range(struct ib_umem_odp *umem_odp, u64 va,
				      u64 len, bool write, bool fault)
{
	int ret = ovbtest_odp_map_locked(umem_odp, va, len, write, fault,
					 &ovbtest_odp_prefetch_pages);

	if (ret < 0)
		return ret;
	mutex_unlock(&umem_odp->umem_mutex);
	return 0;
}

/*
 * PREFETCH_NO_FAULT of an implicit MR from @va (< @end): the first address
 * from there that a VMA covers, in *@next (@end if none); EFAULT when the
 * mm has no users left.  Where no VMA is, no page is present and a child
 * would map nothing: none is made (mlx5 makes them all).
 */
static int ovbtest_odp_next_mapped(struct ovbtest_mr *mr, u64 va, u64 end,
				   u64 *next)
{
	struct mm_struct *mm = mr->odp_mm;
	struct vm_area_struct *vma;

	if (!mmget_not_zero(mm))
		return -EFAULT;
	mmap_read_lock(mm);
	vma = find_vma(mm, va);
	*next = vma && vma->vm_start < end ? max_t(u64, va, vma->vm_start) :
		end;
	mmap_read_unlock(mm);
	/* the last user's exit_mmap() is not for this ioctl to run */
	mmput_async(mm);
	return 0;
}

/*
 * mlx5's pagefault_mr() for a prefetch: EFAULT outside the MR.  A zero
 * @bcnt as there: an explicit MR's goes to ib_umem_odp_map_dma_and_lock()
 * (EINVAL at a page-aligned address, where hmm walks an empty range; the
 * page mapped at an unaligned one), an implicit MR's maps nothing, 0.
 */
static int ovbtest_odp_prefetch(struct ovbtest_mr *mr, u64 io_virt, u32 bcnt,
				bool downgrade, bool fault)
{
	struct ib_umem_odp *umem_odp = to_ib_umem_odp(mr->umem);
	bool write = umem_odp->umem.writable && !downgrade;
	u64 va, len, end;
	int ret;

	if (io_virt < mr->ibmr.iova)
		return -EFAULT;
	if (!mr->odp_implicit) {
		if (check_add_overflow(io_virt - mr->ibmr.iova,
				       (u64)umem_odp->umem.address, &va) ||
		    va >= ib_umem_end(umem_odp) ||
		    ib_umem_end(umem_odp) - va < bcnt)
			return -EFAULT;
		return ovbtest_odp_prefetch_range(umem_odp, va, bcnt, write,
						  fault);
	}
	if (io_virt >= TASK_SIZE_MAX || TASK_SIZE_MAX - io_virt < bcnt)
		return -EFAULT;
	end = io_virt + bcnt;
	for (va = io_virt; va < end; va += len) {
		cond_resched();
		if (!fault && !xa_load(&mr->odp_children,
				       va >> OVBTEST_ODP_CHILD_SHIFT)) {
			ret = ovbtest_odp_next_mapped(mr, va, end, &va);
			if (ret)
				return ret;
			if (va >= end)
				break;
		}
		umem_odp = ovbtest_odp_child(mr, va);
		if (IS_ERR(umem_odp))
			return PTR_ERR(umem_odp);
		len = min_t(u64, end, ib_umem_end(umem_odp)) - va;
		ret = ovbtest_odp_prefetch_range(umem_odp, va, len, write,
						 fault);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int ovbtest_advise_mr(struct ib_pd *pd,
			     enum ib_uverbs_advise_mr_advice advice, u32 flags,
			     struct ib_sge *sg_list, u32 num_sge,
			     struct uverbs_attr_bundle *attrs)
{
	bool write = advice == IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE;
	bool downgrade = advice == IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH;
	bool fault = advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT;
	struct ovbtest_mr *mr;
	int idx, ret = 0;
	u32 i;

	if (advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH &&
	    advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE &&
	    advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT)
		return -EOPNOTSUPP;

	idx = srcu_read_lock(&ovbtest_odp_srcu);
	if (flags & IB_UVERBS_ADVISE_MR_FLAG_FLUSH) {
		/* each entry looked up and faulted in turn, errors seen */
		for (i = 0; i < num_sge && !ret; i++) {
			cond_resched();
			mr = ovbtest_odp_lookup(pd, sg_list[i].lkey, write);
			ret = IS_ERR(mr) ? PTR_ERR(mr) :
			      ovbtest_odp_prefetch(mr, sg_list[i].addr,
						   sg_list[i].length, downgrade,
						   fault);
		}
		goto out;
	}
	/* every key checked first; the faults' errors reach nobody */
	for (i = 0; i < num_sge && !ret; i++) {
		mr = ovbtest_odp_lookup(pd, sg_list[i].lkey, write);
		if (IS_ERR(mr))
			ret = PTR_ERR(mr);
	}
	for (i = 0; i < num_sge && !ret; i++) {
		cond_resched();
		mr = ovbtest_odp_lookup(pd, sg_list[i].lkey, write);
		if (!IS_ERR(mr))
			ovbtest_odp_prefetch(mr, sg_list[i].addr,
					     sg_list[i].length, downgrade,
					     fault);
	}
out:
	srcu_read_unlock(&ovbtest_odp_srcu, idx);
	return ret < 0 ? ret : 0;
}

static const struct ib_device_ops ovbtest_odp_ops = {
	.advise_mr = ovbtest_advise_mr,
};

/*
 * ib_set_device_ops() sets an op only where none is set yet (first wins):
 * ovbtest_dev_init() calls this before it sets dm.c's ops, whose
 * advise_mr (a stub that checks the SGEs) the device has without odp=1.
 */
void ovbtest_odp_dev_init(struct ovbtest_dev *dev)
{
	xa_init(&dev->odp_mrs);
	if (odp)
		ib_set_device_ops(&dev->ibdev, &ovbtest_odp_ops);
}

/* ---------------------------------------------------------- ODP_STATE */

static void ovbtest_odp_count(struct ib_umem_odp *umem_odp,
			      struct ovbtest_mr_odp_state *st)
{
	size_t i;

	mutex_lock(&umem_odp->umem_mutex);
	for (i = 0; i < ib_umem_odp_num_pages(umem_odp); i++) {
		st->readable += !!(umem_odp->dma_list[i] & ODP_READ_ALLOWED_BIT);
		st->writable += !!(umem_odp->dma_list[i] & ODP_WRITE_ALLOWED_BIT);
	}
	mutex_unlock(&umem_odp->umem_mutex);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_MR_ODP_STATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_mr *ibmr = uverbs_attr_get_obj(attrs,
						 OVBTEST_ATTR_MR_ODP_STATE_HANDLE);
	struct ovbtest_mr_odp_state st = {};
	struct ib_umem_odp *child;
	struct ovbtest_mr *mr;
	unsigned long idx;

	if (IS_ERR(ibmr))
		return PTR_ERR(ibmr);
	mr = to_omr(ibmr);
	if (!mr->umem || !mr->umem->is_odp)
		return -EINVAL;
	st.implicit = mr->odp_implicit;
	st.invalidations = atomic64_read(&mr->odp_invalidations);
	if (!mr->odp_implicit) {
		ovbtest_odp_count(to_ib_umem_odp(mr->umem), &st);
	} else {
		mutex_lock(&mr->odp_lock);
		xa_for_each(&mr->odp_children, idx, child) {
			ovbtest_odp_count(child, &st);
			st.children++;
			cond_resched();
		}
		mutex_unlock(&mr->odp_lock);
	}
	return uverbs_copy_to_struct_or_zero(attrs,
					     OVBTEST_ATTR_MR_ODP_STATE_OUT,
					     &st, sizeof(st));
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_MR_ODP_STATE,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_MR_ODP_STATE_HANDLE,
					    UVERBS_OBJECT_MR,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MR_ODP_STATE_OUT,
						UVERBS_ATTR_TYPE(struct ovbtest_mr_odp_state),
						UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_mr_odp, UVERBS_OBJECT_MR,
		   &UVERBS_METHOD(OVBTEST_METHOD_MR_ODP_STATE));

const struct uapi_definition ovbtest_odp_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_MR, &ovbtest_mr_odp),
	{},
};
