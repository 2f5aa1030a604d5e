/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * openverbs: the uverbs ioctl() ABI of Linux 6.1, under openverbs names.
 *
 * The companion of uverbs-abi.h (the write() ABI): both sides of openverbs,
 * our ib_uverbs.ko and the userspace library with its providers, name the
 * ioctl ABI with these names only.  One ioctl, OVB_VERBS_IOCTL, carries a
 * call: a struct ovb_ioctl_hdr naming an object and one of its methods,
 * followed by that call's attributes, each a struct ovb_ioctl_attr whose
 * attr_id is one of the method's OVB_ATTR_* ids below.
 *
 * uapi/tests/abi_layout_check.c proves every struct layout-identical and
 * every constant equal to the system's <rdma/rdma_user_ioctl_cmds.h>,
 * <rdma/ib_user_ioctl_cmds.h> and <rdma/ib_user_ioctl_verbs.h>; every
 * enumerator is spelled with its value, so the numbers read here are the
 * numbers on the wire.  Member names follow the kernel's.
 *
 * Includes only <linux/types.h>, <linux/ioctl.h> (for _IOWR, whose
 * encoding differs between architectures) and uverbs-abi.h.
 */
#ifndef OPENVERBS_UAPI_IOCTL_ABI_H
#define OPENVERBS_UAPI_IOCTL_ABI_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <openverbs/uverbs-abi.h>

/* --------------------------------------------------------- the call */

/* The ioctl type byte RDMA shares (ib_umad and hfi1 number theirs too). */
#define OVB_IOCTL_MAGIC			0x1b
/* The one uverbs ioctl: every method of every object goes through it. */
#define OVB_VERBS_IOCTL	\
	_IOWR(OVB_IOCTL_MAGIC, 1, struct ovb_ioctl_hdr)

/*
 * ovb_ioctl_attr.flags.  VALID_OUTPUT is the kernel's answer: it wrote
 * this output attribute (a mandatory output counts as written).
 */
enum {
	OVB_ATTR_F_MANDATORY	= 1 << 0,
	OVB_ATTR_F_VALID_OUTPUT	= 1 << 1,
};

/*
 * One attribute of a call.  data holds the value itself when it fits in
 * 8 bytes and is an input; otherwise the address of a len-byte buffer.
 * Object handles (IDR) and fds travel in data as well.
 */
struct ovb_ioctl_attr {
	__u16 attr_id;
	__u16 len;
	__u16 flags;			/* OVB_ATTR_F_* */
	union {
		struct {
			__u8 elem_id;	/* the element an enum attr chose */
			__u8 reserved;
		} enum_data;
		__u16 reserved;
	} attr_data;
	union {
		__aligned_u64 data;
		__s64 data_s64;		/* a new fd, or an fd passed in */
	};
};

/* The call: length is the whole buffer, header and attrs, in bytes. */
struct ovb_ioctl_hdr {
	__u16 length;
	__u16 object_id;		/* enum ovb_default_objects */
	__u16 method_id;
	__u16 num_attrs;
	__aligned_u64 reserved1;
	__u32 driver_id;		/* enum ovb_driver_id */
	__u32 reserved2;
	struct ovb_ioctl_attr attrs[];
};

/*
 * Ids carry a namespace in their top four bits: 0 for the core's own ids,
 * namespace 1 (OVB_ID_DRIVER_NS as an id) for the driver data every method
 * may carry, and the HCA driver's own methods and attributes beside it.
 */
#define OVB_ID_NS_MASK			0xf000
#define OVB_ID_NS_SHIFT			12
/* 6.1's names for namespace 1; 6.12 has only OVB_ID_DRIVER_NS below */
#define OVB_UDATA_DRIVER_DATA_NS	1
#define OVB_UDATA_DRIVER_DATA_FLAG	(1u << OVB_ID_NS_SHIFT)

/*
 * The driver-data attributes (udata in, udata out) of any method, and
 * (since 6.11) the names of the driver namespace's first id and of the
 * first id a driver may give its own attributes of a core method.
 */
