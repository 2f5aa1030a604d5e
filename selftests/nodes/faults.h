/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * node_faults: an RC stream between the two guests of qemu/nodes, with a
 * fault in the middle (the link goes down, the peer process dies, the
 * link loses or reorders packets), and what each side observed.
 *
 *   faults.c   options, the supervisor (forks the stream, kills it or
 *              takes the link down on cue) and the TAP verdicts
 *   stream.c   the stream itself: rdma_cm connection, sends both ways
 *              with checked payloads, every completion and event recorded
 *   res.c      the device's kernel object counts (`rdma res show`)
 */
#ifndef NODE_FAULTS_H
#define NODE_FAULTS_H

#include <stdint.h>

#define MAX_EVENTS 16

struct stream_opts {
	int server;		/* node A: listens; node B: connects */
	const char *peer;	/* the server's address (client only) */
	int port;		/* rdma_cm port */
	int count;		/* messages each way */
	int size;		/* bytes per message */
	int window;		/* sends (and receives) outstanding at most */
	int ack_timeout;	/* RC local ACK timeout exponent */
	int retry_count;	/* RC transport retries */
	int limit_s;		/* give up after this long */
	int linger_s;		/* stay open this long after the fault */
};

/*
 * What the stream saw, in memory shared with the supervisor (which reads
 * it after the stream ends, or while it runs, to pick its moment).
 */
struct stream_report {
	volatile int connected;
	volatile int sent_ok;		/* send completions with success */
	volatile int recv_ok;		/* receives with the expected payload */
	int bad_payload;		/* receives out of order or corrupted */
	int err_completions;		/* completions with an error status */
	int first_err_status;		/* enum ibv_wc_status, -1: none */
	int first_err_opcode;		/* IBV_WC_SEND / IBV_WC_RECV */
	double first_err_s;		/* seconds after the fault */
	int posted, completed;		/* work requests posted, completed */
	int qp_state;			/* ibv_query_qp after the stream */
	int disconnected;		/* the peer's RDMA_CM_EVENT_DISCONNECTED,
					 * before this side disconnected */
	int n_events;
	int events[MAX_EVENTS];		/* enum ibv_event_type, in order */
	double events_s[MAX_EVENTS];	/* seconds after the fault */
	double run_s;			/* connected to done */
	int teardown_errno;		/* first destroy call that failed */
	int transport;			/* enum ibv_transport_type */
	char stage[80];			/* where a setup failure happened */
	volatile double fault_at;	/* monotonic time of the fault, 0: none */
};

double now_s(void);
/* Runs the stream; 0 when it ran to its end (successful or not). */
int stream_run(const struct stream_opts *o, struct stream_report *r);

/* Object counts of every RDMA device, one string "dev pd N cq N ...". */
int res_snapshot(char *buf, int len);

#endif /* NODE_FAULTS_H */
