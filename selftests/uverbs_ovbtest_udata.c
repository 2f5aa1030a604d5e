// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Destroy callbacks that read their context from the udata, as mlx4,
 * mlx5, siw and irdma do (rdma_udata_to_drv_context()): the test HCA
 * remembers which context created each PD, CQ, MR and QP, and each
 * destroy compares it with the context its udata names
 * (selftests/ovbtest/udata.c).  ib_uverbs must pass the object's own
 * context on an explicit DESTROY (write() and ioctl), at close() of the
 * file and at disassociate (rmmod with the objects alive), also while a
 * second context of the same device exists.  The driver counts into module
 * parameters, and logs the totals at unload.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

#define PARAM_DIR	"/sys/module/" HCA_MODULE "/parameters/"

/* ovbtest's count @name; -1 when unreadable. */
static int udata_count(const char *name)
{
	char path[128], buf[32] = "";
	int fd, n;

	snprintf(path, sizeof(path), PARAM_DIR "destroy_udata_%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}

/* The user objects each case makes: a PD, a CQ, an MR and a QP on them. */
struct objs {
	int pd, cq, mr, qp;
};

#define OBJS_N	4
#define QPT_RC	2	/* enum ib_qp_type */

static char mr_buf[4096] __attribute__((aligned(4096)));

static int objs_make(int fd, struct objs *o)
{
	struct ib_uverbs_create_cq_resp cq = {};
	int ret;

	o->pd = raw_alloc_pd(fd);
	if (o->pd < 0)
		return o->pd;
	ret = raw_create_cq(fd, 16, 0, -1, 1, &cq);
	if (ret)
		return ret;
	o->cq = cq.cq_handle;
	o->mr = ovbtest_reg_mr(fd, o->pd, mr_buf, sizeof(mr_buf), 0);
	if (o->mr < 0)
		return o->mr;
	o->qp = raw_create_qp(fd, QPT_RC, o->pd, o->cq, -1, NULL);
	return o->qp < 0 ? o->qp : 0;
}

/* DESTROY of a PD by ioctl (the others go by write()). */
static int ioctl_dealloc_pd(int fd, __u32 pd)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_PD_HANDLE, pd);
	return ioc_call(fd, &c);
}

FIXTURE(udata) {
	int a, b;	/* two contexts of ovbtest0 */
	int checked, wrong;
};

FIXTURE_SETUP(udata)
{
	self->a = -1;
	self->b = -1;
	HCA_SETUP_LOAD();
	self->a = ovbtest_open_ctx();
	ASSERT_LE(0, self->a);
	self->b = ovbtest_open_ctx();
	ASSERT_LE(0, self->b);
	self->checked = udata_count("checked");
	self->wrong = udata_count("wrong");
	ASSERT_LE(0, self->checked);
	ASSERT_LE(0, self->wrong);
}

FIXTURE_TEARDOWN(udata)
{
	if (self->a >= 0)
		close(self->a);
	if (self->b >= 0)
		close(self->b);
}

/* Each DESTROY of the second context's objects names it, not the first. */
TEST_F(udata, explicit_destroy)
{
	struct objs a, b;

	ASSERT_EQ(0, objs_make(self->a, &a));
	ASSERT_EQ(0, objs_make(self->b, &b));
	ASSERT_EQ(0, raw_destroy_qp(self->b, b.qp));
	ASSERT_EQ(0, ovbtest_dereg_mr(self->b, b.mr));
	ASSERT_EQ(0, raw_destroy_cq(self->b, b.cq, NULL));
	ASSERT_EQ(0, ioctl_dealloc_pd(self->b, b.pd));
	EXPECT_EQ(self->checked + OBJS_N, udata_count("checked"));
	EXPECT_EQ(self->wrong, udata_count("wrong"));
}

/* The close of one file destroys its objects with its own context. */
TEST_F(udata, close)
{
	struct objs a, b;

	ASSERT_EQ(0, objs_make(self->a, &a));
	ASSERT_EQ(0, objs_make(self->b, &b));
	ASSERT_EQ(0, close(self->a));
	self->a = -1;
	EXPECT_EQ(self->checked + OBJS_N, udata_count("checked"));
	EXPECT_EQ(self->wrong, udata_count("wrong"));
	ASSERT_EQ(0, close(self->b));
	self->b = -1;
	EXPECT_EQ(self->checked + 2 * OBJS_N, udata_count("checked"));
	EXPECT_EQ(self->wrong, udata_count("wrong"));
}

/* The "ovbtest: destroy udata: N checked, M wrong" line of the unload. */
static int kmsg_report(int fd, int *checked, int *wrong)
{
	char rec[8192];
	int found = 0;
	ssize_t n;

	for (;;) {
		char *p;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		p = strstr(rec, "ovbtest: destroy udata: ");
		if (p && sscanf(p, "ovbtest: destroy udata: %d checked, %d wrong",
				checked, wrong) == 2)
			found = 1;
	}
	return found;
}

/*
 * rmmod with both files open and their objects alive: ib_core
 * disassociates the contexts, and each destroy still names its own.  The
 * module is gone after this case.
 */
TEST_F(udata, disassociate)
{
	int k, i, checked = -1, wrong = -1;
	struct objs a, b;

	ASSERT_EQ(0, objs_make(self->a, &a));
	ASSERT_EQ(0, objs_make(self->b, &b));
	k = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, k);
	ASSERT_LE(0, lseek(k, 0, SEEK_END));
	for (i = 0; i < 100 && ovbtest_loaded(); i++) {
		int ret = ovbtest_unload();

		if (ret && ret != -EAGAIN && ret != -EBUSY)
			break;
		if (ret)
			usleep(20000);
	}
	ASSERT_FALSE(ovbtest_loaded());
	ASSERT_TRUE(kmsg_report(k, &checked, &wrong));
	close(k);
	EXPECT_EQ(self->checked + 2 * OBJS_N, checked);
	EXPECT_EQ(self->wrong, wrong);
	/* The files still close after the unplug. */
	ASSERT_EQ(0, close(self->a));
	self->a = -1;
	ASSERT_EQ(0, close(self->b));
	self->b = -1;
}

OVBTEST_UNLOAD_FIXTURE(PARAM_DIR "destroy_udata_checked")

TEST_HARNESS_MAIN
