// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the API a device serves.
 *
 * Built once per ib_device from the declarative tables of the object
 * files: an object or command is served only when the driver implements
 * every operation it needs; everything else answers EOPNOTSUPP, like a
 * command that does not exist.  Objects live in a radix tree keyed as the
 * ioctl ABI keys them; write() commands in two arrays indexed by number.
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

/* Every object type the module serves, with the driver op it needs. */
static const struct uverbs_object_decl uverbs_object_defs[] = {
	{ UVERBS_OBJECT_ASYNC_EVENT, &uverbs_async_event_type.type },
	{ UVERBS_OBJECT_COMP_CHANNEL, &uverbs_comp_channel_type.type },
	{ UVERBS_OBJECT_PD, &uverbs_pd_type.type, UVERBS_NEEDS(dealloc_pd) },
	{ UVERBS_OBJECT_MR, &uverbs_mr_type.type, UVERBS_NEEDS(dereg_mr) },
	{ UVERBS_OBJECT_MW, &uverbs_mw_type.type, UVERBS_NEEDS(dealloc_mw) },
	{ UVERBS_OBJECT_AH, &uverbs_ah_type.type, UVERBS_NEEDS(destroy_ah) },
	{ UVERBS_OBJECT_XRCD, &uverbs_xrcd_type.type,
	  UVERBS_NEEDS(dealloc_xrcd) },
	{ UVERBS_OBJECT_CQ, &uverbs_cq_type.type, UVERBS_NEEDS(destroy_cq) },
	{ UVERBS_OBJECT_QP, &uverbs_qp_type.type, UVERBS_NEEDS(destroy_qp) },
	{ UVERBS_OBJECT_SRQ, &uverbs_srq_type.type, UVERBS_NEEDS(destroy_srq) },
	{ UVERBS_OBJECT_WQ, &uverbs_wq_type.type, UVERBS_NEEDS(destroy_wq) },
	{ UVERBS_OBJECT_RWQ_IND_TBL, &uverbs_rwq_ind_tbl_type.type,
	  UVERBS_NEEDS(destroy_rwq_ind_table) },
	{ UVERBS_OBJECT_FLOW, &uverbs_flow_type.type,
	  UVERBS_NEEDS(destroy_flow) },
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

static int uverbs_build_objects(struct uverbs_api *uapi,
				struct ib_device *ibdev)
{
	const struct uverbs_object_decl *def;
	struct uverbs_api_object *obj;
	int ret;

	for (def = uverbs_object_defs; def->type; def++) {
		obj = kzalloc(sizeof(*obj), GFP_KERNEL);
		if (!obj)
			return -ENOMEM;
		obj->id = def->id;
		obj->type_attrs = def->type;
		obj->type_class = def->type->type_class;
		obj->disabled = !uverbs_device_has(ibdev, &def->needs, 1);
		ret = radix_tree_insert(&uapi->radix, uapi_key_obj(def->id), obj);
		if (ret) {
			kfree(obj);
			return ret;
		}
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

	ret = uverbs_build_objects(uapi, ibdev);
	if (!ret)
		ret = uverbs_build_write_methods(uapi, ibdev);
	if (ret) {
		uverbs_destroy_api(uapi);
		return ERR_PTR(ret);
	}
	return uapi;
}

void uverbs_destroy_api(struct uverbs_api *uapi)
{
	struct radix_tree_iter iter;
	void __rcu **slot;

	radix_tree_for_each_slot(slot, &uapi->radix, &iter, 0) {
		kfree(rcu_dereference_protected(*slot, true));
		radix_tree_iter_delete(&uapi->radix, &iter, slot);
	}
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
