// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: queue pairs.
 *
 * CREATE_QP and EX_CREATE_QP share one creation path; OPEN_QP attaches to
 * an XRC target QP another process created in a shared XRC domain.
 * ib_core's ib_create_qp_user() does the driver call, the restrack entry
 * and, for XRC_TGT, the split into a hidden real QP plus the shared QP we
 * hand out; we hold the uobjects it depends on and count the device
 * objects it uses (ib_qp_usecnt_inc) so they refuse to go away first.
 * MODIFY_QP and EX_MODIFY_QP share one path too.  Posting work requests
 * lives in post.c, multicast attachment in mcast.c.
 */

#include <linux/capability.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "obj_steps.h"

/* The create flags a user may ask for; ib_core and the driver refine. */
#define UVERBS_QP_CREATE_FLAGS_USER					\
	(IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK | IB_QP_CREATE_CROSS_CHANNEL | \
	 IB_QP_CREATE_MANAGED_SEND | IB_QP_CREATE_MANAGED_RECV |	\
	 IB_QP_CREATE_SCATTER_FCS | IB_QP_CREATE_CVLAN_STRIPPING |	\
	 IB_QP_CREATE_SOURCE_QPN | IB_QP_CREATE_PCI_WRITE_END_PADDING)

static void uverbs_put_cq_read(struct ib_cq *cq)
{
	rdma_lookup_put_uobject(&cq->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
}

static void uverbs_put_qp_read(struct ib_qp *qp)
{
	rdma_lookup_put_uobject(&qp->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
}

/* The objects a new QP hangs off, read-locked while the driver builds it. */
struct uverbs_qp_deps {
	struct ib_uobject *xrcd_uobj;
	struct ib_rwq_ind_table *ind_tbl;
	struct ib_srq *srq;
	struct ib_cq *scq;
	struct ib_cq *rcq;
	struct ib_pd *pd;
};

static void uverbs_qp_put_deps(struct uverbs_qp_deps *deps)
{
	if (deps->xrcd_uobj)
		uobj_put_read(deps->xrcd_uobj);
	if (deps->pd)
		uobj_put_obj_read(deps->pd);
	if (deps->scq)
		uverbs_put_cq_read(deps->scq);
	if (deps->rcq && deps->rcq != deps->scq)
		uverbs_put_cq_read(deps->rcq);
	if (deps->srq)
		rdma_lookup_put_uobject(&deps->srq->uobject->uevent.uobject,
					UVERBS_LOOKUP_READ);
	if (deps->ind_tbl)
		uobj_put_obj_read(deps->ind_tbl);
}

/* Any failure to find a usable XRC domain is EINVAL, as in 6.1. */
static int uverbs_qp_get_xrcd(u32 handle, struct uverbs_qp_deps *deps,
			      struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uobj_get_read(OVB_OBJECT_XRCD, handle,
						attrs);

	if (IS_ERR(uobj))
		return -EINVAL;
	deps->xrcd_uobj = uobj;
	return uobj->object ? 0 : -EINVAL;
}

/*
 * The CQs, SRQ and PD of a QP that is not an XRC target.  An XRC
 * initiator has no receive side at all; a QP receiving through an RSS
 * indirection table has no receive CQ, and no send queue when it asks for
 * no send WRs.  The lookup order is 6.1's, so that a request with several
 * bad handles fails with the same errno.
 */
static int uverbs_qp_get_queues(struct ovb_ex_create_qp_req *cmd,
				struct uverbs_qp_deps *deps, bool has_sq,
				struct uverbs_attr_bundle *attrs)
{
	struct ib_cq *cq;

	if (cmd->qp_type == IB_QPT_XRC_INI) {
		cmd->max_recv_wr = 0;
		cmd->max_recv_sge = 0;
	} else {
		if (cmd->is_srq) {
			struct ib_srq *srq;

			srq = uobj_get_obj_read(srq, OVB_OBJECT_SRQ,
						cmd->srq_handle, attrs);
			if (IS_ERR(srq))
				return PTR_ERR(srq);
			deps->srq = srq;
			if (srq->srq_type == IB_SRQT_XRC)
				return -EINVAL;
		}
		if (!deps->ind_tbl &&
		    cmd->recv_cq_handle != cmd->send_cq_handle) {
			cq = uobj_get_obj_read(cq, OVB_OBJECT_CQ,
					       cmd->recv_cq_handle, attrs);
			if (IS_ERR(cq))
				return PTR_ERR(cq);
			deps->rcq = cq;
		}
	}

	if (has_sq) {
		cq = uobj_get_obj_read(cq, OVB_OBJECT_CQ,
				       cmd->send_cq_handle, attrs);
		if (IS_ERR(cq))
			return PTR_ERR(cq);
		deps->scq = cq;
	}
	if (!deps->ind_tbl && cmd->qp_type != IB_QPT_XRC_INI && !deps->rcq)
		deps->rcq = deps->scq;

	deps->pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd->pd_handle,
				     attrs);
	if (IS_ERR(deps->pd)) {
		int ret = PTR_ERR(deps->pd);

		deps->pd = NULL;
		return ret;
	}
	return 0;
}

static int uverbs_qp_get_deps(struct ovb_ex_create_qp_req *cmd,
			      struct uverbs_qp_deps *deps,
			      struct uverbs_attr_bundle *attrs)
{
	bool has_sq = true;

	if (cmd->comp_mask & OVB_CREATE_QP_MASK_IND_TABLE) {
		struct ib_rwq_ind_table *tbl;

		tbl = uobj_get_obj_read(rwq_ind_table, OVB_OBJECT_RWQ_IND_TBL,
					cmd->rwq_ind_tbl_handle, attrs);
		if (IS_ERR(tbl))
			return PTR_ERR(tbl);
		deps->ind_tbl = tbl;
		/* RSS spreads receives over the table's WQs: no own RQ. */
		if (cmd->max_recv_wr || cmd->max_recv_sge || cmd->is_srq)
			return -EINVAL;
		has_sq = cmd->max_send_wr != 0;
	}

	if (cmd->qp_type == IB_QPT_XRC_TGT)
		return uverbs_qp_get_xrcd(cmd->pd_handle, deps, attrs);
	return uverbs_qp_get_queues(cmd, deps, has_sq, attrs);
}

/* The QP types a user may create; raw Ethernet needs CAP_NET_RAW. */
static int uverbs_qp_check_type(u32 qp_type)
{
	const u32 open_types = BIT(IB_QPT_RC) | BIT(IB_QPT_UC) |
			       BIT(IB_QPT_UD) | BIT(IB_QPT_XRC_INI) |
			       BIT(IB_QPT_XRC_TGT);

	if (qp_type == IB_QPT_RAW_PACKET)
		return capable(CAP_NET_RAW) ? 0 : -EPERM;
	if (qp_type == IB_QPT_DRIVER ||
	    (qp_type < 32 && (open_types & BIT(qp_type))))
		return 0;
	return -EINVAL;
}

static int uverbs_qp_check_flags(const struct ovb_ex_create_qp_req *cmd,
				 struct ib_qp_init_attr *init)
{
	u32 flags = cmd->create_flags;

	if (flags & ~UVERBS_QP_CREATE_FLAGS_USER)
		return -EINVAL;
	/* Sending as another QP number is impersonation. */
	if ((flags & IB_QP_CREATE_SOURCE_QPN) && !capable(CAP_NET_RAW))
		return -EPERM;
	init->create_flags = flags;
	if (flags & IB_QP_CREATE_SOURCE_QPN)
		init->source_qpn = cmd->source_qpn;
	return 0;
}

static void uverbs_qp_init_attr(const struct ovb_ex_create_qp_req *cmd,
				const struct uverbs_qp_deps *deps,
				struct ib_qp_init_attr *init)
{
	*init = (struct ib_qp_init_attr) {
		.send_cq = deps->scq,
		.recv_cq = deps->rcq,
		.srq = deps->srq,
		.rwq_ind_tbl = deps->ind_tbl,
		.xrcd = deps->xrcd_uobj ? deps->xrcd_uobj->object : NULL,
		.sq_sig_type = cmd->sq_sig_all ? IB_SIGNAL_ALL_WR :
						 IB_SIGNAL_REQ_WR,
		.qp_type = cmd->qp_type,
		.cap = {
			.max_send_wr = cmd->max_send_wr,
			.max_recv_wr = cmd->max_recv_wr,
			.max_send_sge = cmd->max_send_sge,
			.max_recv_sge = cmd->max_recv_sge,
			.max_inline_data = cmd->max_inline_data,
		},
	};
}

/* The parts of a uqp both creating and opening a QP set up. */
static void uverbs_uqp_init(struct ib_uqp_object *uqp)
{
	mutex_init(&uqp->mcast_lock);
	INIT_LIST_HEAD(&uqp->mcast_list);
	INIT_LIST_HEAD(&uqp->uevent.event_list);
}

/*
 * The hardware QP of a new uqp, for write() and ioctl alike.  A QP of an
 * XRC domain (@xrcd_uobj) keeps CLOSE_XRCD from closing the domain.  The
 * QP references @async, its async event file.
 */
struct ib_qp *uverbs_qp_create_hw(struct ib_uqp_object *uqp,
				  struct ib_device *ibdev, struct ib_pd *pd,
				  struct ib_qp_init_attr *init,
				  struct ib_uobject *xrcd_uobj,
				  struct uverbs_attr_bundle *attrs,
				  struct ib_uverbs_async_event_file *async)
{
	struct ib_qp *qp;

	uverbs_uqp_init(uqp);
	uqp->uevent.event_file = uverbs_async_event_get(async);
	init->event_handler = ib_uverbs_qp_event_handler;

	qp = ib_create_qp_user(ibdev, pd, init, &attrs->driver_udata, uqp,
			       KBUILD_MODNAME);
	if (IS_ERR(qp)) {
		ib_uverbs_release_uevent(&uqp->uevent);
		uqp->uevent.event_file = NULL;
		return qp;
	}
	ib_qp_usecnt_inc(qp);
	uqp->uevent.uobject.object = qp;
	if (xrcd_uobj)
		uqp->uxrcd = uverbs_xrcd_hold(xrcd_uobj);
	return qp;
}

/*
 * Both create commands.  The response is the _ex one; the legacy command
 * gets its leading part (uverbs_response truncates to the user's room).
 */
static int uverbs_create_qp_common(struct uverbs_attr_bundle *attrs,
				   struct ovb_ex_create_qp_req *cmd)
{
	struct ovb_ex_create_qp_resp resp = {};
	struct ib_qp_init_attr init = {};
	struct uverbs_qp_deps deps = {};
	struct ib_uqp_object *uqp;
	struct uverbs_newobj n;
	struct ib_qp *qp;
	int ret = uverbs_qp_check_type(cmd->qp_type);

	ret = ret ?: uverbs_newobj_begin(&n, OVB_OBJECT_QP, attrs,
					 cmd->user_handle);
	if (ret)
		return ret;
	uqp = container_of(n.uobj, struct ib_uqp_object, uevent.uobject);

	ret = uverbs_qp_get_deps(cmd, &deps, attrs);
	if (!ret) {
		uverbs_qp_init_attr(cmd, &deps, &init);
		ret = uverbs_qp_check_flags(cmd, &init);
	}
	if (!ret) {
		qp = uverbs_qp_create_hw(uqp, deps.pd ? deps.pd->device :
							init.xrcd->device,
					 deps.pd, &init, deps.xrcd_uobj, attrs,
					 uverbs_default_async_event(attrs->ufile));
		ret = PTR_ERR_OR_ZERO(qp);
	}
	uverbs_qp_put_deps(&deps);
	if (ret)
		return uverbs_newobj_cancel(&n, ret);

	/* The driver may have rounded the capabilities up. */
	resp.base = (struct ovb_create_qp_resp) {
		.qp_handle = uverbs_newobj_publish(&n, NULL),
		.qpn = qp->qp_num,
		.max_recv_sge = init.cap.max_recv_sge,
		.max_send_sge = init.cap.max_send_sge,
		.max_recv_wr = init.cap.max_recv_wr,
		.max_send_wr = init.cap.max_send_wr,
		.max_inline_data = init.cap.max_inline_data,
	};
	resp.response_length = uverbs_response_length(attrs, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/* The legacy request, widened: it has no create flags and no RSS. */
static int uverbs_create_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_qp_req cmd;
	struct ovb_ex_create_qp_req ex;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	if (ret)
		return ret;
	ex = (struct ovb_ex_create_qp_req) {
		.user_handle = cmd.user_handle,
		.pd_handle = cmd.pd_handle,
		.send_cq_handle = cmd.send_cq_handle,
		.recv_cq_handle = cmd.recv_cq_handle,
		.srq_handle = cmd.srq_handle,
		.max_send_wr = cmd.max_send_wr,
		.max_recv_wr = cmd.max_recv_wr,
		.max_send_sge = cmd.max_send_sge,
		.max_recv_sge = cmd.max_recv_sge,
		.max_inline_data = cmd.max_inline_data,
		.sq_sig_all = cmd.sq_sig_all,
		.qp_type = cmd.qp_type,
		.is_srq = cmd.is_srq,
	};
	return uverbs_create_qp_common(attrs, &ex);
}

static int uverbs_ex_create_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_create_qp_req cmd;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	if (!ret && ((cmd.comp_mask & ~OVB_CREATE_QP_SUP_COMP_MASK) ||
		     cmd.reserved))
		ret = -EINVAL;
	return ret ?: uverbs_create_qp_common(attrs, &cmd);
}

/*
 * The XRC target QP numbered @cmd->qpn in the domain the request names.
 * The opened QP has no async event file of its own, as in 6.1: its events
 * reach the creator.
 */
static struct ib_qp *uverbs_qp_open_shared(struct ib_uqp_object *uqp,
					   const struct ovb_open_qp_req *cmd,
					   struct uverbs_qp_deps *deps,
					   struct uverbs_attr_bundle *attrs)
{
	struct ib_qp_open_attr open = {
		.event_handler = ib_uverbs_qp_event_handler,
		.qp_num = cmd->qpn,
		.qp_type = cmd->qp_type,
	};
	int ret = uverbs_qp_get_xrcd(cmd->pd_handle, deps, attrs);
	struct ib_qp *qp;

	if (ret)
		return ERR_PTR(ret);
	qp = ib_open_qp(deps->xrcd_uobj->object, &open);
	if (!IS_ERR(qp)) {
		uqp->uxrcd = uverbs_xrcd_hold(deps->xrcd_uobj);
		qp->uobject = uqp;
	}
	return qp;
}

/*
 * OPEN_QP: a handle to an existing XRC target QP, found by number in an
 * XRC domain this file has opened.
 */
static int uverbs_open_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_qp_resp resp = {};
	struct uverbs_qp_deps deps = {};
	struct ovb_open_qp_req cmd;
	struct ib_uqp_object *uqp;
	struct uverbs_newobj n;
	struct ib_qp *qp;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	ret = ret ?: uverbs_newobj_begin(&n, OVB_OBJECT_QP, attrs,
					 cmd.user_handle);
	if (ret)
		return ret;
	uqp = container_of(n.uobj, struct ib_uqp_object, uevent.uobject);
	uverbs_uqp_init(uqp);

	qp = uverbs_qp_open_shared(uqp, &cmd, &deps, attrs);
	uverbs_qp_put_deps(&deps);
	if (IS_ERR(qp))
		return uverbs_newobj_cancel(&n, PTR_ERR(qp));

	resp.qp_handle = uverbs_newobj_publish(&n, qp);
	resp.qpn = qp->qp_num;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static void uverbs_ah_attr_to_dest(struct ovb_qp_dest *dest,
				   const struct rdma_ah_attr *ah)
{
	dest->dlid = rdma_ah_get_dlid(ah);
	dest->sl = rdma_ah_get_sl(ah);
	dest->src_path_bits = rdma_ah_get_path_bits(ah);
	dest->static_rate = rdma_ah_get_static_rate(ah);
	dest->is_global = !!(rdma_ah_get_ah_flags(ah) & IB_AH_GRH);
	if (dest->is_global) {
		const struct ib_global_route *grh = rdma_ah_read_grh(ah);

		memcpy(dest->dgid, grh->dgid.raw, sizeof(dest->dgid));
		dest->flow_label = grh->flow_label;
		dest->sgid_index = grh->sgid_index;
		dest->hop_limit = grh->hop_limit;
		dest->traffic_class = grh->traffic_class;
	}
	dest->port_num = rdma_ah_get_port_num(ah);
}

static void uverbs_query_qp_resp(struct ovb_query_qp_resp *resp,
				 const struct ib_qp_attr *attr,
				 const struct ib_qp_init_attr *init)
{
	*resp = (struct ovb_query_qp_resp) {
		.qp_state = attr->qp_state,
		.cur_qp_state = attr->cur_qp_state,
		.path_mtu = attr->path_mtu,
		.path_mig_state = attr->path_mig_state,
		.qkey = attr->qkey,
		.rq_psn = attr->rq_psn,
		.sq_psn = attr->sq_psn,
		.dest_qp_num = attr->dest_qp_num,
		.qp_access_flags = attr->qp_access_flags,
		.pkey_index = attr->pkey_index,
		.alt_pkey_index = attr->alt_pkey_index,
		.sq_draining = attr->sq_draining,
		.max_rd_atomic = attr->max_rd_atomic,
		.max_dest_rd_atomic = attr->max_dest_rd_atomic,
		.min_rnr_timer = attr->min_rnr_timer,
		.port_num = attr->port_num,
		.timeout = attr->timeout,
		.retry_cnt = attr->retry_cnt,
		.rnr_retry = attr->rnr_retry,
		.alt_port_num = attr->alt_port_num,
		.alt_timeout = attr->alt_timeout,
		.max_send_wr = init->cap.max_send_wr,
		.max_recv_wr = init->cap.max_recv_wr,
		.max_send_sge = init->cap.max_send_sge,
		.max_recv_sge = init->cap.max_recv_sge,
		.max_inline_data = init->cap.max_inline_data,
		.sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR,
	};
	uverbs_ah_attr_to_dest(&resp->dest, &attr->ah_attr);
	uverbs_ah_attr_to_dest(&resp->alt_dest, &attr->alt_ah_attr);
}

/* What QUERY_QP fills; both are large (two AH attrs each): off the stack. */
struct uverbs_qp_query_buf {
	struct ib_qp_attr attr;
	struct ib_qp_init_attr init;
};

/* The attribute mask goes to the driver as the user gave it. */
static int uverbs_query_qp(struct uverbs_attr_bundle *attrs)
{
	struct uverbs_qp_query_buf *buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	struct ovb_query_qp_resp resp;
	struct ovb_query_qp_req cmd;
	struct ib_qp *qp;
	int ret = -ENOMEM;

	qp = buf ? uverbs_req_get_read(attrs, &cmd, sizeof(cmd),
				       OVB_OBJECT_QP, &cmd.qp_handle) :
		   ERR_PTR(-ENOMEM);
	if (!IS_ERR(qp)) {
		ret = ib_query_qp(qp, &buf->attr, cmd.attr_mask, &buf->init);
		uverbs_put_qp_read(qp);
	} else {
		ret = PTR_ERR(qp);
	}
	if (!ret) {
		uverbs_query_qp_resp(&resp, &buf->attr, &buf->init);
		ret = uverbs_response(attrs, &resp, sizeof(resp));
	}
	kfree(buf);
	return ret;
}

/*
 * XRC QPs have one direction only: drop the attributes of the missing
 * direction instead of letting ib_core reject them, as 6.1 does.
 */
static u32 uverbs_qp_effective_mask(enum ib_qp_type type, u32 mask)
{
	u32 absent = 0;

	if (type == IB_QPT_XRC_INI)	/* no receive side */
		absent = IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
	else if (type == IB_QPT_XRC_TGT)	/* no send side */
		absent = IB_QP_MAX_QP_RD_ATOMIC | IB_QP_RETRY_CNT |
			 IB_QP_RNR_RETRY;
	return mask & ~absent;
}

static void uverbs_dest_to_ah_attr(struct ib_device *ibdev,
				   struct rdma_ah_attr *ah,
				   const struct ovb_qp_dest *dest)
{
	const struct uverbs_av av = {
		.dgid = dest->dgid,
		.flow_label = dest->flow_label,
		.dlid = dest->dlid,
		.sgid_index = dest->sgid_index,
		.hop_limit = dest->hop_limit,
		.traffic_class = dest->traffic_class,
		.sl = dest->sl,
		.src_path_bits = dest->src_path_bits,
		.static_rate = dest->static_rate,
		.is_global = dest->is_global,
		.port_num = dest->port_num,
	};

	uverbs_av_to_ah_attr(ibdev, &av, ah);
}

/*
 * The port checks 6.1 makes before ib_core sees the request.  A primary
 * AV must name a valid port.  In INIT->RTR (the only transition with AV
 * and a state) it must be the port the QP got in RST->INIT; otherwise
 * (SQD->SQD) an AV change moves the QP to the AV's port, so the port is
 * implied and, when given too, must agree.  The alternate path needs a
 * valid port that equals the alternate AV's.
 */
static int uverbs_modify_qp_ports(struct ib_qp *qp,
				  struct ovb_modify_qp_req *cmd)
{
	u32 mask = cmd->attr_mask;

	if ((mask & IB_QP_PORT) && !rdma_is_port_valid(qp->device,
						       cmd->port_num))
		return -EINVAL;

	if (mask & IB_QP_AV) {
		if (!rdma_is_port_valid(qp->device, cmd->dest.port_num))
			return -EINVAL;
		if ((mask & IB_QP_STATE) && cmd->qp_state == IB_QPS_RTR) {
			if (cmd->dest.port_num != qp->real_qp->port)
				return -EINVAL;
		} else if (mask & IB_QP_PORT) {
			if (cmd->port_num != cmd->dest.port_num)
				return -EINVAL;
		} else {
			cmd->attr_mask |= IB_QP_PORT;
			cmd->port_num = cmd->dest.port_num;
		}
	}

	if ((mask & IB_QP_ALT_PATH) &&
	    (!rdma_is_port_valid(qp->device, cmd->alt_port_num) ||
	     !rdma_is_port_valid(qp->device, cmd->alt_dest.port_num) ||
	     cmd->alt_port_num != cmd->alt_dest.port_num))
		return -EINVAL;
	return 0;
}

/*
 * The scalar fields of MODIFY_QP, each taken when its mask bit is set:
 * same name on both sides, widened from the request's size to ib_qp_attr's.
 */
struct uverbs_qp_modify_field {
	u32 mask;
	u16 from, to;
	u8 from_size, to_size;
};

#define UVERBS_QP_MODIFY(_bit, _field)					\
	{ .mask = (_bit),						\
	  .from = offsetof(struct ovb_modify_qp_req, _field),		\
	  .from_size = sizeof_field(struct ovb_modify_qp_req, _field),	\
	  .to = offsetof(struct ib_qp_attr, _field),			\
	  .to_size = sizeof_field(struct ib_qp_attr, _field) }

static const struct uverbs_qp_modify_field uverbs_qp_modify_fields[] = {
	UVERBS_QP_MODIFY(IB_QP_STATE, qp_state),
	UVERBS_QP_MODIFY(IB_QP_CUR_STATE, cur_qp_state),
	UVERBS_QP_MODIFY(IB_QP_PATH_MTU, path_mtu),
	UVERBS_QP_MODIFY(IB_QP_PATH_MIG_STATE, path_mig_state),
	UVERBS_QP_MODIFY(IB_QP_QKEY, qkey),
	UVERBS_QP_MODIFY(IB_QP_RQ_PSN, rq_psn),
	UVERBS_QP_MODIFY(IB_QP_SQ_PSN, sq_psn),
	UVERBS_QP_MODIFY(IB_QP_DEST_QPN, dest_qp_num),
	UVERBS_QP_MODIFY(IB_QP_ACCESS_FLAGS, qp_access_flags),
	UVERBS_QP_MODIFY(IB_QP_PKEY_INDEX, pkey_index),
	UVERBS_QP_MODIFY(IB_QP_EN_SQD_ASYNC_NOTIFY, en_sqd_async_notify),
	UVERBS_QP_MODIFY(IB_QP_MAX_QP_RD_ATOMIC, max_rd_atomic),
	UVERBS_QP_MODIFY(IB_QP_MAX_DEST_RD_ATOMIC, max_dest_rd_atomic),
	UVERBS_QP_MODIFY(IB_QP_MIN_RNR_TIMER, min_rnr_timer),
	UVERBS_QP_MODIFY(IB_QP_PORT, port_num),
	UVERBS_QP_MODIFY(IB_QP_TIMEOUT, timeout),
	UVERBS_QP_MODIFY(IB_QP_RETRY_CNT, retry_cnt),
	UVERBS_QP_MODIFY(IB_QP_RNR_RETRY, rnr_retry),
	UVERBS_QP_MODIFY(IB_QP_ALT_PATH, alt_port_num),
	UVERBS_QP_MODIFY(IB_QP_ALT_PATH, alt_timeout),
	UVERBS_QP_MODIFY(IB_QP_ALT_PATH, alt_pkey_index),
};

static u32 uverbs_load_uint(const void *p, size_t size)
{
	switch (size) {
	case 1:
		return *(const u8 *)p;
	case 2:
		return *(const u16 *)p;
	default:
		return *(const u32 *)p;
	}
}

static void uverbs_store_uint(void *p, size_t size, u32 val)
{
	switch (size) {
	case 1:
		*(u8 *)p = val;
		break;
	case 2:
		*(u16 *)p = val;
		break;
	default:
		*(u32 *)p = val;
	}
}

/* The request's fields into ib_qp_attr, those the mask selects. */
static int uverbs_modify_qp_attr(struct ib_qp *qp,
				 struct ovb_ex_modify_qp_req *cmd,
				 struct ib_qp_attr *attr)
{
	const struct uverbs_qp_modify_field *f;
	struct ovb_modify_qp_req *b = &cmd->base;
	u32 mask = b->attr_mask;

	if (((mask & IB_QP_CUR_STATE) && b->cur_qp_state > IB_QPS_ERR) ||
	    ((mask & IB_QP_STATE) && b->qp_state > IB_QPS_ERR))
		return -EINVAL;
	/* Q_Keys with the high bit are for privileged senders. */
	if ((mask & IB_QP_QKEY) && (b->qkey & IB_QP_SET_QKEY) &&
	    !rdma_nl_get_privileged_qkey())
		return -EPERM;

	for (f = uverbs_qp_modify_fields;
	     f < uverbs_qp_modify_fields + ARRAY_SIZE(uverbs_qp_modify_fields);
	     f++)
		if (mask & f->mask)
			uverbs_store_uint((u8 *)attr + f->to, f->to_size,
					  uverbs_load_uint((u8 *)b + f->from,
							   f->from_size));
	if (mask & IB_QP_ALT_PATH)
		uverbs_dest_to_ah_attr(qp->device, &attr->alt_ah_attr,
				       &b->alt_dest);
	if (mask & IB_QP_RATE_LIMIT)
		attr->rate_limit = cmd->rate_limit;
	if (mask & IB_QP_AV)
		uverbs_dest_to_ah_attr(qp->device, &attr->ah_attr, &b->dest);
	return 0;
}

/* Both modify commands; the caller has checked the mask's bits. */
static int uverbs_modify_qp_common(struct uverbs_attr_bundle *attrs,
				   struct ovb_ex_modify_qp_req *cmd)
{
	struct ib_qp_attr *attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	struct ib_qp *qp = attr ? uobj_get_obj_read(qp, OVB_OBJECT_QP,
						    cmd->base.qp_handle,
						    attrs) :
				  ERR_PTR(-ENOMEM);
	int ret = PTR_ERR_OR_ZERO(qp);

	if (!ret) {
		ret = uverbs_modify_qp_ports(qp, &cmd->base) ?:
		      uverbs_modify_qp_attr(qp, cmd, attr) ?:
		      ib_modify_qp_with_udata(qp, attr,
					      uverbs_qp_effective_mask(qp->qp_type,
								       cmd->base.attr_mask),
					      &attrs->driver_udata);
		uverbs_put_qp_read(qp);
	}
	kfree(attr);
	return ret;
}

/* The mask bits each modify command accepts (EOPNOTSUPP beyond them). */
static int uverbs_modify_qp_req(struct uverbs_attr_bundle *attrs,
				struct ovb_ex_modify_qp_req *cmd, size_t len,
				u32 supported)
{
	int ret = uverbs_request(attrs, cmd, len);

	if (!ret && (cmd->base.attr_mask & ~supported))
		ret = -EOPNOTSUPP;
	return ret ?: uverbs_modify_qp_common(attrs, cmd);
}

static int uverbs_modify_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_modify_qp_req cmd = {};

	return uverbs_modify_qp_req(attrs, &cmd, sizeof(cmd.base),
				    IB_QP_ATTR_STANDARD_BITS);
}

