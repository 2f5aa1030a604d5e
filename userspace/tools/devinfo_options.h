// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ovb-devinfo's command line: ibv_devinfo's options (-d/--ib-dev,
// -i/--ib-port, -l/--list, -v/--verbose) plus -h/--help, parsed with
// getopt_long.  Apart from main() so it is unit-tested.
#pragma once

#include <string>

namespace ovb::devinfo {

struct Options {
	enum class Action { show, list, help, bad_usage } action = Action::show;
	std::string device;	// empty: every device
	int port = 0;		// 0: every port
	bool verbose = false;
	std::string error;	// for bad_usage
};

// Reads argv with getopt_long (restarting its scan, so it can be called
// more than once); argv is permuted as getopt_long does.
Options parse(int argc, char **argv);

extern const char kUsage[];	// printf format, %s: the program name

} // namespace ovb::devinfo
