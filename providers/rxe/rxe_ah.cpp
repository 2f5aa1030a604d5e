// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Address handles: the kernel resolves the destination and hands back an
// index (ah_num) that UD send WQEs carry.
#include "rxe.h"

#include <cerrno>

namespace rxe {

ibv_ah *create_ah(ibv_pd *pd, ibv_ah_attr *attr)
{
	auto *ah = new (std::nothrow) Ah{};
	if (!ah) {
		errno = ENOMEM;
		return nullptr;
	}
	ovb_rxe_create_ah_resp resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	int rc = core->create_ah(pd, &ah->ibv, attr, &ud);
	if (!rc && !resp.ah_num) {
		// Kernels before 5.10 leave the address vector to userspace;
		// 6.1 always answers with an index.
		core->destroy_ah(&ah->ibv);
		rc = EOPNOTSUPP;
	}
	if (rc) {
		delete ah;
		errno = rc;
		return nullptr;
	}
	ah->ah_num = resp.ah_num;
	return &ah->ibv;
}

int destroy_ah(ibv_ah *ibah)
{
	int rc = core->destroy_ah(ibah);
	if (!rc)
		delete to_ah(ibah);
	return rc;
}

} // namespace rxe
