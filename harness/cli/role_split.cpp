#include "harness/cli/role_split.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "harness/cli/case_process.h"
#include "model/async/role.h"

namespace moq::cli {

namespace {

// A transport's entry points: every call into it from a session goes through one of these, and
// none of them calls another. sim/memory: every method of its three classes (their work is in
// detail::Core). sim/quic and sim/qmux: the methods of the transport interface
// (model/transport.h) only, since their classes' other methods call each other.
std::vector<std::string> memory_transport_entries() {
  return {"moq::sim::memory::MemoryConnection::*", "moq::sim::memory::detail::SendHalf::*",
          "moq::sim::memory::detail::RecvHalf::*"};
}

// The interface methods of a backend's connection and stream halves, by their classes' names.
// read_all only where it calls no other entry point (sim/quic's falls back on read()).
std::vector<std::string> interface_entries(const std::string& connection,
                                           const std::string& send_half,
                                           const std::string& recv_half, bool read_all) {
  std::vector<std::string> out;
  for (const char* m : {"executor", "alpn", "is_client", "open_uni", "open_bidi", "can_open",
                        "accept_uni", "accept_bidi", "incoming", "send_datagram", "recv_datagram",
                        "datagrams", "close", "close_error", "closed", "stats", "wire_stats"})
    out.push_back(connection + "::" + m + "(*");
  for (const char* m :
       {"id", "write", "finish", "reset", "set_send_order", "writable", "stop_code", "release"})
    out.push_back(send_half + "::" + m + "(*");
  for (const char* m : {"id", "read", "stop", "readable", "release"})
    out.push_back(recv_half + "::" + m + "(*");
  if (read_all) out.push_back(recv_half + "::read_all(*");
  return out;
}

std::vector<std::string> quic_transport_entries() {
  return interface_entries("moq::sim::quic::QuicConnection", "moq::sim::quic::QSendHalf",
                           "moq::sim::quic::QRecvHalf", false);
}

std::vector<std::string> qmux_transport_entries() {
  return interface_entries("moq::sim::qmux::QmuxConnection", "moq::sim::qmux::detail::QxSendHalf",
                           "moq::sim::qmux::detail::QxRecvHalf", true);
}

// The roles whose entry functions a pass toggles: all but the harness.
constexpr std::array<Role, 4> kSplitRoles = {Role::kPublisher, Role::kRelay, Role::kViewer,
                                             Role::kTransport};

std::string entry_pattern(Role role) {
  return "moq::role_entry::" + std::string(role_name(role)) + "(*";
}

// Per measured round, instructions and allocations.
struct Samples {
  std::vector<uint64_t> ir;
  std::vector<uint64_t> allocs;
};

struct Pass {
  std::string name;  // for errors: "H", "I_relay", ...
  bool collect_at_start = false;
  std::vector<std::string> toggles;
};

// The allocation marker's cost of one call, from the plain measurement (where every call is
// collected, so its call count is every allocation); 0 when it allocated nothing.
Result<uint64_t> marker_cost_per_call(const std::vector<AllocationMarker>& rounds,
                                      const results::CaseResult& plain) {
  uint64_t cost = 0;
  for (size_t r = 0; r < rounds.size(); ++r) {
    const AllocationMarker& a = rounds[r];
    const std::string round = "round " + std::to_string(r + 1);
    if (a.calls != plain.metrics.allocations->samples[r])
      return Error{0, round + ": the allocation marker was called " + std::to_string(a.calls) +
                          " times for " + std::to_string(plain.metrics.allocations->samples[r]) +
                          " allocations"};
    if (a.calls == 0) continue;
    if (a.ir % a.calls != 0 || (cost != 0 && a.ir / a.calls != cost))
      return Error{0, round + ": the allocation marker does not cost the same per call"};
    cost = a.ir / a.calls;
  }
  return cost;
}

Result<Samples> run_pass(const harness::CaseSpec& spec, const harness::RunOptions& options,
                         std::optional<int> cpu, const results::CaseResult& plain,
                         uint64_t marker_cost, const Pass& pass) {
  CollectPass collect;
  for (const std::string& t : pass.toggles)
    collect.callgrind_args.push_back("--toggle-collect=" + t);
  // After the toggles: callgrind turns collection at start off on each --toggle-collect.
  collect.callgrind_args.push_back(std::string("--collect-atstart=") +
                                   (pass.collect_at_start ? "yes" : "no"));
  collect.read_allocation_marker = true;
  std::vector<AllocationMarker> rounds;
  const results::CaseResult c =
      measure_case_in_callgrind_process(spec, options, cpu, {}, collect, &rounds);
  const std::string what = "role pass " + pass.name;
  if (c.flags.failed) return Error{0, what + ": " + c.flags.reason.value_or("failed")};
  if (c.delivered != plain.delivered)
    return Error{0, what + " delivered other frames than the plain measurement: not the same work"};
  if (!c.metrics.instructions || !c.metrics.allocations ||
      c.metrics.instructions->samples.size() != plain.metrics.instructions->samples.size())
    return Error{0, what + ": not one sample per measured round"};
  Samples out{c.metrics.instructions->samples, {}};
  for (const AllocationMarker& a : rounds) {
    if (a.ir != 0 && (marker_cost == 0 || a.ir % marker_cost != 0))
      return Error{0, what + ": the allocation marker's cost " + std::to_string(a.ir) +
                          " is no whole number of allocations"};
    out.allocs.push_back(marker_cost == 0 ? 0 : a.ir / marker_cost);
  }
  return out;
}

// One metric of one round: the parts, checked (see role_split.h).
struct RoundInputs {
  uint64_t total, h, t;
  std::array<uint64_t, kSplitRoles.size()> i, x;  // x unused (0) where i is 0
};

Result<std::array<uint64_t, kRoleCount>> split_round(const RoundInputs& in, const char* metric,
                                                     size_t round) {
  const std::string where = std::string(metric) + ", round " + std::to_string(round + 1);
  std::array<uint64_t, kRoleCount> out{};
  uint64_t t_in_roles = 0;
  for (size_t k = 0; k < kSplitRoles.size(); ++k) {
    const Role role = kSplitRoles[k];
    uint64_t t_r = 0;
    if (in.i[k] != 0) {
      const int64_t twice = static_cast<int64_t>(in.i[k] + in.t) - static_cast<int64_t>(in.x[k]);
      if (twice < 0 || twice % 2 != 0 || static_cast<uint64_t>(twice / 2) > std::min(in.i[k], in.t))
        return Error{0, where + ": the " + std::string(role_name(role)) +
                            " role's transport calls come out as " + std::to_string(twice) +
                            "/2 of " + std::to_string(in.t) +
                            ": a transport entry point nests in another"};
      t_r = static_cast<uint64_t>(twice / 2);
    }
    t_in_roles += t_r;
    out[static_cast<size_t>(role)] = in.i[k] - t_r;
  }
  if (t_in_roles > in.t || in.t - t_in_roles > in.h)
    return Error{0, where + ": the transport calls do not fit the harness's share"};
  out[static_cast<size_t>(Role::kTransport)] += in.t;
  out[static_cast<size_t>(Role::kHarness)] = in.h - (in.t - t_in_roles);
  return out;
}

}  // namespace

results::CaseResult measure_case_by_role(const harness::CaseSpec& spec,
                                         const harness::RunOptions& options,
                                         std::optional<int> cpu) {
  const std::string& transport = spec.text("transport");
  if (!transport.empty() && transport != "memory" && transport != "quic-sim" && transport != "qmux")
    return harness::failed_case(spec, options,
                                "--roles: only the memory and quic-sim transports are split by "
                                "role (and qmux: the worlds on the virtual clock), not '" +
                                    transport + "'");
  CollectPass with_marker;
  with_marker.read_allocation_marker = true;
  std::vector<AllocationMarker> plain_marker;
  results::CaseResult plain =
      measure_case_in_callgrind_process(spec, options, cpu, {}, with_marker, &plain_marker);
  if (plain.flags.failed) return plain;
  auto fail = [&](const std::string& why) {
    results::CaseResult failed = std::move(plain);
    failed.flags.failed = true;
    failed.flags.reason = "--roles: " + why;
    return failed;
  };
  if (!plain.metrics.instructions || !plain.metrics.allocations)
    return fail("the plain measurement has no instructions or allocations");
  Result<uint64_t> marker = marker_cost_per_call(plain_marker, plain);
  if (!marker) return fail(marker.error().message);
  const std::vector<std::string> transport_entries =
      transport == "quic-sim" ? quic_transport_entries()
      : transport == "qmux"   ? qmux_transport_entries()
                              : memory_transport_entries();

  Pass h{"H", true, {}};
  for (Role role : kSplitRoles)
    h.toggles.push_back(entry_pattern(role));
  Result<Samples> h_samples = run_pass(spec, options, cpu, plain, *marker, h);
  if (!h_samples) return fail(h_samples.error().message);
  Result<Samples> t_samples =
      run_pass(spec, options, cpu, plain, *marker, {"T", false, transport_entries});
  if (!t_samples) return fail(t_samples.error().message);
  std::array<Samples, kSplitRoles.size()> i_samples, x_samples;
  for (size_t k = 0; k < kSplitRoles.size(); ++k) {
    const std::string name(role_name(kSplitRoles[k]));
    Result<Samples> i = run_pass(spec, options, cpu, plain, *marker,
                                 {"I_" + name, false, {entry_pattern(kSplitRoles[k])}});
    if (!i) return fail(i.error().message);
    i_samples[k] = std::move(*i);
    const size_t rounds = i_samples[k].ir.size();
    x_samples[k] = {std::vector<uint64_t>(rounds, 0), std::vector<uint64_t>(rounds, 0)};
    auto zero = [](const std::vector<uint64_t>& v) {
      return std::all_of(v.begin(), v.end(), [](uint64_t s) { return s == 0; });
    };
    if (zero(i_samples[k].ir) && zero(i_samples[k].allocs)) continue;  // never ran
    Pass x{"X_" + name, false, transport_entries};
    x.toggles.push_back(entry_pattern(kSplitRoles[k]));
    Result<Samples> xs = run_pass(spec, options, cpu, plain, *marker, x);
    if (!xs) return fail(xs.error().message);
    x_samples[k] = std::move(*xs);
  }

  const Samples total{plain.metrics.instructions->samples, plain.metrics.allocations->samples};
  std::array<Samples, kRoleCount> by_role;
  for (size_t round = 0; round < total.ir.size(); ++round) {
    for (const bool instructions : {true, false}) {
      auto pick = [&](const Samples& s) { return (instructions ? s.ir : s.allocs)[round]; };
      RoundInputs in{pick(total), pick(*h_samples), pick(*t_samples), {}, {}};
      uint64_t sum = in.h;
      for (size_t k = 0; k < kSplitRoles.size(); ++k) {
        in.i[k] = pick(i_samples[k]);
        in.x[k] = pick(x_samples[k]);
        sum += in.i[k];
      }
      const char* metric = instructions ? "instructions" : "allocations";
      // The check of the whole method: the passes' independent parts add up to the total.
      const uint64_t diff = sum > in.total ? sum - in.total : in.total - sum;
      if (instructions ? diff * 1000 > in.total : diff != 0) {
        std::string passes = "H " + std::to_string(in.h) + ", T " + std::to_string(in.t);
        for (size_t k = 0; k < kSplitRoles.size(); ++k) {
          const std::string name(role_name(kSplitRoles[k]));
          passes += ", I_" + name + " " + std::to_string(in.i[k]) + ", X_" + name + " " +
                    std::to_string(in.x[k]);
        }
        return fail(std::string(metric) + ", round " + std::to_string(round + 1) +
                    ": the roles add up to " + std::to_string(sum) + ", the measurement is " +
                    std::to_string(in.total) + " (passes: " + passes + ")");
      }
      Result<std::array<uint64_t, kRoleCount>> parts = split_round(in, metric, round);
      if (!parts) return fail(parts.error().message);
      for (Role role : kAllRoles) {
        Samples& s = by_role[static_cast<size_t>(role)];
        (instructions ? s.ir : s.allocs).push_back((*parts)[static_cast<size_t>(role)]);
      }
    }
  }
  for (Role role : kAllRoles) {
    Samples& s = by_role[static_cast<size_t>(role)];
    plain.roles.push_back({std::string(role_name(role)), *results::compute_stats(std::move(s.ir)),
                           *results::compute_stats(std::move(s.allocs))});
  }
  return plain;
}

}  // namespace moq::cli
