/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Raw write() commands for the uverbs selftests: legacy and extended
 * headers built by hand, so a test controls every word the kernel sees.
 * Helpers return the write() result or -errno.
 */
#ifndef UVERBS_RAW_H
#define UVERBS_RAW_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <rdma/ib_user_verbs.h>

#define UVERBS_DEV "/dev/infiniband/uverbs0"

/* Room for any driver's private response (rxe needs at most 24 bytes). */
#define RAW_DRV_OUT 64

static inline ssize_t raw_result(ssize_t ret)
{
	return ret < 0 ? -errno : ret;
}

/*
 * A legacy command: @req (whose first u64 is the response address when
 * the command has one) of @req_len bytes, @out_len bytes of response
 * room.  Both lengths must be multiples of 4.
 */
static inline ssize_t raw_cmd(int fd, __u32 cmd, const void *req,
			      size_t req_len, size_t out_len)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		char body[1024];
	} buf;

	memset(&buf, 0, sizeof(buf));
	buf.hdr.command = cmd;
	buf.hdr.in_words = (sizeof(buf.hdr) + req_len) / 4;
	buf.hdr.out_words = out_len / 4;
	memcpy(buf.body, req, req_len);
	return raw_result(write(fd, &buf, sizeof(buf.hdr) + req_len));
}

/*
 * An extended command: @req_len bytes of core request followed by
 * @drv_in_len bytes of driver request (both in @req), the response at
 * @resp with @resp_len core and @drv_out_len driver bytes.  Lengths are
 * multiples of 8.
 */
static inline ssize_t raw_ex_cmd(int fd, __u32 cmd, const void *req,
				 size_t req_len, size_t drv_in_len, void *resp,
				 size_t resp_len, size_t drv_out_len)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		char body[1024];
	} buf;

	memset(&buf, 0, sizeof(buf));
	buf.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | cmd;
	buf.hdr.in_words = req_len / 8;
	buf.hdr.out_words = resp_len / 8;
	buf.ex.response = (uintptr_t)resp;
	buf.ex.provider_in_words = drv_in_len / 8;
	buf.ex.provider_out_words = drv_out_len / 8;
	memcpy(buf.body, req, req_len + drv_in_len);
	return raw_result(write(fd, &buf, sizeof(buf.hdr) + sizeof(buf.ex) +
				req_len + drv_in_len));
}

static inline int raw_get_context(int fd, struct ib_uverbs_get_context_resp *resp)
{
	struct ib_uverbs_get_context req = { .response = (uintptr_t)resp };

	return raw_cmd(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &req, sizeof(req),
		       sizeof(*resp)) < 0 ? -errno : 0;
}

static inline int raw_query_device(int fd,
				   struct ib_uverbs_query_device_resp *resp)
{
	struct ib_uverbs_query_device req = { .response = (uintptr_t)resp };
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
			      sizeof(req), sizeof(*resp));

	return ret < 0 ? ret : 0;
}

/* EX_QUERY_DEVICE with the whole response the headers know. */
static inline int raw_query_device_ex(int fd,
				      struct ib_uverbs_ex_query_device_resp *resp)
{
	struct ib_uverbs_ex_query_device req = {};
	ssize_t ret;

	memset(resp, 0, sizeof(*resp));
	ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, &req,
			 sizeof(req), 0, resp, sizeof(*resp), 0);
	return ret < 0 ? (int)ret : 0;
}

/* ALLOC_PD with room for a driver response; returns the handle or -errno. */
static inline int raw_alloc_pd(int fd)
{
	struct {
		struct ib_uverbs_alloc_pd_resp core;
		char drv[RAW_DRV_OUT];
	} resp = {};
	struct ib_uverbs_alloc_pd req = { .response = (uintptr_t)&resp };
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_ALLOC_PD, &req, sizeof(req),
			      sizeof(resp));

	return ret < 0 ? ret : (int)resp.core.pd_handle;
}

static inline int raw_dealloc_pd(int fd, __u32 handle)
{
	struct ib_uverbs_dealloc_pd req = { .pd_handle = handle };
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_DEALLOC_PD, &req,
			      sizeof(req), 0);

	return ret < 0 ? ret : 0;
}

static inline int raw_create_comp_channel(int fd)
{
	struct ib_uverbs_create_comp_channel_resp resp = {};
	struct ib_uverbs_create_comp_channel req = {
		.response = (uintptr_t)&resp,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, &req,
			      sizeof(req), sizeof(resp));

	return ret < 0 ? ret : (int)resp.fd;
}

