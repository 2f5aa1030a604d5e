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

#include "uverbs.h"

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

static int uverbs_qp_check_type(u32 qp_type)
{
	switch (qp_type) {
	case IB_QPT_RAW_PACKET:
		/* Raw Ethernet frames bypass the network stack. */
		return capable(CAP_NET_RAW) ? 0 : -EPERM;
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
	case IB_QPT_XRC_INI:
	case IB_QPT_XRC_TGT:
	case IB_QPT_DRIVER:
		return 0;
	default:
		return -EINVAL;
	}
}

static int uverbs_qp_check_flags(const struct ovb_ex_create_qp_req *cmd,
				 struct ib_qp_init_attr *init)
{
	init->create_flags = cmd->create_flags;
	if (init->create_flags & ~UVERBS_QP_CREATE_FLAGS_USER)
		return -EINVAL;
	if (init->create_flags & IB_QP_CREATE_SOURCE_QPN) {
		/* Sending as another QP number is impersonation. */
		if (!capable(CAP_NET_RAW))
			return -EPERM;
		init->source_qpn = cmd->source_qpn;
	}
	return 0;
}

static void uverbs_qp_init_attr(const struct ovb_ex_create_qp_req *cmd,
				const struct uverbs_qp_deps *deps,
				struct ib_qp_init_attr *init)
{
	init->send_cq = deps->scq;
	init->recv_cq = deps->rcq;
	init->srq = deps->srq;
	init->rwq_ind_tbl = deps->ind_tbl;
	init->xrcd = deps->xrcd_uobj ? deps->xrcd_uobj->object : NULL;
	init->sq_sig_type = cmd->sq_sig_all ? IB_SIGNAL_ALL_WR :
					      IB_SIGNAL_REQ_WR;
	init->qp_type = cmd->qp_type;
	init->cap.max_send_wr = cmd->max_send_wr;
	init->cap.max_recv_wr = cmd->max_recv_wr;
	init->cap.max_send_sge = cmd->max_send_sge;
	init->cap.max_recv_sge = cmd->max_recv_sge;
	init->cap.max_inline_data = cmd->max_inline_data;
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

	mutex_init(&uqp->mcast_lock);
	INIT_LIST_HEAD(&uqp->mcast_list);
	INIT_LIST_HEAD(&uqp->uevent.event_list);
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
	if (xrcd_uobj) {
		uqp->uxrcd = container_of(xrcd_uobj, struct ib_uxrcd_object,
					  uobject);
		atomic_inc(&uqp->uxrcd->refcnt);
	}
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
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_qp_check_type(cmd->qp_type);
	if (ret)
		return ret;

	uobj = uobj_alloc(OVB_OBJECT_QP, attrs, &ibdev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uqp = container_of(uobj, struct ib_uqp_object, uevent.uobject);
	uobj->user_handle = cmd->user_handle;

	ret = uverbs_qp_get_deps(cmd, &deps, attrs);
	if (ret)
		goto err_deps;
	uverbs_qp_init_attr(cmd, &deps, &init);
	ret = uverbs_qp_check_flags(cmd, &init);
	if (ret)
		goto err_deps;

	qp = uverbs_qp_create_hw(uqp, deps.pd ? deps.pd->device : init.xrcd->device,
				 deps.pd, &init, deps.xrcd_uobj, attrs,
				 uverbs_default_async_event(attrs->ufile));
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto err_deps;
	}
	uverbs_qp_put_deps(&deps);
	uobj_finalize_uobj_create(uobj, attrs);

	/* The driver may have rounded the capabilities up. */
	resp.base.qpn = qp->qp_num;
	resp.base.qp_handle = uobj->id;
	resp.base.max_recv_sge = init.cap.max_recv_sge;
	resp.base.max_send_sge = init.cap.max_send_sge;
	resp.base.max_recv_wr = init.cap.max_recv_wr;
	resp.base.max_send_wr = init.cap.max_send_wr;
	resp.base.max_inline_data = init.cap.max_inline_data;
	resp.response_length = uverbs_response_length(attrs, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));

