// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Driver udata of EX_QUERY_DEVICE and EX_MODIFY_QP both ways, as mlx4,
 * mlx5, efa (query_device) and mlx5, irdma (modify_qp) use it: the test HCA
 * answers with the udata it was handed (selftests/ovbtest/udata_ex.c,
 * struct ovbtest_udata_ex_resp), so each case compares the user addresses
 * and lengths the driver saw with where this program put its buffers:
 *  - write(): the driver request right after the core request in the
 *    written buffer, the driver response right after the core response,
 *    provider_in/out_words * 8 bytes, NULL when 0;
 *  - INVOKE_WRITE: UHW_IN's buffer, or the attribute's own data field when
 *    the input is inline (8 bytes or less); UHW_OUT's buffer and length
 *    (any length, not only 8-byte words), marked VALID_OUTPUT on success
 *    and not on failure;
 *  - legacy ALLOC_PD (the old libraries' ABI, the response address in the
 *    command, lengths in 4-byte words): the driver request right after
 *    the core request, the driver room right after the 4-byte core
 *    response, both exactly as long as the words say;
 *  - a response longer than the user's room is cut by the driver, bytes
 *    past outlen stay as they were; nonzero bytes past the driver's request
 *    (ib_is_udata_cleared()) fail with the driver's errno (EINVAL on
 *    query_device, EOPNOTSUPP on modify_qp, as mlx5) and write nothing;
 *  - CQ creation picks the library generation from the exact lengths as
 *    cxgb4 does (struct ovbtest_create_cq_req/_resp_v2): a request
 *    shorter than the new one (none, a 4-byte legacy word, 1-7 bytes by
 *    ioctl) is an old library's, not read, answered with legacy CQEs and
 *    the response less its last field even with more room; a whole request
 *    is read and honoured, the response whole; both cut to outlen, nothing
 *    past it touched - by legacy and extended write(), INVOKE_WRITE of
 *    both, and the CQ object's CQ_CREATE method.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"
#include "qp_abi.h"

#define FILL		0xa5
#define TAG		0x7461675f75646174ULL
#define RESP_LEN	sizeof(struct ovbtest_udata_ex_resp)

/* A write() buffer at a known address: the driver request follows. */
static struct {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_ex_cmd_hdr ex;
	char body[512];
} wbuf __attribute__((aligned(8)));

/* The core response followed by the driver's room, and a tail. */
static char out[1024] __attribute__((aligned(8)));

/*
 * An extended command by write(): @req_len bytes of core request, @drv
 * (@drv_len bytes) after it, @resp_len bytes of core response at out[],
 * @drv_out bytes of driver response after it.  0 or -errno.
 */
static int ex_write(int fd, __u32 cmd, const void *req, size_t req_len,
		    const void *drv, size_t drv_len, size_t resp_len,
		    size_t drv_out)
{
	ssize_t n;

	memset(&wbuf, 0, sizeof(wbuf));
	memset(out, FILL, sizeof(out));
	wbuf.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | cmd;
	wbuf.hdr.in_words = req_len / 8;
	wbuf.hdr.out_words = resp_len / 8;
	wbuf.ex.response = (uintptr_t)out;
	wbuf.ex.provider_in_words = drv_len / 8;
	wbuf.ex.provider_out_words = drv_out / 8;
	memcpy(wbuf.body, req, req_len);
	memcpy(wbuf.body + req_len, drv, drv_len);
	n = write(fd, &wbuf, sizeof(wbuf.hdr) + sizeof(wbuf.ex) +
		  req_len + drv_len);
	return n < 0 ? -errno : 0;
}

/* The driver's room of the last ex_write() with @resp_len core bytes. */
static struct ovbtest_udata_ex_resp *drv_out(size_t resp_len)
{
	return (struct ovbtest_udata_ex_resp *)(out + resp_len);
}

/* Whether @len bytes at @p are all FILL (untouched). */
static int untouched(const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len--)
		if (*b++ != FILL)
			return 0;
	return 1;
}

static const struct ib_uverbs_ex_query_device qd_req;
#define QD_RESP	sizeof(struct ib_uverbs_ex_query_device_resp)

/* A RESET -> INIT of @qp, as EX_MODIFY_QP's core request. */
static struct ib_uverbs_ex_modify_qp mqp_req(__u32 qp)
{
	struct ib_uverbs_ex_modify_qp req = {
		.base = {
			.qp_handle = qp,
			.attr_mask = QP_STATE | QP_PKEY_INDEX | QP_PORT |
				     QP_ACCESS_FLAGS,
			.qp_state = QPS_INIT,
			.port_num = 1,
		},
	};

	return req;
}

#define MQP_RESP	sizeof(struct ib_uverbs_ex_modify_qp_resp)

