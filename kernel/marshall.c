// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the conversions between ib_core's types and their
 * userspace ABI forms that ib_uverbs exports for rdma_ucm (librdmacm's
 * kernel side): address vector and QP attributes to user, path record to
 * and from user.  Nothing in this module calls them (QUERY_QP fills its
 * response in qp.c).
 *
 * Like upstream's uverbs_marshall.c this file sees only the public
 * <rdma/ib_marshall.h>: the exports' CRCs are computed from what is
 * visible here, and must equal the distro's.
 */
#include <linux/export.h>
#include <rdma/ib_marshall.h>

/* The IB subnet prefix an OPA LID is given when it has no port to ask. */
#define OVB_OPA_DEFAULT_GID_PREFIX	cpu_to_be64(0xfe80000000000000ULL)

/*
 * Userspace speaks IB: an OPA address with an extended (32-bit) LID is
 * shown as an IB address whose GID carries the LID.  Returns false if the
 * port could not be queried (then the conversion is not used).
 */
static bool ah_attr_opa_as_ib(struct ib_device *device,
			      const struct rdma_ah_attr *opa,
			      struct rdma_ah_attr *ib)
{
	struct ib_port_attr port;
	bool ok;

	*ib = *opa;
	ib->type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_grh(ib, NULL, 0, 0, 1, 0);
	ok = !ib_query_port(device, opa->port_num, &port);
	rdma_ah_set_subnet_prefix(ib, ok ? cpu_to_be64(port.subnet_prefix) :
					   OVB_OPA_DEFAULT_GID_PREFIX);
	rdma_ah_set_interface_id(ib, OPA_MAKE_ID(rdma_ah_get_dlid(opa)));
	return ok;
}

void ib_copy_ah_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_ah_attr *dst,
			     struct rdma_ah_attr *ah_attr)
{
	const struct rdma_ah_attr *src = ah_attr;
	struct rdma_ah_attr as_ib;

	if (ah_attr->type == RDMA_AH_ATTR_TYPE_OPA &&
	    rdma_ah_get_dlid(ah_attr) > be16_to_cpu(IB_LID_PERMISSIVE) &&
	    ah_attr_opa_as_ib(device, ah_attr, &as_ib))
		src = &as_ib;

	memset(&dst->grh, 0, sizeof(dst->grh));
	dst->dlid = rdma_ah_get_dlid(src);
	dst->sl = rdma_ah_get_sl(src);
	dst->src_path_bits = rdma_ah_get_path_bits(src);
	dst->static_rate = rdma_ah_get_static_rate(src);
	dst->is_global = !!(rdma_ah_get_ah_flags(src) & IB_AH_GRH);
	if (dst->is_global) {
		const struct ib_global_route *grh = rdma_ah_read_grh(src);

		memcpy(dst->grh.dgid, grh->dgid.raw, sizeof(dst->grh.dgid));
		dst->grh.flow_label = grh->flow_label;
		dst->grh.sgid_index = grh->sgid_index;
		dst->grh.hop_limit = grh->hop_limit;
		dst->grh.traffic_class = grh->traffic_class;
	}
	dst->port_num = rdma_ah_get_port_num(src);
	dst->reserved = 0;
}
EXPORT_SYMBOL(ib_copy_ah_attr_to_user);

void ib_copy_qp_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_qp_attr *dst,
			     struct ib_qp_attr *src)
{
	dst->qp_state = src->qp_state;
	dst->cur_qp_state = src->cur_qp_state;
	dst->path_mtu = src->path_mtu;
	dst->path_mig_state = src->path_mig_state;
	dst->qkey = src->qkey;
	dst->rq_psn = src->rq_psn;
	dst->sq_psn = src->sq_psn;
	dst->dest_qp_num = src->dest_qp_num;
	dst->qp_access_flags = src->qp_access_flags;

	dst->max_send_wr = src->cap.max_send_wr;
	dst->max_recv_wr = src->cap.max_recv_wr;
	dst->max_send_sge = src->cap.max_send_sge;
	dst->max_recv_sge = src->cap.max_recv_sge;
	dst->max_inline_data = src->cap.max_inline_data;

	ib_copy_ah_attr_to_user(device, &dst->ah_attr, &src->ah_attr);
	ib_copy_ah_attr_to_user(device, &dst->alt_ah_attr, &src->alt_ah_attr);

