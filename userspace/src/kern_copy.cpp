// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The libibverbs 1.0 marshalling helpers between kernel structs (here the
// layout-identical ovb_* ones and <rdma/ib_user_sa.h>) and verbs structs.
#include <cstring>
#include <infiniband/sa.h>
#include <rdma/ib_user_sa.h>

#include "export.h"
#include "kern_attr.h"

namespace {

template <class D, class S>
void copy_path(D &d, const S &s)
{
	std::memcpy(&d.dgid, &s.dgid, 16);
	std::memcpy(&d.sgid, &s.sgid, 16);
	d.dlid = s.dlid;
	d.slid = s.slid;
	d.raw_traffic = s.raw_traffic;
	d.flow_label = s.flow_label;
	d.reversible = s.reversible;
	d.mtu = static_cast<uint8_t>(s.mtu);
	d.pkey = s.pkey;
	d.hop_limit = s.hop_limit;
	d.traffic_class = s.traffic_class;
	d.numb_path = s.numb_path;
	d.sl = s.sl;
	d.mtu_selector = s.mtu_selector;
	d.rate_selector = s.rate_selector;
	d.rate = s.rate;
	d.packet_life_time_selector = s.packet_life_time_selector;
	d.packet_life_time = s.packet_life_time;
	d.preference = s.preference;
}

} // namespace

OVB_EXPORT void ibv_copy_ah_attr_from_kern(ibv_ah_attr *dst,
					   const ovb_ah_attr *src)
try {
	ovb::decode_ah_attr(*src, *dst);
} OVB_ABI_CATCH_VOID

OVB_EXPORT void ibv_copy_qp_attr_from_kern(ibv_qp_attr *dst,
					   const ovb_qp_attr *src)
try {
	ovb::decode_qp_attr(*src, *dst);
} OVB_ABI_CATCH_VOID

OVB_EXPORT void ibv_copy_path_rec_from_kern(ibv_sa_path_rec *dst,
					    const ib_user_path_rec *src)
try {
	copy_path(*dst, *src);
} OVB_ABI_CATCH_VOID

OVB_EXPORT void ibv_copy_path_rec_to_kern(ib_user_path_rec *dst,
					  const ibv_sa_path_rec *src)
try {
	copy_path(*dst, *src);
} OVB_ABI_CATCH_VOID
