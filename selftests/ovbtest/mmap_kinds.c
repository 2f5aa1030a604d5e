// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: OVBTEST_OBJECT_MMAP_KIND, driver buffers mapped the ways real
 * drivers map queues without rdma_user_mmap_io(), one kind per driver
 * (enum ovbtest_mmap_kind_type in ovbtest-abi.h):
 *
 *  - VMALLOC (siw): vmalloc_user() memory behind an mmap entry, mapped by
 *    remap_vmalloc_range();
 *  - PAGE (qedr, efa) and PAGE_RO (mlx5's clock page): a kernel page
 *    behind an mmap entry, mapped by vm_insert_page(); PAGE_RO refuses a
 *    writable or executable map and clears VM_MAYWRITE;
 *  - PHYS (ocrdma, cxgb4): kernel pages whose physical address is the
 *    mmap offset, found in a list of the context (no entry), mapped by
 *    remap_pfn_range() with VM_IO set as usnic sets it;
 *  - DONTCOPY (vmw_pvrdma): a non-cached BAR page behind an entry, mapped
 *    by io_remap_pfn_range() with VM_DONTCOPY | VM_DONTEXPAND.
 *
 * ib_core records none of these mappings, so a disassociation (hot-unplug)
 * zaps none of them.  vm_insert_page() and remap_vmalloc_range() take a
 * reference on each page they map: the driver frees its buffer when the
 * object goes, and the pages live on until the last mapping goes.
 * remap_pfn_range() takes none: freeing a PHYS buffer while a process
 * maps it would hand that process freed memory (ocrdma and cxgb4 free
 * their queues at destroy all the same).  So before a PHYS buffer is
 * freed at DESTROY (or ABORT, or close) its mappings are zapped, as
 * vfio-pci zaps its BAR maps: unmap_mapping_range() over its offset in
 * the uverbs file's address_space (every VMA of that file at that offset,
 * fork copies and mremap moves included, is in its i_mmap tree), after
 * taking and dropping the mmap_lock of every mm that mapped it, so that no
 * mmap() whose PTEs were set up here is still short of linking its VMA
 * into that tree.  A later access of such a VMA finds no PTE and no fault
 * handler: SIGBUS.  A hot-unplug does not zap (ocrdma and cxgb4 never
 * disassociate; this driver keeps what its unplug cases measure): a PHYS
 * buffer destroyed by a hot-unplug is left to its mappings, never freed
 * (counted in mmap_kinds_left).  A DONTCOPY mapping outliving its
 * object keeps pointing at the BAR page, device memory, as pvrdma's would.
 *
 * Module parameters (read-only): mmap_kinds, the buffers alive;
 * mmap_kinds_freed, buffers freed since load; mmap_kinds_left, PHYS
 * buffers left to their mappings.  A hot-unplug logs what it did to each
 * buffer ("ovbtest: mmap kind ..."), for a test to read after rmmod.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

/* The PHYS kind's buffer: two physically contiguous pages. */
#define OVBTEST_KMAP_PHYS_ORDER	1

struct ovbtest_kmap {
	/* page.kmap is set; page.rdma_entry is the entry of entry kinds,
	 * page.io/phys the BAR page of DONTCOPY
	 */
	struct ovbtest_mmap_page page;
	struct list_head node;		/* PHYS: on the context's kmaps */
	u32 type;
	void *buf;			/* the kernel's address of the buffer */
	size_t len;
	unsigned long pfn;		/* PHYS: the mmap offset, in pages */
	/* PHYS, under the context's kmap_lock: the uverbs file's mapping
	 * and the mms that mmap()ed the buffer (struct ovbtest_kmap_mm)
	 */
	struct address_space *mapping;
	struct list_head mms;
};

/* An mm that mapped a PHYS buffer, held by mmgrab() */
struct ovbtest_kmap_mm {
	struct list_head node;
	struct mm_struct *mm;
};

static atomic_t kmap_alive;
static atomic_t kmap_freed;
static atomic_t kmap_left;

