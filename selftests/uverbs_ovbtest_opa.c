// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An OPA port (hfi1's kind) on the test HCA: ovbtest.ko loaded with opa=1
 * gives its InfiniBand port RDMA_CORE_CAP_OPA_AH and 32-bit LIDs
 * (selftests/ovbtest/opa.c), and each case runs again on the plain IB
 * port (opa=0) for the contrast.  What ib_uverbs does with LIDs wider
 * than its 16-bit ABI, raw calls on whichever ib_uverbs is loaded:
 *  - QUERY_PORT (write() and ioctl): the LID and SM LID of an OPA port
 *    become 0 from 0xc000 up (OPA_TO_IB_UCAST_LID), an IB port's pass;
 *  - POLL_CQ (write() and INVOKE_WRITE): a completion's source LID is
 *    folded the same way when the completion's port is OPA;
 *    dlid_path_bits, SL, port and QP numbers pass unchanged;
 *  - QUERY_QP: the driver's 32-bit DLID (hfi1 takes it from an OPA GID)
 *    is cut to its low 16 bits, not folded;
 *  - CREATE_AH and MODIFY_QP: the driver gets an OPA address vector on
 *    the OPA port, an IB one on the IB port, the user's 16-bit DLID as
 *    given (no multicast translation by ib_uverbs).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"
#include "qp_abi.h"
#include "ovbtest_ib_port.h"

#define P_IB		OVBTEST_PORT_IB
#define P_ROCE		OVBTEST_PORT_ROCE
/* enum rdma_ah_attr_type */
#define AH_TYPE_IB	1
#define AH_TYPE_OPA	3
/* enum rdma_link_layer */
#define LL_IB		1

/* An extended-LID GID (OPA_MAKE_ID): the OUI 00:06:6a, then the LID. */
static void opa_gid(__u8 gid[16], __u32 lid)
{
	static const __u8 head[12] = { 0xfe, 0x80, [8] = 0x00, 0x06, 0x6a };
	__u32 be = htobe32(lid);

	memcpy(gid, head, sizeof(head));
	memcpy(gid + 12, &be, 4);
}

/* OPA_TO_IB_UCAST_LID as the ABI defines it: no unicast LID from 0xc000. */
static __u16 folded(__u32 lid)
{
	return lid >= 0xc000 ? 0 : (__u16)lid;
}

static int set_param(const char *name, __u32 v)
{
	char path[128], buf[16];
	int fd, n, ok;

	snprintf(path, sizeof(path), OVBTEST_PARAM("%s"), name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%u", v);
	ok = write(fd, buf, n) == n;
	close(fd);
	return ok ? 0 : -EIO;
}

/* --------------------------------------------------------------- POLL_CQ */

static int push_wc(int fd, __u32 cq, __u32 qp, const struct ovbtest_push_wc *w)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_CQ, OVBTEST_METHOD_CQ_PUSH_WC);
	ioc_obj(&c, OVBTEST_ATTR_CQ_PUSH_WC_CQ, cq);
	ioc_obj(&c, OVBTEST_ATTR_CQ_PUSH_WC_QP, qp);
	ioc_in(&c, OVBTEST_ATTR_CQ_PUSH_WC_ARGS, w, sizeof(*w));
	return ioc_call(fd, &c);
}

/* POLL_CQ for up to 2; the count or -errno, the first in *@wc. */
static int poll_cq(int fd, __u32 cq, int by_ioctl, struct ib_uverbs_wc *wc)
{
	struct {
		struct ib_uverbs_poll_cq_resp hdr;
		struct ib_uverbs_wc wc[2];
	} resp;
	struct ib_uverbs_poll_cq req = {
		.response = (uintptr_t)&resp,
		.cq_handle = cq,
		.ne = 2,
	};
	struct ioc c;
	int ret;

	memset(&resp, 0xa5, sizeof(resp));
	if (!by_ioctl) {
		ret = raw_cmd(fd, IB_USER_VERBS_CMD_POLL_CQ, &req, sizeof(req),
			      sizeof(resp));
	} else {
		ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE,
				 UVERBS_METHOD_INVOKE_WRITE);
		ioc_const(&c, UVERBS_ATTR_WRITE_CMD, IB_USER_VERBS_CMD_POLL_CQ);
		ioc_in(&c, UVERBS_ATTR_CORE_IN, &req, sizeof(req));
		ioc_out(&c, UVERBS_ATTR_CORE_OUT, &resp, sizeof(resp));
		ret = ioc_call(fd, &c);
	}
	if (ret < 0)
		return ret;
	*wc = resp.wc[0];
	return resp.hdr.count;
}


/* ------------------------------------------------------------- fixture */

