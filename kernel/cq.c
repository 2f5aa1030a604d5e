// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: completion queues.
 *
 * A CQ uobject is an ib_ucq_object: besides the async-event bookkeeping
 * every event-reporting object has, it counts the completion notifications
 * read from its channel and links the unread ones, so DESTROY_CQ can drop
 * them and tell the user how many it received.  The channel, if any, is
 * the CQ's cq_context; ib_uverbs_comp_handler() (event.c) queues there.
 */

#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/opa_addr.h>

#include "obj_steps.h"

static struct ib_cq *uverbs_cq_get(u32 handle, struct uverbs_attr_bundle *attrs)
{
	return uobj_get_obj_read(cq, OVB_OBJECT_CQ, handle, attrs);
}

static struct ib_cq *ucq_cq(struct ib_ucq_object *ucq)
{
	return ucq->uevent.uobject.object;
}

/* ib_cq::uobject is the ib_ucq_object, not the ib_uobject inside it. */
static void uverbs_cq_put(struct ib_cq *cq)
{
	rdma_lookup_put_uobject(&cq->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
}

/*
 * The hardware CQ of a new ucq, for write() and ioctl alike: the caller
 * holds a reference on @channel (the CQ's notification queue, or NULL),
 * which the CQ keeps from here on, also when this fails.  The CQ takes a
 * reference of its own on @async, its async event file.
 */
static int uverbs_cq_create_hw(struct ib_ucq_object *ucq, struct ib_device *ibdev,
			       const struct ib_cq_init_attr *init,
			       struct ib_uverbs_completion_event_file *channel,
			       struct uverbs_attr_bundle *attrs,
			       struct ib_uverbs_async_event_file *async)
{
	struct ib_cq *cq = rdma_zalloc_drv_obj(ibdev, ib_cq);
	int ret = -ENOMEM;

	INIT_LIST_HEAD(&ucq->comp_list);
	INIT_LIST_HEAD(&ucq->uevent.event_list);
	ucq->uevent.event_file = uverbs_async_event_get(async);
	if (cq) {
		*cq = (struct ib_cq) {
			.device = ibdev,
			.uobject = ucq,
			.comp_handler = ib_uverbs_comp_handler,
			.event_handler = ib_uverbs_cq_event_handler,
			.cq_context = channel ? &channel->ev_queue : NULL,
		};
		rdma_restrack_new(&cq->res, RDMA_RESTRACK_CQ);
		rdma_restrack_set_name(&cq->res, NULL);
		ret = ibdev->ops.create_cq(cq, init,
					     ovb_create_cq_driver_arg(attrs));
		if (!ret) {
			rdma_restrack_add(&cq->res);
			ucq->uevent.uobject.object = cq;
			return 0;
		}
		rdma_restrack_put(&cq->res);
		kfree(cq);
	}
	ib_uverbs_release_ucq(channel, ucq);
	ucq->uevent.event_file = NULL;
	return ret;
}

/* A negative channel means "no notifications". */
static struct ib_uverbs_completion_event_file *
uverbs_cq_channel(s32 fd, struct uverbs_attr_bundle *attrs)
{
	return fd < 0 ? NULL : uverbs_lookup_comp_file(fd, attrs);
}

/*
 * CREATE_CQ and EX_CREATE_CQ: the legacy request is widened to the
 * extended one, so both take the same checks in the same order.
 */
static int uverbs_create_cq_common(struct uverbs_attr_bundle *attrs,
				   const struct ovb_ex_create_cq_req *cmd)
{
	struct ib_uverbs_completion_event_file *channel;
	struct ovb_ex_create_cq_resp resp = {};
	struct ib_cq_init_attr init = {
		.cqe = cmd->cqe,
		.comp_vector = cmd->comp_vector,
		.flags = cmd->flags,
	};
	struct ib_ucq_object *ucq;
	struct uverbs_newobj n;
	int ret = -EINVAL;

	if (cmd->comp_vector < attrs->ufile->device->num_comp_vectors)
		ret = uverbs_newobj_begin(&n, OVB_OBJECT_CQ, attrs,
					  cmd->user_handle);
	if (ret)
		return ret;
	ucq = container_of(n.uobj, struct ib_ucq_object, uevent.uobject);

	channel = uverbs_cq_channel(cmd->comp_channel, attrs);
	ret = PTR_ERR_OR_ZERO(channel);
	if (!ret)
		ret = uverbs_cq_create_hw(ucq, n.ibdev, &init, channel, attrs,
					  uverbs_default_async_event(attrs->ufile));
	if (ret)
		return uverbs_newobj_cancel(&n, ret);

	/* From here a failure (the response copy) destroys the CQ again. */
	resp.base.cq_handle = uverbs_newobj_publish(&n, NULL);
	resp.base.cqe = ucq_cq(ucq)->cqe;
	resp.response_length = uverbs_response_length(attrs, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static int uverbs_create_cq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_create_cq_req ex;
	struct ovb_create_cq_req cmd;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	/* The legacy command has no flags; its reserved word is ignored. */
	ex = (struct ovb_ex_create_cq_req) {
		.user_handle = cmd.user_handle,
		.cqe = cmd.cqe,
		.comp_vector = cmd.comp_vector,
		.comp_channel = cmd.comp_channel,
	};
	return uverbs_create_cq_common(attrs, &ex);
}

static int uverbs_ex_create_cq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_create_cq_req cmd;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	if (!ret && (cmd.comp_mask || cmd.reserved))
		ret = -EINVAL;
	return ret ?: uverbs_create_cq_common(attrs, &cmd);
}

static struct ib_cq *uverbs_cq_req_get(struct uverbs_attr_bundle *attrs,
				       void *req, size_t len, const u32 *handle)
{
	return uverbs_req_get_read(attrs, req, len, OVB_OBJECT_CQ, handle);
}

static int uverbs_resize_cq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_resize_cq_resp resp = {};
	struct ovb_resize_cq_req cmd;
	struct ib_cq *cq;
	int ret;

	cq = uverbs_cq_req_get(attrs, &cmd, sizeof(cmd), &cmd.cq_handle);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	ret = cq->device->ops.resize_cq(cq, cmd.cqe, &attrs->driver_udata);
	resp.cqe = cq->cqe;
	ret = ret ?: uverbs_response(attrs, &resp, sizeof(resp));
	uverbs_cq_put(cq);
	return ret;
}

