// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The generic part of each verbs object, set by the library after the
// provider made it: locks, condition variables, event counters, owners.
#pragma once

#include <infiniband/verbs.h>

namespace ovb {

void init_cq_fields(ibv_cq *cq, ibv_context *ctx, ibv_comp_channel *ch,
		    void *cq_context);
void init_qp_fields(ibv_qp *qp, ibv_context *ctx, void *qp_context);
void init_srq_fields(ibv_srq *srq, ibv_context *ctx, void *srq_context);

// ibv_context_ops::alloc_mw / dealloc_mw as the inline ibv_alloc_mw()
// calls them: the provider's op plus the generic fields.
ibv_mw *alloc_mw_entry(ibv_pd *pd, ibv_mw_type type);
int dealloc_mw_entry(ibv_mw *mw);

} // namespace ovb
