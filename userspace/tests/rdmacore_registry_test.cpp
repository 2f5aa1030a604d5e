// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core providers under our library: the OPENVERBS_PROVIDERS setting,
// the match table rules of rdma-core 44 (driver id before names, PCI ids
// and modaliases through fnmatch, the ABI window) and the udata split of a
// provider's command buffers.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "rdmacore/registry.h"
#include "rdmacore/udata.h"

using namespace ovb::rdmacore;
namespace fs = std::filesystem;

TEST(RdmaCoreFamilies, DefaultIsOursFirstThenRdmaCore)
{
	Families f = parse_families(nullptr);
	EXPECT_TRUE(f.ours);
	EXPECT_TRUE(f.rdmacore);
	EXPECT_FALSE(f.rdmacore_first);
}

TEST(RdmaCoreFamilies, ListsChooseAndOrder)
{
	Families only = parse_families("rdma-core");
	EXPECT_FALSE(only.ours);
	EXPECT_TRUE(only.rdmacore);
	Families first = parse_families("rdma-core,openverbs");
	EXPECT_TRUE(first.ours && first.rdmacore && first.rdmacore_first);
	Families ours = parse_families("openverbs");
	EXPECT_TRUE(ours.ours);
	EXPECT_FALSE(ours.rdmacore);
	testing::internal::CaptureStderr();
	Families junk = parse_families("nonsense");
	std::string err = testing::internal::GetCapturedStderr();
	EXPECT_TRUE(junk.ours && junk.rdmacore);	// back to the default
	EXPECT_NE(err.find("unknown family 'nonsense'"), std::string::npos);
}

namespace {

const MatchEnt kTable[] = {
	{nullptr, {.modalias = "rdma_device:*Nfoo*"}, 0, 0, kMatchModalias},
	{nullptr, {.modalias = nullptr}, 0x15b3, 0x1017, kMatchPci},
	{nullptr, {.driver_id = 7}, 0, 0, kMatchDriverId},
	{},
};

DeviceOps ops_with(const MatchEnt *table)
{
	DeviceOps o{};
	o.name = "test";
	o.match_table = table;
	return o;
}

SysfsDev dev_named(const char *name, uint32_t driver_id)
{
	SysfsDev d{};
	std::snprintf(d.ibdev_name, sizeof(d.ibdev_name), "%s", name);
	std::snprintf(d.ibdev_path, sizeof(d.ibdev_path), "/nonexistent/%s", name);
	d.driver_id = driver_id;
	return d;
}

} // namespace

TEST(RdmaCoreMatch, DriverIdFirstThenName)
{
	DeviceOps o = ops_with(kTable);
	SysfsDev by_id = dev_named("foo0", 7);
	EXPECT_EQ(table_match(o, by_id, true), &kTable[2]);
	SysfsDev by_name = dev_named("foo0", 3);
	EXPECT_EQ(table_match(o, by_name, true), nullptr);
	EXPECT_EQ(table_match(o, by_name, false), &kTable[0]);
	SysfsDev other = dev_named("bar0", 0);
	EXPECT_EQ(table_match(o, other, false), nullptr);
}

TEST(RdmaCoreMatch, PciIdsThroughModalias)
{
	char tmpl[] = "/tmp/ovb-rc-XXXXXX";
	fs::path dir = mkdtemp(tmpl);
	fs::create_directories(dir / "device");
	std::ofstream(dir / "device" / "modalias")
		<< "pci:v000015B3d00001017sv000015B3sd00000020bc02sc00i00\n";
	DeviceOps o = ops_with(kTable);
	SysfsDev d = dev_named("mlx5_0", 0);
	std::snprintf(d.ibdev_path, sizeof(d.ibdev_path), "%s", dir.c_str());
	EXPECT_EQ(table_match(o, d, false), &kTable[1]);
	EXPECT_TRUE(d.flags & kSysfsReadModalias);
	std::ofstream(dir / "device" / "modalias")
		<< "pci:v000015B3d00001018sv000015B3sd00000020bc02sc00i00\n";
	SysfsDev e = dev_named("mlx5_1", 0);
	std::snprintf(e.ibdev_path, sizeof(e.ibdev_path), "%s", dir.c_str());
	EXPECT_EQ(table_match(o, e, false), nullptr);
	fs::remove_all(dir);
}

// rxe's create_qp: DECLARE_DRV_CMD puts the driver's request after the
// 8-byte header and the kernel's 56-byte core request, its response after
// the kernel's 32 bytes.
TEST(RdmaCoreUdata, DriverPartsFollowTheCoreStructs)
{
	alignas(8) unsigned char cmd[8 + sizeof(ovb_create_qp_req) + 16] = {};
	alignas(8) unsigned char resp[sizeof(ovb_create_qp_resp) + 32] = {};
	static_assert(sizeof(ovb_create_qp_req) == 56);
	static_assert(sizeof(ovb_create_qp_resp) == 32);
	ovb_udata ud = driver_udata(cmd, sizeof(cmd), kCmdHdr,
				    sizeof(ovb_create_qp_req), resp,
				    sizeof(resp), sizeof(ovb_create_qp_resp));
	EXPECT_EQ(static_cast<const unsigned char *>(ud.in), cmd + 64);
	EXPECT_EQ(ud.in_len, 16u);
	EXPECT_EQ(static_cast<unsigned char *>(ud.out), resp + 32);
	EXPECT_EQ(ud.out_len, 32u);
	ovb_udata none = driver_udata(cmd, 64, kCmdHdr, sizeof(ovb_create_qp_req),
				      resp, 32, sizeof(ovb_create_qp_resp));
	EXPECT_EQ(none.in_len, 0u);
	EXPECT_EQ(none.out_len, 0u);
	EXPECT_EQ(none.in, nullptr);
}
