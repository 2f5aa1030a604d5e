// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: work queues (receive WQs for RSS).
 *
 * A WQ has a PD and a CQ, and belongs to receive indirection tables that
 * count on it through wq->usecnt.  Only extended commands exist.
 */

#include "uverbs.h"

/* The hardware WQ of a new uwq, for write() and ioctl alike. */
static struct ib_wq *uverbs_wq_create_hw(struct ib_uwq_object *uwq,
					 struct ib_pd *pd, struct ib_cq *cq,
					 struct ib_wq_init_attr *init,
					 struct uverbs_attr_bundle *attrs,
					 struct ib_uverbs_async_event_file *async)
{
	struct ib_wq *wq;

	INIT_LIST_HEAD(&uwq->uevent.event_list);
	uwq->uevent.event_file = uverbs_async_event_get(async);
	init->event_handler = ib_uverbs_wq_event_handler;
	init->wq_context = attrs->ufile;
	init->cq = cq;
	wq = pd->device->ops.create_wq(pd, init, &attrs->driver_udata);
	if (IS_ERR(wq)) {
		ib_uverbs_release_uevent(&uwq->uevent);
		uwq->uevent.event_file = NULL;
		return wq;
	}
	/* The driver allocates the WQ; the core fields are ours to fill. */
	wq->uobject = uwq;
	wq->wq_type = init->wq_type;
	wq->cq = cq;
	wq->pd = pd;
	wq->device = pd->device;
	wq->wq_context = init->wq_context;
	atomic_set(&wq->usecnt, 0);
	atomic_inc(&pd->usecnt);
	atomic_inc(&cq->usecnt);
	uwq->uevent.uobject.object = wq;
	return wq;
}

static int uverbs_ex_create_wq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_create_wq_resp resp = {};
	struct ovb_ex_create_wq_req cmd;
	struct ib_wq_init_attr init = {};
	struct ib_uwq_object *uwq;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_wq *wq;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask)
		return -EOPNOTSUPP;

	uobj = uobj_alloc(OVB_OBJECT_WQ, attrs, &ibdev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uwq = container_of(uobj, struct ib_uwq_object, uevent.uobject);
	uobj->user_handle = cmd.user_handle;

	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd.pd_handle, attrs);
	if (IS_ERR(pd)) {
		ret = PTR_ERR(pd);
		goto err_uobj;
	}
	cq = uobj_get_obj_read(cq, OVB_OBJECT_CQ, cmd.cq_handle, attrs);
	if (IS_ERR(cq)) {
		ret = PTR_ERR(cq);
		goto err_pd;
	}

	init.max_sge = cmd.max_sge;
	init.max_wr = cmd.max_wr;
	init.wq_type = cmd.wq_type;
	init.create_flags = cmd.create_flags;
	wq = uverbs_wq_create_hw(uwq, pd, cq, &init, attrs,
				 uverbs_default_async_event(attrs->ufile));
	if (IS_ERR(wq)) {
		ret = PTR_ERR(wq);
		goto err_cq;
	}

	uobj_put_obj_read(pd);
	rdma_lookup_put_uobject(&cq->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
	uobj_finalize_uobj_create(uobj, attrs);

	resp.wq_handle = uobj->id;
	resp.max_sge = init.max_sge;
	resp.max_wr = init.max_wr;
	resp.wqn = wq->wq_num;
	resp.response_length = uverbs_response_length(attrs, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));

err_cq:
	rdma_lookup_put_uobject(&cq->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
err_pd:
	uobj_put_obj_read(pd);
err_uobj:
	uobj_alloc_abort(uobj, attrs);
	return ret;
}

static int uverbs_ex_destroy_wq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_destroy_wq_resp resp = {};
	struct ovb_ex_destroy_wq_req cmd;
	struct ib_uwq_object *uwq;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask)
		return -EOPNOTSUPP;

	resp.response_length = uverbs_response_length(attrs, sizeof(resp));
	uobj = uobj_get_destroy(OVB_OBJECT_WQ, cmd.wq_handle, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);

	uwq = container_of(uobj, struct ib_uwq_object, uevent.uobject);
	resp.events_reported = uwq->uevent.events_reported;
	uobj_put_destroy(uobj);

	return uverbs_response(attrs, &resp, sizeof(resp));
}

