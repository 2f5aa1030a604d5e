// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Core-typed objects that a driver method makes and core methods destroy,
 * and a driver method on a core object, as mlx5 has them (hw/mlx5/fs.c,
 * dm.c), on the test HCA (selftests/ovbtest/drv_flow.c, dm.c):
 *  - FLOW_CREATE, the driver's method on the core FLOW object: the driver
 *    makes the rule and gives it to ib_uverbs with ib_set_flow(), which
 *    takes a reference on the destination QP; the flow actions it names
 *    are pinned through flow_resources_add().  The rule is then a FLOW
 *    like EX_CREATE_FLOW's: the core's FLOW_DESTROY (ioctl), write()
 *    EX_DESTROY_FLOW and the driver's own DESTROY method (the core's
 *    destroy, as mlx5's DESTROY_FLOW) destroy it; DESTROY_QP is EBUSY and
 *    FLOW_ACTION_DESTROY is EBUSY while a rule holds them; an error after
 *    ib_set_flow() destroys the rule through the core; close() and
 *    hot-unplug destroy rules before their QP.
 *  - DM_QUERY, the driver's global method tree on the core DM object: it
 *    reads the DM the core looked up (length as DM_ALLOC recorded it, MRs
 *    over it as DM_MR_REG counted them).
 * The driver logs each destroy_flow of its rules and each destroy_qp of
 * their QPs, with the QP's usecnt during the call (FLOW_LOG, or the lines
 * it prints at unload after a hot-unplug): the order and the references
 * are asserted from that log.  Bad handles get the in-tree errnos.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_stuck.h"
#include "ovbtest_xrc.h"

/* --------------------------------------------------- the driver's log */

struct flog {
	char text[512];		/* "F<id>/<qpn>/<usecnt>" and "Q<qpn>/<usecnt>" */
	int n;
	struct ovbtest_flow_record rec[16];	/* the first 16 */
};

static void flog_add(struct flog *l, const struct ovbtest_flow_record *r)
{
	size_t len = strlen(l->text);
	const char *sep = l->n ? " " : "";

	if (r->kind == OVBTEST_FLOW_LOG_FLOW)
		snprintf(l->text + len, sizeof(l->text) - len, "%sF%u/%u/%u",
			 sep, r->id, r->qpn, r->qp_usecnt);
	else if (r->kind == OVBTEST_FLOW_LOG_QP && r->id == r->qpn)
		snprintf(l->text + len, sizeof(l->text) - len, "%sQ%u/%u",
			 sep, r->qpn, r->qp_usecnt);
	else
		snprintf(l->text + len, sizeof(l->text) - len, "%s?%u/%u/%u/%u",
			 sep, r->kind, r->id, r->qpn, r->qp_usecnt);
	if (l->n < (int)(sizeof(l->rec) / sizeof(l->rec[0])))
		l->rec[l->n] = *r;
	l->n++;
}

/* Drains FLOW_LOG into @l; 0 or -errno. */
static int flow_log(int fd, struct flog *l)
{
	struct ovbtest_flow_record rec[8];
	struct ioc c;
	__u32 n, i;
	int ret;

	memset(l, 0, sizeof(*l));
	do {
		ovbtest_ioc_init(&c, UVERBS_OBJECT_FLOW,
				 OVBTEST_METHOD_FLOW_LOG);
		ioc_out(&c, OVBTEST_ATTR_FLOW_LOG_RECORDS, rec, sizeof(rec));
		ioc_out(&c, OVBTEST_ATTR_FLOW_LOG_COUNT, &n, sizeof(n));
		n = ~0U;
		ret = ioc_call(fd, &c);
		if (ret)
			return ret;
		if (n > 8)
			return -EOVERFLOW;
		for (i = 0; i < n; i++)
			flog_add(l, &rec[i]);
	} while (n == 8);
	return 0;
}

