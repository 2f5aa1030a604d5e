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
// - Work requests are typed (wr.hpp): Qp::post(RdmaWrite{sges, remote})
//   builds the same ibv_send_wr a C program does, inline.  QP state steps
//   take typed attributes (qp_state.hpp).  Events (completion channel,
//   async) are RAII objects that ack when they go.  The extended CQ polls
//   as a range (CqEx::poll), the extended QP posts typed requests through
//   the ibv_wr_* calls (QpEx::start).  librdmacm: rdmacm.hpp.
// - A handle can borrow a pointer it does not own (Context(p, borrow), for
//   a context librdmacm opened): it is then never destroyed by us.
#pragma once

#include <infiniband/verbs.h>
#include <openverbs/qp_state.hpp>
#include <openverbs/wr.hpp>

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
	bool owns = true;
	template <class T>
	void operator()(T *p) const noexcept
	{
		if (p && owns)
			Destroy(p);
	}
};

} // namespace detail

// Tag: a handle over a pointer someone else destroys.
struct Borrow {};
inline constexpr Borrow borrow{};

namespace detail {

template <class T, auto Destroy>
class Handle {
public:
	Handle() = default;
	explicit Handle(T *p) : p_(p) {}
	Handle(T *p, Borrow) : p_(p, Deleter<Destroy>{false}) {}
	T *get() const { return p_.get(); }
	T *operator->() const { return p_.get(); }
	explicit operator bool() const { return p_ != nullptr; }

private:
	std::unique_ptr<T, Deleter<Destroy>> p_;
};

inline void destroy_ah(ibv_ah *ah) { ibv_destroy_ah(ah); }
inline void destroy_cq_ex(ibv_cq_ex *cq) { ibv_destroy_cq(ibv_cq_ex_to_cq(cq)); }
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
	// The region (at offset) as a peer addresses it.
	Remote remote(uint64_t offset = 0) const
	{
		return {reinterpret_cast<uintptr_t>(get()->addr) + offset, rkey()};
	}
};

// One completion event of a channel; acked (ibv_ack_cq_events) when it
// goes, so the CQ can be destroyed without counting events by hand.
class CqEvent {
public:
	CqEvent(ibv_cq *cq, void *cq_context) noexcept : cq_(cq), ctx_(cq_context) {}
	CqEvent(CqEvent &&o) noexcept : cq_(std::exchange(o.cq_, nullptr)), ctx_(o.ctx_) {}
	CqEvent &operator=(CqEvent &&o) noexcept
	{
		ack();
		cq_ = std::exchange(o.cq_, nullptr);
		ctx_ = o.ctx_;
		return *this;
	}
	~CqEvent() { ack(); }
	ibv_cq *cq() const noexcept { return cq_; }
	void *cq_context() const noexcept { return ctx_; }

private:
	void ack() noexcept
	{
		if (cq_)
			ibv_ack_cq_events(std::exchange(cq_, nullptr), 1);
	}
	ibv_cq *cq_;
	void *ctx_;
};

class CompChannel : public detail::Handle<ibv_comp_channel, ibv_destroy_comp_channel> {
public:
	using Handle::Handle;
	int fd() const { return get()->fd; }
	// Blocks until a CQ of this channel has a completion event; the event
	// acks itself when it goes.
	CqEvent get_event() const
	{
		ibv_cq *cq;
		void *ctx;
		detail::check(ibv_get_cq_event(get(), &cq, &ctx), "ibv_get_cq_event");
		return {cq, ctx};
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
	// Completions into wcs (at least one), sleeping on ch while there
	// are none: poll, arm, poll again, wait for the event (acked as it
	// goes).  ch is this CQ's channel and serves no other CQ (an event of
	// another would be taken here).  Throws on a polling or channel error.
	int wait(const CompChannel &ch, std::span<ibv_wc> wcs) const
	{
		for (;;) {
			int n = poll(wcs);
			if (n == 0) {
				req_notify();
				n = poll(wcs);
			}
			if (n < 0)
				throw Error(EIO, "ibv_poll_cq");
			if (n > 0)
				return n;
			ch.get_event();
		}
	}
};

// The extended CQ (ibv_create_cq_ex): completions are read in place,
// field by field, between start_poll and end_poll.  CqEx::poll() is that
// batch as a range, ended (ibv_end_poll) when it goes:
//	for (const CqEx::Completion &c : cq.poll()) use(c.wr_id(), c.status());
// Every completion the loop reached is consumed then, also when it left
// early; one range is one pass (an input range).
class CqEx : public detail::Handle<ibv_cq_ex, detail::destroy_cq_ex> {
public:
	using Handle::Handle;
	ibv_cq *cq() const noexcept { return ibv_cq_ex_to_cq(get()); }

