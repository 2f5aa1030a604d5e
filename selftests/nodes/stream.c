// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The RC stream of node_faults: one rdma_cm connection (RoCE or iWARP
 * alike), each side sends `count` messages and receives as many, every
 * payload checked, every completion, async event and CM event recorded in
 * the shared report.  It never stops at the first error: it waits for
 * every posted work request to complete, as an application that cleans
 * up must.
 *
 * A side that is done does not simply leave: its last message may have
 * arrived while the ACK for it was lost, and a disconnect would flush
 * that send on the peer before its retransmission is answered.  So each
 * side, once its own sends have completed and every message of the peer
 * has arrived, sends a zero-length FIN, and disconnects only once it has
 * the peer's FIN and its own FIN's completion.  A FIN arriving means the
 * peer's data sends had all completed; what a disconnect can still flush
 * then is only a FIN whose ACK was lost, which is not counted as an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "faults.h"

double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static double since_fault(const struct stream_report *r)
{
	return r->fault_at ? now_s() - r->fault_at : 0;
}

struct stream {
	const struct stream_opts *o;
	struct stream_report *r;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id, *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *buf;		/* 2 x window receive slots, then window send slots */
	int send_posted, sends_out, recvs_out;
	int fin_posted, fin_received;	/* the zero-length SEND after the data */
	int disconnecting;	/* this side called rdma_disconnect() */
	int pump_over;		/* a DISCONNECTED now is no news of the peer */
	double disconnected_at;
};

/* Message @seq's byte @i: its number first, then a pattern of it. */
static uint8_t payload_byte(uint32_t seq, int i)
{
	if (i < 4)
		return seq >> (8 * i);
	return (seq * 131 + i) & 0xff;
}

static uint8_t *slot(struct stream *s, int recv, int i)
{
	return s->buf + ((recv ? 0 : 2 * s->o->window) + i) * (size_t)s->o->size;
}

static int fail(struct stream *s, const char *stage)
{
	char why[sizeof(s->r->stage)];

	/* An unexpected CM event names itself (cm_wait), errno otherwise. */
	snprintf(why, sizeof(why), "%s", errno == EPROTO && s->r->stage[0] ?
		 s->r->stage : strerror(errno));
	snprintf(s->r->stage, sizeof(s->r->stage), "%.30s: %.45s", stage, why);
	return -1;
}

/* The next CM event of @type within @limit seconds; others are noted. */
static struct rdma_cm_event *cm_wait(struct stream *s, int type, double limit)
{
	double end = now_s() + limit;
	struct rdma_cm_event *ev;

	while (now_s() < end) {
		if (rdma_get_cm_event(s->ch, &ev)) {
			if (errno != EAGAIN)
				return NULL;
			usleep(1000);
			continue;
		}
		if ((int)ev->event == type)
			return ev;
		if (type != RDMA_CM_EVENT_DISCONNECTED) {
			snprintf(s->r->stage, sizeof(s->r->stage), "%s instead",
				 rdma_event_str(ev->event));
			rdma_ack_cm_event(ev);
			errno = EPROTO;
			return NULL;
		}
		rdma_ack_cm_event(ev);
	}
	errno = ETIMEDOUT;
	return NULL;
}

/* Notes CM and async events that arrive while the stream runs. */
static void drain_events(struct stream *s)
{
	struct ibv_async_event ae;
	struct rdma_cm_event *ev;
	struct stream_report *r = s->r;

	while (!rdma_get_cm_event(s->ch, &ev)) {
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED && !s->pump_over &&
		    !r->disconnected) {
			r->disconnected = 1;
			s->disconnected_at = now_s();
		}
		rdma_ack_cm_event(ev);
	}
	while (!ibv_get_async_event(s->id->verbs, &ae)) {
		if (r->n_events < MAX_EVENTS) {
			r->events_s[r->n_events] = since_fault(r);
			r->events[r->n_events++] = ae.event_type;
		}
		ibv_ack_async_event(&ae);
	}
}

/* What the wr_id of a send says it is (receives: 0). */
enum { WR_RECV, WR_DATA, WR_PROBE, WR_FIN };

