// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_uverbs paths mlx5 reaches and the test HCA now does too
 * (selftests/ovbtest/ctx.c, attrs.c, hidden.c):
 *  - QUERY_CONTEXT: the core's NUM_COMP_VECTORS and CORE_SUPPORT, then the
 *    driver's query_ucontext with the mandatory output attribute the driver
 *    added to the core method;
 *  - CONST_IN attributes read with and without a default, out of range,
 *    of the wrong size; FLAGS_IN read through uverbs_get_flags32/64, with
 *    4 and 8 bytes, unknown bits, a bit beyond a u32;
 *  - UAPI_DEF_IS_OBJ_SUPPORTED: an object the driver hides, its methods,
 *    a method naming it in a mandatory attribute and one naming it in an
 *    optional one, INFO_HANDLES of it.
 * Each errno is what the in-tree ib_uverbs of 6.1 (and 6.12) answers; the
 * driver counts its handler runs, so a refusal is known to come from the
 * attribute parser (no run) or from the driver's helper call (one run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

FIXTURE(ca) {
	int fd;
	int pd;
	struct ovbtest_alloc_ucontext_resp uctx;
	__u32 vectors;
};

FIXTURE_SETUP(ca)
{
	struct ioc c;

	self->fd = -1;
	HCA_SETUP_LOAD();
	self->fd = ovbtest_open_dev();
	ASSERT_LE(0, self->fd);
	memset(&self->uctx, 0xee, sizeof(self->uctx));
	self->vectors = 0xeeeeeeee;
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	ioc_out(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &self->vectors,
		sizeof(self->vectors));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, &self->uctx, sizeof(self->uctx));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	ASSERT_EQ(OVBTEST_MAGIC, self->uctx.magic);
}

FIXTURE_TEARDOWN(ca)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ---- QUERY_CONTEXT ------------------------------------------------------ */

/* QUERY_CONTEXT with the driver's output of @len bytes (0: none). */
static int query_ctx(int fd, __u32 *vectors, __u64 *support, void *resp,
		     __u16 len, struct ioc *c)
{
	ovbtest_ioc_init(c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
	if (vectors)
		ioc_out(c, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, vectors,
			sizeof(*vectors));
	if (support)
		ioc_out(c, UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT, support,
			sizeof(*support));
	if (len)
		ioc_out(c, OVBTEST_ATTR_QUERY_CONTEXT_RESP, resp, len);
	return ioc_call(fd, c);
}

TEST_F(ca, query_context)
{
	struct ovbtest_alloc_ucontext_resp resp;
	__u32 vectors = 0xffffffff;
	__u64 support = ~0ULL;
	struct ioc c;
	int i;

	memset(&resp, 0xff, sizeof(resp));
	ASSERT_EQ(0, query_ctx(self->fd, &vectors, &support, &resp,
			       sizeof(resp), &c));
	EXPECT_EQ(self->vectors, vectors);
	EXPECT_EQ(IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS, support);
	/* the driver answers what GET_CONTEXT's driver data said */
	EXPECT_EQ(0, memcmp(&resp, &self->uctx, sizeof(resp)));
	for (i = 0; i < 3; i++)
		EXPECT_TRUE(c.attrs[i].flags & UVERBS_ATTR_F_VALID_OUTPUT)
			TH_LOG("output %d not marked valid", i);

	/* the core outputs are optional */
	memset(&resp, 0xff, sizeof(resp));
	ASSERT_EQ(0, query_ctx(self->fd, NULL, NULL, &resp, sizeof(resp), &c));
	EXPECT_EQ(0, memcmp(&resp, &self->uctx, sizeof(resp)));
}

TEST_F(ca, query_context_driver_attr)
{
	unsigned char buf[sizeof(struct ovbtest_alloc_ucontext_resp) + 16];
	size_t min = offsetof(struct ovbtest_alloc_ucontext_resp, reserved);
	__u32 vectors = 0xffffffff;
	struct ioc c;
	size_t i;

	/* the driver's attribute is mandatory: refused before the core writes */
	EXPECT_EQ(-EINVAL, query_ctx(self->fd, &vectors, NULL, NULL, 0, &c));
	EXPECT_EQ(0xffffffff, vectors);
	/* shorter than up to flags: EINVAL; exactly that: the head only */
	EXPECT_EQ(-EINVAL, query_ctx(self->fd, NULL, NULL, buf, min - 1, &c));
	memset(buf, 0xff, sizeof(buf));
	ASSERT_EQ(0, query_ctx(self->fd, NULL, NULL, buf, min, &c));
	EXPECT_EQ(0, memcmp(buf, &self->uctx, min));
	EXPECT_EQ(0xff, buf[min]);
	/* longer: the struct, then zeros (uverbs_copy_to_struct_or_zero) */
	memset(buf, 0xff, sizeof(buf));
	ASSERT_EQ(0, query_ctx(self->fd, NULL, NULL, buf, sizeof(buf), &c));
	EXPECT_EQ(0, memcmp(buf, &self->uctx, sizeof(self->uctx)));
	for (i = sizeof(self->uctx); i < sizeof(buf); i++)
		EXPECT_EQ(0, buf[i]);
}

TEST(query_context_no_context)
{
	struct ovbtest_alloc_ucontext_resp resp;
	struct ioc c;
	int fd;

	HCA_SETUP_LOAD();
	fd = ovbtest_open_dev();
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, query_ctx(fd, NULL, NULL, &resp, sizeof(resp), &c));
	close(fd);
}

