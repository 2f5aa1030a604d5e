// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: receive WQ indirection tables (RSS).
 *
 * A table of 2^n WQ handles; each WQ in it is pinned by wq->usecnt until
 * the table is destroyed, and the table itself is pinned by the QPs that
 * spread their receives over it (rwq_ind_tbl->usecnt).
 */

#include <linux/slab.h>

#include "uverbs.h"

static void uverbs_put_wqs(struct ib_wq **wqs, unsigned int n, bool unpin)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		rdma_lookup_put_uobject(&wqs[i]->uobject->uevent.uobject,
					UVERBS_LOOKUP_READ);
		if (unpin)
			atomic_dec(&wqs[i]->usecnt);
	}
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

static int uverbs_ex_create_rwq_ind_tbl(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_create_rwq_ind_table_resp resp = {};
	struct ovb_ex_create_rwq_ind_table_req cmd;
	struct ib_rwq_ind_table_init_attr init = {};
	struct ib_rwq_ind_table *tbl;
	struct uverbs_req_iter iter;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_wq **wqs;
	unsigned int n;
	int ret;

	ret = uverbs_request_start(attrs, &iter, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask)
		return -EOPNOTSUPP;
	if (cmd.log_ind_tbl_size > OVB_MAX_LOG_IND_TBL_SIZE)
		return -EINVAL;

	n = 1U << cmd.log_ind_tbl_size;
	ret = uverbs_get_wqs(attrs, &iter, n, &wqs);
	if (ret)
		return ret;

	uobj = uobj_alloc(OVB_OBJECT_RWQ_IND_TBL, attrs, &ibdev);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto err_wqs;
	}

	tbl = rdma_zalloc_drv_obj(ibdev, ib_rwq_ind_table);
	if (!tbl) {
		ret = -ENOMEM;
		goto err_uobj;
	}
	init.log_ind_tbl_size = cmd.log_ind_tbl_size;
	init.ind_tbl = wqs;
	tbl->ind_tbl = wqs;
	tbl->log_ind_tbl_size = cmd.log_ind_tbl_size;
	tbl->uobject = uobj;
	tbl->device = ibdev;
	atomic_set(&tbl->usecnt, 0);
	uobj->object = tbl;

	ret = ibdev->ops.create_rwq_ind_table(tbl, &init,
					      &attrs->driver_udata);
	if (ret)
		goto err_tbl;

	/* The table keeps the WQs pinned; only the read locks go. */
	uverbs_put_wqs(wqs, n, false);
	uobj_finalize_uobj_create(uobj, attrs);

	resp.ind_tbl_handle = uobj->id;
	resp.ind_tbl_num = tbl->ind_tbl_num;
	resp.response_length = uverbs_response_length(attrs, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));

err_tbl:
	kfree(tbl);
err_uobj:
	uobj_alloc_abort(uobj, attrs);
err_wqs:
	uverbs_put_wqs(wqs, n, true);
	kfree(wqs);
	return ret;
}

static int uverbs_ex_destroy_rwq_ind_tbl(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_destroy_rwq_ind_table_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask)
		return -EOPNOTSUPP;
	return uobj_perform_destroy(OVB_OBJECT_RWQ_IND_TBL,
				    cmd.ind_tbl_handle, attrs);
}

/* EBUSY while a QP spreads over the table. */
static int uverbs_free_rwq_ind_tbl(struct ib_uobject *uobj,
				   enum rdma_remove_reason why,
				   struct uverbs_attr_bundle *attrs)
{
	struct ib_rwq_ind_table *tbl = uobj->object;
	struct ib_wq **wqs = tbl->ind_tbl;
	unsigned int i, n = 1U << tbl->log_ind_tbl_size;
	int ret;

	if (atomic_read(&tbl->usecnt))
		return -EBUSY;

	ret = tbl->device->ops.destroy_rwq_ind_table(tbl);
	if (ret)
		return ret;

	for (i = 0; i < n; i++)
		atomic_dec(&wqs[i]->usecnt);
	kfree(tbl);
	kfree(wqs);
	return 0;
}

const struct uverbs_obj_idr_type uverbs_rwq_ind_tbl_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uobject),
	},
	.destroy_object = uverbs_free_rwq_ind_tbl,
};

const struct uverbs_write_cmd uverbs_rwq_ind_tbl_cmds[] = {
	UVERBS_WRITE_EX(OVB_EX_CMD_CREATE_RWQ_IND_TBL,
			uverbs_ex_create_rwq_ind_tbl,
			offsetofend(struct ovb_ex_create_rwq_ind_table_req,
				    log_ind_tbl_size),
			offsetofend(struct ovb_ex_create_rwq_ind_table_resp,
				    ind_tbl_num),
			UVERBS_NEEDS(create_rwq_ind_table),
			UVERBS_NEEDS(destroy_rwq_ind_table)),
	UVERBS_WRITE_EX(OVB_EX_CMD_DESTROY_RWQ_IND_TBL,
			uverbs_ex_destroy_rwq_ind_tbl,
			sizeof(struct ovb_ex_destroy_rwq_ind_table_req), 0,
			UVERBS_NEEDS(destroy_rwq_ind_table)),
	{ }
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
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_RWQ_IND_TBL,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_rwq_ind_table)),
	{ }
};
