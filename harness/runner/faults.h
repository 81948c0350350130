// Fault scenarios: worlds where something goes wrong on purpose (a group reset mid-group, a
// session closed mid-fetch, a publisher vanishing, ...), each run for one protocol version and
// one seed, checking what the protocol promises. The harness only lists and runs them
// (`moqbench faults`); the worlds live with the scenarios (scenarios/faults.cpp), registered with
// MOQ_REGISTER_FAULTS as the scenarios are with MOQ_REGISTER_SCENARIO (registrar.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/runner/registrar.h"

namespace moq::harness {

struct FaultOutcome {
  std::string failure;  // empty: every promise held
  std::string trace;    // the digest (16 hex digits) of everything the viewers saw, and when
  std::string summary;  // what happened, in a line
};

struct FaultDef {
  std::string name;
  std::string summary;
  // Runs the fault once on a protocol version (a registry name) with a seed. The same version
  // and seed give the same outcome, trace included.
  std::function<FaultOutcome(const std::string& version, uint64_t seed)> run;
};

// The command that runs one fault, version and seed again.
std::string fault_replay_command(const std::string& fault, const std::string& version,
                                 uint64_t seed);

using FaultsFactory = std::vector<FaultDef> (*)();

class FaultsRegistrar {
 public:
  explicit FaultsRegistrar(FaultsFactory factory);
};

// Every registered fault, in registration order.
std::vector<FaultDef> registered_faults();

}  // namespace moq::harness

// At namespace scope: `factory` is a function `std::vector<FaultDef> factory()`.
#define MOQ_REGISTER_FAULTS(factory)                                                \
  namespace {                                                                       \
  const ::moq::harness::FaultsRegistrar MOQ_REGISTRAR_CONCAT(moq_faults_registrar_, \
                                                             __LINE__){&(factory)}; \
  }                                                                                 \
  static_assert(true, "")
