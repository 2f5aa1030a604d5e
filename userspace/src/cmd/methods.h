// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Every ioctl method the library sends, as data: the argument struct a
// caller fills and the attribute table encode() walks, in the order
// rdma-core 44 sends them (so the kernel sees the same calls).  Ids and the
// structs the kernel reads or writes are the uapi's (uapi/openverbs/
// ioctl-abi.h and uverbs-abi.h).
#pragma once

#include <cstddef>

#include <openverbs/ioctl-abi.h>

#include <openverbs/uverbs-abi.h>

#include "ioctl.h"

namespace ovb::ioctl {

inline constexpr uint16_t M = OVB_ATTR_F_MANDATORY;

#define OVB_A(S, member, id, kind, flags)                                       \
	Attr{id, Kind::kind, flags, offsetof(S, member), sizeof(S::member), kAlways}
#define OVB_A_IF(S, cond, member, id, kind, flags)                              \
	Attr{id, Kind::kind, flags, offsetof(S, member), sizeof(S::member),     \
	     offsetof(S, cond)}
#define OVB_METHOD(obj, meth, bit, table)                                       \
	Method{OVB_OBJECT_##obj, OVB_METHOD_##meth, bit, table, #meth,          \
	       creates(table)}

// ------------------------------------------------------------- device
struct GetContext {
	uint32_t num_comp_vectors;
	uint64_t core_support;
};
inline constexpr Attr kGetContextAttrs[] = {
	OVB_A(GetContext, num_comp_vectors, OVB_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, out, M),
	OVB_A(GetContext, core_support, OVB_ATTR_GET_CONTEXT_CORE_SUPPORT, out, M),
};
inline constexpr Method kGetContextM =
	OVB_METHOD(DEVICE, GET_CONTEXT, kGetContext, kGetContextAttrs);

struct AsyncAlloc {
	int32_t fd;
};
inline constexpr Attr kAsyncAllocAttrs[] = {
	OVB_A(AsyncAlloc, fd, OVB_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, fd_new, M),
};
inline constexpr Method kAsyncAllocM =
	OVB_METHOD(ASYNC_EVENT, ASYNC_EVENT_ALLOC, kNoFallback, kAsyncAllocAttrs);

struct QueryPort {
	uint64_t port;
	ovb_query_port_resp_ex resp;
};
inline constexpr Attr kQueryPortAttrs[] = {
	OVB_A(QueryPort, port, OVB_ATTR_QUERY_PORT_PORT_NUM, in, M),
	OVB_A(QueryPort, resp, OVB_ATTR_QUERY_PORT_RESP, out, M),
};
inline constexpr Method kQueryPortM =
	OVB_METHOD(DEVICE, QUERY_PORT, kQueryPort, kQueryPortAttrs);

struct QueryGidEntry {
	uint64_t port;
	uint64_t index;
	uint32_t flags;
	Buf entry;
};
inline constexpr Attr kQueryGidEntryAttrs[] = {
	OVB_A(QueryGidEntry, port, OVB_ATTR_QUERY_GID_ENTRY_PORT, in, M),
	OVB_A(QueryGidEntry, index, OVB_ATTR_QUERY_GID_ENTRY_GID_INDEX, in, M),
	OVB_A(QueryGidEntry, flags, OVB_ATTR_QUERY_GID_ENTRY_FLAGS, in, M),
	OVB_A(QueryGidEntry, entry, OVB_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, out_buf, M),
};
inline constexpr Method kQueryGidEntryM =
	OVB_METHOD(DEVICE, QUERY_GID_ENTRY, kQueryGid, kQueryGidEntryAttrs);

struct QueryGidTable {
	uint64_t entry_size;
	uint32_t flags;
	Buf entries;
	uint64_t num_entries;
};
inline constexpr Attr kQueryGidTableAttrs[] = {
	OVB_A(QueryGidTable, entry_size, OVB_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, in, M),
	OVB_A(QueryGidTable, flags, OVB_ATTR_QUERY_GID_TABLE_FLAGS, in, M),
	OVB_A(QueryGidTable, entries, OVB_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, out_buf, M),
	OVB_A(QueryGidTable, num_entries, OVB_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, out, M),
};
inline constexpr Method kQueryGidTableM =
	OVB_METHOD(DEVICE, QUERY_GID_TABLE, kQueryGid, kQueryGidTableAttrs);

// ----------------------------------------------------------------- CQ
struct CreateCq {
	uint32_t handle;
	uint32_t resp_cqe;
	uint32_t cqe;
	uint64_t user_handle;
	int32_t channel;
	uint32_t comp_vector;
	int32_t event_fd;
	uint32_t flags;
	bool has_flags;
};
inline constexpr Attr kCreateCqAttrs[] = {
	OVB_A(CreateCq, handle, OVB_ATTR_CREATE_CQ_HANDLE, obj_new, M),
	OVB_A(CreateCq, resp_cqe, OVB_ATTR_CREATE_CQ_RESP_CQE, out, M),
	OVB_A(CreateCq, cqe, OVB_ATTR_CREATE_CQ_CQE, in, M),
	OVB_A(CreateCq, user_handle, OVB_ATTR_CREATE_CQ_USER_HANDLE, in, M),
	OVB_A(CreateCq, channel, OVB_ATTR_CREATE_CQ_COMP_CHANNEL, fd_in, M),
	OVB_A(CreateCq, comp_vector, OVB_ATTR_CREATE_CQ_COMP_VECTOR, in, M),
	// Optional, so that a kernel without it can still fall back.
	OVB_A(CreateCq, event_fd, OVB_ATTR_CREATE_CQ_EVENT_FD, fd_in, 0),
	OVB_A_IF(CreateCq, has_flags, flags, OVB_ATTR_CREATE_CQ_FLAGS, in, M),
};
inline constexpr Method kCreateCqM =
	OVB_METHOD(CQ, CQ_CREATE, kCreateCq, kCreateCqAttrs);

struct DestroyCq {
	ovb_destroy_cq_resp resp;
	uint32_t handle;
};
inline constexpr Attr kDestroyCqAttrs[] = {
	OVB_A(DestroyCq, resp, OVB_ATTR_DESTROY_CQ_RESP, out, M),
	OVB_A(DestroyCq, handle, OVB_ATTR_DESTROY_CQ_HANDLE, obj_in, M),
};
inline constexpr Method kDestroyCqM =
	OVB_METHOD(CQ, CQ_DESTROY, kDestroyCq, kDestroyCqAttrs);

// ----------------------------------------------------------------- QP
struct CreateQp {
	uint32_t xrcd;
	uint32_t pd;
	uint32_t send_cq;
	uint32_t recv_cq;
	uint32_t handle;
	uint64_t type;
	uint64_t user_handle;
	ovb_qp_cap cap;
	int32_t event_fd;
	uint32_t flags;
	uint32_t srq;
	ovb_qp_cap resp_cap;
	uint32_t qp_num;
	uint32_t ind_table;
	uint32_t source_qpn;
	bool has_xrcd, has_pd, has_send_cq, has_recv_cq, has_flags, has_srq;
	bool has_ind_table, has_source_qpn;
};
inline constexpr Attr kCreateQpAttrs[] = {
	OVB_A_IF(CreateQp, has_xrcd, xrcd, OVB_ATTR_CREATE_QP_XRCD_HANDLE, obj_in, M),
	OVB_A_IF(CreateQp, has_pd, pd, OVB_ATTR_CREATE_QP_PD_HANDLE, obj_in, M),
	OVB_A_IF(CreateQp, has_ind_table, ind_table, OVB_ATTR_CREATE_QP_IND_TABLE_HANDLE, obj_in, M),
	OVB_A_IF(CreateQp, has_send_cq, send_cq, OVB_ATTR_CREATE_QP_SEND_CQ_HANDLE, obj_in, M),
	OVB_A_IF(CreateQp, has_recv_cq, recv_cq, OVB_ATTR_CREATE_QP_RECV_CQ_HANDLE, obj_in, M),
	OVB_A(CreateQp, handle, OVB_ATTR_CREATE_QP_HANDLE, obj_new, M),
	OVB_A(CreateQp, type, OVB_ATTR_CREATE_QP_TYPE, in, M),
	OVB_A(CreateQp, user_handle, OVB_ATTR_CREATE_QP_USER_HANDLE, in, M),
	OVB_A(CreateQp, cap, OVB_ATTR_CREATE_QP_CAP, in, M),
	OVB_A(CreateQp, event_fd, OVB_ATTR_CREATE_QP_EVENT_FD, fd_in, M),
	OVB_A_IF(CreateQp, has_source_qpn, source_qpn, OVB_ATTR_CREATE_QP_SOURCE_QPN, in, M),
	OVB_A_IF(CreateQp, has_flags, flags, OVB_ATTR_CREATE_QP_FLAGS, in, M),
	OVB_A_IF(CreateQp, has_srq, srq, OVB_ATTR_CREATE_QP_SRQ_HANDLE, obj_in, M),
	OVB_A(CreateQp, resp_cap, OVB_ATTR_CREATE_QP_RESP_CAP, out, M),
	OVB_A(CreateQp, qp_num, OVB_ATTR_CREATE_QP_RESP_QP_NUM, out, M),
};
inline constexpr Method kCreateQpM =
	OVB_METHOD(QP, QP_CREATE, kCreateQp, kCreateQpAttrs);

struct DestroyQp {
	ovb_destroy_qp_resp resp;
	uint32_t handle;
};
inline constexpr Attr kDestroyQpAttrs[] = {
	OVB_A(DestroyQp, resp, OVB_ATTR_DESTROY_QP_RESP, out, M),
	OVB_A(DestroyQp, handle, OVB_ATTR_DESTROY_QP_HANDLE, obj_in, M),
};
inline constexpr Method kDestroyQpM =
	OVB_METHOD(QP, QP_DESTROY, kDestroyQp, kDestroyQpAttrs);

// ---------------------------------------------------------------- SRQ
struct CreateSrq {
	uint32_t xrcd;
	uint32_t cq;
	uint32_t srq_num;
	uint32_t handle;
	uint64_t type;
	uint64_t user_handle;
	uint32_t pd;
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t limit;
	int32_t event_fd;
	uint32_t resp_max_wr;
	uint32_t resp_max_sge;
	uint32_t max_num_tags;
	bool is_xrc, is_tm, has_cq;
};
inline constexpr Attr kCreateSrqAttrs[] = {
	OVB_A_IF(CreateSrq, is_xrc, xrcd, OVB_ATTR_CREATE_SRQ_XRCD_HANDLE, obj_in, M),
	OVB_A_IF(CreateSrq, has_cq, cq, OVB_ATTR_CREATE_SRQ_CQ_HANDLE, obj_in, M),
	OVB_A_IF(CreateSrq, is_xrc, srq_num, OVB_ATTR_CREATE_SRQ_RESP_SRQ_NUM, out, M),
	OVB_A_IF(CreateSrq, is_tm, max_num_tags, OVB_ATTR_CREATE_SRQ_MAX_NUM_TAGS, in, M),
	OVB_A(CreateSrq, handle, OVB_ATTR_CREATE_SRQ_HANDLE, obj_new, M),
	OVB_A(CreateSrq, type, OVB_ATTR_CREATE_SRQ_TYPE, in, M),
	OVB_A(CreateSrq, user_handle, OVB_ATTR_CREATE_SRQ_USER_HANDLE, in, M),
	OVB_A(CreateSrq, pd, OVB_ATTR_CREATE_SRQ_PD_HANDLE, obj_in, M),
	OVB_A(CreateSrq, max_wr, OVB_ATTR_CREATE_SRQ_MAX_WR, in, M),
	OVB_A(CreateSrq, max_sge, OVB_ATTR_CREATE_SRQ_MAX_SGE, in, M),
	OVB_A(CreateSrq, limit, OVB_ATTR_CREATE_SRQ_LIMIT, in, M),
	OVB_A(CreateSrq, event_fd, OVB_ATTR_CREATE_SRQ_EVENT_FD, fd_in, M),
	OVB_A(CreateSrq, resp_max_wr, OVB_ATTR_CREATE_SRQ_RESP_MAX_WR, out, M),
	OVB_A(CreateSrq, resp_max_sge, OVB_ATTR_CREATE_SRQ_RESP_MAX_SGE, out, M),
};
inline constexpr Method kCreateSrqM =
	OVB_METHOD(SRQ, SRQ_CREATE, kCreateSrq, kCreateSrqAttrs);

struct DestroySrq {
	ovb_destroy_srq_resp resp;
	uint32_t handle;
};
inline constexpr Attr kDestroySrqAttrs[] = {
	OVB_A(DestroySrq, resp, OVB_ATTR_DESTROY_SRQ_RESP, out, M),
	OVB_A(DestroySrq, handle, OVB_ATTR_DESTROY_SRQ_HANDLE, obj_in, M),
};
inline constexpr Method kDestroySrqM =
	OVB_METHOD(SRQ, SRQ_DESTROY, kDestroySrq, kDestroySrqAttrs);

// ----------------------------------------------------------------- WQ
struct CreateWq {
	uint32_t handle;
	uint32_t pd;
	uint32_t cq;
	uint64_t user_handle;
	uint64_t type;
	int32_t event_fd;
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t flags;
	uint32_t resp_max_wr;
	uint32_t resp_max_sge;
	uint32_t wq_num;
};
inline constexpr Attr kCreateWqAttrs[] = {
	OVB_A(CreateWq, handle, OVB_ATTR_CREATE_WQ_HANDLE, obj_new, M),
	OVB_A(CreateWq, user_handle, OVB_ATTR_CREATE_WQ_USER_HANDLE, in, M),
	OVB_A(CreateWq, pd, OVB_ATTR_CREATE_WQ_PD_HANDLE, obj_in, M),
	OVB_A(CreateWq, cq, OVB_ATTR_CREATE_WQ_CQ_HANDLE, obj_in, M),
	OVB_A(CreateWq, type, OVB_ATTR_CREATE_WQ_TYPE, in, M),
	OVB_A(CreateWq, max_wr, OVB_ATTR_CREATE_WQ_MAX_WR, in, M),
	OVB_A(CreateWq, max_sge, OVB_ATTR_CREATE_WQ_MAX_SGE, in, M),
	OVB_A(CreateWq, event_fd, OVB_ATTR_CREATE_WQ_EVENT_FD, fd_in, M),
	OVB_A(CreateWq, flags, OVB_ATTR_CREATE_WQ_FLAGS, in, M),
	OVB_A(CreateWq, resp_max_wr, OVB_ATTR_CREATE_WQ_RESP_MAX_WR, out, M),
	OVB_A(CreateWq, resp_max_sge, OVB_ATTR_CREATE_WQ_RESP_MAX_SGE, out, M),
	OVB_A(CreateWq, wq_num, OVB_ATTR_CREATE_WQ_RESP_WQ_NUM, out, M),
};
inline constexpr Method kCreateWqM =
	OVB_METHOD(WQ, WQ_CREATE, kCreateWq, kCreateWqAttrs);

struct DestroyWq {
	uint32_t events_reported;
	uint32_t handle;
};
inline constexpr Attr kDestroyWqAttrs[] = {
	OVB_A(DestroyWq, events_reported, OVB_ATTR_DESTROY_WQ_RESP, out, M),
	OVB_A(DestroyWq, handle, OVB_ATTR_DESTROY_WQ_HANDLE, obj_in, M),
};
inline constexpr Method kDestroyWqM =
	OVB_METHOD(WQ, WQ_DESTROY, kDestroyWq, kDestroyWqAttrs);

// ------------------------------------- objects destroyed by handle only
struct Handle {
	uint32_t handle;
};
#define OVB_DESTROY(name, obj, meth, attr, bit)                                 \
	inline constexpr Attr k##name##Attrs[] = {                              \
		OVB_A(Handle, handle, attr, obj_in, M),                         \
	};                                                                      \
	inline constexpr Method k##name##M = OVB_METHOD(obj, meth, bit, k##name##Attrs)

