// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdmacore_cmd_objects DEV: the private ibv_cmd_* rdma-core's providers
// call for MRs (rereg, query, dma-buf, advice), the context query, device
// memory, counters, XRC (domains, XRC SRQs and QPs, opening a
// QP), receive WQs and RSS tables, CQ moderation, flow destroy, and the
// extended CQ/QP creates with flags, called directly the way a provider
// calls them, on whichever libibverbs.so.1 runs this program (rdma-core's
// is the reference: run it on both and expect the same lines).  The
// provider's objects are this program's own memory laid out as rdma-core's
// (verbs_mr, verbs_xrcd, verbs_qp, verbs_srq).
//
// "check" lines assert what rdma-core's library answers before the kernel
// (comp_mask and flag checks); "kernel" lines print what the kernel
// answered through the library (rdma_rxe has no XRC, WQs, flows or CQ
// moderation, and refuses CQ/QP create flags: those answers are its
// errno), for the comparison.  Exits 1 if a check failed.
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_rxe.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>

namespace {

// rdma-core 44's provider-side objects (driver.h is not installed).
struct VerbsMr {
	ibv_mr mr;
	int type;
	int access;
};
struct VerbsXrcd {
	ibv_xrcd xrcd;
	uint32_t comp_mask;
	uint32_t handle;
};
struct VerbsQp {
	union {
		ibv_qp qp;
		ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;
	void *xrcd;
};
struct VerbsFlowAction {
	ibv_flow_action action;
	uint32_t handle;
	int type;
};
struct VerbsDm {
	ibv_dm dm;
	uint32_t handle;
};
struct VerbsCounters {
	ibv_counters counters;
	uint32_t handle;
};
struct VerbsSrq {
	ibv_srq srq;
	ibv_srq_type srq_type;
	void *xrcd;
	ibv_cq *cq;
	uint32_t srq_num;
};

// The provider's commands: write() header(s), then the core request.
template <class Core>
struct Cmd {
	ib_uverbs_cmd_hdr hdr;
	Core core;
};
template <class Core>
struct ExCmd {
	ib_uverbs_cmd_hdr hdr;
	ib_uverbs_ex_cmd_hdr ex_hdr;
	Core core;
};

// A response with rdma_rxe's driver part after the core one (rxe refuses
// a create without room for its queue's mmap information).
template <class Core, class Driver>
struct Resp {
	alignas(8) unsigned char bytes[sizeof(Core) + sizeof(Driver)];
	Core *core() { return reinterpret_cast<Core *>(bytes); }
};

} // namespace

extern "C" {
int ibv_cmd_reg_mr(ibv_pd *pd, void *addr, size_t length, uint64_t hca_va,
		   int access, VerbsMr *vmr, void *cmd, size_t cmd_size,
		   ib_uverbs_reg_mr_resp *resp, size_t resp_size);
int ibv_cmd_rereg_mr(VerbsMr *vmr, uint32_t flags, void *addr, size_t length,
		     uint64_t hca_va, int access, ibv_pd *pd, void *cmd,
		     size_t cmd_sz, ib_uverbs_rereg_mr_resp *resp,
		     size_t resp_sz);
int ibv_cmd_dereg_mr(VerbsMr *vmr);
int ibv_cmd_open_xrcd(ibv_context *ctx, VerbsXrcd *xrcd, int vxrcd_size,
		      ibv_xrcd_init_attr *attr, void *cmd, size_t cmd_size,
		      ib_uverbs_open_xrcd_resp *resp, size_t resp_size);
int ibv_cmd_close_xrcd(VerbsXrcd *xrcd);
int ibv_cmd_open_qp(ibv_context *ctx, VerbsQp *qp, int vqp_sz,
		    ibv_qp_open_attr *attr, void *cmd, size_t cmd_size,
		    ib_uverbs_create_qp_resp *resp, size_t resp_size);
int ibv_cmd_create_qp_ex2(ibv_context *ctx, VerbsQp *qp,
			  ibv_qp_init_attr_ex *attr_ex, void *cmd,
			  size_t cmd_size, ib_uverbs_ex_create_qp_resp *resp,
			  size_t resp_size);
int ibv_cmd_destroy_qp(ibv_qp *qp);
int ibv_cmd_create_srq_ex(ibv_context *ctx, VerbsSrq *srq,
			  ibv_srq_init_attr_ex *attr_ex, void *cmd,
			  size_t cmd_size, ib_uverbs_create_srq_resp *resp,
			  size_t resp_size);
int ibv_cmd_destroy_srq(ibv_srq *srq);
int ibv_cmd_create_cq_ex(ibv_context *ctx, const ibv_cq_init_attr_ex *attr,
			 ibv_cq_ex *cq, void *cmd, size_t cmd_size,
			 ib_uverbs_ex_create_cq_resp *resp, size_t resp_size,
			 uint32_t cmd_flags);
int ibv_cmd_destroy_cq(ibv_cq *cq);
int ibv_cmd_modify_cq(ibv_cq *cq, ibv_modify_cq_attr *attr, void *cmd,
		      size_t cmd_size);
int ibv_cmd_create_wq(ibv_context *ctx, ibv_wq_init_attr *attr, ibv_wq *wq,
		      void *cmd, size_t cmd_size,
		      ib_uverbs_ex_create_wq_resp *resp, size_t resp_size);
int ibv_cmd_modify_wq(ibv_wq *wq, ibv_wq_attr *attr, void *cmd,
		      size_t cmd_size);
int ibv_cmd_destroy_wq(ibv_wq *wq);
int ibv_cmd_create_rwq_ind_table(ibv_context *ctx,
				 ibv_rwq_ind_table_init_attr *init_attr,
				 ibv_rwq_ind_table *table,
				 ib_uverbs_ex_create_rwq_ind_table_resp *resp,
				 size_t resp_size);
int ibv_cmd_destroy_rwq_ind_table(ibv_rwq_ind_table *table);
int ibv_cmd_destroy_flow(ibv_flow *flow);
int ibv_cmd_create_flow(ibv_qp *qp, ibv_flow *flow, ibv_flow_attr *attr,
			void *ucmd, size_t ucmd_size);
int ibv_cmd_query_mr(ibv_pd *pd, VerbsMr *vmr, uint32_t mr_handle);
int ibv_cmd_reg_dmabuf_mr(ibv_pd *pd, uint64_t offset, size_t length,
			  uint64_t iova, int fd, int access, VerbsMr *vmr);
int ibv_cmd_advise_mr(ibv_pd *pd, ibv_advise_mr_advice advice, uint32_t flags,
		      ibv_sge *sg_list, uint32_t num_sge);
int ibv_cmd_alloc_dm(ibv_context *ctx, const ibv_alloc_dm_attr *attr,
		     VerbsDm *dm, void *link);
int ibv_cmd_free_dm(VerbsDm *dm);
int ibv_cmd_reg_dm_mr(ibv_pd *pd, VerbsDm *dm, uint64_t offset, size_t length,
		      unsigned int access, VerbsMr *vmr, void *link);
int ibv_cmd_create_counters(ibv_context *ctx, ibv_counters_init_attr *attr,
			    VerbsCounters *vc, void *link);
int ibv_cmd_destroy_counters(VerbsCounters *vc);
int ibv_cmd_read_counters(VerbsCounters *vc, uint64_t *values, uint32_t count,
			  uint32_t flags, void *link);
int ibv_cmd_query_context(ibv_context *ctx, void *link);
int ibv_cmd_create_flow_action_esp(ibv_context *ctx,
				   ibv_flow_action_esp_attr *attr,
				   VerbsFlowAction *action, void *link);
int ibv_cmd_modify_flow_action_esp(VerbsFlowAction *action,
				   ibv_flow_action_esp_attr *attr, void *link);
int ibv_cmd_destroy_flow_action(VerbsFlowAction *action);
}

namespace {

int failed;

std::string name(int rc)
{
	if (!rc)
		return "0";
	const char *n = strerrorname_np(rc);
	return n ? n : std::to_string(rc);
}

void check(const char *what, int rc, int expected)
{
	bool ok = rc == expected;
	std::printf("%s %s: %s\n", ok ? "ok" : "FAIL", what, name(rc).c_str());
	failed |= !ok;
}

void kernel(const char *what, int rc)
{
	std::printf("kernel %s: %s\n", what, name(rc).c_str());
}

// A handle no object has.
constexpr uint32_t kNoHandle = 0x7ffff0;

void mr(ibv_pd *pd)
{
	static char buf[8192];
	VerbsMr vmr{};
	Cmd<ib_uverbs_reg_mr> cmd{};
	ib_uverbs_reg_mr_resp resp{};
	int rc = ibv_cmd_reg_mr(pd, buf, sizeof(buf), reinterpret_cast<uintptr_t>(buf),
				IBV_ACCESS_LOCAL_WRITE, &vmr, &cmd, sizeof(cmd),
				&resp, sizeof(resp));
	check("reg_mr", rc, 0);
	if (rc)
		return;
	Cmd<ib_uverbs_rereg_mr> rcmd{};
	ib_uverbs_rereg_mr_resp rresp{};
	rc = ibv_cmd_rereg_mr(&vmr, 0, buf, sizeof(buf), 0, 0, pd, &rcmd,
			      sizeof(rcmd), &rresp, sizeof(rresp));
	kernel("rereg_mr, no change asked", rc);
	rc = ibv_cmd_rereg_mr(&vmr, IBV_REREG_MR_CHANGE_ACCESS, buf, sizeof(buf),
			      0, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
			      pd, &rcmd, sizeof(rcmd), &rresp, sizeof(rresp));
	kernel("rereg_mr, new access", rc);
	if (!rc)
		check("rereg_mr: lkey as the kernel answered",
		      vmr.mr.lkey == rresp.lkey && vmr.mr.rkey == rresp.rkey ? 0 : -1, 0);
	VerbsMr q{};
	rc = ibv_cmd_query_mr(pd, &q, vmr.mr.handle);
	kernel("query_mr", rc);
	if (!rc)
		check("query_mr: the MR's keys and length",
		      q.mr.lkey == vmr.mr.lkey && q.mr.length == sizeof(buf) &&
				      q.type == 2 /* IBV_MR_TYPE_IMPORTED_MR */
			      ? 0 : -1, 0);
	ibv_sge s{reinterpret_cast<uintptr_t>(buf), sizeof(buf), vmr.mr.lkey};
	kernel("advise_mr prefetch",
	       ibv_cmd_advise_mr(pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0, &s, 1));
	check("dereg_mr", ibv_cmd_dereg_mr(&vmr), 0);
	VerbsMr d{};
	kernel("reg_dmabuf_mr on no dma-buf",
	       ibv_cmd_reg_dmabuf_mr(pd, 0, 4096, 0, -1, IBV_ACCESS_LOCAL_WRITE, &d));
}

void dm_counters(ibv_context *ctx, ibv_pd *pd)
{
	int comp = ctx->num_comp_vectors;
	ctx->num_comp_vectors = -1;
	int rc = ibv_cmd_query_context(ctx, nullptr);
	kernel("query_context", rc);
	if (!rc)
		check("query_context: the comp vectors again",
		      ctx->num_comp_vectors == comp ? 0 : -1, 0);
	ctx->num_comp_vectors = comp;

	VerbsDm dm{};
	ibv_alloc_dm_attr attr{};
	attr.length = 4096;
	rc = ibv_cmd_alloc_dm(ctx, &attr, &dm, nullptr);
	kernel("alloc_dm", rc);
	if (!rc)
		ibv_cmd_free_dm(&dm);
	dm.dm.context = ctx;
	dm.handle = kNoHandle;
	kernel("free_dm of no DM", ibv_cmd_free_dm(&dm));
	VerbsMr mr{};
	check("reg_dm_mr not zero-based",
	      ibv_cmd_reg_dm_mr(pd, &dm, 0, 64, IBV_ACCESS_LOCAL_WRITE, &mr,
				nullptr), EINVAL);
	kernel("reg_dm_mr on no DM",
	       ibv_cmd_reg_dm_mr(pd, &dm, 0, 64,
				 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ZERO_BASED,
				 &mr, nullptr));

	VerbsCounters vc{};
	ibv_counters_init_attr cattr{};
	cattr.comp_mask = 1;
	check("create_counters with a comp_mask bit",
	      ibv_cmd_create_counters(ctx, &cattr, &vc, nullptr), EOPNOTSUPP);
	cattr.comp_mask = 0;
	rc = ibv_cmd_create_counters(ctx, &cattr, &vc, nullptr);
	kernel("create_counters", rc);
	if (!rc)
		ibv_cmd_destroy_counters(&vc);
	vc.counters.context = ctx;
	vc.handle = kNoHandle;
	uint64_t values[2];
	kernel("read_counters of no counters",
	       ibv_cmd_read_counters(&vc, values, 2, 0, nullptr));
	kernel("destroy_counters of no counters", ibv_cmd_destroy_counters(&vc));
}

void xrc(ibv_context *ctx, ibv_pd *pd, ibv_cq *cq)
{
	VerbsXrcd xrcd{};
	Cmd<ib_uverbs_open_xrcd> cmd{};
	ib_uverbs_open_xrcd_resp resp{};
	ibv_xrcd_init_attr attr{};
	check("open_xrcd without FD and OFLAGS",
	      ibv_cmd_open_xrcd(ctx, &xrcd, sizeof(xrcd), &attr, &cmd,
				sizeof(cmd), &resp, sizeof(resp)), EINVAL);
	attr.comp_mask = IBV_XRCD_INIT_ATTR_RESERVED;
	check("open_xrcd with a reserved comp_mask bit",
	      ibv_cmd_open_xrcd(ctx, &xrcd, sizeof(xrcd), &attr, &cmd,
				sizeof(cmd), &resp, sizeof(resp)), EOPNOTSUPP);
	attr.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
	attr.fd = -1;
	attr.oflags = O_CREAT;
	int rc = ibv_cmd_open_xrcd(ctx, &xrcd, sizeof(xrcd), &attr, &cmd,
				   sizeof(cmd), &resp, sizeof(resp));
	kernel("open_xrcd", rc);
	if (!rc)
		ibv_cmd_close_xrcd(&xrcd);
	VerbsXrcd none{};
	none.xrcd.context = ctx;
	none.handle = kNoHandle;
	kernel("close_xrcd of no XRCD", ibv_cmd_close_xrcd(&none));

	VerbsQp qp{};
	Cmd<ib_uverbs_open_qp> ocmd{};
	ib_uverbs_create_qp_resp oresp{};
	ibv_qp_open_attr oattr{};
	oattr.comp_mask = IBV_QP_OPEN_ATTR_XRCD | IBV_QP_OPEN_ATTR_NUM;
	oattr.xrcd = &none.xrcd;
	check("open_qp without a QP type",
	      ibv_cmd_open_qp(ctx, &qp, sizeof(qp), &oattr, &ocmd, sizeof(ocmd),
			      &oresp, sizeof(oresp)), EINVAL);
	oattr.comp_mask = IBV_QP_OPEN_ATTR_RESERVED;
	check("open_qp with a reserved comp_mask bit",
	      ibv_cmd_open_qp(ctx, &qp, sizeof(qp), &oattr, &ocmd, sizeof(ocmd),
			      &oresp, sizeof(oresp)), EOPNOTSUPP);
	oattr.comp_mask = IBV_QP_OPEN_ATTR_XRCD | IBV_QP_OPEN_ATTR_NUM |
			  IBV_QP_OPEN_ATTR_TYPE;
	oattr.qp_num = 0x11;
	oattr.qp_type = IBV_QPT_XRC_RECV;
	kernel("open_qp on no XRCD",
	       ibv_cmd_open_qp(ctx, &qp, sizeof(qp), &oattr, &ocmd, sizeof(ocmd),
			       &oresp, sizeof(oresp)));

	VerbsSrq srq{};
	Cmd<ib_uverbs_create_xsrq> scmd{};
	Resp<ib_uverbs_create_srq_resp, rxe_create_srq_resp> sresp{};
	ibv_srq_init_attr_ex sattr{};
	sattr.attr.max_wr = 4;
	sattr.attr.max_sge = 1;
	sattr.pd = pd;
	sattr.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE;
	sattr.srq_type = IBV_SRQT_XRC;
	check("create_srq_ex XRC without XRCD and CQ",
	      ibv_cmd_create_srq_ex(ctx, &srq, &sattr, &scmd, sizeof(scmd),
				    sresp.core(), sizeof(sresp)), EINVAL);
	sattr.srq_type = IBV_SRQT_TM;
	sattr.comp_mask |= IBV_SRQ_INIT_ATTR_CQ;
	sattr.cq = cq;
	check("create_srq_ex TM without tag capabilities",
	      ibv_cmd_create_srq_ex(ctx, &srq, &sattr, &scmd, sizeof(scmd),
				    sresp.core(), sizeof(sresp)), EINVAL);
	sattr.comp_mask = IBV_SRQ_INIT_ATTR_RESERVED;
	check("create_srq_ex with a reserved comp_mask bit",
	      ibv_cmd_create_srq_ex(ctx, &srq, &sattr, &scmd, sizeof(scmd),
				    sresp.core(), sizeof(sresp)), EOPNOTSUPP);
	sattr.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
			  IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ;
	sattr.srq_type = IBV_SRQT_XRC;
	sattr.xrcd = &none.xrcd;
	int src = ibv_cmd_create_srq_ex(ctx, &srq, &sattr, &scmd, sizeof(scmd),
					sresp.core(), sizeof(sresp));
	kernel("create_srq_ex XRC on no XRCD", src);
	if (!src)
		ibv_cmd_destroy_srq(&srq.srq);
	sattr.comp_mask = IBV_SRQ_INIT_ATTR_PD;
	src = ibv_cmd_create_srq_ex(ctx, &srq, &sattr, &scmd, sizeof(scmd),
				    sresp.core(), sizeof(sresp));
	check("create_srq_ex basic", src, 0);
	if (!src)
		check("destroy_srq", ibv_cmd_destroy_srq(&srq.srq), 0);
}

int create_qp(ibv_context *ctx, ibv_pd *pd, ibv_cq *cq,
	      ibv_qp_init_attr_ex &attr, VerbsQp &qp)
{
	attr.send_cq = attr.send_cq ? attr.send_cq : cq;
	attr.cap.max_send_wr = 4;
	attr.cap.max_send_sge = 1;
	attr.pd = pd;
	attr.comp_mask |= IBV_QP_INIT_ATTR_PD;
	ExCmd<ib_uverbs_ex_create_qp> cmd{};
	Resp<ib_uverbs_ex_create_qp_resp, rxe_create_qp_resp> resp{};
	int rc = ibv_cmd_create_qp_ex2(ctx, &qp, &attr, &cmd, sizeof(cmd),
				       resp.core(), sizeof(resp));
	if (!rc)
		ibv_cmd_destroy_qp(&qp.qp);
	return rc;
}

void qp_flags(ibv_context *ctx, ibv_pd *pd, ibv_cq *cq)
{
	VerbsQp qp{};
	ibv_qp_init_attr_ex attr{};
	attr.qp_type = IBV_QPT_RC;
	attr.recv_cq = cq;
	attr.cap.max_recv_wr = 4;
	attr.cap.max_recv_sge = 1;
	check("create_qp_ex2 RC", create_qp(ctx, pd, cq, attr, qp), 0);

	attr = {};
	attr.qp_type = IBV_QPT_RC;
	attr.recv_cq = cq;
	attr.comp_mask = IBV_QP_INIT_ATTR_CREATE_FLAGS;
	attr.create_flags = 1u << 30;
	check("create_qp_ex2 with a create flag rdma-core does not pass",
	      create_qp(ctx, pd, cq, attr, qp), EINVAL);
	attr.create_flags = IBV_QP_CREATE_BLOCK_SELF_MCAST_LB;
	kernel("create_qp_ex2 with BLOCK_SELF_MCAST_LB",
	       create_qp(ctx, pd, cq, attr, qp));
	attr.create_flags = IBV_QP_CREATE_SOURCE_QPN;
	attr.source_qpn = 0x123;
	attr.qp_type = IBV_QPT_UD;
	kernel("create_qp_ex2 UD with SOURCE_QPN", create_qp(ctx, pd, cq, attr, qp));

	attr = {};
	attr.qp_type = IBV_QPT_RAW_PACKET;
	attr.comp_mask = IBV_QP_INIT_ATTR_IND_TABLE;
	attr.recv_cq = cq;
	check("create_qp_ex2 RSS with a receive CQ",
	      create_qp(ctx, pd, cq, attr, qp), EINVAL);

	attr = {};
	attr.qp_type = IBV_QPT_XRC_RECV;
	check("create_qp_ex2 XRC_RECV without XRCD",
	      create_qp(ctx, pd, cq, attr, qp), EINVAL);
	VerbsXrcd none{};
	none.xrcd.context = ctx;
	none.handle = kNoHandle;
	attr.comp_mask = IBV_QP_INIT_ATTR_XRCD;
	attr.xrcd = &none.xrcd;
	kernel("create_qp_ex2 XRC_RECV on no XRCD",
	       create_qp(ctx, pd, cq, attr, qp));

	// Only an XRC receive QP belongs to a domain: another type's XRCD
	// is ignored, though the comp_mask bit is kept.
	attr = {};
	attr.qp_type = IBV_QPT_RC;
	attr.recv_cq = cq;
	attr.comp_mask = IBV_QP_INIT_ATTR_XRCD;
	attr.xrcd = &none.xrcd;
	VerbsQp rc_qp{};
	check("create_qp_ex2 RC with the XRCD bit",
	      create_qp(ctx, pd, cq, attr, rc_qp), 0);
	std::printf("RC QP with the XRCD bit: comp_mask %#x, xrcd %s\n",
		    rc_qp.comp_mask, rc_qp.xrcd ? "set" : "NULL");
}

void cq_flags(ibv_context *ctx)
{
	ibv_cq_ex cq{};
	ExCmd<ib_uverbs_ex_create_cq> cmd{};
	Resp<ib_uverbs_ex_create_cq_resp, rxe_create_cq_resp> resp{};
	ibv_cq_init_attr_ex attr{};
	attr.cqe = 8;
	auto create = [&](uint32_t cmd_flags) {
		int rc = ibv_cmd_create_cq_ex(ctx, &attr, &cq, &cmd, sizeof(cmd),
					      resp.core(), sizeof(resp), cmd_flags);
		if (!rc)
			ibv_cmd_destroy_cq(ibv_cq_ex_to_cq(&cq));
		return rc;
	};
	check("create_cq_ex", create(0), 0);
	attr.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
	attr.flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
	kernel("create_cq_ex with IGNORE_OVERRUN", create(0));
	attr.comp_mask = 0;
	attr.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	kernel("create_cq_ex with timestamps", create(0));
	kernel("create_cq_ex with timestamps the provider makes", create(1));
	attr.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS << 4;
	check("create_cq_ex with an unknown comp_mask bit", create(0), EOPNOTSUPP);

	ibv_cq *plain = ibv_create_cq(ctx, 8, nullptr, nullptr, 0);
	ExCmd<ib_uverbs_ex_modify_cq> mcmd{};
	ibv_modify_cq_attr mattr{};
	mattr.attr_mask = IBV_CQ_ATTR_RESERVED;
	check("modify_cq with a reserved attr_mask bit",
	      ibv_cmd_modify_cq(plain, &mattr, &mcmd, sizeof(mcmd)), EINVAL);
	mattr.attr_mask = IBV_CQ_ATTR_MODERATE;
	mattr.moderate.cq_count = 4;
	mattr.moderate.cq_period = 10;
	kernel("modify_cq moderation",
	       ibv_cmd_modify_cq(plain, &mattr, &mcmd, sizeof(mcmd)));
	ibv_destroy_cq(plain);
}

void wq(ibv_context *ctx, ibv_pd *pd, ibv_cq *cq)
{
	ibv_wq w{};
	ExCmd<ib_uverbs_ex_create_wq> cmd{};
	ib_uverbs_ex_create_wq_resp resp{};
	ibv_wq_init_attr attr{};
	attr.wq_type = IBV_WQT_RQ;
	attr.max_wr = 4;
	attr.max_sge = 1;
	attr.pd = pd;
	attr.cq = cq;
	attr.comp_mask = IBV_WQ_INIT_ATTR_RESERVED;
	check("create_wq with a reserved comp_mask bit",
	      ibv_cmd_create_wq(ctx, &attr, &w, &cmd, sizeof(cmd), &resp,
				sizeof(resp)), EINVAL);
	attr.comp_mask = IBV_WQ_INIT_ATTR_FLAGS;
	attr.create_flags = IBV_WQ_FLAGS_RESERVED;
	check("create_wq with a reserved flag",
	      ibv_cmd_create_wq(ctx, &attr, &w, &cmd, sizeof(cmd), &resp,
				sizeof(resp)), EOPNOTSUPP);
	attr.comp_mask = 0;
	int rc = ibv_cmd_create_wq(ctx, &attr, &w, &cmd, sizeof(cmd), &resp,
				   sizeof(resp));
	kernel("create_wq", rc);
	if (!rc)
		ibv_cmd_destroy_wq(&w);

	w.context = ctx;
	w.handle = kNoHandle;
	ExCmd<ib_uverbs_ex_modify_wq> mcmd{};
	ibv_wq_attr mattr{};
	mattr.attr_mask = IBV_WQ_ATTR_RESERVED;
	check("modify_wq with a reserved attr_mask bit",
	      ibv_cmd_modify_wq(&w, &mattr, &mcmd, sizeof(mcmd)), EINVAL);
	mattr.attr_mask = IBV_WQ_ATTR_STATE;
	mattr.wq_state = IBV_WQS_RDY;
	kernel("modify_wq of no WQ", ibv_cmd_modify_wq(&w, &mattr, &mcmd, sizeof(mcmd)));
	kernel("destroy_wq of no WQ", ibv_cmd_destroy_wq(&w));

	ibv_wq *entries[1] = {&w};
	ibv_rwq_ind_table_init_attr tattr{};
	tattr.ind_tbl = entries;
	tattr.comp_mask = IBV_CREATE_IND_TABLE_RESERVED;
	ibv_rwq_ind_table table{};
	ib_uverbs_ex_create_rwq_ind_table_resp tresp{};
	check("create_rwq_ind_table with a reserved comp_mask bit",
	      ibv_cmd_create_rwq_ind_table(ctx, &tattr, &table, &tresp,
					   sizeof(tresp)), EINVAL);
	tattr.comp_mask = 0;
	kernel("create_rwq_ind_table of no WQ",
	       ibv_cmd_create_rwq_ind_table(ctx, &tattr, &table, &tresp,
					    sizeof(tresp)));
	table.context = ctx;
	table.ind_tbl_handle = kNoHandle;
	kernel("destroy_rwq_ind_table of no table",
	       ibv_cmd_destroy_rwq_ind_table(&table));

	ibv_flow flow{};
	flow.context = ctx;
	flow.handle = kNoHandle;
	kernel("destroy_flow of no flow", ibv_cmd_destroy_flow(&flow));

	// Flow actions are ioctl methods the kernel answers.
	VerbsFlowAction action{};
	action.action.context = ctx;
	action.handle = kNoHandle;
	kernel("destroy_flow_action of no action",
	       ibv_cmd_destroy_flow_action(&action));
	ibv_flow_action_esp esp{};
	ibv_flow_action_esp_attr esp_attr{};
	esp_attr.esp_attr = &esp;
	esp_attr.comp_mask = IBV_FLOW_ACTION_ESP_MASK_ESN;
	kernel("modify_flow_action_esp of no action",
	       ibv_cmd_modify_flow_action_esp(&action, &esp_attr, nullptr));
	rc = ibv_cmd_create_flow_action_esp(ctx, &esp_attr, &action, nullptr);
	kernel("create_flow_action_esp", rc);
	if (!rc)
		ibv_cmd_destroy_flow_action(&action);
}

// A rule of up to three specs, laid out as ibv_create_flow() takes it.
struct Rule {
	ibv_flow_attr attr;
	unsigned char specs[3 * sizeof(ibv_flow_spec)];
	size_t used = 0;