/* A driver request: the command and @extra bytes after it (set by caller). */
static struct {
	struct ovbtest_udata_ex_cmd cmd;
	unsigned char extra[24];
} drv __attribute__((aligned(8)));

static void drv_set(__u64 tag)
{
	memset(&drv, 0, sizeof(drv));
	drv.cmd.tag = tag;
}

/* Checks a driver response against the udata this program described. */
#define EXPECT_SEEN(r, in, inl, outp, outl, tg, op_)				do {										EXPECT_EQ((__u64)(uintptr_t)(in), (r)->inbuf);				EXPECT_EQ((__u32)(inl), (r)->inlen);					EXPECT_EQ((__u64)(uintptr_t)(outp), (r)->outbuf);			EXPECT_EQ((__u32)(outl), (r)->outlen);					EXPECT_EQ((__u64)(tg), (r)->tag);					EXPECT_EQ((__u32)RESP_LEN, (r)->response_length);			EXPECT_EQ((__u32)(op_), (r)->op);				} while (0)

FIXTURE(udata_ex) {
	int fd, pd, cq, qp;
	char ioctl_abi;
};

FIXTURE_SETUP(udata_ex)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	self->ioctl_abi = 0;
	HCA_SETUP_LOAD();
	self->ioctl_abi = ioctl_abi_on();
	HCA_SETUP_OPEN(self->fd, &uctx, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);
	self->qp = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1,
				 NULL);
	ASSERT_LE(0, self->qp);
	ASSERT_EQ(0, sizeof(qd_req) % 8);
	ASSERT_EQ(0, QD_RESP % 8);
	ASSERT_EQ(0, sizeof(struct ib_uverbs_ex_modify_qp) % 8);
	ASSERT_EQ(0, MQP_RESP % 8);
}

FIXTURE_TEARDOWN(udata_ex)
{
	if (self->fd >= 0)
		close(self->fd);
	ioctl_abi_restore(self->ioctl_abi);
}

/* ---------------------------------------------------- EX_QUERY_DEVICE */

/* Request and response: both where write()'s words put them. */
TEST_F(udata_ex, query_device_write)
{
	drv_set(TAG);
	ASSERT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			      &qd_req, sizeof(qd_req), &drv, sizeof(drv.cmd),
			      QD_RESP, RESP_LEN));
	EXPECT_SEEN(drv_out(QD_RESP), wbuf.body + sizeof(qd_req),
		    sizeof(drv.cmd), drv_out(QD_RESP), RESP_LEN, TAG,
		    OVBTEST_UDATA_EX_QUERY_DEVICE);
	/* the core response is whole and says so */
	EXPECT_EQ(QD_RESP,
		  ((struct ib_uverbs_ex_query_device_resp *)out)->response_length);
	EXPECT_TRUE(untouched(out + QD_RESP + RESP_LEN, 64));
}

/* No driver request: NULL and 0; the response still comes. */
TEST_F(udata_ex, query_device_write_no_request)
{
	ASSERT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			      &qd_req, sizeof(qd_req), NULL, 0, QD_RESP,
			      RESP_LEN));
	EXPECT_SEEN(drv_out(QD_RESP), NULL, 0, drv_out(QD_RESP), RESP_LEN, 0,
		    OVBTEST_UDATA_EX_QUERY_DEVICE);
}

/* 16 bytes of room for a longer response: cut there, the rest untouched. */
TEST_F(udata_ex, query_device_write_short_room)
{
	struct ovbtest_udata_ex_resp *r = drv_out(QD_RESP);

	drv_set(TAG);
	ASSERT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			      &qd_req, sizeof(qd_req), &drv, 8, QD_RESP, 16));
	EXPECT_EQ((uintptr_t)(wbuf.body + sizeof(qd_req)), r->inbuf);
	EXPECT_EQ((uintptr_t)r, r->outbuf);
	EXPECT_TRUE(untouched((char *)r + 16, RESP_LEN - 16 + 64));
}

/* Zero bytes past the driver's request are fine; the length is exact. */
TEST_F(udata_ex, query_device_write_zero_tail)
{
	drv_set(TAG);
	ASSERT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			      &qd_req, sizeof(qd_req), &drv, sizeof(drv),
			      QD_RESP, RESP_LEN));
	EXPECT_SEEN(drv_out(QD_RESP), wbuf.body + sizeof(qd_req), sizeof(drv),
		    drv_out(QD_RESP), RESP_LEN, TAG,
		    OVBTEST_UDATA_EX_QUERY_DEVICE);
}

