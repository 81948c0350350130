// `moqbench baselines`: the named baselines (baselines.h) with the commit, counter, date and
// number of cases of each.
#include <filesystem>

#include "harness/cli/baselines.h"
#include "harness/cli/commands.h"
#include "reports/inputs.h"
#include "reports/schema/results_file.h"
#include "reports/table.h"

namespace moq::cli {

Action add_baselines_command(CLI::App& app, const CliContext& ctx) {
  app.add_subcommand(
      "baselines",
      "List the named baselines (saved by `sweep --save-baseline NAME`, read by `compare`, "
      "`gate` and `report` --baseline NAME): name, commit, counter, date the sweep started, "
      "cases. They live in $MOQBENCH_BASELINES_DIR when set, else ./.moqbench/baselines. Exit 2 "
      "when one cannot be read");
  return [ctx]() {
    const std::string folder = baselines_folder();
    std::error_code ec;
    if (std::filesystem::exists(folder, ec) && !std::filesystem::is_directory(folder, ec))
      return bad_input(ctx, "baselines", "the baselines folder " + folder + " is not a directory");
    const std::vector<std::string> names = baseline_names(folder);
    if (names.empty()) {
      ctx.io->out << "no baselines in " << folder
                  << " (`moqbench sweep --save-baseline NAME` saves one)\n";
      return kExitOk;
    }
    reports::Table table;
    table.header = {"name", "commit", "counter", "date", "cases"};
    table.align = {reports::Align::kLeft, reports::Align::kLeft, reports::Align::kLeft,
                   reports::Align::kLeft, reports::Align::kRight};
    int status = kExitOk;
    for (const std::string& name : names) {
      results::Result<results::ResultsFile> file =
          results::read_results_file(baseline_path(folder, name));
      if (!file) {
        status = bad_input(ctx, "baselines", file.error().message);
        table.rows.push_back({name, "unreadable", "-", "-", "-"});
        continue;
      }
      const results::Meta& meta = file->meta;
      table.rows.push_back({name, reports::commit_text(meta), reports::counter_text(meta),
                            meta.start_time, std::to_string(file->cases.size())});
    }
    ctx.io->out << "baselines in " << folder << "\n" << reports::render_terminal(table);
    return status;
  };
}

}  // namespace moq::cli
