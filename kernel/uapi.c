// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the API a device serves.
 *
 * Built once per ib_device from declarations only:
 *  - write() commands from the object files' uverbs_write_cmd tables, into
 *    two arrays indexed by command number;
 *  - objects, ioctl methods and their attributes from chains of struct
 *    uapi_definition (the public <rdma/uverbs_ioctl.h> format): ours
 *    (uverbs_std_api) merged with the driver's ib_device::driver_def, into
 *    a radix tree keyed as the ioctl ABI keys them (uapi_key_*()).
 * Whatever needs a driver operation the device lacks is pruned: a write
 * command then answers EOPNOTSUPP, an ioctl method EPROTONOSUPPORT, as if
 * it did not exist.
 */

#include <linux/radix-tree.h>
#include <linux/slab.h>

#include "core_types.h"

/* Every write() command the module knows, by object. */
static const struct uverbs_write_cmd *const uverbs_cmd_tables[] = {
	uverbs_device_cmds,
	uverbs_event_cmds,
	uverbs_cq_cmds,
	uverbs_srq_cmds,
	uverbs_wq_cmds,
	uverbs_rwq_ind_tbl_cmds,
	uverbs_flow_cmds,
	uverbs_pd_cmds,
	uverbs_mr_cmds,
	uverbs_mw_cmds,
	uverbs_ah_cmds,
	uverbs_xrcd_cmds,
	uverbs_qp_cmds,
	uverbs_post_cmds,
	uverbs_mcast_cmds,
};

/* Our ioctl object trees; the driver's driver_def is merged after them. */
static const struct uapi_definition uverbs_std_api[] = {
	UAPI_DEF_CHAIN(uverbs_def_obj_device),
	UAPI_DEF_CHAIN(uverbs_def_obj_async_fd),
	UAPI_DEF_CHAIN(uverbs_def_obj_comp_channel),
	UAPI_DEF_CHAIN(uverbs_def_obj_pd),
	UAPI_DEF_CHAIN(uverbs_def_obj_mr),
	UAPI_DEF_CHAIN(uverbs_def_obj_mw),
	UAPI_DEF_CHAIN(uverbs_def_obj_ah),
	UAPI_DEF_CHAIN(uverbs_def_obj_cq),
	UAPI_DEF_CHAIN(uverbs_def_obj_qp),
	UAPI_DEF_CHAIN(uverbs_def_obj_srq),
	UAPI_DEF_CHAIN(uverbs_def_obj_xrcd),
	UAPI_DEF_CHAIN(uverbs_def_obj_wq),
	UAPI_DEF_CHAIN(uverbs_def_obj_rwq_ind_tbl),
	UAPI_DEF_CHAIN(uverbs_def_obj_flow),
	UAPI_DEF_CHAIN(uverbs_def_obj_flow_action),
	UAPI_DEF_CHAIN(uverbs_def_obj_counters),
	UAPI_DEF_CHAIN(uverbs_def_obj_dm),
	{ }
};

static int uverbs_notsupp(struct uverbs_attr_bundle *attrs)
{
	return -EOPNOTSUPP;
}

/* Whether @ibdev implements every operation in @needs (0-terminated). */
static bool uverbs_device_has(struct ib_device *ibdev, const u16 *needs,
			      size_t n)
{
	size_t i;

	for (i = 0; i < n && needs[i]; i++) {
		void *const *op = (void *const *)((const char *)&ibdev->ops +
						   needs[i] - 1);
		if (!*op)
			return false;
	}
	return true;
}

/* Calls @fn for every command of every table. */
#define uverbs_for_each_write_cmd(fn, arg)				\
	do {								\
		const struct uverbs_write_cmd *__cmd;			\
		size_t __tbl;						\
									\
		for (__tbl = 0; __tbl < ARRAY_SIZE(uverbs_cmd_tables); __tbl++) \
			for (__cmd = uverbs_cmd_tables[__tbl];		\
			     __cmd->method.handler; __cmd++)		\
				fn(__cmd, arg);				\
	} while (0)

struct uverbs_write_build {
	struct uverbs_api *uapi;
	struct ib_device *ibdev;
	unsigned int max, max_ex;
};