static int ovbtest_kmap_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops ovbtest_kmap_param_ops = {
	.get = ovbtest_kmap_param_get,
};

module_param_cb(mmap_kinds, &ovbtest_kmap_param_ops, &kmap_alive, 0444);
MODULE_PARM_DESC(mmap_kinds, "OVBTEST_OBJECT_MMAP_KIND buffers alive");
module_param_cb(mmap_kinds_freed, &ovbtest_kmap_param_ops, &kmap_freed, 0444);
MODULE_PARM_DESC(mmap_kinds_freed, "OVBTEST_OBJECT_MMAP_KIND buffers freed");
module_param_cb(mmap_kinds_left, &ovbtest_kmap_param_ops, &kmap_left, 0444);
MODULE_PARM_DESC(mmap_kinds_left,
		 "PHYS buffers left to their mappings by a hot-unplug");

static const char *const kmap_names[OVBTEST_MMAP_KIND_NUM] = {
	[OVBTEST_MMAP_KIND_VMALLOC] = "vmalloc",
	[OVBTEST_MMAP_KIND_PAGE] = "page",
	[OVBTEST_MMAP_KIND_PAGE_RO] = "page_ro",
	[OVBTEST_MMAP_KIND_PHYS] = "phys",
	[OVBTEST_MMAP_KIND_DONTCOPY] = "dontcopy",
};

static struct ovbtest_kmap *to_kmap(struct ovbtest_mmap_page *p)
{
	return container_of(p, struct ovbtest_kmap, page);
}

void ovbtest_kmap_ctx_init(struct ovbtest_ucontext *uc)
{
	INIT_LIST_HEAD(&uc->kmaps);
	mutex_init(&uc->kmap_lock);
}

/* The buffer's memory, and the kmap, go. */
static void ovbtest_kmap_release(struct ovbtest_kmap *km)
{
	switch (km->type) {
	case OVBTEST_MMAP_KIND_VMALLOC:
		vfree(km->buf);
		break;
	case OVBTEST_MMAP_KIND_PAGE:
	case OVBTEST_MMAP_KIND_PAGE_RO:
		free_page((unsigned long)km->buf);
		break;
	case OVBTEST_MMAP_KIND_PHYS:
		free_pages((unsigned long)km->buf, OVBTEST_KMAP_PHYS_ORDER);
		break;
	case OVBTEST_MMAP_KIND_DONTCOPY:
		ovbtest_mmap_pages_put(&km->page);
		break;
	}
	kfree(km);
	atomic_inc(&kmap_freed);
	atomic_dec(&kmap_alive);
}

/* A PHYS buffer's mmap: note the file's mapping and the mapping mm. */
static int ovbtest_kmap_phys_note(struct ovbtest_kmap *km,
				  struct vm_area_struct *vma)
{
	struct ovbtest_kmap_mm *m;

	if (km->mapping && km->mapping != vma->vm_file->f_mapping)
		return -EINVAL;
	km->mapping = vma->vm_file->f_mapping;
	list_for_each_entry(m, &km->mms, node)
		if (m->mm == vma->vm_mm)
			return 0;
	m = kmalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	mmgrab(vma->vm_mm);
	m->mm = vma->vm_mm;
	list_add_tail(&m->node, &km->mms);
	return 0;
}

/*
 * A PHYS buffer off its context's list (no mmap() can find it now): every
 * mmap() that did waited out, then every mapping of it zapped.  @zap false
 * (hot-unplug): the mms dropped only.
 */
static void ovbtest_kmap_phys_unmap(struct ovbtest_kmap *km, bool zap)
{
	struct ovbtest_kmap_mm *m, *tmp;

	list_for_each_entry_safe(m, tmp, &km->mms, node) {
		if (zap) {
			/* an mmap_region() holds it until the VMA is linked */
			mmap_read_lock(m->mm);
			mmap_read_unlock(m->mm);
		}
		mmdrop(m->mm);
		list_del(&m->node);
		kfree(m);
	}
	if (zap && km->mapping)
		unmap_mapping_range(km->mapping, (loff_t)km->pfn << PAGE_SHIFT,
				    km->len, 1);
}

