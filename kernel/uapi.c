// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the API a device serves.
 *
 * Built once per ib_device from one kind of declaration, chains of struct
 * uapi_definition (the public <rdma/uverbs_ioctl.h> format): ours first,
 * one chain per object carrying its needs, its ioctl tree and its write()
 * commands (uverbs_std_api), then the driver's ib_device::driver_def.
 * The walk fills
 *  - a radix tree of objects, ioctl methods and their attributes, keyed as
 *    the ioctl ABI keys them (uapi_key_*()), and
 *  - a table of the declared write() commands by number, each with the
 *    object it belongs to.
 * Then whatever the device cannot serve goes: an object whose needs it
 * lacks, with all its methods and commands; a method or command whose own
 * needs it lacks; a method whose mandatory handle names an object that is
 * gone; a legacy command outside ib_device::uverbs_cmd_mask.  What is gone
 * answers as if it never existed: EOPNOTSUPP on write(), EPROTONOSUPPORT
 * on ioctl().
 */

#include <linux/radix-tree.h>
#include <linux/slab.h>

#include "core_types.h"

/* Our objects; the driver's driver_def is walked after them. */
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

/* Command numbers of one kind (legacy or _ex) a chain may declare. */
#define UAPI_WRITE_IDS		(OVB_CMD_ID_MASK + 1)

/* A write() command as a chain declared it. */
struct uapi_write_decl {
	const struct uapi_definition *def;	/* NULL: nobody declared it */
	u32 obj_key;				/* the object it belongs to */
	bool lacks_op;				/* an op it needs is missing */
};

/* The state of one walk: what is being declared, and where it goes. */
struct uapi_merge {
	struct uverbs_api *uapi;
	struct ib_device *ibdev;
	bool is_driver;
	u32 obj_key;			/* the object being declared */
	struct uapi_write_decl *cmd;	/* the write() command being declared */
	/* by uapi_write_index(): legacy commands, then the _ex ones */
	struct uapi_write_decl *writes;
};

static unsigned int uapi_write_index(bool is_ex, u32 id)
{
	return is_ex * UAPI_WRITE_IDS + id;
}

static int uverbs_notsupp(struct uverbs_attr_bundle *attrs)
{
	return -EOPNOTSUPP;
}

/* ------------------------------------------------------------- the tree */

/*
 * The element at @key: the one already there (*@found set), or a new one
 * of @size bytes, zeroed.
 */
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
	ret = elm ? radix_tree_insert(&uapi->radix, key, elm) : -ENOMEM;
	if (!ret)
		return elm;
	kfree(elm);
	return ERR_PTR(ret);
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

/* ------------------------------------------------------- the walk */

static int uapi_merge_chain(struct uapi_merge *m,
			    const struct uapi_definition *defs);

/*
 * An included chain names its own objects; the includer's object and
 * command resume after it.
 */
static int uapi_def_chain(struct uapi_merge *m,
			  const struct uapi_definition *def)
{
	struct uapi_write_decl *cmd = m->cmd;
	u32 obj_key = m->obj_key;
	int ret;

	m->obj_key = UVERBS_API_KEY_ERR;
	m->cmd = NULL;
	ret = uapi_merge_chain(m, def->chain);
	m->obj_key = obj_key;
	m->cmd = cmd;
	return ret;
}

