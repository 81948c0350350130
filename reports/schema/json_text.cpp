#include "reports/schema/json_text.h"

#include <algorithm>
#include <set>
#include <vector>

namespace moq::results {
namespace {

// Thrown by the parser callback to stop parsing at the first problem; parse_json_text catches it.
struct Refusal {
  std::string message;
};

// Follows the parser's events to know where in the document it is, so that a duplicate key or a
// too-deep value is named by its path ("cases[3].metrics.allocations.median", "meta.compiler").
class StrictReader {
 public:
  bool on_event(Json::parse_event_t event, const Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        if (levels_.size() + 1 > kMaxJsonDepth) {
          const std::string where = holder_path();
          throw Refusal{(where.empty() ? "" : where + ": ") + "nested deeper than " +
                        std::to_string(kMaxJsonDepth) + " levels"};
        }
        levels_.push_back({event == Json::parse_event_t::array_start, 0, {}, {}});
        break;
      case Json::parse_event_t::key: {
        Level& object = levels_.back();
        object.key = parsed.get<std::string>();
        // The parser would keep the last value of a repeated key: refuse it, since a reader
        // could not tell which of the values was meant.
        if (!object.keys.insert(object.key).second)
          throw Refusal{path(levels_.size()) + ": duplicate key"};
        break;
      }
      case Json::parse_event_t::value:
        finished_value();
        break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        levels_.pop_back();
        finished_value();
        break;
    }
    return true;  // keep every value
  }

 private:
  struct Level {
    bool array = false;
    size_t elements = 0;  // array: elements finished so far, so the index of the current one
    std::string key;      // object: the key of the current member
    std::set<std::string, std::less<>> keys;  // object: the keys seen so far
  };

  void finished_value() {
    if (!levels_.empty() && levels_.back().array) ++levels_.back().elements;
  }

  // The position inside the first `count` levels: "cases[3].metrics".
  std::string path(size_t count) const {
    std::string out;
    for (size_t i = 0; i < count; ++i) {
      const Level& level = levels_[i];
      if (level.array) {
        out += "[" + std::to_string(level.elements) + "]";
      } else {
        if (!out.empty()) out += '.';
        out += level.key;
      }
    }
    return out;
  }

  // The member holding a too-deep value: the path up to its last key and the index right after
  // it, so "meta.x" or "cases[3]" rather than "cases[3][0][0][0]..."; "" for a document that is
  // itself nested arrays.
  std::string holder_path() const {
    size_t last_key = levels_.size();
    for (size_t i = 0; i < levels_.size(); ++i)
      if (!levels_[i].array) last_key = i;
    if (last_key == levels_.size()) return "";
    const size_t count = std::min(levels_.size(), last_key + 2);
    return path(count);
  }

  std::vector<Level> levels_;
};

// Appends the start of `text` as a JSON string: enough of it to fill `limit` characters of out.
void append_string(std::string& out, const std::string& text, size_t limit) {
  // Every source byte gives at least one output character, so more than this cannot show.
  const size_t room = limit + 1 - std::min(out.size(), limit + 1);
  // A cut inside a UTF-8 sequence is replaced (U+FFFD) rather than refused; the final cut of
  // json_excerpt drops it anyway.
  out += Json(text.substr(0, room)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Appends value as compact JSON until out holds more than `limit` characters. Each nesting level
// adds a character, so the recursion is at most limit + 1 deep however deep the value is.
void append_excerpt(std::string& out, const Json& value, size_t limit) {
  if (out.size() > limit) return;
  if (value.is_object() || value.is_array()) {
    const bool object = value.is_object();
    out += object ? '{' : '[';
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (out.size() > limit) return;
      if (!first) out += ',';
      first = false;
      if (object) {
        append_string(out, it.key(), limit);
        out += ':';
      }
      append_excerpt(out, it.value(), limit);
    }
    out += object ? '}' : ']';
  } else if (value.is_string()) {
    append_string(out, value.get_ref<const std::string&>(), limit);
  } else {
    out += value.dump();  // a number, boolean or null: a few characters
  }
}

}  // namespace

Result<Json> parse_json_text(std::string_view text, std::string_view source) {
  StrictReader reader;
  try {
    return Json::parse(text, [&reader](int /*depth*/, Json::parse_event_t event, Json& parsed) {
      return reader.on_event(event, parsed);
    });
  } catch (const Refusal& refusal) {
    return Error{std::string(source) + ": " + refusal.message};
  } catch (const Json::exception& e) {
    // nlohmann's message carries the position of the syntax error.
    return Error{std::string(source) + ": not valid JSON: " + e.what()};
  }
}

std::string json_excerpt(const Json& value, size_t max_chars) {
  std::string out;
  append_excerpt(out, value, max_chars);
  if (out.size() <= max_chars) return out;
  size_t cut = max_chars >= 3 ? max_chars - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
    --cut;  // out[cut] continues a character that starts before it: drop that character too
  out.resize(cut);
  return out + "...";
}

}  // namespace moq::results
