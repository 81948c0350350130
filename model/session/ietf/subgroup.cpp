#include "model/session/ietf/subgroup.h"

#include <utility>

#include "model/data/errors.h"
#include "model/session/ietf/ietf_session.h"
#include "model/session/ietf/subscribe.h"
#include "model/wire/ietf/describe_value.h"

namespace moq::session::ietf {

namespace {
constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);
constexpr uint64_t kExcessiveLoad = uint64_t(w::StreamResetCode::ExcessiveLoad);
}  // namespace

// ---- Publisher ----

void GroupSendTask::start(SubscribeServeTask& owner, GroupConsumer group, uint64_t alias,
                          uint64_t first_frame, uint64_t end_frame, int64_t send_order) {
  header_ = w::SubgroupHeader{};
  header_.track_alias = alias;
  header_.group_id = group.sequence();
  header_.subgroup_mode = w::SubgroupIdMode::Zero;
  header_.default_priority = true;  // the track's DEFAULT_PUBLISHER_PRIORITY applies
  header_.end_of_group = true;      // one subgroup per group: it holds the group's last object
  // -17 has no FIRST_OBJECT bit (17.7).
  header_.first_object = first_frame == 0 && w::has_first_object_subgroup_types(session_.v());
  state_ = w::SubgroupStreamState{};
  begin(owner, std::move(group), first_frame, end_frame, send_order);
}

void GroupSendTask::clear() {
  clear_group();
  Link<SenderTag>::unlink();
}

Poll GroupSendTask::step() {
  return send_group();
}

void GroupSendTask::drop_stale() {
  end_with(uint64_t(w::StreamResetCode::DeliveryTimeout), "subgroup delivery timeout");
}

// ---- Viewer ----

void SubgroupReceiver::clear() {
  if (parked_) --s_->parked_streams;
  parked_ = false;
  if (SubscribeRequestTask* sub = std::exchange(sub_, nullptr)) sub->receiver_done(*this);
  Link<ReceiverTag>::unlink();
  held_ = false;
  writing_ = false;
  group_ = GroupProducer();
  state_ = w::SubgroupStreamState{};
  parser_.clear();
  in_ = nullptr;
}

void SubgroupReceiver::abandon(const Error& reason) {
  if (group_) group_.abort(reason);
}

void SubgroupReceiver::cancel(uint64_t code) {
  sub_ = nullptr;  // the subscription is the one cancelling
  if (group_) group_.abort(Error{data_error::kCancelled, "subscription cancelled"});
  if (in_ && in_->attached()) in_->stream().stop(code);
  task_.abandon(Error{data_error::kCancelled, "subscription cancelled"});
}

Poll SubgroupReceiver::stop_stream(uint64_t code) {
  in_->stream().stop(code);
  return Poll::Done;
}

void SubgroupReceiver::unpark() {
  if (parked_) --s_->parked_streams;
  parked_ = false;
  held_ = false;
}

Poll SubgroupReceiver::step(IetfSession& s, core::StreamInput& in, const w::SubgroupHeader& h,
                            Waiter& rd, Waiter& wait) {
  s_ = &s;
  in_ = &in;
  if (writing_) return objects(h, rd);
  // Holds what arrives while waiting, so a reset or the connection's end is seen.
  if (held_) {
    const ReadStatus st = in.hold(IetfSession::kMaxHeldBytes);
    if (st == ReadStatus::Reset || st == ReadStatus::Error) {
      if (st == ReadStatus::Reset) ++s.stats().resets_received;
      return Poll::Done;
    }
  }
  if (sub_) return attach(*sub_, h, rd, wait);  // waiting for the join of this group
  const AliasTable::Entry e = s.aliases.find(h.track_alias);
  switch (e.kind) {
    case AliasTable::Kind::Tombstone:
      // Data of a subscription that ended: stop it, never hand it to anyone else.
      unpark();
      return stop_stream(kCancelled);
    case AliasTable::Kind::Unknown:
      if (!parked_) {
        if (s.parked_streams >= IetfSession::kMaxParkedStreams) return stop_stream(kExcessiveLoad);
        parked_ = true;
        ++s.parked_streams;
      }
      held_ = true;
      wait.wait(s.aliases.changed());
      rd.wait(in.readable());
      return Poll::Pending;
    case AliasTable::Kind::Bound:
      break;
  }
  unpark();
  return attach(*e.sub, h, rd, wait);
}

Poll SubgroupReceiver::attach(SubscribeRequestTask& sub, const w::SubgroupHeader& h, Waiter& rd,
                              Waiter& wait) {
  GroupProducer g;
  switch (sub.attach(*this, h.group_id, g)) {
    case SubscribeRequestTask::Attach::Write:
      group_ = std::move(g);
      held_ = false;
      writing_ = true;
      wait.cancel();
      return objects(h, rd);
    case SubscribeRequestTask::Attach::Wait:
      held_ = true;
      wait.wait(sub.join_changed());
      rd.wait(in_->readable());
      return Poll::Pending;
    case SubscribeRequestTask::Attach::Refuse:
      if (SubscribeRequestTask* s = std::exchange(sub_, nullptr)) s->receiver_done(*this);
      return stop_stream(kCancelled);
  }
  return Poll::Done;
}

Poll SubgroupReceiver::objects(const w::SubgroupHeader& h, Waiter& rd) {
  IetfSession& s = *s_;
  uint64_t frames = 0;
  GroupProducer& g = group_;
  const ObjectParser::Stop stop = parser_.run(
      *in_,
      [&](std::span<const uint8_t> bytes, uint64_t& length, bool& is_frame) {
        // The usual object: the next one, with a payload; no SubgroupObject built.
        if (const size_t n = w::decode_next_subgroup_object(bytes, state_, length)) [[likely]] {
          is_frame = true;
          return ObjectParser::Outcome{DecodeStatus::Ok, n};
        }
        Decoded<w::SubgroupObject> d = w::decode_subgroup_object(bytes, h, state_);
        length = d.value.payload_length;
        // A status object (End of Group / End of Track) carries no frame.
        is_frame = length > 0 || d.value.status == w::ObjectStatus::Normal;
        return parser_.outcome(std::move(d));
      },
      [&](auto&& payload) { append_object(g, std::forward<decltype(payload)>(payload)); }, frames);
  s.stats().frames_received += frames;
  switch (stop) {
    case ObjectParser::Stop::Blocked:
      rd.wait(in_->readable());
      return Poll::Pending;
    case ObjectParser::Stop::Fin:
      if (parser_.mid_object(*in_)) {
        s.violation("subgroup object: the stream ended in the middle of an object");
        return Poll::Pending;
      }
      (void)g.finish();
      return Poll::Done;
    case ObjectParser::Stop::Reset:
      ++s.stats().resets_received;
      g.abort(Error{in_->code(), "subgroup stream of group " + std::to_string(h.group_id) +
                                     " reset with code " + w::describe_value(in_->code())});
      return Poll::Done;
    case ObjectParser::Stop::Closed:
      g.abort(s.session_error());
      return Poll::Done;
    case ObjectParser::Stop::Malformed:
      s.violation(std::move(parser_.error()));
      return Poll::Pending;
  }
  return Poll::Done;
}

}  // namespace moq::session::ietf