/* One work completion in the ABI's layout. */
static int uverbs_copy_wc(struct ib_device *ibdev, struct ovb_wc __user *dst,
			  const struct ib_wc *wc)
{
	struct ovb_wc uwc = {
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = wc->opcode,
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.ex.imm_data = wc->ex.imm_data,
		.qp_num = wc->qp->qp_num,
		.src_qp = wc->src_qp,
		.wc_flags = wc->wc_flags,
		.pkey_index = wc->pkey_index,
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};

	/* The ABI has 16 bits for the source LID; OPA LIDs are folded. */
	if (rdma_cap_opa_ah(ibdev, wc->port_num))
		uwc.slid = OPA_TO_IB_UCAST_LID(wc->slid);
	else
		uwc.slid = ib_lid_cpu16(wc->slid);

	return copy_to_user(dst, &uwc, sizeof(uwc)) ? -EFAULT : 0;
}

/*
 * POLL_CQ: the completions go right behind the 8-byte count header in the
 * response buffer; the count is written last.  A completion that cannot be
 * copied out fails the command (it is consumed, as in 6.1).
 */
static int uverbs_poll_cq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_poll_cq_resp __user *out = attrs->ucore.outbuf;
	struct ovb_poll_cq_resp head = {};
	struct ovb_poll_cq_req cmd;
	struct ib_cq *cq;
	struct ib_wc wc;
	int ret = 0;

	cq = uverbs_cq_req_get(attrs, &cmd, sizeof(cmd), &cmd.cq_handle);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	for (; head.count < cmd.ne; head.count++) {
		ret = ib_poll_cq(cq, 1, &wc);
		if (ret <= 0)
			break;
		ret = uverbs_copy_wc(cq->device, &out->wc[head.count], &wc);
		if (ret)
			break;
	}
	if (ret >= 0)
		ret = copy_to_user(out, &head, sizeof(head)) ? -EFAULT :
			uverbs_response_written(attrs);

	uverbs_cq_put(cq);
	return ret;
}

static int uverbs_req_notify_cq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_req_notify_cq_req cmd;
	struct ib_cq *cq = uverbs_cq_req_get(attrs, &cmd, sizeof(cmd),
					     &cmd.cq_handle);

	if (IS_ERR(cq))
		return PTR_ERR(cq);
	/* Arming cannot fail as far as the user is told. */
	ib_req_notify_cq(cq, cmd.solicited_only ? IB_CQ_SOLICITED :
						  IB_CQ_NEXT_COMP);
	uverbs_cq_put(cq);
	return 0;
}

/* The counters outlive the CQ as long as the command holds the uobject. */
static void uverbs_cq_destroy_report(struct ib_uobject *uobj,
				     struct uverbs_attr_bundle *attrs, void *out)
{
	struct ib_ucq_object *ucq =
		container_of(uobj, struct ib_ucq_object, uevent.uobject);
	struct ovb_destroy_cq_resp *resp = out;

	resp->comp_events_reported = ucq->comp_events_reported;
	resp->async_events_reported = ucq->uevent.events_reported;
}

