// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: memory regions.
 *
 * REG_MR hands the user range to the driver, which pins it (ib_umem_get)
 * and programs its translation; the MR holds pd->usecnt.  REREG_MR may
 * change the translation, the access rights and the PD in place, or the
 * driver may answer with a brand-new MR, which then takes over the old
 * one's handle.
 */

#include "uverbs.h"

/* The HCA translates page by page: start and IOVA must share an offset. */
static bool mr_offsets_match(u64 start, u64 hca_va)
{
	return (start & ~PAGE_MASK) == (hca_va & ~PAGE_MASK);
}

/* Fill in what ib_core expects of a user MR the driver just made. */
void uverbs_mr_init(struct ib_mr *mr, struct ib_pd *pd,
		    struct ib_uobject *uobj)
{
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = IB_MR_TYPE_USER;
	mr->dm = NULL;
	mr->sig_attrs = NULL;
	mr->uobject = uobj;
	atomic_inc(&pd->usecnt);
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_set_name(&mr->res, NULL);
	rdma_restrack_add(&mr->res);
}

static int uverbs_reg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ovb_reg_mr_resp resp = {};
	struct ovb_reg_mr_req cmd;
	struct ib_device *ibdev;
	struct ib_uobject *uobj;
	struct ib_pd *pd;
	struct ib_mr *mr;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (!mr_offsets_match(cmd.start, cmd.hca_va))
		return -EINVAL;

	uobj = uobj_alloc(OVB_OBJECT_MR, attrs, &ibdev);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = ib_check_mr_access(ibdev, cmd.access_flags);
	if (ret)
		goto err_abort;

	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd.pd_handle, attrs);
	if (IS_ERR(pd)) {
		ret = PTR_ERR(pd);
		goto err_abort;
	}
	mr = pd->device->ops.reg_user_mr(pd, cmd.start, cmd.length, cmd.hca_va,
					 cmd.access_flags,
					 &attrs->driver_udata);
	if (IS_ERR(mr)) {
		ret = PTR_ERR(mr);
		uobj_put_obj_read(pd);
		goto err_abort;
	}
	mr->iova = cmd.hca_va;
	mr->length = cmd.length;
	uverbs_mr_init(mr, pd, uobj);
	uobj->object = mr;
	uobj_put_obj_read(pd);
	uobj_finalize_uobj_create(uobj, attrs);

	resp.lkey = mr->lkey;
	resp.rkey = mr->rkey;
	resp.mr_handle = uobj->id;
	return uverbs_response(attrs, &resp, sizeof(resp));

err_abort:
	uobj_alloc_abort(uobj, attrs);
	return ret;
}

/* REREG_MR's request checks, before any object is touched (6.1's order). */
static int rereg_check_request(const struct ovb_rereg_mr_req *cmd)
{
	if (!cmd->flags)
		return -EINVAL;
	if (cmd->flags & ~IB_MR_REREG_SUPPORTED)
		return -EOPNOTSUPP;
	if ((cmd->flags & IB_MR_REREG_TRANS) &&
	    !mr_offsets_match(cmd->start, cmd->hca_va))
		return -EINVAL;
	return 0;
}

/* The driver changed the MR in place: mirror the change in ib_core's view. */
static void rereg_update_in_place(struct ib_mr *mr,
				  const struct ovb_rereg_mr_req *cmd,
				  struct ib_pd *new_pd)
{
	if (cmd->flags & IB_MR_REREG_PD) {
		struct ib_pd *old_pd = mr->pd;

		atomic_inc(&new_pd->usecnt);
		WRITE_ONCE(mr->pd, new_pd);
		rdma_restrack_sync(&mr->res);
		atomic_dec(&old_pd->usecnt);
	}
	if (cmd->flags & IB_MR_REREG_TRANS) {
		mr->iova = cmd->hca_va;
		mr->length = cmd->length;
	}
}

