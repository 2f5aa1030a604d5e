// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * iWARP's rules as ib_uverbs and an iWARP driver (Soft-iWARP, siw0:
 * qemu/run --hca=siw) answer them: the device describes itself as an RNIC
 * on an Ethernet port with its MAC as GID, only RC QPs exist, there are no
 * address handles, and a QP reaches RTS only through the iWARP connection
 * manager (rdma_cm; rping and perftest -R in rdma_core_siw), never by
 * MODIFY_QP alone.  Every expected errno is the in-tree module's answer on
 * the same kernel.  Skips when no iWARP device is present.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#include "kselftest_harness.h"
#include "uverbs_raw.h"

/* The first iWARP device, opened; NULL when there is none. */
static struct ibv_context *open_iwarp(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (list[i]->transport_type == IBV_TRANSPORT_IWARP)
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

/* The MAC of the netdev under port 1 of @dev (rdma link show), as text. */
static int port_netdev_mac(const char *dev, char *mac, size_t len)
{
	char cmd[160], path[128], netdev[64] = "";
	FILE *f;

	snprintf(cmd, sizeof(cmd),
		 "rdma link show %s/1 | sed -n 's/.* netdev \\([^ ]*\\).*/\\1/p'",
		 dev);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (!fgets(netdev, sizeof(netdev), f))
		netdev[0] = 0;
	pclose(f);
	netdev[strcspn(netdev, "\n")] = 0;
	if (!netdev[0])
		return -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/address", netdev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(mac, len, f))
		mac[0] = 0;
	fclose(f);
	mac[strcspn(mac, "\n")] = 0;
	return mac[0] ? 0 : -1;
}

FIXTURE(iwarp) {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
};

FIXTURE_SETUP(iwarp)
{
	self->ctx = open_iwarp();
	if (!self->ctx)
		SKIP(return, "no iWARP device (run with qemu/run --hca=siw)");
	self->pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, self->pd);
	self->cq = ibv_create_cq(self->ctx, 16, NULL, NULL, 0);
	ASSERT_NE(NULL, self->cq);
}

FIXTURE_TEARDOWN(iwarp)
{
	if (self->cq)
		ibv_destroy_cq(self->cq);
	if (self->pd)
		ibv_dealloc_pd(self->pd);
	if (self->ctx)
		ibv_close_device(self->ctx);
}

static struct ibv_qp *create_qp(FIXTURE_DATA(iwarp) *self,
				enum ibv_qp_type type)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = self->cq,
		.recv_cq = self->cq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = type,
	};

	return ibv_create_qp(self->pd, &attr);
}

/* An RNIC on an Ethernet port, no LID, its GID the netdev's MAC. */
TEST_F(iwarp, device_is_an_rnic_on_ethernet)
{
	struct ibv_port_attr port;
	union ibv_gid gid;
	char mac[32], gid_mac[32];
	int i;

	EXPECT_EQ(IBV_NODE_RNIC, self->ctx->device->node_type);
	EXPECT_EQ(IBV_TRANSPORT_IWARP, self->ctx->device->transport_type);
	ASSERT_EQ(0, ibv_query_port(self->ctx, 1, &port));
	EXPECT_EQ(IBV_LINK_LAYER_ETHERNET, port.link_layer);
	EXPECT_EQ(IBV_PORT_ACTIVE, port.state);
	EXPECT_EQ(0, port.lid);
	ASSERT_EQ(0, ibv_query_gid(self->ctx, 1, 0, &gid));
	ASSERT_EQ(0, port_netdev_mac(ibv_get_device_name(self->ctx->device),
				     mac, sizeof(mac)));
	snprintf(gid_mac, sizeof(gid_mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 gid.raw[0], gid.raw[1], gid.raw[2], gid.raw[3], gid.raw[4],
		 gid.raw[5]);
	EXPECT_STREQ(mac, gid_mac);
	for (i = 6; i < 16; i++)
		EXPECT_EQ(0, gid.raw[i]);
}

/* Only RC: UD and UC creates reach the driver and it refuses them. */
TEST_F(iwarp, only_rc_qps)
{
	static const enum ibv_qp_type refused[] = { IBV_QPT_UD, IBV_QPT_UC };
	struct ibv_qp *qp;
	unsigned int i;

	qp = create_qp(self, IBV_QPT_RC);
	ASSERT_NE(NULL, qp);
	EXPECT_EQ(0, ibv_destroy_qp(qp));
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		errno = 0;
		qp = create_qp(self, refused[i]);
		EXPECT_EQ(NULL, qp);
		EXPECT_EQ(EOPNOTSUPP, errno) TH_LOG("QP type %d", refused[i]);
		if (qp)
			ibv_destroy_qp(qp);
	}
}

