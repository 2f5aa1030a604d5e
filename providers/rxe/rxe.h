// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The Soft-RoCE (rdma_rxe) provider: its objects and, grouped by the file
// that defines them, its ops.  The kernel side of the protocol is
// uapi/openverbs/rxe-abi.h; Documentation/userspace.md walks through it.
#pragma once

#include <cerrno>
#include <unistd.h>

#include <openverbs/provider.h>
#include <openverbs/rxe-abi.h>
#include <openverbs/uverbs-abi.h>

#include "queue.h"
#include "spinlock.h"	// providers/common

namespace rxe {

using ovb::SpinLock;

// rxe.cpp: the library's services, set by the entry point.
extern const ovb_core *core;

struct Context {
	verbs_context vctx;
};

struct Cq {
	ibv_cq_ex ex;			// begins with the fields of ibv_cq
	SpinLock lock;
	Ring ring;
	const ovb_wc *cur = nullptr;	// entry being read by ibv_wc_read_*
	ibv_cq *ibv() { return ibv_cq_ex_to_cq(&ex); }
};

struct Qp {
	ibv_qp_ex ex;			// ex.qp_base is the ibv_qp
	SpinLock sq_lock;
	SpinLock rq_lock;
	Ring sq;
	Ring rq;			// unmapped with an SRQ
	uint32_t ssn = 0;		// send sequence number of the next WQE
	uint32_t max_send_sge = 0;
	uint32_t max_recv_sge = 0;
	uint32_t max_inline = 0;
	// ibv_wr_* batch state, valid between wr_start and wr_complete/abort.
	uint32_t wr_cur = 0;		// next free slot
	ovb_rxe_send_wqe *wr_last = nullptr;	// WQE the setters patch
	int wr_err = 0;
	// The SQ doorbell: a POST_SEND write with no work requests.
	alignas(8) uint8_t doorbell[sizeof(ovb_cmd_hdr) +
				    sizeof(ovb_post_send_req)] = {};
	ovb_post_send_resp doorbell_resp{};
};

struct Srq {
	ibv_srq ibv;
	SpinLock lock;
	Ring ring;
	ovb_rxe_mmap_info mi{};		// the kernel rewrites it on resize
	uint32_t max_sge = 0;
	uint32_t srq_num = 0;
};

struct Ah {
	ibv_ah ibv;
	uint32_t ah_num = 0;
};

inline Cq *to_cq(ibv_cq *c) { return reinterpret_cast<Cq *>(c); }
inline Qp *to_qp(ibv_qp *q) { return reinterpret_cast<Qp *>(q); }
inline Srq *to_srq(ibv_srq *s) { return reinterpret_cast<Srq *>(s); }
inline Ah *to_ah(ibv_ah *a) { return reinterpret_cast<Ah *>(a); }

// rxe_cq.cpp
ibv_cq *create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *ch, int vec);
int poll_cq(ibv_cq *cq, int ne, ibv_wc *wc);
int req_notify_cq(ibv_cq *cq, int solicited_only);
int resize_cq(ibv_cq *cq, int cqe);
int destroy_cq(ibv_cq *cq);
ibv_cq_ex *create_cq_ex(ibv_context *ctx, ibv_cq_init_attr_ex *attr);
// The extended polling functions of a CQ whose ring is in place.
void set_ex_poll_ops(Cq &cq, uint64_t wc_flags);

// rxe_qp.cpp
ibv_qp *create_qp(ibv_pd *pd, ibv_qp_init_attr *attr);
int query_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask, ibv_qp_init_attr *init);
int modify_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask);
int destroy_qp(ibv_qp *qp);
int post_recv(ibv_qp *qp, ibv_recv_wr *wr, ibv_recv_wr **bad);

// rxe_wr.cpp: the ibv_wr_* API of extended QPs.
ibv_qp *create_qp_ex(ibv_context *ctx, ibv_qp_init_attr_ex *attr);
void install_wr_ops(Qp *qp, uint64_t send_ops);

// rxe_send.cpp
int post_send(ibv_qp *qp, ibv_send_wr *wr, ibv_send_wr **bad);
int bind_mw(ibv_qp *qp, ibv_mw *mw, ibv_mw_bind *bind);
inline int ring_doorbell(Qp *qp)
{
	ssize_t n = write(qp->ex.qp_base.context->cmd_fd, &qp->doorbell,
			  sizeof(qp->doorbell));
	return n == static_cast<ssize_t>(sizeof(qp->doorbell)) ? 0 : errno;
}
// Builds one send WQE (validation included); 0 or an errno.
int build_send_wqe(const Qp &qp, const ibv_send_wr &wr, ovb_rxe_send_wqe &wqe,
		   size_t wqe_room);
// Lowers max_send_sge and max_inline to what a send-ring element of
// wqe_room bytes holds, so post_send checks one limit per WR.
void clamp_send_limits(Qp &qp, size_t wqe_room);

// rxe_srq.cpp
ibv_srq *create_srq(ibv_pd *pd, ibv_srq_init_attr *attr);
int modify_srq(ibv_srq *srq, ibv_srq_attr *attr, int mask);
int query_srq(ibv_srq *srq, ibv_srq_attr *attr);
int destroy_srq(ibv_srq *srq);
int post_srq_recv(ibv_srq *srq, ibv_recv_wr *wr, ibv_recv_wr **bad);
// Shared by RQ and SRQ: writes the receive WQEs of wr under lock.
int post_recv_ring(Ring &ring, SpinLock &lock, uint32_t max_sge,
		   ibv_recv_wr *wr, ibv_recv_wr **bad);

// rxe_ah.cpp
ibv_ah *create_ah(ibv_pd *pd, ibv_ah_attr *attr);
int destroy_ah(ibv_ah *ah);

} // namespace rxe
