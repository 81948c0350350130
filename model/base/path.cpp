#include "model/base/path.h"

namespace moq {

Path::Path(std::string_view text) {
  text_.reserve(text.size());
  bool pending_slash = false;
  for (char c : text) {
    if (c == '/') {
      pending_slash = !text_.empty();
      continue;
    }
    if (pending_slash) text_.push_back('/');
    pending_slash = false;
    text_.push_back(c);
  }
}

size_t Path::segment_count() const {
  if (text_.empty()) return 0;
  size_t n = 1;
  for (char c : text_)
    n += c == '/';
  return n;
}

bool Path::has_prefix(const Path& prefix) const {
  const std::string& p = prefix.text_;
  if (p.empty()) return true;
  if (text_.size() < p.size() || text_.compare(0, p.size(), p) != 0) return false;
  return text_.size() == p.size() || text_[p.size()] == '/';
}

std::optional<Path> Path::strip_prefix(const Path& prefix) const {
  if (!has_prefix(prefix)) return std::nullopt;
  Path rest;
  if (prefix.text_.empty()) {
    rest.text_ = text_;
  } else if (text_.size() > prefix.text_.size()) {
    rest.text_ = text_.substr(prefix.text_.size() + 1);
  }
  return rest;
}

Path Path::join(const Path& suffix) const {
  Path out;
  out.text_ = text_;
  if (!text_.empty() && !suffix.text_.empty()) out.text_.push_back('/');
  out.text_ += suffix.text_;
  return out;
}

}  // namespace moq
