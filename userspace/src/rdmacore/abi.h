// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core 44's private provider ABI (IBVERBS_PRIVATE_34), as its
// providers (lib<name>-rdmav34.so) see it.  rdma-core keeps these types in
// its uninstalled driver.h, so they are declared here from the facts of
// that version: member order and types are the ABI, checked by the
// static_asserts below (x86_64 numbers) and rdmacore_abi_test.  Types a
// public header already has are taken from it with decltype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <sys/types.h>

#include <infiniband/verbs.h>

#include <openverbs/ioctl-abi.h>
#include <openverbs/provider.h>

namespace ovb::rdmacore {

// verbs_match_ent::kind
enum MatchKind : uint8_t {
	kMatchSentinel = 0,
	kMatchPci = 1,
	kMatchModalias = 2,
	kMatchDriverId = 3,
};

struct MatchEnt {
	void *driver_data;
	union {
		const char *modalias;
		uint64_t driver_id;
	} u;
	uint16_t vendor;
	uint16_t device;
	uint8_t kind;
};

// verbs_sysfs_dev::flags: which lazily read fields are valid.
enum : unsigned { kSysfsReadModalias = 1, kSysfsReadNodeGuid = 2 };

struct ListNode {
	ListNode *next, *prev;
};

// struct verbs_sysfs_dev: one kernel device as handed to a provider.
struct SysfsDev {
	ListNode entry;
	void *provider_data;
	const MatchEnt *match;
	unsigned int flags;
	char sysfs_name[IBV_SYSFS_NAME_MAX];
	dev_t sysfs_cdev;
	char ibdev_name[IBV_SYSFS_NAME_MAX];
	char ibdev_path[IBV_SYSFS_PATH_MAX];
	char modalias[512];
	uint64_t node_guid;
	uint32_t driver_id;
	ibv_node_type node_type;
	int ibdev_idx;
	uint32_t num_ports;
	uint32_t abi_ver;
	timespec time_created;
};

struct VerbsDevice;

// struct verbs_device_ops: what verbs_register_driver_34 receives.
struct DeviceOps {
	const char *name;
	uint32_t match_min_abi_version;
	uint32_t match_max_abi_version;
	const MatchEnt *match_table;
	const DeviceOps **static_providers;
	bool (*match_device)(SysfsDev *sysfs_dev);
	verbs_context *(*alloc_context)(ibv_device *device, int cmd_fd,
					void *private_data);
	verbs_context *(*import_context)(ibv_device *device, int cmd_fd);
	VerbsDevice *(*alloc_device)(SysfsDev *sysfs_dev);
	void (*uninit_device)(VerbsDevice *device);
};

// struct verbs_device: the head of the provider's device object.
struct VerbsDevice {
	ibv_device device;
	const DeviceOps *ops;
	int refcount;		// atomic_int
	ListNode entry;
	SysfsDev *sysfs;
	uint64_t core_support;
};

// struct verbs_mr: dereg_mr and rereg_mr receive it.
struct VerbsMr {
	ibv_mr mr;
	int mr_type;		// enum ibv_mr_type
	int access;
};
// enum ibv_mr_type
enum MrType : int {
	kMrTypeMr = 0,
	kMrTypeNullMr = 1,
	kMrTypeImportedMr = 2,
	kMrTypeDmabufMr = 3,
};

// struct verbs_cq / verbs_qp / verbs_srq heads (the ibv object first).
struct VerbsQp {
	union {
		ibv_qp qp;
		ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;	// kVerbsQpXrcd, kVerbsQpEx
	void *xrcd;		// struct verbs_xrcd *
};
// VERBS_QP_XRCD, VERBS_QP_EX: the provider made the QP with an XRC domain,
// with extended send ops (ibv_qp_to_qp_ex() answers only then).
constexpr uint32_t kVerbsQpXrcd = 1u << 0;
constexpr uint32_t kVerbsQpEx = 1u << 1;

// struct verbs_xrcd: open_xrcd fills the handle when the provider's
// object has room for it (vxrcd_size), saying so in comp_mask.
struct VerbsXrcd {
	ibv_xrcd xrcd;
	uint32_t comp_mask;	// kVerbsXrcdHandle
	uint32_t handle;
};
constexpr uint32_t kVerbsXrcdHandle = 1u << 0;

// struct verbs_dm, struct verbs_counters: the kernel handle after the
// public object.
// struct verbs_flow_action
struct VerbsFlowAction {
	ibv_flow_action action;
	uint32_t handle;
	int type;		// enum ibv_flow_action_type
};
constexpr int kFlowActionEsp = 1;	// IBV_FLOW_ACTION_ESP
struct VerbsDm {
	ibv_dm dm;
	uint32_t handle;
};
struct VerbsCounters {
	ibv_counters counters;
	uint32_t handle;
};

struct VerbsSrq {
	ibv_srq srq;
	ibv_srq_type srq_type;
	void *xrcd;
	ibv_cq *cq;
	uint32_t srq_num;
};

// struct ibv_command_buffer (rdma-core's cmd_ioctl.h): an ioctl call a
// provider builds on its stack with rdma-core's inline fill helpers,
// possibly chained (next) to a buffer of driver attributes, and hands to
// execute_ioctl.
struct CommandBuffer {
	CommandBuffer *next;
	ovb_ioctl_attr *next_attr;	// one past the last attribute filled
	ovb_ioctl_attr *last_attr;	// end of the room
	uint8_t uhw_in_idx;		// kNoUhw, or the UHW_IN attribute
	uint8_t uhw_out_idx;
	uint8_t uhw_in_headroom_dwords;
	uint8_t uhw_out_headroom_dwords;
	uint8_t buffer_error : 1;	// a fill helper could not marshal
	uint8_t fallback_require_ex : 1;
	uint8_t fallback_ioctl_only : 1;
	ovb_ioctl_hdr hdr;		// attrs[] follow
};
constexpr uint8_t kNoUhw = 0xff;

// struct verbs_context_ops, sorted by name as rdma-core keeps it.
#define OVB_VC(m) decltype(verbs_context::m) m
#define OVB_CO(m) decltype(ibv_context_ops::m) m
#define OVB_OV(m) decltype(ovb_context_ops::m) m
struct ContextOps {
	OVB_VC(advise_mr);
	OVB_VC(alloc_dm);
	OVB_OV(alloc_mw);
	OVB_VC(alloc_null_mr);
	OVB_VC(alloc_parent_domain);
	OVB_OV(alloc_pd);
	OVB_VC(alloc_td);
	void (*async_event)(ibv_context *ctx, ibv_async_event *event);
	OVB_VC(attach_counters_point_flow);
	OVB_OV(attach_mcast);
	OVB_OV(bind_mw);
	OVB_VC(close_xrcd);
	void (*cq_event)(ibv_cq *cq);
	OVB_OV(create_ah);
	OVB_VC(create_counters);
	OVB_OV(create_cq);
	OVB_OV(create_cq_ex);
	decltype(verbs_context::ibv_create_flow) create_flow;
	OVB_VC(create_flow_action_esp);
	OVB_OV(create_qp);
	OVB_OV(create_qp_ex);
	OVB_VC(create_rwq_ind_table);
	OVB_OV(create_srq);
	OVB_VC(create_srq_ex);
	OVB_VC(create_wq);
	OVB_OV(dealloc_mw);
	OVB_OV(dealloc_pd);
	OVB_VC(dealloc_td);
	int (*dereg_mr)(VerbsMr *vmr);
	OVB_OV(destroy_ah);
	OVB_VC(destroy_counters);
	OVB_OV(destroy_cq);
	decltype(verbs_context::ibv_destroy_flow) destroy_flow;
	OVB_VC(destroy_flow_action);
	OVB_OV(destroy_qp);
	OVB_VC(destroy_rwq_ind_table);
	OVB_OV(destroy_srq);
	OVB_VC(destroy_wq);
	OVB_OV(detach_mcast);
	OVB_OV(free_context);
	OVB_VC(free_dm);
	OVB_VC(get_srq_num);
	ibv_dm *(*import_dm)(ibv_context *ctx, uint32_t dm_handle);
	ibv_mr *(*import_mr)(ibv_pd *pd, uint32_t mr_handle);
	ibv_pd *(*import_pd)(ibv_context *ctx, uint32_t pd_handle);
	OVB_VC(modify_cq);
	OVB_VC(modify_flow_action_esp);
	OVB_OV(modify_qp);
	OVB_VC(modify_qp_rate_limit);
	OVB_OV(modify_srq);
	OVB_VC(modify_wq);
	OVB_VC(open_qp);
	OVB_VC(open_xrcd);
	OVB_CO(poll_cq);
	OVB_CO(post_recv);
	OVB_CO(post_send);
	OVB_VC(post_srq_ops);
	OVB_CO(post_srq_recv);
	OVB_OV(query_device_ex);
	int (*query_ece)(ibv_qp *qp, ibv_ece *ece);
	int (*query_port)(ibv_context *ctx, uint8_t port, ibv_port_attr *attr);
	OVB_OV(query_qp);
	int (*query_qp_data_in_order)(ibv_qp *qp, ibv_wr_opcode op,
				      uint32_t flags);
	OVB_VC(query_rt_values);
	OVB_OV(query_srq);
	OVB_VC(read_counters);
	OVB_VC(reg_dm_mr);
	ibv_mr *(*reg_dmabuf_mr)(ibv_pd *pd, uint64_t offset, size_t length,
				uint64_t iova, int fd, int access);
	OVB_OV(reg_mr);
	OVB_CO(req_notify_cq);
	int (*rereg_mr)(VerbsMr *vmr, int flags, ibv_pd *pd, void *addr,
			size_t length, int access);
	OVB_OV(resize_cq);
	int (*set_ece)(ibv_qp *qp, ibv_ece *ece);
	void (*unimport_dm)(ibv_dm *dm);
	void (*unimport_mr)(ibv_mr *mr);
	void (*unimport_pd)(ibv_pd *pd);
};
#undef OVB_VC
#undef OVB_CO
#undef OVB_OV

// Sizes and offsets of rdma-core 44 on x86_64 (LP64).
static_assert(sizeof(MatchEnt) == 24 && offsetof(MatchEnt, kind) == 20);
static_assert(sizeof(SysfsDev) == 992);
static_assert(offsetof(SysfsDev, sysfs_cdev) == 104);
static_assert(offsetof(SysfsDev, ibdev_path) == 176);
static_assert(offsetof(SysfsDev, modalias) == 432);
static_assert(offsetof(SysfsDev, abi_ver) == 968);
static_assert(sizeof(DeviceOps) == 72);
static_assert(offsetof(DeviceOps, alloc_device) == 56);
static_assert(sizeof(VerbsDevice) == 712);
static_assert(offsetof(VerbsDevice, sysfs) == 696);
static_assert(sizeof(ContextOps) == 76 * sizeof(void *));
static_assert(offsetof(ContextOps, free_context) == 39 * sizeof(void *));
static_assert(offsetof(ContextOps, poll_cq) == 53 * sizeof(void *));
static_assert(offsetof(ContextOps, query_port) == 60 * sizeof(void *));
static_assert(offsetof(CommandBuffer, uhw_in_idx) == 24);
static_assert(offsetof(CommandBuffer, hdr) == 32 && sizeof(CommandBuffer) == 56);
static_assert(sizeof(ovb_ioctl_attr) == 16 && sizeof(ovb_ioctl_hdr) == 24);
static_assert(sizeof(VerbsMr) == sizeof(ibv_mr) + 8 && offsetof(VerbsMr, mr) == 0);
static_assert(offsetof(VerbsQp, comp_mask) == sizeof(ibv_qp_ex));
static_assert(offsetof(VerbsSrq, srq_num) == sizeof(ibv_srq) + 24);
static_assert(offsetof(VerbsDm, handle) == sizeof(ibv_dm) &&
	      offsetof(VerbsCounters, handle) == sizeof(ibv_counters));
static_assert(offsetof(VerbsXrcd, handle) == sizeof(ibv_xrcd) + 4 &&
	      sizeof(VerbsXrcd) == sizeof(ibv_xrcd) + 8);

} // namespace ovb::rdmacore
