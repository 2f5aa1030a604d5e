// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Verbs on a real device, one process, a loopback RC pair per test:
// successful operations and the error completions an application sees.
// TAP 13 output; needs an active RoCE port (rxe0 in QEMU).
//
//   ovb_verbs_test [device] [gid index]      (default rxe0 1)
#include <infiniband/verbs.h>

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <sys/utsname.h>
#include <vector>

namespace {

struct Env {
	ibv_context *ctx = nullptr;
	ibv_pd *pd = nullptr;
	uint8_t port = 1;
	int gid_index = 1;
	ibv_gid gid{};
};

// Both ends of a connected RC pair, each with its own CQ.
struct Pair {
	ibv_cq *cq[2] = {};
	ibv_qp *qp[2] = {};
	~Pair()
	{
		for (int i = 0; i < 2; i++) {
			if (qp[i])
				ibv_destroy_qp(qp[i]);
			if (cq[i])
				ibv_destroy_cq(cq[i]);
		}
	}
};

// A registered buffer.
struct Buf {
	std::vector<uint8_t> mem;
	ibv_mr *mr = nullptr;
	Buf(ibv_pd *pd, size_t n, int access) : mem(n, 0)
	{
		mr = ibv_reg_mr(pd, mem.data(), n, access);
	}
	~Buf()
	{
		if (mr)
			ibv_dereg_mr(mr);
	}
	uint64_t addr() const { return reinterpret_cast<uintptr_t>(mem.data()); }
	ibv_sge sge(uint32_t len, uint32_t off = 0) const
	{
		return {addr() + off, len, mr->lkey};
	}
};

constexpr int kAllAccess = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC |
			   IBV_ACCESS_MW_BIND;

std::string g_why;	// why the current test failed

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			g_why += std::string(g_why.empty() ? "" : ": ") +    \
				 #cond " (line " +                           \
				 std::to_string(__LINE__) + ")";             \
			return false;                                        \
		}                                                            \
	} while (0)

bool to_init(ibv_qp *qp, const Env &e, int access)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.port_num = e.port;
	a.qp_access_flags = static_cast<unsigned>(access);
	return !ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					   IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

bool to_rts(ibv_qp *qp, const Env &e, uint32_t dest_qpn, uint8_t rnr_retry)
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
	a.retry_cnt = 1;
	a.rnr_retry = rnr_retry;
	a.max_rd_atomic = 4;
	return !ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
					 IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					 IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

bool make_pair(const Env &e, Pair &p, int access = kAllAccess,
	       uint8_t rnr_retry = 7)
{
	for (int i = 0; i < 2; i++) {
		p.cq[i] = ibv_create_cq(e.ctx, 64, nullptr, nullptr, 0);
		CHECK(p.cq[i]);
		ibv_qp_init_attr init{};
		init.send_cq = init.recv_cq = p.cq[i];
		init.qp_type = IBV_QPT_RC;
		init.cap.max_send_wr = 16;
		init.cap.max_recv_wr = 16;
		init.cap.max_send_sge = 2;
		init.cap.max_recv_sge = 2;
		init.cap.max_inline_data = 64;
		p.qp[i] = ibv_create_qp(e.pd, &init);
		CHECK(p.qp[i]);
		CHECK(init.cap.max_send_wr >= 16 && init.cap.max_inline_data >= 64);
		CHECK(to_init(p.qp[i], e, access));
	}
	CHECK(to_rts(p.qp[0], e, p.qp[1]->qp_num, rnr_retry));
	CHECK(to_rts(p.qp[1], e, p.qp[0]->qp_num, rnr_retry));
	return true;
}

// One completion from cq within 10 s.
bool poll_one(ibv_cq *cq, ibv_wc &wc)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
	while (std::chrono::steady_clock::now() < end) {
		int n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			return false;
		if (n == 1)
			return true;
	}
	return false;
}

