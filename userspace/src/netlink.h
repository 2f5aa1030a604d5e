// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A minimal RDMA netlink (NETLINK_RDMA, the "nldev" client) requester: the
// device dump, the uverbs char device of one device, the system attributes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ovb::netlink {

struct Device {
	uint32_t index;
	std::string name;
	uint32_t num_ports;
	uint64_t node_guid;	// host order
	uint8_t node_type;	// the kernel's RDMA_NODE_*
};

struct Chardev {
	dev_t devnum;
	uint64_t abi;
	std::string name;	// "uverbsN"
	uint32_t driver_id;	// OVB_DRIVER_UNKNOWN (0) when not sent
};

class Socket {
public:
	// nullopt when NETLINK_RDMA cannot be opened (errno set).
	static std::optional<Socket> open();
	Socket(Socket &&o) noexcept : fd_(o.fd_), seq_(o.seq_) { o.fd_ = -1; }
	Socket(const Socket &) = delete;
	Socket &operator=(const Socket &) = delete;
	~Socket();

	// 0, or a positive errno when the dump failed.
	int devices(std::vector<Device> &out);
	int chardev(uint32_t dev_index, const char *type, Chardev &out);
	// RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK; nullopt when not reported.
	std::optional<bool> copy_on_fork();

private:
	explicit Socket(int fd) : fd_(fd) {}
	int fd_;
	uint32_t seq_ = 0;
};

} // namespace ovb::netlink
