// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Device removal with a context still open, through libibverbs (issue 17
// part 2).  The test HCA (ovbtest.ko, selftests/ovbtest/) has
// disassociate_ucontext, so removing its module unregisters the device
// under an open context.  With a PD, a completion channel, a CQ on it, a
// QP and an MR made on ovbtest0 and a thread blocked in
// ibv_get_async_event, the module is removed (rmmod), then:
//   - the blocked reader wakes up with IBV_EVENT_DEVICE_FATAL, a second
//     (non-blocking) read finds nothing (EAGAIN: the queue stays open);
//   - every command fails with EIO (query device/port, alloc PD, reg MR,
//     create CQ, modify QP, req notify, the kernel's post and poll);
//     the completion channel is closed under its reader (ibv_get_cq_event
//     fails);
//   - the destroys succeed: the kernel keeps the handles of a
//     disassociated context and answers a destroy 0 (ib_uverbs in 6.1 and
//     6.12, ours alike), whether or not RDMAV_ALLOW_DISASSOC_DESTROY is set,
//     and the provider frees its QP and CQ (seen through operator delete,
//     which this program replaces);
//   - ibv_close_device answers 0, ibv_get_device_list no longer lists the
//     device;
// then the module is loaded again: a fresh ibv_get_device_list lists
// ovbtest0 again and it opens and works (PD, CQ, QP, queries).
// Prints one line per check ("ok"/"FAIL"); exit 1 on any FAIL.
//
//   ovb_ovbtest_hotplug KO [device]       (run by tests/guest/ovbtest-hotplug)
#include "loopback.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <poll.h>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

int g_fail;

void check(bool ok, const std::string &what)
{
	std::printf("%s: %s\n", what.c_str(), ok ? "ok" : "FAIL");
	if (!ok)
		g_fail++;
}

// Objects whose release is watched: operator delete marks them.
constexpr int kWatch = 4;
std::atomic<void *> g_watched[kWatch];
std::atomic<bool> g_deleted[kWatch];

void watch(int slot, void *p)
{
	g_deleted[slot] = false;
	g_watched[slot] = p;
}

void noted(void *p)
{
	for (int i = 0; p && i < kWatch; i++)
		if (g_watched[i].load(std::memory_order_relaxed) == p)
			g_deleted[i] = true;
}

ibv_device *find(ibv_device **list, int n, const char *name)
{
	for (int i = 0; list && i < n; i++)
		if (!std::strcmp(ibv_get_device_name(list[i]), name))
			return list[i];
	return nullptr;
}

bool listed(const char *name)
{
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	bool found = find(list, n, name) != nullptr;
	if (list)
		ibv_free_device_list(list);
	return found;
}

// The kernel's uverbs device for name is there (udev-free guest: sysfs).
bool uverbs_present(const char *name)
{
	for (int i = 0; i < 16; i++) {
		std::string p = "/sys/class/infiniband_verbs/uverbs" + std::to_string(i) + "/ibdev";
		FILE *f = std::fopen(p.c_str(), "r");
		if (!f)
			continue;
		char buf[64] = {};
		bool same = std::fgets(buf, sizeof(buf), f) &&
			    !std::strncmp(buf, name, std::strlen(name)) &&
			    buf[std::strlen(name)] == '\n';
		std::fclose(f);
		if (same)
			return true;
	}
	return false;
}

const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EIO: return "EIO";
	case EAGAIN: return "EAGAIN";
	case ENODEV: return "ENODEV";
	case ENXIO: return "ENXIO";
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return strerror(e);
	}
}

ibv_qp *make_qp(ibv_pd *pd, ibv_cq *cq)
{
	ibv_qp_init_attr init{};
	init.send_cq = init.recv_cq = cq;
	init.qp_type = IBV_QPT_RC;
	init.cap.max_send_wr = init.cap.max_recv_wr = 8;
	init.cap.max_send_sge = init.cap.max_recv_sge = 1;
	return ibv_create_qp(pd, &init);
}

