// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: the pages a context maps, one entry per page (per DM for device
 * memory, dm.c), of the three kinds real HCAs hand out through
 * rdma_user_mmap_io():
 *
 *  - cached: kernel RAM (queues, the counters and doorbell pages here);
 *  - write-combining: device memory mapped with pgprot_writecombine(), as
 *    mlx5's BlueFlame registers;
 *  - non-cached: device memory mapped with pgprot_noncached(), as the
 *    doorbells (UARs) of mlx4, mlx5 and irdma.
 *
 * Device memory is a PCI BAR.  ovbtest has no hardware, so it borrows the
 * memory BAR of QEMU's ivshmem-plain device (qemu/run adds one): its first
 * half gives the write-combining pages, its second half the non-cached
 * ones.  The kernel maps each half with the type its user mappings get, so
 * that x86 PAT never has to reconcile two types for one page (RAM pages
 * cannot be mapped write-combining or non-cached at all: PAT keeps them
 * write-back).  Without that device the context offers the cached pages
 * only and says so in its driver data.
 *
 * An entry lives until its last mapping goes (mmap_free); the number alive
 * is the read-only module parameter mmap_entries.
 *
 * The last OVBTEST_MMAP_FIXED_PAGES pages of the non-cached half are the
 * device's fixed region: mmap at OVBTEST_MMAP_FIXED_PGOFF maps them with
 * no entry (rdma_user_mmap_io(..., NULL)), as mlx4 maps its UAR and
 * BlueFlame pages by offset.  Nothing counts those mappings, so the region
 * lives as long as the module; only ib_uverbs' record of each mapping
 * makes a hot-unplug take them away.
 */
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

/* QEMU's ivshmem-plain: vendor Red Hat/Qumranet, its memory in BAR 2. */
#define IVSHMEM_VENDOR		0x1af4
#define IVSHMEM_DEVICE		0x1110
#define IVSHMEM_MEM_BAR		2

/* One half of the BAR, for one kind. */
struct ovbtest_bar_half {
	phys_addr_t phys;
	void __iomem *va;
	unsigned int npages;
	struct ida pages;
};

static struct {
	struct pci_dev *pdev;
	/* indexed by kind: only WC and NC are used */
	struct ovbtest_bar_half half[OVBTEST_MMAP_KINDS];
	/* the fixed region, cut off the end of the non-cached half */
	phys_addr_t fixed_phys;
	void __iomem *fixed_io;
} ovbtest_bar;

static atomic_t ovbtest_mmap_live;

static int ovbtest_mmap_live_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&ovbtest_mmap_live));
}

static const struct kernel_param_ops ovbtest_mmap_live_ops = {
	.get = ovbtest_mmap_live_get,
};

module_param_cb(mmap_entries, &ovbtest_mmap_live_ops, NULL, 0444);
MODULE_PARM_DESC(mmap_entries, "mmap entries alive (freed by mmap_free)");

static pgprot_t ovbtest_prot_cached(pgprot_t prot)
{
	return prot;
}

static pgprot_t ovbtest_prot_wc(pgprot_t prot)
{
	return pgprot_writecombine(prot);
}

static pgprot_t ovbtest_prot_nc(pgprot_t prot)
{
	return pgprot_noncached(prot);
}

/* Per kind: the page protection of its user mappings. */
static pgprot_t (*const ovbtest_kind_prot[OVBTEST_MMAP_KINDS])(pgprot_t) = {
	[OVBTEST_MMAP_CACHED] = ovbtest_prot_cached,
	[OVBTEST_MMAP_WC] = ovbtest_prot_wc,
	[OVBTEST_MMAP_NC] = ovbtest_prot_nc,
};

/* ------------------------------------------------------------ the BAR */

static void __iomem *ovbtest_bar_remap(enum ovbtest_mmap_kind kind,
				       phys_addr_t phys, size_t len)
{
	return kind == OVBTEST_MMAP_WC ? ioremap_wc(phys, len) :
					 ioremap(phys, len);
}