/* One nonzero byte past it (its last): EINVAL, no response. */
TEST_F(udata_ex, query_device_write_dirty_tail)
{
	drv_set(TAG);
	drv.extra[sizeof(drv.extra) - 1] = 1;
	EXPECT_EQ(-EINVAL,
		  ex_write(self->fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			   &qd_req, sizeof(qd_req), &drv, sizeof(drv),
			   QD_RESP, RESP_LEN));
	EXPECT_TRUE(untouched(out, sizeof(out)));
	/* the same byte outside inlen is not the driver's to read */
	EXPECT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			      &qd_req, sizeof(qd_req), &drv,
			      sizeof(drv) - 8, QD_RESP, RESP_LEN));
	EXPECT_EQ(sizeof(drv) - 8, drv_out(QD_RESP)->inlen);
}

TEST_F(udata_ex, query_device_write_reserved)
{
	drv_set(TAG);
	drv.cmd.reserved = 1;
	EXPECT_EQ(-EINVAL,
		  ex_write(self->fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			   &qd_req, sizeof(qd_req), &drv, sizeof(drv.cmd),
			   QD_RESP, RESP_LEN));
	EXPECT_TRUE(untouched(out, sizeof(out)));
}

/*
 * INVOKE_WRITE of @cmd (an extended command) with core request @req,
 * core response at out[], the driver request @in (@in_len, inline when 8
 * bytes or less) and @out_len bytes of driver room at @drv_room.  0 or
 * -errno; the call in *@c.  wr_ioctl() takes @cmd as it is (a legacy
 * command, or one with the extended flag).
 */
static int wr_ioctl(int fd, struct ioc *c, __u32 cmd, const void *req,
		    size_t req_len, size_t resp_len, const void *in,
		    size_t in_len, void *drv_room, size_t out_len)
{
	memset(out, FILL, sizeof(out));
	ovbtest_ioc_init(c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	ioc_const(c, UVERBS_ATTR_WRITE_CMD, cmd);
	ioc_in(c, UVERBS_ATTR_CORE_IN, req, req_len);
	ioc_out(c, UVERBS_ATTR_CORE_OUT, out, resp_len);
	if (in)
		ioc_in(c, UVERBS_ATTR_UHW_IN, in, in_len);
	if (drv_room)
		ioc_out(c, UVERBS_ATTR_UHW_OUT, drv_room, out_len);
	return ioc_call(fd, c);
}

static int ex_ioctl(int fd, struct ioc *c, __u32 cmd, const void *req,
		    size_t req_len, size_t resp_len, const void *in,
		    size_t in_len, void *drv_room, size_t out_len)
{
	return wr_ioctl(fd, c, IB_USER_VERBS_CMD_FLAG_EXTENDED | cmd, req,
			req_len, resp_len, in, in_len, drv_room, out_len);
}

/* The attribute of @id in @c. */
static struct ib_uverbs_attr *ioc_find(struct ioc *c, __u16 id)
{
	unsigned int i;

	for (i = 0; i < c->hdr.num_attrs; i++)
		if (c->attrs[i].attr_id == id)
			return &c->attrs[i];
	return NULL;
}

/* An inline request: the driver reads it from the attribute itself. */
TEST_F(udata_ex, query_device_ioctl_inline)
{
	struct ovbtest_udata_ex_resp *r = drv_out(QD_RESP);
	struct ioc c;

	drv_set(TAG);
	ASSERT_EQ(0, ex_ioctl(self->fd, &c, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			      &qd_req, sizeof(qd_req), QD_RESP, &drv, 8, r,
			      RESP_LEN));
	EXPECT_SEEN(r, &ioc_find(&c, UVERBS_ATTR_UHW_IN)->data, 8, r,
		    RESP_LEN, TAG, OVBTEST_UDATA_EX_QUERY_DEVICE);
	EXPECT_TRUE(ioc_find(&c, UVERBS_ATTR_UHW_OUT)->flags &
		    UVERBS_ATTR_F_VALID_OUTPUT);
}

/* A request by address; room of 12 bytes (ioctl has no words). */
TEST_F(udata_ex, query_device_ioctl_pointer)
{
	struct ovbtest_udata_ex_resp *r = drv_out(QD_RESP);
	struct ioc c;

	drv_set(TAG);
	ASSERT_EQ(0, ex_ioctl(self->fd, &c, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			      &qd_req, sizeof(qd_req), QD_RESP, &drv,
			      sizeof(drv), r, RESP_LEN));
	EXPECT_SEEN(r, &drv, sizeof(drv), r, RESP_LEN, TAG,
		    OVBTEST_UDATA_EX_QUERY_DEVICE);

	ASSERT_EQ(0, ex_ioctl(self->fd, &c, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			      &qd_req, sizeof(qd_req), QD_RESP, &drv,
			      sizeof(drv), r, 12));
	EXPECT_EQ((uintptr_t)&drv, r->inbuf);
	/* 4 bytes of outbuf made it: its low half (little-endian) */
	EXPECT_EQ((__u32)(uintptr_t)r, (__u32)r->outbuf);
	EXPECT_TRUE(untouched((char *)r + 12, RESP_LEN - 12));
}

/* Neither UHW attribute: NULL and 0 both ways, nothing to write. */
TEST_F(udata_ex, query_device_ioctl_no_uhw)
{
	struct ioc c;

	ASSERT_EQ(0, ex_ioctl(self->fd, &c, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			      &qd_req, sizeof(qd_req), QD_RESP, NULL, 0, NULL,
			      0));
	EXPECT_TRUE(untouched(out + QD_RESP, sizeof(out) - QD_RESP));
}

/* A dirty tail by ioctl: EINVAL, UHW_OUT not marked, nothing written. */
TEST_F(udata_ex, query_device_ioctl_dirty_tail)
{
	struct ovbtest_udata_ex_resp *r = drv_out(QD_RESP);
	struct ioc c;

	drv_set(TAG);
	drv.extra[0] = 0x80;
	EXPECT_EQ(-EINVAL,
		  ex_ioctl(self->fd, &c, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			   &qd_req, sizeof(qd_req), QD_RESP, &drv,
			   sizeof(drv.cmd) + 1, r, RESP_LEN));
	EXPECT_FALSE(ioc_find(&c, UVERBS_ATTR_UHW_OUT)->flags &
		     UVERBS_ATTR_F_VALID_OUTPUT);
	EXPECT_TRUE(untouched(out, sizeof(out)));
}

/* ------------------------------------------------------- EX_MODIFY_QP */

TEST_F(udata_ex, modify_qp_write)
{
	struct ib_uverbs_ex_modify_qp req = mqp_req(self->qp);
	struct ib_uverbs_ex_modify_qp_resp *core = (void *)out;

	drv_set(TAG + 1);
	ASSERT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_MODIFY_QP, &req,
			      sizeof(req), &drv, sizeof(drv.cmd), MQP_RESP,
			      RESP_LEN));
	EXPECT_SEEN(drv_out(MQP_RESP), wbuf.body + sizeof(req),
		    sizeof(drv.cmd), drv_out(MQP_RESP), RESP_LEN, TAG + 1,
		    OVBTEST_UDATA_EX_MODIFY_QP);
	EXPECT_EQ(MQP_RESP, core->response_length);
	EXPECT_TRUE(untouched(out + MQP_RESP + RESP_LEN, 64));
}

