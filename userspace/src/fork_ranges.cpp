// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "fork_ranges.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace ovb::fork {

namespace {

struct Run {
	uintptr_t start, end;
};

} // namespace

// The first interval that ends after start.
RangeCounts::Map::const_iterator RangeCounts::first_after(uintptr_t start) const
{
	auto it = map_.upper_bound(start);
	if (it != map_.begin() && std::prev(it)->second.end > start)
		--it;
	return it;
}

// Cuts the interval that strictly contains at into two of the same count.
void RangeCounts::split_at(uintptr_t at)
{
	auto it = map_.upper_bound(at);
	if (it == map_.begin())
		return;
	--it;
	if (it->first < at && at < it->second.end) {
		Interval tail{it->second.end, it->second.count};
		map_.emplace(at, tail);
		it->second.end = at;
	}
}

// Joins touching intervals of equal count from just before start to just
// after end.
void RangeCounts::merge_around(uintptr_t start, uintptr_t end)
{
	auto it = map_.lower_bound(start);
	if (it != map_.begin())
		--it;
	while (it != map_.end() && it->first <= end) {
		auto next = std::next(it);
		if (next != map_.end() && it->second.end == next->first &&
		    it->second.count == next->second.count) {
			it->second.end = next->second.end;
			map_.erase(next);
			continue;
		}
		it = next;
	}
}

int RangeCounts::add(uintptr_t start, uintptr_t end)
{
	if (start >= end)
		return 0;
	// The holes in [start, end) are the runs that go from 0 to 1.
	std::vector<Run> holes;
	uintptr_t cursor = start;
	for (auto it = first_after(start); it != map_.end() && it->first < end; ++it) {
		if (it->first > cursor)
			holes.push_back({cursor, it->first});
		cursor = std::max(cursor, it->second.end);
	}
	if (cursor < end)
		holes.push_back({cursor, end});

	// Everything that may allocate, before any advice is given.
	split_at(start);
	split_at(end);
	try {
		for (const Run &h : holes)
			map_.emplace(h.start, Interval{h.end, 0});
	} catch (...) {
		for (const Run &h : holes)
			map_.erase(h.start);	// holes: no other key there
		merge_around(start, end);
		throw;
	}

	size_t given = 0;
	int rc = 0;
	for (; given < holes.size(); given++) {
		const Run &h = holes[given];
		rc = advise_(h.start, h.end - h.start, Advice::dontfork);
		if (rc)
			break;
	}
	if (rc) {
		for (size_t i = 0; i < given; i++)
			advise_(holes[i].start, holes[i].end - holes[i].start,
				Advice::dofork);
		for (const Run &h : holes)
			map_.erase(h.start);
		merge_around(start, end);
		return rc;
	}
	for (auto i = map_.lower_bound(start); i != map_.end() && i->first < end; ++i)
		i->second.count++;
	merge_around(start, end);
	return 0;
}

int RangeCounts::remove(uintptr_t start, uintptr_t end)
{
	if (start >= end)
		return 0;
	// Touching stretches at count 1 form one run that goes back to 0.
	std::vector<Run> freed;
	for (auto it = first_after(start); it != map_.end() && it->first < end; ++it) {
		if (it->second.count != 1)
			continue;
		uintptr_t s = std::max(it->first, start);
		uintptr_t e = std::min(it->second.end, end);
		if (!freed.empty() && freed.back().end == s)
			freed.back().end = e;
		else
			freed.push_back({s, e});
	}
	split_at(start);
	split_at(end);
	// From here on nothing allocates.
	for (auto it = map_.lower_bound(start); it != map_.end() && it->first < end;) {
		if (--it->second.count == 0)
			it = map_.erase(it);
		else
			++it;
	}
	for (const Run &r : freed)
		advise_(r.start, r.end - r.start, Advice::dofork);
	merge_around(start, end);
	return 0;
}

unsigned RangeCounts::count(uintptr_t addr) const
{
	auto it = map_.upper_bound(addr);
	if (it == map_.begin())
		return 0;
	--it;
	return addr < it->second.end ? it->second.count : 0;
}

} // namespace ovb::fork
