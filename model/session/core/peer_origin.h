// PeerOrigin: the viewer's copy of the peer's broadcasts, the same for both protocol families.
//
// Each remote broadcast path in use has one BroadcastProducer that serves track requests: the
// first consumer of a track name makes one TrackRequest, which the engine turns into one
// upstream subscription (a second consumer shares it; preferences are aggregated by the data
// model). It serves group requests too: a FETCH of a group the copy does not hold (a relay's
// viewer asking for a group its cache let go) becomes one upstream FETCH of that group. While the
// peer announces a path (counted: overlapping announce requests may carry the same one), its
// broadcast is published in the origin that announced() listens to; when the last announcement
// goes, the broadcast closes (its running tracks go on) and is forgotten, so a later request starts
// afresh. close() ends everything: broadcasts first (listeners see each Unannounce), then the
// origin (listeners end).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "model/async/executor.h"
#include "model/base/path.h"
#include "model/base/result.h"
#include "model/data/data.h"

namespace moq::session::core {

class PeerOrigin {
 public:
  // serve(path, request) starts the upstream subscription for a new track of path's broadcast.
  using Serve = std::function<void(const Path& path, TrackRequest request)>;
  // forward(path, request) fetches a group of path's broadcast from the peer into request.group.
  using Forward = std::function<void(const Path& path, GroupRequest request)>;
  PeerOrigin(Executor& executor, Serve serve, Forward forward);
  ~PeerOrigin();
  PeerOrigin(const PeerOrigin&) = delete;
  PeerOrigin& operator=(const PeerOrigin&) = delete;

  // The broadcast at path, made on first use.
  BroadcastConsumer broadcast(const Path& path);
  // A track the peer pushes (moq-transport PUBLISH) into path's broadcast; kDuplicate when the
  // broadcast has a track of that name already (subscribed to, or pushed).
  Result<TrackProducer> push_track(const Path& path, std::string name, const TrackInfo& info);
  // The peer's announcements under prefix (snapshot, then live events, then the end).
  AnnounceConsumer announced(const Path& prefix) const;
  // The peer announced path / withdrew it (counted per path).
  void announce(const Path& path);
  void unannounce(const Path& path);
  void close(const Error& reason);
  bool closed() const { return closed_; }

 private:
  class Mirror;
  Mirror& mirror(const Path& path);

  Executor& executor_;
  Serve serve_;
  Forward forward_;
  OriginProducer origin_ = OriginProducer::create();
  std::map<Path, std::unique_ptr<Mirror>> mirrors_;
  bool closed_ = false;
};

}  // namespace moq::session::core
