#include "harness/cli/results_folder.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/schema/results_file.h"

namespace moq::cli {

namespace fs = std::filesystem;

std::string results_folder() {
  if (const char* env = std::getenv("MOQBENCH_RESULTS_DIR"); env != nullptr && *env != '\0')
    return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  // The build tree's layout puts the binary at <build>/harness/cli/moqbench.
  if (!ec && exe.parent_path().filename() == "cli" &&
      exe.parent_path().parent_path().filename() == "harness")
    return (exe.parent_path().parent_path().parent_path() / "results").string();
  return "results";
}

Result<std::string> timestamped_results_path(const std::string& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return Error{0, "cannot create the results folder " + folder + ": " + ec.message()};
  if (!fs::is_directory(folder, ec))
    return Error{0, "the results folder " + folder + " is not a directory"};
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
  std::string base = (fs::path(folder) / ("sweep-" + std::string(stamp))).string();
  // Two sweeps started in one second keep both files.
  std::string path = base + ".json";
  for (int n = 2; fs::exists(path, ec); ++n)
    path = base + "-" + std::to_string(n) + ".json";
  return path;
}

Result<std::string> update_latest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{0, "cannot read " + path};
  std::ostringstream text;
  text << in.rdbuf();
  const std::string latest = (fs::path(path).parent_path() / "latest.json").string();
  if (results::Status st = results::write_file_atomically(latest, text.str()); !st)
    return Error{0, latest + ": " + st.error().message};
  return latest;
}

}  // namespace moq::cli
