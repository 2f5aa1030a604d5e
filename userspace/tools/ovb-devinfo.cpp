// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ovb-devinfo: the attributes of each verbs device and its ports, like
// `ibv_devinfo -v` (same field names and value formats, so the guest test
// can check every line against it), with a hint when something is wrong.
//   ovb-devinfo [-d dev] [-i port] [-l] [-v] [-h]   (ibv_devinfo's options)
#include <openverbs/verbs.hpp>

#include "devinfo_options.h"

#include <arpa/inet.h>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

using namespace openverbs;

namespace {

std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char *f, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, f);
	std::vsnprintf(buf, sizeof(buf), f, ap);
	va_end(ap);
	return buf;
}

// Names of enum values; "invalid" past the end, as ibv_devinfo prints.
template <size_t N>
const char *name(const char *const (&names)[N], unsigned v, const char *bad)
{
	return v < N && names[v] ? names[v] : bad;
}
const char *const kTransport[] = {"InfiniBand", "iWARP", nullptr, nullptr,
				  "usNIC", "usNIC UDP", "unspecified"};
const char *const kPortState[] = {nullptr, "PORT_DOWN", "PORT_INIT",
				  "PORT_ARMED", "PORT_ACTIVE"};
const char *const kAtomic[] = {"ATOMIC_NONE", "ATOMIC_HCA", "ATOMIC_GLOB"};
const char *const kMtu[] = {nullptr, "256", "512", "1024", "2048", "4096"};
const char *const kLinkLayer[] = {"Unknown", "InfiniBand", "Ethernet"};

std::string guid(__be64 g)
{
	uint64_t h = be64toh(g);
	return fmt("%04x:%04x:%04x:%04x", unsigned(h >> 48), unsigned(h >> 32) & 0xffff,
		   unsigned(h >> 16) & 0xffff, unsigned(h) & 0xffff);
}

// Device fields: name, value, shown without -v too.
using DevAttr = ibv_device_attr;
struct DevField {
	const char *name;
	std::string (*value)(const DevAttr &);
	bool brief;
};
#define OVB_INT(f) DevField{#f, [](const DevAttr &a) { return fmt("%d", a.f); }, false}
const DevField kDevice[] = {
	{"fw_ver", [](const DevAttr &a) { return std::string(a.fw_ver); }, true},
	{"node_guid", [](const DevAttr &a) { return guid(a.node_guid); }, true},
	{"sys_image_guid", [](const DevAttr &a) { return guid(a.sys_image_guid); }, true},
	{"vendor_id", [](const DevAttr &a) { return fmt("0x%04x", a.vendor_id); }, true},
	{"vendor_part_id", [](const DevAttr &a) { return fmt("%d", a.vendor_part_id); }, true},
	{"hw_ver", [](const DevAttr &a) { return fmt("0x%X", a.hw_ver); }, true},
	{"phys_port_cnt", [](const DevAttr &a) { return fmt("%d", a.phys_port_cnt); }, true},
	{"max_mr_size", [](const DevAttr &a) { return fmt("0x%llx", (unsigned long long)a.max_mr_size); }, false},
	{"page_size_cap", [](const DevAttr &a) { return fmt("0x%llx", (unsigned long long)a.page_size_cap); }, false},
	OVB_INT(max_qp), OVB_INT(max_qp_wr),
	{"device_cap_flags", [](const DevAttr &a) { return fmt("0x%08x", a.device_cap_flags); }, false},
	OVB_INT(max_sge), OVB_INT(max_sge_rd), OVB_INT(max_cq), OVB_INT(max_cqe),
	OVB_INT(max_mr), OVB_INT(max_pd), OVB_INT(max_qp_rd_atom),
	OVB_INT(max_ee_rd_atom), OVB_INT(max_res_rd_atom),
	OVB_INT(max_qp_init_rd_atom), OVB_INT(max_ee_init_rd_atom),
	{"atomic_cap", [](const DevAttr &a) {
		 return fmt("%s (%d)", name(kAtomic, a.atomic_cap, "invalid atomic capability"),
			    a.atomic_cap); }, false},
	OVB_INT(max_ee), OVB_INT(max_rdd), OVB_INT(max_mw), OVB_INT(max_raw_ipv6_qp),
	OVB_INT(max_raw_ethy_qp), OVB_INT(max_mcast_grp), OVB_INT(max_mcast_qp_attach),
	OVB_INT(max_total_mcast_qp_attach), OVB_INT(max_ah), OVB_INT(max_fmr),
	OVB_INT(max_srq), OVB_INT(max_srq_wr), OVB_INT(max_srq_sge), OVB_INT(max_pkeys),
	OVB_INT(local_ca_ack_delay),
};
#undef OVB_INT

