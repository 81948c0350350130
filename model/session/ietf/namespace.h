// SUBSCRIBE_NAMESPACE (draft-ietf-moq-transport), both roles: the publisher answers REQUEST_OK and
// then sends NAMESPACE / NAMESPACE_DONE as broadcasts come and go under the prefix (overlapping
// prefixes on one session are refused with PREFIX_OVERLAP); the viewer publishes what it learns in
// the session's copy of the peer's broadcasts (model/session/core/peer_origin.h), which announced()
// reads.
#pragma once

#include <set>

#include "model/async/list.h"
#include "model/base/path.h"
#include "model/data/data.h"
#include "model/session/ietf/request.h"

namespace moq::session::ietf {

// Publisher.
class NamespaceServeTask final : public RequestTask, public Link<NsServeTag> {
 public:
  NamespaceServeTask(IetfSession& s, TaskPoolBase& p) : RequestTask(s, p, "ietf namespace serve") {}
  void start(SendStreamPtr send, core::StreamInput& input, w::ControlMessage& request);
  const Path& prefix() const { return prefix_; }

 protected:
  Poll step() override;
  void clear() override;

 private:
  w::ControlMessage request_;  // a SubscribeNamespace
  Path prefix_;
  bool started_ = false;
  bool refused_ = false;
  AnnounceConsumer events_;
  Waiter events_waiter_{*this};
};

// Viewer.
class NamespaceRequestTask final : public RequestTask, public Link<NsRequestTag> {
 public:
  NamespaceRequestTask(IetfSession& s, TaskPoolBase& p)
      : RequestTask(s, p, "ietf namespace request") {}
  void start(const Path& prefix);
  const Path& prefix() const { return prefix_; }
  // Replaced by a request for a broader prefix: cancel.
  void withdraw();

  bool on(const w::RequestOk& ok);
  bool on(const w::RequestError& error);
  bool on(const w::Namespace& ns);
  bool on(const w::NamespaceDone& done);

 protected:
  Poll step() override;
  void clear() override;

 private:
  void withdraw_all();

  Path prefix_;
  bool sent_ = false;
  bool withdrawn_ = false;
  std::set<Path> announced_;
};

}  // namespace moq::session::ietf
