// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the C++ API adds to the data path, in instructions, for
// `valgrind --tool=callgrind --collect-atstart=no` (tests/cxx-cost runs
// it): each operation written as a C program writes it (fill the ibv_sge
// and ibv_send_wr, call the inline verb) and as the C++ API writes it
// (qp.post(RdmaWrite{...}), cq.poll, the extended QP and CQ), between the
// same toggles, one dump per phase.  The provider is a stub behind the
// context's ops (and a fake ibv_qp_ex / ibv_cq_ex), the same for both, so
// a difference between the two counts is the wrapper's alone.  No device.
//
//   ovb_cxx_cost [iterations]
#include <openverbs/verbs.hpp>

#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace openverbs;

namespace {

// ---------------------------------------------------------------- the stub provider
int stub_post_send(ibv_qp *, ibv_send_wr *wr, ibv_send_wr **)
{
	return wr->opcode == IBV_WR_SEND_WITH_INV;	// reads what was built
}
int stub_post_recv(ibv_qp *, ibv_recv_wr *wr, ibv_recv_wr **) { return wr->num_sge == 0; }
int stub_poll_cq(ibv_cq *, int n, ibv_wc *wc)
{
	wc->wr_id = 7;
	wc->status = IBV_WC_SUCCESS;
	return n;
}
void wr_start(ibv_qp_ex *) {}
int wr_complete(ibv_qp_ex *) { return 0; }
void wr_abort(ibv_qp_ex *) {}
void wr_rdma_write(ibv_qp_ex *q, uint32_t rkey, uint64_t addr) { q->comp_mask = rkey + addr; }
void wr_atomic_cmp_swp(ibv_qp_ex *q, uint32_t rkey, uint64_t addr, uint64_t cmp, uint64_t swap)
{
	q->comp_mask = rkey + addr + cmp + swap;
}
void wr_set_sge(ibv_qp_ex *q, uint32_t lkey, uint64_t addr, uint32_t len) { q->comp_mask += lkey + addr + len; }
void wr_set_sge_list(ibv_qp_ex *q, size_t n, const ibv_sge *l) { q->comp_mask += n + l->lkey; }
int start_poll(ibv_cq_ex *c, ibv_poll_cq_attr *) { c->wr_id = 7; return 0; }
int next_poll(ibv_cq_ex *) { return ENOENT; }
void end_poll(ibv_cq_ex *) {}

struct Fake {
	ibv_context ctx{};
	ibv_qp qp{};
	ibv_cq cq{};
	ibv_qp_ex qpx{};
	ibv_cq_ex cqx{};
	Fake()
	{
		ctx.ops.post_send = stub_post_send;
		ctx.ops.post_recv = stub_post_recv;
		ctx.ops.poll_cq = stub_poll_cq;
		qp.context = cq.context = &ctx;
		qpx.wr_start = wr_start;
		qpx.wr_complete = wr_complete;
		qpx.wr_abort = wr_abort;
		qpx.wr_rdma_write = wr_rdma_write;
		qpx.wr_atomic_cmp_swp = wr_atomic_cmp_swp;
		qpx.wr_set_sge = wr_set_sge;
		qpx.wr_set_sge_list = wr_set_sge_list;
		cqx.start_poll = start_poll;
		cqx.next_poll = next_poll;
		cqx.end_poll = end_poll;
	}
};

// Opaque to the optimiser, as a real program's objects are.
Fake *volatile g_fake;
uint64_t g_addr = 0x10000, g_raddr = 0x20000;
uint32_t g_lkey = 3, g_rkey = 4;
int g_sink;

#define MEASURED(...)                       \
	do {                                \
		CALLGRIND_TOGGLE_COLLECT;   \
		__VA_ARGS__;                \
		CALLGRIND_TOGGLE_COLLECT;   \
	} while (0)

// ---------------------------------------------------------------- C
// The C program keeps its objects in a struct (as the ping-pongs' struct
// pingpong_context) and passes that, as the C++ one passes its handles.
struct CObjects {
	ibv_qp *qp;
	ibv_cq *cq;
	ibv_qp_ex *qpx;
	ibv_cq_ex *cqx;
};

[[gnu::noinline]] void c_rdma_write(const CObjects &o)
{
	MEASURED({
		ibv_qp *qp = o.qp;
		ibv_sge sge = {g_addr, 64, g_lkey};
		ibv_send_wr wr{}, *bad;
		wr.wr_id = 7;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.rdma.remote_addr = g_raddr;
		wr.wr.rdma.rkey = g_rkey;
		g_sink += ibv_post_send(qp, &wr, &bad);
	});
}

[[gnu::noinline]] void c_cas(const CObjects &o)
{
	MEASURED({
		ibv_qp *qp = o.qp;
		ibv_sge sge = {g_addr, 8, g_lkey};
		ibv_send_wr wr{}, *bad;
		wr.wr_id = 7;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.atomic.remote_addr = g_raddr;
		wr.wr.atomic.rkey = g_rkey;
		wr.wr.atomic.compare_add = 1;
		wr.wr.atomic.swap = 2;
		g_sink += ibv_post_send(qp, &wr, &bad);
	});
}

[[gnu::noinline]] void c_recv(const CObjects &o)
{
	MEASURED({
		ibv_qp *qp = o.qp;
		ibv_sge sge = {g_addr, 64, g_lkey};
		ibv_recv_wr wr{}, *bad;
		wr.wr_id = 7;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		g_sink += ibv_post_recv(qp, &wr, &bad);
	});
}

[[gnu::noinline]] void c_poll(const CObjects &o)
{
	MEASURED({
		ibv_cq *cq = o.cq;
		ibv_wc wc;
		g_sink += ibv_poll_cq(cq, 1, &wc);
		g_sink += int(wc.wr_id);
	});
}

[[gnu::noinline]] void c_wr_rdma_write(const CObjects &o)
{
	MEASURED({
		ibv_qp_ex *q = o.qpx;
		ibv_wr_start(q);
		q->wr_id = 7;
		q->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_rdma_write(q, g_rkey, g_raddr);
		ibv_sge sge = {g_addr, 64, g_lkey};	// as the typed request sets it
		ibv_wr_set_sge_list(q, 1, &sge);
		g_sink += ibv_wr_complete(q);
	});
}

[[gnu::noinline]] void c_poll_ex(const CObjects &o)
{
	MEASURED({
		ibv_cq_ex *c = o.cqx;
		ibv_poll_cq_attr attr{};
		if (ibv_start_poll(c, &attr) == 0) {
			do
				g_sink += int(c->wr_id);
			while (ibv_next_poll(c) == 0);
			ibv_end_poll(c);
		}
	});
}

// ---------------------------------------------------------------- C++
// The handles borrow the fake objects; built outside the measured part,
// as a program builds them once.
[[gnu::noinline]] void cxx_rdma_write(const Qp &qp)
{
	MEASURED({
		ibv_sge sge = {g_addr, 64, g_lkey};
		g_sink += qp.post(RdmaWrite({&sge, 1}, {g_raddr, g_rkey}, {7}));
	});
}

[[gnu::noinline]] void cxx_cas(const Qp &qp)
{
	MEASURED({
		ibv_sge sge = {g_addr, 8, g_lkey};
		g_sink += qp.post(AtomicCas(sge, {g_raddr, g_rkey}, 1, 2, {7}));
	});
}

[[gnu::noinline]] void cxx_recv(const Qp &qp)
{
	MEASURED({
		ibv_sge sge = {g_addr, 64, g_lkey};
		g_sink += qp.post(Recv({&sge, 1}, 7));
	});
}

[[gnu::noinline]] void cxx_poll(const Cq &cq)
{
	MEASURED({
		ibv_wc wc;
		g_sink += cq.poll({&wc, 1});
		g_sink += int(wc.wr_id);
	});
}

[[gnu::noinline]] void cxx_wr_rdma_write(const QpEx &qp)
{
	MEASURED({
		ibv_sge sge = {g_addr, 64, g_lkey};
		WrBatch b = qp.start();
		b.add(RdmaWrite({&sge, 1}, {g_raddr, g_rkey}, {7}));
		g_sink += b.complete();
	});
}

[[gnu::noinline]] void cxx_poll_ex(const CqEx &cq)
{
	MEASURED({
		for (const CqEx::Completion &c : cq.poll())
			g_sink += int(c.wr_id());
	});
}

template <class F>
void phase(const char *name, int iters, F f)
{
	CALLGRIND_ZERO_STATS;
	for (int i = 0; i < iters; i++)
		f();
	CALLGRIND_DUMP_STATS_AT(name);
}

} // namespace

