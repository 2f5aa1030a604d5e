// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What polling returns after ibv_resize_cq (issue 17 part 2).  A loopback
// RC pair where QP B's receive CQ is the CQ under test and every other
// completion goes to a witness CQ: once the sender's completion for a
// message is on the witness CQ, B's receive completion for it is already
// in the CQ under test (rxe posts the receive completion before it sends
// the ACK).  So a known number of completions is outstanding when the CQ
// is resized, and each must come out once, in order, with the wr_id,
// opcode, byte_len, immediate and qp_num of its message:
//   - growing the CQ with completions in it;
//   - shrinking it to a size that still holds them (also to exactly the
//     number left after a partial poll);
//   - shrinking it below the number outstanding (refused: the return
//     value and errno are printed and checked, nothing may be lost), and
//     to that size once polled empty;
//   - small rings wrapped many times before and after a resize, a resize
//     while the outstanding entries straddle the ring's end;
//   - the same with the extended API (ibv_start_poll/next_poll/end_poll),
//     with a partial extended poll before a shrink.
// Every expected value is computed from the message number; tests/guest/
// wr-verbs runs it on rdma-core's library and on ours and compares the
// transcripts too.
//
//   ovb_resize_poll [device] [gid index]      (default rxe0 1)
#include "loopback.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace loopback;

namespace {

int g_fail;

void check(bool ok, const std::string &what)
{
	std::printf("%s: %s\n", what.c_str(), ok ? "ok" : "FAIL");
	if (!ok)
		g_fail++;
}

constexpr size_t kMem = 64 * 1024;
constexpr uint64_t kRecvBase = 1000;	// receive wr_id of message k: 1000 + k
constexpr uint64_t kWriteOff = 16384;	// RDMA WRITE target in the MR
constexpr uint64_t kRecvOff = 32768;	// receive buffer in the MR

// Message k: SEND, SEND_WITH_IMM or RDMA_WRITE_WITH_IMM, 8 + k % 40 bytes.
uint32_t msg_len(uint32_t k) { return 8 + k % 40; }
int msg_kind(uint32_t k) { return static_cast<int>(k % 3); }
uint32_t msg_imm(uint32_t k) { return 0x51000 + k; }

struct Rig {
	Env &e;
	std::vector<uint8_t> mem = std::vector<uint8_t>(kMem);
	ibv_mr *mr = nullptr;
	ibv_cq *witness = nullptr;
	ibv_qp *a = nullptr, *b = nullptr;

	explicit Rig(Env &env) : e(env) {}

	uint64_t addr(uint64_t off) { return reinterpret_cast<uintptr_t>(mem.data()) + off; }

	bool make(ibv_cq *test_cq)
	{
		mr = ibv_reg_mr(e.pd, mem.data(), kMem, kAllAccess);
		witness = ibv_create_cq(e.ctx, 256, nullptr, nullptr, 0);
		if (!mr || !witness)
			return false;
		ibv_qp_init_attr at{};
		at.qp_type = IBV_QPT_RC;
		at.cap.max_send_wr = at.cap.max_recv_wr = 64;
		at.cap.max_send_sge = at.cap.max_recv_sge = 1;
		at.send_cq = at.recv_cq = witness;
		a = ibv_create_qp(e.pd, &at);
		at.recv_cq = test_cq;
		b = ibv_create_qp(e.pd, &at);
		return a && b && to_init(a, e) && to_init(b, e) &&
		       to_rts(a, e, b->qp_num) && to_rts(b, e, a->qp_num);
	}

	// Messages first .. first+n-1 from A to B, each consuming one receive
	// of B; returns when A has all their (successful) completions.  A
	// delivery that fails ends the program (a broken pair would only
	// fail every later step after long timeouts).
	bool deliver(uint32_t first, uint32_t n)
	{
		if (!send(first, n)) {
			std::printf("delivery of messages %u..%u failed: FAIL\n", first, first + n - 1);
			std::printf("failures: %d\n", g_fail + 1);
			std::fflush(stdout);
			std::_Exit(1);
		}
		return true;
	}

