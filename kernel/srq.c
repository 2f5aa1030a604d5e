// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: shared receive queues.
 *
 * Three kinds: basic (a PD), XRC (also an XRC domain and a CQ) and tag
 * matching (also a CQ).  ib_core's ib_create_srq_user() takes the
 * references on PD, CQ and XRCD device objects; here we hold the XRCD
 * uobject's refcnt so CLOSE_XRCD refuses while an XRC SRQ uses it.
 * POST_SRQ_RECV lives with the other post paths (qp.c).
 */

#include "obj_steps.h"

static struct ib_srq *uverbs_srq_req_get(struct uverbs_attr_bundle *attrs,
					 void *req, size_t len,
					 const u32 *handle)
{
	return uverbs_req_get_read(attrs, req, len, OVB_OBJECT_SRQ, handle);
}

static void uverbs_srq_put(struct ib_srq *srq)
{
	rdma_lookup_put_uobject(&srq->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
}

/* The read locks CREATE_XSRQ holds while the driver builds the SRQ. */
struct uverbs_srq_deps {
	struct ib_uobject *xrcd_uobj;
	struct ib_cq *cq;
	struct ib_pd *pd;
};

static void uverbs_srq_put_deps(struct uverbs_srq_deps *deps)
{
	if (deps->pd)
		uobj_put_obj_read(deps->pd);
	if (deps->cq)
		rdma_lookup_put_uobject(&deps->cq->uobject->uevent.uobject,
					UVERBS_LOOKUP_READ);
	if (deps->xrcd_uobj)
		uobj_put_read(deps->xrcd_uobj);
}

/*
 * Looks up what an SRQ of @cmd's type needs, in the order 6.1 does (so a
 * request with several bad handles fails with the same errno): XRCD, CQ,
 * then PD.  Any bad XRCD handle is EINVAL.
 */
static int uverbs_srq_get_deps(const struct ovb_create_xsrq_req *cmd,
			       struct ib_srq_init_attr *init,
			       struct ib_usrq_object *usrq,
			       struct uverbs_srq_deps *deps,
			       struct uverbs_attr_bundle *attrs)
{
	struct ib_cq *cq;
	struct ib_pd *pd;

	if (cmd->srq_type == IB_SRQT_XRC) {
		struct ib_uobject *uobj;

		uobj = uobj_get_read(OVB_OBJECT_XRCD, cmd->xrcd_handle,
				     attrs);
		if (IS_ERR(uobj))
			return -EINVAL;
		deps->xrcd_uobj = uobj;
		if (!uobj->object)
			return -EINVAL;
		init->ext.xrc.xrcd = uobj->object;
		usrq->uxrcd = uverbs_xrcd_hold(uobj);
	}

	if (ib_srq_has_cq(cmd->srq_type)) {
		cq = uobj_get_obj_read(cq, OVB_OBJECT_CQ, cmd->cq_handle,
				       attrs);
		if (IS_ERR(cq))
			return PTR_ERR(cq);
		deps->cq = cq;
		init->ext.cq = cq;
	}

	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd->pd_handle, attrs);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	deps->pd = pd;
	return 0;
}

/* The hardware SRQ of a new usrq, for write() and ioctl alike. */
static struct ib_srq *uverbs_srq_create_hw(struct ib_usrq_object *usrq,
					   struct ib_pd *pd,
					   struct ib_srq_init_attr *init,
					   struct uverbs_attr_bundle *attrs,
					   struct ib_uverbs_async_event_file *async)
{
	struct ib_srq *srq;

	INIT_LIST_HEAD(&usrq->uevent.event_list);
	usrq->uevent.event_file = uverbs_async_event_get(async);
	init->event_handler = ib_uverbs_srq_event_handler;
	srq = ib_create_srq_user(pd, init, usrq, &attrs->driver_udata);
	if (IS_ERR(srq)) {
		ib_uverbs_release_uevent(&usrq->uevent);
		usrq->uevent.event_file = NULL;
		return srq;
	}
	usrq->uevent.uobject.object = srq;
	return srq;
}

