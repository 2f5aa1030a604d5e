// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: drives ib_uverbs' on-demand paging umem API the way
 * an ODP-capable HCA driver does (register a range, fault pages in on
 * demand, unmap on invalidation), on a device with virtual DMA (rxe), so
 * the kernel-side ODP code of any ib_uverbs can be checked from user
 * space: selftests/uverbs_odp.c runs the same checks on the in-tree
 * module and on ours.  Each ioctl runs in the caller's context, so the
 * umem belongs to the caller's mm.  Never load it on a production node.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_umem_odp.h>
#include <rdma/ib_verbs.h>

#include "odp_umem_test.h"

static char *ibdev = "rxe0";
module_param(ibdev, charp, 0444);
MODULE_PARM_DESC(ibdev, "RDMA device (with virtual DMA) to map for");

/* Invalidations that reached a umem; the test compares before/after. */
static atomic64_t odp_test_invalidations = ATOMIC64_INIT(0);

struct odp_test_file {
	struct mutex lock;		/* one ioctl at a time */
	struct ib_device *dev;
	struct ib_umem_odp *root;	/* implicit parent, or NULL */
	struct ib_umem_odp *odp;	/* the ranged umem under test */
};

/* What a driver's invalidate does: unmap the range under umem_mutex. */
static bool odp_test_invalidate(struct mmu_interval_notifier *mni,
				const struct mmu_notifier_range *range,
				unsigned long cur_seq)
{
	struct ib_umem_odp *odp = container_of(mni, struct ib_umem_odp,
					       notifier);

	if (!mmu_notifier_range_blockable(range))
		return false;
	mutex_lock(&odp->umem_mutex);
	mmu_interval_set_seq(mni, cur_seq);
	ib_umem_odp_unmap_dma_pages(odp, max(ib_umem_start(odp), range->start),
				    min(ib_umem_end(odp), range->end));
	atomic64_inc(&odp_test_invalidations);
	mutex_unlock(&odp->umem_mutex);
	return true;
}

static const struct mmu_interval_notifier_ops odp_test_ops = {
	.invalidate = odp_test_invalidate,
};

