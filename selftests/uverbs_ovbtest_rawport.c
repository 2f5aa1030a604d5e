// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Raw-Ethernet-only ports (mlx5's representors and RoCE-less Ethernet
 * ports) on the test HCA: ovbtest.ko loaded with raw_ports=N has N of them
 * after its RoCE port (selftests/ovbtest/rawport.c): capability
 * RDMA_CORE_PORT_RAW_PACKET alone, Ethernet link layer, no GID table.
 * Raw calls on whichever ib_uverbs is loaded, fixture rawport (one raw
 * port, 3):
 *  - QUERY_PORT (write() and ioctl): link_layer Ethernet, no GRH-required
 *    flag, no LIDs, gid_tbl_len 0, the same bytes both ways;
 *  - QUERY_GID_TABLE lists nothing of the port, QUERY_GID_ENTRY is EINVAL;
 *  - CREATE_AH and MODIFY_QP: an untyped AV (rdma_ah_find_type() knows
 *    neither IB nor RoCE here) without DLID; with a GRH ib_core finds no
 *    source GID (EINVAL) and the driver is not asked;
 *  - ATTACH_MCAST: a UD QP on the port attaches with MLID 0 (Ethernet link
 *    layer), a RAW_PACKET QP never (ib_core: UD only);
 *  - RAW_PACKET QPs (write() CREATE_QP and ioctl QP_CREATE) need
 *    CAP_NET_RAW (EPERM), go to INIT only with a port, QUERY_QP names it;
 *  - CREATE_FLOW (RAW_PACKET and UD QPs) on the port reaches the driver
 *    with the port; port 0 and one past the last are EINVAL; without
 *    CAP_NET_RAW it is EPERM before the QP or the port is looked at.
 * Fixture many: raw_ports=300, a device of 302 ports as an mlx5 eswitch
 * with many vports has: the u8 port numbers of the ABI reach port 255 and
 * no further (QUERY_DEVICE says 255 ports, ioctl QUERY_PORT's port is
 * bounded to u8: EINVAL beyond, 257 is not port 1), QUERY_GID_ENTRY's u32
 * port does not wrap either (257 EINVAL), QUERY_GID_TABLE answers.  No
 * port past 255 has a GID (mlx5's representors have none), so whether
 * QUERY_GID_TABLE looks at them is not seen here.
 * raw_ports_bound: OVBTEST_MAX_RAW_PORTS + 1 is refused at load, the most
 * (1002 ports) loads and unloads without a kernel warning.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"
#include "qp_abi.h"
#include "ovbtest_ib_port.h"

#define P_IB		OVBTEST_PORT_IB
#define P_ROCE		OVBTEST_PORT_ROCE
#define P_RAW		OVBTEST_PORT_RAW_FIRST
#define MANY		300
#define AH_TYPE_UNDEFINED 0
#define LL_ETH		2
#define PORT_ACTIVE	4
#define GRH_REQUIRED	IB_UVERBS_QPF_GRH_REQUIRED

/* Drops CAP_NET_RAW from this (forked test) process's effective set. */
static int drop_net_raw(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective &= ~(1u << CAP_NET_RAW);
	return syscall(SYS_capset, &hdr, data);
}

/* ioctl QP_CREATE of @type; 0 and the handle in @qp, or -errno. */
static int ioc_create_qp(int fd, __u32 pd, __u32 cq, __u32 type, __u32 *qp)
{
	struct ib_uverbs_qp_cap cap = {
		.max_send_wr = 4, .max_recv_wr = 4,
		.max_send_sge = 1, .max_recv_sge = 1,
	};
	struct ib_uverbs_qp_cap out;
	__u64 user_handle = 0xd5;
	__u32 qpn;
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE);
	ioc_obj(&c, UVERBS_ATTR_CREATE_QP_HANDLE, 0);
	ioc_obj(&c, UVERBS_ATTR_CREATE_QP_PD_HANDLE, pd);
	ioc_obj(&c, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, cq);
	ioc_obj(&c, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, cq);
	ioc_in(&c, UVERBS_ATTR_CREATE_QP_USER_HANDLE, &user_handle,
	       sizeof(user_handle));
	ioc_in(&c, UVERBS_ATTR_CREATE_QP_CAP, &cap, sizeof(cap));
	ioc_const(&c, UVERBS_ATTR_CREATE_QP_TYPE, type);
	ioc_out(&c, UVERBS_ATTR_CREATE_QP_RESP_CAP, &out, sizeof(out));
	ioc_out(&c, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &qpn, sizeof(qpn));
	ret = ioc_call(fd, &c);
	if (!ret)
		*qp = c.attrs[0].data;
	return ret;
}

