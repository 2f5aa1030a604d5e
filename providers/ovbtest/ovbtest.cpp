// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The provider of ovbtest, the test HCA (selftests/ovbtest/): the smallest
// complete provider, and the worked example of the vendor guide.  It opens
// contexts (checking the driver's GET_CONTEXT response) and serves CQs
// through the library's command helpers, with the driver's udata; PDs, MRs
// and MWs are the library's plain ones.  QPs, SRQs and AHs are plain core
// objects whose work requests go through the kernel, as on rdmavt's
// devices (hfi1, qib): the driver records them (ovbtestdv_last_post) and
// nothing completes; polling asks the kernel.  The device's real work is
// the driver-defined COPY method, which applications call through
// ovbtestdv.h.
#include <cerrno>
#include <cstdio>
#include <new>

#include <openverbs/ovbtest-abi.h>
#include <openverbs/provider.h>

namespace ovbtest {

namespace {

const ovb_core *core;

struct Context {
	verbs_context vctx;	// first: the library's part
	ovbtest_alloc_ucontext_resp uctx;
};

template <class T>
T *fail(T *obj, int rc)
{
	delete obj;
	errno = rc;
	return nullptr;
}

int query_device_ex(ibv_context *ctx, const ibv_query_device_ex_input *,
		    ibv_device_attr_ex *attr, size_t attr_size)
{
	uint64_t fw;
	int rc = core->query_device_ex(ctx, attr, attr_size, &fw);
	if (!rc)
		std::snprintf(attr->orig_attr.fw_ver,
			      sizeof(attr->orig_attr.fw_ver), "%llu",
			      static_cast<unsigned long long>(fw));
	return rc;
}

int query_port(ibv_context *ctx, uint8_t port, ibv_port_attr *attr,
	       size_t attr_size)
{
	return core->query_port(ctx, port, attr, attr_size);
}

// The driver answers every CQ creation with what it allocated.
ibv_cq *create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *channel,
		  int vector)
{
	ovbtest_create_cq_resp resp{};
	ovb_udata ud{nullptr, 0, &resp, sizeof(resp)};
	auto *cq = new (std::nothrow) ibv_cq{};
	if (!cq)
		return fail(cq, ENOMEM);
	if (int rc = core->create_cq(ctx, cqe, channel, vector, cq, &ud))
		return fail(cq, rc);
	if (resp.cqe != static_cast<uint32_t>(cqe)) {
		core->destroy_cq(cq);
		return fail(cq, EPROTO);
	}
	return cq;
}

// The kernel's POLL_CQ (nothing ever completes on an ovbtest CQ).
int poll_cq(ibv_cq *cq, int ne, ibv_wc *wc)
{
	return core->poll_cq(cq, ne, wc);
}

int destroy_cq(ibv_cq *cq)
{
	int rc = core->destroy_cq(cq);
	if (!rc)
		delete cq;
	return rc;
}

// Plain core objects: no driver data either way.
ibv_qp *create_qp(ibv_pd *pd, ibv_qp_init_attr *attr)
{
	auto *qp = new (std::nothrow) ibv_qp{};
	if (!qp)
		return fail(qp, ENOMEM);
	if (int rc = core->create_qp(pd, qp, attr, nullptr))
		return fail(qp, rc);
	return qp;
}

int destroy_qp(ibv_qp *qp)
{
	int rc = core->destroy_qp(qp);
	if (!rc)
		delete qp;
	return rc;
}

ibv_srq *create_srq(ibv_pd *pd, ibv_srq_init_attr *attr)
{
	auto *srq = new (std::nothrow) ibv_srq{};
	uint32_t srq_num;
	if (!srq)
		return fail(srq, ENOMEM);
	if (int rc = core->create_srq(pd, srq, attr, &srq_num, nullptr))
		return fail(srq, rc);
	return srq;
}

int destroy_srq(ibv_srq *srq)
{
	int rc = core->destroy_srq(srq);
	if (!rc)
		delete srq;
	return rc;
}

ibv_ah *create_ah(ibv_pd *pd, ibv_ah_attr *attr)
{
	auto *ah = new (std::nothrow) ibv_ah{};
	if (!ah)
		return fail(ah, ENOMEM);
	if (int rc = core->create_ah(pd, ah, attr, nullptr))
		return fail(ah, rc);
	return ah;
}

int destroy_ah(ibv_ah *ah)
{
	int rc = core->destroy_ah(ah);
	if (!rc)
		delete ah;
	return rc;
}

void free_context(ibv_context *ibctx)
{
	auto *ctx = reinterpret_cast<Context *>(verbs_get_ctx(ibctx));
	core->close_context(&ctx->vctx);
	delete ctx;
}

// Only what the device has; PD/MR/MW left to the library, the other ops
// left NULL answer EOPNOTSUPP.  Built at load, after core is set (the
// kernel paths are the library's own functions).
ovb_context_ops make_ops()
{
	ovb_context_ops ops{};
	ops.query_device_ex = query_device_ex;
	ops.query_port = query_port;
	ops.create_cq = create_cq;
	ops.poll_cq = poll_cq;
	ops.req_notify_cq = core->req_notify_cq;	// the kernel's, as rdmavt's
	ops.destroy_cq = destroy_cq;
	ops.create_qp = create_qp;
	ops.query_qp = core->query_qp;
	ops.modify_qp = core->modify_qp;
	ops.destroy_qp = destroy_qp;
	ops.post_send = core->post_send;
	ops.post_recv = core->post_recv;
	ops.create_srq = create_srq;
	ops.destroy_srq = destroy_srq;
	ops.post_srq_recv = core->post_srq_recv;
	ops.create_ah = create_ah;
	ops.destroy_ah = destroy_ah;
	ops.free_context = free_context;
	return ops;
}

ovb_context_ops ops_table;

// GET_CONTEXT's driver response must carry the driver's magic.
int check_response(verbs_context *vctx)
{
	auto *ctx = reinterpret_cast<Context *>(vctx);
	return ctx->uctx.magic == OVBTEST_MAGIC ? 0 : EPROTO;
}

verbs_context *alloc_context(ibv_device *dev, int cmd_fd)
{
	auto *ctx = new (std::nothrow) Context{};
	if (!ctx) {
		errno = ENOMEM;
		return nullptr;
	}
	ovb_udata ud{nullptr, 0, &ctx->uctx, sizeof(ctx->uctx)};
	if (int rc = core->open_context(&ctx->vctx, dev, cmd_fd, &ud,
					check_response, &ops_table)) {
		delete ctx;
		errno = rc;
		return nullptr;
	}
	return &ctx->vctx;
}

// Driver id 0 (OVB_DRIVER_UNKNOWN) says nothing: match by name.
constexpr ovb_match kMatch[] = {
	{OVB_MATCH_NAME_PREFIX, 0, OVBTEST_DEVICE_PREFIX},
	{OVB_MATCH_END, 0, nullptr},
};

const ovb_provider kProvider = {
	.abi_version = OVB_PROVIDER_ABI_VERSION,
	.name = "ovbtest",
	.min_abi = OVBTEST_UVERBS_ABI_VERSION,
	.max_abi = OVBTEST_UVERBS_ABI_VERSION,
	.match = kMatch,
	.alloc_context = alloc_context,
};

} // namespace

} // namespace ovbtest

extern "C" __attribute__((visibility("default")))
const ovb_provider *OVB_PROVIDER_ENTRY(const ovb_core *core)
{
	if (!core || core->abi_version != OVB_PROVIDER_ABI_VERSION)
		return nullptr;
	ovbtest::core = core;
	ovbtest::ops_table = ovbtest::make_ops();
	return &ovbtest::kProvider;
}
