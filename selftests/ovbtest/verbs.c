// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: the standard verbs of the device - user contexts with their
 * mmap'able pages (mmap.c), PDs, CQs (polled empty) and MRs over pinned
 * user memory (re-registered as mlx5 does: mr_rereg.c) - and the "DMA"
 * that copies between two MRs (through the pinned pages, as a device without an IOMMU
 * mapping would).
 */
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "ovbtest.h"

/* ------------------------------------------------------------- contexts */

static void ovbtest_ucontext_unmap(struct ovbtest_ucontext *uc)
{
	struct ovbtest_mmap_page *pages[] = {
		uc->nc, uc->wc, uc->doorbell, uc->counters,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pages); i++)
		if (!IS_ERR_OR_NULL(pages[i]))
			rdma_user_mmap_entry_remove(&pages[i]->rdma_entry);
}

/* Without a BAR the context has its cached pages only (resp.flags). */
static int ovbtest_ucontext_map(struct ovbtest_ucontext *uc,
				struct ovbtest_alloc_ucontext_resp *resp)
{
	struct ib_ucontext *ibuc = &uc->ibuc;

	uc->counters = ovbtest_mmap_insert(ibuc, OVBTEST_MMAP_CACHED, true, 0);
	if (IS_ERR(uc->counters))
		return PTR_ERR(uc->counters);
	uc->doorbell = ovbtest_mmap_insert(ibuc, OVBTEST_MMAP_CACHED, false, 0);
	if (IS_ERR(uc->doorbell))
		return PTR_ERR(uc->doorbell);
	ovbtest_counters(uc)->magic = OVBTEST_MAGIC;
	resp->counters_offset = rdma_user_mmap_get_offset(&uc->counters->rdma_entry);
	resp->doorbell_offset = rdma_user_mmap_get_offset(&uc->doorbell->rdma_entry);
	if (!ovbtest_mmap_has_bar())
		return 0;

	uc->wc = ovbtest_mmap_insert(ibuc, OVBTEST_MMAP_WC, false,
				     OVBTEST_WC_FILL);
	if (IS_ERR(uc->wc))
		return PTR_ERR(uc->wc);
	uc->nc = ovbtest_mmap_insert(ibuc, OVBTEST_MMAP_NC, false,
				     OVBTEST_NC_FILL);
	if (IS_ERR(uc->nc))
		return PTR_ERR(uc->nc);
	resp->flags |= OVBTEST_UCTX_BAR;
	resp->wc_offset = rdma_user_mmap_get_offset(&uc->wc->rdma_entry);
	resp->nc_offset = rdma_user_mmap_get_offset(&uc->nc->rdma_entry);
	resp->wc_bar_offset = uc->wc->bar_offset;
	resp->nc_bar_offset = uc->nc->bar_offset;
	return 0;
}

static int ovbtest_alloc_ucontext(struct ib_ucontext *ibuc,
				  struct ib_udata *udata)
{
	struct ovbtest_ucontext *uc = to_ouc(ibuc);
	struct ovbtest_alloc_ucontext_resp resp = {};
	int ret;

	if (ovbtest_failed(ibuc->device))
		return -EAGAIN;
	resp.magic = OVBTEST_MAGIC;
	ovbtest_kmap_ctx_init(uc);
	ret = ovbtest_ucontext_map(uc, &resp);
	if (!ret)
		ret = ib_copy_to_udata(udata, &resp,
				       min(udata->outlen, sizeof(resp)));
	if (ret) {
		ovbtest_ucontext_unmap(uc);
		return ret;
	}
	atomic_inc(&to_odev(ibuc->device)->live.contexts);
	return 0;
}

/* The pages go with their last mapping (ovbtest_mmap_free). */
static void ovbtest_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct ovbtest_ucontext *uc = to_ouc(ibuc);

	ovbtest_ucontext_unmap(uc);
	ovbtest_stuck_orphan(uc);
	ovbtest_irq_ctx_gone(ibuc);
	atomic_dec(&to_odev(ibuc->device)->live.contexts);
}

/*
 * Hot-unplug: ib_uverbs has already zapped the mappings; there is no
 * hardware to quiesce.
 */
static void ovbtest_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

/* ------------------------------------------------------------ PDs, CQs */

/*
 * A user PD answers with the udata the driver got (udata_ex.c): ALLOC_PD
 * is the legacy command with driver data both ways whose lengths old
 * libraries set (irdma, mthca, cxgb4 answer by outlen).
 */
static int ovbtest_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct ovbtest_udata_ex_cmd cmd;
	int ret;

	if (ovbtest_failed(ibpd->device))
		return -ENOLINK;
	if (udata) {
		ret = ovbtest_udata_ex_in(udata, &cmd, -EINVAL) ?:
		      ovbtest_udata_ex_out(udata, &cmd,
					   OVBTEST_UDATA_EX_ALLOC_PD);
		if (ret)
			return ret;
	}
	to_opd(ibpd)->owner = ovbtest_udata_owner(udata);
	atomic_inc(&to_odev(ibpd->device)->live.pds);
	return 0;
}

