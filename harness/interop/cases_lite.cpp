// The interop cases over moq-lite. moq-lite has no request IDs and no OK/ERROR messages from a
// relay to a publisher: an announcement is asked for by the relay (ANNOUNCE_REQUEST) and
// answered by the publisher, a refused subscription is a reset stream. So each case checks what
// the moq-transport case checks as another session sees it through the relay, using the
// sessions of model/session (which speak moq-lite as the wire tests pin it down):
//   announce-only            the relay tells a second session of moq-test/interop
//   publish-namespace-done   ... and of its end once the publisher withdraws it
//   subscribe-error          the subscription aborts (reset) rather than waiting
//   announce-subscribe       the subscription becomes active (SUBSCRIBE_OK / TRACK_INFO)
//   publish-track-subscribe  the one frame written reaches the subscriber, once
#include <memory>

#include "harness/interop/cases.h"
#include "model/data/data.h"
#include "model/session/create_session.h"
#include "model/session/session.h"

namespace moq::interop::lite_cases {

namespace {

constexpr uint64_t kMs = 1'000'000;

struct Client {
  std::string who;
  std::unique_ptr<sim::quic::QuicConnection> conn;
  std::unique_ptr<session::Session> session;  // before conn is destroyed: declared after it
};

Result<std::unique_ptr<Client>> join(CaseContext& c, const std::string& who,
                                     session::SessionConfig config = {}) {
  auto client = std::make_unique<Client>();
  client->who = who;
  Result<std::unique_ptr<sim::quic::QuicConnection>> conn = c.dialer->connect(who, c.deadline_ns);
  if (!conn) return conn.error();
  client->conn = std::move(*conn);
  const std::optional<Version> v = version_from_alpn(client->conn->alpn());
  if (!v || version_family(*v) != Family::Lite)
    return Error{0, who + ": the relay chose ALPN '" + std::string(client->conn->alpn()) +
                        "', not a moq-lite version"};
  c.negotiated(*v);
  Result<std::unique_ptr<session::Session>> s =
      session::create_session(*client->conn, *v, std::move(config));
  if (!s) return Error{0, who + ": " + s.error().message};
  client->session = std::move(*s);
  return client;
}

// Why a client's session ended, if it did.
std::optional<std::string> ended(const Client& c) {
  if (!c.session->is_closed()) return std::nullopt;
  const std::optional<Error>& e = c.session->error();
  return c.who + ": the session closed" + (e ? ": " + e->message : std::string());
}

// A publisher of moq-test/<name> with one track: the origin, the broadcast and the track.
struct Publication {
  OriginProducer origin = OriginProducer::create();
  BroadcastProducer broadcast;
  TrackProducer track;
  Path path;
};
Result<std::unique_ptr<Publication>> publication(CaseContext& c, const std::string& path,
                                                 const std::string& track) {
  auto p = std::make_unique<Publication>();
  p->path = Path(path);
  p->broadcast = BroadcastProducer::create(c.dialer->clock());
  Result<TrackProducer> t = p->broadcast.create_track(track, TrackInfo{});
  if (!t) return t.error();
  p->track = std::move(*t);
  if (Status st = p->origin.publish(p->path, p->broadcast.consume()); !st) return st.error();
  return p;
}

session::SessionConfig serving(const Publication& p) {
  session::SessionConfig config;
  config.publish = p.origin.consume();
  return config;
}

// Waits for the next announcement event of kind for path under the watcher's prefix.
Status await_announcement(CaseContext& c, Client& watcher, AnnounceConsumer& events,
                          AnnounceEvent::Kind kind, const Path& path) {
  bool seen = false;
  Status st = c.dialer->wait_until(
      [&] {
        AnnounceEvent ev;
        while (!seen && events.next(ev) == Next::Ready)
          seen = ev.kind == kind && ev.path == path;
        return seen || watcher.session->is_closed();
      },
      c.deadline_ns,
      watcher.who + ": waiting for the relay to " +
          (kind == AnnounceEvent::Kind::Announce ? "announce " : "withdraw ") + path.str());
  if (!st) return st;
  if (!seen) return Error{0, *ended(watcher)};
  return {};
}

// A publisher of `path` with one track, and a second session (`who`) that the relay told of it:
// what a moq-transport publisher's REQUEST_OK to PUBLISH_NAMESPACE stands for.
struct Watched {
  std::unique_ptr<Publication> pub;
  std::unique_ptr<Client> publisher;
  std::unique_ptr<Client> watcher;
  AnnounceConsumer events;  // the watcher's, of moq-test
};
Result<Watched> publish_and_watch(CaseContext& c, const std::string& path, const std::string& track,
                                  const std::string& who) {
  Watched w;
  Result<std::unique_ptr<Publication>> pub = publication(c, path, track);
  if (!pub) return pub.error();
  w.pub = std::move(*pub);
  Result<std::unique_ptr<Client>> publisher = join(c, "publisher", serving(*w.pub));
  if (!publisher) return publisher.error();
  w.publisher = std::move(*publisher);
  Result<std::unique_ptr<Client>> watcher = join(c, who);
  if (!watcher) return watcher.error();
  w.watcher = std::move(*watcher);
  Result<AnnounceConsumer> events = w.watcher->session->announced(Path("moq-test"));
  if (!events) return events.error();
  w.events = std::move(*events);
  if (Status st =
          await_announcement(c, *w.watcher, w.events, AnnounceEvent::Kind::Announce, w.pub->path);
      !st)
    return st.error();
  return w;
}

// Waits until the subscription leaves Pending.
Status await_answer(CaseContext& c, TrackConsumer& track, const std::string& what) {
  return c.dialer->wait_until([&] { return track.status() != TrackStatus::Pending; }, c.deadline_ns,
                              what);
}

// A subscription once the relay answered it (it left Pending).
Result<TrackConsumer> answered_subscription(CaseContext& c, Client& viewer, const Path& path,
                                            const std::string& track) {
  Result<TrackConsumer> t = viewer.session->subscribe(path, track);
  if (!t) return t;
  if (Status st = await_answer(c, *t, "waiting for the subscription's answer"); !st)
    return st.error();
  return t;
}

std::string status_text(const TrackConsumer& t) {
  switch (t.status()) {
    case TrackStatus::Pending:
      return "no answer";
    case TrackStatus::Active:
      return "active (SUBSCRIBE_OK)";
    case TrackStatus::Finished:
      return "finished";
    case TrackStatus::Aborted:
      return "refused: " + t.error().message;
  }
  return "?";
}

}  // namespace

CaseOutcome setup_only(CaseContext& c) {
  Result<std::unique_ptr<Client>> client = join(c, "client");
  if (!client) return CaseOutcome::fail(client.error().message);
  Client& cl = **client;
  Status st = c.dialer->wait_until(
      [&] {
        return cl.session->counters().accepted(session::StreamKind::Setup) > 0 ||
               cl.session->is_closed();
      },
      c.deadline_ns, "waiting for the relay's SETUP stream");
  if (!st) return CaseOutcome::fail(st.error().message, "the relay's SETUP");
  if (std::optional<std::string> why = ended(cl)) return CaseOutcome::fail(*why);
  cl.session->close(0, "setup-only done");
  return CaseOutcome::pass("SETUP streams exchanged");
}

CaseOutcome announce_only(CaseContext& c) {
  Result<Watched> w = publish_and_watch(c, "moq-test/interop", "test-track", "watcher");
  if (!w) return CaseOutcome::fail(w.error().message, "moq-test/interop announced");
  if (std::optional<std::string> why = ended(*w->publisher)) return CaseOutcome::fail(*why);
  return CaseOutcome::pass("the relay announced moq-test/interop to another session");
}

CaseOutcome publish_namespace_done(CaseContext& c) {
  Result<Watched> w = publish_and_watch(c, "moq-test/interop", "test-track", "watcher");
  if (!w) return CaseOutcome::fail(w.error().message, "moq-test/interop announced");
  if (Status st = w->pub->origin.unpublish(w->pub->path); !st)
    return CaseOutcome::fail(st.error().message);
  if (Status st = await_announcement(c, *w->watcher, w->events, AnnounceEvent::Kind::Unannounce,
                                     w->pub->path);
      !st)
    return CaseOutcome::fail(st.error().message, "moq-test/interop withdrawn");
  if (std::optional<std::string> why = ended(*w->publisher)) return CaseOutcome::fail(*why);
  w->publisher->session->close(0, "publish-namespace-done done");
  return CaseOutcome::pass("announced, withdrawn, and closed cleanly");
}

CaseOutcome subscribe_error(CaseContext& c) {
  Result<std::unique_ptr<Client>> viewer = join(c, "subscriber");
  if (!viewer) return CaseOutcome::fail(viewer.error().message);
  Result<TrackConsumer> track =
      answered_subscription(c, **viewer, Path("nonexistent/namespace"), "test-track");
  if (!track) return CaseOutcome::fail(track.error().message, "a refused subscription");
  if (track->status() != TrackStatus::Aborted)
    return CaseOutcome::fail("the subscription of nonexistent/namespace was not refused", "refused",
                             status_text(*track));
  return CaseOutcome::pass("subscription " + status_text(*track));
}

CaseOutcome announce_subscribe(CaseContext& c) {
  // Subscribe once the relay knows the broadcast, as a moq-transport subscriber would after the
  // publisher's REQUEST_OK.
  Result<Watched> w = publish_and_watch(c, "moq-test/interop", "test-track", "subscriber");
  if (!w) return CaseOutcome::fail(w.error().message, "moq-test/interop announced");
  Result<TrackConsumer> track = answered_subscription(c, *w->watcher, w->pub->path, "test-track");
  if (!track) return CaseOutcome::fail(track.error().message, "active (SUBSCRIBE_OK)");
  if (track->status() != TrackStatus::Active)
    return CaseOutcome::fail("the subscription was not routed to the publisher",
                             "active (SUBSCRIBE_OK)", status_text(*track));
  return CaseOutcome::pass("subscription " + status_text(*track));
}

CaseOutcome subscribe_before_announce(CaseContext& c) {
  Result<std::unique_ptr<Client>> viewer = join(c, "subscriber");
  if (!viewer) return CaseOutcome::fail(viewer.error().message);
  Result<TrackConsumer> track =
      (*viewer)->session->subscribe(Path("moq-test/interop"), "test-track");
  if (!track) return CaseOutcome::fail(track.error().message);
  c.dialer->sleep_until(c.dialer->now_ns() + 500 * kMs);
  Result<std::unique_ptr<Publication>> pub = publication(c, "moq-test/interop", "test-track");
  if (!pub) return CaseOutcome::fail(pub.error().message);
  Result<std::unique_ptr<Client>> publisher = join(c, "publisher", serving(**pub));
  if (!publisher) return CaseOutcome::fail(publisher.error().message);
  if (Status st = await_answer(c, *track, "waiting for the subscription's answer"); !st)
    return CaseOutcome::fail(st.error().message, "active or refused");
  return CaseOutcome::pass("subscription " + status_text(*track));
}

CaseOutcome publish_track_subscribe(CaseContext& c) {
  Result<Watched> w = publish_and_watch(c, "moq-test/publish", "published-track", "subscriber");
  if (!w) return CaseOutcome::fail(w.error().message, "moq-test/publish announced");
  Result<TrackConsumer> track =
      answered_subscription(c, *w->watcher, w->pub->path, "published-track");
  if (!track) return CaseOutcome::fail(track.error().message, "active (SUBSCRIBE_OK)");
  const std::string payload =
      std::string(version_name(*version_from_alpn(w->watcher->conn->alpn()))) +
      "-publish-track-subscribe";
  Result<GroupProducer> group = w->pub->track.append_group();
  if (!group) return CaseOutcome::fail(group.error().message);
  if (Status st = group->write_frame(0, Bytes::copy(payload)); !st)
    return CaseOutcome::fail(st.error().message);
  if (Status st = group->finish(); !st) return CaseOutcome::fail(st.error().message);
  GroupConsumer got;
  std::vector<std::string> frames;
  Status st = c.dialer->wait_until(
      [&] {
        if (!got && track->next(got) != Next::Ready) return track->status() == TrackStatus::Aborted;
        FrameView frame;
        for (;;) {
          const Next n = got.next(frame);
          if (n == Next::Ready) {
            frames.emplace_back(frame.payload().view());
            continue;
          }
          return n != Next::Pending;
        }
      },
      c.deadline_ns, "waiting for the frame");
  if (!st) return CaseOutcome::fail(st.error().message, "one frame: " + payload);
  std::string received;
  for (const std::string& f : frames)
    received += (received.empty() ? "'" : ", '") + f + "'";
  if (frames != std::vector<std::string>{payload})
    return CaseOutcome::fail("the subscriber did not receive exactly the published frame",
                             "'" + payload + "'",
                             received.empty() ? status_text(*track) : received);
  return CaseOutcome::pass("the frame arrived once");
}

}  // namespace moq::interop::lite_cases