FIXTURE(opa) {
	int fd;
	struct ovbtest_alloc_ucontext_resp uctx;
	int pd, cq, cq2;
};

FIXTURE_VARIANT(opa) {
	int opa;
};

FIXTURE_VARIANT_ADD(opa, opa_port) {
	.opa = 1,
};

FIXTURE_VARIANT_ADD(opa, ib_port) {
	.opa = 0,
};

FIXTURE_SETUP(opa)
{
	if (!port_fixture_setup(_metadata, variant->opa ? "opa=1" : "opa=0",
				&self->fd, &self->uctx, &self->pd, &self->cq,
				NULL))
		return;
	HCA_SETUP_CQ(self->fd, self->cq2);
}

FIXTURE_TEARDOWN(opa)
{
	if (self->fd >= 0)
		close(self->fd);
	set_param("ib_lid", 1);
	set_param("ib_sm_lid", 1);
}

/* What the stack makes of @lid on this variant's port 1. */
#define EXPECT_LID(lid) (variant->opa ? folded(lid) : (__u16)(lid))

/* Values an IB port may have (16 bits), then OPA's only. */
static const __u32 LIDS[] = {
	1, 0x1234, 0xbfff, 0xc000, 0xc001, 0xfffe, 0xffff,
	0x10000, 0x12345, 0xbfff0, 0xffffffff,
};
#define IB_LIDS	7

TEST_F(opa, query_port_lids)
{
	struct ib_uverbs_query_port_resp_ex rx;
	struct ib_uverbs_query_port_resp r;
	/* an IB port's driver reports the low 16 bits of a wider ib_lid */
	size_t n = ARRAY_SIZE(LIDS), i;
	int k = ovbtest_kmsg_mark();

	for (i = 0; i < n; i++) {
		__u32 sm = LIDS[n - 1 - i];

		ASSERT_EQ(0, set_param("ib_lid", LIDS[i]));
		ASSERT_EQ(0, set_param("ib_sm_lid", sm));
		memset(&r, 0xa5, sizeof(r));
		memset(&rx, 0xa5, sizeof(rx));
		ASSERT_EQ(0, query_port_write(self->fd, P_IB, &r));
		ASSERT_EQ(0, query_port_ioctl(self->fd, P_IB, &rx));
		EXPECT_EQ(EXPECT_LID(LIDS[i]), r.lid) TH_LOG("lid %#x", LIDS[i]);
		EXPECT_EQ(EXPECT_LID(sm), r.sm_lid) TH_LOG("sm lid %#x", sm);
		EXPECT_EQ(r.lid, rx.legacy_resp.lid);
		EXPECT_EQ(r.sm_lid, rx.legacy_resp.sm_lid);
		EXPECT_EQ(LL_IB, r.link_layer);
		/* the RoCE port has no LIDs, whatever the IB port has */
		ASSERT_EQ(0, query_port_write(self->fd, P_ROCE, &r));
		EXPECT_EQ(0, r.lid);
		EXPECT_EQ(0, r.sm_lid);
	}
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
}

TEST_F(opa, poll_cq_slid)
{
	struct ovbtest_push_wc w = {
		.wr_id = 0x1122334455667788ULL,
		.src_qp = 0xabcdef,
		.sl = 9,
		.dlid_path_bits = 0x7f,
		.port_num = P_IB,
	};
	size_t n = variant->opa ? ARRAY_SIZE(LIDS) : IB_LIDS, i;
	struct ib_uverbs_wc wc;
	__u32 qpn;
	int qp;

	qp = raw_create_qp(self->fd, QPT_UD, self->pd, self->cq, -1, &qpn);
	ASSERT_LE(0, qp);
	for (i = 0; i < n; i++) {
		w.slid = LIDS[i];
		w.wr_id++;
		ASSERT_EQ(0, push_wc(self->fd, self->cq, qp, &w));
		ASSERT_EQ(1, poll_cq(self->fd, self->cq, i & 1, &wc));
		EXPECT_EQ(EXPECT_LID(LIDS[i]), wc.slid)
			TH_LOG("slid %#x", LIDS[i]);
		EXPECT_EQ(w.wr_id, wc.wr_id);
		EXPECT_EQ(qpn, wc.qp_num);
		EXPECT_EQ(w.src_qp, wc.src_qp);
		EXPECT_EQ(w.sl, wc.sl);
		EXPECT_EQ(w.dlid_path_bits, wc.dlid_path_bits);
		EXPECT_EQ(P_IB, wc.port_num);
		EXPECT_EQ(0, wc.reserved);
		EXPECT_EQ(0, poll_cq(self->fd, self->cq, !(i & 1), &wc));
	}
	/* the same source LID on the RoCE port is never folded */
	w.port_num = P_ROCE;
	w.slid = 0xc001;
	ASSERT_EQ(0, push_wc(self->fd, self->cq, qp, &w));
	ASSERT_EQ(1, poll_cq(self->fd, self->cq, 0, &wc));
	EXPECT_EQ(0xc001, wc.slid);
	EXPECT_EQ(P_ROCE, wc.port_num);

	/* a LID wider than 16 bits only on an OPA port, as hfi1 keeps it */
	w.slid = 0x10000;
	EXPECT_EQ(-EINVAL, push_wc(self->fd, self->cq, qp, &w));
	w.port_num = P_IB;
	EXPECT_EQ(variant->opa ? 0 : -EINVAL, push_wc(self->fd, self->cq, qp, &w));
	if (variant->opa) {
		ASSERT_EQ(1, poll_cq(self->fd, self->cq, 0, &wc));
	}
	w.port_num = P_ROCE;
	w.slid = 0xc001;

	/* the driver's rules: its own CQs, one at a time, gone with the QP */
	EXPECT_EQ(-EINVAL, push_wc(self->fd, self->cq2, qp, &w));
	ASSERT_EQ(0, push_wc(self->fd, self->cq, qp, &w));
	EXPECT_EQ(-EBUSY, push_wc(self->fd, self->cq, qp, &w));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	EXPECT_EQ(0, poll_cq(self->fd, self->cq, 0, &wc));
}

