// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: work queues (receive WQs for RSS).
 *
 * A WQ has a PD and a CQ, and belongs to receive indirection tables that
 * count on it through wq->usecnt.  Only extended commands exist.
 */

#include "obj_steps.h"

/* The core fields of a driver's new WQ that tie it to its PD and CQ. */
static void uverbs_wq_hold_deps(struct ib_wq *wq, struct ib_pd *pd,
				struct ib_cq *cq)
{
	wq->device = pd->device;
	wq->pd = pd;
	atomic_inc(&pd->usecnt);
	wq->cq = cq;
	atomic_inc(&cq->usecnt);
}

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
	atomic_set(&wq->usecnt, 0);
	wq->wq_context = init->wq_context;
	wq->wq_type = init->wq_type;
	uverbs_wq_hold_deps(wq, pd, cq);
	wq->uobject = uwq;
	uwq->uevent.uobject.object = wq;
	return wq;
}

/* EX_CREATE_WQ's PD and CQ are read-locked while the driver builds. */
static struct ib_wq *uverbs_wq_create_cmd(struct ib_uwq_object *uwq,
					  const struct ovb_ex_create_wq_req *cmd,
					  struct ib_wq_init_attr *init,
					  struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_wq *wq;

	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd->pd_handle, attrs);
	if (IS_ERR(pd))
		return ERR_CAST(pd);
	cq = uobj_get_obj_read(cq, OVB_OBJECT_CQ, cmd->cq_handle, attrs);
	wq = IS_ERR(cq) ? ERR_CAST(cq) :
			  uverbs_wq_create_hw(uwq, pd, cq, init, attrs,
					      uverbs_default_async_event(attrs->ufile));
	if (!IS_ERR(cq))
		rdma_lookup_put_uobject(&cq->uobject->uevent.uobject,
					UVERBS_LOOKUP_READ);
	uobj_put_obj_read(pd);
	return wq;
}

static int uverbs_ex_create_wq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_create_wq_resp resp;
	struct ovb_ex_create_wq_req cmd;
	struct ib_wq_init_attr init;
	struct ib_uwq_object *uwq;
	struct uverbs_newobj n;
	struct ib_wq *wq;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	if (!ret && cmd.comp_mask)
		ret = -EOPNOTSUPP;
	ret = ret ?: uverbs_newobj_begin(&n, OVB_OBJECT_WQ, attrs,
					 cmd.user_handle);
	if (ret)
		return ret;
	uwq = container_of(n.uobj, struct ib_uwq_object, uevent.uobject);

	init = (struct ib_wq_init_attr) {
		.max_sge = cmd.max_sge,
		.max_wr = cmd.max_wr,
		.wq_type = cmd.wq_type,
		.create_flags = cmd.create_flags,
	};
	wq = uverbs_wq_create_cmd(uwq, &cmd, &init, attrs);
	if (IS_ERR(wq))
		return uverbs_newobj_cancel(&n, PTR_ERR(wq));

	resp = (struct ovb_ex_create_wq_resp) {
		.wq_handle = uverbs_newobj_publish(&n, NULL),
		.max_sge = init.max_sge,
		.max_wr = init.max_wr,
		.wqn = wq->wq_num,
		.response_length = uverbs_response_length(attrs, sizeof(resp)),
	};
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static int uverbs_wq_destroy_check(const void *req)
{
	const struct ovb_ex_destroy_wq_req *cmd = req;

	return cmd->comp_mask ? -EOPNOTSUPP : 0;
}

static void uverbs_wq_destroy_report(struct ib_uobject *uobj,
				     struct uverbs_attr_bundle *attrs,
				     void *out)
{
	struct ovb_ex_destroy_wq_resp *resp = out;

	resp->response_length = uverbs_response_length(attrs, sizeof(*resp));
	uverbs_report_uevents(uobj, attrs, &resp->events_reported);
}

static const struct uverbs_destroy_cmd uverbs_wq_destroy = {
	.object_id = OVB_OBJECT_WQ,
	.req_len = sizeof(struct ovb_ex_destroy_wq_req),
	.handle_offset = offsetof(struct ovb_ex_destroy_wq_req, wq_handle),
	.resp_len = sizeof(struct ovb_ex_destroy_wq_resp),
	.check = uverbs_wq_destroy_check,
	.fill = uverbs_wq_destroy_report,
};

