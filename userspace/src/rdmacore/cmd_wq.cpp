// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_* for receive work queues and their RSS indirection
// tables.  As rdma-core 44 sends them: CREATE_WQ and the destroys by ioctl
// first (the extended write() commands as fallback), MODIFY_WQ and
// CREATE_RWQ_IND_TBL as extended write() commands.
#include <cerrno>
#include <vector>

#include "../cmd/execute.h"
#include "../cmd/methods.h"
#include "../cmd/transport.h"
#include "../core.h"
#include "../export.h"
#include "abi.h"
#include "udata.h"

namespace ovb::rdmacore {
int answer(int rc);	// cmd_context.cpp
int destroyed(int rc);
}

using namespace ovb;
using namespace ovb::rdmacore;

namespace {

int create_wq(ibv_context *ctx, ibv_wq_init_attr *attr, ibv_wq *wq,
	      uint32_t flags, ovb_udata *ud)
{
	ioctl::CreateWq a{};
	a.user_handle = reinterpret_cast<uintptr_t>(wq);
	a.pd = attr->pd->handle;
	a.cq = attr->cq->handle;
	a.type = attr->wq_type;
	a.max_wr = attr->max_wr;
	a.max_sge = attr->max_sge;
	a.event_fd = ctx->async_fd;
	a.flags = flags;
	int rc;
	if (cmd::try_ioctl<ioctl::kCreateWqM>(ctx, a, rc, ud)) {
		if (rc)
			return rc;
		wq->handle = a.handle;
		wq->wq_num = a.wq_num;
		attr->max_wr = a.resp_max_wr;
		attr->max_sge = a.resp_max_sge;
		return 0;
	}
	if (int refused = cmd::write_fallback_refused(ctx))
		return refused;
	ovb_ex_create_wq_req req{};
	ovb_ex_create_wq_resp resp{};
	req.user_handle = a.user_handle;
	req.pd_handle = a.pd;
	req.cq_handle = a.cq;
	req.max_wr = a.max_wr;
	req.max_sge = a.max_sge;
	req.wq_type = attr->wq_type;
	req.create_flags = attr->create_flags;
	rc = cmd::execute(ctx, cmd::spec<OVB_EX_CMD_CREATE_WQ,
					 cmd::Framing::extended>(),
			  req, &resp, ud);
	if (rc)
		return rc;
	wq->handle = resp.wq_handle;
	wq->wq_num = resp.wqn;
	attr->max_wr = resp.max_wr;
	attr->max_sge = resp.max_sge;
	return 0;
}

} // namespace

// cmd, resp: the provider's extended command and response (core parts
// first, its driver data after).
OVB_EXPORT int ibv_cmd_create_wq(ibv_context *ctx, ibv_wq_init_attr *attr,
				 ibv_wq *wq, void *cmd, size_t cmd_size,
				 ovb_ex_create_wq_resp *resp, size_t resp_size)
