// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Posting and polling through the kernel, for devices whose queues the
// kernel driver owns (rdmavt's hfi1 and qib: their providers post sends
// with ibv_cmd_post_send).  POST_SEND, POST_RECV and POST_SRQ_RECV carry
// the work requests in the write() ABI's arrays: the request, a table of
// WRs, then every WR's SGEs in order.  On a refused post the response
// names the WR (from 1), which *bad then points at; when the command
// itself failed, *bad is the first WR.  POLL_CQ returns the kernel's
// completions.
#include <cerrno>
#include <cstring>
#include <vector>

#include "cmd/execute.h"
#include "core.h"

namespace ovb {

namespace {

static_assert(sizeof(ovb_sge) == sizeof(ibv_sge));
static_assert(offsetof(ovb_sge, lkey) == offsetof(ibv_sge, lkey));

// The command's bytes: Req, then n WRs of type Wr, then the SGEs.
template <class Req, class Wr>
struct PostBuffer {
	PostBuffer(uint32_t wrs, uint32_t sges)
		: bytes(sizeof(Req) + wrs * sizeof(Wr) + sges * sizeof(ovb_sge))
	{
	}
	Req *req() { return reinterpret_cast<Req *>(bytes.data()); }
	Wr *wr(uint32_t i)
	{
		return reinterpret_cast<Wr *>(bytes.data() + sizeof(Req)) + i;
	}
	ovb_sge *sges(uint32_t wrs)
	{
		return reinterpret_cast<ovb_sge *>(bytes.data() + sizeof(Req) +
						   wrs * sizeof(Wr));
	}
	std::vector<std::byte> bytes;
};

// WRs in the chain and their SGEs.
template <class W>
uint32_t chain_size(const W *wr, uint32_t &sges)
{
	uint32_t n = 0;
	sges = 0;
	for (; wr; wr = wr->next, n++)
		sges += static_cast<uint32_t>(wr->num_sge);
	return n;
}

// The WR the response names (from 1), or the first when it names none.
template <class W>
W *named_wr(W *wr, uint32_t index)
{
	for (uint32_t i = 1; wr->next && i < index; i++)
		wr = wr->next;
	return wr;
}

// One send WR as the kernel takes it; false for a UD WR without an AH.
bool encode_send(ovb_send_wr &out, const ibv_send_wr &in, bool ud)
{
	out.wr_id = in.wr_id;
	out.num_sge = static_cast<uint32_t>(in.num_sge);
	out.opcode = in.opcode;
	out.send_flags = in.send_flags;
	// imm_data and invalidate_rkey share their place in both layouts
	out.ex.imm_data = in.imm_data;
	if (ud) {
		if (!in.wr.ud.ah)
			return false;
		out.wr.ud.ah = in.wr.ud.ah->handle;
		out.wr.ud.remote_qpn = in.wr.ud.remote_qpn;
		out.wr.ud.remote_qkey = in.wr.ud.remote_qkey;
		return true;
	}
	switch (in.opcode) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		out.wr.rdma.remote_addr = in.wr.rdma.remote_addr;
		out.wr.rdma.rkey = in.wr.rdma.rkey;
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		out.wr.atomic.remote_addr = in.wr.atomic.remote_addr;
		out.wr.atomic.compare_add = in.wr.atomic.compare_add;
		out.wr.atomic.swap = in.wr.atomic.swap;
		out.wr.atomic.rkey = in.wr.atomic.rkey;
		break;
	default:
		break;
	}
	return true;
}

// POST_RECV and POST_SRQ_RECV: the same layout, another handle.
template <class Req>
int post_recvs(ibv_context *ctx, const cmd::Spec &spec, uint32_t handle,
	       ibv_recv_wr *wr, ibv_recv_wr **bad)
{
	static_assert(sizeof(Req) == sizeof(ovb_post_recv_req));
	uint32_t sges;
	uint32_t n = chain_size(wr, sges);
	PostBuffer<ovb_post_recv_req, ovb_recv_wr> b(n, sges);
	b.req()->qp_handle = handle;
	b.req()->wr_count = n;
	b.req()->sge_count = sges;
	b.req()->wqe_size = sizeof(ovb_recv_wr);
	ovb_sge *sge = b.sges(n);
	uint32_t i = 0;
	for (ibv_recv_wr *w = wr; w; w = w->next, i++) {
		b.wr(i)->wr_id = w->wr_id;
		b.wr(i)->num_sge = static_cast<uint32_t>(w->num_sge);
		std::memcpy(sge, w->sg_list, w->num_sge * sizeof(*sge));
		sge += w->num_sge;
	}
	ovb_post_recv_resp resp{};
	int rc = cmd::execute(ctx, spec, b.bytes.data(), b.bytes.size(), &resp,
			      sizeof(resp), nullptr);
	if ((rc || resp.bad_wr) && wr)
		*bad = named_wr(wr, resp.bad_wr);
	return rc;
}

} // namespace

