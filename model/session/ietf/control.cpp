#include "model/session/ietf/control.h"

#include <string>

#include "model/session/core/dispatch.h"
#include "model/session/ietf/fetch.h"
#include "model/session/ietf/ietf_session.h"
#include "model/session/ietf/inbound.h"
#include "model/session/ietf/pools.h"
#include "model/session/ietf/publish_namespace.h"

namespace moq::session::ietf {

namespace {
constexpr std::string_view kImplementation = "moqbench";
}  // namespace

// ---- ControlTask ----

ControlTask::ControlTask(IetfSession& session)
    : Task(session.executor(), "ietf control"), s_(session) {
  // A client that publishes announces each broadcast with PUBLISH_NAMESPACE.
  if (s_.is_client() && s_.config().publish) announcements_ = s_.config().publish.announced(Path());
}

void ControlTask::queue(Bytes message) {
  queued_.push(std::move(message));
  wake();
}

Poll ControlTask::poll() {
  Connection& conn = s_.conn();
  if (conn.close_error()) {
    s_.connection_closed();
    return Poll::Done;
  }
  if (s_.is_closed()) return Poll::Done;
  if (!write_control()) return s_.is_closed() ? Poll::Done : Poll::Pending;
  for (;;) {
    Result<RecvStreamPtr> u = conn.accept_uni();
    if (!u || !*u) break;
    accept_uni(std::move(*u));
  }
  for (;;) {
    Result<BidiStream> b = conn.accept_bidi();
    if (!b || !*b) break;
    accept_request(std::move(*b));
    if (s_.is_closed()) return Poll::Done;
  }
  while (std::optional<Bytes> d = conn.recv_datagram()) {
    Decoded<w::ObjectDatagram> r = w::decode_datagram(d->span());
    if (r.malformed()) {
      s_.violation(std::move(r.error));
      return Poll::Done;
    }
  }
  watch_announcements();
  incoming_.wait(conn.incoming());
  datagrams_.wait(conn.datagrams());
  closed_.wait(conn.closed());
  return Poll::Pending;
}

bool ControlTask::write_control() {
  if (!out_) {
    Result<SendStreamPtr> r = s_.conn().open_uni();
    if (!r) return false;
    if (!*r) {
      open_.wait(s_.conn().can_open());
      return false;
    }
    out_ = std::move(*r);
    out_->set_send_order(kControlSendOrder);
    s_.count_opened(StreamKind::Setup);
    w::Setup setup;
    if (s_.is_client() && !s_.config().path.empty()) setup.path = s_.config().path;
    setup.implementation = std::string(kImplementation);
    Result<Bytes> b = s_.encode(setup);
    if (!b) {
      s_.violation(Error{uint64_t(w::SessionError::InternalError), "SETUP: " + b.error().message});
      return false;
    }
    outbox_.push(std::move(*b));
  }
  while (!queued_.empty())
    outbox_.push(queued_.take_front(SIZE_MAX));
  return outbox_.flush(*out_, write_) != core::Flush::Failed;
}

void ControlTask::accept_uni(RecvStreamPtr stream) {
  // A fetch stream whose header came with it goes straight to its request (no task).
  core::StreamInput& in = first_input_;
  in.attach(std::move(stream));
  if (in.fill() == ReadStatus::Data && !in.current().empty() &&
      in.current()[0] == w::kFetchHeaderType) {
    Decoded<uint64_t> d = w::decode_fetch_header(in.current().span());
    if (d.ok()) {
      in.current().advance(d.consumed);
      s_.count_accepted(StreamKind::Fetch);
      deliver_fetch_stream(s_, d.value, in);
      in.clear();
      return;
    }
  }
  s_.pools().uni_inbound.acquire().start(in);
}

void ControlTask::accept_request(BidiStream stream) {
  // The first message of a request stream usually arrived with the stream: dispatch at once;
  // otherwise a BidiInboundTask waits for the rest (what arrived goes with it).
  core::StreamInput& in = first_input_;
  in.attach(std::move(stream.recv));
  if (in.fill() == ReadStatus::Data) {
    const w::IetfVersion v = s_.v();
    Decoded<std::monostate> d = in.decode(
        [&](std::span<const uint8_t> bytes) { return w::decode_control_into(bytes, v, first_); });
    if (d.ok()) {
      ++s_.stats().messages_decoded;
      s_.dispatch_request(std::move(stream.send), in, first_);
      in.clear();
      return;
    }
    if (d.malformed()) {
      s_.violation(std::move(d.error));
      in.clear();
      return;
    }
  }
  s_.pools().bidi_inbound.acquire().start(std::move(stream.send), in);
}

void ControlTask::watch_announcements() {
  if (!announcements_) return;
  AnnounceEvent ev;
  while (announcements_.next(ev) == Next::Ready) {
    if (ev.kind == AnnounceEvent::Kind::Announce) {
      s_.pools().publish_namespace_request.acquire().start(ev.path);
    } else {
      s_.publishing_namespaces.for_each([&](PublishNamespaceRequestTask& t) {
        if (t.path() == ev.path) t.withdraw();
      });
    }
  }
  announce_.wait(announcements_.events());
}

// ---- ControlReceiver ----

Poll ControlReceiver::receive(IetfSession& s, core::StreamInput& in, Waiter& waiter,
                              std::optional<w::ControlMessage>& first) {
  s_ = &s;
  if (first) {
    if (s.peer_control_seen) {
      s.violation("SETUP: the peer opened a second control stream");
      return Poll::Done;
    }
    s.peer_control_seen = true;
    const w::Setup* setup = std::get_if<w::Setup>(&*first);
    if (!setup) {
      s.violation(std::string("control stream: the first message is ") +
                  w::control_name(*first, s.v()) + ", not SETUP");
      return Poll::Done;
    }
    s.on_peer_setup(*setup);
    first.reset();
    if (s.is_closed()) return Poll::Done;
  }
  const w::IetfVersion v = s.v();
  w::ControlMessage m;
  // Every end returns: the read never goes on past it.
  return core::read_each(
             [&] {
               return in.next(
                   waiter, "control message",
                   [v](std::span<const uint8_t> bytes) { return w::decode_control(bytes, v); }, m);
             },
             [&](core::on::Message) -> core::Then<> {
               ++s.stats().messages_decoded;
               if (Status st = core::dispatch(
                       *this, m, "control", [v](const auto& msg) { return message_name(msg, v); });
                   !st) {
                 s.violation(st.error());
                 return Poll::Done;
               }
               if (s.is_closed()) return Poll::Done;
               return core::kGoOn;
             },
             [&](core::on::Malformed) {
               s.violation(std::move(in.error()));
               return Poll::Done;
             },
             [&](core::on::Ended) {
               if (!s.is_closed())
                 s.violation("control stream: the peer closed its control stream");
               return Poll::Done;
             },
             [](core::on::Closed) { return Poll::Done; })
      .value_or(Poll::Done);
}

bool ControlReceiver::on(const w::GoAway& goaway) {
  if (goaway_seen_) return false;  // only one GOAWAY
  goaway_seen_ = true;
  s_->on_peer_goaway(goaway);
  return true;
}

}  // namespace moq::session::ietf
