// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the fuzzer does to a well-formed command: one table of mutations,
 * one or more applied per mutated command.  Mutations that break the
 * header are recorded in the message and applied when it is laid out;
 * the rest edit the request bytes.  The response address of a legacy
 * command (its first 8 bytes) is never bit-flipped: the kernel would
 * write wherever it points, fuzzer state included.  It is only ever
 * replaced by an address from arena_bad_ptr().
 */
#include <string.h>

#include "fuzz.h"

#define RND(n)		prng_below(&fz->rng, (n))
#define ONE_IN(n)	prng_one_in(&fz->rng, (n))

/* First request byte a mutation may edit. */
static size_t editable(const struct fz_msg *m)
{
	return m->has_resp_ptr ? 8 : 0;
}

static void m_word(struct fz *fz, struct fz_msg *m)
{
	size_t lo = editable(m), words;
	uint32_t w;

	if (m->req_len <= lo + 3)
		return;
	words = (m->req_len - lo) / 4;
	w = ONE_IN(2) ? fz_handle(fz, &fz->files[RND(FZ_NFILES)],
				  RND(FZ_NOBJ)) : fz_random_word(fz);
	memcpy(m->req + lo + 4 * RND(words), &w, 4);
}

static void m_bitflip(struct fz *fz, struct fz_msg *m)
{
	size_t lo = editable(m);

	if (m->req_len > lo)
		m->req[lo + RND(m->req_len - lo)] ^= 1 << RND(8);
}

static void m_byte(struct fz *fz, struct fz_msg *m)
{
	size_t lo = editable(m);

	if (m->req_len > lo)
		m->req[lo + RND(m->req_len - lo)] = RND(256);
}

static void m_bad_response(struct fz *fz, struct fz_msg *m)
{
	m->response = arena_bad_ptr(fz);
}

static void m_resp_near_guard(struct fz *fz, struct fz_msg *m)
{
	m->resp_near_guard = 1;
}

static void m_in_words(struct fz *fz, struct fz_msg *m)
{
	m->in_words_delta = ONE_IN(4) ? (int32_t)fz_random_word(fz) :
			    (int32_t)RND(7) - 3;
}

static void m_out_words(struct fz *fz, struct fz_msg *m)
{
	m->out_words_delta = ONE_IN(4) ? (int32_t)fz_random_word(fz) :
			     (int32_t)RND(7) - 3;
}

static void m_count(struct fz *fz, struct fz_msg *m)
{
	m->count_delta = (int32_t)RND(33) - 16;
}

/* Shorter (ENOSPC territory) or longer, with zeroes or garbage. */
static void m_req_len(struct fz *fz, struct fz_msg *m)
{
	size_t unit = m->ex ? 8 : 4, len;

	if (ONE_IN(2)) {
		m->req_len = unit * RND(m->req_len / unit + 1);
		return;
	}
	len = m->req_len + unit * (1 + RND(8));
	if (len + m->drv_in_len > FZ_REQ_MAX)
		return;
	memmove(m->req + len, m->req + m->req_len, m->drv_in_len);
	if (ONE_IN(2))
		memset(m->req + m->req_len, 0, len - m->req_len);
	else
		m->req[m->req_len + RND(len - m->req_len)] = 1 + RND(255);
	m->req_len = len;
}

static void m_driver_lens(struct fz *fz, struct fz_msg *m)
{
	size_t unit = m->ex ? 8 : 4;

	if (ONE_IN(2))
		m->drv_out_len = unit * RND(24);
	else if (m->req_len + unit * 8 <= FZ_REQ_MAX)
		m->drv_in_len = unit * RND(8);
}

static void m_resp_len(struct fz *fz, struct fz_msg *m)
{
	size_t unit = m->ex ? 8 : 4;

	m->resp_len = ONE_IN(2) ? unit * RND(m->resp_len / unit + 1) :
		      m->resp_len + unit * RND(16);
}

/* Reserved bits, the other header kind, another command number. */
static void m_command(struct fz *fz, struct fz_msg *m)
{
	switch (RND(4)) {
	case 0:
		m->command ^= 1u << (24 + RND(8));
		break;
	case 1:
		m->command ^= IB_USER_VERBS_CMD_FLAG_EXTENDED;
		break;
	case 2:
		m->command = (m->command & ~0xffu) | RND(64);
		break;
	default:
		m->command = fz_random_word(fz);
		break;
	}
}

static void m_ex_reserved(struct fz *fz, struct fz_msg *m)
{
	m->ex_reserved = 1 + RND(0xffffffff);
}

static void m_bad_buf(struct fz *fz, struct fz_msg *m)
{
	m->bad_buf = 1;
}

static void m_req_near_guard(struct fz *fz, struct fz_msg *m)
{
	m->req_near_guard = 1;
}

static const struct {
	void (*fn)(struct fz *fz, struct fz_msg *m);
	unsigned int weight;
} mutations[] = {
	{ m_word, 30 },
	{ m_bitflip, 15 },
	{ m_byte, 10 },
	{ m_bad_response, 8 },
	{ m_resp_near_guard, 4 },
	{ m_in_words, 5 },
	{ m_out_words, 5 },
	{ m_count, 4 },
	{ m_req_len, 10 },
	{ m_driver_lens, 5 },
	{ m_resp_len, 5 },
	{ m_command, 4 },
	{ m_ex_reserved, 1 },
	{ m_bad_buf, 1 },
	{ m_req_near_guard, 3 },
};

void fz_mutate(struct fz *fz, struct fz_msg *m)
{
	static unsigned int total;
	unsigned int i, r, sum = 0, n = 1 + (ONE_IN(3) ? RND(3) : 0);

	if (!total) {	/* threads may get here at once */
		for (i = 0; i < sizeof(mutations) / sizeof(mutations[0]); i++)
			sum += mutations[i].weight;
		total = sum;
	}
	while (n--) {
		r = RND(total);
		for (i = 0; r >= mutations[i].weight; i++)
			r -= mutations[i].weight;
		mutations[i].fn(fz, m);
	}
}
