// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * node_faults: run on both guests of qemu/nodes (node A serves, node B
 * connects; qemu/node-faults-guest drives the cases).  The stream runs in
 * a child; this process, the supervisor, injects the fault on cue (once
 * the stream has received --fault-after messages) when the fault is this
 * node's, then judges what the stream saw against what the stack is
 * expected to do (the table below, measured on the in-tree stack), and
 * checks that the device's kernel objects went back to what they were.
 * TAP 13 on stdout, one result line "node_faults: ..." for the matrix.
 *
 *   node_faults --case=stream|kill|linkdown --fault-node=A|B [--peer=IP]
 *               [--port=N] [--count=N] [--size=N] [--window=N]
 *               [--fault-after=N] [--hold=S] [--netdev=eth0] [--label=T]
 *               [--retry=N] [--ack-timeout=N] [--limit=S]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "faults.h"

enum fault { FAULT_NONE, FAULT_KILL, FAULT_LINKDOWN };
enum outcome { COMPLETES, ERRORS, KILLED };

/*
 * What each side sees, per fault and transport: "local" is the node the
 * fault happens on, "remote" the other.  Error statuses: the first error
 * completion's (any of the mask).  Events: the async events in order.
 * since: the first kernel (major * 100 + minor) a row holds for; of the
 * rows that match, the one with the latest since the kernel has counts.
 */
struct expect {
	enum fault fault;
	int local;
	int transport;
	int since;
	enum outcome outcome;
	unsigned int first_err;		/* mask of 1 << IBV_WC_* */
	int disconnected;		/* RDMA_CM_EVENT_DISCONNECTED seen (-1: either) */
	const char *events;
};

#define ST(s) (1u << IBV_WC_##s)
#define IB IBV_TRANSPORT_IB
#define IW IBV_TRANSPORT_IWARP
static const struct expect expectations[] = {
	{ FAULT_NONE,     0, IB, 0, COMPLETES, 0, 0, "" },
	{ FAULT_NONE,     0, IW, 0, COMPLETES, 0, 0, "" },
	{ FAULT_KILL,     1, IB, 0, KILLED,    0, 0, NULL },
	{ FAULT_KILL,     1, IW, 0, KILLED,    0, 0, NULL },
	{ FAULT_KILL,     0, IB, 0, ERRORS,    ST(WR_FLUSH_ERR) | ST(RETRY_EXC_ERR), 1, "" },
	/*
	 * siw, the peer's connection reset: either the receive path sees it
	 * first (flush, SQ_DRAINED after rdma_disconnect's SQD) or a send
	 * does (LOC_QP_OP_ERR and QP_FATAL; SIGPIPE, ignored here, is sent
	 * to the process that posted it): any of these, in any order.
	 */
	{ FAULT_KILL,     0, IW, 0, ERRORS,    ST(WR_FLUSH_ERR) | ST(LOC_QP_OP_ERR), 1,
	  "~QP_FATAL SQ_DRAINED" },
	/*
	 * rxe on the node whose link is down: a send the netdev refuses is
	 * rolled back and retried without using the retry budget, so the QP
	 * may stay in RTS until the peer's DREQ after the link is back (a
	 * flush), unless a send finds the route gone first (LOC_QP_OP_ERR).
	 */
	{ FAULT_LINKDOWN, 1, IB, 0, ERRORS,    ST(LOC_QP_OP_ERR) | ST(WR_FLUSH_ERR), -1,
	  "PORT_ERR PORT_ACTIVE" },
	{ FAULT_LINKDOWN, 0, IB, 0, ERRORS,    ST(RETRY_EXC_ERR), 0, "" },
	/*
	 * siw 6.1 drops every connection of a netdev going down (its TCP
	 * socket would have survived): that side flushes at once, the other
	 * when the link is back and the closed connection reaches it.
	 */
	{ FAULT_LINKDOWN, 1, IW, 0, ERRORS,    ST(WR_FLUSH_ERR), 1,
	  "PORT_ERR PORT_ACTIVE ~SQ_DRAINED" },
	{ FAULT_LINKDOWN, 0, IW, 0, ERRORS,    ST(WR_FLUSH_ERR), 1, "~SQ_DRAINED" },
	/*
	 * siw 6.12 keeps its connections over a link down (6.1 dropped
	 * them on NETDEV_GOING_DOWN, 6.12 has no such case): TCP
	 * retransmits once the link is back, the stream completes.
	 */
	{ FAULT_LINKDOWN, 1, IW, 612, COMPLETES, 0, 0, "PORT_ERR PORT_ACTIVE" },
	{ FAULT_LINKDOWN, 0, IW, 612, COMPLETES, 0, 0, "" },
};

