// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: flow steering rules.
 *
 * EX_CREATE_FLOW attaches a packet-matching rule to a UD or raw-packet QP.
 * The rule is a list of specs in the uverbs layout (header, value, mask),
 * converted here to ib_core's union ib_flow_spec.  Filter specs may be
 * shorter than ib_core's filter (the missing fields match anything) or
 * longer (the extra bytes must be zero); action specs have fixed sizes.
 * Flow actions and counters a rule points at are pinned by the rule's
 * ib_uflow_resources, an interface mlx5_ib also uses (hence the exports).
 */

#include <linux/capability.h>
#include <linux/slab.h>

/*
 * 6.1 exports the flow_resources_* helpers from uverbs_cmd.c, which sees
 * ib_core's private types: so must we, for the same symbol CRCs.
 */
#include "core_types.h"
#include "obj_steps.h"

/* ------------------------------------------------- resources of a rule */

/* Drops the pins a rule holds on flow actions and counters. */
static void flow_resources_unpin(struct ib_uflow_resources *res)
{
	while (res->collection_num)
		atomic_dec(&res->collection[--res->collection_num]->usecnt);
	while (res->counters_num)
		atomic_dec(&res->counters[--res->counters_num]->usecnt);
}

void ib_uverbs_flow_resources_free(struct ib_uflow_resources *uflow_res)
{
	if (!uflow_res)
		return;
	flow_resources_unpin(uflow_res);
	kfree(uflow_res->collection);
	kfree(uflow_res->counters);
	kfree(uflow_res);
}
EXPORT_SYMBOL(ib_uverbs_flow_resources_free);

/* Room to pin one object per spec of a rule. */
struct ib_uflow_resources *flow_resources_alloc(size_t num_specs)
{
	struct ib_uflow_resources *res = kzalloc(sizeof(*res), GFP_KERNEL);

	if (!res || !num_specs)
		goto out;
	res->counters = kcalloc(num_specs, sizeof(*res->counters), GFP_KERNEL);
	res->collection = kcalloc(num_specs, sizeof(*res->collection),
				  GFP_KERNEL);
	if (!res->counters || !res->collection) {
		ib_uverbs_flow_resources_free(res);
		return NULL;
	}
out:
	if (res)
		res->max = num_specs;
	return res;
}
EXPORT_SYMBOL(flow_resources_alloc);

/* Pins @ibobj (a flow action or a counters object) for the rule's life. */
void flow_resources_add(struct ib_uflow_resources *uflow_res,
			enum ib_flow_spec_type type,
			void *ibobj)
{
	WARN_ON(uflow_res->num >= uflow_res->max);

	switch (type) {
	case IB_FLOW_SPEC_ACTION_HANDLE: {
		struct ib_flow_action *action = ibobj;

		atomic_inc(&action->usecnt);
		uflow_res->collection[uflow_res->collection_num++] = action;
		break;
	}
	case IB_FLOW_SPEC_ACTION_COUNT: {
		struct ib_counters *counters = ibobj;

		atomic_inc(&counters->usecnt);
		uflow_res->counters[uflow_res->counters_num++] = counters;
		break;
	}
	default:
		WARN_ON(1);
	}

	uflow_res->num++;
}
EXPORT_SYMBOL(flow_resources_add);

/* ------------------------------------------------------ filter specs */

/*
 * Where each filter type keeps its value and mask in union ib_flow_spec,
 * and how many filter bytes ib_core understands (compat.h).
 */
struct uverbs_flow_filter_desc {
	u32 type;
	u16 spec_size;
	u16 filter_size;
	u16 val_off;
	u16 mask_off;
};

#define UVERBS_FLOW_FILTER(_type, _spec, _filter)			\
	{ .type = (_type),						\
	  .spec_size = sizeof(struct _spec),				\
	  .filter_size = ovb_flow_filter_size(struct _filter),		\
	  .val_off = offsetof(struct _spec, val),			\
	  .mask_off = offsetof(struct _spec, mask) }

