// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "device.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <endian.h>
#include <mutex>
#include <sys/resource.h>
#include <unistd.h>

#include "export.h"
#include "fork.h"
#include "log.h"
#include "providers.h"
#include "rdmacore/registry.h"
#include "sysfs.h"
#include "version.h"

namespace ovb {

extern "C" bool verbs_allow_disassociate_destroy;	// private_34.cpp

namespace {

std::mutex g_lock;
// Every Device not yet released: the present ones, and those gone from the
// kernel that a list or context still holds (gone_).  Never destroyed: as
// rdma-core, the library does not tear its devices down at exit (a
// provider's uninit_device would run under contexts still open).
std::vector<std::unique_ptr<Device>> &g_devices =
	*new std::vector<std::unique_ptr<Device>>;
// One refresh of the list at a time, from the kernel's answer to the
// merge (rdma-core holds its list lock across both).
std::mutex g_refresh;

void copy_name(char *dst, size_t n, const std::string &s)
{
	std::snprintf(dst, n, "%s", s.c_str());
}

int transport_of(int node_type)
{
	switch (node_type) {
	case IBV_NODE_CA:
	case IBV_NODE_SWITCH:
	case IBV_NODE_ROUTER:
		return IBV_TRANSPORT_IB;
	case IBV_NODE_RNIC:
		return IBV_TRANSPORT_IWARP;
	case IBV_NODE_USNIC:
		return IBV_TRANSPORT_USNIC;
	case IBV_NODE_USNIC_UDP:
		return IBV_TRANSPORT_USNIC_UDP;
	case IBV_NODE_UNSPECIFIED:
		return IBV_TRANSPORT_UNSPECIFIED;
	default:
		return IBV_TRANSPORT_UNKNOWN;
	}
}

void check_memlock_limit()
{
	if (!geteuid())
		return;
	rlimit rl;
	if (getrlimit(RLIMIT_MEMLOCK, &rl)) {
		log::warning("getrlimit(RLIMIT_MEMLOCK) failed.");
		return;
	}
	if (rl.rlim_cur <= 32768)
		log::warning("RLIMIT_MEMLOCK is %llu bytes.\n"
			     "    This will severely limit memory registrations.\n",
			     static_cast<unsigned long long>(rl.rlim_cur));
}

// libibverbs' switches: set to anything but "0".
bool env_set(const char *name)
{
	const char *v = getenv(name);
	return v && std::strcmp(v, "0") != 0;
}

void init_once()
{
	static std::once_flag once;
	std::call_once(once, [] {
		if (env_set("RDMAV_FORK_SAFE") || env_set("IBV_FORK_SAFE"))
			if (ibv_fork_init())
				log::warning("fork()-safety requested but init failed\n");
		// rdma-core's switch (and mlx4's older name for it): destroys
		// after a hot-unplug succeed (rdmacore/cmd_context.cpp).
		verbs_allow_disassociate_destroy =
			env_set("RDMAV_ALLOW_DISASSOC_DESTROY") ||
			env_set("MLX4_DEVICE_FATAL_CLEANUP");
		check_memlock_limit();
		log::init();
		identify_once();
	});
}

} // namespace

// The generic fields of an ibv_device, whoever allocated it.
static void fill_ibv_device(ibv_device &d, const KernelDevice &k)
{
	d.node_type = static_cast<ibv_node_type>(k.node_type);
	d.transport_type = static_cast<ibv_transport_type>(transport_of(k.node_type));
	copy_name(d.name, sizeof(d.name), k.ibdev_name);
	copy_name(d.dev_name, sizeof(d.dev_name), k.sysfs_name);
	copy_name(d.dev_path, sizeof(d.dev_path), k.sysfs_path);
	copy_name(d.ibdev_path, sizeof(d.ibdev_path), k.ibdev_path);
}

Device::Device(const KernelDevice &k, const ovb_provider *p)
	: kdev_(k), provider_(p)
{
	shell_.self = this;
	fill_ibv_device(shell_.ibv, k);
}

Device::Device(const KernelDevice &k, rdmacore::VerbsDevice *v)
	: kdev_(k), rc_(v)
{
	shell_.self = this;
	fill_ibv_device(v->device, k);
}

// rdma-core frees the sysfs record, then calls uninit_device (which frees
// the verbs_device); our providers' devices are the shell in this object.
Device::~Device()
{
	if (!rc_)
		return;
	free(rc_->sysfs);
	if (rc_->ops->uninit_device)
		rc_->ops->uninit_device(rc_);
}

void Device::put()
{
	if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1)
		return;
	std::unique_ptr<Device> last;
	{
		std::lock_guard<std::mutex> guard(g_lock);
		for (auto it = g_devices.begin(); it != g_devices.end(); ++it)
			if (it->get() == this) {
				last = std::move(*it);
				g_devices.erase(it);
				break;
			}
	}
	// Released outside the lock: uninit_device is the provider's code.
	log::debug("%s: device released", last ? last->kdev_.ibdev_name.c_str() : "?");
}

Device *Device::from(ibv_device *d)
{
	std::lock_guard<std::mutex> guard(g_lock);
	for (auto &dev : g_devices)
		if (dev->ibv() == d)
			return dev.get();
	// Not ours: the application's pointer is wrong; fail loudly, as
	// rdma-core would crash on it too.
	return reinterpret_cast<DeviceShell *>(d)->self;
}

