// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Allocation failures at every step of a verbs program: for N = 1, 2, ...
// a forked child runs the same scenario (device list, open, PD, MR, CQs,
// QP, SRQ, MW, AH, completion channel, post/poll, teardown) with its Nth
// malloc/calloc/realloc failing (this program's definitions stand in for
// libc's, so the library's allocations and C++ operator new reach them).
// A failed call must answer as a C function does (NULL or an error code,
// errno set), never let a C++ exception out, never crash.  Ends when a
// child runs the whole scenario without reaching its Nth allocation.
//
//   ovb_alloc_fail [device] [max N]      (default rxe0 5000)
// Prints one summary line; exit 0 when no child crashed or threw.
#include <infiniband/verbs.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

extern "C" void *__libc_malloc(size_t);
extern "C" void *__libc_calloc(size_t, size_t);
extern "C" void *__libc_realloc(void *, size_t);

namespace {

constexpr int kReportFd = 10;	// the child's line to its parent
long g_fail_at = 0;	// 0: never
long g_count = 0;
bool g_fired = false;

bool fail_now()
{
	if (!g_fail_at)
		return false;
	if (++g_count == g_fail_at) {
		g_fired = true;
		return true;
	}
	return false;
}

// What the child tells its parent (exit status).
enum Outcome { completed = 0, stopped = 1, threw = 2, bad_answer = 3, absorbed = 4 };

char g_where[128];

void note(const char *what)
{
	std::snprintf(g_where, sizeof(g_where), "%s", what);
}

// A failed call: errno must say why.
[[noreturn]] void stop(const char *what)
{
	int err = errno;
	note(what);
	char line[200];
	int n = std::snprintf(line, sizeof(line), "%s errno %d\n", what, err);
	if (write(kReportFd, line, static_cast<size_t>(n)) < 0)
		_exit(bad_answer);
	_exit(err ? stopped : bad_answer);
}

#define NEED(expr, what)                                                     \
	do {                                                                 \
		note(what);                                                  \
		if (!(expr))                                                 \
			stop(what);                                          \
	} while (0)

#define NEED_RC(expr, what)                                                  \
	do {                                                                 \
		note(what);                                                  \
		int rc_ = (expr);                                            \
		if (rc_) {                                                   \
			if (rc_ > 0)                                         \
				errno = rc_;                                 \
			stop(what);                                          \
		}                                                            \
	} while (0)

void scenario(const char *name)
{
	int n = 0;
	note("ibv_get_device_list");
	ibv_device **list = ibv_get_device_list(&n);
	NEED(list, "ibv_get_device_list");
	ibv_device *dev = nullptr;
	for (int i = 0; i < n; i++)
		if (!std::strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev) {
		errno = ENODEV;
		stop("no device (a failed allocation hid it)");
	}
	note("ibv_open_device");
	ibv_context *ctx = ibv_open_device(dev);
	NEED(ctx, "ibv_open_device");
	ibv_device_attr_ex da;
	NEED_RC(ibv_query_device_ex(ctx, nullptr, &da), "ibv_query_device_ex");
	ibv_port_attr pa;
	NEED_RC(ibv_query_port(ctx, 1, &pa), "ibv_query_port");
	ibv_gid gid;
	NEED_RC(ibv_query_gid(ctx, 1, 1, &gid), "ibv_query_gid");
	note("ibv_create_comp_channel");
	ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
	NEED(ch, "ibv_create_comp_channel");
	note("ibv_alloc_pd");
	ibv_pd *pd = ibv_alloc_pd(ctx);
	NEED(pd, "ibv_alloc_pd");
	static char buf[8192];
	note("ibv_reg_mr");
	ibv_mr *mr = ibv_reg_mr(pd, buf, sizeof(buf),
				IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND);
	NEED(mr, "ibv_reg_mr");
	note("ibv_create_cq");
	ibv_cq *cq = ibv_create_cq(ctx, 16, nullptr, ch, 0);
	NEED(cq, "ibv_create_cq");
	ibv_cq_init_attr_ex cqa{};
	cqa.cqe = 16;
	cqa.wc_flags = IBV_WC_STANDARD_FLAGS;
	note("ibv_create_cq_ex");
	ibv_cq_ex *cqx = ibv_create_cq_ex(ctx, &cqa);
	NEED(cqx, "ibv_create_cq_ex");
	ibv_srq_init_attr sa{};
	sa.attr.max_wr = 8;
	sa.attr.max_sge = 1;
	note("ibv_create_srq");
	ibv_srq *srq = ibv_create_srq(pd, &sa);
	NEED(srq, "ibv_create_srq");
	ibv_qp_init_attr qa{};
	qa.send_cq = qa.recv_cq = cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = qa.cap.max_recv_wr = 8;
	qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
	note("ibv_create_qp");
	ibv_qp *qp = ibv_create_qp(pd, &qa);
	NEED(qp, "ibv_create_qp");
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	NEED_RC(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS),
		"ibv_modify_qp");
	ibv_sge sge{reinterpret_cast<uintptr_t>(buf), 64, mr->lkey};
	ibv_recv_wr rwr{};
	rwr.sg_list = &sge;
	rwr.num_sge = 1;
	ibv_recv_wr *rbad;
	NEED_RC(ibv_post_recv(qp, &rwr, &rbad), "ibv_post_recv");
	ibv_wc wc;
	NEED(ibv_poll_cq(cq, 1, &wc) >= 0, "ibv_poll_cq");
	note("ibv_alloc_mw");
	ibv_mw *mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	NEED(mw, "ibv_alloc_mw");
	ibv_ah_attr aa{};
	aa.is_global = 1;
	aa.grh.dgid = gid;
	aa.grh.sgid_index = 1;
	aa.grh.hop_limit = 1;
	aa.port_num = 1;
	note("ibv_create_ah");
	ibv_ah *ah = ibv_create_ah(pd, &aa);
	NEED(ah, "ibv_create_ah");
	NEED_RC(ibv_destroy_ah(ah), "ibv_destroy_ah");
	NEED_RC(ibv_dealloc_mw(mw), "ibv_dealloc_mw");
	NEED_RC(ibv_destroy_qp(qp), "ibv_destroy_qp");
	NEED_RC(ibv_destroy_srq(srq), "ibv_destroy_srq");
	NEED_RC(ibv_destroy_cq(ibv_cq_ex_to_cq(cqx)), "ibv_destroy_cq (ex)");
	NEED_RC(ibv_destroy_cq(cq), "ibv_destroy_cq");
	NEED_RC(ibv_dereg_mr(mr), "ibv_dereg_mr");
	NEED_RC(ibv_dealloc_pd(pd), "ibv_dealloc_pd");
	NEED_RC(ibv_destroy_comp_channel(ch), "ibv_destroy_comp_channel");
	NEED_RC(ibv_close_device(ctx), "ibv_close_device");
	ibv_free_device_list(list);
}

} // namespace