// Everything fails with EIO once the device is gone.
void commands_fail(ibv_context *ctx, ibv_pd *pd, ibv_cq *cq, ibv_qp *qp, void *buf)
{
	ibv_device_attr da{};
	int rc = ibv_query_device(ctx, &da);
	check(rc == EIO, std::string("ibv_query_device: ") + errname(rc));
	ibv_port_attr pa{};
	rc = ibv_query_port(ctx, 1, &pa);
	check(rc == EIO, std::string("ibv_query_port: ") + errname(rc));
	errno = 0;
	ibv_pd *pd2 = ibv_alloc_pd(ctx);
	int err = errno;
	check(!pd2 && err == EIO, std::string("ibv_alloc_pd: NULL, errno ") + errname(err));
	errno = 0;
	ibv_mr *mr2 = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	err = errno;
	check(!mr2 && err == EIO, std::string("ibv_reg_mr: NULL, errno ") + errname(err));
	errno = 0;
	ibv_cq *cq2 = ibv_create_cq(ctx, 8, nullptr, nullptr, 0);
	err = errno;
	check(!cq2 && err == EIO, std::string("ibv_create_cq: NULL, errno ") + errname(err));
	ibv_qp_attr qa{};
	qa.qp_state = IBV_QPS_INIT;
	qa.port_num = 1;
	qa.qp_access_flags = IBV_ACCESS_LOCAL_WRITE;
	rc = ibv_modify_qp(qp, &qa, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					 IBV_QP_ACCESS_FLAGS);
	check(rc == EIO, std::string("ibv_modify_qp: ") + errname(rc));
	rc = ibv_req_notify_cq(cq, 0);
	check(rc == EIO, std::string("ibv_req_notify_cq: ") + errname(rc));
	ibv_wc wc{};
	errno = 0;
	rc = ibv_poll_cq(cq, 1, &wc);
	err = errno;
	std::printf("ibv_poll_cq: %d errno %s\n", rc, errname(err));
	check(rc < 0, "ibv_poll_cq (the kernel's) fails");
	ibv_sge sge{reinterpret_cast<uintptr_t>(buf), 8, 0};
	ibv_send_wr wr{}, *bad = nullptr;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	rc = ibv_post_send(qp, &wr, &bad);
	check(rc == EIO && bad == &wr, std::string("ibv_post_send (the kernel's): ") + errname(rc) +
					       ", bad_wr the first");
}

} // namespace

void operator delete(void *p) noexcept
{
	noted(p);
	std::free(p);
}

void operator delete(void *p, std::size_t) noexcept
{
	noted(p);
	std::free(p);
}

