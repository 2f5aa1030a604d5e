// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the steps write() commands share (obj_steps.h).
 */

#include "obj_steps.h"

int uverbs_newobj_begin(struct uverbs_newobj *n, u16 object_id,
			struct uverbs_attr_bundle *attrs, u64 user_handle)
{
	n->attrs = attrs;
	n->uobj = uobj_alloc(object_id, attrs, &n->ibdev);
	if (IS_ERR(n->uobj))
		return PTR_ERR(n->uobj);
	n->uobj->user_handle = user_handle;
	return 0;
}

/* Gives the reserved handle back; returns @err for the caller to pass on. */
int uverbs_newobj_cancel(struct uverbs_newobj *n, int err)
{
	uobj_alloc_abort(n->uobj, n->attrs);
	return err;
}

/*
 * The handle becomes the user's at the end of the command (a later failure
 * destroys the object again).  @object may be NULL when the uobject already
 * points at its object.
 */
u32 uverbs_newobj_publish(struct uverbs_newobj *n, void *object)
{
	if (object)
		n->uobj->object = object;
	uobj_finalize_uobj_create(n->uobj, n->attrs);
	return n->uobj->id;
}

void *uverbs_req_get_read(struct uverbs_attr_bundle *attrs, void *req,
			  size_t len, u16 object_id, const u32 *handle)
{
	int err = uverbs_request(attrs, req, len);

	return err ? ERR_PTR(err) :
		_uobj_get_obj_read(uobj_get_read(object_id, *handle, attrs));
}

int uverbs_write_destroy(struct uverbs_attr_bundle *attrs,
			 const struct uverbs_destroy_cmd *how)
{
	u8 resp[UVERBS_DESTROY_RESP_MAX] __aligned(8) = {};
	u8 req[UVERBS_DESTROY_REQ_MAX] __aligned(8);
	struct ib_uobject *uobj;
	int err;

	if (WARN_ON(how->req_len > sizeof(req) || how->resp_len > sizeof(resp)))
		return -EINVAL;
	err = uverbs_request(attrs, req, how->req_len);
	if (!err && how->check)
		err = how->check(req);
	if (!err) {
		uobj = uobj_get_destroy(how->object_id,
					*(u32 *)(req + how->handle_offset), attrs);
		err = PTR_ERR_OR_ZERO(uobj);
	}
	if (err)
		return err;
	if (how->fill)
		how->fill(uobj, attrs, resp);
	uobj_put_destroy(uobj);
	return how->fill ? uverbs_response(attrs, resp, how->resp_len) : 0;
}

int uverbs_copy_fields(const struct uverbs_attr_bundle *attrs, void *base,
		       const struct uverbs_attr_field *fields, size_t count)
{
	const struct uverbs_attr_field *f;
	int err = 0;

	for (f = fields; !err && f < fields + count; f++)
		err = _uverbs_copy_from(base + f->offset, attrs, f->attr,
					f->size);
	return err;
}

/* The AH type first: the LID setters store by it (IB, OPA or RoCE). */
void uverbs_av_to_ah_attr(struct ib_device *ibdev, const struct uverbs_av *av,
			  struct rdma_ah_attr *ah)
{
	ah->type = rdma_ah_find_type(ibdev, av->port_num);
	rdma_ah_set_port_num(ah, av->port_num);
	rdma_ah_set_make_grd(ah, false);
	rdma_ah_set_static_rate(ah, av->static_rate);
	rdma_ah_set_path_bits(ah, av->src_path_bits);
	rdma_ah_set_sl(ah, av->sl);
	rdma_ah_set_dlid(ah, av->dlid);
	if (!av->is_global) {
		rdma_ah_set_ah_flags(ah, 0);
		return;
	}
	rdma_ah_set_grh(ah, NULL, av->flow_label, av->sgid_index,
			av->hop_limit, av->traffic_class);
	memcpy(rdma_ah_retrieve_grh(ah)->dgid.raw, av->dgid,
	       sizeof(rdma_ah_retrieve_grh(ah)->dgid.raw));
}

int uverbs_copy_fields_out(struct uverbs_attr_bundle *attrs, const void *base,
			   const struct uverbs_attr_field *fields, size_t count)
{
	const struct uverbs_attr_field *f;
	int err = 0;

	for (f = fields; !err && f < fields + count; f++)
		err = uverbs_copy_to(attrs, f->attr, base + f->offset, f->size);
	return err;
}

void uverbs_report_uevents(struct ib_uobject *uobj,
			   struct uverbs_attr_bundle *attrs, void *resp)
{
	struct ib_uevent_object *uevent =
		container_of(uobj, struct ib_uevent_object, uobject);

	*(u32 *)resp = uevent->events_reported;
}

struct ib_uxrcd_object *uverbs_xrcd_hold(struct ib_uobject *xrcd_uobj)
{
	struct ib_uxrcd_object *uxrcd =
		container_of(xrcd_uobj, struct ib_uxrcd_object, uobject);

	atomic_inc(&uxrcd->refcnt);
	return uxrcd;
}

void uverbs_xrcd_drop(struct ib_uxrcd_object *uxrcd)
{
	if (uxrcd)
		atomic_dec(&uxrcd->refcnt);
}