/*
 * No address handles.  libibverbs refuses ibv_create_ah() itself (the siw
 * provider has none), so the kernel's answer is asked by a raw CREATE_AH:
 * the command is absent for a driver without create_user_ah.
 */
TEST_F(iwarp, no_address_handles)
{
	struct ibv_ah_attr ah_attr = { .is_global = 1, .port_num = 1 };
	struct {
		struct ib_uverbs_create_ah_resp core;
		char drv[RAW_DRV_OUT];
	} resp = {};
	struct ib_uverbs_create_ah req = {
		.response = (uintptr_t)&resp,
		.pd_handle = self->pd->handle,
		.attr = {
			.is_global = 1,
			.port_num = 1,
			.grh = { .hop_limit = 64 },
		},
	};
	union ibv_gid gid;

	ASSERT_EQ(0, ibv_query_gid(self->ctx, 1, 0, &gid));
	memcpy(req.attr.grh.dgid, gid.raw, sizeof(gid.raw));
	ah_attr.grh.dgid = gid;
	errno = 0;
	EXPECT_EQ(NULL, ibv_create_ah(self->pd, &ah_attr));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(-EOPNOTSUPP, raw_cmd(self->ctx->cmd_fd,
				       IB_USER_VERBS_CMD_CREATE_AH, &req,
				       sizeof(req), sizeof(resp)));
}

/*
 * MODIFY_QP cannot connect an iWARP QP: RTS needs the socket and MPA
 * state only the connection manager hands the driver (EINVAL).  RTR with
 * an address vector is accepted and changes nothing (siw has no RTR of its
 * own before a connection), so the QP stays idle: QUERY_QP answers RESET
 * on 6.1, whose siw leaves the state to ib_uverbs' zeroed attributes, and
 * INIT on 6.12, whose siw reports its idle state as INIT.
 */
TEST_F(iwarp, rts_only_through_the_cm)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};
	union ibv_gid gid;
	struct ibv_qp *qp;

	ASSERT_EQ(0, ibv_query_gid(self->ctx, 1, 0, &gid));
	qp = create_qp(self, IBV_QPT_RC);
	ASSERT_NE(NULL, qp);
	EXPECT_EQ(0, ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				   IBV_QP_PORT | IBV_QP_ACCESS_FLAGS));
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	errno = 0;
	EXPECT_EQ(EINVAL, ibv_modify_qp(qp, &a, IBV_QP_STATE));

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.dgid = gid;
	a.ah_attr.grh.hop_limit = 64;
	EXPECT_EQ(0, ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
				   IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				   IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				   IBV_QP_MIN_RNR_TIMER));
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	EXPECT_EQ(EINVAL, ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
					IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					IBV_QP_SQ_PSN |
					IBV_QP_MAX_QP_RD_ATOMIC));
	memset(&a, 0xff, sizeof(a));
	ASSERT_EQ(0, ibv_query_qp(qp, &a, IBV_QP_STATE, &init));
	EXPECT_EQ(raw_kernel_at_least(6, 12) ? IBV_QPS_INIT : IBV_QPS_RESET,
		  a.qp_state);
	EXPECT_EQ(0, ibv_destroy_qp(qp));
}

TEST_HARNESS_MAIN
