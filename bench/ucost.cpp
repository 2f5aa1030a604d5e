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
// dereg_mr (4 KiB, already faulted in).  An iWARP device (siw) connects
// its pair through rdma_cm, to itself over $OVB_BENCH_ADDR (10.0.2.15).
#include "rdma_env.h"

#include <arpa/inet.h>
#include <rdma/rdma_cma.h>
#include <sys/mman.h>
#include <valgrind/callgrind.h>

#include <vector>

namespace {

enum Measure { kNone = 0, kPost = 1, kPoll = 2 };

// Two connected RC QPs: a sends on scq (with a completion channel), b
// receives; both receive on rcq.
struct Pair {
	bench::Device d;
	ibv_comp_channel *ch = nullptr;
	ibv_cq *scq = nullptr, *rcq = nullptr;
	ibv_qp *a = nullptr, *b = nullptr;
};

void make_cqs(Pair &p)
{
	p.ch = ibv_create_comp_channel(p.d.ctx);
	p.scq = ibv_create_cq(p.d.ctx, 64, nullptr, p.ch, 0);
	p.rcq = ibv_create_cq(p.d.ctx, 64, nullptr, nullptr, 0);
	if (!p.ch || !p.scq || !p.rcq)
		bench::die("creating the CQs");
}

// RoCE: the QPs are walked to RTS by hand, addressed by GID.
Pair verbs_pair()
{
	Pair p;
	p.d = bench::open_device();
	make_cqs(p);
	p.a = bench::create_rc_qp(p.d, p.scq, p.rcq);
	p.b = bench::create_rc_qp(p.d, p.rcq, p.rcq);
	if (!p.a || !p.b)
		bench::die("ibv_create_qp");
	bench::connect(p.d, p.a, p.b);
	return p;
}

rdma_cm_event *cm_expect(rdma_event_channel *ec, rdma_cm_event_type type)
{
	rdma_cm_event *ev;
	if (rdma_get_cm_event(ec, &ev))
		bench::die("rdma_get_cm_event");
	if (ev->event != type) {
		std::fprintf(stderr, "bench: rdma_cm: %s (status %d) where %s was due\n",
			     rdma_event_str(ev->event), ev->status, rdma_event_str(type));
		std::exit(2);
	}
	return ev;
}

void cm_create_qp(rdma_cm_id *id, const Pair &p, ibv_cq *send_cq)
{
	ibv_qp_init_attr init{};
	init.send_cq = send_cq;
	init.recv_cq = p.rcq;
	init.qp_type = IBV_QPT_RC;
	init.cap.max_send_wr = 64;
	init.cap.max_recv_wr = 64;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	if (rdma_create_qp(id, p.d.pd, &init))
		bench::die("rdma_create_qp");
}

// iWARP: the only way to RTS is a connection, here to ourselves.  One
// event channel serves the listener and the client, in the order the
// connection makes its events.
Pair cm_pair()
{
	const char *addr = std::getenv("OVB_BENCH_ADDR");
	sockaddr_in sin{};
	sin.sin_family = AF_INET;
	if (inet_pton(AF_INET, addr ? addr : "10.0.2.15", &sin.sin_addr) != 1)
		bench::die("OVB_BENCH_ADDR");
	rdma_event_channel *ec = rdma_create_event_channel();
	rdma_cm_id *listener, *client;
	if (!ec || rdma_create_id(ec, &listener, nullptr, RDMA_PS_TCP) ||
	    rdma_create_id(ec, &client, nullptr, RDMA_PS_TCP))
		bench::die("rdma_create_id");
	if (rdma_bind_addr(listener, reinterpret_cast<sockaddr *>(&sin)) ||
	    rdma_listen(listener, 1))
		bench::die("rdma_listen");
	sin.sin_port = rdma_get_src_port(listener);
	if (rdma_resolve_addr(client, nullptr, reinterpret_cast<sockaddr *>(&sin), 2000))
		bench::die("rdma_resolve_addr");
	rdma_ack_cm_event(cm_expect(ec, RDMA_CM_EVENT_ADDR_RESOLVED));
	if (rdma_resolve_route(client, 2000))
		bench::die("rdma_resolve_route");
	rdma_ack_cm_event(cm_expect(ec, RDMA_CM_EVENT_ROUTE_RESOLVED));

	Pair p;
	p.d.ctx = client->verbs;
	p.d.pd = ibv_alloc_pd(p.d.ctx);
	if (!p.d.pd)
		bench::die("ibv_alloc_pd");
	make_cqs(p);
	cm_create_qp(client, p, p.scq);
	rdma_conn_param param{};
	param.initiator_depth = 1;
	param.responder_resources = 1;
	if (rdma_connect(client, &param))
		bench::die("rdma_connect");
	rdma_cm_event *req = cm_expect(ec, RDMA_CM_EVENT_CONNECT_REQUEST);
	rdma_cm_id *server = req->id;
	rdma_ack_cm_event(req);
	if (server->verbs != p.d.ctx) {
		std::fprintf(stderr, "bench: rdma_cm: the two ends are on different contexts\n");
		std::exit(2);
	}
	cm_create_qp(server, p, p.rcq);
	if (rdma_accept(server, &param))
		bench::die("rdma_accept");
	for (int up = 0; up < 2; up++)	// one ESTABLISHED per end
		rdma_ack_cm_event(cm_expect(ec, RDMA_CM_EVENT_ESTABLISHED));
	p.a = client->qp;
	p.b = server->qp;
	return p;	// the ids live as long as the program
}

bool is_iwarp()
{
	return bench::find_device()->transport_type == IBV_TRANSPORT_IWARP;
}

struct Loopback {
	bench::Device &d;
	ibv_comp_channel *ch;
	ibv_cq *scq, *rcq;
	ibv_qp *a, *b;
	std::vector<char> src, dst;
	ibv_mr *smr, *dmr;

	explicit Loopback(Pair &p)
		: d(p.d), ch(p.ch), scq(p.scq), rcq(p.rcq), a(p.a), b(p.b),
		  src(64, 'x'), dst(64, 0)
	{
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
	Pair pair = is_iwarp() ? cm_pair() : verbs_pair();
	bench::Device &d = pair.d;
	Loopback lb(pair);

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
