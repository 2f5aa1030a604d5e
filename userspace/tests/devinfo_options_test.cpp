// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ovb-devinfo's option parser (tools/devinfo_options.h): ibv_devinfo's
// short and long options, and what it refuses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "devinfo_options.h"

using ovb::devinfo::Options;

namespace {

Options run(std::vector<std::string> args)
{
	args.insert(args.begin(), "ovb-devinfo");
	std::vector<char *> argv;
	for (std::string &a : args)
		argv.push_back(a.data());
	argv.push_back(nullptr);
	return ovb::devinfo::parse(static_cast<int>(args.size()), argv.data());
}

TEST(DevinfoOptions, ShortOptions)
{
	Options o = run({"-d", "rxe0", "-i", "1", "-v"});
	EXPECT_EQ(o.action, Options::Action::show);
	EXPECT_EQ(o.device, "rxe0");
	EXPECT_EQ(o.port, 1);
	EXPECT_TRUE(o.verbose);
	o = run({"-drxe1", "-vi2"});
	EXPECT_EQ(o.device, "rxe1");
	EXPECT_EQ(o.port, 2);
	EXPECT_TRUE(o.verbose);
}

TEST(DevinfoOptions, LongOptions)
{
	Options o = run({"--ib-dev=siw0", "--ib-port", "1", "--verbose"});
	EXPECT_EQ(o.device, "siw0");
	EXPECT_EQ(o.port, 1);
	EXPECT_TRUE(o.verbose);
	EXPECT_EQ(run({"--list"}).action, Options::Action::list);
	EXPECT_EQ(run({"-l"}).action, Options::Action::list);
	EXPECT_EQ(run({"--help"}).action, Options::Action::help);
	EXPECT_EQ(run({"-h", "-x"}).action, Options::Action::help);
	EXPECT_EQ(run({"--ib"}).device, "");	// ambiguous prefix: refused
	EXPECT_EQ(run({"--ib"}).action, Options::Action::bad_usage);
	EXPECT_EQ(run({"--verb"}).verbose, true);	// unique prefix
}

TEST(DevinfoOptions, Refusals)
{
	Options o = run({"-x"});
	EXPECT_EQ(o.action, Options::Action::bad_usage);
	EXPECT_EQ(o.error, "unknown option '-x'");
	o = run({"-d"});
	EXPECT_EQ(o.action, Options::Action::bad_usage);
	EXPECT_EQ(o.error, "option '-d' needs a value");
	for (const char *bad : {"0", "-1", "x", "1x", "", "256"}) {
		o = run({"-i", bad});
		EXPECT_EQ(o.action, Options::Action::bad_usage) << bad;
	}
	EXPECT_EQ(run({"-i", "0x2"}).port, 2);	// strtol base 0, as ibv_devinfo
	o = run({"rxe0"});
	EXPECT_EQ(o.action, Options::Action::bad_usage);
	EXPECT_EQ(o.error, "unexpected argument 'rxe0'");
}

TEST(DevinfoOptions, ParsesTwice)
{
	EXPECT_EQ(run({"-v"}).verbose, true);
	EXPECT_EQ(run({"-d", "a"}).device, "a");
	EXPECT_EQ(run({}).verbose, false);
}

} // namespace
