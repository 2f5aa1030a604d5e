// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Dynamic dma-buf import, as mlx5 does it, on the test HCA: a dma-buf MR
 * registered with OVBTEST_DMABUF_MR_DYNAMIC imports through
 * ib_umem_dmabuf_get() with a move_notify, which ib_uverbs exports (ours:
 * kernel/umem_dmabuf.c).  The exporter (ovbtest_dmabuf.ko) moves a buffer
 * on request (OVBTEST_METHOD_DEVICE_DMABUF_MOVE): move_notify under the
 * reservation lock, new pages, contents copied, CPU mappings zapped.  The
 * importer's move_notify drops its mapping (ib_umem_dmabuf_unmap_pages)
 * and the next COPY maps the buffer again (ib_umem_dmabuf_map_pages)
 * under the lock.  Checked: the notify and the remap happen (ovbtest's
 * counters), the data moved with the buffer and the HCA's next DMA sees
 * the new pages, a mapped pinned import keeps the buffer in place
 * (EBUSY), and every mapping, pin and attachment is gone after DEREG;
 * then moves, copies and dereg/reg in three threads for a while.
 * On 6.12 also the revocable pinned import and the driver's own revoke
 * (ib_umem_dmabuf_get_pinned_revocable_and_lock, ib_umem_dmabuf_revoke;
 * on 6.1 neither exists and the tests check that ovbtest refuses them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "ovbtest_dmabuf.h"

#define PG		4096UL
#define NPAGES		8
#define BUF_LEN		(NPAGES * PG)
#define RW		IB_UVERBS_ACCESS_LOCAL_WRITE
#define EXP_MODULE	"ovbtest_dmabuf"
#define EXP_PARAM(n)	"/sys/module/" EXP_MODULE "/parameters/" n
#define RACE_SECONDS	5

/* DMABUF_MOVE: 0 or -errno; *@moves the buffer's moves so far. */
static int dmabuf_move(int fd, __s32 dfd, __u32 *moves)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE,
		     OVBTEST_METHOD_DEVICE_DMABUF_MOVE);
	ioc_in(&c, OVBTEST_ATTR_DMABUF_MOVE_FD, &dfd, sizeof(dfd));
	ioc_out(&c, OVBTEST_ATTR_DMABUF_MOVE_MOVES, moves, sizeof(*moves));
	return ioc_call(fd, &c);
}

/* REG_DMABUF_MR over the whole buffer with the driver's flags. */
static int reg_dmabuf(int fd, __u32 pd, __s32 dfd, __u32 flags)
{
	const struct ovbtest_dmabuf_mr mr = {
		.pd = pd, .length = BUF_LEN, .iova = 0x100000,
		.dmabuf_fd = dfd, .access = RW, .drv_flags = flags,
	};

	return ovbtest_reg_dmabuf_mr(fd, &mr, NULL, NULL);
}

FIXTURE(move) {
	int fd, pd, chan, umr, dfd;
	unsigned char *ubuf;	/* user memory MR */
	unsigned char *cpu;	/* the dma-buf, mapped */
	long notifies, remaps;
};

FIXTURE_SETUP(move)
{
	self->fd = -1;
	self->ubuf = MAP_FAILED;
	self->cpu = MAP_FAILED;
	HCA_SETUP_LOAD();
	ASSERT_EQ(0, ovbtest_load_module(EXP_MODULE));
	HCA_SETUP_OPEN(self->fd, &(struct ovbtest_alloc_ucontext_resp){},
		       self->pd);
	self->ubuf = mmap(NULL, BUF_LEN, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->ubuf);
	self->umr = ovbtest_reg_mr(self->fd, self->pd, self->ubuf, BUF_LEN, RW);
	ASSERT_LE(0, self->umr);
	self->chan = ovbtest_chan_create(self->fd, self->pd, 8, NULL);
	ASSERT_LE(0, self->chan);
	self->dfd = ovbtest_dmabuf_alloc(self->fd, NPAGES, -1);
	ASSERT_LE(0, self->dfd);
	self->cpu = mmap(NULL, BUF_LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
			 self->dfd, 0);
	ASSERT_NE(MAP_FAILED, self->cpu);
	self->notifies = sysfs_long(OVBTEST_PARAM("dmabuf_move_notifies"));
	self->remaps = sysfs_long(OVBTEST_PARAM("dmabuf_remaps"));
	ASSERT_LE(0, self->notifies);
	ASSERT_LE(0, self->remaps);
}

