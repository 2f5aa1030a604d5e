/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * openverbs: the uverbs write() ABI of Linux 6.1, under openverbs names.
 *
 * One header for both sides: our ib_uverbs.ko and the userspace library.
 * Every struct here is byte-for-byte the layout the 6.1 kernel reads and
 * writes through /dev/infiniband/uverbsN; uapi/tests/abi_layout_check.c
 * proves it against the system's <rdma/ib_user_verbs.h>.  Member names
 * follow the kernel's so that code and documentation map one to one.
 *
 * Layout rules (they keep 32-bit and 64-bit userspace on one layout):
 * no pointers (user addresses travel as __aligned_u64), every struct
 * larger than 4 bytes is a multiple of 8 bytes, and 64-bit members are
 * __aligned_u64 so i386 aligns them like x86_64 does.
 *
 * Only <linux/types.h> is needed; the header builds as gnu11 C (kernel and
 * userspace) and as C++20.  The few GNU extensions the ABI itself needs
 * (zero-length arrays in structs that other structs embed, enumerators
 * beyond int) are marked __extension__, so that -pedantic stays quiet.
 */
#ifndef OPENVERBS_UAPI_UVERBS_ABI_H
#define OPENVERBS_UAPI_UVERBS_ABI_H

#include <linux/types.h>

/* ------------------------------------------------------------ versions */

/* The write() ABI revision; bump only on an incompatible change. */
#define OVB_UVERBS_ABI_VERSION		6
/*
 * What /sys/class/infiniband_verbs/abi_version reports: the class-wide
 * write() ABI.  Each uverbsN device has its own abi_version attribute,
 * which is the driver's ABI instead (rxe: OVB_RXE_UVERBS_ABI_VERSION).
 */
#define OVB_UVERBS_CLASS_ABI_VERSION	OVB_UVERBS_ABI_VERSION

/* ------------------------------------------------- command word, headers */

/*
 * The first 32-bit word of every write() is the command word:
 *   bits  0..7   command id (enum ovb_write_cmd or enum ovb_write_ex_cmd)
 *   bits  8..23  must be zero
 *   bits 24..31  flags field; the only flag is EXTENDED (bit 31), which
 *                selects the ex id space and struct ovb_ex_cmd_hdr.
 * 6.1 rejects any bit outside OVB_CMD_ID_MASK | OVB_CMD_FLAG_EXTENDED.
 */
#define OVB_CMD_ID_MASK			0x000000ffu
#define OVB_CMD_FLAGS_MASK		0xff000000u
#define OVB_CMD_FLAGS_SHIFT		24
#define OVB_CMD_FLAG_EXTENDED		0x80000000u

/* Ids of the extended commands that have no legacy counterpart start here. */
#define OVB_CMD_EX_FIRST_NEW_ID		50

/* Legacy (non-extended) command ids. */
enum ovb_write_cmd {
	OVB_CMD_GET_CONTEXT		= 0,
	OVB_CMD_QUERY_DEVICE		= 1,
	OVB_CMD_QUERY_PORT		= 2,
	OVB_CMD_ALLOC_PD		= 3,
	OVB_CMD_DEALLOC_PD		= 4,
	OVB_CMD_CREATE_AH		= 5,
	OVB_CMD_MODIFY_AH		= 6,	/* id reserved, never implemented */
	OVB_CMD_QUERY_AH		= 7,	/* id reserved, never implemented */
	OVB_CMD_DESTROY_AH		= 8,
	OVB_CMD_REG_MR			= 9,
	OVB_CMD_REG_SMR			= 10,	/* id reserved, never implemented */
	OVB_CMD_REREG_MR		= 11,
	OVB_CMD_QUERY_MR		= 12,	/* id reserved, never implemented */
	OVB_CMD_DEREG_MR		= 13,
	OVB_CMD_ALLOC_MW		= 14,
	OVB_CMD_BIND_MW			= 15,	/* id reserved, never implemented */
	OVB_CMD_DEALLOC_MW		= 16,
	OVB_CMD_CREATE_COMP_CHANNEL	= 17,
	OVB_CMD_CREATE_CQ		= 18,
	OVB_CMD_RESIZE_CQ		= 19,
	OVB_CMD_DESTROY_CQ		= 20,
	OVB_CMD_POLL_CQ			= 21,
	OVB_CMD_PEEK_CQ			= 22,	/* id reserved, never implemented */
	OVB_CMD_REQ_NOTIFY_CQ		= 23,
	OVB_CMD_CREATE_QP		= 24,
	OVB_CMD_QUERY_QP		= 25,
	OVB_CMD_MODIFY_QP		= 26,
	OVB_CMD_DESTROY_QP		= 27,
	OVB_CMD_POST_SEND		= 28,
	OVB_CMD_POST_RECV		= 29,
	OVB_CMD_ATTACH_MCAST		= 30,
	OVB_CMD_DETACH_MCAST		= 31,
	OVB_CMD_CREATE_SRQ		= 32,
	OVB_CMD_MODIFY_SRQ		= 33,
	OVB_CMD_QUERY_SRQ		= 34,
	OVB_CMD_DESTROY_SRQ		= 35,
	OVB_CMD_POST_SRQ_RECV		= 36,
	OVB_CMD_OPEN_XRCD		= 37,
	OVB_CMD_CLOSE_XRCD		= 38,
	OVB_CMD_CREATE_XSRQ		= 39,
	OVB_CMD_OPEN_QP			= 40,
};

