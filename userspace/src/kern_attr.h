// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Conversions between the verbs attribute structs and the kernel's
// (uapi/openverbs/uverbs-abi.h).  Pure; tested in tests/kern_attr_test.cpp.
#pragma once

#include <infiniband/verbs.h>

#include <openverbs/uverbs-abi.h>

namespace ovb {

void encode_ah_attr(const ibv_ah_attr &a, ovb_ah_attr &k);
void decode_ah_attr(const ovb_ah_attr &k, ibv_ah_attr &a);

void encode_qp_dest(const ibv_ah_attr &a, ovb_qp_dest &k);
void decode_qp_dest(const ovb_qp_dest &k, ibv_ah_attr &a);

// MODIFY_QP request (without qp_handle) from attr + mask.
void encode_modify_qp(const ibv_qp_attr &attr, int mask, ovb_modify_qp_req &k);

// QUERY_QP response into attr / init_attr caps.
void decode_query_qp(const ovb_query_qp_resp &k, ibv_qp_attr &attr,
		     ibv_qp_init_attr &init);

// The kernel's QP attributes (struct ovb_qp_attr, rdma_ucm's answers)
// into attr: ibv_copy_qp_attr_from_kern.
void decode_qp_attr(const ovb_qp_attr &k, ibv_qp_attr &attr);

} // namespace ovb
