// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ioctl encoding, attribute by attribute, against what rdma-core 44 sends
// (ids, order, lengths, inline data, flags) and the kernel's header rules.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cmd/methods.h"

using namespace ovb::ioctl;

namespace {

std::vector<uint16_t> ids(const Frame &f)
{
	std::vector<uint16_t> v;
	for (unsigned i = 0; i < f.hdr().num_attrs; i++)
		v.push_back(f.attrs()[i].attr_id);
	return v;
}

} // namespace

TEST(IoctlEncode, HeaderLengthCountsAttributes)
{
	DestroyCq a{};
	a.handle = 7;
	Frame f;
	EXPECT_EQ(encode(kDestroyCqM, &a, nullptr, 16, f), 2u);
	EXPECT_EQ(f.hdr().length, sizeof(ovb_ioctl_hdr) + 2 * sizeof(ovb_ioctl_attr));
	EXPECT_EQ(f.hdr().object_id, OVB_OBJECT_CQ);
	EXPECT_EQ(f.hdr().method_id, OVB_METHOD_CQ_DESTROY);
	EXPECT_EQ(f.hdr().driver_id, 16u);
	EXPECT_EQ(f.hdr().reserved1, 0u);
	EXPECT_EQ(f.hdr().reserved2, 0u);
	// rdma-core's order: the response first, then the handle.
	EXPECT_EQ(ids(f), (std::vector<uint16_t>{OVB_ATTR_DESTROY_CQ_RESP,
						 OVB_ATTR_DESTROY_CQ_HANDLE}));
	EXPECT_EQ(f.attrs()[0].len, sizeof(ovb_destroy_cq_resp));
	EXPECT_EQ(f.attrs()[0].data, reinterpret_cast<uintptr_t>(&a.resp));
	EXPECT_EQ(f.attrs()[1].len, 0u);
	EXPECT_EQ(f.attrs()[1].data, 7u);
	EXPECT_EQ(f.attrs()[1].flags, OVB_ATTR_F_MANDATORY);
}

TEST(IoctlEncode, CreateCqOptionalAttributes)
{
	CreateCq a{};
	a.cqe = 64;
	a.user_handle = 0x1122334455667788;
	a.channel = -1;		// no channel: attribute left out
	a.comp_vector = 0;
	a.event_fd = 5;
	Frame f;
	encode(kCreateCqM, &a, nullptr, 0, f);
	EXPECT_EQ(ids(f), (std::vector<uint16_t>{
				  OVB_ATTR_CREATE_CQ_HANDLE,
				  OVB_ATTR_CREATE_CQ_RESP_CQE,
				  OVB_ATTR_CREATE_CQ_CQE,
				  OVB_ATTR_CREATE_CQ_USER_HANDLE,
				  OVB_ATTR_CREATE_CQ_COMP_VECTOR,
				  OVB_ATTR_CREATE_CQ_EVENT_FD}));
	EXPECT_EQ(f.attrs()[2].len, 4u);	// u32 inline
	uint32_t cqe;
	std::memcpy(&cqe, &f.attrs()[2].data, 4);
	EXPECT_EQ(cqe, 64u);
	EXPECT_EQ(f.attrs()[3].data, 0x1122334455667788u);
	EXPECT_EQ(f.attrs()[5].data, 5u);
	EXPECT_EQ(f.attrs()[5].flags, 0u);	// optional: write() fallback stays possible

	a.channel = 9;
	a.flags = 1;
	a.has_flags = true;
	uint64_t drv[4];
	ovb_udata ud{nullptr, 0, drv, sizeof(drv)};
	encode(kCreateCqM, &a, &ud, 0, f);
	ASSERT_EQ(f.hdr().num_attrs, 9u);
	EXPECT_EQ(f.attrs()[4].attr_id, OVB_ATTR_CREATE_CQ_COMP_CHANNEL);
	EXPECT_EQ(f.attrs()[4].data, 9u);
	EXPECT_EQ(f.attrs()[7].attr_id, OVB_ATTR_CREATE_CQ_FLAGS);
	EXPECT_EQ(f.attrs()[8].attr_id, OVB_ATTR_UHW_OUT);
	EXPECT_EQ(f.attrs()[8].len, sizeof(drv));
	EXPECT_EQ(f.attrs()[8].data, reinterpret_cast<uintptr_t>(drv));
}

