#include "harness/cli/baselines.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "reports/schema/results_file.h"

namespace moq::cli {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxNameLength = 100;
constexpr std::string_view kSuffix = ".json";

std::string listing(const std::string& folder) {
  const std::vector<std::string> names = baseline_names(folder);
  if (names.empty()) return "none saved yet: `moqbench sweep --save-baseline NAME` saves one";
  std::string out = "saved: ";
  for (size_t i = 0; i < names.size(); ++i)
    out += (i > 0 ? ", " : "") + names[i];
  return out;
}

}  // namespace

std::string baselines_folder() {
  if (const char* env = std::getenv("MOQBENCH_BASELINES_DIR"); env != nullptr && *env != '\0')
    return env;
  return (fs::path(".moqbench") / "baselines").string();
}

Status check_baseline_name(const std::string& option, const std::string& name) {
  const std::string rule =
      "a baseline name is 1 to " + std::to_string(kMaxNameLength) +
      " letters, digits, '.', '_' or '-', not starting with '.' (no '/', no '..')";
  if (name.empty()) return Error{0, option + ": the name is empty: " + rule};
  const bool chars_ok = std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
  if (!chars_ok || name.front() == '.' || name.find("..") != std::string::npos ||
      name.size() > kMaxNameLength)
    return Error{0, option + " '" + name + "': not a baseline name: " + rule};
  return {};
}

std::vector<std::string> baseline_names(const std::string& folder) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    if (file.size() <= kSuffix.size() || !file.ends_with(kSuffix)) continue;
    const std::string name = file.substr(0, file.size() - kSuffix.size());
    // What a name cannot be (a temporary file, a hidden one) is not a baseline.
    if (check_baseline_name("", name).ok()) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string baseline_path(const std::string& folder, const std::string& name) {
  return (fs::path(folder) / (name + std::string(kSuffix))).string();
}

Result<std::string> find_baseline(const std::string& name) {
  if (Status st = check_baseline_name("--baseline", name); !st) return st.error();
  const std::string folder = baselines_folder();
  const std::string path = baseline_path(folder, name);
  std::error_code ec;
  if (!fs::exists(path, ec))
    return Error{0, "--baseline '" + name + "': no such baseline in " + folder + " (" +
                        listing(folder) + ")"};
  return path;
}

Status check_can_save(const std::string& name, bool force) {
  if (Status st = check_baseline_name("--save-baseline", name); !st) return st;
  const std::string folder = baselines_folder();
  std::error_code ec;
  if (fs::exists(folder, ec) && !fs::is_directory(folder, ec))
    return Error{0, "--save-baseline: the baselines folder " + folder + " is not a directory"};
  const std::string path = baseline_path(folder, name);
  if (!fs::exists(path, ec)) return {};
  // Replacing is for a baseline: a directory or a device of that name is never written over.
  if (!fs::is_regular_file(path, ec))
    return Error{0, "--save-baseline '" + name + "': " + path + " is not a regular file"};
  if (!force)
    return Error{0, "--save-baseline '" + name + "': a baseline of that name exists in " + folder +
                        "; add --force to replace it"};
  return {};
}

Result<std::string> save_baseline(const std::string& results_path, const std::string& name) {
  results::Result<results::ResultsFile> file = results::read_results_file(results_path);
  if (!file) return Error{0, file.error().message};
  const std::string folder = baselines_folder();
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return Error{0, "cannot create the baselines folder " + folder + ": " + ec.message()};
  const std::string path = baseline_path(folder, name);
  if (results::Status st = results::write_results_file(path, *file); !st)
    return Error{0, st.error().message};
  return path;
}

}  // namespace moq::cli
