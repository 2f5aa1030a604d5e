// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A driver object whose destroy keeps failing, through the test HCA
 * driver's STUCK object (selftests/ovbtest/stuck.c): a user DESTROY answers
 * the driver's errno and leaves the handle alive; closing the uverbs file
 * retries, then 6.1 WARNs in uverbs_destroy_ufile_hw() and forgets the
 * object (RDMA_REMOVE_DRIVER_FAILURE: the driver's object leaks).  Our
 * module must do the same, and the leak must show in the kernel log.
 *
 * The close runs inside an "ovb-expect:" window (qemu/dmesg-scan): that
 * WARNING, and only it, does not fail the guest run; a run without it
 * fails.  The case also reads it back from /dev/kmsg itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_stuck.h"

/* ---- the kernel log ------------------------------------------------- */

/* What the kernel logged since the last look. */
struct kmsg_counts {
	int warnings;		/* "WARNING:" records */
	int leak_warnings;	/* ... of them, those matching LEAK_WARN_RE */
	int freed;		/* ovbtest's "freed N STUCK object(s)" */
};

/* Counts the records logged since the last call (kmsg_next). */
static struct kmsg_counts kmsg_scan(int fd)
{
	struct kmsg_counts n = {};
	char rec[8192];
	regex_t re;

	if (regcomp(&re, LEAK_WARN_RE, REG_EXTENDED | REG_NOSUB))
		abort();
	for (;;) {
		const char *text = kmsg_next(fd, rec, sizeof(rec));

		if (!text)
			break;
		kmsg_count_warning(text, &re, &n.warnings, &n.leak_warnings);
		if (strstr(text, "ovbtest: freed "))
			n.freed++;
	}
	regfree(&re);
	return n;
}

FIXTURE(leak) {
	int fd;
	int kmsg;
	struct ovbtest_device_info base;
};

FIXTURE_SETUP(leak)
{
	self->fd = -1;
	self->kmsg = -1;
	HCA_SETUP_LOAD();
	self->kmsg = kmsg_open();
	ASSERT_LE(0, self->kmsg);
	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &self->base));
}

FIXTURE_TEARDOWN(leak)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->kmsg >= 0)
		close(self->kmsg);
}

/* Without OVBTEST_STUCK_REFUSE the object dies as any other. */
TEST_F(leak, destroyable)
{
	struct ovbtest_device_info info;
	__u32 id = 0, qid = 0;
	int h;

	h = stuck_create(self->fd, 0, -1, &id);
	ASSERT_LE(0, h);
	ASSERT_NE(0, id);
	ASSERT_EQ(0, stuck_query(self->fd, h, &qid));
	ASSERT_EQ(id, qid);
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &info));
	ASSERT_EQ(self->base.stuck + 1, info.stuck);
	ASSERT_EQ(0, stuck_destroy(self->fd, h));
	ASSERT_EQ(-ENOENT, stuck_query(self->fd, h, &qid));
	ASSERT_EQ(-ENOENT, stuck_destroy(self->fd, h));
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &info));
	ASSERT_EQ(self->base.stuck, info.stuck);
	/* One that lives to the close goes with it, silently. */
	ASSERT_LE(0, stuck_create(self->fd, 0, -1, NULL));
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	ASSERT_EQ(0, kmsg_scan(self->kmsg).warnings);
}

TEST_F(leak, unknown_flag)
{
	ASSERT_EQ(-EINVAL, stuck_create(self->fd, OVBTEST_STUCK_REFUSE << 1, -1, NULL));
}

/*
 * A create that fails after the object exists aborts it: the driver's
 * destroy runs with RDMA_REMOVE_ABORT, which even a refusing object
 * accepts (6.1 WARNs when an abort fails).
 */
TEST_F(leak, aborted_create)
{
	struct ovbtest_device_info info;
	__u32 flags = OVBTEST_STUCK_REFUSE;
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_STUCK, OVBTEST_METHOD_STUCK_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_STUCK_CREATE_HANDLE, 0);
	ioc_in(&c, OVBTEST_ATTR_STUCK_CREATE_FLAGS, &flags, sizeof(flags));
	ioc_out(&c, OVBTEST_ATTR_STUCK_CREATE_ID, (void *)8, sizeof(__u32));
	ASSERT_EQ(-EFAULT, ioc_call(self->fd, &c));
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &info));
	ASSERT_EQ(self->base.stuck, info.stuck);
	ASSERT_EQ(0, kmsg_scan(self->kmsg).warnings);
}

/*
 * The leak: DESTROY answers EBUSY and keeps the handle; the close WARNs
 * once in uverbs_destroy_ufile_hw and leaves the object to the driver;
 * the device serves a new context, and the module unloads without
 * another report.
 */
TEST_F(leak, refused_destroy_leaks_at_close)
{
	struct ovbtest_device_info info;
	struct kmsg_counts log;
	__u32 id = 0, qid = 0;
	int h, pd, fd;

	pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, pd);
	h = stuck_create(self->fd, OVBTEST_STUCK_REFUSE, -1, &id);
	ASSERT_LE(0, h);

	/* The driver's errno, the handle untouched, as often as asked. */
	ASSERT_EQ(-EBUSY, stuck_destroy(self->fd, h));
	ASSERT_EQ(-EBUSY, stuck_destroy(self->fd, h));
	ASSERT_EQ(0, stuck_query(self->fd, h, &qid));
	ASSERT_EQ(id, qid);
	ASSERT_EQ(0, ovbtest_device_info(self->fd, &info));
	ASSERT_EQ(self->base.stuck + 1, info.stuck);
	ASSERT_EQ(self->base.stuck_orphans, info.stuck_orphans);
	ASSERT_EQ(self->base.pds + 1, info.pds);

	/* The close: the PD goes, the object cannot, the core gives up. */
	kmsg_say("ovb-expect: begin " LEAK_WARN_RE "\n");
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	kmsg_say("ovb-expect: end\n");
	log = kmsg_scan(self->kmsg);
	ASSERT_EQ(1, log.leak_warnings);
	ASSERT_EQ(1, log.warnings);

	/* The device lives on; the driver still holds the leaked object. */
	fd = ovbtest_open_ctx();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ovbtest_device_info(fd, &info));
	ASSERT_EQ(self->base.pds, info.pds);
	ASSERT_EQ(self->base.contexts, info.contexts);
	ASSERT_EQ(self->base.stuck + 1, info.stuck);
	ASSERT_EQ(self->base.stuck_orphans + 1, info.stuck_orphans);
	pd = raw_alloc_pd(fd);
	ASSERT_LE(0, pd);
	h = stuck_create(fd, 0, -1, NULL);
	ASSERT_LE(0, h);
	ASSERT_EQ(0, stuck_destroy(fd, h));
	ASSERT_EQ(0, close(fd));

	/* The module frees what ib_uverbs forgot and goes quietly. */
	ASSERT_EQ(0, ovbtest_unload_wait());
	ASSERT_FALSE(ovbtest_loaded());
	log = kmsg_scan(self->kmsg);
	ASSERT_EQ(1, log.freed);
	ASSERT_EQ(0, log.warnings);
}

TEST_HARNESS_MAIN