/* The fixed region: the non-cached half's last pages, zeroed. */
static int ovbtest_bar_cut_fixed(void)
{
	struct ovbtest_bar_half *h = &ovbtest_bar.half[OVBTEST_MMAP_NC];
	size_t off;

	if (h->npages <= OVBTEST_MMAP_FIXED_PAGES)
		return -ENOSPC;
	h->npages -= OVBTEST_MMAP_FIXED_PAGES;
	off = (size_t)h->npages << PAGE_SHIFT;
	ovbtest_bar.fixed_phys = h->phys + off;
	ovbtest_bar.fixed_io = h->va + off;
	memset_io(ovbtest_bar.fixed_io, 0,
		  OVBTEST_MMAP_FIXED_PAGES << PAGE_SHIFT);
	return 0;
}

/* Finds the BAR; without one the context has cached pages only. */
void ovbtest_mmap_init(void)
{
	struct pci_dev *pdev;
	resource_size_t start, half;
	enum ovbtest_mmap_kind kind;
	unsigned int i = 0;

	pdev = pci_get_device(IVSHMEM_VENDOR, IVSHMEM_DEVICE, NULL);
	if (!pdev)
		return;
	start = pci_resource_start(pdev, IVSHMEM_MEM_BAR);
	half = pci_resource_len(pdev, IVSHMEM_MEM_BAR) / 2;
	if (half < PAGE_SIZE || pci_enable_device_mem(pdev))
		goto err_put;
	if (pci_request_region(pdev, IVSHMEM_MEM_BAR, OVBTEST_DEVICE_PREFIX))
		goto err_disable;
	for (kind = OVBTEST_MMAP_WC; kind <= OVBTEST_MMAP_NC; kind++, i++) {
		struct ovbtest_bar_half *h = &ovbtest_bar.half[kind];

		h->phys = start + i * half;
		h->npages = half >> PAGE_SHIFT;
		h->va = ovbtest_bar_remap(kind, h->phys, half);
		if (!h->va)
			goto err_unmap;
		ida_init(&h->pages);
	}
	if (ovbtest_bar_cut_fixed())
		goto err_unmap;
	ovbtest_bar.pdev = pdev;
	dev_info(&pdev->dev, "ovbtest: write-combining and non-cached pages from BAR %d\n",
		 IVSHMEM_MEM_BAR);
	return;

err_unmap:
	for (kind = OVBTEST_MMAP_WC; kind <= OVBTEST_MMAP_NC; kind++)
		if (ovbtest_bar.half[kind].va)
			iounmap(ovbtest_bar.half[kind].va);
	memset(&ovbtest_bar, 0, sizeof(ovbtest_bar));
	pci_release_region(pdev, IVSHMEM_MEM_BAR);
err_disable:
	pci_disable_device(pdev);
err_put:
	pci_dev_put(pdev);
}

/* After the device is unregistered: every entry is gone by then. */
void ovbtest_mmap_exit(void)
{
	struct pci_dev *pdev = ovbtest_bar.pdev;
	enum ovbtest_mmap_kind kind;

	WARN_ON(atomic_read(&ovbtest_mmap_live));
	if (!pdev)
		return;
	for (kind = OVBTEST_MMAP_WC; kind <= OVBTEST_MMAP_NC; kind++) {
		ida_destroy(&ovbtest_bar.half[kind].pages);
		iounmap(ovbtest_bar.half[kind].va);
	}
	pci_release_region(pdev, IVSHMEM_MEM_BAR);
	pci_disable_device(pdev);
	pci_dev_put(pdev);
}

bool ovbtest_mmap_has_bar(void)
{
	return ovbtest_bar.pdev;
}