using PortAttr = ibv_port_attr;
struct PortField {
	const char *name;
	std::string (*value)(const PortAttr &);
	bool brief;
};
#define OVB_PINT(f, spec) PortField{#f, [](const PortAttr &a) { return fmt(spec, a.f); }, false}
const PortField kPort[] = {
	{"state", [](const PortAttr &a) { return fmt("%s (%d)", name(kPortState, a.state, "invalid state"), a.state); }, true},
	{"max_mtu", [](const PortAttr &a) { return fmt("%s (%d)", name(kMtu, a.max_mtu, "invalid MTU"), a.max_mtu); }, true},
	{"active_mtu", [](const PortAttr &a) { return fmt("%s (%d)", name(kMtu, a.active_mtu, "invalid MTU"), a.active_mtu); }, true},
	{"sm_lid", [](const PortAttr &a) { return fmt("%d", a.sm_lid); }, true},
	{"port_lid", [](const PortAttr &a) { return fmt("%d", a.lid); }, true},
	{"port_lmc", [](const PortAttr &a) { return fmt("0x%02x", a.lmc); }, true},
	{"link_layer", [](const PortAttr &a) { return std::string(name(kLinkLayer, a.link_layer, "Unknown")); }, true},
	OVB_PINT(max_msg_sz, "0x%x"), OVB_PINT(port_cap_flags, "0x%08x"),
	OVB_PINT(port_cap_flags2, "0x%04x"), OVB_PINT(bad_pkey_cntr, "0x%x"),
	OVB_PINT(qkey_viol_cntr, "0x%x"), OVB_PINT(sm_sl, "%d"), OVB_PINT(pkey_tbl_len, "%d"),
	OVB_PINT(gid_tbl_len, "%d"), OVB_PINT(subnet_timeout, "%d"), OVB_PINT(init_type_reply, "%d"),
};
#undef OVB_PINT

// "GID[  i]:" lines as ibv_devinfo -v prints them: RoCE v2 GIDs as IPv6
// text, the others as 8 hex groups; the type only on Ethernet.
void print_gids(const Context &ctx, uint8_t port, const PortAttr &pa)
{
	for (int i = 0; i < pa.gid_tbl_len; i++) {
		ibv_gid_entry e{};
		int rc = ibv_query_gid_ex(ctx.get(), port, static_cast<uint32_t>(i), &e, 0);
		if (rc == ENODATA)
			continue;
		if (rc)
			throw Error(rc, "ibv_query_gid_ex");
		bool v2 = e.gid_type == IBV_GID_TYPE_ROCE_V2;
		std::string text;
		if (v2) {
			char buf[INET6_ADDRSTRLEN];
			text = inet_ntop(AF_INET6, e.gid.raw, buf, sizeof(buf));
		} else {
			for (int b = 0; b < 16; b += 2)
				text += fmt("%s%02x%02x", b ? ":" : "", e.gid.raw[b], e.gid.raw[b + 1]);
		}
		if (pa.link_layer == IBV_LINK_LAYER_ETHERNET)
			text += v2 ? ", RoCE v2" : ", RoCE v1";
		std::printf("\t\t\tGID[%3d]:\t\t%s\n", i, text.c_str());
	}
}