/*
 * Whether the device serves @cmd: it implements every operation the
 * command needs and, for a legacy command, has its bit in the command
 * mask (ib_core sets the common ones, drivers add the data-path commands
 * they want the kernel to serve: rxe POST_SEND and REQ_NOTIFY_CQ, not
 * POLL_CQ).
 */
static bool uverbs_write_cmd_served(const struct uverbs_write_cmd *cmd,
				    struct ib_device *ibdev)
{
	u32 id = cmd->command & OVB_CMD_ID_MASK;

	if (!uverbs_device_has(ibdev, cmd->needs, ARRAY_SIZE(cmd->needs)))
		return false;
	return (cmd->command & OVB_CMD_FLAG_EXTENDED) ||
	       (ibdev->uverbs_cmd_mask & BIT_ULL(id));
}

/*
 * The tables are sized by the highest command the device serves, as in
 * 6.1: a number above it is EOPNOTSUPP outright, one below it that the
 * device lacks gets the "not supported" method (checked as a legacy
 * command first).
 */
static void uverbs_count_write_cmd(const struct uverbs_write_cmd *cmd, void *arg)
{
	struct uverbs_write_build *b = arg;
	u32 id = cmd->command & OVB_CMD_ID_MASK;

	if (!uverbs_write_cmd_served(cmd, b->ibdev))
		return;
	if (cmd->command & OVB_CMD_FLAG_EXTENDED)
		b->max_ex = max(b->max_ex, id);
	else
		b->max = max(b->max, id);
}

/* A command the device cannot serve keeps the "not supported" slot. */
static void uverbs_place_write_cmd(const struct uverbs_write_cmd *cmd, void *arg)
{
	struct uverbs_write_build *b = arg;
	u32 id = cmd->command & OVB_CMD_ID_MASK;

	if (!uverbs_write_cmd_served(cmd, b->ibdev))
		return;
	if (cmd->command & OVB_CMD_FLAG_EXTENDED)
		b->uapi->write_ex_methods[id] = &cmd->method;
	else
		b->uapi->write_methods[id] = &cmd->method;
}

static int uverbs_build_write_methods(struct uverbs_api *uapi,
				      struct ib_device *ibdev)
{
	struct uverbs_write_build b = { .uapi = uapi, .ibdev = ibdev };
	const struct uverbs_api_write_method **slots;
	unsigned int i;

	uverbs_for_each_write_cmd(uverbs_count_write_cmd, &b);
	uapi->notsupp_method.handler = uverbs_notsupp;
	uapi->num_write = b.max + 1;
	uapi->num_write_ex = b.max_ex + 1;
	slots = kcalloc(uapi->num_write + uapi->num_write_ex, sizeof(*slots),
			GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < uapi->num_write + uapi->num_write_ex; i++)
		slots[i] = &uapi->notsupp_method;
	uapi->write_methods = slots;
	uapi->write_ex_methods = slots + uapi->num_write;

	uverbs_for_each_write_cmd(uverbs_place_write_cmd, &b);
	return 0;
}

/* ------------------------------------------------------- the ioctl tree */

/* The state of one merge: where in the tree the definitions are. */
struct uapi_merge {
	struct uverbs_api *uapi;
	struct ib_device *ibdev;
	bool is_driver;
	u32 obj_key;		/* the object being defined */
	u32 method_key;		/* the method a METHOD-scope def applies to */
};

/* The element at @key, created zeroed unless it exists (then *@found). */
static void *uapi_elm(struct uverbs_api *uapi, u32 key, size_t size,
		      bool *found)
{
	void *elm;
	int ret;

	if (key == UVERBS_API_KEY_ERR)
		return ERR_PTR(-EOVERFLOW);
	elm = radix_tree_lookup(&uapi->radix, key);
	*found = elm;
	if (elm)
		return elm;
	elm = kzalloc(size, GFP_KERNEL);
	if (!elm)
		return ERR_PTR(-ENOMEM);
	ret = radix_tree_insert(&uapi->radix, key, elm);
	if (ret) {
		kfree(elm);
		return ERR_PTR(ret);
	}
	return elm;
}