bool expect_wc(ibv_cq *cq, ibv_wc_status status, uint64_t wr_id,
	       ibv_wc *out = nullptr)
{
	ibv_wc wc{};
	if (!poll_one(cq, wc)) {
		g_why = "no completion";
		return false;
	}
	if (wc.status != status || wc.wr_id != wr_id) {
		g_why = std::string("completion ") + ibv_wc_status_str(wc.status) +
			" wr_id " + std::to_string(wc.wr_id) + ", want " +
			ibv_wc_status_str(status) + " wr_id " + std::to_string(wr_id);
		return false;
	}
	if (out)
		*out = wc;
	return true;
}

// Whether the running kernel is major.minor or newer: rdma_rxe's error
// completions differ between Debian's 6.1 and 6.12 (the running kernel's
// driver decides, on either library and either ib_uverbs).
bool kernel_at_least(int major, int minor)
{
	utsname u{};
	int ma = 0, mi = 0;
	if (uname(&u) || std::sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

bool post_send(ibv_qp *qp, ibv_send_wr &wr)
{
	ibv_send_wr *bad = nullptr;
	return ibv_post_send(qp, &wr, &bad) == 0;
}

bool post_recv(ibv_qp *qp, ibv_sge sge, uint64_t wr_id)
{
	ibv_recv_wr wr{};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ibv_recv_wr *bad = nullptr;
	return ibv_post_recv(qp, &wr, &bad) == 0;
}

// ------------------------------------------------------------- the tests

bool send_with_imm(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p));
	Buf src(e.pd, 256, kAllAccess), dst(e.pd, 256, kAllAccess);
	std::memset(src.mem.data(), 0x5a, 200);
	CHECK(post_recv(p.qp[1], dst.sge(256), 7));
	ibv_sge sge = src.sge(200);
	ibv_send_wr wr{};
	wr.wr_id = 1;
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = htobe32(0xc0ffee);
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	CHECK(post_send(p.qp[0], wr));
	CHECK(expect_wc(p.cq[0], IBV_WC_SUCCESS, 1));
	ibv_wc wc;
	CHECK(expect_wc(p.cq[1], IBV_WC_SUCCESS, 7, &wc));
	CHECK(wc.opcode == IBV_WC_RECV && wc.byte_len == 200);
	CHECK((wc.wc_flags & IBV_WC_WITH_IMM) && be32toh(wc.imm_data) == 0xc0ffee);
	CHECK(wc.qp_num == p.qp[1]->qp_num);
	CHECK(dst.mem[0] == 0x5a && dst.mem[199] == 0x5a && dst.mem[200] == 0);
	return true;
}

bool send_inline(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p));
	Buf dst(e.pd, 64, kAllAccess);
	char msg[] = "inline payload";
	CHECK(post_recv(p.qp[1], dst.sge(64), 3));
	ibv_sge sge{reinterpret_cast<uintptr_t>(msg), sizeof(msg), 0};
	ibv_send_wr wr{};
	wr.wr_id = 2;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	CHECK(post_send(p.qp[0], wr));
	std::memset(msg, 0, sizeof(msg));	// inline: copied at post time
	CHECK(expect_wc(p.cq[0], IBV_WC_SUCCESS, 2));
	CHECK(expect_wc(p.cq[1], IBV_WC_SUCCESS, 3));
	CHECK(!std::strcmp(reinterpret_cast<char *>(dst.mem.data()), "inline payload"));
	return true;
}

