// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * REREG_MR on the test HCA, whose driver decides as mlx5 does
 * (selftests/ovbtest/mr_rereg.c), by raw write() commands and QUERY_MR by
 * ioctl on whichever ib_uverbs is loaded:
 *  - in place (the driver answers NULL): access bits a live key takes, a
 *    PD move (the driver sets ib_mr::pd itself), a new range that fits
 *    the key's translation table; the handle and keys stay;
 *  - a new MR with new keys under the same handle: an access bit the key
 *    cannot take (over the same pin), a new range too big for the key;
 *  - the PDs' use counts: the PD left released (DEALLOC_PD succeeds, no
 *    WARN at close), the PD moved to held (EBUSY), across A->B->A moves
 *    and against DEALLOC_PD racing the move from another thread;
 *  - what ib_core refuses before the driver runs.
 * COPY through the driver's channel (which, as a QP, reaches only MRs of
 * its own PD) shows where the handle's memory is and which PD it is in.
 * Expected values are the in-tree module's answers, 6.1's and 6.12's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

/* REREG_MR flags (ib_verbs.h IB_MR_REREG_*, libibverbs IBV_REREG_MR_*). */
enum { REREG_TRANS = 1, REREG_PD = 2, REREG_ACCESS = 4 };

#define PG		4096
#define BUF_LEN		(16 * PG)
#define SRC_PAGE	(BUF_LEN - PG)	/* COPY's source; no MR under test */
#define COPY_LEN	256
#define LW		IB_UVERBS_ACCESS_LOCAL_WRITE
#define RR		IB_UVERBS_ACCESS_REMOTE_READ
#define MW_BIND		IB_UVERBS_ACCESS_MW_BIND
#define RACE_ROUNDS	300

struct mr {
	int h;
	__u32 lkey, rkey;
};

/* REG_MR by write(); 0 or -errno. */
static int reg_mr(int fd, __u32 pd, void *addr, size_t len, __u64 iova,
		  __u32 access, struct mr *mr)
{
	struct ib_uverbs_reg_mr_resp resp;
	int ret = ovbtest_reg_mr_at(fd, pd, addr, len, iova, access, &resp);

	if (!ret)
		*mr = (struct mr){ resp.mr_handle, resp.lkey, resp.rkey };
	return ret;
}

/* REREG_MR by write(); 0 and the keys it answered in *@keys, or -errno. */
static int rereg_mr(int fd, __u32 mr, __u32 flags, void *addr, size_t len,
		    __u64 iova, __u32 pd, __u32 access, struct mr *keys)
{
	struct ib_uverbs_rereg_mr_resp resp;
	int ret = ovbtest_rereg_mr(fd, mr, flags, addr, len, iova, pd, access,
				   &resp);

	if (!ret && keys)
		*keys = (struct mr){ mr, resp.lkey, resp.rkey };
	return ret;
}

/* A move to @pd alone. */
static int move_mr(int fd, __u32 mr, __u32 pd, struct mr *keys)
{
	return rereg_mr(fd, mr, REREG_PD, NULL, 0, 0, pd, 0, keys);
}

struct mr_attrs {
	__u32 lkey, rkey;
	__u64 length, iova;
};

/* UVERBS_METHOD_QUERY_MR: what ib_core holds for the handle now. */
static int query_mr(int fd, __u32 mr, struct mr_attrs *a)
{
	struct ioc c;

	memset(a, 0xa5, sizeof(*a));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR);
	ioc_obj(&c, UVERBS_ATTR_QUERY_MR_HANDLE, mr);
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &a->lkey, sizeof(a->lkey));
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_RKEY, &a->rkey, sizeof(a->rkey));
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &a->length,
		sizeof(a->length));
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_IOVA, &a->iova, sizeof(a->iova));
	return ioc_call(fd, &c);
}

/* -------------------------------------------------------------- fixture */

FIXTURE(rr) {
	int fd;
	int kmsg;
	char *buf;
	struct ovbtest_device_info base;
};