static int ovbtest_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	ovbtest_udata_check(to_opd(ibpd)->owner, udata);
	atomic_dec(&to_odev(ibpd->device)->live.pds);
	return 0;
}

/*
 * A CQ nothing completes on: COPY reports through the counters page.  The
 * driver's attribute on CQ_CREATE (absent from write() commands, whose
 * bundle has none) comes back in the driver response, as mlx5 reads its
 * UAR index: 6.12 hands the op the bundle itself, 6.1 the udata inside it
 * (compat.h).  The request's length tells an old library from the new
 * one (udata_ex.c, as cxgb4); either response is cut to outlen.
 */
static int ovbtest_create_cq(struct ib_cq *ibcq,
			     const struct ib_cq_init_attr *attr,
			     ovbtest_op_bundle *op)
{
	struct uverbs_attr_bundle *attrs = ovbtest_op_attrs(op);
	struct ib_udata *udata = ovbtest_op_udata(op);
	struct ovbtest_create_cq_resp_v2 resp = {};
	size_t len;
	int ret;

	if (ovbtest_failed(ibcq->device))
		return -ENOLINK;
	if (attr->flags & ~OVBTEST_CQ_FLAGS)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > 4096)
		return -EINVAL;
	ret = ovbtest_cq_abi(udata, &resp, &len);
	if (ret)
		return ret;
	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_CQ_CREATE_TAG)) {
		ret = uverbs_copy_from(&resp.base.tag, attrs,
				       OVBTEST_ATTR_CQ_CREATE_TAG);
		if (ret)
			return ret;
	}
	resp.base.cqe = attr->cqe;
	resp.base.flags = attr->flags;
	ret = ib_copy_to_udata(udata, &resp, min(udata->outlen, len));
	if (ret)
		return ret;
	ibcq->cqe = attr->cqe;
	to_ocq(ibcq)->owner = ovbtest_udata_owner(udata);
	ovbtest_irq_cq_init(to_ocq(ibcq));
	ovbtest_wc_cq_init(to_ocq(ibcq));
	ovbtest_fatal_cq_add(to_ocq(ibcq));
	atomic_inc(&to_odev(ibcq->device)->live.cqs);
	return 0;
}

static int ovbtest_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	ovbtest_udata_check(to_ocq(ibcq)->owner, udata);
	/* no handler call may follow: the interrupt is quiet from here */
	ovbtest_irq_cq_stop(to_ocq(ibcq));
	ovbtest_fatal_cq_del(to_ocq(ibcq));
	atomic_dec(&to_odev(ibcq->device)->live.cqs);
	return 0;
}

/* Nothing completes but what a test pushed (opa.c). */
static int ovbtest_poll_cq(struct ib_cq *ibcq, int num_entries,
			   struct ib_wc *wc)
{
	return ovbtest_wc_poll(to_ocq(ibcq), num_entries, wc);
}

/* Armed or not, no completion will come: none was missed either. */
static int ovbtest_req_notify_cq(struct ib_cq *ibcq,
				 enum ib_cq_notify_flags flags)
{
	return 0;
}

/* ------------------------------------------------------------------ MRs */

/*
 * A new MR with new keys around @umem, which it now owns.  Its key's
 * translation table is sized as mlx5's mkey cache sizes one: the pin's
 * page count rounded up to a power of two (mr_rereg.c loads a later pin
 * into it when it fits).
 */
struct ib_mr *ovbtest_mr_around(struct ib_device *ibdev, struct ib_umem *umem,
				u64 virt_addr, int access)
{
	struct ovbtest_dev *dev = to_odev(ibdev);
	struct ovbtest_mr *mr;
	u32 key;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = umem;
	mr->xlt_pages = roundup_pow_of_two(max_t(size_t, 1,
						 ib_umem_num_pages(umem)));
	key = (u32)atomic_inc_return(&dev->next_key) << 8;
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	mr->ibmr.iova = virt_addr;
	mr->ibmr.length = umem->length;
	mr->access = access;
	atomic_inc(&dev->live.mrs);
	return &mr->ibmr;
}

/* A new MR over freshly pinned memory, with new keys. */
struct ib_mr *ovbtest_mr_new(struct ib_device *ibdev, u64 start, u64 length,
			     u64 virt_addr, int access)
{
	struct ib_umem *umem;
	struct ib_mr *ibmr;

	/* odp.c: EOPNOTSUPP unless loaded with odp=1 */
	if (access & IB_ACCESS_ON_DEMAND)
		return ovbtest_odp_mr_new(ibdev, start, length, virt_addr,
					  access);
	umem = ib_umem_get(ibdev, start, length, access);
	if (IS_ERR(umem))
		return ERR_CAST(umem);
	ibmr = ovbtest_mr_around(ibdev, umem, virt_addr, access);
	if (IS_ERR(ibmr))
		ib_umem_release(umem);
	return ibmr;
}

