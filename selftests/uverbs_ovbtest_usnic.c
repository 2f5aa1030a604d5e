// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A USNIC port (usnic_verbs' kind) on the test HCA: ovbtest.ko loaded with
 * usnic=1 has node type RDMA_NODE_USNIC_UDP and makes its first port a
 * USNIC one (selftests/ovbtest/usnic.c): capability RDMA_CORE_PORT_USNIC
 * alone, Ethernet link layer, no LIDs, LMC 1, one GID from query_gid.
 * Each case runs again with usnic=0 (the plain InfiniBand port) for the
 * contrast.  Raw calls on whichever ib_uverbs is loaded:
 *  - the node type is ib_core's (sysfs); QUERY_DEVICE has no field for it;
 *  - QUERY_PORT (write() and ioctl): link_layer Ethernet, LID 0, LMC 1,
 *    no GRH-required flag, the same bytes both ways;
 *  - QUERY_GID_TABLE and QUERY_GID_ENTRY: the GID ib_core cached from
 *    query_gid, of type IB, no netdev (not a RoCE port);
 *  - CREATE_AH and MODIFY_QP: an untyped AV without DLID, the GRH with its
 *    source GID; QUERY_QP gives DLID 0;
 *  - ATTACH_MCAST: MLID 0 passes on the Ethernet link layer;
 *  - CREATE_FLOW on a UD QP of the port reaches the driver with the port.
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
#define AH_TYPE_UNDEFINED 0
#define AH_TYPE_IB	1
#define LL_IB		1
#define LL_ETH		2
#define GRH_REQUIRED	IB_UVERBS_QPF_GRH_REQUIRED

/* A UD QP to INIT on the first port. */
static int ud_init(int fd, __u32 qp)
{
	struct ib_uverbs_modify_qp init = {
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_PKEY_INDEX | QP_PORT | QP_QKEY,
		.qp_state = QPS_INIT,
		.port_num = P_IB,
		.qkey = 0x11111111,
	};

	return raw_modify_qp(fd, &init);
}

FIXTURE(usnic) {
	int fd;
	struct ovbtest_alloc_ucontext_resp uctx;
	int pd, cq;
	__u8 gid0[16];		/* fe80::node GUID, the first port's GID */
};

FIXTURE_VARIANT(usnic) {
	int usnic;
};

FIXTURE_VARIANT_ADD(usnic, usnic_port) {
	.usnic = 1,
};

FIXTURE_VARIANT_ADD(usnic, ib_port) {
	.usnic = 0,
};

FIXTURE_SETUP(usnic)
{
	port_fixture_setup(_metadata, variant->usnic ? "usnic=1" : "usnic=0",
			   &self->fd, &self->uctx, &self->pd, &self->cq,
			   self->gid0);
}

FIXTURE_TEARDOWN(usnic)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(usnic, node_type)
{
	char path[128], buf[64] = "";
	struct ib_uverbs_query_device_resp dev;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/node_type",
		 HCA_IBDEV);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
	fclose(f);
	/* ib_core's names of RDMA_NODE_USNIC_UDP (6) and RDMA_NODE_IB_CA */
	EXPECT_EQ(variant->usnic ? '6' : '1', buf[0]) {
		TH_LOG("node_type: %s", buf);
	}
	ASSERT_EQ(0, raw_query_device(self->fd, &dev));
	EXPECT_EQ(2, dev.phys_port_cnt);
}

TEST_F(usnic, query_port)
{
	struct ib_uverbs_query_port_resp_ex rx;
	struct ib_uverbs_query_port_resp r;

	memset(&r, 0xa5, sizeof(r));
	memset(&rx, 0xa5, sizeof(rx));
	ASSERT_EQ(0, query_port_write(self->fd, P_IB, &r));
	ASSERT_EQ(0, query_port_ioctl(self->fd, P_IB, &rx));
	EXPECT_EQ(variant->usnic ? LL_ETH : LL_IB, r.link_layer);
	EXPECT_EQ(variant->usnic ? 0 : 1, r.lid);
	EXPECT_EQ(variant->usnic ? 0 : 1, r.sm_lid);
	EXPECT_EQ(variant->usnic ? 1 : 0, r.lmc);
	EXPECT_EQ(0, r.flags & GRH_REQUIRED);
	EXPECT_EQ(1, r.gid_tbl_len);
	EXPECT_EQ(1, r.pkey_tbl_len);
	EXPECT_EQ(0, memcmp(&r, &rx.legacy_resp, sizeof(r)));
	EXPECT_EQ(0, rx.port_cap_flags2);
}

