// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: posting work requests through the kernel.
 *
 * A POST_* request is the fixed header, wr_count work requests of
 * wqe_size bytes each (user space may use a larger struct than ours; we
 * read the part we know), then sge_count scatter/gather entries that the
 * WRs consume in order.  Each WR becomes an ib_core WR of the container
 * type its opcode needs (ib_rdma_wr, ib_atomic_wr, ib_ud_wr) with its
 * SG list allocated behind it, and the chain goes to the driver.  On a
 * driver error the response says which WR failed, counted from 1.
 *
 * Software drivers (rxe) post from user space and use an empty POST_SEND
 * only as a doorbell that makes the kernel process the send queue: that
 * path allocates nothing.
 */

#include <linux/overflow.h>
#include <linux/slab.h>

#include "uverbs.h"

/* Where the SG list of a WR container of @wr_size bytes starts. */
static size_t uverbs_wr_sge_offset(size_t wr_size)
{
	return ALIGN(wr_size, sizeof(struct ib_sge));
}

/*
 * A WR container with room for @num_sge SG entries behind it, or NULL:
 * a count whose size would not fit 32 bits is refused like a failed
 * allocation (ENOMEM), as in 6.1.
 */
static void *uverbs_alloc_wr(size_t wr_size, u32 num_sge)
{
	size_t off = uverbs_wr_sge_offset(wr_size);

	if (num_sge >= (U32_MAX - off) / sizeof(struct ib_sge))
		return NULL;
	return kmalloc(off + num_sge * sizeof(struct ib_sge), GFP_KERNEL);
}

/*
 * Copies the next @num_sge entries of the request's SG array into the
 * list behind @wr.  The caller checked that the array holds them.
 */
static int uverbs_copy_sgl(void *wr, size_t wr_size, u32 num_sge,
			   struct ib_sge **sg_list,
			   const struct ovb_sge __user *sgls, u32 *sg_ind)
{
	if (!num_sge) {
		*sg_list = NULL;
		return 0;
	}
	*sg_list = wr + uverbs_wr_sge_offset(wr_size);
	if (copy_from_user(*sg_list, sgls + *sg_ind,
			   num_sge * sizeof(struct ib_sge)))
		return -EFAULT;
	*sg_ind += num_sge;
	return 0;
}

/*
 * Which WR the driver refused, counted from 1; the chain's length when
 * it named none of them.
 */
static u32 uverbs_bad_send_wr(const struct ib_send_wr *wr,
			      const struct ib_send_wr *bad)
{
	u32 n = 0;

	for (; wr; wr = wr->next) {
		n++;
		if (wr == bad)
			break;
	}
	return n;
}

static u32 uverbs_bad_recv_wr(const struct ib_recv_wr *wr,
			      const struct ib_recv_wr *bad)
{
	u32 n = 0;

	for (; wr; wr = wr->next) {
		n++;
		if (wr == bad)
			break;
	}
	return n;
}

/* ------------------------------------------------------------ send */

/*
 * The ib_core container an opcode needs, by size; 0 when the QP cannot
 * post it (a UD QP only sends; no QP posts driver-private opcodes here).
 */
static size_t uverbs_send_wr_size(u32 opcode, bool is_ud)
{
	if (is_ud)
		return opcode == IB_WR_SEND || opcode == IB_WR_SEND_WITH_IMM ?
			sizeof(struct ib_ud_wr) : 0;

	switch (opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		return sizeof(struct ib_rdma_wr);
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return sizeof(struct ib_atomic_wr);
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
		return sizeof(struct ib_send_wr);
	default:
		return 0;
	}
}

/* The opcode-specific part of @uwr into the container around @wr. */
static int uverbs_fill_send_wr(struct ib_send_wr *wr,
			       const struct ovb_send_wr *uwr, bool is_ud,
			       struct uverbs_attr_bundle *attrs)
{
	if (is_ud) {
		struct ib_ud_wr *ud = container_of(wr, struct ib_ud_wr, wr);

		ud->ah = uobj_get_obj_read(ah, OVB_OBJECT_AH, uwr->wr.ud.ah,
					   attrs);
		if (IS_ERR(ud->ah))
			return PTR_ERR(ud->ah);
		ud->remote_qpn = uwr->wr.ud.remote_qpn;
		ud->remote_qkey = uwr->wr.ud.remote_qkey;
	} else if (uwr->opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
		   uwr->opcode == IB_WR_ATOMIC_FETCH_AND_ADD) {
		struct ib_atomic_wr *atomic =
			container_of(wr, struct ib_atomic_wr, wr);

		atomic->remote_addr = uwr->wr.atomic.remote_addr;
		atomic->compare_add = uwr->wr.atomic.compare_add;
		atomic->swap = uwr->wr.atomic.swap;
		atomic->rkey = uwr->wr.atomic.rkey;
	} else if (uwr->opcode != IB_WR_SEND &&
		   uwr->opcode != IB_WR_SEND_WITH_IMM &&
		   uwr->opcode != IB_WR_SEND_WITH_INV) {
		struct ib_rdma_wr *rdma = container_of(wr, struct ib_rdma_wr, wr);

		rdma->remote_addr = uwr->wr.rdma.remote_addr;
		rdma->rkey = uwr->wr.rdma.rkey;
	}