static struct ib_mr *ovbtest_reg_user_mr(struct ib_pd *ibpd, u64 start,
					 u64 length, u64 virt_addr, int access,
					 struct ib_udata *udata)
{
	struct ib_mr *ibmr;

	if (ovbtest_failed(ibpd->device))
		return ERR_PTR(-ENOLINK);
	ibmr = ovbtest_mr_new(ibpd->device, start, length, virt_addr, access);
	if (!IS_ERR(ibmr))
		to_omr(ibmr)->owner = ovbtest_udata_owner(udata);
	return ibmr;
}

static int ovbtest_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct ovbtest_mr *mr = to_omr(ibmr);

	ovbtest_udata_check(mr->owner, udata);
	atomic_dec(&to_odev(ibmr->device)->live.mrs);
	ovbtest_dmabuf_mr_release(mr);
	ovbtest_odp_mr_release(mr);
	ib_umem_release(mr->umem);
	ovbtest_odp_mr_put_mm(mr);
	kfree(mr);
	return 0;
}

/* ------------------------------------------------------------- the DMA */

/*
 * Copies @len bytes at @off of @mr to (or from) @buf, page by page; a
 * dma-buf umem has DMA addresses only (dmabuf_mr.c).
 */
static int ovbtest_umem_xfer(struct ovbtest_mr *mr, u64 off, void *buf,
			     size_t len, bool to_umem)
{
	struct ib_umem *umem = mr->umem;
	u64 pos = ib_umem_offset(umem) + off;
	struct sg_page_iter piter;
	size_t done = 0, in, n;
	void *va;

	if (umem->is_dmabuf)
		return ovbtest_dmabuf_xfer(mr, off, buf, len, to_umem);
	if (umem->is_odp)
		return ovbtest_odp_xfer(mr, off, buf, len, to_umem);

	for_each_sgtable_page(&umem->sgt_append.sgt, &piter, pos >> PAGE_SHIFT) {
		in = offset_in_page(pos + done);
		n = min_t(size_t, len - done, PAGE_SIZE - in);
		va = kmap_local_page(sg_page_iter_page(&piter));
		if (to_umem)
			memcpy(va + in, buf + done, n);
		else
			memcpy(buf + done, va + in, n);
		kunmap_local(va);
		done += n;
		if (done == len)
			break;
	}
	return 0;
}

static bool ovbtest_mr_range_ok(struct ovbtest_mr *mr, u64 off, u32 len)
{
	u64 end;

	return !check_add_overflow(off, (u64)len, &end) &&
	       end <= (mr->umem->is_odp ? ovbtest_odp_mr_limit(mr) :
				      mr->umem->length);
}

/*
 * What a loopback HCA's RDMA WRITE does: @len bytes from @src at
 * @src_off to @dst at @dst_off.  The destination must be writable.
 */
int ovbtest_mr_copy(struct ovbtest_mr *src, u64 src_off, struct ovbtest_mr *dst,
		    u64 dst_off, u32 len)
{
	size_t done, n;
	int ret = 0;
	void *buf;

	/* device memory MRs (dm.c) have no pages to copy */
	if (!src->umem || !dst->umem)
		return -EINVAL;
	if (!ovbtest_mr_range_ok(src, src_off, len) ||
	    !ovbtest_mr_range_ok(dst, dst_off, len))
		return -ERANGE;
	if (!(dst->access & IB_ACCESS_LOCAL_WRITE))
		return -EACCES;

	buf = (void *)__get_free_page(GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (done = 0; done < len; done += n) {
		n = min_t(size_t, len - done, PAGE_SIZE);
		ret = ovbtest_umem_xfer(src, src_off + done, buf, n, false) ?:
		      ovbtest_umem_xfer(dst, dst_off + done, buf, n, true);
		if (ret)
			break;
		cond_resched();
	}
	free_page((unsigned long)buf);
	return ret;
}

const struct ib_device_ops ovbtest_verbs_ops = {
	.alloc_ucontext = ovbtest_alloc_ucontext,
	.dealloc_ucontext = ovbtest_dealloc_ucontext,
	.disassociate_ucontext = ovbtest_disassociate_ucontext,
	.alloc_pd = ovbtest_alloc_pd,
	.dealloc_pd = ovbtest_dealloc_pd,
	.create_cq = ovbtest_create_cq,
	.destroy_cq = ovbtest_destroy_cq,
	.poll_cq = ovbtest_poll_cq,
	.req_notify_cq = ovbtest_req_notify_cq,
	.reg_user_mr = ovbtest_reg_user_mr,
	.reg_user_mr_dmabuf = ovbtest_reg_user_mr_dmabuf,
	.dereg_mr = ovbtest_dereg_mr,

	INIT_RDMA_OBJ_SIZE(ib_ucontext, ovbtest_ucontext, ibuc),
	INIT_RDMA_OBJ_SIZE(ib_pd, ovbtest_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, ovbtest_cq, ibcq),
};