	bool send(uint32_t first, uint32_t n)
	{
		for (uint32_t k = first; k < first + n; k++) {
			if (!post_recv(b, addr(kRecvOff), 256, mr->lkey, kRecvBase + k))
				return false;
			ibv_sge sge{addr(0), msg_len(k), mr->lkey};
			ibv_send_wr wr{}, *bad = nullptr;
			wr.wr_id = k;
			wr.sg_list = &sge;
			wr.num_sge = 1;
			wr.send_flags = IBV_SEND_SIGNALED;
			switch (msg_kind(k)) {
			case 0:
				wr.opcode = IBV_WR_SEND;
				break;
			case 1:
				wr.opcode = IBV_WR_SEND_WITH_IMM;
				wr.imm_data = htonl(msg_imm(k));
				break;
			default:
				wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
				wr.imm_data = htonl(msg_imm(k));
				wr.wr.rdma.remote_addr = addr(kWriteOff);
				wr.wr.rdma.rkey = mr->rkey;
				break;
			}
			if (ibv_post_send(a, &wr, &bad))
				return false;
		}
		for (uint32_t k = first; k < first + n; k++) {
			ibv_wc wc{};
			if (!poll_one(witness, wc, 5000) || wc.status != IBV_WC_SUCCESS || wc.wr_id != k)
				return false;
		}
		return true;
	}

