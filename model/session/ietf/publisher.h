// The publisher role: requests the peer sends are answered from SessionConfig::publish.
//
//   SubscribeServer   SUBSCRIBE -> SUBSCRIBE_OK (alias), one SubgroupSender per group, then
//                     PUBLISH_DONE once every data stream closed; -22 FILL_PARAMETERS start a
//                     fill (a FetchServer without request stream)
//   SubgroupSender    one subgroup stream: header, then every available object of its group in
//                     one gather write per wake-up (headers from the session's ByteArena,
//                     payloads by reference), FIN at the group's end
//   FetchServer       FETCH (-18 standalone or joining, -22 LOCATION_FILTER) -> FETCH_OK and one
//                     fetch stream; or a -22 fill stream for a subscription
//   TrackStatusServer TRACK_STATUS -> REQUEST_OK with LARGEST_OBJECT and Track Properties
//   NamespaceServer   SUBSCRIBE_NAMESPACE -> REQUEST_OK, then NAMESPACE / NAMESPACE_DONE
//   PublishNamespaceClient  (client endpoints) PUBLISH_NAMESPACE for each published broadcast
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/data/data.h"
#include "model/session/ietf/ranges.h"
#include "model/session/ietf/request_task.h"
#include "model/wire/ietf/data.h"
#include "model/wire/ietf/messages.h"

namespace moq::session::ietf_session {

struct SenderTag;
struct FillTag;
class SubscribeServer;

// Finds the track a request names in the served origin. nullopt with a REQUEST_ERROR to send.
struct TrackLookup {
  std::optional<TrackConsumer> track;
  w::RequestError error;
};
TrackLookup lookup_track(IetfSession& s, const w::TrackNamespace& ns, const std::string& name,
                         const TrackPreferences& prefs = {});

class SubgroupSender final : public Task, public Link<SenderTag> {
 public:
  SubgroupSender(IetfSession& s, SubscribeServer& owner, GroupConsumer group, uint64_t alias,
                 uint64_t first_frame, uint64_t end_frame, int64_t send_order);
  ~SubgroupSender() override;
  Poll poll() override;
  // Resets the stream (subscription cancelled) and ends at the next poll.
  void cancel(uint64_t code);

 private:
  friend class SubscribeServer;
  IetfSession& s_;
  SubscribeServer* owner_;
  GroupConsumer group_;
  w::SubgroupHeader header_;
  w::SubgroupStreamState state_;
  uint64_t end_frame_;
  int64_t send_order_;
  SendStreamPtr out_;
  Outbox outbox_;
  bool header_sent_ = false;
  bool ended_ = false;
  Waiter data_{*this};
  Waiter wr_{*this};
  Waiter open_{*this};
  Waiter closing_{*this};
};

// One group's share of a fetch: frames [first, end) as they were when the request was processed.
struct FetchPart {
  GroupConsumer group;
  uint64_t first = 0;
  uint64_t end = 0;
};

// The parts of a fetch in sending order: one group in the common case, kept inline (no
// allocation); further groups go to a vector.
class FetchParts {
 public:
  void push_back(FetchPart p) {
    if (n_ == 0) {
      first_ = std::move(p);
    } else {
      rest_.push_back(std::move(p));
    }
    ++n_;
  }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  FetchPart& operator[](size_t i) { return i == 0 ? first_ : rest_[i - 1]; }
  const FetchPart& operator[](size_t i) const { return i == 0 ? first_ : rest_[i - 1]; }
  void reverse() {
    for (size_t i = 0, j = n_ ? n_ - 1 : 0; i < j; ++i, --j)
      std::swap((*this)[i], (*this)[j]);
  }
  void clear() {
    first_ = FetchPart{};
    rest_.clear();
    n_ = 0;
  }

 private:
  FetchPart first_;
  std::vector<FetchPart> rest_;
  size_t n_ = 0;
};

class FetchServer final : public RequestTask, public Link<FillTag> {
 public:
  // A FETCH request (standalone or -18 joining).
  FetchServer(IetfSession& s, SendStreamPtr send, StreamInput input, w::Fetch fetch);
  // A -22 fill of a subscription: objects of span, on a fetch stream carrying request_id.
  FetchServer(IetfSession& s, SubscribeServer& owner, uint64_t request_id, const Span& span);
  ~FetchServer() override;
  Poll poll() override;
  // The subscription of a fill was cancelled: reset the fill stream.
  void cancel(uint64_t code);

