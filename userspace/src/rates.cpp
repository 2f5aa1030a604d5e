// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Static rate conversions: one table of (rate, multiple of 2.5 Gb/s, Mb/s).
// A multiple of 0 means the rate has no exact multiple.
#include <infiniband/verbs.h>

#include "export.h"

namespace {

struct Rate {
	ibv_rate rate;
	int mult;
	int mbps;
};

constexpr Rate kRates[] = {
	{IBV_RATE_2_5_GBPS, 1, 2500},
	{IBV_RATE_5_GBPS, 2, 5000},
	{IBV_RATE_10_GBPS, 4, 10000},
	{IBV_RATE_20_GBPS, 8, 20000},
	{IBV_RATE_30_GBPS, 12, 30000},
	{IBV_RATE_40_GBPS, 16, 40000},
	{IBV_RATE_60_GBPS, 24, 60000},
	{IBV_RATE_80_GBPS, 32, 80000},
	{IBV_RATE_120_GBPS, 48, 120000},
	{IBV_RATE_14_GBPS, 0, 14062},
	{IBV_RATE_56_GBPS, 0, 56250},
	{IBV_RATE_112_GBPS, 0, 112500},
	{IBV_RATE_168_GBPS, 0, 168750},
	{IBV_RATE_25_GBPS, 0, 25781},
	{IBV_RATE_100_GBPS, 0, 103125},
	{IBV_RATE_200_GBPS, 0, 206250},
	{IBV_RATE_300_GBPS, 0, 309375},
	{IBV_RATE_28_GBPS, 11, 28125},
	{IBV_RATE_50_GBPS, 20, 53125},
	{IBV_RATE_400_GBPS, 160, 425000},
	{IBV_RATE_600_GBPS, 240, 637500},
	{IBV_RATE_800_GBPS, 320, 850000},
	{IBV_RATE_1200_GBPS, 480, 1275000},
};

} // namespace

OVB_EXPORT int ibv_rate_to_mult(ibv_rate rate)
try {
	for (const Rate &r : kRates)
		if (r.rate == rate && r.mult)
			return r.mult;
	return -1;
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT ibv_rate mult_to_ibv_rate(int mult)
try {
	for (const Rate &r : kRates)
		if (r.mult && r.mult == mult)
			return r.rate;
	return IBV_RATE_MAX;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_rate_to_mbps(ibv_rate rate)
try {
	for (const Rate &r : kRates)
		if (r.rate == rate)
			return r.mbps;
	return -1;
} OVB_ABI_CATCH_MINUS1

OVB_EXPORT ibv_rate mbps_to_ibv_rate(int mbps)
try {
	for (const Rate &r : kRates)
		if (r.mbps == mbps)
			return r.rate;
	return IBV_RATE_MAX;
} OVB_ABI_CATCH
