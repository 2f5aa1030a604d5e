/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * openverbs: the user ABI of the in-kernel Soft-RoCE driver (rdma_rxe) of
 * Linux 6.1, under openverbs names.
 *
 * These are the driver-private parts of the uverbs exchange (the
 * driver_data areas of uverbs-abi.h) and the memory the rxe provider shares
 * with the kernel through mmap(): work queues and completion queues are
 * rings with a struct ovb_rxe_queue_buf header.  Layouts are identical to
 * the system's <rdma/rdma_user_rxe.h> (proved by
 * uapi/tests/abi_layout_check.c); member names follow the kernel's.
 *
 * Only <linux/types.h> is needed: the socket addresses inside the address
 * vector are spelled out here with the kernel's layout, so userspace can
 * include this next to <netinet/in.h> without the <linux/in.h> clash.
 */
#ifndef OPENVERBS_UAPI_RXE_ABI_H
#define OPENVERBS_UAPI_RXE_ABI_H

#include <linux/types.h>

/*
 * The per-device ABI version rxe reports in /sys/class/infiniband_verbs/
 * uverbsN/abi_version (a driver constant, not part of the upstream uapi).
 */
#define OVB_RXE_UVERBS_ABI_VERSION	2

/*
 * A flexible array that may sit in a union.  C needs the array wrapped in
 * a struct with a (zero-sized, GNU) named member; in C++ an empty struct
 * takes one byte, which would move the array, so C++ gets a zero-length
 * array instead.  Same offsets and sizes in both languages.  The empty
 * struct is a GNU extension: struct ovb_rxe_dma_info, which uses the macro,
 * is declared __extension__ so that -pedantic stays quiet.
 */
#ifdef __cplusplus
#define OVB_RXE_FLEX_ARRAY(type, name)	type name[0]
#else
#define OVB_RXE_FLEX_ARRAY(type, name)		\
	struct {				\
		struct { } __empty_ ## name;	\
		type name[];			\
	}
#endif

/* ------------------------------------------------------- address vector */

/* network_type of struct ovb_rxe_av. */
enum {
	OVB_RXE_NETWORK_TYPE_IPV4	= 1,
	OVB_RXE_NETWORK_TYPE_IPV6	= 2,
};

union ovb_rxe_gid {
	__u8 raw[16];
	struct {
		__be64 subnet_prefix;
		__be64 interface_id;
	} global;
};

struct ovb_rxe_global_route {
	union ovb_rxe_gid dgid;
	__u32 flow_label;
	__u8  sgid_index;
	__u8  hop_limit;
	__u8  traffic_class;
};

/* Same layout as the kernel's struct sockaddr_in (16 bytes). */
struct ovb_rxe_sockaddr_in {
	__u16  sin_family;		/* AF_INET */
	__be16 sin_port;
	__be32 sin_addr;
	__u8   pad[8];
};

/* Same layout as the kernel's struct sockaddr_in6 (28 bytes). */
struct ovb_rxe_sockaddr_in6 {
	__u16  sin6_family;		/* AF_INET6 */
	__be16 sin6_port;
	__be32 sin6_flowinfo;
	__u8   sin6_addr[16];
	__u32  sin6_scope_id;
};

/* Either address family; the size of the larger, 4-byte aligned. */
union ovb_rxe_sockaddr {
	struct ovb_rxe_sockaddr_in _sockaddr_in;
	struct ovb_rxe_sockaddr_in6 _sockaddr_in6;
};

/* RoCEv2 address vector, carried in a UD send WQE. */
struct ovb_rxe_av {
	__u8  port_num;
	__u8  network_type;		/* OVB_RXE_NETWORK_TYPE_* */
	__u8  dmac[6];
	struct ovb_rxe_global_route grh;
	union ovb_rxe_sockaddr sgid_addr;
	union ovb_rxe_sockaddr dgid_addr;
};

/* ------------------------------------------------------------ send queue */

/*
 * The send work request inside a send WQE.  The in-kernel build of the
 * upstream header adds a kernel-only "reg" member to wr; it is smaller than
 * ud and so changes no offset or size.
 */
