// The steady-state operations whose cost the transport budgets bound, shared by the harness
// scenarios that measure them (scenarios/transport_write_read.cpp, transport_stream_life.cpp) and
// the transport's allocation tests (tests/transport/alloc_test.cpp), so both run exactly the same
// work.
#pragma once

#include <cstdint>
#include <string>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/transport.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"

namespace moq::sim::memory::ops {

// A pair with windows large enough that these operations never block.
struct Bench {
  explicit Bench(size_t chunk_size)
      : payload(Bytes::copy(std::string(chunk_size, 'x'))), pair(make(ex)) {}

  static ConnectionPair make(Executor& ex) {
    PairConfig cfg;
    cfg.stream_window = 1 << 20;
    cfg.conn_window = 1 << 22;
    Result<ConnectionPair> p = make_pair(ex, cfg);
    return p.ok() ? std::move(*p) : ConnectionPair{};
  }

  VirtualClock clock;
  Executor ex{clock};
  Bytes payload;
  ConnectionPair pair;
};

// One chunk on an open stream: queue it in a gather list, write it, read it back. Returns the
// bytes read (0 means the operation did not go through).
[[gnu::noinline]] inline size_t write_read_chunk(SendStream& s, RecvStream& r, BufChain& chain,
                                                 const Bytes& payload, Bytes& out) {
  chain.push(payload);
  Result<size_t> n = s.write(chain);
  if (!n.ok() || *n != payload.size()) return 0;
  if (r.read(out).status != ReadStatus::Data) return 0;
  return out.size();
}

// A whole uni stream life: open, accept, finish, read the FIN, drop both handles. Returns false
// when any step did not go through.
[[gnu::noinline]] inline bool uni_stream_life(Connection& opener, Connection& acceptor) {
  Result<SendStreamPtr> s = opener.open_uni();
  if (!s.ok() || !*s) return false;
  Result<RecvStreamPtr> r = acceptor.accept_uni();
  if (!r.ok() || !*r) return false;
  if (!(*s)->finish().ok()) return false;
  Bytes chunk;
  return (*r)->read(chunk).status == ReadStatus::Fin;
}

}  // namespace moq::sim::memory::ops