static int uapi_merge_attr(struct uverbs_api *uapi, u32 method_key,
			   const struct uverbs_attr_def *def)
{
	struct uverbs_api_attr *attr;
	bool found;

	/* Only IDR/FD attributes may create or destroy (one per method). */
	if (def->attr.type == UVERBS_ATTR_TYPE_IDRS_ARRAY &&
	    WARN_ON(def->attr.u2.objs_arr.access == UVERBS_ACCESS_NEW ||
		    def->attr.u2.objs_arr.access == UVERBS_ACCESS_DESTROY))
		return -EINVAL;
	attr = uapi_elm(uapi, method_key | uapi_key_attr(def->id),
			sizeof(*attr), &found);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	/* Nobody may redefine an attribute another chain declared. */
	if (found)
		return -EEXIST;
	attr->spec = def->attr;
	return 0;
}

static int uapi_merge_method(struct uapi_merge *m,
			     const struct uverbs_method_def *def)
{
	u32 key = m->obj_key | uapi_key_ioctl_method(def->id);
	struct uverbs_api_ioctl_method *method;
	unsigned int i;
	bool found;
	int ret;

	if (!def->attrs)
		return 0;
	method = uapi_elm(m->uapi, key, sizeof(*method), &found);
	if (IS_ERR(method))
		return PTR_ERR(method);
	if (!found) {
		if (WARN_ON(!def->handler))
			return -EINVAL;
		method->handler = def->handler;
		method->driver_method = m->is_driver &&
			def->handler != uverbs_destroy_def_handler;
	} else if (WARN_ON(def->handler)) {
		/* a driver adds attributes to a method; it cannot replace it */
		return -EINVAL;
	}

	for (i = 0; i < def->num_attrs; i++) {
		const struct uverbs_attr_def *attr = (*def->attrs)[i];

		if (!attr)
			continue;
		/* ENUM_IN points into the driver's rodata: a driver method. */
		if (attr->attr.type == UVERBS_ATTR_TYPE_ENUM_IN)
			method->driver_method |= m->is_driver;
		ret = uapi_merge_attr(m->uapi, key, attr);
		if (ret)
			return ret;
	}
	return 0;
}

