// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The ovbtest provider through the library: the test HCA (selftests/ovbtest/,
// loaded by tests/guest/ovbtest-provider) is listed and opens, its verbs
// work, and its driver-defined methods are reachable through ovbtestdv.h.
// TAP 13 output.
//
//   ovb_ovbtest_test [device]      (default ovbtest0)
#include <infiniband/verbs.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ovbtestdv.h"

namespace {

int n, failed;

void result(bool ok, const std::string &what)
{
	std::printf("%sok %d - %s\n", ok ? "" : "not ", ++n, what.c_str());
	if (!ok)
		failed++;
}

} // namespace

int main(int argc, char **argv)
{
	const std::string name = argc > 1 ? argv[1] : "ovbtest0";
	constexpr size_t kLen = 256 * 1024;

	std::printf("TAP version 13\n1..13\n");
	int num = 0;
	ibv_device **list = ibv_get_device_list(&num);
	ibv_device *dev = nullptr;
	for (int i = 0; list && i < num; i++)
		if (name == ibv_get_device_name(list[i]))
			dev = list[i];
	result(dev, "ibv_get_device_list lists " + name);
	ibv_context *ctx = dev ? ibv_open_device(dev) : nullptr;
	result(ctx, "ibv_open_device (GET_CONTEXT with the driver's response)");
	if (!ctx) {
		std::printf("# open: %s\n", std::strerror(errno));
		return 1;
	}

	ibv_device_attr attr{};
	ibv_port_attr port{};
	ibv_port_attr port2{};
	result(!ibv_query_device(ctx, &attr) && attr.phys_port_cnt == 2 &&
		       !ibv_query_port(ctx, 1, &port) &&
		       port.state == IBV_PORT_ACTIVE &&
		       port.link_layer == IBV_LINK_LAYER_INFINIBAND &&
		       !ibv_query_port(ctx, 2, &port2) &&
		       port2.link_layer == IBV_LINK_LAYER_ETHERNET,
	       "ibv_query_device, ibv_query_port: an active IB port, an Ethernet port");

	ibv_pd *pd = ibv_alloc_pd(ctx);
	ibv_cq *cq = ibv_create_cq(ctx, 64, nullptr, nullptr, 0);
	std::vector<char> src(kLen), dst(kLen);
	for (size_t i = 0; i < kLen; i++)
		src[i] = static_cast<char>(i * 13 + 1);
	ibv_mr *smr = pd ? ibv_reg_mr(pd, src.data(), kLen, 0) : nullptr;
	ibv_mr *dmr = pd ? ibv_reg_mr(pd, dst.data(), kLen,
				      IBV_ACCESS_LOCAL_WRITE) : nullptr;
	result(pd && cq && cq->cqe == 64 && smr && dmr,
	       "PD, CQ (driver response checked), two MRs");
	ibv_wc wc;
	result(cq && ibv_poll_cq(cq, 1, &wc) == 0, "ibv_poll_cq: empty");
	// The provider keeps the library's plain MW ops: the command reaches
	// the kernel, which answers for a driver without windows.
	errno = 0;
	ibv_mw *mw = pd ? ibv_alloc_mw(pd, IBV_MW_TYPE_2) : nullptr;
	result(!mw && errno == EOPNOTSUPP,
	       "ibv_alloc_mw: EOPNOTSUPP from the kernel (the driver has no MW)");
	if (mw)
		ibv_dealloc_mw(mw);

	ovbtest_device_info info{};
	result(!ovbtestdv_query_device(ctx, &info) &&
		       info.magic == OVBTEST_MAGIC && info.pds >= 1 &&
		       info.mrs >= 2 && info.cqs >= 1,
	       "ovbtestdv_query_device: a driver method on DEVICE");

	ovbtestdv_chan chan{};
	int rc = ovbtestdv_create_chan(pd, 32, &chan);
	result(!rc && chan.id, "ovbtestdv_create_chan");
	const volatile ovbtest_counters *ctr = ovbtestdv_map_counters(ctx);
	result(ctr && ctr->magic == OVBTEST_MAGIC,
	       "ovbtestdv_map_counters: the driver's page");

	uint64_t seq = 0;
	bool ok = !rc;
	for (uint32_t i = 0; ok && i < 64; i++) {
		uint64_t off = (i * 4093) % (kLen - 8192);
		ok = !ovbtestdv_copy(&chan, smr, off, dmr, kLen - 8192 - off,
				     8192, &seq) &&
		     seq == i + 1 &&
		     !std::memcmp(&src[off], &dst[kLen - 8192 - off], 8192);
	}
	result(ok && ctr && ctr->completions == 64 &&
		       ctr->bytes == 64 * 8192,
	       "ovbtestdv_copy: 64 copies of 8 KiB, data and counters right");
	result(ovbtestdv_copy(&chan, dmr, 0, smr, 0, 8, nullptr) == EACCES,
	       "ovbtestdv_copy to a read-only MR: EACCES");

	ovbtest_chan_stats st{};
	result(!ovbtestdv_query_chan(&chan, &st) && st.copies == 64 &&
		       st.depth == 32 && !ovbtestdv_destroy_chan(&chan, &st) &&
		       st.copies == 64,
	       "ovbtestdv_query_chan, ovbtestdv_destroy_chan");

	if (ctr)
		munmap(const_cast<ovbtest_counters *>(ctr), sysconf(_SC_PAGESIZE));
	bool clean = !ibv_dereg_mr(smr) && !ibv_dereg_mr(dmr) &&
		     !ibv_destroy_cq(cq) && !ibv_dealloc_pd(pd) &&
		     !ibv_close_device(ctx);
	result(clean, "everything destroyed, device closed");
	ibv_free_device_list(list);
	return failed ? 1 : 0;
}
