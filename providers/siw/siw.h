// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The software iWARP (siw) provider: its objects and, grouped by the file
// that defines them, its ops.  The kernel side of the protocol is
// uapi/openverbs/siw-abi.h; the ring ownership rules are in ring.h.
//
// What siw refuses, this provider refuses the same way libsiw (rdma-core)
// does: QP types other than RC fail in the kernel's create_qp; address
// handles, memory windows, extended CQs and QPs have no op here, so the
// library answers EOPNOTSUPP; work request opcodes iWARP lacks (atomics,
// immediate data, local invalidate, bind) fail post_send with EINVAL.
#pragma once

#include <cerrno>
#include <unistd.h>

#include <openverbs/provider.h>
#include <openverbs/siw-abi.h>
#include <openverbs/uverbs-abi.h>

#include "ring.h"
#include "spinlock.h"	// providers/common

namespace siw {

using ovb::SpinLock;

// siw.cpp: the library's services, set by the entry point.
extern const ovb_core *core;

struct Context {
	verbs_context vctx;
	uint32_t dev_id = 0;
};

struct Cq {
	ibv_cq ibv;
	SpinLock lock;
	Ring<ovb_siw_cqe> ring;
	uint32_t get = 0;		// next element to poll
	uint32_t id = 0;
	ovb_siw_cq_ctrl *ctrl() const
	{
		return static_cast<ovb_siw_cq_ctrl *>(ring.tail());
	}
};

struct Srq {
	ibv_srq ibv;
	SpinLock lock;
	Ring<ovb_siw_rqe> ring;
	uint32_t put = 0;
};

struct Qp {
	ibv_qp ibv;
	SpinLock sq_lock;
	SpinLock rq_lock;
	Ring<ovb_siw_sqe> sq;
	Ring<ovb_siw_rqe> rq;		// unmapped with an SRQ
	uint32_t sq_put = 0;
	uint32_t rq_put = 0;
	uint32_t id = 0;
	bool sig_all = false;
	// The SQ doorbell: a POST_SEND write() with no work requests, which
	// siw takes as "look at the mapped SQ".
	alignas(8) uint8_t doorbell[sizeof(ovb_cmd_hdr) +
				    sizeof(ovb_post_send_req)] = {};
	ovb_post_send_resp doorbell_resp{};
};

inline Context *to_ctx(ibv_context *c)
{
	return reinterpret_cast<Context *>(verbs_get_ctx(c));
}
inline Cq *to_cq(ibv_cq *c) { return reinterpret_cast<Cq *>(c); }
inline Qp *to_qp(ibv_qp *q) { return reinterpret_cast<Qp *>(q); }
inline Srq *to_srq(ibv_srq *s) { return reinterpret_cast<Srq *>(s); }

// siw_mr.cpp: siw's REG_MR carries driver data both ways.
ibv_mr *reg_mr(ibv_pd *pd, void *addr, size_t len, uint64_t hca_va,
	       int access);
int dereg_mr(ibv_mr *mr);

// siw_cq.cpp
ibv_cq *create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *ch, int vec);
int poll_cq(ibv_cq *cq, int ne, ibv_wc *wc);
int req_notify_cq(ibv_cq *cq, int solicited_only);
int destroy_cq(ibv_cq *cq);
// siw_wc.cpp: one completion, as the application sees it.
void cqe_to_wc(const ovb_siw_cqe &cqe, ibv_wc &wc);
// Polls up to ne completions off ring from *get (pure ring logic).
int poll_ring(Ring<ovb_siw_cqe> &ring, uint32_t &get, int ne, ibv_wc *wc);
// The control word value that arms the CQ.
uint32_t notify_flags(bool solicited_only);

// siw_qp.cpp
ibv_qp *create_qp(ibv_pd *pd, ibv_qp_init_attr *attr);
int query_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask, ibv_qp_init_attr *init);
int modify_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask);
int destroy_qp(ibv_qp *qp);
int post_recv(ibv_qp *qp, ibv_recv_wr *wr, ibv_recv_wr **bad);

// siw_send.cpp
int post_send(ibv_qp *qp, ibv_send_wr *wr, ibv_send_wr **bad);
// Fills sqe's body from wr (not its flags); returns 0 and the flags to
// publish, or EINVAL for what siw cannot carry.
int build_sqe(const ibv_send_wr &wr, bool sig_all, ovb_siw_sqe &sqe,
	      uint16_t &flags);
// Writes the WRs into ring from *put; how many went in, *bad and the
// errno at the first refused.  Rings nothing: see post_send.
int push_sends(Ring<ovb_siw_sqe> &ring, uint32_t &put, bool sig_all,
	       ibv_send_wr *wr, ibv_send_wr **bad, uint32_t &posted);

// siw_recv.cpp: shared by QP receive queues and SRQs.
int build_rqe(const ibv_recv_wr &wr, ovb_siw_rqe &rqe);
int push_recvs(Ring<ovb_siw_rqe> &ring, uint32_t &put, ibv_recv_wr *wr,
	       ibv_recv_wr **bad);

// siw_srq.cpp
ibv_srq *create_srq(ibv_pd *pd, ibv_srq_init_attr *attr);
int modify_srq(ibv_srq *srq, ibv_srq_attr *attr, int mask);
int query_srq(ibv_srq *srq, ibv_srq_attr *attr);
int destroy_srq(ibv_srq *srq);
int post_srq_recv(ibv_srq *srq, ibv_recv_wr *wr, ibv_recv_wr **bad);

} // namespace siw