struct ovb_rxe_send_wr {
	__aligned_u64 wr_id;
	__u32 reserved;
	__u32 opcode;
	__u32 send_flags;
	union {
		__be32 imm_data;
		__u32 invalidate_rkey;
	} ex;
	union {
		struct {			/* since 6.2 */
			__aligned_u64 remote_addr;
			__u32 length;
			__u32 rkey;
			__u8 type;		/* enum ovb_placement_type */
			__u8 level;		/* enum ovb_selectivity_level */
		} flush;
		struct {
			__aligned_u64 remote_addr;
			__u32 rkey;
			__u32 reserved;
		} rdma;
		struct {
			__aligned_u64 remote_addr;
			__aligned_u64 compare_add;
			__aligned_u64 swap;
			__u32 rkey;
			__u32 reserved;
		} atomic;
		struct {
			__u32 remote_qpn;
			__u32 remote_qkey;
			__u16 pkey_index;
			__u16 reserved;
			__u32 ah_num;		/* from create_ah resp, or 0 */
			__u32 pad[4];
			struct ovb_rxe_av av;	/* used when ah_num is 0 */
		} ud;
		struct {
			__aligned_u64 addr;
			__aligned_u64 length;
			__u32 mr_lkey;
			__u32 mw_rkey;
			__u32 rkey;
			__u32 access;
		} mw;
	} wr;
};

struct ovb_rxe_sge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

/* Progress through a WQE's data: the SGE list, or the inline bytes. */
__extension__ struct ovb_rxe_dma_info {
	__u32 length;
	__u32 resid;
	__u32 cur_sge;
	__u32 num_sge;
	__u32 sge_offset;
	__u32 reserved;
	union {
		OVB_RXE_FLEX_ARRAY(__u8, inline_data);
		OVB_RXE_FLEX_ARRAY(__u8, atomic_wr);	/* since 6.2 */
		OVB_RXE_FLEX_ARRAY(struct ovb_rxe_sge, sge);
	};
};

/* One send queue element (followed by its SGEs or inline data). */
struct ovb_rxe_send_wqe {
	struct ovb_rxe_send_wr wr;
	__u32 status;
	__u32 state;
	__aligned_u64 iova;
	__u32 mask;
	__u32 first_psn;
	__u32 last_psn;
	__u32 ack_length;
	__u32 ssn;
	__u32 has_rd_atomic;
	struct ovb_rxe_dma_info dma;
};

/* --------------------------------------------------------- receive queue */

/* One receive queue (or SRQ) element, followed by its SGEs. */
struct ovb_rxe_recv_wqe {
	__aligned_u64 wr_id;
	__u32 reserved;
	__u32 padding;
	struct ovb_rxe_dma_info dma;
};

/* --------------------------------------------------- create / modify data */

/* Where to mmap() a queue on the uverbs fd: offset and length to pass. */
struct ovb_rxe_mmap_info {
	__aligned_u64 offset;
	__u32 size;
	__u32 pad;
};

struct ovb_rxe_create_ah_resp {
	__u32 ah_num;			/* index to put in ud.ah_num */
	__u32 reserved;
};

struct ovb_rxe_create_cq_resp {
	struct ovb_rxe_mmap_info mi;
};

struct ovb_rxe_resize_cq_resp {
	struct ovb_rxe_mmap_info mi;
};

struct ovb_rxe_create_qp_resp {
	struct ovb_rxe_mmap_info rq_mi;
	struct ovb_rxe_mmap_info sq_mi;
};

struct ovb_rxe_create_srq_resp {
	struct ovb_rxe_mmap_info mi;
	__u32 srq_num;
	__u32 reserved;
};

/* Driver data of MODIFY_SRQ: where the kernel writes a new mmap info. */
struct ovb_rxe_modify_srq_req {
	__aligned_u64 mmap_info_addr;
};

/* ------------------------------------------------------ shared queue ring */

/*
 * Header at offset 0 of every mmap()ed rxe queue; the elements start at
 * data[] (offset 384).  Producer and consumer index each have a 128-byte
 * block of their own so the two sides do not share a cache line.  An
 * element is 1 << log2_elem_size bytes, the ring has index_mask + 1 slots,
 * and every index must be masked with index_mask before use.  The sizes
 * here are a copy for userspace; the kernel keeps its own.
 */
struct ovb_rxe_queue_buf {
	__u32 log2_elem_size;
	__u32 index_mask;
	__u32 pad_1[30];
	__u32 producer_index;
	__u32 pad_2[31];
	__u32 consumer_index;
	__u32 pad_3[31];
	__u8  data[];
};

#endif /* OPENVERBS_UAPI_RXE_ABI_H */