/* The log's text must be exactly the printf of @fmt. */
#define ASSERT_FLOG(fd, fmt, ...)					\
	do {								\
		struct flog __l;					\
		char __want[512];					\
									\
		snprintf(__want, sizeof(__want), fmt, ##__VA_ARGS__);	\
		ASSERT_EQ(0, flow_log(fd, &__l));			\
		ASSERT_STREQ(__want, __l.text);				\
	} while (0)

/* The "ovbtest: flow log:" lines the module printed at unload. */
static void kmsg_flog(int kfd, struct flog *l, int *warnings)
{
	char rec[8192];
	regex_t re;

	memset(l, 0, sizeof(*l));
	*warnings = 0;
	if (regcomp(&re, LEAK_WARN_RE, REG_EXTENDED | REG_NOSUB))
		abort();
	for (;;) {
		const char *text = kmsg_next(kfd, rec, sizeof(rec));
		struct ovbtest_flow_record r = {};
		int leak = 0;

		if (!text)
			break;
		kmsg_count_warning(text, &re, warnings, &leak);
		if (sscanf(text, "ovbtest: flow log: %u %u %u %u", &r.kind,
			   &r.id, &r.qpn, &r.qp_usecnt) == 4)
			flog_add(l, &r);
		else if (strstr(text, "ovbtest: flow log:"))
			(*warnings)++;	/* records lost */
	}
	regfree(&re);
}

/* ---------------------------------------------------------- the calls */

/* Leaves an optional attribute out. */
#define NONE	(-1LL)

/*
 * FLOW_CREATE on @qp (NONE: no QP) with the @n flow actions @acts (an
 * attribute of @n handles, none when @acts is NULL); the rule's id into
 * *@id (NULL: no ID attribute).  The handle or -errno.
 */
static int drv_flow_create(int fd, long long qp, const __u32 *acts, int n,
			   __u32 *id)
{
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_FLOW, OVBTEST_METHOD_FLOW_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_FLOW_CREATE_HANDLE, 0);
	if (qp != NONE)
		ioc_obj(&c, OVBTEST_ATTR_FLOW_CREATE_DEST_QP, qp);
	if (acts)
		ioc_in(&c, OVBTEST_ATTR_FLOW_CREATE_ACTIONS, acts,
		       n * sizeof(*acts));
	if (id)
		ioc_out(&c, OVBTEST_ATTR_FLOW_CREATE_ID, id, sizeof(*id));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

/* A destroy method whose only attribute is the handle. */
static int destroy_by_ioctl(int fd, __u16 object, __u16 method, __u16 attr,
			    __u32 handle)
{
	struct ioc c;

	ovbtest_ioc_init(&c, object, method);
	ioc_obj(&c, attr, handle);
	return ioc_call(fd, &c);
}

#define FLOW_DESTROY(fd, h)						\
	destroy_by_ioctl(fd, UVERBS_OBJECT_FLOW, UVERBS_METHOD_FLOW_DESTROY, \
			 UVERBS_ATTR_DESTROY_FLOW_HANDLE, h)
#define DRV_FLOW_DESTROY(fd, h)						\
	destroy_by_ioctl(fd, UVERBS_OBJECT_FLOW, OVBTEST_METHOD_FLOW_DESTROY, \
			 OVBTEST_ATTR_FLOW_DESTROY_HANDLE, h)
#define ACTION_DESTROY(fd, h)						\
	destroy_by_ioctl(fd, UVERBS_OBJECT_FLOW_ACTION,			\
			 UVERBS_METHOD_FLOW_ACTION_DESTROY,		\
			 UVERBS_ATTR_DESTROY_FLOW_ACTION_HANDLE, h)
#define DM_FREE(fd, h)							\
	destroy_by_ioctl(fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE,	\
			 UVERBS_ATTR_FREE_DM_HANDLE, h)

/* QP_DESTROY by ioctl; 0 or -errno. */
static int qp_destroy_ioctl(int fd, __u32 handle)
{
	struct ib_uverbs_destroy_qp_resp resp;
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_QP_HANDLE, handle);
	ioc_out(&c, UVERBS_ATTR_DESTROY_QP_RESP, &resp, sizeof(resp));
	return ioc_call(fd, &c);
}

/* A flow action of the driver's FLOW_ACTION method; handle or -errno. */
static int action_create(int fd)
{
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_FLOW_ACTION,
			 OVBTEST_METHOD_FLOW_ACTION_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_FLOW_ACTION_CREATE_HANDLE, 0);
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