FIXTURE_TEARDOWN(move)
{
	if (self->cpu != MAP_FAILED)
		munmap(self->cpu, BUF_LEN);
	if (self->fd >= 0)
		close(self->fd);
	if (self->ubuf != MAP_FAILED)
		munmap(self->ubuf, BUF_LEN);
}

TEST_F(move, dynamic_mr_follows_the_buffer)
{
	__u32 moves = 99;
	int mr;

	mr = reg_dmabuf(self->fd, self->pd, self->dfd, OVBTEST_DMABUF_MR_DYNAMIC);
	ASSERT_LE(0, mr);
	/* mapped at registration, as mlx5: one mapping, pinned by the core
	 * (CONFIG_DMABUF_MOVE_NOTIFY is off in Debian's 6.1)
	 */
	EXPECT_EQ(1, sysfs_long(EXP_PARAM("attachments")));
	EXPECT_EQ(1, sysfs_long(EXP_PARAM("mappings")));

	/* DMA into the buffer, seen by the CPU */
	pattern_fill(self->ubuf, BUF_LEN, 1);
	ASSERT_EQ(0, ovbtest_copy(self->fd, self->chan, self->umr, 0, mr, 0,
			      BUF_LEN, NULL));
	EXPECT_EQ(-1, pattern_differs(self->cpu, BUF_LEN, 1));

	/* The move: the importer is told and lets go; contents move along. */
	ASSERT_EQ(0, dmabuf_move(self->fd, self->dfd, &moves));
	EXPECT_EQ(1, moves);
	EXPECT_EQ(self->notifies + 1, sysfs_long(OVBTEST_PARAM("dmabuf_move_notifies")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("mappings")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("pins")));
	EXPECT_EQ(-1, pattern_differs(self->cpu, BUF_LEN, 1));	/* refaulted */

	/* The CPU writes the new pages; the HCA's next DMA remaps, sees them */
	pattern_fill(self->cpu, BUF_LEN, 2);
	ASSERT_EQ(0, ovbtest_copy(self->fd, self->chan, mr, 0, self->umr, 0,
			      BUF_LEN, NULL));
	EXPECT_EQ(self->remaps + 1, sysfs_long(OVBTEST_PARAM("dmabuf_remaps")));
	EXPECT_EQ(1, sysfs_long(EXP_PARAM("mappings")));
	EXPECT_EQ(-1, pattern_differs(self->ubuf, BUF_LEN, 2));

	/* and writes into them */
	pattern_fill(self->ubuf, BUF_LEN, 3);
	ASSERT_EQ(0, ovbtest_copy(self->fd, self->chan, self->umr, 0, mr, 0,
			      BUF_LEN, NULL));
	EXPECT_EQ(-1, pattern_differs(self->cpu, BUF_LEN, 3));
	EXPECT_EQ(self->remaps + 1, sysfs_long(OVBTEST_PARAM("dmabuf_remaps")));

	/* A second move while mapped, then DEREG: nothing stays. */
	ASSERT_EQ(0, dmabuf_move(self->fd, self->dfd, &moves));
	EXPECT_EQ(2, moves);
	EXPECT_EQ(self->notifies + 2, sysfs_long(OVBTEST_PARAM("dmabuf_move_notifies")));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("attachments")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("mappings")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("pins")));
	EXPECT_EQ(-1, pattern_differs(self->cpu, BUF_LEN, 3));
}

/* A pinned import (efa's way) keeps the buffer where it is. */
TEST_F(move, pinned_mr_keeps_the_buffer)
{
	__u32 moves = 99;
	int mr;

	mr = reg_dmabuf(self->fd, self->pd, self->dfd, 0);
	ASSERT_LE(0, mr);
	/* dma_buf_pin(), and the mapping's own pin without MOVE_NOTIFY */
	EXPECT_LE(1, sysfs_long(EXP_PARAM("pins")));
	EXPECT_EQ(-EBUSY, dmabuf_move(self->fd, self->dfd, &moves));
	EXPECT_EQ(0, moves);
	EXPECT_EQ(self->notifies, sysfs_long(OVBTEST_PARAM("dmabuf_move_notifies")));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("pins")));
	/* with no importer left it moves */
	EXPECT_EQ(0, dmabuf_move(self->fd, self->dfd, &moves));
	EXPECT_EQ(1, moves);
	/* unknown driver flags (1 << 1 is REVOCABLE on 6.12), two at once */
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, self->dfd, 1 << 2));
	EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, self->dfd,
				      OVBTEST_DMABUF_MR_DYNAMIC |
				      OVBTEST_DMABUF_MR_REVOCABLE));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("attachments")));
}

