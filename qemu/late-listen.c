// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * LD_PRELOAD shim for qemu/interop --late-listen: makes a server's second
 * rdma_listen() late, once.  perftest with -R listens twice on its port
 * (its exchange channel, then the test's connection after a handshake on
 * that channel); the process that finds the file named by
 * OVB_LATE_LISTEN at its first call removes it and sleeps
 * OVB_LATE_LISTEN_S seconds (default 3) before its second call, so the
 * client's connect request meets no listener: the race
 * qemu/interop-guest retries, made certain.  Programs that listen once
 * are not delayed, and every later process is left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct rdma_cm_id;
int rdma_listen(struct rdma_cm_id *id, int backlog);

int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	static int (*real_listen)(struct rdma_cm_id *, int);
	static int calls, late;
	const char *once = getenv("OVB_LATE_LISTEN");
	const char *secs = getenv("OVB_LATE_LISTEN_S");
	unsigned int delay = secs ? (unsigned int)atoi(secs) : 3;

	if (!real_listen)
		real_listen = (int (*)(struct rdma_cm_id *, int))dlsym(RTLD_NEXT, "rdma_listen");
	/* The process that finds the file at its first listen is the late one. */
	if (++calls == 1 && once && unlink(once) == 0)
		late = 1;
	if (calls == 2 && late) {
		fprintf(stderr, "late-listen: rdma_listen #2 waits %u s\n", delay);
		sleep(delay);
	}
	return real_listen(id, backlog);
}
