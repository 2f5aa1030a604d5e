// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "encode.h"

#include <cstring>
#include <limits>

namespace ovb::cmd {

namespace {

constexpr size_t kMaxWords = std::numeric_limits<uint16_t>::max();

// Legacy: in_words counts 4-byte words of the whole write(), header
// included; out_words the response room in 4-byte words.
bool legacy_words(const Message &m, uint16_t &in_words, uint16_t &out_words)
{
	size_t in = sizeof(ovb_cmd_hdr) + m.req.size() + m.drv_in.size();
	size_t out = m.resp_len + m.drv_out_len;

	if (in % 4 || out % 4 || in / 4 > kMaxWords || out / 4 > kMaxWords)
		return false;
	in_words = static_cast<uint16_t>(in / 4);
	out_words = static_cast<uint16_t>(out / 4);
	return true;
}

// Extended: every count is in 8-byte words and excludes both headers; core
// and driver parts are counted separately.
struct ExWords {
	uint16_t in, out, provider_in, provider_out;
};

bool ex_words(const Message &m, ExWords &w)
{
	const size_t sizes[] = {m.req.size(), m.resp_len, m.drv_in.size(),
				m.drv_out_len};
	uint16_t *dst[] = {&w.in, &w.out, &w.provider_in, &w.provider_out};

	for (size_t i = 0; i < 4; i++) {
		if (sizes[i] % 8 || sizes[i] / 8 > kMaxWords)
			return false;
		*dst[i] = static_cast<uint16_t>(sizes[i] / 8);
	}
	return true;
}

} // namespace

size_t frame_size(const Spec &spec, const Message &m)
{
	if (spec.framing == Framing::legacy) {
		uint16_t in, out;
		if (!legacy_words(m, in, out))
			return 0;
		// A legacy command with a response starts with its address.
		if (spec.resp_size && m.req.size() < sizeof(uint64_t))
			return 0;
	} else {
		ExWords w;
		if (!ex_words(m, w))
			return 0;
	}
	return header_size(spec.framing) + m.req.size() + m.drv_in.size();
}

size_t encode(const Spec &spec, const Message &m, std::span<std::byte> out)
{
	size_t total = frame_size(spec, m);

	if (!total || out.size() < total)
		return 0;

	std::byte *p = out.data();
	ovb_cmd_hdr hdr{};

	if (spec.framing == Framing::legacy) {
		legacy_words(m, hdr.in_words, hdr.out_words);
		hdr.command = spec.id;
		std::memcpy(p, &hdr, sizeof(hdr));
		p += sizeof(hdr);
		std::memcpy(p, m.req.data(), m.req.size());
		if (spec.resp_size)
			std::memcpy(p, &m.resp_addr, sizeof(m.resp_addr));
		p += m.req.size();
	} else {
		ExWords w{};
		ex_words(m, w);
		hdr.command = spec.id | OVB_CMD_FLAG_EXTENDED;
		hdr.in_words = w.in;
		hdr.out_words = w.out;
		ovb_ex_cmd_hdr ex{};
		if (m.resp_len || m.drv_out_len)
			ex.response = m.resp_addr;
		ex.provider_in_words = w.provider_in;
		ex.provider_out_words = w.provider_out;
		std::memcpy(p, &hdr, sizeof(hdr));
		p += sizeof(hdr);
		std::memcpy(p, &ex, sizeof(ex));
		p += sizeof(ex);
		std::memcpy(p, m.req.data(), m.req.size());
		p += m.req.size();
	}
	if (!m.drv_in.empty())
		std::memcpy(p, m.drv_in.data(), m.drv_in.size());
	return total;
}

} // namespace ovb::cmd
