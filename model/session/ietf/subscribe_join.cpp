// The viewer's join of a live subscription (-18 joining FETCH, -22 fill: draft-ietf-moq-transport,
// joining at the current group): a SUBSCRIBE for the live edge also asks for the objects of the
// current group it missed, on -18 through a joining FETCH on a request stream of its own, on -22
// through the fill stream the publisher opens for FILL_PARAMETERS. Its objects and the subgroup
// stream of that group go into one data-model group (subscribe.h). SubscribeRequestTask's other
// steps are in subscribe.cpp.
#include <string>
#include <utility>
#include <variant>

#include "model/data/errors.h"
#include "model/session/core/dispatch.h"
#include "model/session/ietf/names.h"
#include "model/session/ietf/subscribe.h"

namespace moq::session::ietf {

bool SubscribeRequestTask::take_join_stream(uint64_t request_id, core::StreamInput& input) {
  const uint64_t id = w::has_fill(session_.v()) ? request_id_ : join_request_id_;
  if (request_id != id || join_data_.attached() || !send_) return false;
  std::swap(join_data_, input);
  join_state_ = w::FetchStreamState{};
  wake();
  return true;
}

void SubscribeRequestTask::join_finished(bool ok) {
  if (!ok) join_failed_ = true;
  if (join_ != Join::Pending) return;
  join_ = Join::Done;
  join_ok_ = ok;
  if (!ok && join_producer_)
    join_producer_.abort(Error{data_error::kCancelled,
                               "the join of group " + std::to_string(join_group_) + " failed"});
  join_changed_.notify_all();
}

bool SubscribeRequestTask::open_join() {
  Result<BidiStream> r = session_.conn().open_bidi();
  if (!r) return false;
  if (!*r) {
    join_wr_.wait(session_.conn().can_open());
    return true;
  }
  r->send->set_send_order(kRequestSendOrder);
  join_send_ = std::move(r->send);
  join_in_.attach(std::move(r->recv));
  session_.count_opened(StreamKind::Fetch);
  w::Fetch f;
  f.request_id = join_request_id_ = session_.take_request_id();
  f.fetch_type = w::FetchType::RelativeJoining;
  f.joining_request_id = request_id_;
  f.joining_start = 0;
  f.params.subscriber_priority = wire_priority(request_prefs_.priority);
  Result<Bytes> b = session_.encode(f);
  if (!b) return false;
  join_out_.push(std::move(*b));
  return join_out_.flush(*join_send_, join_wr_) != core::Flush::Failed;
}

void SubscribeRequestTask::read_join_request() {
  if (!join_in_.attached()) return;
  const w::IetfVersion v = session_.v();
  w::ControlMessage m;
  // A Poll stops the read and this step of the join's request with it; its value is not used.
  if (core::read_each(
          [&] {
            return join_in_.next(
                join_rd_, "control message",
                [v](std::span<const uint8_t> bytes) { return w::decode_control(bytes, v); }, m);
          },
          [&](core::on::Message) -> core::Then<> {
            ++session_.stats().messages_decoded;
            if (std::holds_alternative<w::FetchOk>(m) && !join_answered_) {
              join_answered_ = true;
              return core::kGoOn;
            }
            if (std::holds_alternative<w::RequestError>(m) && !join_answered_) {
              join_answered_ = true;
              join_data_done_ = true;
              join_finished(false);  // no join data: the current group cannot be completed
              return core::kGoOn;
            }
            session_.violation(
                core::unexpected_message(w::control_name(m, v), "joining FETCH request"));
            return Poll::Done;
          },
          [](core::on::Pending) { return core::kGoOn; },
          [&](core::on::Malformed) {
            session_.violation(std::move(join_in_.error()));
            return Poll::Done;
          },
          [&](core::on::Fin) {
            if (!join_answered_) {
              join_finished(false);
              join_data_done_ = true;
            }
            join_answered_ = true;
            if (!join_fin_sent_ && join_data_done_) {
              join_fin_sent_ = true;
              (void)join_send_->finish();
            }
            if (join_fin_sent_) {  // both sides done
              join_in_.clear();
              join_send_.reset();
            }
            return Poll::Done;
          },
          [&](core::on::Reset) {
            ++session_.stats().resets_received;
            join_finished(false);
            join_data_done_ = true;
            join_in_.clear();
            join_fin_sent_ = true;
            join_send_.reset();
            return Poll::Done;
          }))
    return;
  if (join_send_) (void)join_out_.flush(*join_send_, join_wr_);
}

void SubscribeRequestTask::read_join_data() {
  if (!join_data_.attached() || join_data_done_) return;
  if (!producer_) {  // SUBSCRIBE_OK not read yet: keep the chunks until the track exists
    const ReadStatus st = join_data_.hold(IetfSession::kMaxHeldBytes);
    if (st == ReadStatus::WouldBlock) join_data_rd_.wait(join_data_.readable());
    if (st == ReadStatus::Reset || st == ReadStatus::Error) {
      join_data_done_ = true;
      join_finished(false);
    }
    return;
  }
  const w::IetfVersion v = session_.v();
  const bool joining = join_ == Join::Pending;
  uint64_t frames = 0;
  uint64_t outside = 0;
  const ObjectParser::Stop stop = run_fetch_objects(
      join_parser_, join_data_, join_state_, v, join_group_, outside,
      [&](auto&& payload) {
        if (!joining || outside != 0) {  // not a join of ours: nothing to complete
          payload = {};
          return;
        }
        if (!join_producer_) {
          Result<GroupProducer> g = producer_.create_group(join_group_);
          if (!g) {
            payload = {};
            return;
          }
          join_producer_ = std::move(*g);
        }
        append_object(join_producer_, std::forward<decltype(payload)>(payload));
      },
      frames);
  session_.stats().frames_received += frames;
  if (outside != 0) {
    session_.violation("fetch object: field 'group id': the join of group " +
                       std::to_string(join_group_) + " carried an object of another group");
    return;
  }
  switch (stop) {
    case ObjectParser::Stop::Blocked:
      join_data_rd_.wait(join_data_.readable());
      return;
    case ObjectParser::Stop::Fin:
      if (join_parser_.mid_object(join_data_)) {
        session_.violation("fetch object: the stream ended in the middle of an object");
        return;
      }
      join_data_done_ = true;
      join_finished(true);
      return;
    case ObjectParser::Stop::Reset:
    case ObjectParser::Stop::Closed:
      join_data_done_ = true;
      join_finished(false);
      return;
    case ObjectParser::Stop::Malformed:
      session_.violation(std::move(join_parser_.error()));
      return;
  }
}

}  // namespace moq::session::ietf
