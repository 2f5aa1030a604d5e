// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Every write() command of the 6.1 ABI with a builder that fills a
 * plausible request from the objects the file holds: what the fuzzer
 * sends before (maybe) breaking it.  The table says which object a
 * command creates or destroys and where the handle sits, so main.c keeps
 * the pools current; the builders only fill requests.
 */
#include <string.h>

#include "fuzz.h"

#define RND(n)		prng_below(&fz->rng, (n))
#define ONE_IN(n)	prng_one_in(&fz->rng, (n))
#define H(t)		fz_handle(fz, f, (t))
#define REQ(type)	type *r = (type *)m->req

/* 6.1 values the builders use (enum ib_qp_attr_mask, ib_qp_state, ...). */
#define QP_STATE	(1u << 0)
#define QP_CUR_STATE	(1u << 1)
#define QP_ACCESS	(1u << 3)
#define QP_PKEY		(1u << 4)
#define QP_PORT		(1u << 5)
#define QP_QKEY		(1u << 6)
#define QP_AV		(1u << 7)
#define QP_PATH_MTU	(1u << 8)
#define QP_TIMEOUT	(1u << 9)
#define QP_RETRY	(1u << 10)
#define QP_RNR_RETRY	(1u << 11)
#define QP_RQ_PSN	(1u << 12)
#define QP_RD_ATOMIC	(1u << 13)
#define QP_MIN_RNR	(1u << 15)
#define QP_SQ_PSN	(1u << 16)
#define QP_DEST_RD_ATOMIC (1u << 17)
#define QP_DEST_QPN	(1u << 20)

uint32_t fz_random_word(struct fz *fz)
{
	static const uint32_t words[] = {
		0, 1, 2, 4, 8, 16, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000,
		0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
	};

	switch (RND(3)) {
	case 0:
		return words[RND(sizeof(words) / sizeof(words[0]))];
	case 1:
		return RND(64);
	default:
		return (uint32_t)prng_next(&fz->rng);
	}
}

/* A small count, now and then an absurd one. */
static uint32_t fz_size(struct fz *fz, uint32_t usual)
{
	return ONE_IN(8) ? fz_random_word(fz) : 1 + RND(usual);
}

static void b_nothing(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
}

/* Destroys: the handle where the table says. */
static void b_destroy(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	uint32_t h = H(m->cmd->destroys);

	memcpy(m->req + m->cmd->req_handle_off, &h, sizeof(h));
}

/* Commands no 6.1 kernel serves: a random body of random length. */
static void b_random(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	size_t i;

	m->req_len = 8 * RND(8);
	for (i = 0; i < m->req_len; i += 4) {
		uint32_t w = fz_random_word(fz);

		memcpy(m->req + i, &w, 4);
	}
}

static void b_query_port(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_query_port);

	r->port_num = ONE_IN(4) ? RND(256) : 1;
}

static void ah_attr(struct fz *fz, struct ib_uverbs_ah_attr *a)
{
	a->is_global = !ONE_IN(8);
	a->port_num = ONE_IN(8) ? RND(4) : 1;
	a->grh.sgid_index = ONE_IN(8) ? RND(256) : 0;
	a->grh.hop_limit = 64;
	a->grh.flow_label = ONE_IN(8) ? fz_random_word(fz) : 0;
	a->sl = ONE_IN(8) ? RND(256) : 0;
	a->static_rate = ONE_IN(8) ? RND(256) : 0;
	a->dlid = ONE_IN(8) ? RND(0x10000) : 0;
	memcpy(a->grh.dgid, fz->gid, 16);
	/* An unknown unicast GID costs a resolution timeout (ETIMEDOUT). */
	if (ONE_IN(100))
		a->grh.dgid[RND(16)] ^= 1 << RND(8);
	if (ONE_IN(10))
		a->grh.dgid[0] = 0xff;	/* multicast */
}

static void b_create_ah(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_create_ah);

	r->user_handle = prng_next(&fz->rng);
	r->pd_handle = H(FZ_PD);
	ah_attr(fz, &r->attr);
}

static uint32_t mr_access(struct fz *fz)
{
	/* LOCAL_WRITE, REMOTE_WRITE/READ/ATOMIC, MW_BIND, ZERO_BASED, ... */
	if (ONE_IN(8))
		return fz_random_word(fz);
	return ONE_IN(2) ? 1 | (RND(32) << 1) : RND(64);
}

