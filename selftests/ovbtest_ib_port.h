/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the tests of the test HCA's ports of other kinds share (OPA,
 * capability-less, USNIC, raw-Ethernet and RoCE ports:
 * uverbs_ovbtest_opa.c, uverbs_ovbtest_bare.c, uverbs_ovbtest_usnic.c,
 * uverbs_ovbtest_rawport.c, uverbs_ovbtest_roce.c): QUERY_PORT by write()
 * and ioctl, address vectors through CREATE_AH and MODIFY_QP, and what the
 * driver and QUERY_QP give back of them, the GID table and entries,
 * multicast attach and detach, an Ethernet flow rule, and their fixtures'
 * start.
 */
#ifndef OVBTEST_IB_PORT_H
#define OVBTEST_IB_PORT_H

#include <string.h>

#include "ovbtest_lib.h"
#include "qp_abi.h"

/* ------------------------------------------------------------ QUERY_PORT */

static inline int query_port_write(int fd, __u8 port,
			    struct ib_uverbs_query_port_resp *resp)
{
	struct ib_uverbs_query_port req = {
		.response = (uintptr_t)resp,
		.port_num = port,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_QUERY_PORT, &req,
			      sizeof(req), sizeof(*resp));

	return ret < 0 ? (int)ret : 0;
}

static inline int query_port_ioctl(int fd, __u32 port,
			    struct ib_uverbs_query_port_resp_ex *resp)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_const(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, port);
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, resp, sizeof(*resp));
	return ioc_call(fd, &c);
}

/* ----------------------------------------------------------- AVs and QPs */

/*
 * An AH attribute on @port: SL 5, path bits 3, and a GRH from GID
 * @sgid_index (hop limit 64, traffic class 0x20, flow label 0x12345) when
 * @dgid is not NULL.
 */
static inline struct ib_uverbs_ah_attr ah_attr_on(__u8 port, __u16 dlid,
						  const __u8 *dgid,
						  __u8 sgid_index)
{
	struct ib_uverbs_ah_attr a = {
		.dlid = dlid,
		.sl = 5,
		.src_path_bits = 0x3,
		.port_num = port,
	};

	if (dgid) {
		a.is_global = 1;
		memcpy(a.grh.dgid, dgid, 16);
		a.grh.sgid_index = sgid_index;
		a.grh.hop_limit = 64;
		a.grh.traffic_class = 0x20;
		a.grh.flow_label = 0x12345;
	}
	return a;
}

/* The same on the InfiniBand port, from GID 0. */
static inline struct ib_uverbs_ah_attr ah_attr(__u16 dlid, const __u8 *dgid)
{
	return ah_attr_on(OVBTEST_PORT_IB, dlid, dgid, 0);
}

struct ah_resp {
	struct ib_uverbs_create_ah_resp core;
	struct ovbtest_av_info drv;
} __attribute__((packed));

/*
 * CREATE_AH by write() or INVOKE_WRITE (the driver's AV as UHW_OUT); the
 * handle or -errno, the driver's AV in *@av when @av is not NULL.
 */
static inline int create_ah(int fd, __u32 pd, struct ib_uverbs_ah_attr attr,
		     int by_ioctl, struct ovbtest_av_info *av)
{
	struct ah_resp resp;
	struct ib_uverbs_create_ah req = {
		.response = (uintptr_t)&resp,
		.user_handle = 0xa4,
		.pd_handle = pd,
		.attr = attr,
	};
	struct ioc c;
	int ret;

	memset(&resp, 0xa5, sizeof(resp));
	if (!by_ioctl) {
		ret = raw_cmd(fd, IB_USER_VERBS_CMD_CREATE_AH, &req,
			      sizeof(req), sizeof(resp));
	} else {
		ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE,
				 UVERBS_METHOD_INVOKE_WRITE);
		ioc_const(&c, UVERBS_ATTR_WRITE_CMD,
			  IB_USER_VERBS_CMD_CREATE_AH);
		ioc_in(&c, UVERBS_ATTR_CORE_IN, &req, sizeof(req));
		ioc_out(&c, UVERBS_ATTR_CORE_OUT, &resp.core,
			sizeof(resp.core));
		ioc_out(&c, UVERBS_ATTR_UHW_OUT, &resp.drv, sizeof(resp.drv));
		ret = ioc_call(fd, &c);
	}
	if (av)
		memcpy(av, &resp.drv, sizeof(*av));
	return ret < 0 ? ret : (int)resp.core.ah_handle;
}

