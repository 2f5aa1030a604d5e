/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the C client and C server of the rdma_ops protocol share: exit on
 * a failed call, the one connection-manager event due next, one completion
 * awaited on a completion channel, a result line.  A message names the
 * program (program_invocation_short_name).
 */
#ifndef OVB_RDMA_OPS_C_H
#define OVB_RDMA_OPS_C_H

#include <errno.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>

static inline void die(const char *what)
{
	perror(what);
	exit(1);
}

/* The next event of ch, which must be a successful one of type. */
static inline struct rdma_cm_event *expect(struct rdma_event_channel *ch,
					   enum rdma_cm_event_type type)
{
	struct rdma_cm_event *ev;

	if (rdma_get_cm_event(ch, &ev))
		die("rdma_get_cm_event");
	if (ev->event != type || ev->status) {
		fprintf(stderr, "%s: %s (status %d) where %s was due\n",
			program_invocation_short_name, rdma_event_str(ev->event),
			ev->status, rdma_event_str(type));
		exit(1);
	}
	return ev;
}

/* One completion, sleeping on the channel when the CQ is empty. */
static inline void await(struct ibv_cq *cq, struct ibv_comp_channel *cch, struct ibv_wc *wc)
{
	for (;;) {
		int n = ibv_poll_cq(cq, 1, wc);
		struct ibv_cq *ev_cq;
		void *ev_ctx;

		if (n == 0) {
			if (ibv_req_notify_cq(cq, 0))
				die("ibv_req_notify_cq");
			n = ibv_poll_cq(cq, 1, wc);
		}
		if (n < 0)
			die("ibv_poll_cq");
		if (n > 0)
			return;
		if (ibv_get_cq_event(cch, &ev_cq, &ev_ctx))
			die("ibv_get_cq_event");
		ibv_ack_cq_events(ev_cq, 1);
	}
}

static inline int report(int ok, const char *what)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	return ok;
}

#endif
