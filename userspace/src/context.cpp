// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Opening and closing a device: the command fd, the provider's context,
// the ioctl probe, GET_CONTEXT, installing the provider's ops.
#include "context.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/execute.h"
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

// rdma-core's rule: ENOTTY or EPROTONOSUPPORT to INVOKE_WRITE means
// write() only; anything else means the kernel serves the ioctl ABI.
bool probe_ioctl(int fd, uint32_t driver_id)
{
	alignas(8) unsigned char buf[sizeof(ib_uverbs_ioctl_hdr) +
				     sizeof(ib_uverbs_attr)] = {};
	auto *hdr = reinterpret_cast<ib_uverbs_ioctl_hdr *>(buf);
	auto *attr = reinterpret_cast<ib_uverbs_attr *>(buf + sizeof(*hdr));
	hdr->length = sizeof(buf);
	hdr->object_id = UVERBS_OBJECT_DEVICE;
	hdr->method_id = UVERBS_METHOD_INVOKE_WRITE;
	hdr->num_attrs = 1;
	hdr->driver_id = driver_id;
	attr->attr_id = UVERBS_ATTR_WRITE_CMD;
	attr->len = sizeof(uint64_t);
	attr->data = OVB_CMD_QUERY_DEVICE;
	int rc = ioctl(fd, RDMA_VERBS_IOCTL, buf) ? errno : 0;
	return rc != ENOTTY && rc != EPROTONOSUPPORT;
}

} // namespace

int core_init_context(verbs_context *vctx, ibv_device *dev, int cmd_fd)
{
	auto *p = static_cast<verbs_ex_private *>(calloc(1, sizeof(verbs_ex_private)));
	if (!p)
		return ENOMEM;
	Device *d = Device::from(dev);
	p->device = d;
	p->kernel_has_ioctl = probe_ioctl(cmd_fd, d->kernel().driver_id);
	log::debug("%s: kernel %s the ioctl ABI; using write()",
		   dev->name, p->kernel_has_ioctl ? "serves" : "lacks");
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

int core_get_context(ibv_context *ctx, ovb_udata *ud)
{
	ovb_get_context_req req{};
	ovb_get_context_resp resp{};
	int rc = cmd::execute(ctx->cmd_fd, cmd::spec<OVB_CMD_GET_CONTEXT>(),
			      req, &resp, ud);
	if (rc)
		return rc;
	ctx->async_fd = static_cast<int>(resp.async_fd);
	ctx->num_comp_vectors = static_cast<int>(resp.num_comp_vectors);
	return 0;
}

void core_uninit_context(verbs_context *vctx)
{
	ibv_context &ctx = vctx->context;
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	if (ctx.cmd_fd >= 0)
		close(ctx.cmd_fd);
	pthread_mutex_destroy(&ctx.mutex);
	free(vctx->priv);
	vctx->priv = nullptr;
}

} // namespace ovb

OVB_EXPORT ibv_context *ibv_open_device(ibv_device *device)
{
	ovb::Device *d = ovb::Device::from(device);
	int fd = ovb::open_cdev(d->kernel());
	if (fd < 0)
		return nullptr;
	verbs_context *vctx = d->provider()->alloc_context(device, fd);
	if (!vctx) {
		int saved = errno;
		close(fd);
		errno = saved ? saved : ENOMEM;
		return nullptr;
	}
	if (vctx->context.async_fd < 0) {
		// Only a kernel answering GET_CONTEXT through ioctl leaves it
		// unset; we never do that.
		ibv_close_device(&vctx->context);
		errno = EINVAL;
		return nullptr;
	}
	return &vctx->context;
}

OVB_EXPORT int ibv_close_device(ibv_context *ctx)
{
	auto free_context = ovb::ops(ctx).free_context;
	if (free_context)
		free_context(ctx);
	return 0;
}

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_close_device, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_open_device, "IBVERBS_1.1");
