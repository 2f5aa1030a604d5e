// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Posting through the kernel with the library, as hfi1's and qib's
// providers do (ibv_cmd_post_send and friends): the ovbtest provider's
// QPs and SRQs post with POST_SEND, POST_RECV and POST_SRQ_RECV, and the
// test HCA's driver records what reached it (ovbtestdv_last_post).  Every
// field of each WR is compared with what the application posted, and a
// refused WR comes back as *bad_wr.  TAP 13 output.
//
//   ovb_ovbtest_post_test [device]      (default ovbtest0)
#include <infiniband/verbs.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "ovbtestdv.h"

namespace {

int n, failed;

void result(bool ok, const std::string &what)
{
	std::printf("%sok %d - %s\n", ok ? "" : "not ", ++n, what.c_str());
	if (!ok)
		failed++;
}

// The SGE the test gives WR i's k-th entry.
ibv_sge sge_of(uint32_t i, uint32_t k)
{
	return ibv_sge{0x10000ull * (i + 1) + 0x40 * k, 0x100 + i, 0x5000 + k};
}

bool sges_match(const ovbtest_post_wr &rec, const ibv_sge *sg, int num)
{
	if (rec.num_sge != static_cast<uint32_t>(num))
		return false;
	for (int k = 0; k < num && k < OVBTEST_POST_MAX_SGE; k++)
		if (rec.sge[k].addr != sg[k].addr ||
		    rec.sge[k].length != sg[k].length ||
		    rec.sge[k].lkey != sg[k].lkey)
			return false;
	return true;
}

// RESET -> INIT -> RTR -> RTS on the InfiniBand port; an RC QP gets a
// LID path (the driver checks nothing else).
bool bring_up(ibv_qp *qp)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qkey = 0x11111111;
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		   (qp->qp_type == IBV_QPT_UD ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS);
	if (ibv_modify_qp(qp, &a, mask))
		return false;
	a = {};
	a.qp_state = IBV_QPS_RTR;
	mask = IBV_QP_STATE;
	if (qp->qp_type == IBV_QPT_RC) {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = 0x77;
		a.rq_psn = 0x42;
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 12;
		a.ah_attr.dlid = 0x17;
		a.ah_attr.port_num = 1;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			IBV_QP_MIN_RNR_TIMER;
	}
	if (ibv_modify_qp(qp, &a, mask))
		return false;
	a = {};
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x123;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (qp->qp_type == IBV_QPT_RC) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	return !ibv_modify_qp(qp, &a, mask);
}

ibv_qp *make_qp(ibv_pd *pd, ibv_cq *cq, ibv_qp_type type)
{
	ibv_qp_init_attr init{};
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = type;
	init.cap.max_send_wr = 8;
	init.cap.max_recv_wr = 8;
	init.cap.max_send_sge = 2;
	init.cap.max_recv_sge = 2;
	return ibv_create_qp(pd, &init);
}

