// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Device-level verbs: device and port queries, GID and P_Key tables.
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <endian.h>

#include "cmd/methods.h"
#include "cmd/transport.h"
#include "context.h"
#include "device.h"
#include "export.h"
#include "gid.h"
#include "sysfs.h"

#undef ibv_query_port

namespace {

const std::string &ibdev_path(ibv_context *ctx)
{
	return ovb::priv(ctx)->device->kernel().ibdev_path;
}

// What the sysfs fallback reads of a GID slot (rdma-core's attr mask).
enum GidAttr : unsigned { kGid = 1, kType = 2, kIfindex = 4, kAll = 7 };

// One GID entry from sysfs, as libibverbs' fallback: the GID, the type (a
// RoCE v1 / IB type asks the port for its link layer unless link_layer is
// known), the netdev.  0, or EINVAL / an errno; zero GIDs are the
// caller's to judge.
int gid_entry_sysfs(ibv_context *ctx, uint32_t port, uint32_t index,
		    ibv_gid_entry &e, unsigned mask, int link_layer = -1)
{
	const std::string &path = ibdev_path(ctx);
	e.gid_index = index;
	e.port_num = port;
	if ((mask & kGid) && ovb::gid::read_gid(path, port, index, e.gid))
		return EINVAL;
	if (mask & kType) {
		ovb::gid::SysfsType t;
		if (ovb::gid::read_type(path, port, index, t))
			return EINVAL;
		if (t == ovb::gid::SysfsType::roce_v2) {
			e.gid_type = IBV_GID_TYPE_ROCE_V2;
		} else {
			if (link_layer < 0) {
				ibv_port_attr pa{};
				int rc = ovb::call(ctx, &ovb_context_ops::query_port,
						   ctx, static_cast<uint8_t>(port),
						   &pa, sizeof(pa));
				if (rc)
					return rc;
				link_layer = pa.link_layer;
			}
			e.gid_type = link_layer == IBV_LINK_LAYER_ETHERNET
					     ? IBV_GID_TYPE_ROCE_V1
					     : IBV_GID_TYPE_IB;
		}
	}
	if (mask & kIfindex) {
		int ifindex = ovb::gid::read_ifindex(path, port, index);
		if (ifindex < 0)
			return EINVAL;
		e.ndev_ifindex = static_cast<uint32_t>(ifindex);
	}
	return 0;
}

// One GID slot: QUERY_GID_ENTRY by ioctl, sysfs (attributes in mask) when
// the kernel lacks it.  ENODATA for an empty slot.
int gid_query(ibv_context *ctx, uint32_t port, uint32_t index, uint32_t flags,
	      void *entry, size_t entry_size, unsigned mask)
{
	std::memset(entry, 0, entry_size);
	ovb::ioctl::QueryGidEntry q{};
	q.port = port;
	q.index = index;
	q.flags = flags;
	q.entry = {entry, entry_size};
	int rc;
	if (ovb::cmd::try_ioctl<ovb::ioctl::kQueryGidEntryM>(ctx, q, rc))
		return rc;
	if (flags)
		return EOPNOTSUPP;
	ibv_gid_entry e{};
	rc = gid_entry_sysfs(ctx, port, index, e, mask);
	if (rc)
		return rc;
	std::memcpy(entry, &e, entry_size < sizeof(e) ? entry_size : sizeof(e));
	return (mask & kGid) && ovb::gid::is_zero(e.gid) ? ENODATA : 0;
}

} // namespace
OVB_EXPORT int ibv_query_device(ibv_context *ctx, ibv_device_attr *attr)
try {
	return ovb::call(ctx, &ovb_context_ops::query_device_ex, ctx, nullptr,
			 reinterpret_cast<ibv_device_attr_ex *>(attr),
			 sizeof(*attr));
} OVB_ABI_CATCH

// The pre-port_cap_flags2 layout of struct ibv_port_attr.
OVB_EXPORT int ibv_query_port(ibv_context *ctx, uint8_t port,
			      _compat_ibv_port_attr *attr)
