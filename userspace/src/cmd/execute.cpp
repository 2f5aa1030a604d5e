// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "execute.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <sys/ioctl.h>
#include <unistd.h>

#include <openverbs/ioctl-abi.h>

#include "../context.h"
#include "../log.h"
#include "../valgrind.h"
#include "encode.h"
#include "ioctl.h"

namespace ovb::cmd {

namespace {

// Frames up to this size are built on the stack (every core command and
// the rxe provider's udata fit; larger ones go to the heap).
constexpr size_t kStackFrame = 256;

int fail(const Spec &spec, int err)
{
	log::debug("cmd %s: %s", spec.name, strerror(err));
	return err;
}

// INVOKE_WRITE: core request, core response and udata each travel by
// address, so nothing is copied and no contiguous response room is needed.
int invoke_write(ibv_context *ctx, const Spec &spec, const void *req,
		 size_t req_len, void *resp, size_t resp_len,
		 const ovb_udata *ud)
{
	uint32_t command = spec.id;
	if (spec.framing == Framing::extended)
		command |= OVB_CMD_FLAG_EXTENDED;
	if (resp_len)
		std::memset(resp, 0, resp_len);
	if (ud && ud->out_len)
		std::memset(ud->out, 0, ud->out_len);
	ioctl::Frame f;
	ioctl::encode_write(command, req, req_len, resp, resp_len, ud,
			    priv(ctx)->driver_id, f);
	if (::ioctl(ctx->cmd_fd, OVB_VERBS_IOCTL, &f.hdr()))
		return fail(spec, errno);
	vg::kernel_wrote(resp, resp_len);
	if (ud && ud->out_len)
		vg::kernel_wrote(ud->out, ud->out_len);
	return 0;
}

} // namespace

int execute_write(int fd, const Spec &spec, const void *req, size_t req_len,
		  void *resp, size_t resp_len, const ovb_udata *ud)
{
	size_t drv_out = ud ? ud->out_len : 0;
	// The kernel writes core and driver response contiguously: straight
	// into resp when there is no driver part, else into scratch room.
	alignas(8) std::byte room_stack[kStackFrame];
	std::unique_ptr<std::byte[]> room_heap;
	std::byte *room = static_cast<std::byte *>(resp);
	if (drv_out) {
		room = room_stack;
		if (resp_len + drv_out > sizeof(room_stack)) {
			room_heap.reset(new std::byte[resp_len + drv_out]);
			room = room_heap.get();
		}
	}
	if (resp_len + drv_out)
		std::memset(room, 0, resp_len + drv_out);
	Message m{
		.req = {static_cast<const std::byte *>(req), req_len},
		.drv_in = ud && ud->in_len
			? std::span<const std::byte>(
				  static_cast<const std::byte *>(ud->in), ud->in_len)
			: std::span<const std::byte>(),
		.resp_addr = reinterpret_cast<uintptr_t>(room),
		.resp_len = resp_len,
		.drv_out_len = drv_out,
	};
	size_t len = frame_size(spec, m);
	if (!len) {
		log::debug("cmd %s: cannot frame %zu+%zu bytes", spec.name,
			   req_len, m.drv_in.size());
		return EINVAL;
	}
	alignas(8) std::byte frame_stack[kStackFrame];
	std::unique_ptr<std::byte[]> frame_heap;
	std::byte *frame = frame_stack;
	if (len > sizeof(frame_stack)) {
		frame_heap.reset(new std::byte[len]);
		frame = frame_heap.get();
	}
	encode(spec, m, {frame, len});

	ssize_t n = write(fd, frame, len);
	if (n != static_cast<ssize_t>(len))
		return fail(spec, n < 0 ? errno : EIO);
	vg::kernel_wrote(room, resp_len + drv_out);
	if (drv_out) {
		std::memcpy(resp, room, resp_len);
		std::memcpy(ud->out, room + resp_len, drv_out);
	}
	return 0;
}

int execute(ibv_context *ctx, const Spec &spec, const void *req,
	    size_t req_len, void *resp, size_t resp_len, const ovb_udata *ud)
{
	if (priv(ctx)->write_via_ioctl)
		return invoke_write(ctx, spec, req, req_len, resp, resp_len, ud);
	return execute_write(ctx->cmd_fd, spec, req, req_len, resp, resp_len, ud);
}

} // namespace ovb::cmd
