#include "harness/interop/moqt_peer.h"

#include <array>

#include "model/base/buf_chain.h"

namespace moq::interop {

namespace {

std::string hex(uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), digits[v & 0xf]);
    v >>= 4;
  } while (v);
  return "0x" + out;
}

}  // namespace

// ---- StreamIn ----

bool StreamIn::pull() {
  if (fin_ || broken_) return false;
  for (;;) {
    Bytes chunk;
    const ReadResult r = stream_->read(chunk);
    switch (r.status) {
      case ReadStatus::Data:
        data_.insert(data_.end(), chunk.data(), chunk.data() + chunk.size());
        continue;
      case ReadStatus::WouldBlock:
        return true;
      case ReadStatus::Fin:
        fin_ = true;
        return false;
      case ReadStatus::Reset:
        broken_ = "was reset with code " + hex(r.code);
        return false;
      case ReadStatus::Error:
        broken_ = "failed (code " + hex(r.code) + ")";
        return false;
    }
  }
}

// ---- MoqtRequest ----

Status MoqtRequest::send(const w::ControlMessage& m) {
  std::vector<uint8_t> out;
  Writer wr(out, w::kVarint);
  if (Status st = w::encode_control(wr, m, peer_->version()); !st) return st;
  return peer_->write_all(*send_, out, peer_->dialer_->now_ns() + 2'000'000'000,
                          "sending a message");
}

Status MoqtRequest::send_now(const w::ControlMessage& m) {
  std::vector<uint8_t> out;
  Writer wr(out, w::kVarint);
  if (Status st = w::encode_control(wr, m, peer_->version()); !st) return st;
  BufChain chain;
  chain.push(Bytes::copy(out));
  Result<size_t> n = send_->write(chain);
  if (!n) return n.error();
  if (!chain.empty()) return Error{0, "a reply did not fit the stream's credit"};
  return {};
}

Result<std::optional<w::ControlMessage>> MoqtRequest::try_decode() {
  Decoded<w::ControlMessage> d = w::decode_control(in_.bytes(), peer_->version());
  if (d.malformed()) return d.error;
  if (!d.ok()) return std::optional<w::ControlMessage>();
  in_.consume(d.consumed);
  return std::optional<w::ControlMessage>(std::move(d.value));
}

Result<w::ControlMessage> MoqtRequest::next(uint64_t deadline_ns, const std::string& what) {
  std::optional<w::ControlMessage> got;
  Status bad;
  Status st = peer_->wait(
      [&] {
        if (got || !bad) return true;
        in_.pull();
        Result<std::optional<w::ControlMessage>> r = try_decode();
        if (!r) {
          bad = r.error();
          return true;
        }
        if (*r) got = std::move(**r);
        return got || in_.finished() || in_.broken();
      },
      deadline_ns, what);
  if (!bad) return Error{0, what + ": malformed message from the relay: " + bad.error().message};
  if (got) return std::move(*got);
  if (!st) return st.error();
  if (in_.broken()) return Error{0, what + ": the relay's stream " + *in_.broken()};
  return Error{0, what + ": the relay finished the stream" +
                      (in_.bytes().empty() ? std::string() : " inside a message")};
}

void MoqtRequest::cancel(uint64_t code) {
  (void)send_->reset(code);
  in_.stream().stop(code);
}

// ---- MoqtPeer ----

MoqtPeer::MoqtPeer(Dialer& dialer, std::unique_ptr<sim::quic::QuicConnection> conn, std::string who)
    : dialer_(&dialer), conn_(std::move(conn)), who_(std::move(who)) {
  const std::optional<Version> v = version_from_alpn(conn_->alpn());
  v_ = v ? w::ietf_version(*v).value_or(w::IetfVersion::Draft22) : w::IetfVersion::Draft22;
  poller_ = dialer_->add_poller([this] { return pump(); });
}

MoqtPeer::~MoqtPeer() {
  dialer_->remove_poller(poller_);
  // A clean end whatever the case's outcome; CONNECTION_CLOSE leaves at once.
  if (!conn_->close_error()) conn_->close(0, "test over");
}

void MoqtPeer::serve_track(w::TrackNamespace ns, std::string name) {
  served_.emplace_back(std::move(ns), std::move(name));
}

void MoqtPeer::answer(MoqtRequest& r) {
  if (std::holds_alternative<w::SubscribeNamespace>(r.first)) {
    (void)r.send_now(w::RequestOk{});
    return;
  }
  if (served_.empty()) return;  // left unanswered
  if (const auto* sub = std::get_if<w::Subscribe>(&r.first)) {
    for (const auto& [ns, name] : served_) {
      if (sub->track_namespace == ns && sub->track_name == name) {
        w::SubscribeOk ok;
        ok.track_alias = next_alias_++;
        (void)r.send_now(ok);
        ++subscribes_answered_;
        dialer_->log(who_ + ": answered SUBSCRIBE of " + name + " with SUBSCRIBE_OK");
        return;
      }
    }
  }
  w::RequestError e;
  e.error_code = uint64_t(w::RequestErrorCode::DoesNotExist);
  e.reason = "the test publisher has no such track, and no objects to fetch";
  (void)r.send_now(e);
}