/* MR_DMABUF_REVOKE: 0 or -errno. */
static int mr_revoke(int fd, __u32 mr)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, OVBTEST_METHOD_MR_DMABUF_REVOKE);
	ioc_obj(&c, OVBTEST_ATTR_MR_REVOKE_HANDLE, mr);
	return ioc_call(fd, &c);
}

/*
 * A revocable pinned import (6.12's ib_umem_dmabuf_get_pinned_revocable_and_lock
 * with ib_umem_dmabuf_set_revoke_locked): the exporter's move revokes it
 * instead of failing on its pin; the driver is told once; the MR stays
 * until DEREG but its DMA ends (EIO).
 */
TEST_F(move, revocable_mr_is_revoked_by_a_move)
{
	long revokes = sysfs_long(OVBTEST_PARAM("dmabuf_revokes"));
	__u32 moves = 99;
	int mr;

	mr = reg_dmabuf(self->fd, self->pd, self->dfd,
			OVBTEST_DMABUF_MR_REVOCABLE);
	if (!ovbtest_k612()) {
		/* 6.1 has no revocable import: ovbtest knows no such flag */
		EXPECT_EQ(-EINVAL, mr);
		return;
	}
	ASSERT_LE(0, mr);
	/* dma_buf_pin(), and the mapping's own pin without MOVE_NOTIFY */
	EXPECT_LE(1, sysfs_long(EXP_PARAM("pins")));
	pattern_fill(self->ubuf, BUF_LEN, 5);
	ASSERT_EQ(0, ovbtest_copy(self->fd, self->chan, self->umr, 0, mr, 0,
				  BUF_LEN, NULL));
	EXPECT_EQ(-1, pattern_differs(self->cpu, BUF_LEN, 5));

	/* the move revokes: pin and mapping go, the driver's callback runs */
	ASSERT_EQ(0, dmabuf_move(self->fd, self->dfd, &moves));
	EXPECT_EQ(1, moves);
	EXPECT_EQ(revokes + 1, sysfs_long(OVBTEST_PARAM("dmabuf_revokes")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("pins")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("mappings")));
	EXPECT_EQ(-1, pattern_differs(self->cpu, BUF_LEN, 5));

	/* no more DMA, either way, and no second revoke */
	EXPECT_EQ(-EIO, ovbtest_copy(self->fd, self->chan, self->umr, 0, mr, 0,
				     PG, NULL));
	EXPECT_EQ(-EIO, ovbtest_copy(self->fd, self->chan, mr, 0, self->umr, 0,
				     PG, NULL));
	ASSERT_EQ(0, dmabuf_move(self->fd, self->dfd, &moves));
	EXPECT_EQ(2, moves);
	EXPECT_EQ(revokes + 1, sysfs_long(OVBTEST_PARAM("dmabuf_revokes")));

	/* the MR still has its handle; DEREG detaches without a callback */
	EXPECT_EQ(1, sysfs_long(EXP_PARAM("attachments")));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	EXPECT_EQ(revokes + 1, sysfs_long(OVBTEST_PARAM("dmabuf_revokes")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("attachments")));

	/* a revocable MR never revoked: its callback runs at DEREG */
	mr = reg_dmabuf(self->fd, self->pd, self->dfd,
			OVBTEST_DMABUF_MR_REVOCABLE);
	ASSERT_LE(0, mr);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	EXPECT_EQ(revokes + 2, sysfs_long(OVBTEST_PARAM("dmabuf_revokes")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("pins")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("attachments")));
}

/*
 * The driver revokes a pinned MR itself (6.12's ib_umem_dmabuf_revoke, as
 * mlx5 revokes its data-direct MRs, whose pin came from
 * ib_umem_dmabuf_get_pinned_with_dma_device): pin and mapping go at once,
 * the buffer can move, the MR's DMA answers EIO until DEREG.
 */