static const struct uverbs_flow_filter_desc uverbs_flow_filters[] = {
	UVERBS_FLOW_FILTER(IB_FLOW_SPEC_ETH, ib_flow_spec_eth,
			   ib_flow_eth_filter),
	UVERBS_FLOW_FILTER(IB_FLOW_SPEC_IPV4, ib_flow_spec_ipv4,
			   ib_flow_ipv4_filter),
	UVERBS_FLOW_FILTER(IB_FLOW_SPEC_IPV6, ib_flow_spec_ipv6,
			   ib_flow_ipv6_filter),
	UVERBS_FLOW_FILTER(IB_FLOW_SPEC_TCP, ib_flow_spec_tcp_udp,
			   ib_flow_tcp_udp_filter),
	UVERBS_FLOW_FILTER(IB_FLOW_SPEC_UDP, ib_flow_spec_tcp_udp,
			   ib_flow_tcp_udp_filter),
	UVERBS_FLOW_FILTER(IB_FLOW_SPEC_VXLAN_TUNNEL, ib_flow_spec_tunnel,
			   ib_flow_tunnel_filter),
	UVERBS_FLOW_FILTER(IB_FLOW_SPEC_ESP, ib_flow_spec_esp,
			   ib_flow_esp_filter),
	UVERBS_FLOW_FILTER(IB_FLOW_SPEC_GRE, ib_flow_spec_gre,
			   ib_flow_gre_filter),
	UVERBS_FLOW_FILTER(IB_FLOW_SPEC_MPLS, ib_flow_spec_mpls,
			   ib_flow_mpls_filter),
};

static const struct uverbs_flow_filter_desc *uverbs_flow_filter_find(u32 type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uverbs_flow_filters); i++)
		if (uverbs_flow_filters[i].type == type)
			return &uverbs_flow_filters[i];
	return NULL;
}

/* Values ib_core's filters cannot hold although the field is wider. */
static bool uverbs_flow_filter_valid(const union ib_flow_spec *spec)
{
	switch (spec->type & ~IB_FLOW_SPEC_INNER) {
	case IB_FLOW_SPEC_IPV6:
		/* a 20-bit label */
		return ntohl(spec->ipv6.val.flow_label) < BIT(20) &&
		       ntohl(spec->ipv6.mask.flow_label) < BIT(20);
	case IB_FLOW_SPEC_VXLAN_TUNNEL:
		/* a 24-bit VNI */
		return ntohl(spec->tunnel.val.tunnel_id) < BIT(24) &&
		       ntohl(spec->tunnel.mask.tunnel_id) < BIT(24);
	}
	return true;
}

/*
 * Converts one filter given as value and mask of @kern_filter_sz bytes
 * each (the flow-action ioctl uses this too).  ib_spec must be zeroed.
 */
int ib_uverbs_kern_spec_to_ib_spec_filter(enum ib_flow_spec_type type,
					  const void *kern_spec_mask,
					  const void *kern_spec_val,
					  size_t kern_filter_sz,
					  union ib_flow_spec *ib_spec)
{
	const struct uverbs_flow_filter_desc *desc;
	size_t len;

	if (!IS_ALIGNED(kern_filter_sz, 4))
		return -EINVAL;

	ib_spec->type = type;
	/* A VXLAN header inside a tunnel is not a thing ib_core matches. */
	if (type == (IB_FLOW_SPEC_INNER | IB_FLOW_SPEC_VXLAN_TUNNEL))
		return -EINVAL;
	desc = uverbs_flow_filter_find(type & ~IB_FLOW_SPEC_INNER);
	if (!desc)
		return -EINVAL;

	/* Bytes past what ib_core knows must not ask for a match. */
	len = kern_filter_sz;
	if (len > desc->filter_size) {
		if (memchr_inv(kern_spec_mask + desc->filter_size, 0,
			       len - desc->filter_size))
			return -EINVAL;
		len = desc->filter_size;
	}
	if (!len)
		return -EINVAL;

	ib_spec->size = desc->spec_size;
	memcpy((void *)ib_spec + desc->val_off, kern_spec_val, len);
	memcpy((void *)ib_spec + desc->mask_off, kern_spec_mask, len);
	return uverbs_flow_filter_valid(ib_spec) ? 0 : -EINVAL;
}

/* ------------------------------------------------ specs of a request */

