// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The C++ API's fast path against the C API's on a real device, for
// `valgrind --tool=callgrind --collect-atstart=no` (bench/guest runs it
// with each library): every operation written as a C program writes it
// (fill the ibv_sge and the work request, call the inline verb) and as a
// C++ program writes it with <openverbs/verbs.hpp> (qp.post(RdmaWrite
// {...}), cq.poll, the extended QP's batch, the extended CQ's range), on
// the same QPs and CQs, between the same toggles, one callgrind dump per
// phase ("c OP", "c++ OP").  The provider's own work (the ring, the
// doorbell) is counted in both, so the two columns differ by the wrapper
// alone.  The C++ handles borrow the C objects, as a program builds them
// once.  Outside callgrind the toggles are no-ops.
//
//   ovb-bench-cxxcost [iterations]      (device: $OVB_BENCH_DEV, rxe0)
//
// Operations, each signalled and completed before the next: RDMA WRITE
// 64 B (ibv_post_send), compare-and-swap 8 B (ibv_post_send), a receive
// (ibv_post_recv; a SEND consumes it, unmeasured), ibv_poll_cq of one
// completion (after its completion event, so every measured poll finds
// exactly one), an RDMA WRITE through the extended QP (ibv_wr_start,
// ibv_wr_rdma_write, ibv_wr_set_sge_list, ibv_wr_complete) and an
// extended CQ pass taking one completion (ibv_start_poll, read, ibv_end_poll;
// in C++ the range left after its first completion).
#include "rdma_env.h"

#include <openverbs/verbs.hpp>

#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>

