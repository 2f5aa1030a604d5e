// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the write() ABI.
 *
 * A write() carries one command: a header (plus an extended header for
 * _ex commands), the core request, then driver data.  This file checks the
 * header against the command's table entry exactly as the in-tree module
 * does (same errno for each malformed case), splits the buffers into the
 * core and driver parts of a uverbs_attr_bundle and runs the handler.
 */

#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/sched.h>
#include <rdma/ib.h>

#include "uverbs.h"

/* Whether the sizes in the headers fit the write() and the command. */
static int uverbs_check_hdr(struct ovb_cmd_hdr *hdr,
			    const struct ovb_ex_cmd_hdr *ex_hdr,
			    size_t count,
			    const struct uverbs_api_write_method *method)
{
	if (method->is_ex) {
		size_t payload = count - sizeof(*hdr) - sizeof(*ex_hdr);
		size_t out_len = (hdr->out_words + ex_hdr->provider_out_words) * 8;

		if ((hdr->in_words + ex_hdr->provider_in_words) * 8 != payload)
			return -EINVAL;
		if (hdr->in_words * 8 < method->req_size)
			return -ENOSPC;
		if (ex_hdr->cmd_hdr_reserved)
			return -EINVAL;
		if (!ex_hdr->response)
			return hdr->out_words || ex_hdr->provider_out_words ?
				-EINVAL : 0;
		if (!hdr->out_words && !ex_hdr->provider_out_words)
			return -EINVAL;
		if (hdr->out_words * 8 < method->resp_size)
			return -ENOSPC;
		if (!access_ok(u64_to_user_ptr(ex_hdr->response), out_len))
			return -EFAULT;
		return 0;
	}

	if (hdr->in_words * 4 != count)
		return -EINVAL;
	if (count < method->req_size + sizeof(*hdr)) {
		/*
		 * rdma-core 18 and 19 sent DESTROY_CQ as 16 bytes instead of
		 * 24; the in-tree module accepts that, and so do we.
		 */
		if (hdr->command == OVB_CMD_DESTROY_CQ && count == 16) {
			hdr->in_words = 6;
			return 0;
		}
		return -ENOSPC;
	}
	if (hdr->out_words * 4 < method->resp_size)
		return -ENOSPC;
	return 0;
}

/* Legacy commands: in/out lengths in 4-byte words, the header included. */
static int uverbs_split_legacy(struct uverbs_attr_bundle *bundle,
			       const struct uverbs_api_write_method *method,
			       const struct ovb_cmd_hdr *hdr,
			       const char __user *buf)
{
	size_t in_len = hdr->in_words * 4 - sizeof(*hdr);
	size_t out_len = hdr->out_words * 4;
	struct ib_udata *drv = &bundle->driver_udata;
	u64 response = 0;

	*drv = (struct ib_udata){};
	if (method->has_udata) {
		drv->inlen = in_len - method->req_size;
		drv->inbuf = drv->inlen ? buf + method->req_size : NULL;
		in_len = method->req_size;
	}
	if (method->has_resp) {
		/* Every request with a response starts with its address. */
		if (get_user(response, (const u64 __user *)buf))
			return -EFAULT;
		if (method->has_udata) {
			drv->outlen = out_len - method->resp_size;
			drv->outbuf = drv->outlen ?
				u64_to_user_ptr(response + method->resp_size) :
				NULL;
			out_len = method->resp_size;
		}
	}
	uverbs_init_udata(&bundle->ucore, buf, u64_to_user_ptr(response),
			  in_len, out_len);
	return 0;
}

/* Extended commands: core and driver lengths in 8-byte words, apart. */
static void uverbs_split_ex(struct uverbs_attr_bundle *bundle,
			    const struct ovb_cmd_hdr *hdr,
			    const struct ovb_ex_cmd_hdr *ex_hdr,
			    const char __user *buf)
{
	void __user *resp = u64_to_user_ptr(ex_hdr->response);

	uverbs_init_udata(&bundle->ucore, buf, resp, hdr->in_words * 8,
			  hdr->out_words * 8);
	uverbs_init_udata(&bundle->driver_udata, buf + bundle->ucore.inlen,
			  resp + bundle->ucore.outlen,
			  ex_hdr->provider_in_words * 8,
			  ex_hdr->provider_out_words * 8);
}

ssize_t uverbs_write(struct file *filp, const char __user *buf, size_t count,
		     loff_t *pos)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	const struct uverbs_api_write_method *method;
	struct ovb_ex_cmd_hdr ex_hdr = {};
	struct ovb_cmd_hdr hdr;
	struct uverbs_attr_bundle bundle;
	int srcu_key;
	int ret;

	if (!ib_safe_file_access(filp)) {
		pr_err_once("ib_uverbs: process %d (%s) changed security contexts after opening the device; refused\n",
			    task_tgid_vnr(current), current->comm);
		return -EACCES;
	}
	if (count < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EFAULT;

	method = uverbs_find_write_method(ufile->device->uapi, hdr.command);
	if (IS_ERR(method))
		return PTR_ERR(method);

	if (method->is_ex) {
		if (count < sizeof(hdr) + sizeof(ex_hdr))
			return -EINVAL;
		if (copy_from_user(&ex_hdr, buf + sizeof(hdr), sizeof(ex_hdr)))
			return -EFAULT;
	}
	ret = uverbs_check_hdr(&hdr, &ex_hdr, count, method);
	if (ret)
		return ret;

	srcu_key = srcu_read_lock(&ufile->device->disassociate_srcu);

	memset(bundle.attr_present, 0, sizeof(bundle.attr_present));
	bundle.ufile = ufile;
	bundle.context = NULL;
	bundle.uobject = NULL;
	buf += sizeof(hdr);
	if (method->is_ex) {
		uverbs_split_ex(&bundle, &hdr, &ex_hdr, buf + sizeof(ex_hdr));
	} else {
		ret = uverbs_split_legacy(&bundle, method, &hdr, buf);
		if (ret)
			goto out;
	}

	ret = method->handler(&bundle);
	if (bundle.uobject)
		uverbs_finalize_new_object(bundle.uobject, !ret, &bundle);
out:
	srcu_read_unlock(&ufile->device->disassociate_srcu, srcu_key);
	return ret ? ret : count;
}

