// Who the code running on the executor works for, so a profiler can split a round's cost by role
// (`moqbench run --roles`). A task takes the role of the code that created it and keeps it; the
// executor polls each task through its role's entry function (executor.cpp: role_entry), and
// Executor::run_as runs other code through the same functions. Those functions are all a
// profiler needs to see: callgrind counts what runs inside one of them (--toggle-collect) without
// a single instruction of bookkeeping in the measured code beyond the call itself.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace moq {

enum class Role : uint8_t {
  kHarness,    // the application around the stack (and code outside any role): the default
  kPublisher,  // publisher sessions
  kRelay,      // relays, with their sessions
  kViewer,     // viewer sessions
  kTransport,  // the transport's own tasks (calls into the transport from other roles are
               // told apart by the profiler: harness/counters/callgrind_roles.h)
};
inline constexpr size_t kRoleCount = 5;
inline constexpr std::array<Role, kRoleCount> kAllRoles = {
    Role::kHarness, Role::kPublisher, Role::kRelay, Role::kViewer, Role::kTransport};

// "harness", "publisher", "relay", "viewer", "transport": also the name of the role's entry
// functions, moq::role_entry::<name>(...).
constexpr std::string_view role_name(Role role) {
  constexpr std::array<std::string_view, kRoleCount> kNames = {"harness", "publisher", "relay",
                                                               "viewer", "transport"};
  return kNames[static_cast<size_t>(role)];
}

}  // namespace moq
