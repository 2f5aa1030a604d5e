// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Provider selection: rdma-core's configuration format and the match
// rules (driver id first, then name prefix or modalias).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "providers.h"

namespace fs = std::filesystem;

TEST(ProviderConfig, ReadsDriverLinesSkipsCommentsAndWarns)
{
	char tmpl[] = "/tmp/ovb-conf-XXXXXX";
	fs::path dir = mkdtemp(tmpl);
	std::ofstream(dir / "rxe.driver") << "# Soft-RoCE\ndriver rxe\n\n";
	std::ofstream(dir / "bad.driver") << "provider foo\n";
	fs::create_directory(dir / "subdir");
	testing::internal::CaptureStderr();
	auto names = ovb::read_config_dir(dir.c_str());
	std::string err = testing::internal::GetCapturedStderr();
	fs::remove_all(dir);
	ASSERT_EQ(names.size(), 1u);
	EXPECT_EQ(names[0], "rxe");
	EXPECT_NE(err.find("libibverbs: Warning: ignoring bad config directive 'provider' in file"),
		  std::string::npos) << err;
}

TEST(ProviderConfig, MissingDirectoryWarnsAsLibibverbs)
{
	testing::internal::CaptureStderr();
	auto names = ovb::read_config_dir("/nonexistent/ovb");
	std::string err = testing::internal::GetCapturedStderr();
	EXPECT_TRUE(names.empty());
	EXPECT_EQ(err, "libibverbs: Warning: couldn't open config directory '/nonexistent/ovb'.\n");
}

TEST(ProviderConfig, DriverListSplitsOnColonAndSemicolon)
{
	auto v = ovb::split_driver_list("rxe:siw;mlx5");
	ASSERT_EQ(v.size(), 3u);
	EXPECT_EQ(v[0], "rxe");
	EXPECT_EQ(v[1], "siw");
	EXPECT_EQ(v[2], "mlx5");
}

namespace {

const ovb_match kTable[] = {
	{OVB_MATCH_DRIVER_ID, 16, nullptr},
	{OVB_MATCH_NAME_PREFIX, 0, "rxe"},
	{OVB_MATCH_MODALIAS, 0, "pci:v000015B3d00001017sv*"},
	{OVB_MATCH_END, 0, nullptr},
};
const ovb_provider kProv = {OVB_PROVIDER_ABI_VERSION, "test", 1, 2, kTable, nullptr};

ovb::KernelDevice dev(const char *name, uint32_t driver_id)
{
	ovb::KernelDevice d;
	d.ibdev_name = name;
	d.driver_id = driver_id;
	return d;
}

} // namespace

TEST(ProviderMatch, DriverIdOnlyInTheIdPass)
{
	EXPECT_TRUE(ovb::provider_matches(kProv, dev("foo0", 16), true, ""));
	EXPECT_FALSE(ovb::provider_matches(kProv, dev("foo0", 16), false, ""));
	EXPECT_FALSE(ovb::provider_matches(kProv, dev("foo0", 0), true, ""));
}

TEST(ProviderMatch, NamePrefixAndModalias)
{
	EXPECT_TRUE(ovb::provider_matches(kProv, dev("rxe0", 0), false, ""));
	EXPECT_TRUE(ovb::provider_matches(kProv, dev("rxe_eth0", 0), false, ""));
	EXPECT_FALSE(ovb::provider_matches(kProv, dev("siw0", 0), false, ""));
	EXPECT_TRUE(ovb::provider_matches(kProv, dev("mlx5_0", 0), false,
					  "pci:v000015B3d00001017sv000015B3sd00000020bc02sc00i00"));
	EXPECT_FALSE(ovb::provider_matches(kProv, dev("mlx5_0", 0), false,
					   "pci:v000015B3d00001018sv000015B3sd00000020bc02sc00i00"));
}
