// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A driver destroy that fails, is retried after other objects go, and
 * falls back to RDMA_REMOVE_DRIVER_FAILURE, as mlx5 DEVX objects whose
 * firmware refuses a destroy while another object points to them.  The
 * test HCA's STUCK object (selftests/ovbtest/stuck.c) created with a
 * holder answers -EBUSY while the holder exists; the driver logs every
 * call of its destroy (object, reason, answer), read with STUCK_LOG or,
 * after a hot-unplug, from the lines the module prints at unload.
 *
 * ib_uverbs walks a file's objects newest first and makes another pass
 * while the last one destroyed something; a pass without progress makes
 * it WARN in uverbs_destroy_ufile_hw() and forget the rest (the driver is
 * not called with DRIVER_FAILURE: its object leaks, freed at unload).
 * Each case asserts the exact sequence of calls that 6.1 and 6.12 make.
 * The WARNs run inside "ovb-expect:" windows (qemu/dmesg-scan).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_stuck.h"

/* The reasons of the driver's log (ovbtest_stuck.h: LEAK_WARN_RE, the give-up). */
#define DESTROY		OVBTEST_STUCK_WHY_DESTROY
#define CLOSE		OVBTEST_STUCK_WHY_CLOSE
#define REMOVE		OVBTEST_STUCK_WHY_DRIVER_REMOVE

/* The driver's log of destroy calls, oldest first, as a string. */
struct calls {
	char text[1024];
	int n;
};

static void calls_add(struct calls *log, __u32 id, __u32 reason, int result)
{
	size_t len = strlen(log->text);

	snprintf(log->text + len, sizeof(log->text) - len, "%s%u:%u:%d",
		 log->n ? " " : "", id, reason, result);
	log->n++;
}

/* Drains STUCK_LOG; -errno if the method fails. */
static int stuck_log(int fd, struct calls *log)
{
	struct ovbtest_stuck_record rec[8];
	__u32 n, i;
	struct ioc c;
	int ret;

	memset(log, 0, sizeof(*log));
	do {
		ovbtest_ioc_init(&c, OVBTEST_OBJECT_STUCK,
				 OVBTEST_METHOD_STUCK_LOG);
		ioc_out(&c, OVBTEST_ATTR_STUCK_LOG_RECORDS, rec, sizeof(rec));
		ioc_out(&c, OVBTEST_ATTR_STUCK_LOG_COUNT, &n, sizeof(n));
		n = ~0U;
		ret = ioc_call(fd, &c);
		if (ret)
			return ret;
		if (n > 8)
			return -EOVERFLOW;
		for (i = 0; i < n; i++)
			calls_add(log, rec[i].id, rec[i].reason, rec[i].result);
	} while (n == 8);
	return 0;
}

/* The expected log: triples id, reason, result, ended by a 0 id. */
static const char *calls_expect(struct calls *want, const __u32 *t)
{
	memset(want, 0, sizeof(*want));
	for (; t[0]; t += 3)
		calls_add(want, t[0], t[1], (int)t[2]);
	return want->text;
}

#define ASSERT_CALLS(got, ...)						\
	do {								\
		const __u32 __t[] = { __VA_ARGS__, 0 };			\
		struct calls __want;					\
									\
		ASSERT_STREQ(calls_expect(&__want, __t), (got)->text);	\
	} while (0)

/* ---- the kernel log ------------------------------------------------- */

struct kmsg_counts {
	int warnings;		/* "WARNING:" records */
	int leak_warnings;	/* ... of them, those matching LEAK_WARN_RE */
	unsigned int freed;	/* N of ovbtest's "freed N STUCK object(s)" */
	struct calls calls;	/* the "ovbtest: stuck log:" lines of unload */
};

static void kmsg_scan(int fd, struct kmsg_counts *n)
{
	char rec[8192];
	regex_t re;

	memset(n, 0, sizeof(*n));
	if (regcomp(&re, LEAK_WARN_RE, REG_EXTENDED | REG_NOSUB))
		abort();
	for (;;) {
		const char *text = kmsg_next(fd, rec, sizeof(rec));
		unsigned int id, reason, freed;
		int result;

		if (!text)
			break;
		kmsg_count_warning(text, &re, &n->warnings, &n->leak_warnings);
		if (sscanf(text, "ovbtest: freed %u STUCK", &freed) == 1)
			n->freed += freed;
		if (sscanf(text, "ovbtest: stuck log: id %u %u %d", &id,
			   &reason, &result) == 3)
			calls_add(&n->calls, id, reason, result);
	}
	regfree(&re);
}

