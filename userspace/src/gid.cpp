// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "gid.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <endian.h>
#include <net/if.h>
#include <sys/stat.h>

#include "sysfs.h"

namespace ovb::gid {

namespace {

std::string port_file(const std::string &ibdev, unsigned port, const char *sub,
		      unsigned index)
{
	return ibdev + "/ports/" + std::to_string(port) + "/" + sub + "/" +
	       std::to_string(index);
}

} // namespace

bool parse(const char *text, ibv_gid &gid)
{
	if (std::strlen(text) < 39)
		return false;
	for (int i = 0; i < 8; i++) {
		unsigned v;
		if (std::sscanf(text + i * 5, "%4x", &v) != 1)
			return false;
		uint16_t be = htobe16(static_cast<uint16_t>(v));
		std::memcpy(gid.raw + i * 2, &be, 2);
	}
	return true;
}

bool is_zero(const ibv_gid &gid)
{
	static const uint8_t zero[16] = {};
	return std::memcmp(gid.raw, zero, sizeof(zero)) == 0;
}

int read_gid(const std::string &ibdev, unsigned port, unsigned index,
	     ibv_gid &gid)
{
	char buf[41];
	if (sysfs::read(port_file(ibdev, port, "gids", index), buf, sizeof(buf)) <= 0)
		return errno ? errno : EINVAL;
	return parse(buf, gid) ? 0 : EINVAL;
}

int read_type(const std::string &ibdev, unsigned port, unsigned index,
	      SysfsType &type)
{
	char buf[16];
	if (sysfs::read(port_file(ibdev, port, "gid_attrs/types", index), buf,
			sizeof(buf)) <= 0) {
		// The kernel answers EINVAL for an empty slot; kernels without
		// gid_attrs only know RoCE v1 / IB.
		if (errno == EINVAL) {
			type = SysfsType::ib_roce_v1;
			return 0;
		}
		struct stat st;
		std::string dir = ibdev + "/ports/" + std::to_string(port) + "/gid_attrs";
		if (stat(dir.c_str(), &st) && errno == ENOENT) {
			type = SysfsType::ib_roce_v1;
			return 0;
		}
		return EFAULT;
	}
	if (!std::strcmp(buf, "IB/RoCE v1"))
		type = SysfsType::ib_roce_v1;
	else if (!std::strcmp(buf, "RoCE v2"))
		type = SysfsType::roce_v2;
	else
		return EINVAL;
	return 0;
}

int read_ifindex(const std::string &ibdev, unsigned port, unsigned index)
{
	char buf[IF_NAMESIZE + 1];
	if (sysfs::read(port_file(ibdev, port, "gid_attrs/ndevs", index), buf,
			sizeof(buf)) <= 0)
		return 0;
	unsigned idx = if_nametoindex(buf);
	return idx ? static_cast<int>(idx) : -1;
}

} // namespace ovb::gid