/* The driver, a context and 64 KiB of memory; each case makes its PDs. */
FIXTURE_SETUP(rr)
{
	struct ovbtest_alloc_ucontext_resp uctx;

	self->fd = -1;
	self->kmsg = -1;
	HCA_SETUP_LOAD();
	self->kmsg = ovbtest_kmsg_mark();
	self->fd = ovbtest_open_dev();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ovbtest_get_context(self->fd, &uctx));
	self->buf = mmap(NULL, BUF_LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
	memset(self->buf, 0, BUF_LEN);
	self->base = ovbtest_info(self->fd);
	ASSERT_EQ(OVBTEST_MAGIC, self->base.magic);
}

FIXTURE_TEARDOWN(rr)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->kmsg >= 0)
		close(self->kmsg);
}

/*
 * The end of every case: nothing left on the driver, and closing the
 * file (which destroys whatever the case kept) logs no WARN: ib_core
 * WARNs there about a PD whose use count a move got wrong.
 */
#define EXPECT_CLEAN_CLOSE() do {					\
	struct ovbtest_device_info _i = ovbtest_info(self->fd);		\
	EXPECT_EQ(self->base.mrs, _i.mrs);				\
	EXPECT_EQ(self->base.pds, _i.pds);				\
	close(self->fd);						\
	self->fd = -1;							\
	EXPECT_FALSE(ovbtest_kmsg_warned(self->kmsg));			\
	self->kmsg = -1;						\
} while (0)

/*
 * COPY_LEN bytes of a new pattern into @mr at @off, through a channel of
 * @pd (an MR of @pd over the last page is the source): 0 when they land
 * at @lands, -EIO when they land elsewhere, or COPY's -errno.  The
 * channel and the source MR are gone afterwards (they hold @pd).
 */
static int copy_into(FIXTURE_DATA(rr) *self, int pd, int mr, __u64 off,
		     const char *lands)
{
	static unsigned int seed;
	char *src_buf = self->buf + SRC_PAGE;
	int src, chan, ret, i;

	seed++;
	for (i = 0; i < COPY_LEN; i++)
		src_buf[i] = (char)(i * 7 + seed);
	src = ovbtest_reg_mr(self->fd, pd, src_buf, PG, 0);
	if (src < 0)
		return src;
	chan = ovbtest_chan_create(self->fd, pd, 4, NULL);
	ret = chan < 0 ? chan : ovbtest_copy(self->fd, chan, src, 0, mr, off,
					     COPY_LEN, NULL);
	if (!ret && memcmp(lands, src_buf, COPY_LEN))
		ret = -EIO;
	if (chan >= 0)
		ovbtest_chan_destroy(self->fd, chan, NULL);
	ovbtest_dereg_mr(self->fd, src);
	return ret;
}

/* --------------------------------------------------------- access bits */

/* Bits a live key takes: in place, the same MR, keys and range. */
TEST_F(rr, access_in_place)
{
	struct mr m, now;
	struct mr_attrs q;
	int pd = raw_alloc_pd(self->fd);

	ASSERT_LE(0, pd);
	ASSERT_EQ(0, reg_mr(self->fd, pd, self->buf, 4 * PG,
			    (uintptr_t)self->buf, LW, &m));
	ASSERT_EQ(0, rereg_mr(self->fd, m.h, REREG_ACCESS, NULL, 0, 0, 0,
			      LW | RR, &now));
	EXPECT_EQ(m.lkey, now.lkey);
	EXPECT_EQ(m.rkey, now.rkey);
	EXPECT_EQ(self->base.mrs + 1, ovbtest_info(self->fd).mrs);
	ASSERT_EQ(0, query_mr(self->fd, m.h, &q));
	EXPECT_EQ(m.lkey, q.lkey);
	EXPECT_EQ(m.rkey, q.rkey);
	EXPECT_EQ(4 * PG, q.length);
	EXPECT_EQ((uintptr_t)self->buf, q.iova);
	/* the same pages: a COPY into it lands there */
	EXPECT_EQ(0, copy_into(self, pd, m.h, 8, self->buf + 8));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(-ENOENT, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd));
	EXPECT_CLEAN_CLOSE();
}

/*
 * A bit the key cannot take (MW_BIND): a new MR with new keys over the
 * pages the old one had pinned, under the same handle.
 */
