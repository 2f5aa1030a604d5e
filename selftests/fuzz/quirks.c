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

/*
 * Below every ib_uverbs, two rdma_rxe 6.1 bugs on a create whose driver
 * response cannot be written (rxe copies its queue's mmap info there
 * first: EFAULT), both harmless on the distro kernel, so the stream keeps
 * them there; a debug kernel reports them:
 * - RC QP: rxe_create_qp's cleanup del_timer_sync()s the timers
 *   rxe_qp_init_req had not set up yet: lockdep's "non-static key", which
 *   also switches lockdep off for the rest of the boot (uverbs_qp:
 *   create_rc_with_bad_response_pointer_leaves_nothing skips there);
 * - CQ: rxe_cq_from_init returns the error without freeing the queue it
 *   made (a 64-byte struct rxe_queue and its vmalloc'ed ring): kmemleak.
 * Steer: on such a kernel these creates get a response that is all
 * writable: the arena's, not at the guard page, the out words as built.
 */
static int debug_kernel_quirk(const struct fz *fz, const struct fz_msg *m)
{
	uint32_t cmd = m->command & ~IB_USER_VERBS_CMD_FLAG_EXTENDED;
	size_t at = m->ex ? offsetof(struct ib_uverbs_ex_create_qp, qp_type) :
			    offsetof(struct ib_uverbs_create_qp, qp_type);

	if (cmd == (m->ex ? IB_USER_VERBS_EX_CMD_CREATE_CQ :
			    IB_USER_VERBS_CMD_CREATE_CQ))
		return fz->kmemleak;
	return fz->lockdep &&
	       cmd == (m->ex ? IB_USER_VERBS_EX_CMD_CREATE_QP :
			       IB_USER_VERBS_CMD_CREATE_QP) &&
	       m->req_len > at && m->req[at] == 2 /* IB_QPT_RC */;
}

int fz_kernel_has_lockdep(void)
{
	return access("/proc/lockdep", F_OK) == 0;
}

int fz_kernel_has_kmemleak(void)
{
	return access("/sys/kernel/debug/kmemleak", F_OK) == 0;
}

void fz_steer_debug_kernel(struct fz *fz, struct fz_msg *m)
{
	if (!debug_kernel_quirk(fz, m))
		return;
	m->response = (uintptr_t)fz->arena.resp;
	m->resp_near_guard = 0;
	m->out_words_delta = 0;
	/*
	 * A legacy command's first 8 bytes are its response address, also
	 * when a mutation made this command of another that has none (or
	 * whose layout was the extended one): they must be this response.
	 */
	if (!m->ex)
		m->has_resp_ptr = 1;
}

/*
 * rdma_rxe 6.1's multicast groups race (rxe_mcast.c), below every
 * ib_uverbs: rxe_attach_mcast() takes a reference on a group found in the
 * device's tree, and a concurrent rxe_detach_mcg() of the group's last
 * other QP removes the group from the tree before the first one joins it;
 * the join still succeeds (ib_core counts it in qp->usecnt), but every
 * later detach looks the GID up, finds no group and fails, so the QP's
 * usecnt never drops: DESTROY_QP answers EBUSY forever, closing its file
 * WARNs (uverbs_destroy_ufile_hw: objects left), leaks the QP and its SRQ,
 * and the next `rdma res show` oopses on the freed context.  Only threads
 * or processes attaching and detaching (file closes detach too) one GID on
 * different QPs at once get there.  Our module calls drivers' attach and
 * detach one at a time (kernel/mcast.c), which keeps rxe out of the race.
 * Steer, in the concurrent mode on the in-tree stack only: no attach
 * reaches the driver (a GID that is not multicast: ib_core's EINVAL);
 * everything up to it still runs.
 */
void fz_steer_concurrent(struct fz_msg *m)
{
	static int intree = -1;

	if (intree < 0)
		intree = fz_stack_is_intree();
	if (intree && m->command == IB_USER_VERBS_CMD_ATTACH_MCAST && !m->ex &&
	    m->req_len >= 1)
		m->req[offsetof(struct ib_uverbs_attach_mcast, gid)] = 0;
}