/* Extended command ids: sent with OVB_CMD_FLAG_EXTENDED set. */
enum ovb_write_ex_cmd {
	OVB_EX_CMD_QUERY_DEVICE		= OVB_CMD_QUERY_DEVICE,
	OVB_EX_CMD_CREATE_CQ		= OVB_CMD_CREATE_CQ,
	OVB_EX_CMD_CREATE_QP		= OVB_CMD_CREATE_QP,
	OVB_EX_CMD_MODIFY_QP		= OVB_CMD_MODIFY_QP,
	OVB_EX_CMD_CREATE_FLOW		= OVB_CMD_EX_FIRST_NEW_ID,
	OVB_EX_CMD_DESTROY_FLOW		= OVB_CMD_EX_FIRST_NEW_ID + 1,
	OVB_EX_CMD_CREATE_WQ		= OVB_CMD_EX_FIRST_NEW_ID + 2,
	OVB_EX_CMD_MODIFY_WQ		= OVB_CMD_EX_FIRST_NEW_ID + 3,
	OVB_EX_CMD_DESTROY_WQ		= OVB_CMD_EX_FIRST_NEW_ID + 4,
	OVB_EX_CMD_CREATE_RWQ_IND_TBL	= OVB_CMD_EX_FIRST_NEW_ID + 5,
	OVB_EX_CMD_DESTROY_RWQ_IND_TBL	= OVB_CMD_EX_FIRST_NEW_ID + 6,
	OVB_EX_CMD_MODIFY_CQ		= OVB_CMD_EX_FIRST_NEW_ID + 7,
};

/*
 * RDMA FLUSH (IBA A19.4.1), since 6.2: where the flushed data must be
 * placed (bits, also the FLUSH access and device bits) and how much of
 * the MR a flush covers.
 */
enum ovb_placement_type {
	OVB_FLUSH_GLOBAL	= 1U << 0,
	OVB_FLUSH_PERSISTENT	= 1U << 1,
};

enum ovb_selectivity_level {
	OVB_FLUSH_RANGE		= 0,
	OVB_FLUSH_MR		= 1,
};

/*
 * Legacy framing: [ovb_cmd_hdr][request][driver data].  in_words is the
 * whole write() length in 4-byte words, this header included; out_words is
 * the room at request->response in 4-byte words (core response plus driver
 * data).  Every request that has a response starts with that
 * __aligned_u64 response address.
 */
struct ovb_cmd_hdr {
	__u32 command;
	__u16 in_words;
	__u16 out_words;
};

/*
 * Extended framing: [ovb_cmd_hdr][ovb_ex_cmd_hdr][request][driver data].
 * Here in_words/out_words count 8-byte words of the core request/response
 * only (neither header), provider_in/out_words the driver's part, and the
 * response address lives in this header, not in the request.
 */
struct ovb_ex_cmd_hdr {
	__aligned_u64 response;
	__u16 provider_in_words;
	__u16 provider_out_words;
	__u32 cmd_hdr_reserved;		/* must be zero */
};

/*
 * errno of write() on a uverbs fd as Linux 6.1 answers it (from
 * drivers/infiniband/core: uverbs_main.c ib_uverbs_write() and verify_hdr(),
 * rdma_core.h uapi_get_method(), uverbs_cmd.c, rdma_core.c).
 *
 * Framing, in the order the kernel checks:
 *   EACCES      fd written under other credentials than it was opened with
 *   EINVAL      write shorter than struct ovb_cmd_hdr
 *   EFAULT      header not readable
 *   EINVAL      command word has bits outside OVB_CMD_ID_MASK|EXTENDED
 *   EOPNOTSUPP  id above the highest id this device serves (either space)
 *   EINVAL      extended: write shorter than both headers (EFAULT: unreadable)
 *   EINVAL      extended: (in_words + provider_in_words) * 8 is not the
 *               length after both headers; cmd_hdr_reserved != 0; a
 *               response address with no out words; out words without one
 *   EFAULT      extended: response range fails access_ok()
 *   EINVAL      legacy: in_words * 4 != write length
 *   ENOSPC      legacy: request shorter than the command's core request
 *               (a 16-byte DESTROY_CQ, as rdma-core v18/v19 sent, passes)
 *   ENOSPC      legacy: out_words * 4 smaller than the core response
 *   EFAULT      legacy: the response address cannot be read
 *   EOPNOTSUPP  id in range but not served by this device.  The stub behind
 *               such ids is size-checked as a legacy command, so a well
 *               formed extended write to one fails EINVAL instead.
 * 6.1 never checks extended sizes against the core structs (it records no
 * sizes for them): a short extended request is zero-extended instead.
 *
 * Requests and responses: bytes past the request the kernel knows must be
 * zero, else EOPNOTSUPP; a response is cut to the room given and extra room
 * is zero-filled; extended responses report the bytes written in
 * response_length.  ENOSPC also when a request is shorter than its fixed
 * part plus the wr/sge/spec/handle array it announces.
 *
 * Objects:
 *   EINVAL      queries and creates before GET_CONTEXT; GET_CONTEXT twice
 *   ENOENT      handle names no object of this file
 *   EINVAL      handle names an object of another type; XRCD handles in
 *               CREATE_QP, OPEN_QP and CREATE_XSRQ give EINVAL either way
 *   EBADF       comp_channel is not a completion channel fd of this file
 *   EBUSY       object in use by a concurrent command, or destroy of an
 *               object others still depend on (a PD with MRs, a CQ with QPs)
 *   EIO         device disassociated (hot unplug); only destroys still work
 *
 * Per command (not exhaustive):
 *   EINVAL      comp_mask != 0 in ex QUERY_DEVICE, CREATE_CQ, CREATE_FLOW,
 *               DESTROY_FLOW; comp_mask beyond OVB_CREATE_QP_SUP_COMP_MASK in
 *               ex CREATE_QP; non-zero reserved fields of ex QUERY_DEVICE,
 *               CREATE_CQ, CREATE_QP, MODIFY_CQ and of flow_attr;
 *               comp_vector >= num_comp_vectors; POST_SEND wqe_size below
 *               sizeof(struct ovb_send_wr); REREG_MR flags == 0; ex
 *               MODIFY_WQ attr_mask 0 or unknown; ex MODIFY_CQ attr_mask 0
 *   EOPNOTSUPP  comp_mask != 0 in ex CREATE_WQ, DESTROY_WQ, CREATE and
 *               DESTROY_RWQ_IND_TBL; MODIFY_QP attr_mask beyond the standard
 *               bits (ex: they plus rate limit); ex MODIFY_CQ attr_mask
 *               beyond moderation; REREG_MR unknown flags
 *   EPERM       CREATE_FLOW, or a raw packet QP, without CAP_NET_RAW
 *   EAGAIN      OPEN_XRCD of an inode without XRCD and without O_CREAT
 *
 * Success returns the whole write length.  Event fds: read() shorter than
 * one descriptor is EINVAL, an empty non-blocking queue EAGAIN, a queue
 * whose device went away EIO.
 */