	Rule()
	{
		std::memset(&attr, 0, sizeof(attr));
		std::memset(specs, 0, sizeof(specs));
		attr.size = sizeof(attr);
		attr.port = 1;
	}
	template <class S>
	S &add(uint32_t type, uint16_t size = sizeof(S))
	{
		auto *s = reinterpret_cast<S *>(specs + used);
		reinterpret_cast<ibv_flow_spec *>(s)->hdr.type =
			static_cast<ibv_flow_spec_type>(type);
		reinterpret_cast<ibv_flow_spec *>(s)->hdr.size = size;
		used += size;
		attr.num_of_specs++;
		attr.size += size;
		return *s;
	}
};

void flows(ibv_pd *pd, ibv_cq *cq)
{
	ibv_qp_init_attr init{};
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_UD;
	init.cap.max_send_wr = init.cap.max_recv_wr = 1;
	init.cap.max_send_sge = init.cap.max_recv_sge = 1;
	ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp) {
		check("UD QP for the flows", errno, 0);
		return;
	}
	ibv_flow flow{};
	auto create = [&](Rule &r) {
		int rc = ibv_cmd_create_flow(qp, &flow, &r.attr, nullptr, 0);
		if (!rc)
			ibv_cmd_destroy_flow(&flow);
		return rc;
	};
	Rule unknown;
	unknown.add<ibv_flow_spec_eth>(0x99);
	check("create_flow with a spec type rdma-core does not convert",
	      create(unknown), EINVAL);
	Rule inner_gre;
	inner_gre.add<ibv_flow_spec_gre>(IBV_FLOW_SPEC_GRE | IBV_FLOW_SPEC_INNER);
	check("create_flow with an inner GRE spec", create(inner_gre), EINVAL);
	Rule short_ipv6;
	short_ipv6.add<ibv_flow_spec_ipv6>(IBV_FLOW_SPEC_IPV6, 8 + 2 * 32);
	check("create_flow with an IPv6 filter shorter than the kernel's",
	      create(short_ipv6), EINVAL);
	// A spec size below its own header's (rdma-core computes the filter
	// size signed: negative, too short).
	const uint32_t sized_types[] = {IBV_FLOW_SPEC_IPV4_EXT, IBV_FLOW_SPEC_IPV6,
					IBV_FLOW_SPEC_VXLAN_TUNNEL};
	for (uint32_t type : sized_types) {
		Rule tiny;
		tiny.add<ibv_flow_spec_ipv6>(type, 4);
		check(("create_flow with a spec of size 4, type " +
		       std::to_string(type)).c_str(),
		      create(tiny), EINVAL);
	}
	// An IPv4 filter 4 bytes longer than the kernel's, with mask bits there.
	Rule wide;
	auto &ext = wide.add<ibv_flow_spec_ipv4_ext>(IBV_FLOW_SPEC_IPV4_EXT,
						     8 + 2 * 16);
	reinterpret_cast<unsigned char *>(&ext.val)[16 + 13] = 0xff;
	check("create_flow with IPv4 mask bits the kernel cannot carry",
	      create(wide), EOPNOTSUPP);
	Rule good;
	auto &eth = good.add<ibv_flow_spec_eth>(IBV_FLOW_SPEC_ETH);
	std::memset(eth.mask.dst_mac, 0xff, 6);
	good.add<ibv_flow_spec_ipv4_ext>(IBV_FLOW_SPEC_IPV4_EXT);
	good.add<ibv_flow_spec_tcp_udp>(IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER);
	kernel("create_flow eth + ipv4 + inner udp", create(good));
	ibv_destroy_qp(qp);
}

ibv_device *find(const char *name)
{
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n; i++)
		if (!std::strcmp(ibv_get_device_name(list[i]), name))
			return list[i];
	return nullptr;
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
	mr(pd);
	dm_counters(ctx, pd);
	xrc(ctx, pd, cq);
	qp_flags(ctx, pd, cq);
	cq_flags(ctx);
	wq(ctx, pd, cq);
	flows(pd, cq);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return failed;
}
