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

#include "obj_steps.h"

/* The HCA translates page by page: start and IOVA must share an offset. */
static bool mr_offsets_match(u64 start, u64 hca_va)
{
	return (start & ~PAGE_MASK) == (hca_va & ~PAGE_MASK);
}

/* Fill in what ib_core expects of a user MR the driver just made. */
void uverbs_mr_init(struct ib_mr *mr, struct ib_pd *pd,
		    struct ib_uobject *uobj)
{
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_set_name(&mr->res, NULL);
	mr->device = pd->device;
	mr->pd = pd;
	atomic_inc(&pd->usecnt);
	mr->type = IB_MR_TYPE_USER;
	mr->uobject = uobj;
	mr->dm = NULL;
	mr->sig_attrs = NULL;
	rdma_restrack_add(&mr->res);
}

/* REG_MR past its request checks: the PD is held while the driver works. */
static struct ib_mr *uverbs_mr_register(struct uverbs_newobj *n,
					const struct ovb_reg_mr_req *cmd)
{
	int ret = ib_check_mr_access(n->ibdev, cmd->access_flags);
	struct ib_pd *pd;
	struct ib_mr *mr;

	if (ret)
		return ERR_PTR(ret);
	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd->pd_handle, n->attrs);
	if (IS_ERR(pd))
		return ERR_CAST(pd);
	mr = pd->device->ops.reg_user_mr(pd, cmd->start, cmd->length,
					 cmd->hca_va, cmd->access_flags,
					 &n->attrs->driver_udata);
	if (!IS_ERR(mr)) {
		mr->iova = cmd->hca_va;
		mr->length = cmd->length;
		uverbs_mr_init(mr, pd, n->uobj);
	}
	uobj_put_obj_read(pd);
	return mr;
}