uint64_t MoqtPeer::next_request_id() {
  const uint64_t id = next_request_id_;
  next_request_id_ += 2;
  return id;
}

Result<SendStreamPtr> MoqtPeer::open_uni(uint64_t deadline_ns, const std::string& what) {
  SendStreamPtr stream;
  Status st = wait(
      [&] {
        Result<SendStreamPtr> s = conn_->open_uni();
        if (s && *s) stream = std::move(*s);
        return stream != nullptr || !s;
      },
      deadline_ns, what);
  if (!st) return st.error();
  if (!stream) return Error{0, who_ + ": the connection refused a uni stream"};
  return stream;
}

Status MoqtPeer::write_all(SendStream& s, std::span<const uint8_t> data, uint64_t deadline_ns,
                           const std::string& what) {
  BufChain chain;
  chain.push(Bytes::copy(data));
  Status failed;
  Status st = wait(
      [&] {
        Result<size_t> n = s.write(chain);
        if (!n) failed = n.error();
        return !n || chain.empty();
      },
      deadline_ns, what);
  if (!failed) return Error{failed.error().code, "writing a stream: " + failed.error().message};
  return st;
}

Status MoqtPeer::setup(uint64_t deadline_ns) {
  Result<SendStreamPtr> control = open_uni(deadline_ns, "opening the control stream");
  if (!control) return control.error();
  control_ = std::move(*control);
  w::Setup setup;
  if (!dialer_->url().path.empty()) setup.path = dialer_->url().path;
  setup.authority = dialer_->url().authority;
  setup.implementation = "moqbench moq-test-client";
  std::vector<uint8_t> out;
  Writer wr(out, w::kVarint);
  if (Status e = w::encode_control(wr, setup, v_); !e) return e;
  if (Status e = write_all(*control_, out, deadline_ns, "sending SETUP"); !e) return e;
  return wait([&] { return peer_setup_.has_value(); }, deadline_ns,
              "waiting for the relay's SETUP");
}

