// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the QP methods of the ioctl ABI (QP_CREATE,
 * QP_DESTROY).  The dependencies arrive as handle attributes the framework
 * has already looked up and locked; the hardware QP is made by the helper
 * the write() commands use (qp.c).
 */

#include "obj_steps.h"

/* The creation flags QP_CREATE takes; SQ_SIG_ALL is ours (see below). */
#define UVERBS_QP_IOCTL_CREATE_FLAGS					\
	(OVB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |			\
	 OVB_QP_CREATE_SCATTER_FCS | OVB_QP_CREATE_SQ_SIG_ALL | \
	 OVB_QP_CREATE_CVLAN_STRIPPING |				\
	 OVB_QP_CREATE_PCI_WRITE_END_PADDING)

/* Creation flags other than SQ_SIG_ALL: UD and raw packet QPs only. */
static int uverbs_qp_check_create_flags(enum ib_qp_type type, u32 flags)
{
	flags &= ~OVB_QP_CREATE_SQ_SIG_ALL;
	if (!flags || type == IB_QPT_DRIVER)
		return 0;
	if (type != IB_QPT_RAW_PACKET && type != IB_QPT_UD)
		return -EINVAL;
	if ((flags & (OVB_QP_CREATE_SCATTER_FCS |
		      OVB_QP_CREATE_CVLAN_STRIPPING)) &&
	    type != IB_QPT_RAW_PACKET)
		return -EINVAL;
	return 0;
}

/* XRC_TGT: an XRC domain and nothing of a PD. */
static int uverbs_qp_xrc_tgt_deps(struct uverbs_attr_bundle *attrs,
				  struct ib_qp_init_attr *init,
				  struct ib_uobject **xrcd_uobj,
				  struct ib_device **ibdev)
{
	if (uverbs_attr_is_valid(attrs, OVB_ATTR_CREATE_QP_RECV_CQ_HANDLE) ||
	    uverbs_attr_is_valid(attrs, OVB_ATTR_CREATE_QP_SEND_CQ_HANDLE) ||
	    uverbs_attr_is_valid(attrs, OVB_ATTR_CREATE_QP_PD_HANDLE) ||
	    uverbs_attr_is_valid(attrs, OVB_ATTR_CREATE_QP_IND_TABLE_HANDLE))
		return -EINVAL;
	*xrcd_uobj = uverbs_attr_get_uobject(attrs,
					     OVB_ATTR_CREATE_QP_XRCD_HANDLE);
	if (IS_ERR(*xrcd_uobj))
		return PTR_ERR(*xrcd_uobj);
	init->xrcd = (*xrcd_uobj)->object;
	if (!init->xrcd)
		return -EINVAL;
	*ibdev = init->xrcd->device;
	return 0;
}

/* Every other type: a PD, CQs or an indirection table. */
static int uverbs_qp_pd_deps(struct uverbs_attr_bundle *attrs,
			     struct ib_qp_init_attr *init,
			     const struct ovb_qp_cap *cap,
			     struct ib_pd **pd)
{
	struct ib_rwq_ind_table *ind_tbl;

	if (uverbs_attr_is_valid(attrs, OVB_ATTR_CREATE_QP_XRCD_HANDLE) ||
	    (uverbs_attr_is_valid(attrs, OVB_ATTR_CREATE_QP_SRQ_HANDLE) &&
	     init->qp_type == IB_QPT_XRC_INI))
		return -EINVAL;
	*pd = uverbs_attr_get_obj(attrs, OVB_ATTR_CREATE_QP_PD_HANDLE);
	if (IS_ERR(*pd))
		return PTR_ERR(*pd);

	ind_tbl = uverbs_attr_get_obj(attrs, OVB_ATTR_CREATE_QP_IND_TABLE_HANDLE);
	if (!IS_ERR(ind_tbl)) {
		/* An RSS QP receives through its table: no RQ of its own. */
		if (cap->max_recv_wr || cap->max_recv_sge ||
		    uverbs_attr_is_valid(attrs, OVB_ATTR_CREATE_QP_RECV_CQ_HANDLE) ||
		    uverbs_attr_is_valid(attrs, OVB_ATTR_CREATE_QP_SRQ_HANDLE))
			return -EINVAL;
		init->rwq_ind_tbl = ind_tbl;
		if (!cap->max_send_wr)
			return 0;
	}
	init->send_cq = uverbs_attr_get_obj(attrs,
					    OVB_ATTR_CREATE_QP_SEND_CQ_HANDLE);
	if (IS_ERR(init->send_cq))
		return PTR_ERR(init->send_cq);
	if (init->rwq_ind_tbl || init->qp_type == IB_QPT_XRC_INI)
		return 0;
	init->recv_cq = uverbs_attr_get_obj(attrs,
					    OVB_ATTR_CREATE_QP_RECV_CQ_HANDLE);
	return PTR_ERR_OR_ZERO(init->recv_cq);
}

