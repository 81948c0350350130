// `moqbench figures [--check]`: every block of figure_blocks() generated from its results files
// and written into its README, or compared with it.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "reports/figures.h"
#include "reports/gate.h"
#include "reports/schema/results_file.h"

namespace moq::reports {
namespace {

namespace fs = std::filesystem;

Result<std::string> read_text(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return Error{path.string() + ": " + (fs::exists(path, ec) ? "not a regular file" : "missing")};
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return Error{path.string() + ": cannot be read"};
  return text.str();
}

// "line N: README has 'a', the results give 'b'" for the first line where two texts differ.
std::string first_difference(const std::string& have, const std::string& want) {
  std::istringstream a(have), b(want);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool more_a = bool(std::getline(a, la));
    const bool more_b = bool(std::getline(b, lb));
    if (!more_a && !more_b) return "they differ in line endings";
    if (!more_a) la = "(nothing)";
    if (!more_b) lb = "(nothing)";
    if (!more_a || !more_b || la != lb)
      return "line " + std::to_string(line) + " of the block has '" + la + "', the results give '" +
             lb + "'";
  }
}

}  // namespace

int run_figures(const FiguresCommand& command, std::ostream& out, std::ostream& err) {
  const fs::path root(command.root);
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    err << "moqbench figures: --root " << command.root << ": not a directory\n";
    return kExitBadInput;
  }
  std::vector<std::string> problems;  // bad input, all reported before anything is written

  // Each results file once, whichever blocks read it.
  std::map<std::string, results::ResultsFile> loaded;
  std::set<std::string> unreadable;  // their blocks are not generated (their error says why)
  for (const FigureBlock& block : figure_blocks())
    for (const std::string& source : block.sources) {
      if (loaded.count(source) != 0) continue;
      Result<results::ResultsFile> file =
          results::read_results_file((root / figure_source_path(source)).string());
      if (!file.ok()) {
        problems.push_back(file.error().message);
        unreadable.insert(source);
        loaded.emplace(source, results::ResultsFile{});
      } else {
        loaded.emplace(source, std::move(*file));
      }
    }

  std::map<std::string, std::vector<const FigureBlock*>> by_file;  // README -> its blocks
  for (const FigureBlock& block : figure_blocks())
    by_file[block.file].push_back(&block);

  std::map<std::string, std::string> rewritten;  // README -> its new text, where it changed
  std::vector<std::string> differing;
  size_t blocks = 0;
  for (const auto& [file, specs] : by_file) {
    Result<std::string> text = read_text(root / file);
    if (!text.ok()) {
      problems.push_back(text.error().message);
      continue;
    }
    std::set<std::string> known;
    for (const FigureBlock* spec : specs)
      known.insert(spec->name);
    std::set<std::string> reported;
    for (const std::string& name : marked_figure_blocks(*text))
      if (known.count(name) == 0 && reported.insert(name).second)
        problems.push_back(file + ": a figures marker names '" + name +
                           "', which no spec in reports/figure_tables.cpp generates");
    std::string updated = *text;
    for (const FigureBlock* spec : specs) {
      ++blocks;
      if (std::any_of(spec->sources.begin(), spec->sources.end(),
                      [&](const std::string& s) { return unreadable.count(s) != 0; }))
        continue;
      std::map<std::string, const results::ResultsFile*> sources;
      for (const std::string& source : spec->sources)
        sources[source] = &loaded.at(source);
      FigureData data(std::move(sources));
      const std::string content = render_markdown(spec->table(data));
      const std::string where = file + ": block '" + spec->name + "'";
      if (!data.missing().empty()) {
        for (const std::string& what : data.missing())
          problems.push_back(where + " needs " + what);
        continue;
      }
      Result<std::string> current = figure_block_content(updated, spec->name);
      if (!current.ok()) {
        problems.push_back(file + ": " + current.error().message);
        continue;
      }
      if (*current == content) continue;
      std::string from;
      for (const std::string& source : spec->sources)
        from += (from.empty() ? "" : ", ") + figure_source_path(source);
      differing.push_back(where + " differs from what " + from + " give" +
                          (spec->sources.size() == 1 ? "s" : "") + ": " +
                          first_difference(*current, content));
      updated = *replace_figure_block(updated, spec->name, content);
    }
    if (updated != *text) rewritten[file] = std::move(updated);
  }

  if (!problems.empty()) {
    for (const std::string& p : problems)
      err << "moqbench figures: " << p << "\n";
    err << "moqbench figures: nothing written\n";
    return kExitBadInput;
  }
  if (command.check) {
    if (differing.empty()) {
      out << "moqbench figures: all " << blocks << " blocks in " << by_file.size()
          << " files match their results files\n";
      return kExitOk;
    }
    for (const std::string& d : differing)
      err << "moqbench figures: " << d << "\n";
    err << "moqbench figures: " << differing.size() << " of " << blocks
        << " blocks differ; tools/update-baseline (or `moqbench figures`) rewrites them\n";
    return kExitRegressed;
  }
  for (const auto& [file, text] : rewritten) {
    Status written = results::write_file_atomically((root / file).string(), text);
    if (!written.ok()) {
      err << "moqbench figures: " << written.error().message << "\n";
      return kExitOutputError;
    }
  }
  out << "moqbench figures: " << blocks << " blocks in " << by_file.size() << " files; "
      << differing.size() << " rewritten";
  for (const std::string& d : differing)
    out << "\n  " << d.substr(0, d.find(" differs"));
  out << "\n";
  return kExitOk;
}

}  // namespace moq::reports
