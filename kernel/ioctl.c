// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the ioctl() ABI (OVB_VERBS_IOCTL).
 *
 * One ioctl names an object and a method of the device's API tree
 * (uapi.c) and carries an array of attributes.  Each attribute is checked
 * against the method's declaration before the handler runs: unknown ones
 * are skipped unless the user marked them mandatory, sizes and reserved
 * fields are checked, object handles are looked up and locked (or a new
 * object is begun), and every mandatory attribute must be present.  After
 * the handler the objects are committed or aborted and unlocked.  Every
 * malformed case answers the errno the in-tree module answers.
 *
 * The attribute helpers drivers call (uverbs_copy_to(), uverbs_get_flags*,
 * ...) are exported from here.  This file includes api_types.h and not
 * core_types.h: 6.1's uverbs_ioctl.c does not see ib_core's private
 * types, and the exports' CRCs must match (see core_types.h).
 */

#include <linux/file.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <openverbs/ioctl-abi.h>

#include "api_types.h"

/* Memory the handlers take with uverbs_alloc() beyond the call's pool. */
struct uverbs_call_chunk {
	struct uverbs_call_chunk *next;
	u8 data[];
};

/*
 * The state of one ioctl in flight.  The bundle handed to the handler is
 * the last member: its attrs[] array (one slot per attribute the method
 * declares) follows, and after it a pool that uverbs_alloc() serves first.
 */
struct uverbs_call {
	const struct uverbs_api_ioctl_method *method;
	struct ovb_ioctl_attr __user *user_attrs;
	struct ovb_ioctl_attr *uattrs;	/* a copy of user_attrs */
	u8 *pool;
	size_t pool_used;
	size_t pool_len;
	struct uverbs_call_chunk *chunks;
	/* attributes whose objects must be committed/unlocked at the end */
	DECLARE_BITMAP(obj_attrs, UVERBS_API_ATTR_BKEY_LEN);
	DECLARE_BITMAP(arr_attrs, UVERBS_API_ATTR_BKEY_LEN);
	/* NEW objects whose hardware object exists (abort must destroy it) */
	DECLARE_BITMAP(hw_valid, UVERBS_API_ATTR_BKEY_LEN);
	struct uverbs_attr_bundle bundle;
};

/* Pool added to a call that does not fit on the stack. */
#define UVERBS_CALL_POOL	256

/*
 * A call whose state fits in this many bytes lives on the stack, as the
 * in-tree module's small calls do: no allocation, and nothing zeroed but
 * the header (each attribute slot is zeroed when it is set, and every
 * allocation from the pool when it is taken).
 */
#define UVERBS_CALL_ONSTACK	640

static struct uverbs_call *call_of(const struct uverbs_attr_bundle *bundle)
{
	return container_of(bundle, struct uverbs_call, bundle);
}

/*
 * Least bytes one call of a method needs: the call, a slot per attribute
 * bkey and a copy of each declared attribute (uapi.c stores it).
 */
size_t uverbs_call_size(unsigned int key_bitmap_len, unsigned int num_attrs)
{
	return sizeof(struct uverbs_call) +
	       key_bitmap_len * sizeof(struct uverbs_attr) +
	       num_attrs * sizeof(struct ovb_ioctl_attr);
}

/* @size bytes of the call's pool, not initialised, or NULL if it is full. */
static void *uverbs_call_take(struct uverbs_call *call, size_t size)
{
	size_t end;
	void *p;

	if (check_add_overflow(call->pool_used, size, &end) ||
	    end > call->pool_len)
		return NULL;
	p = call->pool + call->pool_used;
	call->pool_used = ALIGN(end, sizeof(u64));
	return p;
}

__malloc void *_uverbs_alloc(struct uverbs_attr_bundle *bundle, size_t size,
			     gfp_t flags)
{
	struct uverbs_call *call = call_of(bundle);
	struct uverbs_call_chunk *chunk;
	size_t total;
	void *p;

	/* A size no call could hold (6.1's errno) */
	if (check_add_overflow(call->pool_used, size, &total))
		return ERR_PTR(-EOVERFLOW);
	/*
	 * Always zeroed, whatever @flags and init_on_alloc say: the pool may
	 * be stack, and a driver that fills part of what it takes and copies
	 * all of it to user space must not hand out old kernel memory.
	 */
	p = uverbs_call_take(call, size);
	if (p) {
		memset(p, 0, size);
		return p;
	}

	chunk = kvmalloc(struct_size(chunk, data, size), flags | __GFP_ZERO);
	if (!chunk)
		return ERR_PTR(-ENOMEM);
	chunk->next = call->chunks;
	call->chunks = chunk;
	return chunk->data;
}
EXPORT_SYMBOL(_uverbs_alloc);