static int uverbs_ex_destroy_wq(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_wq_destroy);
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
	const u32 known = IB_WQ_STATE | IB_WQ_CUR_STATE | IB_WQ_FLAGS;
	struct ovb_ex_modify_wq_req cmd;
	struct ib_wq_attr attr = {};
	struct ib_wq *wq;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	if (!ret && (!cmd.attr_mask || cmd.attr_mask > known))
		ret = -EINVAL;
	if (ret)
		return ret;
	wq = uobj_get_obj_read(wq, OVB_OBJECT_WQ, cmd.wq_handle, attrs);
	if (IS_ERR(wq))
		return PTR_ERR(wq);
	ret = uverbs_wq_modify_attr(&cmd, wq, &attr) ?:
	      wq->device->ops.modify_wq(wq, &attr, cmd.attr_mask,
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
	int ret = ib_destroy_wq_user(uobj->object, &attrs->driver_udata);

	if (!ret)
		ib_uverbs_release_uevent(&uwq->uevent);
	return ret;
}

const struct uverbs_obj_idr_type uverbs_wq_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uwq_object),
	},
	.destroy_object = uverbs_free_wq,
};

/* ---------------------------------------------------- the ioctl methods */

#define UVERBS_WQ_IOCTL_CREATE_FLAGS					\
	(OVB_WQ_FLAGS_CVLAN_STRIPPING |				\
	 OVB_WQ_FLAGS_SCATTER_FCS | OVB_WQ_FLAGS_DELAY_DROP | \
	 OVB_WQ_FLAGS_PCI_WRITE_END_PADDING)

struct uverbs_wq_create_args {
	struct ib_wq_init_attr init;
	u64 user_handle;
};

/* After the flags, in the order 6.1 reads them. */
static const struct uverbs_attr_field uverbs_wq_create_in[] = {
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_WQ_MAX_SGE,
			  struct uverbs_wq_create_args, init.max_sge),
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_WQ_MAX_WR,
			  struct uverbs_wq_create_args, init.max_wr),
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_WQ_USER_HANDLE,
			  struct uverbs_wq_create_args, user_handle),
};

/* The driver may have rounded the sizes up. */
static const struct uverbs_attr_field uverbs_wq_create_out[] = {
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_WQ_RESP_MAX_WR,
			  struct ib_wq_init_attr, max_wr),
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_WQ_RESP_MAX_SGE,
			  struct ib_wq_init_attr, max_sge),
};

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
	struct uverbs_wq_create_args in = {};
	struct ib_wq *wq;
	int ret = uverbs_get_flags32(&in.init.create_flags, attrs,
				     OVB_ATTR_CREATE_WQ_FLAGS,
				     UVERBS_WQ_IOCTL_CREATE_FLAGS) ?:
		  uverbs_copy_fields(attrs, &in, uverbs_wq_create_in,
				     ARRAY_SIZE(uverbs_wq_create_in)) ?:
		  uverbs_get_const(&in.init.wq_type, attrs,
				   OVB_ATTR_CREATE_WQ_TYPE);

	if (!ret && in.init.wq_type != IB_WQT_RQ)
		ret = -EINVAL;
	/* 6.1 declares the CQ optional but dereferences it: we refuse. */
	if (!ret && IS_ERR(cq))
		ret = PTR_ERR(cq);
	if (ret)
		return ret;
	uobj->user_handle = in.user_handle;

	wq = uverbs_wq_create_hw(uwq, pd, cq, &in.init, attrs,
				 uverbs_async_event_attr(attrs,
							 OVB_ATTR_CREATE_WQ_EVENT_FD));
	if (IS_ERR(wq))
		return PTR_ERR(wq);
	uverbs_finalize_uobj_create(attrs, OVB_ATTR_CREATE_WQ_HANDLE);

	return uverbs_copy_fields_out(attrs, &in.init, uverbs_wq_create_out,
				      ARRAY_SIZE(uverbs_wq_create_out)) ?:
	       uverbs_copy_to(attrs, OVB_ATTR_CREATE_WQ_RESP_WQ_NUM,
			      &wq->wq_num, sizeof(wq->wq_num));
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
	u32 resp;

	uverbs_report_uevents(uverbs_attr_get_uobject(attrs,
						      OVB_ATTR_DESTROY_WQ_HANDLE),
			      attrs, &resp);
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
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_WQ),
	UAPI_DEF_OBJ_NEEDS_FN(destroy_wq),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_CREATE_WQ, uverbs_ex_create_wq,
				UVERBS_EX_MIN(offsetofend(struct ovb_ex_create_wq_req, max_sge),
					      offsetofend(struct ovb_ex_create_wq_resp, wqn))),
	UAPI_DEF_METHOD_NEEDS_FN(create_wq),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_DESTROY_WQ, uverbs_ex_destroy_wq,
				UVERBS_EX_MIN(offsetofend(struct ovb_ex_destroy_wq_req, wq_handle),
					      offsetofend(struct ovb_ex_destroy_wq_resp,
							  reserved))),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_MODIFY_WQ, uverbs_ex_modify_wq,
				UVERBS_EX_MIN(offsetofend(struct ovb_ex_modify_wq_req,
							  curr_wq_state),
					      0)),
	UAPI_DEF_METHOD_NEEDS_FN(modify_wq),
	{ }
};
