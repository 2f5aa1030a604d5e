// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Where our library and rxe provider once answered differently from
// rdma-core 44's (issue 17 part 2), printed as a transcript: run on
// rdma-core's library with its librxe and on ours with our rxe, the two
// outputs must be identical (tests/guest/rdmacore-parity).  No handles,
// keys or addresses are printed, only answers.
//
//   ovb_rdmacore_parity [device] [gid index]      (default rxe0 1)
#include <infiniband/verbs.h>

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Env {
	ibv_context *ctx = nullptr;
	ibv_pd *pd = nullptr;
	uint8_t port = 1;
	int gid_index = 1;
	ibv_gid gid{};
};

void say(const std::string &what, int rc, int err)
{
	if (rc)
		std::printf("%s: %d (%s)\n", what.c_str(), rc, std::strerror(err));
	else
		std::printf("%s: 0\n", what.c_str());
}

// ---------------------------------------------------- extended CQ create

void cq_ex(Env &e)
{
	struct Case {
		const char *name;
		uint32_t comp_mask;
		uint32_t flags;
		uint64_t wc_flags;
	} cases[] = {
		{"plain", 0, 0, IBV_WC_STANDARD_FLAGS},
		{"with a PD", IBV_CQ_INIT_ATTR_MASK_PD, 0, IBV_WC_STANDARD_FLAGS},
		{"flags 0", IBV_CQ_INIT_ATTR_MASK_FLAGS, 0, 0},
		{"ignore overrun", IBV_CQ_INIT_ATTR_MASK_FLAGS,
		 IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN, 0},
		{"unknown flag bit", IBV_CQ_INIT_ATTR_MASK_FLAGS, 1u << 7, 0},
		{"flags and PD", IBV_CQ_INIT_ATTR_MASK_FLAGS | IBV_CQ_INIT_ATTR_MASK_PD,
		 0, IBV_WC_EX_WITH_BYTE_LEN},
		{"flags without the mask bit", 0, 1u << 7, 0},
		{"completion timestamp", 0, 0, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP},
		// Not compared: an unknown comp_mask bit (1 << 2) fails on both,
		// but rdma-core's rxe leaves errno unset (its ibv_cmd_create_cq_ex
		// returns EOPNOTSUPP without setting it); ours sets EOPNOTSUPP.
	};
	for (const Case &c : cases) {
		ibv_cq_init_attr_ex a{};
		a.cqe = 16;
		a.comp_mask = c.comp_mask;
		a.flags = c.flags;
		a.wc_flags = c.wc_flags;
		a.parent_domain = e.pd;
		errno = 0;
		ibv_cq_ex *cq = ibv_create_cq_ex(e.ctx, &a);
		int err = errno;
		say(std::string("create_cq_ex ") + c.name, cq ? 0 : -1, err);
		if (cq)
			ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
	}
}

// ------------------------------------------------------ init_ah_from_wc

ibv_gid text_gid(const char *text)
{
	ibv_gid g{};
	inet_pton(AF_INET6, text, g.raw);
	return g;
}

uint16_t ip_checksum(const iphdr &h)
{
	uint16_t w[10];
	std::memcpy(w, &h, sizeof(w));
	uint32_t sum = 0;
	for (uint16_t x : w)
		sum += x;
	sum = (sum & 0xffff) + (sum >> 16);
	return static_cast<uint16_t>(~sum);
}

ibv_grh v4_grh(uint32_t src_be, uint32_t dst_be, uint8_t ttl, uint8_t tos)
{
	ibv_grh g;
	std::memset(&g, 0, sizeof(g));
	iphdr h{};
	h.version = 4;
	h.ihl = 5;
	h.ttl = ttl;
	h.tos = tos;
	h.protocol = IPPROTO_UDP;
	h.saddr = src_be;
	h.daddr = dst_be;
	h.check = ip_checksum(h);
	std::memcpy(reinterpret_cast<uint8_t *>(&g) + 20, &h, sizeof(h));
	return g;
}

ibv_grh v6_grh(const ibv_gid &src, const ibv_gid &dst, uint8_t next, uint8_t hop)
{
	ibv_grh g;
	std::memset(&g, 0, sizeof(g));
	g.version_tclass_flow = htobe32(6u << 28 | 0x28u << 20 | 0x1234);
	g.next_hdr = next;
	g.hop_limit = hop;
	g.sgid = src;
	g.dgid = dst;
	return g;
}