/*
 * The request as the kernel knows it: a shorter user request is zero
 * extended, a longer one must have only zeroes past what we understand.
 */
int uverbs_request(struct uverbs_attr_bundle *attrs, void *req, size_t len)
{
	size_t have = attrs->ucore.inlen;

	if (copy_from_user(req, attrs->ucore.inbuf, min(have, len)))
		return -EFAULT;
	if (have < len)
		memset(req + have, 0, len - have);
	else if (have > len &&
		 !ib_is_buffer_cleared(attrs->ucore.inbuf + len, have - len))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * The response: truncated to the user's buffer, and a larger user buffer
 * is zero filled, so both sides can grow their structs independently.
 */
int uverbs_response(struct uverbs_attr_bundle *attrs, const void *resp,
		    size_t len)
{
	size_t room = attrs->ucore.outlen;

	if (copy_to_user(attrs->ucore.outbuf, resp, min(room, len)))
		return -EFAULT;
	if (room > len && clear_user(attrs->ucore.outbuf + len, room - len))
		return -EFAULT;
	return uverbs_response_written(attrs);
}

/*
 * A command tunnelled by INVOKE_WRITE tells user space that it wrote the
 * response, as an ioctl method does for its outputs; write() has no such
 * flag (its bundle has no attributes).
 */
int uverbs_response_written(struct uverbs_attr_bundle *attrs)
{
	if (!uverbs_attr_is_valid(attrs, OVB_ATTR_CORE_OUT))
		return 0;
	return uverbs_output_written(attrs, OVB_ATTR_CORE_OUT);
}

/* For _ex responses: how many bytes of the response the kernel filled. */
u32 uverbs_response_length(struct uverbs_attr_bundle *attrs, size_t len)
{
	return min_t(size_t, attrs->ucore.outlen, len);
}

int uverbs_request_start(struct uverbs_attr_bundle *attrs,
			 struct uverbs_req_iter *iter, void *req, size_t len)
{
	if (attrs->ucore.inlen < len)
		return -ENOSPC;
	if (copy_from_user(req, attrs->ucore.inbuf, len))
		return -EFAULT;
	iter->cur = attrs->ucore.inbuf + len;
	iter->end = attrs->ucore.inbuf + attrs->ucore.inlen;
	return 0;
}

int uverbs_request_next(struct uverbs_req_iter *iter, void *val, size_t len)
{
	if (len > iter->end - iter->cur)
		return -ENOSPC;
	if (copy_from_user(val, iter->cur, len))
		return -EFAULT;
	iter->cur += len;
	return 0;
}

const void __user *uverbs_request_next_ptr(struct uverbs_req_iter *iter,
					   size_t len)
{
	const void __user *at = iter->cur;

	if (len > iter->end - iter->cur)
		return (void __force __user *)ERR_PTR(-ENOSPC);
	iter->cur += len;
	return at;
}

int uverbs_request_finish(struct uverbs_req_iter *iter)
{
	if (!ib_is_buffer_cleared(iter->cur, iter->end - iter->cur))
		return -EOPNOTSUPP;
	return 0;
}

/* Error unwinds call the driver as if the user had passed no udata. */
struct ib_udata *uverbs_get_cleared_udata(struct uverbs_attr_bundle *attrs)
{
	attrs->driver_udata = (struct ib_udata){};
	return &attrs->driver_udata;
}

/*
 * INVOKE_WRITE: a write() command carried by ioctl.  rdma-core sends every
 * write command this way once the kernel answers this method.
 */
static int UVERBS_HANDLER(OVB_METHOD_INVOKE_WRITE)(struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_api_write_method *method;
	u32 command;
	int ret;

	ret = uverbs_get_const(&command, attrs, OVB_ATTR_WRITE_CMD);
	if (ret)
		return ret;
	method = uverbs_find_write_method(attrs->ufile->device->uapi, command);
	if (IS_ERR(method))
		return PTR_ERR(method);

	uverbs_fill_udata(attrs, &attrs->ucore, OVB_ATTR_CORE_IN,
			  OVB_ATTR_CORE_OUT);
	if (attrs->ucore.inlen < method->req_size ||
	    attrs->ucore.outlen < method->resp_size)
		return -ENOSPC;

	attrs->uobject = NULL;
	ret = method->handler(attrs);
	if (attrs->uobject)
		uverbs_finalize_new_object(attrs->uobject, !ret, attrs);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_INVOKE_WRITE,
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_WRITE_CMD, enum ovb_write_cmd,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVB_ATTR_CORE_IN,
					       UVERBS_ATTR_MIN_SIZE(sizeof(u32)), UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_CORE_OUT, UVERBS_ATTR_MIN_SIZE(0),
						UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

DECLARE_UVERBS_GLOBAL_METHODS(OVB_OBJECT_DEVICE,
			      &UVERBS_METHOD(OVB_METHOD_INVOKE_WRITE));

const struct uapi_definition uverbs_def_device_write[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_DEVICE),
	{ }
};