/* ------------------------------------------------------- device, context */

struct ovb_get_context_req {
	__aligned_u64 response;
	__aligned_u64 driver_data[];
};

struct ovb_get_context_resp {
	__u32 async_fd;			/* the async event fd of this context */
	__u32 num_comp_vectors;
	__aligned_u64 driver_data[];
};

struct ovb_query_device_req {
	__aligned_u64 response;
	__aligned_u64 driver_data[];
};

struct ovb_query_device_resp {
	__aligned_u64 fw_ver;
	__be64 node_guid;
	__be64 sys_image_guid;
	__aligned_u64 max_mr_size;
	__aligned_u64 page_size_cap;
	__u32 vendor_id;
	__u32 vendor_part_id;
	__u32 hw_ver;
	__u32 max_qp;
	__u32 max_qp_wr;
	__u32 device_cap_flags;		/* low 32 bits of OVB_DEVICE_* */
	__u32 max_sge;
	__u32 max_sge_rd;
	__u32 max_cq;
	__u32 max_cqe;
	__u32 max_mr;
	__u32 max_pd;
	__u32 max_qp_rd_atom;
	__u32 max_ee_rd_atom;
	__u32 max_res_rd_atom;
	__u32 max_qp_init_rd_atom;
	__u32 max_ee_init_rd_atom;
	__u32 atomic_cap;
	__u32 max_ee;
	__u32 max_rdd;
	__u32 max_mw;
	__u32 max_raw_ipv6_qp;
	__u32 max_raw_ethy_qp;
	__u32 max_mcast_grp;
	__u32 max_mcast_qp_attach;
	__u32 max_total_mcast_qp_attach;
	__u32 max_ah;
	__u32 max_fmr;
	__u32 max_map_per_fmr;
	__u32 max_srq;
	__u32 max_srq_wr;
	__u32 max_srq_sge;
	__u16 max_pkeys;
	__u8  local_ca_ack_delay;
	__u8  phys_port_cnt;
	__u8  reserved[4];
};

struct ovb_ex_query_device_req {
	__u32 comp_mask;		/* must be zero */
	__u32 reserved;			/* must be zero */
};

/* On-demand paging capabilities. */
struct ovb_odp_caps {
	__aligned_u64 general_caps;
	struct {
		__u32 rc_odp_caps;
		__u32 uc_odp_caps;
		__u32 ud_odp_caps;
	} per_transport_caps;
	__u32 reserved;
};

/* Receive-side scaling capabilities. */
struct ovb_rss_caps {
	__u32 supported_qpts;		/* bit (1 << qp type) per QP type */
	__u32 max_rwq_indirection_tables;
	__u32 max_rwq_indirection_table_size;
	__u32 reserved;
};

/* Tag-matching capabilities. */
struct ovb_tm_caps {
	__u32 max_rndv_hdr_size;	/* largest rendezvous header */
	__u32 max_num_tags;		/* entries of the tag list */
	__u32 flags;
	__u32 max_ops;			/* outstanding list operations */
	__u32 max_sge;			/* SGEs per tag entry */
	__u32 reserved;
};

/* CQ moderation limits. */
struct ovb_cq_moderation_caps {
	__u16 max_cq_moderation_count;
	__u16 max_cq_moderation_period;
	__u32 reserved;
};

struct ovb_ex_query_device_resp {
	struct ovb_query_device_resp base;
	__u32 comp_mask;
	__u32 response_length;		/* bytes the kernel filled in */
	struct ovb_odp_caps odp_caps;
	__aligned_u64 timestamp_mask;
	__aligned_u64 hca_core_clock;	/* kHz */
	__aligned_u64 device_cap_flags_ex;
	struct ovb_rss_caps rss_caps;
	__u32 max_wq_type_rq;
	__u32 raw_packet_caps;		/* OVB_RAW_PACKET_CAP_* */
	struct ovb_tm_caps tm_caps;
	struct ovb_cq_moderation_caps cq_moderation_caps;
	__aligned_u64 max_dm_size;
	__u32 xrc_odp_caps;
	__u32 reserved;
};

struct ovb_query_port_req {
	__aligned_u64 response;
	__u8  port_num;
	__u8  reserved[7];
	__aligned_u64 driver_data[];
};

struct ovb_query_port_resp {
	__u32 port_cap_flags;
	__u32 max_msg_sz;
	__u32 bad_pkey_cntr;
	__u32 qkey_viol_cntr;
	__u32 gid_tbl_len;
	__u16 pkey_tbl_len;
	__u16 lid;
	__u16 sm_lid;
	__u8  state;
	__u8  max_mtu;
	__u8  active_mtu;
	__u8  lmc;
	__u8  max_vl_num;
	__u8  sm_sl;
	__u8  subnet_timeout;
	__u8  init_type_reply;
	__u8  active_width;
	__u8  active_speed;
	__u8  phys_state;
	__u8  link_layer;
	__u8  flags;
	__u8  reserved;
};

/* Length of a device name, NUL included. */
#define OVB_DEVICE_NAME_MAX		64

/*
 * device_cap_flags / device_cap_flags_ex bits.  Bits 9, 15, 16, 19, 22, 27,
 * 30..33, 35 and 37 carried other meanings in old kernels: never reuse them.
 */