	if (uwr->opcode == IB_WR_SEND_WITH_IMM ||
	    uwr->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		wr->ex.imm_data = (__be32 __force)uwr->ex.imm_data;
	else if (uwr->opcode == IB_WR_SEND_WITH_INV)
		wr->ex.invalidate_rkey = uwr->ex.invalidate_rkey;

	wr->next = NULL;
	wr->wr_id = uwr->wr_id;
	wr->num_sge = uwr->num_sge;
	wr->opcode = uwr->opcode;
	wr->send_flags = uwr->send_flags;
	return 0;
}

/* Frees a chain of send WRs and drops the AHs of UD ones. */
static void uverbs_free_send_wrs(struct ib_send_wr *wr, bool is_ud)
{
	struct ib_send_wr *next;

	for (; wr; wr = next) {
		next = wr->next;
		if (is_ud)
			uobj_put_obj_read(ud_wr(wr)->ah);
		kfree(wr);
	}
}

/* The user's WR array and SG array, located in the request. */
struct uverbs_post_arrays {
	const void __user *wqes;
	const struct ovb_sge __user *sgls;
	u32 wr_count;
	u32 wqe_size;
	u32 sge_count;
};

static int uverbs_post_locate(struct uverbs_req_iter *iter,
			      struct uverbs_post_arrays *a)
{
	const void __user *sgls;
	int ret;

	ret = uverbs_request_take(iter, size_mul(a->wqe_size, a->wr_count),
				  &a->wqes);
	if (!ret)
		ret = uverbs_request_take(iter,
					  size_mul(a->sge_count,
						   sizeof(struct ovb_sge)),
					  &sgls);
	if (ret)
		return ret;
	a->sgls = sgls;
	return uverbs_request_finish(iter);
}

/*
 * Builds the ib_core chain for @qp from the user's WRs; on error *@chain
 * holds what was built so far, for the caller to free.  @uwr is a
 * wqe_size buffer.
 */
static int uverbs_unmarshall_send(const struct uverbs_post_arrays *a,
				  struct ovb_send_wr *uwr, bool is_ud,
				  struct ib_send_wr **chain,
				  struct uverbs_attr_bundle *attrs)
{
	struct ib_send_wr **tail = chain;
	u32 sg_ind = 0;
	u32 i;
	int ret;