static inline int create_ah_write(int fd, __u32 pd,
				  struct ib_uverbs_ah_attr attr,
				  struct ovbtest_av_info *av)
{
	return create_ah(fd, pd, attr, 0, av);
}

static inline int create_ah_ioctl(int fd, __u32 pd,
				  struct ib_uverbs_ah_attr attr,
				  struct ovbtest_av_info *av)
{
	return create_ah(fd, pd, attr, 1, av);
}

static inline int destroy_ah(int fd, __u32 ah)
{
	struct ib_uverbs_destroy_ah req = { .ah_handle = ah };
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_DESTROY_AH, &req,
			      sizeof(req), 0);

	return ret < 0 ? (int)ret : 0;
}

static inline int last_av(int fd, struct ovbtest_av_info *av)
{
	struct ioc c;

	memset(av, 0xa5, sizeof(*av));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, OVBTEST_METHOD_DEVICE_LAST_AV);
	ioc_out(&c, OVBTEST_ATTR_DEVICE_LAST_AV_INFO, av, sizeof(*av));
	return ioc_call(fd, &c);
}

/* An RC QP's INIT -> RTR with the address vector @av. */
static inline int rc_rtr(int fd, __u32 qp, struct ib_uverbs_ah_attr av)
{
	struct ib_uverbs_modify_qp rtr = {
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_AV | QP_PATH_MTU | QP_DEST_QPN |
			     QP_RQ_PSN | QP_MAX_DEST_RD_ATOMIC |
			     QP_MIN_RNR_TIMER,
		.qp_state = QPS_RTR,
		.path_mtu = 3,		/* 1024 */
		.dest_qp_num = 0x42,
		.rq_psn = 1,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 1,
	};

	rtr.dest.dlid = av.dlid;
	rtr.dest.sl = av.sl;
	rtr.dest.src_path_bits = av.src_path_bits;
	rtr.dest.is_global = av.is_global;
	rtr.dest.port_num = av.port_num;
	memcpy(rtr.dest.dgid, av.grh.dgid, 16);
	rtr.dest.flow_label = av.grh.flow_label;
	rtr.dest.sgid_index = av.grh.sgid_index;
	rtr.dest.hop_limit = av.grh.hop_limit;
	rtr.dest.traffic_class = av.grh.traffic_class;
	return raw_modify_qp(fd, &rtr);
}

/* An RC QP to INIT on the port of @av, then to RTR with @av. */
static inline int rc_to_rtr(int fd, __u32 qp, struct ib_uverbs_ah_attr av)
{
	struct ib_uverbs_modify_qp init = {
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_PKEY_INDEX | QP_PORT |
			     QP_ACCESS_FLAGS,
		.qp_state = QPS_INIT,
		.port_num = av.port_num,
	};

	return raw_modify_qp(fd, &init) ?: rc_rtr(fd, qp, av);
}

/* QUERY_QP of the state, port and address vector into *@resp; 0 or -errno. */
static inline int query_qp(int fd, __u32 qp,
			   struct ib_uverbs_query_qp_resp *resp)
{
	struct ib_uverbs_query_qp req = {
		.response = (uintptr_t)resp,
		.qp_handle = qp,
		.attr_mask = QP_STATE | QP_PORT | QP_AV,
	};
	ssize_t ret;

	memset(resp, 0xa5, sizeof(*resp));
	ret = raw_cmd(fd, IB_USER_VERBS_CMD_QUERY_QP, &req, sizeof(req),
		      sizeof(*resp));
	return ret < 0 ? (int)ret : 0;
}

/* The same, the address vector alone into *@dest. */
static inline int query_qp_dest(int fd, __u32 qp,
				struct ib_uverbs_qp_dest *dest)
{
	struct ib_uverbs_query_qp_resp resp;
	int ret = query_qp(fd, qp, &resp);

	*dest = resp.dest;
	return ret;
}