/* MODIFY_QP's AV reaches the driver; QUERY_QP gives back 16 bits of it. */
TEST_F(opa, query_qp_dlid)
{
	struct ib_uverbs_qp_dest d;
	struct ovbtest_av_info av;
	__u8 gid[16];
	int qp;

	/* a LID route: the user's DLID, the port's AV type */
	qp = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, rc_to_rtr(self->fd, qp, ah_attr(0x1234, NULL)));
	ASSERT_EQ(0, last_av(self->fd, &av));
	EXPECT_EQ(variant->opa ? AH_TYPE_OPA : AH_TYPE_IB, av.type);
	EXPECT_EQ(0x1234, av.dlid32);
	ASSERT_EQ(0, query_qp_dest(self->fd, qp, &d));
	EXPECT_EQ(0x1234, d.dlid);
	EXPECT_EQ(5, d.sl);
	EXPECT_EQ(3, d.src_path_bits);
	EXPECT_EQ(P_IB, d.port_num);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));

	/* an extended-LID GID: on OPA the driver's DLID is 0x12345 */
	opa_gid(gid, 0x12345);
	qp = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, rc_to_rtr(self->fd, qp, ah_attr(0xc002, gid)));
	ASSERT_EQ(0, last_av(self->fd, &av));
	EXPECT_EQ(variant->opa ? 0x12345 : 0xc002, av.dlid32);
	EXPECT_EQ(0xc002, av.dlid);
	ASSERT_EQ(0, query_qp_dest(self->fd, qp, &d));
	/* cut, not folded: 0x2345 is no unicast translation of 0x12345 */
	EXPECT_EQ(variant->opa ? 0x2345 : 0xc002, d.dlid);
	EXPECT_EQ(1, d.is_global);
	EXPECT_EQ(0, memcmp(gid, d.dgid, 16));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
}

TEST_F(opa, create_ah)
{
	struct ovbtest_av_info av;
	__u8 gid[16];
	int ah, i;

	opa_gid(gid, 0xf0012345);
	for (i = 0; i < 2; i++) {
		ah = create_ah(self->fd, self->pd, ah_attr(0xc001, NULL), i,
			       &av);
		ASSERT_LE(0, ah);
		EXPECT_EQ(variant->opa ? AH_TYPE_OPA : AH_TYPE_IB, av.type);
		/* a multicast LID stays as given: no OPA translation */
		EXPECT_EQ(0xc001, av.dlid);
		EXPECT_EQ(0xc001, av.dlid32);
		EXPECT_EQ(5, av.sl);
		EXPECT_EQ(P_IB, av.port_num);
		EXPECT_EQ(0, destroy_ah(self->fd, ah));

		ah = create_ah(self->fd, self->pd, ah_attr(0x10, gid), i, &av);
		ASSERT_LE(0, ah);
		EXPECT_EQ(variant->opa ? 0xf0012345 : 0x10, av.dlid32);
		EXPECT_EQ(0x10, av.dlid);
		EXPECT_EQ(1, av.ah_flags);
		EXPECT_EQ(0, memcmp(gid, av.dgid, 16));
		EXPECT_EQ(0, destroy_ah(self->fd, ah));

		/* no GRH and no LID: the driver's (rdmavt's) EINVAL */
		EXPECT_EQ(-EINVAL, create_ah(self->fd, self->pd,
					     ah_attr(0, NULL), i, &av));
	}
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