/* The mask's top bit is kept for extending it in another field. */
static int uverbs_ex_modify_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_modify_qp_resp resp = {
		.response_length = uverbs_response_length(attrs, sizeof(resp)),
	};
	struct ovb_ex_modify_qp_req cmd;

	return uverbs_modify_qp_req(attrs, &cmd, sizeof(cmd),
				    IB_QP_ATTR_STANDARD_BITS |
				    IB_QP_RATE_LIMIT) ?:
	       uverbs_response(attrs, &resp, sizeof(resp));
}

static const struct uverbs_destroy_cmd uverbs_qp_destroy = {
	.object_id = OVB_OBJECT_QP,
	.req_len = sizeof(struct ovb_destroy_qp_req),
	.handle_offset = offsetof(struct ovb_destroy_qp_req, qp_handle),
	.resp_len = sizeof(struct ovb_destroy_qp_resp),
	.fill = uverbs_report_uevents,
};

static int uverbs_destroy_qp(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_qp_destroy);
}

/*
 * DESTROY_QP refuses (EBUSY) while the user still has multicast groups
 * attached; every other reason detaches them here, since nothing else
 * would.  Opened XRC QPs share the real QP's attachments: they have none
 * of their own to drop.  ib_destroy_qp_user() refuses while flows or
 * other users hold the QP and releases the device objects' counts.
 */