/* Any spec as user space lays it out; its size bounds a rule's length. */
struct uverbs_flow_spec {
	union {
		union {
			struct ovb_flow_spec_hdr hdr;
			struct {
				__u32 type;
				__u16 size;
				__u16 reserved;
			};
		};
		struct ovb_flow_spec_eth eth;
		struct ovb_flow_spec_ipv4 ipv4;
		struct ovb_flow_spec_esp esp;
		struct ovb_flow_spec_tcp_udp tcp_udp;
		struct ovb_flow_spec_ipv6 ipv6;
		struct ovb_flow_spec_action_tag flow_tag;
		struct ovb_flow_spec_action_drop drop;
		struct ovb_flow_spec_action_handle action;
		struct ovb_flow_spec_action_count flow_count;
	};
};

/* 6.1's union of the same members is 88 bytes (the IPv6 spec). */
static_assert(sizeof(struct uverbs_flow_spec) == 88);

/* A filter spec: header, value, mask, the latter two of equal size. */
static int uverbs_flow_filter_spec(const struct uverbs_flow_spec *kspec,
				   union ib_flow_spec *ib_spec)
{
	const void *val = (const void *)kspec + sizeof(kspec->hdr);
	size_t len;

	if (kspec->hdr.size < sizeof(kspec->hdr))
		return -EINVAL;
	len = (kspec->hdr.size - sizeof(kspec->hdr)) / 2;
	return ib_uverbs_kern_spec_to_ib_spec_filter(kspec->type, val + len,
						     val, len, ib_spec);
}

static int uverbs_flow_action_spec(struct uverbs_attr_bundle *attrs,
				   const struct uverbs_flow_spec *kspec,
				   union ib_flow_spec *ib_spec,
				   struct ib_uflow_resources *res)
{
	ib_spec->type = kspec->type;
	switch (kspec->type) {
	case IB_FLOW_SPEC_ACTION_TAG:
		if (kspec->size != sizeof(kspec->flow_tag))
			return -EINVAL;
		ib_spec->flow_tag.size = sizeof(ib_spec->flow_tag);
		ib_spec->flow_tag.tag_id = kspec->flow_tag.tag_id;
		return 0;
	case IB_FLOW_SPEC_ACTION_DROP:
		if (kspec->size != sizeof(kspec->drop))
			return -EINVAL;
		ib_spec->drop.size = sizeof(ib_spec->drop);
		return 0;
	case IB_FLOW_SPEC_ACTION_HANDLE: {
		struct ib_flow_action *act;

		if (kspec->size != sizeof(kspec->action))
			return -EOPNOTSUPP;
		act = uobj_get_obj_read(flow_action, OVB_OBJECT_FLOW_ACTION,
					kspec->action.handle, attrs);
		if (IS_ERR(act))
			return PTR_ERR(act);
		ib_spec->action.size = sizeof(ib_spec->action);
		ib_spec->action.act = act;
		flow_resources_add(res, IB_FLOW_SPEC_ACTION_HANDLE, act);
		uobj_put_obj_read(act);
		return 0;
	}
	case IB_FLOW_SPEC_ACTION_COUNT: {
		struct ib_counters *counters;

		if (kspec->size != sizeof(kspec->flow_count))
			return -EINVAL;
		counters = uobj_get_obj_read(counters, OVB_OBJECT_COUNTERS,
					     kspec->flow_count.handle, attrs);
		if (IS_ERR(counters))
			return PTR_ERR(counters);
		ib_spec->flow_count.size = sizeof(ib_spec->flow_count);
		ib_spec->flow_count.counters = counters;
		flow_resources_add(res, IB_FLOW_SPEC_ACTION_COUNT, counters);
		uobj_put_obj_read(counters);
		return 0;
	}
	}
	return -EINVAL;
}

static int uverbs_flow_one_spec(struct uverbs_attr_bundle *attrs,
				const struct uverbs_flow_spec *kspec,
				union ib_flow_spec *ib_spec,
				struct ib_uflow_resources *res)
{
	if (kspec->reserved)
		return -EINVAL;
	if (kspec->type >= IB_FLOW_SPEC_ACTION_TAG)
		return uverbs_flow_action_spec(attrs, kspec, ib_spec, res);
	return uverbs_flow_filter_spec(kspec, ib_spec);
}

/*
 * Converts the @kattr->num_of_specs specs that follow @kattr (@len bytes
 * of them) into @attr->flows.  Every byte must belong to a spec.
 */
