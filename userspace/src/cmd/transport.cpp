// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "transport.h"

#include <openverbs/uverbs-abi.h>

#include "../log.h"
#include "../valgrind.h"

namespace ovb::cmd {

namespace {

int send(int fd, ioctl::Frame &f)
{
	return ::ioctl(fd, OVB_VERBS_IOCTL, f.bytes) ? errno : 0;
}

} // namespace

void mark_written_attrs(const ioctl::Frame &f)
{
	for (unsigned i = 0; i < f.hdr().num_attrs; i++) {
		const ovb_ioctl_attr &a = f.attrs()[i];
		if ((a.flags & OVB_ATTR_F_VALID_OUTPUT) && a.len)
			vg::kernel_wrote(reinterpret_cast<void *>(a.data), a.len);
	}
}

bool decided(ibv_context *ctx, const ioctl::Method &m, int rc)
{
	uint32_t *unsupported = &priv(ctx)->unsupported;
	if (rc == ENOTTY) {
		__atomic_store_n(unsupported, ~0u, __ATOMIC_RELAXED);
		log::debug("ioctl %s: ENOTTY, write() from now on", m.name);
		return false;
	}
	if (rc == EPROTONOSUPPORT) {
		__atomic_fetch_or(unsupported, 1u << m.bit, __ATOMIC_RELAXED);
		log::debug("ioctl %s: EPROTONOSUPPORT, write() for it", m.name);
		return false;
	}
	return true;
}

int ioctl_only(ibv_context *ctx, const ioctl::Method &m, void *args)
{
	ioctl::Frame f;
	ioctl::encode(m, args, nullptr, priv(ctx)->driver_id, f);
	int rc = send(ctx->cmd_fd, f);
	if (rc)
		return rc;
	mark_written(f);
	ioctl::decode(m, args, f);
	return 0;
}

bool probe_invoke_write(int fd, uint32_t driver_id)
{
	ioctl::Frame f;
	ioctl::encode_write(OVB_CMD_QUERY_DEVICE, nullptr, 0, nullptr, 0,
			    nullptr, driver_id, f);
	int rc = send(fd, f);
	return rc != ENOTTY && rc != EPROTONOSUPPORT;
}

} // namespace ovb::cmd
