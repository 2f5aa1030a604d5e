// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rdma_ops client (examples/rdma_ops.h) in plain C on librdmacm and
 * libibverbs: the peer the C++ server (ovb-rdma-ops without an address) is
 * run against by tests/guest/rdma-ops.  It RDMA WRITEs the pattern over the
 * server's region, READs it back, compares-and-swaps the counter (matching,
 * then not), fetches-and-adds, READs the counter and SENDs "done", each
 * completion awaited on a completion channel.  Exit 0 when every value it
 * got back is the one the protocol says.
 *
 *   ovb_rdma_ops_client_c [-p port] server-address
 */
#include "../../examples/rdma_ops.h"
#include "rdma_ops_c.h"

#include <endian.h>
#include <string.h>

#define DEPTH 16

struct client {
	struct rdma_cm_id *id;
	struct ibv_cq *cq;
	struct ibv_comp_channel *cch;
	struct ibv_mr *mr;
	uint64_t raddr;
	uint32_t rkey;
};

/*
 * Posts one signalled request and sleeps on the completion channel until
 * its completion arrives; anything but a success of the opcode due exits.
 */
static void run(struct client *c, struct ibv_send_wr *wr, enum ibv_wc_opcode want)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	wr->send_flags = IBV_SEND_SIGNALED;
	if (ibv_post_send(c->id->qp, wr, &bad))
		die("ibv_post_send");
	await(c->cq, c->cch, &wc);
	if (wc.status != IBV_WC_SUCCESS || wc.opcode != want || wc.wr_id != wr->wr_id) {
		fprintf(stderr, "rdma_ops_client: wr %llu: %s, opcode %d where %d was due\n",
			(unsigned long long)wr->wr_id, ibv_wc_status_str(wc.status),
			wc.opcode, want);
		exit(1);
	}
}

static void rdma(struct client *c, uint64_t id, enum ibv_wr_opcode op, void *local,
		 uint32_t len, uint64_t offset)
{
	struct ibv_sge sge = { (uintptr_t)local, len, c->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = id, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.wr.rdma = { .remote_addr = c->raddr + offset, .rkey = c->rkey },
	};

	run(c, &wr, op == IBV_WR_RDMA_WRITE ? IBV_WC_RDMA_WRITE : IBV_WC_RDMA_READ);
}

static void atomic(struct client *c, uint64_t id, enum ibv_wr_opcode op, uint64_t *result,
		   uint64_t compare_add, uint64_t swap)
{
	struct ibv_sge sge = { (uintptr_t)result, 8, c->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = id, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.wr.atomic = { .remote_addr = c->raddr + OVB_RDMA_OPS_LEN,
			       .compare_add = compare_add, .swap = swap, .rkey = c->rkey },
	};

	run(c, &wr, op == IBV_WR_ATOMIC_CMP_AND_SWP ? IBV_WC_COMP_SWAP : IBV_WC_FETCH_ADD);
}