err_deps:
	uverbs_qp_put_deps(&deps);
	uobj_alloc_abort(uobj, attrs);
	return ret;
}

static int uverbs_create_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_create_qp_req xcmd = {};
	struct ovb_create_qp_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	xcmd.user_handle = cmd.user_handle;
	xcmd.pd_handle = cmd.pd_handle;
	xcmd.send_cq_handle = cmd.send_cq_handle;
	xcmd.recv_cq_handle = cmd.recv_cq_handle;
	xcmd.srq_handle = cmd.srq_handle;
	xcmd.max_send_wr = cmd.max_send_wr;
	xcmd.max_recv_wr = cmd.max_recv_wr;
	xcmd.max_send_sge = cmd.max_send_sge;
	xcmd.max_recv_sge = cmd.max_recv_sge;
	xcmd.max_inline_data = cmd.max_inline_data;
	xcmd.sq_sig_all = cmd.sq_sig_all;
	xcmd.qp_type = cmd.qp_type;
	xcmd.is_srq = cmd.is_srq;
	return uverbs_create_qp_common(attrs, &xcmd);
}

static int uverbs_ex_create_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_create_qp_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask & ~OVB_CREATE_QP_SUP_COMP_MASK)
		return -EINVAL;
	if (cmd.reserved)
		return -EINVAL;
	return uverbs_create_qp_common(attrs, &cmd);
}

/*
 * OPEN_QP: a handle to an existing XRC target QP, found by number in an
 * XRC domain this file has opened.  The opened QP has no async event
 * file of its own, as in 6.1: its events reach the creator.
 */
static int uverbs_open_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_qp_resp resp = {};
	struct ib_qp_open_attr open = {};
	struct uverbs_qp_deps deps = {};
	struct ovb_open_qp_req cmd;
	struct ib_uqp_object *uqp;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	uobj = uobj_alloc(OVB_OBJECT_QP, attrs, &ibdev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uqp = container_of(uobj, struct ib_uqp_object, uevent.uobject);
	mutex_init(&uqp->mcast_lock);
	INIT_LIST_HEAD(&uqp->mcast_list);
	INIT_LIST_HEAD(&uqp->uevent.event_list);

	ret = uverbs_qp_get_xrcd(cmd.pd_handle, &deps, attrs);
	if (ret)
		goto err;

	open.event_handler = ib_uverbs_qp_event_handler;
	open.qp_num = cmd.qpn;
	open.qp_type = cmd.qp_type;
	qp = ib_open_qp(deps.xrcd_uobj->object, &open);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto err;
	}

	uobj->object = qp;
	uobj->user_handle = cmd.user_handle;
	uqp->uxrcd = container_of(deps.xrcd_uobj, struct ib_uxrcd_object,
				  uobject);
	atomic_inc(&uqp->uxrcd->refcnt);
	qp->uobject = uqp;
	uverbs_qp_put_deps(&deps);
	uobj_finalize_uobj_create(uobj, attrs);

	resp.qpn = qp->qp_num;
	resp.qp_handle = uobj->id;
	return uverbs_response(attrs, &resp, sizeof(resp));

