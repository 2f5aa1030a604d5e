// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Address handles, and building one from a received completion.
#include <cerrno>

#include "ah_from_wc.h"
#include "context.h"
#include "export.h"

// rdma-core-private (verbs_device.cpp).
extern "C" int ibv_query_gid_type(ibv_context *ctx, uint8_t port,
				  unsigned int index, unsigned int *type);

OVB_EXPORT ibv_ah *ibv_create_ah(ibv_pd *pd, ibv_ah_attr *attr)
try {
	ibv_ah *ah = ovb::call(pd->context, &ovb_context_ops::create_ah, pd, attr);
	if (ah) {
		ah->context = pd->context;
		ah->pd = pd;
	}
	return ah;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_destroy_ah(ibv_ah *ah)
try {
	return ovb::call(ah->context, &ovb_context_ops::destroy_ah, ah);
} OVB_ABI_CATCH

// The GID table through the public queries, as libibverbs reads it.
OVB_EXPORT int ibv_init_ah_from_wc(ibv_context *ctx, uint8_t port_num,
				   ibv_wc *wc, ibv_grh *grh,
				   ibv_ah_attr *ah_attr)
try {
	auto gids = [ctx, port_num](int i, ibv_gid &gid, unsigned &type) {
		if (int rc = ibv_query_gid(ctx, port_num, i, &gid))
			return rc;
		return ibv_query_gid_type(ctx, port_num, static_cast<unsigned>(i),
					  &type);
	};
	return ovb::ah::from_wc(gids, port_num, *wc, *grh, *ah_attr);
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT ibv_ah *ibv_create_ah_from_wc(ibv_pd *pd, ibv_wc *wc, ibv_grh *grh,
					 uint8_t port_num)
try {
	ibv_ah_attr attr;
	if (ibv_init_ah_from_wc(pd->context, port_num, wc, grh, &attr))
		return nullptr;
	return ibv_create_ah(pd, &attr);
} OVB_ABI_CATCH

// Our providers get the L2 address from the kernel (rxe's ah_num), so this
// userspace neighbour lookup is not implemented.
OVB_EXPORT int ibv_resolve_eth_l2_from_gid(ibv_context *, ibv_ah_attr *,
					   uint8_t[], uint16_t *)
try {
	errno = EOPNOTSUPP;
	return -EOPNOTSUPP;
} OVB_ABI_CATCH_MINUS1

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_create_ah, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_destroy_ah, "IBVERBS_1.1");