Result<std::unique_ptr<MoqtRequest>> MoqtPeer::request(const w::ControlMessage& first) {
  BidiStream bidi;
  Status failed;
  Status st = wait(
      [&] {
        Result<BidiStream> b = conn_->open_bidi();
        if (!b) failed = b.error();
        if (b && *b) bidi = std::move(*b);
        return bidi || !b;
      },
      dialer_->now_ns() + 2'000'000'000, "opening a request stream");
  if (!failed) return failed.error();
  if (!st) return st.error();
  auto r = std::make_unique<MoqtRequest>(*this, std::move(bidi));
  if (Status e = r->send(first); !e) return e.error();
  return r;
}

Result<std::unique_ptr<SubgroupIn>> MoqtPeer::subgroup(uint64_t deadline_ns,
                                                       const std::string& what) {
  Status st = wait([&] { return !done_subgroups_.empty(); }, deadline_ns, what);
  if (!st) return st.error();
  std::unique_ptr<SubgroupIn> s = std::move(done_subgroups_.front());
  done_subgroups_.pop_front();
  return s;
}

Status MoqtPeer::send_subgroup(const w::SubgroupHeader& header,
                               const std::vector<std::string>& object_payloads) {
  const uint64_t deadline = dialer_->now_ns() + 2'000'000'000;
  Result<SendStreamPtr> stream = open_uni(deadline, "opening a subgroup stream");
  if (!stream) return stream.error();
  std::vector<uint8_t> out(w::kMaxSubgroupHeaderSize);
  out.resize(w::encode_subgroup_header(header, out.data()));
  w::SubgroupStreamState state;
  uint64_t id = 0;
  for (const std::string& payload : object_payloads) {
    std::array<uint8_t, w::kMaxSubgroupObjectHeaderSize> h{};
    const size_t n = w::encode_subgroup_object(state, header, id++, {}, payload.size(),
                                               w::ObjectStatus::Normal, h.data());
    if (n == 0) return Error{0, who_ + ": an object header could not be encoded"};
    out.insert(out.end(), h.begin(), h.begin() + n);
    out.insert(out.end(), payload.begin(), payload.end());
  }
  if (Status e = write_all(**stream, out, deadline, "sending a subgroup"); !e) return e;
  return (*stream)->finish();
}

std::optional<std::string> MoqtPeer::closed_why() const {
  if (!conn_->close_error()) return std::nullopt;
  const Error& e = *conn_->close_error();
  return "the connection closed: code " + hex(e.code) +
         (e.message.empty() ? std::string() : " (" + e.message + ")");
}

Status MoqtPeer::pump() {
  if (broken_) return Error{0, who_ + ": " + *broken_};
  auto violation = [&](const std::string& why) -> Status {
    broken_ = "the relay broke the protocol: " + why;
    return Error{0, who_ + ": " + *broken_};
  };
  for (;;) {
    Result<RecvStreamPtr> r = conn_->accept_uni();
    if (!r || !*r) break;
    unclassified_.push_back(std::make_unique<StreamIn>(std::move(*r)));
  }
  for (size_t i = 0; i < unclassified_.size();) {
    StreamIn& s = *unclassified_[i];
    s.pull();
    Decoded<w::UniStreamKind> k = w::classify_uni_stream(s.bytes());
    if (k.malformed()) return violation("a uni stream: " + k.error.message);
    if (!k.ok()) {
      if (s.finished() || s.broken()) {
        unclassified_.erase(unclassified_.begin() + i);
        continue;
      }
      ++i;
      continue;
    }
    std::unique_ptr<StreamIn> taken = std::move(unclassified_[i]);
    unclassified_.erase(unclassified_.begin() + i);
    switch (k.value) {
      case w::UniStreamKind::Control:
        if (peer_control_) return violation("a second control stream");
        peer_control_ = std::move(taken);
        break;
      case w::UniStreamKind::Subgroup:
        subgroups_.push_back(std::make_unique<SubgroupIn>(std::move(*taken)));
        break;
      case w::UniStreamKind::Fetch:
      case w::UniStreamKind::Padding:
        taken->stream().stop(0);
        break;
    }
  }
  if (peer_control_) {
    StreamIn& c = *peer_control_;
    c.pull();
    for (;;) {
      Decoded<w::ControlMessage> d = w::decode_control(c.bytes(), v_);
      if (d.malformed()) return violation("its control stream: " + d.error.message);
      if (!d.ok()) break;
      c.consume(d.consumed);
      if (!peer_setup_) {
        if (!std::holds_alternative<w::Setup>(d.value))
          return violation(std::string("its control stream began with ") +
                           w::control_name(d.value, v_) + ", not SETUP");
        peer_setup_ = std::get<w::Setup>(std::move(d.value));
        dialer_->log(who_ + ": the relay's SETUP arrived");
      } else if (std::holds_alternative<w::GoAway>(d.value)) {
        dialer_->log(who_ + ": the relay sent GOAWAY");
      } else {
        return violation(std::string(w::control_name(d.value, v_)) + " on the control stream");
      }
    }
    if ((c.finished() || c.broken()) && !conn_->close_error())
      return violation("it ended its control stream");
  }
  for (auto it = subgroups_.begin(); it != subgroups_.end();) {
    SubgroupIn& s = **it;
    s.in.pull();
    if (!s.header) {
      Decoded<w::SubgroupHeader> h = w::decode_subgroup_header(s.in.bytes());
      if (h.malformed()) return violation("a subgroup stream: " + h.error.message);
      if (h.ok()) {
        s.header = h.value;
        s.in.consume(h.consumed);
      }
    }
    while (s.header) {
      const w::SubgroupStreamState before = s.state;
      const std::span<const uint8_t> bytes = s.in.bytes();
      Decoded<w::SubgroupObject> o = w::decode_subgroup_object(bytes, *s.header, s.state);
      if (o.malformed()) return violation("a subgroup stream: " + o.error.message);
      if (!o.ok() || bytes.size() - o.consumed < o.value.payload_length) {
        s.state = before;  // the payload has not all arrived: decode the header again later
        break;
      }
      const auto* payload = bytes.data() + o.consumed;
      s.objects.push_back(
          {o.value.object_id, std::string(payload, payload + o.value.payload_length)});
      s.in.consume(o.consumed + o.value.payload_length);
    }
    if (s.in.finished() || s.in.broken()) {
      done_subgroups_.push_back(std::move(*it));
      it = subgroups_.erase(it);
    } else {
      ++it;
    }
  }
  for (;;) {
    Result<BidiStream> b = conn_->accept_bidi();
    if (!b || !*b) break;
    opening_.push_back(std::make_unique<MoqtRequest>(*this, std::move(*b)));
  }
  for (size_t i = 0; i < opening_.size();) {
    MoqtRequest& r = *opening_[i];
    r.in_.pull();
    Result<std::optional<w::ControlMessage>> m = r.try_decode();
    if (!m) return violation("a request stream: " + m.error().message);
    if (!*m) {
      if (r.in_.finished() || r.in_.broken()) {
        opening_.erase(opening_.begin() + i);
        continue;
      }
      ++i;
      continue;
    }
    r.first = std::move(**m);
    std::unique_ptr<MoqtRequest> taken = std::move(opening_[i]);
    opening_.erase(opening_.begin() + i);
    dialer_->log(who_ + ": the relay sent " + w::control_name(taken->first, v_));
    answer(*taken);
    held_.push_back(std::move(taken));
  }
  return {};
}

}  // namespace moq::interop
