// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The library's plain PD/MR/MW ops (src/plain_ops.cpp): which pairs a
// provider gets, and what the plain ops do with the core command's answer
// (the core commands are stubbed here).
#include <gtest/gtest.h>

#include <cerrno>

#include "context.h"
#include "core.h"

namespace ovb {

namespace {
int answer;		// what the stubbed core commands return
ovb_udata *seen_ud;	// the udata the last one was given
int destroyed;
} // namespace

int core_alloc_pd(ibv_context *ctx, ibv_pd *pd, ovb_udata *ud)
{
	seen_ud = ud;
	pd->context = ctx;
	pd->handle = 7;
	return answer;
}
int core_dealloc_pd(ibv_pd *)
{
	destroyed++;
	return answer;
}
int core_reg_mr(ibv_pd *, void *, size_t, uint64_t, int, ibv_mr *mr,
		ovb_udata *ud)
{
	seen_ud = ud;
	mr->lkey = 9;
	return answer;
}
int core_dereg_mr(ibv_mr *)
{
	destroyed++;
	return answer;
}
int core_alloc_mw(ibv_pd *, ibv_mw_type, ibv_mw *, ovb_udata *ud)
{
	seen_ud = ud;
	return answer;
}
int core_dealloc_mw(ibv_mw *)
{
	destroyed++;
	return answer;
}

} // namespace ovb

namespace {

ibv_pd *provider_alloc_pd(ibv_context *) { return nullptr; }
int provider_dealloc_pd(ibv_pd *) { return 0; }
int provider_bind_mw(ibv_qp *, ibv_mw *, ibv_mw_bind *) { return 0; }

TEST(PlainOps, PairsLeftOutAreFilledBindIsNot)
{
	ovb_context_ops ops{};
	ovb::add_plain_ops(ops);
	EXPECT_NE(nullptr, ops.alloc_pd);
	EXPECT_NE(nullptr, ops.dealloc_pd);
	EXPECT_NE(nullptr, ops.reg_mr);
	EXPECT_NE(nullptr, ops.dereg_mr);
	EXPECT_NE(nullptr, ops.alloc_mw);
	EXPECT_NE(nullptr, ops.dealloc_mw);
	EXPECT_EQ(nullptr, ops.bind_mw);
	EXPECT_EQ(nullptr, ops.create_cq);
}

TEST(PlainOps, AProvidersPairOrHalfPairIsKept)
{
	ovb_context_ops ops{};
	ops.alloc_pd = provider_alloc_pd;
	ops.dealloc_pd = provider_dealloc_pd;
	ops.alloc_mw = nullptr;
	ops.dealloc_mw = [](ibv_mw *) { return 0; };	// half a pair
	ops.bind_mw = provider_bind_mw;
	auto dealloc_mw = ops.dealloc_mw;
	ovb::add_plain_ops(ops);
	EXPECT_EQ(provider_alloc_pd, ops.alloc_pd);
	EXPECT_EQ(provider_dealloc_pd, ops.dealloc_pd);
	EXPECT_EQ(nullptr, ops.alloc_mw);	// never the library's alloc
	EXPECT_EQ(dealloc_mw, ops.dealloc_mw);	// with the provider's free
	EXPECT_EQ(provider_bind_mw, ops.bind_mw);
	EXPECT_NE(nullptr, ops.reg_mr);
}

TEST(PlainOps, CreateWithoutUdataDestroyFreesOnlyOnSuccess)
{
	ovb_context_ops ops{};
	ovb::add_plain_ops(ops);
	ibv_context ctx{};
	ovb::answer = 0;
	ovb::seen_ud = reinterpret_cast<ovb_udata *>(1);
	ibv_pd *pd = ops.alloc_pd(&ctx);
	ASSERT_NE(nullptr, pd);
	EXPECT_EQ(nullptr, ovb::seen_ud);
	EXPECT_EQ(7u, pd->handle);
	ibv_mr *mr = ops.reg_mr(pd, nullptr, 4096, 0, 0);
	ASSERT_NE(nullptr, mr);
	EXPECT_EQ(9u, mr->lkey);

	ovb::answer = EBUSY;	// a refused destroy keeps the object
	ovb::destroyed = 0;
	EXPECT_EQ(EBUSY, ops.dereg_mr(mr));
	EXPECT_EQ(EBUSY, ops.dealloc_pd(pd));
	EXPECT_EQ(2, ovb::destroyed);
	EXPECT_EQ(9u, mr->lkey);	// still ours to use (ASan: not freed)
	ovb::answer = 0;
	EXPECT_EQ(0, ops.dereg_mr(mr));
	EXPECT_EQ(0, ops.dealloc_pd(pd));
}

TEST(PlainOps, AFailedCreateSetsErrno)
{
	ovb_context_ops ops{};
	ovb::add_plain_ops(ops);
	ibv_pd pd{};
	ovb::answer = EOPNOTSUPP;
	errno = 0;
	EXPECT_EQ(nullptr, ops.alloc_mw(&pd, IBV_MW_TYPE_1));
	EXPECT_EQ(EOPNOTSUPP, errno);
	ovb::answer = 0;
}

} // namespace
