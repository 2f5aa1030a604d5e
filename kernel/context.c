// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the device object: GET_CONTEXT and the queries.
 *
 * GET_CONTEXT makes the file's one ucontext (the driver's per-process
 * state) together with its async event file; every other command needs it.
 */

#include <linux/slab.h>
#include <rdma/opa_addr.h>

#include "uverbs.h"

/* A ucontext for @ibdev, not yet the driver's nor the file's. */
static struct ib_ucontext *ucontext_new(struct ib_device *ibdev,
					struct ib_uverbs_file *ufile)
{
	struct ib_ucontext *ucontext = rdma_zalloc_drv_obj(ibdev, ib_ucontext);

	if (!ucontext)
		return NULL;
	ucontext->device = ibdev;
	ucontext->ufile = ufile;
	xa_init_flags(&ucontext->mmap_xa, XA_FLAGS_ALLOC);
	rdma_restrack_new(&ucontext->res, RDMA_RESTRACK_CTX);
	rdma_restrack_set_name(&ucontext->res, NULL);
	return ucontext;
}

/* Step 1 of GET_CONTEXT: the bundle's context, allocated (EIO: unplugged). */
static int uverbs_alloc_ucontext(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_device *udev = attrs->ufile->device;
	struct ib_device *ibdev = srcu_dereference(udev->ib_dev,
						   &udev->disassociate_srcu);

	if (!ibdev)
		return -EIO;
	attrs->context = ucontext_new(ibdev, attrs->ufile);
	return attrs->context ? 0 : -ENOMEM;
}

/* The driver's half of a context, charged to the cgroup; undone on failure. */
static int ucontext_driver_init(struct ib_ucontext *ucontext,
				struct ib_udata *udata)
{
	struct ib_device *ibdev = ucontext->device;
	int ret;

	ret = ib_rdmacg_try_charge(&ucontext->cg_obj, ibdev,
				   RDMACG_RESOURCE_HCA_HANDLE);
	if (ret)
		return ret;
	ret = ibdev->ops.alloc_ucontext(ucontext, udata);
	if (ret)
		ib_rdmacg_uncharge(&ucontext->cg_obj, ibdev,
				   RDMACG_RESOURCE_HCA_HANDLE);
	return ret;
}

/* The driver's half, then the context is the file's; one per file. */
static int ufile_adopt_ucontext(struct ib_uverbs_file *ufile,
				struct ib_ucontext *ucontext,
				struct ib_udata *udata)
{
	int ret;

	mutex_lock(&ufile->ucontext_lock);
	ret = ufile->ucontext ? -EINVAL : ucontext_driver_init(ucontext, udata);
	if (!ret) {
		rdma_restrack_add(&ucontext->res);
		/* Readers see the pointer only once the context is complete. */
		smp_store_release(&ufile->ucontext, ucontext);
	}
	mutex_unlock(&ufile->ucontext_lock);
	return ret;
}

/* Step 2 of GET_CONTEXT; a file being torn down takes none (EIO). */
static int uverbs_init_ucontext(struct uverbs_attr_bundle *attrs)
{
	struct rw_semaphore *sem = &attrs->ufile->hw_destroy_rwsem;
	int ret;

	if (!down_read_trylock(sem))
		return -EIO;
	ret = ufile_adopt_ucontext(attrs->ufile, attrs->context,
				   &attrs->driver_udata);
	up_read(sem);
	return ret;
}

/* Undoes uverbs_alloc_ucontext() of a context the driver never saw. */
static void uverbs_drop_ucontext(struct uverbs_attr_bundle *attrs)
{
	rdma_restrack_put(&attrs->context->res);
	kfree(attrs->context);
	attrs->context = NULL;
}

/*
 * write() GET_CONTEXT once its async file is begun: the response (it
 * names the async fd), the context, then the async file starts listening.
 */
static int get_context_publish(struct uverbs_attr_bundle *attrs,
			       struct ib_uobject *async_uobj)
{
	struct ovb_get_context_resp resp = {
		.num_comp_vectors = attrs->ufile->device->num_comp_vectors,
		.async_fd = async_uobj->id,
	};
	int ret = uverbs_response(attrs, &resp, sizeof(resp));

	if (!ret)
		ret = uverbs_init_ucontext(attrs);
	if (ret)
		return ret;
	ib_uverbs_init_async_event_file(container_of(async_uobj,
						     struct ib_uverbs_async_event_file,
						     uobj));
	return 0;
}