/* mmap_free of an entry kind: its last reference went. */
void ovbtest_kmap_free(struct ovbtest_mmap_page *p)
{
	ovbtest_kmap_release(to_kmap(p));
}

static int ovbtest_kmap_map(struct ovbtest_kmap *km,
			    struct vm_area_struct *vma)
{
	switch (km->type) {
	case OVBTEST_MMAP_KIND_VMALLOC:
		return remap_vmalloc_range(vma, km->buf, 0);
	case OVBTEST_MMAP_KIND_PAGE_RO:
		if (vma->vm_flags & (VM_WRITE | VM_EXEC))
			return -EPERM;
		ovbtest_vm_flags_clear(vma, VM_MAYWRITE);
		fallthrough;
	case OVBTEST_MMAP_KIND_PAGE:
		return vm_insert_page(vma, vma->vm_start,
				      virt_to_page(km->buf));
	case OVBTEST_MMAP_KIND_PHYS:
		ovbtest_vm_flags_set(vma, VM_IO);
		return remap_pfn_range(vma, vma->vm_start, km->pfn, km->len,
				       vma->vm_page_prot);
	case OVBTEST_MMAP_KIND_DONTCOPY:
		ovbtest_vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND);
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
		return io_remap_pfn_range(vma, vma->vm_start,
					  PHYS_PFN(km->page.phys), km->len,
					  vma->vm_page_prot);
	}
	return -EINVAL;
}

static int ovbtest_kmap_check(struct ovbtest_kmap *km,
			      struct vm_area_struct *vma)
{
	if (vma->vm_end - vma->vm_start != km->len ||
	    !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	return ovbtest_kmap_map(km, vma);
}

/* An entry kind's mmap (ovbtest_mmap found its entry). */
int ovbtest_kmap_mmap(struct vm_area_struct *vma, struct ovbtest_mmap_page *p)
{
	return ovbtest_kmap_check(to_kmap(p), vma);
}

/*
 * A PHYS buffer at the offset: true with *@ret the mmap's answer, false
 * when the offset is none of the context's PHYS buffers.
 */
bool ovbtest_kmap_phys_mmap(struct ib_ucontext *ibuc,
			    struct vm_area_struct *vma, int *ret)
{
	struct ovbtest_ucontext *uc = to_ouc(ibuc);
	struct ovbtest_kmap *km;
	bool found = false;

	mutex_lock(&uc->kmap_lock);
	list_for_each_entry(km, &uc->kmaps, node) {
		if (km->pfn != vma->vm_pgoff)
			continue;
		found = true;
		*ret = ovbtest_kmap_phys_note(km, vma);
		if (!*ret)
			*ret = ovbtest_kmap_check(km, vma);
		break;
	}
	mutex_unlock(&uc->kmap_lock);
	return found;
}

static int ovbtest_kmap_alloc(struct ib_ucontext *ibuc,
			      struct ovbtest_kmap *km, u64 fill)
{
	struct ovbtest_ucontext *uc = to_ouc(ibuc);
	struct page *pages;
	int ret;