/* CREATE_CQ; on success *@resp has the handle and the real size. */
static inline int raw_create_cq(int fd, __u32 cqe, __u32 vector, __s32 channel,
				__u64 user_handle,
				struct ib_uverbs_create_cq_resp *resp)
{
	struct {
		struct ib_uverbs_create_cq_resp core;
		char drv[RAW_DRV_OUT];
	} out = {};
	struct ib_uverbs_create_cq req = {
		.response = (uintptr_t)&out,
		.user_handle = user_handle,
		.cqe = cqe,
		.comp_vector = vector,
		.comp_channel = channel,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_CQ, &req, sizeof(req),
			      sizeof(out));

	if (ret < 0)
		return ret;
	if (resp)
		*resp = out.core;
	return 0;
}

static inline int raw_destroy_cq(int fd, __u32 handle,
				 struct ib_uverbs_destroy_cq_resp *resp)
{
	struct ib_uverbs_destroy_cq_resp tmp;
	struct ib_uverbs_destroy_cq req = {
		.response = (uintptr_t)(resp ? resp : &tmp),
		.cq_handle = handle,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_DESTROY_CQ, &req,
			      sizeof(req), sizeof(tmp));

	return ret < 0 ? ret : 0;
}

/* enum ib_qp_type IB_QPT_XRC_TGT: no send queue, no receive queue. */
#define RAW_QPT_XRC_TGT	10

/*
 * CREATE_QP of @type: @pd is the XRCD handle for XRC TGT; an SRQ when
 * @srq >= 0.  The handle or -errno, the QP number in *@qpn.
 */
static inline int raw_create_qp(int fd, __u8 type, __u32 pd, __u32 cq,
				int srq, __u32 *qpn)
{
	struct {
		struct ib_uverbs_create_qp_resp core;
		char drv[RAW_DRV_OUT];
	} out = {};
	struct ib_uverbs_create_qp req = {
		.response = (uintptr_t)&out,
		.user_handle = 0x9d,
		.pd_handle = pd,
		.send_cq_handle = cq,
		.recv_cq_handle = cq,
		.srq_handle = srq < 0 ? 0 : srq,
		.max_send_wr = type == RAW_QPT_XRC_TGT ? 0 : 8,
		.max_recv_wr = srq < 0 && type != RAW_QPT_XRC_TGT ? 8 : 0,
		.max_send_sge = type == RAW_QPT_XRC_TGT ? 0 : 1,
		.max_recv_sge = srq < 0 && type != RAW_QPT_XRC_TGT ? 1 : 0,
		.qp_type = type,
		.is_srq = srq >= 0,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_QP, &req,
			      sizeof(req), sizeof(out));

	if (ret < 0)
		return ret;
	if (qpn)
		*qpn = out.core.qpn;
	return (int)out.core.qp_handle;
}

static inline int raw_destroy_qp(int fd, __u32 handle)
{
	struct ib_uverbs_destroy_qp_resp resp;
	struct ib_uverbs_destroy_qp req = {
		.response = (uintptr_t)&resp,
		.qp_handle = handle,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_DESTROY_QP, &req,
			      sizeof(req), sizeof(resp));

	return ret < 0 ? (int)ret : 0;
}

static inline int raw_modify_qp(int fd, struct ib_uverbs_modify_qp *req)
{
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_MODIFY_QP, req,
			      sizeof(*req), 0);

	return ret < 0 ? (int)ret : 0;
}

/* DESTROY_SRQ; the events reported in *@resp when @resp is not NULL. */
static inline int raw_destroy_srq(int fd, __u32 handle,
				  struct ib_uverbs_destroy_srq_resp *resp)
{
	struct ib_uverbs_destroy_srq_resp tmp;
	struct ib_uverbs_destroy_srq req = {
		.response = (uintptr_t)(resp ? resp : &tmp),
		.srq_handle = handle,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_DESTROY_SRQ, &req,
			      sizeof(req), sizeof(tmp));

	return ret < 0 ? (int)ret : 0;
}

static inline int raw_query_srq(int fd, __u32 handle,
				struct ib_uverbs_query_srq_resp *resp)
{
	struct ib_uverbs_query_srq req = {
		.response = (uintptr_t)resp,
		.srq_handle = handle,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_QUERY_SRQ, &req,
			      sizeof(req), sizeof(*resp));

	return ret < 0 ? (int)ret : 0;
}

/* MODIFY_SRQ with @drv_len (0, 8 or 16) bytes of zeroed driver request. */
static inline int raw_modify_srq(int fd, __u32 handle, __u32 mask,
				 __u32 max_wr, __u32 limit, size_t drv_len)
{
	struct {
		struct ib_uverbs_modify_srq core;
		__u64 drv[2];
	} req = {
		.core = {
			.srq_handle = handle,
			.attr_mask = mask,
			.max_wr = max_wr,
			.srq_limit = limit,
		},
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_MODIFY_SRQ, &req,
			      sizeof(req.core) + drv_len, 0);

	return ret < 0 ? (int)ret : 0;
}