TEST_F(rr, access_new_mr_over_the_same_pin)
{
	struct mr m, now;
	struct mr_attrs q;
	int pd = raw_alloc_pd(self->fd);

	ASSERT_LE(0, pd);
	ASSERT_EQ(0, reg_mr(self->fd, pd, self->buf, 4 * PG,
			    (uintptr_t)self->buf, LW, &m));
	ASSERT_EQ(0, rereg_mr(self->fd, m.h, REREG_ACCESS, NULL, 0, 0, 0,
			      LW | MW_BIND, &now));
	EXPECT_NE(m.lkey, now.lkey);
	EXPECT_NE(m.rkey, now.rkey);
	/* the old MR is gone: one on the device */
	EXPECT_EQ(self->base.mrs + 1, ovbtest_info(self->fd).mrs);
	ASSERT_EQ(0, query_mr(self->fd, m.h, &q));
	EXPECT_EQ(now.lkey, q.lkey);
	EXPECT_EQ(now.rkey, q.rkey);
	EXPECT_EQ(4 * PG, q.length);
	EXPECT_EQ((uintptr_t)self->buf, q.iova);
	EXPECT_EQ(0, copy_into(self, pd, m.h, 3 * PG, self->buf + 3 * PG));
	/* the bit back: a new MR again */
	ASSERT_EQ(0, rereg_mr(self->fd, m.h, REREG_ACCESS, NULL, 0, 0, 0, LW,
			      &m));
	EXPECT_NE(now.lkey, m.lkey);

	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, pd));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd));
	EXPECT_CLEAN_CLOSE();
}

/* ----------------------------------------------------------------- PDs */

/*
 * A move to another PD alone is done in place, the driver setting
 * ib_mr::pd itself: the PD left must be free (the regression of
 * a14131c: ours kept it busy, and WARNed when the file closed), the PD
 * moved to held.
 */
TEST_F(rr, pd_in_place_releases_the_old_pd)
{
	int a = raw_alloc_pd(self->fd), b = raw_alloc_pd(self->fd);
	struct mr m, now;
	struct mr_attrs q;

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, reg_mr(self->fd, a, self->buf, 4 * PG,
			    (uintptr_t)self->buf, LW, &m));
	ASSERT_EQ(0, move_mr(self->fd, m.h, b, &now));
	EXPECT_EQ(m.lkey, now.lkey);
	EXPECT_EQ(m.rkey, now.rkey);
	EXPECT_EQ(self->base.mrs + 1, ovbtest_info(self->fd).mrs);
	ASSERT_EQ(0, query_mr(self->fd, m.h, &q));
	EXPECT_EQ(m.lkey, q.lkey);

	EXPECT_EQ(0, raw_dealloc_pd(self->fd, a));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, b));
	/* the driver sees it in b: b's channel reaches it */
	EXPECT_EQ(0, copy_into(self, b, m.h, 0, self->buf));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, b));
	EXPECT_CLEAN_CLOSE();
}

/*
 * A -> B -> A ... (seven moves) with a second MR that stays in A: each PD is held
 * exactly by the MRs in it after every move.
 */
TEST_F(rr, pd_moves_back_and_forth)
{
	int a = raw_alloc_pd(self->fd), b = raw_alloc_pd(self->fd);
	struct mr m, stay, now;
	int i;

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, reg_mr(self->fd, a, self->buf, 4 * PG,
			    (uintptr_t)self->buf, LW, &m));
	ASSERT_EQ(0, reg_mr(self->fd, a, self->buf + 4 * PG, PG,
			    (uintptr_t)self->buf + 4 * PG, LW, &stay));
	for (i = 0; i < 7; i++) {
		int to = i % 2 ? a : b, from = i % 2 ? b : a;

		ASSERT_EQ(0, move_mr(self->fd, m.h, to, &now));
		EXPECT_EQ(m.lkey, now.lkey);
		EXPECT_EQ(-EINVAL, copy_into(self, from, m.h, 0, self->buf));
		EXPECT_EQ(0, copy_into(self, to, m.h, 0, self->buf));
	}
	/* m is in b, stay in a */
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, a));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, b));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, stay.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, a));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, b));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, b));
	EXPECT_CLEAN_CLOSE();
}

