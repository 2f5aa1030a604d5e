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

int port_link_layer(ibv_context *ctx, uint8_t port, uint8_t &ll)
{
	ibv_port_attr pa{};
	int rc = ovb::call(ctx, &ovb_context_ops::query_port, ctx, port, &pa,
			   sizeof(pa));
	ll = pa.link_layer;
	return rc;
}

// Fills one GID entry from sysfs; ENODATA for an empty slot.
int gid_entry(ibv_context *ctx, uint32_t port, uint32_t index,
	      ibv_gid_entry &e)
{
	const std::string &path = ibdev_path(ctx);
	int rc = ovb::gid::read_gid(path, port, index, e.gid);
	if (rc)
		return rc;
	if (ovb::gid::is_zero(e.gid))
		return ENODATA;
	ovb::gid::SysfsType t;
	rc = ovb::gid::read_type(path, port, index, t);
	if (rc)
		return rc;
	if (t == ovb::gid::SysfsType::roce_v2) {
		e.gid_type = IBV_GID_TYPE_ROCE_V2;
	} else {
		uint8_t ll;
		rc = port_link_layer(ctx, static_cast<uint8_t>(port), ll);
		if (rc)
			return rc;
		e.gid_type = ll == IBV_LINK_LAYER_ETHERNET ? IBV_GID_TYPE_ROCE_V1
							   : IBV_GID_TYPE_IB;
	}
	int ifindex = ovb::gid::read_ifindex(path, port, index);
	if (ifindex < 0)
		return EINVAL;
	e.ndev_ifindex = static_cast<uint32_t>(ifindex);
	e.gid_index = index;
	e.port_num = port;
	return 0;
}

// QUERY_GID_ENTRY by ioctl; false when the kernel lacks it (sysfs then).
bool gid_ioctl(ibv_context *ctx, uint32_t port, uint32_t index, uint32_t flags,
	       void *entry, size_t entry_size, int &rc)
{
	std::memset(entry, 0, entry_size);
	ovb::ioctl::QueryGidEntry q{};
	q.port = port;
	q.index = index;
	q.flags = flags;
	q.entry = {entry, entry_size};
	return ovb::cmd::try_ioctl(ctx, ovb::ioctl::kQueryGidEntryM, q, rc);
}

} // namespace

OVB_EXPORT int ibv_query_device(ibv_context *ctx, ibv_device_attr *attr)
{
	return ovb::call(ctx, &ovb_context_ops::query_device_ex, ctx, nullptr,
			 reinterpret_cast<ibv_device_attr_ex *>(attr),
			 sizeof(*attr));
}

// The pre-port_cap_flags2 layout of struct ibv_port_attr.
OVB_EXPORT int ibv_query_port(ibv_context *ctx, uint8_t port,
			      _compat_ibv_port_attr *attr)
{
	return ovb::call(ctx, &ovb_context_ops::query_port, ctx, port,
			 reinterpret_cast<ibv_port_attr *>(attr),
			 offsetof(ibv_port_attr, port_cap_flags2));
}

OVB_EXPORT int ibv_query_gid(ibv_context *ctx, uint8_t port, int index,
			     ibv_gid *gid)
{
	ibv_gid_entry e;
	int rc;
	if (gid_ioctl(ctx, port, static_cast<uint32_t>(index), 0, &e, sizeof(e), rc)) {
		// An empty slot reads as the zero GID, as it always did.
		if (rc == ENODATA)
			*gid = {};
		else if (!rc)
			*gid = e.gid;
		return rc && rc != ENODATA ? -1 : 0;
	}
	if (index < 0)
		return -1;
	rc = ovb::gid::read_gid(ibdev_path(ctx), port, static_cast<unsigned>(index),
				*gid);
	if (rc) {
		errno = rc;
		return -1;
	}
	return 0;
}