namespace {

constexpr uint32_t kLen = 64;

struct Rig {
	bench::Device d;
	ibv_comp_channel *ch = nullptr, *xch = nullptr;
	ibv_cq *scq = nullptr, *rcq = nullptr;	// a's sends; every receive
	ibv_cq_ex *xcq = nullptr;		// ax's sends
	ibv_qp *a = nullptr, *b = nullptr, *ax = nullptr, *bx = nullptr;
	ibv_qp_ex *qx = nullptr;
	ibv_mr *mr = nullptr;
	uint64_t *buf = nullptr;	// local 64 B | remote 64 B | atomic result
	uint64_t local = 0, remote = 0, result = 0;
};

// Opaque to the optimiser, as a real program's objects are.
Rig *volatile g_rig;
int g_sink;
bool g_dump;	// false in the warm-up round

#define MEASURED(...)                       \
	do {                                \
		CALLGRIND_TOGGLE_COLLECT;   \
		__VA_ARGS__;                \
		CALLGRIND_TOGGLE_COLLECT;   \
	} while (0)

// ---------------------------------------------------------------- set-up (C, unmeasured)
void grant_remote(ibv_qp *qp)	// RTS -> RTS: let the peer write, read and do atomics
{
	ibv_qp_attr a{};
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			    IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
	if (ibv_modify_qp(qp, &a, IBV_QP_ACCESS_FLAGS))
		bench::die("ibv_modify_qp (access flags)");
}

Rig *make_rig()
{
	Rig *r = new Rig;
	r->d = bench::open_device();
	r->ch = ibv_create_comp_channel(r->d.ctx);
	r->xch = ibv_create_comp_channel(r->d.ctx);
	if (!r->ch || !r->xch)
		bench::die("ibv_create_comp_channel");
	r->scq = ibv_create_cq(r->d.ctx, 64, nullptr, r->ch, 0);
	r->rcq = ibv_create_cq(r->d.ctx, 128, nullptr, nullptr, 0);
	ibv_cq_init_attr_ex ca{};
	ca.cqe = 64;
	ca.channel = r->xch;
	ca.wc_flags = IBV_WC_EX_WITH_BYTE_LEN;
	r->xcq = ibv_create_cq_ex(r->d.ctx, &ca);
	if (!r->scq || !r->rcq || !r->xcq)
		bench::die("creating the CQs");

	r->a = bench::create_rc_qp(r->d, r->scq, r->rcq);
	r->b = bench::create_rc_qp(r->d, r->rcq, r->rcq);
	ibv_qp_init_attr_ex xi{};
	xi.send_cq = xi.recv_cq = ibv_cq_ex_to_cq(r->xcq);
	xi.qp_type = IBV_QPT_RC;
	xi.cap.max_send_wr = xi.cap.max_recv_wr = 64;
	xi.cap.max_send_sge = xi.cap.max_recv_sge = 1;
	xi.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	xi.pd = r->d.pd;
	xi.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE;
	r->ax = ibv_create_qp_ex(r->d.ctx, &xi);
	r->bx = bench::create_rc_qp(r->d, r->rcq, r->rcq);
	if (!r->a || !r->b || !r->ax || !r->bx)
		bench::die("ibv_create_qp");
	r->qx = ibv_qp_to_qp_ex(r->ax);
	if (!r->qx)
		bench::die("ibv_qp_to_qp_ex");
	bench::connect(r->d, r->a, r->b);
	bench::connect(r->d, r->ax, r->bx);
	grant_remote(r->b);
	grant_remote(r->bx);

	r->buf = static_cast<uint64_t *>(std::calloc(1, 2 * kLen + 8));
	r->mr = ibv_reg_mr(r->d.pd, r->buf, 2 * kLen + 8,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
	if (!r->buf || !r->mr)
		bench::die("ibv_reg_mr");
	r->local = reinterpret_cast<uintptr_t>(r->buf);
	r->remote = r->local + kLen;
	r->result = r->local + 2 * kLen;
	return r;
}

void arm(ibv_cq *cq)
{
	if (ibv_req_notify_cq(cq, 0))
		bench::die("ibv_req_notify_cq");
}

void await_event(ibv_comp_channel *ch)
{
	ibv_cq *cq;
	void *ctx;
	if (ibv_get_cq_event(ch, &cq, &ctx))
		bench::die("ibv_get_cq_event");
	ibv_ack_cq_events(cq, 1);
}

void check(const ibv_wc &wc, const char *what)
{
	if (wc.status != IBV_WC_SUCCESS) {
		std::fprintf(stderr, "bench: %s: %s\n", what, ibv_wc_status_str(wc.status));
		std::exit(2);
	}
}

// One completion of a classic CQ, polled (unmeasured).
void reap(ibv_cq *cq, const char *what)
{
	ibv_wc wc;
	int n;
	while ((n = ibv_poll_cq(cq, 1, &wc)) == 0)
		;
	if (n < 0)
		bench::die("ibv_poll_cq");
	check(wc, what);
}

// One completion of the extended CQ (unmeasured), or none.  A pass takes
// one completion and ends: on rxe (rdma-core 44's librxe and our provider
// alike) ibv_end_poll after an ibv_next_poll that found the CQ empty moves
// the consumer index one entry past the producer's, and the CQ then reads
// as full of stale entries (rdma-core pull request 1512).
int reap_ex(ibv_cq_ex *cq)
{
	ibv_poll_cq_attr attr{};
	if (ibv_start_poll(cq, &attr))
		return 0;
	if (cq->status != IBV_WC_SUCCESS)
		bench::die("the extended CQ's completion");
	ibv_end_poll(cq);
	return 1;
}

void c_write_unmeasured(const Rig &r, ibv_qp *qp)
{
	ibv_sge sge = {r.local, kLen, r.mr->lkey};
	ibv_send_wr wr{}, *bad;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = r.remote;
	wr.wr.rdma.rkey = r.mr->rkey;
	if (ibv_post_send(qp, &wr, &bad))
		bench::die("ibv_post_send");
}

// ---------------------------------------------------------------- C
[[gnu::noinline]] void c_write(const Rig &r)
{
	MEASURED({
		ibv_sge sge = {r.local, kLen, r.mr->lkey};
		ibv_send_wr wr{}, *bad;
		wr.wr_id = 1;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.rdma.remote_addr = r.remote;
		wr.wr.rdma.rkey = r.mr->rkey;
		g_sink += ibv_post_send(r.a, &wr, &bad);
	});
}

[[gnu::noinline]] void c_cas(const Rig &r)
{
	MEASURED({
		ibv_sge sge = {r.result, 8, r.mr->lkey};
		ibv_send_wr wr{}, *bad;
		wr.wr_id = 2;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.atomic.remote_addr = r.remote;
		wr.wr.atomic.rkey = r.mr->rkey;
		wr.wr.atomic.compare_add = 0;
		wr.wr.atomic.swap = 1;
		g_sink += ibv_post_send(r.a, &wr, &bad);
	});
}

[[gnu::noinline]] void c_recv(const Rig &r)
{
	MEASURED({
		ibv_sge sge = {r.remote, kLen, r.mr->lkey};
		ibv_recv_wr wr{}, *bad;
		wr.wr_id = 3;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		g_sink += ibv_post_recv(r.b, &wr, &bad);
	});
}

[[gnu::noinline]] int c_poll(const Rig &r)
{
	int n;
	ibv_wc wc;
	MEASURED({
		n = ibv_poll_cq(r.scq, 1, &wc);
		g_sink += int(wc.wr_id);
	});
	if (n == 1)
		check(wc, "poll_cq");
	return n;
}

[[gnu::noinline]] void c_wr_write(const Rig &r)
{
	MEASURED({
		ibv_qp_ex *q = r.qx;
		ibv_wr_start(q);
		q->wr_id = 4;
		q->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_rdma_write(q, r.mr->rkey, r.remote);
		ibv_sge sge = {r.local, kLen, r.mr->lkey};	// as the typed request sets it
		ibv_wr_set_sge_list(q, 1, &sge);
		g_sink += ibv_wr_complete(q);
	});
}

[[gnu::noinline]] int c_poll_ex(const Rig &r)
{
	int n = 0;
	MEASURED({
		ibv_cq_ex *c = r.xcq;
		ibv_poll_cq_attr attr{};
		if (ibv_start_poll(c, &attr) == 0) {	// one completion (see reap_ex)
			g_sink += int(c->wr_id);
			n += c->status == IBV_WC_SUCCESS;
			ibv_end_poll(c);
		}
	});
	return n;
}

// ---------------------------------------------------------------- C++
using namespace openverbs;

struct Handles {
	Qp a, b;
	Cq scq;
	QpEx ax;
	CqEx xcq;
};

[[gnu::noinline]] void cxx_write(const Rig &r, const Handles &h)
{
	MEASURED({
		ibv_sge sge = {r.local, kLen, r.mr->lkey};
		g_sink += h.a.post(RdmaWrite({&sge, 1}, {r.remote, r.mr->rkey}, {1}));
	});
}

[[gnu::noinline]] void cxx_cas(const Rig &r, const Handles &h)
{
	MEASURED({
		ibv_sge sge = {r.result, 8, r.mr->lkey};
		g_sink += h.a.post(AtomicCas(sge, {r.remote, r.mr->rkey}, 0, 1, {2}));
	});
}

[[gnu::noinline]] void cxx_recv(const Rig &r, const Handles &h)
{
	MEASURED({
		ibv_sge sge = {r.remote, kLen, r.mr->lkey};
		g_sink += h.b.post(Recv({&sge, 1}, 3));
	});
}

[[gnu::noinline]] int cxx_poll(const Handles &h)
{
	int n;
	ibv_wc wc;
	MEASURED({
		n = h.scq.poll({&wc, 1});
		g_sink += int(wc.wr_id);
	});
	if (n == 1)
		check(wc, "poll_cq");
	return n;
}

[[gnu::noinline]] void cxx_wr_write(const Rig &r, const Handles &h)
{
	MEASURED({
		ibv_sge sge = {r.local, kLen, r.mr->lkey};
		WrBatch b = h.ax.start();
		b.add(RdmaWrite({&sge, 1}, {r.remote, r.mr->rkey}, {4}));
		g_sink += b.complete();
	});
}

[[gnu::noinline]] int cxx_poll_ex(const Handles &h)
{
	int n = 0;
	MEASURED({
		for (const CqEx::Completion &c : h.xcq.poll()) {
			g_sink += int(c.wr_id());
			n += c.status() == IBV_WC_SUCCESS;
			break;	// one completion (see reap_ex)
		}
	});
	return n;
}

// ---------------------------------------------------------------- the phases
// Each phase: the measured calls, every one completed (unmeasured) before
// the next; a failed post or a completion in error ends the program.
// One phase: iters rounds of round(), counted (callgrind's statistics
// zeroed before and dumped under name after) only on the measured pass.
template <class Round>
void phase(const char *name, int iters, Round round)
{
	std::fprintf(stderr, "cxxcost: %s%s\n", name, g_dump ? "" : " (warm-up)");
	if (g_dump)
		CALLGRIND_ZERO_STATS;
	for (int i = 0; i < iters; i++)
		round();
	if (g_dump)
		CALLGRIND_DUMP_STATS_AT(name);
}

// post() must leave g_sink alone: a failed post changes it.
template <class Post>
void checked_post(const char *name, Post post)
{
	int before = g_sink;
	post();
	if (g_sink != before)
		bench::die(name);
}

template <class Post>
void posts(const char *name, int iters, const Rig &r, Post post)
{
	phase(name, iters, [&] {
		arm(r.scq);
		checked_post(name, post);
		await_event(r.ch);
		reap(r.scq, name);
	});
}

template <class PostRecv>
void recvs(const char *name, int iters, const Rig &r, PostRecv post)
{
	phase(name, iters, [&] {
		checked_post(name, post);
		// a SEND consumes it
		ibv_sge sge = {r.local, kLen, r.mr->lkey};
		ibv_send_wr wr{}, *bad;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		arm(r.scq);
		if (ibv_post_send(r.a, &wr, &bad))
			bench::die("ibv_post_send (SEND)");
		await_event(r.ch);
		reap(r.scq, "the SEND");
		reap(r.rcq, name);
	});
}

// A completion the unmeasured C write on qp made, polled by poll().
template <class Poll>
void polled(const char *name, int iters, const Rig &r, ibv_qp *qp, ibv_cq *cq,
	    ibv_comp_channel *ch, Poll poll)
{
	phase(name, iters, [&] {
		arm(cq);
		c_write_unmeasured(r, qp);
		await_event(ch);
		if (poll() != 1)
			bench::die(name);
	});
}

template <class Poll>
void polls(const char *name, int iters, const Rig &r, Poll poll)
{
	polled(name, iters, r, r.a, r.scq, r.ch, poll);
}

template <class Poll>
void ex_polls(const char *name, int iters, const Rig &r, Poll poll)
{
	polled(name, iters, r, r.ax, ibv_cq_ex_to_cq(r.xcq), r.xch, poll);
}

template <class Post>
void wr_posts(const char *name, int iters, const Rig &r, Post post)
{
	ibv_cq *cq = ibv_cq_ex_to_cq(r.xcq);
	phase(name, iters, [&] {
		int n = 0;
		arm(cq);
		checked_post(name, post);
		while (n == 0) {
			await_event(r.xch);
			n = reap_ex(r.xcq);
			if (n == 0)
				arm(cq);
		}
	});
}

} // namespace

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 300;
	g_rig = make_rig();
	const Rig &r = *g_rig;
	const Handles h{Qp(r.a, borrow), Qp(r.b, borrow), Cq(r.scq, borrow),
			QpEx(r.ax, r.qx, borrow), CqEx(r.xcq, borrow)};