/* CREATE_SRQ and CREATE_XSRQ; the legacy request is a basic SRQ. */
static int uverbs_create_xsrq_common(struct uverbs_attr_bundle *attrs,
				     const struct ovb_create_xsrq_req *cmd)
{
	struct ovb_create_srq_resp resp = {};
	struct ib_srq_init_attr init = {
		.srq_type = cmd->srq_type,
		.attr = {
			.max_wr = cmd->max_wr,
			.max_sge = cmd->max_sge,
			.srq_limit = cmd->srq_limit,
		},
	};
	struct uverbs_srq_deps deps = {};
	struct ib_usrq_object *usrq;
	struct uverbs_newobj n;
	struct ib_srq *srq;
	int ret = uverbs_newobj_begin(&n, OVB_OBJECT_SRQ, attrs,
				      cmd->user_handle);

	if (ret)
		return ret;
	usrq = container_of(n.uobj, struct ib_usrq_object, uevent.uobject);
	if (cmd->srq_type == IB_SRQT_TM)
		init.ext.tag_matching.max_num_tags = cmd->max_num_tags;

	ret = uverbs_srq_get_deps(cmd, &init, usrq, &deps, attrs);
	srq = ret ? ERR_PTR(ret) :
		    uverbs_srq_create_hw(usrq, deps.pd, &init, attrs,
					 uverbs_default_async_event(attrs->ufile));
	if (IS_ERR(srq))
		uverbs_xrcd_drop(usrq->uxrcd);
	uverbs_srq_put_deps(&deps);
	if (IS_ERR(srq))
		return uverbs_newobj_cancel(&n, PTR_ERR(srq));

	/* The driver may have rounded the sizes up. */
	resp = (struct ovb_create_srq_resp) {
		.srq_handle = uverbs_newobj_publish(&n, NULL),
		.max_wr = init.attr.max_wr,
		.max_sge = init.attr.max_sge,
		.srqn = cmd->srq_type == IB_SRQT_XRC ?
			srq->ext.xrc.srq_num : 0,
	};
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static int uverbs_create_srq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_xsrq_req xcmd;
	struct ovb_create_srq_req cmd;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	xcmd = (struct ovb_create_xsrq_req) {
		.response = cmd.response,
		.user_handle = cmd.user_handle,
		.srq_type = IB_SRQT_BASIC,
		.pd_handle = cmd.pd_handle,
		.max_wr = cmd.max_wr,
		.max_sge = cmd.max_sge,
		.srq_limit = cmd.srq_limit,
	};
	return uverbs_create_xsrq_common(attrs, &xcmd);
}

static int uverbs_create_xsrq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_xsrq_req cmd;

	return uverbs_request(attrs, &cmd, sizeof(cmd)) ?:
	       uverbs_create_xsrq_common(attrs, &cmd);
}

/* The attribute mask goes to the driver unchecked, as in 6.1. */
static int uverbs_modify_srq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_modify_srq_req cmd;
	struct ib_srq_attr attr;
	struct ib_srq *srq;
	int ret;

	srq = uverbs_srq_req_get(attrs, &cmd, sizeof(cmd), &cmd.srq_handle);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	attr = (struct ib_srq_attr) {
		.max_wr = cmd.max_wr,
		.srq_limit = cmd.srq_limit,
	};
	ret = srq->device->ops.modify_srq(srq, &attr, cmd.attr_mask,
					  &attrs->driver_udata);
	uverbs_srq_put(srq);
	return ret;
}

static int uverbs_query_srq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_query_srq_resp resp;
	struct ovb_query_srq_req cmd;
	struct ib_srq_attr attr = {};
	struct ib_srq *srq;
	int ret;

	srq = uverbs_srq_req_get(attrs, &cmd, sizeof(cmd), &cmd.srq_handle);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	ret = ib_query_srq(srq, &attr);
	uverbs_srq_put(srq);
	resp = (struct ovb_query_srq_resp) {
		.max_wr = attr.max_wr,
		.max_sge = attr.max_sge,
		.srq_limit = attr.srq_limit,
	};
	return ret ?: uverbs_response(attrs, &resp, sizeof(resp));
}

static const struct uverbs_destroy_cmd uverbs_srq_destroy = {
	.object_id = OVB_OBJECT_SRQ,
	.req_len = sizeof(struct ovb_destroy_srq_req),
	.handle_offset = offsetof(struct ovb_destroy_srq_req, srq_handle),
	.resp_len = sizeof(struct ovb_destroy_srq_resp),
	.fill = uverbs_report_uevents,
};

static int uverbs_destroy_srq(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_srq_destroy);
}

/*
 * ib_destroy_srq_user() refuses (EBUSY) while QPs use the SRQ; on success
 * it drops the PD/CQ/XRCD device references, we drop the uobject ones.
 */
