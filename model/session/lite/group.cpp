#include "model/session/lite/group.h"

#include <algorithm>

#include "model/session/lite/lite_session.h"
#include "model/session/lite/stream_codes.h"
#include "model/session/lite/subscribe.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;

// ---- Publisher ----

void GroupSendTask::start(SubscribeServeTask& parent, GroupConsumer group, uint64_t subscribe_id,
                          uint8_t priority, uint64_t frame_start, size_t frame_end) {
  subscribe_id_ = subscribe_id;
  frame_start_ = frame_start;
  const int64_t send_order = data_send_order(priority, group.sequence());
  begin(parent, std::move(group), frame_start, frame_end, send_order);
}

void GroupSendTask::clear() {
  clear_group();
  Link<SenderTag>::unlink();
  encoder_.reset();
}

Poll GroupSendTask::step() {
  return send_group();
}

void GroupSendTask::drop_stale() {
  // Its stream is open (unsent()), so -07's SUBSCRIBE_END still counts it.
  end_with(stream_code::kDeliveryTimeout, "group older than the subscriber's Max Age");
}

size_t GroupSendTask::encode_header(uint8_t* out) {
  const wire::lite::GroupHeader header{subscribe_id_, group_.sequence(), frame_start_};
  return wire::lite::encode_group_stream_header(header, session_.wire_version(), out);
}

bool GroupSendTask::encode_objects(ByteArena& arena, BufChain& chain, size_t stop) {
  // An unencodable frame's Error names it, but the stream is only reset with its code.
  return static_cast<bool>(encoder_.append(group_, stop, session_.wire_version(), arena, chain));
}

uint64_t GroupSendTask::abort_code(const Error& error) const {
  return reset_code_for(error);
}

// ---- Viewer ----

void GroupReceiver::clear() {
  group_ = GroupProducer();
  subscribe_id_ = 0;
  track_.clear();
  parser_.reset();
}

void GroupReceiver::abandon(const Error& reason) {
  if (group_) group_.abort(reason);
}

std::string GroupReceiver::describe() const {
  return "group " + std::to_string(group_ ? group_.sequence() : 0) + " of track '" + track_ +
         "' (subscription " + std::to_string(subscribe_id_) + ")";
}

Poll GroupReceiver::header(LiteSession& s, core::StreamInput& in, Waiter& waiter) {
  const wire::lite::LiteVersion v = s.wire_version();
  wire::lite::GroupHeader header;
  if (core::Then<> p = core::on_read(
          in.next(
              waiter, wire::lite::GroupHeader::kName,
              [v](std::span<const uint8_t> bytes) {
                return wire::lite::decode_group_header(bytes, v);
              },
              header),
          [&](core::on::Malformed) {
            s.violation(std::move(in.error()));
            return Poll::Pending;
          },
          [&](core::on::Reset) {
            ++s.stats().resets_received;
            return Poll::Done;
          }))
    return *p;
  subscribe_id_ = header.subscribe_id;
  SubscribeRequestTask* sub = s.find_subscription(header.subscribe_id);
  if (!sub) {
    // Unknown (or already cancelled) subscription: refuse the stream, keep the session.
    in.stream().stop(stream_code::kCancelled);
    return Poll::Done;
  }
  track_.assign(sub->track_name());
  Result<GroupProducer> group = sub->open_group(header.sequence);
  if (!group) {
    // A duplicate group, or one past the track's end: drop this stream only.
    ++s.stats().protocol_errors;
    in.stream().stop(stream_code::kCancelled);
    return Poll::Done;
  }
  sub->group_opened(header.sequence);
  group_ = std::move(*group);
  return frames(s, in, waiter);  // frames that arrived with the header come first
}

Poll GroupReceiver::frames(LiteSession& s, core::StreamInput& in, Waiter& waiter) {
  const wire::lite::LiteVersion v = s.wire_version();
  FramesResult r = receive_frames(in, waiter, parser_, group_, v);
  s.stats().frames_received += parser_.take_frames();
  switch (r.end) {
    case FramesEnd::Pending:
      return Poll::Pending;
    case FramesEnd::Fin:
      (void)group_.finish();
      return Poll::Done;
    case FramesEnd::Reset:
      // A reset group stream aborts that group only.
      ++s.stats().resets_received;
      group_.abort(
          Error{r.code, describe() + " was reset by the peer with " + describe_code(r.code, v)});
      return Poll::Done;
    case FramesEnd::Failed:
      group_.abort(Error{r.code, describe() + " failed: the connection closed"});
      return Poll::Done;
    case FramesEnd::Bad:
      group_.abort(Error{r.error.code, describe() + ": " + r.error.message});
      if (r.malformed) {
        s.violation(std::move(r.error));
        return Poll::Pending;
      }
      in.stream().stop(reset_code_for(r.error));
      return Poll::Done;
  }
  return Poll::Done;
}

}  // namespace moq::session::lite