enum {
	OVB_ID_DRIVER_NS		= 1u << OVB_ID_NS_SHIFT,
	OVB_ATTR_UHW_IN			= OVB_ID_DRIVER_NS,
	OVB_ATTR_UHW_OUT		= OVB_ID_DRIVER_NS + 1,
	OVB_ID_DRIVER_NS_WITH_UHW	= OVB_ID_DRIVER_NS + 2,
};

/* ---------------------------------------------------------- objects */

/*
 * ovb_ioctl_hdr.object_id.  DEVICE has no instances: its methods act on
 * the context.
 */
enum ovb_default_objects {
	OVB_OBJECT_DEVICE	= 0,
	OVB_OBJECT_PD		= 1,
	OVB_OBJECT_COMP_CHANNEL	= 2,
	OVB_OBJECT_CQ		= 3,
	OVB_OBJECT_QP		= 4,
	OVB_OBJECT_SRQ		= 5,
	OVB_OBJECT_AH		= 6,
	OVB_OBJECT_MR		= 7,
	OVB_OBJECT_MW		= 8,
	OVB_OBJECT_FLOW		= 9,
	OVB_OBJECT_XRCD		= 10,
	OVB_OBJECT_RWQ_IND_TBL	= 11,
	OVB_OBJECT_WQ		= 12,
	OVB_OBJECT_FLOW_ACTION	= 13,
	OVB_OBJECT_DM		= 14,
	OVB_OBJECT_COUNTERS	= 15,
	OVB_OBJECT_ASYNC_EVENT	= 16,
};

/* ----------------------------------------------- device and context */

/* Methods of OVB_OBJECT_DEVICE. */
enum ovb_methods_device {
	OVB_METHOD_INVOKE_WRITE		= 0,
	OVB_METHOD_INFO_HANDLES		= 1,
	OVB_METHOD_QUERY_PORT		= 2,
	OVB_METHOD_GET_CONTEXT		= 3,
	OVB_METHOD_QUERY_CONTEXT	= 4,
	OVB_METHOD_QUERY_GID_TABLE	= 5,
	OVB_METHOD_QUERY_GID_ENTRY	= 6,
};

/* OVB_METHOD_INVOKE_WRITE: a write() command sent as an ioctl. */
enum ovb_attrs_invoke_write_cmd_attr_ids {
	OVB_ATTR_CORE_IN	= 0,
	OVB_ATTR_CORE_OUT	= 1,
	OVB_ATTR_WRITE_CMD	= 2,
};

/* OVB_METHOD_INFO_HANDLES: the handles of one object type. */
enum ovb_attrs_info_handles_id {
	OVB_ATTR_INFO_OBJECT_ID		= 0,
	OVB_ATTR_INFO_TOTAL_HANDLES	= 1,
	OVB_ATTR_INFO_HANDLES_LIST	= 2,
};

enum ovb_attrs_query_port_cmd_attr_ids {
	OVB_ATTR_QUERY_PORT_PORT_NUM	= 0,
	OVB_ATTR_QUERY_PORT_RESP	= 1,
};

enum ovb_attrs_get_context_attr_ids {
	OVB_ATTR_GET_CONTEXT_NUM_COMP_VECTORS	= 0,
	OVB_ATTR_GET_CONTEXT_CORE_SUPPORT	= 1,
};

enum ovb_attrs_query_context_attr_ids {
	OVB_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS	= 0,
	OVB_ATTR_QUERY_CONTEXT_CORE_SUPPORT	= 1,
};

enum ovb_attrs_query_gid_table_cmd_attr_ids {
	OVB_ATTR_QUERY_GID_TABLE_ENTRY_SIZE		= 0,
	OVB_ATTR_QUERY_GID_TABLE_FLAGS			= 1,
	OVB_ATTR_QUERY_GID_TABLE_RESP_ENTRIES		= 2,
	OVB_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES	= 3,
};

enum ovb_attrs_query_gid_entry_cmd_attr_ids {
	OVB_ATTR_QUERY_GID_ENTRY_PORT		= 0,
	OVB_ATTR_QUERY_GID_ENTRY_GID_INDEX	= 1,
	OVB_ATTR_QUERY_GID_ENTRY_FLAGS		= 2,
	OVB_ATTR_QUERY_GID_ENTRY_RESP_ENTRY	= 3,
};

