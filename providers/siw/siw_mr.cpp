// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Memory regions.  siw's REG_MR wants driver data in both directions (a
// key byte in, the STag out) and refuses a request without it, so the
// library's plain reg_mr cannot serve; deregistration is plain.
#include "siw.h"

#include <new>

namespace siw {

ibv_mr *reg_mr(ibv_pd *pd, void *addr, size_t len, uint64_t hca_va,
	       int access)
{
	auto *mr = new (std::nothrow) ibv_mr{};
	if (!mr) {
		errno = ENOMEM;
		return nullptr;
	}
	// A zero key byte: the kernel picks the STag as for libsiw.
	ovb_siw_ureq_reg_mr req{};
	ovb_siw_uresp_reg_mr resp{};
	ovb_udata ud{&req, sizeof(req), &resp, sizeof(resp)};
	int rc = core->reg_mr(pd, addr, len, hca_va, access, mr, &ud);
	if (rc) {
		delete mr;
		errno = rc;
		return nullptr;
	}
	return mr;
}

int dereg_mr(ibv_mr *mr)
{
	int rc = core->dereg_mr(mr);
	if (!rc)
		delete mr;
	return rc;
}

} // namespace siw