err:
	uverbs_qp_put_deps(&deps);
	uobj_alloc_abort(uobj, attrs);
	return ret;
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
	resp->qp_state = attr->qp_state;
	resp->cur_qp_state = attr->cur_qp_state;
	resp->path_mtu = attr->path_mtu;
	resp->path_mig_state = attr->path_mig_state;
	resp->qkey = attr->qkey;
	resp->rq_psn = attr->rq_psn;
	resp->sq_psn = attr->sq_psn;
	resp->dest_qp_num = attr->dest_qp_num;
	resp->qp_access_flags = attr->qp_access_flags;
	resp->pkey_index = attr->pkey_index;
	resp->alt_pkey_index = attr->alt_pkey_index;
	resp->sq_draining = attr->sq_draining;
	resp->max_rd_atomic = attr->max_rd_atomic;
	resp->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	resp->min_rnr_timer = attr->min_rnr_timer;
	resp->port_num = attr->port_num;
	resp->timeout = attr->timeout;
	resp->retry_cnt = attr->retry_cnt;
	resp->rnr_retry = attr->rnr_retry;
	resp->alt_port_num = attr->alt_port_num;
	resp->alt_timeout = attr->alt_timeout;
	uverbs_ah_attr_to_dest(&resp->dest, &attr->ah_attr);
	uverbs_ah_attr_to_dest(&resp->alt_dest, &attr->alt_ah_attr);

	resp->max_send_wr = init->cap.max_send_wr;
	resp->max_recv_wr = init->cap.max_recv_wr;
	resp->max_send_sge = init->cap.max_send_sge;
	resp->max_recv_sge = init->cap.max_recv_sge;
	resp->max_inline_data = init->cap.max_inline_data;
	resp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
}

/* The attribute mask goes to the driver as the user gave it. */
static int uverbs_query_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_query_qp_resp resp = {};
	struct ib_qp_init_attr *init;
	struct ovb_query_qp_req cmd;
	struct ib_qp_attr *attr;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	/* Both are large (two AH attrs each): keep them off the stack. */
	attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	init = kzalloc(sizeof(*init), GFP_KERNEL);
	if (!attr || !init) {
		ret = -ENOMEM;
		goto out;
	}

	qp = uobj_get_obj_read(qp, OVB_OBJECT_QP, cmd.qp_handle, attrs);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto out;
	}
	ret = ib_query_qp(qp, attr, cmd.attr_mask, init);
	uverbs_put_qp_read(qp);
	if (ret)
		goto out;

	uverbs_query_qp_resp(&resp, attr, init);
	ret = uverbs_response(attrs, &resp, sizeof(resp));
out:
	kfree(attr);
	kfree(init);
	return ret;
}

/*
 * XRC QPs have one direction only: drop the attributes of the missing
 * direction instead of letting ib_core reject them, as 6.1 does.
 */