/* What the uqp held besides its QP: the XRC domain, its events. */
static void uverbs_uqp_release(struct ib_uqp_object *uqp)
{
	uverbs_xrcd_drop(uqp->uxrcd);
	ib_uverbs_release_uevent(&uqp->uevent);
}

static int uverbs_qp_drop_mcast(struct ib_qp *qp, struct ib_uqp_object *uqp,
				enum rdma_remove_reason why)
{
	if (why == RDMA_REMOVE_DESTROY)
		return list_empty(&uqp->mcast_list) ? 0 : -EBUSY;
	if (qp == qp->real_qp)
		ib_uverbs_detach_umcast(qp, uqp);
	return 0;
}

static int uverbs_free_qp(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	struct ib_uqp_object *uqp =
		container_of(uobj, struct ib_uqp_object, uevent.uobject);
	struct ib_qp *qp = uobj->object;
	int ret = uverbs_qp_drop_mcast(qp, uqp, why) ?:
		  ib_destroy_qp_user(qp, &attrs->driver_udata);

	if (!ret)
		uverbs_uqp_release(uqp);
	return ret;
}

const struct uverbs_obj_idr_type uverbs_qp_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uqp_object),
	},
	.destroy_object = uverbs_free_qp,
};

/*
 * The QP object: its write() commands here, in post.c and mcast.c, its
 * ioctl methods in qp_ioctl.c.  6.1 files OPEN_QP under the XRC domain
 * object, so it needs what that object needs (xrcd.c), not destroy_qp.
 */