__extension__ enum ovb_device_cap_flags {
	OVB_DEVICE_RESIZE_MAX_WR		= 1 << 0,
	OVB_DEVICE_BAD_PKEY_CNTR		= 1 << 1,
	OVB_DEVICE_BAD_QKEY_CNTR		= 1 << 2,
	OVB_DEVICE_RAW_MULTI			= 1 << 3,
	OVB_DEVICE_AUTO_PATH_MIG		= 1 << 4,
	OVB_DEVICE_CHANGE_PHY_PORT		= 1 << 5,
	OVB_DEVICE_UD_AV_PORT_ENFORCE		= 1 << 6,
	OVB_DEVICE_CURR_QP_STATE_MOD		= 1 << 7,
	OVB_DEVICE_SHUTDOWN_PORT		= 1 << 8,
	OVB_DEVICE_PORT_ACTIVE_EVENT		= 1 << 10,
	OVB_DEVICE_SYS_IMAGE_GUID		= 1 << 11,
	OVB_DEVICE_RC_RNR_NAK_GEN		= 1 << 12,
	OVB_DEVICE_SRQ_RESIZE			= 1 << 13,
	OVB_DEVICE_N_NOTIFY_CQ			= 1 << 14,
	OVB_DEVICE_MEM_WINDOW			= 1 << 17,
	OVB_DEVICE_UD_IP_CSUM			= 1 << 18,
	OVB_DEVICE_XRC				= 1 << 20,
	OVB_DEVICE_MEM_MGT_EXTENSIONS		= 1 << 21,
	OVB_DEVICE_MEM_WINDOW_TYPE_2A		= 1 << 23,
	OVB_DEVICE_MEM_WINDOW_TYPE_2B		= 1 << 24,
	OVB_DEVICE_RC_IP_CSUM			= 1 << 25,
	OVB_DEVICE_RAW_IP_CSUM			= 1 << 26, /* old; see raw caps */
	OVB_DEVICE_MANAGED_FLOW_STEERING	= 1 << 29,
	OVB_DEVICE_RAW_SCATTER_FCS		= 1ULL << 34, /* old; see raw caps */
	OVB_DEVICE_PCI_WRITE_END_PADDING	= 1ULL << 36,
	/* since 6.2: RDMA FLUSH placement types, ATOMIC WRITE */
	OVB_DEVICE_FLUSH_GLOBAL			= 1ULL << 38,
	OVB_DEVICE_FLUSH_PERSISTENT		= 1ULL << 39,
	OVB_DEVICE_ATOMIC_WRITE			= 1ULL << 40,
};

/* raw_packet_caps bits of struct ovb_ex_query_device_resp. */
enum ovb_raw_packet_caps {
	OVB_RAW_PACKET_CAP_CVLAN_STRIPPING	= 1 << 0,
	OVB_RAW_PACKET_CAP_SCATTER_FCS		= 1 << 1,
	OVB_RAW_PACKET_CAP_IP_CSUM		= 1 << 2,
	OVB_RAW_PACKET_CAP_DELAY_DROP		= 1 << 3,
};

/* ------------------------------------------------------------------- pd */

struct ovb_alloc_pd_req {
	__aligned_u64 response;
	__aligned_u64 driver_data[];
};

struct ovb_alloc_pd_resp {
	__u32 pd_handle;
	__u32 driver_data[];
};

struct ovb_dealloc_pd_req {
	__u32 pd_handle;
};

/* ------------------------------------------------------------------- ah */

/* GRH part of an address vector. */
struct ovb_global_route {
	__u8  dgid[16];
	__u32 flow_label;
	__u8  sgid_index;
	__u8  hop_limit;
	__u8  traffic_class;
	__u8  reserved;
};

/* An address vector. */
struct ovb_ah_attr {
	struct ovb_global_route grh;
	__u16 dlid;
	__u8  sl;
	__u8  src_path_bits;
	__u8  static_rate;
	__u8  is_global;		/* grh is valid */
	__u8  port_num;
	__u8  reserved;
};

struct ovb_create_ah_req {
	__aligned_u64 response;
	__aligned_u64 user_handle;
	__u32 pd_handle;
	__u32 reserved;
	struct ovb_ah_attr attr;
	__aligned_u64 driver_data[];
};

struct ovb_create_ah_resp {
	__u32 ah_handle;
	__u32 driver_data[];
};

struct ovb_destroy_ah_req {
	__u32 ah_handle;
};

/* ---------------------------------------------------------------- mr, mw */

struct ovb_reg_mr_req {
	__aligned_u64 response;
	__aligned_u64 start;		/* user address of the buffer */
	__aligned_u64 length;
	__aligned_u64 hca_va;		/* address the HCA sees; same page offset */
	__u32 pd_handle;
	__u32 access_flags;
	__aligned_u64 driver_data[];
};

struct ovb_reg_mr_resp {
	__u32 mr_handle;
	__u32 lkey;
	__u32 rkey;
	__u32 driver_data[];
};

struct ovb_rereg_mr_req {
	__aligned_u64 response;
	__u32 mr_handle;
	__u32 flags;			/* what to change: translation, pd, access */
	__aligned_u64 start;
	__aligned_u64 length;
	__aligned_u64 hca_va;
	__u32 pd_handle;
	__u32 access_flags;
	__aligned_u64 driver_data[];
};

struct ovb_rereg_mr_resp {
	__u32 lkey;
	__u32 rkey;
	__aligned_u64 driver_data[];
};

struct ovb_dereg_mr_req {
	__u32 mr_handle;
};

struct ovb_alloc_mw_req {
	__aligned_u64 response;
	__u32 pd_handle;
	__u8  mw_type;
	__u8  reserved[3];
	__aligned_u64 driver_data[];
};

struct ovb_alloc_mw_resp {
	__u32 mw_handle;
	__u32 rkey;
	__aligned_u64 driver_data[];
};

struct ovb_dealloc_mw_req {
	__u32 mw_handle;
};

/* ------------------------------------------------------------------- cq */

/*
 * A create_cq_resp is embedded as the first member of the ex response, so
 * its driver area is a zero-length array (a flexible array member may not
 * be embedded), exactly as upstream.
 */
