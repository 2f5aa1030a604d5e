// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Control-path verbs, ns per operation (Google Benchmark).  Linked against
// the system's libibverbs, so run on either ib_uverbs only the kernel
// differs; `make bench` runs it on both in one boot.
//
//   ovb-bench-control [--benchmark_* options]      (device: $OVB_BENCH_DEV)
#include "rdma_env.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <sys/mman.h>

namespace {

bench::Device &dev()
{
	static bench::Device d = bench::open_device();
	return d;
}

void open_close_device(benchmark::State &st)
{
	ibv_device *device = bench::find_device();
	for (auto _ : st) {
		ibv_context *ctx = ibv_open_device(device);
		if (!ctx)
			bench::die("ibv_open_device");
		ibv_close_device(ctx);
	}
}

void query_device(benchmark::State &st)
{
	ibv_device_attr attr;
	for (auto _ : st)
		if (ibv_query_device(dev().ctx, &attr))
			bench::die("ibv_query_device");
}

void query_port(benchmark::State &st)
{
	ibv_port_attr attr;
	for (auto _ : st)
		if (ibv_query_port(dev().ctx, dev().port, &attr))
			bench::die("ibv_query_port");
}

void alloc_dealloc_pd(benchmark::State &st)
{
	for (auto _ : st) {
		ibv_pd *pd = ibv_alloc_pd(dev().ctx);
		if (!pd)
			bench::die("ibv_alloc_pd");
		ibv_dealloc_pd(pd);
	}
}

// How the registered buffer is backed: by 2 MiB transparent huge pages
// (the guest's default, "always", and what large registrations usually
// get) or by 4 KiB pages only.  The kernel unpins per folio, so the backing
// changes what dereg costs; each run reports the share it actually got.
enum class Backing { huge, small };

// KiB of the mapping at addr backed by huge pages, from /proc/self/smaps.
long anon_huge_kib(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[256];
	bool in = false;
	long kib = -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = lo == reinterpret_cast<unsigned long>(addr);
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib;
}

// Registers len bytes of memory that is already faulted in, so the
// kernel's pinning is measured and not the page faults.  The counter
// "huge" is the share of the buffer in huge pages (0..1).
template <size_t len, Backing backing> void reg_dereg_mr(benchmark::State &st)
{
	void *buf = mmap(nullptr, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		bench::die("mmap");
	if (madvise(buf, len, backing == Backing::huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) ||
	    madvise(buf, len, MADV_POPULATE_WRITE))
		bench::die("madvise");
	for (auto _ : st) {
		ibv_mr *mr = ibv_reg_mr(dev().pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
		if (!mr)
			bench::die("ibv_reg_mr");
		ibv_dereg_mr(mr);
	}
	st.counters["huge"] = anon_huge_kib(buf) * 1024.0 / len;
	munmap(buf, len);
}

void create_destroy_cq(benchmark::State &st)
{
	for (auto _ : st) {
		ibv_cq *cq = ibv_create_cq(dev().ctx, 64, nullptr, nullptr, 0);
		if (!cq)
			bench::die("ibv_create_cq");
		ibv_destroy_cq(cq);
	}
}

// Runs body(qp) on a fresh RC QP and CQ, then cleans up.
template <typename Body> void with_qp(Body body)
{
	ibv_cq *cq = ibv_create_cq(dev().ctx, 64, nullptr, nullptr, 0);
	if (!cq)
		bench::die("ibv_create_cq");
	ibv_qp *qp = bench::create_rc_qp(dev(), cq, cq);
	if (!qp)
		bench::die("ibv_create_qp");
	body(qp);
	ibv_destroy_qp(qp);
	ibv_destroy_cq(cq);
}

void create_destroy_qp(benchmark::State &st)
{
	ibv_cq *cq = ibv_create_cq(dev().ctx, 64, nullptr, nullptr, 0);
	if (!cq)
		bench::die("ibv_create_cq");
	for (auto _ : st) {
		ibv_qp *qp = bench::create_rc_qp(dev(), cq, cq);
		if (!qp)
			bench::die("ibv_create_qp");
		ibv_destroy_qp(qp);
	}
	ibv_destroy_cq(cq);
}

// One iteration: RESET -> INIT -> RTR -> RTS -> RESET (four modifies; the
// QP is connected to itself).
void modify_qp(benchmark::State &st)
{
	auto cycle = [](ibv_qp *qp) {
		if (bench::to_init(qp, dev()) ||
		    bench::to_rtr(qp, dev(), qp->qp_num) || bench::to_rts(qp) ||
		    bench::to_reset(qp))
			bench::die("ibv_modify_qp");
	};
	with_qp([&](ibv_qp *qp) {
		// Warm-up: the first RTR resolves the neighbour (~0.2 s).
		cycle(qp);
		for (auto _ : st)
			cycle(qp);
		st.SetItemsProcessed(4 * st.iterations());
	});
}

void query_qp(benchmark::State &st)
{
	with_qp([&](ibv_qp *qp) {
		if (bench::to_init(qp, dev()) ||
		    bench::to_rtr(qp, dev(), qp->qp_num) || bench::to_rts(qp))
			bench::die("ibv_modify_qp");
		ibv_qp_attr attr;
		ibv_qp_init_attr init;
		int all = IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY |
			  IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_QKEY | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_ALT_PATH |
			  IBV_QP_MIN_RNR_TIMER | IBV_QP_SQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_PATH_MIG_STATE |
			  IBV_QP_CAP | IBV_QP_DEST_QPN;
		for (auto _ : st)
			if (ibv_query_qp(qp, &attr, all, &init))
				bench::die("ibv_query_qp");
	});
}

} // namespace

BENCHMARK(open_close_device)->UseRealTime();
BENCHMARK(query_device)->UseRealTime();
BENCHMARK(query_port)->UseRealTime();
BENCHMARK(alloc_dealloc_pd)->UseRealTime();
BENCHMARK(reg_dereg_mr<4 << 10, Backing::small>)->Name("reg_dereg_mr/4KiB")->UseRealTime();
BENCHMARK(reg_dereg_mr<16 << 20, Backing::huge>)->Name("reg_dereg_mr/16MiB")->UseRealTime();
BENCHMARK(reg_dereg_mr<1 << 30, Backing::huge>)->Name("reg_dereg_mr/1GiB")->UseRealTime();
BENCHMARK(reg_dereg_mr<1 << 30, Backing::small>)
	->Name("reg_dereg_mr/1GiB-4KiB-pages")
	->UseRealTime();
BENCHMARK(create_destroy_cq)->UseRealTime();
BENCHMARK(create_destroy_qp)->UseRealTime();
BENCHMARK(modify_qp)->UseRealTime();
BENCHMARK(query_qp)->UseRealTime();

BENCHMARK_MAIN();
