// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The library's services to providers (struct ovb_core), one function per
// member; each is defined in the file of its object (core_<object>.cpp).
#pragma once

#include <pthread.h>

#include <openverbs/provider.h>
#include <openverbs/uverbs-abi.h>

namespace ovb {

// context.cpp
int core_open_context(verbs_context *vctx, ibv_device *dev, int cmd_fd,
		      ovb_udata *ud, int (*check)(verbs_context *),
		      const ovb_context_ops *ops);
void core_close_context(verbs_context *vctx);

// core_device.cpp; _any also hands back the kernel's response (its
// response_length says how much of it the kernel filled) and, with ud,
// the driver's part of the extended command's response.
int core_query_device_any(ibv_context *ctx, ibv_device_attr_ex *attr,
			  size_t attr_size, ovb_ex_query_device_resp &resp,
			  const ovb_udata *ud = nullptr);
int core_query_device_ex(ibv_context *ctx, ibv_device_attr_ex *attr,
			 size_t attr_size, uint64_t *raw_fw_ver);
int core_query_port(ibv_context *ctx, uint8_t port, ibv_port_attr *attr,
		    size_t attr_size);

// core_pd_mr.cpp
int core_alloc_pd(ibv_context *ctx, ibv_pd *pd, ovb_udata *ud);
int core_dealloc_pd(ibv_pd *pd);
int core_reg_mr(ibv_pd *pd, void *addr, size_t length, uint64_t hca_va,
		int access, ibv_mr *mr, ovb_udata *ud);
int core_dereg_mr(ibv_mr *mr);
int core_alloc_mw(ibv_pd *pd, ibv_mw_type type, ibv_mw *mw, ovb_udata *ud);
int core_dealloc_mw(ibv_mw *mw);

// core_cq.cpp.  flags: the kernel's CQ create flags (OVB_CREATE_CQ_FLAG_*),
// sent by ioctl; without the ioctl they travel in the extended write()
// command when require_ex, else are left out (rdma-core's rule: a
// timestamp flag the provider ignores need not reach the kernel).
int core_create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *channel,
		   int comp_vector, ibv_cq *cq, ovb_udata *ud);
int core_create_cq_flags(ibv_context *ctx, int cqe, ibv_comp_channel *channel,
			 int comp_vector, ibv_cq *cq, ovb_udata *ud,
			 uint32_t flags, bool require_ex);
int core_resize_cq(ibv_cq *cq, int cqe, ovb_udata *ud);
int core_req_notify_cq(ibv_cq *cq, int solicited_only);
int core_destroy_cq(ibv_cq *cq);

// core_qp.cpp
int core_create_qp(ibv_pd *pd, ibv_qp *qp, ibv_qp_init_attr *attr,
		   ovb_udata *ud);
int core_query_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask,
		  ibv_qp_init_attr *init_attr);
int core_modify_qp(ibv_qp *qp, ibv_qp_attr *attr, int mask);
// The same with the driver's request data (rdma-core's providers).
int core_modify_qp_ud(ibv_qp *qp, ibv_qp_attr *attr, int mask,
		      const ovb_udata *ud);
// The extended MODIFY_QP (rate limit, driver data both ways).
int core_modify_qp_ex(ibv_qp *qp, ibv_qp_attr *attr, int mask,
		      ovb_ex_modify_qp_resp *resp, const ovb_udata *ud);
int core_destroy_qp(ibv_qp *qp);

// core_qp_ex.cpp: rdma-core's extended create (XRC receive QPs on an XRC
// domain, RSS QPs on an indirection table, create flags, source QPN),
// on ctx; xrcd_handle is the kernel's handle of ax->xrcd.  Fills qp's
// generic fields and ax->cap.
int core_create_qp_ex(ibv_context *ctx, ibv_qp *qp, ibv_qp_init_attr_ex *ax,
		      uint32_t xrcd_handle, ovb_udata *ud);
int core_attach_mcast(ibv_qp *qp, const ibv_gid *gid, uint16_t lid);
int core_detach_mcast(ibv_qp *qp, const ibv_gid *gid, uint16_t lid);

// core_srq.cpp
int core_create_srq(ibv_pd *pd, ibv_srq *srq, ibv_srq_init_attr *attr,
		    uint32_t *srq_num, ovb_udata *ud);
// rdma-core's extended create: XRC SRQs (on an XRC domain, whose kernel
// handle is xrcd_handle, with a CQ) and tag-matching SRQs (with a CQ and
// a tag count); basic ones as above.  EINVAL for a missing part, before
// any call into the kernel.
int core_create_srq_ex(ibv_pd *pd, ibv_srq *srq, ibv_srq_init_attr_ex *ax,
		       uint32_t xrcd_handle, uint32_t *srq_num, ovb_udata *ud);
int core_modify_srq(ibv_srq *srq, ibv_srq_attr *attr, int mask,
		    ovb_udata *ud);
int core_query_srq(ibv_srq *srq, ibv_srq_attr *attr);
int core_destroy_srq(ibv_srq *srq);

// core_ah.cpp
int core_create_ah(ibv_pd *pd, ibv_ah *ah, ibv_ah_attr *attr, ovb_udata *ud);
int core_destroy_ah(ibv_ah *ah);

// Destroy of an object with events: blocks until the application has
// acknowledged as many events as the kernel says it reported (done()).
template <class T, class Done>
void wait_for_acks(T *obj, Done done)
{
	pthread_mutex_lock(&obj->mutex);
	while (!done())
		pthread_cond_wait(&obj->cond, &obj->mutex);
	pthread_mutex_unlock(&obj->mutex);
}

// core_post.cpp: posting and polling through the kernel (rdmavt's
// devices).  Posts: 0 or a positive errno, *bad the WR refused; poll: the
// count or -errno.
int core_post_send(ibv_qp *qp, ibv_send_wr *wr, ibv_send_wr **bad);
int core_post_recv(ibv_qp *qp, ibv_recv_wr *wr, ibv_recv_wr **bad);
int core_post_srq_recv(ibv_srq *srq, ibv_recv_wr *wr, ibv_recv_wr **bad);
int core_poll_cq(ibv_cq *cq, int ne, ibv_wc *wc);

void core_log(ibv_context *ctx, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

} // namespace ovb