/* The QP types the ioctl ABI creates, with the checks each needs. */
static int uverbs_qp_type_deps(struct uverbs_attr_bundle *attrs,
			       struct ib_qp_init_attr *init,
			       const struct ovb_qp_cap *cap,
			       struct ib_pd **pd, struct ib_uobject **xrcd_uobj,
			       struct ib_device **ibdev)
{
	int ret;

	switch (init->qp_type) {
	case IB_QPT_XRC_TGT:
		return uverbs_qp_xrc_tgt_deps(attrs, init, xrcd_uobj, ibdev);
	case IB_QPT_RAW_PACKET:
		if (!capable(CAP_NET_RAW))
			return -EPERM;
		fallthrough;
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
	case IB_QPT_XRC_INI:
	case IB_QPT_DRIVER:
		ret = uverbs_qp_pd_deps(attrs, init, cap, pd);
		if (!ret)
			*ibdev = (*pd)->device;
		return ret;
	default:
		return -EINVAL;
	}
}

static int uverbs_qp_srq(struct uverbs_attr_bundle *attrs,
			 struct ib_qp_init_attr *init)
{
	struct ib_srq *srq = uverbs_attr_get_obj(attrs,
					OVB_ATTR_CREATE_QP_SRQ_HANDLE);
	bool xrc_srq, xrc_tgt;

	if (IS_ERR(srq))
		return 0;
	/* XRC SRQs serve XRC target QPs only, and only those. */
	xrc_srq = srq->srq_type == IB_SRQT_XRC;
	xrc_tgt = init->qp_type == IB_QPT_XRC_TGT;
	if (xrc_srq != xrc_tgt)
		return -EINVAL;
	init->srq = srq;
	return 0;
}

static void uverbs_qp_caps_from(struct ib_qp_cap *to,
				const struct ovb_qp_cap *from)
{
	to->max_send_wr = from->max_send_wr;
	to->max_recv_wr = from->max_recv_wr;
	to->max_send_sge = from->max_send_sge;
	to->max_recv_sge = from->max_recv_sge;
	to->max_inline_data = from->max_inline_data;
}

static void uverbs_qp_caps_to(struct ovb_qp_cap *to,
			      const struct ib_qp_cap *from)
{
	to->max_send_wr = from->max_send_wr;
	to->max_recv_wr = from->max_recv_wr;
	to->max_send_sge = from->max_send_sge;
	to->max_recv_sge = from->max_recv_sge;
	to->max_inline_data = from->max_inline_data;
}

