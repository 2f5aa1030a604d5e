// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Importing another process's context and objects (ibv_import_*): provider
// ops, as in libibverbs.  Only rdma-core's providers can have them (mlx5
// does; rdma-core 44's rxe and our providers do not): without the op the
// import answers EOPNOTSUPP and an unimport does nothing.
#include <cerrno>
#include <sys/stat.h>

#include <infiniband/verbs.h>

#include "context.h"
#include "device.h"
#include "export.h"

namespace {

using ovb::rdmacore::ContextOps;

// The op of the context's rdma-core provider, or nullptr.
template <class Op>
Op rc_op(ibv_context *ctx, Op ContextOps::*member)
{
	const ContextOps *rc = ovb::rdmacore_ops(ctx);
	return rc ? rc->*member : nullptr;
}

template <class R, class Op, class... A>
R import(ibv_context *ctx, Op ContextOps::*member, A... args)
{
	Op op = rc_op(ctx, member);
	if (!op) {
		errno = EOPNOTSUPP;
		return nullptr;
	}
	return op(args...);
}

// The device whose command node is rdev, from a fresh list.
ovb::Device *device_of(ibv_device **list, dev_t rdev)
{
	for (ibv_device **d = list; *d; d++) {
		ovb::Device *dev = ovb::Device::from(*d);
		if (dev->kernel().devnum == rdev)
			return dev;
	}
	return nullptr;
}

} // namespace

// The command fd names the device (by its node); the device's provider
// makes the context on it (its import_context), the library adds the
// async event fd.
OVB_EXPORT ibv_context *ibv_import_device(int cmd_fd)
try {
	struct stat st;
	if (fstat(cmd_fd, &st) || !S_ISCHR(st.st_mode)) {
		errno = EINVAL;
		return nullptr;
	}
	ibv_device **list = ibv_get_device_list(nullptr);
	if (!list) {
		errno = ENODEV;
		return nullptr;
	}
	ibv_context *ctx = nullptr;
	ovb::Device *dev = device_of(list, st.st_rdev);
	ovb::rdmacore::VerbsDevice *v = dev ? dev->rdmacore() : nullptr;
	if (!dev) {
		errno = ENODEV;
	} else if (!v || !v->ops->import_context) {
		errno = EOPNOTSUPP;
	} else if (verbs_context *vctx = v->ops->import_context(dev->ibv(),
								 cmd_fd)) {
		vctx->priv->imported = true;
		ctx = ovb::finish_context(vctx);
	}
	ibv_free_device_list(list);
	return ctx;
} OVB_ABI_CATCH

OVB_EXPORT ibv_pd *ibv_import_pd(ibv_context *ctx, uint32_t handle)
try {
	return import<ibv_pd *>(ctx, &ContextOps::import_pd, ctx, handle);
} OVB_ABI_CATCH

OVB_EXPORT ibv_mr *ibv_import_mr(ibv_pd *pd, uint32_t handle)
try {
	return import<ibv_mr *>(pd->context, &ContextOps::import_mr, pd, handle);
} OVB_ABI_CATCH

OVB_EXPORT ibv_dm *ibv_import_dm(ibv_context *ctx, uint32_t handle)
try {
	return import<ibv_dm *>(ctx, &ContextOps::import_dm, ctx, handle);
} OVB_ABI_CATCH

OVB_EXPORT void ibv_unimport_pd(ibv_pd *pd)
try {
	if (auto op = rc_op(pd->context, &ContextOps::unimport_pd))
		op(pd);
} OVB_ABI_CATCH_VOID

OVB_EXPORT void ibv_unimport_mr(ibv_mr *mr)
try {
	if (auto op = rc_op(mr->context, &ContextOps::unimport_mr))
		op(mr);
} OVB_ABI_CATCH_VOID

OVB_EXPORT void ibv_unimport_dm(ibv_dm *dm)
try {
	if (auto op = rc_op(dm->context, &ContextOps::unimport_dm))
		op(dm);
} OVB_ABI_CATCH_VOID
