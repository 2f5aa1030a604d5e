// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ioctl half of the fuzzer: RDMA_VERBS_IOCTL calls built from a table
 * of the methods 6.1 serves (one line per attribute: its id and what goes
 * in it), then mutated the way the attribute-bundle parser can be hurt:
 * attributes dropped, repeated, renamed, resized, flagged, pointed at bad
 * memory, handles of the wrong type or stale, headers that lie about their
 * length, unknown objects and methods.  New handles and fds the kernel
 * hands back go into the same pools the write() commands use, so objects
 * made one way are used and destroyed the other way.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/rdma_user_rxe.h>

#include "fuzz.h"

#define RND(n)		prng_below(&fz->rng, (n))
#define ONE_IN(n)	prng_one_in(&fz->rng, (n))

/* What one attribute carries. */
enum io_kind {
	IO_NEW = 1,	/* IDR handle of a new object (obj) */
	IO_IDR,		/* IDR handle of an existing object (obj) */
	IO_FD_NEW,	/* a new fd (async event file) */
	IO_FD,		/* an existing fd: a completion channel or async file */
	IO_U32,		/* PTR_IN u32 in [lo, hi] */
	IO_U64,		/* PTR_IN u64 in [lo, hi] */
	IO_IN,		/* PTR_IN of lo..hi bytes of small random words */
	IO_OUT,		/* PTR_OUT with room for lo..hi bytes */
	IO_CONST,	/* CONST_IN / ENUM_IN: data in [lo, hi] */
	IO_FLAGS,	/* FLAGS_IN: a u32/u64 (lo bytes) of bits of hi */
};

struct io_attr {
	uint16_t id;
	uint8_t kind;
	uint8_t obj;		/* IO_NEW/IO_IDR: enum fz_obj */
	uint32_t lo, hi;
	uint8_t optional;	/* left out half the time */
};

struct io_method {
	const char *name;
	uint16_t object, method;
	struct io_attr attrs[14];
	int destroys;		/* attrs[0] is the handle destroyed */
};

#define A(id, kind, obj, lo, hi)	{ id, kind, obj, lo, hi, 0 }
#define OPT(id, kind, obj)	{ id, kind, obj, 0, 0, 1 }
#define NEW(id, obj)		A(id, IO_NEW, obj, 0, 0)
#define IDR(id, obj)		A(id, IO_IDR, obj, 0, 0)
#define U32(id, lo, hi)		A(id, IO_U32, 0, lo, hi)
#define U64(id, lo, hi)		A(id, IO_U64, 0, lo, hi)
#define IN(id, lo, hi)		A(id, IO_IN, 0, lo, hi)
#define OUT(id, lo, hi)		A(id, IO_OUT, 0, lo, hi)
#define CONST(id, lo, hi)	A(id, IO_CONST, 0, lo, hi)
#define FLAGS(id, bytes, bits)	A(id, IO_FLAGS, 0, bytes, bits)
/* rxe takes no driver input: an empty UHW_IN, or none (mutations vary it) */
#define UHW_IN			OPT(UVERBS_ATTR_UHW_IN, IO_IN, 0)
#define UHW			UHW_IN, OUT(UVERBS_ATTR_UHW_OUT, 0, 64)