/* EX_CREATE_FLOW on @qp by write(): a drop spec, or an action handle. */
static int write_flow_create(int fd, __u32 qp, long long action)
{
	struct {
		struct ib_uverbs_create_flow cmd;
		struct ib_uverbs_flow_spec_action_handle act;
	} req = {
		.cmd.qp_handle = qp,
		.cmd.flow_attr = { .priority = 1, .port = 1,
				   .num_of_specs = 1, .size = 8 },
		.act = { .type = 0x1001, .size = 8 },	/* drop */
	};
	struct ib_uverbs_create_flow_resp out = {};
	size_t len = sizeof(req.cmd) + 8;
	ssize_t ret;

	if (action != NONE) {
		req.cmd.flow_attr.size = 16;
		req.act.type = 0x1002;			/* action handle */
		req.act.size = 16;
		req.act.handle = action;
		len = sizeof(req);
	}
	ret = raw_ex_cmd(fd, IB_USER_VERBS_EX_CMD_CREATE_FLOW, &req, len, 0,
			 &out, sizeof(out), 0);
	return ret < 0 ? (int)ret : (int)out.flow_handle;
}

/* DM_ALLOC with the driver's mmap attribute; the handle or -errno. */
static int dm_alloc(int fd, __u64 length, struct ovbtest_dm_mmap *where)
{
	__u32 alignment = 0;
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	ioc_obj(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, &length, sizeof(length));
	ioc_in(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, &alignment,
	       sizeof(alignment));
	ioc_out(&c, OVBTEST_ATTR_DM_ALLOC_MMAP, where, sizeof(*where));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

/* The DM's (page index, length, MRs); @mrs NULL leaves MRS out. */
static int dm_query(int fd, __u32 dm, __u16 *page_idx, __u64 *length,
		    __u32 *mrs)
{
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DM, OVBTEST_METHOD_DM_QUERY);
	ioc_obj(&c, OVBTEST_ATTR_DM_QUERY_HANDLE, dm);
	if (page_idx)
		ioc_out(&c, OVBTEST_ATTR_DM_QUERY_PAGE_INDEX, page_idx,
			sizeof(*page_idx));
	if (length)
		ioc_out(&c, OVBTEST_ATTR_DM_QUERY_LENGTH, length,
			sizeof(*length));
	if (mrs)
		ioc_out(&c, OVBTEST_ATTR_DM_QUERY_MRS, mrs, sizeof(*mrs));
	return ioc_call(fd, &c);
}

/* A zero-based MR over the DM's first page (core DM_MR_REG). */
static int dm_mr_reg(int fd, __u32 pd, __u32 dm)
{
	__u64 offset = 0, length = 4096;
	__u32 lkey, rkey;
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG);
	ioc_obj(&c, UVERBS_ATTR_REG_DM_MR_HANDLE, 0);
	ioc_in(&c, UVERBS_ATTR_REG_DM_MR_OFFSET, &offset, sizeof(offset));
	ioc_in(&c, UVERBS_ATTR_REG_DM_MR_LENGTH, &length, sizeof(length));
	ioc_obj(&c, UVERBS_ATTR_REG_DM_MR_PD_HANDLE, pd);
	ioc_const(&c, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS,
		  IB_UVERBS_ACCESS_ZERO_BASED | IB_UVERBS_ACCESS_LOCAL_WRITE);
	ioc_obj(&c, UVERBS_ATTR_REG_DM_MR_DM_HANDLE, dm);
	ioc_out(&c, UVERBS_ATTR_REG_DM_MR_RESP_LKEY, &lkey, sizeof(lkey));
	ioc_out(&c, UVERBS_ATTR_REG_DM_MR_RESP_RKEY, &rkey, sizeof(rkey));
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

/* rmmod, retried while busy for up to 15 s of wall clock (a loaded host) */
static int unload_wait(void)
{
	struct timespec t0, t;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ret = ovbtest_unload();
		if (ret != -EAGAIN && ret != -EWOULDBLOCK && ret != -EBUSY)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 15)
			break;
		usleep(20000);
	}
	return ret;
}

/* ------------------------------------------------------------ fixture */

