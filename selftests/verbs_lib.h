/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libibverbs helpers for the selftests that need traffic as a means (an
 * RC QP pair over the first device), not as what they check.
 */
#ifndef VERBS_LIB_H
#define VERBS_LIB_H

#include <stdint.h>
#include <string.h>
#include <infiniband/verbs.h>

/* The first device of the list, opened; NULL if there is none. */
static inline struct ibv_context *verbs_open_first(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n;

	list = ibv_get_device_list(&n);
	if (list && n)
		ctx = ibv_open_device(list[0]);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

/*
 * Moves RC @qp through INIT and RTR to RTS towards @dest_qpn at @gid, from
 * source GID @gid_index of port 1; remote read and write allowed.
 */
static inline int verbs_rc_connect(struct ibv_qp *qp, uint32_t dest_qpn,
				   const union ibv_gid *gid, int gid_index)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest_qpn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = gid_index;
	a.ah_attr.grh.hop_limit = 64;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

#endif /* VERBS_LIB_H */
