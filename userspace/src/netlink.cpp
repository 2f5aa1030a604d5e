// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "netlink.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <functional>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace ovb::netlink {

namespace {

constexpr size_t kMaxAttr = RDMA_NLDEV_ATTR_MAX;
using Attrs = std::array<const nlattr *, kMaxAttr>;

constexpr uint16_t nldev_type(int op)
{
	return static_cast<uint16_t>(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op));
}

// Request builder: header plus attributes, each 4-byte aligned.
class Request {
public:
	Request(uint16_t type, uint16_t flags, uint32_t seq)
	{
		auto *h = reinterpret_cast<nlmsghdr *>(buf_.data());
		h->nlmsg_type = type;
		h->nlmsg_flags = static_cast<uint16_t>(NLM_F_REQUEST | flags);
		h->nlmsg_seq = seq;
		len_ = NLMSG_HDRLEN;
	}
	void put(uint16_t type, const void *data, size_t n)
	{
		auto *a = reinterpret_cast<nlattr *>(buf_.data() + len_);
		a->nla_type = type;
		a->nla_len = static_cast<uint16_t>(NLA_HDRLEN + n);
		std::memcpy(buf_.data() + len_ + NLA_HDRLEN, data, n);
		len_ += NLA_ALIGN(NLA_HDRLEN + n);
	}
	const void *data()
	{
		reinterpret_cast<nlmsghdr *>(buf_.data())->nlmsg_len =
			static_cast<uint32_t>(len_);
		return buf_.data();
	}
	size_t size() const { return len_; }

private:
	alignas(4) std::array<char, 256> buf_{};
	size_t len_;
};

void parse(const nlmsghdr *h, Attrs &tb)
{
	tb.fill(nullptr);
	auto *a = reinterpret_cast<const nlattr *>(
		reinterpret_cast<const char *>(h) + NLMSG_HDRLEN);
	int rem = static_cast<int>(h->nlmsg_len) - NLMSG_HDRLEN;

	while (rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= rem) {
		uint16_t type = a->nla_type & NLA_TYPE_MASK;
		if (type < kMaxAttr)
			tb[type] = a;
		int step = NLA_ALIGN(a->nla_len);
		rem -= step;
		a = reinterpret_cast<const nlattr *>(
			reinterpret_cast<const char *>(a) + step);
	}
}

template <class T>
T get(const nlattr *a)
{
	T v{};
	size_t n = a->nla_len - NLA_HDRLEN;
	std::memcpy(&v, reinterpret_cast<const char *>(a) + NLA_HDRLEN,
		    n < sizeof(T) ? n : sizeof(T));
	return v;
}

std::string get_string(const nlattr *a)
{
	const char *s = reinterpret_cast<const char *>(a) + NLA_HDRLEN;
	return std::string(s, strnlen(s, a->nla_len - NLA_HDRLEN));
}

} // namespace

std::optional<Socket> Socket::open()
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (fd < 0)
		return std::nullopt;
	sockaddr_nl sa{};
	sa.nl_family = AF_NETLINK;
	if (bind(fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) < 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return std::nullopt;
	}
	return Socket(fd);
}

Socket::~Socket()
{
	if (fd_ >= 0)
		close(fd_);
}

namespace {

// Sends req and feeds every answer message to cb until DONE (dump) or the
// one answer (non-dump).  0 or a positive errno.
int transact(int fd, Request &req, uint32_t seq, bool dump,
	     const std::function<void(const Attrs &)> &cb)
{
	sockaddr_nl kernel{};
	kernel.nl_family = AF_NETLINK;
	if (sendto(fd, req.data(), req.size(), 0,
		   reinterpret_cast<sockaddr *>(&kernel), sizeof(kernel)) < 0)
		return errno;

	alignas(nlmsghdr) static thread_local std::array<char, 32768> buf;
	for (;;) {
		ssize_t n = recv(fd, buf.data(), buf.size(), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		int len = static_cast<int>(n);
		for (auto *h = reinterpret_cast<const nlmsghdr *>(buf.data());
		     NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				auto *e = static_cast<const nlmsgerr *>(NLMSG_DATA(h));
				if (e->error)
					return -e->error;
				if (!dump)
					return 0;
				continue;
			}
			Attrs tb;
			parse(h, tb);
			cb(tb);
			if (!dump)
				return 0;
		}
	}
}

} // namespace

int Socket::devices(std::vector<Device> &out)
{
	Request req(nldev_type(RDMA_NLDEV_CMD_GET), NLM_F_DUMP, ++seq_);
	bool bad = false;
	int rc = transact(fd_, req, seq_, true, [&](const Attrs &tb) {
		if (!tb[RDMA_NLDEV_ATTR_DEV_NAME] ||
		    !tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] ||
		    !tb[RDMA_NLDEV_ATTR_DEV_INDEX] ||
		    !tb[RDMA_NLDEV_ATTR_NODE_GUID] ||
		    !tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
			bad = true;
			return;
		}
		out.push_back(Device{
			.index = get<uint32_t>(tb[RDMA_NLDEV_ATTR_DEV_INDEX]),
			.name = get_string(tb[RDMA_NLDEV_ATTR_DEV_NAME]),
			.num_ports = get<uint32_t>(tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			.node_guid = get<uint64_t>(tb[RDMA_NLDEV_ATTR_NODE_GUID]),
			.node_type = get<uint8_t>(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]),
		});
	});
	return rc ? rc : bad ? EINVAL : 0;
}

int Socket::chardev(uint32_t dev_index, const char *type, Chardev &out)
{
	Request req(nldev_type(RDMA_NLDEV_CMD_GET_CHARDEV), 0, ++seq_);
	req.put(RDMA_NLDEV_ATTR_DEV_INDEX, &dev_index, sizeof(dev_index));
	req.put(RDMA_NLDEV_ATTR_CHARDEV_TYPE, type, strlen(type) + 1);
	bool found = false;
	int rc = transact(fd_, req, seq_, false, [&](const Attrs &tb) {
		if (!tb[RDMA_NLDEV_ATTR_CHARDEV] ||
		    !tb[RDMA_NLDEV_ATTR_CHARDEV_ABI] ||
		    !tb[RDMA_NLDEV_ATTR_CHARDEV_NAME])
			return;
		// The kernel sends huge_encode_dev(): minor split around major.
		uint64_t v = get<uint64_t>(tb[RDMA_NLDEV_ATTR_CHARDEV]);
		out.devnum = makedev(static_cast<unsigned>((v & 0xfff00) >> 8),
				     static_cast<unsigned>((v & 0xff) |
							   ((v >> 12) & 0xfff00)));
		out.abi = get<uint64_t>(tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]);
		out.name = get_string(tb[RDMA_NLDEV_ATTR_CHARDEV_NAME]);
		out.driver_id = tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]
			? get<uint32_t>(tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]) : 0;
		found = !out.name.empty();
	});
	return rc ? rc : found ? 0 : ENOENT;
}

std::optional<bool> Socket::copy_on_fork()
{
	Request req(nldev_type(RDMA_NLDEV_CMD_SYS_GET), 0, ++seq_);
	std::optional<bool> cof;
	if (transact(fd_, req, seq_, false, [&](const Attrs &tb) {
		    if (tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK])
			    cof = get<uint8_t>(tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]) != 0;
	    }))
		return std::nullopt;
	return cof;
}

} // namespace ovb::netlink