static int uverbs_flow_convert(struct uverbs_attr_bundle *attrs,
			       const struct ovb_flow_attr *kattr,
			       size_t len, struct ib_flow_attr *attr,
			       struct ib_uflow_resources *res)
{
	const void *kspec = kattr->flow_specs;
	void *ib_spec = attr->flows;
	unsigned int i;
	int ret;

	attr->type = kattr->type;
	attr->priority = kattr->priority;
	attr->num_of_specs = kattr->num_of_specs;
	attr->port = kattr->port;
	attr->flags = kattr->flags;
	attr->size = sizeof(*attr);

	for (i = 0; i < kattr->num_of_specs; i++) {
		const struct ovb_flow_spec_hdr *hdr = kspec;
		u16 spec_size;

		if (len < sizeof(*hdr) || len < hdr->size)
			break;
		spec_size = hdr->size;
		ret = uverbs_flow_one_spec(attrs, kspec, ib_spec, res);
		if (ret)
			return ret;
		attr->size += ((union ib_flow_spec *)ib_spec)->size;
		ib_spec += ((union ib_flow_spec *)ib_spec)->size;
		kspec += spec_size;
		len -= spec_size;
	}
	if (len || i != kattr->num_of_specs) {
		pr_warn_ratelimited("ib_uverbs: create flow: spec %u: %zu bytes left over\n",
				    i, len);
		return -EINVAL;
	}
	return 0;
}

/* The checks on the rule header that come before any object is touched. */
static int uverbs_flow_check_attr(const struct ovb_create_flow_req *cmd)
{
	const struct ovb_flow_attr *fa = &cmd->flow_attr;

	if (cmd->comp_mask)
		return -EINVAL;
	if (!capable(CAP_NET_RAW))
		return -EPERM;
	if (fa->flags >= IB_FLOW_ATTR_FLAGS_RESERVED)
		return -EINVAL;
	/* "Don't trap" makes no sense for the catch-all rule types. */
	if ((fa->flags & IB_FLOW_ATTR_FLAGS_DONT_TRAP) &&
	    (fa->type == IB_FLOW_ATTR_ALL_DEFAULT ||
	     fa->type == IB_FLOW_ATTR_MC_DEFAULT))
		return -EINVAL;
	if (fa->num_of_specs > IB_FLOW_SPEC_SUPPORT_LAYERS)
		return -EINVAL;
	if (fa->size > fa->num_of_specs * sizeof(struct uverbs_flow_spec))
		return -EINVAL;
	if (fa->reserved[0] || fa->reserved[1])
		return -EINVAL;
	return 0;
}

/*
 * Builds ib_core's flow attribute from @kattr, creates the rule on @qp
 * and hands it to @uobj.
 */
static int uverbs_flow_create_on(struct uverbs_attr_bundle *attrs,
				 struct ib_uobject *uobj, struct ib_qp *qp,
				 const struct ovb_flow_attr *kattr,
				 size_t specs_len)
{
	struct ib_uflow_resources *res;
	struct ib_flow_attr *attr;
	struct ib_flow *flow;
	int ret;

	/* Only these QP types receive whole packets a rule could steer. */
	if (qp->qp_type != IB_QPT_UD && qp->qp_type != IB_QPT_RAW_PACKET)
		return -EINVAL;

	attr = kzalloc(struct_size(attr, flows, kattr->num_of_specs),
		       GFP_KERNEL);
	if (!attr)
		return -ENOMEM;
	res = flow_resources_alloc(kattr->num_of_specs);
	if (!res) {
		ret = -ENOMEM;
		goto out;
	}

	ret = uverbs_flow_convert(attrs, kattr, specs_len, attr, res);
	if (ret)
		goto err_res;

	flow = qp->device->ops.create_flow(qp, attr, &attrs->driver_udata);
	if (IS_ERR(flow)) {
		ret = PTR_ERR(flow);
		goto err_res;
	}
	ib_set_flow(uobj, flow, qp, qp->device, res);
	goto out;

err_res:
	ib_uverbs_flow_resources_free(res);
out:
	kfree(attr);
	return ret;
}