/* Tells user space that the kernel wrote the output attribute @attr. */
static int uverbs_mark_output(const struct uverbs_attr_bundle *bundle,
			      const struct uverbs_attr *attr)
{
	struct uverbs_call *call = call_of(bundle);
	u16 idx = attr->ptr_attr.uattr_idx;
	u16 flags = call->uattrs[idx].flags | OVB_ATTR_F_VALID_OUTPUT;

	return put_user(flags, &call->user_attrs[idx].flags) ? -EFAULT : 0;
}

int uverbs_output_written(const struct uverbs_attr_bundle *bundle, size_t idx)
{
	const struct uverbs_attr *attr = uverbs_attr_get(bundle, idx);

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	return uverbs_mark_output(bundle, attr);
}

/* ------------------------------------------------------ attribute parsers */

/* Whether the bytes of @uattr past @len (inline or in memory) are zero. */
static bool uverbs_tail_is_zero(const struct ovb_ioctl_attr *uattr, u16 len)
{
	if (uattr->len > sizeof(uattr->data))
		return ib_is_buffer_cleared(u64_to_user_ptr(uattr->data) + len,
					    uattr->len - len);
	return !memchr_inv((const u8 *)&uattr->data + len, 0, uattr->len - len);
}

/* PTR_OUT, and the size/placement part of PTR_IN and ENUM_IN. */
static int uverbs_parse_ptr(struct uverbs_call *call,
			    const struct uverbs_attr_spec *spec,
			    const struct ovb_ioctl_attr *uattr,
			    struct uverbs_attr *e, bool reserved_is_enum)
{
	if (uattr->len < spec->u.ptr.min_len ||
	    (!spec->zero_trailing && uattr->len > spec->u.ptr.len))
		return -EINVAL;
	if (!reserved_is_enum && uattr->attr_data.reserved)
		return -EINVAL;

	e->ptr_attr.uattr_idx = uattr - call->uattrs;
	e->ptr_attr.len = uattr->len;
	if (spec->alloc_and_copy && !uverbs_attr_ptr_is_inline(e)) {
		void *p = uverbs_alloc(&call->bundle, uattr->len);

		if (IS_ERR(p))
			return PTR_ERR(p);
		e->ptr_attr.ptr = p;
		if (copy_from_user(p, u64_to_user_ptr(uattr->data), uattr->len))
			return -EFAULT;
	} else {
		e->ptr_attr.data = uattr->data;
	}
	return 0;
}

/* PTR_IN: a longer buffer than the kernel knows must end in zeroes. */
static int uverbs_parse_ptr_in_spec(struct uverbs_call *call,
				    const struct uverbs_attr_spec *spec,
				   const struct ovb_ioctl_attr *uattr,
				   struct uverbs_attr *e, bool is_enum)
{
	if (uattr->len > spec->u.ptr.len && spec->zero_trailing &&
	    !uverbs_tail_is_zero(uattr, spec->u.ptr.len))
		return -EOPNOTSUPP;
	return uverbs_parse_ptr(call, spec, uattr, e, is_enum);
}

static int uverbs_parse_ptr_in(struct uverbs_call *call,
			       const struct uverbs_api_attr *api,
			       const struct ovb_ioctl_attr *uattr, u32 bkey)
{
	return uverbs_parse_ptr_in_spec(call, &api->spec, uattr,
					&call->bundle.attrs[bkey], false);
}

static int uverbs_parse_ptr_out(struct uverbs_call *call,
				const struct uverbs_api_attr *api,
				const struct ovb_ioctl_attr *uattr, u32 bkey)
{
	return uverbs_parse_ptr(call, &api->spec, uattr,
				&call->bundle.attrs[bkey], false);
}