static void b_reg_mr(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_reg_mr);
	uint64_t len;

	r->start = arena_mr_addr(fz, &len);
	r->length = len;
	r->hca_va = ONE_IN(4) ? prng_next(&fz->rng) & ~0xfffull : r->start;
	if (ONE_IN(4))
		r->hca_va += r->start & 0xfff;
	r->pd_handle = H(FZ_PD);
	r->access_flags = mr_access(fz);
}

static void b_rereg_mr(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_rereg_mr);
	uint64_t len;

	r->mr_handle = H(FZ_MR);
	r->flags = ONE_IN(4) ? fz_random_word(fz) : 1 + RND(7);
	r->start = arena_mr_addr(fz, &len);
	r->length = len;
	r->hca_va = r->start;
	r->pd_handle = H(FZ_PD);
	r->access_flags = mr_access(fz);
}

static void b_alloc_mw(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_alloc_mw);

	r->pd_handle = H(FZ_PD);
	r->mw_type = ONE_IN(6) ? fz_random_word(fz) : 1 + RND(2);
}

static void b_create_cq(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_create_cq);

	r->user_handle = prng_next(&fz->rng);
	r->cqe = fz_size(fz, 256);
	r->comp_vector = ONE_IN(8) ? fz_random_word(fz) : 0;
	r->comp_channel = fz_channel_fd(fz, f);
}

static void b_resize_cq(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_resize_cq);

	r->cq_handle = H(FZ_CQ);
	r->cqe = fz_size(fz, 512);
}

static void b_poll_cq(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_poll_cq);

	r->cq_handle = H(FZ_CQ);
	r->ne = ONE_IN(8) ? fz_random_word(fz) : RND(16);
	m->resp_len = sizeof(struct ib_uverbs_poll_cq_resp) +
		      RND(17) * sizeof(struct ib_uverbs_wc);
}

static void b_req_notify(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_req_notify_cq);

	r->cq_handle = H(FZ_CQ);
	r->solicited_only = ONE_IN(4) ? fz_random_word(fz) : RND(2);
}

/* RC, UC, UD, RAW_PACKET, XRC_INI, XRC_TGT, DRIVER, and anything. */
static uint8_t qp_type(struct fz *fz)
{
	static const uint8_t types[] = { 2, 2, 2, 3, 4, 4, 8, 9, 10, 0xff };

	return ONE_IN(10) ? RND(256) : types[RND(sizeof(types))];
}

static void qp_caps(struct fz *fz, struct fz_file *f,
		    struct ib_uverbs_create_qp *r)
{
	r->user_handle = prng_next(&fz->rng);
	r->pd_handle = H(FZ_PD);
	r->send_cq_handle = H(FZ_CQ);
	r->recv_cq_handle = ONE_IN(2) ? r->send_cq_handle : H(FZ_CQ);
	r->is_srq = ONE_IN(5);
	r->srq_handle = r->is_srq || ONE_IN(8) ? H(FZ_SRQ) : 0;
	r->max_send_wr = fz_size(fz, 32);
	r->max_recv_wr = fz_size(fz, 32);
	r->max_send_sge = fz_size(fz, 4);
	r->max_recv_sge = fz_size(fz, 4);
	r->max_inline_data = ONE_IN(4) ? fz_size(fz, 256) : 0;
	r->sq_sig_all = ONE_IN(8) ? RND(256) : RND(2);
	r->qp_type = qp_type(fz);
}

static void b_create_qp(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	qp_caps(fz, f, (struct ib_uverbs_create_qp *)m->req);
}

static void b_ex_create_qp(struct fz *fz, struct fz_file *f,
			   struct fz_msg *m)
{
	struct ib_uverbs_create_qp base = {};
	REQ(struct ib_uverbs_ex_create_qp);

	qp_caps(fz, f, &base);
	/* The ex request is the legacy one without the response word. */
	memcpy(r, (char *)&base + 8, offsetof(struct ib_uverbs_ex_create_qp,
					     comp_mask));
	r->comp_mask = ONE_IN(6) ? fz_random_word(fz) : 0;
	r->create_flags = ONE_IN(4) ? 1u << RND(16) : 0;
	r->rwq_ind_tbl_handle = r->comp_mask ? H(FZ_IND_TBL) : 0;
	r->source_qpn = ONE_IN(8) ? fz_random_word(fz) : 0;
}

