// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RDMA WRITE bandwidth in C with libibverbs: the twin of write_bw.cpp
// (same options, same wire format, either can be the other's peer), kept
// to measure the C++ API against.
//   ovb-write-bw-c [-d dev] [-g gid_idx] [-n iters] [-s size] [-t depth] [server]
#define _GNU_SOURCE
#include <infiniband/verbs.h>

#include <errno.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct dest {
	uint32_t qpn, psn, rkey;
	unsigned long long addr;
	union ibv_gid gid;
};
#define MSG_SIZE (sizeof "000000:000000:00000000:0000000000000000:" + 32)

static int fail(const char *what, int err)
{
	fprintf(stderr, "ovb-write-bw-c: %s: %s\n", what, strerror(err ? err : EIO));
	return 1;
}

/* The TCP side channel: the client connects to host, the server accepts. */
static int tcp(const char *host)
{
	struct addrinfo hints = {}, *res;
	int fd, s, one = 1;

	hints.ai_flags = host ? 0 : AI_PASSIVE;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_family = AF_INET;
	if (getaddrinfo(host, "18516", &hints, &res))
		return -1;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (host ? connect(fd, res->ai_addr, res->ai_addrlen)
		 : bind(fd, res->ai_addr, res->ai_addrlen) || listen(fd, 1)) {
		freeaddrinfo(res);
		close(fd);
		return -1;
	}
	freeaddrinfo(res);
	if (host)
		return fd;
	s = accept(fd, NULL, NULL);
	close(fd);
	return s;
}

static int connect_qp(struct ibv_qp *qp, const struct dest *me,
		      const struct dest *peer, int gid_idx)
{
	struct ibv_qp_attr a = {};

	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer->qpn;
	a.rq_psn = peer->psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.port_num = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = peer->gid;
	a.ah_attr.grh.sgid_index = gid_idx;
	a.ah_attr.grh.hop_limit = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = me->psn;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* The client sends first; the server connects its QP before it answers. */
static int exchange(int fd, int client, struct ibv_qp *qp,
		    const struct dest *me, struct dest *peer, int gid_idx)
{
	char out[MSG_SIZE], in[MSG_SIZE] = {}, hex[3] = {};
	int i, n;

	n = snprintf(out, MSG_SIZE, "%06x:%06x:%08x:%016llx:", me->qpn,
		     me->psn, me->rkey, me->addr);
	for (i = 0; i < 16; i++)
		snprintf(out + n + 2 * i, 3, "%02x", me->gid.raw[i]);
	if ((client && write(fd, out, MSG_SIZE) != MSG_SIZE) ||
	    read(fd, in, MSG_SIZE) != MSG_SIZE)
		return -1;
	sscanf(in, "%x:%x:%x:%llx:", &peer->qpn, &peer->psn, &peer->rkey,
	       &peer->addr);
	for (i = 0; i < 16; i++) {
		memcpy(hex, in + n + 2 * i, 2);
		peer->gid.raw[i] = strtoul(hex, NULL, 16);
	}
	if (connect_qp(qp, me, peer, gid_idx))
		return -1;
	if (!client && write(fd, out, MSG_SIZE) != MSG_SIZE)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *devname = NULL, *peer = NULL;
	int gid_idx = 1, iters = 1000, depth = 16, num, i, n, posted, done, fd;
	uint32_t size = 65536;
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_qp_init_attr init = {};
	struct ibv_qp_attr a = {};
	struct ibv_sge sge;
	struct ibv_send_wr wr = {}, *bad;
	struct ibv_wc wc[16];
	struct dest me, remote;
	struct timespec t0, t1;
	char *buf, c;
	double s;

	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : "";

		if (!strcmp(argv[i], "-d") && ++i)
			devname = v;
		else if (!strcmp(argv[i], "-g") && ++i)
			gid_idx = atoi(v);
		else if (!strcmp(argv[i], "-n") && ++i)
			iters = atoi(v);
		else if (!strcmp(argv[i], "-s") && ++i)
			size = atoi(v);
		else if (!strcmp(argv[i], "-t") && ++i)
			depth = atoi(v);
		else
			peer = argv[i];
	}

	list = ibv_get_device_list(&num);
	if (!list)
		return fail("ibv_get_device_list", errno);
	for (i = 0; i < num && !dev; i++)
		if (!devname || !strcmp(devname, ibv_get_device_name(list[i])))
			dev = list[i];
	if (!dev)
		return fail("no such RDMA device", ENODEV);
	ctx = ibv_open_device(dev);
	if (!ctx)
		return fail("ibv_open_device", errno);
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		return fail("ibv_alloc_pd", errno);
	buf = calloc(1, size);
	mr = ibv_reg_mr(pd, buf, size,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		return fail("ibv_reg_mr", errno);
	cq = ibv_create_cq(ctx, depth, NULL, NULL, 0);
	if (!cq)
		return fail("ibv_create_cq", errno);
	init.send_cq = init.recv_cq = cq;
	init.cap.max_send_wr = depth;
	init.cap.max_recv_wr = 1;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	init.qp_type = IBV_QPT_RC;
	qp = ibv_create_qp(pd, &init);
	if (!qp)
		return fail("ibv_create_qp", errno);
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return fail("ibv_modify_qp", errno);

	me.qpn = qp->qp_num;
	me.psn = getpid() & 0xffffff;
	me.rkey = mr->rkey;
	me.addr = (uintptr_t)buf;
	if (ibv_query_gid(ctx, 1, gid_idx, &me.gid))
		return fail("ibv_query_gid", errno);
	fd = tcp(peer);
	if (fd < 0)
		return fail(peer ? "connect" : "listen", errno);
	if (exchange(fd, peer != NULL, qp, &me, &remote, gid_idx))
		return fail("address exchange", errno);
	if (!peer) /* the server's memory is written; it waits for the client */
		return read(fd, &c, 1) == 1 ? 0 : 1;

	sge.addr = (uintptr_t)buf;
	sge.length = size;
	sge.lkey = mr->lkey;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = remote.addr;
	wr.wr.rdma.rkey = remote.rkey;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (posted = 0, done = 0; done < iters;) {
		for (; posted < iters && posted - done < depth; posted++)
			if ((i = ibv_post_send(qp, &wr, &bad)))
				return fail("ibv_post_send", i);
		n = ibv_poll_cq(cq, 16, wc);
		if (n < 0)
			return fail("ibv_poll_cq", EIO);
		for (i = 0; i < n; i++)
			if (wc[i].status != IBV_WC_SUCCESS)
				return fail(ibv_wc_status_str(wc[i].status), EIO);
		done += n;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%d x %u bytes in %.3f s: %.2f MB/sec\n", iters, size, s,
	       (double)iters * size / s / 1e6);
	if (write(fd, "d", 1) != 1) /* tell the server we are done */
		return 1;
	ibv_destroy_qp(qp);
	ibv_destroy_cq(cq);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	free(buf);
	close(fd);
	return 0;
}
