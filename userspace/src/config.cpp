// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Provider names from rdma-core's configuration: the config directory
// ("driver <name>" lines) and RDMAV_DRIVERS-style lists.
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "log.h"
#include "providers.h"

namespace ovb {

std::vector<std::string> read_config_dir(const char *dir, bool warn_missing)
{
	std::vector<std::string> names;
	DIR *dp = opendir(dir);
	if (!dp) {
		if (warn_missing)
			log::warning("couldn't open config directory '%s'.\n", dir);
		return names;
	}
	while (dirent *e = readdir(dp)) {
		std::string path = std::string(dir) + "/" + e->d_name;
		struct stat st;
		if (stat(path.c_str(), &st)) {
			log::warning("couldn't stat config file '%s'.\n", path.c_str());
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		std::ifstream in(path);
		if (!in) {
			log::warning("couldn't read config file %s.\n", path.c_str());
			continue;
		}
		std::string line;
		while (std::getline(in, line)) {
			std::istringstream words(line);
			std::string key, value;
			if (!(words >> key) || key[0] == '#')
				continue;
			if (key == "driver" && (words >> value))
				names.push_back(value);
			else
				log::warning("ignoring bad config directive '%s' in file '%s'.\n",
					     key.c_str(), path.c_str());
		}
	}
	closedir(dp);
	return names;
}

std::vector<std::string> split_driver_list(const char *env)
{
	std::vector<std::string> out;
	std::string cur;
	for (const char *p = env; ; p++) {
		if (*p == ':' || *p == ';' || *p == '\0') {
			out.push_back(cur);
			cur.clear();
			if (!*p)
				break;
		} else {
			cur += *p;
		}
	}
	return out;
}

} // namespace ovb
