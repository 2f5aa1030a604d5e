// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel objects of every RDMA device as iproute2's `rdma res show`
 * counts them (the restrack ib_core keeps for each PD, CQ, QP, CM ID, MR
 * and context), one line per device: what a process leaves behind.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "faults.h"

int res_snapshot(char *buf, int len)
{
	char line[256];
	FILE *f;
	int used = 0;

	f = popen("rdma res show 2>&1", "r");
	if (!f)
		return -1;
	buf[0] = 0;
	while (fgets(line, sizeof(line), f) && used < len - 1)
		used += snprintf(buf + used, len - used, "%s", line);
	return pclose(f) ? -1 : 0;
}
