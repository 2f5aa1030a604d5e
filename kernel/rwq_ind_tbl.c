// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: receive WQ indirection tables (RSS).
 *
 * A table of 2^n WQ handles; each WQ in it is pinned by wq->usecnt until
 * the table is destroyed, and the table itself is pinned by the QPs that
 * spread their receives over it (rwq_ind_tbl->usecnt).
 */

#include <linux/slab.h>

#include "obj_steps.h"

/* Each WQ of a table is pinned (usecnt) while the table exists. */
static void uverbs_unpin_wqs(struct ib_wq **wqs, unsigned int n)
{
	while (n--)
		atomic_dec(&wqs[n]->usecnt);
}

static void uverbs_put_wqs(struct ib_wq **wqs, unsigned int n, bool unpin)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rdma_lookup_put_uobject(&wqs[i]->uobject->uevent.uobject,
					UVERBS_LOOKUP_READ);
	if (unpin)
		uverbs_unpin_wqs(wqs, n);
}

/*
 * Reads the request's WQ handle tail and looks every WQ up (read locked
 * and pinned).  On success *@wqs_out holds them all; on failure nothing
 * is held.
 */
static int uverbs_get_wqs(struct uverbs_attr_bundle *attrs,
			  struct uverbs_req_iter *iter, unsigned int n,
			  struct ib_wq ***wqs_out)
{
	struct ib_wq **wqs = NULL;
	unsigned int got = 0;
	u32 *handles;
	int ret;

	handles = kcalloc(n, sizeof(*handles), GFP_KERNEL);
	if (!handles)
		return -ENOMEM;
	ret = uverbs_request_next(iter, handles, n * sizeof(*handles));
	if (!ret)
		ret = uverbs_request_finish(iter);
	if (ret)
		goto out;

	wqs = kcalloc(n, sizeof(*wqs), GFP_KERNEL);
	if (!wqs) {
		ret = -ENOMEM;
		goto out;
	}
	for (; got < n; got++) {
		struct ib_wq *wq = uobj_get_obj_read(wq, OVB_OBJECT_WQ,
						     handles[got], attrs);

		if (IS_ERR(wq)) {
			ret = PTR_ERR(wq);
			uverbs_put_wqs(wqs, got, true);
			kfree(wqs);
			wqs = NULL;
			goto out;
		}
		wqs[got] = wq;
		atomic_inc(&wq->usecnt);
	}
out:
	kfree(handles);
	*wqs_out = wqs;
	return ret;
}

/* The table over @wqs; the driver fills in the rest. */
static struct ib_rwq_ind_table *uverbs_rwq_tbl_make(struct uverbs_newobj *n,
						    struct ib_wq **wqs,
						    u32 log_size)
{
	struct ib_rwq_ind_table_init_attr init = {
		.log_ind_tbl_size = log_size,
		.ind_tbl = wqs,
	};
	struct ib_rwq_ind_table *tbl =
		rdma_zalloc_drv_obj(n->ibdev, ib_rwq_ind_table);
	int ret;

	if (!tbl)
		return ERR_PTR(-ENOMEM);
	*tbl = (struct ib_rwq_ind_table) {
		.device = n->ibdev,
		.uobject = n->uobj,
		.ind_tbl = wqs,
		.log_ind_tbl_size = log_size,
	};
	ret = n->ibdev->ops.create_rwq_ind_table(tbl, &init,
						 &n->attrs->driver_udata);
	if (!ret)
		return tbl;
	kfree(tbl);
	return ERR_PTR(ret);
}

static int uverbs_rwq_tbl_check(const struct ovb_ex_create_rwq_ind_table_req *cmd)
{
	if (cmd->comp_mask)
		return -EOPNOTSUPP;
	return cmd->log_ind_tbl_size > OVB_MAX_LOG_IND_TBL_SIZE ? -EINVAL : 0;
}