/* A page of the BAR's half for @kind, filled with @fill (its first u64). */
static int ovbtest_bar_page_get(struct ovbtest_mmap_page *p, u64 fill)
{
	struct ovbtest_bar_half *h = &ovbtest_bar.half[p->kind];
	int idx;

	idx = ida_alloc_max(&h->pages, h->npages - 1, GFP_KERNEL);
	if (idx < 0)
		return idx == -ENOSPC ? -ENOMEM : idx;
	p->bar_offset = (h->phys - ovbtest_bar.half[OVBTEST_MMAP_WC].phys) +
			((u64)idx << PAGE_SHIFT);
	p->phys = h->phys + ((phys_addr_t)idx << PAGE_SHIFT);
	p->io = h->va + ((size_t)idx << PAGE_SHIFT);
	memset_io(p->io, 0, PAGE_SIZE);
	writeq(fill, p->io);
	return 0;
}

/* What the device keeps there is left as it is: only the slot is freed. */
static void ovbtest_bar_page_put(struct ovbtest_mmap_page *p)
{
	struct ovbtest_bar_half *h = &ovbtest_bar.half[p->kind];

	ida_free(&h->pages, (p->phys - h->phys) >> PAGE_SHIFT);
}

/* ----------------------------------------------------------- entries */

/* The pages behind @p, and a bus-less entry's pfn. */
int ovbtest_mmap_pages_get(struct ovbtest_mmap_page *p, u64 fill)
{
	if (p->kind != OVBTEST_MMAP_CACHED)
		return ovbtest_mmap_has_bar() ? ovbtest_bar_page_get(p, fill) :
						-ENODEV;
	p->page = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, p->order);
	return p->page ? 0 : -ENOMEM;
}

void ovbtest_mmap_pages_put(struct ovbtest_mmap_page *p)
{
	if (p->kind == OVBTEST_MMAP_CACHED)
		free_pages((unsigned long)p->page, p->order);
	else
		ovbtest_bar_page_put(p);
}

static struct ovbtest_mmap_page *
ovbtest_mmap_add(struct ib_ucontext *ibuc, struct ovbtest_mmap_page *p,
		 u64 fill)
{
	int ret;

	ret = ovbtest_mmap_pages_get(p, fill);
	if (ret)
		goto err_free;
	ret = rdma_user_mmap_entry_insert(ibuc, &p->rdma_entry,
					  PAGE_SIZE << p->order);
	if (ret)
		goto err_pages;
	atomic_inc(&ovbtest_mmap_live);
	return p;

err_pages:
	ovbtest_mmap_pages_put(p);
err_free:
	kfree(p);
	return ERR_PTR(ret);
}

/*
 * A new entry of @kind for @ibuc; a BAR page starts with @fill.  The
 * caller removes it (rdma_user_mmap_entry_remove) when the context goes.
 */
struct ovbtest_mmap_page *ovbtest_mmap_insert(struct ib_ucontext *ibuc,
					      enum ovbtest_mmap_kind kind,
					      bool read_only, u64 fill)
{
	struct ovbtest_mmap_page *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return ERR_PTR(-ENOMEM);
	p->kind = kind;
	p->read_only = read_only;
	return ovbtest_mmap_add(ibuc, p, fill);
}

/*
 * 1 << @order zeroed pages of kernel RAM, physically contiguous, in one
 * writable entry: the memory of an object that has its own mapping (a
 * DM), removed by the object's owner when the object goes.
 */
struct ovbtest_mmap_page *ovbtest_mmap_insert_ram(struct ib_ucontext *ibuc,
						  unsigned int order)
{
	struct ovbtest_mmap_page *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return ERR_PTR(-ENOMEM);
	p->kind = OVBTEST_MMAP_CACHED;
	p->order = order;
	return ovbtest_mmap_add(ibuc, p, 0);
}

u64 ovbtest_mmap_read(struct ovbtest_mmap_page *p)
{
	if (!p)
		return 0;
	if (p->kind == OVBTEST_MMAP_CACHED)
		return READ_ONCE(*(u64 *)p->page);
	return readq(p->io);
}

/* The first u64 of page @i of the fixed region (0 without a BAR). */
u64 ovbtest_mmap_fixed_read(unsigned int i)
{
	if (!ovbtest_mmap_has_bar() || i >= OVBTEST_MMAP_FIXED_PAGES)
		return 0;
	return readq(ovbtest_bar.fixed_io + ((size_t)i << PAGE_SHIFT));
}

