// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Several threads posting (ibv_wr_* on extended QPs) and polling at once
// on one context: first each thread with its own loopback RC pair and
// CQs, then every thread's pair on one shared send CQ and one shared
// receive CQ that all threads poll.  Each send carries its thread, round
// and sequence number; every completion must be accounted for exactly
// once (right QP, right wr_id, success) and every received payload must
// match its wr_id.  Run by tests/guest/wr-verbs on both libraries.
//
//   ovb_wr_threads [device] [gid index] [threads] [rounds]
#include "loopback.h"

#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace loopback;

namespace {

constexpr int kDepth = 8;	// sends in flight per thread
constexpr uint32_t kMsg = 64;

std::mutex g_lock;
std::vector<std::string> g_errors;

void error(const std::string &s)
{
	std::lock_guard<std::mutex> l(g_lock);
	if (g_errors.size() < 20)
		g_errors.push_back(s);
}

struct Worker {
	int t = 0;
	ibv_cq *scq = nullptr, *rcq = nullptr;	// own or shared
	ibv_qp *qp[2] = {};
	ibv_mr *mr = nullptr;
	std::vector<uint64_t> mem;		// send slots, then receive slots
	std::vector<std::atomic<int>> seen_send, seen_recv;
	std::atomic<int> sends_done{0}, recvs_done{0};
	explicit Worker(int n) : seen_send(n), seen_recv(n) {}
};

bool make(Env &e, Worker &w, ibv_cq *scq, ibv_cq *rcq)
{
	w.scq = scq ? scq : ibv_create_cq(e.ctx, 4 * kDepth, nullptr, nullptr, 0);
	w.rcq = rcq ? rcq : ibv_create_cq(e.ctx, 4 * kDepth, nullptr, nullptr, 0);
	w.mem.assign(2 * kDepth * kMsg / 8, 0);
	w.mr = ibv_reg_mr(e.pd, w.mem.data(), w.mem.size() * 8, kAllAccess);
	for (auto &q : w.qp) {
		ibv_qp_init_attr_ex a{};
		a.qp_type = IBV_QPT_RC;
		a.send_cq = w.scq;
		a.recv_cq = w.rcq;
		a.cap.max_send_wr = a.cap.max_recv_wr = 2 * kDepth;
		a.cap.max_send_sge = a.cap.max_recv_sge = 1;
		a.pd = e.pd;
		a.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		a.send_ops_flags = IBV_QP_EX_WITH_SEND_WITH_IMM;
		q = ibv_create_qp_ex(e.ctx, &a);
		if (!q || !to_init(q, e))
			return false;
	}
	return w.scq && w.rcq && w.mr && to_rts(w.qp[0], e, w.qp[1]->qp_num, 7) &&
	       to_rts(w.qp[1], e, w.qp[0]->qp_num, 7);
}

void destroy(Worker &w, bool shared)
{
	for (auto q : w.qp)
		if (q)
			ibv_destroy_qp(q);
	if (w.mr)
		ibv_dereg_mr(w.mr);
	if (!shared) {
		ibv_destroy_cq(w.scq);
		ibv_destroy_cq(w.rcq);
	}
}

// Account for one completion (any worker's, on a shared CQ).
void account(std::vector<Worker *> &all, const ibv_wc &wc)
{
	int t = int(wc.wr_id >> 32), seq = int(wc.wr_id & 0xffffffff);
	if (t < 0 || t >= int(all.size()) || wc.status != IBV_WC_SUCCESS) {
		error("bad completion wr_id " + std::to_string(wc.wr_id) + " " +
		      ibv_wc_status_str(wc.status));
		return;
	}
	Worker &w = *all[t];
	if (seq >= int(w.seen_send.size())) {
		error("wr_id out of range");
		return;
	}
	bool recv = wc.opcode & IBV_WC_RECV;
	if (wc.qp_num != w.qp[recv ? 1 : 0]->qp_num)
		error("completion on the wrong QP");
	if (recv) {
		// Payload: the immediate and the first word carry the wr_id.
		uint64_t *slot = &w.mem[(kDepth + seq % kDepth) * kMsg / 8];
		if (wc.byte_len != kMsg || ntohl(wc.imm_data) != uint32_t(seq) ||
		    *slot != wc.wr_id)
			error("received payload does not match wr_id " + std::to_string(wc.wr_id));
		if (w.seen_recv[seq]++)
			error("receive completed twice");
		w.recvs_done++;
	} else {
		if (w.seen_send[seq]++)
			error("send completed twice");
		w.sends_done++;
	}
}

void poll_some(ibv_cq *cq, std::vector<Worker *> &all)
{
	ibv_wc wc[8];
	int n = ibv_poll_cq(cq, 8, wc);
	if (n < 0)
		error("poll_cq failed");
	for (int i = 0; i < n; i++)
		account(all, wc[i]);
}

// Post rounds sends (kDepth in flight); poll own CQs or the shared ones.
void run(Worker &w, std::vector<Worker *> &all, int rounds)
{
	ibv_qp_ex *x = ibv_qp_to_qp_ex(w.qp[0]);
	int total = rounds * kDepth, posted = 0;
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (w.sends_done < total || w.recvs_done < total) {
		if (std::chrono::steady_clock::now() > end) {
			error("thread " + std::to_string(w.t) + " timed out at " +
			      std::to_string(w.sends_done) + "/" + std::to_string(w.recvs_done));
			return;
		}
		// A slot is reusable once the send and the receive that last used
		// it were accounted for (by whichever thread polled them: counts
		// alone would let a slot be rewritten before a slower poller
		// checked its payload).
		while (posted < total &&
		       (posted < kDepth || (w.seen_send[posted - kDepth] && w.seen_recv[posted - kDepth]))) {
			uint64_t id = uint64_t(w.t) << 32 | uint32_t(posted);
			uint64_t *src = &w.mem[(posted % kDepth) * kMsg / 8];
			uint64_t *dst = &w.mem[(kDepth + posted % kDepth) * kMsg / 8];
			*src = id;
			*dst = 0;
			post_recv(w.qp[1], reinterpret_cast<uintptr_t>(dst), kMsg, w.mr->lkey, id);
			ibv_wr_start(x);
			x->wr_id = id;
			x->wr_flags = IBV_SEND_SIGNALED;
			ibv_wr_send_imm(x, htonl(uint32_t(posted)));
			ibv_wr_set_sge(x, w.mr->lkey, reinterpret_cast<uintptr_t>(src), kMsg);
			if (ibv_wr_complete(x)) {
				error("wr_complete failed");
				return;
			}
			posted++;
		}
		poll_some(w.scq, all);
		poll_some(w.rcq, all);
	}
}

bool phase(Env &e, int threads, int rounds, bool shared)
{
	g_errors.clear();
	ibv_cq *scq = nullptr, *rcq = nullptr;
	if (shared) {
		scq = ibv_create_cq(e.ctx, 4 * kDepth * threads, nullptr, nullptr, 0);
		rcq = ibv_create_cq(e.ctx, 4 * kDepth * threads, nullptr, nullptr, 0);
	}
	std::vector<Worker *> all;
	bool ok = true;
	for (int t = 0; t < threads; t++) {
		all.push_back(new Worker(rounds * kDepth));
		all.back()->t = t;
		ok = ok && make(e, *all.back(), scq, rcq);
	}
	if (ok) {
		std::vector<std::thread> th;
		for (auto *w : all)
			th.emplace_back(run, std::ref(*w), std::ref(all), rounds);
		for (auto &t : th)
			t.join();
	} else {
		error("setup failed");
	}
	long sends = 0, recvs = 0, missing = 0;
	for (auto *w : all) {
		sends += w->sends_done;
		recvs += w->recvs_done;
		for (size_t i = 0; i < w->seen_send.size(); i++)
			missing += (w->seen_send[i] != 1) + (w->seen_recv[i] != 1);
		destroy(*w, shared);
		delete w;
	}
	if (shared) {
		ibv_destroy_cq(scq);
		ibv_destroy_cq(rcq);
	}
	long want = long(threads) * rounds * kDepth;
	std::printf("%s: %d threads x %d sends: %ld sends and %ld receives completed, %ld not exactly once\n",
		    shared ? "shared CQs" : "own CQs", threads, rounds * kDepth, sends, recvs, missing);
	for (auto &s : g_errors)
		std::printf("  error: %s\n", s.c_str());
	return g_errors.empty() && sends == want && recvs == want && !missing;
}

} // namespace

int main(int argc, char **argv)
{
	Env e;
	if (!e.open_from_args(argc, argv))
		return 4;
	int threads = argc > 3 ? std::atoi(argv[3]) : 4;
	int rounds = argc > 4 ? std::atoi(argv[4]) : 200;
	bool ok = phase(e, threads, rounds, false);
	ok = phase(e, threads, rounds, true) && ok;
	return ok ? 0 : 1;
}
