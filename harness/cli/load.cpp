// The running load (load.h): one class, Load, whose parts (connecting, pacing the publishers,
// reading the viewers, sampling each second, the result) share its connections and counters, so
// they stay in one file; what is checked before a run starts is in load_config.cpp.
#include "harness/cli/load.h"

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "harness/cli/relay_server.h"
#include "harness/counters/alloc_counter.h"
#include "model/data/data.h"
#include "model/session/create_session.h"
#include "sim/quic/endpoint.h"
#include "sim/quic/udp.h"

namespace moq::cli {

namespace {

namespace q = sim::quic;

constexpr size_t kStamp = kLoadFrameStamp;
constexpr uint64_t kRelaySilence_ns = 10'000'000'000;  // the clients' QUIC idle timeout

uint64_t read64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// The in-process relay: a RelayServer with its own clock, executor and sockets on its own thread,
// so that its allocations (counted per thread) are its own.
class RelayThread {
 public:
  ~RelayThread() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

  // Starts the thread and waits until the relay listens (or failed to).
  Status start() {
    thread_ = std::thread([this] { body(); });
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return started_; });
    return start_status_;
  }
  const q::Address& address() const { return address_; }
  const std::string& certificate_pem() const { return cert_; }

  // Marks the start and the end of the measured window on the relay's thread.
  void mark(int which) {
    std::unique_lock lock(mu_);
    request_ = which;
    cv_.wait(lock, [&] { return request_ == 0; });
  }
  uint64_t window_allocations() const { return (at_[1] - at_[0]).allocs; }

 private:
  void body() {
    q::RealClock clock;
    Executor executor(clock);
    q::UdpLoop loop(executor);
    std::ostream quiet(nullptr);
    RelayServer server(executor, loop, quiet);
    RelayServerConfig config;
    config.listen = "127.0.0.1:0";
    Status st = server.start(config);
    {
      std::lock_guard lock(mu_);
      start_status_ = st;
      if (st) {
        address_ = server.address();
        cert_ = server.certificate_pem();
      }
      started_ = true;
    }
    cv_.notify_all();
    if (!st) return;
    while (!stop_) {
      loop.turn(2'000'000);
      server.serve();
      std::lock_guard lock(mu_);
      if (request_ != 0) {
        at_[request_ - 1] = counters::alloc_snapshot();
        request_ = 0;
        cv_.notify_all();
      }
    }
    server.shutdown();
  }

  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool started_ = false;
  Status start_status_;
  q::Address address_;
  std::string cert_;
  std::atomic<bool> stop_{false};
  int request_ = 0;  // 1: mark the window's start, 2: its end
  counters::AllocSnapshot at_[2];
};

struct Broadcast {
  Path path;
  BroadcastProducer producer;
  TrackProducer track;
  GroupProducer group;
};

struct Publisher {
  std::unique_ptr<q::QuicConnection> conn;
  OriginProducer origin;
  std::vector<Broadcast> broadcasts;
  std::unique_ptr<session::Session> session;
};

struct Viewer {
  std::unique_ptr<q::QuicConnection> conn;
  std::unique_ptr<session::Session> session;
  size_t broadcast = 0;
  TrackConsumer sub;
  GroupConsumer group;
  bool in_group = false;
  uint64_t group_first = UINT64_MAX;  // number of the first frame read of the current group
  uint64_t group_worst_ns = 0;        // the latest of its frames so far
  bool ended = false;
};

class Load;

// Writes one frame on every broadcast per tick of the frame rate.
class Pacer final : public Task {
 public:
  Pacer(Executor& ex, Load& load) : Task(ex, "load pacer"), load_(&load), timer(*this) {}
  Poll poll() override;

 private:
  Load* load_;

 public:
  Timer timer;
};

