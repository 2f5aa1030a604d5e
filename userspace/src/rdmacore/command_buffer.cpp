// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// execute_ioctl on rdma-core's struct ibv_command_buffer, for providers
// that send their own ioctl methods (mlx5 DEVX and DV, efa, mana, ...).
// The chained buffers' attributes are gathered behind the first buffer's
// (it was sized for them with __ioctl_final_num_attrs), a small UHW_IN
// still held by address goes inline, the call is sent as it is, and the
// attributes are handed back to the buffers they came from.  No write()
// fallback here: rdma-core's execute_ioctl has none either (its ibv_cmd_*
// do, through our command layer in this library).
#include <cerrno>
#include <cstring>
#include <sys/ioctl.h>

#include "../context.h"
#include "../export.h"
#include "../valgrind.h"

namespace ovb::rdmacore {

namespace {

ovb_ioctl_attr *attrs_of(CommandBuffer *b) { return b->hdr.attrs; }

// Appends every chained buffer's attributes to the first one's.
void gather(CommandBuffer *cmd)
{
	ovb_ioctl_attr *end = cmd->next_attr;
	for (CommandBuffer *b = cmd->next; b; b = b->next) {
		size_t n = static_cast<size_t>(b->next_attr - attrs_of(b));
		if (b->uhw_in_idx != kNoUhw)
			cmd->uhw_in_idx = static_cast<uint8_t>(
				b->uhw_in_idx + (end - attrs_of(cmd)));
		std::memcpy(end, attrs_of(b), n * sizeof(*end));
		end += n;
	}
	cmd->hdr.num_attrs = static_cast<uint16_t>(end - attrs_of(cmd));
	if (cmd->uhw_in_idx != kNoUhw) {
		ovb_ioctl_attr &uhw = attrs_of(cmd)[cmd->uhw_in_idx];
		if (uhw.len <= sizeof(uhw.data)) {
			uint64_t inline_data = 0;
			std::memcpy(&inline_data,
				    reinterpret_cast<const void *>(
					    static_cast<uintptr_t>(uhw.data)),
				    uhw.len);
			uhw.data = inline_data;
		}
	}
}

void mark_output(const ovb_ioctl_attr &a)
{
	if ((a.flags & OVB_ATTR_F_VALID_OUTPUT) && a.len)
		vg::kernel_wrote(reinterpret_cast<const void *>(
					 static_cast<uintptr_t>(a.data)),
				 a.len);
}

// The kernel's answers (fds, handles, output flags) back into the chained
// buffers' own copies.
void scatter(CommandBuffer *cmd)
{
	ovb_ioctl_attr *a = attrs_of(cmd);
	for (; a != cmd->next_attr; a++)
		mark_output(*a);
	for (CommandBuffer *b = cmd->next; b; b = b->next)
		for (ovb_ioctl_attr *own = attrs_of(b); own != b->next_attr;
		     own++, a++) {
			mark_output(*a);
			*own = *a;
		}
}

} // namespace

} // namespace ovb::rdmacore

using namespace ovb::rdmacore;

OVB_EXPORT unsigned int __ioctl_final_num_attrs(unsigned int num_attrs,
						CommandBuffer *link)
try {
	for (; link; link = link->next)
		num_attrs += static_cast<unsigned>(link->next_attr - link->hdr.attrs);
	return num_attrs;
} OVB_ABI_CATCH

OVB_EXPORT int execute_ioctl(ibv_context *ctx, CommandBuffer *cmd)
try {
	if (cmd->buffer_error) {
		errno = EINVAL;
		return EINVAL;
	}
	gather(cmd);
	cmd->hdr.length = static_cast<uint16_t>(
		sizeof(cmd->hdr) + cmd->hdr.num_attrs * sizeof(ovb_ioctl_attr));
	cmd->hdr.reserved1 = 0;
	cmd->hdr.reserved2 = 0;
	cmd->hdr.driver_id = ovb::priv(ctx)->driver_id;
	if (ioctl(ctx->cmd_fd, OVB_VERBS_IOCTL, &cmd->hdr))
		return errno;
	scatter(cmd);
	return 0;
} OVB_ABI_CATCH