/* A move with an access bit the key cannot take: a new MR in the new PD. */
TEST_F(rr, pd_and_access_new_mr)
{
	int a = raw_alloc_pd(self->fd), b = raw_alloc_pd(self->fd);
	struct mr m, now;

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, reg_mr(self->fd, a, self->buf, 4 * PG,
			    (uintptr_t)self->buf, LW, &m));
	ASSERT_EQ(0, rereg_mr(self->fd, m.h, REREG_PD | REREG_ACCESS, NULL, 0,
			      0, b, LW | MW_BIND, &now));
	EXPECT_NE(m.lkey, now.lkey);
	EXPECT_EQ(self->base.mrs + 1, ovbtest_info(self->fd).mrs);
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, a));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, b));
	EXPECT_EQ(0, copy_into(self, b, m.h, 0, self->buf));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, b));
	EXPECT_CLEAN_CLOSE();
}

/* -------------------------------------------------------- translations */

/*
 * A new range no bigger than the key's translation table (the first
 * pin's pages, rounded up to a power of two): loaded into the key in
 * place, the same keys; the handle reaches the new pages.
 */
TEST_F(rr, translation_in_place)
{
	const __u64 iova = 0x40000000ULL;
	int pd = raw_alloc_pd(self->fd);
	struct mr m, now;
	struct mr_attrs q;

	ASSERT_LE(0, pd);
	ASSERT_EQ(0, reg_mr(self->fd, pd, self->buf, 8 * PG,
			    (uintptr_t)self->buf, LW, &m));
	ASSERT_EQ(0, rereg_mr(self->fd, m.h, REREG_TRANS, self->buf + 8 * PG,
			      4 * PG, iova, 0, 0, &now));
	EXPECT_EQ(m.lkey, now.lkey);
	EXPECT_EQ(m.rkey, now.rkey);
	EXPECT_EQ(self->base.mrs + 1, ovbtest_info(self->fd).mrs);
	ASSERT_EQ(0, query_mr(self->fd, m.h, &q));
	EXPECT_EQ(m.lkey, q.lkey);
	EXPECT_EQ(4 * PG, q.length);
	EXPECT_EQ(iova, q.iova);
	EXPECT_EQ(0, copy_into(self, pd, m.h, 100, self->buf + 8 * PG + 100));
	EXPECT_EQ(0, self->buf[100]);
	/* beyond the new length */
	EXPECT_EQ(-ERANGE, copy_into(self, pd, m.h, 4 * PG - 1, self->buf));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(-ENOENT, query_mr(self->fd, m.h, &q));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd));
	EXPECT_CLEAN_CLOSE();
}

/*
 * A new range bigger than the key's table: a new MR (new keys) that
 * ib_core puts under the same handle, destroying the old one.  (6.1
 * leaves the new MR's ib_mr::uobject pointing at the old, destroyed
 * uobject; nothing in 6.1 reads it afterwards.)
 */
TEST_F(rr, translation_new_mr)
{
	const __u64 iova = 0x40000000ULL;
	int pd = raw_alloc_pd(self->fd);
	struct mr m, now;
	struct mr_attrs q;

	ASSERT_LE(0, pd);
	ASSERT_EQ(0, reg_mr(self->fd, pd, self->buf, 4 * PG,
			    (uintptr_t)self->buf, LW, &m));
	ASSERT_EQ(0, rereg_mr(self->fd, m.h, REREG_TRANS, self->buf + 4 * PG,
			      8 * PG, iova, 0, 0, &now));
	EXPECT_NE(m.lkey, now.lkey);
	EXPECT_NE(m.rkey, now.rkey);
	EXPECT_EQ(self->base.mrs + 1, ovbtest_info(self->fd).mrs);
	ASSERT_EQ(0, query_mr(self->fd, m.h, &q));
	EXPECT_EQ(now.lkey, q.lkey);
	EXPECT_EQ(now.rkey, q.rkey);
	EXPECT_EQ(8 * PG, q.length);
	EXPECT_EQ(iova, q.iova);
	EXPECT_EQ(0, copy_into(self, pd, m.h, 100, self->buf + 4 * PG + 100));
	EXPECT_EQ(0, self->buf[100]);

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(-ENOENT, query_mr(self->fd, m.h, &q));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd));
	EXPECT_CLEAN_CLOSE();
}