/* OVB_OBJECT_ASYNC_EVENT: the async event fd, as an object. */
enum ovb_method_async_event {
	OVB_METHOD_ASYNC_EVENT_ALLOC	= 0,
};

enum ovb_attrs_async_event_create {
	OVB_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE	= 0,
};

/* ---------------------------------------------- pd, cq, qp, srq, wq */

enum ovb_methods_pd {
	OVB_METHOD_PD_DESTROY	= 0,
};

enum ovb_attrs_pd_destroy_ids {
	OVB_ATTR_DESTROY_PD_HANDLE	= 0,
};

enum ovb_methods_cq {
	OVB_METHOD_CQ_CREATE	= 0,
	OVB_METHOD_CQ_DESTROY	= 1,
};

enum ovb_attrs_create_cq_cmd_attr_ids {
	OVB_ATTR_CREATE_CQ_HANDLE	= 0,
	OVB_ATTR_CREATE_CQ_CQE		= 1,
	OVB_ATTR_CREATE_CQ_USER_HANDLE	= 2,
	OVB_ATTR_CREATE_CQ_COMP_CHANNEL	= 3,
	OVB_ATTR_CREATE_CQ_COMP_VECTOR	= 4,
	OVB_ATTR_CREATE_CQ_FLAGS	= 5,
	OVB_ATTR_CREATE_CQ_RESP_CQE	= 6,
	OVB_ATTR_CREATE_CQ_EVENT_FD	= 7,
};

enum ovb_attrs_destroy_cq_cmd_attr_ids {
	OVB_ATTR_DESTROY_CQ_HANDLE	= 0,
	OVB_ATTR_DESTROY_CQ_RESP	= 1,
};

enum ovb_methods_qp {
	OVB_METHOD_QP_CREATE	= 0,
	OVB_METHOD_QP_DESTROY	= 1,
};

enum ovb_attrs_create_qp_cmd_attr_ids {
	OVB_ATTR_CREATE_QP_HANDLE		= 0,
	OVB_ATTR_CREATE_QP_XRCD_HANDLE		= 1,
	OVB_ATTR_CREATE_QP_PD_HANDLE		= 2,
	OVB_ATTR_CREATE_QP_SRQ_HANDLE		= 3,
	OVB_ATTR_CREATE_QP_SEND_CQ_HANDLE	= 4,
	OVB_ATTR_CREATE_QP_RECV_CQ_HANDLE	= 5,
	OVB_ATTR_CREATE_QP_IND_TABLE_HANDLE	= 6,
	OVB_ATTR_CREATE_QP_USER_HANDLE		= 7,
	OVB_ATTR_CREATE_QP_CAP			= 8,
	OVB_ATTR_CREATE_QP_TYPE			= 9,
	OVB_ATTR_CREATE_QP_FLAGS		= 10,
	OVB_ATTR_CREATE_QP_SOURCE_QPN		= 11,
	OVB_ATTR_CREATE_QP_EVENT_FD		= 12,
	OVB_ATTR_CREATE_QP_RESP_CAP		= 13,
	OVB_ATTR_CREATE_QP_RESP_QP_NUM		= 14,
};

enum ovb_attrs_destroy_qp_cmd_attr_ids {
	OVB_ATTR_DESTROY_QP_HANDLE	= 0,
	OVB_ATTR_DESTROY_QP_RESP	= 1,
};

enum ovb_methods_srq {
	OVB_METHOD_SRQ_CREATE	= 0,
	OVB_METHOD_SRQ_DESTROY	= 1,
};

enum ovb_attrs_create_srq_cmd_attr_ids {
	OVB_ATTR_CREATE_SRQ_HANDLE		= 0,
	OVB_ATTR_CREATE_SRQ_PD_HANDLE		= 1,
	OVB_ATTR_CREATE_SRQ_XRCD_HANDLE		= 2,
	OVB_ATTR_CREATE_SRQ_CQ_HANDLE		= 3,
	OVB_ATTR_CREATE_SRQ_USER_HANDLE		= 4,
	OVB_ATTR_CREATE_SRQ_MAX_WR		= 5,
	OVB_ATTR_CREATE_SRQ_MAX_SGE		= 6,
	OVB_ATTR_CREATE_SRQ_LIMIT		= 7,
	OVB_ATTR_CREATE_SRQ_MAX_NUM_TAGS	= 8,
	OVB_ATTR_CREATE_SRQ_TYPE		= 9,
	OVB_ATTR_CREATE_SRQ_EVENT_FD		= 10,
	OVB_ATTR_CREATE_SRQ_RESP_MAX_WR		= 11,
	OVB_ATTR_CREATE_SRQ_RESP_MAX_SGE	= 12,
	OVB_ATTR_CREATE_SRQ_RESP_SRQ_NUM	= 13,
};

