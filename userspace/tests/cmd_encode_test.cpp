// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Command framing, byte for byte, against the kernel's rules (see the
// comment block of uapi/openverbs/uverbs-abi.h).
#include <gtest/gtest.h>

#include <array>
#include <cstring>

#include "cmd/encode.h"

using namespace ovb::cmd;

namespace {

template <class T>
std::span<const std::byte> bytes(const T &v)
{
	return {reinterpret_cast<const std::byte *>(&v), sizeof(v)};
}

template <class T>
T at(const std::array<std::byte, 256> &buf, size_t off)
{
	T v;
	std::memcpy(&v, buf.data() + off, sizeof(v));
	return v;
}

} // namespace

TEST(CommandTable, EveryEntryIsUniqueAndSized)
{
	for (size_t i = 0; i < std::size(kCommands); i++) {
		EXPECT_GT(kCommands[i].req_size, 0u) << kCommands[i].name;
		for (size_t j = i + 1; j < std::size(kCommands); j++)
			EXPECT_FALSE(kCommands[i].id == kCommands[j].id &&
				     kCommands[i].framing == kCommands[j].framing)
				<< kCommands[i].name;
	}
	EXPECT_EQ(spec<OVB_CMD_CREATE_CQ>().req_size, 32u);
	EXPECT_EQ(spec<OVB_CMD_CREATE_QP>().resp_size, 32u);
	EXPECT_EQ(spec<OVB_CMD_QUERY_PORT>().resp_size, 40u);
	EXPECT_EQ((spec<OVB_EX_CMD_QUERY_DEVICE, Framing::extended>().req_size), 8u);
}

TEST(Encode, LegacyHeaderCountsFourByteWordsIncludingItself)
{
	ovb_alloc_pd_req req{};
	uint8_t drv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	Message m{bytes(req), {reinterpret_cast<std::byte *>(drv), 8},
		  0x1122334455667788ull, sizeof(ovb_alloc_pd_resp), 16};
	std::array<std::byte, 256> buf{};
	size_t n = encode(spec<OVB_CMD_ALLOC_PD>(), m, buf);

	ASSERT_EQ(n, 8u + 8u + 8u);
	auto hdr = at<ovb_cmd_hdr>(buf, 0);
	EXPECT_EQ(hdr.command, uint32_t(OVB_CMD_ALLOC_PD));
	EXPECT_EQ(hdr.in_words, 6u);
	EXPECT_EQ(hdr.out_words, (4u + 16u) / 4u);
	// The response address is patched into the request's first u64.
	EXPECT_EQ(at<uint64_t>(buf, 8), 0x1122334455667788ull);
	EXPECT_EQ(std::memcmp(buf.data() + 16, drv, 8), 0);
}

TEST(Encode, LegacyWithoutResponseKeepsTheRequest)
{
	ovb_dealloc_pd_req req{.pd_handle = 7};
	Message m{bytes(req), {}, 0xdead, 0, 0};
	std::array<std::byte, 256> buf{};
	ASSERT_EQ(encode(spec<OVB_CMD_DEALLOC_PD>(), m, buf), 12u);
	EXPECT_EQ(at<ovb_cmd_hdr>(buf, 0).in_words, 3u);
	EXPECT_EQ(at<ovb_cmd_hdr>(buf, 0).out_words, 0u);
	EXPECT_EQ(at<uint32_t>(buf, 8), 7u);
}

TEST(Encode, ExtendedCountsEightByteWordsWithoutHeaders)
{
	ovb_ex_query_device_req req{};
	Message m{bytes(req), {}, 0xabcdef00, sizeof(ovb_ex_query_device_resp), 0};
	std::array<std::byte, 256> buf{};
	size_t n = encode(spec<OVB_EX_CMD_QUERY_DEVICE, Framing::extended>(), m, buf);

	ASSERT_EQ(n, 8u + 16u + 8u);
	auto hdr = at<ovb_cmd_hdr>(buf, 0);
	EXPECT_EQ(hdr.command, OVB_CMD_FLAG_EXTENDED | OVB_EX_CMD_QUERY_DEVICE);
	EXPECT_EQ(hdr.in_words, 1u);
	EXPECT_EQ(hdr.out_words, sizeof(ovb_ex_query_device_resp) / 8);
	auto ex = at<ovb_ex_cmd_hdr>(buf, 8);
	EXPECT_EQ(ex.response, 0xabcdef00u);
	EXPECT_EQ(ex.provider_in_words, 0u);
	EXPECT_EQ(ex.provider_out_words, 0u);
	EXPECT_EQ(ex.cmd_hdr_reserved, 0u);
}

TEST(Encode, ExtendedWithoutResponseHasNoAddress)
{
	ovb_ex_modify_cq_req req{};
	Message m{bytes(req), {}, 0x1234, 0, 0};
	std::array<std::byte, 256> buf{};
	ASSERT_NE(encode(spec<OVB_EX_CMD_MODIFY_CQ, Framing::extended>(), m, buf), 0u);
	EXPECT_EQ(at<ovb_ex_cmd_hdr>(buf, 8).response, 0u);
}

TEST(Encode, RejectsWhatTheKernelCannotFrame)
{
	ovb_alloc_pd_req req{};
	uint8_t odd[6] = {};
	std::array<std::byte, 256> buf{};
	Message bad_drv{bytes(req), {reinterpret_cast<std::byte *>(odd), 6}, 0, 4, 0};
	EXPECT_EQ(encode(spec<OVB_CMD_ALLOC_PD>(), bad_drv, buf), 0u);

	ovb_ex_query_device_req ex{};
	Message bad_out{bytes(ex), {}, 0, 12, 0};	// not 8-byte words
	EXPECT_EQ(frame_size(spec<OVB_EX_CMD_QUERY_DEVICE, Framing::extended>(), bad_out), 0u);

	std::array<std::byte, 4> small{};
	Message ok{bytes(req), {}, 0, 4, 0};
	EXPECT_EQ(encode(spec<OVB_CMD_ALLOC_PD>(), ok, small), 0u);
}

TEST(Encode, RxeDoorbellShape)
{
	// rdma_rxe's doorbell: POST_SEND, 32 bytes, one word of response.
	ovb_post_send_req req{};
	req.wr_count = 0;
	Message m{bytes(req), {}, 0x10, sizeof(ovb_post_send_resp), 0};
	std::array<std::byte, 256> buf{};
	ASSERT_EQ(encode(spec<OVB_CMD_POST_SEND>(), m, buf), 32u);
	EXPECT_EQ(at<ovb_cmd_hdr>(buf, 0).in_words, 8u);
	EXPECT_EQ(at<ovb_cmd_hdr>(buf, 0).out_words, 1u);
}