int main(int argc, char **argv)
{
	std::setvbuf(stdout, nullptr, _IOLBF, 0);
	std::printf("# libibverbs %s\n", loopback::mapped_libibverbs().c_str());
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s KO [device]\n", argv[0]);
		return 2;
	}
	const std::string ko = argv[1];
	const char *name = argc > 2 ? argv[2] : "ovbtest0";
	const char *env = std::getenv("RDMAV_ALLOW_DISASSOC_DESTROY");
	std::printf("RDMAV_ALLOW_DISASSOC_DESTROY %s\n", env ? env : "unset");

	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	ibv_device *dev = find(list, n, name);
	ibv_context *ctx = dev ? ibv_open_device(dev) : nullptr;
	ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : nullptr;
	ibv_comp_channel *ch = ctx ? ibv_create_comp_channel(ctx) : nullptr;
	ibv_cq *cq = ch ? ibv_create_cq(ctx, 16, nullptr, ch, 0) : nullptr;
	ibv_qp *qp = pd && cq ? make_qp(pd, cq) : nullptr;
	static char buf[8192];
	ibv_mr *mr = pd ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) : nullptr;
	bool armed = cq && !ibv_req_notify_cq(cq, 0);
	check(ctx && pd && ch && cq && qp && mr && armed,
	      std::string("open ") + name + ", PD, channel, CQ on it (armed), QP, MR");
	if (!(ctx && pd && ch && cq && qp && mr))
		return 1;
	watch(0, qp);
	watch(1, cq);

	// A reader blocked on the async event file while the device goes.
	std::atomic<int> event{-1};
	std::thread reader([&] {
		ibv_async_event ev{};
		if (!ibv_get_async_event(ctx, &ev)) {
			event = ev.event_type;
			ibv_ack_async_event(&ev);
		} else {
			event = -2;
		}
	});
	usleep(200 * 1000);

	auto t0 = std::chrono::steady_clock::now();
	int rm = std::system("rmmod ovbtest");
	auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
			  std::chrono::steady_clock::now() - t0).count();
	check(rm == 0 && ms < 30000, "rmmod ovbtest with the context open returns");
	for (int i = 0; i < 500 && event == -1; i++)
		usleep(10 * 1000);
	std::printf("async event: %s\n", event >= 0 ?
		    ibv_event_type_str(static_cast<ibv_event_type>(event.load())) : "none");
	check(event == IBV_EVENT_DEVICE_FATAL, "the blocked reader got IBV_EVENT_DEVICE_FATAL");
	if (event == -1) {
		std::printf("reader still blocked: FAIL\n");
		std::fflush(stdout);
		_exit(1);
	}
	reader.join();
	int fl = fcntl(ctx->async_fd, F_GETFL);
	fcntl(ctx->async_fd, F_SETFL, fl | O_NONBLOCK);
	ibv_async_event ev{};
	errno = 0;
	int rc = ibv_get_async_event(ctx, &ev);
	int err = errno;
	check(rc == -1 && err == EAGAIN, std::string("then no more async events: ") + errname(err));

	// The completion channel: closed under its reader.
	pollfd pf{ch->fd, POLLIN, 0};
	int pr = poll(&pf, 1, 2000);
	ibv_cq *ecq = nullptr;
	void *ectx = nullptr;
	errno = 0;
	rc = pr == 1 ? ibv_get_cq_event(ch, &ecq, &ectx) : -3;
	err = errno;
	std::printf("completion channel: poll %d revents 0x%x, ibv_get_cq_event %d errno %s\n",
		    pr, pf.revents, rc, errname(err));
	check(pr == 1 && rc == -1 && err == EIO, "ibv_get_cq_event fails with EIO");

	commands_fail(ctx, pd, cq, qp, buf);

	// The destroys: 0 from the kernel, the provider frees its objects.
	rc = ibv_destroy_qp(qp);
	check(rc == 0 && g_deleted[0], std::string("ibv_destroy_qp: ") + errname(rc) +
					       (g_deleted[0] ? ", provider's QP freed" : ", QP not freed"));
	rc = ibv_dereg_mr(mr);
	check(rc == 0, std::string("ibv_dereg_mr: ") + errname(rc));
	rc = ibv_destroy_cq(cq);
	check(rc == 0 && g_deleted[1], std::string("ibv_destroy_cq: ") + errname(rc) +
					       (g_deleted[1] ? ", provider's CQ freed" : ", CQ not freed"));
	rc = ibv_destroy_comp_channel(ch);
	check(rc == 0, std::string("ibv_destroy_comp_channel: ") + errname(rc));
	rc = ibv_dealloc_pd(pd);
	check(rc == 0, std::string("ibv_dealloc_pd: ") + errname(rc));
	rc = ibv_close_device(ctx);
	check(rc == 0, std::string("ibv_close_device: ") + errname(rc));
	check(!listed(name), std::string("ibv_get_device_list no longer lists ") + name);
	ibv_free_device_list(list);

	// Back again.
	rc = std::system(("insmod " + ko).c_str());
	bool present = false;
	for (int i = 0; i < 100 && !(present = uverbs_present(name)); i++)
		usleep(100 * 1000);
	check(rc == 0 && present, "insmod: the uverbs device is back");
	list = ibv_get_device_list(&n);
	dev = find(list, n, name);
	check(dev != nullptr, std::string("a fresh ibv_get_device_list lists ") + name);
	ctx = dev ? ibv_open_device(dev) : nullptr;
	pd = ctx ? ibv_alloc_pd(ctx) : nullptr;
	cq = ctx ? ibv_create_cq(ctx, 16, nullptr, nullptr, 0) : nullptr;
	qp = pd && cq ? make_qp(pd, cq) : nullptr;
	ibv_device_attr da{};
	ibv_port_attr pa{};
	bool works = qp && !ibv_query_device(ctx, &da) && !ibv_query_port(ctx, 1, &pa) &&
		     pa.state == IBV_PORT_ACTIVE;
	check(works, "it opens and works: PD, CQ, QP, device and port queries (port 1 active)");
	bool gone = (!qp || !ibv_destroy_qp(qp)) && (!cq || !ibv_destroy_cq(cq)) &&
		    (!pd || !ibv_dealloc_pd(pd)) && (!ctx || !ibv_close_device(ctx));
	check(works && gone, "and is destroyed and closed again");
	if (list)
		ibv_free_device_list(list);
	std::printf("failures: %d\n", g_fail);
	return g_fail ? 1 : 0;
}
