// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// fork() range accounting (src/fork_ranges.h) with a recording advice
// function: one call per run that moves between 0 and 1, counts kept
// across overlaps, nothing changed when the advice fails.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fork_ranges.h"

using ovb::fork::RangeCounts;

namespace {

constexpr uintptr_t P = 4096;
std::vector<std::string> g_calls;
uintptr_t g_fail_at = UINTPTR_MAX;	// a dontfork starting here fails

int record(uintptr_t start, size_t len, RangeCounts::Advice a)
{
	bool dont = a == RangeCounts::Advice::dontfork;
	g_calls.push_back(std::string(dont ? "dontfork " : "dofork ") +
			  std::to_string(start / P) + "+" + std::to_string(len / P));
	return dont && start == g_fail_at ? 12 : 0;
}

class ForkRanges : public ::testing::Test {
protected:
	void SetUp() override
	{
		g_calls.clear();
		g_fail_at = UINTPTR_MAX;
	}
	RangeCounts r{record};
	std::vector<std::string> calls()
	{
		auto c = g_calls;
		g_calls.clear();
		return c;
	}
};

using V = std::vector<std::string>;

TEST_F(ForkRanges, OneAdviceForAFreshRange)
{
	EXPECT_EQ(r.add(10 * P, 26 * P), 0);
	EXPECT_EQ(calls(), V{"dontfork 10+16"});
	EXPECT_EQ(r.count(10 * P), 1u);
	EXPECT_EQ(r.count(25 * P), 1u);
	EXPECT_EQ(r.count(26 * P), 0u);
	EXPECT_EQ(r.intervals(), 1u);
	EXPECT_EQ(r.remove(10 * P, 26 * P), 0);
	EXPECT_EQ(calls(), V{"dofork 10+16"});
	EXPECT_EQ(r.intervals(), 0u);
}

TEST_F(ForkRanges, OverlapsCountAndAdviseOnlyTheHoles)
{
	r.add(4 * P, 8 * P);
	calls();
	EXPECT_EQ(r.add(0, 16 * P), 0);
	EXPECT_EQ(calls(), (V{"dontfork 0+4", "dontfork 8+8"}));
	EXPECT_EQ(r.count(5 * P), 2u);
	EXPECT_EQ(r.count(9 * P), 1u);
	EXPECT_EQ(r.remove(0, 16 * P), 0);
	EXPECT_EQ(calls(), (V{"dofork 0+4", "dofork 8+8"}));
	EXPECT_EQ(r.count(5 * P), 1u);
	EXPECT_EQ(r.remove(4 * P, 8 * P), 0);
	EXPECT_EQ(calls(), V{"dofork 4+4"});
	EXPECT_EQ(r.intervals(), 0u);
}

TEST_F(ForkRanges, TouchingRangesGiveBackInOneCall)
{
	r.add(0, 4 * P);
	r.add(4 * P, 8 * P);
	EXPECT_EQ(calls(), (V{"dontfork 0+4", "dontfork 4+4"}));
	EXPECT_EQ(r.intervals(), 1u);	// merged: same count, touching
	r.remove(0, 8 * P);
	EXPECT_EQ(calls(), V{"dofork 0+8"});
}

TEST_F(ForkRanges, RemovingWhatWasNeverAddedChangesNothing)
{
	r.add(4 * P, 8 * P);
	calls();
	EXPECT_EQ(r.remove(8 * P, 12 * P), 0);
	EXPECT_TRUE(calls().empty());
	EXPECT_EQ(r.count(4 * P), 1u);
	EXPECT_EQ(r.remove(2 * P, 6 * P), 0);
	EXPECT_EQ(calls(), V{"dofork 4+2"});
	EXPECT_EQ(r.count(6 * P), 1u);
	EXPECT_EQ(r.count(5 * P), 0u);
}

TEST_F(ForkRanges, FailedAdviceIsTakenBack)
{
	r.add(4 * P, 8 * P);
	calls();
	g_fail_at = 8 * P;
	EXPECT_EQ(r.add(0, 16 * P), 12);
	EXPECT_EQ(calls(), (V{"dontfork 0+4", "dontfork 8+8", "dofork 0+4"}));
	EXPECT_EQ(r.count(0), 0u);
	EXPECT_EQ(r.count(5 * P), 1u);
	EXPECT_EQ(r.count(9 * P), 0u);
	EXPECT_EQ(r.intervals(), 1u);
}

TEST_F(ForkRanges, EmptyRangeDoesNothing)
{
	EXPECT_EQ(r.add(4 * P, 4 * P), 0);
	EXPECT_EQ(r.remove(4 * P, 4 * P), 0);
	EXPECT_TRUE(calls().empty());
}

} // namespace
