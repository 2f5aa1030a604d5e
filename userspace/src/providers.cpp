// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "providers.h"

#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fnmatch.h>
#include <fstream>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "rdmacore/registry.h"
#include "sysfs.h"

namespace ovb {

namespace {

// rdma-core's configuration, read after our own (config_dir()).
constexpr const char kRdmaCoreConfigDir[] = "/etc/libibverbs.d";
constexpr const char kSuffix[] = "-openverbs.so";

std::vector<const ovb_provider *> g_providers;
std::mutex g_lock;

bool not_setuid() { return getuid() == geteuid(); }

void register_from(void *handle, const std::string &path)
{
	auto entry = reinterpret_cast<ovb_provider_entry_fn>(
		dlsym(handle, OVB_PROVIDER_ENTRY_NAME));
	if (!entry) {
		log::warning("couldn't load driver '%s': %s\n", path.c_str(),
			     "no " OVB_PROVIDER_ENTRY_NAME);
		return;
	}
	const ovb_provider *p = entry(&core());
	if (!p || p->abi_version != OVB_PROVIDER_ABI_VERSION) {
		log::warning("couldn't load driver '%s': provider ABI %u, library %u\n",
			     path.c_str(), p ? p->abi_version : 0,
			     OVB_PROVIDER_ABI_VERSION);
		return;
	}
	for (auto *q : g_providers)
		if (q == p)
			return;
	g_providers.push_back(p);
	log::debug("provider %s loaded from %s", p->name, path.c_str());
}

// Our provider for a configured name, if there is one.
bool load_ours(const std::string &name)
{
	std::string path = provider_path(name);
	struct stat st;
	// A configured name we have no provider for is not an error: the
	// config lists every rdma-core provider.
	if (stat(path.c_str(), &st)) {
		log::debug("no openverbs provider for '%s' (%s)", name.c_str(),
			   path.c_str());
		return false;
	}
	void *h = dlopen(path.c_str(), RTLD_NOW);
	if (!h) {
		log::warning("couldn't load driver '%s': %s\n", path.c_str(),
			     dlerror());
		return true;
	}
	register_from(h, path);
	return true;
}

bool have_ours(const std::string &name)
{
	struct stat st;
	return !stat(provider_path(name).c_str(), &st);
}

// Provider names, once: RDMAV_DRIVERS, then our config directory, then
// rdma-core's.
const std::vector<std::string> &configured_names()
{
	static std::vector<std::string> names;
	static bool read = false;
	if (read)
		return names;
	read = true;
	if (not_setuid()) {
		const char *env = getenv("RDMAV_DRIVERS");
		if (!env)
			env = getenv("IBV_DRIVERS");
		if (env)
			names = split_driver_list(env);
	}
	// rdma-core's directory may be absent when ours is installed: then
	// its "couldn't open" warning would be noise.
	std::string ours = config_dir();
	struct stat st;
	bool have_dir = !stat(ours.c_str(), &st) && S_ISDIR(st.st_mode);
	for (auto &n : read_config_dir(ours.c_str(), false))
		names.push_back(n);
	for (auto &n : read_config_dir(kRdmaCoreConfigDir, !have_dir))
		names.push_back(n);
	return names;
}

std::string read_modalias(const KernelDevice &d)
{
	char buf[512];
	if (sysfs::read(d.ibdev_path + "/device/modalias", buf, sizeof(buf)) <= 0)
		return {};
	return buf;
}

} // namespace

std::string library_dir()
{
	Dl_info info{};
	if (dladdr(reinterpret_cast<void *>(&library_dir), &info) &&
	    info.dli_fname) {
		std::string lib = info.dli_fname;
		auto slash = lib.rfind('/');
		if (slash != std::string::npos)
			return lib.substr(0, slash);
	}
	return ".";
}

std::string provider_dir()
{
	if (not_setuid())
		if (const char *env = getenv("OPENVERBS_PROVIDER_DIR"))
			return env;
	return library_dir() + "/providers";
}

std::string config_dir()
{
	if (not_setuid())
		if (const char *env = getenv("OPENVERBS_CONFIG_DIR"))
			return env;
	return library_dir() + "/" OVB_CONFIG_RELDIR;
}

std::string provider_path(const std::string &name)
{
	if (name.front() == '/')
		return name + kSuffix;
	return provider_dir() + "/lib" + name + kSuffix;
}

void load_providers(ProviderFamily family)
{
	std::lock_guard<std::mutex> guard(g_lock);
	static bool loaded[2];
	bool &done = loaded[family == ProviderFamily::rdmacore];
	if (done)
		return;
	done = true;
	bool ours_too = rdmacore::families().ours;
	for (const std::string &n : configured_names()) {
		if (n.empty())
			continue;
		if (family == ProviderFamily::openverbs)
			load_ours(n);
		else	// rdma-core's "couldn't load" only where we have none
			rdmacore::load_plugin(n, !(ours_too && have_ours(n)));
	}
}

const std::vector<const ovb_provider *> &registered_providers()
{
	return g_providers;
}

const ovb_provider *match_provider(const KernelDevice &d)
{
	std::string modalias = read_modalias(d);
	for (bool by_id : {true, false}) {
		if (by_id && !d.driver_id)
			continue;
		for (const ovb_provider *p : g_providers) {
			if (!provider_matches(*p, d, by_id, modalias))
				continue;
			if (d.abi_ver < p->min_abi || d.abi_ver > p->max_abi) {
				log::warning("Driver %s does not support the kernel ABI of %u (supports %u to %u) for device %s\n",
					     p->name, d.abi_ver, p->min_abi,
					     p->max_abi, d.ibdev_path.c_str());
				continue;
			}
			return p;
		}
	}
	return nullptr;
}

} // namespace ovb
