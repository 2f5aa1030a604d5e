// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Opening and closing a device: the command fd, the provider's context,
// the ioctl probe, GET_CONTEXT, installing the provider's ops.
#include "context.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/execute.h"
#include "cmd/methods.h"
#include "cmd/transport.h"
#include "core.h"
#include "device.h"
#include "export.h"
#include "log.h"

namespace ovb {

namespace {

// Opens /dev/infiniband/<uverbsN> and checks it is the device sysfs named.
int open_cdev(const KernelDevice &k)
{
	std::string path = "/dev/infiniband/" + k.sysfs_name;
	int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) || !S_ISCHR(st.st_mode) ||
	    (k.devnum && st.st_rdev != k.devnum)) {
		close(fd);
		errno = ENODEV;
		return -1;
	}
	return fd;
}

} // namespace

// The library's part of a new context.
int init_context(verbs_context *vctx, ibv_device *dev, int cmd_fd)
{
	auto *p = static_cast<verbs_ex_private *>(calloc(1, sizeof(verbs_ex_private)));
	if (!p)
		return ENOMEM;
	Device *d = Device::from(dev);
	d->hold();	// until core_close_context, as rdma-core's contexts
	p->device = d;
	p->driver_id = d->kernel().driver_id;
	p->write_via_ioctl = cmd::probe_invoke_write(cmd_fd, p->driver_id);
	log::debug("%s: write commands through %s", dev->name,
		   p->write_via_ioctl ? "ioctl INVOKE_WRITE" : "write()");
	vctx->priv = p;
	vctx->sz = sizeof(*vctx);
	ibv_context &ctx = vctx->context;
	ctx.device = dev;
	ctx.cmd_fd = cmd_fd;
	ctx.async_fd = -1;
	ctx.abi_compat = __VERBS_ABI_IS_EXTENDED;
	pthread_mutex_init(&ctx.mutex, nullptr);
	return 0;
}

// GET_CONTEXT by ioctl first (the async event fd then comes from
// ASYNC_EVENT_ALLOC at open), by write() on a kernel without it.
int get_context(ibv_context *ctx, ovb_udata *ud)
{
	ioctl::GetContext args{};
	int rc;
	if (cmd::try_ioctl<ioctl::kGetContextM>(ctx, args, rc, ud)) {
		if (rc)
			return rc;
		ctx->num_comp_vectors = static_cast<int>(args.num_comp_vectors);
		priv(ctx)->core_support = args.core_support;
		// rdma-core keeps it in the verbs_device, where its
		// providers read it.
		if (rdmacore::VerbsDevice *v = priv(ctx)->device->rdmacore())
			v->core_support = args.core_support;
		return 0;
	}
	ovb_get_context_req req{};
	ovb_get_context_resp resp{};
	rc = cmd::execute(ctx, cmd::spec<OVB_CMD_GET_CONTEXT>(), req, &resp,
			  ud);
	if (rc)
		return rc;
	ctx->async_fd = static_cast<int>(resp.async_fd);
	ctx->num_comp_vectors = static_cast<int>(resp.num_comp_vectors);
	return 0;
}

int core_open_context(verbs_context *vctx, ibv_device *dev, int cmd_fd,
		      ovb_udata *ud, int (*check)(verbs_context *),
		      const ovb_context_ops *ops)
{
	int rc = init_context(vctx, dev, cmd_fd);
	if (rc)
		return rc;
	rc = get_context(&vctx->context, ud);
	if (!rc && check)
		rc = check(vctx);
	if (rc) {
		vctx->context.cmd_fd = -1;	// ibv_open_device() closes it
		core_close_context(vctx);
		return rc;
	}
	install_ops(&vctx->context, ops);
	return 0;
}

void core_close_context(verbs_context *vctx)
{
	ibv_context &ctx = vctx->context;
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	if (ctx.cmd_fd >= 0)
		close(ctx.cmd_fd);
	pthread_mutex_destroy(&ctx.mutex);
	Device *d = vctx->priv->device;
	free(vctx->priv);
	vctx->priv = nullptr;
	d->put();
}

// Our providers leave cmd_fd to us on failure; rdma-core's close it
// themselves (its alloc_context owns the fd).
ibv_context *open_device(ibv_device *device, void *private_data)
{
	Device *d = Device::from(device);
	int fd = open_cdev(d->kernel());
	if (fd < 0)
		return nullptr;
	verbs_context *vctx;
	if (rdmacore::VerbsDevice *v = d->rdmacore()) {
		vctx = v->ops->alloc_context(device, fd, private_data);
		if (!vctx)
			return nullptr;
	} else {
		vctx = d->provider()->alloc_context(device, fd);
		if (!vctx) {
			int saved = errno;
			close(fd);
			errno = saved ? saved : ENOMEM;
			return nullptr;
		}
	}
	return finish_context(vctx);
}

ibv_context *finish_context(verbs_context *vctx)
{
	if (vctx->context.async_fd < 0) {
		// GET_CONTEXT went by ioctl: the async event fd is a method of
		// its own, with no write() twin (as rdma-core).
		ioctl::AsyncAlloc args{};
		int rc = cmd::ioctl_only(&vctx->context, ioctl::kAsyncAllocM,
					 &args);
		if (rc) {
			ibv_close_device(&vctx->context);
			errno = rc;
			return nullptr;
		}
		vctx->context.async_fd = args.fd;
	}
	return &vctx->context;
}

} // namespace ovb

OVB_EXPORT ibv_context *ibv_open_device(ibv_device *device)
try {
	return ovb::open_device(device, nullptr);
} OVB_ABI_CATCH

OVB_EXPORT ibv_context *verbs_open_device(ibv_device *device, void *private_data)
try {
	return ovb::open_device(device, private_data);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_close_device(ibv_context *ctx)
try {
	auto free_context = ovb::ops(ctx).free_context;
	if (free_context)
		free_context(ctx);
	return 0;
} OVB_ABI_CATCH

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_close_device, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_open_device, "IBVERBS_1.1");