TEST_F(usnic, gid_table_and_entry)
{
	struct ib_uverbs_gid_entry e[32], one;
	int n, i, found = 0;

	n = gid_table(self->fd, e, 32);
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
	EXPECT_EQ(-EINVAL, gid_entry(self->fd, P_IB, 1, &one));
}

TEST_F(usnic, create_ah)
{
	__u8 dgid[16] = { 0xfe, 0x80, [15] = 0x42 };
	struct ovbtest_av_info av;
	int ah, i;

	for (i = 0; i < 2; i++) {
		ah = create_ah(self->fd, self->pd, ah_attr(0x10, NULL), i, &av);
		if (variant->usnic) {
			EXPECT_EQ(-EINVAL, ah);
		} else {
			ASSERT_LE(0, ah);
			EXPECT_EQ(AH_TYPE_IB, av.type);
			EXPECT_EQ(0, destroy_ah(self->fd, ah));
		}
		ah = create_ah(self->fd, self->pd, ah_attr(0x10, dgid), i, &av);
		ASSERT_LE(0, ah);
		EXPECT_EQ(variant->usnic ? AH_TYPE_UNDEFINED : AH_TYPE_IB,
			  av.type);
		EXPECT_EQ(variant->usnic ? 0 : 0x10, av.dlid);
		EXPECT_EQ(1, av.ah_flags);
		EXPECT_EQ(P_IB, av.port_num);
		EXPECT_EQ(0, memcmp(dgid, av.dgid, 16));
		EXPECT_EQ(IB_UVERBS_GID_TYPE_IB, av.gid_type);
		EXPECT_EQ(0, av.ndev_ifindex);
		EXPECT_EQ(0, destroy_ah(self->fd, ah));
	}
}

TEST_F(usnic, modify_qp_av)
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
	EXPECT_EQ(variant->usnic ? AH_TYPE_UNDEFINED : AH_TYPE_IB, av.type);
	EXPECT_EQ(variant->usnic ? 0 : 0x1234, av.dlid);
	ASSERT_EQ(0, query_qp_dest(self->fd, qp, &d));
	EXPECT_EQ(variant->usnic ? 0 : 0x1234, d.dlid);
	EXPECT_EQ(1, d.is_global);
	EXPECT_EQ(0, memcmp(dgid, d.dgid, 16));
	EXPECT_EQ(P_IB, d.port_num);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
}

TEST_F(usnic, mcast_and_flow)
{
	struct ovbtest_flow_info info;
	struct ioc c;
	int qp, f;

	qp = raw_create_qp(self->fd, QPT_UD, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, ud_init(self->fd, qp));
	if (variant->usnic) {
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

	f = create_flow(self->fd, qp, P_IB);
	ASSERT_LE(0, f);
	memset(&info, 0xff, sizeof(info));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE,
			 OVBTEST_METHOD_DEVICE_LAST_FLOW);
	ioc_out(&c, OVBTEST_ATTR_DEVICE_LAST_FLOW_INFO, &info, sizeof(info));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(P_IB, info.port);
	EXPECT_EQ(0, destroy_flow(self->fd, f));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
}

/*
 * opa=1 and bare=1 change the InfiniBand port, which usnic=1 replaces: the
 * module refuses them together rather than load a USNIC port that a run
 * asking for an OPA or capability-less one would then test.
 */
TEST(usnic_excludes_opa_and_bare)
{
	static const char *const refused[] = {
		"usnic=1 opa=1", "usnic=1 bare=1", "opa=1 usnic=1",
	};
	size_t i;
	int ret;

	if (ovbtest_loaded())
		ASSERT_EQ(0, ovbtest_unload());
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		ret = ovbtest_load_module_with(HCA_MODULE, refused[i]);
		if (ret == -ENOENT)
			SKIP(return, "ovbtest.ko not built");
		if (ret == -ENOEXEC)
			SKIP(return, "ovbtest.ko was built for another kernel");
		EXPECT_EQ(-EINVAL, ret) {
			TH_LOG("loaded with %s", refused[i]);
		}
		if (!ret)
			ASSERT_EQ(0, ovbtest_unload());
		EXPECT_FALSE(ovbtest_loaded());
	}
	/* each alone, and usnic=0 with either, still load */
	ASSERT_EQ(0, ovbtest_load_module_with(HCA_MODULE, "usnic=0 opa=1"));
	ASSERT_EQ(0, ovbtest_unload());
	ASSERT_EQ(0, ovbtest_load_module_with(HCA_MODULE, "usnic=1"));
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