static const struct io_method io_methods[] = {
	{ "GET_CONTEXT", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT, {
		OUT(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, 4, 4),
		OUT(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, 8, 8), UHW } },
	{ "QUERY_CONTEXT", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT, {
		OUT(UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, 4, 4),
		OUT(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT, 8, 8) } },
	{ "QUERY_PORT", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT, {
		CONST(UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1, 2),
		OUT(UVERBS_ATTR_QUERY_PORT_RESP, 48, 64) } },
	{ "INFO_HANDLES", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES, {
		CONST(UVERBS_ATTR_INFO_OBJECT_ID, 0, 20),
		OUT(UVERBS_ATTR_INFO_TOTAL_HANDLES, 4, 4),
		OUT(UVERBS_ATTR_INFO_HANDLES_LIST, 0, 256) } },
	{ "QUERY_GID_TABLE", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE, {
		CONST(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 32, 34),
		FLAGS(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 4, 0),
		OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, 256, 1024),
		OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8, 8) } },
	{ "QUERY_GID_ENTRY", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, {
		CONST(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 0, 2),
		CONST(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 0, 4),
		FLAGS(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 4, 0),
		OUT(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, 32, 40) } },
	{ "ASYNC_EVENT_ALLOC", UVERBS_OBJECT_ASYNC_EVENT,
	  UVERBS_METHOD_ASYNC_EVENT_ALLOC, {
		A(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, IO_FD_NEW, 0, 0, 0) } },
	{ "PD_DESTROY", UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, {
		IDR(UVERBS_ATTR_DESTROY_PD_HANDLE, FZ_PD) }, 1 },
	{ "QUERY_MR", UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, {
		IDR(UVERBS_ATTR_QUERY_MR_HANDLE, FZ_MR),
		OUT(UVERBS_ATTR_QUERY_MR_RESP_LKEY, 4, 4),
		OUT(UVERBS_ATTR_QUERY_MR_RESP_RKEY, 4, 4),
		OUT(UVERBS_ATTR_QUERY_MR_RESP_LENGTH, 8, 8),
		OUT(UVERBS_ATTR_QUERY_MR_RESP_IOVA, 8, 8) } },
	{ "ADVISE_MR", UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR, {
		IDR(UVERBS_ATTR_ADVISE_MR_PD_HANDLE, FZ_PD),
		CONST(UVERBS_ATTR_ADVISE_MR_ADVICE, 0, 3),
		FLAGS(UVERBS_ATTR_ADVISE_MR_FLAGS, 4, 1),
		IN(UVERBS_ATTR_ADVISE_MR_SGE_LIST, 16, 64) } },
	{ "REG_DMABUF_MR", UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR, {
		NEW(UVERBS_ATTR_REG_DMABUF_MR_HANDLE, FZ_MR),
		IDR(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, FZ_PD),
		U64(UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 0, 8192),
		U64(UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 0, 8192),
		U64(UVERBS_ATTR_REG_DMABUF_MR_IOVA, 0, 8192),
		U32(UVERBS_ATTR_REG_DMABUF_MR_FD, 0, 16),
		FLAGS(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 4, 0x10f),
		OUT(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, 4, 4),
		OUT(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, 4, 4) } },
	{ "MR_DESTROY", UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, {
		IDR(UVERBS_ATTR_DESTROY_MR_HANDLE, FZ_MR) }, 1 },
	{ "CQ_CREATE", UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, {
		NEW(UVERBS_ATTR_CREATE_CQ_HANDLE, FZ_CQ),
		U32(UVERBS_ATTR_CREATE_CQ_CQE, 1, 300),
		U64(UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 0, ~0u),
		OPT(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, IO_FD, FZ_CHANNEL),
		U32(UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0, 1),
		FLAGS(UVERBS_ATTR_CREATE_CQ_FLAGS, 4, 3),
		OUT(UVERBS_ATTR_CREATE_CQ_RESP_CQE, 4, 4),
		OPT(UVERBS_ATTR_CREATE_CQ_EVENT_FD, IO_FD, FZ_NOBJ),
		UHW_IN,
		OUT(UVERBS_ATTR_UHW_OUT, sizeof(struct rxe_create_cq_resp), 64) } },
	{ "CQ_DESTROY", UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY, {
		IDR(UVERBS_ATTR_DESTROY_CQ_HANDLE, FZ_CQ),
		OUT(UVERBS_ATTR_DESTROY_CQ_RESP, 8, 8) }, 1 },
	{ "QP_CREATE", UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, {
		NEW(UVERBS_ATTR_CREATE_QP_HANDLE, FZ_QP),
		IDR(UVERBS_ATTR_CREATE_QP_PD_HANDLE, FZ_PD),
		IDR(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, FZ_CQ),
		IDR(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, FZ_CQ),
		OPT(UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, IO_IDR, FZ_SRQ),
		U64(UVERBS_ATTR_CREATE_QP_USER_HANDLE, 0, ~0u),
		IN(UVERBS_ATTR_CREATE_QP_CAP, 20, 20),
		CONST(UVERBS_ATTR_CREATE_QP_TYPE, 2, 4),
		FLAGS(UVERBS_ATTR_CREATE_QP_FLAGS, 4, 0x3f),
		OPT(UVERBS_ATTR_CREATE_QP_EVENT_FD, IO_FD, FZ_NOBJ),
		OUT(UVERBS_ATTR_CREATE_QP_RESP_CAP, 20, 20),
		OUT(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4, 4),
		UHW_IN,
		OUT(UVERBS_ATTR_UHW_OUT, sizeof(struct rxe_create_qp_resp), 64) } },
	{ "QP_DESTROY", UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY, {
		IDR(UVERBS_ATTR_DESTROY_QP_HANDLE, FZ_QP),
		OUT(UVERBS_ATTR_DESTROY_QP_RESP, 4, 4) }, 1 },
	{ "SRQ_CREATE", UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, {
		NEW(UVERBS_ATTR_CREATE_SRQ_HANDLE, FZ_SRQ),
		IDR(UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, FZ_PD),
		U64(UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, 0, ~0u),
		U32(UVERBS_ATTR_CREATE_SRQ_MAX_WR, 1, 300),
		U32(UVERBS_ATTR_CREATE_SRQ_MAX_SGE, 1, 8),
		U32(UVERBS_ATTR_CREATE_SRQ_LIMIT, 0, 16),
		CONST(UVERBS_ATTR_CREATE_SRQ_TYPE, 0, 1),
		OPT(UVERBS_ATTR_CREATE_SRQ_EVENT_FD, IO_FD, FZ_NOBJ),
		OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, 4, 4),
		OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, 4, 4),
		OUT(UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, 4, 4),
		UHW_IN,
		OUT(UVERBS_ATTR_UHW_OUT, sizeof(struct rxe_create_srq_resp), 64) } },
	{ "SRQ_DESTROY", UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_DESTROY, {
		IDR(UVERBS_ATTR_DESTROY_SRQ_HANDLE, FZ_SRQ),
		OUT(UVERBS_ATTR_DESTROY_SRQ_RESP, 4, 4) }, 1 },
	{ "AH_DESTROY", UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY, {
		IDR(UVERBS_ATTR_DESTROY_AH_HANDLE, FZ_AH) }, 1 },
	{ "MW_DESTROY", UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY, {
		IDR(UVERBS_ATTR_DESTROY_MW_HANDLE, FZ_MW) }, 1 },
	{ "XRCD_DESTROY", UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_DESTROY, {
		IDR(UVERBS_ATTR_DESTROY_XRCD_HANDLE, FZ_XRCD) }, 1 },
	{ "INVOKE_WRITE", UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, {
		CONST(UVERBS_ATTR_WRITE_CMD, 0, 55),
		IN(UVERBS_ATTR_CORE_IN, 0, 128),
		OUT(UVERBS_ATTR_CORE_OUT, 0, 128), UHW } },
};

