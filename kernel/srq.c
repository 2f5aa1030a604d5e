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

#include "uverbs.h"

static struct ib_srq *uverbs_srq_get(u32 handle,
				     struct uverbs_attr_bundle *attrs)
{
	return uobj_get_obj_read(srq, OVB_OBJECT_SRQ, handle, attrs);
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
		usrq->uxrcd = container_of(uobj, struct ib_uxrcd_object,
					   uobject);
		atomic_inc(&usrq->uxrcd->refcnt);
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
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_srq *srq;
	int ret;

	uobj = uobj_alloc(OVB_OBJECT_SRQ, attrs, &ibdev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	usrq = container_of(uobj, struct ib_usrq_object, uevent.uobject);
	uobj->user_handle = cmd->user_handle;

	if (cmd->srq_type == IB_SRQT_TM)
		init.ext.tag_matching.max_num_tags = cmd->max_num_tags;

	ret = uverbs_srq_get_deps(cmd, &init, usrq, &deps, attrs);
	if (ret)
		goto err_deps;

	srq = uverbs_srq_create_hw(usrq, deps.pd, &init, attrs,
				   uverbs_default_async_event(attrs->ufile));
	if (IS_ERR(srq)) {
		ret = PTR_ERR(srq);
		goto err_deps;
	}

	if (cmd->srq_type == IB_SRQT_XRC)
		resp.srqn = srq->ext.xrc.srq_num;
	/* The driver may have rounded the sizes up. */
	resp.max_wr = init.attr.max_wr;
	resp.max_sge = init.attr.max_sge;

	uverbs_srq_put_deps(&deps);
	uobj_finalize_uobj_create(uobj, attrs);

	resp.srq_handle = uobj->id;
	return uverbs_response(attrs, &resp, sizeof(resp));

err_deps:
	if (usrq->uxrcd)
		atomic_dec(&usrq->uxrcd->refcnt);
	uverbs_srq_put_deps(&deps);
	uobj_alloc_abort(uobj, attrs);
	return ret;
}

static int uverbs_create_srq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_xsrq_req xcmd = {};
	struct ovb_create_srq_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	xcmd.response = cmd.response;
	xcmd.user_handle = cmd.user_handle;
	xcmd.srq_type = IB_SRQT_BASIC;
	xcmd.pd_handle = cmd.pd_handle;
	xcmd.max_wr = cmd.max_wr;
	xcmd.max_sge = cmd.max_sge;
	xcmd.srq_limit = cmd.srq_limit;
	return uverbs_create_xsrq_common(attrs, &xcmd);
}

static int uverbs_create_xsrq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_xsrq_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uverbs_create_xsrq_common(attrs, &cmd);
}

/* The attribute mask goes to the driver unchecked, as in 6.1. */
static int uverbs_modify_srq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_modify_srq_req cmd;
	struct ib_srq_attr attr = {};
	struct ib_srq *srq;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	srq = uverbs_srq_get(cmd.srq_handle, attrs);
	if (IS_ERR(srq))
		return PTR_ERR(srq);

	attr.max_wr = cmd.max_wr;
	attr.srq_limit = cmd.srq_limit;
	ret = srq->device->ops.modify_srq(srq, &attr, cmd.attr_mask,
					  &attrs->driver_udata);
	uverbs_srq_put(srq);
	return ret;
}

static int uverbs_query_srq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_query_srq_resp resp = {};
	struct ovb_query_srq_req cmd;
	struct ib_srq_attr attr = {};
	struct ib_srq *srq;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	srq = uverbs_srq_get(cmd.srq_handle, attrs);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	ret = ib_query_srq(srq, &attr);
	uverbs_srq_put(srq);
	if (ret)
		return ret;

	resp.max_wr = attr.max_wr;
	resp.max_sge = attr.max_sge;
	resp.srq_limit = attr.srq_limit;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static int uverbs_destroy_srq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_destroy_srq_resp resp = {};
	struct ovb_destroy_srq_req cmd;
	struct ib_uevent_object *uevent;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	uobj = uobj_get_destroy(OVB_OBJECT_SRQ, cmd.srq_handle, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);

	uevent = container_of(uobj, struct ib_uevent_object, uobject);
	resp.events_reported = uevent->events_reported;
	uobj_put_destroy(uobj);

	return uverbs_response(attrs, &resp, sizeof(resp));
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
	enum ib_srq_type type = srq->srq_type;
	int ret;

	ret = ib_destroy_srq_user(srq, &attrs->driver_udata);
	if (ret)
		return ret;

	if (type == IB_SRQT_XRC)
		atomic_dec(&usrq->uxrcd->refcnt);
	ib_uverbs_release_uevent(&usrq->uevent);
	return 0;
}

const struct uverbs_obj_idr_type uverbs_srq_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_usrq_object),
	},
	.destroy_object = uverbs_free_srq,
};