try {
	if (attr->comp_mask >= IBV_WQ_INIT_ATTR_RESERVED)
		return answer(EINVAL);
	wq->context = ctx;
	wq->cq = attr->cq;
	wq->pd = attr->pd;
	wq->wq_type = attr->wq_type;
	uint32_t flags = 0;
	if (attr->comp_mask & IBV_WQ_INIT_ATTR_FLAGS) {
		if (attr->create_flags & ~(IBV_WQ_FLAGS_RESERVED - 1))
			return answer(EOPNOTSUPP);
		flags = attr->create_flags;
	}
	ovb_udata ud = ex_udata<ovb_ex_create_wq_req, ovb_ex_create_wq_resp>(
		cmd, cmd_size, resp, resp_size);
	int rc = create_wq(ctx, attr, wq, flags, &ud);
	if (!rc) {
		ovb_ex_create_wq_resp core{};
		core.wq_handle = wq->handle;
		core.wqn = wq->wq_num;
		core.max_wr = attr->max_wr;
		core.max_sge = attr->max_sge;
		core.response_length = sizeof(core);
		put_core_resp(resp, resp_size, core);
	}
	return answer(rc);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_modify_wq(ibv_wq *wq, ibv_wq_attr *attr, void *cmd,
				 size_t cmd_size)
try {
	if (attr->attr_mask >= IBV_WQ_ATTR_RESERVED)
		return answer(EINVAL);
	ovb_ex_modify_wq_req req{};
	req.curr_wq_state = attr->curr_wq_state;
	req.wq_state = attr->wq_state;
	if (attr->attr_mask & IBV_WQ_ATTR_FLAGS) {
		if (attr->flags_mask & ~(IBV_WQ_FLAGS_RESERVED - 1))
			return answer(EOPNOTSUPP);
		req.flags = attr->flags;
		req.flags_mask = attr->flags_mask;
	}
	req.wq_handle = wq->handle;
	req.attr_mask = attr->attr_mask;
	ovb_udata ud = driver_udata(cmd, cmd_size, kExCmdHdr, sizeof(req),
				    nullptr, 0, 0);
	int rc = cmd::execute(wq->context, cmd::spec<OVB_EX_CMD_MODIFY_WQ,
						     cmd::Framing::extended>(),
			      req, nullptr, &ud);
	if (rc)
		return answer(rc);
	if (attr->attr_mask & IBV_WQ_ATTR_STATE)
		wq->state = attr->wq_state;
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_destroy_wq(ibv_wq *wq)
try {
	ioctl::DestroyWq a{};
	a.handle = wq->handle;
	int rc;
	if (!cmd::try_ioctl<ioctl::kDestroyWqM>(wq->context, a, rc)) {
		ovb_ex_destroy_wq_req req{};
		ovb_ex_destroy_wq_resp resp{};
		req.wq_handle = wq->handle;
		rc = cmd::execute(wq->context,
				  cmd::spec<OVB_EX_CMD_DESTROY_WQ,
					    cmd::Framing::extended>(),
				  req, &resp);
		a.events_reported = resp.events_reported;
	}
	// An error, or a destroy after a hot-unplug allowed to succeed: no
	// events will come to wait for.
	if (rc)
		return destroyed(rc);
	wait_for_acks(wq, [&] { return wq->events_completed == a.events_reported; });
	return 0;
} OVB_ABI_CATCH

// The table's request is its core part and the WQ handles, padded to 8
// bytes; the provider's response room may follow the core response.
OVB_EXPORT int ibv_cmd_create_rwq_ind_table(
	ibv_context *ctx, ibv_rwq_ind_table_init_attr *attr,
	ibv_rwq_ind_table *table, ovb_ex_create_rwq_ind_table_resp *resp,
	size_t resp_size)
try {
	if (attr->comp_mask >= IBV_CREATE_IND_TABLE_RESERVED)
		return answer(EINVAL);
	size_t entries = size_t{1} << attr->log_ind_tbl_size;
	size_t words = (sizeof(ovb_ex_create_rwq_ind_table_req) / 4 + entries + 1) / 2 * 2;
	std::vector<uint32_t> buf(words, 0);
	auto *req = reinterpret_cast<ovb_ex_create_rwq_ind_table_req *>(buf.data());
	req->log_ind_tbl_size = attr->log_ind_tbl_size;
	for (size_t i = 0; i < entries; i++)
		req->wq_handles[i] = attr->ind_tbl[i]->handle;
	ovb_udata ud = driver_udata(nullptr, 0, 0, 0, resp, resp_size,
				    sizeof(*resp));
	ovb_ex_create_rwq_ind_table_resp core{};
	int rc = cmd::execute(ctx, cmd::spec<OVB_EX_CMD_CREATE_RWQ_IND_TBL,
					     cmd::Framing::extended>(),
			      buf.data(), words * 4, &core, sizeof(core), &ud);
	if (rc)
		return answer(rc);
	if (resp)
		*resp = core;
	if (core.response_length < sizeof(core))
		return answer(EINVAL);
	table->ind_tbl_handle = static_cast<int>(core.ind_tbl_handle);
	table->ind_tbl_num = static_cast<int>(core.ind_tbl_num);
	table->context = ctx;
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_destroy_rwq_ind_table(ibv_rwq_ind_table *table)
try {
	ioctl::Handle a{static_cast<uint32_t>(table->ind_tbl_handle)};
	int rc;
	if (!cmd::try_ioctl<ioctl::kDestroyRwqIndTblM>(table->context, a, rc)) {
		ovb_ex_destroy_rwq_ind_table_req req{};
		req.ind_tbl_handle = static_cast<uint32_t>(table->ind_tbl_handle);
		rc = cmd::execute(table->context,
				  cmd::spec<OVB_EX_CMD_DESTROY_RWQ_IND_TBL,
					    cmd::Framing::extended>(),
				  req, nullptr);
	}
	return destroyed(rc);
} OVB_ABI_CATCH