	switch (km->type) {
	case OVBTEST_MMAP_KIND_VMALLOC:
		km->len = OVBTEST_MMAP_KIND_VMALLOC_PAGES * PAGE_SIZE;
		km->buf = vmalloc_user(km->len);
		break;
	case OVBTEST_MMAP_KIND_PAGE:
	case OVBTEST_MMAP_KIND_PAGE_RO:
		km->len = PAGE_SIZE;
		km->buf = (void *)get_zeroed_page(GFP_KERNEL);
		break;
	case OVBTEST_MMAP_KIND_PHYS:
		km->len = PAGE_SIZE << OVBTEST_KMAP_PHYS_ORDER;
		pages = alloc_pages(GFP_KERNEL | __GFP_ZERO,
				    OVBTEST_KMAP_PHYS_ORDER);
		if (!pages)
			return -ENOMEM;
		km->buf = page_address(pages);
		km->pfn = page_to_pfn(pages);
		INIT_LIST_HEAD(&km->mms);
		*(u64 *)km->buf = fill;
		mutex_lock(&uc->kmap_lock);
		list_add_tail(&km->node, &uc->kmaps);
		mutex_unlock(&uc->kmap_lock);
		return 0;
	case OVBTEST_MMAP_KIND_DONTCOPY:
		if (!ovbtest_mmap_has_bar())
			return -ENODEV;
		km->len = PAGE_SIZE;
		km->page.kind = OVBTEST_MMAP_NC;
		ret = ovbtest_mmap_pages_get(&km->page, fill);
		if (ret)
			return ret;
		goto insert;
	default:
		return -EINVAL;
	}
	if (!km->buf)
		return -ENOMEM;
	*(u64 *)km->buf = fill;
insert:
	ret = rdma_user_mmap_entry_insert(ibuc, &km->page.rdma_entry, km->len);
	if (!ret)
		return 0;
	/* not counted yet: undo by hand */
	if (km->type == OVBTEST_MMAP_KIND_VMALLOC)
		vfree(km->buf);
	else if (km->type == OVBTEST_MMAP_KIND_DONTCOPY)
		ovbtest_mmap_pages_put(&km->page);
	else
		free_page((unsigned long)km->buf);
	return ret;
}

static int ovbtest_kmap_cleanup(struct ib_uobject *uobject,
				enum rdma_remove_reason why,
				struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_ucontext *uc = to_ouc(uobject->context);
	struct ovbtest_kmap *km = uobject->object;
	const char *name = kmap_names[km->type];
	bool zap;

	if (km->type != OVBTEST_MMAP_KIND_PHYS) {
		if (why == RDMA_REMOVE_DRIVER_REMOVE)
			pr_info("ovbtest: mmap kind %s: freed at unplug\n",
				name);
		/* mmap_free frees it, now: no mapping holds the entry */
		rdma_user_mmap_entry_remove(&km->page.rdma_entry);
		return 0;
	}
	mutex_lock(&uc->kmap_lock);
	list_del(&km->node);
	mutex_unlock(&uc->kmap_lock);
	/*
	 * Outside kmap_lock, which an mmap() takes under its mmap_lock.  At
	 * close no VMA is left (each holds the file); at a hot-unplug the
	 * buffer is left to its maps below.
	 */
	zap = why != RDMA_REMOVE_CLOSE && why != RDMA_REMOVE_DRIVER_REMOVE;
	ovbtest_kmap_phys_unmap(km, zap);
	if (why != RDMA_REMOVE_DRIVER_REMOVE) {
		ovbtest_kmap_release(km);
		return 0;
	}
	/* it may still be mapped, and nothing would tell when it stops */
	pr_info("ovbtest: mmap kind %s: left to its mappings at unplug (%zu bytes)\n",
		name, km->len);
	kfree(km);
	atomic_inc(&kmap_left);
	atomic_dec(&kmap_alive);
	return 0;
}

static int UVERBS_HANDLER(OVBTEST_METHOD_MMAP_KIND_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs,
					OVBTEST_ATTR_MMAP_KIND_CREATE_HANDLE);
	struct ovbtest_kmap *km;
	u64 fill = 0, offset, len;
	u32 type;
	int ret;

	ret = uverbs_get_const(&type, attrs, OVBTEST_ATTR_MMAP_KIND_CREATE_KIND);
	if (ret)
		return ret;
	if (type >= OVBTEST_MMAP_KIND_NUM)
		return -EINVAL;
	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_MMAP_KIND_CREATE_FILL)) {
		ret = uverbs_copy_from(&fill, attrs,
				       OVBTEST_ATTR_MMAP_KIND_CREATE_FILL);
		if (ret)
			return ret;
	}
	km = kzalloc(sizeof(*km), GFP_KERNEL);
	if (!km)
		return -ENOMEM;
	km->page.kmap = true;
	km->type = type;
	ret = ovbtest_kmap_alloc(uobj->context, km, fill);
	if (ret) {
		kfree(km);
		return ret;
	}
	atomic_inc(&kmap_alive);
	uobj->object = km;
	/* From here an error destroys the object (RDMA_REMOVE_ABORT). */
	uverbs_finalize_uobj_create(attrs, OVBTEST_ATTR_MMAP_KIND_CREATE_HANDLE);

	offset = type == OVBTEST_MMAP_KIND_PHYS ?
		 (u64)km->pfn << PAGE_SHIFT :
		 rdma_user_mmap_get_offset(&km->page.rdma_entry);
	len = km->len;
	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MMAP_KIND_CREATE_OFFSET,
			     &offset, sizeof(offset));
	if (!ret)
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MMAP_KIND_CREATE_LENGTH,
				     &len, sizeof(len));
	return ret;
}