	// The current completion; its fields are read on demand (only those
	// the CQ was created with, wc_flags of ibv_cq_init_attr_ex).
	class Completion {
	public:
		explicit Completion(ibv_cq_ex *cq) noexcept : cq_(cq) {}
		uint64_t wr_id() const noexcept { return cq_->wr_id; }
		ibv_wc_status status() const noexcept { return cq_->status; }
		ibv_wc_opcode opcode() const noexcept { return ibv_wc_read_opcode(cq_); }
		uint32_t vendor_err() const noexcept { return ibv_wc_read_vendor_err(cq_); }
		uint32_t byte_len() const noexcept { return ibv_wc_read_byte_len(cq_); }
		__be32 imm_data() const noexcept { return ibv_wc_read_imm_data(cq_); }
		uint32_t qp_num() const noexcept { return ibv_wc_read_qp_num(cq_); }
		uint32_t src_qp() const noexcept { return ibv_wc_read_src_qp(cq_); }
		unsigned wc_flags() const noexcept { return ibv_wc_read_wc_flags(cq_); }
		uint32_t slid() const noexcept { return ibv_wc_read_slid(cq_); }
		uint8_t sl() const noexcept { return ibv_wc_read_sl(cq_); }
		uint8_t dlid_path_bits() const noexcept { return ibv_wc_read_dlid_path_bits(cq_); }
		uint64_t completion_ts() const noexcept { return ibv_wc_read_completion_ts(cq_); }

	private:
		ibv_cq_ex *cq_;
	};

	class Polling {
	public:
		explicit Polling(ibv_cq_ex *cq) noexcept : cq_(cq)
		{
			ibv_poll_cq_attr attr{};
			rc_ = ibv_start_poll(cq, &attr);
			started_ = rc_ == 0;
		}
		Polling(const Polling &) = delete;
		Polling &operator=(const Polling &) = delete;
		~Polling()
		{
			if (started_)
				ibv_end_poll(cq_);
		}
		struct End {};
		class Iterator {
		public:
			using value_type = Completion;
			using difference_type = std::ptrdiff_t;
			Iterator() = default;
			explicit Iterator(Polling *p) noexcept : p_(p) {}
			Completion operator*() const noexcept { return Completion(p_->cq_); }
			Iterator &operator++() noexcept
			{
				p_->rc_ = ibv_next_poll(p_->cq_);
				return *this;
			}
			void operator++(int) noexcept { ++*this; }
			bool operator==(End) const noexcept { return p_->rc_ != 0; }

		private:
			Polling *p_ = nullptr;
		};
		Iterator begin() noexcept { return Iterator(this); }
		End end() const noexcept { return {}; }
		// 0 when the CQ simply ran empty, else the errno that ended it.
		int error() const noexcept { return rc_ == ENOENT ? 0 : rc_; }

	private:
		ibv_cq_ex *cq_;
		int rc_;
		bool started_;
	};

	Polling poll() const noexcept { return Polling(get()); }
};

namespace detail {

// What every QP handle can do, over its ibv_qp (Q::get()).
template <class Q>
class QpOps {
public:
	uint32_t num() const { return qp()->qp_num; }
	ibv_qp_type type() const { return qp()->qp_type; }
	void modify(ibv_qp_attr &attr, int mask) const
	{
		detail::check(ibv_modify_qp(qp(), &attr, mask), "ibv_modify_qp");
	}
	// The steps RESET -> INIT -> RTR -> RTS with the masks of the QP's
	// type (qp_state.hpp), and back to ERROR or RESET.
	void to_init(const Init &s) const { step(transition(type(), s)); }
	void to_rtr(const Rtr &s) const { step(transition(type(), s)); }
	void to_rts(const Rts &s) const { step(transition(type(), s)); }
	void to_error() const { step(transition(IBV_QPS_ERR)); }
	void to_reset() const { step(transition(IBV_QPS_RESET)); }
	ibv_qp_state state() const
	{
		ibv_qp_attr a{};
		ibv_qp_init_attr init{};
		detail::check(ibv_query_qp(qp(), &a, IBV_QP_STATE, &init), "ibv_query_qp");
		return a.qp_state;
	}

