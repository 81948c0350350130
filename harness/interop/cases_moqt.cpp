// The interop cases over moq-transport, speaking the wire (MoqtPeer). Names as the runner's
// TEST-CASES.md uses them; each says what passes.
#include <memory>

#include "harness/interop/cases.h"
#include "harness/interop/moqt_peer.h"

namespace moq::interop::moqt_cases {

namespace {

constexpr uint64_t kMs = 1'000'000;

using Peer = std::unique_ptr<MoqtPeer>;

w::TrackNamespace ns(std::initializer_list<const char*> fields) {
  w::TrackNamespace out;
  for (const char* f : fields)
    out.fields.emplace_back(f);
  return out;
}

// A connection with SETUP done both ways.
Result<Peer> join(CaseContext& c, const std::string& who) {
  Result<std::unique_ptr<sim::quic::QuicConnection>> conn = c.dialer->connect(who, c.deadline_ns);
  if (!conn) return conn.error();
  const std::optional<Version> v = version_from_alpn((*conn)->alpn());
  if (!v || version_family(*v) != Family::Transport)
    return Error{0, who + ": the relay chose ALPN '" + std::string((*conn)->alpn()) +
                        "', not a moq-transport draft"};
  c.negotiated(*v);
  auto peer = std::make_unique<MoqtPeer>(*c.dialer, std::move(*conn), who);
  if (Status st = peer->setup(c.deadline_ns); !st) return st.error();
  return peer;
}

std::string describe(const w::ControlMessage& m, w::IetfVersion v) {
  std::string out = w::control_name(m, v);
  if (const auto* e = std::get_if<w::RequestError>(&m)) {
    const char* code = w::request_error_name(e->error_code, v);
    out += std::string(" ") + (code ? code : "code " + std::to_string(e->error_code));
    if (!e->reason.empty()) out += " (" + e->reason + ")";
  } else if (const auto* d = std::get_if<w::PublishDone>(&m)) {
    const char* status = w::publish_done_status_name(d->status_code, v);
    out += std::string(" ") + (status ? status : "status " + std::to_string(d->status_code)) +
           ", Stream Count " + std::to_string(d->stream_count);
  }
  return out;
}

// A live subscription's filter, as the runner's clients send it: the largest object on, joined
// at the next object.
w::MessageParams live(w::IetfVersion v) {
  w::MessageParams p;
  if (w::location_filter_is_typed(v)) {
    w::LocationFilter f;
    f.type = w::LocationFilterType::NextObject;
    p.location_filter = f;
  } else {
    w::SubscriptionFilter f;
    f.type = w::SubscriptionFilterType::LargestObject;
    p.subscription_filter = f;
  }
  return p;
}

w::Subscribe subscribe(MoqtPeer& p, w::TrackNamespace n, std::string name) {
  w::Subscribe s;
  s.request_id = p.next_request_id();
  s.track_namespace = std::move(n);
  s.track_name = std::move(name);
  s.params = live(p.version());
  return s;
}

// A connection with a request it opened (the request first to go: it is declared after).
struct Requester {
  Peer peer;
  std::unique_ptr<MoqtRequest> request;
};

// A publisher whose PUBLISH_NAMESPACE moq-test/interop was answered; an error unless REQUEST_OK
// (received: what came instead). serves: it answers SUBSCRIBEs of moq-test/interop test-track.
Result<Requester> announcer(CaseContext& c, bool serves, std::string& received) {
  Result<Peer> p = join(c, "publisher");
  if (!p) return p.error();
  if (serves) (*p)->serve_track(ns({"moq-test", "interop"}), "test-track");
  w::PublishNamespace pn;
  pn.request_id = (*p)->next_request_id();
  pn.track_namespace = ns({"moq-test", "interop"});
  Result<std::unique_ptr<MoqtRequest>> req = (*p)->request(pn);
  if (!req) return req.error();
  Result<w::ControlMessage> answer = (*req)->next(c.deadline_ns, "PUBLISH_NAMESPACE's answer");
  if (!answer) return answer.error();
  received = describe(*answer, (*p)->version());
  if (!std::holds_alternative<w::RequestOk>(*answer))
    return Error{0, "PUBLISH_NAMESPACE was answered " + received};
  return Requester{std::move(*p), std::move(*req)};
}

// A subscriber whose SUBSCRIBE is on its way.
Result<Requester> subscriber(CaseContext& c, w::TrackNamespace n, std::string name,
                             std::optional<uint64_t> rendezvous_ms = std::nullopt) {
  Result<Peer> p = join(c, "subscriber");
  if (!p) return p.error();
  w::Subscribe s = subscribe(**p, std::move(n), std::move(name));
  s.params.rendezvous_timeout = rendezvous_ms;
  Result<std::unique_ptr<MoqtRequest>> req = (*p)->request(s);
  if (!req) return req.error();
  return Requester{std::move(*p), std::move(*req)};
}

// The connection stays open for a moment: nothing the relay sends after our last step breaks.
Status quiet_for(CaseContext& c, MoqtPeer& p, uint64_t ns) {
  c.dialer->sleep_until(std::min(c.dialer->now_ns() + ns, c.deadline_ns));
  if (Status st = p.pump(); !st) return st;
  if (std::optional<std::string> why = p.closed_why()) return Error{0, p.who() + ": " + *why};
  return {};
}

std::string payload_of(const char* test, w::IetfVersion v) {
  return std::string(v == w::IetfVersion::Draft18 ? "moqt18-" : "moqt22-") + test;
}

// PUBLISH of moq-test/publish/published-track and its answer: the forward state (omitted: 1).
struct Published {
  std::unique_ptr<MoqtRequest> request;
  uint64_t alias = 0;
  bool forward = true;
};
Result<Published> publish(CaseContext& c, MoqtPeer& p, std::string& received) {
  w::Publish pub;
  pub.request_id = p.next_request_id();
  pub.track_namespace = ns({"moq-test", "publish"});
  pub.track_name = "published-track";
  pub.track_alias = 1;
  Result<std::unique_ptr<MoqtRequest>> req = p.request(pub);
  if (!req) return req.error();
  Result<w::ControlMessage> answer = (*req)->next(c.deadline_ns, "PUBLISH's answer");
  if (!answer) return answer.error();
  received = describe(*answer, p.version());
  const auto* ok = std::get_if<w::RequestOk>(&*answer);
  if (!ok) return Error{0, "PUBLISH was answered " + received};
  Published out;
  out.request = std::move(*req);
  out.alias = pub.track_alias;
  out.forward = ok->params.forward.value_or(true);
  return out;
}

// Group 0, subgroup 0, object 0 with payload, FIN; then PUBLISH_DONE TRACK_ENDED with the count
// of streams sent, and FIN on the request stream.
Status push_one_object(MoqtPeer& p, Published& pub, const std::string& payload) {
  uint64_t streams = 0;
  if (pub.forward) {
    w::SubgroupHeader h;
    h.track_alias = pub.alias;
    h.group_id = 0;
    h.subgroup_mode = w::SubgroupIdMode::Zero;
    h.publisher_priority = 128;
    h.end_of_group = true;
    if (Status st = p.send_subgroup(h, {payload}); !st) return st;
    streams = 1;
  }
  w::PublishDone done;
  done.status_code = uint64_t(w::PublishDoneStatus::TrackEnded);
  done.stream_count = streams;
  if (Status st = pub.request->send(done); !st) return st;
  return pub.request->finish();
}

}  // namespace

CaseOutcome setup_only(CaseContext& c) {
  Result<Peer> p = join(c, "client");
  if (!p) return CaseOutcome::fail(p.error().message, "the relay's SETUP");
  return CaseOutcome::pass("SETUP exchanged with " +
                           (*p)->peer_setup()->implementation.value_or("(no MOQT_IMPLEMENTATION)"));
}

CaseOutcome announce_only(CaseContext& c) {
  std::string received;
  Result<Requester> pub = announcer(c, false, received);
  if (!pub) return CaseOutcome::fail(pub.error().message, "REQUEST_OK", received);
  if (Status st = quiet_for(c, *pub->peer, 50 * kMs); !st)
    return CaseOutcome::fail(st.error().message);
  return CaseOutcome::pass("PUBLISH_NAMESPACE moq-test/interop answered REQUEST_OK");
}

CaseOutcome publish_namespace_done(CaseContext& c) {
  std::string received;
  Result<Requester> pub = announcer(c, false, received);
  if (!pub) return CaseOutcome::fail(pub.error().message, "REQUEST_OK", received);
  pub->request->cancel(uint64_t(w::StreamResetCode::Cancelled));
  if (Status st = quiet_for(c, *pub->peer, 100 * kMs); !st)
    return CaseOutcome::fail("after withdrawing the namespace: " + st.error().message);
  return CaseOutcome::pass("namespace announced, withdrawn, and the session closed cleanly");
}

CaseOutcome subscribe_error(CaseContext& c) {
  Result<Requester> sub = subscriber(c, ns({"nonexistent", "namespace"}), "test-track");
  if (!sub) return CaseOutcome::fail(sub.error().message);
  Result<w::ControlMessage> answer = sub->request->next(c.deadline_ns, "SUBSCRIBE's answer");
  if (!answer) return CaseOutcome::fail(answer.error().message, "REQUEST_ERROR");
  const std::string received = describe(*answer, sub->peer->version());
  if (!std::holds_alternative<w::RequestError>(*answer))
    return CaseOutcome::fail("SUBSCRIBE of nonexistent/namespace was answered " + received,
                             "REQUEST_ERROR", received);
  return CaseOutcome::pass("SUBSCRIBE answered " + received);
}

CaseOutcome announce_subscribe(CaseContext& c) {
  std::string received;
  Result<Requester> pub = announcer(c, true, received);
  if (!pub) return CaseOutcome::fail(pub.error().message, "REQUEST_OK", received);
  Result<Requester> sub = subscriber(c, ns({"moq-test", "interop"}), "test-track");
  if (!sub) return CaseOutcome::fail(sub.error().message);
  Result<w::ControlMessage> answer = sub->request->next(c.deadline_ns, "SUBSCRIBE's answer");
  if (!answer) return CaseOutcome::fail(answer.error().message, "SUBSCRIBE_OK");
  received = describe(*answer, sub->peer->version());
  if (!std::holds_alternative<w::SubscribeOk>(*answer))
    return CaseOutcome::fail("the subscriber's SUBSCRIBE was answered " + received, "SUBSCRIBE_OK",
                             received);
  return CaseOutcome::pass("SUBSCRIBE_OK; the relay asked the publisher " +
                           std::to_string(pub->peer->subscribes_answered()) + " time(s)");
}

CaseOutcome subscribe_before_announce(CaseContext& c) {
  Result<Requester> sub = subscriber(c, ns({"moq-test", "interop"}), "test-track");
  if (!sub) return CaseOutcome::fail(sub.error().message);
  c.dialer->sleep_until(c.dialer->now_ns() + 500 * kMs);
  std::string received;
  Result<Requester> pub = announcer(c, true, received);
  if (!pub) return CaseOutcome::fail(pub.error().message, "REQUEST_OK", received);
  Result<w::ControlMessage> answer = sub->request->next(c.deadline_ns, "SUBSCRIBE's answer");
  if (!answer) return CaseOutcome::fail(answer.error().message, "SUBSCRIBE_OK or REQUEST_ERROR");
  received = describe(*answer, sub->peer->version());
  if (!std::holds_alternative<w::SubscribeOk>(*answer) &&
      !std::holds_alternative<w::RequestError>(*answer))
    return CaseOutcome::fail("SUBSCRIBE was answered " + received, "SUBSCRIBE_OK or REQUEST_ERROR",
                             received);
  return CaseOutcome::pass("SUBSCRIBE answered " + received);
}

CaseOutcome publish_track_only(CaseContext& c) {
  Result<Peer> p = join(c, "publisher");
  if (!p) return CaseOutcome::fail(p.error().message);
  std::string received;
  Result<Published> pub = publish(c, **p, received);
  if (!pub) return CaseOutcome::fail(pub.error().message, "REQUEST_OK (PUBLISH_OK)", received);
  if (Status st = push_one_object(**p, *pub, payload_of("publish-track-only", (*p)->version()));
      !st)
    return CaseOutcome::fail(st.error().message);
  if (Status st = quiet_for(c, **p, 100 * kMs); !st) return CaseOutcome::fail(st.error().message);
  const char* state = pub->forward ? "1" : "0";
  return CaseOutcome::pass(std::string("PUBLISH_OK with Forward State ") + state +
                           "; PUBLISH_DONE TRACK_ENDED with Stream Count " + state);
}

CaseOutcome publish_track_subscribe(CaseContext& c) {
  Result<Requester> sub = subscriber(c, ns({"moq-test", "publish"}), "published-track", 5000);
  if (!sub) return CaseOutcome::fail(sub.error().message);
  Result<Peer> p = join(c, "publisher");
  if (!p) return CaseOutcome::fail(p.error().message);
  std::string received;
  Result<Published> pub = publish(c, **p, received);
  if (!pub) return CaseOutcome::fail(pub.error().message, "REQUEST_OK (PUBLISH_OK)", received);
  if (!pub->forward)
    return CaseOutcome::fail("PUBLISH_OK came with Forward State 0 although a subscriber waits",
                             "Forward State 1", "Forward State 0");
  Result<w::ControlMessage> answer = sub->request->next(c.deadline_ns, "SUBSCRIBE's answer");
  if (!answer) return CaseOutcome::fail(answer.error().message, "SUBSCRIBE_OK");
  received = describe(*answer, sub->peer->version());
  const auto* ok = std::get_if<w::SubscribeOk>(&*answer);
  if (!ok)
    return CaseOutcome::fail("the waiting SUBSCRIBE was answered " + received, "SUBSCRIBE_OK",
                             received);
  const uint64_t alias = ok->track_alias;
  const std::string payload = payload_of("publish-track-subscribe", (*p)->version());
  if (Status st = push_one_object(**p, *pub, payload); !st)
    return CaseOutcome::fail(st.error().message);
  Result<std::unique_ptr<SubgroupIn>> group = sub->peer->subgroup(c.deadline_ns, "the object");
  if (!group) return CaseOutcome::fail(group.error().message, "one object: " + payload);
  std::string got;
  for (const SubgroupIn::Object& o : (*group)->objects)
    got += (got.empty() ? "" : ", ") + ("object " + std::to_string(o.id) + " '" + o.payload + "'");
  const bool exact = (*group)->header->track_alias == alias && (*group)->objects.size() == 1 &&
                     (*group)->objects[0].payload == payload;
  // PUBLISH_DONE may have come before the stream, or come now.
  Result<w::ControlMessage> done = sub->request->next(c.deadline_ns, "PUBLISH_DONE");
  const std::string done_text = done ? describe(*done, sub->peer->version()) : done.error().message;
  if (!exact)
    return CaseOutcome::fail("the subscriber did not receive exactly the published object",
                             "alias " + std::to_string(alias) + ", object 0 '" + payload + "'",
                             "alias " + std::to_string((*group)->header->track_alias) + ", " +
                                 (got.empty() ? "no object" : got));
  // Under -17 the relay ends the subscription with FIN alone, as @moq/lite expects
  // (model/wire/ietf/version.h: fin_ends_subscription).
  if (w::fin_ends_subscription(sub->peer->version()) && !done && sub->request->finished())
    return CaseOutcome::pass("the object arrived once; the subscription ended with FIN (-17)");
  if (!done || !std::holds_alternative<w::PublishDone>(*done))
    return CaseOutcome::fail("after the object: " + done_text, "PUBLISH_DONE", done_text);
  return CaseOutcome::pass("the object arrived once; " + done_text);
}

}  // namespace moq::interop::moqt_cases
