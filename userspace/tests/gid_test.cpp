// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// GIDs, types and P_Keys read from a fake sysfs tree.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gid.h"

namespace fs = std::filesystem;

namespace {

class FakeIbdev : public ::testing::Test {
protected:
	void SetUp() override
	{
		char tmpl[] = "/tmp/ovb-gid-XXXXXX";
		root_ = mkdtemp(tmpl);
		fs::create_directories(root_ / "ports/1/gids");
		fs::create_directories(root_ / "ports/1/gid_attrs/types");
		write("ports/1/gids/0", "fe80:0000:0000:0000:5054:00ff:fe12:3456\n");
		write("ports/1/gids/1", "0000:0000:0000:0000:0000:ffff:0a00:020f\n");
		write("ports/1/gids/2", "0000:0000:0000:0000:0000:0000:0000:0000\n");
		write("ports/1/gid_attrs/types/0", "IB/RoCE v1\n");
		write("ports/1/gid_attrs/types/1", "RoCE v2\n");
		write("ports/1/gid_attrs/types/3", "RoCE v3\n");
	}
	void TearDown() override { fs::remove_all(root_); }
	void write(const char *rel, const char *text)
	{
		std::ofstream(root_ / rel) << text;
	}
	fs::path root_;
};

} // namespace

TEST(Gid, ParsesEightGroupsBigEndian)
{
	ibv_gid g;
	ASSERT_TRUE(ovb::gid::parse("fe80:0000:0000:0000:5054:00ff:fe12:3456", g));
	EXPECT_EQ(g.raw[0], 0xfe);
	EXPECT_EQ(g.raw[1], 0x80);
	EXPECT_EQ(g.raw[14], 0x34);
	EXPECT_EQ(g.raw[15], 0x56);
	EXPECT_FALSE(ovb::gid::parse("fe80::1", g));
}

TEST_F(FakeIbdev, ReadsGidsAndTypes)
{
	ibv_gid g;
	ASSERT_EQ(ovb::gid::read_gid(root_, 1, 1, g), 0);
	EXPECT_EQ(g.raw[10], 0xff);
	EXPECT_EQ(g.raw[12], 0x0a);
	EXPECT_EQ(g.raw[15], 0x0f);
	ASSERT_EQ(ovb::gid::read_gid(root_, 1, 2, g), 0);
	EXPECT_TRUE(ovb::gid::is_zero(g));
	EXPECT_NE(ovb::gid::read_gid(root_, 1, 9, g), 0);

	ovb::gid::SysfsType t;
	ASSERT_EQ(ovb::gid::read_type(root_, 1, 0, t), 0);
	EXPECT_EQ(t, ovb::gid::SysfsType::ib_roce_v1);
	ASSERT_EQ(ovb::gid::read_type(root_, 1, 1, t), 0);
	EXPECT_EQ(t, ovb::gid::SysfsType::roce_v2);
	EXPECT_EQ(ovb::gid::read_type(root_, 1, 3, t), EINVAL);
	// Missing entry while gid_attrs exists: an error, as libibverbs.
	EXPECT_EQ(ovb::gid::read_type(root_, 1, 5, t), EFAULT);
}
