// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RC ping-pong with the C++ API, wire-compatible with ibv_rc_pingpong
// (TCP port 18515, "lid:qpn:psn:gid" exchange), so either side can be the
// C tool.   ovb-rc-pingpong [-d dev] [-g gid_idx] [-n iters] [-s size] [server]
#include <openverbs/verbs.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <netdb.h>
#include <random>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace openverbs;

namespace {

struct Dest {
	uint16_t lid;
	uint32_t qpn, psn;
	ibv_gid gid;
};

constexpr uint8_t kPort = 1;
constexpr int kRxDepth = 500;
constexpr uint64_t kRecvId = 1, kSendId = 2;
constexpr size_t kMsgSize = sizeof "0000:000000:000000:00000000000000000000000000000000";

std::string encode(const Dest &d)
{
	char msg[kMsgSize];
	int n = std::snprintf(msg, sizeof(msg), "%04x:%06x:%06x:", d.lid, d.qpn, d.psn);
	for (int i = 0; i < 16; i++)
		std::snprintf(msg + n + 2 * i, 3, "%02x", d.gid.raw[i]);
	return std::string(msg, sizeof(msg));
}

Dest decode(const char *msg)
{
	Dest d{};
	unsigned lid;
	char gid[33] = {};
	std::sscanf(msg, "%x:%x:%x:%32s", &lid, &d.qpn, &d.psn, gid);
	d.lid = static_cast<uint16_t>(lid);
	for (int i = 0; i < 16; i++)
		d.gid.raw[i] = static_cast<uint8_t>(std::stoul(std::string(gid + 2 * i, 2), nullptr, 16));
	return d;
}

// A connected TCP socket: to host, or the first client of the server.
int tcp(const char *host)
{
	addrinfo hints{}, *res;
	hints.ai_flags = host ? 0 : AI_PASSIVE;
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, "18515", &hints, &res))
		throw Error(EHOSTUNREACH, "getaddrinfo");
	int fd = socket(res->ai_family, res->ai_socktype, 0), one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	bool ok = host ? connect(fd, res->ai_addr, res->ai_addrlen) == 0
		       : bind(fd, res->ai_addr, res->ai_addrlen) == 0 && listen(fd, 1) == 0;
	freeaddrinfo(res);
	if (!ok)
		throw Error(errno, host ? "connect" : "listen");
	if (host)
		return fd;
	int conn = accept(fd, nullptr, nullptr);
	close(fd);
	return conn;
}

// The client writes first and ends with "done"; the server connects its QP
// (connect) before it answers, so the client's first send finds it ready.
template <class Connect>
void exchange(int fd, const Dest &mine, bool server, Connect connect)
{
	char msg[kMsgSize];
	std::string out = encode(mine);
	if (!server && write(fd, out.data(), out.size()) != ssize_t(out.size()))
		throw Error(errno, "write");
	if (read(fd, msg, sizeof(msg)) != ssize_t(sizeof(msg)))
		throw Error(EPROTO, "read remote address");
	Dest remote = decode(msg);
	if (server)
		connect(remote);
	if (server && write(fd, out.data(), out.size()) != ssize_t(out.size()))
		throw Error(errno, "write");
	if (!server && write(fd, "done", sizeof "done") != sizeof "done")
		throw Error(errno, "write");
	if (server && read(fd, msg, sizeof(msg)) != sizeof "done")
		throw Error(EPROTO, "read done");
	if (!server)
		connect(remote);
}

void connect_qp(const Qp &qp, const Dest &me, const Dest &peer, int gid_idx)
{
	ibv_ah_attr ah{};
	ah.dlid = peer.lid;
	ah.port_num = kPort;
	if (peer.gid.global.interface_id) {
		ah.is_global = 1;
		ah.grh.hop_limit = 1;
		ah.grh.dgid = peer.gid;
		ah.grh.sgid_index = static_cast<uint8_t>(gid_idx);
	}
	qp.to_rtr(Rtr(ah, peer.qpn, peer.psn));
	qp.to_rts(Rts(me.psn));
}