enum ovb_attrs_destroy_srq_cmd_attr_ids {
	OVB_ATTR_DESTROY_SRQ_HANDLE	= 0,
	OVB_ATTR_DESTROY_SRQ_RESP	= 1,
};

enum ovb_methods_wq {
	OVB_METHOD_WQ_CREATE	= 0,
	OVB_METHOD_WQ_DESTROY	= 1,
};

enum ovb_attrs_create_wq_cmd_attr_ids {
	OVB_ATTR_CREATE_WQ_HANDLE	= 0,
	OVB_ATTR_CREATE_WQ_PD_HANDLE	= 1,
	OVB_ATTR_CREATE_WQ_CQ_HANDLE	= 2,
	OVB_ATTR_CREATE_WQ_USER_HANDLE	= 3,
	OVB_ATTR_CREATE_WQ_TYPE		= 4,
	OVB_ATTR_CREATE_WQ_EVENT_FD	= 5,
	OVB_ATTR_CREATE_WQ_MAX_WR	= 6,
	OVB_ATTR_CREATE_WQ_MAX_SGE	= 7,
	OVB_ATTR_CREATE_WQ_FLAGS	= 8,
	OVB_ATTR_CREATE_WQ_RESP_MAX_WR	= 9,
	OVB_ATTR_CREATE_WQ_RESP_MAX_SGE	= 10,
	OVB_ATTR_CREATE_WQ_RESP_WQ_NUM	= 11,
};

enum ovb_attrs_destroy_wq_cmd_attr_ids {
	OVB_ATTR_DESTROY_WQ_HANDLE	= 0,
	OVB_ATTR_DESTROY_WQ_RESP	= 1,
};

enum ovb_methods_rwq_ind_tbl {
	OVB_METHOD_RWQ_IND_TBL_DESTROY	= 0,
};

enum ovb_attrs_rwq_ind_tbl_destroy_ids {
	OVB_ATTR_DESTROY_RWQ_IND_TBL_HANDLE	= 0,
};

/* --------------------------------------------- ah, mr, mw, xrcd, dm */

enum ovb_methods_ah {
	OVB_METHOD_AH_DESTROY	= 0,
};

enum ovb_attrs_ah_destroy_ids {
	OVB_ATTR_DESTROY_AH_HANDLE	= 0,
};

enum ovb_methods_mr {
	OVB_METHOD_DM_MR_REG		= 0,
	OVB_METHOD_MR_DESTROY		= 1,
	OVB_METHOD_ADVISE_MR		= 2,
	OVB_METHOD_QUERY_MR		= 3,
	OVB_METHOD_REG_DMABUF_MR	= 4,
};

enum ovb_attrs_reg_dm_mr_cmd_attr_ids {
	OVB_ATTR_REG_DM_MR_HANDLE	= 0,
	OVB_ATTR_REG_DM_MR_OFFSET	= 1,
	OVB_ATTR_REG_DM_MR_LENGTH	= 2,
	OVB_ATTR_REG_DM_MR_PD_HANDLE	= 3,
	OVB_ATTR_REG_DM_MR_ACCESS_FLAGS	= 4,
	OVB_ATTR_REG_DM_MR_DM_HANDLE	= 5,
	OVB_ATTR_REG_DM_MR_RESP_LKEY	= 6,
	OVB_ATTR_REG_DM_MR_RESP_RKEY	= 7,
};

enum ovb_attrs_mr_destroy_ids {
	OVB_ATTR_DESTROY_MR_HANDLE	= 0,
};