FIXTURE(retry) {
	int fd;
	int kmsg;
	struct ovbtest_device_info base;
};

FIXTURE_SETUP(retry)
{
	struct calls old;

	self->fd = -1;
	self->kmsg = -1;
	HCA_SETUP_LOAD();
	self->kmsg = kmsg_open();
	ASSERT_LE(0, self->kmsg);
	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &self->base));
	ASSERT_EQ(0, stuck_log(self->fd, &old));	/* earlier tests' */
}

FIXTURE_TEARDOWN(retry)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->kmsg >= 0)
		close(self->kmsg);
}

/*
 * A user DESTROY of a held object gets the driver's EBUSY and keeps the
 * handle, as often as asked; once the holder is destroyed it goes.
 */
TEST_F(retry, destroy_refused_while_held)
{
	struct ovbtest_device_info info;
	__u32 a_id = 0, b_id = 0, qid = 0;
	struct kmsg_counts k;
	struct calls log;
	int a, b;

	a = stuck_create(self->fd, 0, -1, &a_id);
	ASSERT_LE(0, a);
	b = stuck_create(self->fd, 0, a, &b_id);
	ASSERT_LE(0, b);
	ASSERT_EQ(-EBUSY, stuck_destroy(self->fd, b));
	ASSERT_EQ(-EBUSY, stuck_destroy(self->fd, b));
	ASSERT_EQ(0, stuck_query(self->fd, b, &qid));
	ASSERT_EQ(b_id, qid);
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &info));
	ASSERT_EQ(self->base.stuck + 2, info.stuck);
	ASSERT_EQ(0, stuck_destroy(self->fd, a));
	ASSERT_EQ(-ENOENT, stuck_query(self->fd, a, &qid));
	ASSERT_EQ(0, stuck_destroy(self->fd, b));
	ASSERT_EQ(-ENOENT, stuck_destroy(self->fd, b));
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &info));
	ASSERT_EQ(self->base.stuck, info.stuck);
	ASSERT_EQ(0, stuck_log(self->fd, &log));
	ASSERT_CALLS(&log, b_id, DESTROY, -EBUSY, b_id, DESTROY, -EBUSY,
		     a_id, DESTROY, 0, b_id, DESTROY, 0);
	kmsg_scan(self->kmsg, &k);
	ASSERT_EQ(0, k.warnings);
}

/*
 * A holder that is not a STUCK object (a PD) is EINVAL, one that does not
 * exist ENOENT, both before the driver is called: nothing is created.
 */
TEST_F(retry, holder_not_stuck)
{
	struct ovbtest_device_info info;
	__u32 id = 0;
	int pd;

	pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, pd);
	ASSERT_EQ(-EINVAL, stuck_create(self->fd, 0, pd, &id));
	ASSERT_EQ(-ENOENT, stuck_create(self->fd, 0, pd + 100, &id));
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &info));
	ASSERT_EQ(self->base.stuck, info.stuck);
}

/*
 * The close: a chain A holds B holds C, and a free D, created in that
 * order.  Newest first: D goes, C and B refuse, A goes; the second pass
 * destroys B, C refusing again; the third C.  No WARN, nothing leaks.
 */
TEST_F(retry, close_retries_until_all_go)
{
	__u32 a_id = 0, b_id = 0, c_id = 0, d_id = 0;
	struct ovbtest_device_info info;
	struct kmsg_counts k;
	struct calls log;
	int a, b, c, fd;

	a = stuck_create(self->fd, 0, -1, &a_id);
	ASSERT_LE(0, a);
	b = stuck_create(self->fd, 0, a, &b_id);
	ASSERT_LE(0, b);
	c = stuck_create(self->fd, 0, b, &c_id);
	ASSERT_LE(0, c);
	ASSERT_LE(0, stuck_create(self->fd, 0, -1, &d_id));
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;

	fd = ovbtest_open_ctx();
	ASSERT_LE(0, fd);
	self->fd = fd;
	ASSERT_EQ(0, stuck_log(fd, &log));
	ASSERT_CALLS(&log, d_id, CLOSE, 0, c_id, CLOSE, -EBUSY,
		     b_id, CLOSE, -EBUSY, a_id, CLOSE, 0,
		     c_id, CLOSE, -EBUSY, b_id, CLOSE, 0,
		     c_id, CLOSE, 0);
	ASSERT_EQ(0, ovbtest_device_info(fd, &info));
	ASSERT_EQ(self->base.stuck, info.stuck);
	ASSERT_EQ(self->base.stuck_orphans, info.stuck_orphans);
	kmsg_scan(self->kmsg, &k);
	ASSERT_EQ(0, k.warnings);
}

