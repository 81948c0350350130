#include "model/session/ietf/receiver.h"

#include <string>

#include "model/session/ietf/request_task.h"
#include "model/session/ietf/subscriber.h"
#include "model/wire/ietf/describe_value.h"

namespace moq::session::ietf_session {

namespace {
constexpr uint64_t kCancelled = uint64_t(w::StreamResetCode::Cancelled);
constexpr uint64_t kExcessiveLoad = uint64_t(w::StreamResetCode::ExcessiveLoad);
}  // namespace

namespace {

// The outcome of decoding a stream's header, as the outcome of classifying the stream as `kind`;
// an Ok header's value goes into `into`.
template <class T, class Into>
Decoded<w::UniStreamKind> header_outcome(Decoded<T>&& header, w::UniStreamKind kind, Into& into) {
  Decoded<w::UniStreamKind> out;
  out.status = header.status;
  out.consumed = header.consumed;
  out.needed = header.needed;
  out.value = kind;
  out.error = std::move(header.error);
  if (header.ok()) into = std::move(header.value);
  return out;
}

// A fetch stream for a request that is gone, or for one never made.
void unclaimed_fetch_stream(IetfSession& s, uint64_t request_id, StreamInput& input) {
  if (!s.issued_by_us(request_id)) {
    s.violation("FETCH_HEADER: field 'request id': " + w::describe_value(request_id) +
                " names no request of this endpoint");
    return;
  }
  input.stream().stop(kCancelled);  // a fetch that ended or was cancelled
}

}  // namespace

void accept_uni_stream(IetfSession& s, RecvStreamPtr stream) {
  StreamInput input(std::move(stream));
  if (input.fill() == ReadStatus::Data) {
    Bytes& c = input.current();
    if (!c.empty() && c[0] == w::kFetchHeaderType) {
      const Decoded<uint64_t> d = w::decode_fetch_header(c.span());
      if (d.ok()) {
        c.advance(d.consumed);
        ++s.stats().streams_accepted[static_cast<size_t>(StreamKind::Fetch)];
        if (!s.route_fetch_stream(d.value, input)) unclaimed_fetch_stream(s, d.value, input);
        return;
      }
    }
  }
  s.scope().spawn<UniReader>(s, std::move(input));
}

UniReader::UniReader(IetfSession& s, StreamInput input)
    : Task(s.executor(), "ietf uni reader"), s_(s), in_(std::move(input)) {}

UniReader::~UniReader() {
  if (parked_) --s_.parked_streams;
  if (sub_) sub_->receiver_done(*this);
}

void UniReader::cancel(uint64_t code) {
  sub_ = nullptr;
  if (group_) group_.abort(Error{data_error::kCancelled, "subscription cancelled"});
  if (in_.attached() && mode_ != Mode::Done) in_.stream().stop(code);
  mode_ = Mode::Done;
  wake();
}

Poll UniReader::finish_with_stop(uint64_t code) {
  if (in_.attached()) in_.stream().stop(code);
  mode_ = Mode::Done;
  return Poll::Done;
}

Poll UniReader::poll() {
  switch (mode_) {
    case Mode::Classify:
      return classify();
    case Mode::Control:
      return control();
    case Mode::Padding:
      for (;;) {
        switch (in_.fill()) {
          case ReadStatus::Data:
            in_.current().reset();
            continue;
          case ReadStatus::WouldBlock:
            rd_.wait(in_.readable());
            return Poll::Pending;
          default:
            return Poll::Done;
        }
      }
    case Mode::Subgroup:
    case Mode::Parked:
      return subgroup();
    case Mode::Objects:
      return objects();
    case Mode::Done:
      return Poll::Done;
  }
  return Poll::Done;
}

Poll UniReader::classify() {
  const w::IetfVersion v = s_.v();
  for (;;) {
    switch (in_.fill()) {
      case ReadStatus::Data:
        break;
      case ReadStatus::WouldBlock:
        rd_.wait(in_.readable());
        return Poll::Pending;
      case ReadStatus::Fin:
      case ReadStatus::Reset:
      case ReadStatus::Error:
        return Poll::Done;  // ended before its type: nothing to do
    }
    // The stream's kind, with the outcome of reading the header it starts with (kept here).
    Decoded<w::UniStreamKind> d = in_.decode([&](std::span<const uint8_t> bytes) {
      Decoded<w::UniStreamKind> c = w::classify_uni_stream(bytes);
      if (!c.ok()) return c;
      switch (c.value) {
        case w::UniStreamKind::Subgroup:
          return header_outcome(w::decode_subgroup_header(bytes), c.value, header_);
        case w::UniStreamKind::Fetch:
          return header_outcome(w::decode_fetch_header(bytes), c.value, fetch_id_);
        case w::UniStreamKind::Padding:
          return c;
        case w::UniStreamKind::Control:
          return header_outcome(w::decode_control(bytes, v), c.value, first_);
      }
      return c;
    });
    if (d.status == DecodeStatus::NeedMore) continue;
    if (d.status == DecodeStatus::Malformed) {
      ++s_.stats().unknown_streams;
      s_.violation(std::move(d.error));
      return Poll::Done;
    }
    kind_ = d.value;
    break;
  }
  switch (kind_) {
    case w::UniStreamKind::Control:
      ++s_.stats().streams_accepted[static_cast<size_t>(StreamKind::Setup)];
      ++s_.stats().messages_decoded;
      mode_ = Mode::Control;
      return control();
    case w::UniStreamKind::Padding:
      ++s_.stats().streams_accepted[static_cast<size_t>(StreamKind::Unknown)];
      mode_ = Mode::Padding;
      return poll();
    case w::UniStreamKind::Fetch:
      ++s_.stats().streams_accepted[static_cast<size_t>(StreamKind::Fetch)];
      if (!s_.route_fetch_stream(fetch_id_, in_)) unclaimed_fetch_stream(s_, fetch_id_, in_);
      mode_ = Mode::Done;
      return Poll::Done;
    case w::UniStreamKind::Subgroup:
      ++s_.stats().streams_accepted[static_cast<size_t>(StreamKind::Group)];
      mode_ = Mode::Subgroup;
      return subgroup();
  }
  return Poll::Done;
}

Poll UniReader::control() {
  if (s_.peer_control_seen && first_) {
    s_.violation("SETUP: the peer opened a second control stream");
    return Poll::Done;
  }
  if (first_) {
    s_.peer_control_seen = true;
    w::ControlMessage m = std::move(*first_);
    first_.reset();
    const w::Setup* setup = std::get_if<w::Setup>(&m);
    if (!setup) {
      s_.violation(std::string("control stream: the first message is ") +
                   w::control_name(m, s_.v()) + ", not SETUP");
      return Poll::Done;
    }
    s_.on_peer_setup(*setup);
    if (s_.is_closed()) return Poll::Done;
  }
  w::ControlMessage m;
  for (;;) {
    switch (read_message(s_, in_, m, &rd_)) {
      case In::Message:
        if (const w::GoAway* g = std::get_if<w::GoAway>(&m); g && !goaway_seen_) {
          goaway_seen_ = true;
          s_.on_peer_goaway(*g, true);
          if (s_.is_closed()) return Poll::Done;
          continue;
        }
        s_.violation(std::string("control stream: ") + w::control_name(m, s_.v()) +
                     (std::holds_alternative<w::GoAway>(m) ? " received twice"
                                                           : " is not allowed after SETUP"));
        return Poll::Done;
      case In::Pending:
        return Poll::Pending;
      case In::Fin:
      case In::Reset:
        if (!s_.is_closed()) s_.violation("control stream: the peer closed its control stream");
        return Poll::Done;
      case In::Closed:
        return Poll::Done;
    }
  }
}

Poll UniReader::subgroup() {
  // Holds what arrives while waiting, so a reset or the connection's end is seen.
  if (mode_ == Mode::Parked) {
    const ReadStatus st = in_.hold(IetfSession::kMaxHeldBytes);
    if (st == ReadStatus::Reset || st == ReadStatus::Error) {
      if (st == ReadStatus::Reset) ++s_.stats().resets_received;
      mode_ = Mode::Done;
      return Poll::Done;
    }
  }
  if (sub_) {  // waiting for the join of this group
    GroupProducer g;
    switch (sub_->attach(*this, header_.group_id, g)) {
      case SubscribeClient::Attach::Write:
        group_ = std::move(g);
        return unpark();
      case SubscribeClient::Attach::Wait:
        mode_ = Mode::Parked;
        wait_.wait(sub_->join_changed());
        rd_.wait(in_.readable());
        return Poll::Pending;
      case SubscribeClient::Attach::Refuse: {
        SubscribeClient* sub = sub_;
        sub_ = nullptr;
        sub->receiver_done(*this);
        return finish_with_stop(kCancelled);
      }
    }
  }
  const AliasTable::Entry e = s_.aliases.find(header_.track_alias);
  switch (e.kind) {
    case AliasTable::Kind::Tombstone:
      // Data of a subscription that ended: stop it, never hand it to anyone else.
      if (parked_) {
        parked_ = false;
        --s_.parked_streams;
      }
      return finish_with_stop(kCancelled);
    case AliasTable::Kind::Unknown:
      if (!parked_) {
        if (s_.parked_streams >= IetfSession::kMaxParkedStreams)
          return finish_with_stop(kExcessiveLoad);
        parked_ = true;
        ++s_.parked_streams;
      }
      mode_ = Mode::Parked;
      wait_.wait(s_.aliases.changed());
      rd_.wait(in_.readable());
      return Poll::Pending;
    case AliasTable::Kind::Bound:
      break;
  }
  if (parked_) {
    parked_ = false;
    --s_.parked_streams;
  }
  GroupProducer g;
  switch (e.sub->attach(*this, header_.group_id, g)) {
    case SubscribeClient::Attach::Write:
      group_ = std::move(g);
      return unpark();
    case SubscribeClient::Attach::Wait:
      mode_ = Mode::Parked;
      wait_.wait(sub_->join_changed());
      rd_.wait(in_.readable());
      return Poll::Pending;
    case SubscribeClient::Attach::Refuse: {
      SubscribeClient* sub = sub_;
      sub_ = nullptr;
      if (sub) sub->receiver_done(*this);
      return finish_with_stop(kCancelled);
    }
  }
  return Poll::Done;
}

Poll UniReader::unpark() {
  wait_.cancel();
  mode_ = Mode::Objects;
  return objects();
}

Poll UniReader::objects() {
  const w::SubgroupHeader& h = header_;
  w::SubgroupStreamState& st = state_;
  GroupProducer& g = group_;
  uint64_t frames = 0;
  const ObjectParser::Stop stop = parser_.run(
      in_,
      [&](std::span<const uint8_t> bytes, uint64_t& length, bool& is_frame) {
        Decoded<w::SubgroupObject> d = w::decode_subgroup_object(bytes, h, st);
        length = d.value.payload_length;
        // A status object (End of Group / End of Track) carries no frame.
        is_frame = length > 0 || d.value.status == w::ObjectStatus::Normal;
        return parser_.outcome(std::move(d));
      },
      [&](auto&& payload) { (void)g.write_frame(0, std::forward<decltype(payload)>(payload)); },
      frames);
  s_.stats().frames_received += frames;
  switch (stop) {
    case ObjectParser::Stop::Blocked:
      rd_.wait(in_.readable());
      return Poll::Pending;
    case ObjectParser::Stop::Fin:
      if (parser_.mid_object(in_)) {
        s_.violation("subgroup object: the stream ended in the middle of an object");
        return Poll::Done;
      }
      (void)g.finish();
      mode_ = Mode::Done;
      return Poll::Done;
    case ObjectParser::Stop::Reset:
      ++s_.stats().resets_received;
      g.abort(Error{in_.code(), "subgroup stream of group " + std::to_string(h.group_id) +
                                    " reset with code " + w::describe_value(in_.code())});
      mode_ = Mode::Done;
      return Poll::Done;
    case ObjectParser::Stop::Closed:
      g.abort(s_.session_error());
      mode_ = Mode::Done;
      return Poll::Done;
    case ObjectParser::Stop::Malformed:
      s_.violation(parser_.error());
      return Poll::Done;
  }
  return Poll::Done;
}

}  // namespace moq::session::ietf_session