struct ovb_create_cq_req {
	__aligned_u64 response;
	__aligned_u64 user_handle;	/* echoed in completion events */
	__u32 cqe;
	__u32 comp_vector;
	__s32 comp_channel;		/* channel fd, or -1 for none */
	__u32 reserved;
	__aligned_u64 driver_data[];
};

/* flags of struct ovb_ex_create_cq_req. */
enum ovb_ex_create_cq_flags {
	OVB_CREATE_CQ_FLAG_TIMESTAMP_COMPLETION	= 1 << 0,
	OVB_CREATE_CQ_FLAG_IGNORE_OVERRUN	= 1 << 1,
};

struct ovb_ex_create_cq_req {
	__aligned_u64 user_handle;
	__u32 cqe;
	__u32 comp_vector;
	__s32 comp_channel;
	__u32 comp_mask;		/* must be zero */
	__u32 flags;			/* enum ovb_ex_create_cq_flags */
	__u32 reserved;			/* must be zero */
};

struct ovb_create_cq_resp {
	__u32 cq_handle;
	__u32 cqe;			/* entries actually allocated */
	__extension__ __aligned_u64 driver_data[0];
};

struct ovb_ex_create_cq_resp {
	struct ovb_create_cq_resp base;
	__u32 comp_mask;
	__u32 response_length;
};

struct ovb_resize_cq_req {
	__aligned_u64 response;
	__u32 cq_handle;
	__u32 cqe;
	__aligned_u64 driver_data[];
};

struct ovb_resize_cq_resp {
	__u32 cqe;
	__u32 reserved;
	__aligned_u64 driver_data[];
};

struct ovb_poll_cq_req {
	__aligned_u64 response;
	__u32 cq_handle;
	__u32 ne;			/* at most this many completions */
};

/* opcode of struct ovb_wc. */
enum ovb_wc_opcode {
	OVB_WC_SEND		= 0,
	OVB_WC_RDMA_WRITE	= 1,
	OVB_WC_RDMA_READ	= 2,
	OVB_WC_COMP_SWAP	= 3,
	OVB_WC_FETCH_ADD	= 4,
	OVB_WC_BIND_MW		= 5,
	OVB_WC_LOCAL_INV	= 6,
	OVB_WC_TSO		= 7,
	/* since 6.2 */
	OVB_WC_FLUSH		= 8,
	OVB_WC_ATOMIC_WRITE	= 9,
};

/* One work completion as POLL_CQ returns it. */
struct ovb_wc {
	__aligned_u64 wr_id;
	__u32 status;
	__u32 opcode;
	__u32 vendor_err;
	__u32 byte_len;
	union {
		__be32 imm_data;
		__u32 invalidate_rkey;
	} ex;
	__u32 qp_num;
	__u32 src_qp;
	__u32 wc_flags;
	__u16 pkey_index;
	__u16 slid;
	__u8  sl;
	__u8  dlid_path_bits;
	__u8  port_num;
	__u8  reserved;
};

struct ovb_poll_cq_resp {
	__u32 count;			/* entries filled in wc[] */
	__u32 reserved;
	struct ovb_wc wc[];
};

struct ovb_req_notify_cq_req {
	__u32 cq_handle;
	__u32 solicited_only;
};

struct ovb_destroy_cq_req {
	__aligned_u64 response;
	__u32 cq_handle;
	__u32 reserved;
};

struct ovb_destroy_cq_resp {
	__u32 comp_events_reported;
	__u32 async_events_reported;
};

/* Moderation setting: event after cq_count completions or cq_period us. */
struct ovb_cq_moderation {
	__u16 cq_count;
	__u16 cq_period;
};

struct ovb_ex_modify_cq_req {
	__u32 cq_handle;
	__u32 attr_mask;		/* only moderation exists */
	struct ovb_cq_moderation attr;
	__u32 reserved;			/* must be zero */
};

/* ------------------------------------------------------------------- qp */

/* Full QP attributes: no uverbs command uses it; rdma_ucm's INIT_QP_ATTR does. */
struct ovb_qp_attr {
	__u32 qp_attr_mask;
	__u32 qp_state;
	__u32 cur_qp_state;
	__u32 path_mtu;
	__u32 path_mig_state;
	__u32 qkey;
	__u32 rq_psn;
	__u32 sq_psn;
	__u32 dest_qp_num;
	__u32 qp_access_flags;
	struct ovb_ah_attr ah_attr;
	struct ovb_ah_attr alt_ah_attr;
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
	__u16 pkey_index;
	__u16 alt_pkey_index;
	__u8  en_sqd_async_notify;
	__u8  sq_draining;
	__u8  max_rd_atomic;
	__u8  max_dest_rd_atomic;
	__u8  min_rnr_timer;
	__u8  port_num;
	__u8  timeout;
	__u8  retry_cnt;
	__u8  rnr_retry;
	__u8  alt_port_num;
	__u8  alt_timeout;
	__u8  reserved[5];
};

struct ovb_create_qp_req {
	__aligned_u64 response;
	__aligned_u64 user_handle;
	__u32 pd_handle;		/* XRCD handle for an XRC target QP */
	__u32 send_cq_handle;
	__u32 recv_cq_handle;
	__u32 srq_handle;
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
	__u8  sq_sig_all;
	__u8  qp_type;
	__u8  is_srq;
	__u8  reserved;
	__aligned_u64 driver_data[];
};

/* comp_mask bits of struct ovb_ex_create_qp_req. */
enum ovb_create_qp_mask {
	OVB_CREATE_QP_MASK_IND_TABLE	= 1UL << 0,
};

/* Every comp_mask bit 6.1 accepts in ex CREATE_QP. */
enum {
	OVB_CREATE_QP_SUP_COMP_MASK	= OVB_CREATE_QP_MASK_IND_TABLE,
};

