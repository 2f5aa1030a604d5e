// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// openverbs: a thin C++20 face of libibverbs.  Header only, over the C API
// of any libibverbs.so.1 (ours or rdma-core's).
//
// - Every object is a move-only RAII handle (std::unique_ptr with the
//   verbs destroy function as deleter); .get() gives the C pointer, so the
//   whole C API stays at hand.  Destroy children before parents, as in C:
//   declaring them after their parent does that.
// - Errors: control-path calls throw openverbs::Error (a std::system_error
//   carrying the errno).  They fail rarely, mostly at set-up, where an
//   exception with the verb's name is the clearest report, and C++20 has no
//   std::expected to return instead.  The data path (post_*, poll) never
//   throws: it returns the errno or a count, as the C inline functions do.
// - Buffers are std::span.
#pragma once

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>

namespace openverbs {

class Error : public std::system_error {
public:
	Error(int err, const char *what)
		: std::system_error(err ? err : EIO, std::generic_category(), what) {}
};

namespace detail {

// Verbs return 0 or an errno, or -1 with errno set.
inline void check(int rc, const char *what)
{
	if (rc)
		throw Error(rc > 0 ? rc : errno, what);
}

template <class T>
T *check(T *p, const char *what)
{
	if (!p)
		throw Error(errno, what);
	return p;
}

template <auto Destroy>
struct Deleter {
	template <class T>
	void operator()(T *p) const noexcept
	{
		if (p)
			Destroy(p);
	}
};

template <class T, auto Destroy>
class Handle {
public:
	Handle() = default;
	explicit Handle(T *p) : p_(p) {}
	T *get() const { return p_.get(); }
	T *operator->() const { return p_.get(); }
	explicit operator bool() const { return p_ != nullptr; }

private:
	std::unique_ptr<T, Deleter<Destroy>> p_;
};

inline void destroy_ah(ibv_ah *ah) { ibv_destroy_ah(ah); }
inline void dereg_mr(ibv_mr *mr) { ibv_dereg_mr(mr); }
inline void dealloc_mw(ibv_mw *mw) { ibv_dealloc_mw(mw); }

} // namespace detail

class Mr : public detail::Handle<ibv_mr, detail::dereg_mr> {
public:
	using Handle::Handle;
	uint32_t lkey() const { return get()->lkey; }
	uint32_t rkey() const { return get()->rkey; }
	std::span<std::byte> bytes() const
	{
		return {static_cast<std::byte *>(get()->addr), get()->length};
	}
	// A scatter/gather entry for part of the region.
	ibv_sge sge(size_t offset, uint32_t length) const
	{
		return {reinterpret_cast<uintptr_t>(get()->addr) + offset, length, lkey()};
	}
};

class Cq : public detail::Handle<ibv_cq, ibv_destroy_cq> {
public:
	using Handle::Handle;
	// Completions into wcs; the count, or a negative value on error.
	int poll(std::span<ibv_wc> wcs) const noexcept
	{
		return ibv_poll_cq(get(), static_cast<int>(wcs.size()), wcs.data());
	}
	void req_notify(bool solicited_only = false) const
	{
		detail::check(ibv_req_notify_cq(get(), solicited_only), "ibv_req_notify_cq");
	}
	void ack_events(unsigned n) const { ibv_ack_cq_events(get(), n); }
};

class CompChannel : public detail::Handle<ibv_comp_channel, ibv_destroy_comp_channel> {
public:
	using Handle::Handle;
	int fd() const { return get()->fd; }
	// Blocks until a CQ of this channel has a completion event.
	ibv_cq *wait() const
	{
		ibv_cq *cq;
		void *ctx;
		detail::check(ibv_get_cq_event(get(), &cq, &ctx), "ibv_get_cq_event");
		return cq;
	}
};

class Qp : public detail::Handle<ibv_qp, ibv_destroy_qp> {
public:
	using Handle::Handle;
	uint32_t num() const { return get()->qp_num; }
	void modify(ibv_qp_attr &attr, int mask) const
	{
		detail::check(ibv_modify_qp(get(), &attr, mask), "ibv_modify_qp");
	}
	int post_send(ibv_send_wr &wr) const noexcept
	{
		ibv_send_wr *bad;
		return ibv_post_send(get(), &wr, &bad);
	}
	int post_recv(ibv_recv_wr &wr) const noexcept
	{
		ibv_recv_wr *bad;
		return ibv_post_recv(get(), &wr, &bad);
	}
	// One signaled send / one receive of a single SGE.
	int send(const ibv_sge &sge, uint64_t wr_id,
		 ibv_wr_opcode op = IBV_WR_SEND) const noexcept
	{
		ibv_sge s = sge;
		ibv_send_wr wr{};
		wr.wr_id = wr_id;
		wr.sg_list = &s;
		wr.num_sge = 1;
		wr.opcode = op;
		wr.send_flags = IBV_SEND_SIGNALED;
		return post_send(wr);
	}
	int recv(const ibv_sge &sge, uint64_t wr_id) const noexcept
	{
		ibv_sge s = sge;
		ibv_recv_wr wr{};
		wr.wr_id = wr_id;
		wr.sg_list = &s;
		wr.num_sge = 1;
		return post_recv(wr);
	}
};

class Srq : public detail::Handle<ibv_srq, ibv_destroy_srq> {
public:
	using Handle::Handle;
	int post_recv(ibv_recv_wr &wr) const noexcept
	{
		ibv_recv_wr *bad;
		return ibv_post_srq_recv(get(), &wr, &bad);
	}
};

using Ah = detail::Handle<ibv_ah, detail::destroy_ah>;
using Mw = detail::Handle<ibv_mw, detail::dealloc_mw>;

class Pd : public detail::Handle<ibv_pd, ibv_dealloc_pd> {
public:
	using Handle::Handle;
	Mr reg_mr(std::span<std::byte> buf, int access) const
	{
		return Mr(detail::check(ibv_reg_mr(get(), buf.data(), buf.size(), access),
					"ibv_reg_mr"));
	}
	Qp create_qp(ibv_qp_init_attr &attr) const
	{
		return Qp(detail::check(ibv_create_qp(get(), &attr), "ibv_create_qp"));
	}
	Srq create_srq(ibv_srq_init_attr &attr) const
	{
		return Srq(detail::check(ibv_create_srq(get(), &attr), "ibv_create_srq"));
	}
	Ah create_ah(ibv_ah_attr &attr) const
	{
		return Ah(detail::check(ibv_create_ah(get(), &attr), "ibv_create_ah"));
	}
	Mw alloc_mw(ibv_mw_type type) const
	{
		return Mw(detail::check(ibv_alloc_mw(get(), type), "ibv_alloc_mw"));
	}
};

class Context : public detail::Handle<ibv_context, ibv_close_device> {
public:
	using Handle::Handle;
	static Context open(ibv_device *dev)
	{
		return Context(detail::check(ibv_open_device(dev), "ibv_open_device"));
	}
	ibv_device_attr query_device() const
	{
		ibv_device_attr a{};
		detail::check(ibv_query_device(get(), &a), "ibv_query_device");
		return a;
	}
	ibv_port_attr query_port(uint8_t port) const
	{
		ibv_port_attr a{};
		detail::check(ibv_query_port(get(), port, &a), "ibv_query_port");
		return a;
	}
	ibv_gid query_gid(uint8_t port, int index) const
	{
		ibv_gid g{};
		detail::check(ibv_query_gid(get(), port, index, &g), "ibv_query_gid");
		return g;
	}
	Pd alloc_pd() const
	{
		return Pd(detail::check(ibv_alloc_pd(get()), "ibv_alloc_pd"));
	}
	CompChannel create_comp_channel() const
	{
		return CompChannel(detail::check(ibv_create_comp_channel(get()),
						 "ibv_create_comp_channel"));
	}
	Cq create_cq(int cqe, const CompChannel *ch = nullptr, int vector = 0) const
	{
		return Cq(detail::check(ibv_create_cq(get(), cqe, nullptr,
						      ch ? ch->get() : nullptr, vector),
					"ibv_create_cq"));
	}
};

class DeviceList {
public:
	DeviceList()
	{
		list_ = detail::check(ibv_get_device_list(&n_), "ibv_get_device_list");
	}
	~DeviceList() { ibv_free_device_list(list_); }
	DeviceList(const DeviceList &) = delete;
	DeviceList &operator=(const DeviceList &) = delete;
	ibv_device **begin() const { return list_; }
	ibv_device **end() const { return list_ + n_; }
	size_t size() const { return static_cast<size_t>(n_); }
	// The device called name, or the first one when name is empty.
	ibv_device *find(std::string_view name = {}) const
	{
		for (ibv_device *d : *this)
			if (name.empty() || name == ibv_get_device_name(d))
				return d;
		throw Error(ENODEV, "no such RDMA device");
	}

private:
	ibv_device **list_ = nullptr;
	int n_ = 0;
};

} // namespace openverbs
