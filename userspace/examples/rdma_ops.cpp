// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RDMA WRITE, READ, compare-and-swap and fetch-and-add with the C++ API,
// connected through librdmacm, completions waited for on a completion
// channel.  The protocol (rdma_ops.h) is simple enough for a C server to
// speak it too (tests/guest/rdma_ops_server.c).
//
//   ovb-rdma-ops [-p port] [-x] [server-address]
//
// Without an address: the server (one client, then exit).  -x: the client
// posts through the extended QP (ibv_wr_*) and polls an extended CQ.
#include "rdma_ops.h"

#include <openverbs/rdmacm.hpp>

#include <cstdio>
#include <cstring>
#include <endian.h>
#include <string_view>
#include <vector>

using namespace openverbs;

namespace {

constexpr uint32_t kLen = OVB_RDMA_OPS_LEN;
constexpr int kDepth = 16;

// The next completion, sleeping on the channel: any status but success
// throws, naming what was due.
ibv_wc await(const Cq &cq, const CompChannel &ch, ibv_wc_opcode want)
{
	ibv_wc wc;
	cq.wait(ch, {&wc, 1});
	if (wc.status != IBV_WC_SUCCESS || wc.opcode != want)
		throw Error(EIO, ibv_wc_status_str(wc.status));
	return wc;
}

// The same on an extended CQ, read in place.  Poll; when empty, arm and
// poll again; when still empty, sleep on the channel.
uint64_t await(const CqEx &cq, const CompChannel &ch, ibv_wc_opcode want)
{
	for (bool armed = false;;) {
		{
			CqEx::Polling batch = cq.poll();
			for (const CqEx::Completion &c : batch) {
				if (c.status() != IBV_WC_SUCCESS || c.opcode() != want)
					throw Error(EIO, ibv_wc_status_str(c.status()));
				return c.wr_id();	// consumed as the batch goes
			}
			if (batch.error())
				throw Error(batch.error(), "ibv_start_poll");
		}
		if (!armed) {
			detail::check(ibv_req_notify_cq(cq.cq(), 0), "ibv_req_notify_cq");
			armed = true;
			continue;
		}
		ch.get_event();
		armed = false;
	}
}

bool check(bool ok, const char *what)
{
	std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	return ok;
}

int server(const char *port)
{
	cm::EventChannel ch;
	cm::Id listener(ch);
	listener.listen(cm::Address(nullptr, port));
	std::printf("rdma_ops server: listening on port %u\n", listener.port());
	std::fflush(stdout);
	cm::Id conn = cm::Id::from(ch.expect(RDMA_CM_EVENT_CONNECT_REQUEST));

	Context ctx = conn.context();
	Pd pd = ctx.alloc_pd();
	// data | counter | the receive buffer
	std::vector<uint64_t> mem(kLen / 8 + 1 + 8);
	auto *bytes = reinterpret_cast<uint8_t *>(mem.data());
	mem[kLen / 8] = OVB_RDMA_OPS_COUNTER0;
	Mr mr = pd.reg_mr(std::as_writable_bytes(std::span(mem)),
			  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
	CompChannel cch = ctx.create_comp_channel();
	Cq cq = ctx.create_cq(kDepth, &cch);
	ibv_qp_init_attr init{};
	init.send_cq = init.recv_cq = cq.get();
	init.cap = {kDepth, kDepth, 1, 1, 0};
	init.qp_type = IBV_QPT_RC;
	cm::Qp qp = conn.create_qp(pd, init);
	ibv_sge rsge = mr.sge(kLen + 8, 16);
	if (int rc = qp.post(Recv({&rsge, 1}, 1)))
		throw Error(rc, "ibv_post_recv");

	ovb_rdma_ops_offer offer{htobe64(reinterpret_cast<uintptr_t>(bytes)), htobe32(mr.rkey()),
				 htobe32(kLen)};
	conn.accept({std::as_bytes(std::span(&offer, 1))});
	ch.expect(RDMA_CM_EVENT_ESTABLISHED);

	ibv_wc wc = await(cq, cch, IBV_WC_RECV);
	bool ok = check(wc.byte_len == sizeof OVB_RDMA_OPS_DONE &&
			std::memcmp(bytes + kLen + 8, OVB_RDMA_OPS_DONE, wc.byte_len) == 0,
			"server: the client's message");
	uint32_t bad = 0;
	for (uint32_t i = 0; i < kLen; i++)
		bad += bytes[i] != ovb_rdma_ops_pattern(i);
	ok &= check(bad == 0, "server: region holds the client's RDMA WRITE");
	ok &= check(mem[kLen / 8] == OVB_RDMA_OPS_FINAL, "server: counter after CAS and FETCH_ADD");
	ch.expect(RDMA_CM_EVENT_DISCONNECTED);
	return ok ? 0 : 1;
}

// The client's posts and waits: through ibv_post_send and ibv_poll_cq, or
// (-x) through the extended QP and CQ.
struct Path {
	const Cq *cq = nullptr;
	const CqEx *cqx = nullptr;
	const cm::Qp &qp;
	const CompChannel &ch;

	template <SendRequest W>
	void run(const W &w, ibv_wc_opcode done) const
	{
		if (cqx) {
			QpEx ex(qp.get(), borrow);
			if (int rc = ex.post_ex(w))
				throw Error(rc, "ibv_wr_complete");
			await(*cqx, ch, done);
		} else {
			if (int rc = qp.post(w))
				throw Error(rc, "ibv_post_send");
			await(*cq, ch, done);
		}
	}
};

int client(const char *host, const char *port, bool extended)
{
	cm::EventChannel ch;
	cm::Id id(ch);
	id.resolve(cm::Address(host, port));

	Context ctx = id.context();
	Pd pd = ctx.alloc_pd();
	// local data | read-back data | atomic result | counter read | message
	std::vector<uint64_t> mem(2 * kLen / 8 + 4);
	auto *bytes = reinterpret_cast<uint8_t *>(mem.data());
	uint64_t &result = mem[2 * kLen / 8], &counter = mem[2 * kLen / 8 + 1];
	Mr mr = pd.reg_mr(std::as_writable_bytes(std::span(mem)), IBV_ACCESS_LOCAL_WRITE);
	CompChannel cch = ctx.create_comp_channel();

	Cq cq;
	CqEx cqx;
	cm::Qp qp;
	if (extended) {
		ibv_cq_init_attr_ex ca{};
		ca.cqe = kDepth;
		ca.channel = cch.get();
		ca.wc_flags = IBV_WC_EX_WITH_BYTE_LEN;
		cqx = ctx.create_cq_ex(ca);
		ibv_qp_init_attr_ex init{};
		init.send_cq = init.recv_cq = cqx.cq();
		init.cap = {kDepth, kDepth, 1, 1, 0};
		init.qp_type = IBV_QPT_RC;
		init.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		init.pd = pd.get();
		init.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE |
				      IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				      IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
		detail::check(rdma_create_qp_ex(id.get(), &init), "rdma_create_qp_ex");
		qp = cm::Qp(id.get());
	} else {
		cq = ctx.create_cq(kDepth, &cch);
		ibv_qp_init_attr init{};
		init.send_cq = init.recv_cq = cq.get();
		init.cap = {kDepth, kDepth, 1, 1, 0};
		init.qp_type = IBV_QPT_RC;
		qp = id.create_qp(pd, init);
	}
	Path path{extended ? nullptr : &cq, extended ? &cqx : nullptr, qp, cch};

	id.connect({});
	// The server's region, from the private data of its accept.
	const Remote remote = [&] {
		cm::Event est = ch.expect(RDMA_CM_EVENT_ESTABLISHED);
		ovb_rdma_ops_offer offer;
		if (est.private_data().size() < sizeof offer)
			throw Error(EPROTO, "the server's offer is missing");
		std::memcpy(&offer, est.private_data().data(), sizeof offer);
		if (be32toh(offer.len) != kLen)
			throw Error(EPROTO, "the server offers another length");
		return Remote(be64toh(offer.addr), be32toh(offer.rkey));
	}();

	for (uint32_t i = 0; i < kLen; i++)
		bytes[i] = ovb_rdma_ops_pattern(i);
	ibv_sge data = mr.sge(0, kLen), back = mr.sge(kLen, kLen);
	path.run(RdmaWrite({&data, 1}, remote, {1}), IBV_WC_RDMA_WRITE);
	path.run(RdmaRead({&back, 1}, remote, {2}), IBV_WC_RDMA_READ);
	bool ok = check(std::memcmp(bytes, bytes + kLen, kLen) == 0,
			"client: RDMA READ returns what RDMA WRITE wrote");

	Remote word = remote.offset(kLen);
	ibv_sge res = mr.sge(2 * kLen, 8);
	path.run(AtomicCas(res, word, OVB_RDMA_OPS_COUNTER0, OVB_RDMA_OPS_SWAP, {3}),
		 IBV_WC_COMP_SWAP);
	ok &= check(result == OVB_RDMA_OPS_COUNTER0, "client: CAS returns the old value");
	path.run(AtomicCas(res, word, OVB_RDMA_OPS_COUNTER0, 1, {4}), IBV_WC_COMP_SWAP);
	ok &= check(result == OVB_RDMA_OPS_SWAP, "client: a CAS that does not match returns the value");
	path.run(AtomicFetchAdd(res, word, OVB_RDMA_OPS_ADD, {5}), IBV_WC_FETCH_ADD);
	ok &= check(result == OVB_RDMA_OPS_SWAP, "client: FETCH_ADD returns the old value");
	ibv_sge cnt = mr.sge(2 * kLen + 8, 8);
	path.run(RdmaRead({&cnt, 1}, word, {6}), IBV_WC_RDMA_READ);
	ok &= check(counter == OVB_RDMA_OPS_FINAL, "client: counter after CAS and FETCH_ADD");

	std::memcpy(bytes + 2 * kLen + 16, OVB_RDMA_OPS_DONE, sizeof OVB_RDMA_OPS_DONE);
	ibv_sge msg = mr.sge(2 * kLen + 16, sizeof OVB_RDMA_OPS_DONE);
	path.run(Send({&msg, 1}, {7}), IBV_WC_SEND);
	id.disconnect();
	ch.expect(RDMA_CM_EVENT_DISCONNECTED);
	return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
	const char *port = OVB_RDMA_OPS_PORT, *host = nullptr;
	bool extended = false;
	for (int i = 1; i < argc; i++) {
		std::string_view a = argv[i];
		if (a == "-p" && i + 1 < argc)
			port = argv[++i];
		else if (a == "-x")
			extended = true;
		else
			host = argv[i];
	}
	try {
		return host ? client(host, port, extended) : server(port);
	} catch (const Error &e) {
		std::fprintf(stderr, "ovb-rdma-ops: %s\n", e.what());
		return 1;
	}
}
