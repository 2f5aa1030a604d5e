// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What every benchmark program needs from a device: open it, find the
// RoCE GID, build RC QPs and walk them through the states.  Plain verbs, so
// the programs run unchanged on rdma-core's libibverbs and on ours.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace bench {

struct Device {
	ibv_context *ctx = nullptr;
	ibv_pd *pd = nullptr;
	uint8_t port = 1;
	int gid_index = 1;	// rxe: 1 is the IPv4-mapped GID of the NIC
	ibv_gid gid{};
};

[[noreturn]] inline void die(const char *what)
{
	std::fprintf(stderr, "bench: %s failed: %s\n", what, std::strerror(errno));
	std::exit(2);
}

// The device named by $OVB_BENCH_DEV (default rxe0).
inline ibv_device *find_device()
{
	const char *want = std::getenv("OVB_BENCH_DEV");
	std::string name = want ? want : "rxe0";
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	if (!list)
		die("ibv_get_device_list");
	ibv_device *found = nullptr;
	for (int i = 0; i < n; i++)
		if (name == ibv_get_device_name(list[i]))
			found = list[i];
	// The list is freed at exit: ibv_device objects outlive it anyway
	// (rdma-core keeps them while a context is open).
	if (!found) {
		std::fprintf(stderr, "bench: no device %s\n", name.c_str());
		std::exit(2);
	}
	return found;
}

inline Device open_device()
{
	Device d;
	d.ctx = ibv_open_device(find_device());
	if (!d.ctx)
		die("ibv_open_device");
	d.pd = ibv_alloc_pd(d.ctx);
	if (!d.pd)
		die("ibv_alloc_pd");
	if (ibv_query_gid(d.ctx, d.port, d.gid_index, &d.gid))
		die("ibv_query_gid");
	return d;
}

inline ibv_qp *create_rc_qp(const Device &d, ibv_cq *send_cq, ibv_cq *recv_cq)
{
	ibv_qp_init_attr init{};
	init.send_cq = send_cq;
	init.recv_cq = recv_cq;
	init.qp_type = IBV_QPT_RC;
	init.cap.max_send_wr = 64;
	init.cap.max_recv_wr = 64;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	init.cap.max_inline_data = 64;
	return ibv_create_qp(d.pd, &init);
}

inline int to_init(ibv_qp *qp, const Device &d)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.port_num = d.port;
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			    IBV_ACCESS_REMOTE_READ;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

inline int to_rtr(ibv_qp *qp, const Device &d, uint32_t dest_qpn)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest_qpn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = d.gid;
	a.ah_attr.grh.sgid_index = static_cast<uint8_t>(d.gid_index);
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = d.port;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				     IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				     IBV_QP_MAX_DEST_RD_ATOMIC |
				     IBV_QP_MIN_RNR_TIMER);
}

inline int to_rts(ibv_qp *qp)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
				     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

inline int to_reset(ibv_qp *qp)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RESET;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE);
}

// Connects a to b and b to a.
inline void connect(const Device &d, ibv_qp *a, ibv_qp *b)
{
	if (to_init(a, d) || to_init(b, d) || to_rtr(a, d, b->qp_num) ||
	    to_rtr(b, d, a->qp_num) || to_rts(a) || to_rts(b))
		die("connecting the RC pair");
}

} // namespace bench