struct ovb_ex_create_qp_req {
	__aligned_u64 user_handle;
	__u32 pd_handle;
	__u32 send_cq_handle;
	__u32 recv_cq_handle;
	__u32 srq_handle;
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
	__u8  sq_sig_all;
	__u8  qp_type;
	__u8  is_srq;
	__u8  reserved;			/* must be zero */
	__u32 comp_mask;
	__u32 create_flags;
	__u32 rwq_ind_tbl_handle;	/* with OVB_CREATE_QP_MASK_IND_TABLE */
	__u32 source_qpn;
};

struct ovb_open_qp_req {
	__aligned_u64 response;
	__aligned_u64 user_handle;
	__u32 pd_handle;		/* the XRCD handle */
	__u32 qpn;
	__u8  qp_type;
	__u8  reserved[7];
	__aligned_u64 driver_data[];
};

/* Response of CREATE_QP and of OPEN_QP; embedded in the ex response. */
struct ovb_create_qp_resp {
	__u32 qp_handle;
	__u32 qpn;
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
	__u32 reserved;
	__extension__ __u32 driver_data[0];
};

struct ovb_ex_create_qp_resp {
	struct ovb_create_qp_resp base;
	__u32 comp_mask;
	__u32 response_length;
};

/* Path of a QP in QUERY_QP/MODIFY_QP; stays a multiple of 8 bytes. */
struct ovb_qp_dest {
	__u8  dgid[16];
	__u32 flow_label;
	__u16 dlid;
	__u16 reserved;
	__u8  sgid_index;
	__u8  hop_limit;
	__u8  traffic_class;
	__u8  sl;
	__u8  src_path_bits;
	__u8  static_rate;
	__u8  is_global;
	__u8  port_num;
};

struct ovb_query_qp_req {
	__aligned_u64 response;
	__u32 qp_handle;
	__u32 attr_mask;
	__aligned_u64 driver_data[];
};

struct ovb_query_qp_resp {
	struct ovb_qp_dest dest;
	struct ovb_qp_dest alt_dest;
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
	__u32 qkey;
	__u32 rq_psn;
	__u32 sq_psn;
	__u32 dest_qp_num;
	__u32 qp_access_flags;
	__u16 pkey_index;
	__u16 alt_pkey_index;
	__u8  qp_state;
	__u8  cur_qp_state;
	__u8  path_mtu;
	__u8  path_mig_state;
	__u8  sq_draining;
	__u8  max_rd_atomic;
	__u8  max_dest_rd_atomic;
	__u8  min_rnr_timer;
	__u8  port_num;
	__u8  timeout;
	__u8  retry_cnt;
	__u8  rnr_retry;
	__u8  alt_port_num;
	__u8  alt_timeout;
	__u8  sq_sig_all;
	__u8  reserved[5];
	__aligned_u64 driver_data[];
};

/* MODIFY_QP has no response; embedded in the ex request. */
struct ovb_modify_qp_req {
	struct ovb_qp_dest dest;
	struct ovb_qp_dest alt_dest;
	__u32 qp_handle;
	__u32 attr_mask;
	__u32 qkey;
	__u32 rq_psn;
	__u32 sq_psn;
	__u32 dest_qp_num;
	__u32 qp_access_flags;
	__u16 pkey_index;
	__u16 alt_pkey_index;
	__u8  qp_state;
	__u8  cur_qp_state;
	__u8  path_mtu;
	__u8  path_mig_state;
	__u8  en_sqd_async_notify;
	__u8  max_rd_atomic;
	__u8  max_dest_rd_atomic;
	__u8  min_rnr_timer;
	__u8  port_num;
	__u8  timeout;
	__u8  retry_cnt;
	__u8  rnr_retry;
	__u8  alt_port_num;
	__u8  alt_timeout;
	__u8  reserved[2];
	__extension__ __aligned_u64 driver_data[0];
};

struct ovb_ex_modify_qp_req {
	struct ovb_modify_qp_req base;
	__u32 rate_limit;		/* used with the rate-limit attr_mask bit */
	__u32 reserved;
};

struct ovb_ex_modify_qp_resp {
	__u32 comp_mask;
	__u32 response_length;
};

struct ovb_destroy_qp_req {
	__aligned_u64 response;
	__u32 qp_handle;
	__u32 reserved;
};

struct ovb_destroy_qp_resp {
	__u32 events_reported;
};

/* A scatter/gather entry as POST_SEND/POST_RECV read it. */
struct ovb_sge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

/* opcode of struct ovb_send_wr. */
enum ovb_wr_opcode {
	OVB_WR_RDMA_WRITE			= 0,
	OVB_WR_RDMA_WRITE_WITH_IMM		= 1,
	OVB_WR_SEND				= 2,
	OVB_WR_SEND_WITH_IMM			= 3,
	OVB_WR_RDMA_READ			= 4,
	OVB_WR_ATOMIC_CMP_AND_SWP		= 5,
	OVB_WR_ATOMIC_FETCH_AND_ADD		= 6,
	OVB_WR_LOCAL_INV			= 7,
	OVB_WR_BIND_MW				= 8,
	OVB_WR_SEND_WITH_INV			= 9,
	OVB_WR_TSO				= 10,
	OVB_WR_RDMA_READ_WITH_INV		= 11,
	OVB_WR_MASKED_ATOMIC_CMP_AND_SWP	= 12,
	OVB_WR_MASKED_ATOMIC_FETCH_AND_ADD	= 13,
	/* since 6.2 */
	OVB_WR_FLUSH				= 14,
	OVB_WR_ATOMIC_WRITE			= 15,
};

/* A send work request; wr is chosen by opcode and QP type. */
struct ovb_send_wr {
	__aligned_u64 wr_id;
	__u32 num_sge;
	__u32 opcode;			/* enum ovb_wr_opcode */
	__u32 send_flags;
	union {
		__be32 imm_data;
		__u32 invalidate_rkey;
	} ex;
	union {
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
			__u32 ah;		/* AH handle */
			__u32 remote_qpn;
			__u32 remote_qkey;
			__u32 reserved;
		} ud;
	} wr;
};

