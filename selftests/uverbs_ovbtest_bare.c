// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A port with no core capability flags and an unspecified link layer
 * (efa's kind) on the test HCA: ovbtest.ko loaded with bare=1 makes its
 * InfiniBand port so (selftests/ovbtest/port.c), and each case runs again
 * on the plain IB port (bare=0) for the contrast.  Raw calls on whichever
 * ib_uverbs is loaded:
 *  - QUERY_PORT (write() and ioctl): link_layer 0 (unspecified), no
 *    GRH-required flag, the driver's LIDs;
 *  - QUERY_GID_TABLE and QUERY_GID_ENTRY: the one GID ib_core cached from
 *    query_gid, of type IB, no netdev;
 *  - CREATE_AH (write(), INVOKE_WRITE) and MODIFY_QP: the driver gets an
 *    address vector of no type (RDMA_AH_ATTR_TYPE_UNDEFINED) and so no
 *    DLID, the GRH with its source GID; QUERY_QP gives DLID 0 back;
 *  - ATTACH_MCAST: ib_core checks MLIDs on InfiniBand link layers only.
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
/* enum rdma_ah_attr_type, enum rdma_link_layer */
#define AH_TYPE_UNDEFINED 0
#define AH_TYPE_IB	1
#define LL_UNSPECIFIED	0
#define LL_IB		1
#define LL_ETH		2
#define GRH_REQUIRED	IB_UVERBS_QPF_GRH_REQUIRED

/* ------------------------------------------------------------- fixture */

FIXTURE(bare) {
	int fd;
	struct ovbtest_alloc_ucontext_resp uctx;
	int pd, cq;
	__u8 gid0[16];		/* fe80::node GUID, the IB port's GID */
};

FIXTURE_VARIANT(bare) {
	int bare;
};

FIXTURE_VARIANT_ADD(bare, bare_port) {
	.bare = 1,
};

FIXTURE_VARIANT_ADD(bare, ib_port) {
	.bare = 0,
};

FIXTURE_SETUP(bare)
{
	port_fixture_setup(_metadata, variant->bare ? "bare=1" : "bare=0",
			   &self->fd, &self->uctx, &self->pd, &self->cq,
			   self->gid0);
}

FIXTURE_TEARDOWN(bare)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(bare, query_port)
{
	struct ib_uverbs_query_port_resp_ex rx;
	struct ib_uverbs_query_port_resp r;

	memset(&r, 0xa5, sizeof(r));
	memset(&rx, 0xa5, sizeof(rx));
	ASSERT_EQ(0, query_port_write(self->fd, P_IB, &r));
	ASSERT_EQ(0, query_port_ioctl(self->fd, P_IB, &rx));
	EXPECT_EQ(variant->bare ? LL_UNSPECIFIED : LL_IB, r.link_layer);
	EXPECT_EQ(r.link_layer, rx.legacy_resp.link_layer);
	EXPECT_EQ(0, r.flags & GRH_REQUIRED);
	EXPECT_EQ(r.flags, rx.legacy_resp.flags);
	EXPECT_EQ(1, r.lid);
	EXPECT_EQ(1, rx.legacy_resp.lid);
	EXPECT_EQ(1, r.gid_tbl_len);
	EXPECT_EQ(0, memcmp(&r, &rx.legacy_resp, sizeof(r)));
	EXPECT_EQ(0, rx.port_cap_flags2);
	/* the other port is RoCE either way */
	ASSERT_EQ(0, query_port_write(self->fd, P_ROCE, &r));
	EXPECT_EQ(LL_ETH, r.link_layer);
}

TEST_F(bare, gid_table_and_entry)
{
	struct ib_uverbs_gid_entry e[16], one;
	int n, i, found = 0;

	n = gid_table(self->fd, e, 16);
	ASSERT_LE(1, n);
	for (i = 0; i < n; i++) {
		if (e[i].port_num != P_IB)
			continue;
		found++;
		EXPECT_EQ(0, e[i].gid_index);
		EXPECT_EQ(0, memcmp(self->gid0, e[i].gid, 16));
		EXPECT_EQ(IB_UVERBS_GID_TYPE_IB, e[i].gid_type);
		EXPECT_EQ(0, e[i].netdev_ifindex);
	}
	EXPECT_EQ(1, found);
	ASSERT_EQ(0, gid_entry(self->fd, P_IB, 0, &one));
	EXPECT_EQ(0, memcmp(self->gid0, one.gid, 16));
	EXPECT_EQ(IB_UVERBS_GID_TYPE_IB, one.gid_type);
	EXPECT_EQ(P_IB, one.port_num);
	EXPECT_EQ(0, one.netdev_ifindex);
	EXPECT_NE(0, gid_entry(self->fd, P_IB, 1, &one));
}

TEST_F(bare, create_ah)
{
	struct ovbtest_av_info av;
	__u8 dgid[16] = { 0xfe, 0x80, [15] = 0x42 };
	int ah, i;

	for (i = 0; i < 2; i++) {
		/* a LID route: no DLID reaches the driver of a bare port */
		ah = create_ah(self->fd, self->pd, ah_attr(0x10, NULL), i, &av);
		if (variant->bare) {
			EXPECT_EQ(-EINVAL, ah);
		} else {
			ASSERT_LE(0, ah);
			EXPECT_EQ(AH_TYPE_IB, av.type);
			EXPECT_EQ(0x10, av.dlid);
			EXPECT_EQ(0, destroy_ah(self->fd, ah));
		}
		/* with a GRH: the type the port has, its GID entry's type */
		ah = create_ah(self->fd, self->pd, ah_attr(0x10, dgid), i, &av);
		ASSERT_LE(0, ah);
		EXPECT_EQ(variant->bare ? AH_TYPE_UNDEFINED : AH_TYPE_IB,
			  av.type);
		EXPECT_EQ(variant->bare ? 0 : 0x10, av.dlid);
		EXPECT_EQ(1, av.ah_flags);
		EXPECT_EQ(5, av.sl);
		EXPECT_EQ(P_IB, av.port_num);
		EXPECT_EQ(0, memcmp(dgid, av.dgid, 16));
		EXPECT_EQ(0, av.sgid_index);
		EXPECT_EQ(IB_UVERBS_GID_TYPE_IB, av.gid_type);
		EXPECT_EQ(0, av.ndev_ifindex);
		EXPECT_EQ(0, destroy_ah(self->fd, ah));
	}
}

TEST_F(bare, query_qp_dlid)
{
	__u8 dgid[16] = { 0xfe, 0x80, [15] = 0x43 };
	struct ib_uverbs_qp_dest d;
	struct ovbtest_av_info av;
	int qp;

	qp = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, rc_to_rtr(self->fd, qp, ah_attr(0x1234, dgid)));
	ASSERT_EQ(0, last_av(self->fd, &av));
	EXPECT_EQ(OVBTEST_AV_MODIFY_QP, av.source);
	EXPECT_EQ(variant->bare ? AH_TYPE_UNDEFINED : AH_TYPE_IB, av.type);
	EXPECT_EQ(variant->bare ? 0 : 0x1234, av.dlid);
	ASSERT_EQ(0, query_qp_dest(self->fd, qp, &d));
	EXPECT_EQ(variant->bare ? 0 : 0x1234, d.dlid);
	EXPECT_EQ(5, d.sl);
	EXPECT_EQ(1, d.is_global);
	EXPECT_EQ(0, memcmp(dgid, d.dgid, 16));
	EXPECT_EQ(P_IB, d.port_num);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
}