// Every RC opcode in one chain: what the driver got, field by field.
void rc_chain(ibv_qp *qp)
{
	static const ibv_wr_opcode ops[] = {
		IBV_WR_SEND, IBV_WR_SEND_WITH_IMM, IBV_WR_SEND_WITH_INV,
		IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_READ,
		IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD,
	};
	constexpr uint32_t kN = 8;
	ibv_send_wr wr[kN]{};
	ibv_sge sg[kN][2];
	for (uint32_t i = 0; i < kN; i++) {
		wr[i].wr_id = 0x1000 + i;
		wr[i].opcode = ops[i];
		wr[i].send_flags = i & 1 ? IBV_SEND_SIGNALED : 0;
		wr[i].num_sge = static_cast<int>(i % 3);
		wr[i].sg_list = sg[i];
		for (uint32_t k = 0; k < 2; k++)
			sg[i][k] = sge_of(i, k);
		wr[i].imm_data = htobe32(0xa1b2c3d0 + i);
		if (ops[i] == IBV_WR_ATOMIC_CMP_AND_SWP ||
		    ops[i] == IBV_WR_ATOMIC_FETCH_AND_ADD) {
			wr[i].wr.atomic.remote_addr = 0x7000000000ull + i;
			wr[i].wr.atomic.compare_add = 0xc0c0c0c0c0ull + i;
			wr[i].wr.atomic.swap = 0x5a5a5a5a5aull + i;
			wr[i].wr.atomic.rkey = 0x4400 + i;
		} else if (ops[i] != IBV_WR_SEND && ops[i] != IBV_WR_SEND_WITH_IMM &&
			   ops[i] != IBV_WR_SEND_WITH_INV) {
			wr[i].wr.rdma.remote_addr = 0x7000000000ull + i;
			wr[i].wr.rdma.rkey = 0x3300 + i;
		}
		wr[i].next = i + 1 < kN ? &wr[i + 1] : nullptr;
	}
	ibv_send_wr *bad = nullptr;
	int rc = ibv_post_send(qp, wr, &bad);
	ovbtest_post_record rec;
	std::memset(&rec, 0xee, sizeof(rec));
	bool got = !rc && !ovbtestdv_last_post(qp, 0, nullptr, &rec) &&
		   rec.kind == OVBTEST_POST_SEND && rec.chain_len == kN &&
		   rec.ret == 0 && bad == nullptr;
	result(got, "ibv_post_send: 8 RC WRs reach the driver in one POST_SEND (rc " +
		       std::to_string(rc) + ")");
	bool fields = got;
	for (uint32_t i = 0; fields && i < kN; i++) {
		const ovbtest_post_wr &r = rec.wr[i];
		bool atomic = ops[i] == IBV_WR_ATOMIC_CMP_AND_SWP ||
			      ops[i] == IBV_WR_ATOMIC_FETCH_AND_ADD;
		bool rdma = !atomic && ops[i] != IBV_WR_SEND &&
			    ops[i] != IBV_WR_SEND_WITH_IMM &&
			    ops[i] != IBV_WR_SEND_WITH_INV;
		bool has_ex = ops[i] == IBV_WR_SEND_WITH_IMM ||
			      ops[i] == IBV_WR_RDMA_WRITE_WITH_IMM ||
			      ops[i] == IBV_WR_SEND_WITH_INV;
		uint32_t ex = 0;
		if (has_ex)
			std::memcpy(&ex, &wr[i].imm_data, sizeof(ex));
		fields = r.wr_id == wr[i].wr_id && r.opcode == ops[i] &&
			 r.send_flags == wr[i].send_flags &&
			 sges_match(r, sg[i], wr[i].num_sge) && r.ex == ex &&
			 r.remote_addr == (rdma || atomic ? 0x7000000000ull + i : 0) &&
			 r.rkey == (rdma ? 0x3300 + i : atomic ? 0x4400 + i : 0) &&
			 r.compare_add == (atomic ? 0xc0c0c0c0c0ull + i : 0) &&
			 r.swap == (atomic ? 0x5a5a5a5a5aull + i : 0);
		if (!fields)
			std::printf("# WR %u differs\n", i);
	}
	result(fields, "every WR's opcode, flags, SGEs, immediate, RDMA and atomic fields as posted");

	// a chain longer than the send queue: the 9th WR is the one refused
	ibv_send_wr more[9]{};
	for (uint32_t i = 0; i < 9; i++) {
		more[i].wr_id = 0x2000 + i;
		more[i].opcode = IBV_WR_SEND;
		more[i].next = i + 1 < 9 ? &more[i + 1] : nullptr;
	}
	bad = nullptr;
	rc = ibv_post_send(qp, more, &bad);
	result(rc == ENOMEM && bad == &more[8],
	       "a chain past the queue: ENOMEM, bad_wr the 9th WR (rc " +
		       std::to_string(rc) + ", bad " +
		       (bad ? std::to_string(bad - more) : "none") + ")");
	// ib_uverbs refuses an opcode it has no WR for: the first WR
	more[3].opcode = IBV_WR_LOCAL_INV;
	bad = nullptr;
	rc = ibv_post_send(qp, more, &bad);
	result(rc == EINVAL && bad == &more[0],
	       "LOCAL_INV through the kernel: EINVAL, bad_wr the first WR");
}

void ud_with_ah(ibv_pd *pd, ibv_qp *qp)
{
	ibv_ah_attr aa{};
	aa.dlid = 0x21;
	aa.port_num = 1;
	ibv_ah *ah = ibv_create_ah(pd, &aa);
	ibv_sge sg = sge_of(0, 0);
	ibv_send_wr wr{};
	wr.wr_id = 0x3000;
	wr.opcode = IBV_WR_SEND;
	wr.sg_list = &sg;
	wr.num_sge = 1;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = 0xabcd;
	wr.wr.ud.remote_qkey = 0x11111111;
	ibv_send_wr *bad = nullptr;
	ovbtest_post_record rec{};
	bool ok = ah && !ibv_post_send(qp, &wr, &bad) &&
		  !ovbtestdv_last_post(qp, 0, nullptr, &rec) &&
		  rec.chain_len == 1 && rec.wr[0].ah_handle == ah->handle &&
		  rec.wr[0].remote_qpn == 0xabcd &&
		  rec.wr[0].remote_qkey == 0x11111111 &&
		  sges_match(rec.wr[0], &sg, 1);
	result(ok, "ibv_post_send on UD: the AH, remote QPN and Q_Key as posted");
	wr.wr.ud.ah = nullptr;
	result(ibv_post_send(qp, &wr, &bad) == EINVAL && bad == &wr,
	       "a UD WR without an AH: EINVAL before the kernel");
	if (ah)
		ibv_destroy_ah(ah);
}

