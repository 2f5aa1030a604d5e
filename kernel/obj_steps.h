/* SPDX-License-Identifier: GPL-2.0 */
/*
 * openverbs ib_uverbs: the steps write() commands share.
 *
 * Every create command reserves a handle, builds the object, then either
 * publishes the handle or gives it back; every command that works on an
 * existing object reads its request and read-locks the object it names;
 * the DESTROY commands of event-reporting objects answer with counters
 * that must be read while the destroyed uobject is still held.  Each of
 * those is one step here, so the object files hold only what differs.
 */
#ifndef OPENVERBS_KERNEL_OBJ_STEPS_H
#define OPENVERBS_KERNEL_OBJ_STEPS_H

#include "uverbs.h"

/* A new object from handle reservation until publish or cancel. */
struct uverbs_newobj {
	struct uverbs_attr_bundle *attrs;
	struct ib_uobject *uobj;
	struct ib_device *ibdev;
};

int uverbs_newobj_begin(struct uverbs_newobj *n, u16 object_id,
			struct uverbs_attr_bundle *attrs, u64 user_handle);
int uverbs_newobj_cancel(struct uverbs_newobj *n, int err);
u32 uverbs_newobj_publish(struct uverbs_newobj *n, void *object);

/*
 * The request, then the object named by @handle (a field of the request
 * just read), read-locked: the object or an ERR_PTR.
 */
void *uverbs_req_get_read(struct uverbs_attr_bundle *attrs, void *req,
			  size_t len, u16 object_id, const u32 *handle);

/*
 * A write() DESTROY command: the request, an optional check of it, the
 * handle destroyed; with @fill, a response filled from the destroyed
 * uobject (its event counters stay readable while the command holds it),
 * without, no response at all.
 */
struct uverbs_destroy_cmd {
	u16 object_id;
	size_t req_len;		/* at most UVERBS_DESTROY_REQ_MAX */
	size_t handle_offset;	/* of the u32 handle in the request */
	size_t resp_len;	/* at most UVERBS_DESTROY_RESP_MAX */
	int (*check)(const void *req);	/* optional, before the lookup */
	void (*fill)(struct ib_uobject *uobj, struct uverbs_attr_bundle *attrs,
		     void *resp);
};

#define UVERBS_DESTROY_CMD(_object_id, _req, _handle)			\
	.object_id = (_object_id), .req_len = sizeof(_req),		\
	.handle_offset = offsetof(_req, _handle)
#define UVERBS_DESTROY_REQ_MAX	16
#define UVERBS_DESTROY_RESP_MAX	16

int uverbs_write_destroy(struct uverbs_attr_bundle *attrs,
			 const struct uverbs_destroy_cmd *how);

/* The fill of responses that are one u32: the uobject's async events. */
void uverbs_report_uevents(struct ib_uobject *uobj,
			   struct uverbs_attr_bundle *attrs, void *resp);

/* Objects of an XRC domain keep CLOSE_XRCD from closing it. */
struct ib_uxrcd_object *uverbs_xrcd_hold(struct ib_uobject *xrcd_uobj);
void uverbs_xrcd_drop(struct ib_uxrcd_object *uxrcd);

/*
 * An address vector as both write() ABIs describe one (CREATE_AH's
 * ovb_ah_attr, MODIFY_QP's ovb_qp_dest), for ib_core's rdma_ah_attr.
 */
struct uverbs_av {
	const u8 *dgid;
	u32 flow_label;
	u16 dlid;
	u8 sgid_index;
	u8 hop_limit;
	u8 traffic_class;
	u8 sl;
	u8 src_path_bits;
	u8 static_rate;
	u8 is_global;
	u8 port_num;
};

void uverbs_av_to_ah_attr(struct ib_device *ibdev, const struct uverbs_av *av,
			  struct rdma_ah_attr *ah);

/*
 * ioctl methods: PTR_IN attributes copied, in table order, into the
 * fields of one kernel struct; the first failure ends the copy.
 */
struct uverbs_attr_field {
	u16 attr;
	u16 offset;
	u16 size;
};

#define UVERBS_ATTR_FIELD(_attr, _type, _member)			\
	{ .attr = (_attr), .offset = offsetof(_type, _member),		\
	  .size = sizeof_field(_type, _member) }

int uverbs_copy_fields(const struct uverbs_attr_bundle *attrs, void *base,
		       const struct uverbs_attr_field *fields, size_t count);
/* The other way: fields of @base into PTR_OUT attributes. */
int uverbs_copy_fields_out(struct uverbs_attr_bundle *attrs, const void *base,
			   const struct uverbs_attr_field *fields, size_t count);

#endif