static int UVERBS_HANDLER(OVBTEST_METHOD_MMAP_KIND_ACCESS)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_kmap *km =
		uverbs_attr_get_obj(attrs, OVBTEST_ATTR_MMAP_KIND_ACCESS_HANDLE);
	bool write = uverbs_attr_is_valid(attrs,
					  OVBTEST_ATTR_MMAP_KIND_ACCESS_WRITE);
	u64 val, in = 0;
	u32 idx;
	int ret;

	ret = uverbs_copy_from(&idx, attrs, OVBTEST_ATTR_MMAP_KIND_ACCESS_INDEX);
	if (!ret && write)
		ret = uverbs_copy_from(&in, attrs,
				       OVBTEST_ATTR_MMAP_KIND_ACCESS_WRITE);
	if (ret)
		return ret;
	if (idx >= km->len / sizeof(u64))
		return -EINVAL;
	if (km->type == OVBTEST_MMAP_KIND_DONTCOPY) {
		val = readq(km->page.io + idx * sizeof(u64));
		if (write)
			writeq(in, km->page.io + idx * sizeof(u64));
	} else {
		val = READ_ONCE(((u64 *)km->buf)[idx]);
		if (write)
			WRITE_ONCE(((u64 *)km->buf)[idx], in);
	}
	return uverbs_copy_to(attrs, OVBTEST_ATTR_MMAP_KIND_ACCESS_READ, &val,
			      sizeof(val));
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_MMAP_KIND_CREATE,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_MMAP_KIND_CREATE_HANDLE,
					    OVBTEST_OBJECT_MMAP_KIND,
					    UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(OVBTEST_ATTR_MMAP_KIND_CREATE_KIND,
						 enum ovbtest_mmap_kind_type,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_MMAP_KIND_CREATE_FILL,
					       UVERBS_ATTR_TYPE(u64),
					       UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MMAP_KIND_CREATE_OFFSET,
						UVERBS_ATTR_TYPE(u64),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MMAP_KIND_CREATE_LENGTH,
						UVERBS_ATTR_TYPE(u64),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_MMAP_KIND_ACCESS,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_MMAP_KIND_ACCESS_HANDLE,
					    OVBTEST_OBJECT_MMAP_KIND,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_MMAP_KIND_ACCESS_INDEX,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_MMAP_KIND_ACCESS_WRITE,
					       UVERBS_ATTR_TYPE(u64),
					       UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MMAP_KIND_ACCESS_READ,
						UVERBS_ATTR_TYPE(u64),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVBTEST_METHOD_MMAP_KIND_DESTROY,
				    UVERBS_ATTR_IDR(OVBTEST_ATTR_MMAP_KIND_DESTROY_HANDLE,
						    OVBTEST_OBJECT_MMAP_KIND,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVBTEST_OBJECT_MMAP_KIND,
			    UVERBS_TYPE_ALLOC_IDR(ovbtest_kmap_cleanup),
			    &UVERBS_METHOD(OVBTEST_METHOD_MMAP_KIND_CREATE),
			    &UVERBS_METHOD(OVBTEST_METHOD_MMAP_KIND_ACCESS),
			    &UVERBS_METHOD(OVBTEST_METHOD_MMAP_KIND_DESTROY));

const struct uapi_definition ovbtest_mmap_kinds_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVBTEST_OBJECT_MMAP_KIND),
	{},
};
