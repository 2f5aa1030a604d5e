// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's kernel posting and polling commands (hfi1's and qib's
// providers post sends with them): the library's own (core_post.cpp),
// with rdma-core's answers: a positive errno from a post, -1 with errno
// from a poll.
#include <cerrno>

#include <infiniband/verbs.h>

#include "../core.h"
#include "../export.h"

OVB_EXPORT int ibv_cmd_post_send(ibv_qp *qp, ibv_send_wr *wr,
				 ibv_send_wr **bad)
try {
	return ovb::core_post_send(qp, wr, bad);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_post_recv(ibv_qp *qp, ibv_recv_wr *wr,
				 ibv_recv_wr **bad)
try {
	return ovb::core_post_recv(qp, wr, bad);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_post_srq_recv(ibv_srq *srq, ibv_recv_wr *wr,
				     ibv_recv_wr **bad)
try {
	return ovb::core_post_srq_recv(srq, wr, bad);
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_poll_cq(ibv_cq *cq, int ne, ibv_wc *wc)
try {
	int n = ovb::core_poll_cq(cq, ne, wc);
	if (n < 0) {
		errno = -n;
		return -1;
	}
	return n;
} OVB_ABI_CATCH
