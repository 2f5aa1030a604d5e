// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ioctl.h"

#include <cstring>

namespace ovb::ioctl {

namespace {

const std::byte *at(const void *args, uint16_t off)
{
	return static_cast<const std::byte *>(args) + off;
}

uint64_t addr(const void *p)
{
	return reinterpret_cast<uintptr_t>(p);
}

// One attribute from its table entry; false when it is not sent.
bool fill(const Attr &a, const void *args, ib_uverbs_attr &out)
{
	if (a.when != kAlways && !*reinterpret_cast<const bool *>(at(args, a.when)))
		return false;
	out = {};
	out.attr_id = a.id;
	out.flags = a.flags;
	const std::byte *p = at(args, a.off);
	switch (a.kind) {
	case Kind::in:
		out.len = a.len;
		if (a.len <= sizeof(out.data))
			std::memcpy(&out.data, p, a.len);
		else
			out.data = addr(p);
		return true;
	case Kind::out:
		out.len = a.len;
		out.data = addr(p);
		return true;
	case Kind::out_buf: {
		const Buf *b = reinterpret_cast<const Buf *>(p);
		out.len = static_cast<uint16_t>(b->len);
		out.data = addr(b->ptr);
		return true;
	}
	case Kind::obj_in: {
		uint32_t h;
		std::memcpy(&h, p, sizeof(h));
		out.data = h;
		return true;
	}
	case Kind::obj_new:
	case Kind::fd_new:
		return true;
	case Kind::fd_in: {
		int32_t fd;
		std::memcpy(&fd, p, sizeof(fd));
		if (fd == -1)
			return false;
		out.data = static_cast<uint64_t>(fd);
		return true;
	}
	}
	return false;
}

void header(Frame &f, uint16_t object, uint16_t method, size_t n,
	    uint32_t driver_id)
{
	f.hdr() = {};
	f.hdr().length = static_cast<uint16_t>(sizeof(f.hdr()) + n * sizeof(ib_uverbs_attr));
	f.hdr().object_id = object;
	f.hdr().method_id = method;
	f.hdr().num_attrs = static_cast<uint16_t>(n);
	f.hdr().driver_id = driver_id;
}

ib_uverbs_attr &next(Frame &f, size_t &n, uint16_t id, uint16_t len,
		     uint64_t data)
{
	ib_uverbs_attr &a = f.attrs()[n++];
	a = {};
	a.attr_id = id;
	a.flags = UVERBS_ATTR_F_MANDATORY;
	a.len = len;
	a.data = data;
	return a;
}

// The driver's udata: inline when it fits, as rdma-core does.
void udata(Frame &f, size_t &n, const ovb_udata *ud)
{
	if (!ud)
		return;
	if (ud->in_len) {
		ib_uverbs_attr &a = next(f, n, UVERBS_ATTR_UHW_IN,
					 static_cast<uint16_t>(ud->in_len), 0);
		if (ud->in_len <= sizeof(a.data))
			std::memcpy(&a.data, ud->in, ud->in_len);
		else
			a.data = addr(ud->in);
	}
	if (ud->out_len)
		next(f, n, UVERBS_ATTR_UHW_OUT, static_cast<uint16_t>(ud->out_len),
		     addr(ud->out));
}

} // namespace

size_t encode(const Method &m, const void *args, const ovb_udata *ud,
	      uint32_t driver_id, Frame &f)
{
	size_t n = 0;
	for (const Attr &a : m.attrs)
		if (fill(a, args, f.attrs()[n]))
			n++;
	udata(f, n, ud);
	header(f, m.object, m.method, n, driver_id);
	return n;
}

void decode(const Method &m, void *args, const Frame &f)
{
	size_t i = 0;
	for (const Attr &a : m.attrs) {
		if (i == f.hdr().num_attrs)
			return;
		if (f.attrs()[i].attr_id != a.id)
			continue;	// not sent
		auto *p = static_cast<std::byte *>(args) + a.off;
		if (a.kind == Kind::obj_new) {
			uint32_t h = static_cast<uint32_t>(f.attrs()[i].data);
			std::memcpy(p, &h, sizeof(h));
		} else if (a.kind == Kind::fd_new) {
			int32_t fd = static_cast<int32_t>(f.attrs()[i].data);
			std::memcpy(p, &fd, sizeof(fd));
		}
		i++;
	}
}

size_t encode_write(uint32_t command, const void *req, size_t req_len,
		    void *resp, size_t resp_len, const ovb_udata *ud,
		    uint32_t driver_id, Frame &f)
{
	size_t n = 0;
	next(f, n, UVERBS_ATTR_WRITE_CMD, sizeof(uint64_t), command);
	if (req_len) {
		ib_uverbs_attr &a = next(f, n, UVERBS_ATTR_CORE_IN,
					 static_cast<uint16_t>(req_len), addr(req));
		if (req_len <= sizeof(a.data))
			std::memcpy(&a.data, req, req_len);
	}
	if (resp_len)
		next(f, n, UVERBS_ATTR_CORE_OUT, static_cast<uint16_t>(resp_len),
		     addr(resp));
	udata(f, n, ud);
	header(f, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, n, driver_id);
	return n;
}

} // namespace ovb::ioctl
