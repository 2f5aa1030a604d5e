// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: MRs over a dma-buf (REG_DMABUF_MR), pinned as efa does, and
 * OVBTEST_METHOD_DEVICE_DMABUF_ALLOC, which hands out dma-bufs of the
 * exporter module ovbtest_dmabuf.ko (reached through symbol_get(), so
 * ovbtest.ko loads and unloads without it).  The copy "DMA" walks the
 * umem's DMA addresses - the exporter's table as ib_umem_dmabuf_map_pages()
 * trimmed it to the MR's window - and asks the exporter for the page
 * behind each one.
 */
#include <linux/dma-buf.h>
#include <linux/file.h>
#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#define UVERBS_MODULE_NAME ovbtest
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"
#include "ovbtest_dmabuf.h"

MODULE_IMPORT_NS(DMA_BUF);

struct ib_mr *ovbtest_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
					 u64 length, u64 virt_addr, int fd,
					 int access, struct ib_udata *udata)
{
	struct ovbtest_dev *dev = to_odev(ibpd->device);
	struct ib_umem_dmabuf *umem_dmabuf;
	struct ovbtest_mr *mr;
	u32 key;

	if (access & IB_ACCESS_ON_DEMAND)
		return ERR_PTR(-EOPNOTSUPP);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	umem_dmabuf = ib_umem_dmabuf_get_pinned(ibpd->device, offset, length,
						fd, access);
	if (IS_ERR(umem_dmabuf)) {
		kfree(mr);
		return ERR_CAST(umem_dmabuf);
	}
	mr->umem = &umem_dmabuf->umem;
	/* NULL without the exporter module: COPY then refuses the MR. */
	mr->dmabuf_page = symbol_get(ovbtest_dmabuf_page);
	key = (u32)atomic_inc_return(&dev->next_key) << 8;
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	mr->ibmr.iova = virt_addr;
	mr->ibmr.length = length;
	mr->access = access;
	atomic_inc(&dev->live.mrs);
	return &mr->ibmr;
}

/* Before the umem goes (dereg_mr). */
void ovbtest_dmabuf_mr_release(struct ovbtest_mr *mr)
{
	if (mr->dmabuf_page)
		symbol_put(ovbtest_dmabuf_page);
	mr->dmabuf_page = NULL;
}

/*
 * @len bytes at @off of a dma-buf MR to (or from) @buf.  The umem's table
 * starts at the page of its first byte, as for user memory.
 */
int ovbtest_dmabuf_xfer(struct ovbtest_mr *mr, u64 off, void *buf,
			size_t len, bool to_umem)
{
	struct ib_umem *umem = mr->umem;
	struct dma_buf_attachment *attach = to_ib_umem_dmabuf(umem)->attach;
	u64 skip = ib_umem_offset(umem) + off;
	struct scatterlist *sg;
	unsigned int i, in;
	struct page *page;
	size_t done = 0, n;
	void *va;

	if (!mr->dmabuf_page)
		return -EOPNOTSUPP;
	for_each_sg(umem->sgt_append.sgt.sgl, sg, umem->sgt_append.sgt.nents,
		    i) {
		if (skip >= sg_dma_len(sg)) {
			skip -= sg_dma_len(sg);
			continue;
		}
		while (done < len && skip < sg_dma_len(sg)) {
			page = mr->dmabuf_page(attach,
					       sg_dma_address(sg) + skip, &in);
			if (WARN_ON_ONCE(!page))
				return -EFAULT;
			n = min_t(size_t, len - done, PAGE_SIZE - in);
			n = min_t(size_t, n, sg_dma_len(sg) - skip);
			va = kmap_local_page(page);
			if (to_umem)
				memcpy(va + in, buf + done, n);
			else
				memcpy(buf + done, va + in, n);
			kunmap_local(va);
			done += n;
			skip += n;
		}
		if (done == len)
			return 0;
		skip = 0;
	}
	/* the table ended before the MR did */
	WARN_ON_ONCE(1);
	return -EFAULT;
}

static int UVERBS_HANDLER(OVBTEST_METHOD_DEVICE_DMABUF_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	struct dma_buf *(*create)(unsigned int npages, u32 flags);
	struct dma_buf *dmabuf;
	u32 npages, flags;
	int fd, ret;

	ret = uverbs_copy_from(&npages, attrs, OVBTEST_ATTR_DMABUF_ALLOC_PAGES);
	if (!ret)
		ret = uverbs_get_flags32(&flags, attrs,
					 OVBTEST_ATTR_DMABUF_ALLOC_FLAGS,
					 OVBTEST_DMABUF_STATIC);
	if (ret)
		return ret;
	create = symbol_get(ovbtest_dmabuf_create);
	if (!create)
		return -EOPNOTSUPP;
	dmabuf = create(npages, flags);
	/* the dma-buf holds the exporter module from here */
	symbol_put(ovbtest_dmabuf_create);
	if (IS_ERR(dmabuf))
		return PTR_ERR(dmabuf);

	/* The fd goes live only once user space has been told its number. */
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		dma_buf_put(dmabuf);
		return fd;
	}
	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_DMABUF_ALLOC_FD, &fd,
			     sizeof(fd));
	if (ret) {
		put_unused_fd(fd);
		dma_buf_put(dmabuf);
		return ret;
	}
	fd_install(fd, dmabuf->file);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_DEVICE_DMABUF_ALLOC,
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_DMABUF_ALLOC_PAGES,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVBTEST_ATTR_DMABUF_ALLOC_FLAGS,
						 enum ovbtest_dmabuf_flags,
						 UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DMABUF_ALLOC_FD,
						UVERBS_ATTR_TYPE(s32),
						UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_device_dmabuf, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(OVBTEST_METHOD_DEVICE_DMABUF_ALLOC));

const struct uapi_definition ovbtest_dmabuf_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &ovbtest_device_dmabuf),
	{},
};
