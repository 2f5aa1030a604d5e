/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * openverbs: the user ABI of the in-kernel software iWARP driver (siw),
 * under openverbs names.  Linux 6.1 and 6.12 have the same one.
 *
 * Two parts.  The driver data of the uverbs replies (context, CQ, QP, SRQ,
 * MR): ids, ring sizes, and the mmap() offsets ("keys") of the rings.  And
 * the rings themselves, which the provider and the kernel share through
 * mmap() of the uverbs file: arrays of fixed-size elements, each owned by
 * whoever finds its flags in the state the protocol gives it:
 *
 *   send queue       array of struct ovb_siw_sqe; userspace fills an
 *                    element whose flags lack OVB_SIW_WQE_VALID, then
 *                    sets VALID; the kernel clears flags when done.
 *   receive queue    the same with struct ovb_siw_rqe (QP or SRQ).
 *   completion queue array of struct ovb_siw_cqe followed by one
 *                    struct ovb_siw_cq_ctrl; the kernel writes an element
 *                    and sets OVB_SIW_WQE_VALID, userspace reads it and
 *                    clears flags.  The control word arms notification.
 *
 * Layouts are identical to the system's <rdma/siw-abi.h> (proved by
 * uapi/tests/abi_layout_check.c); member names follow the kernel's.  The
 * kernel's completion holds a kernel pointer (base_qp) in a union with
 * the QP number; userspace sees only the QP number, so ours declares the
 * 64-bit slot as qp_id alone.
 */
#ifndef OPENVERBS_UAPI_SIW_ABI_H
#define OPENVERBS_UAPI_SIW_ABI_H

#include <linux/types.h>

#define OVB_SIW_NODE_DESC_COMMON	"Software iWARP stack"
/* The per-device uverbs ABI version siw reports. */
#define OVB_SIW_ABI_VERSION		1
/* Scatter/gather elements per work queue element. */
#define OVB_SIW_MAX_SGE			6
/* mmap() keys: the largest the kernel hands out, and "no mapping". */
#define OVB_SIW_UOBJ_MAX_KEY		0x08FFFF
#define OVB_SIW_INVAL_UOBJ_KEY		(OVB_SIW_UOBJ_MAX_KEY + 1)

/* ---- driver data of the uverbs replies (and the one request) */

struct ovb_siw_uresp_create_cq {
	__u32 cq_id;
	__u32 num_cqe;		/* ring elements, the control word follows */
	__aligned_u64 cq_key;	/* mmap() offset of the ring */
};

struct ovb_siw_uresp_create_qp {
	__u32 qp_id;
	__u32 num_sqe;
	__u32 num_rqe;		/* 0 when the QP takes receives from an SRQ */
	__u32 pad;
	__aligned_u64 sq_key;
	__aligned_u64 rq_key;
};

struct ovb_siw_ureq_reg_mr {
	__u8 stag_key;
	__u8 reserved[3];
	__u32 pad;
};

struct ovb_siw_uresp_reg_mr {
	__u32 stag;
	__u32 pad;
};

struct ovb_siw_uresp_create_srq {
	__u32 num_rqe;
	__u32 pad;
	__aligned_u64 srq_key;
};

struct ovb_siw_uresp_alloc_ctx {
	__u32 dev_id;
	__u32 pad;
};

/* ---- ring elements */

/* Operations a send queue element carries (and completions report). */
enum ovb_siw_opcode {
	OVB_SIW_OP_WRITE		= 0,
	OVB_SIW_OP_READ			= 1,
	OVB_SIW_OP_READ_LOCAL_INV	= 2,
	OVB_SIW_OP_SEND			= 3,
	OVB_SIW_OP_SEND_WITH_IMM	= 4,
	OVB_SIW_OP_SEND_REMOTE_INV	= 5,
	OVB_SIW_OP_FETCH_AND_ADD	= 6,	/* not implemented by siw */
	OVB_SIW_OP_COMP_AND_SWAP	= 7,	/* not implemented by siw */
	OVB_SIW_OP_RECEIVE		= 8,
	OVB_SIW_OP_READ_RESPONSE	= 9,	/* the kernel's own */
	OVB_SIW_OP_INVAL_STAG		= 10,	/* kernel users only */
	OVB_SIW_OP_REG_MR		= 11,	/* kernel users only */
	OVB_SIW_NUM_OPCODES		= 12,
};