FIXTURE(dflow) {
	int fd;
	int kmsg;
	int pd, cq;
	struct ovbtest_res_info base;
};

FIXTURE_SETUP(dflow)
{
	struct flog old;

	self->fd = -1;
	self->kmsg = -1;
	HCA_SETUP_LOAD();
	self->kmsg = kmsg_open();
	ASSERT_LE(0, self->kmsg);
	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	self->pd = raw_alloc_pd(self->fd);
	ASSERT_LE(0, self->pd);
	HCA_SETUP_CQ(self->fd, self->cq);
	ASSERT_EQ(0, res_of(self->fd, &self->base));
	ASSERT_EQ(0, flow_log(self->fd, &old));		/* earlier tests' */
}

FIXTURE_TEARDOWN(dflow)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->kmsg >= 0)
		close(self->kmsg);
}

#define EXPECT_LIVE(field, n) do {					\
	struct ovbtest_res_info _r;					\
	ASSERT_EQ(0, res_of(self->fd, &_r));				\
	EXPECT_EQ(self->base.field + (n), _r.field);			\
} while (0)

static int ud_qp(int fd, int pd, int cq, __u32 *qpn)
{
	return raw_create_qp(fd, QPT_UD, pd, cq, -1, qpn);
}

/* ------------------------------------------------- destroyed by the core */

/*
 * The driver's rule is a FLOW handle: the core's FLOW_DESTROY takes it
 * (a QP's handle there is EINVAL, a gone one ENOENT); until then the QP
 * it holds refuses DESTROY_QP by write() and by ioctl.  The driver's
 * destroy_flow runs with the QP still held (usecnt 1), the QP's after.
 */
TEST_F(dflow, destroyed_by_core_ioctl)
{
	__u32 qpn = 0, id = 0;
	int qp, f;

	qp = ud_qp(self->fd, self->pd, self->cq, &qpn);
	ASSERT_LE(0, qp);
	f = drv_flow_create(self->fd, qp, NULL, 0, &id);
	ASSERT_LE(0, f);
	EXPECT_NE(0, id);
	EXPECT_LIVE(flows, 1);
	ASSERT_FLOG(self->fd, "%s", "");

	EXPECT_EQ(-EBUSY, raw_destroy_qp(self->fd, qp));
	EXPECT_EQ(-EBUSY, qp_destroy_ioctl(self->fd, qp));
	EXPECT_EQ(-EINVAL, FLOW_DESTROY(self->fd, qp));
	ASSERT_FLOG(self->fd, "%s", "");
	EXPECT_EQ(0, FLOW_DESTROY(self->fd, f));
	EXPECT_EQ(-ENOENT, FLOW_DESTROY(self->fd, f));
	ASSERT_FLOG(self->fd, "F%u/%u/1", id, qpn);
	EXPECT_LIVE(flows, 0);
	EXPECT_EQ(0, qp_destroy_ioctl(self->fd, qp));
	ASSERT_FLOG(self->fd, "Q%u/0", qpn);
	EXPECT_LIVE(qps, 0);
}

/*
 * write() EX_DESTROY_FLOW takes an ioctl-made rule too.  Rules of both
 * kinds on one QP each hold it: the driver sees the count (3, then 1),
 * the QP goes after the last.
 */
TEST_F(dflow, destroyed_by_write_and_counted)
{
	__u32 qpn = 0, id1 = 0, id3 = 0;
	int qp, f1, f2, f3;

	qp = ud_qp(self->fd, self->pd, self->cq, &qpn);
	ASSERT_LE(0, qp);
	f1 = drv_flow_create(self->fd, qp, NULL, 0, &id1);
	ASSERT_LE(0, f1);
	f2 = write_flow_create(self->fd, qp, NONE);
	ASSERT_LE(0, f2);
	f3 = drv_flow_create(self->fd, qp, NULL, 0, &id3);
	ASSERT_LE(0, f3);
	EXPECT_EQ(id1 + 1, id3);
	EXPECT_LIVE(flows, 3);

	EXPECT_EQ(-EINVAL, destroy_flow(self->fd, qp));
	EXPECT_EQ(0, destroy_flow(self->fd, f3));
	EXPECT_EQ(-ENOENT, destroy_flow(self->fd, f3));
	ASSERT_FLOG(self->fd, "F%u/%u/3", id3, qpn);
	EXPECT_EQ(-EBUSY, raw_destroy_qp(self->fd, qp));
	EXPECT_EQ(0, FLOW_DESTROY(self->fd, f2));	/* the write() rule */
	ASSERT_FLOG(self->fd, "%s", "");
	EXPECT_EQ(-EBUSY, raw_destroy_qp(self->fd, qp));
	EXPECT_EQ(0, destroy_flow(self->fd, f1));
	ASSERT_FLOG(self->fd, "F%u/%u/1", id1, qpn);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	ASSERT_FLOG(self->fd, "Q%u/0", qpn);
	EXPECT_LIVE(flows, 0);
	EXPECT_LIVE(qps, 0);
}