void ah_case(Env &e, const char *name, ibv_grh grh, bool with_grh = true)
{
	ibv_wc wc{};
	wc.wc_flags = with_grh ? IBV_WC_GRH : 0;
	wc.slid = 9;
	wc.sl = 2;
	ibv_ah_attr a;
	std::memset(&a, 0x77, sizeof(a));
	errno = 0;
	int rc = ibv_init_ah_from_wc(e.ctx, e.port, &wc, &grh, &a);
	int err = errno;
	char dgid[INET6_ADDRSTRLEN] = "";
	inet_ntop(AF_INET6, a.grh.dgid.raw, dgid, sizeof(dgid));
	if (rc)
		std::printf("init_ah_from_wc %s: %d (%s)\n", name, rc, std::strerror(err));
	else
		std::printf("init_ah_from_wc %s: 0 global %u sgid_index %u hop %u "
			    "tclass 0x%x flow 0x%x dgid %s dlid %u sl %u port %u\n",
			    name, a.is_global, a.grh.sgid_index, a.grh.hop_limit,
			    a.grh.traffic_class, a.grh.flow_label, dgid, a.dlid,
			    a.sl, a.port_num);
}

void ah_from_wc(Env &e)
{
	// Our GIDs: the IPv4-mapped one (RoCE v2) and a link-local IPv6 one.
	ibv_gid v4{}, v6{};
	bool have4 = false, have6 = false;
	for (int i = 0; i < 16; i++) {
		ibv_gid g;
		if (ibv_query_gid(e.ctx, e.port, i, &g))
			break;
		if (!have4 && !std::memcmp(g.raw, text_gid("::ffff:0.0.0.0").raw, 12)) {
			v4 = g;
			have4 = true;
		}
		if (!have6 && g.raw[0] == 0xfe) {
			v6 = g;
			have6 = true;
		}
	}
	std::printf("gids: ipv4-mapped %s, ipv6 %s\n", have4 ? "yes" : "no",
		    have6 ? "yes" : "no");
	uint32_t ours4, peer4 = htonl(0x0a000202);
	std::memcpy(&ours4, v4.raw + 12, 4);
	ibv_gid peer6 = text_gid("fe80::5054:ff:fe12:3456");
	ah_case(e, "no GRH", v6_grh(peer6, v6, IPPROTO_UDP, 33), false);
	if (have4) {
		ah_case(e, "ipv4", v4_grh(peer4, ours4, 17, 0x20));
		ah_case(e, "ipv4 multicast", v4_grh(peer4, htonl(0xe0000001), 1, 0));
		ah_case(e, "ipv4 not ours", v4_grh(peer4, htonl(0x0a090909), 1, 0));
	}
	if (have6) {
		ah_case(e, "ipv6 udp", v6_grh(peer6, v6, IPPROTO_UDP, 33));
		ah_case(e, "ipv6 bth", v6_grh(peer6, v6, 0x1b, 34));
		ah_case(e, "ipv6 tcp", v6_grh(peer6, v6, IPPROTO_TCP, 35));
		ah_case(e, "ipv6 multicast", v6_grh(peer6, text_gid("ff02::1"),
						     IPPROTO_UDP, 1));
	}
	ibv_grh zero;
	std::memset(&zero, 0, sizeof(zero));
	ah_case(e, "neither version", zero);
}

// --------------------------------------------------------- posting rules

struct Qp {
	ibv_cq *cq = nullptr;
	ibv_qp *qp = nullptr;
	~Qp()
	{
		if (qp)
			ibv_destroy_qp(qp);
		if (cq)
			ibv_destroy_cq(cq);
	}
};

bool make_qp(Env &e, Qp &q, ibv_qp_type type, ibv_pd *pd)
{
	q.cq = ibv_create_cq(e.ctx, 32, nullptr, nullptr, 0);
	if (!q.cq)
		return false;
	ibv_qp_init_attr init{};
	init.send_cq = init.recv_cq = q.cq;
	init.qp_type = type;
	init.cap.max_send_wr = init.cap.max_recv_wr = 8;
	init.cap.max_send_sge = init.cap.max_recv_sge = 1;
	q.qp = ibv_create_qp(pd, &init);
	return q.qp != nullptr;
}

bool modify(ibv_qp *qp, ibv_qp_attr &a, int mask)
{
	return !ibv_modify_qp(qp, &a, mask);
}