static long odp_test_reg(struct odp_test_file *t, void __user *arg)
{
	struct odp_test_reg r;
	struct ib_umem_odp *odp;

	if (copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;
	if (t->odp || t->root)
		return -EBUSY;
	if (!r.implicit) {
		odp = ib_umem_odp_get(t->dev, r.addr, r.length, r.access,
				      &odp_test_ops);
		if (IS_ERR(odp))
			return PTR_ERR(odp);
		t->odp = odp;
		return 0;
	}
	t->root = ib_umem_odp_alloc_implicit(t->dev, r.access);
	if (IS_ERR(t->root)) {
		long ret = PTR_ERR(t->root);

		t->root = NULL;
		return ret;
	}
	if (!r.length)
		return 0;
	odp = ib_umem_odp_alloc_child(t->root, r.addr, r.length, &odp_test_ops);
	if (IS_ERR(odp))
		return PTR_ERR(odp);
	t->odp = odp;
	return 0;
}

static long odp_test_map(struct odp_test_file *t, void __user *arg,
			 bool unmap)
{
	struct odp_test_map m;
	int ret;

	if (copy_from_user(&m, arg, sizeof(m)))
		return -EFAULT;
	if (!t->odp)
		return -ENOENT;
	if (unmap) {
		mutex_lock(&t->odp->umem_mutex);
		ib_umem_odp_unmap_dma_pages(t->odp, m.addr, m.addr + m.length);
		mutex_unlock(&t->odp->umem_mutex);
		return 0;
	}
	ret = ib_umem_odp_map_dma_and_lock(t->odp, m.addr, m.length, m.access,
					   m.fault);
	if (ret >= 0)
		mutex_unlock(&t->odp->umem_mutex);
	return ret;
}

/*
 * The kernel address behind @addr's DMA entry (virtual DMA makes the DMA
 * address one), if mapped with @need; umem_mutex held.
 */
static void *odp_test_kaddr(struct ib_umem_odp *odp, u64 addr, u64 len,
			    u64 need)
{
	unsigned long start = ib_umem_start(odp);
	unsigned long psize = BIT(odp->page_shift);
	dma_addr_t entry;

	if (addr < start || addr + len > ib_umem_end(odp) || !len ||
	    (addr - start) / psize != (addr + len - 1 - start) / psize)
		return ERR_PTR(-EINVAL);
	entry = odp->dma_list[(addr - start) >> odp->page_shift];
	if (!entry)
		return ERR_PTR(-ENOENT);
	if ((entry & need) != need)
		return ERR_PTR(-EACCES);
	return (void *)(uintptr_t)(entry & ODP_DMA_ADDR_MASK) +
	       ((addr - start) & (psize - 1));
}

/* Copy through the mapping, bouncing so no user fault runs under the lock. */
static long odp_test_copy(struct odp_test_file *t, void __user *arg,
			  bool write)
{
	struct odp_test_copy c;
	void *bounce, *kaddr;
	long ret = 0;

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	if (!t->odp)
		return -ENOENT;
	if (!ib_uses_virt_dma(t->dev))
		return -EOPNOTSUPP;
	if (!c.length || c.length > PAGE_SIZE)
		return -EINVAL;
	bounce = kmalloc(c.length, GFP_KERNEL);
	if (!bounce)
		return -ENOMEM;
	if (write && copy_from_user(bounce, u64_to_user_ptr(c.buf), c.length)) {
		ret = -EFAULT;
		goto out;
	}
	mutex_lock(&t->odp->umem_mutex);
	kaddr = odp_test_kaddr(t->odp, c.addr, c.length,
			       write ? ODP_WRITE_ALLOWED_BIT :
				       ODP_READ_ALLOWED_BIT);
	if (IS_ERR(kaddr))
		ret = PTR_ERR(kaddr);
	else if (write)
		memcpy(kaddr, bounce, c.length);
	else
		memcpy(bounce, kaddr, c.length);
	mutex_unlock(&t->odp->umem_mutex);
	if (!ret && !write &&
	    copy_to_user(u64_to_user_ptr(c.buf), bounce, c.length))
		ret = -EFAULT;
out:
	kfree(bounce);
	return ret;
}

static long odp_test_state(struct odp_test_file *t, void __user *arg)
{
	struct odp_test_state s = {
		.invalidations = atomic64_read(&odp_test_invalidations),
	};
	struct ib_umem_odp *odp = t->odp;
	size_t i;

	if (odp) {
		mutex_lock(&odp->umem_mutex);
		s.start = ib_umem_start(odp);
		s.end = ib_umem_end(odp);
		s.npages = odp->npages;
		s.page_shift = odp->page_shift;
		for (i = 0; i < ib_umem_odp_num_pages(odp); i++) {
			s.readable += !!(odp->dma_list[i] & ODP_READ_ALLOWED_BIT);
			s.writable += !!(odp->dma_list[i] & ODP_WRITE_ALLOWED_BIT);
		}
		mutex_unlock(&odp->umem_mutex);
	}
	return copy_to_user(arg, &s, sizeof(s)) ? -EFAULT : 0;
}

static long odp_test_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct odp_test_file *t = file->private_data;
	void __user *uarg = (void __user *)arg;
	long ret;

	mutex_lock(&t->lock);
	switch (cmd) {
	case ODP_TEST_REG:
		ret = odp_test_reg(t, uarg);
		break;
	case ODP_TEST_MAP:
		ret = odp_test_map(t, uarg, false);
		break;
	case ODP_TEST_UNMAP:
		ret = odp_test_map(t, uarg, true);
		break;
	case ODP_TEST_READ_DMA:
		ret = odp_test_copy(t, uarg, false);
		break;
	case ODP_TEST_WRITE_DMA:
		ret = odp_test_copy(t, uarg, true);
		break;
	case ODP_TEST_STATE:
		ret = odp_test_state(t, uarg);
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&t->lock);
	return ret;
}

static int odp_test_open(struct inode *inode, struct file *file)
{
	struct odp_test_file *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	t->dev = ib_device_get_by_name(ibdev, RDMA_DRIVER_UNKNOWN);
	if (!t->dev) {
		kfree(t);
		return -ENODEV;
	}
	mutex_init(&t->lock);
	file->private_data = t;
	return 0;
}

static int odp_test_release(struct inode *inode, struct file *file)
{
	struct odp_test_file *t = file->private_data;

	/* A ranged umem goes through ib_umem_release()'s ODP dispatch. */
	if (t->odp && !t->root)
		ib_umem_release(&t->odp->umem);
	else if (t->odp)
		ib_umem_odp_release(t->odp);
	if (t->root)
		ib_umem_odp_release(t->root);
	ib_device_put(t->dev);
	kfree(t);
	return 0;
}

static const struct file_operations odp_test_fops = {
	.owner = THIS_MODULE,
	.open = odp_test_open,
	.release = odp_test_release,
	.unlocked_ioctl = odp_test_ioctl,
};

static struct miscdevice odp_test_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "odp_umem_test",
	.fops = &odp_test_fops,
	.mode = 0600,
};

module_misc_device(odp_test_misc);
MODULE_DESCRIPTION("openverbs test: drive the ODP umem API from user space");
MODULE_LICENSE("GPL");
