// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: flow rules made by a driver method, as mlx5's CREATE_FLOW makes
 * them from a matcher: the driver builds the rule, pins what it points at
 * in a struct ib_uflow_resources and hands both to ib_uverbs with
 * ib_set_flow(), which makes the new FLOW uobject the rule's and takes a
 * reference on the destination QP (qp->usecnt).  From then on the rule is
 * the core's: FLOW_DESTROY (ioctl), EX_DESTROY_FLOW (write()), close() and
 * hot-unplug destroy it through the core's FLOW type, which calls the
 * driver's destroy_flow (flow.c) and drops the QP and the pins after.  A
 * second driver method destroys it under a driver method id, as mlx5's
 * DESTROY_FLOW does (uverbs_destroy_def_handler: the core's destroy).
 *
 * The driver logs each destroy_flow of such a rule and each destroy_qp of
 * a QP that was one's destination, with the QP's usecnt during the call,
 * so a test sees the order in which close() and unplug take them, and
 * that the core still held the QP while it destroyed the rule.
 */
#include <linux/slab.h>

#define UVERBS_MODULE_NAME ovbtest_drv_flow
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "ovbtest.h"

static atomic_t ovbtest_drv_flow_ids = ATOMIC_INIT(0);

/*
 * The log, module-wide: FLOW_LOG reads it, the unload prints the rest.
 * Readers take drv_flow_log_read in turn, so that records leave the log
 * only once their copy to the reader succeeded.
 */
static DEFINE_MUTEX(drv_flow_log_read);
static DEFINE_SPINLOCK(drv_flow_log_lock);
static struct ovbtest_flow_record drv_flow_log[OVBTEST_FLOW_LOG_MAX];
static unsigned int drv_flow_log_len;
static unsigned int drv_flow_log_lost;

static void ovbtest_drv_flow_log(u32 kind, u32 id, const struct ib_qp *qp)
{
	struct ovbtest_flow_record *rec;

	spin_lock(&drv_flow_log_lock);
	if (drv_flow_log_len == ARRAY_SIZE(drv_flow_log)) {
		drv_flow_log_lost++;
	} else {
		rec = &drv_flow_log[drv_flow_log_len++];
		rec->kind = kind;
		rec->id = id;
		rec->qpn = qp ? qp->qp_num : 0;
		rec->qp_usecnt = qp ? atomic_read(&qp->usecnt) : 0;
	}
	spin_unlock(&drv_flow_log_lock);
}

/* destroy_flow (flow.c) of a FLOW_CREATE rule: the core still holds its QP. */
void ovbtest_drv_flow_gone(struct ovbtest_flow *flow)
{
	ovbtest_drv_flow_log(OVBTEST_FLOW_LOG_FLOW, flow->id, flow->ibflow.qp);
}

/* destroy_qp (qp.c) */
void ovbtest_drv_flow_qp_gone(struct ovbtest_qp *qp)
{
	if (qp->flow_dest)
		ovbtest_drv_flow_log(OVBTEST_FLOW_LOG_QP, qp->ibqp.qp_num,
				     &qp->ibqp);
}

/*
 * Module unload, after the unplug: for the tests that unplugged it.  The
 * records are taken out under the lock and printed after it.
 */
void ovbtest_drv_flow_report(void)
{
	static struct ovbtest_flow_record out[OVBTEST_FLOW_LOG_MAX];
	unsigned int i, n, lost;

	mutex_lock(&drv_flow_log_read);
	spin_lock(&drv_flow_log_lock);
	n = drv_flow_log_len;
	lost = drv_flow_log_lost;
	memcpy(out, drv_flow_log, n * sizeof(*out));
	drv_flow_log_len = 0;
	drv_flow_log_lost = 0;
	spin_unlock(&drv_flow_log_lock);
	for (i = 0; i < n; i++)
		pr_info("ovbtest: flow log: %u %u %u %u\n", out[i].kind,
			out[i].id, out[i].qpn, out[i].qp_usecnt);
	if (lost)
		pr_info("ovbtest: flow log: %u record(s) lost\n", lost);
	mutex_unlock(&drv_flow_log_read);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_FLOW_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, OVBTEST_ATTR_FLOW_CREATE_HANDLE);
	struct ib_device *ibdev = uobj->context->device;
	struct ib_uflow_resources *res;
	struct ib_uobject **actions;
	struct ovbtest_flow *flow;
	struct ib_qp *qp = NULL;
	int n, i;

	if (uverbs_attr_is_valid(attrs, OVBTEST_ATTR_FLOW_CREATE_DEST_QP)) {
		qp = uverbs_attr_get_obj(attrs,
					 OVBTEST_ATTR_FLOW_CREATE_DEST_QP);
		if (IS_ERR(qp))
			return PTR_ERR(qp);
		/* mlx5 steers to RAW_PACKET QPs only; this HCA to UD too */
		if (qp->qp_type != IB_QPT_UD &&
		    qp->qp_type != IB_QPT_RAW_PACKET)
			return -EINVAL;
	}

	flow = kzalloc(sizeof(*flow), GFP_KERNEL);
	if (!flow)
		return -ENOMEM;
	res = flow_resources_alloc(OVBTEST_FLOW_MAX_ACTIONS);
	if (!res) {
		kfree(flow);
		return -ENOMEM;
	}
	n = uverbs_attr_get_uobjs_arr(attrs, OVBTEST_ATTR_FLOW_CREATE_ACTIONS,
				      &actions);
	for (i = 0; i < n; i++)
		flow_resources_add(res, IB_FLOW_SPEC_ACTION_HANDLE,
				   actions[i]->object);
	flow->id = atomic_inc_return(&ovbtest_drv_flow_ids);
	/*
	 * Nothing fails between here and ib_set_flow(); an error after it
	 * destroys the rule through destroy_flow (logged), so the QP was a
	 * rule's destination all the same and logs its destroy_qp.
	 */
	if (qp)
		to_oqp(qp)->flow_dest = true;
	atomic_inc(&to_odev(ibdev)->live.flows);
	ib_set_flow(uobj, &flow->ibflow, qp, ibdev, res);
	/* From here an error destroys the rule (RDMA_REMOVE_ABORT). */
	uverbs_finalize_uobj_create(attrs, OVBTEST_ATTR_FLOW_CREATE_HANDLE);

	if (!uverbs_attr_is_valid(attrs, OVBTEST_ATTR_FLOW_CREATE_ID))
		return 0;
	return uverbs_copy_to(attrs, OVBTEST_ATTR_FLOW_CREATE_ID, &flow->id,
			      sizeof(flow->id));
}