/* ENUM_IN: elem_id picks one of the declared PTR_IN alternatives. */
static int uverbs_parse_enum_in(struct uverbs_call *call,
				const struct uverbs_api_attr *api,
				const struct ovb_ioctl_attr *uattr, u32 bkey)
{
	const struct uverbs_attr_spec *spec = &api->spec;
	struct uverbs_attr *e = &call->bundle.attrs[bkey];
	u8 elem = uattr->attr_data.enum_data.elem_id;

	if (elem >= spec->u.enum_def.num_elems)
		return -EOPNOTSUPP;
	if (uattr->attr_data.enum_data.reserved)
		return -EINVAL;
	if (spec->u2.enum_def.ids[elem].type != UVERBS_ATTR_TYPE_PTR_IN)
		return -EOPNOTSUPP;
	e->ptr_attr.enum_id = elem;
	return uverbs_parse_ptr_in_spec(call, &spec->u2.enum_def.ids[elem],
					uattr, e, true);
}

/* IDR and FD: look the object up (or begin a new one) and lock it. */
static int uverbs_parse_obj(struct uverbs_call *call,
			    const struct uverbs_api_attr *api,
			    const struct ovb_ioctl_attr *uattr, u32 bkey)
{
	struct uverbs_obj_attr *o = &call->bundle.attrs[bkey].obj_attr;
	const struct uverbs_attr_spec *spec = &api->spec;
	size_t idx = uattr - call->uattrs;

	if (uattr->attr_data.reserved || uattr->len)
		return -EINVAL;

	o->attr_elm = api;
	/* FD numbers come as s64; IDR handles never exceed u32. */
	o->uobject = uverbs_get_uobject_from_file(spec->u.obj.obj_type,
						  spec->u.obj.access,
						  uattr->data_s64,
						  &call->bundle);
	if (IS_ERR(o->uobject))
		return PTR_ERR(o->uobject);
	__set_bit(bkey, call->obj_attrs);

	/* A new object's handle (or fd) goes back in the attribute. */
	if (spec->u.obj.access == UVERBS_ACCESS_NEW &&
	    put_user((s64)o->uobject->id, &call->user_attrs[idx].data_s64))
		return -EFAULT;
	return 0;
}

static int uverbs_parse_raw_fd(struct uverbs_call *call,
			       const struct uverbs_api_attr *api,
			       const struct ovb_ioctl_attr *uattr, u32 bkey)
{
	if (uattr->attr_data.reserved || uattr->len ||
	    uattr->data_s64 < INT_MIN || uattr->data_s64 > INT_MAX)
		return -EINVAL;
	/* read with _uverbs_get_const_signed() (uverbs_get_raw_fd()) */
	call->bundle.attrs[bkey].ptr_attr.data = uattr->data_s64;
	return 0;
}

/*
 * Look up @n handles in order, the i-th into @uobjs[i] (which may overlap
 * @ids[i + 1...] no further than @ids[i]); stops at the first failure,
 * whose errno goes to *@err.  Returns how many objects are held.
 */
static u32 idrs_lookup(struct ib_uobject **uobjs, const u32 *ids, u32 n,
		       const struct uverbs_attr_spec *spec,
		       struct uverbs_attr_bundle *bundle, int *err)
{
	struct ib_uobject *uobj;
	u32 held;

	for (held = 0; held < n; held++) {
		uobj = uverbs_get_uobject_from_file(spec->u2.objs_arr.obj_type,
						    spec->u2.objs_arr.access,
						    ids[held], bundle);
		if (IS_ERR(uobj)) {
			*err = PTR_ERR(uobj);
			break;
		}
		uobjs[held] = uobj;
	}
	return held;
}

/* IDRS_ARRAY: an array of u32 handles, each looked up and locked. */
static int uverbs_parse_idrs_array(struct uverbs_call *call,
				   const struct uverbs_api_attr *api,
				   const struct ovb_ioctl_attr *uattr, u32 bkey)
{
	const struct uverbs_attr_spec *spec = &api->spec;
	struct uverbs_objs_arr_attr *arr = &call->bundle.attrs[bkey].objs_arr_attr;
	size_t n;
	u32 *ids;
	int ret = 0;

	if (uattr->attr_data.reserved || uattr->len % sizeof(u32))
		return -EINVAL;
	n = uattr->len / sizeof(u32);
	if (n < spec->u2.objs_arr.min_len || n > spec->u2.objs_arr.max_len)
		return -EINVAL;

	arr->uobjects = uverbs_alloc(&call->bundle,
				     array_size(n, sizeof(*arr->uobjects)));
	if (IS_ERR(arr->uobjects))
		return PTR_ERR(arr->uobjects);
	/* The handles are read into the tail of the pointer array. */
	ids = (u32 *)(arr->uobjects + n) - n;
	if (uattr->len > sizeof(uattr->data)) {
		if (copy_from_user(ids, u64_to_user_ptr(uattr->data), uattr->len))
			return -EFAULT;
	} else {
		memcpy(ids, &uattr->data, uattr->len);
	}

	/* what was looked up is given back at the end of the call */
	arr->len = idrs_lookup(arr->uobjects, ids, n, spec, &call->bundle, &ret);
	__set_bit(bkey, call->arr_attrs);
	return ret;
}

