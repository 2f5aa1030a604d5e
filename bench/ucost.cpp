// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Userspace cost of the data path and of memory registration, for
// `valgrind --tool=callgrind --collect-atstart=no`: callgrind counts only
// the instructions between the toggles below, and dumps one profile per
// phase (CALLGRIND_DUMP_STATS_AT), so each file's total divided by the
// iterations is the cost of one call.  Instruction counts are
// deterministic, unlike time under TCG.  Outside callgrind the toggles
// are no-ops and the program is a plain RC loopback test.
//
//   ovb-bench-ucost [iterations]      (device: $OVB_BENCH_DEV, rxe0)
//
// Phases, in dump order: post+poll, post, poll (RC SEND of 64 bytes from
// QP a to QP b, signalled, ibv_poll_cq with one entry after the completion
// event, so every measured poll finds exactly one completion), reg_mr and
// dereg_mr (4 KiB, already faulted in).
#include "rdma_env.h"

#include <sys/mman.h>
#include <valgrind/callgrind.h>

#include <vector>

namespace {

enum Measure { kNone = 0, kPost = 1, kPoll = 2 };

struct Loopback {
	bench::Device &d;
	ibv_comp_channel *ch;
	ibv_cq *scq, *rcq;
	ibv_qp *a, *b;
	std::vector<char> src, dst;
	ibv_mr *smr, *dmr;

	explicit Loopback(bench::Device &dev) : d(dev), src(64, 'x'), dst(64, 0)
	{
		ch = ibv_create_comp_channel(d.ctx);
		scq = ibv_create_cq(d.ctx, 64, nullptr, ch, 0);
		rcq = ibv_create_cq(d.ctx, 64, nullptr, nullptr, 0);
		if (!ch || !scq || !rcq)
			bench::die("creating the CQs");
		a = bench::create_rc_qp(d, scq, rcq);
		b = bench::create_rc_qp(d, rcq, rcq);
		if (!a || !b)
			bench::die("ibv_create_qp");
		bench::connect(d, a, b);
		smr = ibv_reg_mr(d.pd, src.data(), src.size(), IBV_ACCESS_LOCAL_WRITE);
		dmr = ibv_reg_mr(d.pd, dst.data(), dst.size(), IBV_ACCESS_LOCAL_WRITE);
		if (!smr || !dmr)
			bench::die("ibv_reg_mr");
	}

	// One signalled SEND a -> b; the post and/or the poll of its send
	// completion counted as asked.
	void round(int measure)
	{
		ibv_sge rsge{reinterpret_cast<uintptr_t>(dst.data()), 64, dmr->lkey};
		ibv_recv_wr rwr{};
		rwr.sg_list = &rsge;
		rwr.num_sge = 1;
		ibv_recv_wr *rbad;
		if (ibv_post_recv(b, &rwr, &rbad))
			bench::die("ibv_post_recv");
		if (ibv_req_notify_cq(scq, 0))
			bench::die("ibv_req_notify_cq");

		ibv_sge sge{reinterpret_cast<uintptr_t>(src.data()), 64, smr->lkey};
		ibv_send_wr wr{};
		wr.wr_id = 7;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		ibv_send_wr *bad;
		if (measure & kPost)
			CALLGRIND_TOGGLE_COLLECT;
		int rc = ibv_post_send(a, &wr, &bad);
		if (measure & kPost)
			CALLGRIND_TOGGLE_COLLECT;
		if (rc) {
			errno = rc;
			bench::die("ibv_post_send");
		}

		ibv_cq *ev_cq;
		void *ev_ctx;
		if (ibv_get_cq_event(ch, &ev_cq, &ev_ctx))
			bench::die("ibv_get_cq_event");
		ibv_ack_cq_events(ev_cq, 1);
		ibv_wc wc;
		if (measure & kPoll)
			CALLGRIND_TOGGLE_COLLECT;
		int n = ibv_poll_cq(scq, 1, &wc);
		if (measure & kPoll)
			CALLGRIND_TOGGLE_COLLECT;
		if (n != 1 || wc.status != IBV_WC_SUCCESS || wc.wr_id != 7) {
			std::fprintf(stderr, "bench: send completion: n=%d status=%d\n",
				     n, n == 1 ? wc.status : -1);
			std::exit(2);
		}
		while ((n = ibv_poll_cq(rcq, 1, &wc)) == 0)
			;
		if (n != 1 || wc.status != IBV_WC_SUCCESS)
			bench::die("receive completion");
	}
};

} // namespace

int main(int argc, char **argv)
{
	int iters = argc > 1 ? std::atoi(argv[1]) : 1000;
	bench::Device d = bench::open_device();
	Loopback lb(d);

	for (int i = 0; i < 50; i++)	// warm-up: lazy binding, first faults
		lb.round(kNone);
	CALLGRIND_ZERO_STATS;
	for (int i = 0; i < iters; i++)
		lb.round(kPost | kPoll);
	CALLGRIND_DUMP_STATS_AT("post+poll");
	for (int i = 0; i < iters; i++)
		lb.round(kPost);
	CALLGRIND_DUMP_STATS_AT("post");
	for (int i = 0; i < iters; i++)
		lb.round(kPoll);
	CALLGRIND_DUMP_STATS_AT("poll");

	size_t len = 4096;
	void *buf = mmap(nullptr, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		bench::die("mmap");
	std::vector<ibv_mr *> mrs(static_cast<size_t>(iters));
	for (int i = 0; i < 10; i++)	// warm-up
		ibv_dereg_mr(ibv_reg_mr(d.pd, buf, len, IBV_ACCESS_LOCAL_WRITE));
	CALLGRIND_ZERO_STATS;
	for (auto &mr : mrs) {
		CALLGRIND_TOGGLE_COLLECT;
		mr = ibv_reg_mr(d.pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
		CALLGRIND_TOGGLE_COLLECT;
		if (!mr)
			bench::die("ibv_reg_mr");
	}
	CALLGRIND_DUMP_STATS_AT("reg_mr");
	for (auto mr : mrs) {
		CALLGRIND_TOGGLE_COLLECT;
		int rc = ibv_dereg_mr(mr);
		CALLGRIND_TOGGLE_COLLECT;
		if (rc)
			bench::die("ibv_dereg_mr");
	}
	CALLGRIND_DUMP_STATS_AT("dereg_mr");
	std::printf("ucost: %d iterations per phase\n", iters);
	return 0;
}
