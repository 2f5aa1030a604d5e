// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Shared receive queues.
#include "context.h"
#include "export.h"
#include "objects.h"

OVB_EXPORT ibv_srq *ibv_create_srq(ibv_pd *pd, ibv_srq_init_attr *attr)
try {
	ibv_srq *srq = ovb::call(pd->context, &ovb_context_ops::create_srq, pd,
				 attr);
	if (srq) {
		ovb::init_srq_fields(srq, pd->context, attr->srq_context);
		srq->pd = pd;
	}
	return srq;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_modify_srq(ibv_srq *srq, ibv_srq_attr *attr, int mask)
try {
	return ovb::call(srq->context, &ovb_context_ops::modify_srq, srq, attr,
			 mask);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_query_srq(ibv_srq *srq, ibv_srq_attr *attr)
try {
	return ovb::call(srq->context, &ovb_context_ops::query_srq, srq, attr);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_destroy_srq(ibv_srq *srq)
try {
	return ovb::call(srq->context, &ovb_context_ops::destroy_srq, srq);
} OVB_ABI_CATCH

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_create_srq, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_destroy_srq, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_modify_srq, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_query_srq, "IBVERBS_1.1");
