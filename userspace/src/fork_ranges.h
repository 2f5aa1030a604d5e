// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Reference counts over address ranges, for fork() safety: how many
// registrations cover each byte, kept as disjoint intervals of equal count.
// Advice goes to the kernel once per maximal run whose count moves between
// 0 and 1 (one madvise for a fresh range, however many pages it spans).
// Pure bookkeeping: the advice function is given, so it is unit-tested.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

namespace ovb::fork {

class RangeCounts {
public:
	enum class Advice { dontfork, dofork };
	// 0 or an errno.  A failed dofork is not undone: the caller's
	// function does its best (libibverbs retries page by page).
	using AdviseFn = int (*)(uintptr_t start, size_t len, Advice advice);

	explicit RangeCounts(AdviseFn advise) : advise_(advise) {}

	// [start, end), page-aligned by the caller.  0 or an errno; on failure
	// nothing changed (advice already given is taken back).  May throw
	// std::bad_alloc, also leaving the counts as they were.
	int add(uintptr_t start, uintptr_t end);
	// Bytes with no count are left alone.
	int remove(uintptr_t start, uintptr_t end);

	unsigned count(uintptr_t addr) const;
	size_t intervals() const { return map_.size(); }

private:
	struct Interval {
		uintptr_t end;
		unsigned count;
	};
	using Map = std::map<uintptr_t, Interval>;

	Map::const_iterator first_after(uintptr_t start) const;
	void split_at(uintptr_t at);
	void merge_around(uintptr_t start, uintptr_t end);

	AdviseFn advise_;
	Map map_;	// start -> interval, disjoint, counts > 0
};

} // namespace ovb::fork