/*
 * The fixed region, or its first pages, non-cached and with no entry:
 * ib_uverbs records the mapping with entry NULL, as for mlx4's UAR.  A
 * mapping made without PROT_WRITE stays read-only (VM_MAYWRITE cleared),
 * as mlx4's clock page.
 */
static int ovbtest_mmap_fixed(struct ib_ucontext *ibuc,
			      struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;

	if (!ovbtest_mmap_has_bar() ||
	    len > OVBTEST_MMAP_FIXED_PAGES << PAGE_SHIFT)
		return -EINVAL;
	if (!(vma->vm_flags & VM_WRITE))
		ovbtest_vm_flags_clear(vma, VM_MAYWRITE);
	return rdma_user_mmap_io(ibuc, vma, PHYS_PFN(ovbtest_bar.fixed_phys),
				 len, pgprot_noncached(vma->vm_page_prot),
				 NULL);
}

/*
 * A read-only entry never maps writable; every kind maps shared.  The
 * offsets of mmap_kinds.c's buffers are theirs: a PHYS buffer's physical
 * address first (as ocrdma looks its list up), then their entries.
 */
static int ovbtest_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *entry;
	struct ovbtest_mmap_page *p;
	unsigned long pfn;
	int ret;

	if (vma->vm_pgoff == OVBTEST_MMAP_FIXED_PGOFF)
		return ovbtest_mmap_fixed(ibuc, vma);
	if (ovbtest_kmap_phys_mmap(ibuc, vma, &ret))
		return ret;
	entry = rdma_user_mmap_entry_get(ibuc, vma);
	if (!entry)
		return -EINVAL;
	p = to_opage(entry);
	if (p->kmap) {
		ret = ovbtest_kmap_mmap(vma, p);
		goto out;
	}
	ret = -EPERM;
	if (p->read_only) {
		if (vma->vm_flags & VM_WRITE)
			goto out;
		ovbtest_vm_flags_clear(vma, VM_MAYWRITE);
	}
	pfn = p->kind == OVBTEST_MMAP_CACHED ?
		page_to_pfn(virt_to_page(p->page)) : PHYS_PFN(p->phys);
	ret = rdma_user_mmap_io(ibuc, vma, pfn, PAGE_SIZE << p->order,
				ovbtest_kind_prot[p->kind](vma->vm_page_prot),
				entry);
out:
	rdma_user_mmap_entry_put(entry);
	return ret;
}

static void ovbtest_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct ovbtest_mmap_page *p = to_opage(entry);

	if (p->kmap) {
		ovbtest_kmap_free(p);
		return;
	}
	ovbtest_mmap_pages_put(p);
	kfree(p);
	atomic_dec(&ovbtest_mmap_live);
}

const struct ib_device_ops ovbtest_mmap_ops = {
	.mmap = ovbtest_mmap,
	.mmap_free = ovbtest_mmap_free,
};

#if OVBTEST_K612
/*
 * 6.12: every mapping of the device goes, as hns revokes them before a
 * reset (rdma_user_mmap_disassociate()); the entries stay, so a new mmap()
 * maps the pages again.
 */
static int UVERBS_HANDLER(OVBTEST_METHOD_DEVICE_MMAP_REVOKE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ibuc = ib_uverbs_get_ucontext(attrs);

	if (IS_ERR(ibuc))
		return PTR_ERR(ibuc);
	rdma_user_mmap_disassociate(ibuc->device);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_DEVICE_MMAP_REVOKE);

ADD_UVERBS_METHODS(ovbtest_device_mmap, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(OVBTEST_METHOD_DEVICE_MMAP_REVOKE));
#endif

const struct uapi_definition ovbtest_mmap_uapi_defs[] = {
#if OVBTEST_K612
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &ovbtest_device_mmap),
#endif
	{},
};