/* MLID 0 with a multicast GID: only an InfiniBand link layer checks it. */
TEST_F(bare, mcast_lid_check)
{
	struct ib_uverbs_modify_qp init = {
		.attr_mask = QP_STATE | QP_PKEY_INDEX | QP_PORT | QP_QKEY,
		.qp_state = QPS_INIT,
		.port_num = P_IB,
		.qkey = 0x11111111,
	};
	int qp;

	qp = raw_create_qp(self->fd, QPT_UD, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, qp);
	init.qp_handle = qp;
	ASSERT_EQ(0, raw_modify_qp(self->fd, &init));
	if (variant->bare) {
		EXPECT_EQ(0, mcast(self->fd, IB_USER_VERBS_CMD_ATTACH_MCAST,
				   qp, MGID, 0));
		EXPECT_EQ(1, ovbtest_info(self->fd).mcast_attached);
		EXPECT_EQ(0, mcast(self->fd, IB_USER_VERBS_CMD_DETACH_MCAST,
				   qp, MGID, 0));
	} else {
		EXPECT_EQ(-EINVAL, mcast(self->fd,
					 IB_USER_VERBS_CMD_ATTACH_MCAST,
					 qp, MGID, 0));
	}
	EXPECT_EQ(0, ovbtest_info(self->fd).mcast_attached);
	EXPECT_EQ(0, mcast(self->fd, IB_USER_VERBS_CMD_ATTACH_MCAST, qp, MGID,
			   0xc001));
	EXPECT_EQ(0, mcast(self->fd, IB_USER_VERBS_CMD_DETACH_MCAST, qp, MGID,
			   0xc001));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