static int UVERBS_HANDLER(OVBTEST_METHOD_FLOW_LOG)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_flow_record *out;
	int len, ret;
	u32 n;

	len = uverbs_attr_get_len(attrs, OVBTEST_ATTR_FLOW_LOG_RECORDS);
	if (len < 0)
		return len;
	out = kcalloc(OVBTEST_FLOW_LOG_MAX, sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mutex_lock(&drv_flow_log_read);
	spin_lock(&drv_flow_log_lock);
	n = min_t(u32, len / sizeof(*out), drv_flow_log_len);
	memcpy(out, drv_flow_log, n * sizeof(*out));
	spin_unlock(&drv_flow_log_lock);

	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_FLOW_LOG_COUNT, &n, sizeof(n));
	if (!ret && n)
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_FLOW_LOG_RECORDS, out,
				     n * sizeof(*out));
	/* copied: out of the log (new records were only appended) */
	if (!ret) {
		spin_lock(&drv_flow_log_lock);
		memmove(drv_flow_log, drv_flow_log + n,
			(drv_flow_log_len - n) * sizeof(*out));
		drv_flow_log_len -= n;
		spin_unlock(&drv_flow_log_lock);
	}
	mutex_unlock(&drv_flow_log_read);
	kfree(out);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_FLOW_CREATE,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_FLOW_CREATE_HANDLE,
					    UVERBS_OBJECT_FLOW,
					    UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_FLOW_CREATE_DEST_QP,
					    UVERBS_OBJECT_QP,
					    UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDRS_ARR(OVBTEST_ATTR_FLOW_CREATE_ACTIONS,
						 UVERBS_OBJECT_FLOW_ACTION,
						 UVERBS_ACCESS_READ, 1,
						 OVBTEST_FLOW_MAX_ACTIONS,
						 UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_FLOW_CREATE_ID,
						UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVBTEST_METHOD_FLOW_DESTROY,
				    UVERBS_ATTR_IDR(OVBTEST_ATTR_FLOW_DESTROY_HANDLE,
						    UVERBS_OBJECT_FLOW,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_FLOW_LOG,
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_FLOW_LOG_RECORDS,
						UVERBS_ATTR_MIN_SIZE(0),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_FLOW_LOG_COUNT,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_drv_flow, UVERBS_OBJECT_FLOW,
		   &UVERBS_METHOD(OVBTEST_METHOD_FLOW_CREATE),
		   &UVERBS_METHOD(OVBTEST_METHOD_FLOW_DESTROY),
		   &UVERBS_METHOD(OVBTEST_METHOD_FLOW_LOG));

const struct uapi_definition ovbtest_drv_flow_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_FLOW, &ovbtest_drv_flow),
	{},
};
