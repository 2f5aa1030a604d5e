// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The rxe ring: index arithmetic and a ring in plain memory standing in
// for the mmap()ed one.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "queue.h"

using namespace rxe;

TEST(RxeRing, HeaderLayoutIsTheKernels)
{
	EXPECT_EQ(offsetof(ovb_rxe_queue_buf, producer_index), 128u);
	EXPECT_EQ(offsetof(ovb_rxe_queue_buf, consumer_index), 256u);
	EXPECT_EQ(offsetof(ovb_rxe_queue_buf, data), 384u);
}

TEST(RxeRing, OneSlotStaysFree)
{
	const uint32_t mask = 7;	// 8 slots, 7 usable
	EXPECT_TRUE(ring_empty(0, 0));
	EXPECT_FALSE(ring_full(0, 0, mask));
	EXPECT_TRUE(ring_full(7, 0, mask));
	EXPECT_TRUE(ring_full(2, 3, mask));
	EXPECT_FALSE(ring_full(3, 3, mask));
	EXPECT_EQ(ring_count(7, 0, mask), 7u);
	EXPECT_EQ(ring_count(1, 6, mask), 3u);
}

TEST(RxeRing, IndicesWrapAtTheMask)
{
	EXPECT_EQ(ring_next(7, 7), 0u);
	EXPECT_EQ(ring_next(3, 7), 4u);
	EXPECT_EQ(ring_offset(9, 7, 6), 1u << 6);
	EXPECT_EQ(ring_offset(7, 7, 7), 7u << 7);
}

TEST(RxeRing, ProduceUntilFullThenConsume)
{
	const uint32_t slots = 4, log2 = 6;
	std::vector<uint8_t> mem(sizeof(ovb_rxe_queue_buf) + (slots << log2), 0);
	auto *buf = reinterpret_cast<ovb_rxe_queue_buf *>(mem.data());
	buf->log2_elem_size = log2;
	buf->index_mask = slots - 1;
	Ring r;
	r.attach(buf);
	ASSERT_TRUE(r.mapped());
	EXPECT_EQ(r.elem_size(), 64u);
	int n = 0;
	while (!r.full()) {
		*static_cast<int *>(r.producer_slot()) = 100 + n++;
		r.advance_producer();
	}
	EXPECT_EQ(n, 3);
	EXPECT_EQ(buf->producer_index, 3u);
	int seen = 0;
	while (!r.empty()) {
		EXPECT_EQ(*static_cast<int *>(r.consumer_slot()), 100 + seen++);
		r.advance_consumer();
	}
	EXPECT_EQ(seen, 3);
	EXPECT_EQ(buf->consumer_index, 3u);
	r.advance_producer();
	EXPECT_EQ(buf->producer_index, 0u) << "indices stay masked";
}