static const struct uverbs_destroy_cmd uverbs_cq_destroy = {
	.object_id = OVB_OBJECT_CQ,
	.req_len = sizeof(struct ovb_destroy_cq_req),
	.handle_offset = offsetof(struct ovb_destroy_cq_req, cq_handle),
	.resp_len = sizeof(struct ovb_destroy_cq_resp),
	.fill = uverbs_cq_destroy_report,
};

static int uverbs_destroy_cq(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_cq_destroy);
}

/* EX_MODIFY_CQ: interrupt moderation is the only attribute there is. */
static int uverbs_cq_moderation_check(const struct ovb_ex_modify_cq_req *cmd)
{
	if (!cmd->attr_mask || cmd->reserved)
		return -EINVAL;
	return cmd->attr_mask > IB_CQ_MODERATE ? -EOPNOTSUPP : 0;
}

static int uverbs_ex_modify_cq(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_modify_cq_req cmd;
	struct ib_cq *cq;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	ret = ret ?: uverbs_cq_moderation_check(&cmd);
	if (ret)
		return ret;
	cq = uverbs_cq_get(cmd.cq_handle, attrs);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	ret = rdma_set_cq_moderation(cq, cmd.attr.cq_count, cmd.attr.cq_period);
	uverbs_cq_put(cq);
	return ret;
}

/*
 * Every reason a CQ goes away: the driver may refuse while QPs, SRQs or
 * WQs still use it (EBUSY: a user DESTROY fails, the file teardown retries
 * after destroying those).  Unread notifications go with it.
 */
static int uverbs_free_cq(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	struct ib_ucq_object *ucq =
		container_of(uobj, struct ib_ucq_object, uevent.uobject);
	struct ib_cq *cq = uobj->object;
	struct ib_uverbs_event_queue *ev_queue = cq->cq_context;
	int ret;

	ret = ib_destroy_cq_user(cq, &attrs->driver_udata);
	if (ret)
		return ret;

	ib_uverbs_release_ucq(ev_queue ?
			      container_of(ev_queue,
					   struct ib_uverbs_completion_event_file,
					   ev_queue) : NULL,
			      ucq);
	return 0;
}

const struct uverbs_obj_idr_type uverbs_cq_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_ucq_object),
	},
	.destroy_object = uverbs_free_cq,
};

/* ---------------------------------------------------- the ioctl methods */

struct uverbs_cq_create_args {
	struct ib_cq_init_attr init;
	u64 user_handle;
};

/* The mandatory inputs, in the order 6.1 reads them. */
static const struct uverbs_attr_field uverbs_cq_create_in[] = {
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_CQ_COMP_VECTOR,
			  struct uverbs_cq_create_args, init.comp_vector),
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_CQ_CQE,
			  struct uverbs_cq_create_args, init.cqe),
	UVERBS_ATTR_FIELD(OVB_ATTR_CREATE_CQ_USER_HANDLE,
			  struct uverbs_cq_create_args, user_handle),
};

/* The optional channel, with a reference the new CQ takes over. */
static struct ib_uverbs_completion_event_file *
uverbs_cq_attr_channel(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVB_ATTR_CREATE_CQ_COMP_CHANNEL);

	if (IS_ERR(uobj))
		return NULL;
	uverbs_uobject_get(uobj);
	return container_of(uobj, struct ib_uverbs_completion_event_file, uobj);
}