static int uverbs_free_srq(struct ib_uobject *uobj, enum rdma_remove_reason why,
			   struct uverbs_attr_bundle *attrs)
{
	struct ib_usrq_object *usrq =
		container_of(uobj, struct ib_usrq_object, uevent.uobject);
	struct ib_srq *srq = uobj->object;
	bool xrc = srq->srq_type == IB_SRQT_XRC;
	int ret = ib_destroy_srq_user(srq, &attrs->driver_udata);

	if (!ret) {
		uverbs_xrcd_drop(xrc ? usrq->uxrcd : NULL);
		ib_uverbs_release_uevent(&usrq->uevent);
	}
	return ret;
}

const struct uverbs_obj_idr_type uverbs_srq_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_usrq_object),
	},
	.destroy_object = uverbs_free_srq,
};

/* ---------------------------------------------------- the ioctl methods */

/* What an SRQ of @init's type needs besides the PD. */
static int uverbs_srq_type_deps(struct uverbs_attr_bundle *attrs,
				struct ib_srq_init_attr *init,
				struct ib_uobject **xrcd_uobj)
{
	if (ib_srq_has_cq(init->srq_type)) {
		init->ext.cq = uverbs_attr_get_obj(attrs,
						   OVB_ATTR_CREATE_SRQ_CQ_HANDLE);
		if (IS_ERR(init->ext.cq))
			return PTR_ERR(init->ext.cq);
	}
	switch (init->srq_type) {
	case IB_SRQT_XRC:
		*xrcd_uobj = uverbs_attr_get_uobject(attrs,
						     OVB_ATTR_CREATE_SRQ_XRCD_HANDLE);
		if (IS_ERR(*xrcd_uobj))
			return PTR_ERR(*xrcd_uobj);
		init->ext.xrc.xrcd = (*xrcd_uobj)->object;
		return init->ext.xrc.xrcd ? 0 : -EINVAL;
	case IB_SRQT_TM:
		return uverbs_copy_from(&init->ext.tag_matching.max_num_tags,
					attrs, OVB_ATTR_CREATE_SRQ_MAX_NUM_TAGS);
	case IB_SRQT_BASIC:
		return 0;
	default:
		return -EINVAL;
	}
}

struct uverbs_srq_create_args {
	struct ib_srq_init_attr init;
	u64 user_handle;
};

/* The mandatory sizes and the user handle, in the order 6.1 reads them. */
static const struct uverbs_attr_field uverbs_srq_create_in[] = {
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_SRQ_MAX_SGE,
			  struct uverbs_srq_create_args, init.attr.max_sge),
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_SRQ_MAX_WR,
			  struct uverbs_srq_create_args, init.attr.max_wr),
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_SRQ_LIMIT,
			  struct uverbs_srq_create_args, init.attr.srq_limit),
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_SRQ_USER_HANDLE,
			  struct uverbs_srq_create_args, user_handle),
};

/* The driver may have rounded the sizes up. */
static const struct uverbs_attr_field uverbs_srq_create_out[] = {
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_SRQ_RESP_MAX_WR,
			  struct ib_srq_init_attr, attr.max_wr),
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_SRQ_RESP_MAX_SGE,
			  struct ib_srq_init_attr, attr.max_sge),
};