/*
 * POST_SEND request: wr_count entries of wqe_size bytes (at least
 * sizeof(struct ovb_send_wr)), then sge_count struct ovb_sge.
 */
struct ovb_post_send_req {
	__aligned_u64 response;
	__u32 qp_handle;
	__u32 wr_count;
	__u32 sge_count;
	__u32 wqe_size;
	struct ovb_send_wr send_wr[];
};

struct ovb_post_send_resp {
	__u32 bad_wr;			/* 1-based index of the failing wr */
};

struct ovb_recv_wr {
	__aligned_u64 wr_id;
	__u32 num_sge;
	__u32 reserved;
};

/* POST_RECV request: laid out as POST_SEND, with struct ovb_recv_wr. */
struct ovb_post_recv_req {
	__aligned_u64 response;
	__u32 qp_handle;
	__u32 wr_count;
	__u32 sge_count;
	__u32 wqe_size;
	struct ovb_recv_wr recv_wr[];
};

struct ovb_post_recv_resp {
	__u32 bad_wr;
};

struct ovb_attach_mcast_req {
	__u8  gid[16];
	__u32 qp_handle;
	__u16 mlid;
	__u16 reserved;
	__aligned_u64 driver_data[];
};

struct ovb_detach_mcast_req {
	__u8  gid[16];
	__u32 qp_handle;
	__u16 mlid;
	__u16 reserved;
	__aligned_u64 driver_data[];
};

/* ------------------------------------------------------------------ srq */

struct ovb_create_srq_req {
	__aligned_u64 response;
	__aligned_u64 user_handle;
	__u32 pd_handle;
	__u32 max_wr;
	__u32 max_sge;
	__u32 srq_limit;
	__aligned_u64 driver_data[];
};

/* CREATE_XSRQ: an SRQ of any type (basic, XRC, tag matching). */
struct ovb_create_xsrq_req {
	__aligned_u64 response;
	__aligned_u64 user_handle;
	__u32 srq_type;
	__u32 pd_handle;
	__u32 max_wr;
	__u32 max_sge;
	__u32 srq_limit;
	__u32 max_num_tags;
	__u32 xrcd_handle;
	__u32 cq_handle;
	__aligned_u64 driver_data[];
};

struct ovb_create_srq_resp {
	__u32 srq_handle;
	__u32 max_wr;
	__u32 max_sge;
	__u32 srqn;
	__u32 driver_data[];
};

struct ovb_modify_srq_req {
	__u32 srq_handle;
	__u32 attr_mask;
	__u32 max_wr;
	__u32 srq_limit;
	__aligned_u64 driver_data[];
};

struct ovb_query_srq_req {
	__aligned_u64 response;
	__u32 srq_handle;
	__u32 reserved;
	__aligned_u64 driver_data[];
};

struct ovb_query_srq_resp {
	__u32 max_wr;
	__u32 max_sge;
	__u32 srq_limit;
	__u32 reserved;
};

struct ovb_destroy_srq_req {
	__aligned_u64 response;
	__u32 srq_handle;
	__u32 reserved;
};

struct ovb_destroy_srq_resp {
	__u32 events_reported;
};

/* POST_SRQ_RECV request: laid out as POST_RECV. */
struct ovb_post_srq_recv_req {
	__aligned_u64 response;
	__u32 srq_handle;
	__u32 wr_count;
	__u32 sge_count;
	__u32 wqe_size;
	struct ovb_recv_wr recv[];
};

struct ovb_post_srq_recv_resp {
	__u32 bad_wr;
};

/* ----------------------------------------------------------------- xrcd */

struct ovb_open_xrcd_req {
	__aligned_u64 response;
	__u32 fd;			/* file naming the shared XRCD, or -1 */
	__u32 oflags;			/* O_CREAT, O_EXCL */
	__aligned_u64 driver_data[];
};

struct ovb_open_xrcd_resp {
	__u32 xrcd_handle;
	__u32 driver_data[];
};

struct ovb_close_xrcd_req {
	__u32 xrcd_handle;
};

/* ------------------------------------------------------------------- wq */

struct ovb_ex_create_wq_req {
	__u32 comp_mask;		/* must be zero */
	__u32 wq_type;
	__aligned_u64 user_handle;
	__u32 pd_handle;
	__u32 cq_handle;
	__u32 max_wr;
	__u32 max_sge;
	__u32 create_flags;
	__u32 reserved;
};

struct ovb_ex_create_wq_resp {
	__u32 comp_mask;
	__u32 response_length;
	__u32 wq_handle;
	__u32 max_wr;
	__u32 max_sge;
	__u32 wqn;
};

struct ovb_ex_destroy_wq_req {
	__u32 comp_mask;		/* must be zero */
	__u32 wq_handle;
};

struct ovb_ex_destroy_wq_resp {
	__u32 comp_mask;
	__u32 response_length;
	__u32 events_reported;
	__u32 reserved;
};

struct ovb_ex_modify_wq_req {
	__u32 attr_mask;		/* state, current state, flags */
	__u32 wq_handle;
	__u32 wq_state;
	__u32 curr_wq_state;
	__u32 flags;
	__u32 flags_mask;
};

/* ---------------------------------------------------------- rwq_ind_tbl */

/* Largest log2 size of an indirection table the kernel will allocate. */
#define OVB_MAX_LOG_IND_TBL_SIZE	0x0d

/* Followed by 1 << log_ind_tbl_size WQ handles. */
struct ovb_ex_create_rwq_ind_table_req {
	__u32 comp_mask;		/* must be zero */
	__u32 log_ind_tbl_size;
	__u32 wq_handles[];
};

struct ovb_ex_create_rwq_ind_table_resp {
	__u32 comp_mask;
	__u32 response_length;
	__u32 ind_tbl_handle;
	__u32 ind_tbl_num;
};

struct ovb_ex_destroy_rwq_ind_table_req {
	__u32 comp_mask;		/* must be zero */
	__u32 ind_tbl_handle;
};