static int UVERBS_HANDLER(OVB_METHOD_CQ_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVB_ATTR_CREATE_CQ_HANDLE);
	struct ib_ucq_object *ucq =
		container_of(uobj, struct ib_ucq_object, uevent.uobject);
	struct ib_uverbs_completion_event_file *channel;
	struct ib_device *ibdev = attrs->context->device;
	struct uverbs_cq_create_args in = {};
	int ret = -EOPNOTSUPP;

	if (ibdev->ops.create_cq && ibdev->ops.destroy_cq)
		ret = uverbs_copy_fields(attrs, &in, uverbs_cq_create_in,
					 ARRAY_SIZE(uverbs_cq_create_in));
	ret = ret ?: uverbs_get_flags32(&in.init.flags, attrs,
					OVB_ATTR_CREATE_CQ_FLAGS,
					OVB_CREATE_CQ_FLAG_TIMESTAMP_COMPLETION |
					OVB_CREATE_CQ_FLAG_IGNORE_OVERRUN);
	if (ret)
		return ret;
	uobj->user_handle = in.user_handle;

	channel = uverbs_cq_attr_channel(attrs);
	if (in.init.comp_vector >= attrs->ufile->device->num_comp_vectors) {
		if (channel)
			uverbs_uobject_put(&channel->uobj);
		return -EINVAL;
	}
	ret = uverbs_cq_create_hw(ucq, ibdev, &in.init, channel, attrs,
				  uverbs_async_event_attr(attrs,
							  OVB_ATTR_CREATE_CQ_EVENT_FD));
	if (ret)
		return ret;
	uverbs_finalize_uobj_create(attrs, OVB_ATTR_CREATE_CQ_HANDLE);
	return uverbs_copy_to(attrs, OVB_ATTR_CREATE_CQ_RESP_CQE,
			      &ucq_cq(ucq)->cqe, sizeof(ucq_cq(ucq)->cqe));
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_CQ_CREATE,
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_CQ_HANDLE,
					    OVB_OBJECT_CQ,
					    UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_CQ_CQE,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_CQ_USER_HANDLE,
					       UVERBS_ATTR_TYPE(u64),
					       UA_MANDATORY),
			    UVERBS_ATTR_FD(OVB_ATTR_CREATE_CQ_COMP_CHANNEL,
					   OVB_OBJECT_COMP_CHANNEL,
					   UVERBS_ACCESS_READ,
					   UA_OPTIONAL),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_CQ_COMP_VECTOR,
					       UVERBS_ATTR_TYPE(u32),
					       UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVB_ATTR_CREATE_CQ_FLAGS,
						 enum ovb_ex_create_cq_flags),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CREATE_CQ_RESP_CQE,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_FD(OVB_ATTR_CREATE_CQ_EVENT_FD,
					   OVB_OBJECT_ASYNC_EVENT,
					   UVERBS_ACCESS_READ,
					   UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

/* The object is gone already; its event counters are still readable. */
static int UVERBS_HANDLER(OVB_METHOD_CQ_DESTROY)(struct uverbs_attr_bundle *attrs)
{
	struct ovb_destroy_cq_resp resp = {};

	uverbs_cq_destroy_report(uverbs_attr_get_uobject(attrs,
							 OVB_ATTR_DESTROY_CQ_HANDLE),
				 attrs, &resp);
	return uverbs_copy_to(attrs, OVB_ATTR_DESTROY_CQ_RESP, &resp,
			      sizeof(resp));
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_CQ_DESTROY,
			    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_CQ_HANDLE,
					    OVB_OBJECT_CQ,
					    UVERBS_ACCESS_DESTROY,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_DESTROY_CQ_RESP,
						UVERBS_ATTR_TYPE(struct ovb_destroy_cq_resp),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_CQ, uverbs_cq_type.type,
			    &UVERBS_METHOD(OVB_METHOD_CQ_CREATE),
			    &UVERBS_METHOD(OVB_METHOD_CQ_DESTROY));

const struct uapi_definition uverbs_def_obj_cq[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_CQ),
	UAPI_DEF_OBJ_NEEDS_FN(destroy_cq),
	UVERBS_DECLARE_WRITE(OVB_CMD_CREATE_CQ, uverbs_create_cq,
			     UVERBS_IN_OUT_UDATA(struct ovb_create_cq_req,
						 struct ovb_create_cq_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(create_cq),
	UVERBS_DECLARE_WRITE(OVB_CMD_DESTROY_CQ, uverbs_destroy_cq,
			     UVERBS_IN_OUT(struct ovb_destroy_cq_req, struct ovb_destroy_cq_resp)),
	UVERBS_DECLARE_WRITE(OVB_CMD_POLL_CQ, uverbs_poll_cq,
			     UVERBS_IN_OUT(struct ovb_poll_cq_req, struct ovb_poll_cq_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(poll_cq),
	UVERBS_DECLARE_WRITE(OVB_CMD_REQ_NOTIFY_CQ, uverbs_req_notify_cq,
			     UVERBS_IN(struct ovb_req_notify_cq_req)),
	UAPI_DEF_METHOD_NEEDS_FN(req_notify_cq),
	UVERBS_DECLARE_WRITE(OVB_CMD_RESIZE_CQ, uverbs_resize_cq,
			     UVERBS_IN_OUT_UDATA(struct ovb_resize_cq_req,
						 struct ovb_resize_cq_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(resize_cq),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_CREATE_CQ, uverbs_ex_create_cq,
				UVERBS_EX_MIN(offsetofend(struct ovb_ex_create_cq_req, reserved),
					      offsetofend(struct ovb_ex_create_cq_resp,
							  response_length))),
	UAPI_DEF_METHOD_NEEDS_FN(create_cq),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_MODIFY_CQ, uverbs_ex_modify_cq,
				UVERBS_EX_MIN(sizeof(struct ovb_ex_modify_cq_req), 0)),
	UAPI_DEF_METHOD_NEEDS_FN(modify_cq),
	{ }
};
