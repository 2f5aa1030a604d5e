// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the write() ABI.
 *
 * A write() carries one command: a header (plus an extended header for
 * _ex commands), the core request, then driver data.  This file checks the
 * header against what the command declares, exactly as the in-tree module
 * does (same errno for each malformed case), splits the buffers into the
 * core and driver parts of a uverbs_attr_bundle and runs the handler.
 */

#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/sched.h>
#include <rdma/ib.h>

#include "uverbs.h"

/* One write(): its headers as read from the user, the command they name. */
struct uverbs_write_call {
	size_t count;
	struct ovb_cmd_hdr hdr;
	struct ovb_ex_cmd_hdr ex_hdr;	/* zero for a legacy command */
	const struct uverbs_api_write_method *method;
};

/*
 * A legacy header counts 4-byte words, itself included; the command's
 * fixed request and response must fit.
 */
static int uverbs_check_legacy(struct uverbs_write_call *call)
{
	struct ovb_cmd_hdr *hdr = &call->hdr;
	bool short_req = call->count < sizeof(*hdr) + call->method->req_size;

	if (call->count != hdr->in_words * 4)
		return -EINVAL;
	/*
	 * rdma-core 18 and 19 sent DESTROY_CQ as 16 bytes instead of 24; the
	 * in-tree module takes that as the whole request, and so do we.
	 */
	if (short_req && hdr->command == OVB_CMD_DESTROY_CQ && call->count == 16) {
		hdr->in_words = 6;
		return 0;
	}
	if (short_req || hdr->out_words * 4 < call->method->resp_size)
		return -ENOSPC;
	return 0;
}

/*
 * An extended header counts 8-byte words, core and driver apart, itself
 * not included; a response, if asked for, goes where ex_hdr.response says.
 */
static int uverbs_check_ex(const struct uverbs_write_call *call)
{
	const struct ovb_ex_cmd_hdr *ex = &call->ex_hdr;
	const struct ovb_cmd_hdr *hdr = &call->hdr;
	size_t in_bytes = call->count - sizeof(*hdr) - sizeof(*ex);
	size_t out_words = hdr->out_words + ex->provider_out_words;

	if ((hdr->in_words + ex->provider_in_words) * 8 != in_bytes)
		return -EINVAL;
	if (hdr->in_words * 8 < call->method->req_size)
		return -ENOSPC;
	if (ex->cmd_hdr_reserved)
		return -EINVAL;
	if (!ex->response)
		return out_words ? -EINVAL : 0;
	if (!out_words)
		return -EINVAL;
	if (hdr->out_words * 8 < call->method->resp_size)
		return -ENOSPC;
	return access_ok(u64_to_user_ptr(ex->response), out_words * 8) ?
		0 : -EFAULT;
}

/*
 * Reads the headers of a write() and finds its command, answering each
 * malformed case with the in-tree module's errno.
 */