#define NMETHODS	(sizeof(io_methods) / sizeof(io_methods[0]))
#define MAX_ATTRS	20

/* The header and attributes as sent, and where each came from. */
struct io_call {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[MAX_ATTRS];
	const struct io_attr *spec[MAX_ATTRS];	/* NULL: not from the table */
};

static uint64_t in_range(struct fz *fz, uint64_t lo, uint64_t hi)
{
	if (ONE_IN(16))
		return fz_random_word(fz);
	return lo + RND((uint32_t)(hi - lo + 1 ? hi - lo + 1 : 0));
}

/* An fd for an FD attribute: a channel, the async file, or junk. */
static int pick_fd(struct fz *fz, struct fz_file *f, const struct io_attr *s)
{
	uint32_t h;

	if (s->obj == FZ_CHANNEL && !ONE_IN(3) &&
	    !pool_pick(fz, f, FZ_CHANNEL, &h))
		return (int)h;
	if (s->obj == FZ_NOBJ && !ONE_IN(3) && f->async_fd >= 0)
		return f->async_fd;
	return fz_channel_fd(fz, f);
}

/* Fills @a per @s; inputs longer than 8 bytes go at *@in, outputs at *@out. */
static void fill(struct fz *fz, struct fz_file *f, const struct io_attr *s,
		 struct ib_uverbs_attr *a, char **in, char **out)
{
	uint64_t v;
	uint32_t w, len, i;