/* Unlike ioctl's, write()'s GET_CONTEXT also makes the async event file. */
static int uverbs_get_context(struct uverbs_attr_bundle *attrs)
{
	struct ovb_get_context_req cmd;
	struct ib_uobject *async_uobj;
	struct ib_device *ibdev;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (!ret)
		ret = uverbs_alloc_ucontext(attrs);
	if (ret)
		return ret;

	async_uobj = uobj_alloc(OVB_OBJECT_ASYNC_EVENT, attrs, &ibdev);
	ret = PTR_ERR_OR_ZERO(async_uobj);
	if (!ret) {
		ret = get_context_publish(attrs, async_uobj);
		if (ret)
			rdma_alloc_abort_uobject(async_uobj, attrs, false);
		else
			rdma_alloc_commit_uobject(async_uobj, attrs);
	}
	if (ret)
		uverbs_drop_ucontext(attrs);
	return ret;
}

/*
 * The write() queries: the context first (so a file without one answers
 * as 6.1 does before the request is read), then the request; the device.
 */
static struct ib_device *query_target(struct uverbs_attr_bundle *attrs,
				      void *cmd, size_t cmd_len)
{
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);
	int ret;

	if (IS_ERR(ucontext))
		return ERR_CAST(ucontext);
	ret = uverbs_request(attrs, cmd, cmd_len);
	return ret ? ERR_PTR(ret) : ucontext->device;
}

static void uverbs_fill_device_attr(struct ib_device *ibdev,
				    const struct ib_device_attr *attr,
				    struct ovb_query_device_resp *resp)
{
	resp->fw_ver = attr->fw_ver;
	resp->node_guid = ibdev->node_guid;
	resp->sys_image_guid = attr->sys_image_guid;
	resp->max_mr_size = attr->max_mr_size;
	resp->page_size_cap = attr->page_size_cap;
	resp->vendor_id = attr->vendor_id;
	resp->vendor_part_id = attr->vendor_part_id;
	resp->hw_ver = attr->hw_ver;
	resp->max_qp = attr->max_qp;
	resp->max_qp_wr = attr->max_qp_wr;
	/* The legacy ABI has room for the low 32 capability bits only. */
	resp->device_cap_flags = lower_32_bits(attr->device_cap_flags);
	resp->max_sge = min(attr->max_send_sge, attr->max_recv_sge);
	resp->max_sge_rd = attr->max_sge_rd;
	resp->max_cq = attr->max_cq;
	resp->max_cqe = attr->max_cqe;
	resp->max_mr = attr->max_mr;
	resp->max_pd = attr->max_pd;
	resp->max_qp_rd_atom = attr->max_qp_rd_atom;
	resp->max_ee_rd_atom = attr->max_ee_rd_atom;
	resp->max_res_rd_atom = attr->max_res_rd_atom;
	resp->max_qp_init_rd_atom = attr->max_qp_init_rd_atom;
	resp->max_ee_init_rd_atom = attr->max_ee_init_rd_atom;
	resp->atomic_cap = attr->atomic_cap;
	resp->max_ee = attr->max_ee;
	resp->max_rdd = attr->max_rdd;
	resp->max_mw = attr->max_mw;
	resp->max_raw_ipv6_qp = attr->max_raw_ipv6_qp;
	resp->max_raw_ethy_qp = attr->max_raw_ethy_qp;
	resp->max_mcast_grp = attr->max_mcast_grp;
	resp->max_mcast_qp_attach = attr->max_mcast_qp_attach;
	resp->max_total_mcast_qp_attach = attr->max_total_mcast_qp_attach;
	resp->max_ah = attr->max_ah;
	resp->max_srq = attr->max_srq;
	resp->max_srq_wr = attr->max_srq_wr;
	resp->max_srq_sge = attr->max_srq_sge;
	resp->max_pkeys = attr->max_pkeys;
	resp->local_ca_ack_delay = attr->local_ca_ack_delay;
	resp->phys_port_cnt = min_t(u32, ibdev->phys_port_cnt, U8_MAX);
}