enum ovb_attrs_advise_mr_cmd_attr_ids {
	OVB_ATTR_ADVISE_MR_PD_HANDLE	= 0,
	OVB_ATTR_ADVISE_MR_ADVICE	= 1,
	OVB_ATTR_ADVISE_MR_FLAGS	= 2,
	OVB_ATTR_ADVISE_MR_SGE_LIST	= 3,
};

enum ovb_attrs_query_mr_cmd_attr_ids {
	OVB_ATTR_QUERY_MR_HANDLE	= 0,
	OVB_ATTR_QUERY_MR_RESP_LKEY	= 1,
	OVB_ATTR_QUERY_MR_RESP_RKEY	= 2,
	OVB_ATTR_QUERY_MR_RESP_LENGTH	= 3,
	OVB_ATTR_QUERY_MR_RESP_IOVA	= 4,
};

enum ovb_attrs_reg_dmabuf_mr_cmd_attr_ids {
	OVB_ATTR_REG_DMABUF_MR_HANDLE		= 0,
	OVB_ATTR_REG_DMABUF_MR_PD_HANDLE	= 1,
	OVB_ATTR_REG_DMABUF_MR_OFFSET		= 2,
	OVB_ATTR_REG_DMABUF_MR_LENGTH		= 3,
	OVB_ATTR_REG_DMABUF_MR_IOVA		= 4,
	OVB_ATTR_REG_DMABUF_MR_FD		= 5,
	OVB_ATTR_REG_DMABUF_MR_ACCESS_FLAGS	= 6,
	OVB_ATTR_REG_DMABUF_MR_RESP_LKEY	= 7,
	OVB_ATTR_REG_DMABUF_MR_RESP_RKEY	= 8,
};

enum ovb_methods_mw {
	OVB_METHOD_MW_DESTROY	= 0,
};

enum ovb_attrs_mw_destroy_ids {
	OVB_ATTR_DESTROY_MW_HANDLE	= 0,
};

enum ovb_methods_xrcd {
	OVB_METHOD_XRCD_DESTROY	= 0,
};

enum ovb_attrs_xrcd_destroy_ids {
	OVB_ATTR_DESTROY_XRCD_HANDLE	= 0,
};

enum ovb_methods_dm {
	OVB_METHOD_DM_ALLOC	= 0,
	OVB_METHOD_DM_FREE	= 1,
};

enum ovb_attrs_alloc_dm_cmd_attr_ids {
	OVB_ATTR_ALLOC_DM_HANDLE	= 0,
	OVB_ATTR_ALLOC_DM_LENGTH	= 1,
	OVB_ATTR_ALLOC_DM_ALIGNMENT	= 2,
};

enum ovb_attrs_free_dm_cmd_attr_ids {
	OVB_ATTR_FREE_DM_HANDLE	= 0,
};

/* -------------------------------------- flow, flow action, counters */

enum ovb_methods_flow {
	OVB_METHOD_FLOW_DESTROY	= 0,
};

enum ovb_attrs_flow_destroy_ids {
	OVB_ATTR_DESTROY_FLOW_HANDLE	= 0,
};

enum ovb_methods_actions_flow_action_ops {
	OVB_METHOD_FLOW_ACTION_ESP_CREATE	= 0,
	OVB_METHOD_FLOW_ACTION_DESTROY		= 1,
	OVB_METHOD_FLOW_ACTION_ESP_MODIFY	= 2,
};

enum ovb_attrs_create_flow_action_esp {
	OVB_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE	= 0,
	OVB_ATTR_FLOW_ACTION_ESP_ATTRS		= 1,
	OVB_ATTR_FLOW_ACTION_ESP_ESN		= 2,
	OVB_ATTR_FLOW_ACTION_ESP_KEYMAT		= 3,
	OVB_ATTR_FLOW_ACTION_ESP_REPLAY		= 4,
	OVB_ATTR_FLOW_ACTION_ESP_ENCAP		= 5,
};

/* MODIFY names the flow action by the same id as CREATE. */
enum ovb_attrs_modify_flow_action_esp {
	OVB_ATTR_MODIFY_FLOW_ACTION_ESP_HANDLE	= 0,
};