/*
 * What never goes: A refuses for good and holds B; C is free.  The first
 * pass destroys C, the second nothing: the core WARNs once and forgets A
 * and B without calling the driver again (DRIVER_FAILURE).  Both leak to
 * the driver, which frees them at unload.
 */
TEST_F(retry, close_forces_driver_failure)
{
	__u32 a_id = 0, b_id = 0, c_id = 0;
	struct ovbtest_device_info info;
	struct kmsg_counts k;
	struct calls log;
	int a, fd;

	a = stuck_create(self->fd, OVBTEST_STUCK_REFUSE, -1, &a_id);
	ASSERT_LE(0, a);
	ASSERT_LE(0, stuck_create(self->fd, 0, a, &b_id));
	ASSERT_LE(0, stuck_create(self->fd, 0, -1, &c_id));

	kmsg_say("ovb-expect: begin " LEAK_WARN_RE "\n");
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	kmsg_say("ovb-expect: end\n");
	kmsg_scan(self->kmsg, &k);
	ASSERT_EQ(1, k.leak_warnings);
	ASSERT_EQ(1, k.warnings);

	fd = ovbtest_open_ctx();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, stuck_log(fd, &log));
	ASSERT_CALLS(&log, c_id, CLOSE, 0, b_id, CLOSE, -EBUSY,
		     a_id, CLOSE, -EBUSY, b_id, CLOSE, -EBUSY,
		     a_id, CLOSE, -EBUSY);
	ASSERT_EQ(0, ovbtest_device_info(fd, &info));
	ASSERT_EQ(self->base.stuck + 2, info.stuck);
	ASSERT_EQ(self->base.stuck_orphans + 2, info.stuck_orphans);
	ASSERT_EQ(0, close(fd));

	ASSERT_EQ(0, ovbtest_unload_wait());
	kmsg_scan(self->kmsg, &k);
	ASSERT_EQ(self->base.stuck + 2, k.freed);
	ASSERT_EQ(0, k.warnings);
	ASSERT_EQ(0, k.calls.n);
}

/*
 * Hot-unplug with the file open: the same passes with DRIVER_REMOVE (A
 * holds B: B refuses, A goes, B goes), no WARN; the file is dead after.
 */
TEST_F(retry, disassociate_retries)
{
	__u32 a_id = 0, b_id = 0, qid;
	struct kmsg_counts k;
	int a, b;

	a = stuck_create(self->fd, 0, -1, &a_id);
	ASSERT_LE(0, a);
	b = stuck_create(self->fd, 0, a, &b_id);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, ovbtest_unload_wait());
	ASSERT_FALSE(ovbtest_loaded());
	kmsg_scan(self->kmsg, &k);
	ASSERT_CALLS(&k.calls, b_id, REMOVE, -EBUSY, a_id, REMOVE, 0,
		     b_id, REMOVE, 0);
	ASSERT_EQ(self->base.stuck, k.freed);
	ASSERT_EQ(0, k.warnings);
	ASSERT_EQ(-EIO, stuck_query(self->fd, b, &qid));
}

/*
 * Hot-unplug of an object that refuses for good: B goes in the first
 * pass, A refuses twice, the core WARNs and forgets it; the driver frees
 * it after the unregistration.
 */
TEST_F(retry, disassociate_forces_driver_failure)
{
	__u32 a_id = 0, b_id = 0;
	struct kmsg_counts k;

	ASSERT_LE(0, stuck_create(self->fd, OVBTEST_STUCK_REFUSE, -1, &a_id));
	ASSERT_LE(0, stuck_create(self->fd, 0, -1, &b_id));
	kmsg_say("ovb-expect: begin " LEAK_WARN_RE "\n");
	ASSERT_EQ(0, ovbtest_unload_wait());
	kmsg_say("ovb-expect: end\n");
	ASSERT_FALSE(ovbtest_loaded());
	kmsg_scan(self->kmsg, &k);
	ASSERT_EQ(1, k.leak_warnings);
	ASSERT_EQ(1, k.warnings);
	ASSERT_CALLS(&k.calls, b_id, REMOVE, 0, a_id, REMOVE, -EBUSY,
		     a_id, REMOVE, -EBUSY);
	ASSERT_EQ(self->base.stuck + 1, k.freed);
}

OVBTEST_UNLOAD_FIXTURE();

TEST_HARNESS_MAIN
