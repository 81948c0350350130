// FETCH (draft-ietf-moq-transport), both roles: the publisher answers with FETCH_OK and one fetch
// stream holding every object of the range as it stands when the request is processed (a -18
// joining FETCH is answered from the subscription it joins, a -22 fill is a fetch stream without a
// request stream); the viewer writes the objects into the group it hands out as a FetchConsumer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/async/list.h"
#include "model/base/path.h"
#include "model/data/data.h"
#include "model/session/ietf/objects.h"
#include "model/session/ietf/ranges.h"
#include "model/session/ietf/request.h"
#include "model/session/session.h"
#include "model/wire/ietf/data.h"

namespace moq::session::ietf {

class SubscribeServeTask;
struct FillTag;

// A fetch stream just accepted (its FETCH_HEADER read): to the request it answers; an unknown
// Request ID of ours stops it, one we never issued closes the session.
void deliver_fetch_stream(IetfSession& s, uint64_t request_id, core::StreamInput& input);

// One group's share of a fetch: frames [first, end) as they were when the request was processed.
struct FetchPart {
  GroupConsumer group;
  uint64_t first = 0;
  uint64_t end = 0;
};

// The parts of a fetch in sending order: one group in the common case, kept inline; further
// groups go to a vector that keeps its capacity.
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

// Publisher.
class FetchServeTask final : public RequestTask, public Link<FillTag> {
 public:
  FetchServeTask(IetfSession& s, TaskPoolBase& p) : RequestTask(s, p, "ietf fetch serve") {}
  // A FETCH request (standalone or -18 joining).
  void start(SendStreamPtr send, core::StreamInput& input, w::ControlMessage& request);
  // A -22 fill of a subscription: objects of span, on a fetch stream carrying request_id.
  void start_fill(SubscribeServeTask& owner, uint64_t request_id, const Span& span);
  // The subscription of a fill was cancelled: reset the fill stream and end.
  void cancel(uint64_t code);

 protected:
  Poll step() override;
  void clear() override;

 private:
  // Forward: groups a relay's copy lacked were asked upstream and are still arriving.
  enum class Phase : uint8_t { Resolve, Forward, Answer, Data, Linger };
  const w::Fetch& fetch() const { return std::get<w::Fetch>(request_); }
  // False when the job is over.
  bool resolve();
  bool resolve_joining();
  // The parts of span from the track's cache; with `forward` (a standalone FETCH), the groups it
  // misses are asked of the track's producer side (a relay's copy asks upstream, once per group
  // across re-plans) and arriving_ is the first of them still open. False: no part.
  bool plan(const TrackConsumer& track, const Span& span, bool forward = false);
  std::optional<GroupConsumer> forwarded(const TrackConsumer& track, uint64_t sequence,
                                         size_t& next);
  // Plans span_ of a standalone FETCH and answers it, or waits for the groups asked upstream
  // (ietf answers with the objects that exist when it is processed: a forwarded group is
  // answered once it is complete).
  void plan_standalone();
  void refuse(w::RequestErrorCode code, std::string reason);
  // Writes the fetch stream; false when it failed.
  bool write_data();

  Phase phase_ = Phase::Resolve;
  w::ControlMessage request_;  // the FETCH (not for a fill)
  bool fill_ = false;
  SubscribeServeTask* owner_ = nullptr;  // fill only
  uint64_t request_id_ = 0;
  std::optional<TrackConsumer> track_;
  Span span_;                             // standalone: what is planned
  std::vector<GroupConsumer> forwarded_;  // asked upstream, in sequence order
  GroupConsumer arriving_;                // the first of them still open
  FetchParts parts_;
  uint8_t publisher_priority_ = 0;   // wire value
  uint8_t subscriber_priority_ = 0;  // local value
  SendStreamPtr data_;
  core::Outbox data_out_;
  bool data_done_ = false;
  Waiter data_wr_{*this};
  Waiter wait_{*this};  // track state, joined subscription
};

// Viewer.
class FetchRequestTask final : public RequestTask, public Link<FetchTag> {
 public:
  FetchRequestTask(IetfSession& s, TaskPoolBase& p) : RequestTask(s, p, "ietf fetch request") {}
  void start(const Path& broadcast, std::string_view track, uint64_t group,
             const FetchOptions& options, GroupProducer out);
  uint64_t request_id() const { return request_id_; }
  // The fetch stream arrived. False when this fetch has one already.
  bool take_data(core::StreamInput& input);

  bool on(const w::FetchOk& ok);
  bool on(const w::RequestError& error);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  Poll fail(Error e);
  // Reads the fetch stream; false when the job is over (result set).
  bool read_data(Poll& result);

  w::Fetch fetch_;  // kept: its strings keep their capacity
  uint64_t group_seq_ = 0;
  GroupProducer group_;
  uint64_t request_id_ = 0;
  bool sent_ = false;
  bool ok_ = false;
  bool failed_ = false;
  bool finished_ = false;
  bool refused_ = false;  // set by a handler: the job ends
  core::StreamInput data_;
  w::FetchStreamState state_;
  ObjectParser parser_;
  bool data_done_ = false;
  Waiter data_rd_{*this};
};

}  // namespace moq::session::ietf