/* EOPNOTSUPP for a dirty tail; the same transition then goes through. */
TEST_F(udata_ex, modify_qp_write_dirty_tail)
{
	struct ib_uverbs_ex_modify_qp req = mqp_req(self->qp);

	drv_set(TAG);
	drv.extra[5] = 2;
	EXPECT_EQ(-EOPNOTSUPP,
		  ex_write(self->fd, IB_USER_VERBS_EX_CMD_MODIFY_QP, &req,
			   sizeof(req), &drv, sizeof(drv), MQP_RESP,
			   RESP_LEN));
	EXPECT_TRUE(untouched(out, sizeof(out)));
	drv_set(TAG);
	EXPECT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_MODIFY_QP, &req,
			      sizeof(req), &drv, sizeof(drv), MQP_RESP,
			      RESP_LEN));
	EXPECT_EQ(sizeof(drv), drv_out(MQP_RESP)->inlen);
}

/* A refused transition (RESET -> RTS) writes no driver response. */
TEST_F(udata_ex, modify_qp_write_refused)
{
	struct ib_uverbs_ex_modify_qp req = mqp_req(self->qp);

	req.base.qp_state = QPS_RTS;
	drv_set(TAG);
	EXPECT_EQ(-EINVAL,
		  ex_write(self->fd, IB_USER_VERBS_EX_CMD_MODIFY_QP, &req,
			   sizeof(req), &drv, sizeof(drv.cmd), MQP_RESP,
			   RESP_LEN));
	EXPECT_TRUE(untouched(out, sizeof(out)));
}

TEST_F(udata_ex, modify_qp_ioctl)
{
	struct ib_uverbs_ex_modify_qp req = mqp_req(self->qp);
	struct ovbtest_udata_ex_resp *r = drv_out(MQP_RESP);
	struct ioc c;

	drv_set(TAG + 2);
	ASSERT_EQ(0, ex_ioctl(self->fd, &c, IB_USER_VERBS_EX_CMD_MODIFY_QP,
			      &req, sizeof(req), MQP_RESP, &drv,
			      sizeof(drv.cmd), r, RESP_LEN));
	EXPECT_SEEN(r, &drv, sizeof(drv.cmd), r, RESP_LEN, TAG + 2,
		    OVBTEST_UDATA_EX_MODIFY_QP);
	EXPECT_TRUE(ioc_find(&c, UVERBS_ATTR_UHW_OUT)->flags &
		    UVERBS_ATTR_F_VALID_OUTPUT);
	/* inline, and room up to outlen (24 bytes) */
	drv_set(TAG + 3);
	ASSERT_EQ(0, ex_ioctl(self->fd, &c, IB_USER_VERBS_EX_CMD_MODIFY_QP,
			      &req, sizeof(req), MQP_RESP, &drv, 8, r, 24));
	EXPECT_EQ((uintptr_t)&ioc_find(&c, UVERBS_ATTR_UHW_IN)->data,
		  r->inbuf);
	EXPECT_EQ(8, r->inlen);
	EXPECT_EQ(24, r->outlen);
	EXPECT_TRUE(untouched((char *)r + 24, RESP_LEN - 24));
}

