// The viewer's half of FETCH, and the RequestTask base every sent request shares.
#include "model/session/lite/lite_session.h"
#include "model/session/lite/pools.h"
#include "model/session/lite/stream_io.h"

namespace moq::session::lite {

namespace stream_code = wire::lite::stream_code;

// ---- RequestTask ----

void RequestTask::clear() {
  request_.reset();
  stream_.send.reset();
  stream_.recv.reset();
  reader_.clear();
  out_.clear();
  read_waiter_.cancel();
  write_waiter_.cancel();
}

RequestTask::Opened RequestTask::open(StreamKind kind, int64_t send_order) {
  Result<BidiStream> opened = session_.conn().open_bidi();
  if (!opened) return Opened::Failed;
  if (!*opened) {
    write_waiter_.wait(session_.conn().can_open());
    return Opened::Pending;
  }
  stream_ = std::move(*opened);
  session_.count_opened(kind);
  stream_.send->set_send_order(send_order);
  out_.push(std::move(request_));
  return Opened::Yes;
}

void RequestTask::cancel(uint64_t code) {
  if (stream_.send && stream_.send->reset(code)) ++session_.stats().streams_reset;
  if (stream_.recv) stream_.recv->stop(code);
}

void RequestTask::finish_send() {
  if (stream_.send) (void)stream_.send->finish();
}

Poll RequestTask::drain() {
  return lite::drain(*stream_.recv, reader_, read_waiter_, session_.stats().resets_received)
             ? Poll::Done
             : Poll::Pending;
}

// ---- FetchRequestTask ----

void FetchRequestTask::start(Bytes request, GroupProducer group, int64_t send_order,
                             const Path& broadcast, std::string_view track, uint64_t sequence) {
  request_ = std::move(request);
  group_ = std::move(group);
  send_order_ = send_order;
  sequence_ = sequence;
  broadcast_.assign(broadcast.str());
  track_.assign(track);
  parser_.reset();
  wake();
}

void FetchRequestTask::clear() {
  RequestTask::clear();
  opened_ = false;
  group_ = GroupProducer();
  parser_.reset();
}

void FetchRequestTask::on_abandon(const Error& reason) {
  if (group_) group_.abort(reason);
}

std::string FetchRequestTask::describe() const {
  return "FETCH of group " + std::to_string(sequence_) + " of '" + broadcast_ + "' track '" +
         track_ + "'";
}

Poll FetchRequestTask::step() {
  if (!opened_) {
    switch (open(StreamKind::Fetch, send_order_)) {
      case Opened::Yes:
        opened_ = true;
        break;
      case Opened::Pending:
        return Poll::Pending;
      case Opened::Failed:
        group_.abort(Error{stream_code::kSessionClosed, describe() + ": the connection is closed"});
        return Poll::Done;
    }
  }
  Error error;
  switch (flush(*stream_.send, out_, write_waiter_, &error)) {
    case Flush::Done:
      break;
    case Flush::Pending:
      return Poll::Pending;  // the answer cannot come before the request left
    case Flush::Failed:
      group_.abort(Error{error.code, describe() + ": " + error.message});
      return Poll::Done;
  }
  FramesResult r =
      receive_frames(*stream_.recv, read_waiter_, parser_, group_, session_.wire_version());
  session_.stats().frames_received += parser_.take_frames();
  switch (r.end) {
    case FramesEnd::Pending:
      return Poll::Pending;
    case FramesEnd::Fin:
      (void)group_.finish();
      finish_send();  // paired close: the publisher FINed
      return Poll::Done;
    case FramesEnd::Reset:
      ++session_.stats().resets_received;
      group_.abort(Error{r.code, describe() + " was reset by the peer with " +
                                     describe_code(r.code, session_.wire_version())});
      finish_send();
      return Poll::Done;
    case FramesEnd::Failed:
      group_.abort(Error{r.code, describe() + " failed: the connection closed"});
      return Poll::Done;
    case FramesEnd::Bad:
      if (r.malformed) {
        group_.abort(Error{r.error.code, describe() + ": " + r.error.message});
        session_.violation(std::move(r.error.message));
        return Poll::Pending;
      }
      cancel(reset_code_for(r.error));
      group_.abort(Error{r.error.code, describe() + ": " + r.error.message});
      return Poll::Done;
  }
  return Poll::Done;
}

}  // namespace moq::session::lite