const struct uverbs_write_cmd uverbs_srq_cmds[] = {
	UVERBS_WRITE(OVB_CMD_CREATE_SRQ, uverbs_create_srq,
		     struct ovb_create_srq_req,
		     struct ovb_create_srq_resp, 1,
		     UVERBS_NEEDS(create_srq), UVERBS_NEEDS(destroy_srq)),
	UVERBS_WRITE(OVB_CMD_CREATE_XSRQ, uverbs_create_xsrq,
		     struct ovb_create_xsrq_req,
		     struct ovb_create_srq_resp, 1,
		     UVERBS_NEEDS(create_srq), UVERBS_NEEDS(destroy_srq)),
	UVERBS_WRITE(OVB_CMD_DESTROY_SRQ, uverbs_destroy_srq,
		     struct ovb_destroy_srq_req,
		     struct ovb_destroy_srq_resp, 0,
		     UVERBS_NEEDS(destroy_srq)),
	UVERBS_WRITE(OVB_CMD_MODIFY_SRQ, uverbs_modify_srq,
		     struct ovb_modify_srq_req, struct uverbs_no_resp, 1,
		     UVERBS_NEEDS(modify_srq), UVERBS_NEEDS(destroy_srq)),
	UVERBS_WRITE(OVB_CMD_QUERY_SRQ, uverbs_query_srq,
		     struct ovb_query_srq_req,
		     struct ovb_query_srq_resp, 0,
		     UVERBS_NEEDS(query_srq), UVERBS_NEEDS(destroy_srq)),
	{ }
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

static int UVERBS_HANDLER(OVB_METHOD_SRQ_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVB_ATTR_CREATE_SRQ_HANDLE);
	struct ib_usrq_object *usrq =
		container_of(uobj, struct ib_usrq_object, uevent.uobject);
	struct ib_pd *pd = uverbs_attr_get_obj(attrs,
					       OVB_ATTR_CREATE_SRQ_PD_HANDLE);
	struct ib_uobject *xrcd_uobj = NULL;
	struct ib_srq_init_attr init = {};
	struct ib_srq *srq;
	int ret;

	ret = uverbs_copy_from(&init.attr.max_sge, attrs,
			       OVB_ATTR_CREATE_SRQ_MAX_SGE);
	if (!ret)
		ret = uverbs_copy_from(&init.attr.max_wr, attrs,
				       OVB_ATTR_CREATE_SRQ_MAX_WR);
	if (!ret)
		ret = uverbs_copy_from(&init.attr.srq_limit, attrs,
				       OVB_ATTR_CREATE_SRQ_LIMIT);
	if (!ret)
		ret = uverbs_copy_from(&uobj->user_handle, attrs,
				       OVB_ATTR_CREATE_SRQ_USER_HANDLE);
	if (!ret)
		ret = uverbs_get_const(&init.srq_type, attrs,
				       OVB_ATTR_CREATE_SRQ_TYPE);
	if (!ret)
		ret = uverbs_srq_type_deps(attrs, &init, &xrcd_uobj);
	if (ret)
		return ret;
	/* CLOSE_XRCD refuses while SRQs of the domain exist. */
	if (xrcd_uobj) {
		usrq->uxrcd = container_of(xrcd_uobj, struct ib_uxrcd_object,
					   uobject);
		atomic_inc(&usrq->uxrcd->refcnt);
	}

	srq = uverbs_srq_create_hw(usrq, pd, &init, attrs,
				   uverbs_async_event_attr(attrs,
							   OVB_ATTR_CREATE_SRQ_EVENT_FD));
	if (IS_ERR(srq)) {
		if (usrq->uxrcd)
			atomic_dec(&usrq->uxrcd->refcnt);
		return PTR_ERR(srq);
	}
	uverbs_finalize_uobj_create(attrs, OVB_ATTR_CREATE_SRQ_HANDLE);

	/* The driver may have rounded the sizes up. */
	ret = uverbs_copy_to(attrs, OVB_ATTR_CREATE_SRQ_RESP_MAX_WR,
			     &init.attr.max_wr, sizeof(init.attr.max_wr));
	if (!ret)
		ret = uverbs_copy_to(attrs, OVB_ATTR_CREATE_SRQ_RESP_MAX_SGE,
				     &init.attr.max_sge, sizeof(init.attr.max_sge));
	if (!ret && init.srq_type == IB_SRQT_XRC)
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
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVB_ATTR_DESTROY_SRQ_HANDLE);
	struct ib_usrq_object *usrq =
		container_of(uobj, struct ib_usrq_object, uevent.uobject);
	struct ovb_destroy_srq_resp resp = {
		.events_reported = usrq->uevent.events_reported,
	};

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

const struct uapi_definition uverbs_def_obj_srq[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_SRQ,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_srq)),
	{ }
};
