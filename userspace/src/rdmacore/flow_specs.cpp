// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "flow_specs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <openverbs/uverbs-abi.h>

#include "abi.h"

namespace ovb::rdmacore {

namespace {

// How a spec type converts.
enum class Form : uint8_t {
	filter,		// val and mask of one fixed size, copied
	sized_filter,	// val and mask as long as the application's spec says
	tag,		// the tag id
	drop,		// nothing but the header
	action,		// a flow action object's kernel handle
	count,		// a counters object's kernel handle
};

struct Rule {
	uint32_t type;		// IBV_FLOW_SPEC_*, without the inner bit
	Form form;
	bool inner_ok;		// may carry IBV_FLOW_SPEC_INNER
	uint16_t ibv_val;	// offset of val in the application's spec
	uint16_t len;		// filter: its size; sized_filter: the kernel's
	uint16_t kern_size;	// the kernel spec's size
	uint16_t kern_mask;	// offset of mask in the kernel spec
	uint32_t kern_type;	// the type the kernel sees, without the inner bit
};

// Kernel spec offsets: the 8-byte header, then val and mask.
constexpr uint16_t kHdr = 8;
constexpr uint16_t fixed_size(size_t len)
{
	return static_cast<uint16_t>((kHdr + 2 * len + 7) / 8 * 8);
}
// The kernel's minimum filter: up to and including its last field.
#define OVB_UPTO(F, field) \
	static_cast<uint16_t>(offsetof(F, field) + sizeof(F::field))

#define OVB_FIXED(T, spec, F, inner)                                           \
	Rule{T, Form::filter, inner,                                           \
	     static_cast<uint16_t>(offsetof(spec, val)), sizeof(F),            \
	     fixed_size(sizeof(F)), static_cast<uint16_t>(kHdr + sizeof(F)), T}
#define OVB_SIZED(T, spec, kspec, min, inner, ktype)                           \
	Rule{T, Form::sized_filter, inner,                                     \
	     static_cast<uint16_t>(offsetof(spec, val)), min, sizeof(kspec),   \
	     static_cast<uint16_t>(offsetof(kspec, mask)), ktype}
#define OVB_ACTION(T, form, kspec)                                             \
	Rule{T, form, false, 0, 0, sizeof(kspec), 0, T}

const Rule kRules[] = {
	OVB_FIXED(IBV_FLOW_SPEC_ETH, ibv_flow_spec_eth, ibv_flow_eth_filter, true),
	OVB_FIXED(IBV_FLOW_SPEC_IPV4, ibv_flow_spec_ipv4, ibv_flow_ipv4_filter, true),
	OVB_SIZED(IBV_FLOW_SPEC_IPV4_EXT, ibv_flow_spec_ipv4_ext, ovb_flow_spec_ipv4,
		  OVB_UPTO(ovb_flow_ipv4_filter, flags),
		  true, IBV_FLOW_SPEC_IPV4),
	OVB_SIZED(IBV_FLOW_SPEC_IPV6, ibv_flow_spec_ipv6, ovb_flow_spec_ipv6,
		  OVB_UPTO(ovb_flow_ipv6_filter, hop_limit),
		  true, IBV_FLOW_SPEC_IPV6),
	OVB_FIXED(IBV_FLOW_SPEC_ESP, ibv_flow_spec_esp, ibv_flow_esp_filter, true),
	OVB_FIXED(IBV_FLOW_SPEC_TCP, ibv_flow_spec_tcp_udp, ibv_flow_tcp_udp_filter, true),
	OVB_FIXED(IBV_FLOW_SPEC_UDP, ibv_flow_spec_tcp_udp, ibv_flow_tcp_udp_filter, true),
	OVB_FIXED(IBV_FLOW_SPEC_GRE, ibv_flow_spec_gre, ibv_flow_gre_filter, false),
	OVB_FIXED(IBV_FLOW_SPEC_MPLS, ibv_flow_spec_mpls, ibv_flow_mpls_filter, true),
	OVB_SIZED(IBV_FLOW_SPEC_VXLAN_TUNNEL, ibv_flow_spec_tunnel, ovb_flow_spec_tunnel,
		  OVB_UPTO(ovb_flow_tunnel_filter, tunnel_id),
		  false, IBV_FLOW_SPEC_VXLAN_TUNNEL),
	OVB_ACTION(IBV_FLOW_SPEC_ACTION_TAG, Form::tag, ovb_flow_spec_action_tag),
	OVB_ACTION(IBV_FLOW_SPEC_ACTION_DROP, Form::drop, ovb_flow_spec_action_drop),
	OVB_ACTION(IBV_FLOW_SPEC_ACTION_HANDLE, Form::action, ovb_flow_spec_action_handle),
	OVB_ACTION(IBV_FLOW_SPEC_ACTION_COUNT, Form::count, ovb_flow_spec_action_count),
};
#undef OVB_FIXED
#undef OVB_SIZED
#undef OVB_ACTION
#undef OVB_UPTO

// The fixed-size kernel specs are the header, val and mask.
static_assert(fixed_size(sizeof(ibv_flow_eth_filter)) == sizeof(ovb_flow_spec_eth) &&
	      fixed_size(sizeof(ibv_flow_tcp_udp_filter)) == sizeof(ovb_flow_spec_tcp_udp) &&
	      fixed_size(sizeof(ibv_flow_esp_filter)) == sizeof(ovb_flow_spec_esp) &&
	      fixed_size(sizeof(ibv_flow_gre_filter)) == sizeof(ovb_flow_spec_gre) &&
	      fixed_size(sizeof(ibv_flow_mpls_filter)) == sizeof(ovb_flow_spec_mpls));
static_assert(sizeof(ovb_flow_spec_ipv6) <= kMaxKernSpec &&
	      sizeof(ovb_flow_spec_ipv4) <= kMaxKernSpec);

const Rule *rule_of(uint32_t type)
{
	uint32_t base = type & ~static_cast<uint32_t>(IBV_FLOW_SPEC_INNER);
	bool inner = type & IBV_FLOW_SPEC_INNER;
	for (const Rule &r : kRules)
		if (r.type == base && (!inner || r.inner_ok))
			return &r;
	return nullptr;
}

bool all_zero(const unsigned char *p, size_t n)
{
	return std::all_of(p, p + n, [](unsigned char c) { return c == 0; });
}

// The handle after the public object: verbs_flow_action and
// verbs_counters keep it there.
uint32_t handle_after(const void *obj, size_t obj_size)
{
	uint32_t h;
	std::memcpy(&h, static_cast<const char *>(obj) + obj_size, sizeof(h));
	return h;
}

} // namespace

size_t flow_spec_to_kernel(const ibv_flow_spec *in, void *out, int &err)
{
	const Rule *r = rule_of(in->hdr.type);
	if (!r) {
		err = EINVAL;
		return 0;
	}
	auto *k = static_cast<unsigned char *>(out);
	std::memset(k, 0, r->kern_size);
	const auto *src = reinterpret_cast<const unsigned char *>(in);
	size_t len = r->len;
	size_t ibv_len = len;
	switch (r->form) {
	case Form::filter:
		std::memcpy(k + kHdr, src + r->ibv_val, len);
		std::memcpy(k + r->kern_mask, src + r->ibv_val + len, len);
		break;
	case Form::sized_filter: {
		// A spec shorter than its header has no room for a filter.
		long room = (static_cast<long>(in->hdr.size) -
			     static_cast<long>(sizeof(in->hdr))) / 2;
		if (room < static_cast<long>(r->len)) {
			err = EINVAL;
			return 0;
		}
		ibv_len = static_cast<size_t>(room);
		if (!all_zero(src + r->ibv_val + ibv_len + r->len, ibv_len - r->len)) {
			err = EOPNOTSUPP;
			return 0;
		}
		std::memcpy(k + kHdr, src + r->ibv_val, r->len);
		std::memcpy(k + r->kern_mask, src + r->ibv_val + ibv_len, r->len);
		break;
	}
	case Form::tag: {
		uint32_t tag = in->flow_tag.tag_id;
		std::memcpy(k + kHdr, &tag, sizeof(tag));
		break;
	}
	case Form::drop:
		break;
	case Form::action: {
		uint32_t h = handle_after(in->handle.action, sizeof(ibv_flow_action));
		std::memcpy(k + kHdr, &h, sizeof(h));
		break;
	}
	case Form::count: {
		uint32_t h = handle_after(in->flow_count.counters, sizeof(ibv_counters));
		std::memcpy(k + kHdr, &h, sizeof(h));
		break;
	}
	}
	ovb_flow_spec_hdr hdr{};
	hdr.type = r->kern_type | (in->hdr.type & IBV_FLOW_SPEC_INNER);
	hdr.size = r->kern_size;
	std::memcpy(k, &hdr, sizeof(hdr));
	err = 0;
	return r->kern_size;
}

} // namespace ovb::rdmacore