// To RTS against itself (RC/UC) or as a UD QP.
bool to_rts(Env &e, ibv_qp *qp, ibv_qp_type type)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.port_num = e.port;
	if (type == IBV_QPT_UD) {
		a.qkey = 0x11111111;
		if (!modify(qp, a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				     IBV_QP_QKEY))
			return false;
		a = {};
		a.qp_state = IBV_QPS_RTR;
		if (!modify(qp, a, IBV_QP_STATE))
			return false;
		a = {};
		a.qp_state = IBV_QPS_RTS;
		return modify(qp, a, IBV_QP_STATE | IBV_QP_SQ_PSN);
	}
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			    IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
	if (!modify(qp, a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			     IBV_QP_ACCESS_FLAGS))
		return false;
	a = {};
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = e.gid;
	a.ah_attr.grh.sgid_index = static_cast<uint8_t>(e.gid_index);
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = e.port;
	int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
		   IBV_QP_RQ_PSN;
	if (type == IBV_QPT_RC) {
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 1;
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	if (!modify(qp, a, mask))
		return false;
	a = {};
	a.qp_state = IBV_QPS_RTS;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (type == IBV_QPT_RC) {
		a.timeout = 10;
		a.retry_cnt = 1;
		a.rnr_retry = 1;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	return modify(qp, a, mask);
}

// The status of the next completion within 5 s, or "none".
std::string next_status(ibv_cq *cq)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
	ibv_wc wc{};
	while (std::chrono::steady_clock::now() < end) {
		int n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			return "poll failed";
		if (n == 1)
			return std::string(ibv_wc_status_str(wc.status)) + " wr_id " +
			       std::to_string(wc.wr_id);
	}
	return "none";
}

void posting(Env &e)
{
	const char *names[] = {"RC", "UC", "UD"};
	ibv_qp_type types[] = {IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD};
	std::vector<uint8_t> mem(4096);
	ibv_mr *mr = ibv_reg_mr(e.pd, mem.data(), mem.size(),
				IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND |
				IBV_ACCESS_REMOTE_WRITE);
	if (!mr) {
		std::printf("reg_mr failed: %s\n", std::strerror(errno));
		return;
	}
	for (int t = 0; t < 3; t++) {
		Qp q;
		if (!make_qp(e, q, types[t], e.pd)) {
			std::printf("%s: create failed (%s)\n", names[t], std::strerror(errno));
			continue;
		}
		// Before RTS: an empty list, and a receive in RESET.
		ibv_send_wr *bad = reinterpret_cast<ibv_send_wr *>(1);
		int rc = ibv_post_send(q.qp, nullptr, &bad);
		std::printf("%s post_send empty list: %d bad %s\n", names[t], rc,
			    bad ? (bad == reinterpret_cast<ibv_send_wr *>(1) ? "untouched" : "set") : "NULL");
		ibv_recv_wr *rbad = reinterpret_cast<ibv_recv_wr *>(1);
		ibv_sge sge{reinterpret_cast<uintptr_t>(mem.data()), 64, mr->lkey};
		ibv_recv_wr rwr{};
		rwr.sg_list = &sge;
		rwr.num_sge = 1;
		rc = ibv_post_recv(q.qp, &rwr, &rbad);
		std::printf("%s post_recv in RESET: %d bad %s\n", names[t], rc,
			    rbad == &rwr ? "the WR" : rbad ? "untouched" : "NULL");
		if (!to_rts(e, q.qp, types[t])) {
			std::printf("%s: to RTS failed (%s)\n", names[t], std::strerror(errno));
			continue;
		}
		rbad = reinterpret_cast<ibv_recv_wr *>(1);
		rc = ibv_post_recv(q.qp, nullptr, &rbad);
		std::printf("%s post_recv empty list: %d bad %s\n", names[t], rc,
			    rbad ? "untouched" : "NULL");
		// A bind WR with something it must not carry: refused at post.
		ibv_mw *mw = ibv_alloc_mw(e.pd, IBV_MW_TYPE_1);
		ibv_send_wr wr{};
		wr.wr_id = 40;
		wr.opcode = IBV_WR_BIND_MW;
		wr.bind_mw.mw = mw;
		wr.bind_mw.bind_info.mr = mr;
		wr.bind_mw.bind_info.addr = reinterpret_cast<uintptr_t>(mem.data());
		wr.bind_mw.bind_info.length = 64;
		wr.imm_data = htobe32(1);
		if (mw) {
			bad = nullptr;
			rc = ibv_post_send(q.qp, &wr, &bad);
			std::printf("%s bind WR with immediate data: %d bad %s\n", names[t], rc,
				    bad == &wr ? "the WR" : bad ? "other" : "NULL");
			ibv_dealloc_mw(mw);
		}
		// A type 1 bind by ibv_bind_mw with a zero-based window.
		if (types[t] != IBV_QPT_UD && (mw = ibv_alloc_mw(e.pd, IBV_MW_TYPE_1))) {
			ibv_mw_bind b{};
			b.wr_id = 41;
			b.bind_info.mr = mr;
			b.bind_info.addr = reinterpret_cast<uintptr_t>(mem.data());
			b.bind_info.length = 64;
			b.bind_info.mw_access_flags = IBV_ACCESS_ZERO_BASED;
			errno = 0;
			rc = ibv_bind_mw(q.qp, mw, &b);
			say(std::string(names[t]) + " ibv_bind_mw zero-based", rc, errno);
			ibv_dealloc_mw(mw);
		}
		// An opcode rxe does not do (TSO): posted, failed by the kernel.
		if (types[t] == IBV_QPT_RC) {
			wr = {};
			wr.wr_id = 42;
			wr.opcode = IBV_WR_TSO;
			wr.send_flags = IBV_SEND_SIGNALED;
			wr.sg_list = &sge;
			wr.num_sge = 1;
			bad = nullptr;
			rc = ibv_post_send(q.qp, &wr, &bad);
			std::printf("RC post TSO: %d", rc);
			std::printf(", completion: %s\n", rc ? "-" : next_status(q.cq).c_str());
		}
	}
	// A bind whose QP is on another PD than the window: posted, and it
	// fails in its completion.
	ibv_pd *other = ibv_alloc_pd(e.ctx);
	{
	Qp q;
	if (other && make_qp(e, q, IBV_QPT_RC, other) && to_rts(e, q.qp, IBV_QPT_RC)) {
		ibv_mw *mw = ibv_alloc_mw(e.pd, IBV_MW_TYPE_1);
		ibv_mw_bind b{};
		b.wr_id = 43;
		b.send_flags = IBV_SEND_SIGNALED;
		b.bind_info.mr = mr;
		b.bind_info.addr = reinterpret_cast<uintptr_t>(mem.data());
		b.bind_info.length = 64;
		b.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
		uint32_t before = mw ? mw->rkey : 0;
		errno = 0;
		int rc = mw ? ibv_bind_mw(q.qp, mw, &b) : -1;
		std::printf("bind on a QP of another PD: %d, rkey %s, completion: %s\n",
			    rc, mw && mw->rkey != before ? "advanced" : "kept",
			    rc ? "-" : next_status(q.cq).c_str());
		if (mw)
			ibv_dealloc_mw(mw);
	} else {
		std::printf("other PD's QP: setup failed (%s)\n", std::strerror(errno));
	}
	}
	if (other)
		ibv_dealloc_pd(other);
	ibv_dereg_mr(mr);
}

