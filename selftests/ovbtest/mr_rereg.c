// SPDX-License-Identifier: GPL-2.0
/*
 * ovbtest: REREG_MR, carried out the way mlx5 decides it on 6.1 and 6.12.
 *
 * Three facts about the MR pick the way (ovbtest_rereg_ways): whether the
 * caller asks for a new range, whether the access change is one the key
 * itself can take (mlx5 rewrites such bits of a live mkey with a UMR), and
 * whether the MR is over a plain pin (a dma-buf or ODP one has nothing to
 * reuse).  With odp=1 (odp.c) a new MR with IB_ACCESS_ON_DEMAND is an ODP
 * one, and an implicit MR is always replaced by a new implicit MR.
 *
 * Done in place, the driver answers NULL and ib_core keeps the handle and
 * the keys; otherwise the driver answers a new MR with new keys, which
 * ib_core puts under the old handle before it destroys the old MR.  A new
 * range is loaded into the key only when the key's translation table is
 * big enough (ovbtest_mr_around sizes it as mlx5's mkey cache would).
 *
 * On every move done in place the driver sets ib_mr::pd itself, as mlx5's
 * translation UMR and 6.12's rxe do (mlx5's access/PD UMR leaves that to
 * ib_core): the core must release the PD it read before calling us.
 */
#include "ovbtest.h"

/* The access bits a live key can change (mlx5's UMR-updatable ones). */
#define OVBTEST_KEY_ACCESS	(IB_ACCESS_LOCAL_WRITE | \
				 IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_READ | \
				 IB_ACCESS_REMOTE_ATOMIC | \
				 IB_ACCESS_RELAXED_ORDERING)

enum ovbtest_rereg_way {
	/* EOPNOTSUPP: nothing to keep and no range to build from */
	OVBTEST_REREG_REFUSED,
	/* the key's access and PD rewritten; the same pin and keys */
	OVBTEST_REREG_KEY,
	/* a new pin loaded into the key if it fits, else a new MR over it */
	OVBTEST_REREG_KEY_NEW_PIN,
	/* a new MR (new keys) that takes the pin over */
	OVBTEST_REREG_MR_OLD_PIN,
	/* a new MR (new keys) over a new pin */
	OVBTEST_REREG_MR_NEW_PIN,
};

/* [a new range][an access change the key takes][a plain pin] */
static const enum ovbtest_rereg_way ovbtest_rereg_ways[2][2][2] = {
	[false][true][true]	= OVBTEST_REREG_KEY,
	[false][true][false]	= OVBTEST_REREG_KEY,
	[false][false][true]	= OVBTEST_REREG_MR_OLD_PIN,
	[false][false][false]	= OVBTEST_REREG_REFUSED,
	[true][true][true]	= OVBTEST_REREG_KEY_NEW_PIN,
	[true][false][true]	= OVBTEST_REREG_MR_NEW_PIN,
	/* mlx5 registers a dma-buf MR's new range as plain user memory */
	[true][true][false]	= OVBTEST_REREG_MR_NEW_PIN,
	[true][false][false]	= OVBTEST_REREG_MR_NEW_PIN,
};

/* What the MR is to become: the caller's values, the MR's where not given. */
struct ovbtest_rereg {
	int flags;
	u64 start;
	u64 length;
	u64 iova;
	int access;
	struct ib_pd *pd;
};

/* The key takes the new access and, when it moves, the new PD. */
static void ovbtest_rereg_set_key(struct ovbtest_mr *mr,
				  const struct ovbtest_rereg *to)
{
	if (to->flags & IB_MR_REREG_PD)
		mr->ibmr.pd = to->pd;
	mr->access = to->access;
}

static struct ib_mr *ovbtest_rereg_refused(struct ovbtest_mr *mr,
					   const struct ovbtest_rereg *to)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static struct ib_mr *ovbtest_rereg_key(struct ovbtest_mr *mr,
				       const struct ovbtest_rereg *to)
{
	ovbtest_rereg_set_key(mr, to);
	return NULL;
}

static struct ib_mr *ovbtest_rereg_key_new_pin(struct ovbtest_mr *mr,
					       const struct ovbtest_rereg *to)
{
	struct ib_device *ibdev = mr->ibmr.device;
	struct ib_umem *umem, *old = mr->umem;
	struct ib_mr *ibmr;

	umem = ib_umem_get(ibdev, to->start, to->length, to->access);
	if (IS_ERR(umem))
		return ERR_CAST(umem);
	if (ib_umem_num_pages(umem) > mr->xlt_pages) {
		ibmr = ovbtest_mr_around(ibdev, umem, to->iova, to->access);
		if (IS_ERR(ibmr))
			ib_umem_release(umem);
		return ibmr;
	}
	/* the caller holds the MR for writing: no COPY reads it meanwhile */
	mr->umem = umem;
	mr->ibmr.iova = to->iova;
	mr->ibmr.length = umem->length;
	ovbtest_rereg_set_key(mr, to);
	ib_umem_release(old);
	return NULL;
}

