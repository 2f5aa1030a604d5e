// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RDMA WRITE bandwidth with the C++ API (an ib_write_bw-style loop); the
// same program in C is write_bw.c and either can be the other's peer (TCP
// port 18516, "qpn:psn:rkey:addr:gid" exchange).
//   ovb-write-bw [-d dev] [-g gid_idx] [-n iters] [-s size] [-t depth] [server]
#include <openverbs/verbs.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <netdb.h>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace openverbs;

namespace {

struct Dest {
	uint32_t qpn, psn, rkey;
	unsigned long long addr;
	ibv_gid gid;
};
constexpr size_t kMsg = sizeof "000000:000000:00000000:0000000000000000:" + 32;

// The TCP side channel: the client connects to host, the server accepts.
int tcp(const char *host)
{
	addrinfo hints{}, *res;
	hints.ai_flags = host ? 0 : AI_PASSIVE;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_family = AF_INET;
	if (getaddrinfo(host, "18516", &hints, &res))
		throw Error(EHOSTUNREACH, "getaddrinfo");
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (host ? connect(fd, res->ai_addr, res->ai_addrlen)
		 : bind(fd, res->ai_addr, res->ai_addrlen) || listen(fd, 1))
		throw Error(errno, host ? "connect" : "listen");
	freeaddrinfo(res);
	if (host)
		return fd;
	int s = accept(fd, nullptr, nullptr);
	close(fd);
	return s;
}

// The client sends first; the server connects its QP (connect) before it
// answers, so the client's first write finds it ready.
template <class Connect>
void exchange(int fd, bool client, const Dest &me, Connect connect)
{
	char out[kMsg], in[kMsg] = {};
	int n = std::snprintf(out, kMsg, "%06x:%06x:%08x:%016llx:", me.qpn, me.psn, me.rkey, me.addr);
	for (int i = 0; i < 16; i++)
		std::snprintf(out + n + 2 * i, 3, "%02x", me.gid.raw[i]);
	if ((client && write(fd, out, kMsg) != kMsg) || read(fd, in, kMsg) != kMsg)
		throw Error(EPROTO, "address exchange");
	Dest d{};
	std::sscanf(in, "%x:%x:%x:%llx:", &d.qpn, &d.psn, &d.rkey, &d.addr);
	for (int i = 0; i < 16; i++)
		d.gid.raw[i] = static_cast<uint8_t>(std::strtoul(std::string(in + n + 2 * i, 2).c_str(), nullptr, 16));
	connect(d);
	if (!client && write(fd, out, kMsg) != kMsg)
		throw Error(EPROTO, "address exchange");
}

void connect_qp(const Qp &qp, const Dest &me, const Dest &peer, int gid_idx)
{
	qp.to_rtr(Rtr::roce(peer.gid, static_cast<uint8_t>(gid_idx), peer.qpn, peer.psn));
	qp.to_rts(Rts(me.psn));
}

int run(const char *dev, int gid_idx, int iters, uint32_t size, int depth, const char *peer)
{
	DeviceList devices;
	Context ctx = Context::open(devices.find(dev ? dev : ""));
	Pd pd = ctx.alloc_pd();
	std::vector<std::byte> buf(size);
	Mr mr = pd.reg_mr(buf, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	Cq cq = ctx.create_cq(depth);
	ibv_qp_init_attr init{};
	init.send_cq = init.recv_cq = cq.get();
	init.cap = {static_cast<uint32_t>(depth), 1, 1, 1, 0};
	init.qp_type = IBV_QPT_RC;
	Qp qp = pd.create_qp(init);
	qp.to_init(Init{1, 0, IBV_ACCESS_REMOTE_WRITE});

	Dest me{qp.num(), static_cast<uint32_t>(getpid()) & 0xffffff, mr.rkey(),
		reinterpret_cast<uintptr_t>(buf.data()), ctx.query_gid(1, gid_idx)};
	int fd = tcp(peer);
	Dest remote;
	exchange(fd, peer, me, [&](const Dest &d) { connect_qp(qp, me, remote = d, gid_idx); });
	char done;
	if (!peer)	// the server's memory is written; it waits for the client to go
		return read(fd, &done, 1) == 1 ? 0 : 1;

	ibv_sge sge = mr.sge(0, size);
	const RdmaWrite wr({&sge, 1}, {remote.addr, remote.rkey});
	auto start = std::chrono::steady_clock::now();
	for (int posted = 0, done = 0; done < iters;) {
		for (; posted < iters && posted - done < depth; posted++)
			if (int rc = qp.post(wr))
				throw Error(rc, "ibv_post_send");
		ibv_wc wc[16];
		int n = cq.poll(wc);
		for (const ibv_wc &c : std::span(wc, n > 0 ? n : 0))
			if (c.status != IBV_WC_SUCCESS)
				throw Error(EIO, ibv_wc_status_str(c.status));
		done += n;
	}
	double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
	std::printf("%d x %u bytes in %.3f s: %.2f MB/sec\n", iters, size, s, double(iters) * size / s / 1e6);
	return write(fd, "d", 1) == 1 ? 0 : 1;	// tell the server we are done
}

} // namespace

int main(int argc, char **argv)
{
	const char *dev = nullptr, *peer = nullptr;
	int gid_idx = 1, iters = 1000, depth = 16;
	uint32_t size = 65536;
	for (int i = 1; i < argc; i++) {
		std::string_view a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : "";
		if (a == "-d" && ++i)
			dev = v;
		else if (a == "-g" && ++i)
			gid_idx = std::atoi(v);
		else if (a == "-n" && ++i)
			iters = std::atoi(v);
		else if (a == "-s" && ++i)
			size = static_cast<uint32_t>(std::atoi(v));
		else if (a == "-t" && ++i)
			depth = std::atoi(v);
		else
			peer = argv[i];
	}
	try {
		return run(dev, gid_idx, iters, size, depth, peer);
	} catch (const Error &e) {
		std::fprintf(stderr, "ovb-write-bw: %s\n", e.what());
		return 1;
	}
}