/* ----------------------------------------------------------------- flow */

/*
 * Every flow spec starts with this header; size is the spec's whole size
 * in bytes.  It sits inside a union in each spec, so its trailing data is a
 * zero-length array as upstream.
 */
struct ovb_flow_spec_hdr {
	__u32 type;
	__u16 size;
	__u16 reserved;
	__extension__ __aligned_u64 flow_spec_data[0];
};

/* The header fields, named directly in each spec. */
#define OVB_FLOW_SPEC_HEADER				\
	union {						\
		struct ovb_flow_spec_hdr hdr;		\
		struct {				\
			__u32 type;			\
			__u16 size;			\
			__u16 reserved;			\
		};					\
	}

struct ovb_flow_eth_filter {
	__u8   dst_mac[6];
	__u8   src_mac[6];
	__be16 ether_type;
	__be16 vlan_tag;
};

struct ovb_flow_spec_eth {
	OVB_FLOW_SPEC_HEADER;
	struct ovb_flow_eth_filter val;
	struct ovb_flow_eth_filter mask;
};

struct ovb_flow_ipv4_filter {
	__be32 src_ip;
	__be32 dst_ip;
	__u8   proto;
	__u8   tos;
	__u8   ttl;
	__u8   flags;
};

struct ovb_flow_spec_ipv4 {
	OVB_FLOW_SPEC_HEADER;
	struct ovb_flow_ipv4_filter val;
	struct ovb_flow_ipv4_filter mask;
};

struct ovb_flow_tcp_udp_filter {
	__be16 dst_port;
	__be16 src_port;
};

struct ovb_flow_spec_tcp_udp {
	OVB_FLOW_SPEC_HEADER;
	struct ovb_flow_tcp_udp_filter val;
	struct ovb_flow_tcp_udp_filter mask;
};

struct ovb_flow_ipv6_filter {
	__u8   src_ip[16];
	__u8   dst_ip[16];
	__be32 flow_label;
	__u8   next_hdr;
	__u8   traffic_class;
	__u8   hop_limit;
	__u8   reserved;
};

struct ovb_flow_spec_ipv6 {
	OVB_FLOW_SPEC_HEADER;
	struct ovb_flow_ipv6_filter val;
	struct ovb_flow_ipv6_filter mask;
};

/* Action: tag matching packets with tag_id. */
struct ovb_flow_spec_action_tag {
	OVB_FLOW_SPEC_HEADER;
	__u32 tag_id;
	__u32 reserved1;
};

/* Action: drop matching packets. */
struct ovb_flow_spec_action_drop {
	OVB_FLOW_SPEC_HEADER;
};

/* Action: apply a flow action object. */
struct ovb_flow_spec_action_handle {
	OVB_FLOW_SPEC_HEADER;
	__u32 handle;
	__u32 reserved1;
};

/* Action: count matching packets in a counters object. */
struct ovb_flow_spec_action_count {
	OVB_FLOW_SPEC_HEADER;
	__u32 handle;
	__u32 reserved1;
};

struct ovb_flow_tunnel_filter {
	__be32 tunnel_id;		/* e.g. the VXLAN VNI */
};

struct ovb_flow_spec_tunnel {
	OVB_FLOW_SPEC_HEADER;
	struct ovb_flow_tunnel_filter val;
	struct ovb_flow_tunnel_filter mask;
};

struct ovb_flow_spec_esp_filter {
	__u32 spi;
	__u32 seq;
};

struct ovb_flow_spec_esp {
	OVB_FLOW_SPEC_HEADER;
	struct ovb_flow_spec_esp_filter val;
	struct ovb_flow_spec_esp_filter mask;
};

/*
 * First 32 bits of a GRE header.  c_ks_res0_ver, from its first bit:
 * checksum present, reserved, key present, sequence present, 9 reserved
 * bits, 3-bit version.
 */
struct ovb_flow_gre_filter {
	__be16 c_ks_res0_ver;
	__be16 protocol;
	__be32 key;
};

struct ovb_flow_spec_gre {
	OVB_FLOW_SPEC_HEADER;
	struct ovb_flow_gre_filter val;
	struct ovb_flow_gre_filter mask;
};

/* One MPLS label stack entry: 20-bit label, 3-bit TC, S bit, 8-bit TTL. */
struct ovb_flow_mpls_filter {
	__be32 label;
};

struct ovb_flow_spec_mpls {
	OVB_FLOW_SPEC_HEADER;
	struct ovb_flow_mpls_filter val;
	struct ovb_flow_mpls_filter mask;
};

/* A steering rule; num_of_specs specs follow, size bytes of them. */
struct ovb_flow_attr {
	__u32 type;
	__u16 size;
	__u16 priority;
	__u8  num_of_specs;
	__u8  reserved[2];		/* must be zero */
	__u8  port;
	__u32 flags;
	struct ovb_flow_spec_hdr flow_specs[];
};

__extension__ struct ovb_create_flow_req {
	__u32 comp_mask;		/* must be zero */
	__u32 qp_handle;
	struct ovb_flow_attr flow_attr;
};

struct ovb_create_flow_resp {
	__u32 comp_mask;
	__u32 flow_handle;
};

struct ovb_destroy_flow_req {
	__u32 comp_mask;		/* must be zero */
	__u32 flow_handle;
};

/* --------------------------------------------- events, completion channel */

/* What read() on the async event fd returns, one per event. */
struct ovb_async_event_desc {
	__aligned_u64 element;		/* user_handle of the object, or port */
	__u32 event_type;		/* the kernel's enum ib_event_type */
	__u32 reserved;
};

/* What read() on a completion channel returns, one per CQ event. */
struct ovb_comp_event_desc {
	__aligned_u64 cq_handle;	/* the CQ's user_handle */
};

struct ovb_create_comp_channel_req {
	__aligned_u64 response;
};

struct ovb_create_comp_channel_resp {
	__u32 fd;
};

#endif /* OPENVERBS_UAPI_UVERBS_ABI_H */