typedef int (*uverbs_attr_parser)(struct uverbs_call *call,
				  const struct uverbs_api_attr *api,
				  const struct ovb_ioctl_attr *uattr, u32 bkey);

static const uverbs_attr_parser uverbs_attr_parsers[] = {
	[UVERBS_ATTR_TYPE_PTR_IN] = uverbs_parse_ptr_in,
	[UVERBS_ATTR_TYPE_PTR_OUT] = uverbs_parse_ptr_out,
	[UVERBS_ATTR_TYPE_IDR] = uverbs_parse_obj,
	[UVERBS_ATTR_TYPE_FD] = uverbs_parse_obj,
	[UVERBS_ATTR_TYPE_RAW_FD] = uverbs_parse_raw_fd,
	[UVERBS_ATTR_TYPE_ENUM_IN] = uverbs_parse_enum_in,
	[UVERBS_ATTR_TYPE_IDRS_ARRAY] = uverbs_parse_idrs_array,
};

static const struct uverbs_api_attr *uverbs_call_attr(struct uverbs_call *call,
						      u32 attr_key)
{
	u32 bkey;

	if (attr_key == UVERBS_API_KEY_ERR)
		return NULL;
	bkey = uapi_bkey_attr(attr_key);
	return bkey < call->method->key_bitmap_len ?
		call->method->attrs[bkey] : NULL;
}

static int uverbs_call_set_attr(struct uverbs_call *call,
				const struct ovb_ioctl_attr *uattr)
{
	u32 attr_key = uapi_key_attr(uattr->attr_id);
	const struct uverbs_api_attr *api = uverbs_call_attr(call, attr_key);
	u32 bkey = uapi_bkey_attr(attr_key);
	int ret;

	/* An attribute this kernel does not know is fine unless mandatory. */
	if (!api)
		return uattr->flags & OVB_ATTR_F_MANDATORY ?
			-EPROTONOSUPPORT : 0;
	if (test_bit(bkey, call->bundle.attr_present))
		return -EINVAL;
	if (api->spec.type >= ARRAY_SIZE(uverbs_attr_parsers) ||
	    !uverbs_attr_parsers[api->spec.type])
		return -EOPNOTSUPP;

	/* The slot may hold stack garbage: start each parser from zero. */
	memset(&call->bundle.attrs[bkey], 0, sizeof(call->bundle.attrs[bkey]));
	ret = uverbs_attr_parsers[api->spec.type](call, api, uattr, bkey);
	if (ret)
		return ret;
	__set_bit(bkey, call->bundle.attr_present);
	return 0;
}

/* ------------------------------------------------------------- the call */

/* An ib_udata from a pair of PTR_IN/PTR_OUT attributes (absent: empty). */
void uverbs_fill_udata(struct uverbs_attr_bundle *bundle,
		       struct ib_udata *udata, unsigned int attr_in,
		       unsigned int attr_out)
{
	struct uverbs_call *call = call_of(bundle);
	const struct uverbs_attr *in = uverbs_attr_get(bundle, attr_in);
	const struct uverbs_attr *out = uverbs_attr_get(bundle, attr_out);

	*udata = (struct ib_udata){};
	if (!IS_ERR(in)) {
		udata->inlen = in->ptr_attr.len;
		/* Inline input is read from the user's own attribute. */
		udata->inbuf = uverbs_attr_ptr_is_inline(in) ?
			&call->user_attrs[in->ptr_attr.uattr_idx].data :
			u64_to_user_ptr(in->ptr_attr.data);
	}
	if (!IS_ERR(out)) {
		udata->outbuf = u64_to_user_ptr(out->ptr_attr.data);
		udata->outlen = out->ptr_attr.len;
	}
}