static int uverbs_reg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ovb_reg_mr_resp resp;
	struct ovb_reg_mr_req cmd;
	struct uverbs_newobj n;
	struct ib_mr *mr;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	if (!ret && !mr_offsets_match(cmd.start, cmd.hca_va))
		ret = -EINVAL;
	ret = ret ?: uverbs_newobj_begin(&n, OVB_OBJECT_MR, attrs, 0);
	if (ret)
		return ret;
	mr = uverbs_mr_register(&n, &cmd);
	if (IS_ERR(mr))
		return uverbs_newobj_cancel(&n, PTR_ERR(mr));

	resp = (struct ovb_reg_mr_resp) {
		.mr_handle = uverbs_newobj_publish(&n, mr),
		.lkey = mr->lkey,
		.rkey = mr->rkey,
	};
	return uverbs_response(attrs, &resp, sizeof(resp));
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
				  struct ib_pd *old_pd, struct ib_pd *new_pd)
{
	/*
	 * @old_pd was read before the driver ran: drivers that move the MR
	 * in place set ib_mr::pd themselves (mlx5's UMR path, 6.12's rxe).
	 */
	if (cmd->flags & IB_MR_REREG_PD) {
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

/* What REREG_MR holds while the driver works. */
struct rereg_locks {
	struct ib_uobject *uobj;	/* the MR, for writing */
	struct ib_pd *new_pd;		/* read-locked; NULL: the PD stays */
};

static void rereg_unlock(struct rereg_locks *locks)
{
	if (locks->new_pd)
		uobj_put_obj_read(locks->new_pd);
	if (locks->uobj)
		uobj_put_write(locks->uobj);
}

/* The MR and the PD it moves to, with the checks 6.1 makes in between. */
static int rereg_lock(struct uverbs_attr_bundle *attrs,
		      struct ovb_rereg_mr_req *cmd, struct rereg_locks *locks)
{
	struct ib_uobject *uobj;
	struct ib_pd *pd;
	struct ib_mr *mr;
	int ret = 0;

	uobj = uobj_get_write(OVB_OBJECT_MR, cmd->mr_handle, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	locks->uobj = uobj;
	mr = uobj->object;
	/* Device-memory MRs cannot be re-registered. */
	if (mr->dm)
		return -EINVAL;
	if (cmd->flags & IB_MR_REREG_ACCESS)
		ret = ib_check_mr_access(mr->device, cmd->access_flags);
	if (ret || !(cmd->flags & IB_MR_REREG_PD))
		return ret;

	pd = uobj_get_obj_read(pd, OVB_OBJECT_PD, cmd->pd_handle, attrs);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	/* Moving to the PD it is already in is no PD change. */
	if (pd != mr->pd) {
		locks->new_pd = pd;
		return 0;
	}
	uobj_put_obj_read(pd);
	cmd->flags &= ~IB_MR_REREG_PD;
	return 0;
}

/*
 * The driver answered with a new MR: it takes the old handle and the old
 * MR is destroyed.  The keys are read before the commit: from then on
 * another thread may deregister the new MR under that handle.
 */
static void rereg_take_handle(struct rereg_locks *locks,
			      struct uverbs_newobj *n, struct ib_mr *new_mr,
			      struct ib_pd *pd, struct ovb_rereg_mr_resp *resp)
{
	uverbs_mr_init(new_mr, pd, n->uobj);
	n->uobj->object = new_mr;
	resp->lkey = new_mr->lkey;
	resp->rkey = new_mr->rkey;
	rdma_assign_uobject(locks->uobj, n->uobj, n->attrs);
	rdma_alloc_commit_uobject(n->uobj, n->attrs);
	uobj_put_destroy(locks->uobj);
	locks->uobj = NULL;
}

static int rereg_apply(struct uverbs_attr_bundle *attrs,
		       const struct ovb_rereg_mr_req *cmd,
		       struct rereg_locks *locks,
		       struct ovb_rereg_mr_resp *resp)
{
	struct ib_mr *mr = locks->uobj->object, *new_mr;
	struct ib_pd *old_pd = mr->pd;
	struct ib_pd *pd = locks->new_pd ?: old_pd;
	struct uverbs_newobj n;
	/* The driver may build a new MR; it needs a uobject ready for it. */
	int ret = uverbs_newobj_begin(&n, OVB_OBJECT_MR, attrs, 0);

	if (ret)
		return ret;
	new_mr = n.ibdev->ops.rereg_user_mr(mr, cmd->flags, cmd->start,
					    cmd->length, cmd->hca_va,
					    cmd->access_flags, pd,
					    &attrs->driver_udata);
	if (new_mr && !IS_ERR(new_mr)) {
		rereg_take_handle(locks, &n, new_mr, pd, resp);
		return 0;
	}
	uverbs_newobj_cancel(&n, 0);
	if (IS_ERR(new_mr))
		return PTR_ERR(new_mr);
	rereg_update_in_place(mr, cmd, old_pd, locks->new_pd);
	resp->lkey = mr->lkey;
	resp->rkey = mr->rkey;
	return 0;
}

static int uverbs_rereg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ovb_rereg_mr_resp resp = {};
	struct rereg_locks locks = {};
	struct ovb_rereg_mr_req cmd;
	int ret = uverbs_request(attrs, &cmd, sizeof(cmd));

	ret = ret ?: rereg_check_request(&cmd);
	if (ret)
		return ret;
	ret = rereg_lock(attrs, &cmd, &locks) ?:
	      rereg_apply(attrs, &cmd, &locks, &resp) ?:
	      uverbs_response(attrs, &resp, sizeof(resp));
	rereg_unlock(&locks);
	return ret;
}

static const struct uverbs_destroy_cmd uverbs_dereg_mr_cmd = {
	UVERBS_DESTROY_CMD(OVB_OBJECT_MR, struct ovb_dereg_mr_req, mr_handle),
};

static int uverbs_dereg_mr(struct uverbs_attr_bundle *attrs)
{
	return uverbs_write_destroy(attrs, &uverbs_dereg_mr_cmd);
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

/* The MR object: its write() commands here, its ioctl methods in mr_ioctl.c. */
const struct uapi_definition uverbs_def_obj_mr[] = {
	DECLARE_UVERBS_OBJECT(OVB_OBJECT_MR),
	UAPI_DEF_OBJ_NEEDS_FN(dereg_mr),
	UVERBS_DECLARE_WRITE(OVB_CMD_REG_MR, uverbs_reg_mr,
			     UVERBS_IN_OUT_UDATA(struct ovb_reg_mr_req, struct ovb_reg_mr_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(reg_user_mr),
	UVERBS_DECLARE_WRITE(OVB_CMD_REREG_MR, uverbs_rereg_mr,
			     UVERBS_IN_OUT_UDATA(struct ovb_rereg_mr_req,
						 struct ovb_rereg_mr_resp)),
	UAPI_DEF_METHOD_NEEDS_FN(rereg_user_mr),
	UVERBS_DECLARE_WRITE(OVB_CMD_DEREG_MR, uverbs_dereg_mr, UVERBS_IN(struct ovb_dereg_mr_req)),
	UAPI_DEF_CHAIN(uverbs_def_mr_ioctl),
	{ }
};