int run(const char *devname, int gid_idx, int iters, uint32_t size, const char *peer)
{
	DeviceList devices;
	Context ctx = Context::open(devices.find(devname ? devname : ""));
	Pd pd = ctx.alloc_pd();
	std::vector<std::byte> buf(size);
	Mr mr = pd.reg_mr(buf, IBV_ACCESS_LOCAL_WRITE);
	Cq cq = ctx.create_cq(kRxDepth + 1);
	ibv_qp_init_attr init{};
	init.send_cq = init.recv_cq = cq.get();
	init.cap = {1, kRxDepth, 1, 1, 0};
	init.qp_type = IBV_QPT_RC;
	Qp qp = pd.create_qp(init);
	qp.to_init(Init{kPort});
	for (int i = 0; i < kRxDepth; i++)
		if (int rc = qp.recv(mr.sge(0, size), kRecvId))
			throw Error(rc, "ibv_post_recv");

	Dest me{ctx.query_port(kPort).lid, qp.num(), std::random_device()() & 0xffffff, {}};
	if (gid_idx >= 0)
		me.gid = ctx.query_gid(kPort, gid_idx);
	int fd = tcp(peer);
	exchange(fd, me, peer == nullptr,
		 [&](const Dest &remote) { connect_qp(qp, me, remote, gid_idx); });
	close(fd);

	auto start = std::chrono::steady_clock::now();
	// One send in flight at a time: a receive owes the peer an answer,
	// sent once the previous send has completed.
	int sent = 0, received = 0, owed = 0;
	bool send_busy = false;
	auto send = [&] {
		if (int rc = qp.send(mr.sge(0, size), kSendId))
			throw Error(rc, "ibv_post_send");
		send_busy = true;
		sent++;
	};
	if (peer)
		send();
	while (sent < iters || received < iters || send_busy) {
		ibv_wc wc[2];
		int n = cq.poll(wc);
		if (n < 0)
			throw Error(EIO, "ibv_poll_cq");
		for (const ibv_wc &c : std::span(wc, n)) {
			if (c.status != IBV_WC_SUCCESS)
				throw Error(EIO, ibv_wc_status_str(c.status));
			if (c.wr_id == kSendId) {
				send_busy = false;
				continue;
			}
			received++;
			if (int rc = qp.recv(mr.sge(0, size), kRecvId))
				throw Error(rc, "ibv_post_recv");
			owed++;
		}
		if (owed && !send_busy && sent < iters) {
			owed--;
			send();
		}
	}
	double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
	double bytes = 2.0 * size * iters;
	std::printf("%.0f bytes in %.2f seconds = %.2f Mbit/sec\n", bytes, s, bytes * 8 / s / 1e6);
	std::printf("%d iters in %.2f seconds = %.2f usec/iter\n", iters, s, s * 1e6 / iters);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	const char *dev = nullptr, *peer = nullptr;
	int gid_idx = -1, iters = 1000;
	uint32_t size = 4096;
	for (int i = 1; i < argc; i++) {
		std::string_view a = argv[i];
		if (a == "-d" && i + 1 < argc)
			dev = argv[++i];
		else if (a == "-g" && i + 1 < argc)
			gid_idx = std::atoi(argv[++i]);
		else if (a == "-n" && i + 1 < argc)
			iters = std::atoi(argv[++i]);
		else if (a == "-s" && i + 1 < argc)
			size = static_cast<uint32_t>(std::atoi(argv[++i]));
		else
			peer = argv[i];
	}
	try {
		return run(dev, gid_idx, iters, size, peer);
	} catch (const Error &e) {
		std::fprintf(stderr, "ovb-rc-pingpong: %s\n", e.what());
		return 1;
	}
}
