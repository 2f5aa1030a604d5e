// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "discovery.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <infiniband/verbs.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "log.h"
#include "netlink.h"
#include "sysfs.h"

namespace ovb {

namespace {

// The class-wide uverbs write() ABI window this library speaks.
constexpr int kMinAbi = 3;
constexpr int kMaxAbi = 6;

std::string class_path(const char *cls)
{
	return std::string(sysfs::root()) + "/class/" + cls;
}

// Reads dev, abi_version of a uverbsN directory.
bool read_uverbs_dir(const std::string &dir, const std::string &name,
		     KernelDevice &d)
{
	char buf[64];
	unsigned major, minor;

	if (sysfs::read(dir + "/dev", buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%u:%u", &major, &minor) != 2)
		return false;
	d.devnum = makedev(major, minor);
	d.sysfs_name = name;
	d.sysfs_path = class_path("infiniband_verbs") + "/" + name;
	unsigned long abi;
	if (sysfs::read_ulong(dir + "/abi_version", abi))
		d.abi_ver = static_cast<uint32_t>(abi);
	return true;
}

// The char device must exist in /dev/infiniband.
bool accessible(const KernelDevice &d)
{
	struct stat st;
	return stat(("/dev/infiniband/" + d.sysfs_name).c_str(), &st) == 0;
}

// Per device, when netlink has no answer for the char device: the first
// entry of <ibdev>/device/infiniband_verbs/.
bool uverbs_from_sysfs(KernelDevice &d)
{
	std::string dir = d.ibdev_path + "/device/infiniband_verbs";
	DIR *dp = opendir(dir.c_str());
	if (!dp)
		return false;
	bool ok = false;
	while (dirent *e = readdir(dp)) {
		if (e->d_name[0] == '.')
			continue;
		ok = read_uverbs_dir(dir + "/" + e->d_name, e->d_name, d);
		break;
	}
	closedir(dp);
	return ok;
}

// -EOPNOTSUPP: no NETLINK_RDMA; a positive errno: the dump failed; 0: the
// list (possibly empty, which is final as in libibverbs).
int find_netlink(std::vector<KernelDevice> &out)
{
	auto sock = netlink::Socket::open();
	if (!sock)
		return -EOPNOTSUPP;
	std::vector<netlink::Device> devs;
	if (sock->devices(devs))
		return EINVAL;
	for (const auto &nd : devs) {
		KernelDevice d;
		d.ibdev_idx = static_cast<int>(nd.index);
		d.ibdev_name = nd.name;
		d.ibdev_path = class_path("infiniband") + "/" + nd.name;
		d.num_ports = nd.num_ports;
		d.node_guid = nd.node_guid;
		d.have_node_guid = true;
		d.node_type = node_type_from_kernel(nd.node_type);
		netlink::Chardev cd;
		if (sock->chardev(nd.index, "uverbs", cd) == 0) {
			d.devnum = cd.devnum;
			d.abi_ver = static_cast<uint32_t>(cd.abi);
			d.driver_id = cd.driver_id;
			d.sysfs_name = cd.name;
			d.sysfs_path = class_path("infiniband_verbs") + "/" + cd.name;
		} else if (!uverbs_from_sysfs(d)) {
			continue;
		}
		if (accessible(d))
			out.push_back(std::move(d));
	}
	return 0;
}

int find_sysfs(std::vector<KernelDevice> &out)
{
	std::string cls = class_path("infiniband_verbs");
	DIR *dp = opendir(cls.c_str());
	if (!dp)
		return ENOSYS;
	while (dirent *e = readdir(dp)) {
		if (e->d_name[0] == '.')
			continue;
		KernelDevice d;
		std::string dir = cls + "/" + e->d_name;
		char ibdev[64];
		if (sysfs::read(dir + "/ibdev", ibdev, sizeof(ibdev)) <= 0)
			continue;
		d.ibdev_name = ibdev;
		d.ibdev_path = class_path("infiniband") + "/" + ibdev;
		struct stat st;
		if (stat(d.ibdev_path.c_str(), &st))
			continue;
		d.time_created = st.st_mtim;
		if (!read_uverbs_dir(dir, e->d_name, d))
			continue;
		unsigned long knode;
		if (sysfs::read_ulong(d.ibdev_path + "/node_type", knode))
			d.node_type = node_type_from_kernel(knode);
		if (accessible(d))
			out.push_back(std::move(d));
	}
	closedir(dp);
	return 0;
}

// The class-wide ABI, read only in sysfs mode (netlink implies 6).
int check_class_abi()
{
	char buf[8];
	if (sysfs::read(class_path("infiniband_verbs") + "/abi_version", buf,
			sizeof(buf)) <= 0)
		return ENOSYS;
	int abi = static_cast<int>(strtol(buf, nullptr, 10));
	if (abi < kMinAbi || abi > kMaxAbi) {
		log::fatal("kernel ABI version %d doesn't match library version %d.\n",
			   abi, kMaxAbi);
		return ENOSYS;
	}
	return 0;
}

} // namespace

bool KernelDevice::same(const KernelDevice &o) const
{
	return sysfs_name == o.sysfs_name && ibdev_idx == o.ibdev_idx &&
	       (ibdev_idx != -1 ||
		(time_created.tv_sec == o.time_created.tv_sec &&
		 time_created.tv_nsec == o.time_created.tv_nsec));
}

int node_type_from_kernel(unsigned long knode)
{
	switch (knode) {
	case 1: return IBV_NODE_CA;
	case 2: return IBV_NODE_SWITCH;
	case 3: return IBV_NODE_ROUTER;
	case 4: return IBV_NODE_RNIC;
	case 5: return IBV_NODE_USNIC;
	case 6: return IBV_NODE_USNIC_UDP;
	case 7: return IBV_NODE_UNSPECIFIED;
	default: return IBV_NODE_UNKNOWN;
	}
}

int discover_devices(std::vector<KernelDevice> &out)
{
	int rc = find_netlink(out);
	if (rc == 0) {
		log::debug("discovery: %zu device(s) through RDMA netlink", out.size());
		return 0;
	}
	out.clear();
	rc = find_sysfs(out);
	if (rc)
		return rc;
	log::debug("discovery: %zu device(s) through sysfs", out.size());
	if (!out.empty() && check_class_abi())
		return ENOSYS;
	return 0;
}

} // namespace ovb