enum ovb_attrs_destroy_flow_action_esp {
	OVB_ATTR_DESTROY_FLOW_ACTION_HANDLE	= 0,
};

enum ovb_methods_actions_counters_ops {
	OVB_METHOD_COUNTERS_CREATE	= 0,
	OVB_METHOD_COUNTERS_DESTROY	= 1,
	OVB_METHOD_COUNTERS_READ	= 2,
};

enum ovb_attrs_create_counters_cmd_attr_ids {
	OVB_ATTR_CREATE_COUNTERS_HANDLE	= 0,
};

enum ovb_attrs_destroy_counters_cmd_attr_ids {
	OVB_ATTR_DESTROY_COUNTERS_HANDLE	= 0,
};

enum ovb_attrs_read_counters_cmd_attr_ids {
	OVB_ATTR_READ_COUNTERS_HANDLE	= 0,
	OVB_ATTR_READ_COUNTERS_BUFF	= 1,
	OVB_ATTR_READ_COUNTERS_FLAGS	= 2,
};

/* ------------------------------------- values carried in attributes */

/* GET_CONTEXT / QUERY_CONTEXT CORE_SUPPORT bits. */
enum ovb_core_support {
	OVB_CORE_SUPPORT_OPTIONAL_MR_ACCESS	= 1 << 0,
};

/* Access bits from FIRST to LAST are optional: a kernel may ignore them. */
#define OVB_ACCESS_OPTIONAL_FIRST	(1 << 20)
#define OVB_ACCESS_OPTIONAL_LAST	(1 << 29)

/*
 * MR access bits (REG_DM_MR, REG_DMABUF_MR, and the write() reg_mr).
 * OPTIONAL_RANGE is bits 20..29.
 */
enum ovb_access_flags {
	OVB_ACCESS_LOCAL_WRITE		= 1 << 0,
	OVB_ACCESS_REMOTE_WRITE		= 1 << 1,
	OVB_ACCESS_REMOTE_READ		= 1 << 2,
	OVB_ACCESS_REMOTE_ATOMIC	= 1 << 3,
	OVB_ACCESS_MW_BIND		= 1 << 4,
	OVB_ACCESS_ZERO_BASED		= 1 << 5,
	OVB_ACCESS_ON_DEMAND		= 1 << 6,
	OVB_ACCESS_HUGETLB		= 1 << 7,
	/* since 6.2 */
	OVB_ACCESS_FLUSH_GLOBAL		= 1 << 8,
	OVB_ACCESS_FLUSH_PERSISTENT	= 1 << 9,
	OVB_ACCESS_RELAXED_ORDERING	= OVB_ACCESS_OPTIONAL_FIRST,
	OVB_ACCESS_OPTIONAL_RANGE	= 0x3ff00000,
};

enum ovb_srq_type {
	OVB_SRQT_BASIC	= 0,
	OVB_SRQT_XRC	= 1,
	OVB_SRQT_TM	= 2,
};

enum ovb_wq_type {
	OVB_WQT_RQ	= 0,
};

enum ovb_wq_flags {
	OVB_WQ_FLAGS_CVLAN_STRIPPING		= 1 << 0,
	OVB_WQ_FLAGS_SCATTER_FCS		= 1 << 1,
	OVB_WQ_FLAGS_DELAY_DROP			= 1 << 2,
	OVB_WQ_FLAGS_PCI_WRITE_END_PADDING	= 1 << 3,
};

/* OVB_ATTR_CREATE_QP_TYPE.  0, 1 and 5..7 are kernel-only types. */
enum ovb_qp_type {
	OVB_QPT_RC		= 2,
	OVB_QPT_UC		= 3,
	OVB_QPT_UD		= 4,
	OVB_QPT_RAW_PACKET	= 8,
	OVB_QPT_XRC_INI		= 9,
	OVB_QPT_XRC_TGT		= 10,
	OVB_QPT_DRIVER		= 0xff,
};

/* OVB_ATTR_CREATE_QP_FLAGS. */
enum ovb_qp_create_flags {
	OVB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK	= 1 << 1,
	OVB_QP_CREATE_SCATTER_FCS		= 1 << 8,
	OVB_QP_CREATE_CVLAN_STRIPPING		= 1 << 9,
	OVB_QP_CREATE_PCI_WRITE_END_PADDING	= 1 << 11,
	OVB_QP_CREATE_SQ_SIG_ALL		= 1 << 12,
};