static int uverbs_ex_create_rwq_ind_tbl(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_create_rwq_ind_table_resp resp;
	struct ovb_ex_create_rwq_ind_table_req cmd;
	struct ib_rwq_ind_table *tbl;
	struct uverbs_req_iter iter;
	struct uverbs_newobj n;
	struct ib_wq **wqs;
	unsigned int count;
	int ret = uverbs_request_start(attrs, &iter, &cmd, sizeof(cmd));

	ret = ret ?: uverbs_rwq_tbl_check(&cmd);
	if (ret)
		return ret;
	count = 1U << cmd.log_ind_tbl_size;
	ret = uverbs_get_wqs(attrs, &iter, count, &wqs);
	if (ret)
		return ret;

	ret = uverbs_newobj_begin(&n, OVB_OBJECT_RWQ_IND_TBL, attrs, 0);
	if (!ret) {
		tbl = uverbs_rwq_tbl_make(&n, wqs, cmd.log_ind_tbl_size);
		if (IS_ERR(tbl))
			ret = uverbs_newobj_cancel(&n, PTR_ERR(tbl));
	}
	/* On success the table keeps the WQs pinned; only the locks go. */
	uverbs_put_wqs(wqs, count, ret);
	if (ret) {
		kfree(wqs);
		return ret;
	}

	resp = (struct ovb_ex_create_rwq_ind_table_resp) {
		.ind_tbl_handle = uverbs_newobj_publish(&n, tbl),
		.ind_tbl_num = tbl->ind_tbl_num,
		.response_length = uverbs_response_length(attrs, sizeof(resp)),
	};
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static int uverbs_rwq_tbl_destroy_check(const void *req)
{
	const struct ovb_ex_destroy_rwq_ind_table_req *cmd = req;

	return cmd->comp_mask ? -EOPNOTSUPP : 0;
}

static const struct uverbs_destroy_cmd uverbs_rwq_tbl_destroy = {
	UVERBS_DESTROY_CMD(OVB_OBJECT_RWQ_IND_TBL,
			   struct ovb_ex_destroy_rwq_ind_table_req,
			   ind_tbl_handle),
	.check = uverbs_rwq_tbl_destroy_check,
};

static int uverbs_ex_destroy_rwq_ind_tbl(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_rwq_tbl_destroy);
}

/* EBUSY while a QP spreads over the table. */
static int uverbs_free_rwq_ind_tbl(struct ib_uobject *uobj,
				   enum rdma_remove_reason why,
				   struct uverbs_attr_bundle *attrs)
{
	struct ib_rwq_ind_table *tbl = uobj->object;
	struct ib_wq **wqs = tbl->ind_tbl;
	int ret = atomic_read(&tbl->usecnt) ? -EBUSY :
		  tbl->device->ops.destroy_rwq_ind_table(tbl);

	if (!ret) {
		uverbs_unpin_wqs(wqs, 1U << tbl->log_ind_tbl_size);
		kfree(tbl);
		kfree(wqs);
	}
	return ret;
}

const struct uverbs_obj_idr_type uverbs_rwq_ind_tbl_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uobject),
	},
	.destroy_object = uverbs_free_rwq_ind_tbl,
};

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_RWQ_IND_TBL_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_RWQ_IND_TBL_HANDLE,
						    OVB_OBJECT_RWQ_IND_TBL,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_RWQ_IND_TBL,
			    uverbs_rwq_ind_tbl_type.type,
			    &UVERBS_METHOD(OVB_METHOD_RWQ_IND_TBL_DESTROY));

const struct uapi_definition uverbs_def_obj_rwq_ind_tbl[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_RWQ_IND_TBL),
	UAPI_DEF_OBJ_NEEDS_FN(destroy_rwq_ind_table),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_CREATE_RWQ_IND_TBL, uverbs_ex_create_rwq_ind_tbl,
				UVERBS_EX_MIN(offsetofend(struct ovb_ex_create_rwq_ind_table_req,
							  log_ind_tbl_size),
					      offsetofend(struct ovb_ex_create_rwq_ind_table_resp,
							  ind_tbl_num))),
	UAPI_DEF_METHOD_NEEDS_FN(create_rwq_ind_table),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_DESTROY_RWQ_IND_TBL, uverbs_ex_destroy_rwq_ind_tbl,
				UVERBS_EX_MIN(sizeof(struct ovb_ex_destroy_rwq_ind_table_req), 0)),
	{ }
};
