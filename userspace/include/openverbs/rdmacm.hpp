// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// openverbs: connection setup through librdmacm (<rdma/rdma_cma.h>, link
// -lrdmacm), in the manner of verbs.hpp: move-only RAII handles, control
// calls throw openverbs::Error, events ack themselves when they go.
//
//	cm::EventChannel ch;
//	cm::Id id(ch);
//	id.resolve(cm::Address("10.0.2.15", "7471"));	// address, then route
//	Pd pd = id.context().alloc_pd();
//	cm::Qp qp = id.create_qp(pd, init);		// INIT; RTR/RTS by connect
//	id.connect(cm::ConnParam{private_data});
//	cm::Event ev = ch.expect(RDMA_CM_EVENT_ESTABLISHED);
//
// Order: an Id must outlive its events (librdmacm's rdma_destroy_id waits
// until each is acked) and its Qp; declare them after it.
#pragma once

#include <openverbs/verbs.hpp>

#include <rdma/rdma_cma.h>

#include <cstring>
#include <netdb.h>
#include <string>

namespace openverbs::detail {

inline void destroy_cm_id(rdma_cm_id *id)
{
	if (id->qp)
		rdma_destroy_qp(id);
	rdma_destroy_id(id);
}

} // namespace openverbs::detail

namespace openverbs::cm {

// A socket address from a host and port (numeric or names; host nullptr:
// any address, for a listener).
class Address {
public:
	Address(const char *host, const char *port)
	{
		addrinfo hints{}, *res;
		hints.ai_family = AF_UNSPEC;
		hints.ai_flags = host ? 0 : AI_PASSIVE;
		hints.ai_socktype = SOCK_STREAM;
		if (int rc = getaddrinfo(host, port, &hints, &res))
			throw Error(EADDRNOTAVAIL, gai_strerror(rc));
		std::memcpy(&ss_, res->ai_addr, res->ai_addrlen);
		freeaddrinfo(res);
	}
	sockaddr *get() noexcept { return reinterpret_cast<sockaddr *>(&ss_); }

private:
	sockaddr_storage ss_{};
};

// One connection manager event; acked (rdma_ack_cm_event) when it goes.
class Event {
public:
	explicit Event(rdma_cm_event *ev) noexcept : ev_(ev) {}
	Event(Event &&o) noexcept : ev_(std::exchange(o.ev_, nullptr)) {}
	Event &operator=(Event &&o) noexcept
	{
		ack();
		ev_ = std::exchange(o.ev_, nullptr);
		return *this;
	}
	~Event() { ack(); }
	rdma_cm_event_type type() const noexcept { return ev_->event; }
	const char *name() const noexcept { return rdma_event_str(ev_->event); }
	int status() const noexcept { return ev_->status; }
	rdma_cm_id *id() const noexcept { return ev_->id; }
	// The peer's private data (connect request, established, reject).
	std::span<const std::byte> private_data() const noexcept
	{
		return {static_cast<const std::byte *>(ev_->param.conn.private_data),
			ev_->param.conn.private_data_len};
	}
	const rdma_conn_param &conn() const noexcept { return ev_->param.conn; }

private:
	void ack() noexcept
	{
		if (ev_)
			rdma_ack_cm_event(std::exchange(ev_, nullptr));
	}
	rdma_cm_event *ev_;
};

class EventChannel : public detail::Handle<rdma_event_channel, rdma_destroy_event_channel> {
public:
	EventChannel()
		: Handle(detail::check(rdma_create_event_channel(), "rdma_create_event_channel")) {}
	EventChannel(rdma_event_channel *ch, Borrow b) : Handle(ch, b) {}
	int fd() const { return get()->fd; }
	// Blocks until the next event.
	Event get_event() const
	{
		rdma_cm_event *ev;
		detail::check(rdma_get_cm_event(get(), &ev), "rdma_get_cm_event");
		return Event(ev);
	}
	// The next event, which must be of type: any other (or an error
	// status) throws, naming both.
	Event expect(rdma_cm_event_type type) const
	{
		Event ev = get_event();
		if (ev.type() != type || ev.status()) {
			std::string what = std::string("rdma_cm: ") + ev.name() + " (status " +
					   std::to_string(ev.status()) + ") where " +
					   rdma_event_str(type) + " was due";
			throw Error(ev.status() < 0 ? -ev.status() : EPROTO, what.c_str());
		}
		return ev;
	}
};

// The connection's parameters; private_data goes to the peer (up to 56
// bytes in a connect request, 196 in an accept, on IB/RoCE).
struct ConnParam {
	std::span<const std::byte> private_data{};
	uint8_t responder_resources = 1, initiator_depth = 1;
	uint8_t retry_count = 7, rnr_retry_count = 7;
	rdma_conn_param c() const noexcept
	{
		rdma_conn_param p{};
		p.private_data = private_data.data();
		p.private_data_len = static_cast<uint8_t>(private_data.size());
		p.responder_resources = responder_resources;
		p.initiator_depth = initiator_depth;
		p.retry_count = retry_count;
		p.rnr_retry_count = rnr_retry_count;
		return p;
	}
};

// The QP of an Id (rdma_create_qp): destroyed with rdma_destroy_qp, so it
// can go before the PD and CQs declared after the Id.
class Qp : public detail::QpOps<Qp> {
public:
	Qp() = default;
	explicit Qp(rdma_cm_id *id) noexcept : id_(id) {}
	Qp(Qp &&o) noexcept : id_(std::exchange(o.id_, nullptr)) {}
	Qp &operator=(Qp &&o) noexcept
	{
		reset();
		id_ = std::exchange(o.id_, nullptr);
		return *this;
	}
	~Qp() { reset(); }
	ibv_qp *get() const noexcept { return id_->qp; }

private:
	void reset() noexcept
	{
		if (id_ && id_->qp)
			rdma_destroy_qp(id_);
		id_ = nullptr;
	}
	rdma_cm_id *id_ = nullptr;
};

class Id : public detail::Handle<rdma_cm_id, detail::destroy_cm_id> {
public:
	using Handle::Handle;
	explicit Id(const EventChannel &ch, rdma_port_space ps = RDMA_PS_TCP, void *context = nullptr)
		: Handle(create(ch, ps, context)) {}
	// The new id of a connect request: ours to accept and destroy.
	static Id from(const Event &request) { return Id(request.id()); }

