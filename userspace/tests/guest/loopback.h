// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Helpers of the guest programs that run one loopback device (rxe0 or
// siw0) on our library and on rdma-core's: opening it, an RC QP brought
// to RTS towards another QP of the same port, polling with a deadline, and
// which libibverbs the process really mapped (the scripts assert it, so a
// reference run cannot silently be ours-vs-ours).
#pragma once

#include <infiniband/verbs.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace loopback {

struct Env {
	ibv_device **list = nullptr;
	ibv_context *ctx = nullptr;
	ibv_pd *pd = nullptr;
	uint8_t port = 1;
	int gid_index = 1;
	ibv_gid gid{};

	bool open(const char *name, int gid_idx)
	{
		gid_index = gid_idx;
		int n = 0;
		list = ibv_get_device_list(&n);
		for (int i = 0; list && i < n; i++)
			if (!std::strcmp(ibv_get_device_name(list[i]), name))
				ctx = ibv_open_device(list[i]);
		return ctx && (pd = ibv_alloc_pd(ctx)) &&
		       !ibv_query_gid(ctx, port, gid_index, &gid);
	}
	// What each loopback program starts with: stdout line-buffered, the
	// libibverbs it mapped on the first line, then the device and GID
	// index of its command line (rxe0 and 1 when absent) opened; says
	// "no usable device" when that fails.
	bool open_from_args(int argc, char **argv);
	~Env()
	{
		if (pd)
			ibv_dealloc_pd(pd);
		if (ctx)
			ibv_close_device(ctx);
		if (list)
			ibv_free_device_list(list);
	}
};

constexpr int kAllAccess = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC |
			   IBV_ACCESS_MW_BIND;

// The file libibverbs.so.1 was mapped from ("" when none).
inline std::string mapped_libibverbs()
{
	std::ifstream maps("/proc/self/maps");
	std::string line;
	while (std::getline(maps, line)) {
		auto at = line.find('/');
		if (at != std::string::npos &&
		    line.find("/libibverbs.so", at) != std::string::npos)
			return line.substr(at);
	}
	return "";
}

inline bool Env::open_from_args(int argc, char **argv)
{
	std::setvbuf(stdout, nullptr, _IOLBF, 0);
	std::printf("# libibverbs %s\n", mapped_libibverbs().c_str());
	if (open(argc > 1 ? argv[1] : "rxe0", argc > 2 ? std::atoi(argv[2]) : 1))
		return true;
	std::printf("no usable device\n");
	return false;
}

inline bool to_init(ibv_qp *qp, const Env &e, int access = kAllAccess)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.port_num = e.port;
	a.qp_access_flags = static_cast<unsigned>(access);
	return !ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					   IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

// RTR and RTS towards dest_qpn on the same port (RC).  retry_cnt 1 makes a
// lost packet an error soon; loaded programs want 7 (6.12's rxe drops
// packets under several threads' load: retry exceeded with 1).
inline bool to_rts(ibv_qp *qp, const Env &e, uint32_t dest_qpn, uint8_t retry_cnt = 1)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest_qpn;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = e.gid;
	a.ah_attr.grh.sgid_index = static_cast<uint8_t>(e.gid_index);
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = e.port;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
					 IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					 IBV_QP_MAX_DEST_RD_ATOMIC |
					 IBV_QP_MIN_RNR_TIMER))
		return false;
	a = {};
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 10;
	a.retry_cnt = retry_cnt;
	a.rnr_retry = 7;
	a.max_rd_atomic = 4;
	return !ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
					 IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					 IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

// One completion from cq within ms milliseconds.
inline bool poll_one(ibv_cq *cq, ibv_wc &wc, int ms = 10000)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
	do {
		int n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			return false;
		if (n == 1)
			return true;
	} while (std::chrono::steady_clock::now() < end);
	return false;
}

inline bool post_recv(ibv_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey,
		      uint64_t wr_id)
{
	ibv_sge sge{addr, len, lkey};
	ibv_recv_wr wr{};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ibv_recv_wr *bad = nullptr;
	return ibv_post_recv(qp, &wr, &bad) == 0;
}

} // namespace loopback