static void b_query_qp(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_query_qp);

	r->qp_handle = H(FZ_QP);
	r->attr_mask = ONE_IN(2) ? fz_random_word(fz) : (1u << 21) - 1;
}

static void qp_dest(struct fz *fz, struct ib_uverbs_qp_dest *d)
{
	memcpy(d->dgid, fz->gid, 16);
	d->hop_limit = 64;
	d->is_global = !ONE_IN(8);
	d->port_num = ONE_IN(8) ? RND(4) : 1;
	d->sgid_index = ONE_IN(8) ? RND(256) : 0;
	d->static_rate = ONE_IN(8) ? RND(256) : 0;
}

/* A step of the QP state machine, or any mask with any values. */
static void modify_qp(struct fz *fz, struct fz_file *f,
		      struct ib_uverbs_modify_qp *r)
{
	static const struct {
		uint8_t state;
		uint32_t mask;
	} steps[] = {
		{ 1, QP_STATE | QP_PKEY | QP_PORT | QP_ACCESS },	/* INIT */
		{ 1, QP_STATE | QP_PKEY | QP_PORT | QP_QKEY },
		{ 2, QP_STATE | QP_AV | QP_PATH_MTU | QP_DEST_QPN |	/* RTR */
		     QP_RQ_PSN | QP_DEST_RD_ATOMIC | QP_MIN_RNR },
		{ 2, QP_STATE },
		{ 3, QP_STATE | QP_TIMEOUT | QP_RETRY | QP_RNR_RETRY |	/* RTS */
		     QP_SQ_PSN | QP_RD_ATOMIC },
		{ 3, QP_STATE | QP_SQ_PSN },
		{ 4, QP_STATE },					/* SQD */
		{ 6, QP_STATE },					/* ERR */
		{ 0, QP_STATE },					/* RESET */
	};
	unsigned int s = RND(sizeof(steps) / sizeof(steps[0]));

	r->qp_handle = H(FZ_QP);
	r->qp_state = steps[s].state;
	r->attr_mask = steps[s].mask;
	r->port_num = 1;
	r->qkey = 0x11111111;
	r->qp_access_flags = RND(16);
	r->path_mtu = 1 + RND(5);
	r->dest_qp_num = ONE_IN(2) ? 17 + RND(64) : fz_random_word(fz);
	r->rq_psn = fz_random_word(fz);
	r->sq_psn = fz_random_word(fz);
	r->max_dest_rd_atomic = RND(17);
	r->max_rd_atomic = RND(17);
	r->min_rnr_timer = RND(32);
	r->timeout = RND(32);
	r->retry_cnt = RND(8);
	r->rnr_retry = RND(8);
	qp_dest(fz, &r->dest);
	if (ONE_IN(4)) {
		r->attr_mask = fz_random_word(fz);
		r->qp_state = RND(10);
		r->cur_qp_state = RND(10);
		r->path_mig_state = RND(4);
		r->alt_port_num = RND(4);
		r->alt_pkey_index = RND(4);
		r->pkey_index = ONE_IN(2) ? 0 : fz_random_word(fz);
		r->en_sqd_async_notify = RND(2);
		qp_dest(fz, &r->alt_dest);
	}
}

static void b_modify_qp(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	modify_qp(fz, f, (struct ib_uverbs_modify_qp *)m->req);
}

static void b_ex_modify_qp(struct fz *fz, struct fz_file *f,
			   struct fz_msg *m)
{
	REQ(struct ib_uverbs_ex_modify_qp);

	modify_qp(fz, f, &r->base);
	if (ONE_IN(6)) {
		r->base.attr_mask |= 1u << 25;	/* IB_QP_RATE_LIMIT */
		r->rate_limit = fz_random_word(fz);
	}
}

static void sges(struct fz *fz, struct ib_uverbs_sge *s, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		s[i].addr = (uintptr_t)fz->arena.mr + RND(4096);
		s[i].length = ONE_IN(8) ? fz_random_word(fz) : RND(4096);
		s[i].lkey = fz_random_word(fz);
	}
}

