// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "registry.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fnmatch.h>
#include <mutex>
#include <unistd.h>

#include "../export.h"
#include "../log.h"
#include "../sysfs.h"

#ifndef OVB_RDMACORE_PROVIDER_DIR
#define OVB_RDMACORE_PROVIDER_DIR "/usr/lib/x86_64-linux-gnu/libibverbs"
#endif

namespace ovb::rdmacore {

namespace {

constexpr const char kPluginSuffix[] = "-rdmav34.so";

// Registration happens from a plugin's constructor, inside dlopen(), which
// may run under the device list's lock: this one is separate.
std::mutex g_lock;
std::vector<const DeviceOps *> g_drivers;

bool trusted_env() { return getuid() == geteuid() && getgid() == getegid(); }

bool modalias_matches(const MatchEnt &e, const char *value)
{
	if (e.kind == kMatchModalias)
		return fnmatch(e.u.modalias, value, 0) == 0;
	if (e.kind == kMatchPci) {
		char pattern[64];
		snprintf(pattern, sizeof(pattern), "pci:v%08Xd%08Xsv*",
			 e.vendor, e.device);
		return fnmatch(pattern, value, 0) == 0;
	}
	return false;
}

const MatchEnt *first_match(const DeviceOps &ops, const char *value)
{
	for (const MatchEnt *e = ops.match_table; e->kind != kMatchSentinel; e++)
		if (modalias_matches(*e, value))
			return e;
	return nullptr;
}

void copy(char *dst, size_t n, const std::string &s)
{
	snprintf(dst, n, "%s", s.c_str());
}

SysfsDev *sysfs_dev_of(const KernelDevice &k)
{
	auto *s = static_cast<SysfsDev *>(calloc(1, sizeof(SysfsDev)));
	if (!s)
		return nullptr;
	copy(s->sysfs_name, sizeof(s->sysfs_name), k.sysfs_name);
	copy(s->ibdev_name, sizeof(s->ibdev_name), k.ibdev_name);
	copy(s->ibdev_path, sizeof(s->ibdev_path), k.ibdev_path);
	s->sysfs_cdev = k.devnum;
	s->driver_id = k.driver_id;
	s->node_type = static_cast<ibv_node_type>(k.node_type);
	s->ibdev_idx = k.ibdev_idx;
	s->num_ports = k.num_ports;
	s->abi_ver = k.abi_ver;
	s->time_created = k.time_created;
	if (k.have_node_guid) {
		s->node_guid = k.node_guid;
		s->flags |= kSysfsReadNodeGuid;
	}
	return s;
}

// rdma-core's match_device: the table, then the driver's own test, then
// the kernel ABI window.
bool claims(const DeviceOps &ops, SysfsDev &dev)
{
	dev.match = ops.match_table ? table_match(ops, dev, false) : nullptr;
	if (ops.match_device ? !ops.match_device(&dev) : !dev.match)
		return false;
	if (dev.abi_ver < ops.match_min_abi_version ||
	    dev.abi_ver > ops.match_max_abi_version) {
		log::warning("Driver %s does not support the kernel ABI of %u (supports %u to %u) for device %s\n",
			     ops.name, dev.abi_ver, ops.match_min_abi_version,
			     ops.match_max_abi_version, dev.ibdev_path);
		return false;
	}
	return true;
}

// What rdma-core's core keeps in the verbs_device head; the ibv_device
// fields are the Device's (device.cpp), as for our own devices.
void fill_head(VerbsDevice &v, const DeviceOps *ops, SysfsDev *s)
{
	v.ops = ops;
	v.refcount = 1;
	v.sysfs = s;
}

VerbsDevice *try_driver(const DeviceOps *ops, const KernelDevice &k,
			SysfsDev *s)
{
	if (!claims(*ops, *s))
		return nullptr;
	VerbsDevice *v = ops->alloc_device(s);
	if (!v) {
		log::fatal("couldn't allocate device for %s\n",
			     s->ibdev_path);
		return nullptr;
	}
	fill_head(*v, ops, s);
	log::debug("%s: rdma-core provider %s", k.ibdev_name.c_str(), ops->name);
	return v;
}

} // namespace

Families parse_families(const char *value)
{
	Families f;
	if (!value || !*value)
		return f;
	f = {false, false, false};
	std::string list = value;
	size_t pos = 0;
	while (pos <= list.size()) {
		size_t end = list.find_first_of(",:", pos);
		std::string word = list.substr(pos, end == std::string::npos
							    ? std::string::npos
							    : end - pos);
		if (word == "openverbs") {
			f.ours = true;
		} else if (word == "rdma-core") {
			f.rdmacore_first = !f.ours;
			f.rdmacore = true;
		} else if (!word.empty()) {
			log::warning("OPENVERBS_PROVIDERS: unknown family '%s'\n",
				     word.c_str());
		}
		if (end == std::string::npos)
			break;
		pos = end + 1;
	}
	if (!f.ours && !f.rdmacore)
		return Families{};
	return f;
}

Families families()
{
	static const Families f =
		parse_families(trusted_env() ? getenv("OPENVERBS_PROVIDERS") : nullptr);
	return f;
}

std::vector<const DeviceOps *> drivers()
{
	std::lock_guard<std::mutex> guard(g_lock);
	return g_drivers;
}

std::string plugin_dir()
{
	if (trusted_env())
		if (const char *env = getenv("OPENVERBS_RDMACORE_PROVIDER_DIR"))
			return env;
	return OVB_RDMACORE_PROVIDER_DIR;
}

bool load_plugin(const std::string &name, bool warn)
{
	std::string first = name.front() == '/'
				    ? name + kPluginSuffix
				    : plugin_dir() + "/lib" + name + kPluginSuffix;
	void *h = dlopen(first.c_str(), RTLD_NOW);
	if (!h && name.front() != '/') {
		std::string plain = "lib" + name + kPluginSuffix;
		h = dlopen(plain.c_str(), RTLD_NOW);
	}
	if (!h) {
		if (warn)
			log::warning("couldn't load driver '%s': %s\n",
				     first.c_str(), dlerror());
		return false;
	}
	return true;
}

const MatchEnt *table_match(const DeviceOps &ops, SysfsDev &dev,
			    bool by_id_only)
{
	if (dev.driver_id)
		for (const MatchEnt *e = ops.match_table;
		     e->kind != kMatchSentinel; e++)
			if (e->kind == kMatchDriverId &&
			    e->u.driver_id == dev.driver_id)
				return e;
	if (by_id_only)
		return nullptr;
	char name[IBV_SYSFS_NAME_MAX + 16];
	snprintf(name, sizeof(name), "rdma_device:N%s", dev.ibdev_name);
	if (const MatchEnt *e = first_match(ops, name))
		return e;
	if (!(dev.flags & kSysfsReadModalias)) {
		dev.flags |= kSysfsReadModalias;
		std::string path = std::string(dev.ibdev_path) + "/device/modalias";
		if (sysfs::read(path, dev.modalias, sizeof(dev.modalias)) <= 0)
			dev.modalias[0] = 0;
	}
	return dev.modalias[0] ? first_match(ops, dev.modalias) : nullptr;
}

VerbsDevice *make_device(const KernelDevice &k)
{
	std::vector<const DeviceOps *> list = drivers();
	if (list.empty())
		return nullptr;
	SysfsDev *s = sysfs_dev_of(k);
	if (!s)
		return nullptr;
	// A driver-id match wins over every other kind of match.
	if (k.driver_id)
		for (const DeviceOps *ops : list)
			if (ops->match_table && table_match(*ops, *s, true))
				if (VerbsDevice *v = try_driver(ops, k, s))
					return v;
	for (const DeviceOps *ops : list)
		if (VerbsDevice *v = try_driver(ops, k, s))
			return v;
	free(s);
	return nullptr;
}

} // namespace ovb::rdmacore

using namespace ovb::rdmacore;

OVB_EXPORT void verbs_register_driver_34(const DeviceOps *ops)
try {
	if (!ops || !ops->name)
		return;
	{
		std::lock_guard<std::mutex> guard(g_lock);
		for (const DeviceOps *d : g_drivers)
			if (d == ops)
				return;
		g_drivers.push_back(ops);
	}
	ovb::log::debug("rdma-core provider %s registered", ops->name);
} OVB_ABI_CATCH_VOID

OVB_EXPORT int ibv_read_ibdev_sysfs_file(char *buf, size_t size,
					 SysfsDev *dev, const char *fmt, ...)
try {
	if (!dev) {
		errno = EINVAL;
		return -1;
	}
	char file[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(file, sizeof(file), fmt, ap);
	va_end(ap);
	if (n < 0 || static_cast<size_t>(n) >= sizeof(file)) {
		errno = EOVERFLOW;
		return -1;
	}
	return ovb::sysfs::read(dev->ibdev_path, file, buf, size);
} OVB_ABI_CATCH_MINUS1
