// The per-role split of each case (results cases[].roles, from `run|sweep --roles`) side by side
// across results files, so a reviewer reads "the relay got 4% dearer, viewers unchanged" off
// one table. compare and report show it under their main table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/inputs.h"
#include "reports/table.h"

namespace moq::reports {

// One role of one case: its median per round in each file (nullopt where that file did not
// split the case by role).
struct RoleSplitRow {
  std::string id;
  std::string role;
  std::vector<std::optional<uint64_t>> instructions;
  std::vector<std::optional<uint64_t>> allocations;
};

// The roles of every case that some file split, in the first such file's case order and the
// roles' order.
std::vector<RoleSplitRow> role_split_rows(const std::vector<InputFile>& inputs);

// case, role, each file's instructions (and its change against the first file), and the
// allocations "a -> b"; `labels` name the files. No rows when no file split a case.
Table role_split_table(const std::vector<std::string>& labels,
                       const std::vector<RoleSplitRow>& rows);

}  // namespace moq::reports
