// PUBLISH_NAMESPACE (draft-ietf-moq-transport), both roles: a client that publishes announces each
// broadcast of its origin (and withdraws it by cancelling the stream when it is unpublished); the
// receiver announces the path in the session's copy of the peer's broadcasts while the request
// stands.
#pragma once

#include "model/async/list.h"
#include "model/base/path.h"
#include "model/session/ietf/request.h"

namespace moq::session::ietf {

// Ours (client endpoints with an origin).
class PublishNamespaceRequestTask final : public RequestTask, public Link<PubNsTag> {
 public:
  PublishNamespaceRequestTask(IetfSession& s, TaskPoolBase& p)
      : RequestTask(s, p, "ietf publish namespace request") {}
  void start(const Path& path);
  const Path& path() const { return path_; }
  // The broadcast was unpublished: withdraw the namespace.
  void withdraw();

  bool on(const w::RequestOk& ok);
  bool on(const w::RequestError& error);

 protected:
  Poll step() override;
  void clear() override;

 private:
  Path path_;
  bool sent_ = false;
  bool withdrawn_ = false;
};

// The peer's.
class PublishNamespaceServeTask final : public RequestTask {
 public:
  PublishNamespaceServeTask(IetfSession& s, TaskPoolBase& p)
      : RequestTask(s, p, "ietf publish namespace serve") {}
  void start(SendStreamPtr send, core::StreamInput& input, Path path);

  bool on(const w::RequestUpdate& update);

 protected:
  Poll step() override;
  void clear() override;

 private:
  Path path_;
  bool answered_ = false;
};

}  // namespace moq::session::ietf