static int uverbs_call_handler(struct uverbs_call *call)
{
	const struct uverbs_api_ioctl_method *method = call->method;
	struct uverbs_attr_bundle *bundle = &call->bundle;
	struct ib_uobject *destroyed;
	int ret;

	if (method->destroy_bkey == UVERBS_API_ATTR_BKEY_LEN)
		return method->handler(bundle);

	/* The object goes first; the handler then reports on it. */
	destroyed = bundle->attrs[method->destroy_bkey].obj_attr.uobject;
	ret = uobj_destroy(destroyed, bundle);
	if (ret)
		return ret;
	__clear_bit(method->destroy_bkey, call->obj_attrs);
	ret = method->handler(bundle);
	uobj_put_destroy(destroyed);
	return ret;
}

static int uverbs_call_run(struct uverbs_call *call, u16 num_attrs)
{
	const struct uverbs_api_ioctl_method *method = call->method;
	struct uverbs_attr_bundle *bundle = &call->bundle;
	struct ib_uverbs_device *udev = bundle->ufile->device;
	size_t len = array_size(num_attrs, sizeof(*call->uattrs));
	const struct uverbs_attr *out;
	unsigned int i;
	int ret;

	/* Driver code may be gone after a hot-unplug. */
	if (method->driver_method &&
	    !srcu_dereference(udev->ib_dev, &udev->disassociate_srcu))
		return -EIO;

	/* Overwritten at once: no need to zero it. */
	call->uattrs = uverbs_call_take(call, len);
	if (!call->uattrs)
		call->uattrs = uverbs_alloc(bundle, len);
	if (IS_ERR(call->uattrs))
		return PTR_ERR(call->uattrs);
	if (copy_from_user(call->uattrs, call->user_attrs, len))
		return -EFAULT;

	for (i = 0; i < num_attrs; i++) {
		ret = uverbs_call_set_attr(call, &call->uattrs[i]);
		if (ret)
			return ret;
	}
	if (!bitmap_subset(method->attr_mandatory, bundle->attr_present,
			   method->key_bitmap_len))
		return -EINVAL;

	if (method->has_udata)
		uverbs_fill_udata(bundle, &bundle->driver_udata,
				  OVB_ATTR_UHW_IN, OVB_ATTR_UHW_OUT);
	else
		bundle->driver_udata = (struct ib_udata){};

	ret = uverbs_call_handler(call);

	/* Drivers write UHW_OUT directly; assume they did. */
	if (!ret && method->has_udata) {
		out = uverbs_attr_get(bundle, OVB_ATTR_UHW_OUT);
		if (!IS_ERR(out))
			ret = uverbs_mark_output(bundle, out);
	}
	/* EPROTONOSUPPORT means "the framework cannot run this", only. */
	if (WARN_ON_ONCE(ret == -EPROTONOSUPPORT))
		ret = -EINVAL;
	return ret;
}

/* Commit or abort what the attributes created, unlock what they locked. */
static void uverbs_call_finish(struct uverbs_call *call, bool commit)
{
	unsigned int n = call->method->key_bitmap_len;
	struct uverbs_call_chunk *chunk;
	struct uverbs_attr *attr;
	const struct uverbs_api_attr *api;
	unsigned int bkey, i;

	for_each_set_bit(bkey, call->obj_attrs, n) {
		attr = &call->bundle.attrs[bkey];
		uverbs_finalize_object(attr->obj_attr.uobject,
				       attr->obj_attr.attr_elm->spec.u.obj.access,
				       test_bit(bkey, call->hw_valid), commit,
				       &call->bundle);
	}
	for_each_set_bit(bkey, call->arr_attrs, n) {
		attr = &call->bundle.attrs[bkey];
		api = uverbs_call_attr(call, uapi_bkey_to_key_attr(bkey));
		if (WARN_ON(!api))
			continue;
		for (i = 0; i < attr->objs_arr_attr.len; i++)
			uverbs_finalize_object(attr->objs_arr_attr.uobjects[i],
					       api->spec.u2.objs_arr.access,
					       false, commit, &call->bundle);
	}
	while ((chunk = call->chunks)) {
		call->chunks = chunk->next;
		kvfree(chunk);
	}
}