class Load {
 public:
  Load(const LoadConfig& config, std::ostream& err, bool terminal)
      : config_(config),
        err_(&err),
        terminal_(terminal),
        executor_(clock_),
        loop_(executor_),
        pacer_(executor_, *this),
        group_frames_(config.group_frames ? config.group_frames : config.fps),
        period_ns_(1'000'000'000ull / config.fps) {}

  ~Load() {
    viewers_.clear();
    publishers_.clear();
    endpoint_.reset();
    if (socket_) loop_.remove(*socket_);
  }

  Result<results::CaseResult> run();
  Poll tick();

 private:
  Status connect_all();
  // Error when a connection to the relay has ended: which, why, and when in the run.
  Status check_connections() const;
  std::string seconds_into_run() const;
  Result<std::unique_ptr<q::QuicConnection>> start_connection();
  Status wait_established(const std::vector<q::QuicConnection*>& conns, const char* who);
  Status wait(uint64_t ns);
  void write_frame(Broadcast& b, uint64_t n, uint64_t now);
  void read_viewers();
  void on_frame(size_t v, const FrameView& frame);
  void sample_second();  // one second of the window: the generator's own counts
  void progress(uint64_t elapsed_s, bool last);
  uint64_t client_sum(uint64_t ConnectionStats::*field) const;
  uint64_t client_wire(uint64_t WireStats::*field) const;

  LoadConfig config_;
  uint64_t run_start_ns_ = 0;
  std::ostream* err_;
  bool terminal_;
  q::RealClock clock_;
  Executor executor_;
  q::UdpLoop loop_;
  Pacer pacer_;
  const uint64_t group_frames_;
  const uint64_t period_ns_;
  std::unique_ptr<RelayThread> relay_;
  q::Address relay_address_;
  std::shared_ptr<q::TlsTrust> trust_;
  q::SystemEntropy entropy_;
  std::unique_ptr<q::UdpSocket> socket_;
  std::unique_ptr<q::QuicEndpoint> endpoint_;
  std::vector<Publisher> publishers_;
  std::vector<Broadcast*> broadcasts_;
  std::vector<Viewer> viewers_;
  ByteArena arena_{64 << 10};

  // Pacing and the window: frames [window_first_, window_end_) are measured.
  bool writing_ = false;
  uint64_t next_frame_ = 0;
  uint64_t next_tick_ns_ = 0;
  uint64_t window_first_ = UINT64_MAX;
  uint64_t window_end_ = UINT64_MAX;

  // What the viewers read of the window.
  uint64_t delivered_ = 0;
  uint64_t delivered_bytes_ = 0;
  uint64_t hash_ = 0;  // order-independent: sum of a mix of (viewer, frame number)
  std::vector<uint64_t> frame_latency_;
  std::vector<uint64_t> group_latency_;
  uint64_t viewers_ended_ = 0;

  // Per-second samples of the generator's own counts.
  struct Counts {
    counters::AllocSnapshot allocs;
    uint64_t streams = 0, wire_bytes = 0, tasks = 0, packets = 0, udp_bytes = 0, at_ns = 0;
  };
  Counts read_counts() const;
  Counts last_;
  std::vector<uint64_t> s_allocs_, s_alloc_bytes_, s_wall_, s_streams_, s_wire_, s_tasks_,
      s_packets_, s_udp_;
};

Poll Pacer::poll() {
  return load_->tick();
}

Poll Load::tick() {
  if (!writing_) return Poll::Pending;
  const uint64_t now = executor_.now_ns();
  while (next_tick_ns_ <= now) {
    for (Broadcast* b : broadcasts_)
      write_frame(*b, next_frame_, now);
    ++next_frame_;
    next_tick_ns_ += period_ns_;
  }
  pacer_.timer.arm_at(next_tick_ns_);
  return Poll::Pending;
}

void Load::write_frame(Broadcast& b, uint64_t n, uint64_t now) {
  uint8_t* p = arena_.reserve(config_.frame_size);
  std::memcpy(p, &now, 8);
  std::memcpy(p + 8, &n, 8);
  std::memset(p + kStamp, static_cast<int>(n & 0xff), config_.frame_size - kStamp);
  Bytes payload = arena_.commit(config_.frame_size);
  if (n % group_frames_ == 0) {
    if (b.group) (void)b.group.finish();
    Result<GroupProducer> g = b.track.append_group();
    if (!g) return;
    b.group = std::move(*g);
  }
  (void)b.group.write_frame(n, std::move(payload));
  if ((n + 1) % group_frames_ == 0) {
    (void)b.group.finish();
    b.group = GroupProducer();
  }
}

void Load::on_frame(size_t v, const FrameView& frame) {
  uint8_t stamp[kStamp];
  size_t got = 0;
  for (const Bytes& c : frame.chunks) {
    const size_t k = std::min(c.size(), kStamp - got);
    std::memcpy(stamp + got, c.data(), k);
    got += k;
    if (got == kStamp) break;
  }
  if (got < kStamp) return;
  const uint64_t written = read64(stamp), n = read64(stamp + 8);
  const uint64_t now = executor_.now_ns();
  Viewer& viewer = viewers_[v];
  const uint64_t latency = now - written;
  if (n % group_frames_ == 0) {
    viewer.group_first = n;
    viewer.group_worst_ns = 0;
  }
  viewer.group_worst_ns = std::max(viewer.group_worst_ns, latency);
  if (n < window_first_ || n >= window_end_) return;
  ++delivered_;
  delivered_bytes_ += frame.size;
  uint64_t z = (static_cast<uint64_t>(v) << 40) ^ n;
  z = (z ^ (z >> 31)) * 0x9e3779b97f4a7c15ull;
  hash_ += z ^ (z >> 29);
  frame_latency_.push_back(latency);
  // A group whose every frame this viewer read in the window: its latest frame's latency.
  if ((n + 1) % group_frames_ == 0 && viewer.group_first != UINT64_MAX &&
      viewer.group_first + group_frames_ - 1 == n && viewer.group_first >= window_first_)
    group_latency_.push_back(viewer.group_worst_ns);
}

void Load::read_viewers() {
  for (size_t v = 0; v < viewers_.size(); ++v) {
    Viewer& viewer = viewers_[v];
    while (!viewer.ended) {
      if (!viewer.in_group) {
        const Next next = viewer.sub.next(viewer.group);
        if (next == Next::Ready) {
          viewer.in_group = true;
          continue;
        }
        if (next != Next::Pending) {
          viewer.ended = true;
          ++viewers_ended_;
        }
        break;
      }
      FrameView frame;
      const Next next = viewer.group.next(frame);
      if (next == Next::Ready) {
        on_frame(v, frame);
      } else if (next == Next::Pending) {
        break;
      } else {
        viewer.in_group = false;  // End, or a group abandoned for a newer one
      }
    }
  }
}

Status Load::wait(uint64_t ns) {
  const uint64_t until = executor_.now_ns() + ns;
  while (executor_.now_ns() < until) {
    loop_.turn(std::min<uint64_t>(until - executor_.now_ns(), 5'000'000));
    read_viewers();
    if (Status st = check_connections(); !st) return st;
  }
  return {};
}

std::string Load::seconds_into_run() const {
  char at[64];
  std::snprintf(at, sizeof at, "%.1f s into the run",
                static_cast<double>(executor_.now_ns() - run_start_ns_) / 1e9);
  return at;
}

Status Load::check_connections() const {
  auto ended = [&](const std::unique_ptr<q::QuicConnection>& c, const std::string& who) -> Status {
    if (!c || !c->close_error()) return {};
    return Error{0, who + "'s connection to the relay at " + relay_address_.to_string() +
                        " ended " + seconds_into_run() + ": " + c->close_error()->message};
  };
  for (size_t i = 0; i < publishers_.size(); ++i)
    if (Status st = ended(publishers_[i].conn, "publisher " + std::to_string(i)); !st) return st;
  for (size_t i = 0; i < viewers_.size(); ++i)
    if (Status st = ended(viewers_[i].conn, "viewer " + std::to_string(i)); !st) return st;
  return {};
}

Result<std::unique_ptr<q::QuicConnection>> Load::start_connection() {
  return endpoint_->connect(relay_address_, std::string(session::version_alpn(config_.version)),
                            trust_);
}

Status Load::wait_established(const std::vector<q::QuicConnection*>& conns, const char* who) {
  Status st = loop_.run_until(
      [&] {
        for (q::QuicConnection* c : conns)
          if (!c->established() && !c->close_error()) return false;
        return true;
      },
      10'000'000'000, who);
  if (!st) return st;
  for (q::QuicConnection* c : conns) {
    if (!c->close_error()) continue;
    std::string why =
        std::string(who) + " (" + seconds_into_run() + "): " + c->close_error()->message;
    if (c->peer_certificate_rejected())
      why +=
          "; for a self-signed test relay use "
          "--tls-disable-verify, or trust its certificate with --ca-file FILE (PEM)";
    return Error{0, why};
  }
  return {};
}

Status Load::connect_all() {
  if (config_.connect.empty()) {
    relay_ = std::make_unique<RelayThread>();
    if (Status st = relay_->start(); !st)
      return Error{0, "the in-process relay: " + st.error().message};
    relay_address_ = relay_->address();
    Result<std::shared_ptr<q::TlsTrust>> t = q::TlsTrust::of_pem(relay_->certificate_pem());
    if (!t) return t.error();
    trust_ = *t;
  } else {
    Result<q::Address> a = q::Address::parse(config_.connect, 4443);
    if (!a) return Error{0, "--connect: " + a.error().message};
    relay_address_ = *a;
    // The system's store is loaded only when it is the one trusted.
    Result<std::shared_ptr<q::TlsTrust>> t = config_.tls_disable_verify ? q::TlsTrust::anything()
                                             : config_.ca_file.empty()
                                                 ? q::TlsTrust::system()
                                                 : trust_of_ca_file(config_.ca_file);
    if (!t) return t.error();
    trust_ = *t;
  }
  Result<std::unique_ptr<q::UdpSocket>> s = q::UdpSocket::bind(
      q::Address::ipv4(relay_address_.storage.ss_family == AF_INET6 ? 0 : 0x7f000001, 0));
  if (!s) return s.error();
  socket_ = std::move(*s);
  loop_.add(*socket_);
  q::QuicSettings settings;
  // A relay that dies without a word (no CONNECTION_CLOSE, its ICMP errors rate-limited or lost)
  // ends the run by this timeout; a live relay is never this silent while frames flow.
  settings.idle_timeout_ns = kRelaySilence_ns;
  endpoint_ = std::make_unique<q::QuicEndpoint>(executor_, *socket_, entropy_, settings);

  // Publishers first, so that their announcements reach the relay before anyone subscribes.
  publishers_.resize(config_.publishers);
  std::vector<q::QuicConnection*> conns;
  for (Publisher& p : publishers_) {
    Result<std::unique_ptr<q::QuicConnection>> c = start_connection();
    if (!c) return c.error();
    p.conn = std::move(*c);
    conns.push_back(p.conn.get());
  }
  if (Status st = wait_established(conns, "connecting the publishers"); !st) return st;
  for (size_t i = 0; i < publishers_.size(); ++i) {
    Publisher& p = publishers_[i];
    p.origin = OriginProducer::create();
    p.broadcasts.resize(config_.broadcasts);
    for (size_t b = 0; b < config_.broadcasts; ++b) {
      Broadcast& br = p.broadcasts[b];
      br.path = Path("load/p" + std::to_string(i) + "/b" + std::to_string(b));
      br.producer = BroadcastProducer::create(clock_);
      Result<TrackProducer> t = br.producer.create_track("video", TrackInfo{});
      if (!t) return t.error();
      br.track = std::move(*t);
      if (Status st = p.origin.publish(br.path, br.producer.consume()); !st) return st;
      broadcasts_.push_back(&br);
    }
    session::SessionConfig serve;
    serve.publish = p.origin.consume();
    Result<std::unique_ptr<session::Session>> s =
        session::create_session(*p.conn, config_.version, std::move(serve));
    if (!s) return Error{0, "publisher " + std::to_string(i) + ": " + s.error().message};
    p.session = std::move(*s);
  }
  if (Status st = wait(200'000'000); !st) return st;

  viewers_.resize(config_.viewers);
  conns.clear();
  for (Viewer& v : viewers_) {
    Result<std::unique_ptr<q::QuicConnection>> c = start_connection();
    if (!c) return c.error();
    v.conn = std::move(*c);
    conns.push_back(v.conn.get());
  }
  if (Status st = wait_established(conns, "connecting the viewers"); !st) return st;
  for (size_t i = 0; i < viewers_.size(); ++i) {
    Viewer& v = viewers_[i];
    v.broadcast = i % broadcasts_.size();
    Result<std::unique_ptr<session::Session>> s =
        session::create_session(*v.conn, config_.version, session::SessionConfig{});
    if (!s) return Error{0, "viewer " + std::to_string(i) + ": " + s.error().message};
    v.session = std::move(*s);
    Result<TrackConsumer> sub = v.session->subscribe(broadcasts_[v.broadcast]->path, "video");
    if (!sub)
      return Error{0, "viewer " + std::to_string(i) + ": subscribe: " + sub.error().message};
    v.sub = std::move(*sub);
  }
  return {};
}

uint64_t Load::client_sum(uint64_t ConnectionStats::*field) const {
  uint64_t n = 0;
  for (const Publisher& p : publishers_)
    n += p.conn->stats().*field;
  for (const Viewer& v : viewers_)
    n += v.conn->stats().*field;
  return n;
}

uint64_t Load::client_wire(uint64_t WireStats::*field) const {
  uint64_t n = 0;
  for (const Publisher& p : publishers_)
    n += p.conn->wire_stats()->*field;
  for (const Viewer& v : viewers_)
    n += v.conn->wire_stats()->*field;
  return n;
}

Load::Counts Load::read_counts() const {
  Counts c;
  c.allocs = counters::alloc_snapshot();
  c.streams = client_sum(&ConnectionStats::uni_opened) + client_sum(&ConnectionStats::bidi_opened);
  c.wire_bytes = client_sum(&ConnectionStats::bytes_sent);
  c.tasks = executor_.polls();
  c.packets = client_wire(&WireStats::packets_sent);
  c.udp_bytes = client_wire(&WireStats::udp_bytes_sent);
  c.at_ns = executor_.now_ns();
  return c;
}

void Load::sample_second() {
  const Counts now = read_counts();
  s_allocs_.push_back(now.allocs.allocs - last_.allocs.allocs);
  s_alloc_bytes_.push_back(now.allocs.bytes - last_.allocs.bytes);
  s_wall_.push_back(now.at_ns - last_.at_ns);
  s_streams_.push_back(now.streams - last_.streams);
  s_wire_.push_back(now.wire_bytes - last_.wire_bytes);
  s_tasks_.push_back(now.tasks - last_.tasks);
  s_packets_.push_back(now.packets - last_.packets);
  s_udp_.push_back(now.udp_bytes - last_.udp_bytes);
  last_ = now;
}

void Load::progress(uint64_t elapsed_s, bool last) {
  std::vector<uint64_t> lat = frame_latency_;
  const results::LatencyStats l = results::latency_stats(lat);
  const uint64_t expected = (std::min(next_frame_, window_end_) - window_first_) * viewers_.size();
  char latency[80] = "n/a (no frame yet)";
  if (!lat.empty())
    std::snprintf(latency, sizeof latency, "p50 %.2f ms p99 %.2f ms",
                  static_cast<double>(l.p50) / 1e6, static_cast<double>(l.p99) / 1e6);
  char line[240];
  std::snprintf(line, sizeof line,
                "moqbench load: %llu/%u s  delivered %llu frames (%llu/s)  behind %lld  latency %s",
                static_cast<unsigned long long>(elapsed_s), config_.duration_s,
                static_cast<unsigned long long>(delivered_),
                static_cast<unsigned long long>(elapsed_s ? delivered_ / elapsed_s : 0),
                static_cast<long long>(expected) - static_cast<long long>(delivered_), latency);
  if (terminal_) {
    *err_ << '\r' << line << "\x1b[K" << (last ? "\n" : "") << std::flush;
  } else {
    *err_ << line << '\n' << std::flush;
  }
}

Result<results::CaseResult> Load::run() {
  run_start_ns_ = executor_.now_ns();
  if (Status st = connect_all(); !st) return st.error();
  // What a run without loss keeps, up to a bound: a long run grows the vector as it goes.
  frame_latency_.reserve(std::min<size_t>(
      static_cast<size_t>(config_.viewers) * config_.fps * config_.duration_s, size_t{1} << 24));

  // Warm-up: frames flow, subscriptions become live.
  writing_ = true;
  next_tick_ns_ = executor_.now_ns();
  pacer_.wake();
  if (Status st = wait(static_cast<uint64_t>(config_.warmup_ms) * 1'000'000); !st)
    return st.error();

  // The window: the frames written from now on for duration_s seconds.
  window_first_ = next_frame_;
  window_end_ = window_first_ + static_cast<uint64_t>(config_.fps) * config_.duration_s;
  if (relay_) relay_->mark(1);
  last_ = read_counts();
  const uint64_t start_ns = executor_.now_ns();
  for (uint32_t s = 1; s <= config_.duration_s; ++s) {
    const uint64_t second_end = start_ns + s * 1'000'000'000ull;
    if (executor_.now_ns() < second_end) {
      if (Status st = wait(second_end - executor_.now_ns()); !st) {
        if (terminal_) *err_ << '\n';  // after the redrawn progress line
        return st.error();
      }
    }
    sample_second();
    progress(s, false);
  }
  // The last window frames, then the drain.
  while (next_frame_ < window_end_)
    if (Status st = wait(period_ns_); !st) return st.error();
  writing_ = false;
  if (Status st = wait(static_cast<uint64_t>(config_.drain_ms) * 1'000'000); !st) return st.error();
  if (relay_) relay_->mark(2);
  progress(config_.duration_s, true);

  results::CaseResult r;
  r.bench = "relay";
  r.scenario = "load";
  r.version = std::string(session::version_alpn(config_.version));
  r.params = {{"publishers", static_cast<int64_t>(config_.publishers)},
              {"broadcasts", static_cast<int64_t>(config_.broadcasts)},
              {"viewers", static_cast<int64_t>(config_.viewers)},
              {"frame_size", static_cast<int64_t>(config_.frame_size)},
              {"fps", static_cast<int64_t>(config_.fps)},
              {"duration_s", static_cast<int64_t>(config_.duration_s)},
              {"relay", std::string(relay_ ? "in-process" : "external")},
              {"transport", std::string("quic")}};
  r.id = results::make_case_id(r);
  r.rounds = {0, config_.duration_s};
  results::Metrics& m = r.metrics;
  m.allocations = results::compute_stats(s_allocs_);
  m.allocation_bytes = results::compute_stats(s_alloc_bytes_);
  m.wall_ns = results::compute_stats(s_wall_);
  m.streams_opened = results::compute_stats(s_streams_);
  m.wire_bytes = results::compute_stats(s_wire_);
  m.tasks_run = results::compute_stats(s_tasks_);
  m.packets = results::compute_stats(s_packets_);
  m.udp_bytes = results::compute_stats(s_udp_);
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(hash_));
  r.delivered = {delivered_, delivered_bytes_, hash};
  results::LoadSummary load;
  load.frames_expected = (window_end_ - window_first_) * viewers_.size();
  load.frames_delivered = delivered_;
  load.frames_lost = load.frames_expected - delivered_;
  load.bytes_delivered = delivered_bytes_;
  if (!frame_latency_.empty()) load.frame_latency_ns = results::latency_stats(frame_latency_);
  if (!group_latency_.empty()) load.group_latency_ns = results::latency_stats(group_latency_);
  load.relay_in_process = relay_ != nullptr;
  if (relay_ && delivered_ > 0)
    load.relay_allocations_per_frame =
        static_cast<double>(relay_->window_allocations()) / static_cast<double>(delivered_);
  r.load = load;
  if (delivered_ == 0) {
    r.flags.failed = true;
    r.flags.reason = "no frame was delivered: " + std::to_string(load.frames_expected) +
                     " expected (" + std::to_string(viewers_ended_) + " of " +
                     std::to_string(viewers_.size()) + " viewers' subscriptions ended)";
  } else if (loss_fraction(load) > config_.max_loss) {
    char why[200];
    std::snprintf(why, sizeof why, "lost %llu of %llu frames (%.2f%%), more than --max-loss %g",
                  static_cast<unsigned long long>(load.frames_lost),
                  static_cast<unsigned long long>(load.frames_expected),
                  100.0 * loss_fraction(load), config_.max_loss);
    r.flags.failed = true;
    r.flags.reason = why;
  }
  return r;
}

}  // namespace

Result<results::CaseResult> run_load(const LoadConfig& config, std::ostream& err,
                                     bool err_is_terminal) {
  if (Status st = check_load_config(config); !st) return st.error();
  Load load(config, err, err_is_terminal);
  return load.run();
}

}  // namespace moq::cli