/* ------------------------------------------------- legacy ALLOC_PD */

/* A legacy write() buffer at a known address: the old libraries' ABI. */
static struct {
	struct ib_uverbs_cmd_hdr hdr;
	char body[512];
} lbuf __attribute__((aligned(8)));

#define PD_RESP	sizeof(struct ib_uverbs_alloc_pd_resp)

/*
 * ALLOC_PD in 4-byte words: the request (its response address: out[]),
 * @drv_len bytes of driver request after it, @out_words of response
 * room in all; the handle or -errno.
 */
static int legacy_alloc_pd(int fd, size_t drv_len, unsigned int out_words)
{
	struct ib_uverbs_alloc_pd req = { .response = (uintptr_t)out };
	ssize_t n;

	memset(&lbuf, 0, sizeof(lbuf));
	memset(out, FILL, sizeof(out));
	lbuf.hdr.command = IB_USER_VERBS_CMD_ALLOC_PD;
	lbuf.hdr.in_words = (sizeof(lbuf.hdr) + sizeof(req) + drv_len) / 4;
	lbuf.hdr.out_words = out_words;
	memcpy(lbuf.body, &req, sizeof(req));
	memcpy(lbuf.body + sizeof(req), &drv, drv_len);
	n = write(fd, &lbuf, sizeof(lbuf.hdr) + sizeof(req) + drv_len);
	if (n < 0)
		return -errno;
	return (int)((struct ib_uverbs_alloc_pd_resp *)out)->pd_handle;
}

/*
 * The exact lengths of the words: driver requests of 0, 4, 12 and 16
 * bytes, driver room of 24 to 44 bytes right after the 4-byte core
 * response (so not 8-byte aligned); what the driver reads of the tag is
 * what inlen covers.
 */
static const size_t pd_cases[][2] = { { 0, 24 }, { 4, 40 }, { 12, 44 },
				      { 16, 28 } };

TEST_F(udata_ex, alloc_pd_legacy_lengths)
{
	struct ovbtest_udata_ex_resp *r = drv_out(PD_RESP);
	size_t in, room, cut;
	unsigned int i;
	__u64 tag;
	int pd;

	for (i = 0; i < sizeof(pd_cases) / sizeof(pd_cases[0]); i++) {
		in = pd_cases[i][0];
		room = pd_cases[i][1];
		drv_set(TAG);
		pd = legacy_alloc_pd(self->fd, in, (PD_RESP + room) / 4);
		ASSERT_LE(0, pd);
		EXPECT_EQ(in ? (uintptr_t)(lbuf.body + 8) : 0, r->inbuf);
		EXPECT_EQ((uintptr_t)r, r->outbuf);
		EXPECT_EQ(in, r->inlen);
		EXPECT_EQ(room, r->outlen);
		cut = room < RESP_LEN ? room : RESP_LEN;
		tag = 0;
		memcpy(&tag, &drv.cmd.tag, in < 8 ? in : 8);
		if (cut >= offsetof(struct ovbtest_udata_ex_resp, tag) + 8)
			EXPECT_EQ(tag, r->tag);
		EXPECT_TRUE(untouched((char *)r + cut, 16));
		EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd));
	}
}

/* No room for the driver: outbuf NULL, nothing past the core response. */
TEST_F(udata_ex, alloc_pd_legacy_no_room)
{
	int pd;

	drv_set(TAG);
	pd = legacy_alloc_pd(self->fd, 8, PD_RESP / 4);
	ASSERT_LE(0, pd);
	EXPECT_TRUE(untouched(out + PD_RESP, sizeof(out) - PD_RESP));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd));
	/* less room than the core response: ENOSPC before anything runs */
	EXPECT_EQ(-ENOSPC, legacy_alloc_pd(self->fd, 8, 0));
	EXPECT_TRUE(untouched(out, sizeof(out)));
}

/* A nonzero byte past the driver's request: the driver's EINVAL. */
TEST_F(udata_ex, alloc_pd_legacy_dirty_tail)
{
	drv_set(TAG);
	drv.extra[3] = 9;
	EXPECT_EQ(-EINVAL, legacy_alloc_pd(self->fd, sizeof(drv.cmd) + 4,
					   (PD_RESP + RESP_LEN) / 4));
	EXPECT_TRUE(untouched(out + PD_RESP, sizeof(out) - PD_RESP));
}