static int UVERBS_HANDLER(OVB_METHOD_QP_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVB_ATTR_CREATE_QP_HANDLE);
	struct ib_uqp_object *uqp =
		container_of(uobj, struct ib_uqp_object, uevent.uobject);
	struct ib_uobject *xrcd_uobj = NULL;
	struct ib_qp_init_attr init = {};
	struct ovb_qp_cap cap = {};
	struct ib_device *ibdev;
	struct ib_pd *pd = NULL;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_copy_from_or_zero(&cap, attrs, OVB_ATTR_CREATE_QP_CAP);
	if (!ret)
		ret = uverbs_copy_from(&uobj->user_handle, attrs,
				       OVB_ATTR_CREATE_QP_USER_HANDLE);
	if (!ret)
		ret = uverbs_get_const(&init.qp_type, attrs,
				       OVB_ATTR_CREATE_QP_TYPE);
	if (!ret)
		ret = uverbs_qp_type_deps(attrs, &init, &cap, &pd, &xrcd_uobj,
					  &ibdev);
	if (!ret)
		ret = uverbs_get_flags32(&init.create_flags, attrs,
					 OVB_ATTR_CREATE_QP_FLAGS,
					 UVERBS_QP_IOCTL_CREATE_FLAGS);
	if (!ret)
		ret = uverbs_qp_check_create_flags(init.qp_type,
						   init.create_flags);
	if (ret)
		return ret;
	if (uverbs_attr_is_valid(attrs, OVB_ATTR_CREATE_QP_SOURCE_QPN)) {
		ret = uverbs_copy_from(&init.source_qpn, attrs,
				       OVB_ATTR_CREATE_QP_SOURCE_QPN);
		if (ret)
			return ret;
		init.create_flags |= IB_QP_CREATE_SOURCE_QPN;
	}
	ret = uverbs_qp_srq(attrs, &init);
	if (ret)
		return ret;

	/* SQ_SIG_ALL is ours (no attribute of its own), not the driver's. */
	init.sq_sig_type = init.create_flags & OVB_QP_CREATE_SQ_SIG_ALL ?
			   IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init.create_flags &= ~OVB_QP_CREATE_SQ_SIG_ALL;
	uverbs_qp_caps_from(&init.cap, &cap);

	qp = uverbs_qp_create_hw(uqp, ibdev, pd, &init, xrcd_uobj, attrs,
				 uverbs_async_event_attr(attrs,
							 OVB_ATTR_CREATE_QP_EVENT_FD));
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	uverbs_finalize_uobj_create(attrs, OVB_ATTR_CREATE_QP_HANDLE);

	/* The driver may have rounded the capabilities up. */
	uverbs_qp_caps_to(&cap, &init.cap);
	ret = uverbs_copy_to_struct_or_zero(attrs, OVB_ATTR_CREATE_QP_RESP_CAP,
					    &cap, sizeof(cap));
	if (ret)
		return ret;
	return uverbs_copy_to(attrs, OVB_ATTR_CREATE_QP_RESP_QP_NUM,
			      &qp->qp_num, sizeof(qp->qp_num));
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_QP_CREATE,
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_QP_HANDLE,
					    OVB_OBJECT_QP,
					    UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_QP_XRCD_HANDLE,
					    OVB_OBJECT_XRCD,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_QP_PD_HANDLE,
					    OVB_OBJECT_PD,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_QP_SRQ_HANDLE,
					    OVB_OBJECT_SRQ,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_QP_SEND_CQ_HANDLE,
					    OVB_OBJECT_CQ,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_QP_RECV_CQ_HANDLE,
					    OVB_OBJECT_CQ,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(OVB_ATTR_CREATE_QP_IND_TABLE_HANDLE,
					    OVB_OBJECT_RWQ_IND_TBL,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_QP_USER_HANDLE,
					       UVERBS_ATTR_TYPE(u64),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_QP_CAP,
					       UVERBS_ATTR_STRUCT(struct ovb_qp_cap,
								  max_inline_data),
					       UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_CREATE_QP_TYPE,
						 enum ovb_qp_type,
						 UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVB_ATTR_CREATE_QP_FLAGS,
						 enum ovb_qp_create_flags,
						 UA_OPTIONAL),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CREATE_QP_SOURCE_QPN,
					       UVERBS_ATTR_TYPE(u32),
					       UA_OPTIONAL),
			    UVERBS_ATTR_FD(OVB_ATTR_CREATE_QP_EVENT_FD,
					   OVB_OBJECT_ASYNC_EVENT,
					   UVERBS_ACCESS_READ,
					   UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CREATE_QP_RESP_CAP,
						UVERBS_ATTR_STRUCT(struct ovb_qp_cap,
								   max_inline_data),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CREATE_QP_RESP_QP_NUM,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_UHW());

/* The object is gone already; its event counters are still readable. */
static int UVERBS_HANDLER(OVB_METHOD_QP_DESTROY)(struct uverbs_attr_bundle *attrs)
{
	struct ovb_destroy_qp_resp resp = {};

	uverbs_report_uevents(uverbs_attr_get_uobject(attrs,
						      OVB_ATTR_DESTROY_QP_HANDLE),
			      attrs, &resp.events_reported);
	return uverbs_copy_to(attrs, OVB_ATTR_DESTROY_QP_RESP, &resp,
			      sizeof(resp));
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_QP_DESTROY,
			    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_QP_HANDLE,
					    OVB_OBJECT_QP,
					    UVERBS_ACCESS_DESTROY,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_DESTROY_QP_RESP,
						UVERBS_ATTR_TYPE(struct ovb_destroy_qp_resp),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_QP, uverbs_qp_type.type,
			    &UVERBS_METHOD(OVB_METHOD_QP_CREATE),
			    &UVERBS_METHOD(OVB_METHOD_QP_DESTROY));

/* Part of the QP object's chain (qp.c). */
const struct uapi_definition uverbs_def_qp_ioctl[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_QP),
	{ }
};
