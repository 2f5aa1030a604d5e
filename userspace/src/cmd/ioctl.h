// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The OVB_VERBS_IOCTL transport: a method is one declarative table of
// attributes (methods.h), each naming a member of the method's argument
// struct.  encode() turns (method, arguments, udata) into the header and
// attribute array the kernel reads, in the order rdma-core 44 sends them;
// decode() copies what the kernel wrote into attribute data (new handles
// and fds) back into the arguments.  Both are pure: tests/ioctl_encode_test
// checks them attribute by attribute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>

#include <openverbs/ioctl-abi.h>

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
	uint16_t flags;		// OVB_ATTR_F_MANDATORY or 0
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
	bool creates;		// has obj_new/fd_new attributes for decode()
};

// Whether a table has attributes the kernel writes back into data.
constexpr bool creates(std::span<const Attr> attrs)
{
	for (const Attr &a : attrs)
		if (a.kind == Kind::obj_new || a.kind == Kind::fd_new)
			return true;
	return false;
}

inline constexpr size_t kMaxAttrs = 18;

// The ioctl argument: header and attributes, contiguous as the kernel reads.
struct Frame {
	alignas(8) unsigned char bytes[sizeof(ovb_ioctl_hdr) +
				       kMaxAttrs * sizeof(ovb_ioctl_attr)];

	ovb_ioctl_hdr &hdr() { return *reinterpret_cast<ovb_ioctl_hdr *>(bytes); }
	const ovb_ioctl_hdr &hdr() const
	{
		return *reinterpret_cast<const ovb_ioctl_hdr *>(bytes);
	}
	ovb_ioctl_attr *attrs() { return hdr().attrs; }
	const ovb_ioctl_attr *attrs() const { return hdr().attrs; }
};

// One attribute from its table entry; 0 when it is not sent.
inline size_t fill(const Attr &a, const void *args, ovb_ioctl_attr &out)
{
	const auto *p = static_cast<const std::byte *>(args) + a.off;
	if (a.when != kAlways &&
	    !*reinterpret_cast<const bool *>(static_cast<const std::byte *>(args) + a.when))
		return 0;
	out.attr_id = a.id;
	out.len = 0;
	out.flags = a.flags;
	out.attr_data.reserved = 0;
	out.data = 0;
	switch (a.kind) {
	case Kind::in:
		out.len = a.len;
		if (a.len <= sizeof(out.data))
			std::memcpy(&out.data, p, a.len);
		else
			out.data = reinterpret_cast<uintptr_t>(p);
		return 1;
	case Kind::out:
		out.len = a.len;
		out.data = reinterpret_cast<uintptr_t>(p);
		return 1;
	case Kind::out_buf: {
		const Buf *b = reinterpret_cast<const Buf *>(p);
		out.len = static_cast<uint16_t>(b->len);
		out.data = reinterpret_cast<uintptr_t>(b->ptr);
		return 1;
	}
	case Kind::obj_in: {
		uint32_t h;
		std::memcpy(&h, p, sizeof(h));
		out.data = h;
		return 1;
	}
	case Kind::fd_in: {
		int32_t fd;
		std::memcpy(&fd, p, sizeof(fd));
		if (fd == -1)
			return 0;
		out.data = static_cast<uint64_t>(fd);
		return 1;
	}
	case Kind::obj_new:
	case Kind::fd_new:
		return 1;
	}
	return 0;
}

// Attribute i of f, if it is a's: copies a created handle or fd back into
// args; 1 when it was a's (it was sent), else 0.
inline size_t read_back(const Attr &a, void *args, const Frame &f, size_t i)
{
	if (i >= f.hdr().num_attrs || f.attrs()[i].attr_id != a.id)
		return 0;
	auto *p = static_cast<std::byte *>(args) + a.off;
	if (a.kind == Kind::obj_new) {
		uint32_t h = static_cast<uint32_t>(f.attrs()[i].data);
		std::memcpy(p, &h, sizeof(h));
	} else if (a.kind == Kind::fd_new) {
		int32_t fd = static_cast<int32_t>(f.attrs()[i].data);
		std::memcpy(p, &fd, sizeof(fd));
	}
	return 1;
}

inline void header(Frame &f, uint16_t object, uint16_t method, size_t n,
		   uint32_t driver_id)
{
	ovb_ioctl_hdr &h = f.hdr();
	h.length = static_cast<uint16_t>(sizeof(h) + n * sizeof(ovb_ioctl_attr));
	h.object_id = object;
	h.method_id = method;
	h.num_attrs = static_cast<uint16_t>(n);
	h.reserved1 = 0;
	h.driver_id = driver_id;
	h.reserved2 = 0;
}

// Appends UHW_IN / UHW_OUT for the driver's udata (when non-empty).
void udata(Frame &f, size_t &n, const ovb_udata *ud);

// encode() and decode() for a method known at compile time: the table
// walk unrolls, every attribute's kind and offsets become constants.
template <const Method &M, size_t... I>
inline size_t encode_static(const void *args, const ovb_udata *ud,
			    uint32_t driver_id, Frame &f, std::index_sequence<I...>)
{
	size_t n = 0;
	((n += fill(M.attrs[I], args, f.attrs()[n])), ...);
	if (ud)
		udata(f, n, ud);
	header(f, M.object, M.method, n, driver_id);
	return n;
}

template <const Method &M, size_t... I>
inline void decode_static(void *args, const Frame &f, std::index_sequence<I...>)
{
	if constexpr (M.creates) {
		size_t i = 0;
		((i += read_back(M.attrs[I], args, f, i)), ...);
	}
}

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
