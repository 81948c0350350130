#include "model/session/ietf/inbound.h"

#include "model/session/ietf/fetch.h"
#include "model/session/ietf/ietf_session.h"

namespace moq::session::ietf {

// ---- UniInboundTask ----

void UniInboundTask::start(core::StreamInput& input) {
  std::swap(in_, input);
  wake();
}

void UniInboundTask::clear() {
  mode_ = Mode::Classify;
  in_.clear();
  kind_ = w::UniStreamKind::Padding;
  header_ = w::SubgroupHeader{};
  fetch_id_ = 0;
  first_.reset();
  control_.clear();
  subgroup_.clear();
  waiter_.cancel();
  wait_.cancel();
}

void UniInboundTask::on_abandon(const Error& reason) {
  subgroup_.abandon(reason);
}

Poll UniInboundTask::step() {
  switch (mode_) {
    case Mode::Classify:
      return classify();
    case Mode::Control:
      return control_.receive(session_, in_, waiter_, first_);
    case Mode::Padding:
      return padding();
    case Mode::Subgroup:
      return subgroup_.step(session_, in_, header_, waiter_, wait_);
  }
  return Poll::Done;
}

Poll UniInboundTask::classify() {
  const w::IetfVersion v = session_.v();
  for (;;) {
    switch (in_.fill()) {
      case ReadStatus::Data:
        break;
      case ReadStatus::WouldBlock:
        waiter_.wait(in_.readable());
        return Poll::Pending;
      case ReadStatus::Fin:
      case ReadStatus::Reset:
      case ReadStatus::Error:
        return Poll::Done;  // ended before its type: nothing to do
    }
    // The stream type and the header it announces, decoded as one item (both may be split).
    Decoded<w::UniStreamKind> d = in_.decode([&](std::span<const uint8_t> bytes) {
      Decoded<w::UniStreamKind> c = w::classify_uni_stream(bytes, v);
      if (!c.ok()) return c;
      auto as_kind = [&](auto&& header) {
        Decoded<w::UniStreamKind> out;
        out.status = header.status;
        out.consumed = header.consumed;
        out.needed = header.needed;
        out.value = c.value;
        out.error = std::move(header.error);
        return out;
      };
      switch (c.value) {
        case w::UniStreamKind::Subgroup: {
          Decoded<w::SubgroupHeader> h = w::decode_subgroup_header(bytes, v);
          if (h.ok()) header_ = h.value;
          return as_kind(std::move(h));
        }
        case w::UniStreamKind::Fetch: {
          Decoded<uint64_t> h = w::decode_fetch_header(bytes);
          if (h.ok()) fetch_id_ = h.value;
          return as_kind(std::move(h));
        }
        case w::UniStreamKind::Control: {
          Decoded<w::ControlMessage> m = w::decode_control(bytes, v);
          if (m.ok()) first_ = std::move(m.value);
          return as_kind(std::move(m));
        }
        case w::UniStreamKind::Padding:
          return c;
      }
      return c;
    });
    if (d.status == DecodeStatus::NeedMore) continue;
    if (d.status == DecodeStatus::Malformed) {
      ++session_.stats().unknown_streams;
      session_.violation(std::move(d.error));
      return Poll::Done;
    }
    kind_ = d.value;
    break;
  }
  switch (kind_) {
    case w::UniStreamKind::Control:
      session_.count_accepted(StreamKind::Setup);
      ++session_.stats().messages_decoded;
      mode_ = Mode::Control;
      return control_.receive(session_, in_, waiter_, first_);
    case w::UniStreamKind::Padding:
      session_.count_accepted(StreamKind::Unknown);
      mode_ = Mode::Padding;
      return padding();
    case w::UniStreamKind::Fetch:
      session_.count_accepted(StreamKind::Fetch);
      deliver_fetch_stream(session_, fetch_id_, in_);
      return Poll::Done;
    case w::UniStreamKind::Subgroup:
      session_.count_accepted(StreamKind::Group);
      mode_ = Mode::Subgroup;
      return subgroup_.step(session_, in_, header_, waiter_, wait_);
  }
  return Poll::Done;
}

Poll UniInboundTask::padding() {
  for (;;) {
    switch (in_.fill()) {
      case ReadStatus::Data:
        in_.current().reset();
        continue;
      case ReadStatus::WouldBlock:
        waiter_.wait(in_.readable());
        return Poll::Pending;
      case ReadStatus::Fin:
      case ReadStatus::Reset:
      case ReadStatus::Error:
        return Poll::Done;
    }
  }
}

// ---- BidiInboundTask ----

void BidiInboundTask::start(SendStreamPtr send, core::StreamInput& input) {
  send_ = std::move(send);
  std::swap(in_, input);
  wake();
}

void BidiInboundTask::clear() {
  send_.reset();
  in_.clear();
  waiter_.cancel();
}

Poll BidiInboundTask::step() {
  const w::IetfVersion v = session_.v();
  // Ended before its first message: nothing to do (the defaults).
  if (core::Then<> p = core::on_read(in_.next_in_place(waiter_, "control message",
                                                       [&](std::span<const uint8_t> bytes) {
                                                         return w::decode_control_into(bytes, v,
                                                                                       first_);
                                                       }),
                                     [&](core::on::Malformed) {
                                       session_.violation(std::move(in_.error()));
                                       return Poll::Done;
                                     }))
    return *p;
  ++session_.stats().messages_decoded;
  session_.dispatch_request(std::move(send_), in_, first_);
  return Poll::Done;
}

}  // namespace moq::session::ietf