/* The WRs and SGEs of a POST_SEND/POST_RECV/POST_SRQ_RECV, laid out. */
static size_t post_body(struct fz *fz, struct fz_file *f, char *body,
			size_t room, uint32_t *wr_count, uint32_t *sge_count,
			uint32_t *wqe_size, size_t wr_size, int send)
{
	uint32_t n = RND(5), i, total = 0, nsge;
	size_t len;

	*wqe_size = wr_size;
	if (ONE_IN(10))
		*wqe_size = ONE_IN(2) ? 8 * RND(12) : fz_random_word(fz);
	for (i = 0; i < n && (i + 1) * (size_t)wr_size <= room; i++) {
		char *wr = body + i * (size_t)wr_size;

		nsge = ONE_IN(10) ? fz_random_word(fz) : RND(3);
		if (send) {
			struct ib_uverbs_send_wr *w = (void *)wr;

			w->wr_id = i;
			w->num_sge = nsge;
			w->opcode = ONE_IN(8) ? fz_random_word(fz) : RND(13);
			w->send_flags = RND(32);
			w->ex.imm_data = fz_random_word(fz);
			w->wr.ud.ah = H(FZ_AH);
			w->wr.ud.remote_qpn = RND(64);
			w->wr.ud.remote_qkey = 0x11111111;
			if (ONE_IN(2)) {
				w->wr.rdma.remote_addr = prng_next(&fz->rng);
				w->wr.rdma.rkey = fz_random_word(fz);
			}
		} else {
			struct ib_uverbs_recv_wr *w = (void *)wr;

			w->wr_id = i;
			w->num_sge = nsge;
		}
		total += nsge < 8 ? nsge : 0;
	}
	*wr_count = ONE_IN(12) ? fz_random_word(fz) : n;
	*sge_count = ONE_IN(12) ? fz_random_word(fz) : total;
	len = (size_t)n * wr_size;
	if (len + total * sizeof(struct ib_uverbs_sge) <= room) {
		sges(fz, (struct ib_uverbs_sge *)(body + len), total);
		len += total * sizeof(struct ib_uverbs_sge);
	}
	return len;
}

static void b_post_send(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_post_send);

	r->qp_handle = H(FZ_QP);
	m->req_len += post_body(fz, f, (char *)(r + 1),
				FZ_REQ_MAX - sizeof(*r), &r->wr_count,
				&r->sge_count, &r->wqe_size,
				sizeof(struct ib_uverbs_send_wr), 1);
}

static void b_post_recv(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_post_recv);

	r->qp_handle = H(FZ_QP);
	m->req_len += post_body(fz, f, (char *)(r + 1),
				FZ_REQ_MAX - sizeof(*r), &r->wr_count,
				&r->sge_count, &r->wqe_size,
				sizeof(struct ib_uverbs_recv_wr), 0);
}

static void b_post_srq_recv(struct fz *fz, struct fz_file *f,
			    struct fz_msg *m)
{
	REQ(struct ib_uverbs_post_srq_recv);

	r->srq_handle = H(FZ_SRQ);
	m->req_len += post_body(fz, f, (char *)(r + 1),
				FZ_REQ_MAX - sizeof(*r), &r->wr_count,
				&r->sge_count, &r->wqe_size,
				sizeof(struct ib_uverbs_recv_wr), 0);
}

static void b_mcast(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_attach_mcast);

	r->gid[0] = ONE_IN(6) ? RND(256) : 0xff;
	r->gid[1] = 0x0e;
	r->gid[15] = RND(4);
	r->qp_handle = H(FZ_QP);
	r->mlid = ONE_IN(4) ? RND(0x10000) : 0;
}

static void b_create_srq(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_create_srq);

	r->user_handle = prng_next(&fz->rng);
	r->pd_handle = H(FZ_PD);
	r->max_wr = fz_size(fz, 64);
	r->max_sge = fz_size(fz, 4);
	r->srq_limit = ONE_IN(4) ? fz_size(fz, 64) : 0;
}

static void b_modify_srq(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_modify_srq);
	uint64_t mi = (uintptr_t)fz->arena.resp + FZ_RESP_MAX;

	r->srq_handle = H(FZ_SRQ);
	r->attr_mask = ONE_IN(6) ? fz_random_word(fz) : 1 + RND(3);
	r->max_wr = fz_size(fz, 128);
	r->srq_limit = fz_size(fz, 64);
	/* rxe's driver request: where to write the new queue's mmap info. */
	if (!ONE_IN(4)) {
		if (ONE_IN(6))
			mi = arena_bad_ptr(fz);
		memcpy(r->driver_data, &mi, sizeof(mi));
		m->drv_in_len = sizeof(mi);
	}
}