extern "C" [[gnu::visibility("default")]] void *malloc(size_t n)
{
	if (fail_now()) {
		errno = ENOMEM;
		return nullptr;
	}
	return __libc_malloc(n);
}

extern "C" [[gnu::visibility("default")]] void *calloc(size_t n, size_t m)
{
	if (fail_now()) {
		errno = ENOMEM;
		return nullptr;
	}
	return __libc_calloc(n, m);
}

extern "C" [[gnu::visibility("default")]] void *realloc(void *p, size_t n)
{
	if (fail_now()) {
		errno = ENOMEM;
		return nullptr;
	}
	return __libc_realloc(p, n);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "rxe0";
	if (const char *one = std::getenv("OVB_ALLOC_FAIL_ONE")) {	// debugging
		g_fail_at = std::atol(one);
		scenario(name);
		return 0;
	}
	long max = argc > 2 ? std::atol(argv[2]) : 5000;
	int fds[2];
	if (pipe(fds) || dup2(fds[1], kReportFd) < 0)
		return 1;
	std::map<std::string, int> stops;	// where and errno -> how often
	std::string threw_at, crashed_at, bad_at;
	long absorbed_n = 0;	// the library went on without what failed
	long n = 1;
	bool done = false;
	for (; n <= max && !done; n++) {
		pid_t pid = fork();
		if (pid == 0) {
			close(fds[0]);
			g_fail_at = n;
			try {
				scenario(name);
			} catch (...) {
				char line[200];
				int k = std::snprintf(line, sizeof(line),
						      "exception out of %s\n", g_where);
				if (write(kReportFd, line, static_cast<size_t>(k)) < 0)
					_exit(threw);
				_exit(threw);
			}
			_exit(g_fired ? absorbed : completed);
		}
		int status = 0;
		waitpid(pid, &status, 0);
		char line[256] = "";
		ssize_t k = 0;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != completed) {
			// The child's one line (if it wrote one).
			fd_set s;
			FD_ZERO(&s);
			FD_SET(fds[0], &s);
			timeval tv{0, 0};
			if (select(fds[0] + 1, &s, nullptr, nullptr, &tv) > 0)
				k = read(fds[0], line, sizeof(line) - 1);
			line[k > 0 ? k : 0] = 0;
			if (char *nl = std::strchr(line, '\n'))
				*nl = 0;
		}
		std::string where = line;
		if (WIFSIGNALED(status)) {
			if (crashed_at.empty())
				crashed_at = "N=" + std::to_string(n) + " signal " +
					     std::to_string(WTERMSIG(status));
		} else if (WEXITSTATUS(status) == completed) {
			done = true;
		} else if (WEXITSTATUS(status) == threw) {
			if (threw_at.empty())
				threw_at = "N=" + std::to_string(n) + " " + where;
		} else if (WEXITSTATUS(status) == absorbed) {
			absorbed_n++;
		} else if (WEXITSTATUS(status) == bad_answer) {
			if (bad_at.empty())
				bad_at = "N=" + std::to_string(n) + " " + where;
		} else {
			stops[where]++;
		}
	}
	std::printf("%s after %ld allocation failures (%ld absorbed): %zu distinct "
		    "failed calls; exception %s; crash %s; failure without errno %s\n",
		    done ? "completed" : "NOT completed", n - 2, absorbed_n, stops.size(),
		    threw_at.empty() ? "none" : threw_at.c_str(),
		    crashed_at.empty() ? "none" : crashed_at.c_str(),
		    bad_at.empty() ? "none" : bad_at.c_str());
	for (const auto &[w, c] : stops)
		std::printf("  %s: %d\n", w.c_str(), c);
	return threw_at.empty() && crashed_at.empty() && done ? 0 : 1;
}
