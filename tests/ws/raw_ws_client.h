// A WebSocket client written by hand over a blocking socket, for peers that misbehave: it sends
// exactly the upgrade and the frames a test gives it (masked, as a client must), reads the
// server's messages one by one, and can vanish without a close.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace moq::sim::ws::testing {

class RawWsClient {
 public:
  // Connects to 127.0.0.1:port; reads wait at most timeout_ms.
  RawWsClient(uint16_t port, int timeout_ms = 3000);
  ~RawWsClient();
  RawWsClient(const RawWsClient&) = delete;
  RawWsClient& operator=(const RawWsClient&) = delete;
  bool connected() const { return fd_ >= 0; }

  // Sends the upgrade request with this Sec-WebSocket-Protocol value and returns the answer's
  // head and body ("" when none came).
  std::string upgrade(const std::string& protocols);
  // One masked binary message.
  void send_binary(const std::string& payload);
  // Several masked binary messages in one write.
  void send_binaries(const std::string* payloads, size_t count);

  struct Message {
    int opcode = 0;  // 2 binary, 8 close
    std::string payload;
  };
  // The next message, or nullopt at EOF or timeout.
  std::optional<Message> read_message();
  // Reads until a close frame comes; nullopt without one. Binary messages before it are kept.
  std::optional<Message> read_until_close(std::string* binaries_seen = nullptr);
  // Closes TCP at once with a reset (SO_LINGER 0): no WebSocket or QMux close.
  void vanish();

 private:
  bool fill(size_t n);  // reads until in_ holds n bytes
  int fd_ = -1;
  std::string in_;
};

// Hex to bytes ("ff 51 ..." with or without spaces).
std::string unhex(const std::string& hex);
// The QMux QX_TRANSPORT_PARAMETERS message the JavaScript peer sends (js-peer section 2.2).
std::string js_transport_parameters();
// A QMux STREAM frame with LEN (and FIN when fin).
std::string stream_frame(uint64_t id, const std::string& data, bool fin = false);

}  // namespace moq::sim::ws::testing
