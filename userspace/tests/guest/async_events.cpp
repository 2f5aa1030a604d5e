// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Asynchronous events on a loopback device and the wait of the destroy
// verbs for them: a QP moved to SQD drains its send queue (the driver
// reports IBV_EVENT_SQ_DRAINED for that QP), a CQ that overflows is
// reported as IBV_EVENT_CQ_ERR, and a completion channel event is read
// with ibv_get_cq_event.  While such an event is not acknowledged,
// ibv_destroy_qp / ibv_destroy_cq (run in a second thread) must not return;
// after ibv_ack_async_event / ibv_ack_cq_events they must return 0 within
// seconds.  A destroy that never returns fails the run (exit 2 after a
// deadline) instead of hanging it.  Run by tests/guest/wr-verbs on both
// libraries; the printed lines must be the same.
//
//   ovb_async_events [device] [gid index]
#include "loopback.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <poll.h>
#include <thread>
#include <vector>
#include <unistd.h>

using namespace loopback;

namespace {

int g_fail;

void check(bool ok, const char *what)
{
	std::printf("%s: %s\n", what, ok ? "ok" : "FAIL");
	if (!ok)
		g_fail++;
}

// The next async event within ms milliseconds (false: none).
bool get_event(ibv_context *ctx, ibv_async_event &ev, int ms = 5000)
{
	pollfd p{ctx->async_fd, POLLIN, 0};
	if (poll(&p, 1, ms) != 1)
		return false;
	return ibv_get_async_event(ctx, &ev) == 0;
}

// destroy() in a thread: still running after 500 ms, then ack(), then it
// returns (rc 0) within 5 s.  A destroy stuck after that ends the process.
void destroy_waits(const char *what, std::function<int()> destroy, std::function<void()> ack)
{
	std::atomic<int> rc{-1000};
	std::thread t([&] { rc = destroy(); });
	usleep(500 * 1000);
	bool blocked = rc == -1000;
	ack();
	for (int i = 0; i < 500 && rc == -1000; i++)
		usleep(10 * 1000);
	std::printf("%s: blocked before the ack %s, after it returned %d\n", what,
		    blocked ? "yes" : "no", rc.load());
	if (rc == -1000) {
		std::printf("%s: still blocked 5 s after the ack: FAIL\n", what);
		std::fflush(stdout);
		_exit(2);
	}
	t.join();
	check(blocked && rc == 0, what);
}

struct Pair {
	ibv_cq *cq[2] = {};
	ibv_qp *qp[2] = {};
	bool make(Env &e, int send_cqe, ibv_comp_channel *ch = nullptr)
	{
		for (int i = 0; i < 2; i++) {
			cq[i] = ibv_create_cq(e.ctx, i ? 64 : send_cqe, nullptr, i ? nullptr : ch, 0);
			ibv_qp_init_attr a{};
			a.send_cq = a.recv_cq = cq[i];
			a.qp_type = IBV_QPT_RC;
			a.cap.max_send_wr = a.cap.max_recv_wr = 32;
			a.cap.max_send_sge = a.cap.max_recv_sge = 1;
			if (!cq[i] || !(qp[i] = ibv_create_qp(e.pd, &a)) || !to_init(qp[i], e))
				return false;
		}
		return to_rts(qp[0], e, qp[1]->qp_num) && to_rts(qp[1], e, qp[0]->qp_num);
	}
	int send(uint64_t addr, uint32_t lkey, int n)
	{
		for (int i = 0; i < n; i++) {
			post_recv(qp[1], addr, 8, lkey, i);
			ibv_sge sge{addr, 8, lkey};
			ibv_send_wr wr{}, *bad;
			wr.wr_id = i;
			wr.sg_list = &sge;
			wr.num_sge = 1;
			wr.opcode = IBV_WR_SEND;
			wr.send_flags = IBV_SEND_SIGNALED;
			if (ibv_post_send(qp[0], &wr, &bad))
				return i;
		}
		return n;
	}
};

void sq_drained(Env &e)
{
	Pair p;
	if (!p.make(e, 16)) {
		check(false, "SQD: pair");
		return;
	}
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_SQD;
	a.en_sqd_async_notify = 1;
	std::printf("modify to SQD: %d\n", ibv_modify_qp(p.qp[0], &a, IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY));
	ibv_async_event ev{};
	bool got = get_event(e.ctx, ev);
	std::printf("SQD: event %s\n", got ? ibv_event_type_str(ev.event_type) : "none");
	check(got && ev.event_type == IBV_EVENT_SQ_DRAINED && ev.element.qp == p.qp[0],
	      "SQ drained event names the QP");
	if (got) {
		ibv_qp *qp = p.qp[0];
		destroy_waits("destroy_qp waits for the unacked QP event",
			      [qp] { return ibv_destroy_qp(qp); }, [&ev] { ibv_ack_async_event(&ev); });
	} else {
		ibv_destroy_qp(p.qp[0]);
	}
	ibv_destroy_qp(p.qp[1]);
	ibv_destroy_cq(p.cq[0]);
	ibv_destroy_cq(p.cq[1]);
}

void cq_overflow(Env &e)
{
	Pair p;
	std::vector<uint64_t> mem(8);
	ibv_mr *mr = ibv_reg_mr(e.pd, mem.data(), 64, kAllAccess);
	if (!mr || !p.make(e, 1)) {
		check(false, "CQ overflow: pair");
		return;
	}
	int n = p.cq[0]->cqe + 4;
	std::printf("CQ overflow: posted %d\n", p.send(reinterpret_cast<uintptr_t>(mem.data()), mr->lkey, n) == n ? n - p.cq[0]->cqe : -1);
	// One event per completion the full CQ could not take: read them all
	// (an unread one would also be waited for), acknowledge after.
	std::vector<ibv_async_event> evs;
	ibv_async_event ev{};
	for (int ms = 5000; get_event(e.ctx, ev, ms); ms = 500)
		evs.push_back(ev);
	bool got = !evs.empty();
	bool all_cq_err = got;
	for (auto &x : evs)
		all_cq_err = all_cq_err && x.event_type == IBV_EVENT_CQ_ERR && x.element.cq == p.cq[0];
	std::printf("CQ overflow: %zu events, first %s\n", evs.size(),
		    got ? ibv_event_type_str(evs[0].event_type) : "none");
	check(all_cq_err, "CQ error events name the CQ");
	ibv_destroy_qp(p.qp[0]);
	ibv_destroy_qp(p.qp[1]);
	if (got) {
		ibv_cq *cq = p.cq[0];
		destroy_waits("destroy_cq waits for the unacked CQ events",
			      [cq] { return ibv_destroy_cq(cq); },
			      [&evs] { for (auto &x : evs) ibv_ack_async_event(&x); });
	} else {
		ibv_destroy_cq(p.cq[0]);
	}
	ibv_destroy_cq(p.cq[1]);
	ibv_dereg_mr(mr);
}

void comp_channel(Env &e)
{
	ibv_comp_channel *ch = ibv_create_comp_channel(e.ctx);
	Pair p;
	std::vector<uint64_t> mem(8);
	ibv_mr *mr = ibv_reg_mr(e.pd, mem.data(), 64, kAllAccess);
	if (!ch || !mr || !p.make(e, 16, ch)) {
		check(false, "completion channel: pair");
		return;
	}
	ibv_req_notify_cq(p.cq[0], 0);
	p.send(reinterpret_cast<uintptr_t>(mem.data()), mr->lkey, 1);
	pollfd pf{ch->fd, POLLIN, 0};
	ibv_cq *cq = nullptr;
	void *ctx = nullptr;
	bool got = poll(&pf, 1, 5000) == 1 && !ibv_get_cq_event(ch, &cq, &ctx);
	check(got && cq == p.cq[0], "completion event for the send CQ");
	ibv_destroy_qp(p.qp[0]);
	ibv_destroy_qp(p.qp[1]);
	ibv_destroy_cq(p.cq[1]);
	if (got) {
		ibv_cq *c = p.cq[0];
		destroy_waits("destroy_cq waits for ibv_ack_cq_events",
			      [c] { return ibv_destroy_cq(c); }, [c] { ibv_ack_cq_events(c, 1); });
	} else {
		ibv_destroy_cq(p.cq[0]);
	}
	std::printf("destroy_comp_channel: %d\n", ibv_destroy_comp_channel(ch));
	ibv_dereg_mr(mr);
}

} // namespace

int main(int argc, char **argv)
{
	Env e;
	if (!e.open_from_args(argc, argv))
		return 4;
	sq_drained(e);
	cq_overflow(e);
	comp_channel(e);
	std::printf("failures: %d\n", g_fail);
	return g_fail ? 1 : 0;
}