/*
 * The driver's DESTROY method on the core object (the core's destroy
 * under the driver's id): rules of FLOW_CREATE and of EX_CREATE_FLOW
 * alike; a QP's handle EINVAL, a gone one ENOENT.
 */
TEST_F(dflow, destroyed_by_driver_method)
{
	__u32 qpn = 0, id = 0;
	int qp, f, w;

	qp = ud_qp(self->fd, self->pd, self->cq, &qpn);
	ASSERT_LE(0, qp);
	f = drv_flow_create(self->fd, qp, NULL, 0, &id);
	ASSERT_LE(0, f);
	w = write_flow_create(self->fd, qp, NONE);
	ASSERT_LE(0, w);
	EXPECT_EQ(-EINVAL, DRV_FLOW_DESTROY(self->fd, qp));
	EXPECT_EQ(0, DRV_FLOW_DESTROY(self->fd, w));
	EXPECT_EQ(-ENOENT, DRV_FLOW_DESTROY(self->fd, w));
	ASSERT_FLOG(self->fd, "%s", "");
	EXPECT_LIVE(flows, 1);
	EXPECT_EQ(0, DRV_FLOW_DESTROY(self->fd, f));
	EXPECT_EQ(-ENOENT, DRV_FLOW_DESTROY(self->fd, f));
	EXPECT_EQ(-ENOENT, FLOW_DESTROY(self->fd, f));
	ASSERT_FLOG(self->fd, "F%u/%u/1", id, qpn);
	EXPECT_LIVE(flows, 0);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	ASSERT_FLOG(self->fd, "Q%u/0", qpn);
}

/* A rule without a QP (mlx5: a DEVX destination): nothing held. */
TEST_F(dflow, rule_without_qp)
{
	__u32 id = 0;
	int f;

	f = drv_flow_create(self->fd, NONE, NULL, 0, &id);
	ASSERT_LE(0, f);
	EXPECT_LIVE(flows, 1);
	EXPECT_EQ(0, FLOW_DESTROY(self->fd, f));
	ASSERT_FLOG(self->fd, "F%u/0/0", id);
	EXPECT_LIVE(flows, 0);
}

/*
 * Bad handles, refused before the driver runs (wrong type EINVAL, none
 * ENOENT, an array of 0 or 3 handles EINVAL) or by it (an RC QP, as mlx5
 * refuses a non-RAW_PACKET one): nothing made, nothing held after.
 */