/* The same layout as struct ibv_sge. */
struct ovb_siw_sge {
	__aligned_u64 laddr;
	__u32 length;
	__u32 lkey;
};

/*
 * Inline send data lives in the element itself, from sge[1] to the end;
 * this is how many bytes that is.
 */
#define OVB_SIW_MAX_INLINE \
	(sizeof(struct ovb_siw_sge) * (OVB_SIW_MAX_SGE - 1))

/* flags of a queue element (and, VALID only, of a completion). */
enum ovb_siw_wqe_flags {
	OVB_SIW_WQE_VALID	= 1 << 0,
	OVB_SIW_WQE_INLINE	= 1 << 1,
	OVB_SIW_WQE_SIGNALLED	= 1 << 2,
	OVB_SIW_WQE_SOLICITED	= 1 << 3,
	OVB_SIW_WQE_READ_FENCE	= 1 << 4,
	OVB_SIW_WQE_REM_INVAL	= 1 << 5,
	OVB_SIW_WQE_COMPLETED	= 1 << 6,
};

struct ovb_siw_sqe {
	__aligned_u64 id;		/* the work request's wr_id */
	__u16 flags;			/* enum ovb_siw_wqe_flags */
	__u8 num_sge;
	__u8 opcode;			/* enum ovb_siw_opcode */
	__u32 rkey;
	union {
		__aligned_u64 raddr;
		__aligned_u64 base_mr;	/* OVB_SIW_OP_REG_MR only */
	};
	union {
		struct ovb_siw_sge sge[OVB_SIW_MAX_SGE];
		__aligned_u64 access;	/* OVB_SIW_OP_REG_MR only */
	};
};

struct ovb_siw_rqe {
	__aligned_u64 id;
	__u16 flags;
	__u8 num_sge;
	__u8 opcode;			/* the kernel's; userspace leaves it */
	__u32 unused;
	struct ovb_siw_sge sge[OVB_SIW_MAX_SGE];
};

/* The CQ control word: what the next completion should signal. */
enum ovb_siw_notify_flags {
	OVB_SIW_NOTIFY_NOT		= 0,
	OVB_SIW_NOTIFY_SOLICITED	= 1 << 0,
	OVB_SIW_NOTIFY_NEXT_COMPLETION	= 1 << 1,
	OVB_SIW_NOTIFY_MISSED_EVENTS	= 1 << 2,
	OVB_SIW_NOTIFY_ALL		= (1 << 0) | (1 << 1) | (1 << 2),
};

/* status of a completion */
enum ovb_siw_wc_status {
	OVB_SIW_WC_SUCCESS		= 0,
	OVB_SIW_WC_LOC_LEN_ERR		= 1,
	OVB_SIW_WC_LOC_PROT_ERR		= 2,
	OVB_SIW_WC_LOC_QP_OP_ERR	= 3,
	OVB_SIW_WC_WR_FLUSH_ERR		= 4,
	OVB_SIW_WC_BAD_RESP_ERR		= 5,
	OVB_SIW_WC_LOC_ACCESS_ERR	= 6,
	OVB_SIW_WC_REM_ACCESS_ERR	= 7,
	OVB_SIW_WC_REM_INV_REQ_ERR	= 8,
	OVB_SIW_WC_GENERAL_ERR		= 9,
	OVB_SIW_NUM_WC_STATUS		= 10,
};

struct ovb_siw_cqe {
	__aligned_u64 id;		/* wr_id of the completed element */
	__u8 flags;			/* OVB_SIW_WQE_VALID when filled */
	__u8 opcode;			/* enum ovb_siw_opcode */
	__u16 status;			/* enum ovb_siw_wc_status */
	__u32 bytes;
	union {
		__aligned_u64 imm_data;
		__u32 inval_stag;
	};
	__aligned_u64 qp_id;		/* see the top of this file */
};

/* Follows the completion ring in the same mapping. */
struct ovb_siw_cq_ctrl {
	__u32 flags;			/* enum ovb_siw_notify_flags */
	__u32 pad;
};

#endif /* OPENVERBS_UAPI_SIW_ABI_H */