	memset(a, 0, sizeof(*a));
	a->attr_id = s->id;
	switch (s->kind) {
	case IO_NEW:
	case IO_FD_NEW:
		break;
	case IO_IDR:
		a->data = fz_handle(fz, f, s->obj);
		break;
	case IO_FD:
		a->data = (int64_t)pick_fd(fz, f, s);
		break;
	case IO_U32:
		w = in_range(fz, s->lo, s->hi);
		a->len = 4;
		memcpy(&a->data, &w, 4);
		break;
	case IO_U64:
		v = in_range(fz, s->lo, s->hi);
		a->len = 8;
		a->data = v;
		break;
	case IO_CONST:
		a->len = 8;
		a->data = in_range(fz, s->lo, s->hi);
		break;
	case IO_FLAGS:
		a->len = s->lo;
		/* mostly none, as callers send; sometimes any bits */
		if (ONE_IN(4))
			a->data = fz_random_word(fz) & (ONE_IN(4) ? ~0u : s->hi);
		break;
	case IO_IN:
		len = s->lo + RND(s->hi - s->lo + 1);
		a->len = len;
		if (len <= 8) {
			for (i = 0; i < len; i++)
				((char *)&a->data)[i] = RND(4);
			break;
		}
		for (i = 0; i < len; i += 4) {
			w = ONE_IN(10) ? fz_random_word(fz) : RND(16);
			memcpy(*in + i, &w, len - i < 4 ? len - i : 4);
		}
		a->data = (uintptr_t)*in;
		*in += (len + 7) & ~7u;
		break;
	case IO_OUT:
		len = s->lo + RND(s->hi - s->lo + 1);
		a->len = len;
		a->data = (uintptr_t)*out;
		*out += (len + 7) & ~7u;
		break;
	}
}

/* What is done to a well-formed call to break it (one or two of these). */
static void mutate(struct fz *fz, struct fz_file *f, struct io_call *c)
{
	unsigned int n = c->hdr.num_attrs, i = n ? RND(n) : 0;
	struct ib_uverbs_attr *a = &c->attrs[i];
	const struct io_method *m;

	switch (RND(13)) {
	case 0:		/* drop one */
		if (n) {
			c->attrs[i] = c->attrs[n - 1];
			c->spec[i] = c->spec[n - 1];
			c->hdr.num_attrs--;
		}
		break;
	case 1:		/* repeat one */
		if (n && n < MAX_ATTRS) {
			c->attrs[n] = *a;
			c->spec[n] = NULL;
			c->hdr.num_attrs++;
		}
		break;
	case 2:		/* rename one, maybe insisting it be understood */
		a->attr_id = ONE_IN(2) ? RND(24) : (uint16_t)fz_random_word(fz);
		if (ONE_IN(2))
			a->flags |= UVERBS_ATTR_F_MANDATORY;
		c->spec[i] = NULL;
		break;
	case 3:		/* resize one */
		a->len = ONE_IN(2) ? RND(72) : (uint16_t)fz_random_word(fz);
		break;
	case 4:		/* point it somewhere bad */
		a->data = arena_bad_ptr(fz);
		break;
	case 5:		/* flags, reserved bits */
		a->flags = fz_random_word(fz);
		if (ONE_IN(2))
			a->attr_data.reserved = 1 + RND(0xffff);
		break;
	case 6:		/* a handle of another type, stale, forged, or an fd */
		if (c->spec[i] && c->spec[i]->kind == IO_IDR)
			a->data = fz_handle(fz, f, RND(FZ_NOBJ));
		else
			a->data = fz_random_word(fz);
		break;
	case 7:		/* a header that lies about its size */
		c->hdr.length += ONE_IN(2) ? 16 * (RND(5) + 1) : RND(16);
		break;
	case 8:
		c->hdr.reserved1 = ONE_IN(2);
		c->hdr.reserved2 = !c->hdr.reserved1 ? 1 + RND(7) : 0;
		break;
	case 9:
		c->hdr.driver_id = RND(24);
		break;
	case 10:	/* another known method's ids with these attributes */
		m = &io_methods[RND(NMETHODS)];
		c->hdr.object_id = m->object;
		c->hdr.method_id = m->method;
		break;
	case 11:	/* an unknown object or method */
		if (ONE_IN(2))
			c->hdr.object_id = RND(40) | (ONE_IN(4) ? 0x1000 : 0);
		else
			c->hdr.method_id = RND(40) | (ONE_IN(4) ? 0x1000 : 0);
		break;
	default:	/* an extra attribute nobody declared */
		if (n < MAX_ATTRS) {
			c->attrs[n] = (struct ib_uverbs_attr){
				.attr_id = RND(0x1010),
				.len = RND(16),
				.data = fz_random_word(fz),
			};
			c->spec[n] = NULL;
			c->hdr.num_attrs++;
		}
		break;
	}
}