static u32 uverbs_qp_effective_mask(enum ib_qp_type type, u32 mask)
{
	switch (type) {
	case IB_QPT_XRC_INI:
		return mask & ~(IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	case IB_QPT_XRC_TGT:
		return mask & ~(IB_QP_MAX_QP_RD_ATOMIC | IB_QP_RETRY_CNT |
				IB_QP_RNR_RETRY);
	default:
		return mask;
	}
}

static void uverbs_dest_to_ah_attr(struct ib_device *ibdev,
				   struct rdma_ah_attr *ah,
				   struct ovb_qp_dest *dest)
{
	ah->type = rdma_ah_find_type(ibdev, dest->port_num);
	if (dest->is_global) {
		rdma_ah_set_grh(ah, NULL, dest->flow_label, dest->sgid_index,
				dest->hop_limit, dest->traffic_class);
		rdma_ah_set_dgid_raw(ah, dest->dgid);
	} else {
		rdma_ah_set_ah_flags(ah, 0);
	}
	rdma_ah_set_dlid(ah, dest->dlid);
	rdma_ah_set_sl(ah, dest->sl);
	rdma_ah_set_path_bits(ah, dest->src_path_bits);
	rdma_ah_set_static_rate(ah, dest->static_rate);
	rdma_ah_set_port_num(ah, dest->port_num);
	rdma_ah_set_make_grd(ah, false);
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

/* The request's fields into ib_qp_attr, those the mask selects. */
static int uverbs_modify_qp_attr(struct ib_qp *qp,
				 struct ovb_ex_modify_qp_req *cmd,
				 struct ib_qp_attr *attr)
{
	struct ovb_modify_qp_req *b = &cmd->base;
	u32 mask = b->attr_mask;

	if (((mask & IB_QP_CUR_STATE) && b->cur_qp_state > IB_QPS_ERR) ||
	    ((mask & IB_QP_STATE) && b->qp_state > IB_QPS_ERR))
		return -EINVAL;

	if (mask & IB_QP_STATE)
		attr->qp_state = b->qp_state;
	if (mask & IB_QP_CUR_STATE)
		attr->cur_qp_state = b->cur_qp_state;
	if (mask & IB_QP_PATH_MTU)
		attr->path_mtu = b->path_mtu;
	if (mask & IB_QP_PATH_MIG_STATE)
		attr->path_mig_state = b->path_mig_state;
	if (mask & IB_QP_QKEY) {
		/* Q_Keys with the high bit are for privileged senders. */
		if ((b->qkey & IB_QP_SET_QKEY) &&
		    !rdma_nl_get_privileged_qkey())
			return -EPERM;
		attr->qkey = b->qkey;
	}
	if (mask & IB_QP_RQ_PSN)
		attr->rq_psn = b->rq_psn;
	if (mask & IB_QP_SQ_PSN)
		attr->sq_psn = b->sq_psn;
	if (mask & IB_QP_DEST_QPN)
		attr->dest_qp_num = b->dest_qp_num;
	if (mask & IB_QP_ACCESS_FLAGS)
		attr->qp_access_flags = b->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		attr->pkey_index = b->pkey_index;
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		attr->en_sqd_async_notify = b->en_sqd_async_notify;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		attr->max_rd_atomic = b->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		attr->max_dest_rd_atomic = b->max_dest_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		attr->min_rnr_timer = b->min_rnr_timer;
	if (mask & IB_QP_PORT)
		attr->port_num = b->port_num;
	if (mask & IB_QP_TIMEOUT)
		attr->timeout = b->timeout;
	if (mask & IB_QP_RETRY_CNT)
		attr->retry_cnt = b->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		attr->rnr_retry = b->rnr_retry;
	if (mask & IB_QP_ALT_PATH) {
		attr->alt_port_num = b->alt_port_num;
		attr->alt_timeout = b->alt_timeout;
		attr->alt_pkey_index = b->alt_pkey_index;
		uverbs_dest_to_ah_attr(qp->device, &attr->alt_ah_attr,
				       &b->alt_dest);
	}
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
	struct ib_qp_attr *attr;
	struct ib_qp *qp;
	int ret;

	attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	if (!attr)
		return -ENOMEM;

	qp = uobj_get_obj_read(qp, OVB_OBJECT_QP, cmd->base.qp_handle,
			       attrs);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto out;
	}

	ret = uverbs_modify_qp_ports(qp, &cmd->base);
	if (!ret)
		ret = uverbs_modify_qp_attr(qp, cmd, attr);
	if (!ret)
		ret = ib_modify_qp_with_udata(qp, attr,
					      uverbs_qp_effective_mask(qp->qp_type,
								       cmd->base.attr_mask),
					      &attrs->driver_udata);
	uverbs_put_qp_read(qp);
out:
	kfree(attr);
	return ret;
}

static int uverbs_modify_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_modify_qp_req cmd = {};
	int ret;

	ret = uverbs_request(attrs, &cmd.base, sizeof(cmd.base));
	if (ret)
		return ret;
	if (cmd.base.attr_mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	return uverbs_modify_qp_common(attrs, &cmd);
}

static int uverbs_ex_modify_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_modify_qp_resp resp = {
		.response_length = uverbs_response_length(attrs, sizeof(resp)),
	};
	struct ovb_ex_modify_qp_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	/* The mask's top bit is kept for extending it in another field. */
	if (cmd.base.attr_mask &
	    ~(u32)(IB_QP_ATTR_STANDARD_BITS | IB_QP_RATE_LIMIT))
		return -EOPNOTSUPP;
	ret = uverbs_modify_qp_common(attrs, &cmd);
	if (ret)
		return ret;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static int uverbs_destroy_qp(struct uverbs_attr_bundle *attrs)
{
	struct ovb_destroy_qp_resp resp = {};
	struct ovb_destroy_qp_req cmd;
	struct ib_uqp_object *uqp;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;

	uobj = uobj_get_destroy(OVB_OBJECT_QP, cmd.qp_handle, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uqp = container_of(uobj, struct ib_uqp_object, uevent.uobject);
	resp.events_reported = uqp->uevent.events_reported;
	uobj_put_destroy(uobj);

	return uverbs_response(attrs, &resp, sizeof(resp));
}

/*
 * DESTROY_QP refuses (EBUSY) while the user still has multicast groups
 * attached; every other reason detaches them here, since nothing else
 * would.  Opened XRC QPs share the real QP's attachments: they have none
 * of their own to drop.  ib_destroy_qp_user() refuses while flows or
 * other users hold the QP and releases the device objects' counts.
 */
static int uverbs_free_qp(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	struct ib_uqp_object *uqp =
		container_of(uobj, struct ib_uqp_object, uevent.uobject);
	struct ib_qp *qp = uobj->object;
	int ret;

	if (why == RDMA_REMOVE_DESTROY) {
		if (!list_empty(&uqp->mcast_list))
			return -EBUSY;
	} else if (qp == qp->real_qp) {
		ib_uverbs_detach_umcast(qp, uqp);
	}

	ret = ib_destroy_qp_user(qp, &attrs->driver_udata);
	if (ret)
		return ret;

	if (uqp->uxrcd)
		atomic_dec(&uqp->uxrcd->refcnt);
	ib_uverbs_release_uevent(&uqp->uevent);
	return 0;
}

const struct uverbs_obj_idr_type uverbs_qp_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uqp_object),
	},
	.destroy_object = uverbs_free_qp,
};

