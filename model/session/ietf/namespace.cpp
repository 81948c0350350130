#include "model/session/ietf/namespace.h"

#include <string>

#include "model/session/core/dispatch.h"
#include "model/session/ietf/errors.h"
#include "model/session/ietf/names.h"

namespace moq::session::ietf {

namespace {
constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);
}  // namespace

// ---- Publisher ----

void NamespaceServeTask::start(SendStreamPtr send, core::StreamInput& input,
                               w::ControlMessage& request) {
  adopt_stream(std::move(send), input);
  std::swap(request_, request);
  wake();
}

void NamespaceServeTask::clear() {
  RequestTask::clear();
  Link<NsServeTag>::unlink();
  prefix_ = Path();
  started_ = false;
  refused_ = false;
  events_ = AnnounceConsumer();
  events_waiter_.cancel();
}

Poll NamespaceServeTask::step() {
  w::ControlMessage msg;
  if (core::Then<> p = core::read_each(
          [&] { return next_message(msg); },
          [&](core::on::Message) {
            session_.violation(core::unexpected_message(w::control_name(msg, session_.v()),
                                                        "SUBSCRIBE_NAMESPACE request"));
            return Poll::Pending;
          },
          [](core::on::Pending) { return core::kGoOn; },
          [](core::on::Fin) { return core::kGoOn; },  // -22: the subscriber sends nothing more
          [&](core::on::Reset) {
            cancel(kCancelled);
            return Poll::Done;
          }))
    return *p;
  if (!started_) {
    started_ = true;
    const w::SubscribeNamespace& request = std::get<w::SubscribeNamespace>(request_);
    std::optional<Path> prefix = path_of(request.prefix);
    if (prefix) prefix_ = *prefix;
    bool overlap = false;
    session_.namespace_servers.for_each([&](NamespaceServeTask& o) {
      overlap |= prefix && (o.prefix_.has_prefix(prefix_) || prefix_.has_prefix(o.prefix_));
    });
    if (request.subscribe_options != w::SubscribeOptions::Namespace) {
      // -17 (17.2): PUBLISH pushes for a prefix are the -18 SUBSCRIBE_TRACKS, which this
      // session refuses too; NAMESPACE alone (what @moq/lite asks for) is served.
      send_message(request_error(w::RequestErrorCode::NotSupported,
                                 "Subscribe Options other than NAMESPACE (1) are not supported"));
      refused_ = true;
    } else if (overlap) {
      send_message(
          request_error(w::RequestErrorCode::PrefixOverlap,
                        "prefix '" + prefix_.str() + "' overlaps another SUBSCRIBE_NAMESPACE"));
      refused_ = true;
    } else {
      if (prefix) session_.namespace_servers.push_back(*this);
      send_message(w::RequestOk{});
      if (prefix && session_.config().publish)
        events_ = session_.config().publish.announced(prefix_);
    }
  }
  if (refused_) {  // done once both sides finished
    if (!end_send()) return send_failed_ ? Poll::Done : Poll::Pending;
    return both_ended() ? Poll::Done : Poll::Pending;
  }
  if (events_) {
    AnnounceEvent ev;
    while (events_.next(ev) == Next::Ready) {
      std::optional<Path> suffix = ev.path.strip_prefix(prefix_);
      if (!suffix) continue;
      const bool sent = ev.kind == AnnounceEvent::Kind::Announce
                            ? send_message(w::Namespace{namespace_of(*suffix)})
                            : send_message(w::NamespaceDone{namespace_of(*suffix)});
      if (!sent) {
        cancel(kCancelled);
        return Poll::Done;
      }
    }
    events_waiter_.wait(events_.events());
  }
  return write() ? Poll::Pending : Poll::Done;
}

// ---- Viewer ----

void NamespaceRequestTask::start(const Path& prefix) {
  prefix_ = prefix;
  session_.namespace_requests.push_back(*this);
  wake();
}

void NamespaceRequestTask::withdraw() {
  withdrawn_ = true;
  Link<NsRequestTag>::unlink();
  wake();
}

void NamespaceRequestTask::withdraw_all() {
  for (const Path& p : announced_)
    session_.peer().unannounce(p);
  announced_.clear();
}

void NamespaceRequestTask::clear() {
  withdraw_all();
  RequestTask::clear();
  Link<NsRequestTag>::unlink();
  prefix_ = Path();
  sent_ = false;
  withdrawn_ = false;
}

bool NamespaceRequestTask::on(const w::RequestOk&) {
  return true;
}

bool NamespaceRequestTask::on(const w::RequestError&) {
  Link<NsRequestTag>::unlink();  // refused (e.g. PREFIX_OVERLAP): the publisher FINs next
  return true;
}

bool NamespaceRequestTask::on(const w::Namespace& n) {
  if (std::optional<Path> suffix = path_of(n.suffix)) {
    Path path = prefix_.join(*suffix);
    if (announced_.insert(path).second) session_.peer().announce(path);
  }
  return true;
}

bool NamespaceRequestTask::on(const w::NamespaceDone& n) {
  std::optional<Path> suffix = path_of(n.suffix);
  if (!suffix) return true;
  Path path = prefix_.join(*suffix);
  if (!announced_.erase(path)) {
    session_.violation("NAMESPACE_DONE: field 'track namespace suffix': '" + suffix->str() +
                       "' was not announced");
    return true;
  }
  session_.peer().unannounce(path);
  return true;
}

Poll NamespaceRequestTask::step() {
  if (withdrawn_) {
    cancel(kCancelled);
    return Poll::Done;
  }
  if (!send_) {
    switch (open_stream(StreamKind::Announce)) {
      case Opened::Yes:
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        return Poll::Done;
    }
  }
  if (!sent_) {
    w::SubscribeNamespace m;
    m.request_id = session_.take_request_id();
    m.prefix = namespace_of(prefix_);
    if (!send_message(m)) return Poll::Done;
    sent_ = true;
  }
  if (core::Then<> p =
          core::read_each([&] { return next_handled(*this, "SUBSCRIBE_NAMESPACE request"); },
                          [&](core::on::Message) -> core::Then<> {
                            if (session_.is_closed()) return Poll::Pending;
                            return core::kGoOn;
                          },
                          [](core::on::Pending) { return core::kGoOn; },
                          [&](core::on::Fin) {
                            // The publisher's side ended: NAMESPACE_DONE for everything
                            // (draft-ietf-moq-transport, SUBSCRIBE_NAMESPACE).
                            withdraw_all();
                            Link<NsRequestTag>::unlink();
                            if (!end_send()) return send_failed_ ? Poll::Done : Poll::Pending;
                            return Poll::Done;
                          },
                          [&](core::on::Reset) {
                            cancel(kCancelled);
                            return Poll::Done;
                          }))
    return *p;
  return write() ? Poll::Pending : Poll::Done;
}

}  // namespace moq::session::ietf