/* A QP to INIT on @port: UD with its P_Key index and Q_Key, raw bare. */
static int qp_init(int fd, __u32 qp, int ud, __u8 port)
{
	struct ib_uverbs_modify_qp init = {
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_PORT,
		.qp_state = QPS_INIT,
		.port_num = port,
		.qkey = 0x11111111,
	};

	if (ud)
		init.attr_mask |= QP_PKEY_INDEX | QP_QKEY;
	return raw_modify_qp(fd, &init);
}

/* QUERY_QP: the state and port_num; -errno on failure. */
static int qp_state_port(int fd, __u32 qp, __u8 *state, __u8 *port)
{
	struct ib_uverbs_query_qp_resp resp;
	struct ib_uverbs_query_qp req = {
		.response = (uintptr_t)&resp,
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_PORT,
	};
	ssize_t ret;

	memset(&resp, 0xa5, sizeof(resp));
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_QUERY_QP, &req, sizeof(req),
		      sizeof(resp));
	*state = resp.qp_state;
	*port = resp.port_num;
	return ret < 0 ? (int)ret : 0;
}

/* ovbtest.ko loaded with @param; SKIPs (via the caller) when not built. */
static int load_with(const char *param)
{
	if (ovbtest_loaded() && ovbtest_unload())
		return -EBUSY;
	return ovbtest_load_module_with(HCA_MODULE, param);
}

/* ------------------------------------------------------- one raw port */

FIXTURE(rawport) {
	int fd;
	struct ovbtest_alloc_ucontext_resp uctx;
	int pd, cq;
};

FIXTURE_SETUP(rawport)
{
	port_fixture_setup(_metadata, "raw_ports=1", &self->fd, &self->uctx,
			   &self->pd, &self->cq, NULL);
}

FIXTURE_TEARDOWN(rawport)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(rawport, query_port)
{
	struct ib_uverbs_query_port_resp_ex rx;
	struct ib_uverbs_query_device_resp dev;
	struct ib_uverbs_query_port_resp r;

	ASSERT_EQ(0, raw_query_device(self->fd, &dev));
	EXPECT_EQ(3, dev.phys_port_cnt);
	memset(&r, 0xa5, sizeof(r));
	memset(&rx, 0xa5, sizeof(rx));
	ASSERT_EQ(0, query_port_write(self->fd, P_RAW, &r));
	ASSERT_EQ(0, query_port_ioctl(self->fd, P_RAW, &rx));
	EXPECT_EQ(LL_ETH, r.link_layer);
	EXPECT_EQ(PORT_ACTIVE, r.state);
	EXPECT_EQ(0, r.flags & GRH_REQUIRED);
	EXPECT_EQ(0, r.lid);
	EXPECT_EQ(0, r.sm_lid);
	EXPECT_EQ(0, r.gid_tbl_len);
	EXPECT_EQ(1, r.pkey_tbl_len);
	EXPECT_EQ(0, r.port_cap_flags);
	EXPECT_EQ(0, memcmp(&r, &rx.legacy_resp, sizeof(r)));
	EXPECT_EQ(0, rx.port_cap_flags2);
	/* one past the last port */
	EXPECT_EQ(-EINVAL, query_port_write(self->fd, P_RAW + 1, &r));
	EXPECT_EQ(-EINVAL, query_port_ioctl(self->fd, P_RAW + 1, &rx));
}

