// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The IBVERBS_1.0 ABI (libibverbs before 1.1, 2006) used other struct
// layouts; rdma-core still exports it as non-default symbol versions
// (ibv_open_device@IBVERBS_1.0, ...).  We export the same versions so that
// such binaries link, but answer every call with ENOSYS: no binary built
// in the last fifteen years binds to them.
#include <cerrno>
#include <cstdint>

#include "log.h"

namespace {

void complain()
{
	static bool once;
	if (!once) {
		once = true;
		ovb::log::warning("the IBVERBS_1.0 ABI is not supported by openverbs\n");
	}
}

} // namespace

#define OVB_COMPAT(ret, name, fail, ver)					\
	extern "C" __attribute__((visibility("default"),			\
				  symver(#name "@" ver)))			\
	ret ovb_compat_##name(...)						\
	{									\
		complain();							\
		errno = ENOSYS;							\
		return fail;							\
	}
#define OVB_COMPAT_VOID(name, ver)						\
	extern "C" __attribute__((visibility("default"),			\
				  symver(#name "@" ver)))			\
	void ovb_compat_##name(...)						\
	{									\
		complain();							\
	}

OVB_COMPAT(void *, ibv_get_device_list, nullptr, "IBVERBS_1.0")
OVB_COMPAT_VOID(ibv_free_device_list, "IBVERBS_1.0")
OVB_COMPAT(const char *, ibv_get_device_name, nullptr, "IBVERBS_1.0")
OVB_COMPAT(uint64_t, ibv_get_device_guid, 0, "IBVERBS_1.0")
OVB_COMPAT(void *, ibv_open_device, nullptr, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_close_device, -1, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_get_async_event, -1, "IBVERBS_1.0")
OVB_COMPAT_VOID(ibv_ack_async_event, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_query_device, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_query_port, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_query_gid, -1, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_query_pkey, -1, "IBVERBS_1.0")
OVB_COMPAT(void *, ibv_alloc_pd, nullptr, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_dealloc_pd, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(void *, ibv_reg_mr, nullptr, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_dereg_mr, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(void *, ibv_create_cq, nullptr, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_resize_cq, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_destroy_cq, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_get_cq_event, -1, "IBVERBS_1.0")
OVB_COMPAT_VOID(ibv_ack_cq_events, "IBVERBS_1.0")
OVB_COMPAT(void *, ibv_create_srq, nullptr, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_modify_srq, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_query_srq, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_destroy_srq, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(void *, ibv_create_qp, nullptr, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_query_qp, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_modify_qp, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_destroy_qp, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(void *, ibv_create_ah, nullptr, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_destroy_ah, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_attach_mcast, ENOSYS, "IBVERBS_1.0")
OVB_COMPAT(int, ibv_detach_mcast, ENOSYS, "IBVERBS_1.0")
// The pre-1.1 provider registration; providers of that era cannot load.
OVB_COMPAT_VOID(ibv_register_driver, "IBVERBS_1.1")
