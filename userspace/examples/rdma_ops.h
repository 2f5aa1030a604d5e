/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rdma_ops protocol, shared by the C++ example (rdma_ops.cpp) and the C
 * server of its guest test (tests/guest/rdma_ops_server.c).
 *
 * The server registers a region of OVB_RDMA_OPS_LEN data bytes followed by
 * an 8-byte counter holding OVB_RDMA_OPS_COUNTER0, and offers it in its
 * accept's private data (struct ovb_rdma_ops_offer, big-endian).  The
 * client RDMA WRITEs ovb_rdma_ops_pattern() over the data, READs it back,
 * compares-and-swaps the counter from COUNTER0 to SWAP (and once more,
 * which must fail), fetches-and-adds ADD, READs the counter (FINAL), then
 * SENDs "done".  The server then checks its region: the pattern and FINAL.
 */
#ifndef OPENVERBS_EXAMPLES_RDMA_OPS_H
#define OPENVERBS_EXAMPLES_RDMA_OPS_H

#include <stdint.h>

#define OVB_RDMA_OPS_PORT "18517"
#define OVB_RDMA_OPS_LEN 4096
#define OVB_RDMA_OPS_COUNTER0 1000ULL
#define OVB_RDMA_OPS_SWAP 2000ULL
#define OVB_RDMA_OPS_ADD 5ULL
#define OVB_RDMA_OPS_FINAL (OVB_RDMA_OPS_SWAP + OVB_RDMA_OPS_ADD)
#define OVB_RDMA_OPS_DONE "done"

struct ovb_rdma_ops_offer {
	uint64_t addr;	/* of the data; the counter follows it */
	uint32_t rkey;
	uint32_t len;
};

static inline uint8_t ovb_rdma_ops_pattern(uint32_t i)
{
	return (uint8_t)(i * 7 + 3);
}

#endif
