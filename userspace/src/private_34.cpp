// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// IBVERBS_PRIVATE_34: the interface between rdma-core's libibverbs and
// rdma-core's own providers (lib*-rdmav34.so).  It is private to rdma-core
// (its types live in the uninstalled driver.h) and our providers use
// <openverbs/provider.h> instead, so these exist for link compatibility
// only: the commands answer EOPNOTSUPP, constructors return NULL, and an
// rdma-core provider that registers itself is ignored (logged).
#include <cerrno>
#include <cstdarg>
#include <cstdint>

#include "export.h"
#include "log.h"

#define OVB_PRIVATE(ret, name, value)		\
	OVB_EXPORT ret name(...)		\
	{					\
		errno = EOPNOTSUPP;		\
		return value;			\
	}

// Commands: rdma-core returns a positive errno from each.
OVB_PRIVATE(int, execute_ioctl, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_advise_mr, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_alloc_dm, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_alloc_mw, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_alloc_pd, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_attach_mcast, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_close_xrcd, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_ah, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_counters, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_cq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_cq_ex, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_flow, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_flow_action_esp, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_qp, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_qp_ex, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_qp_ex2, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_rwq_ind_table, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_srq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_srq_ex, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_create_wq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_dealloc_mw, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_dealloc_pd, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_dereg_mr, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_destroy_ah, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_destroy_counters, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_destroy_cq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_destroy_flow, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_destroy_flow_action, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_destroy_qp, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_destroy_rwq_ind_table, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_destroy_srq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_destroy_wq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_detach_mcast, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_free_dm, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_get_context, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_modify_cq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_modify_flow_action_esp, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_modify_qp, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_modify_qp_ex, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_modify_srq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_modify_wq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_open_qp, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_open_xrcd, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_poll_cq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_post_recv, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_post_send, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_post_srq_recv, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_query_context, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_query_device_any, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_query_mr, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_query_port, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_query_qp, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_query_srq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_read_counters, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_reg_dm_mr, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_reg_dmabuf_mr, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_reg_mr, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_req_notify_cq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_rereg_mr, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_cmd_resize_cq, EOPNOTSUPP)
OVB_PRIVATE(int, ibv_read_ibdev_sysfs_file, -1)
// Constructors of rdma-core provider objects.
OVB_PRIVATE(void *, _verbs_init_and_alloc_context, nullptr)
OVB_PRIVATE(void *, verbs_open_device, nullptr)
OVB_PRIVATE(int, verbs_init_cq, EOPNOTSUPP)
OVB_PRIVATE(unsigned int, __ioctl_final_num_attrs, 0)

OVB_EXPORT void verbs_set_ops(...) {}
OVB_EXPORT void verbs_uninit_context(...) {}

OVB_EXPORT void verbs_register_driver_34(const void *ops)
{
	ovb::log::debug("ignoring an rdma-core provider (ops %p): openverbs "
			"loads its own providers", ops);
}

OVB_EXPORT void __verbs_log(void *, uint32_t level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ovb::log::vwrite(level, fmt, ap);
	va_end(ap);
}

// rdma-core's RDMAV_ALLOW_DISASSOC_DESTROY switch (a bool object).
extern "C" {
__attribute__((visibility("default"))) bool verbs_allow_disassociate_destroy;
}
