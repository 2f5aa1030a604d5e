// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_* for XRC domains and for opening an XRC target QP
// another process created: OPEN_XRCD and OPEN_QP as write() commands,
// CLOSE_XRCD by ioctl first, as rdma-core 44 sends them.  The library
// checks rdma-core makes before the kernel (comp_mask bits) answer the
// same errno.
#include <cerrno>
#include <cstring>

#include "../cmd/execute.h"
#include "../cmd/methods.h"
#include "../cmd/transport.h"
#include "../export.h"
#include "abi.h"
#include "udata.h"

namespace ovb::rdmacore {
int answer(int rc);	// cmd_context.cpp
int destroyed(int rc);
}

using namespace ovb;
using namespace ovb::rdmacore;

// vxrcd_size: how much of struct verbs_xrcd the provider's object has (a
// provider built before the handle existed leaves it out).
OVB_EXPORT int ibv_cmd_open_xrcd(ibv_context *ctx, VerbsXrcd *vxrcd,
				 int vxrcd_size, ibv_xrcd_init_attr *attr,
				 void *cmd, size_t cmd_size,
				 ovb_open_xrcd_resp *resp, size_t resp_size)
try {
	if (attr->comp_mask >= IBV_XRCD_INIT_ATTR_RESERVED)
		return answer(EOPNOTSUPP);
	constexpr uint32_t kNeeded = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
	if ((attr->comp_mask & kNeeded) != kNeeded)
		return answer(EINVAL);
	ovb_open_xrcd_req req{};
	req.fd = static_cast<uint32_t>(attr->fd);
	req.oflags = static_cast<uint32_t>(attr->oflags);
	ovb_udata ud = write_udata<ovb_open_xrcd_req, ovb_open_xrcd_resp>(
		cmd, cmd_size, resp, resp_size);
	ovb_open_xrcd_resp core{};
	int rc = cmd::execute(ctx, cmd::spec<OVB_CMD_OPEN_XRCD>(), req, &core,
			      &ud);
	if (rc)
		return answer(rc);
	vxrcd->xrcd.context = ctx;
	vxrcd->comp_mask = 0;
	if (static_cast<size_t>(vxrcd_size) >= offsetof(VerbsXrcd, handle) +
						       sizeof(vxrcd->handle)) {
		vxrcd->comp_mask = kVerbsXrcdHandle;
		vxrcd->handle = core.xrcd_handle;
	}
	put_core_resp(resp, resp_size, core);
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_close_xrcd(VerbsXrcd *vxrcd)
try {
	ibv_context *ctx = vxrcd->xrcd.context;
	ioctl::Handle a{vxrcd->handle};
	int rc;
	if (!cmd::try_ioctl<ioctl::kCloseXrcdM>(ctx, a, rc))
		rc = cmd::execute(ctx, cmd::spec<OVB_CMD_CLOSE_XRCD>(),
				  ovb_close_xrcd_req{.xrcd_handle = vxrcd->handle},
				  nullptr);
	return destroyed(rc);
} OVB_ABI_CATCH

// The QP another process made on a shared XRC domain, by number.
OVB_EXPORT int ibv_cmd_open_qp(ibv_context *ctx, VerbsQp *vqp, int vqp_size,
			       ibv_qp_open_attr *attr, void *cmd,
			       size_t cmd_size, ovb_create_qp_resp *resp,
			       size_t resp_size)
try {
	if (attr->comp_mask >= IBV_QP_OPEN_ATTR_RESERVED)
		return answer(EOPNOTSUPP);
	constexpr uint32_t kNeeded = IBV_QP_OPEN_ATTR_XRCD |
				     IBV_QP_OPEN_ATTR_NUM |
				     IBV_QP_OPEN_ATTR_TYPE;
	if ((attr->comp_mask & kNeeded) != kNeeded)
		return answer(EINVAL);
	auto *vxrcd = reinterpret_cast<VerbsXrcd *>(attr->xrcd);
	ibv_qp &qp = vqp->qp;
	ovb_open_qp_req req{};
	req.user_handle = reinterpret_cast<uintptr_t>(vqp);
	req.pd_handle = vxrcd->handle;
	req.qpn = attr->qp_num;
	req.qp_type = static_cast<uint8_t>(attr->qp_type);
	ovb_udata ud = write_udata<ovb_open_qp_req, ovb_create_qp_resp>(
		cmd, cmd_size, resp, resp_size);
	ovb_create_qp_resp core{};
	int rc = cmd::execute(ctx, cmd::spec<OVB_CMD_OPEN_QP>(), req, &core,
			      &ud);
	if (rc)
		return answer(rc);
	if (resp)
		std::memcpy(resp, &core,
			    resp_size < sizeof(core) ? resp_size : sizeof(core));
	qp.handle = core.qp_handle;
	qp.context = ctx;
	qp.qp_context = attr->qp_context;
	qp.pd = nullptr;
	qp.send_cq = nullptr;
	qp.recv_cq = nullptr;
	qp.srq = nullptr;
	qp.qp_num = attr->qp_num;
	qp.qp_type = attr->qp_type;
	qp.state = IBV_QPS_UNKNOWN;
	qp.events_completed = 0;
	pthread_mutex_init(&qp.mutex, nullptr);
	pthread_cond_init(&qp.cond, nullptr);
	vqp->comp_mask = 0;
	if (static_cast<size_t>(vqp_size) >= offsetof(VerbsQp, xrcd) +
						     sizeof(vqp->xrcd)) {
		vqp->comp_mask = kVerbsQpXrcd;
		vqp->xrcd = vxrcd;
	}
	return 0;
} OVB_ABI_CATCH