	// Data path: the errno of the post, 0 on success; never throws.
	template <SendRequest W>
	int post(const W &w) const noexcept
	{
		ibv_send_wr wr = w.wr(), *bad;
		return ibv_post_send(qp(), &wr, &bad);
	}
	int post(const Recv &r) const noexcept
	{
		ibv_recv_wr wr = r.wr(), *bad;
		return ibv_post_recv(qp(), &wr, &bad);
	}
	int post_send(ibv_send_wr &wr) const noexcept
	{
		ibv_send_wr *bad;
		return ibv_post_send(qp(), &wr, &bad);
	}
	int post_recv(ibv_recv_wr &wr) const noexcept
	{
		ibv_recv_wr *bad;
		return ibv_post_recv(qp(), &wr, &bad);
	}
	// One signaled send / one receive of a single SGE.
	int send(const ibv_sge &sge, uint64_t wr_id,
		 ibv_wr_opcode op = IBV_WR_SEND) const noexcept
	{
		ibv_send_wr wr = detail::send_wr({wr_id, IBV_SEND_SIGNALED}, {&sge, 1}, op);
		return post_send(wr);
	}
	int recv(const ibv_sge &sge, uint64_t wr_id) const noexcept
	{
		return post(Recv({&sge, 1}, wr_id));
	}

private:
	ibv_qp *qp() const noexcept { return static_cast<const Q *>(this)->get(); }
	void step(Transition t) const
	{
		if (!t.mask)
			throw Error(EINVAL, "no QP state transition for this QP type");
		modify(t.attr, t.mask);
	}
};

} // namespace detail

class Qp : public detail::Handle<ibv_qp, ibv_destroy_qp>, public detail::QpOps<Qp> {
public:
	using Handle::Handle;
	using Handle::get;
};

// A batch of the extended QP's ibv_wr_* calls: started by QpEx::start(),
// typed requests added, posted by complete() (its errno); aborted if it
// goes uncompleted.
class WrBatch {
public:
	explicit WrBatch(ibv_qp_ex *q) noexcept : q_(q) { ibv_wr_start(q); }
	WrBatch(const WrBatch &) = delete;
	WrBatch &operator=(const WrBatch &) = delete;
	~WrBatch()
	{
		if (q_)
			ibv_wr_abort(q_);
	}
	template <SendRequest W>
	WrBatch &add(const W &w) noexcept
	{
		w.post_ex(q_);
		return *this;
	}
	int complete() noexcept { return ibv_wr_complete(std::exchange(q_, nullptr)); }

private:
	ibv_qp_ex *q_;
};

// A QP made with ibv_create_qp_ex and IBV_QP_INIT_ATTR_SEND_OPS_FLAGS: the
// ibv_qp_ex of it is taken at construction (a QP without send ops has
// none: Error EOPNOTSUPP, as ibv_qp_to_qp_ex answers NULL for it).
class QpEx : public Qp {
public:
	QpEx() = default;
	explicit QpEx(ibv_qp *qp) : Qp(qp), ex_(qp ? ibv_qp_to_qp_ex(qp) : nullptr)
	{
		if (qp && !ex_)
			throw Error(EOPNOTSUPP, "ibv_qp_to_qp_ex");
	}
	QpEx(ibv_qp *qp, Borrow b) : Qp(qp, b), ex_(ibv_qp_to_qp_ex(qp)) {}
	// A borrowed QP whose ibv_qp_ex is already known.
	QpEx(ibv_qp *qp, ibv_qp_ex *ex, Borrow b) noexcept : Qp(qp, b), ex_(ex) {}
	ibv_qp_ex *ex() const noexcept { return ex_; }
	WrBatch start() const noexcept { return WrBatch(ex_); }
	// One typed request as a batch of one.
	template <SendRequest W>
	int post_ex(const W &w) const noexcept
	{
		ibv_wr_start(ex_);
		w.post_ex(ex_);
		return ibv_wr_complete(ex_);
	}

private:
	ibv_qp_ex *ex_ = nullptr;
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

// One asynchronous event of a device context (ibv_get_async_event);
// acked (ibv_ack_async_event) when it goes, so destroying the object it
// names does not wait for it.
class AsyncEvent {
public:
	explicit AsyncEvent(const ibv_async_event &ev) noexcept : ev_(ev), live_(true) {}
	AsyncEvent(AsyncEvent &&o) noexcept : ev_(o.ev_), live_(std::exchange(o.live_, false)) {}
	AsyncEvent &operator=(AsyncEvent &&o) noexcept
	{
		ack();
		ev_ = o.ev_;
		live_ = std::exchange(o.live_, false);
		return *this;
	}
	~AsyncEvent() { ack(); }
	ibv_event_type type() const noexcept { return ev_.event_type; }
	const char *name() const noexcept { return ibv_event_type_str(ev_.event_type); }
	// The object it is about, by type (IBV_EVENT_QP_*: qp, ...).
	ibv_qp *qp() const noexcept { return ev_.element.qp; }
	ibv_cq *cq() const noexcept { return ev_.element.cq; }
	ibv_srq *srq() const noexcept { return ev_.element.srq; }
	ibv_wq *wq() const noexcept { return ev_.element.wq; }
	int port() const noexcept { return ev_.element.port_num; }
	const ibv_async_event &raw() const noexcept { return ev_; }

private:
	void ack() noexcept
	{
		if (std::exchange(live_, false))
			ibv_ack_async_event(&ev_);
	}
	ibv_async_event ev_;
	bool live_;
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
	// The extended CQ (attr.wc_flags: the fields to read; attr.channel).
	CqEx create_cq_ex(ibv_cq_init_attr_ex &attr) const
	{
		return CqEx(detail::check(ibv_create_cq_ex(get(), &attr), "ibv_create_cq_ex"));
	}
	// The extended QP: attr.pd is needed, attr.send_ops_flags with
	// IBV_QP_INIT_ATTR_SEND_OPS_FLAGS for the ibv_wr_* calls.
	QpEx create_qp_ex(ibv_qp_init_attr_ex &attr) const
	{
		return QpEx(detail::check(ibv_create_qp_ex(get(), &attr), "ibv_create_qp_ex"));
	}
	// Blocks until the device reports an event (the fd is async_fd()).
	AsyncEvent get_async_event() const
	{
		ibv_async_event ev;
		detail::check(ibv_get_async_event(get(), &ev), "ibv_get_async_event");
		return AsyncEvent(ev);
	}
	int async_fd() const { return get()->async_fd; }
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
