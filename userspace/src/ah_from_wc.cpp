// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RoCE v2 over IPv4 delivers the 20-byte IPv4 header in the last 20 bytes
// of the 40-byte GRH slot; RoCE v1 and v2 over IPv6 deliver a real GRH.
// Which one it is: an IPv6 version nibble other than 6 means IPv4 if the
// IPv4 version reads 4; a 6 still means IPv4 when the bytes at offset 20
// are a 5-word IPv4 header with a valid checksum (libibverbs' rule).
#include "ah_from_wc.h"

#include <cerrno>
#include <cstring>
#include <endian.h>
#include <netinet/in.h>
#include <netinet/ip.h>

namespace ovb::ah {

namespace {

constexpr uint8_t kNextHeaderBth = 0x1b;	// RoCE v1: the IB BTH follows
constexpr unsigned kSysfsRoceV1 = 0, kSysfsRoceV2 = 1;

iphdr ipv4_header(const ibv_grh &grh)
{
	iphdr h;
	std::memcpy(&h, reinterpret_cast<const uint8_t *>(&grh) + 20, sizeof(h));
	return h;
}

// One's-complement sum over the header with its checksum field as given.
uint16_t ipv4_checksum(iphdr h)
{
	h.check = 0;
	uint16_t words[10];
	std::memcpy(words, &h, sizeof(words));
	uint32_t sum = 0;
	for (uint16_t w : words)
		sum += w;
	sum = (sum & 0xffff) + (sum >> 16);
	return static_cast<uint16_t>(~sum);
}

void v4_mapped(uint32_t addr_be, ibv_gid &gid)
{
	std::memset(gid.raw, 0, sizeof(gid.raw));
	gid.raw[10] = 0xff;
	gid.raw[11] = 0xff;
	std::memcpy(gid.raw + 12, &addr_be, 4);
}

// Index of gid with type on the port, or the reader's failure.
int find_gid(const GidReader &gids, const ibv_gid &gid, unsigned type)
{
	for (int i = 0;; i++) {
		ibv_gid cur;
		unsigned cur_type = 0;
		if (int rc = gids(i, cur, cur_type))
			return rc;
		if (cur_type == type && !std::memcmp(cur.raw, gid.raw, sizeof(gid.raw)))
			return i;
	}
}

int fail(int err)
{
	errno = err;
	return -1;
}

int reply_over_ipv4(const GidReader &gids, const iphdr &ip, ibv_ah_attr &attr)
{
	if (IN_MULTICAST(be32toh(ip.daddr)))
		return fail(EINVAL);
	ibv_gid ours;
	v4_mapped(ip.daddr, ours);
	int idx = find_gid(gids, ours, kSysfsRoceV2);
	if (idx < 0)
		return idx;
	v4_mapped(ip.saddr, attr.grh.dgid);
	attr.grh.sgid_index = static_cast<uint8_t>(idx);
	attr.grh.hop_limit = ip.ttl;
	attr.grh.traffic_class = ip.tos;
	return 0;
}

int reply_over_grh(const GidReader &gids, const ibv_grh &grh, ibv_ah_attr &attr)
{
	if (grh.dgid.raw[0] == 0xff)
		return fail(EINVAL);
	attr.grh.dgid = grh.sgid;
	unsigned type;
	if (grh.next_hdr == IPPROTO_UDP)
		type = kSysfsRoceV2;
	else if (grh.next_hdr == kNextHeaderBth)
		type = kSysfsRoceV1;
	else
		return fail(EPROTONOSUPPORT);
	int idx = find_gid(gids, grh.dgid, type);
	if (idx < 0)
		return idx;
	attr.grh.sgid_index = static_cast<uint8_t>(idx);
	attr.grh.hop_limit = grh.hop_limit;
	attr.grh.traffic_class =
		static_cast<uint8_t>(be32toh(grh.version_tclass_flow) >> 20);
	return 0;
}

} // namespace

GrhKind classify(const ibv_grh &grh)
{
	unsigned v6_version = be32toh(grh.version_tclass_flow) >> 28;
	iphdr ip = ipv4_header(grh);
	if (v6_version != 6)
		return ip.version == 4 ? GrhKind::ipv4 : GrhKind::unknown;
	if (ip.ihl == 5 && ip.check == ipv4_checksum(ip))
		return GrhKind::ipv4;
	return GrhKind::ipv6;
}

int from_wc(const GidReader &gids, uint8_t port, const ibv_wc &wc,
	    const ibv_grh &grh, ibv_ah_attr &attr)
{
	std::memset(&attr, 0, sizeof(attr));
	attr.grh.flow_label = be32toh(grh.version_tclass_flow) & 0xfffff;
	attr.dlid = wc.slid;
	attr.sl = wc.sl;
	attr.src_path_bits = wc.dlid_path_bits;
	attr.port_num = port;
	if (!(wc.wc_flags & IBV_WC_GRH))
		return 0;
	attr.is_global = 1;
	switch (classify(grh)) {
	case GrhKind::ipv4:
		return reply_over_ipv4(gids, ipv4_header(grh), attr);
	case GrhKind::ipv6:
		return reply_over_grh(gids, grh, attr);
	case GrhKind::unknown:
		break;
	}
	return fail(EPROTONOSUPPORT);
}

} // namespace ovb::ah