	// Active side: address and route resolved (each waits for its event
	// on the Id's channel).
	void resolve(Address dst, int timeout_ms = 2000) const
	{
		EventChannel ch(get()->channel, borrow);
		detail::check(rdma_resolve_addr(get(), nullptr, dst.get(), timeout_ms),
					 "rdma_resolve_addr");
		ch.expect(RDMA_CM_EVENT_ADDR_RESOLVED);
		detail::check(rdma_resolve_route(get(), timeout_ms), "rdma_resolve_route");
		ch.expect(RDMA_CM_EVENT_ROUTE_RESOLVED);
	}
	// Passive side.
	void listen(Address local, int backlog = 8) const
	{
		detail::check(rdma_bind_addr(get(), local.get()), "rdma_bind_addr");
		detail::check(rdma_listen(get(), backlog), "rdma_listen");
	}
	uint16_t port() const { return ntohs(rdma_get_src_port(get())); }

	// The device context the Id is bound to (librdmacm's: borrowed).
	Context context() const { return Context(get()->verbs, borrow); }
	cm::Qp create_qp(const Pd &pd, ibv_qp_init_attr &init) const
	{
		detail::check(rdma_create_qp(get(), pd.get(), &init), "rdma_create_qp");
		return cm::Qp(get());
	}
	void connect(const ConnParam &p) const
	{
		rdma_conn_param c = p.c();
		detail::check(rdma_connect(get(), &c), "rdma_connect");
	}
	void accept(const ConnParam &p) const
	{
		rdma_conn_param c = p.c();
		detail::check(rdma_accept(get(), &c), "rdma_accept");
	}
	void reject(std::span<const std::byte> private_data = {}) const
	{
		detail::check(rdma_reject(get(), private_data.data(),
						     static_cast<uint8_t>(private_data.size())),
					 "rdma_reject");
	}
	void disconnect() const
	{
		detail::check(rdma_disconnect(get()), "rdma_disconnect");
	}

private:
	static rdma_cm_id *create(const EventChannel &ch, rdma_port_space ps, void *context)
	{
		rdma_cm_id *id;
		detail::check(rdma_create_id(ch.get(), &id, context, ps), "rdma_create_id");
		return id;
	}
};

} // namespace openverbs::cm
