// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Queue pairs.
#include <cerrno>

#include "context.h"
#include "device.h"
#include "export.h"
#include "objects.h"

OVB_EXPORT ibv_qp *ibv_create_qp(ibv_pd *pd, ibv_qp_init_attr *attr)
try {
	ibv_qp *qp = ovb::call(pd->context, &ovb_context_ops::create_qp, pd, attr);
	if (qp)
		ovb::init_qp_fields(qp, pd->context, attr->qp_context);
	return qp;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_query_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask,
			    ibv_qp_init_attr *init_attr)
try {
	int rc = ovb::call(qp->context, &ovb_context_ops::query_qp, qp, attr,
			   mask, init_attr);
	if (!rc && (mask & IBV_QP_STATE))
		qp->state = attr->qp_state;
	return rc;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_modify_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask)
try {
	int rc = ovb::call(qp->context, &ovb_context_ops::modify_qp, qp, attr,
			   mask);
	if (!rc && (mask & IBV_QP_STATE))
		qp->state = attr->qp_state;
	return rc;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_destroy_qp(ibv_qp *qp)
try {
	return ovb::call(qp->context, &ovb_context_ops::destroy_qp, qp);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_attach_mcast(ibv_qp *qp, const ibv_gid *gid, uint16_t lid)
try {
	return ovb::call(qp->context, &ovb_context_ops::attach_mcast, qp, gid, lid);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_detach_mcast(ibv_qp *qp, const ibv_gid *gid, uint16_t lid)
try {
	return ovb::call(qp->context, &ovb_context_ops::detach_mcast, qp, gid, lid);
} OVB_ABI_CATCH

// Extended QPs: only a QP created with extended send ops has them, else
// NULL, as rdma-core.  rdma-core's providers say so in struct verbs_qp
// (VERBS_QP_EX); ours embed struct ibv_qp_ex when they have create_qp_ex,
// and install wr_start with the send ops.
OVB_EXPORT ibv_qp_ex *ibv_qp_to_qp_ex(ibv_qp *qp)
try {
	verbs_ex_private *p = ovb::priv(qp->context);
	if (p->device->rdmacore()) {
		auto *v = reinterpret_cast<ovb::rdmacore::VerbsQp *>(qp);
		return (v->comp_mask & ovb::rdmacore::kVerbsQpEx) ? &v->qp_ex : nullptr;
	}
	if (p->ops.create_qp_ex == nullptr)
		return nullptr;
	auto *ex = reinterpret_cast<ibv_qp_ex *>(qp);
	return ex->wr_start ? ex : nullptr;
} OVB_ABI_CATCH

// These three reach the provider only for rdma-core's providers (mlx5
// has them); ours have none, and the answers are rdma-core's defaults.
template <class Op>
static Op rdmacore_op(ibv_context *ctx, Op ovb::rdmacore::ContextOps::*op)
{
	verbs_ex_private *p = ovb::priv(ctx);
	return p->device->rdmacore() ? p->rc_ops.*op : nullptr;
}

OVB_EXPORT int ibv_query_qp_data_in_order(ibv_qp *qp, ibv_wr_opcode op,
					  uint32_t flags)
try {
	auto fn = rdmacore_op(qp->context,
			      &ovb::rdmacore::ContextOps::query_qp_data_in_order);
	return fn ? fn(qp, op, flags) : 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_set_ece(ibv_qp *qp, ibv_ece *ece)
try {
	if (!ece->vendor_id) {
		errno = EOPNOTSUPP;
		return EOPNOTSUPP;
	}
	auto fn = rdmacore_op(qp->context, &ovb::rdmacore::ContextOps::set_ece);
	return fn ? fn(qp, ece) : EOPNOTSUPP;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_query_ece(ibv_qp *qp, ibv_ece *ece)
try {
	auto fn = rdmacore_op(qp->context, &ovb::rdmacore::ContextOps::query_ece);
	return fn ? fn(qp, ece) : EOPNOTSUPP;
} OVB_ABI_CATCH

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_attach_mcast, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_create_qp, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_destroy_qp, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_detach_mcast, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_modify_qp, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_query_qp, "IBVERBS_1.1");