int main(int argc, char **argv)
{
	const char *port = OVB_RDMA_OPS_PORT, *host = NULL;
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *ai;
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct client c = { 0 };
	struct rdma_cm_event *ev;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-p") && i + 1 < argc)
			port = argv[++i];
		else
			host = argv[i];
	}
	if (!host) {
		fprintf(stderr, "usage: ovb_rdma_ops_client_c [-p port] server-address\n");
		return 2;
	}
	if (!ch || rdma_create_id(ch, &c.id, NULL, RDMA_PS_TCP))
		die("rdma_create_id");
	if (rdma_getaddrinfo(host, port, &hints, &ai))
		die("rdma_getaddrinfo");
	if (rdma_resolve_addr(c.id, NULL, ai->ai_dst_addr, 2000))
		die("rdma_resolve_addr");
	rdma_freeaddrinfo(ai);
	rdma_ack_cm_event(expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED));
	if (rdma_resolve_route(c.id, 2000))
		die("rdma_resolve_route");
	rdma_ack_cm_event(expect(ch, RDMA_CM_EVENT_ROUTE_RESOLVED));

	struct ibv_pd *pd = ibv_alloc_pd(c.id->verbs);
	/* local data | read-back data | atomic result | counter read | message */
	size_t words = 2 * OVB_RDMA_OPS_LEN / 8 + 4;
	uint64_t *mem = calloc(words, 8);
	uint8_t *bytes = (uint8_t *)mem;
	uint64_t *result = &mem[2 * OVB_RDMA_OPS_LEN / 8], *counter = result + 1;

	if (!pd || !mem)
		die("ibv_alloc_pd");
	c.mr = ibv_reg_mr(pd, mem, words * 8, IBV_ACCESS_LOCAL_WRITE);
	c.cch = ibv_create_comp_channel(c.id->verbs);
	c.cq = c.cch ? ibv_create_cq(c.id->verbs, DEPTH, NULL, c.cch, 0) : NULL;
	if (!c.mr || !c.cq)
		die("ibv_reg_mr/ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = c.cq, .recv_cq = c.cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = DEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	if (rdma_create_qp(c.id, pd, &init))
		die("rdma_create_qp");

	struct rdma_conn_param param = {
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
	};
	struct ovb_rdma_ops_offer offer;

	if (rdma_connect(c.id, &param))
		die("rdma_connect");
	/* The server's region, from the private data of its accept. */
	ev = expect(ch, RDMA_CM_EVENT_ESTABLISHED);
	if (ev->param.conn.private_data_len < sizeof(offer)) {
		fprintf(stderr, "rdma_ops_client: the server's offer is missing\n");
		return 1;
	}
	memcpy(&offer, ev->param.conn.private_data, sizeof(offer));
	rdma_ack_cm_event(ev);
	if (be32toh(offer.len) != OVB_RDMA_OPS_LEN) {
		fprintf(stderr, "rdma_ops_client: the server offers another length\n");
		return 1;
	}
	c.raddr = be64toh(offer.addr);
	c.rkey = be32toh(offer.rkey);

	uint32_t j;
	int ok;

	for (j = 0; j < OVB_RDMA_OPS_LEN; j++)
		bytes[j] = ovb_rdma_ops_pattern(j);
	rdma(&c, 1, IBV_WR_RDMA_WRITE, bytes, OVB_RDMA_OPS_LEN, 0);
	rdma(&c, 2, IBV_WR_RDMA_READ, bytes + OVB_RDMA_OPS_LEN, OVB_RDMA_OPS_LEN, 0);
	ok = report(!memcmp(bytes, bytes + OVB_RDMA_OPS_LEN, OVB_RDMA_OPS_LEN),
		    "client: RDMA READ returns what RDMA WRITE wrote");

	atomic(&c, 3, IBV_WR_ATOMIC_CMP_AND_SWP, result, OVB_RDMA_OPS_COUNTER0, OVB_RDMA_OPS_SWAP);
	ok &= report(*result == OVB_RDMA_OPS_COUNTER0, "client: CAS returns the old value");
	atomic(&c, 4, IBV_WR_ATOMIC_CMP_AND_SWP, result, OVB_RDMA_OPS_COUNTER0, 1);
	ok &= report(*result == OVB_RDMA_OPS_SWAP,
		     "client: a CAS that does not match returns the value");
	atomic(&c, 5, IBV_WR_ATOMIC_FETCH_AND_ADD, result, OVB_RDMA_OPS_ADD, 0);
	ok &= report(*result == OVB_RDMA_OPS_SWAP, "client: FETCH_ADD returns the old value");
	rdma(&c, 6, IBV_WR_RDMA_READ, counter, 8, OVB_RDMA_OPS_LEN);
	ok &= report(*counter == OVB_RDMA_OPS_FINAL, "client: counter after CAS and FETCH_ADD");

	uint8_t *msg = bytes + 2 * OVB_RDMA_OPS_LEN + 16;
	struct ibv_sge sge = { (uintptr_t)msg, sizeof(OVB_RDMA_OPS_DONE), c.mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 7, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
	};

	memcpy(msg, OVB_RDMA_OPS_DONE, sizeof(OVB_RDMA_OPS_DONE));
	run(&c, &wr, IBV_WC_SEND);
	if (rdma_disconnect(c.id))
		die("rdma_disconnect");
	rdma_ack_cm_event(expect(ch, RDMA_CM_EVENT_DISCONNECTED));

	rdma_destroy_qp(c.id);
	ibv_destroy_cq(c.cq);
	ibv_destroy_comp_channel(c.cch);
	ibv_dereg_mr(c.mr);
	ibv_dealloc_pd(pd);
	free(mem);
	rdma_destroy_id(c.id);
	rdma_destroy_event_channel(ch);
	return ok ? 0 : 1;
}
