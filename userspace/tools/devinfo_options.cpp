// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "devinfo_options.h"

#include <cstdlib>
#include <getopt.h>

namespace ovb::devinfo {

const char kUsage[] =
	"Usage: %s             print the ca attributes\n"
	"\n"
	"Options:\n"
	"  -d, --ib-dev=<dev>     use IB device <dev> (default: every device)\n"
	"  -i, --ib-port=<port>   use port <port> of IB device (default all ports)\n"
	"  -l, --list             print only the IB devices names\n"
	"  -v, --verbose          print all the attributes of the IB device(s)\n"
	"  -h, --help             print this help\n";

Options parse(int argc, char **argv)
{
	static const option kLong[] = {
		{"ib-dev", required_argument, nullptr, 'd'},
		{"ib-port", required_argument, nullptr, 'i'},
		{"list", no_argument, nullptr, 'l'},
		{"verbose", no_argument, nullptr, 'v'},
		{"help", no_argument, nullptr, 'h'},
		{nullptr, 0, nullptr, 0},
	};
	Options o;
	optind = 0;	// GNU: start a fresh scan
	opterr = 0;	// our own message below
	for (;;) {
		int c = getopt_long(argc, argv, ":d:i:lvh", kLong, nullptr);
		if (c == -1)
			break;
		switch (c) {
		case 'd':
			o.device = optarg;
			break;
		case 'i': {
			char *end = nullptr;
			long port = std::strtol(optarg, &end, 0);
			if (*optarg == '\0' || *end != '\0' || port <= 0 || port > 255) {
				o.action = Options::Action::bad_usage;
				o.error = std::string("invalid port '") + optarg + "'";
				return o;
			}
			o.port = static_cast<int>(port);
			break;
		}
		case 'l':
			o.action = Options::Action::list;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			o.action = Options::Action::help;
			return o;
		case ':':
			o.action = Options::Action::bad_usage;
			o.error = std::string("option '") + argv[optind - 1] + "' needs a value";
			return o;
		default:
			o.action = Options::Action::bad_usage;
			o.error = std::string("unknown option '") + argv[optind - 1] + "'";
			return o;
		}
	}
	if (optind < argc) {
		o.action = Options::Action::bad_usage;
		o.error = std::string("unexpected argument '") + argv[optind] + "'";
	}
	return o;
}

} // namespace ovb::devinfo