/*
 * rdma_rxe 6.1's error paths when it cannot write a create's driver
 * response (quirks.c): on a lockdep kernel an RC QP's, on a kmemleak kernel
 * a CQ's.  There the driver response room of those creates stays writable,
 * whatever the mutations did; everything else of the call is kept.
 */
static void steer_debug_kernel(struct fz *fz, struct io_call *c)
{
	uintptr_t lo = (uintptr_t)fz->arena.resp;
	unsigned int i;

	if (!((fz->lockdep && c->hdr.object_id == UVERBS_OBJECT_QP &&
	       c->hdr.method_id == UVERBS_METHOD_QP_CREATE) ||
	      (fz->kmemleak && c->hdr.object_id == UVERBS_OBJECT_CQ &&
	       c->hdr.method_id == UVERBS_METHOD_CQ_CREATE)))
		return;
	for (i = 0; i < c->hdr.num_attrs; i++) {
		struct ib_uverbs_attr *a = &c->attrs[i];

		if (a->attr_id != UVERBS_ATTR_UHW_OUT)
			continue;
		if (a->data < lo || a->data + a->len > lo + ARENA_RESP_SPAN) {
			a->data = lo;
			if (a->len > ARENA_RESP_SPAN)
				a->len = 64;
		}
	}
}

/* The table entry the header names, or NULL. */
static const struct io_method *find_method(const struct ib_uverbs_ioctl_hdr *h)
{
	size_t i;

	for (i = 0; i < NMETHODS; i++)
		if (io_methods[i].object == h->object_id &&
		    io_methods[i].method == h->method_id)
			return &io_methods[i];
	return NULL;
}

/* Keeps the pools true after a call that worked. */
static void account(struct fz_file *f, const struct io_call *c)
{
	const struct io_method *m = find_method(&c->hdr);
	unsigned int i;

	if (!m)
		return;
	if (m->object == UVERBS_OBJECT_DEVICE &&
	    m->method == UVERBS_METHOD_GET_CONTEXT)
		f->has_ctx = 1;
	for (i = 0; i < c->hdr.num_attrs; i++) {
		const struct io_attr *s = c->spec[i];

		/* only attributes that still mean what the table says */
		if (!s || s < m->attrs || s >= m->attrs + 14 ||
		    c->attrs[i].attr_id != s->id)
			continue;
		if (s->kind == IO_NEW)
			pool_add(&f->pool[s->obj], (uint32_t)c->attrs[i].data);
		else if (s->kind == IO_FD_NEW)	/* closed with the channels */
			pool_add(&f->pool[FZ_CHANNEL],
				 (uint32_t)c->attrs[i].data);
		else if (m->destroys && s == &m->attrs[0])
			pool_remove(&f->pool[s->obj],
				    (uint32_t)c->attrs[i].data);
	}
}

