// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The machine's own limits, measured in the same guest as the verbs: a
// null system call (the floor of every control-path verb) and memcpy
// bandwidth (the ceiling of rxe's data path, which copies every payload).
#include <benchmark/benchmark.h>

#include <cstring>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace {

void null_syscall(benchmark::State &st)
{
	for (auto _ : st)
		benchmark::DoNotOptimize(syscall(SYS_getppid));
}

template <size_t len> void memcpy_bw(benchmark::State &st)
{
	std::vector<char> src(len, 1), dst(len, 0);
	for (auto _ : st) {
		std::memcpy(dst.data(), src.data(), len);
		benchmark::ClobberMemory();
	}
	st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * len));
}

} // namespace

BENCHMARK(null_syscall)->UseRealTime();
BENCHMARK(memcpy_bw<64 << 10>)->Name("memcpy/64KiB")->UseRealTime();
BENCHMARK(memcpy_bw<64 << 20>)->Name("memcpy/64MiB")->UseRealTime();

BENCHMARK_MAIN();