	dst->pkey_index = src->pkey_index;
	dst->alt_pkey_index = src->alt_pkey_index;
	dst->en_sqd_async_notify = src->en_sqd_async_notify;
	dst->sq_draining = src->sq_draining;
	dst->max_rd_atomic = src->max_rd_atomic;
	dst->max_dest_rd_atomic = src->max_dest_rd_atomic;
	dst->min_rnr_timer = src->min_rnr_timer;
	dst->port_num = src->port_num;
	dst->timeout = src->timeout;
	dst->retry_cnt = src->retry_cnt;
	dst->rnr_retry = src->rnr_retry;
	dst->alt_port_num = src->alt_port_num;
	dst->alt_timeout = src->alt_timeout;
	memset(dst->reserved, 0, sizeof(dst->reserved));
}
EXPORT_SYMBOL(ib_copy_qp_attr_to_user);

/*
 * The members a path record has under the same name on both sides (the
 * LIDs and raw_traffic differ in representation and are done apart).
 */
#define COPY_PATH_COMMON(dst, src)					\
	do {								\
		(dst)->flow_label = (src)->flow_label;			\
		(dst)->hop_limit = (src)->hop_limit;			\
		(dst)->traffic_class = (src)->traffic_class;		\
		(dst)->reversible = (src)->reversible;			\
		(dst)->numb_path = (src)->numb_path;			\
		(dst)->pkey = (src)->pkey;				\
		(dst)->sl = (src)->sl;					\
		(dst)->mtu_selector = (src)->mtu_selector;		\
		(dst)->mtu = (src)->mtu;				\
		(dst)->rate_selector = (src)->rate_selector;		\
		(dst)->rate = (src)->rate;				\
		(dst)->packet_life_time = (src)->packet_life_time;	\
		(dst)->preference = (src)->preference;			\
		(dst)->packet_life_time_selector =			\
			(src)->packet_life_time_selector;		\
	} while (0)

void ib_copy_path_rec_to_user(struct ib_user_path_rec *dst,
			      struct sa_path_rec *src)
{
	struct sa_path_rec as_ib;

	/* Userspace gets OPA records in their IB form. */
	if (src->rec_type == SA_PATH_REC_TYPE_OPA) {
		sa_convert_path_opa_to_ib(&as_ib, src);
		src = &as_ib;
	}
	memcpy(dst->dgid, src->dgid.raw, sizeof(src->dgid));
	memcpy(dst->sgid, src->sgid.raw, sizeof(src->sgid));
	/* IB LIDs are 16 bits; the record keeps them as be32. */
	dst->dlid = htons(ntohl(sa_path_get_dlid(src)));
	dst->slid = htons(ntohl(sa_path_get_slid(src)));
	dst->raw_traffic = sa_path_get_raw_traffic(src);
	COPY_PATH_COMMON(dst, src);
}
EXPORT_SYMBOL(ib_copy_path_rec_to_user);

void ib_copy_path_rec_from_user(struct sa_path_rec *dst,
				struct ib_user_path_rec *src)
{
	union ib_gid *sgid = (union ib_gid *)src->sgid;
	union ib_gid *dgid = (union ib_gid *)src->dgid;
	u32 slid, dlid;

	memset(dst, 0, sizeof(*dst));
	/* An OPA GID on either end makes it an OPA record (32-bit LIDs). */
	if (ib_is_opa_gid(sgid) || ib_is_opa_gid(dgid)) {
		dst->rec_type = SA_PATH_REC_TYPE_OPA;
		slid = opa_get_lid_from_gid(sgid);
		dlid = opa_get_lid_from_gid(dgid);
	} else {
		dst->rec_type = SA_PATH_REC_TYPE_IB;
		slid = ntohs(src->slid);
		dlid = ntohs(src->dlid);
	}
	memcpy(dst->dgid.raw, src->dgid, sizeof(dst->dgid));
	memcpy(dst->sgid.raw, src->sgid, sizeof(dst->sgid));
	sa_path_set_dlid(dst, dlid);
	sa_path_set_slid(dst, slid);
	sa_path_set_raw_traffic(dst, src->raw_traffic);
	COPY_PATH_COMMON(dst, src);
	sa_path_set_dmac_zero(dst);
}
EXPORT_SYMBOL(ib_copy_path_rec_from_user);
