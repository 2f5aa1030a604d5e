// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// siw's rings (uapi/openverbs/siw-abi.h): plain arrays of elements in
// memory mmap()ed from the uverbs file.  Unlike rxe's there are no shared
// indices: each element says who owns it through OVB_SIW_WQE_VALID in its
// flags.  A queue element (SQE, RQE) with VALID clear is ours to fill; we
// write its body, then store flags with VALID (release), and the kernel
// clears flags (release) once it has taken the element.  A completion is
// the other way round: the kernel fills it and sets VALID, we read it
// (acquire) and hand it back by clearing flags.  Each side keeps its own
// index, stepped with next() (any ring size works, none is a power of two
// by necessity).
//
// Tested without a kernel in userspace/tests/siw_ring_test.cpp, on
// ordinary memory attach()ed in place of a mapping.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <sys/mman.h>

#include <openverbs/siw-abi.h>

namespace siw {

// The flags word of each element: 16 bits in SQE and RQE, 8 in a CQE.
template <typename Elem>
using FlagsOf = decltype(Elem::flags);

template <typename Elem>
std::atomic_ref<FlagsOf<Elem>> flags_ref(Elem &e)
{
	return std::atomic_ref<FlagsOf<Elem>>(e.flags);
}

// True while the other side owns a queue element (or while a completion
// waits for us): the element's body is visible once this returned true.
template <typename Elem>
bool valid(Elem &e)
{
	return flags_ref(e).load(std::memory_order_acquire) & OVB_SIW_WQE_VALID;
}

// Hands an element over: its body, written before, becomes visible to the
// other side together with flags.
template <typename Elem>
void publish(Elem &e, FlagsOf<Elem> flags)
{
	flags_ref(e).store(flags, std::memory_order_release);
}

// Whether a post of `posted` new SQEs must ring the doorbell.  The kernel
// walks the SQ by itself while it finds VALID elements; it stops at the
// first empty one.  So if the element just before our first new one is
// still VALID the kernel has not reached it yet and will continue into
// ours; if it is clear, the kernel may have stopped, and only the doorbell
// restarts it.  A post that rewrote the whole ring cannot tell (that
// element is one of ours) and always rings.  The caller reads
// prev_still_valid after a full fence following its last publish(), so
// that the kernel's "clear, then look at the next" and our "publish, then
// look at the previous" cannot both miss each other.
constexpr bool sq_needs_doorbell(uint32_t posted, uint32_t ring_size,
				 bool prev_still_valid)
{
	return posted > 0 && (posted >= ring_size || !prev_still_valid);
}

// A ring of Elem, plus `tail` bytes after it in the same mapping (the CQ
// control word).
template <typename Elem>
class Ring {
public:
	// mmap()s num elements at the kernel's key; false with errno set.
	bool map(int cmd_fd, uint64_t key, uint32_t num, size_t tail = 0)
	{
		size_t len = num * sizeof(Elem) + tail;
		void *p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       cmd_fd, static_cast<off_t>(key));
		if (p == MAP_FAILED)
			return false;
		base_ = static_cast<Elem *>(p);
		num_ = num;
		len_ = len;
		return true;
	}
	void unmap()
	{
		if (base_ && len_)
			munmap(base_, len_);
		base_ = nullptr;
		num_ = 0;
		len_ = 0;
	}
	// Memory we do not own (tests).
	void attach(Elem *base, uint32_t num)
	{
		base_ = base;
		num_ = num;
		len_ = 0;
	}
	bool mapped() const { return base_ != nullptr; }
	uint32_t size() const { return num_; }
	Elem &at(uint32_t i) const { return base_[i]; }
	uint32_t next(uint32_t i) const { return i + 1 == num_ ? 0 : i + 1; }
	uint32_t prev(uint32_t i) const { return (i ? i : num_) - 1; }
	// The bytes right after the last element.
	void *tail() const { return base_ + num_; }

private:
	Elem *base_ = nullptr;
	uint32_t num_ = 0;
	size_t len_ = 0;
};

} // namespace siw