static int uverbs_query_device(struct uverbs_attr_bundle *attrs)
{
	struct ovb_query_device_resp resp = {};
	struct ovb_query_device_req cmd;
	struct ib_device *ibdev = query_target(attrs, &cmd, sizeof(cmd));

	if (IS_ERR(ibdev))
		return PTR_ERR(ibdev);
	uverbs_fill_device_attr(ibdev, &ibdev->attrs, &resp);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static void uverbs_fill_port_attr(struct ib_device *ibdev, u32 port,
				  const struct ib_port_attr *attr,
				  struct ovb_query_port_resp *resp)
{
	resp->state = attr->state;
	resp->max_mtu = attr->max_mtu;
	resp->active_mtu = attr->active_mtu;
	resp->gid_tbl_len = attr->gid_tbl_len;
	resp->port_cap_flags = uverbs_port_cap_flags(attr);
	resp->max_msg_sz = attr->max_msg_sz;
	resp->bad_pkey_cntr = attr->bad_pkey_cntr;
	resp->qkey_viol_cntr = attr->qkey_viol_cntr;
	resp->pkey_tbl_len = attr->pkey_tbl_len;
	if (rdma_is_grh_required(ibdev, port))
		resp->flags |= OVB_QPF_GRH_REQUIRED;
	if (rdma_cap_opa_ah(ibdev, port)) {
		resp->lid = OPA_TO_IB_UCAST_LID(attr->lid);
		resp->sm_lid = OPA_TO_IB_UCAST_LID(attr->sm_lid);
	} else {
		resp->lid = ib_lid_cpu16(attr->lid);
		resp->sm_lid = ib_lid_cpu16(attr->sm_lid);
	}
	resp->lmc = attr->lmc;
	resp->max_vl_num = attr->max_vl_num;
	resp->sm_sl = attr->sm_sl;
	resp->subnet_timeout = attr->subnet_timeout;
	resp->init_type_reply = attr->init_type_reply;
	resp->active_width = attr->active_width;
	/* Speeds past NDR do not fit the ABI's field. */
	resp->active_speed = min_t(u16, attr->active_speed, IB_SPEED_NDR);
	resp->phys_state = attr->phys_state;
	resp->link_layer = rdma_port_get_link_layer(ibdev, port);
}

/*
 * Both QUERY_PORTs: the attributes of @port, in the legacy response.
 * ib_query_port() answers EINVAL for a port the device lacks.
 */
static int query_port_legacy(struct ib_device *ibdev, u32 port,
			     struct ib_port_attr *attr,
			     struct ovb_query_port_resp *resp)
{
	int ret = ib_query_port(ibdev, port, attr);

	if (!ret)
		uverbs_fill_port_attr(ibdev, port, attr, resp);
	return ret;
}

static int uverbs_query_port(struct uverbs_attr_bundle *attrs)
{
	struct ovb_query_port_resp resp = {};
	struct ovb_query_port_req cmd;
	struct ib_port_attr attr;
	struct ib_device *ibdev = query_target(attrs, &cmd, sizeof(cmd));
	int ret = PTR_ERR_OR_ZERO(ibdev);

	if (!ret)
		ret = query_port_legacy(ibdev, cmd.port_num, &attr, &resp);
	return ret ?: uverbs_response(attrs, &resp, sizeof(resp));
}

static int uverbs_ex_query_device(struct uverbs_attr_bundle *attrs)
{
	struct ovb_ex_query_device_resp resp = {};
	struct ovb_ex_query_device_req cmd;
	struct ib_device_attr attr = {};
	struct ib_device *ibdev = query_target(attrs, &cmd, sizeof(cmd));
	int ret;

	if (IS_ERR(ibdev))
		return PTR_ERR(ibdev);
	/* nothing is defined in either yet */
	ret = cmd.comp_mask || cmd.reserved ? -EINVAL :
	      ibdev->ops.query_device(ibdev, &attr, &attrs->driver_udata);
	if (ret)
		return ret;

	uverbs_fill_device_attr(ibdev, &attr, &resp.base);
	resp.odp_caps.general_caps = attr.odp_caps.general_caps;
	resp.odp_caps.per_transport_caps.rc_odp_caps =
		attr.odp_caps.per_transport_caps.rc_odp_caps;
	resp.odp_caps.per_transport_caps.uc_odp_caps =
		attr.odp_caps.per_transport_caps.uc_odp_caps;
	resp.odp_caps.per_transport_caps.ud_odp_caps =
		attr.odp_caps.per_transport_caps.ud_odp_caps;
	resp.xrc_odp_caps = attr.odp_caps.per_transport_caps.xrc_odp_caps;
	resp.timestamp_mask = attr.timestamp_mask;
	resp.hca_core_clock = attr.hca_core_clock;
	resp.device_cap_flags_ex = attr.device_cap_flags;
	resp.rss_caps.supported_qpts = attr.rss_caps.supported_qpts;
	resp.rss_caps.max_rwq_indirection_tables =
		attr.rss_caps.max_rwq_indirection_tables;
	resp.rss_caps.max_rwq_indirection_table_size =
		attr.rss_caps.max_rwq_indirection_table_size;
	resp.max_wq_type_rq = attr.max_wq_type_rq;
	resp.raw_packet_caps = attr.raw_packet_caps;
	resp.tm_caps.max_rndv_hdr_size = attr.tm_caps.max_rndv_hdr_size;
	resp.tm_caps.max_num_tags = attr.tm_caps.max_num_tags;
	resp.tm_caps.max_ops = attr.tm_caps.max_ops;
	resp.tm_caps.max_sge = attr.tm_caps.max_sge;
	resp.tm_caps.flags = attr.tm_caps.flags;
	resp.cq_moderation_caps.max_cq_moderation_count =
		attr.cq_caps.max_cq_moderation_count;
	resp.cq_moderation_caps.max_cq_moderation_period =
		attr.cq_caps.max_cq_moderation_period;
	resp.max_dm_size = attr.max_dm_size;
	resp.response_length = uverbs_response_length(attrs, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/* ---------------------------------------------------- the ioctl methods */

/* What the ioctl GET_CONTEXT/QUERY_CONTEXT report besides the driver data. */
static int uverbs_copy_context_info(struct uverbs_attr_bundle *attrs,
				    u16 attr_comp_vectors, u16 attr_support)
{
	u32 num_comp = attrs->ufile->device->num_comp_vectors;
	u64 core_support = OVB_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
	int ret;

	ret = uverbs_copy_to(attrs, attr_comp_vectors, &num_comp,
			     sizeof(num_comp));
	if (IS_UVERBS_COPY_ERR(ret))
		return ret;
	ret = uverbs_copy_to(attrs, attr_support, &core_support,
			     sizeof(core_support));
	return IS_UVERBS_COPY_ERR(ret) ? ret : 0;
}

/* Unlike write(), the ioctl GET_CONTEXT makes no async file: ASYNC_EVENT_ALLOC does. */
static int UVERBS_HANDLER(OVB_METHOD_GET_CONTEXT)(struct uverbs_attr_bundle *attrs)
{
	int ret;

	ret = uverbs_copy_context_info(attrs,
				       OVB_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
				       OVB_ATTR_GET_CONTEXT_CORE_SUPPORT);
	if (ret)
		return ret;
	ret = uverbs_alloc_ucontext(attrs);
	if (ret)
		return ret;
	ret = uverbs_init_ucontext(attrs);
	if (ret)
		uverbs_drop_ucontext(attrs);
	return ret;
}

static int UVERBS_HANDLER(OVB_METHOD_QUERY_CONTEXT)(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);
	int ret;

	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	if (!ucontext->device->ops.query_ucontext)
		return -EOPNOTSUPP;
	ret = uverbs_copy_context_info(attrs,
				       OVB_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
				       OVB_ATTR_QUERY_CONTEXT_CORE_SUPPORT);
	if (ret)
		return ret;
	return ucontext->device->ops.query_ucontext(ucontext, attrs);
}

/* The legacy response plus port_cap_flags2 (and, on 6.12, the 16-bit speed). */
static int UVERBS_HANDLER(OVB_METHOD_QUERY_PORT)(struct uverbs_attr_bundle *attrs)
{
	struct ovb_query_port_resp_ex resp = {};
	struct ib_ucontext *ucontext = ib_uverbs_get_ucontext(attrs);
	struct ib_port_attr attr = {};
	u8 port;
	int ret;

	/* uapi-check proves the layouts identical */
	BUILD_BUG_ON(sizeof(resp.legacy_resp) != sizeof(struct ovb_query_port_resp));
	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	if (!ucontext->device->ops.query_port)
		return -EOPNOTSUPP;
	ret = uverbs_get_const(&port, attrs, OVB_ATTR_QUERY_PORT_PORT_NUM) ?:
	      query_port_legacy(ucontext->device, port, &attr,
				(struct ovb_query_port_resp *)&resp.legacy_resp);
	if (ret)
		return ret;
	resp.port_cap_flags2 = attr.port_cap_flags2;
	resp.active_speed_ex = ovb_port_active_speed_ex(&attr);
	return uverbs_copy_to_struct_or_zero(attrs, OVB_ATTR_QUERY_PORT_RESP,
					     &resp, sizeof(resp));
}

/* The handles of this file's objects of one type, as many as fit. */
static int UVERBS_HANDLER(OVB_METHOD_INFO_HANDLES)(struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_api_object *type;
	struct ib_uverbs_file *ufile = attrs->ufile;
	struct ib_uobject *uobj;
	u64 count = 0, room;
	u16 object_id;
	int len, ret;
	u32 *handles;

	len = uverbs_attr_get_len(attrs, OVB_ATTR_INFO_HANDLES_LIST);
	if (len <= 0 || len % sizeof(u32))
		return -EINVAL;
	ret = uverbs_get_const(&object_id, attrs, OVB_ATTR_INFO_OBJECT_ID);
	if (ret)
		return ret;
	type = uapi_get_object(ufile->device->uapi, object_id);
	if (IS_ERR(type))
		return PTR_ERR(type);

	handles = uverbs_zalloc(attrs, len);
	if (IS_ERR(handles))
		return PTR_ERR(handles);
	room = len / sizeof(u32);
	spin_lock_irq(&ufile->uobjects_lock);
	list_for_each_entry(uobj, &ufile->uobjects, list) {
		if (uobj->uapi_object != type)
			continue;
		if (count == room)
			break;
		handles[count++] = uobj->id;
	}
	spin_unlock_irq(&ufile->uobjects_lock);

	ret = uverbs_copy_to(attrs, OVB_ATTR_INFO_HANDLES_LIST, handles,
			     count * sizeof(u32));
	if (ret)
		return ret;
	return uverbs_copy_to(attrs, OVB_ATTR_INFO_TOTAL_HANDLES, &count,
			      sizeof(count));
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_GET_CONTEXT,
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
						UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_GET_CONTEXT_CORE_SUPPORT,
						UVERBS_ATTR_TYPE(u64), UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_QUERY_CONTEXT,
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
						UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
						UVERBS_ATTR_TYPE(u64), UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_INFO_HANDLES,
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_INFO_OBJECT_ID,
						 enum ovb_default_objects, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_INFO_TOTAL_HANDLES,
						UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_INFO_HANDLES_LIST,
						UVERBS_ATTR_MIN_SIZE(sizeof(u32)), UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_QUERY_PORT,
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_QUERY_PORT_PORT_NUM, u8,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_PORT_RESP,
						UVERBS_ATTR_STRUCT(struct
								   ovb_query_port_resp_ex,
								   active_speed_ex),
						UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(OVB_OBJECT_DEVICE,
			      &UVERBS_METHOD(OVB_METHOD_GET_CONTEXT),
			      &UVERBS_METHOD(OVB_METHOD_QUERY_CONTEXT),
			      &UVERBS_METHOD(OVB_METHOD_INFO_HANDLES),
			      &UVERBS_METHOD(OVB_METHOD_QUERY_PORT));

/*
 * The device object: its write() commands and ioctl methods here, more
 * ioctl methods in write.c (INVOKE_WRITE) and gid.c.
 */
const struct uapi_definition uverbs_def_obj_device[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_DEVICE),
	UAPI_DEF_OBJ_NEEDS_FN(alloc_ucontext),
	UAPI_DEF_OBJ_NEEDS_FN(dealloc_ucontext),
	UVERBS_DECLARE_WRITE(OVB_CMD_GET_CONTEXT, uverbs_get_context,
			     UVERBS_IN_OUT_UDATA(struct ovb_get_context_req,
						 struct ovb_get_context_resp)),
	UVERBS_DECLARE_WRITE(OVB_CMD_QUERY_DEVICE, uverbs_query_device,
			     UVERBS_IN_OUT(struct ovb_query_device_req,
					   struct ovb_query_device_resp)),
	UVERBS_DECLARE_WRITE(OVB_CMD_QUERY_PORT, uverbs_query_port,
			     UVERBS_IN_OUT(struct ovb_query_port_req, struct ovb_query_port_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(query_port),
	UVERBS_DECLARE_WRITE_EX(OVB_EX_CMD_QUERY_DEVICE, uverbs_ex_query_device,
				UVERBS_EX_MIN(offsetofend(struct ovb_ex_query_device_req, reserved),
					      offsetofend(struct ovb_ex_query_device_resp,
							  response_length))),
	UAPI_DEF_METHOD_NEEDS_FN(query_device),
	UAPI_DEF_CHAIN(uverbs_def_device_write),
	UAPI_DEF_CHAIN(uverbs_def_device_gid),
	{ }
};