static void b_query_srq(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_query_srq);

	r->srq_handle = H(FZ_SRQ);
}

static void b_open_xrcd(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_open_xrcd);

	r->fd = ONE_IN(2) ? -1 : RND(16);
	r->oflags = ONE_IN(4) ? fz_random_word(fz) : 0x40 * RND(2); /* O_CREAT */
}

static void b_create_xsrq(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_create_xsrq);

	r->user_handle = prng_next(&fz->rng);
	r->srq_type = ONE_IN(6) ? fz_random_word(fz) : RND(3);
	r->pd_handle = H(FZ_PD);
	r->max_wr = fz_size(fz, 64);
	r->max_sge = fz_size(fz, 4);
	r->srq_limit = 0;
	r->max_num_tags = ONE_IN(4) ? fz_size(fz, 64) : 0;
	r->xrcd_handle = H(FZ_XRCD);
	r->cq_handle = H(FZ_CQ);
}

static void b_open_qp(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_open_qp);

	r->user_handle = prng_next(&fz->rng);
	r->pd_handle = H(FZ_XRCD);
	r->qpn = RND(128);
	r->qp_type = qp_type(fz);
}

static void b_ex_query_device(struct fz *fz, struct fz_file *f,
			      struct fz_msg *m)
{
	REQ(struct ib_uverbs_ex_query_device);

	r->comp_mask = ONE_IN(6) ? fz_random_word(fz) : 0;
	r->reserved = ONE_IN(6) ? fz_random_word(fz) : 0;
	m->resp_len = ONE_IN(3) ? 8 * RND(60) : m->resp_len;
}

static void b_ex_create_cq(struct fz *fz, struct fz_file *f,
			   struct fz_msg *m)
{
	REQ(struct ib_uverbs_ex_create_cq);

	r->user_handle = prng_next(&fz->rng);
	r->cqe = fz_size(fz, 256);
	r->comp_vector = ONE_IN(8) ? fz_random_word(fz) : 0;
	r->comp_channel = fz_channel_fd(fz, f);
	r->comp_mask = ONE_IN(8) ? fz_random_word(fz) : 0;
	r->flags = ONE_IN(4) ? RND(8) : 0;
}

static void b_ex_modify_cq(struct fz *fz, struct fz_file *f,
			   struct fz_msg *m)
{
	REQ(struct ib_uverbs_ex_modify_cq);

	r->cq_handle = H(FZ_CQ);
	r->attr_mask = ONE_IN(4) ? fz_random_word(fz) : 1;
	r->attr.cq_count = RND(0x10000);
	r->attr.cq_period = RND(0x10000);
}

static void b_create_flow(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	static const uint32_t types[] = { 0x20, 0x30, 0x31, 0x40, 0x41,
					  0x50, 0x60, 0x1000, 0x1001, 0x1003 };
	REQ(struct ib_uverbs_create_flow);
	struct ib_uverbs_flow_spec_hdr *s = r->flow_attr.flow_specs;
	uint32_t i, n = RND(3);

	r->qp_handle = H(FZ_QP);
	r->flow_attr.type = RND(4);
	r->flow_attr.priority = RND(8);
	r->flow_attr.port = 1;
	r->flow_attr.num_of_specs = ONE_IN(8) ? RND(256) : n;
	r->flow_attr.size = sizeof(r->flow_attr) + n * 48;
	for (i = 0; i < n; i++) {
		s = (void *)((char *)r->flow_attr.flow_specs + i * 48);
		s->type = types[RND(sizeof(types) / sizeof(types[0]))];
		s->size = ONE_IN(6) ? RND(0x10000) : 48;
	}
	m->req_len += n * 48;
}

static void b_ex_create_wq(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_ex_create_wq);

	r->wq_type = ONE_IN(6) ? fz_random_word(fz) : 0;
	r->user_handle = prng_next(&fz->rng);
	r->pd_handle = H(FZ_PD);
	r->cq_handle = H(FZ_CQ);
	r->max_wr = fz_size(fz, 64);
	r->max_sge = fz_size(fz, 4);
	r->create_flags = ONE_IN(4) ? RND(16) : 0;
}