static int UVERBS_HANDLER(OVB_METHOD_SRQ_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVB_ATTR_CREATE_SRQ_HANDLE);
	struct ib_usrq_object *usrq =
		container_of(uobj, struct ib_usrq_object, uevent.uobject);
	struct ib_pd *pd = uverbs_attr_get_obj(attrs,
					       OVB_ATTR_CREATE_SRQ_PD_HANDLE);
	struct uverbs_srq_create_args in = {};
	struct ib_uobject *xrcd_uobj = NULL;
	struct ib_srq *srq;
	int ret = uverbs_copy_fields(attrs, &in, uverbs_srq_create_in,
				     ARRAY_SIZE(uverbs_srq_create_in)) ?:
		  uverbs_get_const(&in.init.srq_type, attrs,
				   OVB_ATTR_CREATE_SRQ_TYPE) ?:
		  uverbs_srq_type_deps(attrs, &in.init, &xrcd_uobj);

	if (ret)
		return ret;
	uobj->user_handle = in.user_handle;
	/* CLOSE_XRCD refuses while SRQs of the domain exist. */
	if (xrcd_uobj)
		usrq->uxrcd = uverbs_xrcd_hold(xrcd_uobj);

	srq = uverbs_srq_create_hw(usrq, pd, &in.init, attrs,
				   uverbs_async_event_attr(attrs,
							   OVB_ATTR_CREATE_SRQ_EVENT_FD));
	if (IS_ERR(srq)) {
		uverbs_xrcd_drop(usrq->uxrcd);
		return PTR_ERR(srq);
	}
	uverbs_finalize_uobj_create(attrs, OVB_ATTR_CREATE_SRQ_HANDLE);

	ret = uverbs_copy_fields_out(attrs, &in.init, uverbs_srq_create_out,
				     ARRAY_SIZE(uverbs_srq_create_out));
	if (!ret && in.init.srq_type == IB_SRQT_XRC)
		ret = uverbs_copy_to(attrs, OVB_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
				     &srq->ext.xrc.srq_num,
				     sizeof(srq->ext.xrc.srq_num));
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_SRQ_CREATE,
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_SRQ_HANDLE,
					    OVB_OBJECT_SRQ,
					    UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_SRQ_PD_HANDLE,
					    OVB_OBJECT_PD,
					    UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_CREATE_SRQ_TYPE,
						 enum ovb_srq_type,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_SRQ_USER_HANDLE,
					       UVERBS_ATTR_TYPE(u64),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_SRQ_MAX_WR,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_SRQ_MAX_SGE,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_SRQ_LIMIT,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_SRQ_XRCD_HANDLE,
					    OVB_OBJECT_XRCD,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_SRQ_CQ_HANDLE,
					    OVB_OBJECT_CQ,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_SRQ_MAX_NUM_TAGS,
					       UVERBS_ATTR_TYPE(u32),
					       UA_OPTIONAL),
			    UVERBS_ATTR_FD(OVB_ATTR_CREATE_SRQ_EVENT_FD,
					   OVB_OBJECT_ASYNC_EVENT,
					   UVERBS_ACCESS_READ,
					   UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CREATE_SRQ_RESP_MAX_WR,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CREATE_SRQ_RESP_MAX_SGE,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

/* The object is gone already; its event counters are still readable. */
static int UVERBS_HANDLER(OVB_METHOD_SRQ_DESTROY)(struct uverbs_attr_bundle *attrs)
{
	struct ovb_destroy_srq_resp resp = {};

	uverbs_report_uevents(uverbs_attr_get_uobject(attrs,
						      OVB_ATTR_DESTROY_SRQ_HANDLE),
			      attrs, &resp.events_reported);
	return uverbs_copy_to(attrs, OVB_ATTR_DESTROY_SRQ_RESP, &resp,
			      sizeof(resp));
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_SRQ_DESTROY,
			    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_SRQ_HANDLE,
					    OVB_OBJECT_SRQ,
					    UVERBS_ACCESS_DESTROY,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_DESTROY_SRQ_RESP,
						UVERBS_ATTR_TYPE(struct ovb_destroy_srq_resp),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_SRQ, uverbs_srq_type.type,
			    &UVERBS_METHOD(OVB_METHOD_SRQ_CREATE),
			    &UVERBS_METHOD(OVB_METHOD_SRQ_DESTROY));

/* POST_SRQ_RECV is declared with the other posts (post.c). */
const struct uapi_definition uverbs_def_obj_srq[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_SRQ),
	UAPI_DEF_OBJ_NEEDS_FN(destroy_srq),
	UVERBS_DECLARE_WRITE(OVB_CMD_CREATE_SRQ, uverbs_create_srq,
			     UVERBS_IN_OUT_UDATA(struct ovb_create_srq_req,
						 struct ovb_create_srq_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(create_srq),
	UVERBS_DECLARE_WRITE(OVB_CMD_CREATE_XSRQ, uverbs_create_xsrq,
			     UVERBS_IN_OUT_UDATA(struct ovb_create_xsrq_req,
						 struct ovb_create_srq_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(create_srq),
	UVERBS_DECLARE_WRITE(OVB_CMD_DESTROY_SRQ, uverbs_destroy_srq,
			     UVERBS_IN_OUT(struct ovb_destroy_srq_req,
					   struct ovb_destroy_srq_resp)),
	UVERBS_DECLARE_WRITE(OVB_CMD_MODIFY_SRQ, uverbs_modify_srq,
			     UVERBS_IN_UDATA(struct ovb_modify_srq_req)),
	UAPI_DEF_METHOD_NEEDS_FN(modify_srq),
	UVERBS_DECLARE_WRITE(OVB_CMD_QUERY_SRQ, uverbs_query_srq,
			     UVERBS_IN_OUT(struct ovb_query_srq_req, struct ovb_query_srq_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(query_srq),
	{ }
};
