// One task pool per kind of task the moq-transport session runs.
#pragma once

#include "model/async/task_pool.h"
#include "model/session/ietf/fetch.h"
#include "model/session/ietf/ietf_session.h"
#include "model/session/ietf/inbound.h"
#include "model/session/ietf/namespace.h"
#include "model/session/ietf/publish_namespace.h"
#include "model/session/ietf/refuse.h"
#include "model/session/ietf/subgroup.h"
#include "model/session/ietf/subscribe.h"
#include "model/session/ietf/track_status.h"

namespace moq::session::ietf {

struct Pools {
  explicit Pools(IetfSession& s)
      : uni_inbound(s),
        bidi_inbound(s),
        subscribe_serve(s),
        subscribe_request(s),
        group_send(s),
        fetch_serve(s),
        fetch_request(s),
        track_status_serve(s),
        track_status_request(s),
        namespace_serve(s),
        namespace_request(s),
        publish_namespace_serve(s),
        publish_namespace_request(s),
        refuse(s) {}

  // Peer-opened streams, before what they carry is known.
  TaskPool<UniInboundTask, IetfSession> uni_inbound;
  TaskPool<BidiInboundTask, IetfSession> bidi_inbound;
  // Per request kind: the publisher's side (serve) and the viewer's (request).
  TaskPool<SubscribeServeTask, IetfSession> subscribe_serve;
  TaskPool<SubscribeRequestTask, IetfSession> subscribe_request;
  TaskPool<GroupSendTask, IetfSession> group_send;
  TaskPool<FetchServeTask, IetfSession> fetch_serve;
  TaskPool<FetchRequestTask, IetfSession> fetch_request;
  TaskPool<TrackStatusServeTask, IetfSession> track_status_serve;
  TaskPool<TrackStatusRequestTask, IetfSession> track_status_request;
  TaskPool<NamespaceServeTask, IetfSession> namespace_serve;
  TaskPool<NamespaceRequestTask, IetfSession> namespace_request;
  TaskPool<PublishNamespaceServeTask, IetfSession> publish_namespace_serve;
  TaskPool<PublishNamespaceRequestTask, IetfSession> publish_namespace_request;
  TaskPool<RefuseTask, IetfSession> refuse;
};

}  // namespace moq::session::ietf
