#include "sim/qmux/pipe.h"

#include <array>

namespace moq::sim::qmux {

namespace {

class Pipe;

// One direction: from one end's output to the other end's input.
class Delivery final : public Task {
 public:
  Delivery(Executor& executor, Pipe& pipe, int from)
      : Task(executor, "qmux pipe"), pipe_(&pipe), from_(from), waiter(*this) {}
  Poll poll() override;

 private:
  Pipe* pipe_;
  int from_;

 public:
  Waiter waiter;
};

class Pipe {
 public:
  explicit Pipe(Executor& executor)
      : deliveries_{std::make_unique<Delivery>(executor, *this, 0),
                    std::make_unique<Delivery>(executor, *this, 1)} {}

  void plug(int side, QmuxConnection* end) { ends_[side] = end; }
  // Everything side has to send, to its peer now.
  void deliver(int from) {
    QmuxConnection* src = ends_[from];
    QmuxConnection* dst = ends_[1 - from];
    if (!src) return;
    while (src->has_output()) {
      src->take_output(bytes_);
      if (dst) {
        dst->receive(bytes_);
      } else {
        bytes_.clear();
      }
    }
  }
  // side goes away: what it still has to send goes first.
  void unplug(int side) {
    deliver(side);
    deliveries_[side]->waiter.cancel();
    ends_[side] = nullptr;
  }
  Delivery& delivery(int side) { return *deliveries_[side]; }
  QmuxConnection* end(int side) const { return ends_[side]; }

 private:
  std::array<QmuxConnection*, 2> ends_{nullptr, nullptr};
  std::array<std::unique_ptr<Delivery>, 2> deliveries_;
  BufChain bytes_;  // reused: the storage of one delivery passes to the receiving end's input
};

Poll Delivery::poll() {
  QmuxConnection* src = pipe_->end(from_);
  if (!src) return Poll::Done;
  pipe_->deliver(from_);
  waiter.wait(src->output_ready());
  return Poll::Pending;
}

// An end of the pipe: the connection, unplugging itself when it goes.
class PipeEnd final : public QmuxConnection {
 public:
  PipeEnd(Executor& executor, QmuxSettings settings, std::shared_ptr<Pipe> pipe, int side)
      : QmuxConnection(executor, std::move(settings)), pipe_(std::move(pipe)), side_(side) {
    pipe_->plug(side_, this);
  }
  ~PipeEnd() override {
    close(0, "connection dropped");  // nothing when already closed
    pipe_->unplug(side_);
  }

 private:
  std::shared_ptr<Pipe> pipe_;
  int side_;
};

}  // namespace

Result<QmuxPair> make_pipe_pair(Executor& executor, QmuxSettings settings) {
  if (settings.stream_window == 0) return Error{0, "qmux pipe: stream_window must be above 0"};
  if (settings.conn_window == 0) return Error{0, "qmux pipe: conn_window must be above 0"};
  if (settings.stream_window > kQuicVarintMax || settings.conn_window > kQuicVarintMax)
    return Error{0, "qmux pipe: a window above 2^62-1 cannot be expressed"};
  settings.framing = Framing::Stream;
  auto pipe = std::make_shared<Pipe>(executor);
  QmuxSettings client = settings, server = settings;
  client.client = true;
  server.client = false;
  QmuxPair pair;
  pair.client = std::make_unique<PipeEnd>(executor, client, pipe, 0);
  pair.server = std::make_unique<PipeEnd>(executor, server, pipe, 1);
  // Each side's transport parameters, delivered now; later output goes by the tasks.
  pipe->deliver(0);
  pipe->deliver(1);
  for (int side : {0, 1})
    pipe->delivery(side).waiter.wait(pipe->end(side)->output_ready());
  return pair;
}

}  // namespace moq::sim::qmux
