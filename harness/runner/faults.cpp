#include "harness/runner/faults.h"

namespace moq::harness {

namespace {

std::vector<FaultsFactory>& faults_factories() {
  static std::vector<FaultsFactory> factories;
  return factories;
}

}  // namespace

FaultsRegistrar::FaultsRegistrar(FaultsFactory factory) {
  faults_factories().push_back(factory);
}

std::vector<FaultDef> registered_faults() {
  std::vector<FaultDef> all;
  for (FaultsFactory factory : faults_factories())
    for (FaultDef& def : factory())
      all.push_back(std::move(def));
  return all;
}

std::string fault_replay_command(const std::string& fault, const std::string& version,
                                 uint64_t seed) {
  return "moqbench faults --fault " + fault + " --versions " + version + " --seed " +
         std::to_string(seed);
}

}  // namespace moq::harness