TEST_F(rawport, gid_table_and_entry)
{
	struct ib_uverbs_gid_entry e[32], one;
	int n, i;

	n = gid_table(self->fd, e, 32);
	ASSERT_LE(1, n);	/* the IB port's GID, the RoCE port's */
	for (i = 0; i < n; i++)
		EXPECT_GT(P_RAW, e[i].port_num);
	EXPECT_EQ(-EINVAL, gid_entry(self->fd, P_RAW, 0, &one));
	EXPECT_EQ(0, gid_entry(self->fd, P_IB, 0, &one));
}

TEST_F(rawport, create_ah)
{
	__u8 dgid[16] = { 0xfe, 0x80, [15] = 0x42 };
	struct ib_uverbs_ah_attr a;
	struct ovbtest_av_info av, last;
	int i;

	ASSERT_EQ(0, last_av(self->fd, &last));
	for (i = 0; i < 2; i++) {
		/* untyped: the DLID does not reach the driver, which wants one */
		a = ah_attr(0x10, NULL);
		a.port_num = P_RAW;
		EXPECT_EQ(-EINVAL, create_ah(self->fd, self->pd, a, i, &av));
		/* no GID table: no source GID for a GRH */
		a = ah_attr(0x10, dgid);
		a.port_num = P_RAW;
		EXPECT_EQ(-EINVAL, create_ah(self->fd, self->pd, a, i, &av));
		a.port_num = P_RAW + 1;
		EXPECT_EQ(-EINVAL, create_ah(self->fd, self->pd, a, i, &av));
	}
	/*
	 * Nothing recorded: with a GRH ib_core refuses before the driver;
	 * without one the driver's own check of the untyped AV (no DLID)
	 * refuses before it records, so this does not tell the two apart.
	 */
	ASSERT_EQ(0, last_av(self->fd, &av));
	EXPECT_EQ(last.seq, av.seq);
}

TEST_F(rawport, modify_qp_av)
{
	__u8 dgid[16] = { 0xfe, 0x80, [15] = 0x43 };
	struct ib_uverbs_qp_dest d;
	struct ib_uverbs_ah_attr a;
	struct ovbtest_av_info av;
	__u8 state, port;
	int qp;

	qp = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, qp);
	a = ah_attr(0x1234, NULL);
	a.port_num = P_RAW;
	ASSERT_EQ(0, rc_to_rtr(self->fd, qp, a));
	ASSERT_EQ(0, last_av(self->fd, &av));
	EXPECT_EQ(OVBTEST_AV_MODIFY_QP, av.source);
	EXPECT_EQ(AH_TYPE_UNDEFINED, av.type);
	EXPECT_EQ(0, av.dlid);
	EXPECT_EQ(0, av.ah_flags);
	EXPECT_EQ(P_RAW, av.port_num);
	ASSERT_EQ(0, query_qp_dest(self->fd, qp, &d));
	EXPECT_EQ(0, d.dlid);
	EXPECT_EQ(5, d.sl);
	EXPECT_EQ(0, d.is_global);
	EXPECT_EQ(P_RAW, d.port_num);
	ASSERT_EQ(0, qp_state_port(self->fd, qp, &state, &port));
	EXPECT_EQ(QPS_RTR, state);
	EXPECT_EQ(P_RAW, port);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));

	/* with a GRH: no source GID on the port, the QP stays in INIT */
	qp = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, qp);
	a = ah_attr(0x1234, dgid);
	a.port_num = P_RAW;
	EXPECT_EQ(-EINVAL, rc_to_rtr(self->fd, qp, a));
	ASSERT_EQ(0, qp_state_port(self->fd, qp, &state, &port));
	EXPECT_EQ(QPS_INIT, state);
	EXPECT_EQ(P_RAW, port);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
}