static void b_ex_modify_wq(struct fz *fz, struct fz_file *f, struct fz_msg *m)
{
	REQ(struct ib_uverbs_ex_modify_wq);

	r->attr_mask = RND(8);
	r->wq_handle = H(FZ_WQ);
	r->wq_state = RND(4);
	r->curr_wq_state = RND(4);
	r->flags = RND(16);
	r->flags_mask = RND(16);
}

static void b_ex_create_ind_tbl(struct fz *fz, struct fz_file *f,
				struct fz_msg *m)
{
	REQ(struct ib_uverbs_ex_create_rwq_ind_table);
	uint32_t i, log = ONE_IN(8) ? fz_random_word(fz) : RND(4);
	uint32_t n = log < 5 ? 1u << log : 1;

	r->log_ind_tbl_size = log;
	for (i = 0; i < n; i++)
		r->wq_handles[i] = H(FZ_WQ);
	/* Whole 8-byte words: one spare handle slot when n is odd. */
	m->req_len = (sizeof(*r) + n * 4 + 7) & ~7ul;
}

#define CMD(c, b, w)	.name = #c, .cmd = IB_USER_VERBS_CMD_##c,	\
			.build = (b), .weight = (w),			\
			.creates = FZ_NOBJ, .destroys = FZ_NOBJ
#define EX(c, b, w)	.name = "EX_" #c, .cmd = IB_USER_VERBS_EX_CMD_##c, \
			.ex = 1, .build = (b), .weight = (w),		\
			.creates = FZ_NOBJ, .destroys = FZ_NOBJ
#define SIZES(req, resp) .req_size = sizeof(struct req),		\
			.resp_size = sizeof(struct resp)
#define CREATES(t, resp, field) .creates = (t),			\
			.resp_handle_off = offsetof(struct resp, field)
#define DESTROYS(t, req, field) .destroys = (t),			\
			.req_handle_off = offsetof(struct req, field)
#define DRV	.drv_out = 64