/* Queue sizes of a QP: asked for in CREATE_QP_CAP, granted in RESP_CAP. */
struct ovb_qp_cap {
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
};

/*
 * Port capability bits (port_cap_flags).  Bit 26 is no IBA bit: the
 * kernel sets it for ports whose GIDs follow IP addresses.
 */
__extension__ enum ovb_query_port_cap_flags {
	OVB_PCF_SM				= 1 << 1,
	OVB_PCF_NOTICE_SUP			= 1 << 2,
	OVB_PCF_TRAP_SUP			= 1 << 3,
	OVB_PCF_OPT_IPD_SUP			= 1 << 4,
	OVB_PCF_AUTO_MIGR_SUP			= 1 << 5,
	OVB_PCF_SL_MAP_SUP			= 1 << 6,
	OVB_PCF_MKEY_NVRAM			= 1 << 7,
	OVB_PCF_PKEY_NVRAM			= 1 << 8,
	OVB_PCF_LED_INFO_SUP			= 1 << 9,
	OVB_PCF_SM_DISABLED			= 1 << 10,
	OVB_PCF_SYS_IMAGE_GUID_SUP		= 1 << 11,
	OVB_PCF_PKEY_SW_EXT_PORT_TRAP_SUP	= 1 << 12,
	OVB_PCF_EXTENDED_SPEEDS_SUP		= 1 << 14,
	OVB_PCF_CM_SUP				= 1 << 16,
	OVB_PCF_SNMP_TUNNEL_SUP			= 1 << 17,
	OVB_PCF_REINIT_SUP			= 1 << 18,
	OVB_PCF_DEVICE_MGMT_SUP			= 1 << 19,
	OVB_PCF_VENDOR_CLASS_SUP		= 1 << 20,
	OVB_PCF_DR_NOTICE_SUP			= 1 << 21,
	OVB_PCF_CAP_MASK_NOTICE_SUP		= 1 << 22,
	OVB_PCF_BOOT_MGMT_SUP			= 1 << 23,
	OVB_PCF_LINK_LATENCY_SUP		= 1 << 24,
	OVB_PCF_CLIENT_REG_SUP			= 1 << 25,
	OVB_PCF_LINK_SPEED_WIDTH_TABLE_SUP	= 1 << 27,
	OVB_PCF_VENDOR_SPECIFIC_MADS_TABLE_SUP	= 1 << 28,
	OVB_PCF_MCAST_PKEY_TRAP_SUPPRESSION_SUP	= 1 << 29,
	OVB_PCF_MCAST_FDB_TOP_SUP		= 1 << 30,
	OVB_PCF_HIERARCHY_INFO_SUP		= 1u << 31,
	OVB_PCF_IP_BASED_GIDS			= 1 << 26,
};

/* ovb_query_port_resp.flags. */
enum ovb_query_port_flags {
	OVB_QPF_GRH_REQUIRED	= 1 << 0,
};

/*
 * OVB_ATTR_QUERY_PORT_RESP: the write() answer, the second cap word and
 * (since 6.7) the extended speed.  6.1 has reserved[6] where reserved[2]
 * and active_speed_ex are: the same bytes, zero there.
 */
struct ovb_query_port_resp_ex {
	struct ovb_query_port_resp legacy_resp;
	__u16 port_cap_flags2;
	__u8  reserved[2];
	__u32 active_speed_ex;
};

enum ovb_gid_type {
	OVB_GID_TYPE_IB		= 0,
	OVB_GID_TYPE_ROCE_V1	= 1,
	OVB_GID_TYPE_ROCE_V2	= 2,
};

/* One GID table entry (QUERY_GID_TABLE, QUERY_GID_ENTRY). */
struct ovb_gid_entry {
	__aligned_u64 gid[2];
	__u32 gid_index;
	__u32 port_num;
	__u32 gid_type;			/* enum ovb_gid_type */
	__u32 netdev_ifindex;		/* 0: no netdev */
};