static int uapi_def_obj_tree(struct uapi_merge *m,
			     const struct uapi_definition *def)
{
	return uapi_merge_obj_tree(m, def);
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

/*
 * A write() command of the current object.  Its sizes are recorded for a
 * legacy command only (see UVERBS_EX_MIN()), once the device is known to
 * serve it (uapi_place_writes()).
 */
static int uapi_def_write(struct uapi_merge *m,
			  const struct uapi_definition *def)
{
	u32 id = def->write.command_num;
	struct uapi_write_decl *cmd;

	/* the legacy ones must fit ib_device::uverbs_cmd_mask */
	if (WARN_ON(m->obj_key == UVERBS_API_KEY_ERR || !def->func_write ||
		    id >= (def->write.is_ex ? UAPI_WRITE_IDS : BITS_PER_TYPE(u64))))
		return -EINVAL;
	cmd = &m->writes[uapi_write_index(def->write.is_ex, id)];
	/* one declaration per command: a driver cannot replace ours */
	if (WARN_ON(cmd->def))
		return -EEXIST;
	cmd->def = def;
	cmd->obj_key = m->obj_key;
	m->cmd = cmd;
	return 0;
}

/*
 * The device cannot serve what @def scopes: the current object (with all
 * its methods and commands), or the write() command declared last in this
 * chain (6.1 uses METHOD scope for write() commands only; a later object
 * start or object tree in the same chain does not end that command's
 * scope, in 6.1 either).
 */
static int uapi_not_served(struct uapi_merge *m,
			   const struct uapi_definition *def)
{
	struct uverbs_api_object *obj;
	bool found;

	if (def->scope == UAPI_SCOPE_METHOD) {
		if (WARN_ON(!m->cmd))
			return -EINVAL;
		m->cmd->lacks_op = true;
		return 0;
	}
	if (WARN_ON(def->scope != UAPI_SCOPE_OBJECT))
		return -EINVAL;
	obj = uapi_elm(m->uapi, m->obj_key, sizeof(*obj), &found);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	obj->disabled = 1;
	return 0;
}

static int uapi_def_needs_fn(struct uapi_merge *m,
			     const struct uapi_definition *def)
{
	void *const *op = (void *const *)((const u8 *)&m->ibdev->ops +
					   def->needs_fn_offset);

	return *op ? 0 : uapi_not_served(m, def);
}

static int uapi_def_is_supported(struct uapi_merge *m,
				 const struct uapi_definition *def)
{
	return def->func_is_supported(m->ibdev) ? 0 : uapi_not_served(m, def);
}

typedef int (*uapi_def_handler)(struct uapi_merge *m,
				const struct uapi_definition *def);

static const uapi_def_handler uapi_def_handlers[] = {
	[UAPI_DEF_OBJECT_START] = uapi_def_object_start,
	[UAPI_DEF_WRITE] = uapi_def_write,
	[UAPI_DEF_CHAIN_OBJ_TREE] = uapi_def_obj_tree,
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

/* Walks a whole chain: ours, or the driver's. */
static int uapi_walk(struct uapi_merge *m, const struct uapi_definition *defs,
		     bool is_driver)
{
	m->is_driver = is_driver;
	m->obj_key = UVERBS_API_KEY_ERR;
	m->cmd = NULL;
	return uapi_merge_chain(m, defs);
}

/* ------------------------------------------------------------ pruning */

/* Frees the elements keyed from @first to @last. */
static void uapi_free_keys(struct uverbs_api *uapi, u32 first, u32 last)
{
	struct radix_tree_iter iter;
	void __rcu **slot;

	radix_tree_for_each_slot(slot, &uapi->radix, &iter, first) {
		void *elm = rcu_dereference_protected(*slot, true);

		if (iter.index > last)
			return;
		radix_tree_iter_delete(&uapi->radix, &iter, slot);
		kfree(elm);
	}
}

/*
 * Whether @attr makes its method uncallable here: a mandatory handle of
 * an object the device does not have (UVERBS_IDR_ANY_OBJECT: any object).
 */
static bool uapi_attr_unusable(struct uverbs_api *uapi,
			       const struct uverbs_api_attr *attr)
{
	const struct uverbs_attr_spec *spec = &attr->spec;
	const struct uverbs_api_object *obj;
	u16 id;

	if (!spec->mandatory)
		return false;
	switch (spec->type) {
	case UVERBS_ATTR_TYPE_IDR:
	case UVERBS_ATTR_TYPE_FD:
		id = spec->u.obj.obj_type;
		break;
	case UVERBS_ATTR_TYPE_IDRS_ARRAY:
		id = spec->u2.objs_arr.obj_type;
		break;
	default:
		return false;
	}
	obj = uapi_get_object(uapi, id);
	return IS_ERR(obj) ? PTR_ERR(obj) != -ENOMSG : obj->disabled;
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
			uapi_free_keys(uapi, key, key | ~UVERBS_API_OBJ_KEY_MASK);
			return true;
		}
		if (uapi_key_is_ioctl_method(key) &&
		    ((struct uverbs_api_ioctl_method *)elm)->disabled) {
			uapi_free_keys(uapi, key, key | UVERBS_API_ATTR_KEY_MASK);
			return true;
		}
		if (uapi_key_is_attr(key) && uapi_attr_unusable(uapi, elm)) {
			key &= method_mask;
			uapi_free_keys(uapi, key, key | UVERBS_API_ATTR_KEY_MASK);
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

static int uapi_finish_methods(struct uverbs_api *uapi)
{
	struct radix_tree_iter iter;
	void __rcu **slot;
	int ret;

	radix_tree_for_each_slot(slot, &uapi->radix, &iter, 0) {
		if (!uapi_key_is_ioctl_method(iter.index))
			continue;
		ret = uapi_finish_method(uapi, slot, iter.index);
		if (ret)
			return ret;
	}
	return 0;
}

/* ------------------------------------------------- the write() tables */

/*
 * Whether the device serves @cmd: declared, every op it needs present,
 * its object still in the tree after pruning, and a legacy command in the
 * command mask (ib_core sets the common ones, drivers add the data-path
 * commands they want the kernel to serve: rxe POST_SEND and REQ_NOTIFY_CQ,
 * not POLL_CQ).
 */
static bool uapi_write_served(const struct uapi_merge *m,
			      const struct uapi_write_decl *cmd)
{
	const struct uverbs_api_object *obj;

	if (!cmd->def || cmd->lacks_op)
		return false;
	obj = radix_tree_lookup(&m->uapi->radix, cmd->obj_key);
	if (!obj || obj->disabled)
		return false;
	return cmd->def->write.is_ex ||
	       (m->ibdev->uverbs_cmd_mask & BIT_ULL(cmd->def->write.command_num));
}

/* The dispatcher's view of a command the device serves. */
static void uapi_fill_write(struct uverbs_api_write_method *method,
			    const struct uapi_definition *def)
{
	method->handler = def->func_write;
	method->is_ex = def->write.is_ex;
	if (method->is_ex)
		return;
	method->has_udata = def->write.has_udata;
	method->has_resp = def->write.has_resp;
	method->req_size = def->write.req_size;
	method->resp_size = def->write.resp_size;
}

/*
 * The two tables, legacy and _ex, indexed by command number.  Each is as
 * long as its highest served command, as in 6.1: a number past the end is
 * EOPNOTSUPP outright; a hole gets the "not supported" method, whose
 * header write.c checks as a legacy command's first.  One allocation holds
 * the tables and the methods they point to (uverbs_destroy_api() frees it).
 */
static int uapi_place_writes(struct uapi_merge *m)
{
	struct uverbs_api *uapi = m->uapi;
	unsigned int len[2] = { 1, 1 }, served = 0, i;
	const struct uverbs_api_write_method **slots;
	struct uverbs_api_write_method *method;
	const struct uapi_definition *def;
	size_t size;

	for (i = 0; i < uapi_write_index(true, UAPI_WRITE_IDS); i++) {
		if (!uapi_write_served(m, &m->writes[i])) {
			m->writes[i].def = NULL;
			continue;
		}
		def = m->writes[i].def;
		len[def->write.is_ex] = max_t(unsigned int, len[def->write.is_ex],
					      def->write.command_num + 1);
		served++;
	}
	uapi->num_write = len[0];
	uapi->num_write_ex = len[1];
	size = size_add(array_size(len[0] + len[1], sizeof(*slots)),
			array_size(served, sizeof(*method)));
	slots = kzalloc(size, GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	uapi->notsupp_method.handler = uverbs_notsupp;
	for (i = 0; i < len[0] + len[1]; i++)
		slots[i] = &uapi->notsupp_method;
	uapi->write_methods = slots;
	uapi->write_ex_methods = slots + len[0];

	method = (struct uverbs_api_write_method *)(slots + len[0] + len[1]);
	for (i = 0; i < uapi_write_index(true, UAPI_WRITE_IDS); i++) {
		def = m->writes[i].def;
		if (!def)
			continue;
		uapi_fill_write(method, def);
		if (def->write.is_ex)
			uapi->write_ex_methods[def->write.command_num] = method;
		else
			uapi->write_methods[def->write.command_num] = method;
		method++;
	}
	return 0;
}

/* ------------------------------------------------------------ the API */

static int uapi_build(struct uapi_merge *m)
{
	int ret;

	ret = uapi_walk(m, uverbs_std_api, false);
	if (!ret)
		ret = uapi_walk(m, m->ibdev->driver_def, true);
	if (ret)
		return ret;
	while (uapi_prune_one(m->uapi))
		;
	ret = uapi_finish_methods(m->uapi);
	return ret ? ret : uapi_place_writes(m);
}

struct uverbs_api *uverbs_build_api(struct ib_device *ibdev)
{
	struct uapi_merge m = { .ibdev = ibdev };
	int ret;

	/* the declared write() commands are needed while building only */
	m.writes = kcalloc(uapi_write_index(true, UAPI_WRITE_IDS),
			   sizeof(*m.writes), GFP_KERNEL);
	m.uapi = m.writes ? kzalloc(sizeof(*m.uapi), GFP_KERNEL) : NULL;
	if (!m.uapi) {
		kfree(m.writes);
		return ERR_PTR(-ENOMEM);
	}
	INIT_RADIX_TREE(&m.uapi->radix, GFP_KERNEL);
	m.uapi->driver_id = ibdev->ops.driver_id;

	ret = uapi_build(&m);
	kfree(m.writes);
	if (!ret)
		return m.uapi;
	if (ret != -ENOMEM)
		dev_err(&ibdev->dev, "uverbs: invalid method tree (%d)\n", ret);
	uverbs_destroy_api(m.uapi);
	return ERR_PTR(ret);
}

void uverbs_destroy_api(struct uverbs_api *uapi)
{
	uapi_free_keys(uapi, 0, U32_MAX);
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