// 0, or 1 when the device has no such port (ibv_devinfo's message).
int show(ibv_device *dev, bool verbose, int only_port)
{
	Context ctx = Context::open(dev);
	ibv_device_attr a = ctx.query_device();
	if (only_port > a.phys_port_cnt) {
		std::fprintf(stderr, "Invalid port requested for device\n");
		return 1;
	}
	std::printf("hca_id:\t%s\n", ibv_get_device_name(dev));
	std::printf("\ttransport:\t\t\t%s (%d)\n",
		    name(kTransport, static_cast<unsigned>(dev->transport_type), "invalid transport"),
		    dev->transport_type);
	for (const DevField &f : kDevice)
		if (verbose || f.brief)
			std::printf("\t%s:\t%s\n", f.name, f.value(a).c_str());
	if (verbose)
		std::printf("\tnum_comp_vectors:\t%d\n", ctx->num_comp_vectors);
	for (uint8_t port = 1; port <= a.phys_port_cnt; port++) {
		if (only_port && port != only_port)
			continue;
		ibv_port_attr pa = ctx.query_port(port);
		std::printf("\t\tport:\t%u\n", port);
		for (const PortField &f : kPort)
			if (verbose || f.brief)
				std::printf("\t\t\t%s:\t%s\n", f.name, f.value(pa).c_str());
		if (verbose)
			print_gids(ctx, port, pa);
	}
	return 0;
}

// -l: ibv_devinfo's list.
void list(const DeviceList &devices)
{
	std::printf("%zu HCA%s found:\n", devices.size(), devices.size() != 1 ? "s" : "");
	for (ibv_device *d : devices)
		std::printf("\t%s\n", ibv_get_device_name(d));
	std::printf("\n");
}

} // namespace

int main(int argc, char **argv)
{
	using ovb::devinfo::Options;
	Options opt = ovb::devinfo::parse(argc, argv);
	if (opt.action == Options::Action::help) {
		std::printf(ovb::devinfo::kUsage, "ovb-devinfo");
		return 0;
	}
	if (opt.action == Options::Action::bad_usage) {
		std::fprintf(stderr, "ovb-devinfo: %s\n", opt.error.c_str());
		std::fprintf(stderr, ovb::devinfo::kUsage, "ovb-devinfo");
		return 2;
	}
	std::string_view want = opt.device;
	const char *no_devices =
		"ovb-devinfo: no RDMA devices found\n"
		"hint: load ib_uverbs and a driver (modprobe rdma_rxe), add a "
		"Soft-RoCE link (rdma link add rxe0 type rxe netdev eth0); "
		"ovb-status shows what is missing\n";
	try {
		DeviceList devices;
		if (opt.action == Options::Action::list) {
			list(devices);
			return 0;
		}
		if (!devices.size()) {
			std::fputs(no_devices, stderr);
			return 1;
		}
		bool found = false;
		int rc = 0;
		for (ibv_device *d : devices) {
			if (!want.empty() && want != ibv_get_device_name(d))
				continue;
			found = true;
			rc |= show(d, opt.verbose, opt.port);
		}
		if (!found) {
			std::fprintf(stderr, "ovb-devinfo: no device '%.*s'; devices:",
				     int(want.size()), want.data());
			for (ibv_device *d : devices)
				std::fprintf(stderr, " %s", ibv_get_device_name(d));
			std::fprintf(stderr, "\n");
			return 1;
		}
		if (rc)
			return rc;
	} catch (const Error &e) {
		if (e.code().value() == ENOSYS) {	// no uverbs class in sysfs
			std::fputs(no_devices, stderr);
			return 1;
		}
		std::fprintf(stderr, "ovb-devinfo: %s\n", e.what());
		if (e.code().value() == EACCES || e.code().value() == EPERM)
			std::fprintf(stderr, "hint: no access to /dev/infiniband/uverbs*: "
				     "add the user to the rdma group (Documentation/install.md)\n");
		return 1;
	}
	return 0;
}
