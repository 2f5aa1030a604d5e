/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * openverbs: the interface between libibverbs.so.1 and a provider (the
 * userspace half of an HCA driver).  Plain C, so a provider can be written
 * in C or C++; Documentation/userspace.md walks through providers/rxe as
 * the worked example.
 *
 * How a provider plugs in
 *   1. It is a shared object named lib<name>-openverbs.so in the library's
 *      provider directory (<dir of libibverbs.so.1>/providers, or
 *      $OPENVERBS_PROVIDER_DIR).  <name> is what a config file ("driver
 *      <name>" in <sysconfdir>/openverbs/libibverbs.d/ or rdma-core's
 *      /etc/libibverbs.d/) or RDMAV_DRIVERS lists, so rdma-core's
 *      configuration selects ours too: "driver rxe" loads librxe-openverbs.so.
 *   2. It exports one C function, OVB_PROVIDER_ENTRY, which receives the
 *      library's services (struct ovb_core) and returns its description
 *      (struct ovb_provider).  No other symbol is looked up, and the
 *      provider links against nothing of ours: everything reaches it
 *      through struct ovb_core.
 *   3. The library matches each kernel device against the provider's match
 *      table and ABI window, then calls alloc_context() on ibv_open_device().
 *
 * Objects: the provider allocates every verbs object (context, PD, CQ, QP,
 * ...) itself, usually inside a bigger struct of its own, and fills it
 * through the ovb_core command helpers, which talk to the kernel and set the
 * common fields (context, handle, numbers, ...).  The library then finishes
 * the generic fields (mutex, cond, event counters) before the application
 * sees the object.  PDs, MRs and MWs that need nothing of the provider's
 * own can be left to the library (see struct ovb_context_ops).
 *
 * Errors: ops that return int return 0 or a positive errno; ops that return
 * a pointer return NULL and set errno.  Any other op left NULL answers
 * EOPNOTSUPP.
 */
#ifndef OPENVERBS_PROVIDER_H
#define OPENVERBS_PROVIDER_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Bumped on any incompatible change of the structs below.  2: one
 * open_context/close_context pair replaced init/get/set_ops/uninit, and
 * PD/MR/MW ops left NULL are the library's plain ones.
 */
#define OVB_PROVIDER_ABI_VERSION	2
#define OVB_PROVIDER_ENTRY		openverbs_provider_entry
#define OVB_PROVIDER_ENTRY_NAME		"openverbs_provider_entry"

/* Driver-private data of one command: appended to the core request and
 * response (the kernel's "udata").  Lengths in bytes, multiples of 8. */
struct ovb_udata {
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
};

/* ------------------------------------------------------------ matching */

enum ovb_match_kind {
	OVB_MATCH_END = 0,
	OVB_MATCH_DRIVER_ID,	/* RDMA netlink driver id (enum ovb_driver_id) */
	OVB_MATCH_NAME_PREFIX,	/* the ibdev name starts with pattern */
	OVB_MATCH_MODALIAS,	/* fnmatch() against device/modalias */
};

struct ovb_match {
	enum ovb_match_kind kind;
	uint32_t driver_id;
	const char *pattern;
};

/* -------------------------------------------------------------- the ops */

/*
 * What a context can do.  Signatures are those of the verbs_context /
 * ibv_context_ops members of <infiniband/verbs.h>; the data-path ops
 * (post_*, poll_cq, req_notify_cq, ibv_wr_* through the QP) are called
 * by the application's inline functions directly, without the library.
 *
 * Plain defaults: a pair alloc_pd/dealloc_pd, reg_mr/dereg_mr or
 * alloc_mw/dealloc_mw left NULL (both members) is the library's, which
 * allocates a bare ibv_pd/ibv_mr/ibv_mw and runs the core command without
 * driver data; a kernel driver without the verb answers the command with
 * its own errno.  Set both members of a pair, or neither.  bind_mw has no
 * default: binding is a work request, the provider's business.
 */
struct ovb_context_ops {
	int (*query_device_ex)(struct ibv_context *ctx,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr, size_t attr_size);
	int (*query_port)(struct ibv_context *ctx, uint8_t port,
			  struct ibv_port_attr *attr, size_t attr_size);