/*
 * Fills the state transition the driver is asked for: a state the user
 * does not name is the WQ's current one.  6.1 leaks the WQ's read lock
 * when it rejects a state here; we return the same errno without the leak.
 */
static int uverbs_wq_modify_attr(const struct ovb_ex_modify_wq_req *cmd,
				 const struct ib_wq *wq, struct ib_wq_attr *attr)
{
	if (cmd->attr_mask & IB_WQ_FLAGS) {
		attr->flags = cmd->flags;
		attr->flags_mask = cmd->flags_mask;
	}

	if (cmd->attr_mask & IB_WQ_CUR_STATE) {
		if (cmd->curr_wq_state > IB_WQS_ERR)
			return -EINVAL;
		attr->curr_wq_state = cmd->curr_wq_state;
	} else {
		attr->curr_wq_state = wq->state;
	}

	if (cmd->attr_mask & IB_WQ_STATE) {
		if (cmd->wq_state > IB_WQS_ERR)
			return -EINVAL;
		attr->wq_state = cmd->wq_state;
	} else {
		attr->wq_state = attr->curr_wq_state;
	}
	return 0;
}

static int uverbs_ex_modify_wq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_modify_wq_req cmd;
	struct ib_wq_attr attr = {};
	struct ib_wq *wq;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (!cmd.attr_mask ||
	    cmd.attr_mask > (IB_WQ_STATE | IB_WQ_CUR_STATE | IB_WQ_FLAGS))
		return -EINVAL;

	wq = uobj_get_obj_read(wq, OVB_OBJECT_WQ, cmd.wq_handle, attrs);
	if (IS_ERR(wq))
		return PTR_ERR(wq);

	ret = uverbs_wq_modify_attr(&cmd, wq, &attr);
	if (!ret)
		ret = wq->device->ops.modify_wq(wq, &attr, cmd.attr_mask,
						&attrs->driver_udata);
	rdma_lookup_put_uobject(&wq->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
	return ret;
}

/* EBUSY while an indirection table uses the WQ. */
static int uverbs_free_wq(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	struct ib_uwq_object *uwq =
		container_of(uobj, struct ib_uwq_object, uevent.uobject);
	int ret;

	ret = ib_destroy_wq_user(uobj->object, &attrs->driver_udata);
	if (ret)
		return ret;

	ib_uverbs_release_uevent(&uwq->uevent);
	return 0;
}

const struct uverbs_obj_idr_type uverbs_wq_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uwq_object),
	},
	.destroy_object = uverbs_free_wq,
};

const struct uverbs_write_cmd uverbs_wq_cmds[] = {
	UVERBS_WRITE_EX(OVB_EX_CMD_CREATE_WQ, uverbs_ex_create_wq,
			offsetofend(struct ovb_ex_create_wq_req, max_sge),
			offsetofend(struct ovb_ex_create_wq_resp, wqn),
			UVERBS_NEEDS(create_wq), UVERBS_NEEDS(destroy_wq)),
	UVERBS_WRITE_EX(OVB_EX_CMD_DESTROY_WQ, uverbs_ex_destroy_wq,
			offsetofend(struct ovb_ex_destroy_wq_req, wq_handle),
			offsetofend(struct ovb_ex_destroy_wq_resp,
				    reserved),
			UVERBS_NEEDS(destroy_wq)),
	UVERBS_WRITE_EX(OVB_EX_CMD_MODIFY_WQ, uverbs_ex_modify_wq,
			offsetofend(struct ovb_ex_modify_wq_req,
				    curr_wq_state), 0,
			UVERBS_NEEDS(modify_wq), UVERBS_NEEDS(destroy_wq)),
	{ }
};

/* ---------------------------------------------------- the ioctl methods */