TEST_F(move, revoke_method_ends_a_pinned_mr)
{
	long revokes = sysfs_long(OVBTEST_PARAM("dmabuf_revokes"));
	__u32 moves = 99;
	int mr, rmr, dmr;

	mr = reg_dmabuf(self->fd, self->pd, self->dfd, 0);
	ASSERT_LE(0, mr);
	if (!ovbtest_k612()) {
		/* 6.1 exports no revoke: ovbtest has no such method there */
		EXPECT_EQ(-EPROTONOSUPPORT, mr_revoke(self->fd, mr));
		EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
		return;
	}
	EXPECT_LE(1, sysfs_long(EXP_PARAM("pins")));
	EXPECT_EQ(-EBUSY, dmabuf_move(self->fd, self->dfd, &moves));
	pattern_fill(self->ubuf, BUF_LEN, 6);
	ASSERT_EQ(0, ovbtest_copy(self->fd, self->chan, self->umr, 0, mr, 0,
				  BUF_LEN, NULL));

	ASSERT_EQ(0, mr_revoke(self->fd, mr));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("pins")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("mappings")));
	/* a plain pinned import has no callback of the driver's */
	EXPECT_EQ(revokes, sysfs_long(OVBTEST_PARAM("dmabuf_revokes")));
	EXPECT_EQ(-EIO, ovbtest_copy(self->fd, self->chan, self->umr, 0, mr, 0,
				     PG, NULL));
	/* revoking again changes nothing */
	EXPECT_EQ(0, mr_revoke(self->fd, mr));
	EXPECT_EQ(0, dmabuf_move(self->fd, self->dfd, &moves));
	EXPECT_EQ(1, moves);
	EXPECT_EQ(-1, pattern_differs(self->cpu, BUF_LEN, 6));

	/* a revocable one through the method: its callback runs once */
	rmr = reg_dmabuf(self->fd, self->pd, self->dfd,
			 OVBTEST_DMABUF_MR_REVOCABLE);
	ASSERT_LE(0, rmr);
	EXPECT_EQ(0, mr_revoke(self->fd, rmr));
	EXPECT_EQ(revokes + 1, sysfs_long(OVBTEST_PARAM("dmabuf_revokes")));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, rmr));
	EXPECT_EQ(revokes + 1, sysfs_long(OVBTEST_PARAM("dmabuf_revokes")));

	/* not a dma-buf MR; a dynamic one; no MR at all */
	EXPECT_EQ(-EINVAL, mr_revoke(self->fd, self->umr));
	dmr = reg_dmabuf(self->fd, self->pd, self->dfd,
			 OVBTEST_DMABUF_MR_DYNAMIC);
	ASSERT_LE(0, dmr);
	EXPECT_EQ(-EOPNOTSUPP, mr_revoke(self->fd, dmr));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, dmr));
	EXPECT_EQ(-ENOENT, mr_revoke(self->fd, 0x7fff));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("attachments")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("pins")));
}

/* Moves, COPYs and DEREG/REG of the MR in three threads. */
struct race {
	int fd, pd, chan, umr, dfd;
	__u32 flags;		/* of the MRs registered */
	volatile int stop;
	volatile int mr;	/* the current handle, -1 between dereg and reg */
	long moves, copies, regs, unexpected, revoked, reg_revoked;
	int last_err;
};

static void *race_mover(void *arg)
{
	struct race *r = arg;
	__u32 m;

	while (!r->stop) {
		int ret = dmabuf_move(r->fd, r->dfd, &m);

		if (!ret)
			r->moves++;
		else if (ret != -EBUSY)
			r->unexpected++, r->last_err = ret;
	}
	return NULL;
}

static void *race_copier(void *arg)
{
	struct race *r = arg;

	while (!r->stop) {
		int mr = r->mr, ret;

		if (mr < 0)
			continue;
		ret = ovbtest_copy(r->fd, r->chan, r->umr, 0, mr, 0, BUF_LEN, NULL);
		if (!ret)
			r->copies++;
		/* a move revoked a revocable MR (6.12) */
		else if (ret == -EIO && r->flags == OVBTEST_DMABUF_MR_REVOCABLE)
			r->revoked++;
		/* the MR went meanwhile, or its dereg holds it */
		else if (ret != -ENOENT && ret != -EINVAL && ret != -EBUSY)
			r->unexpected++, r->last_err = ret;
	}
	return NULL;
}

