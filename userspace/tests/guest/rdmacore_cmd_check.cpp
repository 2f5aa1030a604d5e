// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdmacore_cmd_check DEV: the private ibv_cmd_* calls an rdma-core
// provider makes, called the way a provider calls them, on whichever
// libibverbs.so.1 runs this program (rdma-core's is the reference: run it
// on both and expect the same lines).  Prints one "ok"/"FAIL" line per
// check; exits 1 if one failed.
//   - ibv_cmd_query_device_any with the provider's response room after
//     the core response (efa, mlx4, mlx5 read their capabilities from
//     there): the kernel sees that room (rdma_rxe refuses any: EINVAL);
//   - ibv_cmd_modify_qp_ex (irdma's flush, mlx5's rate limit and DCT):
//     the extended MODIFY_QP, and its rate-limit room check;
//   - ibv_qp_to_qp_ex: NULL for a QP made without extended send ops;
//   - verbs_allow_disassociate_destroy set from RDMAV_ALLOW_DISASSOC_DESTROY
//     once the library initialised (providers' destroys read it).
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

// rdma-core 44's private declarations (driver.h is not installed).
extern "C" {
int ibv_cmd_query_device_any(ibv_context *ctx,
			     const ibv_query_device_ex_input *input,
			     ibv_device_attr_ex *attr, size_t attr_size,
			     ib_uverbs_ex_query_device_resp *resp,
			     size_t *resp_size);
int ibv_cmd_modify_qp_ex(ibv_qp *qp, ibv_qp_attr *attr, int mask, void *cmd,
			 size_t cmd_size, ib_uverbs_ex_modify_qp_resp *resp,
			 size_t resp_size);
extern bool verbs_allow_disassociate_destroy;
}

namespace {

int failed;

void check(bool ok, const std::string &what, const std::string &got = "")
{
	std::printf("%s %s%s%s\n", ok ? "ok" : "FAIL", what.c_str(),
		    got.empty() ? "" : ": ", got.c_str());
	failed |= !ok;
}

// rdma-core's struct ibv_modify_qp_ex: both headers, then the request.
struct ModifyQpEx {
	ib_uverbs_cmd_hdr hdr;
	ib_uverbs_ex_cmd_hdr ex_hdr;
	ib_uverbs_ex_modify_qp core;
};

ibv_device *find(const char *name)
{
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n; i++)
		if (!std::strcmp(ibv_get_device_name(list[i]), name))
			return list[i];
	return nullptr;
}

void query_device_any(ibv_context *ctx)
{
	ibv_device_attr_ex attr;
	ib_uverbs_ex_query_device_resp resp;
	size_t size = sizeof(resp);
	std::memset(&attr, 0xa5, sizeof(attr));
	int rc = ibv_cmd_query_device_any(ctx, nullptr, &attr, sizeof(attr),
					  &resp, &size);
	check(rc == 0 && attr.orig_attr.max_qp > 0 &&
		      size >= offsetof(ib_uverbs_ex_query_device_resp, comp_mask),
	      "query_device_any without provider room",
	      "rc " + std::to_string(rc) + ", max_qp " +
		      std::to_string(attr.orig_attr.max_qp) + ", resp_size " +
		      std::to_string(size));

	// The provider's room after the core response reaches the kernel.
	struct {
		ib_uverbs_ex_query_device_resp core;
		uint64_t driver;
	} with_room{};
	size = sizeof(with_room);
	rc = ibv_cmd_query_device_any(ctx, nullptr, &attr, sizeof(attr),
				      &with_room.core, &size);
	check(rc == EINVAL, "query_device_any with 8 bytes of provider room: "
	      "rdma_rxe sees them and refuses (EINVAL)", "rc " + std::to_string(rc));

	rc = ibv_cmd_query_device_any(ctx, nullptr, &attr,
				      sizeof(attr.orig_attr) - 1, nullptr, nullptr);
	check(rc == EINVAL, "query_device_any with attr smaller than ibv_device_attr",
	      "rc " + std::to_string(rc));
}

ibv_qp *rc_qp(ibv_pd *pd, ibv_cq *cq, uint64_t send_ops)
{
	ibv_qp_init_attr_ex init{};
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_RC;
	init.cap.max_send_wr = 4;
	init.cap.max_recv_wr = 4;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	init.comp_mask = IBV_QP_INIT_ATTR_PD;
	init.pd = pd;
	if (send_ops) {
		init.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		init.send_ops_flags = send_ops;
	}
	return ibv_create_qp_ex(pd->context, &init);
}

void modify_qp_ex(ibv_qp *qp)
{
	ibv_qp_attr attr{};
	attr.qp_state = IBV_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = 1;
	attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		   IBV_QP_ACCESS_FLAGS;
	ModifyQpEx cmd{};
	ib_uverbs_ex_modify_qp_resp resp{};
	int rc = ibv_cmd_modify_qp_ex(qp, &attr, mask, &cmd, sizeof(cmd), &resp,
				      sizeof(resp));
	ibv_qp_attr now{};
	ibv_qp_init_attr init{};
	int qrc = ibv_query_qp(qp, &now, IBV_QP_STATE, &init);
	check(rc == 0 && qrc == 0 && now.qp_state == IBV_QPS_INIT,
	      "modify_qp_ex RESET -> INIT",
	      "rc " + std::to_string(rc) + ", query " + std::to_string(qrc) +
		      ", state " + std::to_string(now.qp_state));

	// A rate limit needs the room for it in the provider's command.
	attr.rate_limit = 1000;
	rc = ibv_cmd_modify_qp_ex(qp, &attr, IBV_QP_RATE_LIMIT, &cmd,
				  offsetof(ModifyQpEx, core.rate_limit), &resp,
				  sizeof(resp));
	check(rc == EINVAL, "modify_qp_ex rate limit without its room: EINVAL",
	      "rc " + std::to_string(rc));
}

} // namespace

int main(int argc, char **argv)
{
	ibv_device *dev = find(argc > 1 ? argv[1] : "rxe0");
	ibv_context *ctx = dev ? ibv_open_device(dev) : nullptr;
	ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : nullptr;
	ibv_cq *cq = pd ? ibv_create_cq(ctx, 8, nullptr, nullptr, 0) : nullptr;
	if (!cq) {
		std::printf("FAIL no device/PD/CQ: %s\n", std::strerror(errno));
		return 1;
	}
	bool asked = std::getenv("RDMAV_ALLOW_DISASSOC_DESTROY") != nullptr;
	check(verbs_allow_disassociate_destroy == asked,
	      std::string("verbs_allow_disassociate_destroy ") +
		      (asked ? "set" : "clear") + " as RDMAV_ALLOW_DISASSOC_DESTROY");
	query_device_any(ctx);

	ibv_qp *plain = rc_qp(pd, cq, 0);
	check(plain && !ibv_qp_to_qp_ex(plain),
	      "ibv_qp_to_qp_ex of a QP without extended send ops is NULL");
	ibv_qp *ext = rc_qp(pd, cq, IBV_QP_EX_WITH_SEND);
	ibv_qp_ex *qpx = ext ? ibv_qp_to_qp_ex(ext) : nullptr;
	check(qpx && qpx->wr_start && qpx->wr_send,
	      "ibv_qp_to_qp_ex of a QP with IBV_QP_EX_WITH_SEND has wr_start, wr_send");
	if (plain)
		modify_qp_ex(plain);

	if (ext)
		ibv_destroy_qp(ext);
	if (plain)
		ibv_destroy_qp(plain);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return failed;
}