/* Every message, both ways, has arrived or completed without error. */
static int data_done(const struct stream *s)
{
	const struct stream_report *r = s->r;

	return !r->err_completions && r->sent_ok == s->o->count &&
	       r->recv_ok + r->bad_payload == s->o->count;
}

/* Receives this side still wants posted: one per message, one for the FIN. */
static int recvs_wanted(const struct stream *s)
{
	const struct stream_report *r = s->r;

	return s->o->count + 1 - (r->recv_ok + r->bad_payload + s->fin_received);
}

static int post_recv(struct stream *s, int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)slot(s, 1, i), .length = s->o->size, .lkey = s->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;

	if (ibv_post_recv(s->id->qp, &wr, &bad))
		return -1;
	s->recvs_out++;
	s->r->posted++;
	return 0;
}

static int post_send(struct stream *s)
{
	int i = s->send_posted % s->o->window, b;
	uint8_t *p = slot(s, 0, i);
	struct ibv_sge sge = {
		.addr = (uintptr_t)p, .length = s->o->size, .lkey = s->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = (uint64_t)WR_DATA << 32 | i, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	for (b = 0; b < s->o->size; b++)
		p[b] = payload_byte(s->send_posted, b);
	if (ibv_post_send(s->id->qp, &wr, &bad))
		return -1;
	s->send_posted++;
	s->sends_out++;
	s->r->posted++;
	return 0;
}

/*
 * A zero-length RDMA WRITE (no key checked, C9-88), posted while the
 * batch rule holds this side's sends back: RC learns that a peer is gone
 * only from a send awaiting its ACK, so a side with nothing to send would
 * wait for a dead peer forever.  RoCE only: on siw a probe did not make
 * the survivor of a link down learn sooner (testing.md, open item).
 */
static int post_probe(struct stream *s)
{
	struct ibv_send_wr wr = {
		.wr_id = (uint64_t)WR_PROBE << 32, .opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	if (ibv_post_send(s->id->qp, &wr, &bad))
		return -1;
	s->sends_out++;
	s->r->posted++;
	return 0;
}

/* The zero-length SEND that says "all my sends have completed". */
static int post_fin(struct stream *s)
{
	struct ibv_send_wr wr = {
		.wr_id = (uint64_t)WR_FIN << 32, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	if (ibv_post_send(s->id->qp, &wr, &bad))
		return -1;
	s->fin_posted = 1;
	s->sends_out++;
	s->r->posted++;
	return 0;
}

static int payload_ok(struct stream *s, const uint8_t *p, uint32_t len)
{
	int i;

	if (len != (uint32_t)s->o->size)
		return 0;
	for (i = 0; i < s->o->size; i++)
		if (p[i] != payload_byte(s->r->recv_ok, i))
			return 0;
	return 1;
}

static void completed(struct stream *s, const struct ibv_wc *wc)
{
	struct stream_report *r = s->r;
	int is_send = wc->wr_id >> 32;

	r->completed++;
	if (is_send)
		s->sends_out--;
	else
		s->recvs_out--;
	/*
	 * A probe or FIN the peer flushed by leaving once both directions
	 * were done (it had this side's FIN: only the ACK was lost).
	 */
	if (wc->status != IBV_WC_SUCCESS && (is_send == WR_PROBE || is_send == WR_FIN) &&
	    data_done(s))
		return;
	if (wc->status != IBV_WC_SUCCESS) {
		if (!r->err_completions++) {
			r->first_err_status = wc->status;
			r->first_err_opcode = is_send ? IBV_WC_SEND : IBV_WC_RECV;
			r->first_err_s = since_fault(r);
		}
		return;
	}
	if (is_send) {
		r->sent_ok += is_send == WR_DATA;
		return;
	}
	if (!wc->byte_len) {
		s->fin_received = 1;
		return;
	}
	if (payload_ok(s, slot(s, 1, (uint32_t)wc->wr_id), wc->byte_len))
		r->recv_ok++;
	else
		r->bad_payload++;
	/* Not into a QP that failed: siw (user rings) would never flush it. */
	if (!r->err_completions && s->recvs_out < recvs_wanted(s))
		post_recv(s, (uint32_t)wc->wr_id);
}

/*
 * Flow control in batches of `window` messages: batch k leaves only once
 * the peer's batch k-1 has been received (and its receives reposted), so
 * at most two batches, the receive queue's depth, are ever on their way
 * to a side.  iWARP has no RNR retry (a SEND finding no receive is fatal
 * to the QP), and on RoCE it saves the RNR NAK's wait.
 */
static int may_send(const struct stream *s)
{
	int batch = s->send_posted / s->o->window;

	return s->r->recv_ok + s->r->bad_payload >= batch * s->o->window;
}

/* Sends and receives until both directions are done, or, after an error,
 * until every posted work request has completed. */
static void pump(struct stream *s)
{
	const struct stream_opts *o = s->o;
	struct stream_report *r = s->r;
	double start = now_s(), end = start + o->limit_s;
	struct ibv_wc wc[16];
	int n, i;

	while (now_s() < end) {
		while (!r->err_completions && s->send_posted < o->count &&
		       s->sends_out < o->window && may_send(s) && !post_send(s))
			;
		if (data_done(s) && !s->fin_posted)
			post_fin(s);
		if (!r->err_completions && !s->sends_out && r->transport == IBV_TRANSPORT_IB &&
		    !(data_done(s) && s->fin_received))
			post_probe(s);
		n = ibv_poll_cq(s->cq, 16, wc);
		for (i = 0; i < n; i++)
			completed(s, &wc[i]);
		drain_events(s);
		/* a probe still out is waited for too, and the FIN's ACK */
		if (data_done(s) && s->fin_posted && s->fin_received && !s->sends_out)
			break;
		if (r->err_completions && !s->sends_out && !s->recvs_out)
			break;
		/*
		 * What an application does when the peer has gone: flush what
		 * is left, once the completions already on their way (ACKs that
		 * left before the peer's DREQ) had a second to arrive.
		 */
		if (r->disconnected && !s->disconnecting && now_s() > s->disconnected_at + 1) {
			rdma_disconnect(s->id);
			s->disconnecting = 1;
		}
		/* siw never completes what was posted into a failed QP. */
		if (s->disconnecting && now_s() > s->disconnected_at + 4)
			break;
		if (n <= 0)
			usleep(200);
	}
	r->run_s = now_s() - start;
	s->pump_over = 1;
}

/*
 * rdma_cm leaves the RNR NAK's timer at its default (0: 655 ms), which
 * turns a receiver a little late with its reposting into a stall; RC
 * allows changing it in RTS.  iWARP has no RNR: nothing to do there.
 */
static void short_rnr_wait(struct stream *s)
{
	struct ibv_qp_attr a = { .min_rnr_timer = 1 };	/* 0.01 ms */

	if (s->r->transport == IBV_TRANSPORT_IB)
		ibv_modify_qp(s->id->qp, &a, IBV_QP_MIN_RNR_TIMER);
}

static int setup(struct stream *s)
{
	const struct stream_opts *o = s->o;
	struct rdma_conn_param cp = {
		.retry_count = o->retry_count, .rnr_retry_count = 7,
	};
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = o->window, .max_recv_wr = 2 * o->window,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct rdma_cm_event *ev;
	struct addrinfo *ai;
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(o->port) };
	uint8_t timeout = o->ack_timeout;
	int i;

	s->ch = rdma_create_event_channel();
	if (!s->ch || fcntl(s->ch->fd, F_SETFL, O_NONBLOCK))
		return fail(s, "event channel");
	if (rdma_create_id(s->ch, o->server ? &s->listen_id : &s->id, NULL, RDMA_PS_TCP))
		return fail(s, "create id");
	if (s->o->server) {
		if (rdma_bind_addr(s->listen_id, (struct sockaddr *)&sin) ||
		    rdma_listen(s->listen_id, 1))
			return fail(s, "listen");
		ev = cm_wait(s, RDMA_CM_EVENT_CONNECT_REQUEST, o->limit_s);
		if (!ev)
			return fail(s, "connect request");
		s->id = ev->id;
		rdma_ack_cm_event(ev);
	} else {
		if (getaddrinfo(o->peer, NULL, NULL, &ai))
			return fail(s, "peer address");
		((struct sockaddr_in *)ai->ai_addr)->sin_port = htons(o->port);
		i = rdma_resolve_addr(s->id, NULL, ai->ai_addr, 2000);
		freeaddrinfo(ai);
		if (i || !(ev = cm_wait(s, RDMA_CM_EVENT_ADDR_RESOLVED, 5)))
			return fail(s, "resolve address");
		rdma_ack_cm_event(ev);
		if (rdma_resolve_route(s->id, 2000) ||
		    !(ev = cm_wait(s, RDMA_CM_EVENT_ROUTE_RESOLVED, 5)))
			return fail(s, "resolve route");
		rdma_ack_cm_event(ev);
	}
	s->r->transport = s->id->verbs->device->transport_type;
	s->pd = ibv_alloc_pd(s->id->verbs);
	s->cq = s->pd ? ibv_create_cq(s->id->verbs, 3 * o->window, NULL, NULL, 0) : NULL;
	s->buf = calloc(3 * o->window, o->size);
	s->mr = s->cq && s->buf ? ibv_reg_mr(s->pd, s->buf, 3 * o->window * (size_t)o->size,
					     IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!s->mr)
		return fail(s, "pd, cq, mr");
	qa.send_cq = qa.recv_cq = s->cq;
	if (rdma_create_qp(s->id, s->pd, &qa))
		return fail(s, "create qp");
	/* iWARP has no ACK timeout of its own (TCP retransmits): EINVAL there. */
	rdma_set_option(s->id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
			&timeout, sizeof(timeout));
	for (i = 0; i < 2 * o->window && i < recvs_wanted(s); i++)
		if (post_recv(s, i))
			return fail(s, "post receive");
	if (s->o->server ? rdma_accept(s->id, &cp) : rdma_connect(s->id, &cp))
		return fail(s, "accept/connect");
	ev = cm_wait(s, RDMA_CM_EVENT_ESTABLISHED, o->limit_s);
	if (!ev)
		return fail(s, "established");
	rdma_ack_cm_event(ev);
	short_rnr_wait(s);
	if (fcntl(s->id->verbs->async_fd, F_SETFL, O_NONBLOCK))
		return fail(s, "async fd");
	s->r->connected = 1;
	return 0;
}

static void note_teardown(struct stream *s, int ret)
{
	if (ret && !s->r->teardown_errno)
		s->r->teardown_errno = ret > 0 ? ret : errno;
}

static void teardown(struct stream *s)
{
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	struct rdma_cm_event *ev;

	if (s->id && s->id->qp && !ibv_query_qp(s->id->qp, &attr, IBV_QP_STATE, &init))
		s->r->qp_state = attr.qp_state;
	/* Until the fault is over (a port coming back), events still count. */
	while (s->r->connected && s->r->fault_at && now_s() < s->r->fault_at + s->o->linger_s) {
		drain_events(s);
		usleep(10000);
	}
	if (s->r->connected) {
		if (!s->disconnecting)
			rdma_disconnect(s->id);
		s->disconnecting = 1;
		ev = s->r->disconnected ? NULL : cm_wait(s, RDMA_CM_EVENT_DISCONNECTED, 3);
		if (ev)
			rdma_ack_cm_event(ev);
		/* Events the fault raised late (a port coming back). */
		drain_events(s);
	}
	if (s->id && s->id->qp)
		rdma_destroy_qp(s->id);
	if (s->mr)
		note_teardown(s, ibv_dereg_mr(s->mr));
	if (s->cq)
		note_teardown(s, ibv_destroy_cq(s->cq));
	if (s->pd)
		note_teardown(s, ibv_dealloc_pd(s->pd));
	if (s->id)
		note_teardown(s, rdma_destroy_id(s->id));
	if (s->listen_id)
		note_teardown(s, rdma_destroy_id(s->listen_id));
	if (s->ch)
		rdma_destroy_event_channel(s->ch);
	free(s->buf);
}

int stream_run(const struct stream_opts *o, struct stream_report *r)
{
	struct stream s = { .o = o, .r = r };
	int ret;

	r->first_err_status = -1;
	r->qp_state = -1;
	ret = setup(&s);
	if (!ret)
		pump(&s);
	teardown(&s);
	return ret;
}
