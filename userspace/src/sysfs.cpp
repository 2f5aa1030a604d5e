// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "sysfs.h"

#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <unistd.h>

#include "export.h"

namespace ovb::sysfs {

const char *root()
{
	static std::string path;
	static std::once_flag once;

	std::call_once(once, [] {
		const char *env = getuid() == geteuid() ? getenv("SYSFS_PATH")
							: nullptr;
		path = env ? env : "/sys";
		while (path.size() > 1 && path.back() == '/')
			path.pop_back();
	});
	return path.c_str();
}

int read(const std::string &path, char *buf, size_t size)
{
	int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t len = ::read(fd, buf, size);
	int saved = errno;
	close(fd);
	errno = saved;
	if (len <= 0)
		return static_cast<int>(len);
	if (buf[len - 1] == '\n')
		buf[--len] = '\0';
	else if (static_cast<size_t>(len) < size)
		buf[len] = '\0';
	else
		return -1;	// would have to truncate
	return static_cast<int>(len);
}

int read(const char *dir, const char *file, char *buf, size_t size)
{
	return read(std::string(dir) + "/" + file, buf, size);
}

bool read_ulong(const std::string &path, unsigned long &value, int base)
{
	char buf[32];
	if (read(path, buf, sizeof(buf)) <= 0)
		return false;
	value = std::strtoul(buf, nullptr, base);
	return true;
}

} // namespace ovb::sysfs

OVB_EXPORT const char *ibv_get_sysfs_path(void)
try {
	return ovb::sysfs::root();
} OVB_ABI_CATCH

OVB_EXPORT int ibv_read_sysfs_file(const char *dir, const char *file,
				   char *buf, size_t size)
try {
	return ovb::sysfs::read(dir, file, buf, size);
} OVB_ABI_CATCH