static void *race_dereg(void *arg)
{
	struct race *r = arg;

	while (!r->stop) {
		int mr = r->mr, ret;

		if (mr >= 0) {
			ret = ovbtest_dereg_mr(r->fd, mr);
			if (ret == -EBUSY)
				continue;	/* a COPY holds it */
			if (ret) {
				r->unexpected++, r->last_err = ret;
				break;
			}
			r->mr = -1;
		}
		mr = reg_dmabuf(r->fd, r->pd, r->dfd, r->flags);
		if (mr == -EINVAL && r->flags == OVBTEST_DMABUF_MR_REVOCABLE) {
			/* 6.12: a move revoked the import before it was mapped */
			r->reg_revoked++;
			continue;
		}
		if (mr < 0) {
			r->unexpected++, r->last_err = mr;
			break;
		}
		r->mr = mr;
		r->regs++;
	}
	return NULL;
}

static void race_run(struct __test_metadata *_metadata,
		     FIXTURE_DATA(move) *self, __u32 flags)
{
	void *(*fn[])(void *) = { race_mover, race_copier, race_dereg };
	struct race r = {
		.fd = self->fd, .pd = self->pd, .chan = self->chan,
		.umr = self->umr, .dfd = self->dfd, .flags = flags,
	};
	pthread_t t[3];
	int i;

	pattern_fill(self->ubuf, BUF_LEN, 4);
	r.mr = reg_dmabuf(self->fd, self->pd, self->dfd, flags);
	ASSERT_LE(0, r.mr);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, pthread_create(&t[i], NULL, fn[i], &r));
	}
	sleep(RACE_SECONDS);
	r.stop = 1;
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	TH_LOG("%ld moves, %ld copies (%ld on a revoked MR), %ld re-registrations (%ld revoked before mapped) in %d s",
	       r.moves, r.copies, r.revoked, r.regs, r.reg_revoked,
	       RACE_SECONDS);
	EXPECT_EQ(0, r.unexpected) TH_LOG("last error %d", r.last_err);
	EXPECT_LT(0, r.moves);
	EXPECT_LT(0, r.copies);
	EXPECT_LT(0, r.regs);
	if (flags == OVBTEST_DMABUF_MR_REVOCABLE)
		EXPECT_LT(0, r.revoked);
	/* every copy wrote the same bytes: the buffer holds them still */
	if (r.copies)
		EXPECT_EQ(-1, pattern_differs(self->cpu, BUF_LEN, 4));
	if (r.mr >= 0)
		EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, r.mr));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("attachments")));
	EXPECT_EQ(0, sysfs_long(EXP_PARAM("mappings")));
	if (r.reg_revoked && raw_stack_is_intree()) {
		/*
		 * 6.12's ib_umem_dmabuf_get_pinned_and_lock: a move between
		 * the attach and the pin marks the import revoked, the map
		 * fails (EINVAL) and the release skips the unpin of a revoked
		 * import: one exporter pin leaks per such registration
		 * (testing.md, Findings)
		 */
		EXPECT_EQ(r.reg_revoked, sysfs_long(EXP_PARAM("pins")));
	} else {
		EXPECT_EQ(0, sysfs_long(EXP_PARAM("pins")));
	}
}

TEST_F(move, moves_copies_and_deregs_race)
{
	race_run(_metadata, self, OVBTEST_DMABUF_MR_DYNAMIC);
}

/*
 * The same with revocable MRs (6.12): each move revokes the MR of the
 * moment, under the reservation lock that COPY holds (ovbtest takes it
 * through ib_umem_dmabuf_revoke_lock), so a COPY either ran whole before
 * the revoke or answers EIO.
 */
TEST_F(move, revocable_moves_copies_and_deregs_race)
{
	if (!ovbtest_k612()) {
		/* 6.1: no revocable import (see revocable_mr_is_revoked_by_a_move) */
		EXPECT_EQ(-EINVAL, reg_dmabuf(self->fd, self->pd, self->dfd,
					      OVBTEST_DMABUF_MR_REVOCABLE));
		return;
	}
	race_run(_metadata, self, OVBTEST_DMABUF_MR_REVOCABLE);
}

/* Last: the stack is left as found (rdma_core_programs unloads ib_uverbs). */
FIXTURE(unload) {
};

FIXTURE_SETUP(unload)
{
}

FIXTURE_TEARDOWN(unload)
{
}

TEST_F(unload, modules_unload)
{
	if (!ovbtest_loaded())
		SKIP(return, "ovbtest not loaded");
	ASSERT_EQ(0, ovbtest_unload());
	EXPECT_FALSE(ovbtest_loaded());
	ASSERT_EQ(0, syscall(SYS_delete_module, EXP_MODULE, O_NONBLOCK));
	EXPECT_NE(0, access("/sys/module/" EXP_MODULE, F_OK));
}

TEST_HARNESS_MAIN
