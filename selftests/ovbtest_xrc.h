/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The XRC and WQ verbs of the write() ABI on the test HCA, raw: the
 * constants and calls uverbs_ovbtest_xrc, _async and _xrc_ioctl share.
 */
#ifndef OVBTEST_XRC_H
#define OVBTEST_XRC_H

#include "ovbtest_lib.h"
#include "qp_abi.h"

/* SRQ types and modify masks, WQ states and modify masks (write() ABI). */
enum { SRQT_BASIC, SRQT_XRC, SRQT_TM };
enum { SRQ_MAX_WR = 1 << 0, SRQ_LIMIT = 1 << 1 };
enum { WQS_RESET, WQS_RDY, WQS_ERR };
enum { WQ_STATE = 1 << 0, WQ_CUR_STATE = 1 << 1, WQ_FLAGS = 1 << 2 };

static inline int res_of(int fd, struct ovbtest_res_info *info)
{
	struct ioc c;

	memset(info, 0xff, sizeof(*info));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, OVBTEST_METHOD_DEVICE_RES);
	ioc_out(&c, OVBTEST_ATTR_DEVICE_RES_INFO, info, sizeof(*info));
	return ioc_call(fd, &c);
}

static inline int open_xrcd(int fd, int file, __u32 oflags)
{
	struct ib_uverbs_open_xrcd_resp resp = {};
	struct ib_uverbs_open_xrcd req = {
		.response = (uintptr_t)&resp,
		.fd = file,
		.oflags = oflags,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_OPEN_XRCD, &req,
			      sizeof(req), sizeof(resp));

	return ret < 0 ? (int)ret : (int)resp.xrcd_handle;
}

static inline int close_xrcd(int fd, __u32 handle)
{
	struct ib_uverbs_close_xrcd req = { .xrcd_handle = handle };
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_CLOSE_XRCD, &req,
			      sizeof(req), 0);

	return ret < 0 ? (int)ret : 0;
}

/* OPEN_QP of QP number @qpn as @type; its handle or -errno (QPN in *@rqpn). */
static inline int open_qp(int fd, __u32 xrcd, __u32 qpn, __u8 type, __u32 *rqpn)
{
	struct ib_uverbs_create_qp_resp resp = {};
	struct ib_uverbs_open_qp req = {
		.response = (uintptr_t)&resp,
		.user_handle = 0x0b,
		.pd_handle = xrcd,
		.qpn = qpn,
		.qp_type = type,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_OPEN_QP, &req, sizeof(req),
				      sizeof(resp));

	if (ret < 0)
		return ret;
	if (rqpn)
		*rqpn = resp.qpn;
	return (int)resp.qp_handle;
}

static inline int create_xsrq(int fd, __u32 type, __u32 pd, __u32 xrcd,
			      __u32 cq, __u32 max_wr,
			      struct ib_uverbs_create_srq_resp *resp)
{
	struct {
		struct ib_uverbs_create_srq_resp core;
		char drv[RAW_DRV_OUT];
	} out = {};
	struct ib_uverbs_create_xsrq req = {
		.response = (uintptr_t)&out,
		.user_handle = 0x5e,
		.srq_type = type,
		.pd_handle = pd,
		.max_wr = max_wr,
		.max_sge = 1,
		.xrcd_handle = xrcd,
		.cq_handle = cq,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_XSRQ, &req,
			      sizeof(req), sizeof(out));

	if (ret < 0)
		return ret;
	if (resp)
		*resp = out.core;
	return (int)out.core.srq_handle;
}

static inline int create_wq(int fd, __u32 pd, __u32 cq, __u32 type,
			    __u32 max_wr, __u32 comp_mask,
			    struct ib_uverbs_ex_create_wq_resp *resp)
{
	struct ib_uverbs_ex_create_wq_resp out = {};
	struct ib_uverbs_ex_create_wq req = {
		.comp_mask = comp_mask,
		.wq_type = type,
		.user_handle = 0x3a,
		.pd_handle = pd,
		.cq_handle = cq,
		.max_wr = max_wr,
		.max_sge = 1,
	};
	ssize_t ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_CREATE_WQ, &req,
				 sizeof(req), 0, &out, sizeof(out), 0);

	if (ret < 0)
		return ret;
	if (resp)
		*resp = out;
	return (int)out.wq_handle;
}

/* DESTROY_WQ; the events reported in *@events when not NULL. */
static inline int destroy_wq_ev(int fd, __u32 handle, __u32 *events)
{
	struct ib_uverbs_ex_destroy_wq_resp out = { .events_reported = ~0u };
	struct ib_uverbs_ex_destroy_wq req = { .wq_handle = handle };
	ssize_t ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_DESTROY_WQ, &req,
				 sizeof(req), 0, &out, sizeof(out), 0);

	if (ret < 0)
		return (int)ret;
	if (events)
		*events = out.events_reported;
	return 0;
}

static inline int destroy_wq(int fd, __u32 handle)
{
	return destroy_wq_ev(fd, handle, NULL);
}

/* enum ib_event_type */
enum {
	EV_QP_FATAL = 1, EV_COMM_EST = 4, EV_PORT_ACTIVE = 9,
	EV_SRQ_ERR = 14, EV_SRQ_LIMIT = 15, EV_WQ_FATAL = 19,
};

/*
 * The test HCA's RAISE method on a QP, SRQ or WQ (@object): the object's
 * event handler called with @type, as a driver's event queue would.  The
 * method has one id in each object.  0 or -errno.
 */
static inline int raise_ev(int fd, __u16 object, __u32 handle, __u32 type)
{
	struct ioc c;

	ovbtest_ioc_init(&c, object, OVBTEST_METHOD_QP_RAISE);
	ioc_obj(&c, OVBTEST_ATTR_RAISE_HANDLE, handle);
	ioc_in(&c, OVBTEST_ATTR_RAISE_EVENT, &type, sizeof(type));
	return ioc_call(fd, &c);
}

/* QP_DESTROY by ioctl; the events it reports, or -errno. */
static inline int ioc_qp_destroy(int fd, __u32 handle)
{
	struct ib_uverbs_destroy_qp_resp resp = { .events_reported = ~0u };
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_QP_HANDLE, handle);
	ioc_out(&c, UVERBS_ATTR_DESTROY_QP_RESP, &resp, sizeof(resp));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)resp.events_reported;
}

#endif /* OVBTEST_XRC_H */