	for (i = 0; i < a->wr_count; i++) {
		struct ib_send_wr *wr;
		size_t size;
		void *buf;

		if (copy_from_user(uwr, a->wqes + (size_t)i * a->wqe_size,
				   a->wqe_size))
			return -EFAULT;
		if (uwr->num_sge + sg_ind > a->sge_count)
			return -EINVAL;

		size = uverbs_send_wr_size(uwr->opcode, is_ud);
		if (!size)
			return -EINVAL;
		buf = uverbs_alloc_wr(size, uwr->num_sge);
		if (!buf)
			return -ENOMEM;
		/* Every container starts with its struct ib_send_wr. */
		wr = buf;
		ret = uverbs_fill_send_wr(wr, uwr, is_ud, attrs);
		if (ret) {
			kfree(buf);
			return ret;
		}
		*tail = wr;
		tail = &wr->next;

		ret = uverbs_copy_sgl(buf, size, wr->num_sge, &wr->sg_list,
				      a->sgls, &sg_ind);
		if (ret)
			return ret;
	}
	return 0;
}

static int uverbs_post_send(struct uverbs_attr_bundle *attrs)
{
	struct ovb_post_send_resp resp = {};
	struct ib_send_wr *chain = NULL;
	const struct ib_send_wr *bad_wr = NULL;
	struct ovb_send_wr *uwr = NULL;
	struct ovb_post_send_req cmd;
	struct uverbs_post_arrays a;
	struct uverbs_req_iter iter;
	struct ib_qp *qp;
	bool is_ud;
	int ret, ret2;

	ret = uverbs_request_start(attrs, &iter, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	a.wr_count = cmd.wr_count;
	a.wqe_size = cmd.wqe_size;
	a.sge_count = cmd.sge_count;
	ret = uverbs_post_locate(&iter, &a);
	if (ret)
		return ret;
	if (cmd.wqe_size < sizeof(struct ovb_send_wr))
		return -EINVAL;

	/*
	 * The doorbell (no WRs) needs no bounce buffer; a size no buffer
	 * could have fails the same either way.
	 */
	if (cmd.wr_count) {
		uwr = kmalloc(cmd.wqe_size, GFP_KERNEL | __GFP_NOWARN);
		if (!uwr)
			return -ENOMEM;
	} else if (cmd.wqe_size > KMALLOC_MAX_SIZE) {
		return -ENOMEM;
	}

	qp = uobj_get_obj_read(qp, OVB_OBJECT_QP, cmd.qp_handle, attrs);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto out;
	}

	is_ud = qp->qp_type == IB_QPT_UD;
	ret = uverbs_unmarshall_send(&a, uwr, is_ud, &chain, attrs);
	if (ret)
		goto out_put;

	ret = qp->device->ops.post_send(qp->real_qp, chain, &bad_wr);
	if (ret)
		resp.bad_wr = uverbs_bad_send_wr(chain, bad_wr);
	ret2 = uverbs_response(attrs, &resp, sizeof(resp));
	if (ret2)
		ret = ret2;
out_put:
	rdma_lookup_put_uobject(&qp->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
	uverbs_free_send_wrs(chain, is_ud);
out:
	kfree(uwr);
	return ret;
}

/* ------------------------------------------------------------ receive */

static void uverbs_free_recv_wrs(struct ib_recv_wr *wr)
{
	struct ib_recv_wr *next;

	for (; wr; wr = next) {
		next = wr->next;
		kfree(wr);
	}
}

/*
 * Receive WRs are the same for QPs and SRQs, and are unmarshalled before
 * the queue is looked up (so a bad WR wins over a bad handle, as in 6.1).
 */
static struct ib_recv_wr *uverbs_unmarshall_recv(struct uverbs_req_iter *iter,
						 struct uverbs_post_arrays *a)
{
	struct ib_recv_wr *chain = NULL, **tail = &chain;
	struct ovb_recv_wr *uwr;
	u32 sg_ind = 0;
	u32 i;
	int ret;

	if (a->wqe_size < sizeof(struct ovb_recv_wr))
		return ERR_PTR(-EINVAL);
	ret = uverbs_post_locate(iter, a);
	if (ret)
		return ERR_PTR(ret);

	uwr = kmalloc(a->wqe_size, GFP_KERNEL | __GFP_NOWARN);
	if (!uwr)
		return ERR_PTR(-ENOMEM);

	for (i = 0; i < a->wr_count; i++) {
		struct ib_recv_wr *wr;

		if (copy_from_user(uwr, a->wqes + (size_t)i * a->wqe_size,
				   a->wqe_size)) {
			ret = -EFAULT;
			goto err;
		}
		if (uwr->num_sge + sg_ind > a->sge_count) {
			ret = -EINVAL;
			goto err;
		}
		/* Unlike send, an impossible SG count is EINVAL here. */
		if (uwr->num_sge >= (U32_MAX - uverbs_wr_sge_offset(sizeof(*wr))) /
				    sizeof(struct ib_sge)) {
			ret = -EINVAL;
			goto err;
		}
		wr = uverbs_alloc_wr(sizeof(*wr), uwr->num_sge);
		if (!wr) {
			ret = -ENOMEM;
			goto err;
		}
		wr->next = NULL;
		wr->wr_id = uwr->wr_id;
		wr->num_sge = uwr->num_sge;
		*tail = wr;
		tail = &wr->next;

		ret = uverbs_copy_sgl(wr, sizeof(*wr), wr->num_sge, &wr->sg_list,
				      a->sgls, &sg_ind);
		if (ret)
			goto err;
	}
	kfree(uwr);
	return chain;

err:
	kfree(uwr);
	uverbs_free_recv_wrs(chain);
	return ERR_PTR(ret);
}

/* The response of both receive posts: which WR failed, if any. */
static int uverbs_post_recv_done(struct uverbs_attr_bundle *attrs, int ret,
				 struct ib_recv_wr *chain,
				 const struct ib_recv_wr *bad_wr)
{
	struct ovb_post_recv_resp resp = {};
	int ret2;

	if (ret)
		resp.bad_wr = uverbs_bad_recv_wr(chain, bad_wr);
	ret2 = uverbs_response(attrs, &resp, sizeof(resp));
	uverbs_free_recv_wrs(chain);
	return ret2 ? ret2 : ret;
}

/*
 * Both receive posts' requests: the same layout, a target's handle, then
 * the WR arrays.  Returns the chain and the handle.
 */
static_assert(sizeof(struct ovb_post_recv_req) ==
	      sizeof(struct ovb_post_srq_recv_req));
static_assert(offsetof(struct ovb_post_recv_req, qp_handle) ==
	      offsetof(struct ovb_post_srq_recv_req, srq_handle));
static_assert(offsetof(struct ovb_post_recv_req, wr_count) ==
	      offsetof(struct ovb_post_srq_recv_req, wr_count));
static_assert(offsetof(struct ovb_post_recv_req, sge_count) ==
	      offsetof(struct ovb_post_srq_recv_req, sge_count));
static_assert(offsetof(struct ovb_post_recv_req, wqe_size) ==
	      offsetof(struct ovb_post_srq_recv_req, wqe_size));

static struct ib_recv_wr *uverbs_recv_request(struct uverbs_attr_bundle *attrs,
					      u32 *handle)
{
	struct ovb_post_recv_req cmd;
	struct uverbs_post_arrays a;
	struct uverbs_req_iter iter;
	int ret;

	ret = uverbs_request_start(attrs, &iter, &cmd, sizeof(cmd));
	if (ret)
		return ERR_PTR(ret);
	*handle = cmd.qp_handle;
	a.wr_count = cmd.wr_count;
	a.wqe_size = cmd.wqe_size;
	a.sge_count = cmd.sge_count;
	return uverbs_unmarshall_recv(&iter, &a);
}

static int uverbs_post_recv(struct uverbs_attr_bundle *attrs)
{
	const struct ib_recv_wr *bad_wr = NULL;
	struct ib_recv_wr *chain;
	struct ib_qp *qp;
	u32 handle;
	int ret;

	chain = uverbs_recv_request(attrs, &handle);
	if (IS_ERR(chain))
		return PTR_ERR(chain);

	qp = uobj_get_obj_read(qp, OVB_OBJECT_QP, handle, attrs);
	if (IS_ERR(qp)) {
		uverbs_free_recv_wrs(chain);
		return PTR_ERR(qp);
	}
	ret = qp->device->ops.post_recv(qp->real_qp, chain, &bad_wr);
	rdma_lookup_put_uobject(&qp->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
	return uverbs_post_recv_done(attrs, ret, chain, bad_wr);
}

static int uverbs_post_srq_recv(struct uverbs_attr_bundle *attrs)
{
	const struct ib_recv_wr *bad_wr = NULL;
	struct ib_recv_wr *chain;
	struct ib_srq *srq;
	u32 handle;
	int ret;

	chain = uverbs_recv_request(attrs, &handle);
	if (IS_ERR(chain))
		return PTR_ERR(chain);

	srq = uobj_get_obj_read(srq, OVB_OBJECT_SRQ, handle, attrs);
	if (IS_ERR(srq)) {
		uverbs_free_recv_wrs(chain);
		return PTR_ERR(srq);
	}
	ret = srq->device->ops.post_srq_recv(srq, chain, &bad_wr);
	rdma_lookup_put_uobject(&srq->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
	return uverbs_post_recv_done(attrs, ret, chain, bad_wr);
}

/*
 * Part of the QP object's chain (qp.c); POST_SRQ_RECV belongs to the SRQ
 * object and needs what that object needs (srq.c).
 */
const struct uapi_definition uverbs_def_qp_post[] = {
	DECLARE_UVERBS_OBJECT(OVB_OBJECT_QP),
	UVERBS_DECLARE_WRITE(OVB_CMD_POST_SEND, uverbs_post_send,
			     UVERBS_IN_OUT(struct ovb_post_send_req, struct ovb_post_send_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(post_send),
	UVERBS_DECLARE_WRITE(OVB_CMD_POST_RECV, uverbs_post_recv,
			     UVERBS_IN_OUT(struct ovb_post_recv_req, struct ovb_post_recv_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(post_recv),
	DECLARE_UVERBS_OBJECT(OVB_OBJECT_SRQ),
	UVERBS_DECLARE_WRITE(OVB_CMD_POST_SRQ_RECV, uverbs_post_srq_recv,
			     UVERBS_IN_OUT(struct ovb_post_srq_recv_req,
					   struct ovb_post_srq_recv_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(post_srq_recv),
	{ }
};