	struct ibv_pd *(*alloc_pd)(struct ibv_context *ctx);
	int (*dealloc_pd)(struct ibv_pd *pd);
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length,
				 uint64_t hca_va, int access);
	int (*dereg_mr)(struct ibv_mr *mr);
	struct ibv_mw *(*alloc_mw)(struct ibv_pd *pd, enum ibv_mw_type type);
	int (*dealloc_mw)(struct ibv_mw *mw);
	int (*bind_mw)(struct ibv_qp *qp, struct ibv_mw *mw,
		       struct ibv_mw_bind *bind);

	struct ibv_cq *(*create_cq)(struct ibv_context *ctx, int cqe,
				    struct ibv_comp_channel *channel,
				    int comp_vector);
	struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *ctx,
					  struct ibv_cq_init_attr_ex *attr);
	int (*poll_cq)(struct ibv_cq *cq, int ne, struct ibv_wc *wc);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
	int (*resize_cq)(struct ibv_cq *cq, int cqe);
	int (*destroy_cq)(struct ibv_cq *cq);

	struct ibv_srq *(*create_srq)(struct ibv_pd *pd,
				      struct ibv_srq_init_attr *attr);
	int (*modify_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr,
			  int mask);
	int (*query_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr);
	int (*destroy_srq)(struct ibv_srq *srq);
	int (*post_srq_recv)(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			     struct ibv_recv_wr **bad_wr);

	struct ibv_qp *(*create_qp)(struct ibv_pd *pd,
				    struct ibv_qp_init_attr *attr);
	struct ibv_qp *(*create_qp_ex)(struct ibv_context *ctx,
				       struct ibv_qp_init_attr_ex *attr);
	int (*query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
			struct ibv_qp_init_attr *init_attr);
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
	int (*destroy_qp)(struct ibv_qp *qp);
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad_wr);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr);

	struct ibv_ah *(*create_ah)(struct ibv_pd *pd, struct ibv_ah_attr *attr);
	int (*destroy_ah)(struct ibv_ah *ah);
	int (*attach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid,
			    uint16_t lid);
	int (*detach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid,
			    uint16_t lid);

	/* Called by ibv_close_device() after every object is gone. */
	void (*free_context)(struct ibv_context *ctx);
};

/* ------------------------------------------------- the library's services */

/*
 * Command helpers: each encodes the core request of one uverbs command
 * (uapi/openverbs/uverbs-abi.h), appends udata, executes it on the
 * context's command fd and decodes the core response into the object.
 * Return 0 or a positive errno.
 */
struct ovb_core {
	uint32_t abi_version;		/* OVB_PROVIDER_ABI_VERSION */

	/*
	 * Opens the context the provider allocated (vctx, zeroed, inside its
	 * own struct) on cmd_fd, in one call: the library's part of the
	 * context, GET_CONTEXT (the driver's response lands in ud->out; ud
	 * may be NULL), then check(vctx) if given (the provider's test of
	 * that response: 0 or a positive errno), then ops.  On failure
	 * everything is undone but cmd_fd, which ibv_open_device() closes.
	 */
	int (*open_context)(struct verbs_context *vctx, struct ibv_device *dev,
			    int cmd_fd, struct ovb_udata *ud,
			    int (*check)(struct verbs_context *vctx),
			    const struct ovb_context_ops *ops);
	/* The other half, from free_context: closes the fds, frees ours. */
	void (*close_context)(struct verbs_context *vctx);

	/* Device and port.  raw_fw_ver: the kernel's u64 (may be NULL). */
	int (*query_device_ex)(struct ibv_context *ctx,
			       struct ibv_device_attr_ex *attr, size_t attr_size,
			       uint64_t *raw_fw_ver);
	int (*query_port)(struct ibv_context *ctx, uint8_t port,
			  struct ibv_port_attr *attr, size_t attr_size);