/* The old MR, destroyed by ib_core next, is left without a pin. */
static struct ib_mr *ovbtest_rereg_mr_old_pin(struct ovbtest_mr *mr,
					      const struct ovbtest_rereg *to)
{
	struct ib_mr *ibmr = ovbtest_mr_around(mr->ibmr.device, mr->umem,
					       mr->ibmr.iova, to->access);

	if (!IS_ERR(ibmr))
		mr->umem = NULL;
	return ibmr;
}

static struct ib_mr *ovbtest_rereg_mr_new_pin(struct ovbtest_mr *mr,
					      const struct ovbtest_rereg *to)
{
	return ovbtest_mr_new(mr->ibmr.device, to->start, to->length, to->iova,
			      to->access);
}

static struct ib_mr *(*const ovbtest_rereg_do[])(struct ovbtest_mr *mr,
						 const struct ovbtest_rereg *to) = {
	[OVBTEST_REREG_REFUSED]		= ovbtest_rereg_refused,
	[OVBTEST_REREG_KEY]		= ovbtest_rereg_key,
	[OVBTEST_REREG_KEY_NEW_PIN]	= ovbtest_rereg_key_new_pin,
	[OVBTEST_REREG_MR_OLD_PIN]	= ovbtest_rereg_mr_old_pin,
	[OVBTEST_REREG_MR_NEW_PIN]	= ovbtest_rereg_mr_new_pin,
};

static struct ib_mr *ovbtest_rereg_user_mr(struct ib_mr *ibmr, int flags,
					   u64 start, u64 length,
					   u64 virt_addr, int access,
					   struct ib_pd *new_pd,
					   struct ib_udata *udata)
{
	struct ovbtest_mr *mr = to_omr(ibmr);
	struct ovbtest_rereg to = {
		.flags = flags,
		.start = start,
		.length = length,
		.iova = virt_addr,
		.access = flags & IB_MR_REREG_ACCESS ? access : mr->access,
		.pd = flags & IB_MR_REREG_PD ? new_pd : ibmr->pd,
	};
	bool new_range = flags & IB_MR_REREG_TRANS;
	enum ovbtest_rereg_way way;
	bool key_ok, plain;

	if (flags & ~(IB_MR_REREG_TRANS | IB_MR_REREG_PD | IB_MR_REREG_ACCESS))
		return ERR_PTR(-EOPNOTSUPP);
#if OVBTEST_K612
	/*
	 * 6.12's drivers (mlx5, mlx4, irdma, hns, rxe) refuse write access
	 * to pages pinned without it when the range stays: EACCES.  6.1's
	 * mlx5 rewrites the key as for any other access change.
	 */
	{
		int ret = ib_umem_check_rereg(mr->umem, flags, access);

		if (ret)
			return ERR_PTR(ret);
	}
#endif
	if ((to.access & IB_ACCESS_ON_DEMAND) && !ovbtest_odp_enabled())
		return ERR_PTR(-EOPNOTSUPP);
	/*
	 * odp.c: mlx5 never changes an implicit MR in place; without a new
	 * range it makes a new implicit one (which must stay ODP).
	 */
	if (mr->odp_implicit && !new_range) {
		if (!(to.access & IB_ACCESS_ON_DEMAND))
			return ERR_PTR(-EOPNOTSUPP);
		to.flags |= IB_MR_REREG_TRANS;
		to.start = 0;
		to.length = U64_MAX;
		to.iova = 0;
		new_range = true;
	}
	key_ok = !((to.access ^ mr->access) & ~OVBTEST_KEY_ACCESS);
	/* a new range loaded into the key is a pinned one */
	if (new_range && (to.access & IB_ACCESS_ON_DEMAND))
		key_ok = false;
	/* an ODP umem, as a dma-buf one, has nothing for a new MR to keep */
	plain = !mr->umem->is_dmabuf && !mr->umem->is_odp;
	way = ovbtest_rereg_ways[new_range][key_ok][plain];
	return ovbtest_rereg_do[way](mr, &to);
}

const struct ib_device_ops ovbtest_mr_rereg_ops = {
	.rereg_user_mr = ovbtest_rereg_user_mr,
};
