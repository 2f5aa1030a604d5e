// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ioctl.h"

#include <cstring>

namespace ovb::ioctl {

namespace {

uint64_t addr(const void *p)
{
	return reinterpret_cast<uintptr_t>(p);
}

ovb_ioctl_attr &next(Frame &f, size_t &n, uint16_t id, uint16_t len,
		     uint64_t data)
{
	ovb_ioctl_attr &a = f.attrs()[n++];
	a = {};
	a.attr_id = id;
	a.flags = OVB_ATTR_F_MANDATORY;
	a.len = len;
	a.data = data;
	return a;
}

} // namespace

// The driver's udata: inline when it fits, as rdma-core does.
void udata(Frame &f, size_t &n, const ovb_udata *ud)
{
	if (!ud)
		return;
	if (ud->in_len) {
		ovb_ioctl_attr &a = next(f, n, OVB_ATTR_UHW_IN,
					 static_cast<uint16_t>(ud->in_len), 0);
		if (ud->in_len <= sizeof(a.data))
			std::memcpy(&a.data, ud->in, ud->in_len);
		else
			a.data = addr(ud->in);
	}
	if (ud->out_len)
		next(f, n, OVB_ATTR_UHW_OUT, static_cast<uint16_t>(ud->out_len),
		     addr(ud->out));
}

size_t encode(const Method &m, const void *args, const ovb_udata *ud,
	      uint32_t driver_id, Frame &f)
{
	size_t n = 0;
	for (const Attr &a : m.attrs)
		n += fill(a, args, f.attrs()[n]);
	if (ud)
		udata(f, n, ud);
	header(f, m.object, m.method, n, driver_id);
	return n;
}

void decode(const Method &m, void *args, const Frame &f)
{
	if (!m.creates)
		return;
	size_t i = 0;
	for (const Attr &a : m.attrs)
		i += read_back(a, args, f, i);
}

size_t encode_write(uint32_t command, const void *req, size_t req_len,
		    void *resp, size_t resp_len, const ovb_udata *ud,
		    uint32_t driver_id, Frame &f)
{
	size_t n = 0;
	next(f, n, OVB_ATTR_WRITE_CMD, sizeof(uint64_t), command);
	if (req_len) {
		ovb_ioctl_attr &a = next(f, n, OVB_ATTR_CORE_IN,
					 static_cast<uint16_t>(req_len), addr(req));
		if (req_len <= sizeof(a.data))
			std::memcpy(&a.data, req, req_len);
	}
	if (resp_len)
		next(f, n, OVB_ATTR_CORE_OUT, static_cast<uint16_t>(resp_len),
		     addr(resp));
	if (ud)
		udata(f, n, ud);
	header(f, OVB_OBJECT_DEVICE, OVB_METHOD_INVOKE_WRITE, n, driver_id);
	return n;
}

} // namespace ovb::ioctl
