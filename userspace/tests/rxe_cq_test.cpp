// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Extended polling of an rxe CQ on a ring in plain memory: what each of
// ibv_start_poll/next_poll/end_poll consumes, in the order the man page
// gives (end_poll also after next_poll answered ENOENT).
#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

#include "rxe.h"

namespace rxe {
const ovb_core *core;	// rxe.cpp is not linked: nothing here enters a kernel
}

using namespace rxe;

namespace {

struct ExPoll : ::testing::Test {
	static constexpr uint32_t kSlots = 16, kLog2 = 6;
	ExPoll() : mem(sizeof(ovb_rxe_queue_buf) + (kSlots << kLog2), 0)
	{
		buf()->log2_elem_size = kLog2;
		buf()->index_mask = kSlots - 1;
		cq.ring.attach(buf());
		set_ex_poll_ops(cq, IBV_WC_EX_WITH_BYTE_LEN);
	}
	ovb_rxe_queue_buf *buf() { return reinterpret_cast<ovb_rxe_queue_buf *>(mem.data()); }
	// The kernel's side: one completion with this wr_id.
	void complete(uint64_t wr_id)
	{
		auto *wc = static_cast<ovb_wc *>(cq.ring.slot(buf()->producer_index));
		*wc = ovb_wc{};
		wc->wr_id = wr_id;
		wc->byte_len = static_cast<uint32_t>(wr_id * 10);
		buf()->producer_index = (buf()->producer_index + 1) & (kSlots - 1);
	}
	// One batch as the man page writes it; the wr_ids it read.
	std::vector<uint64_t> batch()
	{
		std::vector<uint64_t> ids;
		ibv_poll_cq_attr attr{};
		if (ibv_start_poll(&cq.ex, &attr) == ENOENT)
			return ids;
		int rc;
		do {
			EXPECT_EQ(ibv_wc_read_byte_len(&cq.ex), cq.ex.wr_id * 10);
			ids.push_back(cq.ex.wr_id);
			rc = ibv_next_poll(&cq.ex);
		} while (!rc);
		EXPECT_EQ(rc, ENOENT);
		ibv_end_poll(&cq.ex);
		return ids;
	}
	std::vector<uint8_t> mem;
	Cq cq;
};

} // namespace

TEST_F(ExPoll, EndAfterEnoentConsumesNothingMore)
{
	complete(1);
	complete(2);
	EXPECT_EQ(batch(), (std::vector<uint64_t>{1, 2}));
	EXPECT_EQ(buf()->consumer_index, 2u) << "the consumer stops at the producer";
	EXPECT_TRUE(batch().empty()) << "an empty CQ stays empty";
	complete(3);
	EXPECT_EQ(batch(), (std::vector<uint64_t>{3})) << "a later completion comes once";
	EXPECT_EQ(buf()->consumer_index, 3u);
}

TEST_F(ExPoll, CompletionsArrivingBetweenBatchesComeOutOnceInOrder)
{
	std::vector<uint64_t> all;
	for (uint64_t id = 1; id <= 40; id++) {	// wraps the 16 slots
		complete(id);
		if (id % 3 == 0)
			for (uint64_t got : batch())
				all.push_back(got);
	}
	for (uint64_t got : batch())
		all.push_back(got);
	ASSERT_EQ(all.size(), 40u);
	for (uint64_t i = 0; i < all.size(); i++)
		EXPECT_EQ(all[i], i + 1);
}

TEST_F(ExPoll, EndWithACurrentEntryConsumesIt)
{
	complete(1);
	complete(2);
	ibv_poll_cq_attr attr{};
	ASSERT_EQ(ibv_start_poll(&cq.ex, &attr), 0);
	EXPECT_EQ(cq.ex.wr_id, 1u);
	ibv_end_poll(&cq.ex);	// stopped early: entry 1 is consumed, 2 stays
	EXPECT_EQ(batch(), (std::vector<uint64_t>{2}));
}

TEST_F(ExPoll, StartOnAnEmptyRingLeavesTheLockFree)
{
	ibv_poll_cq_attr attr{};
	EXPECT_EQ(ibv_start_poll(&cq.ex, &attr), ENOENT);
	complete(7);
	EXPECT_EQ(batch(), (std::vector<uint64_t>{7})) << "a second start_poll would deadlock";
}
