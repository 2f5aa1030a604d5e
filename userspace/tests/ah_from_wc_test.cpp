// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ibv_init_ah_from_wc()'s logic (src/ah_from_wc.h) on a made-up GID
// table: IPv4 or IPv6 by the header, hop limit and traffic class from it,
// the source GID found with its RoCE type, multicast refused.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <vector>

#include "ah_from_wc.h"

using namespace ovb::ah;

namespace {

ibv_gid v6(const char *text)
{
	ibv_gid g;
	inet_pton(AF_INET6, text, g.raw);
	return g;
}

struct Entry {
	ibv_gid gid;
	unsigned type;	// 0: RoCE v1, 1: RoCE v2
};

// rxe's table for fe80::1 and 10.0.2.15: each address as v1 and v2.
const std::vector<Entry> kTable = {
	{v6("fe80::1"), 0}, {v6("fe80::1"), 1},
	{v6("::ffff:10.0.2.15"), 0}, {v6("::ffff:10.0.2.15"), 1},
};

GidReader reader(const std::vector<Entry> &t)
{
	return [&t](int i, ibv_gid &gid, unsigned &type) {
		if (i >= static_cast<int>(t.size())) {
			errno = EINVAL;
			return -1;
		}
		gid = t[static_cast<size_t>(i)].gid;
		type = t[static_cast<size_t>(i)].type;
		return 0;
	};
}

uint16_t checksum(const iphdr &h)
{
	uint16_t w[10];
	std::memcpy(w, &h, sizeof(w));
	uint32_t sum = 0;
	for (uint16_t x : w)
		sum += x;
	sum = (sum & 0xffff) + (sum >> 16);
	return static_cast<uint16_t>(~sum);
}

// A RoCE v2 IPv4 packet's 40-byte slot: 20 bytes of garbage, the header.
ibv_grh ipv4_grh(const char *src, const char *dst, uint8_t ttl, uint8_t tos,
		 bool good_sum = true, uint32_t garbage = 0)
{
	ibv_grh g;
	std::memset(&g, 0, sizeof(g));
	g.version_tclass_flow = htobe32(garbage);
	iphdr h{};
	h.version = 4;
	h.ihl = 5;
	h.ttl = ttl;
	h.tos = tos;
	h.protocol = IPPROTO_UDP;
	inet_pton(AF_INET, src, &h.saddr);
	inet_pton(AF_INET, dst, &h.daddr);
	h.check = checksum(h);
	if (!good_sum)
		h.check ^= 1;
	std::memcpy(reinterpret_cast<uint8_t *>(&g) + 20, &h, sizeof(h));
	return g;
}

ibv_grh ipv6_grh(const char *src, const char *dst, uint8_t next, uint8_t hop,
		 uint8_t tclass, uint32_t flow)
{
	ibv_grh g;
	std::memset(&g, 0, sizeof(g));
	g.version_tclass_flow = htobe32(6u << 28 | uint32_t{tclass} << 20 | flow);
	g.next_hdr = next;
	g.hop_limit = hop;
	g.sgid = v6(src);
	g.dgid = v6(dst);
	return g;
}

ibv_wc wc_with_grh()
{
	ibv_wc wc{};
	wc.wc_flags = IBV_WC_GRH;
	wc.slid = 7;
	wc.sl = 3;
	wc.dlid_path_bits = 1;
	return wc;
}

TEST(AhFromWc, NoGrhFillsOnlyTheLocalFields)
{
	ibv_wc wc = wc_with_grh();
	wc.wc_flags = 0;
	ibv_grh g = ipv6_grh("fe80::2", "fe80::1", IPPROTO_UDP, 64, 0, 0x12345);
	ibv_ah_attr a;
	ASSERT_EQ(from_wc(reader(kTable), 1, wc, g, a), 0);
	EXPECT_EQ(a.is_global, 0);
	EXPECT_EQ(a.dlid, 7);
	EXPECT_EQ(a.sl, 3);
	EXPECT_EQ(a.src_path_bits, 1);
	EXPECT_EQ(a.port_num, 1);
	EXPECT_EQ(a.grh.flow_label, 0x12345u);	// read even without GRH, as libibverbs
}

TEST(AhFromWc, Ipv4TakesTtlTosAndTheV2Gid)
{
	ibv_grh g = ipv4_grh("10.0.2.2", "10.0.2.15", 17, 0x20);
	ibv_ah_attr a;
	ASSERT_EQ(from_wc(reader(kTable), 1, wc_with_grh(), g, a), 0);
	EXPECT_EQ(a.is_global, 1);
	EXPECT_EQ(a.grh.sgid_index, 3);
	EXPECT_EQ(a.grh.hop_limit, 17);
	EXPECT_EQ(a.grh.traffic_class, 0x20);
	EXPECT_EQ(0, std::memcmp(a.grh.dgid.raw, v6("::ffff:10.0.2.2").raw, 16));
}

TEST(AhFromWc, Ipv4WhoseFirstWordReadsSixNeedsAValidChecksum)
{
	// The first 20 bytes start like IPv6: the IPv4 header decides by its
	// checksum.
	ibv_grh good = ipv4_grh("10.0.2.2", "10.0.2.15", 5, 0, true, 6u << 28);
	ibv_grh bad = ipv4_grh("10.0.2.2", "10.0.2.15", 5, 0, false, 6u << 28);
	EXPECT_EQ(classify(good), GrhKind::ipv4);
	EXPECT_EQ(classify(bad), GrhKind::ipv6);
	EXPECT_EQ(classify(ipv4_grh("10.0.2.2", "10.0.2.15", 5, 0, false)),
		  GrhKind::ipv4);	// not 6: the IPv4 version alone
}

TEST(AhFromWc, Ipv6UdpIsRoceV2AndBthIsV1)
{
	ibv_ah_attr a;
	ibv_grh g = ipv6_grh("fe80::2", "fe80::1", IPPROTO_UDP, 9, 0x40, 0xabc);
	ASSERT_EQ(from_wc(reader(kTable), 1, wc_with_grh(), g, a), 0);
	EXPECT_EQ(a.grh.sgid_index, 1);
	EXPECT_EQ(a.grh.hop_limit, 9);
	EXPECT_EQ(a.grh.traffic_class, 0x40);
	EXPECT_EQ(a.grh.flow_label, 0xabcu);
	EXPECT_EQ(0, std::memcmp(a.grh.dgid.raw, v6("fe80::2").raw, 16));
	g.next_hdr = 0x1b;
	ASSERT_EQ(from_wc(reader(kTable), 1, wc_with_grh(), g, a), 0);
	EXPECT_EQ(a.grh.sgid_index, 0);
	g.next_hdr = IPPROTO_TCP;
	errno = 0;
	EXPECT_EQ(from_wc(reader(kTable), 1, wc_with_grh(), g, a), -1);
	EXPECT_EQ(errno, EPROTONOSUPPORT);
}

TEST(AhFromWc, MulticastDestinationsAreRefused)
{
	ibv_ah_attr a;
	errno = 0;
	EXPECT_EQ(from_wc(reader(kTable), 1, wc_with_grh(),
			  ipv4_grh("10.0.2.2", "224.0.0.1", 1, 0), a), -1);
	EXPECT_EQ(errno, EINVAL);
	errno = 0;
	EXPECT_EQ(from_wc(reader(kTable), 1, wc_with_grh(),
			  ipv6_grh("fe80::2", "ff02::1", IPPROTO_UDP, 1, 0, 0), a), -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST(AhFromWc, UnknownGidAnswersTheFailedQuery)
{
	ibv_ah_attr a;
	errno = 0;
	EXPECT_EQ(from_wc(reader(kTable), 1, wc_with_grh(),
			  ipv4_grh("10.0.2.2", "10.9.9.9", 1, 0), a), -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST(AhFromWc, NeitherVersionIsEprotonosupport)
{
	ibv_grh g;
	std::memset(&g, 0, sizeof(g));
	ibv_ah_attr a;
	errno = 0;
	EXPECT_EQ(from_wc(reader(kTable), 1, wc_with_grh(), g, a), -1);
	EXPECT_EQ(errno, EPROTONOSUPPORT);
	EXPECT_EQ(a.is_global, 1);
}

} // namespace