/* ------------------------------------------------------------ GIDs */

/* QUERY_GID_TABLE into @e (room for @max); the count or -errno. */
static inline int gid_table(int fd, struct ib_uverbs_gid_entry *e, size_t max)
{
	__u64 n = 0;
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, sizeof(*e));
	ioc_out(&c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, e,
		max * sizeof(*e));
	ioc_out(&c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &n,
		sizeof(n));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)n;
}

static inline int gid_entry(int fd, __u32 port, __u32 index,
			    struct ib_uverbs_gid_entry *e)
{
	struct ioc c;

	memset(e, 0xa5, sizeof(*e));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, port);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, index);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0);
	ioc_out(&c, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, e, sizeof(*e));
	return ioc_call(fd, &c);
}

/* A multicast GID, ff12::1 (link-local scope). */
static const __u8 MGID[16] = { 0xff, 0x12, [15] = 0x01 };

/* ATTACH_MCAST or DETACH_MCAST (@cmd) of @qp to @gid, @lid; 0 or -errno. */
static inline int mcast(int fd, __u32 cmd, __u32 qp, const __u8 gid[16],
			__u16 lid)
{
	struct ib_uverbs_attach_mcast req = { .qp_handle = qp, .mlid = lid };
	ssize_t ret;

	memcpy(req.gid, gid, 16);
	ret = raw_cmd(fd, cmd, &req, sizeof(req), 0);
	return ret < 0 ? (int)ret : 0;
}

/* ------------------------------------------------------------- fixtures */

/*
 * ovbtest.ko loaded afresh with @param, a context on it into *@fd and
 * *@uctx, a PD into *@pd and a CQ into *@cq; @gid0 (when not NULL) the
 * first port's GID, fe80::node GUID.  False when the module cannot be
 * loaded here (the fixture is skipped); everything else asserts (the
 * harness jumps out of the setup).
 */
static inline bool port_fixture_setup(struct __test_metadata *_metadata,
				      const char *param, int *fd,
				      struct ovbtest_alloc_ucontext_resp *uctx,
				      int *pd, int *cq, __u8 *gid0)
{
	struct ib_uverbs_query_device_resp dev;
	int ret;

	*fd = -1;
	if (ovbtest_loaded())
		ASSERT_EQ(0, ovbtest_unload());
	ret = ovbtest_load_module_with(HCA_MODULE, param);
	if (ret == -ENOENT)
		SKIP(return false, "ovbtest.ko not built");
	if (ret == -ENOEXEC)
		SKIP(return false, "ovbtest.ko was built for another kernel");
	ASSERT_EQ(0, ret);
	HCA_SETUP_OPEN(*fd, uctx, *pd);
	HCA_SETUP_CQ(*fd, *cq);
	if (!gid0)
		return true;
	ASSERT_EQ(0, raw_query_device(*fd, &dev));
	memset(gid0, 0, 16);
	gid0[0] = 0xfe;
	gid0[1] = 0x80;
	memcpy(gid0 + 8, &dev.node_guid, 8);
	return true;
}

/* ---------------------------------------------------------------- flows */

/* EX_CREATE_FLOW of one Ethernet spec on @port; the handle or -errno. */
static inline int create_flow(int fd, __u32 qp, __u8 port)
{
	struct {
		struct ib_uverbs_create_flow cmd;
		struct ib_uverbs_flow_spec_eth eth;
	} req = {
		.cmd.qp_handle = qp,
		.cmd.flow_attr = {
			.type = 0,	/* IB_FLOW_ATTR_NORMAL */
			.size = sizeof(req.eth),
			.priority = 1,
			.num_of_specs = 1,
			.port = port,
		},
		.eth = {
			.type = 0x20,	/* IB_FLOW_SPEC_ETH */
			.size = sizeof(req.eth),
			.val.dst_mac = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
			.mask.dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		},
	};
	struct ib_uverbs_create_flow_resp out = {};
	ssize_t ret;

	ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_CREATE_FLOW, &req,
			 sizeof(req), 0, &out, sizeof(out), 0);
	return ret < 0 ? (int)ret : (int)out.flow_handle;
}

#endif /* OVBTEST_IB_PORT_H */
