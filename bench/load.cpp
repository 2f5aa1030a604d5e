// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The control path under load: many live objects, teardown of a process
// holding many, concurrent callers, kernel memory per object.  Linked
// against the system's libibverbs like ovb-bench-control, so on either
// ib_uverbs only the kernel differs; `make bench` (section "load") runs it
// on both in one boot.
//
//   ovb-bench-load ops [--benchmark_* options]
//       Google Benchmark, ns per operation while N objects are held alive
//       by the same context (the same uverbs file): "pds/OP/N" holds N PDs
//       (OP: alloc_dealloc_pd, reg_dereg_mr, create_destroy_cq,
//       query_device), "mrs/reg_dereg_mr/N" holds N 4 KiB MRs.  N takes the
//       values of $OVB_LOAD_NS (default "1000 10000 100000"); the held
//       objects are created once per N, outside the timed loops.
//   ovb-bench-load teardown REPS OUT.json
//       A child creates the objects and signals; the parent SIGKILLs it and
//       times kill -> waitpid (the exiting task releases the uverbs file,
//       which destroys every object, before it can be reaped), then checks
//       with `rdma res` that the device's counts are back where they were.
//       Fastest of REPS repetitions per case; small cases get more
//       (REPS x 10000 / N objects, between REPS and 10 x REPS).
//   ovb-bench-load concurrency SECONDS OUT.json
//       P processes x T threads (own context per process, shared by its
//       threads) loop alloc+dealloc PD / create+destroy CQ for SECONDS;
//       total operations per second.
//   ovb-bench-load memory N OUT.json
//       Kernel memory per live PD, MR (4 KiB), CQ, QP: /proc/slabinfo and
//       /proc/meminfo before and after creating N of them, divided by N.
//
// Device: $OVB_BENCH_DEV (rxe0).
#include "rdma_env.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cctype>
#include <cinttypes>
#include <csignal>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

constexpr size_t kPage = 4096;

double now_ns()
{
	return std::chrono::duration<double, std::nano>(
		       std::chrono::steady_clock::now().time_since_epoch())
		.count();
}