/* ---- CONST_IN, FLAGS_IN --------------------------------------------------- */

struct echo_args {
	int u16_len;		/* 0: absent */
	__u64 u16;
	int u8_len, s16_len, s32_len, f32_len, f64_len;
	__u64 u8, s16, s32, f32, f64;
};

static int echo(int fd, const struct echo_args *a, struct ovbtest_attrs_info *info)
{
	struct ioc c;

	memset(info, 0xff, sizeof(*info));
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_ATTRS, OVBTEST_METHOD_ATTRS_ECHO);
	if (a->u16_len)
		ioc_attr(&c, OVBTEST_ATTR_ATTRS_ECHO_U16, a->u16_len, a->u16);
	if (a->u8_len)
		ioc_attr(&c, OVBTEST_ATTR_ATTRS_ECHO_U8, a->u8_len, a->u8);
	if (a->s16_len)
		ioc_attr(&c, OVBTEST_ATTR_ATTRS_ECHO_S16, a->s16_len, a->s16);
	if (a->s32_len)
		ioc_attr(&c, OVBTEST_ATTR_ATTRS_ECHO_S32, a->s32_len, a->s32);
	if (a->f32_len)
		ioc_attr(&c, OVBTEST_ATTR_ATTRS_ECHO_FLAGS32, a->f32_len, a->f32);
	if (a->f64_len)
		ioc_attr(&c, OVBTEST_ATTR_ATTRS_ECHO_FLAGS64, a->f64_len, a->f64);
	ioc_out(&c, OVBTEST_ATTR_ATTRS_ECHO_INFO, info, sizeof(*info));
	return ioc_call(fd, &c);
}

/* The driver's handler runs so far (a successful ECHO counts itself). */
static __u32 echo_calls(int fd)
{
	struct echo_args a = { .u16_len = 8 };
	struct ovbtest_attrs_info info;

	if (echo(fd, &a, &info))
		return 0;
	return info.calls;
}

/*
 * @a refused with @err, by the parser (@ran 0) or by the driver's helper
 * call (@ran 1): the handler runs counted between two good calls.
 */
#define EXPECT_REFUSED(fd, a, err, ran)					\
	do {								\
		struct ovbtest_attrs_info __i;				\
		__u32 __before = echo_calls(fd);			\
									\
		EXPECT_EQ(err, echo((fd), (a), &__i));			\
		EXPECT_EQ(__before + 1 + (ran), echo_calls(fd))		\
			TH_LOG("handler runs: %s", (ran) ? "expected one" : \
			       "expected none");			\
	} while (0)

