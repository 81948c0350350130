// One task pool per kind of task the session runs.
#pragma once

#include "model/session/lite/inbound.h"
#include "model/session/lite/request.h"
#include "model/session/lite/serve.h"
#include "model/session/lite/task.h"

namespace moq::session::lite {

struct Pools {
  // Peer-opened streams.
  TaskPool<UniInboundTask> uni_inbound;
  TaskPool<BidiInboundTask> bidi_inbound;
  // Publisher role.
  TaskPool<FetchServeTask> fetch_serve;
  TaskPool<SubscribeServeTask> subscribe_serve;
  TaskPool<GroupSendTask> group_send;
  TaskPool<AnnounceServeTask> announce_serve;
  TaskPool<TrackServeTask> track_serve;
  TaskPool<GoawayServeTask> goaway_serve;
  TaskPool<AuthServeTask> auth_serve;
  // Viewer role.
  TaskPool<FetchRequestTask> fetch_request;
  TaskPool<SubscribeRequestTask> subscribe_request;
  TaskPool<AnnounceRequestTask> announce_request;
  TaskPool<TrackInfoRequestTask> track_info_request;
  TaskPool<GoawaySendTask> goaway_send;
  TaskPool<AuthRequestTask> auth_request;
  TaskPool<SetupSendTask> setup_send;
};

}  // namespace moq::session::lite