static const char *const fault_names[] = {
	[FAULT_NONE] = "stream", [FAULT_KILL] = "kill", [FAULT_LINKDOWN] = "linkdown",
};

static struct {
	struct stream_opts o;
	enum fault fault;
	int local;		/* the fault happens on this node */
	int fault_after;
	int hold_s;
	const char *netdev;
	const char *label;
	int recv_at_down;	/* messages received when the link went down, -1: never */
} cfg = {
	.o = { .port = 18600, .count = 2000, .size = 4096, .window = 16,
	       .ack_timeout = 14, .retry_count = 7, .limit_s = 60 },
	.fault_after = 200, .hold_s = 5, .netdev = "eth0", .label = "",
	.recv_at_down = -1,
};

static int tests, failures;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failures += !ok;
}

/*
 * Sets @netdev's IFF_UP as `ip link set DEV up|down` does, in this
 * process: forking `ip` under TCG on a busy host took longer than the
 * rest of the stream (6.12 CI: the link went down after the last message).
 */
static int link_set(int up)
{
	struct ifreq ifr = { 0 };
	int fd, ret;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", cfg.netdev);
	ret = ioctl(fd, SIOCGIFFLAGS, &ifr);
	if (!ret) {
		ifr.ifr_flags = up ? ifr.ifr_flags | IFF_UP : ifr.ifr_flags & ~IFF_UP;
		ret = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	if (ret)
		printf("# %s %s: %s\n", cfg.netdev, up ? "up" : "down", strerror(errno));
	close(fd);
	return ret;
}

static const char *event_name(int e)
{
	/* ibv_event_type_str() without its "IBV_EVENT_"-less spaces. */
	static const char *const names[] = {
		[IBV_EVENT_QP_FATAL] = "QP_FATAL", [IBV_EVENT_QP_REQ_ERR] = "QP_REQ_ERR",
		[IBV_EVENT_QP_ACCESS_ERR] = "QP_ACCESS_ERR", [IBV_EVENT_COMM_EST] = "COMM_EST",
		[IBV_EVENT_SQ_DRAINED] = "SQ_DRAINED", [IBV_EVENT_PORT_ACTIVE] = "PORT_ACTIVE",
		[IBV_EVENT_PORT_ERR] = "PORT_ERR", [IBV_EVENT_LID_CHANGE] = "LID_CHANGE",
		[IBV_EVENT_GID_CHANGE] = "GID_CHANGE", [IBV_EVENT_CQ_ERR] = "CQ_ERR",
		[IBV_EVENT_QP_LAST_WQE_REACHED] = "QP_LAST_WQE_REACHED",
	};

	if (e >= 0 && e < (int)(sizeof(names) / sizeof(names[0])) && names[e])
		return names[e];
	return "OTHER";
}

static void event_list(const struct stream_report *r, char *buf, int len)
{
	int i, used = 0;

	buf[0] = 0;
	for (i = 0; i < r->n_events && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? " " : "",
				 event_name(r->events[i]));
}

/*
 * @want: the events required, in order, then optionally "~" and events
 * that may come as well, anywhere: "PORT_ERR PORT_ACTIVE ~SQ_DRAINED".
 * An event repeated at once counts once: 6.12's rxe reports PORT_ACTIVE
 * twice when the link comes back, on either ib_uverbs (6.1's once).
 */
static int events_match(const struct stream_report *r, const char *want)
{
	const char *extra = strchr(want, '~'), *last = "";
	char got[160] = "";
	int i, used = 0, len = extra ? extra - want : (int)strlen(want);

	for (i = 0; i < r->n_events; i++) {
		const char *name = event_name(r->events[i]);

		if ((extra && strstr(extra, name)) || !strcmp(name, last))
			continue;
		last = name;
		used += snprintf(got + used, sizeof(got) - used, "%s%s ", "", name);
	}
	while (len && want[len - 1] == ' ')
		len--;
	if (used)
		got[used - 1] = 0;
	return (int)strlen(got) == len && !strncmp(got, want, len);
}

/* The running kernel as major * 100 + minor (612 for 6.12.x), 0 unknown. */
static int kernel_series(void)
{
	struct utsname u;
	int major, minor;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 100 + minor;
}

static const struct expect *expected(int transport)
{
	const struct expect *best = NULL, *e;
	int kernel = kernel_series();
	unsigned int i;

	for (i = 0; i < sizeof(expectations) / sizeof(expectations[0]); i++) {
		e = &expectations[i];
		if (e->fault != cfg.fault ||
		    e->local != (cfg.fault != FAULT_NONE && cfg.local) ||
		    e->transport != transport || e->since > kernel)
			continue;
		if (!best || e->since > best->since)
			best = e;
	}
	return best;
}

/* Runs the stream in a child and injects the fault on cue. */
static int supervise(struct stream_report *r, int *wstatus)
{
	double fault_at = 0, limit = now_s() + cfg.o.limit_s + 30;
	/*
	 * The node without the fault only marks the moment its report's
	 * times count from; when the fault comes it may lag the other node by
	 * up to two batches of the flow control (seen on 6.12: 193 received
	 * when the killed node had 201).
	 */
	int cue = cfg.local ? cfg.fault_after : cfg.fault_after - 2 * cfg.o.window;
	int down = 0;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		_exit(stream_run(&cfg.o, r) ? 2 : 0);
	while (waitpid(pid, wstatus, WNOHANG) == 0) {
		if (!fault_at && cfg.fault != FAULT_NONE && r->recv_ok >= cue) {
			fault_at = now_s();
			r->fault_at = fault_at;
			if (cfg.local && cfg.fault == FAULT_KILL)
				kill(pid, SIGKILL);
			if (cfg.local && cfg.fault == FAULT_LINKDOWN) {
				down = !link_set(0);
				if (down)
					cfg.recv_at_down = r->recv_ok;
			}
		}
		if (down && now_s() - fault_at >= cfg.hold_s)
			down = link_set(1) != 0;
		if (now_s() > limit) {
			kill(pid, SIGKILL);
			printf("# the stream did not end within %d s: killed\n", cfg.o.limit_s + 30);
		}
		usleep(2000);
	}
	if (down)
		link_set(1);
	return 0;
}

/* Waits until the device's objects are back to @before (at most 10 s). */
static int objects_back(const char *before, char *after, int len)
{
	double end = now_s() + 10;

	do {
		if (!res_snapshot(after, len) && !strcmp(before, after))
			return 1;
		usleep(100000);
	} while (now_s() < end);
	return 0;
}

static void judge(const struct stream_report *r, int wstatus, const char *before)
{
	const struct expect *e = expected(r->transport);
	char events[160], after[1024];
	double mb_s = r->run_s > 0 ? (double)r->sent_ok * cfg.o.size / r->run_s / 1e6 : 0;
	int killed = WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL;

	event_list(r, events, sizeof(events));
	printf("# %s, %s node: connected %d, sent %d/%d, received %d/%d, bad payload %d,"
	       " %d error completions, first %s (%s, %.2f s after the fault), posted %d,"
	       " completed %d, QP state %d, disconnected %d, events [%s], %.1f MB/s each way,"
	       " teardown errno %d%s%s\n",
	       fault_names[cfg.fault], cfg.local ? "fault" : "other", r->connected, r->sent_ok,
	       cfg.o.count, r->recv_ok, cfg.o.count, r->bad_payload, r->err_completions,
	       r->first_err_status < 0 ? "none" : ibv_wc_status_str(r->first_err_status),
	       r->first_err_opcode == IBV_WC_SEND ? "send" : "recv", r->first_err_s,
	       r->posted, r->completed, r->qp_state, r->disconnected, events, mb_s,
	       r->teardown_errno, r->stage[0] ? ", setup failed at " : "", r->stage);
	printf("node_faults: %s%s%s node=%s transport=%s outcome=%s first_err=%s events=[%s]"
	       " disconnected=%d MB/s=%.1f run_s=%.2f\n", fault_names[cfg.fault],
	       cfg.label[0] ? ":" : "", cfg.label, cfg.local ? "fault" : "other",
	       r->transport == IW ? "iwarp" : "ib",
	       killed ? "killed" : r->err_completions ? "errors" : "completes",
	       r->first_err_status < 0 ? "none" : ibv_wc_status_str(r->first_err_status),
	       events, r->disconnected, mb_s, r->run_s);

	check(r->connected, "the stream connected (%s)", r->stage[0] ? r->stage : "rdma_cm");
	check(e != NULL, "an expectation exists for this case on transport %d", r->transport);
	if (!e || !r->connected)
		goto objects;
	if (e->outcome == KILLED) {
		check(killed, "the stream was killed by SIGKILL mid-transfer (status %#x)", wstatus);
		check(r->recv_ok < cfg.o.count, "it was mid-transfer (%d of %d received)",
		      r->recv_ok, cfg.o.count);
		goto objects;
	}
	if (cfg.fault != FAULT_NONE)
		check(r->fault_at != 0, "the fault came mid-transfer (after %d messages received)",
		      cfg.fault_after);
	if (cfg.local && cfg.fault == FAULT_LINKDOWN)
		check(cfg.recv_at_down >= 0 && cfg.recv_at_down < cfg.o.count,
		      "the link went down with the stream running (%d of %d received)",
		      cfg.recv_at_down, cfg.o.count);
	check(WIFEXITED(wstatus) && !WEXITSTATUS(wstatus), "the stream exited 0 (status %#x)",
	      wstatus);
	check(!r->bad_payload, "every message received was the one sent (%d bad)",
	      r->bad_payload);
	/*
	 * siw (6.1, user QPs): work requests posted after the connection
	 * broke but before the first error completion are never completed
	 * nor flushed; the stream stops waiting 3 s after its disconnect.
	 */
	if (r->transport == IW && e->outcome == ERRORS)
		check(r->completed <= r->posted, "no work request completed twice (%d of %d"
		      " completed; siw leaves %d posted into the failed QP)", r->completed,
		      r->posted, r->posted - r->completed);
	else
		check(r->posted == r->completed,
		      "every posted work request completed once (%d of %d)", r->completed,
		      r->posted);
	if (e->outcome == COMPLETES) {
		check(!r->err_completions && r->sent_ok == cfg.o.count &&
		      r->recv_ok == cfg.o.count, "all %d messages each way, no error (%d errors)",
		      cfg.o.count, r->err_completions);
	} else {
		check(r->err_completions && r->first_err_status >= 0 &&
		      (e->first_err & (1u << r->first_err_status)),
		      "the transfer ended in error completions, first %s",
		      r->first_err_status < 0 ? "none" : ibv_wc_status_str(r->first_err_status));
		/* siw's query_qp leaves the state out (0, RESET, always). */
		if (r->transport != IW)
			check(r->qp_state == IBV_QPS_ERR, "the QP is in the error state (%d)",
			      r->qp_state);
		if (e->disconnected >= 0)
			check(r->disconnected == e->disconnected, "RDMA_CM_EVENT_DISCONNECTED %s",
			      e->disconnected ? "arrived" :
			      "did not arrive (the peer was unreachable)");
	}
	check(events_match(r, e->events), "async events [%s] (expected [%s])", events,
	      e->events);
	check(!r->teardown_errno, "every object was destroyed (errno %d)", r->teardown_errno);
objects:
	check(objects_back(before, after, sizeof(after)),
	      "the device's kernel objects are back to their count before the stream");
	if (strcmp(before, after))
		printf("# before:\n# %s# after:\n# %s", before, after);
}

static void usage(void)
{
	fprintf(stderr, "usage: node_faults --case=stream|kill|linkdown --fault-node=A|B"
		" [--peer=IP] [--port=N] [--count=N] [--size=N] [--window=N]"
		" [--fault-after=N] [--hold=S] [--netdev=DEV] [--label=TEXT]"
		" [--retry=N] [--ack-timeout=N] [--limit=S]\n");
	exit(2);
}

static void parse(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "case", 1, NULL, 'c' }, { "fault-node", 1, NULL, 'f' },
		{ "peer", 1, NULL, 'p' }, { "port", 1, NULL, 'P' },
		{ "count", 1, NULL, 'n' }, { "size", 1, NULL, 's' },
		{ "window", 1, NULL, 'w' }, { "fault-after", 1, NULL, 'a' },
		{ "hold", 1, NULL, 'h' }, { "netdev", 1, NULL, 'd' },
		{ "label", 1, NULL, 'l' }, { "limit", 1, NULL, 't' },
		{ "retry", 1, NULL, 'r' }, { "ack-timeout", 1, NULL, 'T' }, { },
	};
	const char *node = getenv("OVB_NODE"), *fault_node = "A";
	int c, i;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			for (i = 0; i < 3 && strcmp(optarg, fault_names[i]); i++)
				;
			if (i == 3)
				usage();
			cfg.fault = i;
			break;
		case 'f': fault_node = optarg; break;
		case 'p': cfg.o.peer = optarg; break;
		case 'P': cfg.o.port = atoi(optarg); break;
		case 'n': cfg.o.count = atoi(optarg); break;
		case 's': cfg.o.size = atoi(optarg); break;
		case 'w': cfg.o.window = atoi(optarg); break;
		case 'a': cfg.fault_after = atoi(optarg); break;
		case 'h': cfg.hold_s = atoi(optarg); break;
		case 'd': cfg.netdev = optarg; break;
		case 'l': cfg.label = optarg; break;
		case 't': cfg.o.limit_s = atoi(optarg); break;
		case 'r': cfg.o.retry_count = atoi(optarg); break;
		case 'T': cfg.o.ack_timeout = atoi(optarg); break;
		default: usage();
		}
	}
	if (!node)
		usage();
	/* A probe and the FIN may be out together (stream.c). */
	if (cfg.o.window < 2 || cfg.o.count < 1 || cfg.o.size < 1)
		usage();
	cfg.o.server = !strcmp(node, "1");
	if (!cfg.o.server && !cfg.o.peer)
		cfg.o.peer = getenv("OVB_PEER");
	if (!cfg.o.server && !cfg.o.peer)
		usage();
	cfg.local = cfg.o.server == !strcmp(fault_node, "A");
	/* Both sides stay until the link is back: its events count. */
	if (cfg.fault == FAULT_LINKDOWN)
		cfg.o.linger_s = cfg.hold_s + 2;
}

int main(int argc, char **argv)
{
	struct stream_report *r;
	char before[1024];
	int wstatus = 0;

	parse(argc, argv);
	/* siw sends a SIGPIPE to a poster whose connection was reset. */
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n# node_faults %s%s%s on node %s (%s), fault on %s node\n",
	       fault_names[cfg.fault], cfg.label[0] ? " " : "", cfg.label,
	       cfg.o.server ? "A" : "B", cfg.o.server ? "server" : "client",
	       cfg.local ? "this" : "the other");
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED || res_snapshot(before, sizeof(before))) {
		printf("Bail out! no shared memory or no `rdma res show`\n");
		return 1;
	}
	if (supervise(r, &wstatus)) {
		printf("Bail out! fork: %s\n", strerror(errno));
		return 1;
	}
	judge(r, wstatus, before);
	printf("1..%d\n", tests);
	return failures ? 1 : 0;
}