TEST_F(ca, const_in)
{
	struct ovbtest_attrs_info info;
	struct echo_args a = { .u16_len = 8, .u16 = 0xbeef };
	__u32 calls;

	/* absent optional ones: the defaults, ENOENT without one */
	ASSERT_EQ(0, echo(self->fd, &a, &info));
	EXPECT_EQ(0xbeef, info.u16);
	EXPECT_EQ(OVBTEST_ATTRS_U8_DEFAULT, info.u8);
	EXPECT_EQ(OVBTEST_ATTRS_S16_DEFAULT, info.s16);
	EXPECT_EQ(-ENOENT, info.s32_ret);
	EXPECT_EQ(0, info.s32);
	EXPECT_EQ(0, info.flags32);
	EXPECT_EQ(0, info.flags64);
	calls = info.calls;

	/* the bounds of each type */
	a.u16 = 0xffff;
	a.u8_len = a.s16_len = a.s32_len = 8;
	a.u8 = 0;
	a.s16 = (__u64)(__s64)-32768;
	a.s32 = (__u64)(__s64)INT32_MIN;
	ASSERT_EQ(0, echo(self->fd, &a, &info));
	EXPECT_EQ(calls + 1, info.calls);
	EXPECT_EQ(0xffff, info.u16);
	EXPECT_EQ(0, info.u8);
	EXPECT_EQ(-32768, info.s16);
	EXPECT_EQ(0, info.s32_ret);
	EXPECT_EQ(INT32_MIN, info.s32);
	a.u8 = 0xff;
	a.s16 = 32767;
	a.s32 = INT32_MAX;
	ASSERT_EQ(0, echo(self->fd, &a, &info));
	EXPECT_EQ(0xff, info.u8);
	EXPECT_EQ(32767, info.s16);
	EXPECT_EQ(INT32_MAX, info.s32);
	a.s32 = 0;
	ASSERT_EQ(0, echo(self->fd, &a, &info));
	EXPECT_EQ(0, info.s32_ret);
	EXPECT_EQ(0, info.s32);

	/* out of range: the driver's uverbs_get_const*() says EINVAL */
	a = (struct echo_args){ .u16_len = 8, .u16 = 0x10000 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	a = (struct echo_args){ .u16_len = 8, .u8_len = 8, .u8 = 0x100 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	a.u8 = ~0ULL;
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	a = (struct echo_args){ .u16_len = 8, .s16_len = 8,
				.s16 = (__u64)(__s64)-32769 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	a.s16 = 32768;
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	a = (struct echo_args){ .u16_len = 8, .s32_len = 8, .s32 = 0x80000000ULL };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	a.s32 = (__u64)((__s64)INT32_MIN - 1);
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);

	/* the mandatory one absent, a constant not 8 bytes: the parser */
	a = (struct echo_args){ .u8_len = 8, .u8 = 1 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 0);
	a = (struct echo_args){ .u16_len = 4, .u16 = 1 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 0);
	a = (struct echo_args){ .u16_len = 8, .u8_len = 1, .u8 = 1 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 0);
	a = (struct echo_args){ .u16_len = 16, .u16 = 1 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 0);
}

TEST_F(ca, flags_in)
{
	struct ovbtest_attrs_info info;
	struct echo_args a = { .u16_len = 8, .f32_len = 4, .f32 = 0xb,
			       .f64_len = 8, .f64 = 0x8000000000000001ULL };

	ASSERT_EQ(0, echo(self->fd, &a, &info));
	EXPECT_EQ(0xb, info.flags32);
	EXPECT_EQ(0x8000000000000001ULL, info.flags64);
	/* 8 bytes for flags32, 4 for flags64 */
	a.f32_len = 8;
	a.f32 = 0x3;
	a.f64_len = 4;
	a.f64 = 0x1;
	ASSERT_EQ(0, echo(self->fd, &a, &info));
	EXPECT_EQ(0x3, info.flags32);
	EXPECT_EQ(0x1, info.flags64);
	/* with 4 bytes only the low 32 bits of the inline value count */
	a = (struct echo_args){ .u16_len = 8, .f32_len = 4,
				.f32 = 0xffffffff00000008ULL };
	ASSERT_EQ(0, echo(self->fd, &a, &info));
	EXPECT_EQ(0x8, info.flags32);

	/* unknown bits: the helper's EINVAL */
	a = (struct echo_args){ .u16_len = 8, .f32_len = 4, .f32 = 0x4 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	a = (struct echo_args){ .u16_len = 8, .f64_len = 8, .f64 = 0x2 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	a.f64 = 0x4000000000000000ULL;
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	/* allowed by the driver's mask but beyond a u32 */
	a = (struct echo_args){ .u16_len = 8, .f32_len = 8, .f32 = 0x100000000ULL };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	/* 6 bytes pass the parser (4..8), not the helper */
	a = (struct echo_args){ .u16_len = 8, .f32_len = 6, .f32 = 0x1 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	a = (struct echo_args){ .u16_len = 8, .f64_len = 6, .f64 = 0x1 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 1);
	/* shorter than 4 or longer than 8: the parser */
	a = (struct echo_args){ .u16_len = 8, .f32_len = 2, .f32 = 0x1 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 0);
	a = (struct echo_args){ .u16_len = 8, .f64_len = 9, .f64 = 0x1 };
	EXPECT_REFUSED(self->fd, &a, -EINVAL, 0);
}

/* ---- UAPI_DEF_IS_OBJ_SUPPORTED ------------------------------------------- */

static int hidden_ref(int fd, __u16 method, int with_handle, __u32 *calls)
{
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_ATTRS, method);
	if (with_handle)
		ioc_obj(&c, OVBTEST_ATTR_ATTRS_HIDDEN_HANDLE, 0);
	ioc_out(&c, OVBTEST_ATTR_ATTRS_HIDDEN_CALLS, calls, sizeof(*calls));
	return ioc_call(fd, &c);
}

static int info_handles(int fd, __u16 object, __u32 *total)
{
	__u32 list[16];
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	ioc_const(&c, UVERBS_ATTR_INFO_OBJECT_ID, object);
	ioc_out(&c, UVERBS_ATTR_INFO_TOTAL_HANDLES, total, sizeof(*total));
	ioc_out(&c, UVERBS_ATTR_INFO_HANDLES_LIST, list, sizeof(list));
	return ioc_call(fd, &c);
}

TEST_F(ca, hidden_object)
{
	__u32 calls = 0, calls2 = 0, total = 0xffff;
	struct ioc c;

	/* the object's own method is gone */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_HIDDEN, OVBTEST_METHOD_HIDDEN_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_HIDDEN_CREATE_HANDLE, 0);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
	/* ... as a method id nobody declared on a visible object */
	ovbtest_ioc_init(&c, OVBTEST_OBJECT_ATTRS, OVBTEST_NS + 5);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));

	/* a method of a visible object naming it as mandatory: gone too */
	EXPECT_EQ(-EPROTONOSUPPORT,
		  hidden_ref(self->fd, OVBTEST_METHOD_ATTRS_HIDDEN_MAND, 1, &calls));
	EXPECT_EQ(-EPROTONOSUPPORT,
		  hidden_ref(self->fd, OVBTEST_METHOD_ATTRS_HIDDEN_MAND, 0, &calls));

	/* naming it as optional: the method stays, the handle cannot be used */
	ASSERT_EQ(0, hidden_ref(self->fd, OVBTEST_METHOD_ATTRS_HIDDEN_OPT, 0,
				&calls));
	EXPECT_EQ(-EINVAL, hidden_ref(self->fd, OVBTEST_METHOD_ATTRS_HIDDEN_OPT,
				      1, &calls2));
	ASSERT_EQ(0, hidden_ref(self->fd, OVBTEST_METHOD_ATTRS_HIDDEN_OPT, 0,
				&calls2));
	/* neither the refused call nor any HIDDEN method ran a handler */
	EXPECT_EQ(calls + 1, calls2);

	/* INFO_HANDLES: a visible driver object has none, the hidden one is unknown */
	EXPECT_EQ(0, info_handles(self->fd, OVBTEST_OBJECT_ATTRS, &total));
	EXPECT_EQ(0, total);
	EXPECT_EQ(-ENOENT, info_handles(self->fd, OVBTEST_OBJECT_HIDDEN, &total));
}

OVBTEST_UNLOAD_FIXTURE()

TEST_HARNESS_MAIN
