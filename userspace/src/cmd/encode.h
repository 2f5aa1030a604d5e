// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Framing of one write() command: pure functions from (spec, request,
// udata, response address) to the bytes the kernel reads.  No syscalls, so
// tests/cmd_encode_test.cpp checks every rule byte by byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "table.h"

namespace ovb::cmd {

// Bytes of the headers in front of the core request.
constexpr size_t header_size(Framing f)
{
	return f == Framing::legacy ? sizeof(ovb_cmd_hdr)
				    : sizeof(ovb_cmd_hdr) + sizeof(ovb_ex_cmd_hdr);
}

// What one command carries: the core request (whose first u64 is the
// response address for legacy commands with a response), the driver's
// request bytes, and the room for the response (core + driver, contiguous).
struct Message {
	std::span<const std::byte> req;
	std::span<const std::byte> drv_in;
	uint64_t resp_addr;	// where the kernel writes core resp + drv out
	size_t resp_len;	// core response bytes
	size_t drv_out_len;	// driver response bytes
};

// Size of the frame encode() writes, or 0 if the message cannot be framed
// (lengths not multiples of the framing's word, too many words).
size_t frame_size(const Spec &spec, const Message &m);

// Writes the frame into out (at least frame_size() bytes); returns its size
// or 0 on the same errors as frame_size().
size_t encode(const Spec &spec, const Message &m, std::span<std::byte> out);

} // namespace ovb::cmd
