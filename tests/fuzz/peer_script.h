// The script format of the session fuzz target (tests/fuzz/session_fuzz.cpp): what a hostile
// peer does to a real session, as bytes a fuzzer can mutate. The recorder
// (tests/fuzz/recording_connection.h) writes it from real sessions, the interpreter
// (tests/fuzz/session_world.h) plays it; both use the reader and writer here, so the format is
// written once.
//
// Layout: a version byte (index into session::implemented_versions(), modulo), a setup byte (the
// role under test, kRole*; setup_byte()), with kSetupShaped five link bytes (shaped_link()), then
// operations until the input ends. An operation is a byte (modulo kOpCount) and its arguments:
//  - stream slot: one byte, modulo the number of slots (a slot is a stream in the order the
//    peer opened or accepted it; the op does nothing while there are none);
//  - numbers (codes, lengths, sizes, milliseconds): LEB128, 7 bits a byte, at most 10 bytes;
//  - payload: a LEB128 length, then that many bytes (cut short at the input's end).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace moq::fuzz {

// The session under test.
enum class Role : uint8_t {
  kEndpoint,  // a session serving a broadcast (publisher) whose viewer calls the script makes
  kViewer,    // a session serving nothing: viewer calls only
  kRelay,     // a relay's session, with a real publisher and a real viewer on the same relay
};
inline constexpr uint8_t kRoleCount = 3;
// The setup byte: whether the session under test is the client (bit 0; for the relay: whether the
// peer is a cluster peer it dialled), the role (bits 1-2, modulo kRoleCount), and whether every
// connection runs over a shaped network (kSetupShaped, bit 3: sim/net with the link bytes).
inline constexpr uint8_t kSetupShaped = 0x08;
inline uint8_t setup_byte(Role role, bool client) {
  return static_cast<uint8_t>(static_cast<uint8_t>(role) << 1 | (client ? 1 : 0));
}
inline Role setup_role(uint8_t setup) {
  return static_cast<Role>(((setup >> 1) & 3) % kRoleCount);
}

enum class Op : uint8_t {
  // The peer, on its raw connection.
  kOpenUni,     // -
  kOpenBidi,    // -
  kAcceptUni,   // -
  kAcceptBidi,  // -
  kWrite,       // send slot, payload
  kFinish,      // send slot
  kReset,       // send slot, code
  kStop,        // recv slot, code
  kRead,        // recv slot, max bytes (0: no limit): one read
  kDropSend,    // send slot: the handle is released
  kDropRecv,    // recv slot
  kDatagram,    // payload
  kClose,       // code
  kAdvance,     // milliseconds of virtual time
  // The session under test's own API (for the relay: the real viewer's).
  kSubscribe,     // name byte
  kFetch,         // name byte, group, first frame
  kAnnounced,     // name byte
  kTrackInfo,     // name byte
  kGoaway,        // -
  kAuthenticate,  // payload (the token)
  kSessionClose,  // code
  kDropConsumer,  // byte: which consumer (modulo the number held)
  // The served broadcast's track (the publisher's data model).
  kNewGroup,     // -
  kWriteFrame,   // payload
  kFinishGroup,  // -
  kEndTrack,     // -
};
inline constexpr uint8_t kOpCount = static_cast<uint8_t>(Op::kEndTrack) + 1;

class ScriptReader {
 public:
  explicit ScriptReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  bool done() const { return bytes_.empty(); }
  size_t remaining() const { return bytes_.size(); }
  uint8_t byte() {
    if (bytes_.empty()) return 0;
    const uint8_t b = bytes_[0];
    bytes_ = bytes_.subspan(1);
    return b;
  }
  uint64_t number() {
    uint64_t v = 0;
    for (int shift = 0; shift < 70 && !bytes_.empty(); shift += 7) {
      const uint8_t b = byte();
      if (shift < 64) v |= uint64_t{static_cast<uint8_t>(b & 0x7f)} << shift;
      if (!(b & 0x80)) break;
    }
    return v;
  }
  std::span<const uint8_t> payload() {
    const uint64_t n = number();
    const size_t take = n < bytes_.size() ? static_cast<size_t>(n) : bytes_.size();
    const std::span<const uint8_t> out = bytes_.first(take);
    bytes_ = bytes_.subspan(take);
    return out;
  }

 private:
  std::span<const uint8_t> bytes_;
};

class ScriptWriter {
 public:
  // A script's start; the default writer holds operations only (to be appended to a script).
  ScriptWriter(uint8_t version_index, uint8_t setup) : bytes_{version_index, setup} {}
  ScriptWriter() { bytes_.reserve(64); }  // (also keeps g++ 12's -Wstringop-overflow quiet)
  ScriptWriter& op(Op o) {
    bytes_.push_back(static_cast<uint8_t>(o));
    return *this;
  }
  ScriptWriter& byte(uint8_t b) {
    bytes_.push_back(b);
    return *this;
  }
  ScriptWriter& number(uint64_t v) {
    do {
      const uint8_t low = v & 0x7f;
      v >>= 7;
      bytes_.push_back(static_cast<uint8_t>(low | (v ? 0x80 : 0)));
    } while (v);
    return *this;
  }
  ScriptWriter& payload(std::span<const uint8_t> p) {
    number(p.size());
    bytes_.insert(bytes_.end(), p.begin(), p.end());
    return *this;
  }
  ScriptWriter& append(std::span<const uint8_t> ops) { return insert(bytes_.size(), ops); }
  ScriptWriter& insert(size_t at, std::span<const uint8_t> ops) {
    bytes_.insert(bytes_.begin() + static_cast<std::ptrdiff_t>(at), ops.begin(), ops.end());
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace moq::fuzz
