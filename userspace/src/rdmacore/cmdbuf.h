// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A command buffer (rdma-core's struct ibv_command_buffer, abi.h) built
// by this library for the ibv_cmd_* that are ioctl methods only (DM,
// counters, MR query, dma-buf MRs, ...).  A provider may chain its own
// buffer of driver attributes (link); execute_ioctl gathers them behind
// ours, so the room is sized for both.  Every attribute is mandatory, as
// rdma-core fills them.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "abi.h"

extern "C" {
int execute_ioctl(ibv_context *ctx, ovb::rdmacore::CommandBuffer *cmd);
unsigned int __ioctl_final_num_attrs(unsigned int num_attrs,
				     ovb::rdmacore::CommandBuffer *link);
}

namespace ovb::rdmacore {

class IoctlCall {
public:
	IoctlCall(uint16_t object, uint16_t method, unsigned int attrs,
		  CommandBuffer *link = nullptr)
	{
		unsigned int room = __ioctl_final_num_attrs(attrs, link);
		buf_ = static_cast<CommandBuffer *>(calloc(
			1, sizeof(CommandBuffer) + room * sizeof(ovb_ioctl_attr)));
		if (!buf_)
			return;
		buf_->next = link;
		buf_->next_attr = buf_->hdr.attrs;
		buf_->last_attr = buf_->hdr.attrs + room;
		buf_->uhw_in_idx = kNoUhw;
		buf_->uhw_out_idx = kNoUhw;
		buf_->hdr.object_id = object;
		buf_->hdr.method_id = method;
	}
	~IoctlCall() { free(buf_); }
	IoctlCall(const IoctlCall &) = delete;
	IoctlCall &operator=(const IoctlCall &) = delete;

	// An object handle in, or the index of a new object's handle out.
	void obj_in(uint16_t id, uint32_t handle) { add(id, 0, handle); }
	size_t obj_out(uint16_t id) { return add(id, 0, 0); }
	void u32_in(uint16_t id, uint32_t v) { add(id, sizeof(v), v); }
	void u64_in(uint16_t id, uint64_t v) { add(id, sizeof(v), v); }
	// Kernel memory the kernel reads (inline when it fits) or writes.
	void ptr_in(uint16_t id, const void *p, size_t len)
	{
		if (len <= sizeof(uint64_t)) {
			uint64_t v = 0;
			std::memcpy(&v, p, len);
			add(id, len, v);
		} else {
			add(id, len, reinterpret_cast<uintptr_t>(p));
		}
	}
	// An enum attribute: the element chosen, then its data as ptr_in.
	void enum_in(uint16_t id, uint8_t elem, const void *p, size_t len)
	{
		ptr_in(id, p, len);
		if (buf_ && !buf_->buffer_error && buf_->next_attr != buf_->hdr.attrs)
			buf_->next_attr[-1].attr_data.enum_data.elem_id = elem;
	}
	void ptr_out(uint16_t id, void *p, size_t len)
	{
		add(id, len, reinterpret_cast<uintptr_t>(p));
	}
	uint32_t handle(size_t index) const
	{
		return static_cast<uint32_t>(buf_->hdr.attrs[index].data);
	}

	// 0 or the errno (ENOMEM when the buffer could not be made).
	int run(ibv_context *ctx)
	{
		if (!buf_)
			return ENOMEM;
		return execute_ioctl(ctx, buf_) ? errno : 0;
	}

private:
	size_t add(uint16_t id, size_t len, uint64_t data)
	{
		if (!buf_)
			return 0;
		if (buf_->next_attr == buf_->last_attr || len > UINT16_MAX) {
			buf_->buffer_error = 1;
			return 0;
		}
		ovb_ioctl_attr *a = buf_->next_attr++;
		*a = ovb_ioctl_attr{};
		a->attr_id = id;
		a->len = static_cast<uint16_t>(len);
		a->flags = OVB_ATTR_F_MANDATORY;
		a->data = data;
		return static_cast<size_t>(a - buf_->hdr.attrs);
	}

	CommandBuffer *buf_ = nullptr;
};

} // namespace ovb::rdmacore