bool rdma_write_read(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p));
	Buf local(e.pd, 4096, kAllAccess), remote(e.pd, 4096, kAllAccess);
	for (int i = 0; i < 4096; i++)
		local.mem[i] = static_cast<uint8_t>(i);
	ibv_sge sge = local.sge(4096);
	ibv_send_wr wr{};
	wr.wr_id = 10;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.rdma.remote_addr = remote.addr();
	wr.wr.rdma.rkey = remote.mr->rkey;
	CHECK(post_send(p.qp[0], wr));
	CHECK(expect_wc(p.cq[0], IBV_WC_SUCCESS, 10));
	CHECK(remote.mem == local.mem);

	std::memset(local.mem.data(), 0, 4096);
	remote.mem[100] = 0xab;
	wr.wr_id = 11;
	wr.opcode = IBV_WR_RDMA_READ;
	CHECK(post_send(p.qp[0], wr));
	ibv_wc wc;
	CHECK(expect_wc(p.cq[0], IBV_WC_SUCCESS, 11, &wc));
	CHECK(wc.opcode == IBV_WC_RDMA_READ);
	CHECK(local.mem[100] == 0xab && local.mem[101] == 101);
	return true;
}

bool atomics(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p));
	Buf local(e.pd, 8, kAllAccess), remote(e.pd, 8, kAllAccess);
	uint64_t v = 40;
	std::memcpy(remote.mem.data(), &v, 8);
	ibv_sge sge = local.sge(8);
	ibv_send_wr wr{};
	wr.wr_id = 20;
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.atomic.remote_addr = remote.addr();
	wr.wr.atomic.rkey = remote.mr->rkey;
	wr.wr.atomic.compare_add = 2;
	CHECK(post_send(p.qp[0], wr));
	CHECK(expect_wc(p.cq[0], IBV_WC_SUCCESS, 20));
	std::memcpy(&v, local.mem.data(), 8);
	CHECK(v == 40);
	std::memcpy(&v, remote.mem.data(), 8);
	CHECK(v == 42);

	wr.wr_id = 21;
	wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	wr.wr.atomic.compare_add = 42;
	wr.wr.atomic.swap = 7;
	CHECK(post_send(p.qp[0], wr));
	CHECK(expect_wc(p.cq[0], IBV_WC_SUCCESS, 21));
	std::memcpy(&v, remote.mem.data(), 8);
	CHECK(v == 7);
	return true;
}

bool bad_lkey(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p));
	Buf src(e.pd, 64, kAllAccess), dst(e.pd, 64, kAllAccess);
	CHECK(post_recv(p.qp[1], dst.sge(64), 1));
	ibv_sge sge = src.sge(64);
	sge.lkey ^= 0x5500;
	ibv_send_wr wr{};
	wr.wr_id = 30;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	CHECK(post_send(p.qp[0], wr));
	// 6.1 rdma_rxe: the failed lkey lookup is -EINVAL, reported as a local
	// QP operation error (only -EFAULT becomes a protection error).  6.12's
	// requester moves the QP to ERR before the completer sees the WQE, and
	// the completer flushes an errored QP's send queue first: the WQE
	// completes as flushed.
	CHECK(expect_wc(p.cq[0], kernel_at_least(6, 12) ? IBV_WC_WR_FLUSH_ERR : IBV_WC_LOC_QP_OP_ERR,
			30));
	return true;
}

bool bad_rkey(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p));
	Buf local(e.pd, 64, kAllAccess), remote(e.pd, 64, kAllAccess);
	ibv_sge sge = local.sge(64);
	ibv_send_wr wr{};
	wr.wr_id = 40;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.rdma.remote_addr = remote.addr();
	wr.wr.rdma.rkey = remote.mr->rkey ^ 0x5500;
	CHECK(post_send(p.qp[0], wr));
	CHECK(expect_wc(p.cq[0], IBV_WC_REM_ACCESS_ERR, 40));
	return true;
}

bool access_violation(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p));
	Buf local(e.pd, 64, kAllAccess);
	Buf readonly(e.pd, 64, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	CHECK(readonly.mr);
	ibv_sge sge = local.sge(64);
	ibv_send_wr wr{};
	wr.wr_id = 50;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.rdma.remote_addr = readonly.addr();
	wr.wr.rdma.rkey = readonly.mr->rkey;
	CHECK(post_send(p.qp[0], wr));
	CHECK(expect_wc(p.cq[0], IBV_WC_REM_ACCESS_ERR, 50));
	return true;
}