	// A round of each first, not dumped: lazy binding, first-touch faults.
	for (int pass = 0; pass < 2; pass++) {
		int iters = pass ? n : 2;
		g_dump = pass;
		posts("c post_send", iters, r, [&] { c_write(r); });
		posts("c++ post_send", iters, r, [&] { cxx_write(r, h); });
		posts("c atomic_cas", iters, r, [&] { c_cas(r); });
		posts("c++ atomic_cas", iters, r, [&] { cxx_cas(r, h); });
		recvs("c post_recv", iters, r, [&] { c_recv(r); });
		recvs("c++ post_recv", iters, r, [&] { cxx_recv(r, h); });
		polls("c poll_cq", iters, r, [&] { return c_poll(r); });
		polls("c++ poll_cq", iters, r, [&] { return cxx_poll(h); });
		wr_posts("c wr_rdma_write", iters, r, [&] { c_wr_write(r); });
		wr_posts("c++ wr_rdma_write", iters, r, [&] { cxx_wr_write(r, h); });
		ex_polls("c poll_ex", iters, r, [&] { return c_poll_ex(r); });
		ex_polls("c++ poll_ex", iters, r, [&] { return cxx_poll_ex(h); });
	}
	std::printf("cxxcost: %d iterations per phase, every operation completed\n", n);
	return 0;
}
