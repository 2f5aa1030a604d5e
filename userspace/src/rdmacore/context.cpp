// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// An rdma-core provider's context under our library.  Its alloc_context
// calls _verbs_init_and_alloc_context (our part of the context), GET_CONTEXT
// through ibv_cmd_get_context, then verbs_set_ops: the ops it gives are
// merged (later non-NULL members win, as rdma-core) and turned into the
// ovb_context_ops our entry points dispatch through; the members only
// rdma-core's ops have go straight into verbs_context, where the inline
// functions of <infiniband/verbs.h> find them.
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include "../context.h"
#include "../device.h"
#include "../export.h"
#include "../objects.h"
#include "../core.h"

namespace ovb::rdmacore {

namespace {

// rdma-core's query_port has no size: it fills a whole ibv_port_attr.
int query_port_sized(ibv_context *ctx, uint8_t port, ibv_port_attr *attr,
		     size_t attr_size)
{
	ibv_port_attr full{};
	int rc = priv(ctx)->rc_ops.query_port(ctx, port, &full);
	if (rc)
		return rc;
	std::memcpy(attr, &full, attr_size < sizeof(full) ? attr_size : sizeof(full));
	return 0;
}

// The provider's ops that our ovb_context_ops has a member for.  dereg_mr
// takes a verbs_mr, whose head is the ibv_mr our entry point passes.
ovb_context_ops to_ovb_ops(const ContextOps &rc)
{
	ovb_context_ops o{};
	o.query_device_ex = rc.query_device_ex;
	o.query_port = rc.query_port ? query_port_sized : nullptr;
	o.alloc_pd = rc.alloc_pd;
	o.dealloc_pd = rc.dealloc_pd;
	o.reg_mr = rc.reg_mr;
	o.dereg_mr = reinterpret_cast<int (*)(ibv_mr *)>(rc.dereg_mr);
	o.alloc_mw = rc.alloc_mw;
	o.dealloc_mw = rc.dealloc_mw;
	o.bind_mw = rc.bind_mw;
	o.create_cq = rc.create_cq;
	o.create_cq_ex = rc.create_cq_ex;
	o.poll_cq = rc.poll_cq;
	o.req_notify_cq = rc.req_notify_cq;
	o.resize_cq = rc.resize_cq;
	o.destroy_cq = rc.destroy_cq;
	o.create_srq = rc.create_srq;
	o.modify_srq = rc.modify_srq;
	o.query_srq = rc.query_srq;
	o.destroy_srq = rc.destroy_srq;
	o.post_srq_recv = rc.post_srq_recv;
	o.create_qp = rc.create_qp;
	o.create_qp_ex = rc.create_qp_ex;
	o.query_qp = rc.query_qp;
	o.modify_qp = rc.modify_qp;
	o.destroy_qp = rc.destroy_qp;
	o.post_send = rc.post_send;
	o.post_recv = rc.post_recv;
	o.create_ah = rc.create_ah;
	o.destroy_ah = rc.destroy_ah;
	o.attach_mcast = rc.attach_mcast;
	o.detach_mcast = rc.detach_mcast;
	o.free_context = rc.free_context;
	return o;
}

// Members of verbs_context the inline verbs call directly.
void set_extensions(verbs_context *v, const ContextOps &rc)
{
#define OVB_DIRECT(member, op)	\
	if (rc.op)		\
		v->member = rc.op
	OVB_DIRECT(advise_mr, advise_mr);
	OVB_DIRECT(alloc_dm, alloc_dm);
	OVB_DIRECT(alloc_null_mr, alloc_null_mr);
	OVB_DIRECT(alloc_parent_domain, alloc_parent_domain);
	OVB_DIRECT(alloc_td, alloc_td);
	OVB_DIRECT(attach_counters_point_flow, attach_counters_point_flow);
	OVB_DIRECT(close_xrcd, close_xrcd);
	OVB_DIRECT(create_counters, create_counters);
	OVB_DIRECT(ibv_create_flow, create_flow);
	OVB_DIRECT(create_flow_action_esp, create_flow_action_esp);
	OVB_DIRECT(create_rwq_ind_table, create_rwq_ind_table);
	OVB_DIRECT(create_srq_ex, create_srq_ex);
	OVB_DIRECT(create_wq, create_wq);
	OVB_DIRECT(dealloc_td, dealloc_td);
	OVB_DIRECT(destroy_counters, destroy_counters);
	OVB_DIRECT(ibv_destroy_flow, destroy_flow);
	OVB_DIRECT(destroy_flow_action, destroy_flow_action);
	OVB_DIRECT(destroy_rwq_ind_table, destroy_rwq_ind_table);
	OVB_DIRECT(destroy_wq, destroy_wq);
	OVB_DIRECT(free_dm, free_dm);
	OVB_DIRECT(get_srq_num, get_srq_num);
	OVB_DIRECT(modify_cq, modify_cq);
	OVB_DIRECT(modify_flow_action_esp, modify_flow_action_esp);
	OVB_DIRECT(modify_qp_rate_limit, modify_qp_rate_limit);
	OVB_DIRECT(modify_wq, modify_wq);
	OVB_DIRECT(open_qp, open_qp);
	OVB_DIRECT(open_xrcd, open_xrcd);
	OVB_DIRECT(post_srq_ops, post_srq_ops);
	OVB_DIRECT(query_rt_values, query_rt_values);
	OVB_DIRECT(read_counters, read_counters);
	OVB_DIRECT(reg_dm_mr, reg_dm_mr);
#undef OVB_DIRECT
	// Applications built against libibverbs 1.1.8 look for flow steering
	// in the placeholders.
	v->ABI_placeholder1 = reinterpret_cast<void (*)()>(v->ibv_create_flow);
	v->ABI_placeholder2 = reinterpret_cast<void (*)()>(v->ibv_destroy_flow);
}

// Merges the non-NULL members of `from` into `into`: every member is a
// function pointer, so the structs are walked as arrays of them.
void merge(ContextOps &into, const ContextOps &from)
{
	using Fn = void (*)();
	constexpr size_t n = sizeof(ContextOps) / sizeof(Fn);
	static_assert(sizeof(ContextOps) % sizeof(Fn) == 0);
	Fn dst[n], src[n];
	std::memcpy(dst, &into, sizeof(dst));
	std::memcpy(src, &from, sizeof(src));
	for (size_t i = 0; i < n; i++)
		if (src[i])
			dst[i] = src[i];
	std::memcpy(&into, dst, sizeof(dst));
}

} // namespace

} // namespace ovb::rdmacore