OVB_EXPORT int ibv_query_pkey(ibv_context *ctx, uint8_t port, int index,
			      __be16 *pkey)
{
	char buf[16];
	std::string path = ibdev_path(ctx) + "/ports/" + std::to_string(port) +
			   "/pkeys/" + std::to_string(index);
	unsigned v;
	if (ovb::sysfs::read(path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%x", &v) != 1)
		return -1;
	*pkey = htobe16(static_cast<uint16_t>(v));
	return 0;
}

OVB_EXPORT int ibv_get_pkey_index(ibv_context *ctx, uint8_t port, __be16 pkey)
{
	__be16 cur;
	for (int i = 0; ibv_query_pkey(ctx, port, i, &cur) == 0; i++)
		if (cur == pkey)
			return i;
	errno = ENOENT;
	return -1;
}

OVB_EXPORT int _ibv_query_gid_ex(ibv_context *ctx, uint32_t port,
				 uint32_t index, ibv_gid_entry *entry,
				 uint32_t flags, size_t entry_size)
{
	int rc;
	if (gid_ioctl(ctx, port, index, flags, entry, entry_size, rc))
		return rc;
	if (flags)
		return EOPNOTSUPP;
	if (entry_size < sizeof(*entry))
		return EINVAL;
	ibv_gid_entry e{};
	rc = gid_entry(ctx, port, index, e);
	if (rc)
		return rc;
	*entry = e;
	return 0;
}

OVB_EXPORT ssize_t _ibv_query_gid_table(ibv_context *ctx,
					ibv_gid_entry *entries,
					size_t max_entries, uint32_t flags,
					size_t entry_size)
{
	ovb::ioctl::QueryGidTable q{};
	q.entry_size = entry_size;
	q.flags = flags;
	q.entries = {entries, entry_size * max_entries};
	int rc;
	if (entry_size && max_entries > UINT16_MAX / entry_size)
		return -EINVAL;	// cannot be marshalled, as rdma-core
	if (ovb::cmd::try_ioctl(ctx, ovb::ioctl::kQueryGidTableM, q, rc))
		return rc ? -rc : static_cast<ssize_t>(q.num_entries);
	if (flags)
		return -EOPNOTSUPP;
	if (entry_size < sizeof(*entries))
		return -EINVAL;
	ibv_device_attr dev{};
	if (int rc = ibv_query_device(ctx, &dev))
		return -rc;
	size_t n = 0;
	for (uint8_t port = 1; port <= dev.phys_port_cnt; port++) {
		ibv_port_attr pa{};
		if (int rc = ovb::call(ctx, &ovb_context_ops::query_port, ctx,
				       port, &pa, sizeof(pa)))
			return -rc;
		for (int i = 0; i < pa.gid_tbl_len; i++) {
			ibv_gid_entry e{};
			int rc = gid_entry(ctx, port, static_cast<uint32_t>(i), e);
			if (rc == ENODATA)
				continue;
			if (rc)
				return -EINVAL;
			if (n == max_entries)
				return -EINVAL;
			std::memcpy(reinterpret_cast<char *>(entries) + n * entry_size,
				    &e, sizeof(e));
			n++;
		}
	}
	return static_cast<ssize_t>(n);
}

// rdma-core-private; providers of rdma-core call it with their own enum
// (0: IB/RoCE v1, 1: RoCE v2), which is what we answer.
OVB_EXPORT int ibv_query_gid_type(ibv_context *ctx, uint8_t port,
				  unsigned int index, unsigned int *type)
{
	ibv_gid_entry e;
	int rc;
	if (gid_ioctl(ctx, port, index, 0, &e, sizeof(e), rc)) {
		if (rc == ENODATA) {
			*type = 0;
			return 0;
		}
		if (rc)
			return -1;
		*type = e.gid_type == IBV_GID_TYPE_IB ||
				e.gid_type == IBV_GID_TYPE_ROCE_V1 ? 0 : 1;
		return 0;
	}
	ovb::gid::SysfsType t;
	rc = ovb::gid::read_type(ibdev_path(ctx), port, index, t);
	if (rc) {
		errno = rc;
		return -1;
	}
	*type = t == ovb::gid::SysfsType::roce_v2 ? 1 : 0;
	return 0;
}

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_query_device, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_query_gid, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_query_pkey, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_query_port, "IBVERBS_1.1");