/* A new range and a new PD, loaded into the key: keys kept, PDs swapped. */
TEST_F(rr, translation_and_pd_in_place)
{
	int a = raw_alloc_pd(self->fd), b = raw_alloc_pd(self->fd);
	struct mr m, now;

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, reg_mr(self->fd, a, self->buf, 4 * PG,
			    (uintptr_t)self->buf, LW, &m));
	ASSERT_EQ(0, rereg_mr(self->fd, m.h, REREG_TRANS | REREG_PD,
			      self->buf + 4 * PG, 2 * PG,
			      (uintptr_t)self->buf + 4 * PG, b, 0, &now));
	EXPECT_EQ(m.lkey, now.lkey);
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, a));
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, b));
	EXPECT_EQ(0, copy_into(self, b, m.h, 0, self->buf + 4 * PG));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, b));
	EXPECT_CLEAN_CLOSE();
}

/* -------------------------------------------------------------- checks */

/* What ib_core refuses before the driver; the MR is unchanged after. */
TEST_F(rr, checks)
{
	int pd = raw_alloc_pd(self->fd), gone = raw_alloc_pd(self->fd);
	struct mr_attrs q;
	struct mr m;

	ASSERT_LE(0, pd);
	ASSERT_LE(0, gone);
	ASSERT_EQ(0, reg_mr(self->fd, pd, self->buf, BUF_LEN,
			    (uintptr_t)self->buf, LW, &m));
	/* after the MR: its handle cannot be the one freed here */
	ASSERT_EQ(0, raw_dealloc_pd(self->fd, gone));
	EXPECT_EQ(-EINVAL, rereg_mr(self->fd, m.h, 0, NULL, 0, 0, 0, 0, NULL));
	EXPECT_EQ(-EOPNOTSUPP, rereg_mr(self->fd, m.h, 8, NULL, 0, 0, 0, 0,
					NULL));
	/* the address and the IOVA must share their offset in the page */
	EXPECT_EQ(-EINVAL, rereg_mr(self->fd, m.h, REREG_TRANS, self->buf,
				    PG, 0x40000001ULL, 0, 0, NULL));
	/*
	 * remote write needs local write; ODP the device's support (6.1's
	 * ib_check_mr_access answers EINVAL there; 6.12's EOPNOTSUPP)
	 */
	EXPECT_EQ(-EINVAL, rereg_mr(self->fd, m.h, REREG_ACCESS, NULL, 0, 0,
				    0, IB_UVERBS_ACCESS_REMOTE_WRITE, NULL));
	EXPECT_EQ(ovbtest_k612() ? -EOPNOTSUPP : -EINVAL,
		  rereg_mr(self->fd, m.h, REREG_ACCESS, NULL, 0, 0, 0,
			   IB_UVERBS_ACCESS_ON_DEMAND, NULL));
	EXPECT_EQ(-ENOENT, rereg_mr(self->fd, m.h + 100, REREG_ACCESS, NULL,
				    0, 0, 0, LW, NULL));
	/* a PD handle that is gone */
	EXPECT_EQ(-ENOENT, move_mr(self->fd, m.h, gone, NULL));
	/* the PD it is in: no move at all (ib_core drops the flag) */
	EXPECT_EQ(0, move_mr(self->fd, m.h, pd, NULL));
	ASSERT_EQ(0, query_mr(self->fd, m.h, &q));
	EXPECT_EQ(m.lkey, q.lkey);
	EXPECT_EQ(BUF_LEN, q.length);
	EXPECT_EQ(self->base.mrs + 1, ovbtest_info(self->fd).mrs);
	EXPECT_EQ(-EBUSY, raw_dealloc_pd(self->fd, pd));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
	EXPECT_EQ(0, raw_dealloc_pd(self->fd, pd));
	EXPECT_CLEAN_CLOSE();
}

/* --------------------------------------------------------------- races */

/* One side of a race: a move of @mr to @pd, or a DEALLOC_PD of @pd. */
struct racer {
	pthread_barrier_t *go;
	int fd, mr, pd;
	int ret;
};

static void *race_move(void *arg)
{
	struct racer *r = arg;

	pthread_barrier_wait(r->go);
	r->ret = move_mr(r->fd, r->mr, r->pd, NULL);
	return NULL;
}

