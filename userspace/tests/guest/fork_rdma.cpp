// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A real fork() with registered memory after ibv_fork_init(): the child
// writes to every page of the registered buffers (its own copies), the
// parent writes to them from the CPU too (which would move it to a fresh
// page if the pinned one had been left shared copy-on-write) and then an
// RDMA WRITE and an RDMA READ on the loopback pair must land in the pages
// the parent sees.  Prints ibv_fork_init's and ibv_is_fork_initialized's
// answers and how the child ended, for tests/guest/wr-verbs to compare
// between rdma-core's library and ours.
//
//   ovb_fork_rdma [device] [gid index]
#include "loopback.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

using namespace loopback;

namespace {

constexpr size_t kLen = 4 * 4096;

int g_fail;

void check(bool ok, const char *what)
{
	std::printf("%s: %s\n", what, ok ? "ok" : "FAIL");
	if (!ok)
		g_fail++;
}

bool rdma(ibv_qp *qp, ibv_cq *cq, ibv_wr_opcode op, void *local, uint32_t lkey,
	  void *remote, uint32_t rkey)
{
	ibv_sge sge{reinterpret_cast<uintptr_t>(local), kLen, lkey};
	ibv_send_wr wr{}, *bad;
	wr.opcode = op;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = reinterpret_cast<uintptr_t>(remote);
	wr.wr.rdma.rkey = rkey;
	ibv_wc wc{};
	return !ibv_post_send(qp, &wr, &bad) && poll_one(cq, wc) && wc.status == IBV_WC_SUCCESS;
}

} // namespace

int main(int argc, char **argv)
{
	int rc = ibv_fork_init();
	std::setvbuf(stdout, nullptr, _IOLBF, 0);
	std::printf("# libibverbs %s\n", mapped_libibverbs().c_str());
	std::printf("ibv_fork_init: %d, ibv_is_fork_initialized: %d\n", rc,
		    ibv_is_fork_initialized());
	Env e;
	if (!e.open(argc > 1 ? argv[1] : "rxe0", argc > 2 ? std::atoi(argv[2]) : 1)) {
		std::printf("no usable device\n");
		return 4;
	}
	void *a = nullptr, *b = nullptr;
	if (posix_memalign(&a, 4096, kLen) || posix_memalign(&b, 4096, kLen))
		return 1;
	auto *src = static_cast<uint8_t *>(a), *dst = static_cast<uint8_t *>(b);
	std::memset(src, 0x11, kLen);
	std::memset(dst, 0x22, kLen);
	ibv_mr *ms = ibv_reg_mr(e.pd, src, kLen, kAllAccess);
	ibv_mr *md = ibv_reg_mr(e.pd, dst, kLen, kAllAccess);
	ibv_cq *cq[2];
	ibv_qp *qp[2];
	for (int i = 0; i < 2; i++) {
		cq[i] = ibv_create_cq(e.ctx, 8, nullptr, nullptr, 0);
		ibv_qp_init_attr ia{};
		ia.send_cq = ia.recv_cq = cq[i];
		ia.qp_type = IBV_QPT_RC;
		ia.cap.max_send_wr = ia.cap.max_recv_wr = 4;
		ia.cap.max_send_sge = ia.cap.max_recv_sge = 1;
		qp[i] = ibv_create_qp(e.pd, &ia);
		if (!qp[i] || !to_init(qp[i], e))
			return 1;
	}
	if (!ms || !md || !to_rts(qp[0], e, qp[1]->qp_num) || !to_rts(qp[1], e, qp[0]->qp_num))
		return 1;

	int go[2], done[2];
	if (pipe(go) || pipe(done))
		return 1;
	std::fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(go[1]);
		close(done[0]);
		// The child's copies of the registered pages: write all of them.
		std::memset(src, 0x33, kLen);
		std::memset(dst, 0x44, kLen);
		(void)!write(done[1], "x", 1);
		(void)!read(go[0], &c, 1);	// live until the parent is done
		_exit(src[0] == 0x33 && dst[kLen - 1] == 0x44 ? 0 : 3);
	}
	close(go[0]);
	close(done[1]);
	char c;
	// 0 bytes: the child died before writing (e.g. SIGSEGV on a page
	// ibv_fork_init kept out of it); the parent's checks still run.
	std::printf("child wrote its pages: %s\n", read(done[0], &c, 1) == 1 ? "yes" : "no");
	// The parent writes its pages after the fork, then RDMA fills them.
	for (size_t i = 0; i < kLen; i++)
		src[i] = uint8_t(i * 7);
	std::memset(dst, 0, kLen);
	bool w = rdma(qp[0], cq[0], IBV_WR_RDMA_WRITE, src, ms->lkey, dst, md->rkey);
	check(w && !std::memcmp(src, dst, kLen), "RDMA write after fork lands in the parent's pages");
	for (size_t i = 0; i < kLen; i++)
		dst[i] = uint8_t(i * 13);
	bool r = rdma(qp[0], cq[0], IBV_WR_RDMA_READ, src, ms->lkey, dst, md->rkey);
	check(r && !std::memcmp(src, dst, kLen), "RDMA read after fork lands in the parent's pages");
	close(go[1]);
	int st = 0;
	waitpid(pid, &st, 0);
	// Compared, not judged: with ibv_fork_init both libraries keep the
	// registered pages out of the child (MADV_DONTFORK) even where
	// ibv_is_fork_initialized says IBV_FORK_UNNEEDED, so its write faults.
	std::printf("child: %s %d\n", WIFEXITED(st) ? "exit" : "signal",
		    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	for (int i = 0; i < 2; i++) {
		ibv_destroy_qp(qp[i]);
		ibv_destroy_cq(cq[i]);
	}
	ibv_dereg_mr(ms);
	ibv_dereg_mr(md);
	std::printf("failures: %d\n", g_fail);
	return g_fail ? 1 : 0;
}