/* ------------------------------------- CREATE_CQ: old and new libraries */

#define CQ_CQE		16
#define CQ_NEW		sizeof(struct ovbtest_create_cq_resp_v2)
#define CQ_OLD		offsetof(struct ovbtest_create_cq_resp_v2, abi_flags)
#define CQ_REQ		sizeof(struct ovbtest_create_cq_req)

/* The driver request of a CQ creation, and 8 bytes past it. */
static struct {
	struct ovbtest_create_cq_req req;
	__u32 extra[2];
} cq_drv __attribute__((aligned(8)));

/* A request of @cqe_size, a nonzero word past it (read by no one). */
static void cq_drv_set(__u32 cqe_size)
{
	memset(&cq_drv, 0, sizeof(cq_drv));
	cq_drv.req.cqe_size = cqe_size;
	cq_drv.extra[0] = 0xdeadbeef;
	cq_drv.extra[1] = 1;
}

/*
 * The driver's room at @r after a CQ creation with @room bytes of it: the
 * response of the generation (@new_lib: whole, @cqe_size and
 * OVBTEST_CQ_ABI_NEW; else less abi_flags, legacy CQEs) cut to @room,
 * and the 32 bytes after that untouched.
 */
static void cq_check(struct __test_metadata *_metadata, const char *what,
		     int idx, const void *r, size_t room, int new_lib,
		     __u32 cqe_size)
{
	struct ovbtest_create_cq_resp_v2 want = {
		.base.cqe = CQ_CQE,
		.cqe_size = new_lib ? cqe_size : OVBTEST_CQE_SIZE_LEGACY,
		.abi_flags = new_lib ? OVBTEST_CQ_ABI_NEW : 0,
	};
	size_t len = new_lib ? CQ_NEW : CQ_OLD;

	if (len > room)
		len = room;
	EXPECT_EQ(0, memcmp(r, &want, len))
		TH_LOG("%s case %d: room %zu, %s library", what, idx, room,
		       new_lib ? "new" : "old");
	EXPECT_TRUE(untouched((const char *)r + len, 32))
		TH_LOG("%s case %d: room %zu: written past %zu", what, idx,
		       room, len);
}

/* @idx: the case, -1 outside a table */
#define CQ_CHECK(idx, r, room, new_lib, cqe_size)			\
	cq_check(_metadata, __func__, idx, r, room, new_lib, cqe_size)

#define CQ_RESP	sizeof(struct ib_uverbs_create_cq_resp)
#define EXCQ_RESP sizeof(struct ib_uverbs_ex_create_cq_resp)

/*
 * Legacy CREATE_CQ in 4-byte words (response address in the command):
 * @drv_len bytes of cq_drv after the core request, @room bytes of driver
 * room after the 8-byte core response.  The handle or -errno.
 */
static int legacy_create_cq(int fd, size_t drv_len, size_t room)
{
	struct ib_uverbs_create_cq req = {
		.response = (uintptr_t)out,
		.user_handle = 7,
		.cqe = CQ_CQE,
		.comp_channel = -1,
	};
	ssize_t n;

	memset(&lbuf, 0, sizeof(lbuf));
	memset(out, FILL, sizeof(out));
	lbuf.hdr.command = IB_USER_VERBS_CMD_CREATE_CQ;
	lbuf.hdr.in_words = (sizeof(lbuf.hdr) + sizeof(req) + drv_len) / 4;
	lbuf.hdr.out_words = (CQ_RESP + room) / 4;
	memcpy(lbuf.body, &req, sizeof(req));
	memcpy(lbuf.body + sizeof(req), &cq_drv, drv_len);
	n = write(fd, &lbuf, sizeof(lbuf.hdr) + sizeof(req) + drv_len);
	if (n < 0)
		return -errno;
	return (int)((struct ib_uverbs_create_cq_resp *)out)->cq_handle;
}

/*
 * Legacy write(): no request or a 4-byte word is an old library (the
 * word is not read: 64 in it changes nothing), 8 bytes or more the new
 * one; each response as long as its generation's, cut to the room.
 */
