// Path: a broadcast path of '/'-separated segments, stored normalised (no leading, trailing or
// doubled '/'). Prefix matching works on whole segments: "a/b" is a prefix of "a/b" and "a/b/c"
// but not of "a/bc".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace moq {

class Path {
 public:
  Path() = default;
  // Normalises: trims '/' at both ends and collapses runs of '/'.
  explicit Path(std::string_view text);

  const std::string& str() const { return text_; }
  bool empty() const { return text_.empty(); }
  size_t segment_count() const;

  // True when prefix is this path or one of its whole-segment ancestors. The empty path is a
  // prefix of every path.
  bool has_prefix(const Path& prefix) const;
  // The rest of this path after prefix (empty when equal), or nullopt when prefix does not match.
  std::optional<Path> strip_prefix(const Path& prefix) const;
  // prefix joined with suffix; '/' is inserted only when both are non-empty.
  Path join(const Path& suffix) const;

  bool operator==(const Path& o) const { return text_ == o.text_; }
  auto operator<=>(const Path& o) const { return text_ <=> o.text_; }

 private:
  std::string text_;
};

}  // namespace moq