void receives(ibv_qp *qp, ibv_srq *srq)
{
	ibv_sge sg[3][2];
	ibv_recv_wr wr[3]{};
	for (uint32_t i = 0; i < 3; i++) {
		sg[i][0] = sge_of(i, 0);
		sg[i][1] = sge_of(i, 1);
		wr[i].wr_id = 0x4000 + i;
		wr[i].sg_list = sg[i];
		wr[i].num_sge = static_cast<int>(i);
		wr[i].next = i < 2 ? &wr[i + 1] : nullptr;
	}
	ibv_recv_wr *bad = nullptr;
	ovbtest_post_record rec{};
	bool ok = !ibv_post_recv(qp, wr, &bad) &&
		  !ovbtestdv_last_post(qp, 1, nullptr, &rec) &&
		  rec.kind == OVBTEST_POST_RECV && rec.chain_len == 3;
	for (uint32_t i = 0; ok && i < 3; i++)
		ok = rec.wr[i].wr_id == wr[i].wr_id &&
		     sges_match(rec.wr[i], sg[i], wr[i].num_sge);
	result(ok, "ibv_post_recv: 3 WRs with 0, 1 and 2 SGEs as posted");

	wr[1].next = nullptr;	// the SRQ takes 1 SGE: the first two WRs
	ok = srq && !ibv_post_srq_recv(srq, wr, &bad) &&
	     !ovbtestdv_last_post(nullptr, 0, srq, &rec) &&
	     rec.kind == OVBTEST_POST_SRQ_RECV && rec.chain_len == 2 &&
	     rec.wr[1].wr_id == wr[1].wr_id && sges_match(rec.wr[1], sg[1], 1);
	wr[1].next = &wr[2];
	result(ok, "ibv_post_srq_recv: the SRQ's driver record");
	// the third WR (2 SGEs) is refused
	bad = nullptr;
	int rc = srq ? ibv_post_srq_recv(srq, wr, &bad) : -1;
	result(rc == EINVAL && bad == &wr[2],
	       "ibv_post_srq_recv past the SRQ's SGEs: EINVAL, bad_wr the third WR");
}

} // namespace

int main(int argc, char **argv)
{
	const std::string name = argc > 1 ? argv[1] : "ovbtest0";

	std::printf("TAP version 13\n1..12\n");
	int num = 0;
	ibv_device **list = ibv_get_device_list(&num);
	ibv_device *dev = nullptr;
	for (int i = 0; list && i < num; i++)
		if (name == ibv_get_device_name(list[i]))
			dev = list[i];
	ibv_context *ctx = dev ? ibv_open_device(dev) : nullptr;
	ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : nullptr;
	ibv_cq *cq = ctx ? ibv_create_cq(ctx, 16, nullptr, nullptr, 0) : nullptr;
	ibv_qp *rc_qp = pd && cq ? make_qp(pd, cq, IBV_QPT_RC) : nullptr;
	ibv_qp *ud_qp = pd && cq ? make_qp(pd, cq, IBV_QPT_UD) : nullptr;
	ibv_srq_init_attr sa{};
	sa.attr.max_wr = 8;
	sa.attr.max_sge = 1;
	ibv_srq *srq = pd ? ibv_create_srq(pd, &sa) : nullptr;
	result(rc_qp && ud_qp && srq && bring_up(rc_qp) && bring_up(ud_qp),
	       "an RC and a UD QP in RTS, an SRQ (" + std::string(strerror(errno)) + ")");
	if (!rc_qp || !ud_qp || !srq)
		return 1;
	ibv_wc wc[4];
	result(ibv_poll_cq(cq, 4, wc) == 0, "ibv_poll_cq through the kernel: empty");

	rc_chain(rc_qp);
	ud_with_ah(pd, ud_qp);
	receives(rc_qp, srq);

	bool clean = !ibv_destroy_qp(rc_qp) && !ibv_destroy_qp(ud_qp) &&
		     !ibv_destroy_srq(srq) && !ibv_destroy_cq(cq) &&
		     !ibv_dealloc_pd(pd) && !ibv_close_device(ctx);
	result(clean, "everything destroyed, device closed");
	ibv_free_device_list(list);
	return failed ? 1 : 0;
}