// One faulted-in 4 KiB page, never backed by a huge page; every MR of a
// run registers it (the kernel pins it once per MR, as for distinct pages).
void *page()
{
	static void *buf = [] {
		void *p = mmap(nullptr, kPage, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			bench::die("mmap");
		if (madvise(p, kPage, MADV_NOHUGEPAGE) ||
		    madvise(p, kPage, MADV_POPULATE_WRITE))
			bench::die("madvise");
		return p;
	}();
	return buf;
}

ibv_mr *reg_page(ibv_pd *pd)
{
	return ibv_reg_mr(pd, page(), kPage, IBV_ACCESS_LOCAL_WRITE);
}

ibv_qp *small_qp(ibv_pd *pd, ibv_cq *cq)
{
	ibv_qp_init_attr init{};
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_RC;
	init.cap.max_send_wr = 16;
	init.cap.max_recv_wr = 16;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	return ibv_create_qp(pd, &init);
}

// The objects one context holds; grows and shrinks to the wanted count.
struct Held {
	bench::Device &d;
	std::vector<ibv_pd *> pds;
	std::vector<ibv_mr *> mrs;
	std::vector<ibv_cq *> cqs;
	std::vector<ibv_qp *> qps;

	explicit Held(bench::Device &dev) : d(dev) {}
	~Held() { resize(0, 0, 0, 0); }

	void resize(size_t npd, size_t nmr, size_t ncq, size_t nqp)
	{
		while (qps.size() > nqp) {
			ibv_destroy_qp(qps.back());
			qps.pop_back();
		}
		while (mrs.size() > nmr) {
			ibv_dereg_mr(mrs.back());
			mrs.pop_back();
		}
		while (pds.size() > npd) {
			ibv_dealloc_pd(pds.back());
			pds.pop_back();
		}
		// A QP needs a CQ: at least one stays while QPs do.
		if (nqp && !ncq)
			ncq = 1;
		while (cqs.size() > ncq) {
			ibv_destroy_cq(cqs.back());
			cqs.pop_back();
		}
		while (pds.size() < npd) {
			pds.push_back(ibv_alloc_pd(d.ctx));
			if (!pds.back())
				bench::die("ibv_alloc_pd (held)");
		}
		while (mrs.size() < nmr) {
			mrs.push_back(reg_page(d.pd));
			if (!mrs.back())
				bench::die("ibv_reg_mr (held)");
		}
		while (cqs.size() < ncq) {
			cqs.push_back(ibv_create_cq(d.ctx, 16, nullptr, nullptr, 0));
			if (!cqs.back())
				bench::die("ibv_create_cq (held)");
		}
		while (qps.size() < nqp) {
			qps.push_back(small_qp(d.pd, cqs[qps.size() % cqs.size()]));
			if (!qps.back())
				bench::die("ibv_create_qp (held)");
		}
	}
};

// ---------------------------------------------------------------- ops

bench::Device &dev()
{
	static bench::Device d = bench::open_device();
	return d;
}

Held &held()
{
	static Held h(dev());
	return h;
}

void op_alloc_dealloc_pd(benchmark::State &st)
{
	for (auto _ : st) {
		ibv_pd *pd = ibv_alloc_pd(dev().ctx);
		if (!pd)
			bench::die("ibv_alloc_pd");
		ibv_dealloc_pd(pd);
	}
}

void op_reg_dereg_mr(benchmark::State &st)
{
	for (auto _ : st) {
		ibv_mr *mr = reg_page(dev().pd);
		if (!mr)
			bench::die("ibv_reg_mr");
		ibv_dereg_mr(mr);
	}
}

void op_create_destroy_cq(benchmark::State &st)
{
	for (auto _ : st) {
		ibv_cq *cq = ibv_create_cq(dev().ctx, 64, nullptr, nullptr, 0);
		if (!cq)
			bench::die("ibv_create_cq");
		ibv_destroy_cq(cq);
	}
}

void op_query_device(benchmark::State &st)
{
	ibv_device_attr attr;
	for (auto _ : st)
		if (ibv_query_device(dev().ctx, &attr))
			bench::die("ibv_query_device");
}

std::vector<size_t> load_ns()
{
	const char *env = std::getenv("OVB_LOAD_NS");
	std::istringstream in(env ? env : "1000 10000 100000");
	std::vector<size_t> ns;
	for (size_t n; in >> n;)
		ns.push_back(n);
	return ns;
}

int run_ops(int argc, char **argv)
{
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	static const std::pair<const char *, void (*)(benchmark::State &)> ops[] = {
		{"alloc_dealloc_pd", op_alloc_dealloc_pd},
		{"reg_dereg_mr", op_reg_dereg_mr},
		{"create_destroy_cq", op_create_destroy_cq},
		{"query_device", op_query_device},
	};
	// Registration order is run order: every operation at one N, then
	// the next N, so the held set is built once per N and kind.
	for (const char *kind : {"pds", "mrs"}) {
		for (size_t n : load_ns()) {
			bool pds = std::string(kind) == "pds";
			for (auto &[name, fn] : ops) {
				if (!pds && std::string(name) != "reg_dereg_mr")
					continue;
				auto body = [fn = fn, n, pds](benchmark::State &st) {
					held().resize(pds ? n : 0, pds ? 0 : n, 0, 0);
					fn(st);
				};
				std::string label = std::string(kind) + "/" + name + "/" + std::to_string(n);
				benchmark::RegisterBenchmark(label.c_str(), body)->UseRealTime();
			}
		}
	}
	benchmark::RunSpecifiedBenchmarks();
	held().resize(0, 0, 0, 0);
	benchmark::Shutdown();
	return 0;
}

// ---------------------------------------------------------------- teardown

// {"pd": n, "cq": n, ...} of the device in `rdma res show`.
std::map<std::string, long> res_counts()
{
	std::map<std::string, long> out;
	const char *want = std::getenv("OVB_BENCH_DEV");
	std::string cmd = std::string("rdma res show ") + (want ? want : "rxe0");
	FILE *p = popen(cmd.c_str(), "r");
	if (!p)
		return out;
	char buf[512];
	std::string text;
	while (fgets(buf, sizeof(buf), p))
		text += buf;
	pclose(p);
	std::istringstream in(text);
	std::string word, prev;
	while (in >> word) {
		if (!prev.empty() && std::isdigit(static_cast<unsigned char>(word[0])) &&
		    !std::isdigit(static_cast<unsigned char>(prev[0])))
			out[prev] = std::stol(word);
		prev = word;
	}
	return out;
}

struct Case {
	std::string kind;	// pd | mix
	size_t n;
};

// Creates the objects of c on its own context.  mix: n/3 MRs, n/3 CQs,
// n/3 QPs (one per CQ), all in one PD.
void create_for(bench::Device &d, Held &h, const Case &c)
{
	if (c.kind == "pd")
		h.resize(c.n, 0, 0, 0);
	else
		h.resize(0, c.n / 3, c.n / 3, c.n / 3);
	(void)d;
}

// ms from SIGKILL to the reaped child; ms until rdma res shows the counts
// of before the child (equal to the first unless objects outlived it).
std::pair<double, double> teardown_once(const Case &c, long &residual)
{
	auto before = res_counts();
	int pipefd[2];
	if (pipe(pipefd))
		bench::die("pipe");
	pid_t pid = fork();
	if (pid < 0)
		bench::die("fork");
	if (pid == 0) {
		close(pipefd[0]);
		bench::Device d = bench::open_device();
		Held *h = new Held(d);	// never destroyed: the kill does it
		create_for(d, *h, c);
		char ok = 1;
		if (write(pipefd[1], &ok, 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	char ok = 0;
	if (read(pipefd[0], &ok, 1) != 1) {
		int status;
		waitpid(pid, &status, 0);
		std::fprintf(stderr, "bench: the teardown child (%s %zu) died before signalling\n",
			     c.kind.c_str(), c.n);
		std::exit(2);
	}
	close(pipefd[0]);
	double t0 = now_ns();
	kill(pid, SIGKILL);
	int status;
	waitpid(pid, &status, 0);
	double t1 = now_ns();
	// Objects that outlived the reaped process (none expected): wait for
	// them, up to 30 s.
	double t2 = t1;
	residual = 0;
	for (int i = 0; i < 3000; i++) {
		auto after = res_counts();
		long left = 0;
		for (auto &[k, v] : after)
			left += std::max(0L, v - before[k]);
		if (i == 0)
			residual = left;
		if (!left)
			break;
		usleep(10000);
		t2 = now_ns();
	}
	return {(t1 - t0) / 1e6, (t2 - t0) / 1e6};
}

int run_teardown(int reps, const char *out)
{
	std::vector<Case> cases = {{"pd", 1000}, {"pd", 10000}, {"pd", 100000},
				   {"mix", 999}, {"mix", 9999}};
	if (const char *env = std::getenv("OVB_LOAD_TEARDOWN")) {	// "pd:1000 mix:999"
		cases.clear();
		std::istringstream in(env);
		for (std::string w; in >> w;)
			cases.push_back({w.substr(0, w.find(':')),
					 std::stoul(w.substr(w.find(':') + 1))});
	}
	std::ofstream f(out);
	f << "{\"teardown\": [";
	const char *sep = "";
	for (auto &c : cases) {
		double best = 0, best_gone = 0;
		long residual = 0;
		// A small teardown takes a few ms, less than the host's jitter:
		// it gets more repetitions (10x at 1k objects), up to 10x.
		int case_reps = std::clamp(static_cast<int>(reps * 10000 / c.n), reps, 10 * reps);
		for (int r = 0; r < case_reps; r++) {
			long res;
			auto [ms, gone] = teardown_once(c, res);
			if (r == 0 || ms < best) {
				best = ms;
				best_gone = gone;
			}
			residual = std::max(residual, res);
		}
		std::printf("teardown %s %zu: %.2f ms (%.3f ms per 1k objects), gone after %.2f ms, "
			    "residual %ld\n", c.kind.c_str(), c.n, best, best / c.n * 1000,
			    best_gone, residual);
		std::fflush(stdout);
		f << sep << "\n {\"kind\": \"" << c.kind << "\", \"n\": " << c.n
		  << ", \"ms\": " << best << ", \"gone_ms\": " << best_gone
		  << ", \"residual\": " << residual << "}";
		sep = ",";
	}
	f << "\n]}\n";
	return 0;
}

// ---------------------------------------------------------------- concurrency

struct Shared {
	std::atomic<int> ready, go, stop, failed;
	std::atomic<uint64_t> ops[64];
};

void worker_loop(ibv_context *ctx, const std::string &op, Shared *sh, int slot)
{
	sh->ready++;
	while (!sh->go.load())
		usleep(200);
	uint64_t n = 0;
	while (!sh->stop.load(std::memory_order_relaxed)) {
		if (op == "pd") {
			ibv_pd *pd = ibv_alloc_pd(ctx);
			if (!pd) {
				sh->failed++;
				break;
			}
			ibv_dealloc_pd(pd);
		} else {
			ibv_cq *cq = ibv_create_cq(ctx, 16, nullptr, nullptr, 0);
			if (!cq) {
				sh->failed++;
				break;
			}
			ibv_destroy_cq(cq);
		}
		n++;
	}
	sh->ops[slot] = n;
}

double concurrency_once(int procs, int threads, const std::string &op, double seconds)
{
	auto *sh = static_cast<Shared *>(mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE,
					      MAP_SHARED | MAP_ANONYMOUS, -1, 0));
	if (sh == MAP_FAILED)
		bench::die("mmap");
	std::vector<pid_t> kids;
	for (int p = 0; p < procs; p++) {
		pid_t pid = fork();
		if (pid < 0)
			bench::die("fork");
		if (pid == 0) {
			ibv_context *ctx = ibv_open_device(bench::find_device());
			if (!ctx)
				bench::die("ibv_open_device");
			std::vector<std::thread> ts;
			for (int t = 0; t < threads; t++)
				ts.emplace_back(worker_loop, ctx, op, sh, p * threads + t);
			for (auto &t : ts)
				t.join();
			ibv_close_device(ctx);
			_exit(0);
		}
		kids.push_back(pid);
	}
	while (sh->ready.load() < procs * threads)
		usleep(1000);
	double t0 = now_ns();
	sh->go = 1;
	usleep(static_cast<useconds_t>(seconds * 1e6));
	sh->stop = 1;
	double t1 = now_ns();
	int bad = 0;
	for (pid_t pid : kids) {
		int status;
		waitpid(pid, &status, 0);
		bad += !WIFEXITED(status) || WEXITSTATUS(status);
	}
	uint64_t total = 0;
	for (int i = 0; i < procs * threads; i++)
		total += sh->ops[i];
	if (bad || sh->failed) {
		std::fprintf(stderr, "bench: concurrency %dx%d %s: %d worker(s) failed\n", procs,
			     threads, op.c_str(), bad + sh->failed.load());
		std::exit(2);
	}
	munmap(sh, sizeof(Shared));
	return total / ((t1 - t0) / 1e9);
}

int run_concurrency(double seconds, const char *out)
{
	static const std::pair<int, int> configs[] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {4, 4}, {8, 1}};
	std::ofstream f(out);
	f << "{\"concurrency\": [";
	const char *sep = "";
	for (const char *op : {"pd", "cq"}) {
		for (auto [p, t] : configs) {
			double rate = concurrency_once(p, t, op, seconds);
			std::printf("concurrency %s %dx%d: %.0f ops/s\n", op, p, t, rate);
			std::fflush(stdout);
			f << sep << "\n {\"op\": \"" << op << "\", \"procs\": " << p
			  << ", \"threads\": " << t << ", \"ops_per_s\": " << rate << "}";
			sep = ",";
		}
	}
	f << "\n]}\n";
	return 0;
}

// ---------------------------------------------------------------- memory

// Bytes in each slab cache (slabs x pages per slab), /proc/slabinfo.
std::map<std::string, long> slabinfo()
{
	std::map<std::string, long> out;
	std::ifstream f("/proc/slabinfo");
	std::string line;
	while (std::getline(f, line)) {
		if (line.empty() || line[0] == '#' || line.starts_with("slabinfo"))
			continue;
		std::istringstream in(line);
		std::string name, colon, word;
		long active, num, size, per, pages;
		if (!(in >> name >> active >> num >> size >> per >> pages))
			continue;
		// ... : tunables a b c : slabdata active_slabs num_slabs shared
		while (in >> word && word != "slabdata")
			;
		long aslabs, nslabs;
		if (in >> aslabs >> nslabs)
			out[name] = nslabs * pages * static_cast<long>(kPage);
	}
	return out;
}

std::map<std::string, long> meminfo()
{
	std::map<std::string, long> out;
	std::ifstream f("/proc/meminfo");
	std::string key;
	long kib;
	std::string unit;
	std::string line;
	while (std::getline(f, line)) {
		std::istringstream in(line);
		if (in >> key >> kib) {
			key.pop_back();	// ':'
			out[key] = kib * 1024;
		}
	}
	return out;
}

struct Snapshot {
	std::map<std::string, long> slab, mem;
	static Snapshot take()
	{
		sync();
		return {slabinfo(), meminfo()};
	}
};

int run_memory(size_t n, const char *out)
{
	bench::Device &d = dev();
	std::ofstream f(out);
	f << "{\"memory\": [";
	const char *sep = "";
	for (const char *kind : {"pd", "mr", "cq", "qp"}) {
		std::string k = kind;
		Held h(d);
		auto want = [&](size_t m) {
			if (k == "pd")
				h.resize(m, 0, 0, 0);
			else if (k == "mr")
				h.resize(0, m, 0, 0);
			else if (k == "cq")
				h.resize(0, 0, m, 0);
			else
				h.resize(0, 0, 1, m);
		};
		// Warm the caches (and the QPs' CQ) first.
		want(64);
		want(0);
		if (k == "qp")
			h.resize(0, 0, 1, 0);
		auto a = Snapshot::take();
		want(n);
		auto b = Snapshot::take();
		long slab = 0;
		std::vector<std::pair<long, std::string>> caches;
		for (auto &[name, bytes] : b.slab) {
			long delta = bytes - a.slab[name];
			slab += delta;
			if (delta)
				caches.push_back({delta, name});
		}
		std::sort(caches.rbegin(), caches.rend());
		auto mem = [&](const char *key) { return b.mem[key] - a.mem[key]; };
		long kernel = slab + mem("VmallocUsed") + mem("PageTables") + mem("KernelStack");
		long memfree = -mem("MemFree");
		std::printf("memory %s x %zu: slab %.0f B, vmalloc %.0f B, page tables %.0f B, "
			    "kernel %.0f B, MemFree %.0f B per object\n", kind, n,
			    double(slab) / n, double(mem("VmallocUsed")) / n,
			    double(mem("PageTables")) / n, double(kernel) / n, double(memfree) / n);
		f << sep << "\n {\"kind\": \"" << kind << "\", \"n\": " << n
		  << ", \"slab\": " << slab << ", \"vmalloc\": " << mem("VmallocUsed")
		  << ", \"pagetables\": " << mem("PageTables")
		  << ", \"kernelstack\": " << mem("KernelStack") << ", \"kernel\": " << kernel
		  << ", \"memfree\": " << memfree << ", \"caches\": {";
		for (size_t i = 0; i < caches.size() && i < 6; i++)
			f << (i ? ", " : "") << "\"" << caches[i].second << "\": " << caches[i].first;
		f << "}}";
		sep = ",";
	}
	f << "\n]}\n";
	return 0;
}

[[noreturn]] void usage()
{
	std::fprintf(stderr, "usage: ovb-bench-load ops [--benchmark_*] | teardown REPS OUT.json |"
			     " concurrency SECONDS OUT.json | memory N OUT.json\n");
	std::exit(2);
}

} // namespace

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	std::string mode = argv[1];
	if (mode == "ops") {
		argv[1] = argv[0];
		return run_ops(argc - 1, argv + 1);
	}
	if (argc != 4)
		usage();
	if (mode == "teardown")
		return run_teardown(std::atoi(argv[2]), argv[3]);
	if (mode == "concurrency")
		return run_concurrency(std::atof(argv[2]), argv[3]);
	if (mode == "memory")
		return run_memory(std::strtoul(argv[2], nullptr, 10), argv[3]);
	usage();
}