	// Everything but the CQ under test (destroyed after the QPs).
	void release()
	{
		if (a)
			ibv_destroy_qp(a);
		if (b)
			ibv_destroy_qp(b);
		if (witness)
			ibv_destroy_cq(witness);
		if (mr)
			ibv_dereg_mr(mr);
		a = b = nullptr;
		witness = nullptr;
		mr = nullptr;
	}
	~Rig() { release(); }
};

// One completion of message k as the CQ gave it.
struct Got {
	uint64_t wr_id;
	int status;
	int opcode;
	uint32_t byte_len;
	bool has_imm;
	uint32_t imm;
	uint32_t qp_num;
};

// Is it the completion of message k on QP qpn?  Printed either way.
bool judge(const Got &g, uint32_t k, uint32_t qpn)
{
	bool imm = msg_kind(k) != 0;
	int opcode = msg_kind(k) == 2 ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV;
	bool ok = g.wr_id == kRecvBase + k && g.status == IBV_WC_SUCCESS &&
		  g.opcode == opcode && g.byte_len == msg_len(k) &&
		  g.has_imm == imm && (!imm || g.imm == msg_imm(k)) && g.qp_num == qpn;
	std::printf("  msg %u: wr_id %llu status %d opcode %d byte_len %u imm %s%x qp %s%s\n", k,
		    static_cast<unsigned long long>(g.wr_id), g.status, g.opcode, g.byte_len,
		    g.has_imm ? "" : "none/", g.imm, g.qp_num == qpn ? "B" : "other",
		    ok ? "" : "  <- FAIL");
	return ok;
}

// Polls messages first .. first+n-1 with ibv_poll_cq, batch at a time,
// then (expect_empty) expects the CQ empty.
void poll_expect(ibv_cq *cq, uint32_t qpn, uint32_t first, uint32_t n, int batch,
		 const std::string &what, bool expect_empty = true)
{
	std::vector<ibv_wc> wc(static_cast<size_t>(batch));
	uint32_t k = first;
	bool ok = true;
	int calls = 0;
	while (k < first + n && calls++ < 1000) {
		int want = static_cast<int>(std::min<uint32_t>(static_cast<uint32_t>(batch),
							       first + n - k));
		int got = ibv_poll_cq(cq, want, wc.data());
		if (got < 0) {
			ok = false;
			break;
		}
		for (int i = 0; i < got; i++, k++) {
			const ibv_wc &w = wc[static_cast<size_t>(i)];
			Got g{w.wr_id, w.status, w.opcode, w.byte_len,
			      (w.wc_flags & IBV_WC_WITH_IMM) != 0,
			      (w.wc_flags & IBV_WC_WITH_IMM) ? ntohl(w.imm_data) : 0, w.qp_num};
			ok = judge(g, k, qpn) && ok;
		}
	}
	ibv_wc extra{};
	int more = expect_empty ? ibv_poll_cq(cq, 1, &extra) : 0;
	if (more > 0)
		std::printf("  extra: wr_id %llu opcode %d\n",
			    static_cast<unsigned long long>(extra.wr_id), extra.opcode);
	check(ok && k == first + n && more == 0,
	      what + ": " + std::to_string(k - first) + " of " + std::to_string(n) +
		      " in order" + (expect_empty ? ", then empty" : ""));
}

// The extended API: count completions (start_poll, next_poll...,
// end_poll), messages first .. first+count-1; expect_empty: then
// start_poll must answer ENOENT.
void ex_poll_expect(ibv_cq_ex *cq, uint32_t qpn, uint32_t first, uint32_t count,
		    bool expect_empty, const std::string &what)
{
	ibv_poll_cq_attr pa{};
	uint32_t k = first;
	bool ok = true;
	int rc = ibv_start_poll(cq, &pa);
	bool started = rc == 0;	// then ibv_end_poll, whatever next_poll says
	while (!rc) {
		bool imm = ibv_wc_read_wc_flags(cq) & IBV_WC_WITH_IMM;
		Got g{cq->wr_id, cq->status, ibv_wc_read_opcode(cq), ibv_wc_read_byte_len(cq),
		      imm, imm ? ntohl(ibv_wc_read_imm_data(cq)) : 0, ibv_wc_read_qp_num(cq)};
		ok = judge(g, k, qpn) && ok;
		k++;
		if (k == first + count)
			break;
		rc = ibv_next_poll(cq);
	}
	if (started)
		ibv_end_poll(cq);
	if (rc && rc != ENOENT)
		ok = false;
	bool empty = true;
	if (expect_empty) {
		int again = ibv_start_poll(cq, &pa);
		empty = again == ENOENT;
		if (!again)
			ibv_end_poll(cq);
	}
	check(ok && k == first + count && empty,
	      what + ": " + std::to_string(k - first) + " of " + std::to_string(count) +
		      " in order" + (expect_empty ? ", then empty" : ""));
}

int g_errno;	// errno after the last failed resize()

// ibv_resize_cq, printed: its return value, errno (when it failed), the
// size after.
int resize(ibv_cq *cq, int cqe, const char *what)
{
	errno = 0;
	int rc = ibv_resize_cq(cq, cqe);
	g_errno = rc ? errno : 0;
	std::printf("resize %s to %d: rc %d errno %d cqe %d\n", what, cqe, rc, g_errno,
		    cq->cqe);
	return rc;
}

void grow(Env &e)
{
	std::printf("-- grow\n");
	ibv_cq *cq = ibv_create_cq(e.ctx, 8, nullptr, nullptr, 0);
	Rig r(e);
	if (!cq || !r.make(cq) || !r.deliver(0, 6)) {
		check(false, "grow: setup");
		return;
	}
	std::printf("created with 8: cqe %d\n", cq->cqe);
	int rc = resize(cq, 100, "with 6 outstanding");
	check(rc == 0 && cq->cqe >= 100, "grow to 100 with 6 outstanding");
	poll_expect(cq, r.b->qp_num, 0, 6, 4, "grow: polled by 4");
	// More after the resize: the new ring takes them after the copied ones.
	check(r.deliver(6, 40), "grow: 40 more delivered");
	poll_expect(cq, r.b->qp_num, 6, 40, 7, "grow: the next 40 by 7");
	r.release();
	ibv_destroy_cq(cq);
}

void shrink_holding(Env &e)
{
	std::printf("-- shrink, still holding them\n");
	ibv_cq *cq = ibv_create_cq(e.ctx, 64, nullptr, nullptr, 0);
	Rig r(e);
	if (!cq || !r.make(cq) || !r.deliver(0, 10)) {
		check(false, "shrink: setup");
		return;
	}
	std::printf("created with 64: cqe %d\n", cq->cqe);
	int rc = resize(cq, 16, "with 10 outstanding");
	check(rc == 0 && cq->cqe >= 16 && cq->cqe < 64, "shrink to 16 with 10 outstanding");
	poll_expect(cq, r.b->qp_num, 0, 3, 3, "shrink: first 3", false);
	// 7 left: exactly as many as the new size.
	rc = resize(cq, 7, "with 7 outstanding");
	check(rc == 0 && cq->cqe >= 7 && cq->cqe < 16, "shrink to 7 with 7 outstanding");
	poll_expect(cq, r.b->qp_num, 3, 7, 16, "shrink: the other 7");
	check(r.deliver(10, 5), "shrink: 5 more delivered");
	poll_expect(cq, r.b->qp_num, 10, 5, 2, "shrink: the next 5 by 2");
	r.release();
	ibv_destroy_cq(cq);
}

void shrink_below(Env &e)
{
	std::printf("-- shrink below the number outstanding\n");
	ibv_cq *cq = ibv_create_cq(e.ctx, 64, nullptr, nullptr, 0);
	Rig r(e);
	if (!cq || !r.make(cq) || !r.deliver(0, 10)) {
		check(false, "shrink below: setup");
		return;
	}
	int before = cq->cqe;
	// rdma_rxe refuses a size below the entries queued: EINVAL, as the
	// return value and in errno, on both libraries.
	int rc = resize(cq, 9, "with 10 outstanding");
	check(rc == EINVAL && g_errno == EINVAL && cq->cqe == before, "shrink to 9 refused (EINVAL)");
	rc = resize(cq, 2, "with 10 outstanding");
	check(rc == EINVAL && g_errno == EINVAL && cq->cqe == before, "shrink to 2 refused (EINVAL)");
	poll_expect(cq, r.b->qp_num, 0, 10, 16, "shrink below: all 10 still there");
	// Once polled empty the same size is fine: the kernel counts what
	// the library has not consumed.
	rc = resize(cq, 2, "polled empty");
	check(rc == 0 && cq->cqe >= 2 && cq->cqe < before, "shrink to 2 once empty");
	check(r.deliver(10, 2), "shrink below: 2 more delivered");
	poll_expect(cq, r.b->qp_num, 10, 2, 1, "shrink below: the next 2");
	r.release();
	ibv_destroy_cq(cq);
}

void wrap(Env &e)
{
	std::printf("-- wrap\n");
	ibv_cq *cq = ibv_create_cq(e.ctx, 4, nullptr, nullptr, 0);
	Rig r(e);
	if (!cq || !r.make(cq)) {
		check(false, "wrap: setup");
		return;
	}
	std::printf("created with 4: cqe %d\n", cq->cqe);
	uint32_t k = 0;
	bool ok = true;
	// 60 through a ring of 8 slots or so, 4 at a time.
	for (int round = 0; round < 15; round++, k += 4) {
		ok = r.deliver(k, 4) && ok;
		poll_expect(cq, r.b->qp_num, k, 4, 4, "wrap: round " + std::to_string(round));
	}
	check(ok, "wrap: 60 delivered before the resize");
	// Entries straddling the ring's end: rdma_rxe's ring of a CQ of 4
	// has 8 slots, 60 went through, the next 5 take slots 4..7 and 0;
	// poll 1 and resize with 4 in it.
	ok = r.deliver(k, 4) && r.deliver(k + 4, 1);
	poll_expect(cq, r.b->qp_num, k, 1, 1, "wrap: 1 of 5 before the resize", false);
	int rc = resize(cq, 30, "with 4 outstanding, wrapped");
	check(ok && rc == 0 && cq->cqe >= 30, "wrap: grow to 30 with 4 outstanding");
	ok = r.deliver(k + 5, 20);
	poll_expect(cq, r.b->qp_num, k + 1, 24, 5, "wrap: 4 copied and 20 new");
	k += 25;
	// 96 more through the new ring, 12 at a time.  rdma_rxe's ring of a
	// CQ of 30 has 32 slots and the resize put the 3 copied entries at
	// its start: 3 + 20 + 96 = 119, so the next 10 take slots 23..31 and
	// 0, and the 6 left after polling 4 straddle the end.
	for (int round = 0; round < 8; round++, k += 12) {
		ok = r.deliver(k, 12) && ok;
		poll_expect(cq, r.b->qp_num, k, 12, 12, "wrap: new ring round " + std::to_string(round));
	}
	check(ok, "wrap: 116 delivered after the resize");
	// And shrink with entries again across the end of the ring.
	ok = r.deliver(k, 10);
	poll_expect(cq, r.b->qp_num, k, 4, 4, "wrap: 4 of 10 before the shrink", false);
	rc = resize(cq, 6, "with 6 outstanding, wrapped");
	check(ok && rc == 0 && cq->cqe >= 6 && cq->cqe < 30, "wrap: shrink to 6 with 6 outstanding");
	poll_expect(cq, r.b->qp_num, k + 4, 6, 3, "wrap: the 6 after the shrink");
	r.release();
	ibv_destroy_cq(cq);
}

void extended(Env &e)
{
	std::printf("-- extended polling\n");
	ibv_cq_init_attr_ex ca{};
	ca.cqe = 8;
	ca.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM;
	ibv_cq_ex *cq = ibv_create_cq_ex(e.ctx, &ca);
	ibv_cq *c = cq ? ibv_cq_ex_to_cq(cq) : nullptr;
	Rig r(e);
	if (!cq || !r.make(c) || !r.deliver(0, 6)) {
		check(false, "extended: setup");
		return;
	}
	std::printf("created with 8: cqe %d\n", c->cqe);
	int rc = resize(c, 40, "with 6 outstanding");
	check(rc == 0 && c->cqe >= 40, "extended: grow to 40 with 6 outstanding");
	ex_poll_expect(cq, r.b->qp_num, 0, 6, true, "extended: the 6 after the resize");
	uint32_t k = 6;
	bool ok = true;
	// 114 through the new ring (rdma_rxe: 64 slots, the 6 copied ones at
	// its start), 19 at a time: 6 + 114 = 120, so the next 10 take slots
	// 56..63 and 0..1, the 6 left after polling 4 straddle the end.
	for (int round = 0; round < 6; round++, k += 19) {
		ok = r.deliver(k, 19) && ok;
		ex_poll_expect(cq, r.b->qp_num, k, 19, true, "extended: round " + std::to_string(round));
	}
	check(ok, "extended: 114 delivered after the resize");
	ok = r.deliver(k, 10);
	ex_poll_expect(cq, r.b->qp_num, k, 4, false, "extended: 4 of 10, end_poll");
	rc = resize(c, 5, "with 6 outstanding");
	check(rc == EINVAL && g_errno == EINVAL && c->cqe >= 40, "extended: shrink to 5 refused (EINVAL)");
	rc = resize(c, 6, "with 6 outstanding");
	check(ok && rc == 0 && c->cqe >= 6 && c->cqe < 40, "extended: shrink to 6 with 6 outstanding");
	ex_poll_expect(cq, r.b->qp_num, k + 4, 6, true, "extended: the other 6");
	ok = r.deliver(k + 10, 6);
	ex_poll_expect(cq, r.b->qp_num, k + 10, 6, true, "extended: 6 more after the shrink");
	check(ok, "extended: delivered after the shrink");
	r.release();
	ibv_destroy_cq(c);
}

} // namespace

int main(int argc, char **argv)
{
	Env e;
	if (!e.open_from_args(argc, argv))
		return 4;
	grow(e);
	shrink_holding(e);
	shrink_below(e);
	wrap(e);
	extended(e);
	std::printf("failures: %d\n", g_fail);
	return g_fail ? 1 : 0;
}