static int uverbs_call_method(struct ib_uverbs_file *ufile,
			      const struct ovb_ioctl_hdr *hdr,
			      struct ovb_ioctl_attr __user *user_attrs)
{
	u64 onstack[UVERBS_CALL_ONSTACK / sizeof(u64)] __uninitialized;
	struct uverbs_api *uapi = ufile->device->uapi;
	const struct uverbs_api_ioctl_method *method;
	struct uverbs_call *call;
	size_t size;
	u32 key;
	int ret;

	if (hdr->driver_id != uapi->driver_id)
		return -EINVAL;
	key = uapi_key_obj(hdr->object_id) |
	      uapi_key_ioctl_method(hdr->method_id);
	method = radix_tree_lookup(&uapi->radix, key);
	if (!method || !uapi_key_is_ioctl_method(key))
		return -EPROTONOSUPPORT;

	if (method->call_size <= sizeof(onstack)) {
		call = (struct uverbs_call *)onstack;
		size = sizeof(onstack);
	} else {
		size = method->call_size + UVERBS_CALL_POOL;
		call = kmalloc(size, GFP_KERNEL);
		if (!call)
			return -ENOMEM;
	}
	memset(call, 0, sizeof(*call));
	call->method = method;
	call->user_attrs = user_attrs;
	call->pool = (u8 *)&call->bundle.attrs[method->key_bitmap_len];
	call->pool_len = size - (call->pool - (u8 *)call);
	call->bundle.ufile = ufile;

	ret = uverbs_call_run(call, hdr->num_attrs);
	uverbs_call_finish(call, !ret);
	if (call != (struct uverbs_call *)onstack)
		kfree(call);
	return ret;
}

/* Off, ioctl() answers ENOTTY and rdma-core uses write(): Documentation/ioctl.md. */
static bool ioctl_abi = true;
module_param(ioctl_abi, bool, 0644);
MODULE_PARM_DESC(ioctl_abi, "serve the ioctl() ABI (RDMA_VERBS_IOCTL; default on); off: ENOTTY, rdma-core uses write()");

/*
 * The header's own rules: its length is exactly the attributes it counts,
 * at most a page (EINVAL); reserved fields are zero (EPROTONOSUPPORT).
 */
static int ioctl_hdr_errno(const struct ovb_ioctl_hdr *hdr)
{
	size_t expected = struct_size(hdr, attrs, hdr->num_attrs);

	if (hdr->length > PAGE_SIZE || hdr->length != expected)
		return -EINVAL;
	return hdr->reserved1 || hdr->reserved2 ? -EPROTONOSUPPORT : 0;
}

long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct ovb_ioctl_hdr __user *uhdr = (void __user *)arg;
	struct srcu_struct *unplug = &ufile->device->disassociate_srcu;
	struct ovb_ioctl_hdr hdr;
	int srcu_key;
	long ret;

	if (cmd != OVB_VERBS_IOCTL || !READ_ONCE(ioctl_abi))
		return -ENOIOCTLCMD;
	if (copy_from_user(&hdr, uhdr, sizeof(hdr)))
		return -EFAULT;
	ret = ioctl_hdr_errno(&hdr);
	if (ret)
		return ret;

	/* a hot-unplug waits for the method to return */
	srcu_key = srcu_read_lock(unplug);
	ret = uverbs_call_method(ufile, &hdr, uhdr->attrs);
	srcu_read_unlock(unplug, srcu_key);
	return ret;
}

/* ------------------------------------------------ helpers for handlers */

/* An inline flags value: 8 bytes, or 4 from older user space. */
static int flags_inline_value(const struct uverbs_attr *attr, u64 *flags)
{
	const u64 *data = &attr->ptr_attr.data;

	if (attr->ptr_attr.len == sizeof(u64))
		*flags = *data;
	else if (attr->ptr_attr.len == sizeof(u32))
		*flags = *(const u32 *)data;
	else
		return -EINVAL;
	return 0;
}

int uverbs_get_flags64(u64 *to, const struct uverbs_attr_bundle *attrs_bundle,
		       size_t idx, u64 allowed_bits)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);
	u64 flags = 0;	/* an absent flags attribute is no flags */
	int ret = IS_ERR(attr) ? 0 : flags_inline_value(attr, &flags);

	if (!ret && (flags & ~allowed_bits))
		ret = -EINVAL;
	if (!ret)
		*to = flags;
	return ret;
}
EXPORT_SYMBOL(uverbs_get_flags64);