// ------------------------------------- extended CQ polling, after resize

// Sends with immediate data from an RC QP to itself: n receives, n sends.
bool send_to_self(ibv_qp *qp, ibv_mr *mr, uint8_t *mem, int n, int first)
{
	for (int i = 0; i < n; i++) {
		ibv_sge r{reinterpret_cast<uintptr_t>(mem + 2048), 1024, mr->lkey};
		ibv_recv_wr rwr{};
		rwr.wr_id = 100 + first + i;
		rwr.sg_list = &r;
		rwr.num_sge = 1;
		ibv_recv_wr *rbad;
		if (ibv_post_recv(qp, &rwr, &rbad))
			return false;
		ibv_sge sg{reinterpret_cast<uintptr_t>(mem), static_cast<uint32_t>(10 + first + i),
			   mr->lkey};
		ibv_send_wr wr{};
		wr.wr_id = first + i;
		wr.opcode = IBV_WR_SEND_WITH_IMM;
		wr.imm_data = htobe32(0xabc000 + first + i);
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.sg_list = &sg;
		wr.num_sge = 1;
		ibv_send_wr *bad;
		if (ibv_post_send(qp, &wr, &bad))
			return false;
	}
	return true;
}

void print_sorted(const char *what, std::vector<std::string> lines)
{
	std::sort(lines.begin(), lines.end());	// send/receive order is the kernel's
	for (const std::string &l : lines)
		std::printf("%s: %s\n", what, l.c_str());
}

