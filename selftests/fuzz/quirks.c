// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Upstream bugs of the in-tree 6.1 stack that the fuzzer finds and our
 * module fixes.  On the in-tree stack (the reference the suite must also
 * pass on) the fuzzer steers around them, so its run measures everything
 * else; on ours they stay in the stream.  Each entry names the selftest
 * that pins the fix down.
 */
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

/*
 * One GID attached under two LIDs leaves the QP's usecnt one too high on
 * rxe: undestroyable QP, WARN at close, oops in `rdma res show`
 * (uverbs_qp: multicast_one_gid_two_lids).  Steer: every LID is 0.
 */
static void same_lid_always(struct fz_msg *m)
{
	if (m->req_len >= offsetof(struct ib_uverbs_attach_mcast, reserved))
		memset(m->req + offsetof(struct ib_uverbs_attach_mcast, mlid),
		       0, 2);
}

static const struct {
	uint32_t command;
	void (*steer)(struct fz_msg *m);
} quirks[] = {
	{ IB_USER_VERBS_CMD_ATTACH_MCAST, same_lid_always },
};

int fz_stack_is_intree(void)
{
	/* Ours has a MODULE_VERSION; the distro's ib_uverbs has none. */
	return access("/sys/module/ib_uverbs/version", F_OK) != 0;
}

void fz_steer_intree(struct fz_msg *m)
{
	size_t i;

	for (i = 0; i < sizeof(quirks) / sizeof(quirks[0]); i++)
		if (m->command == quirks[i].command && !m->ex)
			quirks[i].steer(m);
}
