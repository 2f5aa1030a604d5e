// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Address handles, and building one from a received completion.
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/ip.h>

#include "context.h"
#include "export.h"

namespace {

// The GID index of gid on port, or -1.
int find_sgid_index(ibv_context *ctx, uint8_t port, const ibv_gid &gid)
{
	ibv_port_attr pa{};
	if (ibv_query_port(ctx, port, &pa))
		return -1;
	for (int i = 0; i < pa.gid_tbl_len; i++) {
		ibv_gid cur;
		if (ibv_query_gid(ctx, port, i, &cur))
			continue;
		if (!std::memcmp(cur.raw, gid.raw, sizeof(cur.raw)))
			return i;
	}
	return -1;
}

void ipv4_mapped(uint32_t addr_be, ibv_gid &gid)
{
	std::memset(gid.raw, 0, sizeof(gid.raw));
	gid.raw[10] = 0xff;
	gid.raw[11] = 0xff;
	std::memcpy(gid.raw + 12, &addr_be, 4);
}

} // namespace

OVB_EXPORT ibv_ah *ibv_create_ah(ibv_pd *pd, ibv_ah_attr *attr)
{
	ibv_ah *ah = ovb::call(pd->context, &ovb_context_ops::create_ah, pd, attr);
	if (ah) {
		ah->context = pd->context;
		ah->pd = pd;
	}
	return ah;
}

OVB_EXPORT int ibv_destroy_ah(ibv_ah *ah)
{
	return ovb::call(ah->context, &ovb_context_ops::destroy_ah, ah);
}

OVB_EXPORT int ibv_init_ah_from_wc(ibv_context *ctx, uint8_t port_num,
				   ibv_wc *wc, ibv_grh *grh,
				   ibv_ah_attr *ah_attr)
{
	std::memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->dlid = wc->slid;
	ah_attr->sl = wc->sl;
	ah_attr->src_path_bits = wc->dlid_path_bits;
	ah_attr->port_num = port_num;
	if (!(wc->wc_flags & IBV_WC_GRH))
		return 0;

	ibv_gid sgid, dgid;
	// RoCE v2 over IPv4 puts the IPv4 header in the last 20 bytes.
	auto *ip4 = reinterpret_cast<const iphdr *>(
		reinterpret_cast<const uint8_t *>(grh) + 20);
	if (ip4->version == 4) {
		ipv4_mapped(ip4->daddr, sgid);
		ipv4_mapped(ip4->saddr, dgid);
		ah_attr->grh.traffic_class = ip4->tos;
	} else {
		sgid = grh->dgid;
		dgid = grh->sgid;
		uint32_t flow = be32toh(grh->version_tclass_flow);
		ah_attr->grh.flow_label = flow & 0xfffff;
		ah_attr->grh.traffic_class = (flow >> 20) & 0xff;
	}
	ah_attr->is_global = 1;
	ah_attr->grh.dgid = dgid;
	ah_attr->grh.hop_limit = 0xff;
	int idx = find_sgid_index(ctx, port_num, sgid);
	if (idx < 0) {
		errno = ENOENT;
		return -1;
	}
	ah_attr->grh.sgid_index = static_cast<uint8_t>(idx);
	return 0;
}

OVB_EXPORT ibv_ah *ibv_create_ah_from_wc(ibv_pd *pd, ibv_wc *wc, ibv_grh *grh,
					 uint8_t port_num)
{
	ibv_ah_attr attr;
	if (ibv_init_ah_from_wc(pd->context, port_num, wc, grh, &attr))
		return nullptr;
	return ibv_create_ah(pd, &attr);
}

// Our providers get the L2 address from the kernel (rxe's ah_num), so this
// userspace neighbour lookup is not implemented.
OVB_EXPORT int ibv_resolve_eth_l2_from_gid(ibv_context *, ibv_ah_attr *,
					   uint8_t[], uint16_t *)
{
	errno = EOPNOTSUPP;
	return -EOPNOTSUPP;
}

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_create_ah, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_destroy_ah, "IBVERBS_1.1");
