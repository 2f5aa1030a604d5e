// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the C++ API must refuse to compile: ctest builds this file once per
// case (-DCASE=N, WILL_FAIL), and CASE=0 once, which must build, so that a
// failure is the case's and not the file's.
#include <openverbs/verbs.hpp>

using namespace openverbs;

int main()
{
	ibv_sge sge{};
	std::span<const ibv_sge> sg(&sge, 1);
	Remote to(0x1000, 7);
#if CASE == 0
	RdmaWrite w(sg, to);	// the well-formed request
	AtomicFetchAdd f(sge, to, 1);
	return w.wr().opcode == IBV_WR_RDMA_WRITE && f.wr().opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ? 0 : 1;
#elif CASE == 1
	RdmaWrite w(sg);	// no remote address and rkey
	return w.wr().opcode;
#elif CASE == 2
	RdmaRead r{sg, {}};	// an empty remote
	return r.wr().opcode;
#elif CASE == 3
	AtomicCas c(sge, 1, 2);	// compare and swap, but where?
	return c.wr().opcode;
#elif CASE == 4
	Remote r(0x1000);	// an address without its rkey
	return int(r.addr);
#elif CASE == 5
	Rtr rtr;	// a connected QP's RTR without the peer
	return rtr.dest_qpn;
#elif CASE == 7
	AtomicFetchAdd f(ibv_sge{1, 8, 2}, to, 1);	// an entry that dies before the post
	return f.wr().opcode;
#elif CASE == 6
	Qp a, b = a;	// handles do not copy
	return b ? 0 : 1;
#endif
}