int main(int argc, char **argv)
{
	int iters = argc > 1 ? std::atoi(argv[1]) : 1000;
	g_fake = new Fake;
	Fake *f = g_fake;
	Qp qp(&f->qp, borrow);
	Cq cq(&f->cq, borrow);
	CqEx cqx(&f->cqx, borrow);
	QpEx qpx(&f->qp, &f->qpx, borrow);
	CObjects o{&f->qp, &f->cq, &f->qpx, &f->cqx};

	{	// everything is inline: no lazy binding to warm up
		int n = iters;
		phase("c rdma_write", n, [&] { c_rdma_write(o); });
		phase("c++ rdma_write", n, [&] { cxx_rdma_write(qp); });
		phase("c atomic_cas", n, [&] { c_cas(o); });
		phase("c++ atomic_cas", n, [&] { cxx_cas(qp); });
		phase("c post_recv", n, [&] { c_recv(o); });
		phase("c++ post_recv", n, [&] { cxx_recv(qp); });
		phase("c poll_cq", n, [&] { c_poll(o); });
		phase("c++ poll_cq", n, [&] { cxx_poll(cq); });
		phase("c wr_rdma_write", n, [&] { c_wr_rdma_write(o); });
		phase("c++ wr_rdma_write", n, [&] { cxx_wr_rdma_write(qpx); });
		phase("c poll_ex", n, [&] { c_poll_ex(o); });
		phase("c++ poll_ex", n, [&] { cxx_poll_ex(cqx); });
	}
	std::printf("cxx_cost: %d iterations per phase (%d)\n", iters, g_sink & 1);
	return 0;
}