static int UVERBS_HANDLER(OVB_METHOD_WQ_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVB_ATTR_CREATE_WQ_HANDLE);
	struct ib_uwq_object *uwq =
		container_of(uobj, struct ib_uwq_object, uevent.uobject);
	struct ib_pd *pd = uverbs_attr_get_obj(attrs,
					       OVB_ATTR_CREATE_WQ_PD_HANDLE);
	struct ib_cq *cq = uverbs_attr_get_obj(attrs,
					       OVB_ATTR_CREATE_WQ_CQ_HANDLE);
	struct ib_wq_init_attr init = {};
	struct ib_wq *wq;
	int ret;

	ret = uverbs_get_flags32(&init.create_flags, attrs,
				 OVB_ATTR_CREATE_WQ_FLAGS,
				 OVB_WQ_FLAGS_CVLAN_STRIPPING |
				 OVB_WQ_FLAGS_SCATTER_FCS |
				 OVB_WQ_FLAGS_DELAY_DROP |
				 OVB_WQ_FLAGS_PCI_WRITE_END_PADDING);
	if (!ret)
		ret = uverbs_copy_from(&init.max_sge, attrs,
				       OVB_ATTR_CREATE_WQ_MAX_SGE);
	if (!ret)
		ret = uverbs_copy_from(&init.max_wr, attrs,
				       OVB_ATTR_CREATE_WQ_MAX_WR);
	if (!ret)
		ret = uverbs_copy_from(&uobj->user_handle, attrs,
				       OVB_ATTR_CREATE_WQ_USER_HANDLE);
	if (!ret)
		ret = uverbs_get_const(&init.wq_type, attrs,
				       OVB_ATTR_CREATE_WQ_TYPE);
	if (ret)
		return ret;
	if (init.wq_type != IB_WQT_RQ)
		return -EINVAL;
	/* 6.1 declares the CQ optional but dereferences it: we refuse. */
	if (IS_ERR(cq))
		return PTR_ERR(cq);

	wq = uverbs_wq_create_hw(uwq, pd, cq, &init, attrs,
				 uverbs_async_event_attr(attrs,
							 OVB_ATTR_CREATE_WQ_EVENT_FD));
	if (IS_ERR(wq))
		return PTR_ERR(wq);
	uverbs_finalize_uobj_create(attrs, OVB_ATTR_CREATE_WQ_HANDLE);

	ret = uverbs_copy_to(attrs, OVB_ATTR_CREATE_WQ_RESP_MAX_WR,
			     &init.max_wr, sizeof(init.max_wr));
	if (!ret)
		ret = uverbs_copy_to(attrs, OVB_ATTR_CREATE_WQ_RESP_MAX_SGE,
				     &init.max_sge, sizeof(init.max_sge));
	if (!ret)
		ret = uverbs_copy_to(attrs, OVB_ATTR_CREATE_WQ_RESP_WQ_NUM,
				     &wq->wq_num, sizeof(wq->wq_num));
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_WQ_CREATE,
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_WQ_HANDLE,
					    OVB_OBJECT_WQ,
					    UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_WQ_PD_HANDLE,
					    OVB_OBJECT_PD,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_CREATE_WQ_TYPE,
						 enum ib_wq_type,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_WQ_USER_HANDLE,
					       UVERBS_ATTR_TYPE(u64),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_WQ_MAX_WR,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_WQ_MAX_SGE,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVB_ATTR_CREATE_WQ_FLAGS,
						 enum ovb_wq_flags,
						 UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_WQ_CQ_HANDLE,
					    OVB_OBJECT_CQ,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_FD(OVB_ATTR_CREATE_WQ_EVENT_FD,
					   OVB_OBJECT_ASYNC_EVENT,
					   UVERBS_ACCESS_READ,
					   UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CREATE_WQ_RESP_MAX_WR,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CREATE_WQ_RESP_MAX_SGE,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CREATE_WQ_RESP_WQ_NUM,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

/* The object is gone already; its event counters are still readable. */
static int UVERBS_HANDLER(OVB_METHOD_WQ_DESTROY)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVB_ATTR_DESTROY_WQ_HANDLE);
	struct ib_uwq_object *uwq =
		container_of(uobj, struct ib_uwq_object, uevent.uobject);
	u32 resp = uwq->uevent.events_reported;

	return uverbs_copy_to(attrs, OVB_ATTR_DESTROY_WQ_RESP, &resp,
			      sizeof(resp));
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_WQ_DESTROY,
			    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_WQ_HANDLE,
					    OVB_OBJECT_WQ,
					    UVERBS_ACCESS_DESTROY,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_DESTROY_WQ_RESP,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_WQ, uverbs_wq_type.type,
			    &UVERBS_METHOD(OVB_METHOD_WQ_CREATE),
			    &UVERBS_METHOD(OVB_METHOD_WQ_DESTROY));

const struct uapi_definition uverbs_def_obj_wq[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_WQ,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_wq)),
	{ }
};