int core_post_send(ibv_qp *qp, ibv_send_wr *wr, ibv_send_wr **bad)
{
	uint32_t sges;
	uint32_t n = chain_size(wr, sges);
	PostBuffer<ovb_post_send_req, ovb_send_wr> b(n, sges);
	b.req()->qp_handle = qp->handle;
	b.req()->wr_count = n;
	b.req()->sge_count = sges;
	b.req()->wqe_size = sizeof(ovb_send_wr);
	ovb_sge *sge = b.sges(n);
	uint32_t i = 0;
	for (ibv_send_wr *w = wr; w; w = w->next, i++) {
		if (!encode_send(*b.wr(i), *w, qp->qp_type == IBV_QPT_UD)) {
			*bad = w;
			return EINVAL;
		}
		std::memcpy(sge, w->sg_list, w->num_sge * sizeof(*sge));
		sge += w->num_sge;
	}
	ovb_post_send_resp resp{};
	int rc = cmd::execute(qp->context, cmd::spec<OVB_CMD_POST_SEND>(),
			      b.bytes.data(), b.bytes.size(), &resp,
			      sizeof(resp), nullptr);
	if ((rc || resp.bad_wr) && wr)
		*bad = named_wr(wr, resp.bad_wr);
	return rc;
}

int core_post_recv(ibv_qp *qp, ibv_recv_wr *wr, ibv_recv_wr **bad)
{
	return post_recvs<ovb_post_recv_req>(
		qp->context, cmd::spec<OVB_CMD_POST_RECV>(), qp->handle, wr, bad);
}

int core_post_srq_recv(ibv_srq *srq, ibv_recv_wr *wr, ibv_recv_wr **bad)
{
	return post_recvs<ovb_post_srq_recv_req>(
		srq->context, cmd::spec<OVB_CMD_POST_SRQ_RECV>(), srq->handle,
		wr, bad);
}

int core_poll_cq(ibv_cq *cq, int ne, ibv_wc *wc)
{
	if (ne < 0)
		return -EINVAL;
	size_t len = sizeof(ovb_poll_cq_resp) + ne * sizeof(ovb_wc);
	std::vector<std::byte> room(len);
	auto *resp = reinterpret_cast<ovb_poll_cq_resp *>(room.data());
	ovb_poll_cq_req req{};
	req.cq_handle = cq->handle;
	req.ne = static_cast<uint32_t>(ne);
	int rc = cmd::execute(cq->context, cmd::spec<OVB_CMD_POLL_CQ>(), &req,
			      sizeof(req), resp, len, nullptr);
	if (rc)
		return -rc;
	uint32_t count = resp->count < static_cast<uint32_t>(ne) ?
		resp->count : static_cast<uint32_t>(ne);
	for (uint32_t i = 0; i < count; i++) {
		const ovb_wc &k = resp->wc[i];
		wc[i] = ibv_wc{};
		wc[i].wr_id = k.wr_id;
		wc[i].status = static_cast<ibv_wc_status>(k.status);
		wc[i].opcode = static_cast<ibv_wc_opcode>(k.opcode);
		wc[i].vendor_err = k.vendor_err;
		wc[i].byte_len = k.byte_len;
		wc[i].imm_data = k.ex.imm_data;
		wc[i].qp_num = k.qp_num;
		wc[i].src_qp = k.src_qp;
		wc[i].wc_flags = k.wc_flags;
		wc[i].pkey_index = k.pkey_index;
		wc[i].slid = k.slid;
		wc[i].sl = k.sl;
		wc[i].dlid_path_bits = k.dlid_path_bits;
	}
	return static_cast<int>(count);
}

} // namespace ovb