 private:
  enum class Phase : uint8_t { Resolve, Answer, Data, Linger, Done };
  Poll resolve();
  bool plan(const TrackConsumer& track, const Span& span);
  bool refuse(w::RequestErrorCode code, std::string reason);
  bool write_data();
  Poll end();

  Phase phase_ = Phase::Resolve;
  w::Fetch fetch_;
  bool fill_ = false;
  SubscribeServer* owner_ = nullptr;  // fill only
  uint64_t request_id_ = 0;
  std::optional<TrackConsumer> track_;
  std::optional<Span> span_;
  FetchParts parts_;
  uint8_t publisher_priority_ = 0;   // wire value
  uint8_t subscriber_priority_ = 0;  // local value
  SendStreamPtr data_;
  Outbox data_out_;
  bool data_done_ = false;
  Waiter data_wr_{*this};
  Waiter wait_{*this};  // track state, joined subscription
};

class SubscribeServer final : public RequestTask, public Link<ServeTag> {
 public:
  SubscribeServer(IetfSession& s, SendStreamPtr send, StreamInput input, w::Subscribe subscribe);
  ~SubscribeServer() override;
  Poll poll() override;

  uint64_t request_id() const { return subscribe_.request_id; }
  bool established() const { return phase_ == Phase::Active || phase_ == Phase::Draining; }
  bool forwarding() const { return forward_; }
  const Path& path() const { return path_; }
  const std::string& track_name() const { return subscribe_.track_name; }
  // What SUBSCRIBE_OK reported, and where the subscription starts (a joining FETCH ends before).
  const TrackEdge& edge_at_ok() const { return edge_; }
  w::Location start() const { return span_.start; }
  TrackConsumer& track() { return *track_; }
  // Notified when the subscription is established or ends.
  WaitList& state_changed() { return state_changed_; }

  void note_stream_opened();
  void sender_done(SubgroupSender& sender);
  void fill_done(FetchServer& fill);

 private:
  enum class Phase : uint8_t { Resolve, Active, Draining, Closing, Done };
  Poll resolve();
  void start_fill(uint64_t request_id, const w::FillParameters& fill);
  void handle_update(const w::RequestUpdate& update);
  void spawn_senders();
  void cancel_all(uint64_t code);
  Poll end();

  Phase phase_ = Phase::Resolve;
  w::Subscribe subscribe_;
  Path path_;
  uint64_t alias_ = 0;
  std::optional<TrackConsumer> track_;
  TrackEdge edge_;
  Span span_;
  bool forward_ = true;
  uint8_t priority_ = 0;  // local
  bool ascending_ = true;
  uint64_t streams_ = 0;  // data streams opened (PUBLISH_DONE Stream Count)
  uint64_t done_status_ = 0;
  std::string done_reason_;
  IntrusiveList<SubgroupSender, SenderTag> senders_;
  IntrusiveList<FetchServer, FillTag> fills_;
  Waiter track_wait_{*this};
  Waiter children_{*this};
  WaitList children_done_{"subscription data streams"};
  WaitList state_changed_{"subscription state"};
};

class TrackStatusServer final : public RequestTask {
 public:
  TrackStatusServer(IetfSession& s, SendStreamPtr send, StreamInput input, w::TrackStatus msg);
  Poll poll() override;

 private:
  w::TrackStatus msg_;
  std::optional<TrackConsumer> track_;
  bool answered_ = false;
  Waiter wait_{*this};
};

class NamespaceServer final : public RequestTask, public Link<NsServeTag> {
 public:
  NamespaceServer(IetfSession& s, SendStreamPtr send, StreamInput input, w::SubscribeNamespace msg);
  Poll poll() override;
  const Path& prefix() const { return prefix_; }

 private:
  w::SubscribeNamespace msg_;
  Path prefix_;
  bool started_ = false;
  bool refused_ = false;
  AnnounceConsumer events_;
  Waiter ev_{*this};
};

class PublishNamespaceClient final : public RequestTask, public Link<PubNsTag> {
 public:
  PublishNamespaceClient(IetfSession& s, Path path);
  Poll poll() override;
  const Path& path() const { return path_; }
  // The broadcast was unpublished: withdraw the namespace.
  void withdraw();

 private:
  Path path_;
  bool sent_ = false;
  bool withdrawn_ = false;
};

}  // namespace moq::session::ietf_session