OVB_DESTROY(DeallocPd, PD, PD_DESTROY, OVB_ATTR_DESTROY_PD_HANDLE, kDeallocPd);
OVB_DESTROY(DeregMr, MR, MR_DESTROY, OVB_ATTR_DESTROY_MR_HANDLE, kDeregMr);
OVB_DESTROY(DeallocMw, MW, MW_DESTROY, OVB_ATTR_DESTROY_MW_HANDLE, kDeallocMw);
OVB_DESTROY(DestroyAh, AH, AH_DESTROY, OVB_ATTR_DESTROY_AH_HANDLE, kDestroyAh);
OVB_DESTROY(CloseXrcd, XRCD, XRCD_DESTROY, OVB_ATTR_DESTROY_XRCD_HANDLE, kCloseXrcd);
// rdma-core 44 keeps these two on the AH destroy's fallback bit.
OVB_DESTROY(DestroyRwqIndTbl, RWQ_IND_TBL, RWQ_IND_TBL_DESTROY,
	    OVB_ATTR_DESTROY_RWQ_IND_TBL_HANDLE, kDestroyAh);
OVB_DESTROY(DestroyFlow, FLOW, FLOW_DESTROY, OVB_ATTR_DESTROY_FLOW_HANDLE,
	    kDestroyAh);

#undef OVB_DESTROY
#undef OVB_METHOD
#undef OVB_A_IF
#undef OVB_A

} // namespace ovb::ioctl