TEST_F(udata_ex, cq_abi_legacy_write)
{
	static const struct {
		size_t in, room;
		int new_lib;
		__u32 cqe_size, want_size;
	} cases[] = {
		{ 0, 16, 0, 0, 0 },	/* an old library's room */
		{ 0, 24, 0, 0, 0 },	/* room for more: still 20 */
		{ 0, 40, 0, 0, 0 },
		{ 4, 24, 0, 64, 0 },	/* between: old, not read */
		{ 4, 12, 0, 0, 0 },	/* cut */
		{ 8, 24, 1, 0, 64 },	/* new: default 64 */
		{ 8, 40, 1, 32, 32 },	/* new: asks for 32 */
		{ 12, 24, 1, 64, 64 },	/* a word past it: not read */
		{ 16, 20, 1, 0, 64 },	/* cut before abi_flags */
		{ 8, 4, 1, 0, 64 },
		{ 8, 0, 1, 0, 64 },	/* no room: nothing written */
	};
	unsigned int i;
	int cq;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cq_drv_set(cases[i].cqe_size);
		cq = legacy_create_cq(self->fd, cases[i].in, cases[i].room);
		ASSERT_LE(0, cq) TH_LOG("case %u", i);
		EXPECT_EQ(CQ_CQE, ((struct ib_uverbs_create_cq_resp *)out)->cqe);
		CQ_CHECK(i, out + CQ_RESP, cases[i].room, cases[i].new_lib,
			 cases[i].want_size);
		EXPECT_EQ(0, raw_destroy_cq(self->fd, cq, NULL));
	}
}

/* A new library's request is checked: bad cqe_size or reserved. */
TEST_F(udata_ex, cq_abi_new_request_checked)
{
	cq_drv_set(48);
	EXPECT_EQ(-EINVAL, legacy_create_cq(self->fd, CQ_REQ, CQ_NEW));
	EXPECT_TRUE(untouched(out, sizeof(out)));
	/* the same bytes cut to 4: an old library's, never read */
	ASSERT_LE(0, legacy_create_cq(self->fd, 4, CQ_NEW));
	CQ_CHECK(-1, out + CQ_RESP, CQ_NEW, 0, 0);

	cq_drv_set(32);
	cq_drv.req.reserved = 1;
	EXPECT_EQ(-EINVAL, legacy_create_cq(self->fd, CQ_REQ, CQ_NEW));
	EXPECT_TRUE(untouched(out, sizeof(out)));
	ASSERT_LE(0, legacy_create_cq(self->fd, 4, CQ_NEW));
	CQ_CHECK(-1, out + CQ_RESP, CQ_NEW, 0, 0);
}

/* EX_CREATE_CQ in 8-byte words: 0 is old, 8 and 16 are new. */
TEST_F(udata_ex, cq_abi_ex_write)
{
	struct ib_uverbs_ex_create_cq req = {
		.user_handle = 7,
		.cqe = CQ_CQE,
		.comp_channel = -1,
	};
	struct ib_uverbs_ex_create_cq_resp *core = (void *)out;

	cq_drv_set(0);
	ASSERT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_CREATE_CQ, &req,
			      sizeof(req), &cq_drv, 0, EXCQ_RESP, 32));
	CQ_CHECK(-1, out + EXCQ_RESP, 32, 0, 0);
	EXPECT_EQ(CQ_CQE, core->base.cqe);
	EXPECT_EQ(EXCQ_RESP, core->response_length);

	cq_drv_set(32);
	ASSERT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_CREATE_CQ, &req,
			      sizeof(req), &cq_drv, 8, EXCQ_RESP, 32));
	CQ_CHECK(-1, out + EXCQ_RESP, 32, 1, 32);

	cq_drv_set(0);
	ASSERT_EQ(0, ex_write(self->fd, IB_USER_VERBS_EX_CMD_CREATE_CQ, &req,
			      sizeof(req), &cq_drv, 16, EXCQ_RESP, 16));
	CQ_CHECK(-1, out + EXCQ_RESP, 16, 1, 64);
	EXPECT_EQ(EXCQ_RESP, core->response_length);
}

/*
 * INVOKE_WRITE of CREATE_CQ and EX_CREATE_CQ: UHW_IN inline (4 or 8
 * bytes) or by address, UHW_OUT of any length (not only words).
 */
