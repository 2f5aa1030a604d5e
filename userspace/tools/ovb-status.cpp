// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ovb-status: what a user needs to see of the RDMA stack in one screen:
// which libibverbs and ib_uverbs answer, the providers found, the locked
// memory limit, every device with its ports and GIDs; with a hint for each
// problem found.  Exit 0 when at least one device is usable.
#include <infiniband/verbs.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace {

std::string read_line(const std::string &path)
{
	std::ifstream in(path);
	std::string s;
	std::getline(in, s);
	return s;
}

std::string library_path()
{
	Dl_info info{};
	if (dladdr(reinterpret_cast<void *>(&ibv_get_device_list), &info) &&
	    info.dli_fname)
		return info.dli_fname;
	return "?";
}

void show_library()
{
	std::string lib = library_path();
	char real[4096];
	if (realpath(lib.c_str(), real))
		lib = real;
	std::printf("libibverbs:   %s", lib.c_str());
	// Ours keeps its providers in providers/ beside itself.
	std::string dir = lib.substr(0, lib.rfind('/')) + "/providers";
	bool ours = access(dir.c_str(), F_OK) == 0;
	std::printf(" (%s)\n", ours ? "openverbs" : "rdma-core");
	if (!ours)
		return;
	if (const char *env = getenv("OPENVERBS_PROVIDER_DIR"))
		dir = env;
	std::printf("providers:    %s:", dir.c_str());
	int found = 0;
	if (DIR *d = opendir(dir.c_str())) {
		while (dirent *e = readdir(d)) {
			std::string n = e->d_name;
			const std::string suffix = "-openverbs.so";
			if (n.size() > suffix.size() + 3 && n.rfind("lib", 0) == 0 &&
			    n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
				std::printf(" %s", n.substr(3, n.size() - 3 - suffix.size()).c_str());
				found++;
			}
		}
		closedir(d);
	}
	std::printf("%s\n", found ? "" : " none (hint: build userspace/, or set OPENVERBS_PROVIDER_DIR)");
}

void show_kernel()
{
	utsname u{};
	uname(&u);
	std::printf("kernel:       %s\n", u.release);
	if (access("/sys/module/ib_uverbs", F_OK)) {
		std::printf("ib_uverbs:    not loaded (hint: modprobe ib_uverbs, or insmod build/kernel/ib_uverbs.ko)\n");
		return;
	}
	std::string ver = read_line("/sys/module/ib_uverbs/version");
	std::string src = read_line("/sys/module/ib_uverbs/srcversion");
	std::string what = !ver.empty() ? "openverbs " + ver
			 : src.empty() ? std::string("in-tree")
				       : "in-tree (srcversion " + src + ")";
	std::printf("ib_uverbs:    %s\n", what.c_str());
	std::string abi = read_line("/sys/class/infiniband_verbs/abi_version");
	if (!abi.empty())
		std::printf("uverbs ABI:   %s\n", abi.c_str());
}

void show_memlock()
{
	rlimit rl{};
	if (getrlimit(RLIMIT_MEMLOCK, &rl)) {
		std::printf("memlock:      unknown (%s)\n", strerror(errno));
		return;
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		std::printf("memlock:      unlimited\n");
	else
		std::printf("memlock:      %llu KiB%s\n",
			    static_cast<unsigned long long>(rl.rlim_cur / 1024),
			    geteuid() && rl.rlim_cur <= 65536
			    ? " (hint: raise it, e.g. 'ulimit -l unlimited' or limits.conf)" : "");
}

const char *link_layer(uint8_t ll)
{
	switch (ll) {
	case IBV_LINK_LAYER_INFINIBAND: return "InfiniBand";
	case IBV_LINK_LAYER_ETHERNET: return "Ethernet";
	default: return "unspecified";
	}
}

const char *gid_type(uint32_t t)
{
	switch (t) {
	case IBV_GID_TYPE_IB: return "IB";
	case IBV_GID_TYPE_ROCE_V1: return "RoCE v1";
	case IBV_GID_TYPE_ROCE_V2: return "RoCE v2";
	default: return "?";
	}
}

void show_port(ibv_context *ctx, uint8_t port)
{
	ibv_port_attr pa{};
	if (int rc = ibv_query_port(ctx, port, &pa)) {
		std::printf("  port %u: query failed: %s\n", port, strerror(rc));
		return;
	}
	std::printf("  port %u: %s, %s, MTU %d, %d GIDs\n", port,
		    ibv_port_state_str(pa.state), link_layer(pa.link_layer),
		    128 << pa.active_mtu, pa.gid_tbl_len);
	if (pa.state != IBV_PORT_ACTIVE)
		std::printf("    hint: the port is not active; check the link of its netdev\n");
	for (int i = 0; i < pa.gid_tbl_len; i++) {
		ibv_gid_entry e{};
		if (ibv_query_gid_ex(ctx, port, static_cast<uint32_t>(i), &e, 0))
			continue;
		char text[64];
		const uint8_t *g = e.gid.raw;
		std::snprintf(text, sizeof(text),
			      "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
			      g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8],
			      g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
		std::printf("    GID[%d] %s %s\n", i, text, gid_type(e.gid_type));
	}
}

bool show_device(ibv_device *dev)
{
	std::printf("%s (%s, %s, GUID %016llx)\n", ibv_get_device_name(dev),
		    dev->dev_name, ibv_node_type_str(dev->node_type),
		    static_cast<unsigned long long>(be64toh(ibv_get_device_guid(dev))));
	ibv_context *ctx = ibv_open_device(dev);
	if (!ctx) {
		int err = errno;
		std::printf("  cannot open /dev/infiniband/%s: %s\n", dev->dev_name, strerror(err));
		if (err == EACCES || err == EPERM)
			std::printf("  hint: give your user access to /dev/infiniband (udev rule or group)\n");
		return false;
	}
	ibv_device_attr da{};
	if (!ibv_query_device(ctx, &da)) {
		std::printf("  fw %s, vendor 0x%x part %u, %u port(s), max QP %d, max MR size %llu\n",
			    da.fw_ver, da.vendor_id, da.vendor_part_id, da.phys_port_cnt,
			    da.max_qp, static_cast<unsigned long long>(da.max_mr_size));
		for (uint8_t p = 1; p <= da.phys_port_cnt; p++)
			show_port(ctx, p);
	}
	ibv_close_device(ctx);
	return true;
}

} // namespace

int main()
{
	show_library();
	show_kernel();
	show_memlock();
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	if (!list) {
		std::printf("devices:      none: %s\n", strerror(errno));
		std::printf("hint: load ib_uverbs (and an HCA driver, e.g. 'modprobe rdma_rxe; rdma link add rxe0 type rxe netdev eth0')\n");
		return 1;
	}
	std::printf("devices:      %d\n", n);
	if (!n)
		std::printf("hint: no verbs device with a provider; 'rdma link' lists the kernel's devices, IBV_SHOW_WARNINGS=1 names unclaimed ones\n");
	int usable = 0;
	for (int i = 0; i < n; i++)
		usable += show_device(list[i]);
	ibv_free_device_list(list);
	return usable ? 0 : 1;
}
