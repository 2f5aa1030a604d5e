// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The rings rdma_rxe shares with userspace (struct ovb_rxe_queue_buf): index
// arithmetic as pure functions (tests/rxe_queue_test.cpp), and a mapped
// ring that is either produced (SQ, RQ, SRQ) or consumed (CQ) by us.
//
// Indices stay in [0, mask]; empty is prod == cons; full is one slot short
// of the consumer, so a ring of mask + 1 slots holds mask elements.  Each
// side publishes its own index with release and reads the other's with
// acquire; the element bytes are ordered by those.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <sys/mman.h>

#include <openverbs/rxe-abi.h>

namespace rxe {

constexpr uint32_t ring_next(uint32_t i, uint32_t mask) { return (i + 1) & mask; }
constexpr bool ring_empty(uint32_t prod, uint32_t cons) { return prod == cons; }
constexpr bool ring_full(uint32_t prod, uint32_t cons, uint32_t mask)
{
	return ring_next(prod, mask) == cons;
}
constexpr uint32_t ring_count(uint32_t prod, uint32_t cons, uint32_t mask)
{
	return (prod - cons) & mask;
}
constexpr size_t ring_offset(uint32_t i, uint32_t mask, uint32_t log2_elem)
{
	return static_cast<size_t>(i & mask) << log2_elem;
}

class Ring {
public:
	// mmap()s the ring the kernel described; false with errno on failure.
	bool map(int cmd_fd, const ovb_rxe_mmap_info &mi)
	{
		void *p = mmap(nullptr, mi.size, PROT_READ | PROT_WRITE,
			       MAP_SHARED, cmd_fd, static_cast<off_t>(mi.offset));
		if (p == MAP_FAILED)
			return false;
		buf_ = static_cast<ovb_rxe_queue_buf *>(p);
		size_ = mi.size;
		return true;
	}
	void unmap()
	{
		if (buf_ && size_)
			munmap(buf_, size_);
		buf_ = nullptr;
		size_ = 0;
	}
	// A ring in memory we do not own (tests).
	void attach(ovb_rxe_queue_buf *buf)
	{
		buf_ = buf;
		size_ = 0;
	}
	bool mapped() const { return buf_ != nullptr; }
	uint32_t mask() const { return buf_->index_mask; }
	uint32_t elem_size() const { return 1u << buf_->log2_elem_size; }

	// Producer side (SQ, RQ, SRQ: we write elements, the kernel reads).
	uint32_t producer() const { return ref(buf_->producer_index).load(std::memory_order_relaxed); }
	bool full() const
	{
		return ring_full(producer(),
				 ref(buf_->consumer_index).load(std::memory_order_acquire),
				 mask());
	}
	bool full_at(uint32_t prod) const
	{
		return ring_full(prod,
				 ref(buf_->consumer_index).load(std::memory_order_acquire),
				 mask());
	}
	void *slot(uint32_t i) const
	{
		return buf_->data + ring_offset(i, mask(), buf_->log2_elem_size);
	}
	void *producer_slot() const { return slot(producer()); }
	void publish_producer(uint32_t prod)
	{
		ref(buf_->producer_index).store(prod & mask(), std::memory_order_release);
	}
	void advance_producer() { publish_producer(ring_next(producer(), mask())); }

	// Consumer side (CQ: the kernel writes, we read).
	uint32_t consumer() const { return ref(buf_->consumer_index).load(std::memory_order_relaxed); }
	bool empty() const
	{
		return ring_empty(ref(buf_->producer_index).load(std::memory_order_acquire),
				  consumer());
	}
	uint32_t producer_acquire() const
	{
		return ref(buf_->producer_index).load(std::memory_order_acquire);
	}
	void *consumer_slot() const { return slot(consumer()); }
	void publish_consumer(uint32_t cons)
	{
		ref(buf_->consumer_index).store(cons & mask(), std::memory_order_release);
	}
	void advance_consumer()
	{
		ref(buf_->consumer_index).store(ring_next(consumer(), mask()),
						std::memory_order_release);
	}

private:
	static std::atomic_ref<uint32_t> ref(uint32_t &v) { return std::atomic_ref<uint32_t>(v); }
	ovb_rxe_queue_buf *buf_ = nullptr;
	size_t size_ = 0;
};

} // namespace rxe
