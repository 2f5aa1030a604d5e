// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rdma_ops server (examples/rdma_ops.h) in plain C on librdmacm and
 * libibverbs: the peer the C++ client (ovb-rdma-ops ADDRESS) is run against
 * by tests/guest/rdma-ops.  One client, then exit: 0 when the region holds
 * what the protocol says the client did.
 *
 *   ovb_rdma_ops_server_c [port]
 */
#include "../../examples/rdma_ops.h"
#include "rdma_ops_c.h"

#include <endian.h>
#include <string.h>

#define DEPTH 16

int main(int argc, char **argv)
{
	const char *port = argc > 1 ? argv[1] : OVB_RDMA_OPS_PORT;
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE, .ai_port_space = RDMA_PS_TCP };
	struct rdma_addrinfo *ai;
	struct rdma_cm_id *listener, *conn;
	struct rdma_cm_event *ev;

	if (!ch || rdma_create_id(ch, &listener, NULL, RDMA_PS_TCP))
		die("rdma_create_id");
	if (rdma_getaddrinfo(NULL, port, &hints, &ai))
		die("rdma_getaddrinfo");
	if (rdma_bind_addr(listener, ai->ai_src_addr) || rdma_listen(listener, 1))
		die("rdma_listen");
	rdma_freeaddrinfo(ai);
	printf("rdma_ops server (C): listening on port %s\n", port);
	fflush(stdout);
	ev = expect(ch, RDMA_CM_EVENT_CONNECT_REQUEST);
	conn = ev->id;
	rdma_ack_cm_event(ev);

	struct ibv_pd *pd = ibv_alloc_pd(conn->verbs);
	/* data | counter | the receive buffer */
	uint64_t *mem = calloc(OVB_RDMA_OPS_LEN / 8 + 1 + 8, 8);
	uint8_t *bytes = (uint8_t *)mem;
	size_t size = (OVB_RDMA_OPS_LEN / 8 + 1 + 8) * 8;

	if (!pd || !mem)
		die("ibv_alloc_pd");
	mem[OVB_RDMA_OPS_LEN / 8] = OVB_RDMA_OPS_COUNTER0;
	struct ibv_mr *mr = ibv_reg_mr(pd, mem, size,
				       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				       IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
	struct ibv_comp_channel *cch = ibv_create_comp_channel(conn->verbs);
	struct ibv_cq *cq = cch ? ibv_create_cq(conn->verbs, DEPTH, NULL, cch, 0) : NULL;

	if (!mr || !cq)
		die("ibv_reg_mr/ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = DEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	if (rdma_create_qp(conn, pd, &init))
		die("rdma_create_qp");

	struct ibv_sge rsge = {
		(uintptr_t)(bytes + OVB_RDMA_OPS_LEN + 8), 16, mr->lkey
	};
	struct ibv_recv_wr rwr = { .wr_id = 1, .sg_list = &rsge, .num_sge = 1 }, *bad;

	if (ibv_post_recv(conn->qp, &rwr, &bad))
		die("ibv_post_recv");

	struct ovb_rdma_ops_offer offer = {
		htobe64((uintptr_t)bytes), htobe32(mr->rkey), htobe32(OVB_RDMA_OPS_LEN)
	};
	struct rdma_conn_param param = {
		.private_data = &offer, .private_data_len = sizeof(offer),
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
	};
	if (rdma_accept(conn, &param))
		die("rdma_accept");
	rdma_ack_cm_event(expect(ch, RDMA_CM_EVENT_ESTABLISHED));

	struct ibv_wc wc;
	int ok;
	uint32_t i, wrong = 0;

	await(cq, cch, &wc);
	ok = report(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV &&
		    wc.byte_len == sizeof(OVB_RDMA_OPS_DONE) &&
		    !memcmp(bytes + OVB_RDMA_OPS_LEN + 8, OVB_RDMA_OPS_DONE, wc.byte_len),
		    "server: the client's message");
	for (i = 0; i < OVB_RDMA_OPS_LEN; i++)
		wrong += bytes[i] != ovb_rdma_ops_pattern(i);
	ok &= report(!wrong, "server: region holds the client's RDMA WRITE");
	ok &= report(mem[OVB_RDMA_OPS_LEN / 8] == OVB_RDMA_OPS_FINAL,
		     "server: counter after CAS and FETCH_ADD");
	rdma_ack_cm_event(expect(ch, RDMA_CM_EVENT_DISCONNECTED));

	rdma_destroy_qp(conn);
	ibv_destroy_cq(cq);
	ibv_destroy_comp_channel(cch);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	free(mem);
	rdma_destroy_id(conn);
	rdma_destroy_id(listener);
	rdma_destroy_event_channel(ch);
	return ok ? 0 : 1;
}
