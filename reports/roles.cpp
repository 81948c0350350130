#include "reports/roles.h"

#include <set>
#include <utility>

namespace moq::reports {

std::vector<RoleSplitRow> role_split_rows(const std::vector<InputFile>& inputs) {
  const std::vector<CaseLookup> lookups = lookups_of(inputs);
  std::vector<RoleSplitRow> rows;
  std::set<std::string, std::less<>> done;
  for (const InputFile& input : inputs) {
    for (const results::CaseResult& c : input.results.cases) {
      if (c.roles.empty() || !done.insert(c.id).second) continue;
      for (std::string_view role : results::kRoleNames) {
        RoleSplitRow row{c.id, std::string(role), {}, {}};
        bool any = false;
        for (const CaseLookup& lookup : lookups) {
          const results::CaseResult* other = lookup.find(c.id);
          const results::RoleCost* cost = nullptr;
          if (other != nullptr)
            for (const results::RoleCost& r : other->roles)
              if (r.role == role) cost = &r;
          row.instructions.push_back(cost ? std::optional(cost->instructions.median)
                                          : std::nullopt);
          row.allocations.push_back(cost ? std::optional(cost->allocations.median) : std::nullopt);
          any = any || cost != nullptr;
        }
        if (any) rows.push_back(std::move(row));
      }
    }
  }
  return rows;
}

Table role_split_table(const std::vector<std::string>& labels,
                       const std::vector<RoleSplitRow>& rows) {
  Table table;
  table.header = {"case", "role"};
  table.align = {Align::kLeft, Align::kLeft};
  for (size_t f = 0; f < labels.size(); ++f) {
    table.header.push_back("instructions " + labels[f]);
    table.align.push_back(Align::kRight);
    if (f > 0) {
      table.header.push_back("change " + labels[f]);
      table.align.push_back(Align::kRight);
    }
  }
  table.header.push_back("allocations " + join(labels, " -> "));
  table.align.push_back(Align::kRight);
  auto count = [](const std::optional<uint64_t>& v) { return v ? format_count(*v) : "-"; };
  for (const RoleSplitRow& row : rows) {
    std::vector<std::string> cells{row.id, row.role};
    std::vector<std::string> allocations;
    for (size_t f = 0; f < row.instructions.size(); ++f) {
      cells.push_back(count(row.instructions[f]));
      if (f > 0) {
        std::optional<double> change;
        if (row.instructions[0] && row.instructions[f])
          change = percent_change(*row.instructions[0], *row.instructions[f]);
        cells.push_back(change ? format_pct(*change) : "-");
      }
      allocations.push_back(count(row.allocations[f]));
    }
    cells.push_back(join(allocations, " -> "));
    table.rows.push_back(std::move(cells));
  }
  return table;
}

}  // namespace moq::reports