enum ovb_read_counters_flags {
	OVB_READ_COUNTERS_PREFER_CACHED	= 1 << 0,
};

enum ovb_advise_mr_advice {
	OVB_ADVISE_MR_ADVICE_PREFETCH		= 0,
	OVB_ADVISE_MR_ADVICE_PREFETCH_WRITE	= 1,
	OVB_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT	= 2,
};

enum ovb_advise_mr_flag {
	OVB_ADVISE_MR_FLAG_FLUSH	= 1 << 0,
};

/* IPsec ESP flow actions (FLOW_ACTION_ESP_CREATE / _MODIFY). */
enum ovb_flow_action_esp_keymat {
	OVB_FLOW_ACTION_ESP_KEYMAT_AES_GCM	= 0,
};

enum ovb_flow_action_esp_keymat_aes_gcm_iv_algo {
	OVB_FLOW_ACTION_IV_ALGO_SEQ	= 0,
};

struct ovb_flow_action_esp_keymat_aes_gcm {
	__aligned_u64 iv;
	__u32 iv_algo;			/* OVB_FLOW_ACTION_IV_ALGO_* */
	__u32 salt;
	__u32 icv_len;
	__u32 key_len;
	__u32 aes_key[8];		/* up to 256 bits */
};

enum ovb_flow_action_esp_replay {
	OVB_FLOW_ACTION_ESP_REPLAY_NONE	= 0,
	OVB_FLOW_ACTION_ESP_REPLAY_BMP	= 1,
};

struct ovb_flow_action_esp_replay_bmp {
	__u32 size;
};

/* Each pair is one bit: the 0 value is the default. */
enum ovb_flow_action_esp_flags {
	OVB_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO		= 0,
	OVB_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD		= 1,
	OVB_FLOW_ACTION_ESP_FLAGS_TUNNEL		= 0,
	OVB_FLOW_ACTION_ESP_FLAGS_TRANSPORT		= 2,
	OVB_FLOW_ACTION_ESP_FLAGS_DECRYPT		= 0,
	OVB_FLOW_ACTION_ESP_FLAGS_ENCRYPT		= 4,
	OVB_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW	= 8,
};

/* A chain of headers to encapsulate in, each a flow filter of type type. */
struct ovb_flow_action_esp_encap {
	__aligned_u64 val_ptr;		/* the filter, len bytes */
	__aligned_u64 next_ptr;		/* the next encap, or 0 */
	__u16 len;
	__u16 type;
};

struct ovb_flow_action_esp {
	__u32 spi;
	__u32 seq;
	__u32 tfc_pad;
	__u32 flags;			/* enum ovb_flow_action_esp_flags */
	__aligned_u64 hard_limit_pkts;
};

/*
 * ovb_ioctl_hdr.driver_id and the netlink driver id of a device: which
 * provider speaks its driver ABI.  I40IW was renamed IRDMA: one value.
 */
enum ovb_driver_id {
	OVB_DRIVER_UNKNOWN	= 0,
	OVB_DRIVER_MLX5		= 1,
	OVB_DRIVER_MLX4		= 2,
	OVB_DRIVER_CXGB3	= 3,
	OVB_DRIVER_CXGB4	= 4,
	OVB_DRIVER_MTHCA	= 5,
	OVB_DRIVER_BNXT_RE	= 6,
	OVB_DRIVER_OCRDMA	= 7,
	OVB_DRIVER_NES		= 8,
	OVB_DRIVER_I40IW	= 9,
	OVB_DRIVER_IRDMA	= 9,
	OVB_DRIVER_VMW_PVRDMA	= 10,
	OVB_DRIVER_QEDR		= 11,
	OVB_DRIVER_HNS		= 12,
	OVB_DRIVER_USNIC	= 13,
	OVB_DRIVER_RXE		= 14,
	OVB_DRIVER_HFI1		= 15,
	OVB_DRIVER_QIB		= 16,
	OVB_DRIVER_EFA		= 17,
	OVB_DRIVER_SIW		= 18,
	OVB_DRIVER_ERDMA	= 19,
	OVB_DRIVER_MANA		= 20,	/* since 6.2 */
};

#endif /* OPENVERBS_UAPI_IOCTL_ABI_H */