TEST_F(dflow, bad_handles)
{
	__u32 rcqpn = 0, qpn = 0;
	__u32 acts[3];
	int qp, rc, a;
	struct ioc c;

	qp = ud_qp(self->fd, self->pd, self->cq, &qpn);
	ASSERT_LE(0, qp);
	rc = raw_create_qp(self->fd, QPT_RC, self->pd, self->cq, -1, &rcqpn);
	ASSERT_LE(0, rc);
	a = action_create(self->fd);
	ASSERT_LE(0, a);

	EXPECT_EQ(-EINVAL, drv_flow_create(self->fd, self->pd, NULL, 0, NULL));
	EXPECT_EQ(-ENOENT, drv_flow_create(self->fd, qp + 50, NULL, 0, NULL));
	EXPECT_EQ(-EINVAL, drv_flow_create(self->fd, rc, NULL, 0, NULL));
	acts[0] = qp;
	EXPECT_EQ(-EINVAL, drv_flow_create(self->fd, qp, acts, 1, NULL));
	acts[0] = a + 50;
	EXPECT_EQ(-ENOENT, drv_flow_create(self->fd, qp, acts, 1, NULL));
	acts[0] = acts[1] = acts[2] = a;
	EXPECT_EQ(-EINVAL, drv_flow_create(self->fd, qp, acts, 3, NULL));
	EXPECT_EQ(-EINVAL, drv_flow_create(self->fd, qp, acts, 0, NULL));
	/* no handle for the new object */
	ovbtest_ioc_init(&c, UVERBS_OBJECT_FLOW, OVBTEST_METHOD_FLOW_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_FLOW_CREATE_DEST_QP, qp);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));

	EXPECT_LIVE(flows, 0);
	ASSERT_FLOG(self->fd, "%s", "");
	EXPECT_EQ(0, ACTION_DESTROY(self->fd, a));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, rc));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	/* neither was a rule's QP: not logged */
	ASSERT_FLOG(self->fd, "%s", "");
}

/*
 * The driver's flow actions, held by the driver's rule (its flow
 * resources) and by a write() rule: FLOW_ACTION_DESTROY is EBUSY until
 * every rule holding one is gone, then the core's destroy takes it.
 */
TEST_F(dflow, actions_held_by_rule)
{
	__u32 qpn = 0, id = 0, acts[2];
	int qp, a1, a2, f, w;

	qp = ud_qp(self->fd, self->pd, self->cq, &qpn);
	ASSERT_LE(0, qp);
	a1 = action_create(self->fd);
	ASSERT_LE(0, a1);
	a2 = action_create(self->fd);
	ASSERT_LE(0, a2);
	acts[0] = a1;
	acts[1] = a2;
	f = drv_flow_create(self->fd, qp, acts, 2, &id);
	ASSERT_LE(0, f);
	w = write_flow_create(self->fd, qp, a1);
	ASSERT_LE(0, w);
	EXPECT_EQ(-EBUSY, ACTION_DESTROY(self->fd, a1));
	EXPECT_EQ(-EBUSY, ACTION_DESTROY(self->fd, a2));

	EXPECT_EQ(0, FLOW_DESTROY(self->fd, f));
	ASSERT_FLOG(self->fd, "F%u/%u/2", id, qpn);
	EXPECT_EQ(0, ACTION_DESTROY(self->fd, a2));
	EXPECT_EQ(-ENOENT, ACTION_DESTROY(self->fd, a2));
	EXPECT_EQ(-EBUSY, ACTION_DESTROY(self->fd, a1));
	EXPECT_EQ(0, destroy_flow(self->fd, w));
	EXPECT_EQ(0, ACTION_DESTROY(self->fd, a1));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	ASSERT_FLOG(self->fd, "Q%u/0", qpn);
}

/*
 * An error after ib_set_flow() (the ID attribute points nowhere: EFAULT):
 * the driver marked the object created, so the core destroys the rule
 * (its destroy_flow with the QP held), then drops the QP and the action.
 */
TEST_F(dflow, error_after_set_flow_destroys_rule)
{
	__u32 qpn = 0, id = 0, acts[1];
	struct flog l;
	struct ioc c;
	int qp, a, f;

	qp = ud_qp(self->fd, self->pd, self->cq, &qpn);
	ASSERT_LE(0, qp);
	a = action_create(self->fd);
	ASSERT_LE(0, a);
	f = drv_flow_create(self->fd, NONE, NULL, 0, &id);	/* the id before */
	ASSERT_LE(0, f);
	EXPECT_EQ(0, FLOW_DESTROY(self->fd, f));
	ASSERT_EQ(0, flow_log(self->fd, &l));

	acts[0] = a;
	ovbtest_ioc_init(&c, UVERBS_OBJECT_FLOW, OVBTEST_METHOD_FLOW_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_FLOW_CREATE_HANDLE, 0);
	ioc_obj(&c, OVBTEST_ATTR_FLOW_CREATE_DEST_QP, qp);
	ioc_in(&c, OVBTEST_ATTR_FLOW_CREATE_ACTIONS, acts, sizeof(acts));
	ioc_out(&c, OVBTEST_ATTR_FLOW_CREATE_ID, (void *)8, sizeof(__u32));
	EXPECT_EQ(-EFAULT, ioc_call(self->fd, &c));

	ASSERT_FLOG(self->fd, "F%u/%u/1", id + 1, qpn);
	EXPECT_LIVE(flows, 0);
	EXPECT_EQ(0, ACTION_DESTROY(self->fd, a));
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	ASSERT_FLOG(self->fd, "Q%u/0", qpn);
	EXPECT_LIVE(qps, 0);
}