bool rnr_retry_exceeded(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p, kAllAccess, 0));
	Buf src(e.pd, 64, kAllAccess);
	ibv_sge sge = src.sge(64);
	ibv_send_wr wr{};
	wr.wr_id = 60;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	CHECK(post_send(p.qp[0], wr));		// no receive posted
	CHECK(expect_wc(p.cq[0], IBV_WC_RNR_RETRY_EXC_ERR, 60));
	return true;
}

bool flush_on_error(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p));
	Buf dst(e.pd, 128, kAllAccess);
	CHECK(post_recv(p.qp[1], dst.sge(64), 70));
	CHECK(post_recv(p.qp[1], dst.sge(64, 64), 71));
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_ERR;
	CHECK(!ibv_modify_qp(p.qp[1], &a, IBV_QP_STATE));
	CHECK(expect_wc(p.cq[1], IBV_WC_WR_FLUSH_ERR, 70));
	CHECK(expect_wc(p.cq[1], IBV_WC_WR_FLUSH_ERR, 71));
	ibv_qp_init_attr init;
	CHECK(!ibv_query_qp(p.qp[1], &a, IBV_QP_STATE, &init));
	CHECK(a.qp_state == IBV_QPS_ERR);
	return true;
}

bool memory_window(Env &e)
{
	Pair p;
	CHECK(make_pair(e, p));
	Buf local(e.pd, 64, kAllAccess), remote(e.pd, 64, kAllAccess);
	ibv_mw *mw = ibv_alloc_mw(e.pd, IBV_MW_TYPE_1);
	CHECK(mw);
	ibv_mw_bind bind{};
	bind.wr_id = 80;
	bind.send_flags = IBV_SEND_SIGNALED;
	bind.bind_info.mr = remote.mr;
	bind.bind_info.addr = remote.addr();
	bind.bind_info.length = 64;
	bind.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
	bool ok = ibv_bind_mw(p.qp[1], mw, &bind) == 0 &&
		  expect_wc(p.cq[1], IBV_WC_SUCCESS, 80);
	if (ok) {
		std::memset(local.mem.data(), 0x77, 64);
		ibv_sge sge = local.sge(64);
		ibv_send_wr wr{};
		wr.wr_id = 81;
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.wr.rdma.remote_addr = remote.addr();
		wr.wr.rdma.rkey = mw->rkey;
		ok = post_send(p.qp[0], wr) &&
		     expect_wc(p.cq[0], IBV_WC_SUCCESS, 81) && remote.mem[63] == 0x77;
	}
	ibv_dealloc_mw(mw);
	return ok;
}

bool cq_resize_and_srq(Env &e)
{
	ibv_cq *cq = ibv_create_cq(e.ctx, 8, nullptr, nullptr, 0);
	CHECK(cq && cq->cqe >= 8);
	CHECK(!ibv_resize_cq(cq, 100));
	CHECK(cq->cqe >= 100);
	CHECK(!ibv_destroy_cq(cq));

	ibv_srq_init_attr sinit{};
	sinit.attr.max_wr = 16;
	sinit.attr.max_sge = 1;
	ibv_srq *srq = ibv_create_srq(e.pd, &sinit);
	CHECK(srq);
	ibv_srq_attr sa{};
	CHECK(!ibv_query_srq(srq, &sa));
	CHECK(sa.max_wr >= 16);
	sa.max_wr = 64;
	CHECK(!ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR));
	CHECK(!ibv_query_srq(srq, &sa));
	CHECK(sa.max_wr >= 64);
	Buf dst(e.pd, 64, kAllAccess);
	ibv_sge sge = dst.sge(64);
	ibv_recv_wr wr{};
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ibv_recv_wr *bad;
	CHECK(!ibv_post_srq_recv(srq, &wr, &bad));
	CHECK(!ibv_destroy_srq(srq));
	return true;
}

