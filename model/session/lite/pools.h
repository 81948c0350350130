// One task pool per kind of task the lite session runs.
#pragma once

#include "model/async/task_pool.h"
#include "model/session/lite/announce.h"
#include "model/session/lite/auth.h"
#include "model/session/lite/fetch.h"
#include "model/session/lite/goaway.h"
#include "model/session/lite/group.h"
#include "model/session/lite/inbound.h"
#include "model/session/lite/lite_session.h"
#include "model/session/lite/setup.h"
#include "model/session/lite/subscribe.h"
#include "model/session/lite/track.h"

namespace moq::session::lite {

struct Pools {
  explicit Pools(LiteSession& s)
      : uni_inbound(s),
        bidi_inbound(s),
        fetch_serve(s),
        fetch_request(s),
        subscribe_serve(s),
        subscribe_request(s),
        group_send(s),
        announce_serve(s),
        announce_request(s),
        track_serve(s),
        track_info_request(s),
        goaway_serve(s),
        goaway_send(s),
        auth_serve(s),
        auth_request(s),
        setup_send(s) {}

  // Peer-opened streams, before their type is known.
  TaskPool<UniInboundTask, LiteSession> uni_inbound;
  TaskPool<BidiInboundTask, LiteSession> bidi_inbound;
  // Per request kind: the publisher's side (serve) and the viewer's (request).
  TaskPool<FetchServeTask, LiteSession> fetch_serve;
  TaskPool<FetchRequestTask, LiteSession> fetch_request;
  TaskPool<SubscribeServeTask, LiteSession> subscribe_serve;
  TaskPool<SubscribeRequestTask, LiteSession> subscribe_request;
  TaskPool<GroupSendTask, LiteSession> group_send;
  TaskPool<AnnounceServeTask, LiteSession> announce_serve;
  TaskPool<AnnounceRequestTask, LiteSession> announce_request;
  TaskPool<TrackServeTask, LiteSession> track_serve;
  TaskPool<TrackInfoRequestTask, LiteSession> track_info_request;
  TaskPool<GoawayServeTask, LiteSession> goaway_serve;
  TaskPool<GoawaySendTask, LiteSession> goaway_send;
  TaskPool<AuthServeTask, LiteSession> auth_serve;
  TaskPool<AuthRequestTask, LiteSession> auth_request;
  TaskPool<SetupSendTask, LiteSession> setup_send;
};

}  // namespace moq::session::lite
