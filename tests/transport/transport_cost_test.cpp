// The transport's instruction and allocation budgets, measured with callgrind on the Release,
// unsanitized build of sim/memory/transport_cost (see that file for the commands it runs).
//
// Budgets (per operation, steady state):
//   SendStream::write + RecvStream::read of one chunk on an open stream: <= 200 instructions
//   uni stream open -> accept -> finish -> FIN seen -> handles dropped:  <= 2,000 instructions
// and no allocation in either (the budget allows 2 per stream life; pooling makes it 0).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/counters/callgrind_dump.h"
#include "harness/counters/callgrind_launch.h"

namespace moq::sim::memory::testing {
namespace {

constexpr long kIterations = 2000;

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Measured {
  double instructions_per_op = 0;
  std::string output;  // transport_cost's stdout
};

// Runs transport_cost `op` under callgrind, collecting only inside the functions `collect`.
Measured measure(const std::string& op, const std::vector<std::string>& collect) {
  Measured m;
  Result<std::string> valgrind = counters::find_valgrind();
  if (!valgrind.ok()) {
    ADD_FAILURE() << valgrind.error().message;
    return m;
  }
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("moq_transport_cost." + std::to_string(getpid()) + "." + op);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string cmd = *valgrind + " --tool=callgrind --collect-atstart=no -q --callgrind-out-file=" +
                    (dir / "cg.out").string();
  for (const std::string& f : collect)
    cmd += " '--toggle-collect=" + f + "'";
  cmd += std::string(" ") + MOQ_TRANSPORT_COST + " " + op + " " + std::to_string(kIterations) +
         " > " + (dir / "stdout").string();
  int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << cmd;
  m.output = read_text(dir / "stdout");
  const std::filesystem::path dump = dir / "cg.out.1";
  Result<uint64_t> ir = counters::parse_callgrind_dump_ir(read_text(dump), op, dump.string());
  EXPECT_TRUE(ir.ok()) << (ir.ok() ? "" : ir.error().message) << "\ncommand: " << cmd;
  if (ir.ok()) m.instructions_per_op = static_cast<double>(*ir) / kIterations;
  std::filesystem::remove_all(dir);
  return m;
}

const std::vector<std::string> kWriteAndRead = {
    "moq::sim::memory::detail::SendHalf::write(*",
    "moq::sim::memory::detail::RecvHalf::read(*",
};

TEST(TransportCostTest, WriteAndReadOfA64ByteChunkFitTheBudget) {
  Measured m = measure("write_read_64", kWriteAndRead);
  RecordProperty("instructions_per_op", std::to_string(m.instructions_per_op));
  std::printf("write + read of 64 B: %.1f instructions\n", m.instructions_per_op);
  EXPECT_GT(m.instructions_per_op, 20) << "nothing was measured";
  EXPECT_LE(m.instructions_per_op, 200);
  EXPECT_NE(m.output.find("allocs=0\n"), std::string::npos) << m.output;
}

TEST(TransportCostTest, WriteAndReadCostDoesNotDependOnChunkSize) {
  Measured small = measure("write_read_64", kWriteAndRead);
  Measured large = measure("write_read_16k", kWriteAndRead);
  std::printf("write + read of 16 KiB: %.1f instructions\n", large.instructions_per_op);
  EXPECT_EQ(small.instructions_per_op, large.instructions_per_op) << "the payload was touched";
  EXPECT_NE(large.output.find("allocs=0\n"), std::string::npos) << large.output;
}

TEST(TransportCostTest, UniStreamLifeFitsTheBudget) {
  Measured m = measure("uni_stream_life", {"moq::sim::memory::ops::uni_stream_life(*"});
  RecordProperty("instructions_per_op", std::to_string(m.instructions_per_op));
  std::printf("uni stream open -> accept -> finish -> FIN: %.1f instructions\n",
              m.instructions_per_op);
  EXPECT_GT(m.instructions_per_op, 50) << "nothing was measured";
  EXPECT_LE(m.instructions_per_op, 2000);
  EXPECT_NE(m.output.find("allocs=0\n"), std::string::npos) << m.output;
}

}  // namespace
}  // namespace moq::sim::memory::testing