static int uverbs_read_call(struct uverbs_write_call *call,
			    const struct uverbs_api *uapi,
			    const char __user *buf)
{
	const size_t ex_end = sizeof(call->hdr) + sizeof(call->ex_hdr);

	if (call->count < sizeof(call->hdr))
		return -EINVAL;
	if (copy_from_user(&call->hdr, buf, sizeof(call->hdr)))
		return -EFAULT;
	call->method = uverbs_find_write_method(uapi, call->hdr.command);
	if (IS_ERR(call->method))
		return PTR_ERR(call->method);
	if (!call->method->is_ex)
		return uverbs_check_legacy(call);

	if (call->count < ex_end)
		return -EINVAL;
	if (copy_from_user(&call->ex_hdr, buf + sizeof(call->hdr),
			   sizeof(call->ex_hdr)))
		return -EFAULT;
	return uverbs_check_ex(call);
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

/*
 * Runs a command's handler; a new object it made is committed if the
 * handler succeeds, destroyed if not.
 */
static int uverbs_call_handler(const struct uverbs_api_write_method *method,
			       struct uverbs_attr_bundle *bundle)
{
	int ret;

	bundle->uobject = NULL;
	ret = method->handler(bundle);
	if (bundle->uobject)
		uverbs_finalize_new_object(bundle->uobject, !ret, bundle);
	return ret;
}

/* Runs a checked command; @payload follows the legacy header. */
static int uverbs_run_call(const struct uverbs_write_call *call,
			   struct ib_uverbs_file *ufile,
			   const char __user *payload)
{
	struct uverbs_attr_bundle bundle = { .ufile = ufile };
	int ret;

	if (call->method->is_ex) {
		uverbs_split_ex(&bundle, &call->hdr, &call->ex_hdr,
				payload + sizeof(call->ex_hdr));
	} else {
		ret = uverbs_split_legacy(&bundle, call->method, &call->hdr,
					  payload);
		if (ret)
			return ret;
	}
	return uverbs_call_handler(call->method, &bundle);
}

/*
 * Whether the caller may write to @filp: not when it changed credentials
 * since the open (ib_safe_file_access()), as in-tree.
 */
static bool uverbs_caller_allowed(struct file *filp)
{
	if (ib_safe_file_access(filp))
		return true;
	pr_err_once("ib_uverbs: process %d (%s) changed security contexts after opening the device; refused\n",
		    task_tgid_vnr(current), current->comm);
	return false;
}

ssize_t uverbs_write(struct file *filp, const char __user *buf, size_t count,
		     loff_t *pos)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct uverbs_write_call call = { .count = count };
	int srcu_key;
	int ret;

	if (!uverbs_caller_allowed(filp))
		return -EACCES;
	ret = uverbs_read_call(&call, ufile->device->uapi, buf);
	if (ret)
		return ret;

	/* the device may not go away while the command runs */
	srcu_key = srcu_read_lock(&ufile->device->disassociate_srcu);
	ret = uverbs_run_call(&call, ufile, buf + sizeof(call.hdr));
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

/*
 * Takes the next @len bytes of the request: *@at is where they start;
 * ENOSPC past its end.  The address is the user's, unchecked (copying
 * from it checks it), so it never travels as an ERR_PTR: a user pointer
 * may lie in the top page, where IS_ERR() would take it for an errno.
 */
int uverbs_request_take(struct uverbs_req_iter *iter, size_t len,
			const void __user **at)
{
	if (len > (size_t)(iter->end - iter->cur))
		return -ENOSPC;
	*at = iter->cur;
	iter->cur += len;
	return 0;
}

/* Copies the next @len bytes of the request to @val. */
int uverbs_request_next(struct uverbs_req_iter *iter, void *val, size_t len)
{
	const void __user *at;
	int ret = uverbs_request_take(iter, len, &at);

	if (ret)
		return ret;
	return copy_from_user(val, at, len) ? -EFAULT : 0;
}

/* A cursor over the request, its first @len bytes copied to @req. */
int uverbs_request_start(struct uverbs_attr_bundle *attrs,
			 struct uverbs_req_iter *iter, void *req, size_t len)
{
	iter->cur = attrs->ucore.inbuf;
	iter->end = attrs->ucore.inbuf + attrs->ucore.inlen;
	return uverbs_request_next(iter, req, len);
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
/* The write() command an INVOKE_WRITE names. */
static const struct uverbs_api_write_method *
uverbs_invoked_method(struct uverbs_attr_bundle *attrs)
{
	u32 command;
	int ret = uverbs_get_const(&command, attrs, OVB_ATTR_WRITE_CMD);

	return ret ? ERR_PTR(ret) :
		uverbs_find_write_method(attrs->ufile->device->uapi, command);
}

static int UVERBS_HANDLER(OVB_METHOD_INVOKE_WRITE)(struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_api_write_method *method =
		uverbs_invoked_method(attrs);
	bool fits;

	if (IS_ERR(method))
		return PTR_ERR(method);
	/* the core buffers only: driver data travels in UVERBS_ATTR_UHW */
	uverbs_fill_udata(attrs, &attrs->ucore, OVB_ATTR_CORE_IN,
			  OVB_ATTR_CORE_OUT);
	/* the fixed request and response must fit, as on write() */
	fits = attrs->ucore.inlen >= method->req_size &&
	       attrs->ucore.outlen >= method->resp_size;
	return fits ? uverbs_call_handler(method, attrs) : -ENOSPC;
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