void cq_polling(Env &e)
{
	std::vector<uint8_t> mem(4096);
	ibv_mr *mr = ibv_reg_mr(e.pd, mem.data(), mem.size(), IBV_ACCESS_LOCAL_WRITE);
	ibv_cq_init_attr_ex ca{};
	ca.cqe = 8;
	ca.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM |
		      IBV_WC_EX_WITH_SRC_QP | IBV_WC_EX_WITH_SL;
	ibv_cq_ex *cq = ibv_create_cq_ex(e.ctx, &ca);
	ibv_qp_init_attr init{};
	init.send_cq = init.recv_cq = cq ? ibv_cq_ex_to_cq(cq) : nullptr;
	init.qp_type = IBV_QPT_RC;
	init.cap.max_send_wr = init.cap.max_recv_wr = 8;
	init.cap.max_send_sge = init.cap.max_recv_sge = 1;
	ibv_qp *qp = cq ? ibv_create_qp(e.pd, &init) : nullptr;
	if (!mr || !cq || !qp || !to_rts(e, qp, IBV_QPT_RC) ||
	    !send_to_self(qp, mr, mem.data(), 3, 0)) {
		std::printf("cq polling: setup failed (%s)\n", std::strerror(errno));
		return;
	}
	// Extended polling: every field asked for, 6 completions.  They are
	// all in the CQ before the first batch (6.12's rxe completes from a
	// workqueue), and the batch ends with ibv_end_poll() on the sixth, so
	// no ibv_next_poll() answers ENOENT: rdma-core 44's librxe consumes
	// one entry too many when ibv_end_poll() follows that ENOENT, as its
	// man page asks (userspace.md, "Known differences"; ours does not).
	std::this_thread::sleep_for(std::chrono::seconds(2));
	std::vector<std::string> got;
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
	while (got.size() < 6 && std::chrono::steady_clock::now() < end) {
		ibv_poll_cq_attr pa{};
		if (ibv_start_poll(cq, &pa))
			continue;
		do {
			char line[200];
			bool recv = ibv_wc_read_opcode(cq) == IBV_WC_RECV;
			std::snprintf(line, sizeof(line),
				      "wr_id %lu %s opcode %d byte_len %u imm 0x%x flags 0x%x own qp %d",
				      static_cast<unsigned long>(cq->wr_id),
				      ibv_wc_status_str(cq->status), ibv_wc_read_opcode(cq),
				      recv ? ibv_wc_read_byte_len(cq) : 0,
				      recv ? be32toh(ibv_wc_read_imm_data(cq)) : 0,
				      ibv_wc_read_wc_flags(cq),
				      ibv_wc_read_qp_num(cq) == qp->qp_num);
			got.push_back(line);
		} while (got.size() < 6 && !ibv_next_poll(cq));
		ibv_end_poll(cq);
	}
	print_sorted("ex poll", got);
	ibv_poll_cq_attr pa{};
	int empty = ibv_start_poll(cq, &pa);
	if (!empty)
		ibv_end_poll(cq);
	std::printf("start_poll on the drained CQ: %s\n", std::strerror(empty));
	// A resize with completions pending: all of them come out after it.
	send_to_self(qp, mr, mem.data(), 3, 3);
	std::this_thread::sleep_for(std::chrono::seconds(2));
	int rc = ibv_resize_cq(ibv_cq_ex_to_cq(cq), 64);
	std::printf("resize to 64 with completions pending: %d, cqe >= 64: %d\n", rc,
		    ibv_cq_ex_to_cq(cq)->cqe >= 64);
	ibv_wc wc[16];
	int n = ibv_poll_cq(ibv_cq_ex_to_cq(cq), 16, wc);
	std::vector<std::string> after;
	for (int i = 0; i < n; i++) {
		char line[120];
		std::snprintf(line, sizeof(line), "wr_id %lu %s opcode %d byte_len %u",
			      static_cast<unsigned long>(wc[i].wr_id),
			      ibv_wc_status_str(wc[i].status), wc[i].opcode,
			      wc[i].opcode == IBV_WC_RECV ? wc[i].byte_len : 0);
		after.push_back(line);
	}
	std::printf("poll after resize: %d\n", n);
	print_sorted("after resize", after);
	ibv_destroy_qp(qp);
	ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
	ibv_dereg_mr(mr);
}

} // namespace

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "rxe0";
	Env e;
	e.gid_index = argc > 2 ? std::atoi(argv[2]) : 1;
	setvbuf(stdout, nullptr, _IOLBF, 0);
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n && !e.ctx; i++)
		if (!std::strcmp(ibv_get_device_name(list[i]), name))
			e.ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!e.ctx) {
		std::fprintf(stderr, "no device %s\n", name);
		return 1;
	}
	e.pd = ibv_alloc_pd(e.ctx);
	if (!e.pd || ibv_query_gid(e.ctx, e.port, e.gid_index, &e.gid)) {
		std::fprintf(stderr, "no PD or GID\n");
		return 1;
	}
	cq_ex(e);
	ah_from_wc(e);
	posting(e);
	cq_polling(e);
	ibv_dealloc_pd(e.pd);
	ibv_close_device(e.ctx);
	return 0;
}
