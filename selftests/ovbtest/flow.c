// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: flow steering rules on UD and RAW_PACKET QPs, without a data
 * path.  create_flow takes NORMAL rules of L2-L4 specs (eth, ipv4, tcp,
 * udp) and the drop, tag, action-handle and count actions (counters read
 * back through READ_COUNTERS, dm.c), and records what ib_uverbs handed
 * it - the rule's header and each spec's type, size, value and mask - for
 * OVBTEST_METHOD_DEVICE_LAST_FLOW, so a test can check the specs ib_uverbs
 * parsed from the user's command.
 */
#include <linux/slab.h>

#define UVERBS_MODULE_NAME ovbtest_flow
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "ovbtest.h"

static DEFINE_MUTEX(ovbtest_flow_lock);
static struct ovbtest_flow_info ovbtest_last_flow;	/* ovbtest_flow_lock */

/* Copies a filter's value and mask (both @len bytes) into @rec. */
static void ovbtest_flow_filter(struct ovbtest_flow_spec_rec *rec,
				const void *val, const void *mask, size_t len)
{
	len = min(len, sizeof(rec->val));
	memcpy(rec->val, val, len);
	memcpy(rec->mask, mask, len);
}

static int ovbtest_flow_spec(const union ib_flow_spec *spec,
			     struct ovbtest_flow_spec_rec *rec)
{
	rec->type = spec->type;
	rec->size = spec->size;
	switch (spec->type) {
	case IB_FLOW_SPEC_ETH:
		ovbtest_flow_filter(rec, &spec->eth.val, &spec->eth.mask,
				    sizeof(spec->eth.val));
		break;
	case IB_FLOW_SPEC_IPV4:
		ovbtest_flow_filter(rec, &spec->ipv4.val, &spec->ipv4.mask,
				    sizeof(spec->ipv4.val));
		break;
	case IB_FLOW_SPEC_IPV6:
		/* its last 16 bytes: the end of dst_ip up to hop_limit */
		ovbtest_flow_filter(rec, (const u8 *)&spec->ipv6.val +
				    OVBTEST_FLOW_IPV6_LEN - sizeof(rec->val),
				    (const u8 *)&spec->ipv6.mask +
				    OVBTEST_FLOW_IPV6_LEN - sizeof(rec->val),
				    sizeof(rec->val));
		break;
	case IB_FLOW_SPEC_TCP:
	case IB_FLOW_SPEC_UDP:
		ovbtest_flow_filter(rec, &spec->tcp_udp.val,
				    &spec->tcp_udp.mask,
				    sizeof(spec->tcp_udp.val));
		break;
	case IB_FLOW_SPEC_ACTION_TAG:
		memcpy(rec->val, &spec->flow_tag.tag_id,
		       sizeof(spec->flow_tag.tag_id));
		break;
	case IB_FLOW_SPEC_ACTION_COUNT:
		/* which counters object: its handle */
		memcpy(rec->val, &spec->flow_count.counters->uobject->id,
		       sizeof(spec->flow_count.counters->uobject->id));
		break;
	case IB_FLOW_SPEC_ACTION_DROP:
	case IB_FLOW_SPEC_ACTION_HANDLE:
		break;
	default:
		return -EOPNOTSUPP;
	}
	return 0;
}

static struct ib_flow *ovbtest_create_flow(struct ib_qp *qp,
					   struct ib_flow_attr *attr,
					   struct ib_udata *udata)
{
	struct ovbtest_flow_info *info;
	const union ib_flow_spec *spec;
	struct ovbtest_flow *flow;
	unsigned int i;
	int ret;

