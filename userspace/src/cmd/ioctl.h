// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The RDMA_VERBS_IOCTL transport: a method is one declarative table of
// attributes (methods.h), each naming a member of the method's argument
// struct.  encode() turns (method, arguments, udata) into the header and
// attribute array the kernel reads, in the order rdma-core 44 sends them;
// decode() copies what the kernel wrote into attribute data (new handles
// and fds) back into the arguments.  Both are pure: tests/ioctl_encode_test
// checks them attribute by attribute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include <openverbs/provider.h>

namespace ovb::ioctl {

enum class Kind : uint8_t {
	in,		// PTR_IN: inline in data up to 8 bytes, else its address
	out,		// PTR_OUT: the member's address and size
	out_buf,	// PTR_OUT into a caller's buffer: the member is a Buf
	obj_in,		// IDR: a u32 handle in data
	obj_new,	// IDR created by the method: the kernel writes the u32 handle
	fd_in,		// FD: an int in data; not sent when it is -1
	fd_new,		// FD created by the method: the kernel writes it
};

inline constexpr int16_t kAlways = -1;

// A caller-sized output (GID entries).
struct Buf {
	void *ptr;
	uint64_t len;
};

struct Attr {
	uint16_t id;
	Kind kind;
	uint16_t flags;		// UVERBS_ATTR_F_MANDATORY or 0
	uint16_t off;		// member of the argument struct
	uint16_t len;
	int16_t when;		// offset of a bool member: sent only if true
};

// Per-context bits of methods the kernel does not serve (rdma-core's
// unsupported_ioctls): EPROTONOSUPPORT sets one, ENOTTY all.
enum Bit : uint8_t {
	kGetContext, kQueryPort, kQueryGid, kCreateCq, kDestroyCq, kCreateQp,
	kDestroyQp, kCreateSrq, kDestroySrq, kDeallocPd, kDeregMr, kDeallocMw,
	kDestroyAh, kCloseXrcd, kCreateWq, kDestroyWq, kNoFallback,
};

struct Method {
	uint16_t object;
	uint16_t method;
	Bit bit;		// kNoFallback: ioctl only
	std::span<const Attr> attrs;
	const char *name;
};

inline constexpr size_t kMaxAttrs = 16;

// The ioctl argument: header and attributes, contiguous as the kernel reads.
struct Frame {
	alignas(8) unsigned char bytes[sizeof(ib_uverbs_ioctl_hdr) +
				       kMaxAttrs * sizeof(ib_uverbs_attr)];

	ib_uverbs_ioctl_hdr &hdr() { return *reinterpret_cast<ib_uverbs_ioctl_hdr *>(bytes); }
	const ib_uverbs_ioctl_hdr &hdr() const
	{
		return *reinterpret_cast<const ib_uverbs_ioctl_hdr *>(bytes);
	}
	ib_uverbs_attr *attrs() { return hdr().attrs; }
	const ib_uverbs_attr *attrs() const { return hdr().attrs; }
};

// Fills f from the method's table, the argument struct and the driver's
// udata (UHW_IN/UHW_OUT last, when non-empty).  Returns the number of
// attributes.
size_t encode(const Method &m, const void *args, const ovb_udata *ud,
	      uint32_t driver_id, Frame &f);

// Copies created handles and fds from f back into args.
void decode(const Method &m, void *args, const Frame &f);

// The legacy write() command carried by INVOKE_WRITE: WRITE_CMD, CORE_IN,
// CORE_OUT (when resp_len), UHW_IN, UHW_OUT (when non-empty).
size_t encode_write(uint32_t command, const void *req, size_t req_len,
		    void *resp, size_t resp_len, const ovb_udata *ud,
		    uint32_t driver_id, Frame &f);

} // namespace ovb::ioctl