static int uverbs_rereg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ovb_rereg_mr_resp resp = {};
	struct ib_uobject *uobj, *new_uobj;
	struct ovb_rereg_mr_req cmd;
	struct ib_pd *new_pd = NULL;
	struct ib_mr *mr, *new_mr;
	struct ib_device *ibdev;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ret = rereg_check_request(&cmd);
	if (ret)
		return ret;

	uobj = uobj_get_write(OVB_OBJECT_MR, cmd.mr_handle, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	mr = uobj->object;
	/* Device-memory MRs cannot be re-registered. */
	if (mr->dm) {
		ret = -EINVAL;
		goto put_mr;
	}
	if (cmd.flags & IB_MR_REREG_ACCESS) {
		ret = ib_check_mr_access(mr->device, cmd.access_flags);
		if (ret)
			goto put_mr;
	}

	if (cmd.flags & IB_MR_REREG_PD) {
		new_pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd.pd_handle,
					   attrs);
		if (IS_ERR(new_pd)) {
			ret = PTR_ERR(new_pd);
			goto put_mr;
		}
		/* Moving to the PD it is already in is no PD change. */
		if (new_pd == mr->pd) {
			uobj_put_obj_read(new_pd);
			new_pd = NULL;
			cmd.flags &= ~IB_MR_REREG_PD;
		}
	}

	/* The driver may build a new MR; it needs a uobject ready for it. */
	new_uobj = uobj_alloc(OVB_OBJECT_MR, attrs, &ibdev);
	if (IS_ERR(new_uobj)) {
		ret = PTR_ERR(new_uobj);
		goto put_pd;
	}
	new_mr = ibdev->ops.rereg_user_mr(mr, cmd.flags, cmd.start, cmd.length,
					  cmd.hca_va, cmd.access_flags,
					  new_pd ?: mr->pd,
					  &attrs->driver_udata);
	if (IS_ERR(new_mr)) {
		ret = PTR_ERR(new_mr);
		uobj_alloc_abort(new_uobj, attrs);
		goto put_pd;
	}

	if (new_mr) {
		/*
		 * The new MR takes the old handle; the old MR is destroyed.
		 * The keys are read before the commit: from then on another
		 * thread may deregister the new MR under that handle.
		 */
		uverbs_mr_init(new_mr, new_pd ?: mr->pd, new_uobj);
		new_uobj->object = new_mr;
		resp.lkey = new_mr->lkey;
		resp.rkey = new_mr->rkey;
		rdma_assign_uobject(uobj, new_uobj, attrs);
		rdma_alloc_commit_uobject(new_uobj, attrs);
		uobj_put_destroy(uobj);
		uobj = NULL;
	} else {
		uobj_alloc_abort(new_uobj, attrs);
		rereg_update_in_place(mr, &cmd, new_pd);
		resp.lkey = mr->lkey;
		resp.rkey = mr->rkey;
	}

	ret = uverbs_response(attrs, &resp, sizeof(resp));
put_pd:
	if (new_pd)
		uobj_put_obj_read(new_pd);
put_mr:
	if (uobj)
		uobj_put_write(uobj);
	return ret;
}

static int uverbs_dereg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ovb_dereg_mr_req cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uobj_perform_destroy(OVB_OBJECT_MR, cmd.mr_handle, attrs);
}

static int uverbs_free_mr(struct ib_uobject *uobj, enum rdma_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	return ib_dereg_mr_user(uobj->object, &attrs->driver_udata);
}

const struct uverbs_obj_idr_type uverbs_mr_type = {
	.type = {
		.type_class = &uverbs_idr_class,
		.obj_size = sizeof(struct ib_uobject),
	},
	.destroy_object = uverbs_free_mr,
};

const struct uverbs_write_cmd uverbs_mr_cmds[] = {
	UVERBS_WRITE(OVB_CMD_REG_MR, uverbs_reg_mr,
		     struct ovb_reg_mr_req, struct ovb_reg_mr_resp, 1,
		     UVERBS_NEEDS(reg_user_mr), UVERBS_NEEDS(dereg_mr)),
	UVERBS_WRITE(OVB_CMD_REREG_MR, uverbs_rereg_mr,
		     struct ovb_rereg_mr_req, struct ovb_rereg_mr_resp,
		     1, UVERBS_NEEDS(rereg_user_mr), UVERBS_NEEDS(dereg_mr)),
	UVERBS_WRITE(OVB_CMD_DEREG_MR, uverbs_dereg_mr,
		     struct ovb_dereg_mr_req, struct uverbs_no_resp, 0,
		     UVERBS_NEEDS(dereg_mr)),
	{ }
};