bool bad_port_query(Env &e)
{
	ibv_port_attr pa;
	CHECK(ibv_query_port(e.ctx, 77, &pa) == EINVAL);
	ibv_gid_entry entry;
	CHECK(ibv_query_gid_ex(e.ctx, e.port, 0, &entry, 0) == 0);
	return true;
}

// Verbs rxe has no support for (XRC, opening a shared QP, re-registering
// an MR, WQs, RSS tables, flows): each must fail, and the TAP comments
// (return value, errno) must read the same on rdma-core's library (the
// data-path test diffs this program's output between both).
void report(const char *what, long rc)
{
	std::printf("# %s: %ld, errno %s\n", what, rc, strerrorname_np(errno));
}

bool unsupported_verbs(Env &e)
{
	ibv_cq *cq = ibv_create_cq(e.ctx, 4, nullptr, nullptr, 0);
	CHECK(cq);
	ibv_qp_init_attr_ex qa{};
	qa.comp_mask = IBV_QP_INIT_ATTR_PD;
	qa.pd = e.pd;
	qa.send_cq = qa.recv_cq = cq;
	qa.cap = {4, 4, 1, 1, 0};

	errno = 0;
	ibv_xrcd_init_attr xa{};
	xa.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
	xa.fd = -1;
	xa.oflags = O_CREAT;
	ibv_xrcd *xrcd = ibv_open_xrcd(e.ctx, &xa);
	report("ibv_open_xrcd", xrcd != nullptr);
	CHECK(!xrcd);

	errno = 0;
	ibv_qp_open_attr oa{};
	oa.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_TYPE;
	oa.qp_num = 1;
	oa.qp_type = IBV_QPT_XRC_RECV;
	ibv_qp *qp = ibv_open_qp(e.ctx, &oa);
	report("ibv_open_qp", qp != nullptr);
	CHECK(!qp);

	errno = 0;
	ibv_srq_init_attr_ex sa{};
	sa.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE;
	sa.pd = e.pd;
	sa.srq_type = IBV_SRQT_XRC;
	sa.attr = {4, 1, 0};
	ibv_srq *srq = ibv_create_srq_ex(e.ctx, &sa);
	report("ibv_create_srq_ex(XRC, no XRCD)", srq != nullptr);
	CHECK(!srq);

	for (ibv_qp_type t : {IBV_QPT_XRC_SEND, IBV_QPT_XRC_RECV}) {
		errno = 0;
		qa.qp_type = t;
		qp = ibv_create_qp_ex(e.ctx, &qa);
		report(t == IBV_QPT_XRC_SEND ? "ibv_create_qp_ex(XRC_SEND)"
					     : "ibv_create_qp_ex(XRC_RECV)", qp != nullptr);
		CHECK(!qp);
	}
	errno = 0;
	qa.qp_type = IBV_QPT_XRC_RECV;
	qa.comp_mask = IBV_QP_INIT_ATTR_XRCD;
	qp = ibv_create_qp_ex(e.ctx, &qa);
	report("ibv_create_qp_ex(XRC_RECV, XRCD mask)", qp != nullptr);
	CHECK(!qp);

	errno = 0;
	ibv_wq_init_attr wa{};
	wa.wq_type = IBV_WQT_RQ;
	wa.max_wr = 4;
	wa.max_sge = 1;
	wa.pd = e.pd;
	wa.cq = cq;
	ibv_wq *wq = ibv_create_wq(e.ctx, &wa);
	report("ibv_create_wq", wq != nullptr);
	CHECK(!wq);

	errno = 0;
	ibv_rwq_ind_table_init_attr ra{};
	ra.log_ind_tbl_size = 0;
	ibv_rwq_ind_table *rt = ibv_create_rwq_ind_table(e.ctx, &ra);
	report("ibv_create_rwq_ind_table", rt != nullptr);
	CHECK(!rt);

	ibv_qp_init_attr ia{};
	ia.send_cq = ia.recv_cq = cq;
	ia.cap = {4, 4, 1, 1, 0};
	ia.qp_type = IBV_QPT_UD;
	qp = ibv_create_qp(e.pd, &ia);
	CHECK(qp);
	errno = 0;
	struct {
		ibv_flow_attr attr;
		ibv_flow_spec_eth eth;
	} fa{};
	fa.attr.size = sizeof(fa);
	fa.attr.num_of_specs = 1;
	fa.attr.port = e.port;
	fa.eth.type = IBV_FLOW_SPEC_ETH;
	fa.eth.size = sizeof(fa.eth);
	ibv_flow *flow = ibv_create_flow(qp, &fa.attr);
	report("ibv_create_flow", flow != nullptr);
	CHECK(!flow);
	ibv_destroy_qp(qp);

	Buf b(e.pd, 64, IBV_ACCESS_LOCAL_WRITE);
	CHECK(b.mr);
	errno = 0;
	int rc = ibv_rereg_mr(b.mr, IBV_REREG_MR_CHANGE_ACCESS, nullptr, nullptr, 0,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	report("ibv_rereg_mr(CHANGE_ACCESS)", rc);
	CHECK(rc != 0);
	errno = 0;
	rc = ibv_rereg_mr(b.mr, 1 << 10, nullptr, nullptr, 0, 0);
	report("ibv_rereg_mr(unknown flag)", rc);
	CHECK(rc == IBV_REREG_MR_ERR_INPUT && errno == EINVAL);
	errno = 0;
	rc = ibv_rereg_mr(b.mr, IBV_REREG_MR_CHANGE_TRANSLATION, nullptr, nullptr, 0, 0);
	report("ibv_rereg_mr(CHANGE_TRANSLATION, no buffer)", rc);
	CHECK(rc == IBV_REREG_MR_ERR_INPUT && errno == EINVAL);
	ibv_destroy_cq(cq);
	return true;
}

} // namespace

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "rxe0";
	Env e;
	e.gid_index = argc > 2 ? std::atoi(argv[2]) : 1;

	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	ibv_device *dev = nullptr;
	for (int i = 0; i < n; i++)
		if (!std::strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev || !(e.ctx = ibv_open_device(dev)) || !(e.pd = ibv_alloc_pd(e.ctx)) ||
	    ibv_query_gid(e.ctx, e.port, e.gid_index, &e.gid)) {
		std::printf("1..0 # SKIP no usable %s\n", name);
		return 4;
	}

	struct Test {
		const char *name;
		bool (*fn)(Env &);
	};
	const Test tests[] = {
		{"send with immediate", send_with_imm},
		{"inline send", send_inline},
		{"RDMA write and read", rdma_write_read},
		{"atomic fetch-add and compare-swap", atomics},
		{"bad lkey: local QP operation error", bad_lkey},
		{"bad rkey: remote access error", bad_rkey},
		{"write to a read-only MR: remote access error", access_violation},
		{"no receive, rnr_retry 0: RNR retry exceeded", rnr_retry_exceeded},
		{"error state flushes receives", flush_on_error},
		{"memory window type 1 bind and write", memory_window},
		{"CQ resize, SRQ query/modify/post", cq_resize_and_srq},
		{"port and GID queries", bad_port_query},
		{"XRC, open_qp, rereg_mr, WQ, RSS, flow on rxe", unsupported_verbs},
	};
	std::printf("TAP version 13\n1..%zu\n", std::size(tests));
	int failed = 0, i = 0;
	for (const Test &t : tests) {
		g_why.clear();
		bool ok = t.fn(e);
		std::printf("%s %d - %s\n", ok ? "ok" : "not ok", ++i, t.name);
		if (!ok) {
			std::printf("# %s\n", g_why.c_str());
			failed++;
		}
	}
	std::printf("# %zu passed, %d failed\n", std::size(tests) - failed, failed);
	ibv_dealloc_pd(e.pd);
	ibv_close_device(e.ctx);
	ibv_free_device_list(list);
	return failed ? 1 : 0;
}