TEST_F(udata_ex, cq_abi_invoke_write)
{
	struct ib_uverbs_create_cq req = {
		.user_handle = 7,
		.cqe = CQ_CQE,
		.comp_channel = -1,
	};
	struct ib_uverbs_ex_create_cq exreq = {
		.user_handle = 7,
		.cqe = CQ_CQE,
		.comp_channel = -1,
	};
	static const struct {
		size_t in, room;
		int new_lib;
		__u32 cqe_size, want_size;
	} cases[] = {
		{ 0, 40, 0, 0, 0 },
		{ 4, 22, 0, 64, 0 },
		{ 4, 17, 0, 0, 0 },
		{ 8, 22, 1, 32, 32 },
		{ 8, 40, 1, 0, 64 },
		{ 12, 40, 1, 64, 64 },
		{ 16, 23, 1, 0, 64 },
	};
	const void *in;
	unsigned int i;
	struct ioc c;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		in = NULL;
		if (cases[i].in)
			in = &cq_drv;
		cq_drv_set(cases[i].cqe_size);
		ASSERT_EQ(0, wr_ioctl(self->fd, &c,
				      IB_USER_VERBS_CMD_CREATE_CQ, &req,
				      sizeof(req), CQ_RESP, in,
				      cases[i].in, out + CQ_RESP,
				      cases[i].room)) TH_LOG("case %u", i);
		CQ_CHECK(i, out + CQ_RESP, cases[i].room, cases[i].new_lib,
			 cases[i].want_size);

		ASSERT_EQ(0, ex_ioctl(self->fd, &c,
				      IB_USER_VERBS_EX_CMD_CREATE_CQ, &exreq,
				      sizeof(exreq), EXCQ_RESP, in,
				      cases[i].in, out + EXCQ_RESP,
				      cases[i].room)) TH_LOG("case %u", i);
		CQ_CHECK(i, out + EXCQ_RESP, cases[i].room, cases[i].new_lib,
			 cases[i].want_size);
	}
	/* a bad new request: EINVAL, UHW_OUT neither written nor marked */
	cq_drv_set(16);
	EXPECT_EQ(-EINVAL, wr_ioctl(self->fd, &c, IB_USER_VERBS_CMD_CREATE_CQ,
				    &req, sizeof(req), CQ_RESP, &cq_drv, 8,
				    out + CQ_RESP, CQ_NEW));
	EXPECT_FALSE(ioc_find(&c, UVERBS_ATTR_UHW_OUT)->flags &
		     UVERBS_ATTR_F_VALID_OUTPUT);
	EXPECT_TRUE(untouched(out, sizeof(out)));
}

/*
 * CQ_CREATE, the CQ object's own method, with UHW_IN and UHW_OUT: @in
 * bytes of cq_drv (inline up to 8), @room bytes of room at out[] (no
 * UHW_OUT when 0).  0 or -errno.
 */
static int cq_method(int fd, struct ioc *c, size_t in, size_t room)
{
	__u32 cqe = CQ_CQE;
	static __u32 resp_cqe;

	memset(out, FILL, sizeof(out));
	ovbtest_ioc_init(c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	ioc_obj(c, UVERBS_ATTR_CREATE_CQ_HANDLE, 0);
	ioc_in(c, UVERBS_ATTR_CREATE_CQ_CQE, &cqe, sizeof(cqe));
	ioc_const(c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 7);
	ioc_const(c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0)->len = 4;
	ioc_out(c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &resp_cqe,
		sizeof(resp_cqe));
	if (in)
		ioc_in(c, UVERBS_ATTR_UHW_IN, &cq_drv, in);
	if (room)
		ioc_out(c, UVERBS_ATTR_UHW_OUT, out, room);
	return ioc_call(fd, c);
}

TEST_F(udata_ex, cq_abi_ioctl_method)
{
	static const struct {
		size_t in, room;
		int new_lib;
		__u32 cqe_size, want_size;
	} cases[] = {
		{ 0, 16, 0, 0, 0 },	/* today's provider */
		{ 0, 64, 0, 0, 0 },
		{ 2, 24, 0, 64, 0 },	/* any short request is old */
		{ 4, 64, 0, 32, 0 },
		{ 7, 19, 0, 0, 0 },
		{ 8, 64, 1, 0, 64 },	/* inline, new */
		{ 8, 21, 1, 32, 32 },
		{ 9, 64, 1, 32, 32 },	/* by address */
		{ 16, 24, 1, 64, 64 },
		{ 16, 3, 1, 0, 64 },
	};
	unsigned int i;
	struct ioc c;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cq_drv_set(cases[i].cqe_size);
		ASSERT_EQ(0, cq_method(self->fd, &c, cases[i].in,
				       cases[i].room)) TH_LOG("case %u", i);
		EXPECT_TRUE(ioc_find(&c, UVERBS_ATTR_UHW_OUT)->flags &
			    UVERBS_ATTR_F_VALID_OUTPUT);
		CQ_CHECK(i, out, cases[i].room, cases[i].new_lib,
			 cases[i].want_size);
	}
	/* no room at all: the CQ still comes, nothing is written */
	cq_drv_set(0);
	ASSERT_EQ(0, cq_method(self->fd, &c, CQ_REQ, 0));
	EXPECT_TRUE(untouched(out, sizeof(out)));
	/* a bad new request fails, the same bytes cut to 4 do not */
	cq_drv_set(100);
	EXPECT_EQ(-EINVAL, cq_method(self->fd, &c, CQ_REQ, CQ_NEW));
	EXPECT_TRUE(untouched(out, sizeof(out)));
	ASSERT_EQ(0, cq_method(self->fd, &c, 4, CQ_NEW));
	CQ_CHECK(-1, out, CQ_NEW, 0, 0);
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