/*
 * FLOW_LOG whose record buffer faults (EFAULT): the records stay in the
 * log for the next read.  Fails where the driver takes them out before
 * the copy.
 */
TEST_F(dflow, log_kept_when_copy_faults)
{
	struct ovbtest_flow_record rec[8];
	__u32 qpn = 0, id = 0, n = ~0U;
	struct flog l;
	struct ioc c;
	int qp, f;

	ASSERT_EQ(0, flow_log(self->fd, &l));
	qp = ud_qp(self->fd, self->pd, self->cq, &qpn);
	ASSERT_LE(0, qp);
	f = drv_flow_create(self->fd, qp, NULL, 0, &id);
	ASSERT_LE(0, f);
	EXPECT_EQ(0, FLOW_DESTROY(self->fd, f));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_FLOW, OVBTEST_METHOD_FLOW_LOG);
	ioc_out(&c, OVBTEST_ATTR_FLOW_LOG_RECORDS, (void *)8, sizeof(rec));
	ioc_out(&c, OVBTEST_ATTR_FLOW_LOG_COUNT, &n, sizeof(n));
	EXPECT_EQ(-EFAULT, ioc_call(self->fd, &c));
	ASSERT_FLOG(self->fd, "F%u/%u/1", id, qpn);
	EXPECT_EQ(0, raw_destroy_qp(self->fd, qp));
	ASSERT_FLOG(self->fd, "Q%u/0", qpn);
}

/* ---------------------------------------------------- close and unplug */

/*
 * What a file leaves: a write() rule W on the QP, then the driver's rule
 * F1 on it holding an action, then its rule F2 without a QP.  close()
 * takes them newest first: F2, F1 (the QP held by F1 and W: 2), W, the
 * action, the QP (log: F2, F1, QP); nothing left, no WARN.
 */
TEST_F(dflow, close_destroys_rules_before_qp)
{
	__u32 qpn = 0, id1 = 0, id2 = 0, acts[1];
	struct ovbtest_res_info r;
	struct flog k;
	int qp, a, warnings;

	qp = ud_qp(self->fd, self->pd, self->cq, &qpn);
	ASSERT_LE(0, qp);
	ASSERT_LE(0, write_flow_create(self->fd, qp, NONE));
	a = action_create(self->fd);
	ASSERT_LE(0, a);
	acts[0] = a;
	ASSERT_LE(0, drv_flow_create(self->fd, qp, acts, 1, &id1));
	ASSERT_LE(0, drv_flow_create(self->fd, NONE, NULL, 0, &id2));
	ASSERT_EQ(0, close(self->fd));

	self->fd = ovbtest_open_ctx();
	ASSERT_LE(0, self->fd);
	ASSERT_FLOG(self->fd, "F%u/0/0 F%u/%u/2 Q%u/0", id2, id1, qpn, qpn);
	ASSERT_EQ(0, res_of(self->fd, &r));
	EXPECT_EQ(self->base.flows, r.flows);
	/* the fixture's PD and CQ went with the file, the QP too */
	EXPECT_EQ(self->base.qps, r.qps);
	kmsg_flog(self->kmsg, &k, &warnings);
	EXPECT_EQ(0, warnings);
	EXPECT_EQ(0, k.n);
}

/*
 * Hot-unplug with the file open: the same order with DRIVER_REMOVE,
 * read from the lines the module prints at unload; no WARN.  After it the
 * driver's methods are gone (EIO), but not its DESTROY method: a method
 * whose handler is the core's uverbs_destroy_def_handler is no driver
 * method to ib_uverbs, and, as the core's own, it frees the dead handle.
 */
