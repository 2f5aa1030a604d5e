// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's udata convention.  A provider's ibv_cmd_* request is the
// write() command (header, then the kernel's core request struct) with its
// own driver data after it; its response is the kernel's core response
// with the driver's after it.  Whichever way the command then travels
// (ioctl or write()), the driver parts are the udata.
#pragma once

#include <cstddef>
#include <cstring>

#include <openverbs/provider.h>
#include <openverbs/uverbs-abi.h>

namespace ovb::rdmacore {

// Header in front of a write() command and of an extended one.
constexpr size_t kCmdHdr = sizeof(ovb_cmd_hdr);
constexpr size_t kExCmdHdr = sizeof(ovb_cmd_hdr) + sizeof(ovb_ex_cmd_hdr);
static_assert(kCmdHdr == 8 && kExCmdHdr == 24);

inline size_t tail(size_t total, size_t head)
{
	return total > head ? total - head : 0;
}

// cmd: the provider's whole request (core_req: the kernel struct, after
// hdr bytes of header); resp: its whole response (core_resp bytes first).
inline ovb_udata driver_udata(const void *cmd, size_t cmd_size, size_t hdr,
			      size_t core_req, void *resp, size_t resp_size,
			      size_t core_resp)
{
	ovb_udata ud{};
	size_t in_head = hdr + core_req;
	if (cmd && cmd_size > in_head) {
		ud.in = static_cast<const char *>(cmd) + in_head;
		ud.in_len = cmd_size - in_head;
	}
	if (resp && resp_size > core_resp) {
		ud.out = static_cast<char *>(resp) + core_resp;
		ud.out_len = resp_size - core_resp;
	}
	return ud;
}

// The same for a command whose core request is Req and core response
// Resp, behind write()'s header or the extended one.
template <class Req, class Resp>
ovb_udata write_udata(const void *cmd, size_t cmd_size, void *resp,
		      size_t resp_size)
{
	return driver_udata(cmd, cmd_size, kCmdHdr, sizeof(Req), resp,
			    resp_size, sizeof(Resp));
}

template <class Req, class Resp>
ovb_udata ex_udata(const void *cmd, size_t cmd_size, void *resp,
		   size_t resp_size)
{
	return driver_udata(cmd, cmd_size, kExCmdHdr, sizeof(Req), resp,
			    resp_size, sizeof(Resp));
}

// The core part of a provider's response as the kernel's write() leaves
// it: no more of it than the provider's room (resp_size) holds.
template <class Core>
void put_core_resp(void *resp, size_t resp_size, const Core &core)
{
	if (resp)
		std::memcpy(resp, &core, resp_size < sizeof(core) ? resp_size
								  : sizeof(core));
}

} // namespace ovb::rdmacore