/*
 * Every QP command also needs destroy_qp, the QP object's own need; 6.1
 * files OPEN_QP under the XRC domain object, so it needs what that does.
 */
const struct uverbs_write_cmd uverbs_qp_cmds[] = {
	UVERBS_WRITE(OVB_CMD_CREATE_QP, uverbs_create_qp,
		     struct ovb_create_qp_req, struct ovb_create_qp_resp,
		     1, UVERBS_NEEDS(create_qp), UVERBS_NEEDS(destroy_qp)),
	UVERBS_WRITE(OVB_CMD_OPEN_QP, uverbs_open_qp,
		     struct ovb_open_qp_req, struct ovb_create_qp_resp,
		     1, UVERBS_NEEDS(alloc_xrcd), UVERBS_NEEDS(dealloc_xrcd)),
	UVERBS_WRITE(OVB_CMD_QUERY_QP, uverbs_query_qp,
		     struct ovb_query_qp_req, struct ovb_query_qp_resp,
		     0, UVERBS_NEEDS(query_qp), UVERBS_NEEDS(destroy_qp)),
	UVERBS_WRITE(OVB_CMD_MODIFY_QP, uverbs_modify_qp,
		     struct ovb_modify_qp_req, struct uverbs_no_resp, 0,
		     UVERBS_NEEDS(modify_qp), UVERBS_NEEDS(destroy_qp)),
	UVERBS_WRITE(OVB_CMD_DESTROY_QP, uverbs_destroy_qp,
		     struct ovb_destroy_qp_req,
		     struct ovb_destroy_qp_resp, 0,
		     UVERBS_NEEDS(destroy_qp)),
	UVERBS_WRITE_EX(OVB_EX_CMD_CREATE_QP, uverbs_ex_create_qp,
			offsetofend(struct ovb_ex_create_qp_req, comp_mask),
			offsetofend(struct ovb_ex_create_qp_resp,
				    response_length),
			UVERBS_NEEDS(create_qp), UVERBS_NEEDS(destroy_qp)),
	UVERBS_WRITE_EX(OVB_EX_CMD_MODIFY_QP, uverbs_ex_modify_qp,
			offsetofend(struct ovb_ex_modify_qp_req, base),
			offsetofend(struct ovb_ex_modify_qp_resp,
				    response_length),
			UVERBS_NEEDS(modify_qp), UVERBS_NEEDS(destroy_qp)),
	{ }
};