TEST_F(dflow, unplug_destroys_rules_before_qp)
{
	__u32 qpn = 0, id1 = 0, id2 = 0, acts[1];
	struct ovbtest_dm_mmap where;
	int qp, a, f, f2, warnings;
	char want[256];
	struct flog k;

	qp = ud_qp(self->fd, self->pd, self->cq, &qpn);
	ASSERT_LE(0, qp);
	ASSERT_LE(0, write_flow_create(self->fd, qp, NONE));
	a = action_create(self->fd);
	ASSERT_LE(0, a);
	acts[0] = a;
	f = drv_flow_create(self->fd, qp, acts, 1, &id1);
	ASSERT_LE(0, f);
	f2 = drv_flow_create(self->fd, NONE, NULL, 0, &id2);
	ASSERT_LE(0, f2);
	ASSERT_LE(0, dm_alloc(self->fd, 4096, &where));
	ASSERT_EQ(0, unload_wait());
	ASSERT_FALSE(ovbtest_loaded());
	kmsg_flog(self->kmsg, &k, &warnings);
	EXPECT_EQ(0, warnings);
	snprintf(want, sizeof(want), "F%u/0/0 F%u/%u/2 Q%u/0", id2, id1, qpn,
		 qpn);
	EXPECT_STREQ(want, k.text);
	EXPECT_EQ(-EIO, flow_log(self->fd, &k));
	EXPECT_EQ(-EIO, drv_flow_create(self->fd, NONE, NULL, 0, NULL));
	EXPECT_EQ(0, DRV_FLOW_DESTROY(self->fd, f));
	EXPECT_EQ(-ENOENT, FLOW_DESTROY(self->fd, f));
	EXPECT_EQ(0, FLOW_DESTROY(self->fd, f2));
	EXPECT_EQ(-ENOENT, DRV_FLOW_DESTROY(self->fd, f2));
}

/* ------------------------------------------------- a driver method on DM */

/*
 * DM_QUERY on the core DM object: the page index of the DM's mmap entry
 * (DM_ALLOC's driver attribute gave its offset), the length the core
 * recorded and the MRs it counts (DM_MR_REG, DEREG_MR).  A PD's handle is
 * EINVAL, a freed DM's ENOENT, a missing mandatory attribute EINVAL.
 */
TEST_F(dflow, dm_query)
{
	struct ovbtest_dm_mmap where = { ~0ULL, ~0ULL };
	__u64 length = 0;
	__u16 page = 0xffff;
	__u32 mrs = ~0U;
	int dm, mr;

	dm = dm_alloc(self->fd, 5000, &where);
	ASSERT_LE(0, dm);
	ASSERT_EQ(0, dm_query(self->fd, dm, &page, &length, &mrs));
	EXPECT_EQ(where.offset / getpagesize(), page);
	EXPECT_EQ(5000, length);
	EXPECT_EQ(0, mrs);

	mr = dm_mr_reg(self->fd, self->pd, dm);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, dm_query(self->fd, dm, &page, &length, &mrs));
	EXPECT_EQ(1, mrs);
	mrs = ~0U;
	ASSERT_EQ(0, dm_query(self->fd, dm, &page, &length, NULL));
	EXPECT_EQ(~0U, mrs);
	EXPECT_EQ(-EBUSY, DM_FREE(self->fd, dm));

	EXPECT_EQ(-EINVAL, dm_query(self->fd, self->pd, &page, &length, NULL));
	EXPECT_EQ(-ENOENT, dm_query(self->fd, dm + 50, &page, &length, NULL));
	EXPECT_EQ(-EINVAL, dm_query(self->fd, dm, &page, NULL, NULL));
	EXPECT_EQ(-EINVAL, dm_query(self->fd, dm, NULL, &length, NULL));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	ASSERT_EQ(0, dm_query(self->fd, dm, &page, &length, &mrs));
	EXPECT_EQ(0, mrs);
	EXPECT_EQ(0, DM_FREE(self->fd, dm));
	EXPECT_EQ(-ENOENT, dm_query(self->fd, dm, &page, &length, NULL));
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
