// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * LD_PRELOAD shim for qemu/interop-guest's perftest clients: perftest -R
 * connects twice (its exchange channel, then the test's connection), and
 * its server listens for the second connection only after a handshake
 * that already lets the client go on, so the client's second connect can
 * come before that listen and be rejected.  With OVB_WAIT_LISTEN=ADDR:PORT
 * set, the second rdma_resolve_addr() of the process first waits (up to
 * 60 s) until ADDR:PORT accepts a TCP connection: qemu/node-sync serve
 * --relisten opens that port once the server's second listen is there.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct rdma_cm_id;
int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      struct sockaddr *dst_addr, int timeout_ms);

static int port_open(const struct sockaddr_in *sin)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int ok;

	if (fd < 0)
		return 0;
	ok = connect(fd, (const struct sockaddr *)sin, sizeof(*sin)) == 0;
	close(fd);
	return ok;
}

static void wait_listen(const char *spec)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char addr[64];
	const char *colon = strrchr(spec, ':');
	struct timespec t0, t1;
	int i;

	if (!colon || colon - spec >= (long)sizeof(addr))
		return;
	memcpy(addr, spec, colon - spec);
	addr[colon - spec] = 0;
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		return;
	sin.sin_port = htons((unsigned short)atoi(colon + 1));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 600 && !port_open(&sin); i++)
		usleep(100000);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "wait-listen: the server's second listen after %ld ms%s\n",
		(long)((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000),
		i < 600 ? "" : " (not seen, going on)");
}

int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      struct sockaddr *dst_addr, int timeout_ms)
{
	static int (*real_resolve)(struct rdma_cm_id *, struct sockaddr *,
				   struct sockaddr *, int);
	static int calls;
	const char *spec = getenv("OVB_WAIT_LISTEN");

	if (!real_resolve)
		real_resolve = (int (*)(struct rdma_cm_id *, struct sockaddr *,
					struct sockaddr *, int))dlsym(RTLD_NEXT, "rdma_resolve_addr");
	if (++calls == 2 && spec)
		wait_listen(spec);
	return real_resolve(id, src_addr, dst_addr, timeout_ms);
}