namespace {

// A Device for k from the providers registered so far, families in the
// order OPENVERBS_PROVIDERS prefers.
std::unique_ptr<Device> match_device(const KernelDevice &k)
{
	rdmacore::Families f = rdmacore::families();
	auto ours = [&]() -> std::unique_ptr<Device> {
		const ovb_provider *p = f.ours ? match_provider(k) : nullptr;
		return p ? std::make_unique<Device>(k, p) : nullptr;
	};
	auto theirs = [&]() -> std::unique_ptr<Device> {
		rdmacore::VerbsDevice *v = f.rdmacore ? rdmacore::make_device(k)
						      : nullptr;
		return v ? std::make_unique<Device>(k, v) : nullptr;
	};
	std::unique_ptr<Device> d = f.rdmacore_first ? theirs() : ours();
	if (!d)
		d = f.rdmacore_first ? ours() : theirs();
	return d;
}

// The enabled families, preferred first.
std::vector<ProviderFamily> family_order()
{
	rdmacore::Families f = rdmacore::families();
	std::vector<ProviderFamily> order;
	if (f.ours)
		order.push_back(ProviderFamily::openverbs);
	if (f.rdmacore)
		order.insert(f.rdmacore_first ? order.begin() : order.end(),
			     ProviderFamily::rdmacore);
	return order;
}

} // namespace

void identify_once()
{
	static std::once_flag once;
	std::call_once(once, [] {
		if (!getenv("OPENVERBS_IDENTIFY"))
			return;
		Dl_info info{};
		dladdr(reinterpret_cast<void *>(&identify_once), &info);
		std::fprintf(stderr, "openverbs libibverbs %s (%s), providers from %s, config %s\n",
			     OPENVERBS_LIB_VERSION,
			     info.dli_fname ? info.dli_fname : "?",
			     provider_dir().c_str(), config_dir().c_str());
	});
}

int current_devices(std::vector<Device *> &out)
{
	init_once();
	std::lock_guard<std::mutex> refresh(g_refresh);
	std::vector<KernelDevice> found;
	int rc = discover_devices(found);
	if (rc)
		return rc;

	std::vector<Device *> vanished;
	std::unique_lock<std::mutex> guard(g_lock);
	// As rdma-core's list refresh: a device the kernel no longer has
	// leaves the list, which drops the list's reference.
	for (auto &d : g_devices) {
		if (d->gone_)
			continue;
		bool present = false;
		for (const KernelDevice &k : found)
			present |= d->kernel().same(k);
		if (!present) {
			d->gone_ = true;
			vanished.push_back(d.get());
		}
	}
	for (const KernelDevice &k : found) {
		Device *dev = nullptr;
		for (auto &d : g_devices)
			if (!d->gone_ && d->kernel().same(k))
				dev = d.get();
		if (!dev) {
			// As rdma-core, plugins are loaded only for a device
			// nothing registered claims: the preferred family first.
			std::unique_ptr<Device> made = match_device(k);
			for (ProviderFamily fam : family_order()) {
				if (made)
					break;
				load_providers(fam);
				made = match_device(k);
			}
			if (!made) {
				if (getenv("IBV_SHOW_WARNINGS"))
					log::warning("no userspace device-specific driver found for %s\n",
						     k.ibdev_name.c_str());
				continue;
			}
			g_devices.push_back(std::move(made));
			dev = g_devices.back().get();
		}
		dev->hold();
		out.push_back(dev);
	}
	guard.unlock();
	for (Device *d : vanished)
		d->put();
	return 0;
}

} // namespace ovb

using ovb::Device;

OVB_EXPORT ibv_device **ibv_get_device_list(int *num)
try {
	std::vector<Device *> devs;
	if (num)
		*num = 0;
	int rc = ovb::current_devices(devs);
	if (rc) {
		errno = rc;
		return nullptr;
	}
	auto **list = static_cast<ibv_device **>(
		calloc(devs.size() + 1, sizeof(ibv_device *)));
	if (!list) {
		for (Device *d : devs)
			d->put();
		errno = ENOMEM;
		return nullptr;
	}
	for (size_t i = 0; i < devs.size(); i++)
		list[i] = devs[i]->ibv();
	if (num)
		*num = static_cast<int>(devs.size());
	return list;
} OVB_ABI_CATCH

OVB_EXPORT void ibv_free_device_list(ibv_device **list)
try {
	for (ibv_device **d = list; d && *d; d++)
		Device::from(*d)->put();
	free(list);
} OVB_ABI_CATCH_VOID

OVB_EXPORT const char *ibv_get_device_name(ibv_device *device)
try {
	return device->name;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_get_device_index(ibv_device *device)
try {
	return Device::from(device)->kernel().ibdev_idx;
} OVB_ABI_CATCH

OVB_EXPORT __be64 ibv_get_device_guid(ibv_device *device)
try {
	const ovb::KernelDevice &k = Device::from(device)->kernel();
	if (k.have_node_guid)
		return htobe64(k.node_guid);
	char buf[24];
	unsigned short parts[4];
	if (ovb::sysfs::read(k.ibdev_path + "/node_guid", buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%hx:%hx:%hx:%hx", &parts[0], &parts[1], &parts[2],
		   &parts[3]) != 4)
		return 0;
	uint64_t guid = 0;
	for (unsigned short p : parts)
		guid = (guid << 16) | p;
	return htobe64(guid);
} OVB_ABI_CATCH

// These names also exist as IBVERBS_1.0 compat versions (compat_1_0.cpp).
OVB_DEFAULT_VERSION(ibv_free_device_list, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_get_device_guid, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_get_device_name, "IBVERBS_1.1");
OVB_DEFAULT_VERSION(ibv_get_device_list, "IBVERBS_1.1");