const char *fz_ioctl_method_name(unsigned int id)
{
	return id < NMETHODS ? io_methods[id].name : "?";
}

/*
 * What an ioctl that got an errno outside the classes sent (once): the
 * header and each attribute as the kernel saw them (a write command
 * tunnelled by INVOKE_WRITE is its WRITE_CMD attribute's value).
 */
static void dump_call(const struct io_call *c, const void *at, int ret)
{
	static int told;
	unsigned int i;

	if (__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
		return;
	printf("# errno %d for object %u method %u, %u attributes, length %u%s\n",
	       -ret, c->hdr.object_id, c->hdr.method_id, c->hdr.num_attrs,
	       c->hdr.length, at == c ? "" : " (from a bad pointer)");
	for (i = 0; i < c->hdr.num_attrs && i < MAX_ATTRS; i++)
		printf("#   attr %u len %u flags %#x data %#llx\n",
		       c->attrs[i].attr_id, c->attrs[i].len, c->attrs[i].flags,
		       (unsigned long long)c->attrs[i].data);
}

/*
 * One RDMA_VERBS_IOCTL call on @f, mutated when @mutated.  Returns 0 or
 * -errno (or what else ioctl() returned); *@id is the method's table index (for the digest and stats).
 */
int fz_ioctl(struct fz *fz, struct fz_file *f, int mutated, unsigned int *id)
{
	static __thread struct io_call c;
	const struct io_method *m = &io_methods[RND(NMETHODS)];
	char *in, *out;
	void *at;
	unsigned int i;
	int ret;

	if (!f->has_ctx && !ONE_IN(4))
		m = &io_methods[0];	/* GET_CONTEXT */
	*id = m - io_methods;
	memset(&c, 0, sizeof(c));
	c.hdr.object_id = m->object;
	c.hdr.method_id = m->method;
	c.hdr.driver_id = RDMA_DRIVER_RXE;
	in = fz->arena.req + 512;
	out = fz->arena.resp;
	memset(out, 0, ARENA_RESP_SPAN);
	for (i = 0; i < 14 && m->attrs[i].kind; i++) {
		/* optional ones are left out half the time, any now and then */
		if ((m->attrs[i].optional && ONE_IN(2)) || (i && ONE_IN(16)))
			continue;
		fill(fz, f, &m->attrs[i], &c.attrs[c.hdr.num_attrs], &in, &out);
		c.spec[c.hdr.num_attrs++] = &m->attrs[i];
	}
	c.hdr.length = sizeof(c.hdr) + c.hdr.num_attrs * sizeof(c.attrs[0]);
	if (mutated) {
		mutate(fz, f, &c);
		if (ONE_IN(3))
			mutate(fz, f, &c);
		if (!mutated || !ONE_IN(3))	/* length follows, mostly */
			c.hdr.length = sizeof(c.hdr) +
				       c.hdr.num_attrs * sizeof(c.attrs[0]) +
				       (c.hdr.length % 16);
	}
	steer_debug_kernel(fz, &c);
	/* statistics by the method the header names now, if it is one */
	if (find_method(&c.hdr))
		*id = find_method(&c.hdr) - io_methods;
	at = &c;
	if (mutated && ONE_IN(40))
		at = (void *)(uintptr_t)arena_bad_ptr(fz);
	ret = ioctl(f->fd, RDMA_VERBS_IOCTL, at);
	if (ret < 0) {
		ret = -errno;
		if (fz->concurrent && !fz_errno_expected(-ret))
			dump_call(&c, at, ret);
		return ret;
	}
	if (!ret)
		account(f, &c);
	return ret;
}

size_t fz_ioctl_nmethods(void)
{
	return NMETHODS;
}