TEST_F(rawport, mcast)
{
	__u32 raw;
	int qp;

	qp = raw_create_qp(self->fd, QPT_UD, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, qp_init(self->fd, qp, 1, P_RAW));
	/* Ethernet link layer: ib_core does not check the MLID */
	EXPECT_EQ(0, mcast(self->fd, IB_USER_VERBS_CMD_ATTACH_MCAST, qp,
			   MGID, 0));
	EXPECT_EQ(1, ovbtest_info(self->fd).mcast_attached);
	EXPECT_EQ(0, mcast(self->fd, IB_USER_VERBS_CMD_DETACH_MCAST, qp,
			   MGID, 0));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));

	/* a RAW_PACKET QP on the port: ib_core attaches UD QPs only */
	ASSERT_EQ(0, ioc_create_qp(self->fd, self->pd, self->cq,
				   IB_UVERBS_QPT_RAW_PACKET, &raw));
	ASSERT_EQ(0, qp_init(self->fd, raw, 0, P_RAW));
	EXPECT_EQ(-EINVAL, mcast(self->fd, IB_USER_VERBS_CMD_ATTACH_MCAST,
				 raw, MGID, 0));
	EXPECT_EQ(-EINVAL, mcast(self->fd, IB_USER_VERBS_CMD_ATTACH_MCAST,
				 raw, MGID, 0xc001));
	EXPECT_EQ(0, ovbtest_info(self->fd).mcast_attached);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, raw));
}

TEST_F(rawport, raw_qp_on_the_port)
{
	__u8 state, port;
	__u32 ioc_qp;
	int qp;

	qp = raw_create_qp(self->fd, QPT_RAW_PACKET, self->pd, self->cq, -1,
			   NULL);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, ioc_create_qp(self->fd, self->pd, self->cq,
				   IB_UVERBS_QPT_RAW_PACKET, &ioc_qp));
	EXPECT_EQ(2, ovbtest_info(self->fd).qps);
	/*
	 * RESET to INIT needs a port (the driver's ib_modify_qp_is_ok(), as
	 * mlx5's; ib_uverbs passes it on); one past the last is EINVAL
	 * (ib_uverbs' check of IB_QP_PORT)
	 */
	EXPECT_EQ(-EINVAL, raw_modify_qp(self->fd, &(struct ib_uverbs_modify_qp) {
		.qp_handle = qp, .attr_mask = QP_STATE, .qp_state = QPS_INIT,
	}));
	EXPECT_EQ(-EINVAL, qp_init(self->fd, qp, 0, P_RAW + 1));
	ASSERT_EQ(0, qp_state_port(self->fd, qp, &state, &port));
	EXPECT_EQ(QPS_RESET, state);
	ASSERT_EQ(0, qp_init(self->fd, qp, 0, P_RAW));
	ASSERT_EQ(0, qp_state_port(self->fd, qp, &state, &port));
	EXPECT_EQ(QPS_INIT, state);
	EXPECT_EQ(P_RAW, port);
	/* to RTR and RTS without further attributes */
	EXPECT_EQ(0, raw_modify_qp(self->fd, &(struct ib_uverbs_modify_qp) {
		.qp_handle = qp, .attr_mask = QP_STATE, .qp_state = QPS_RTR,
	}));
	EXPECT_EQ(0, raw_modify_qp(self->fd, &(struct ib_uverbs_modify_qp) {
		.qp_handle = qp, .attr_mask = QP_STATE, .qp_state = QPS_RTS,
	}));
	ASSERT_EQ(0, qp_state_port(self->fd, qp, &state, &port));
	EXPECT_EQ(QPS_RTS, state);
	EXPECT_EQ(P_RAW, port);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, ioc_qp));
}

/*
 * Without CAP_NET_RAW.  write() refuses a file used with other credentials
 * than it was opened with (EACCES), ioctl does not: the checks run on the
 * fixture's file by ioctl and on a file opened after the drop by write().
 */