int uverbs_get_flags32(u32 *to, const struct uverbs_attr_bundle *attrs_bundle,
		       size_t idx, u64 allowed_bits)
{
	u64 flags;
	int ret = uverbs_get_flags64(&flags, attrs_bundle, idx, allowed_bits);

	/* allowed_bits may be wider than the caller's u32 */
	if (!ret && flags > U32_MAX)
		ret = -EINVAL;
	if (!ret)
		*to = flags;
	return ret;
}
EXPORT_SYMBOL(uverbs_get_flags32);

/*
 * @size bytes of @from into an output attribute's buffer, truncated to
 * it; with @zero_tail a longer buffer is zeroed past @size first.  The
 * output is marked valid (OVB_ATTR_F_VALID_OUTPUT) once written.
 */
static int uverbs_write_output(const struct uverbs_attr_bundle *bundle,
			       size_t idx, const void *from, size_t size,
			       bool zero_tail)
{
	const struct uverbs_attr *attr = uverbs_attr_get(bundle, idx);
	void __user *dst;
	size_t room;

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	dst = u64_to_user_ptr(attr->ptr_attr.data);
	room = attr->ptr_attr.len;
	if (zero_tail && room > size && clear_user(dst + size, room - size))
		return -EFAULT;
	if (copy_to_user(dst, from, min(room, size)))
		return -EFAULT;
	return uverbs_mark_output(bundle, attr);
}

int uverbs_copy_to(const struct uverbs_attr_bundle *attrs_bundle, size_t idx,
		   const void *from, size_t size)
{
	return uverbs_write_output(attrs_bundle, idx, from, size, false);
}
EXPORT_SYMBOL(uverbs_copy_to);

int uverbs_copy_to_struct_or_zero(const struct uverbs_attr_bundle *bundle,
				  size_t idx, const void *from, size_t size)
{
	return uverbs_write_output(bundle, idx, from, size, true);
}
EXPORT_SYMBOL(uverbs_copy_to_struct_or_zero);

/*
 * A constant attribute (inline u64), or *@def_val when it is absent and
 * a default exists; ENOENT when absent without one.
 */
static int uverbs_get_const_raw(u64 *to, const struct uverbs_attr_bundle *b,
				size_t idx, const u64 *def_val)
{
	const struct uverbs_attr *attr = uverbs_attr_get(b, idx);

	if (!IS_ERR(attr)) {
		*to = attr->ptr_attr.data;
		return 0;
	}
	if (PTR_ERR(attr) != -ENOENT || !def_val)
		return PTR_ERR(attr);
	*to = *def_val;
	return 0;
}

/* The upper bound is unsigned: it may exceed S64_MAX. */
static bool const_signed_in_range(s64 val, s64 lower, u64 upper)
{
	return val >= lower && (val <= 0 || (u64)val <= upper);
}

int _uverbs_get_const_signed(s64 *to,
			     const struct uverbs_attr_bundle *attrs_bundle,
			     size_t idx, s64 lower_bound, u64 upper_bound,
			     s64 *def_val)
{
	u64 raw;
	int ret;

	ret = uverbs_get_const_raw(&raw, attrs_bundle, idx, (const u64 *)def_val);
	if (ret)
		return ret;
	*to = raw;
	return const_signed_in_range(*to, lower_bound, upper_bound) ? 0 : -EINVAL;
}
EXPORT_SYMBOL(_uverbs_get_const_signed);

int _uverbs_get_const_unsigned(u64 *to,
			       const struct uverbs_attr_bundle *attrs_bundle,
			       size_t idx, u64 upper_bound, u64 *def_val)
{
	int ret;

	ret = uverbs_get_const_raw(to, attrs_bundle, idx, def_val);
	if (ret)
		return ret;
	return *to > upper_bound ? -EINVAL : 0;
}
EXPORT_SYMBOL(_uverbs_get_const_unsigned);

/* From here on an abort destroys the new object's hardware object too. */
void uverbs_finalize_uobj_create(const struct uverbs_attr_bundle *attrs_bundle,
				 u16 idx)
{
	__set_bit(uapi_bkey_attr(uapi_key_attr(idx)),
		  call_of(attrs_bundle)->hw_valid);
}
EXPORT_SYMBOL(uverbs_finalize_uobj_create);

/* The handler of every declared DESTROY method: the framework destroys. */
int uverbs_destroy_def_handler(struct uverbs_attr_bundle *attrs)
{
	return 0;
}
EXPORT_SYMBOL(uverbs_destroy_def_handler);