static int uapi_merge_obj_tree(struct uapi_merge *m,
			       const struct uapi_definition *def)
{
	const struct uverbs_object_def *tree = def->chain_obj_tree;
	struct uverbs_api_object *obj;
	unsigned int i;
	bool found;
	int ret;

	if (WARN_ON(def->object_start.object_id != tree->id))
		return -EINVAL;
	m->obj_key = uapi_key_obj(tree->id);
	obj = uapi_elm(m->uapi, m->obj_key, sizeof(*obj), &found);
	if (IS_ERR(obj))
		return PTR_ERR(obj);

	if (tree->type_attrs) {
		if (WARN_ON(obj->type_attrs))
			return -EINVAL;
		/* Drivers' objects must be ones we can revoke on unplug. */
		if (WARN_ON(m->is_driver &&
			    tree->type_attrs->type_class != &uverbs_idr_class &&
			    tree->type_attrs->type_class != &uverbs_fd_class))
			return -EINVAL;
		obj->id = tree->id;
		obj->type_attrs = tree->type_attrs;
		obj->type_class = tree->type_attrs->type_class;
	}
	for (i = 0; tree->methods && i < tree->num_methods; i++) {
		if (!(*tree->methods)[i])
			continue;
		ret = uapi_merge_method(m, (*tree->methods)[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int uapi_merge_chain(struct uapi_merge *m,
			    const struct uapi_definition *defs);

static int uapi_def_chain(struct uapi_merge *m,
			  const struct uapi_definition *def)
{
	return uapi_merge_chain(m, def->chain);
}

static int uapi_def_object_start(struct uapi_merge *m,
				 const struct uapi_definition *def)
{
	struct uverbs_api_object *obj;
	bool found;

	m->obj_key = uapi_key_obj(def->object_start.object_id);
	obj = uapi_elm(m->uapi, m->obj_key, sizeof(*obj), &found);
	return PTR_ERR_OR_ZERO(obj);
}

/* Marks the current object or method as not served by this device. */
static int uapi_disable(struct uapi_merge *m, const struct uapi_definition *def)
{
	struct uverbs_api_ioctl_method *method;
	struct uverbs_api_object *obj;
	bool found;

	if (def->scope == UAPI_SCOPE_OBJECT) {
		obj = uapi_elm(m->uapi, m->obj_key, sizeof(*obj), &found);
		if (IS_ERR(obj))
			return PTR_ERR(obj);
		obj->disabled = 1;
		return 0;
	}
	/*
	 * A METHOD scope follows a write() declaration (6.1 never uses it for
	 * ioctl methods); our write() commands carry their own needs.
	 */
	if (WARN_ON(def->scope != UAPI_SCOPE_METHOD) ||
	    !uapi_key_is_ioctl_method(m->method_key))
		return 0;
	method = uapi_elm(m->uapi, m->method_key, sizeof(*method), &found);
	if (IS_ERR(method))
		return PTR_ERR(method);
	method->disabled = 1;
	return 0;
}

static int uapi_def_needs_fn(struct uapi_merge *m,
			     const struct uapi_definition *def)
{
	void *const *op = (void *const *)((const u8 *)&m->ibdev->ops +
					   def->needs_fn_offset);

	return *op ? 0 : uapi_disable(m, def);
}

static int uapi_def_is_supported(struct uapi_merge *m,
				 const struct uapi_definition *def)
{
	return def->func_is_supported(m->ibdev) ? 0 : uapi_disable(m, def);
}

/*
 * write() commands are declared in uverbs_write_cmd tables (write.c), not
 * in chains: 6.1's drivers declare none, and we do not take them.
 */
static int uapi_def_write(struct uapi_merge *m,
			  const struct uapi_definition *def)
{
	return -EINVAL;
}

typedef int (*uapi_def_handler)(struct uapi_merge *m,
				const struct uapi_definition *def);

static const uapi_def_handler uapi_def_handlers[] = {
	[UAPI_DEF_OBJECT_START] = uapi_def_object_start,
	[UAPI_DEF_WRITE] = uapi_def_write,
	[UAPI_DEF_CHAIN_OBJ_TREE] = uapi_merge_obj_tree,
	[UAPI_DEF_CHAIN] = uapi_def_chain,
	[UAPI_DEF_IS_SUPPORTED_FUNC] = uapi_def_is_supported,
	[UAPI_DEF_IS_SUPPORTED_DEV_FN] = uapi_def_needs_fn,
};

static int uapi_merge_chain(struct uapi_merge *m,
			    const struct uapi_definition *defs)
{
	const struct uapi_definition *def;
	int ret;

	for (def = defs; def && def->kind != UAPI_DEF_END; def++) {
		if (WARN_ON(def->kind >= ARRAY_SIZE(uapi_def_handlers) ||
			    !uapi_def_handlers[def->kind]))
			return -EINVAL;
		ret = uapi_def_handlers[def->kind](m, def);
		if (ret)
			return ret;
	}
	return 0;
}

/* Frees the elements with keys in [first, last]. */
static void uapi_remove_range(struct uverbs_api *uapi, u32 first, u32 last)
{
	struct radix_tree_iter iter;
	void __rcu **slot;

	radix_tree_for_each_slot(slot, &uapi->radix, &iter, first) {
		if (iter.index > last)
			break;
		kfree(rcu_dereference_protected(*slot, true));
		radix_tree_iter_delete(&uapi->radix, &iter, slot);
	}
}

/* The object a handle attribute names, or UVERBS_API_KEY_ERR. */
static u32 uapi_attr_object(const struct uverbs_attr_spec *spec)
{
	if (spec->type == UVERBS_ATTR_TYPE_IDR ||
	    spec->type == UVERBS_ATTR_TYPE_FD)
		return spec->u.obj.obj_type;
	if (spec->type == UVERBS_ATTR_TYPE_IDRS_ARRAY)
		return spec->u2.objs_arr.obj_type;
	return UVERBS_API_KEY_ERR;
}

/* A method whose mandatory handle names an object the device lacks. */
static bool uapi_attr_unusable(struct uverbs_api *uapi,
			       const struct uverbs_api_attr *attr)
{
	const struct uverbs_api_object *obj;
	u32 id = uapi_attr_object(&attr->spec);

	if (!attr->spec.mandatory || id == UVERBS_API_KEY_ERR)
		return false;
	obj = uapi_get_object(uapi, id);
	if (IS_ERR(obj))
		return PTR_ERR(obj) != -ENOMSG;
	return obj->disabled;
}

/*
 * Removes one disabled object or method (or one that cannot be called);
 * false when there is nothing left to remove.
 */
static bool uapi_prune_one(struct uverbs_api *uapi)
{
	const u32 method_mask = UVERBS_API_OBJ_KEY_MASK |
				UVERBS_API_METHOD_KEY_MASK;
	struct radix_tree_iter iter;
	void __rcu **slot;
	void *elm;
	u32 key;

	radix_tree_for_each_slot(slot, &uapi->radix, &iter, 0) {
		key = iter.index;
		elm = rcu_dereference_protected(*slot, true);
		if (uapi_key_is_object(key) &&
		    ((struct uverbs_api_object *)elm)->disabled) {
			uapi_remove_range(uapi, key, key | ~UVERBS_API_OBJ_KEY_MASK);
			return true;
		}
		if (uapi_key_is_ioctl_method(key) &&
		    ((struct uverbs_api_ioctl_method *)elm)->disabled) {
			uapi_remove_range(uapi, key, key | UVERBS_API_ATTR_KEY_MASK);
			return true;
		}
		if (uapi_key_is_attr(key) && uapi_attr_unusable(uapi, elm)) {
			key &= method_mask;
			uapi_remove_range(uapi, key, key | UVERBS_API_ATTR_KEY_MASK);
			return true;
		}
	}
	return false;
}

/*
 * What the parser needs to know of a method, from its attributes.  The
 * method is reallocated with its attribute table (indexed by bkey, so the
 * parser finds each attribute without a tree lookup) and @slot updated.
 */
static int uapi_finish_method(struct uverbs_api *uapi, void __rcu **slot,
			      u32 key)
{
	struct uverbs_api_ioctl_method *method =
		rcu_dereference_protected(*slot, true);
	struct uverbs_api_ioctl_method *grown;
	struct radix_tree_iter iter;
	unsigned int max_bkey = 0, num_attrs = 0;
	bool has_new_or_destroy = false;
	struct uverbs_api_attr *attr;
	void __rcu **aslot;
	u32 bkey;
	size_t size;

	method->destroy_bkey = UVERBS_API_ATTR_BKEY_LEN;
	radix_tree_for_each_slot(aslot, &uapi->radix, &iter,
				 uapi_key_attrs_start(key)) {
		if (uapi_key_attr_to_ioctl_method(iter.index) != key)
			break;
		attr = rcu_dereference_protected(*aslot, true);
		bkey = uapi_bkey_attr(iter.index & UVERBS_API_ATTR_KEY_MASK);
		if (attr->spec.mandatory)
			__set_bit(bkey, method->attr_mandatory);
		if (attr->spec.is_udata)
			method->has_udata = 1;
		if ((attr->spec.type == UVERBS_ATTR_TYPE_IDR ||
		     attr->spec.type == UVERBS_ATTR_TYPE_FD) &&
		    (attr->spec.u.obj.access == UVERBS_ACCESS_NEW ||
		     attr->spec.u.obj.access == UVERBS_ACCESS_DESTROY)) {
			/* One object created or destroyed per call, always named. */
			if (WARN_ON(has_new_or_destroy || !attr->spec.mandatory))
				return -EINVAL;
			has_new_or_destroy = true;
			if (attr->spec.u.obj.access == UVERBS_ACCESS_DESTROY)
				method->destroy_bkey = bkey;
		}
		max_bkey = max(max_bkey, bkey);
		num_attrs++;
	}
	method->key_bitmap_len = max_bkey + 1;
	size = uverbs_call_size(method->key_bitmap_len, num_attrs);
	if (WARN_ON(size > PAGE_SIZE))
		return -EINVAL;
	method->call_size = size;

	/* On failure the old method stays in the tree, freed with it. */
	grown = krealloc(method, struct_size(method, attrs, max_bkey + 1),
			 GFP_KERNEL);
	if (!grown)
		return -ENOMEM;
	method = grown;
	memset(method->attrs, 0, (max_bkey + 1) * sizeof(method->attrs[0]));
	radix_tree_replace_slot(&uapi->radix, slot, method);
	radix_tree_for_each_slot(aslot, &uapi->radix, &iter,
				 uapi_key_attrs_start(key)) {
		if (uapi_key_attr_to_ioctl_method(iter.index) != key)
			break;
		bkey = uapi_bkey_attr(iter.index & UVERBS_API_ATTR_KEY_MASK);
		method->attrs[bkey] = rcu_dereference_protected(*aslot, true);
	}
	return 0;
}

static int uverbs_build_ioctl_tree(struct uverbs_api *uapi,
				   struct ib_device *ibdev)
{
	struct uapi_merge m = {
		.uapi = uapi, .ibdev = ibdev,
		.obj_key = UVERBS_API_KEY_ERR, .method_key = UVERBS_API_KEY_ERR,
	};
	struct radix_tree_iter iter;
	void __rcu **slot;
	int ret;

	ret = uapi_merge_chain(&m, uverbs_std_api);
	if (ret)
		return ret;
	m.is_driver = true;
	m.obj_key = UVERBS_API_KEY_ERR;
	ret = uapi_merge_chain(&m, ibdev->driver_def);
	if (ret)
		return ret;

	while (uapi_prune_one(uapi))
		;
	radix_tree_for_each_slot(slot, &uapi->radix, &iter, 0) {
		if (!uapi_key_is_ioctl_method(iter.index))
			continue;
		ret = uapi_finish_method(uapi, slot, iter.index);
		if (ret)
			return ret;
	}
	return 0;
}

struct uverbs_api *uverbs_build_api(struct ib_device *ibdev)
{
	struct uverbs_api *uapi;
	int ret;

	uapi = kzalloc(sizeof(*uapi), GFP_KERNEL);
	if (!uapi)
		return ERR_PTR(-ENOMEM);
	INIT_RADIX_TREE(&uapi->radix, GFP_KERNEL);
	uapi->driver_id = ibdev->ops.driver_id;

	ret = uverbs_build_ioctl_tree(uapi, ibdev);
	if (!ret)
		ret = uverbs_build_write_methods(uapi, ibdev);
	if (ret) {
		if (ret != -ENOMEM)
			dev_err(&ibdev->dev, "uverbs: invalid method tree (%d)\n",
				ret);
		uverbs_destroy_api(uapi);
		return ERR_PTR(ret);
	}
	return uapi;
}

void uverbs_destroy_api(struct uverbs_api *uapi)
{
	uapi_remove_range(uapi, 0, U32_MAX);
	kfree(uapi->write_methods);
	kfree(uapi);
}

const struct uverbs_api_write_method *
uverbs_find_write_method(const struct uverbs_api *uapi, u32 command)
{
	u32 id = command & OVB_CMD_ID_MASK;

	if (command & ~(u32)(OVB_CMD_FLAG_EXTENDED |
			     OVB_CMD_ID_MASK))
		return ERR_PTR(-EINVAL);
	if (command & OVB_CMD_FLAG_EXTENDED)
		return id < uapi->num_write_ex ? uapi->write_ex_methods[id] :
						 ERR_PTR(-EOPNOTSUPP);
	return id < uapi->num_write ? uapi->write_methods[id] :
				      ERR_PTR(-EOPNOTSUPP);
}

const struct uverbs_api_object *uapi_get_object(struct uverbs_api *uapi,
						u16 object_id)
{
	const struct uverbs_api_object *obj;

	if (object_id == UVERBS_IDR_ANY_OBJECT)
		return ERR_PTR(-ENOMSG);
	obj = radix_tree_lookup(&uapi->radix, uapi_key_obj(object_id));
	/*
	 * An object the driver cannot serve is no object at all, as in 6.1
	 * (which drops it from the tree): a lookup of one is EINVAL before
	 * any handle is looked at, never the handle's ENOENT.
	 */
	return obj && !obj->disabled ? obj : ERR_PTR(-ENOENT);
}