TEST(IoctlEncode, PointerAboveEightBytesInlineBelow)
{
	CreateQp a{};
	a.has_pd = a.has_send_cq = a.has_recv_cq = true;
	a.type = IBV_QPT_RC;
	a.event_fd = 3;
	Frame f;
	encode(kCreateQpM, &a, nullptr, 0, f);
	EXPECT_EQ(ids(f), (std::vector<uint16_t>{
				  OVB_ATTR_CREATE_QP_PD_HANDLE,
				  OVB_ATTR_CREATE_QP_SEND_CQ_HANDLE,
				  OVB_ATTR_CREATE_QP_RECV_CQ_HANDLE,
				  OVB_ATTR_CREATE_QP_HANDLE,
				  OVB_ATTR_CREATE_QP_TYPE,
				  OVB_ATTR_CREATE_QP_USER_HANDLE,
				  OVB_ATTR_CREATE_QP_CAP,
				  OVB_ATTR_CREATE_QP_EVENT_FD,
				  OVB_ATTR_CREATE_QP_RESP_CAP,
				  OVB_ATTR_CREATE_QP_RESP_QP_NUM}));
	EXPECT_EQ(f.attrs()[4].len, 8u);	// CONST_IN is a u64
	EXPECT_EQ(f.attrs()[4].data, uint64_t{IBV_QPT_RC});
	EXPECT_EQ(f.attrs()[6].len, sizeof(ovb_qp_cap));
	EXPECT_EQ(f.attrs()[6].data, reinterpret_cast<uintptr_t>(&a.cap));
}

TEST(IoctlDecode, NewHandlesAndFdsComeBack)
{
	CreateCq a{};
	a.channel = -1;
	a.event_fd = -1;
	Frame f;
	encode(kCreateCqM, &a, nullptr, 0, f);
	f.attrs()[0].data = 42;		// what the kernel writes
	decode(kCreateCqM, &a, f);
	EXPECT_EQ(a.handle, 42u);

	AsyncAlloc b{};
	encode(kAsyncAllocM, &b, nullptr, 0, f);
	f.attrs()[0].data = 11;
	decode(kAsyncAllocM, &b, f);
	EXPECT_EQ(b.fd, 11);
}

TEST(IoctlEncode, InvokeWrite)
{
	ovb_reg_mr_req req{};
	ovb_reg_mr_resp resp{};
	uint64_t drv_in = 0xabcdef;
	ovb_udata ud{&drv_in, sizeof(drv_in), nullptr, 0};
	Frame f;
	encode_write(OVB_CMD_REG_MR, &req, sizeof(req), &resp, sizeof(resp), &ud,
		     16, f);
	EXPECT_EQ(f.hdr().object_id, OVB_OBJECT_DEVICE);
	EXPECT_EQ(f.hdr().method_id, OVB_METHOD_INVOKE_WRITE);
	EXPECT_EQ(ids(f), (std::vector<uint16_t>{OVB_ATTR_WRITE_CMD,
						 OVB_ATTR_CORE_IN,
						 OVB_ATTR_CORE_OUT,
						 OVB_ATTR_UHW_IN}));
	EXPECT_EQ(f.attrs()[0].len, 8u);
	EXPECT_EQ(f.attrs()[0].data, uint64_t{OVB_CMD_REG_MR});
	EXPECT_EQ(f.attrs()[1].len, sizeof(req));
	EXPECT_EQ(f.attrs()[1].data, reinterpret_cast<uintptr_t>(&req));
	EXPECT_EQ(f.attrs()[3].data, 0xabcdefu);	// small udata inline
	for (unsigned i = 0; i < f.hdr().num_attrs; i++)
		EXPECT_EQ(f.attrs()[i].flags, OVB_ATTR_F_MANDATORY);
}

TEST(IoctlTables, AttributesFitAndAreUnique)
{
	const Method *all[] = {
		&kGetContextM, &kAsyncAllocM, &kQueryPortM, &kQueryGidEntryM,
		&kQueryGidTableM, &kCreateCqM, &kDestroyCqM, &kCreateQpM,
		&kDestroyQpM, &kCreateSrqM, &kDestroySrqM, &kDestroyWqM,
		&kDeallocPdM, &kDeregMrM, &kDeallocMwM, &kDestroyAhM,
		&kCloseXrcdM, &kDestroyRwqIndTblM, &kDestroyFlowM,
	};
	for (const Method *m : all) {
		EXPECT_LE(m->attrs.size() + 2, kMaxAttrs) << m->name;
		for (size_t i = 0; i < m->attrs.size(); i++)
			for (size_t j = i + 1; j < m->attrs.size(); j++)
				EXPECT_NE(m->attrs[i].id, m->attrs[j].id) << m->name;
	}
}