	int (*alloc_pd)(struct ibv_context *ctx, struct ibv_pd *pd,
			struct ovb_udata *ud);
	int (*dealloc_pd)(struct ibv_pd *pd);
	int (*reg_mr)(struct ibv_pd *pd, void *addr, size_t length,
		      uint64_t hca_va, int access, struct ibv_mr *mr,
		      struct ovb_udata *ud);
	int (*dereg_mr)(struct ibv_mr *mr);
	int (*alloc_mw)(struct ibv_pd *pd, enum ibv_mw_type type,
			struct ibv_mw *mw, struct ovb_udata *ud);
	int (*dealloc_mw)(struct ibv_mw *mw);

	/* cqe: requested; on return cq->cqe is what the kernel allocated. */
	int (*create_cq)(struct ibv_context *ctx, int cqe,
			 struct ibv_comp_channel *channel, int comp_vector,
			 struct ibv_cq *cq, struct ovb_udata *ud);
	int (*resize_cq)(struct ibv_cq *cq, int cqe, struct ovb_udata *ud);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
	int (*destroy_cq)(struct ibv_cq *cq);

	/* attr->cap is rewritten with the kernel's capacities. */
	int (*create_qp)(struct ibv_pd *pd, struct ibv_qp *qp,
			 struct ibv_qp_init_attr *attr, struct ovb_udata *ud);
	int (*query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
			struct ibv_qp_init_attr *init_attr);
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
	int (*destroy_qp)(struct ibv_qp *qp);

	int (*create_srq)(struct ibv_pd *pd, struct ibv_srq *srq,
			  struct ibv_srq_init_attr *attr, uint32_t *srq_num,
			  struct ovb_udata *ud);
	int (*modify_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr,
			  int mask, struct ovb_udata *ud);
	int (*query_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr);
	int (*destroy_srq)(struct ibv_srq *srq);

	int (*create_ah)(struct ibv_pd *pd, struct ibv_ah *ah,
			 struct ibv_ah_attr *attr, struct ovb_udata *ud);
	int (*destroy_ah)(struct ibv_ah *ah);
	int (*attach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid,
			    uint16_t lid);
	int (*detach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid,
			    uint16_t lid);

	/* Debug log, shown with VERBS_LOG_LEVEL / VERBS_LOG_FILE. */
	void (*log)(struct ibv_context *ctx, int level, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));

	/*
	 * create_cq with the kernel's CQ create flags (IB_UVERBS_CQ_FLAGS_*:
	 * 1 timestamp completion, 2 ignore overrun); non-zero flags always
	 * reach the kernel (ioctl, else the extended write() command).
	 * Appended: providers built before it never read it.
	 */
	int (*create_cq_flags)(struct ibv_context *ctx, int cqe,
			       struct ibv_comp_channel *channel, int comp_vector,
			       uint32_t flags, struct ibv_cq *cq,
			       struct ovb_udata *ud);

	/*
	 * Posting and polling through the kernel, for a device whose queues
	 * its kernel driver owns (rdmavt's hfi1 and qib): POST_SEND,
	 * POST_RECV, POST_SRQ_RECV (0 or a positive errno; *bad the WR the
	 * kernel refused) and POLL_CQ (the count, or a negative errno).
	 * Appended as create_cq_flags was.
	 */
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad);
	int (*post_srq_recv)(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			     struct ibv_recv_wr **bad);
	int (*poll_cq)(struct ibv_cq *cq, int ne, struct ibv_wc *wc);
};

/* ------------------------------------------------- the provider itself */

struct ovb_provider {
	uint32_t abi_version;		/* OVB_PROVIDER_ABI_VERSION */
	const char *name;
	/* Kernel driver ABI window (uverbsN/abi_version, netlink CHARDEV_ABI). */
	uint32_t min_abi, max_abi;
	const struct ovb_match *match;	/* ends with OVB_MATCH_END */

	/*
	 * Open a context on an opened command fd: allocate the provider's
	 * context (embedding struct verbs_context), then core->open_context.
	 * NULL with errno on failure.
	 */
	struct verbs_context *(*alloc_context)(struct ibv_device *dev,
					       int cmd_fd);
};

typedef const struct ovb_provider *(*ovb_provider_entry_fn)(
	const struct ovb_core *core);

#ifdef __cplusplus
}
#endif

#endif /* OPENVERBS_PROVIDER_H */
