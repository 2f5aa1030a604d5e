/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QP numbers of the write() ABI as the kernel takes them (enum ib_qp_type,
 * enum ib_qp_state, enum ib_qp_attr_mask), for the raw tests that build
 * CREATE_QP and MODIFY_QP requests without libibverbs.
 */
#ifndef QP_ABI_H
#define QP_ABI_H

enum {
	QPT_RC = 2,
	QPT_UD = 4,
	QPT_RAW_PACKET = 8,
	QPT_XRC_INI = 9,
	QPT_XRC_TGT = 10,
};

enum { QPS_RESET, QPS_INIT, QPS_RTR, QPS_RTS };

/* MODIFY_QP's and QUERY_QP's attr_mask bits */
enum {
	QP_STATE = 1 << 0,
	QP_ACCESS_FLAGS = 1 << 3,
	QP_PKEY_INDEX = 1 << 4,
	QP_PORT = 1 << 5,
	QP_QKEY = 1 << 6,
	QP_AV = 1 << 7,
	QP_PATH_MTU = 1 << 8,
	QP_RQ_PSN = 1 << 12,
	QP_MIN_RNR_TIMER = 1 << 15,
	QP_SQ_PSN = 1 << 16,
	QP_MAX_DEST_RD_ATOMIC = 1 << 17,
	QP_DEST_QPN = 1 << 20,
};

#endif /* QP_ABI_H */