static int uverbs_ex_create_flow(struct uverbs_attr_bundle *attrs)
{
	struct ovb_create_flow_resp resp = {};
	struct ovb_flow_attr *kattr;
	struct ovb_create_flow_req cmd;
	struct uverbs_req_iter iter;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_request_start(attrs, &iter, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ret = uverbs_flow_check_attr(&cmd);
	if (ret)
		return ret;

	/* The header again, now followed by its specs. */
	kattr = kmalloc(sizeof(*kattr) + cmd.flow_attr.size, GFP_KERNEL);
	if (!kattr)
		return -ENOMEM;
	*kattr = cmd.flow_attr;
	if (cmd.flow_attr.num_of_specs) {
		ret = uverbs_request_next(&iter, kattr->flow_specs,
					  cmd.flow_attr.size);
		if (ret)
			goto out;
	}
	ret = uverbs_request_finish(&iter);
	if (ret)
		goto out;

	uobj = uobj_alloc(OVB_OBJECT_FLOW, attrs, &ibdev);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto out;
	}
	if (!rdma_is_port_valid(ibdev, cmd.flow_attr.port)) {
		ret = -EINVAL;
		goto err_uobj;
	}

	qp = uobj_get_obj_read(qp, OVB_OBJECT_QP, cmd.qp_handle, attrs);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto err_uobj;
	}
	/* Without specs the size is 0 (checked above). */
	ret = uverbs_flow_create_on(attrs, uobj, qp, kattr,
				    cmd.flow_attr.size);
	rdma_lookup_put_uobject(&qp->uobject->uevent.uobject,
				UVERBS_LOOKUP_READ);
	if (ret)
		goto err_uobj;

	uobj_finalize_uobj_create(uobj, attrs);
	resp.flow_handle = uobj->id;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
	goto out;

err_uobj:
	uobj_alloc_abort(uobj, attrs);
out:
	kfree(kattr);
	return ret;
}

static int uverbs_flow_destroy_check(const void *req)
{
	const struct ovb_destroy_flow_req *cmd = req;

	return cmd->comp_mask ? -EINVAL : 0;
}

static const struct uverbs_destroy_cmd uverbs_flow_destroy = {
	UVERBS_DESTROY_CMD(OVB_OBJECT_FLOW, struct ovb_destroy_flow_req,
			   flow_handle),
	.check = uverbs_flow_destroy_check,
};

static int uverbs_ex_destroy_flow(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_flow_destroy);
}

/* The driver decides whether a rule can go; then its pins are dropped. */
static int uverbs_free_flow(struct ib_uobject *uobj,
			    enum rdma_remove_reason why,
			    struct uverbs_attr_bundle *attrs)
{
	struct ib_uflow_object *uflow =
		container_of(uobj, struct ib_uflow_object, uobject);
	struct ib_flow *flow = uobj->object;
	struct ib_qp *qp = flow->qp;
	int ret = flow->device->ops.destroy_flow(flow);

	if (ret)
		return ret;
	ib_uverbs_flow_resources_free(uflow->resources);
	if (qp)
		atomic_dec(&qp->usecnt);
	return 0;
}

const struct uverbs_obj_idr_type uverbs_flow_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uflow_object),
	},
	.destroy_object = uverbs_free_flow,
};

DECLARE_UVERBS_NAMED_METHOD_DESTROY(OVB_METHOD_FLOW_DESTROY,
				    UVERBS_ATTR_IDR(OVB_ATTR_DESTROY_FLOW_HANDLE,
						    OVB_OBJECT_FLOW,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(OVB_OBJECT_FLOW,
			    uverbs_flow_type.type,
			    &UVERBS_METHOD(OVB_METHOD_FLOW_DESTROY));

const struct uapi_definition uverbs_def_obj_flow[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_FLOW),
	UAPI_DEF_OBJ_NEEDS_FN(destroy_flow),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_CREATE_FLOW, uverbs_ex_create_flow,
				UVERBS_EX_MIN(offsetofend(struct ovb_create_flow_req, flow_attr),
					      offsetofend(struct ovb_create_flow_resp,
							  flow_handle))),
	UAPI_DEF_METHOD_NEEDS_FN(create_flow),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_DESTROY_FLOW, uverbs_ex_destroy_flow,
				UVERBS_EX_MIN(sizeof(struct ovb_destroy_flow_req), 0)),
	{ }
};