TEST_F(rawport, raw_qp_and_flow_need_cap_net_raw)
{
	struct ovbtest_alloc_ucontext_resp uctx;
	struct ovbtest_flow_info info;
	int fd, pd, cq, qp, f;
	__u32 ioc_qp, seq;

	f = create_flow(self->fd, 0x7fff, P_RAW);
	EXPECT_EQ(-ENOENT, f);	/* no such QP: with the capability */
	ASSERT_EQ(0, last_flow(self->fd, &info));
	seq = info.seq;
	ASSERT_EQ(0, drop_net_raw());
	EXPECT_EQ(-EPERM, ioc_create_qp(self->fd, self->pd, self->cq,
					IB_UVERBS_QPT_RAW_PACKET, &ioc_qp));
	EXPECT_EQ(-EACCES, raw_create_qp(self->fd, QPT_UD, self->pd,
					 self->cq, -1, NULL));
	HCA_SETUP_OPEN(fd, &uctx, pd);
	HCA_SETUP_CQ(fd, cq);
	EXPECT_EQ(-EPERM, raw_create_qp(fd, QPT_RAW_PACKET, pd, cq, -1, NULL));
	EXPECT_EQ(0, ovbtest_info(fd).qps);
	/* flows: refused before the QP or the port is looked at */
	qp = raw_create_qp(fd, QPT_UD, pd, cq, -1, NULL);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, qp_init(fd, qp, 1, P_RAW));
	EXPECT_EQ(-EPERM, create_flow(fd, qp, P_RAW));
	EXPECT_EQ(-EPERM, create_flow(fd, qp, P_RAW + 1));
	EXPECT_EQ(-EPERM, create_flow(fd, 0x7fff, P_RAW));
	ASSERT_EQ(0, last_flow(fd, &info));
	EXPECT_EQ(seq, info.seq);
	EXPECT_EQ(0, raw_destroy_qp(fd, qp));
	close(fd);
}

TEST_F(rawport, create_flow)
{
	struct ovbtest_flow_info info;
	int qp, ud, f;

	qp = raw_create_qp(self->fd, QPT_RAW_PACKET, self->pd, self->cq, -1,
			   NULL);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, qp_init(self->fd, qp, 0, P_RAW));
	f = create_flow(self->fd, qp, P_RAW);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, last_flow(self->fd, &info));
	EXPECT_EQ(P_RAW, info.port);
	EXPECT_EQ(1, info.num_of_specs);
	EXPECT_EQ(0x20, info.specs[0].type);
	EXPECT_EQ(-EINVAL, create_flow(self->fd, qp, P_RAW + 1));
	EXPECT_EQ(-EINVAL, create_flow(self->fd, qp, 0));
	EXPECT_EQ(0, destroy_flow(self->fd, f));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	/* a UD QP on the raw port takes one too */
	ud = raw_create_qp(self->fd, QPT_UD, self->pd, self->cq, -1, NULL);
	ASSERT_LE(0, ud);
	ASSERT_EQ(0, qp_init(self->fd, ud, 1, P_RAW));
	f = create_flow(self->fd, ud, P_RAW);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, last_flow(self->fd, &info));
	EXPECT_EQ(P_RAW, info.port);
	EXPECT_EQ(0, destroy_flow(self->fd, f));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, ud));
}

/*
 * The bound of raw_ports: one more than OVBTEST_MAX_RAW_PORTS is refused,
 * the most loads, every port in sysfs, the kernel log without a warning
 * (ib_core's per-port arrays for 1002 ports, ib_umad's if loaded), and
 * unloads the same way.  Registering 1002 ports takes about 30 s on a
 * KASAN/lockdep kernel under TCG: a longer timeout than the default.
 */
FIXTURE(bound) {
};

FIXTURE_SETUP(bound)
{
}

FIXTURE_TEARDOWN(bound)
{
}

TEST_F_TIMEOUT(bound, raw_ports_bound, 300)
{
	char param[32], path[128];
	const unsigned int last = OVBTEST_NUM_PORTS + OVBTEST_MAX_RAW_PORTS;
	int k, ret;

	/* from here: the last fixture's module unloads, these load and go */
	k = ovbtest_kmsg_mark();
	snprintf(param, sizeof(param), "raw_ports=%u",
		 OVBTEST_MAX_RAW_PORTS + 1);
	ret = load_with(param);
	if (ret == -ENOENT)
		SKIP(return, "ovbtest.ko not built");
	if (ret == -ENOEXEC)
		SKIP(return, "ovbtest.ko was built for another kernel");
	EXPECT_EQ(-EINVAL, ret);
	if (!ret)
		ASSERT_EQ(0, ovbtest_unload());
	EXPECT_EQ(-EINVAL, load_with("raw_ports=-1"));
	EXPECT_FALSE(ovbtest_loaded());

	snprintf(param, sizeof(param), "raw_ports=%u", OVBTEST_MAX_RAW_PORTS);
	ASSERT_EQ(0, load_with(param));
	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/%u/link_layer", HCA_IBDEV,
		 last);
	EXPECT_EQ(0, access(path, R_OK));
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u",
		 HCA_IBDEV, last + 1);
	EXPECT_NE(0, access(path, F_OK));
	ASSERT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_kmsg_warned(k));
}