	if (attr->type != IB_FLOW_ATTR_NORMAL || attr->flags)
		return ERR_PTR(-EOPNOTSUPP);
	if (attr->num_of_specs > OVBTEST_FLOW_MAX_SPECS)
		return ERR_PTR(-EINVAL);
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return ERR_PTR(-ENOMEM);
	info->type = attr->type;
	info->priority = attr->priority;
	info->num_of_specs = attr->num_of_specs;
	info->port = attr->port;
	info->flags = attr->flags;
	info->qp_num = qp->qp_num;
	spec = (const void *)(attr + 1);
	for (i = 0; i < attr->num_of_specs; i++) {
		ret = ovbtest_flow_spec(spec, &info->specs[i]);
		if (ret) {
			kfree(info);
			return ERR_PTR(ret);
		}
		spec = (const void *)spec + spec->size;
	}

	flow = kzalloc(sizeof(*flow), GFP_KERNEL);
	if (!flow) {
		kfree(info);
		return ERR_PTR(-ENOMEM);
	}
	mutex_lock(&ovbtest_flow_lock);
	info->seq = ovbtest_last_flow.seq + 1;
	ovbtest_last_flow = *info;
	mutex_unlock(&ovbtest_flow_lock);
	kfree(info);
	atomic_inc(&to_odev(qp->device)->live.flows);
	return &flow->ibflow;
}

/* Rules of both kinds: those of FLOW_CREATE are logged (drv_flow.c). */
static int ovbtest_destroy_flow(struct ib_flow *ibflow)
{
	struct ovbtest_flow *flow =
		container_of(ibflow, struct ovbtest_flow, ibflow);

	if (flow->id)
		ovbtest_drv_flow_gone(flow);
	atomic_dec(&to_odev(ibflow->device)->live.flows);
	kfree(flow);
	return 0;
}

static int ovbtest_destroy_flow_action(struct ib_flow_action *action)
{
	kfree(action);
	return 0;
}

const struct ib_device_ops ovbtest_flow_ops = {
	.create_flow = ovbtest_create_flow,
	.destroy_flow = ovbtest_destroy_flow,
	.destroy_flow_action = ovbtest_destroy_flow_action,
};

/* A flow action without hardware behind it: the object is the point. */
static int UVERBS_HANDLER(OVBTEST_METHOD_FLOW_ACTION_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs,
					OVBTEST_ATTR_FLOW_ACTION_CREATE_HANDLE);
	struct ib_flow_action *action;

	action = kzalloc(sizeof(*action), GFP_KERNEL);
	if (!action)
		return -ENOMEM;
	uverbs_flow_action_fill_action(action, uobj, uobj->context->device,
				       IB_FLOW_ACTION_UNSPECIFIED);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_FLOW_ACTION_CREATE,
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_FLOW_ACTION_CREATE_HANDLE,
					    UVERBS_OBJECT_FLOW_ACTION,
					    UVERBS_ACCESS_NEW, UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_flow_action, UVERBS_OBJECT_FLOW_ACTION,
		   &UVERBS_METHOD(OVBTEST_METHOD_FLOW_ACTION_CREATE));

static int UVERBS_HANDLER(OVBTEST_METHOD_DEVICE_LAST_FLOW)(struct uverbs_attr_bundle *attrs)
{
	struct ovbtest_flow_info *info;
	int ret;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	mutex_lock(&ovbtest_flow_lock);
	*info = ovbtest_last_flow;
	mutex_unlock(&ovbtest_flow_lock);
	ret = uverbs_copy_to_struct_or_zero(attrs,
					    OVBTEST_ATTR_DEVICE_LAST_FLOW_INFO,
					    info, sizeof(*info));
	kfree(info);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_DEVICE_LAST_FLOW,
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_DEVICE_LAST_FLOW_INFO,
						UVERBS_ATTR_TYPE(struct ovbtest_flow_info),
						UA_MANDATORY));

ADD_UVERBS_METHODS(ovbtest_device_flow, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(OVBTEST_METHOD_DEVICE_LAST_FLOW));

const struct uapi_definition ovbtest_flow_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &ovbtest_device_flow),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_FLOW_ACTION, &ovbtest_flow_action),
	{},
};