static void *race_dealloc(void *arg)
{
	struct racer *r = arg;

	pthread_barrier_wait(r->go);
	r->ret = raw_dealloc_pd(r->fd, r->pd);
	return NULL;
}

/* A move of @mr to @to against a DEALLOC_PD of @victim; both results. */
static void race_once(int fd, int mr, int to, int victim, int *moved,
		      int *freed)
{
	struct racer mv = { .fd = fd, .mr = mr, .pd = to };
	struct racer da = { .fd = fd, .pd = victim };
	pthread_barrier_t go;
	pthread_t t;

	pthread_barrier_init(&go, NULL, 2);
	mv.go = da.go = &go;
	pthread_create(&t, NULL, race_dealloc, &da);
	race_move(&mv);
	pthread_join(t, NULL);
	pthread_barrier_destroy(&go);
	*moved = mv.ret;
	*freed = da.ret;
}

/*
 * The MR leaves A for B while another thread deallocates A.  The move
 * takes no lock on A, so it always succeeds; the DEALLOC_PD succeeds or,
 * when it looks before the move released A, answers EBUSY and succeeds
 * once the move is done.  Never both an A in use and gone.
 */
TEST_F(rr, move_races_dealloc_of_the_pd_left)
{
	int i, moved, freed, busy = 0;

	for (i = 0; i < RACE_ROUNDS; i++) {
		int a = raw_alloc_pd(self->fd), b = raw_alloc_pd(self->fd);
		struct mr m;

		ASSERT_LE(0, a);
		ASSERT_LE(0, b);
		ASSERT_EQ(0, reg_mr(self->fd, a, self->buf, PG,
				    (uintptr_t)self->buf, LW, &m));
		race_once(self->fd, m.h, b, a, &moved, &freed);
		ASSERT_EQ(0, moved);
		ASSERT_TRUE(freed == 0 || freed == -EBUSY) TH_LOG("%d", freed);
		busy += freed == -EBUSY;
		if (freed)
			ASSERT_EQ(0, raw_dealloc_pd(self->fd, a));
		ASSERT_EQ(-EBUSY, raw_dealloc_pd(self->fd, b));
		ASSERT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
		ASSERT_EQ(0, raw_dealloc_pd(self->fd, b));
	}
	TH_LOG("%d rounds, DEALLOC_PD of the PD left: EBUSY in %d", i, busy);
	EXPECT_CLEAN_CLOSE();
}

/*
 * The MR moves from B to A while another thread deallocates A.  Either
 * the move wins (A then held: EBUSY), or the DEALLOC_PD does and the
 * move finds A gone (ENOENT) or being destroyed (EBUSY) and the MR
 * stays in B.
 */
TEST_F(rr, move_races_dealloc_of_the_pd_moved_to)
{
	int i, moved, freed, won = 0;

	for (i = 0; i < RACE_ROUNDS; i++) {
		int a = raw_alloc_pd(self->fd), b = raw_alloc_pd(self->fd);
		struct mr m;

		ASSERT_LE(0, a);
		ASSERT_LE(0, b);
		ASSERT_EQ(0, reg_mr(self->fd, b, self->buf, PG,
				    (uintptr_t)self->buf, LW, &m));
		race_once(self->fd, m.h, a, a, &moved, &freed);
		if (!moved) {
			ASSERT_EQ(-EBUSY, freed);
			won++;
			ASSERT_EQ(0, raw_dealloc_pd(self->fd, b));
			ASSERT_EQ(-EBUSY, raw_dealloc_pd(self->fd, a));
			ASSERT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
			ASSERT_EQ(0, raw_dealloc_pd(self->fd, a));
			continue;
		}
		ASSERT_TRUE(moved == -ENOENT || moved == -EBUSY)
			TH_LOG("%d", moved);
		ASSERT_EQ(0, freed);
		ASSERT_EQ(-EBUSY, raw_dealloc_pd(self->fd, b));
		ASSERT_EQ(0, ovbtest_dereg_mr(self->fd, m.h));
		ASSERT_EQ(0, raw_dealloc_pd(self->fd, b));
	}
	TH_LOG("%d rounds, the move first in %d", i, won);
	EXPECT_CLEAN_CLOSE();
}

/* Last: nothing may be left on the driver; its unload WARNs if so. */
OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
