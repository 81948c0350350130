// TAP version 14 on a stream, as the MoQ interop runners read it: the version line, comments,
// the plan, one "ok N - id" / "not ok N - id" per test with an optional YAML block (two-space
// indent) and "# SKIP reason" for a test this client does not run.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace moq::interop {

struct TapResult {
  bool ok = false;
  std::string skip;  // non-empty: "# SKIP skip"
  uint64_t duration_ms = 0;
  // YAML keys in order (message, expected, received, connection ids, ...); values are quoted.
  std::vector<std::pair<std::string, std::string>> details;
};

class TapWriter {
 public:
  explicit TapWriter(std::ostream& out);
  void comment(const std::string& text);
  void plan(size_t count);
  void result(const std::string& id, const TapResult& r);
  void bail_out(const std::string& reason);

 private:
  std::ostream* out_;
  size_t next_ = 1;
};

// A YAML double-quoted scalar.
std::string yaml_quote(const std::string& s);

}  // namespace moq::interop