/* ------------------------------------------- more than 255 raw ports */

FIXTURE(many) {
	int fd;
	struct ovbtest_alloc_ucontext_resp uctx;
	int pd, cq;
};

FIXTURE_SETUP(many)
{
	port_fixture_setup(_metadata, "raw_ports=300", &self->fd, &self->uctx,
			   &self->pd, &self->cq, NULL);
}

FIXTURE_TEARDOWN(many)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(many, ports_past_255)
{
	char path[128];
	struct ib_uverbs_query_port_resp_ex rx;
	struct ib_uverbs_query_device_resp dev;
	struct ib_uverbs_query_port_resp r;
	const __u32 last = OVBTEST_NUM_PORTS + MANY;

	/* ib_core has them all */
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/link_layer",
		 HCA_IBDEV, last);
	EXPECT_EQ(0, access(path, R_OK));
	/* QUERY_DEVICE's u8 says 255 */
	ASSERT_EQ(0, raw_query_device(self->fd, &dev));
	EXPECT_EQ(255, dev.phys_port_cnt);
	/* port 255 answers both ways */
	ASSERT_EQ(0, query_port_write(self->fd, 255, &r));
	ASSERT_EQ(0, query_port_ioctl(self->fd, 255, &rx));
	EXPECT_EQ(LL_ETH, r.link_layer);
	EXPECT_EQ(0, memcmp(&r, &rx.legacy_resp, sizeof(r)));
	/* ioctl's port is a u8 however wide the attribute */
	EXPECT_EQ(-EINVAL, query_port_ioctl(self->fd, 256, &rx));
	EXPECT_EQ(-EINVAL, query_port_ioctl(self->fd, last, &rx));
	EXPECT_EQ(-EINVAL, query_port_ioctl(self->fd, last + 1, &rx));
	/* ... so 256 + 1 is not port 1 */
	EXPECT_EQ(-EINVAL, query_port_ioctl(self->fd, 256 + P_IB, &rx));
}

TEST_F(many, gids_of_all_ports)
{
	struct ib_uverbs_gid_entry e[32], one;
	int n, i;

	/* answers with 302 ports; none past the RoCE port has a GID */
	n = gid_table(self->fd, e, 32);
	ASSERT_LE(1, n);
	for (i = 0; i < n; i++)
		EXPECT_GT(P_RAW, e[i].port_num);
	/*
	 * QUERY_GID_ENTRY's port is a u32: past 255 a raw port, no table
	 * (300 & 0xff is one too); 257 tells a port cut to u8 (port 1's GID)
	 */
	EXPECT_EQ(-EINVAL, gid_entry(self->fd, 300, 0, &one));
	EXPECT_EQ(-EINVAL, gid_entry(self->fd, OVBTEST_NUM_PORTS + MANY + 1,
				     0, &one));
	EXPECT_EQ(-EINVAL, gid_entry(self->fd, 256 + P_IB, 0, &one));
	EXPECT_EQ(0, gid_entry(self->fd, P_IB, 0, &one));
}

TEST_F(many, raw_qp_and_flow_on_port_255)
{
	struct ovbtest_flow_info info;
	__u8 state, port;
	int qp, f;

	qp = raw_create_qp(self->fd, QPT_RAW_PACKET, self->pd, self->cq, -1,
			   NULL);
	ASSERT_LE(0, qp);
	ASSERT_EQ(0, qp_init(self->fd, qp, 0, 255));
	ASSERT_EQ(0, qp_state_port(self->fd, qp, &state, &port));
	EXPECT_EQ(QPS_INIT, state);
	EXPECT_EQ(255, port);
	f = create_flow(self->fd, qp, 255);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, last_flow(self->fd, &info));
	EXPECT_EQ(255, info.port);
	EXPECT_EQ(0, destroy_flow(self->fd, f));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