const struct fz_cmd fz_cmds[] = {
	{ CMD(GET_CONTEXT, b_nothing, 1),
	  SIZES(ib_uverbs_get_context, ib_uverbs_get_context_resp), DRV },
	{ CMD(QUERY_DEVICE, b_nothing, 2),
	  SIZES(ib_uverbs_query_device, ib_uverbs_query_device_resp) },
	{ CMD(QUERY_PORT, b_query_port, 2),
	  SIZES(ib_uverbs_query_port, ib_uverbs_query_port_resp) },
	{ CMD(ALLOC_PD, b_nothing, 30),
	  SIZES(ib_uverbs_alloc_pd, ib_uverbs_alloc_pd_resp), DRV,
	  CREATES(FZ_PD, ib_uverbs_alloc_pd_resp, pd_handle) },
	{ CMD(DEALLOC_PD, b_destroy, 10), .req_size = 4,
	  DESTROYS(FZ_PD, ib_uverbs_dealloc_pd, pd_handle) },
	{ CMD(CREATE_AH, b_create_ah, 20),
	  SIZES(ib_uverbs_create_ah, ib_uverbs_create_ah_resp), DRV,
	  CREATES(FZ_AH, ib_uverbs_create_ah_resp, ah_handle) },
	{ CMD(MODIFY_AH, b_random, 1) },
	{ CMD(QUERY_AH, b_random, 1) },
	{ CMD(DESTROY_AH, b_destroy, 10), .req_size = 4,
	  DESTROYS(FZ_AH, ib_uverbs_destroy_ah, ah_handle) },
	{ CMD(REG_MR, b_reg_mr, 30),
	  SIZES(ib_uverbs_reg_mr, ib_uverbs_reg_mr_resp), DRV,
	  CREATES(FZ_MR, ib_uverbs_reg_mr_resp, mr_handle) },
	{ CMD(REG_SMR, b_random, 1) },
	{ CMD(REREG_MR, b_rereg_mr, 10),
	  SIZES(ib_uverbs_rereg_mr, ib_uverbs_rereg_mr_resp), DRV },
	{ CMD(QUERY_MR, b_random, 1) },
	{ CMD(DEREG_MR, b_destroy, 15), .req_size = 4,
	  DESTROYS(FZ_MR, ib_uverbs_dereg_mr, mr_handle) },
	{ CMD(ALLOC_MW, b_alloc_mw, 15),
	  SIZES(ib_uverbs_alloc_mw, ib_uverbs_alloc_mw_resp), DRV,
	  CREATES(FZ_MW, ib_uverbs_alloc_mw_resp, mw_handle) },
	{ CMD(BIND_MW, b_random, 1) },
	{ CMD(DEALLOC_MW, b_destroy, 10), .req_size = 4,
	  DESTROYS(FZ_MW, ib_uverbs_dealloc_mw, mw_handle) },
	{ CMD(CREATE_COMP_CHANNEL, b_nothing, 4),
	  SIZES(ib_uverbs_create_comp_channel,
		ib_uverbs_create_comp_channel_resp),
	  CREATES(FZ_CHANNEL, ib_uverbs_create_comp_channel_resp, fd) },
	{ CMD(CREATE_CQ, b_create_cq, 30),
	  SIZES(ib_uverbs_create_cq, ib_uverbs_create_cq_resp), DRV,
	  CREATES(FZ_CQ, ib_uverbs_create_cq_resp, cq_handle) },
	{ CMD(RESIZE_CQ, b_resize_cq, 10),
	  SIZES(ib_uverbs_resize_cq, ib_uverbs_resize_cq_resp), DRV },
	{ CMD(DESTROY_CQ, b_destroy, 10),
	  SIZES(ib_uverbs_destroy_cq, ib_uverbs_destroy_cq_resp),
	  DESTROYS(FZ_CQ, ib_uverbs_destroy_cq, cq_handle) },
	{ CMD(POLL_CQ, b_poll_cq, 5),
	  SIZES(ib_uverbs_poll_cq, ib_uverbs_poll_cq_resp) },
	{ CMD(PEEK_CQ, b_random, 1) },
	{ CMD(REQ_NOTIFY_CQ, b_req_notify, 5), .req_size = 8 },
	{ CMD(CREATE_QP, b_create_qp, 40),
	  SIZES(ib_uverbs_create_qp, ib_uverbs_create_qp_resp), DRV,
	  CREATES(FZ_QP, ib_uverbs_create_qp_resp, qp_handle) },
	{ CMD(QUERY_QP, b_query_qp, 10),
	  SIZES(ib_uverbs_query_qp, ib_uverbs_query_qp_resp) },
	{ CMD(MODIFY_QP, b_modify_qp, 40),
	  .req_size = sizeof(struct ib_uverbs_modify_qp) },
	{ CMD(DESTROY_QP, b_destroy, 12),
	  SIZES(ib_uverbs_destroy_qp, ib_uverbs_destroy_qp_resp),
	  DESTROYS(FZ_QP, ib_uverbs_destroy_qp, qp_handle) },
	{ CMD(POST_SEND, b_post_send, 25),
	  SIZES(ib_uverbs_post_send, ib_uverbs_post_send_resp) },
	{ CMD(POST_RECV, b_post_recv, 10),
	  SIZES(ib_uverbs_post_recv, ib_uverbs_post_recv_resp) },
	{ CMD(ATTACH_MCAST, b_mcast, 8),
	  .req_size = sizeof(struct ib_uverbs_attach_mcast) },
	{ CMD(DETACH_MCAST, b_mcast, 6),
	  .req_size = sizeof(struct ib_uverbs_detach_mcast) },
	{ CMD(CREATE_SRQ, b_create_srq, 15),
	  SIZES(ib_uverbs_create_srq, ib_uverbs_create_srq_resp), DRV,
	  CREATES(FZ_SRQ, ib_uverbs_create_srq_resp, srq_handle) },
	{ CMD(MODIFY_SRQ, b_modify_srq, 8),
	  .req_size = sizeof(struct ib_uverbs_modify_srq) },
	{ CMD(QUERY_SRQ, b_query_srq, 5),
	  SIZES(ib_uverbs_query_srq, ib_uverbs_query_srq_resp) },
	{ CMD(DESTROY_SRQ, b_destroy, 8),
	  SIZES(ib_uverbs_destroy_srq, ib_uverbs_destroy_srq_resp),
	  DESTROYS(FZ_SRQ, ib_uverbs_destroy_srq, srq_handle) },
	{ CMD(POST_SRQ_RECV, b_post_srq_recv, 8),
	  SIZES(ib_uverbs_post_srq_recv, ib_uverbs_post_srq_recv_resp) },
	{ CMD(OPEN_XRCD, b_open_xrcd, 3),
	  SIZES(ib_uverbs_open_xrcd, ib_uverbs_open_xrcd_resp), DRV,
	  CREATES(FZ_XRCD, ib_uverbs_open_xrcd_resp, xrcd_handle) },
	{ CMD(CLOSE_XRCD, b_destroy, 2), .req_size = 4,
	  DESTROYS(FZ_XRCD, ib_uverbs_close_xrcd, xrcd_handle) },
	{ CMD(CREATE_XSRQ, b_create_xsrq, 6),
	  SIZES(ib_uverbs_create_xsrq, ib_uverbs_create_srq_resp), DRV,
	  CREATES(FZ_SRQ, ib_uverbs_create_srq_resp, srq_handle) },
	{ CMD(OPEN_QP, b_open_qp, 3),
	  SIZES(ib_uverbs_open_qp, ib_uverbs_create_qp_resp), DRV,
	  CREATES(FZ_QP, ib_uverbs_create_qp_resp, qp_handle) },
	{ EX(QUERY_DEVICE, b_ex_query_device, 3),
	  SIZES(ib_uverbs_ex_query_device, ib_uverbs_ex_query_device_resp) },
	{ EX(CREATE_CQ, b_ex_create_cq, 15),
	  SIZES(ib_uverbs_ex_create_cq, ib_uverbs_ex_create_cq_resp), DRV,
	  CREATES(FZ_CQ, ib_uverbs_ex_create_cq_resp, base.cq_handle) },
	{ EX(CREATE_QP, b_ex_create_qp, 20),
	  SIZES(ib_uverbs_ex_create_qp, ib_uverbs_ex_create_qp_resp), DRV,
	  CREATES(FZ_QP, ib_uverbs_ex_create_qp_resp, base.qp_handle) },
	{ EX(MODIFY_QP, b_ex_modify_qp, 20),
	  SIZES(ib_uverbs_ex_modify_qp, ib_uverbs_ex_modify_qp_resp) },
	{ EX(CREATE_FLOW, b_create_flow, 3),
	  SIZES(ib_uverbs_create_flow, ib_uverbs_create_flow_resp), DRV,
	  CREATES(FZ_FLOW, ib_uverbs_create_flow_resp, flow_handle) },
	{ EX(DESTROY_FLOW, b_destroy, 2),
	  .req_size = sizeof(struct ib_uverbs_destroy_flow),
	  DESTROYS(FZ_FLOW, ib_uverbs_destroy_flow, flow_handle) },
	{ EX(CREATE_WQ, b_ex_create_wq, 3),
	  SIZES(ib_uverbs_ex_create_wq, ib_uverbs_ex_create_wq_resp), DRV,
	  CREATES(FZ_WQ, ib_uverbs_ex_create_wq_resp, wq_handle) },
	{ EX(MODIFY_WQ, b_ex_modify_wq, 2),
	  .req_size = sizeof(struct ib_uverbs_ex_modify_wq) },
	{ EX(DESTROY_WQ, b_destroy, 2),
	  SIZES(ib_uverbs_ex_destroy_wq, ib_uverbs_ex_destroy_wq_resp),
	  DESTROYS(FZ_WQ, ib_uverbs_ex_destroy_wq, wq_handle) },
	{ EX(CREATE_RWQ_IND_TBL, b_ex_create_ind_tbl, 2),
	  SIZES(ib_uverbs_ex_create_rwq_ind_table,
		ib_uverbs_ex_create_rwq_ind_table_resp),
	  CREATES(FZ_IND_TBL, ib_uverbs_ex_create_rwq_ind_table_resp,
		  ind_tbl_handle) },
	{ EX(DESTROY_RWQ_IND_TBL, b_destroy, 2),
	  .req_size = sizeof(struct ib_uverbs_ex_destroy_rwq_ind_table),
	  DESTROYS(FZ_IND_TBL, ib_uverbs_ex_destroy_rwq_ind_table,
		   ind_tbl_handle) },
	{ EX(MODIFY_CQ, b_ex_modify_cq, 5),
	  .req_size = sizeof(struct ib_uverbs_ex_modify_cq) },
};

const size_t fz_ncmds = sizeof(fz_cmds) / sizeof(fz_cmds[0]);