using namespace ovb::rdmacore;

const ContextOps *ovb::rdmacore_ops(ibv_context *ctx)
{
	verbs_ex_private *p = priv(ctx);
	return p->device->rdmacore() ? &p->rc_ops : nullptr;
}

OVB_EXPORT void *_verbs_init_and_alloc_context(ibv_device *device, int cmd_fd,
					       size_t alloc_size,
					       verbs_context *context_offset,
					       uint32_t driver_id)
try {
	void *drv = calloc(1, alloc_size);
	if (!drv) {
		close(cmd_fd);
		errno = ENOMEM;
		return nullptr;
	}
	auto *vctx = reinterpret_cast<verbs_context *>(
		static_cast<char *>(drv) + reinterpret_cast<uintptr_t>(context_offset));
	int rc = ovb::init_context(vctx, device, cmd_fd);
	if (rc) {
		close(cmd_fd);
		free(drv);
		errno = rc;
		return nullptr;
	}
	ovb::priv(&vctx->context)->driver_id = driver_id;
	// Until verbs_set_ops, every op answers EOPNOTSUPP.
	ovb_context_ops none{};
	ovb::install_ops(&vctx->context, &none, false);
	return drv;
} OVB_ABI_CATCH

OVB_EXPORT void verbs_set_ops(verbs_context *vctx, const ContextOps *ops)
try {
	verbs_ex_private *p = vctx->priv;
	merge(p->rc_ops, *ops);
	ovb_context_ops o = to_ovb_ops(p->rc_ops);
	ovb::install_ops(&vctx->context, &o, false);
	set_extensions(vctx, p->rc_ops);
} OVB_ABI_CATCH_VOID

OVB_EXPORT void verbs_uninit_context(verbs_context *vctx)
try {
	ovb::core_close_context(vctx);
} OVB_ABI_CATCH_VOID

OVB_EXPORT void verbs_init_cq(ibv_cq *cq, ibv_context *ctx,
			      ibv_comp_channel *channel, void *cq_context)
try {
	ovb::init_cq_fields(cq, ctx, channel, cq_context);
} OVB_ABI_CATCH_VOID