/* The name of the RDMA device behind uverbs0 ("rxe0"), or "". */
static inline const char *raw_ibdev_name(void)
{
	static char name[64];
	FILE *f = fopen("/sys/class/infiniband_verbs/uverbs0/ibdev", "r");

	name[0] = 0;
	if (f) {
		if (!fgets(name, sizeof(name), f))
			name[0] = 0;
		fclose(f);
	}
	name[strcspn(name, "\n")] = 0;
	return name;
}

/*
 * Whether the loaded ib_uverbs is the distro's (in-tree) one: ours has a
 * MODULE_VERSION, the distro's has none.  Only for the few tests of
 * upstream bugs our module fixes, which would splat the in-tree stack.
 */
static inline int raw_stack_is_intree(void)
{
	return access("/sys/module/ib_uverbs/version", F_OK) != 0;
}

/*
 * Whether the running kernel (uname) is @major.@minor or newer.  Where
 * Debian's 6.12 answers otherwise than its 6.1 (the in-tree module of the
 * running kernel is the oracle), a test expects per kernel through this,
 * with a comment naming the 6.12 change (Documentation/kernels.md).  The
 * only place the selftests read the release (ovbtest_k612() uses it).
 */
static inline int raw_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma > major || (ma == major && mi >= minor);
}

/*
 * RDMA FLUSH and ATOMIC WRITE (uapi since 6.2, in Debian's 6.12, not in
 * the 6.1 headers the selftests build with): the work request opcodes,
 * the MR access bits and QUERY_DEVICE_EX's device cap bits.
 */
#define RAW_WR_FLUSH			14
#define RAW_WR_ATOMIC_WRITE		15
#define RAW_ACCESS_FLUSH_GLOBAL		(1u << 8)
#define RAW_ACCESS_FLUSH_PERSISTENT	(1u << 9)
#define RAW_DEVICE_FLUSH_GLOBAL		(1ULL << 38)
#define RAW_DEVICE_FLUSH_PERSISTENT	(1ULL << 39)
#define RAW_DEVICE_ATOMIC_WRITE		(1ULL << 40)

/*
 * How many objects of @type ("pd", "qp", ...) ib_core's resource tracker
 * lists (rdma res show), or -1 when the tool cannot tell.  Leak checks.
 * Per-device objects print as "dev ..." lines, per-port ones (QPs, CM ids)
 * as "link ..." lines.
 */
static inline int raw_res_count(const char *type)
{
	char cmd[128], line[512];
	int n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "rdma res show %s 2>/dev/null", type);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (!strncmp(line, "dev ", 4) || !strncmp(line, "link ", 5))
			n++;
	return pclose(p) == 0 ? n : -1;
}

/* This process's pinned memory (VmPin), in kB; -1 if unknown. */
static inline long raw_vm_pin_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * A kernel with lockdep (the debug kernel) has /proc/lockdep.  rdma_rxe 6.1
 * has a bug there that no ib_uverbs can avoid: an RC QP whose creation
 * fails in rxe_qp_init_req (e.g. its queue's mmap info cannot be copied
 * out: EFAULT) is cleaned up by rxe_qp_do_cleanup, which del_timer_sync()s
 * the two timers rxe_qp_init_req had not set up yet: lockdep reports
 * "trying to register non-static key" and turns itself off for the rest
 * of the boot (harmless otherwise: the timers are zeroed, never pending).
 * Reported upstream by syzbot (extid 4edb496c3cad6e953a31, 6.15-rc2).
 */
static inline int raw_kernel_has_lockdep(void)
{
	return access("/proc/lockdep", F_OK) == 0;
}

#define RAW_RXE_RC_CREATE_FAIL_BUG \
	"rdma_rxe 6.1 del_timer_sync()s an RC QP's unset timers when its " \
	"creation fails (lockdep: non-static key in rxe_qp_do_cleanup)"

/*
 * A kernel with kmemleak has /sys/kernel/debug/kmemleak.  rdma_rxe 6.1's
 * rxe_cq_from_init returns an error from do_mmap_info (the driver
 * response not writable: EFAULT) without freeing the queue it had just
 * made (struct rxe_queue, 64 bytes, and its vmalloc'ed ring), and the CQ
 * is not in rxe's pool yet, so nothing frees it: kmemleak reports it.
 */
static inline int raw_kernel_has_kmemleak(void)
{
	return access("/sys/kernel/debug/kmemleak", F_OK) == 0;
}

#define RAW_RXE_CQ_CREATE_FAIL_BUG \
	"rdma_rxe 6.1 leaks a CQ's queue when its mmap info cannot be " \
	"copied out (kmemleak: rxe_queue_init from rxe_cq_from_init)"

#endif /* UVERBS_RAW_H */