const struct uapi_definition uverbs_def_obj_qp[] = {
	DECLARE_UVERBS_OBJECT(OVB_OBJECT_QP),
	UAPI_DEF_OBJ_NEEDS_FN(destroy_qp),
	UVERBS_DECLARE_WRITE(OVB_CMD_CREATE_QP, uverbs_create_qp,
			     UVERBS_IN_OUT_UDATA(struct ovb_create_qp_req,
						 struct ovb_create_qp_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(create_qp),
	UVERBS_DECLARE_WRITE(OVB_CMD_QUERY_QP, uverbs_query_qp,
			     UVERBS_IN_OUT(struct ovb_query_qp_req, struct ovb_query_qp_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(query_qp),
	UVERBS_DECLARE_WRITE(OVB_CMD_MODIFY_QP, uverbs_modify_qp,
			     UVERBS_IN(struct ovb_modify_qp_req)),
	UAPI_DEF_METHOD_NEEDS_FN(modify_qp),
	UVERBS_DECLARE_WRITE(OVB_CMD_DESTROY_QP, uverbs_destroy_qp,
			     UVERBS_IN_OUT(struct ovb_destroy_qp_req, struct ovb_destroy_qp_resp)),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_CREATE_QP, uverbs_ex_create_qp,
				UVERBS_EX_MIN(offsetofend(struct ovb_ex_create_qp_req, comp_mask),
					      offsetofend(struct ovb_ex_create_qp_resp,
							  response_length))),
	UAPI_DEF_METHOD_NEEDS_FN(create_qp),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_MODIFY_QP, uverbs_ex_modify_qp,
				UVERBS_EX_MIN(offsetofend(struct ovb_ex_modify_qp_req, base),
					      offsetofend(struct ovb_ex_modify_qp_resp,
							  response_length))),
	UAPI_DEF_METHOD_NEEDS_FN(modify_qp),
	DECLARE_UVERBS_OBJECT(OVB_OBJECT_XRCD),
	UVERBS_DECLARE_WRITE(OVB_CMD_OPEN_QP, uverbs_open_qp,
			     UVERBS_IN_OUT_UDATA(struct ovb_open_qp_req,
						 struct ovb_create_qp_resp)),
	UAPI_DEF_CHAIN(uverbs_def_qp_ioctl),
	UAPI_DEF_CHAIN(uverbs_def_qp_post),
	UAPI_DEF_CHAIN(uverbs_def_qp_mcast),
	{ }
};