try {
	return ovb::call(ctx, &ovb_context_ops::query_port, ctx, port,
			 reinterpret_cast<ibv_port_attr *>(attr),
			 offsetof(ibv_port_attr, port_cap_flags2));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_query_gid(ibv_context *ctx, uint8_t port, int index,
			     ibv_gid *gid)
try {
	ibv_gid_entry e;
	int rc = gid_query(ctx, port, static_cast<uint32_t>(index), 0, &e,
			   sizeof(e), kGid);
	if (rc == ENODATA) {	// an empty slot reads as the zero GID
		*gid = {};
		return 0;
	}
	if (rc)
		return -1;
	*gid = e.gid;
	return 0;
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT int ibv_query_pkey(ibv_context *ctx, uint8_t port, int index,
			      __be16 *pkey)
try {
	char buf[16];
	std::string path = ibdev_path(ctx) + "/ports/" + std::to_string(port) +
			   "/pkeys/" + std::to_string(index);
	unsigned v;
	if (ovb::sysfs::read(path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%x", &v) != 1)
		return -1;
	*pkey = htobe16(static_cast<uint16_t>(v));
	return 0;
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT int ibv_get_pkey_index(ibv_context *ctx, uint8_t port, __be16 pkey)
try {
	__be16 cur;
	for (int i = 0; ibv_query_pkey(ctx, port, i, &cur) == 0; i++)
		if (cur == pkey)
			return i;
	errno = ENOENT;
	return -1;
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT int _ibv_query_gid_ex(ibv_context *ctx, uint32_t port,
				 uint32_t index, ibv_gid_entry *entry,
				 uint32_t flags, size_t entry_size)
try {
	return gid_query(ctx, port, index, flags, entry, entry_size, kAll);
} OVB_ABI_CATCH

OVB_EXPORT ssize_t _ibv_query_gid_table(ibv_context *ctx,
					ibv_gid_entry *entries,
					size_t max_entries, uint32_t flags,
					size_t entry_size)
try {
	ovb::ioctl::QueryGidTable q{};
	q.entry_size = entry_size;
	q.flags = flags;
	q.entries = {entries, entry_size * max_entries};
	int rc;
	if (entry_size && max_entries > UINT16_MAX / entry_size)
		return -EINVAL;	// cannot be marshalled, as rdma-core
	if (ovb::cmd::try_ioctl<ovb::ioctl::kQueryGidTableM>(ctx, q, rc))
		return rc ? -rc : static_cast<ssize_t>(q.num_entries);
	if (flags)
		return -EOPNOTSUPP;
	// sysfs, port by port, slot by slot, skipping empty ones.
	ibv_device_attr dev{};
	if (int err = ibv_query_device(ctx, &dev))
		return -err;
	size_t n = 0;
	auto *out = reinterpret_cast<char *>(entries);
	for (uint8_t port = 1; port <= dev.phys_port_cnt; port++) {
		ibv_port_attr pa{};
		if (int err = ovb::call(ctx, &ovb_context_ops::query_port, ctx,
					port, &pa, sizeof(pa)))
			return -err;
		for (int i = 0; i < pa.gid_tbl_len; i++) {
			ibv_gid_entry e{};
			int err = gid_entry_sysfs(ctx, port, static_cast<uint32_t>(i),
						  e, kAll, pa.link_layer);
			if (err)
				return -err;
			if (ovb::gid::is_zero(e.gid))
				continue;
			if (n == max_entries)
				return -EINVAL;
			std::memcpy(out + n * entry_size, &e,
				    entry_size < sizeof(e) ? entry_size : sizeof(e));
			n++;
		}
	}
	return static_cast<ssize_t>(n);
} OVB_ABI_CATCH_MINUS1

// rdma-core-private; providers of rdma-core call it with their own enum
// (0: IB/RoCE v1, 1: RoCE v2), which is what we answer.
OVB_EXPORT int ibv_query_gid_type(ibv_context *ctx, uint8_t port,
				  unsigned int index, unsigned int *type)
try {
	ibv_gid_entry e;
	int rc = gid_query(ctx, port, index, 0, &e, sizeof(e), kType);
	if (rc == ENODATA) {
		*type = 0;
		return 0;
	}
	if (rc)
		return -1;
	*type = e.gid_type == IBV_GID_TYPE_IB || e.gid_type == IBV_GID_TYPE_ROCE_V1
			? 0 : 1;
	return 0;
} OVB_ABI_CATCH_MINUS1

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_query_device, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_query_gid, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_query_pkey, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_query_port, "IBVERBS_1.1");
