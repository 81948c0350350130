#include "harness/interop/tap.h"

#include <cstdio>

namespace moq::interop {

TapWriter::TapWriter(std::ostream& out) : out_(&out) {
  *out_ << "TAP version 14\n" << std::flush;
}

void TapWriter::comment(const std::string& text) {
  *out_ << "# " << text << "\n" << std::flush;
}

void TapWriter::plan(size_t count) {
  *out_ << "1.." << count << "\n" << std::flush;
}

void TapWriter::result(const std::string& id, const TapResult& r) {
  *out_ << (r.ok ? "ok " : "not ok ") << next_++ << " - " << id;
  if (!r.skip.empty()) *out_ << " # SKIP " << r.skip;
  *out_ << "\n  ---\n  duration_ms: " << r.duration_ms << "\n";
  for (const auto& [key, value] : r.details)
    *out_ << "  " << key << ": " << yaml_quote(value) << "\n";
  *out_ << "  ...\n" << std::flush;
}

void TapWriter::bail_out(const std::string& reason) {
  *out_ << "Bail out! " << reason << "\n" << std::flush;
}

std::string yaml_quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace moq::interop
