#include "scenarios/model_world.h"

#include "scenarios/bench_util.h"

namespace moq::scenarios {

namespace {

Result<session::Version> case_version(const std::string& name) {
  std::optional<session::Version> v = session::parse_version(name);
  if (!v || !session::is_implemented(*v))
    return Error{0, "version '" + name + "' has no session engine"};
  return *v;
}

}  // namespace

Result<ModelWorldConfig> model_world_config(const harness::CaseSpec& spec) {
  Result<session::Version> version = case_version(spec.version());
  if (!version) return version.error();
  ModelWorldConfig config;
  config.version = *version;
  config.publishers = static_cast<uint32_t>(spec.integer("publishers"));
  config.viewers = static_cast<uint32_t>(spec.integer("viewers"));
  return config;
}

Status ModelWorld::build(const ModelWorldConfig& config) {
  probe_.set_executor(&executor_);
  publishers_.resize(config.publishers);
  for (uint32_t p = 0; p < config.publishers; ++p) {
    ModelPublisher& pub = publishers_[p];
    pub.origin = OriginProducer::create();
    pub.broadcast = BroadcastProducer::create(clock_);
    TrackInfo info;
    info.cache.max_groups = config.cached_groups;
    Result<TrackProducer> track = pub.broadcast.create_track("video", info);
    if (!track) return Error{0, "publisher " + std::to_string(p) + ": " + track.error().message};
    pub.track = std::move(*track);
    pub.path = Path("bench/pub" + std::to_string(p));
    if (Status st = pub.origin.publish(pub.path, pub.broadcast.consume()); !st)
      return Error{0, "publisher " + std::to_string(p) + ": " + st.error().message};
  }
  viewers_.resize(config.viewers);
  sim::memory::PairConfig pair;
  pair.alpn = std::string(session::version_alpn(config.version));
  for (uint32_t i = 0; i < config.viewers; ++i) {
    ModelViewer& v = viewers_[i];
    v.publisher = i % config.publishers;
    ++publishers_[v.publisher].viewers;
    Result<sim::memory::ConnectionPair> conns = sim::memory::make_pair(executor_, pair);
    if (!conns) return Error{0, "viewer " + std::to_string(i) + ": " + conns.error().message};
    v.conns = std::move(*conns);
    session::SessionConfig serve;
    serve.publish = publishers_[v.publisher].origin.consume();
    serve.hop_id = 1000 + v.publisher;
    Result<std::unique_ptr<session::Session>> s =
        session::create_session(*v.conns.server, config.version, serve);
    if (!s)
      return Error{0,
                   "publisher session for viewer " + std::to_string(i) + ": " + s.error().message};
    v.serving = std::move(*s);
    session::SessionConfig view;
    view.hop_id = 2000 + i;
    s = session::create_session(*v.conns.client, config.version, view);
    if (!s) return Error{0, "viewer session " + std::to_string(i) + ": " + s.error().message};
    v.session = std::move(*s);
    probe_.watch(*v.conns.server);
    probe_.watch(*v.conns.client);
  }
  return settle(executor_, "connecting the sessions");
}

void ModelWorld::clear_logs() {
  for (ModelViewer& v : viewers_)
    v.log.clear();
}

harness::RoundDelivery ModelWorld::delivered() const {
  harness::DeliveryCombiner all;
  for (const ModelViewer& v : viewers_)
    all.add(v.log.delivery());
  return all.result();
}

}  // namespace moq::scenarios
