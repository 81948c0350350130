// The stack's cost budgets, checked on a results file of the gate's sweep (tests/gate/sweep-args,
// measured with callgrind): the committed baseline, and the sweep tests/gate/run-gate has just
// measured. They were asserted by hand-written callgrind drivers before (one per layer); now the
// harness measures the cases and this test reads its JSON. Per measured round:
//
//   the transport (transport_write_read, transport_stream_life; scenarios/):
//     one chunk's write + read, the transport's own part: (path=transport - path=loopback) /
//       writes <= 200 instructions, no allocation, the same for 64-byte and 16 KiB chunks (the
//       payload is passed by reference, never touched);
//     one uni stream's life (open, accept, finish, FIN read, handles dropped): (round - empty
//       round) / streams <= 2,000 instructions and at most 2 allocations;
//   the moq-lite sessions (fetch_frames, subscribe_frames, publishers=1 viewers=1):
//     a 256-frame round <= 1,000,000 instructions; no allocation in a 4-frame or a 256-frame
//     round;
//   the moq-transport sessions: a 256-frame fetch round <= 1.5x the same round on moq-lite-06; no
//     allocation in a 4-frame or a 256-frame round, fetch and subscribe alike (the budget was
//     32, and a round 5, before the session core pooled its tasks);
//   fetch_range (burst 4, every version): no allocation;
//   the relay bench (every version): relay/fetch_frames at relays=1, 1 publisher,
//     256 frames <= 2.2x the model case's instructions, at 1 viewer and at 16; no allocation in
//     any relay case of fetch_frames, subscribe_frames, fetch_range and delivery;
//   the relay hops (Budgets.RelayHops, on tests/gate/relay-hops' own sweep): the cost per
//     delivered frame at relays=8 <= 1.3x relays=2, fetch_frames and subscribe_frames, 64 viewers
//     and 256 frames as the Rust session bench's `relays` group (each extra relay adds a hop only
//     where the data crosses it), and no allocation there either;
//   the growth orders (Budgets.Complexity, on its own sweep, tests/gate/complexity-args):
//     prefixes_teardown cost(2F) / cost(F) <= 2.2 (the teardown of a viewer following F announce
//     prefixes is linear in F), every version, both benches, F = 256 -> 512 (the note reports it
//     up to 4096); churn's open-and-close at held=1024 <= 1.5x held=1 (4 sessions); delivery
//     (16 publishers, the Rust bench's base) per viewer-group at 256 viewers <= 1.1x at 16, and
//     its cost per added viewer-group flat within 10% (16 -> 64 against 64 -> 256).
//   the frame shapes (Budgets.FrameShapes, on its own sweep, tests/gate/frame-shapes-args):
//     subscribe_frames and fetch_frames, every version, 256 frames: an empty frame costs at most
//     1.05x a one-byte frame; 1,024 frames of 64 B cost at most 4.2x 256 frames (no step per
//     frame as a group grows);
// Allocations are counted by their maximum over the measured rounds, as the gate counts them.
// tests/gate/allocation_grid.sh checks the same over a wider grid of axes, counter none.
//
// Usage: budgets_test RESULTS.json (a ctest runs it on each file).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "reports/schema/results_file.h"

namespace moq::gate {
namespace {

using results::CaseResult;
using results::ResultsFile;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const ResultsFile* g_results = nullptr;

constexpr const char* kLiteVersions[] = {"moq-lite-06", "moq-lite-07-wip"};
constexpr const char* kIetfVersions[] = {"moq-transport-18", "moq-transport-22"};
constexpr const char* kAllVersions[] = {"moq-lite-06", "moq-lite-07-wip", "moq-transport-18",
                                        "moq-transport-22"};

std::string relay_id(const std::string& scenario, const std::string& version, int relays,
                     int viewers, const std::string& shape) {
  return "relay/" + scenario + "/" + version + "/relays=" + std::to_string(relays) +
         "/publishers=1/viewers=" + std::to_string(viewers) + "/" + shape;
}

std::string model_id(const std::string& scenario, const std::string& version, int viewers,
                     const std::string& shape) {
  return "model/" + scenario + "/" + version + "/publishers=1/viewers=" + std::to_string(viewers) +
         "/" + shape;
}

std::string round_id(const std::string& scenario, const std::string& version, int frames) {
  return model_id(scenario, version, 1, "frames=" + std::to_string(frames));
}

std::string write_read_id(int chunk, const char* path) {
  return "model/transport_write_read/none/chunk_size=" + std::to_string(chunk) +
         "/writes=100/path=" + path;
}

// Checks budgets against one results file; each broken budget (or missing case) is one message.
class Budgets {
 public:
  explicit Budgets(const ResultsFile& file) : file_(file) {}

  std::vector<std::string> transport() {
    problems_.clear();
    const double writes = 100, streams = 100;
    for (int chunk : {64, 16384}) {
      const CaseResult* through = find(write_read_id(chunk, "transport"));
      const CaseResult* without = find(write_read_id(chunk, "loopback"));
      if (!through || !without) continue;
      const double per_chunk =
          (static_cast<double>(instructions(*through)) - instructions(*without)) / writes;
      at_most(per_chunk, 200, through->id + ": instructions per write + read beyond loopback");
      at_least(per_chunk, 20, through->id + ": instructions per write + read (nothing measured?)");
      at_most(max_allocations(*through), 0, through->id + ": allocations");
    }
    const CaseResult* small = find(write_read_id(64, "transport"));
    const CaseResult* large = find(write_read_id(16384, "transport"));
    if (small && large && instructions(*small) != instructions(*large)) {
      problems_.push_back("a write + read depends on the chunk's size (the payload was touched): " +
                          std::to_string(instructions(*small)) + " instructions for 64 B, " +
                          std::to_string(instructions(*large)) + " for 16 KiB");
    }
    const CaseResult* life = find("model/transport_stream_life/none/streams=100");
    const CaseResult* empty = find("model/empty_round/none");
    if (life && empty) {
      const double per_stream =
          (static_cast<double>(instructions(*life)) - instructions(*empty)) / streams;
      at_most(per_stream, 2000, life->id + ": instructions per stream life");
      at_least(per_stream, 50, life->id + ": instructions per stream life (nothing measured?)");
      at_most(static_cast<double>(max_allocations(*life)) / streams, 2,
              life->id + ": allocations per stream life");
    }
    return problems_;
  }

  std::vector<std::string> lite_sessions() {
    problems_.clear();
    for (const char* version : kLiteVersions) {
      for (const char* scenario : {"fetch_frames", "subscribe_frames"}) {
        if (const CaseResult* large = find(round_id(scenario, version, 256)))
          at_most(instructions(*large), 1'000'000, large->id + ": instructions");
        round_allocations(scenario, version);
      }
      range_allocations(version);
    }
    return problems_;
  }

  std::vector<std::string> relay() {
    problems_.clear();
    for (const char* version : kAllVersions) {
      for (int viewers : {1, 16}) {
        const CaseResult* model = find(model_id("fetch_frames", version, viewers, "frames=256"));
        const CaseResult* relayed =
            find(relay_id("fetch_frames", version, 1, viewers, "frames=256"));
        if (model && relayed) {
          at_most(instructions(*relayed), 2.2 * instructions(*model),
                  relayed->id + ": instructions (2.2x the model case's " +
                      std::to_string(instructions(*model)) + ")");
        }
        for (const char* scenario : {"fetch_frames", "subscribe_frames"}) {
          for (int relays : {1, 2}) {
            for (const char* shape : {"frames=4", "frames=256"}) {
              if (const CaseResult* c = find(relay_id(scenario, version, relays, viewers, shape)))
                at_most(max_allocations(*c), 0, c->id + ": allocations");
            }
          }
        }
        for (int relays : {1, 2}) {
          if (const CaseResult* c =
                  find(relay_id("fetch_range", version, relays, viewers, "burst=4")))
            at_most(max_allocations(*c), 0, c->id + ": allocations");
          const std::string delivery =
              "relay/delivery/" + std::string(version) + "/relays=" + std::to_string(relays) +
              "/publishers=1/broadcasts=1/viewers=" + std::to_string(viewers) + "/watch=1/burst=4";
          if (const CaseResult* c = find(delivery))
            at_most(max_allocations(*c), 0, c->id + ": allocations");
        }
      }
    }
    return problems_;
  }

  std::vector<std::string> relay_hops() {
    problems_.clear();
    for (const char* version : kAllVersions) {
      for (const char* scenario : {"fetch_frames", "subscribe_frames"}) {
        const CaseResult* two = find(relay_id(scenario, version, 2, 64, "frames=256"));
        const CaseResult* eight = find(relay_id(scenario, version, 8, 64, "frames=256"));
        if (!two || !eight) continue;
        // The same frames are delivered at both: instructions compare per delivered frame.
        at_most(instructions(*eight), 1.3 * instructions(*two),
                eight->id + ": instructions (1.3x relays=2's " +
                    std::to_string(instructions(*two)) + ")");
        at_most(max_allocations(*two), 0, two->id + ": allocations");
        at_most(max_allocations(*eight), 0, eight->id + ": allocations");
      }
    }
    return problems_;
  }

  std::vector<std::string> complexity() {
    problems_.clear();
    for (const char* version : kAllVersions) {
      for (const std::string bench : {"model/", "relay/"}) {
        const std::string relays = bench == "relay/" ? "relays=1/" : "";
        const std::string base =
            bench + "prefixes_teardown/" + version + "/" + relays + "broadcasts=64/follow=";
        const CaseResult* f = find(base + "256");
        const CaseResult* twice = find(base + "512");
        if (f && twice) {
          at_most(instructions(*twice), 2.2 * instructions(*f),
                  twice->id + ": instructions (2.2x follow=256's " +
                      std::to_string(instructions(*f)) + ")");
        }
        const std::string churn = bench + "churn/" + version + "/" + relays + "sessions=4/held=";
        const CaseResult* one = find(churn + "1");
        const CaseResult* many = find(churn + "1024");
        if (one && many) {
          at_most(instructions(*many), 1.5 * instructions(*one),
                  many->id + ": instructions (1.5x held=1's " + std::to_string(instructions(*one)) +
                      ")");
        }
        delivery_per_viewer(bench + "delivery/" + version + "/" + relays + "publishers=16/" +
                            "broadcasts=1/viewers=");
      }
    }
    return problems_;
  }

  std::vector<std::string> frame_shapes() {
    problems_.clear();
    for (const char* version : kAllVersions) {
      for (const char* scenario : {"fetch_frames", "subscribe_frames"}) {
        const CaseResult* empty = find(model_id(scenario, version, 1, "frames=256/frame_size=0"));
        const CaseResult* one = find(model_id(scenario, version, 1, "frames=256/frame_size=1"));
        if (empty && one) {
          at_most(instructions(*empty), 1.05 * instructions(*one),
                  empty->id + ": instructions (1.05x frame_size=1's " +
                      std::to_string(instructions(*one)) + ")");
        }
        const CaseResult* quarter = find(round_id(scenario, version, 256));
        const CaseResult* whole = find(round_id(scenario, version, 1024));
        if (quarter && whole) {
          at_most(instructions(*whole), 4.2 * instructions(*quarter),
                  whole->id + ": instructions (4.2x frames=256's " +
                      std::to_string(instructions(*quarter)) + ")");
        }
      }
    }
    return problems_;
  }

  std::vector<std::string> ietf_sessions() {
    problems_.clear();
    const CaseResult* lite = find(round_id("fetch_frames", "moq-lite-06", 256));
    for (const char* version : kIetfVersions) {
      const CaseResult* large = find(round_id("fetch_frames", version, 256));
      if (lite && large) {
        at_most(instructions(*large), 1.5 * instructions(*lite),
                large->id + ": instructions (1.5x moq-lite-06's " +
                    std::to_string(instructions(*lite)) + ")");
      }
      round_allocations("fetch_frames", version);
      round_allocations("subscribe_frames", version);
      range_allocations(version);
    }
    return problems_;
  }

 private:
  static double instructions(const CaseResult& c) {
    return c.metrics.instructions ? static_cast<double>(c.metrics.instructions->median) : 0;
  }
  static double max_allocations(const CaseResult& c) {
    return c.metrics.allocations ? static_cast<double>(c.metrics.allocations->max) : 1e18;
  }

  const CaseResult* find(const std::string& id) {
    const CaseResult* c = file_.find_case(id);
    if (!c) {
      problems_.push_back(id + ": not in the results (tests/gate/sweep-args must measure it)");
    } else if (c->flags.failed) {
      problems_.push_back(id + ": failed: " + c->flags.reason.value_or(""));
      c = nullptr;
    } else if (!c->metrics.instructions || !c->metrics.allocations) {
      problems_.push_back(id + ": no instruction or allocation counts");
      c = nullptr;
    }
    return c;
  }

  void at_most(double value, double budget, const std::string& what) {
    if (value > budget)
      problems_.push_back(what + " " + std::to_string(value) + " > " + std::to_string(budget));
  }
  void at_least(double value, double floor, const std::string& what) {
    if (value < floor)
      problems_.push_back(what + " " + std::to_string(value) + " < " + std::to_string(floor));
  }

  void round_allocations(const std::string& scenario, const std::string& version) {
    const CaseResult* small = find(round_id(scenario, version, 4));
    const CaseResult* large = find(round_id(scenario, version, 256));
    if (!small || !large) return;
    if (instructions(*large) <= instructions(*small))
      problems_.push_back(large->id + ": no more instructions than 4 frames (nothing measured?)");
    at_most(max_allocations(*small), 0, small->id + ": allocations");
    at_most(max_allocations(*large), 0, large->id + ": allocations");
  }
  void range_allocations(const std::string& version) {
    if (const CaseResult* range =
            find("model/fetch_range/" + version + "/publishers=1/viewers=1/burst=4"))
      at_most(max_allocations(*range), 0, range->id + ": allocations");
  }

  // delivery at 16, 64 and 256 viewers (base: the id up to "viewers="): the cost per
  // viewer-group does not grow, and each added viewer-group costs the same.
  void delivery_per_viewer(const std::string& base) {
    const std::string shape = "/watch=1/burst=1";
    const CaseResult* v16 = find(base + "16" + shape);
    const CaseResult* v64 = find(base + "64" + shape);
    const CaseResult* v256 = find(base + "256" + shape);
    if (!v16 || !v64 || !v256) return;
    at_most(instructions(*v256) / 256, 1.1 * instructions(*v16) / 16,
            v256->id + ": instructions per viewer-group (1.1x at 16 viewers)");
    const double first = (instructions(*v64) - instructions(*v16)) / 48;
    const double then = (instructions(*v256) - instructions(*v64)) / 192;
    at_most(then, 1.1 * first,
            v256->id + ": instructions per added viewer-group, 64 -> 256 (1.1x 16 -> 64)");
    at_least(then, 0.9 * first,
             v256->id + ": instructions per added viewer-group, 64 -> 256 (0.9x 16 -> 64)");
  }

  const ResultsFile& file_;
  std::vector<std::string> problems_;
};

TEST(Budgets, Transport) {
  EXPECT_THAT(Budgets(*g_results).transport(), IsEmpty());
}

TEST(Budgets, LiteSessions) {
  EXPECT_THAT(Budgets(*g_results).lite_sessions(), IsEmpty());
}

TEST(Budgets, IetfSessions) {
  EXPECT_THAT(Budgets(*g_results).ietf_sessions(), IsEmpty());
}

TEST(Budgets, Relay) {
  EXPECT_THAT(Budgets(*g_results).relay(), IsEmpty());
}

TEST(Budgets, Complexity) {
  EXPECT_THAT(Budgets(*g_results).complexity(), IsEmpty());
}

TEST(Budgets, RelayHops) {
  EXPECT_THAT(Budgets(*g_results).relay_hops(), IsEmpty());
}

TEST(Budgets, FrameShapes) {
  EXPECT_THAT(Budgets(*g_results).frame_shapes(), IsEmpty());
}

void set_samples(std::optional<results::MetricStats>& stats, uint64_t value);
results::CaseResult& case_of(ResultsFile& file, const std::string& id);

TEST(Budgets, ComplexityCatchesOverruns) {
  ResultsFile worse = *g_results;
  const std::string f = "model/prefixes_teardown/moq-lite-06/broadcasts=64/follow=";
  const uint64_t at_f = case_of(worse, f + "256").metrics.instructions->median;
  set_samples(case_of(worse, f + "512").metrics.instructions, at_f * 4);
  const std::string churn = "relay/churn/moq-transport-18/relays=1/sessions=4/held=";
  const uint64_t at_one = case_of(worse, churn + "1").metrics.instructions->median;
  set_samples(case_of(worse, churn + "1024").metrics.instructions, at_one * 2);
  const std::string delivery =
      "model/delivery/moq-lite-06/publishers=16/broadcasts=1/viewers=256/watch=1/burst=1";
  set_samples(case_of(worse, delivery).metrics.instructions,
              case_of(worse, delivery).metrics.instructions->median * 2);
  const std::vector<std::string> problems = Budgets(worse).complexity();
  EXPECT_THAT(problems, Contains(HasSubstr(f + "512: instructions (2.2x follow=256's")));
  EXPECT_THAT(problems, Contains(HasSubstr(churn + "1024: instructions (1.5x held=1's")));
  EXPECT_THAT(problems, Contains(HasSubstr(delivery + ": instructions per added viewer-group")));
}

TEST(Budgets, RelayHopsCatchAnOverrun) {
  ResultsFile worse = *g_results;
  const std::string two = relay_id("fetch_frames", "moq-lite-06", 2, 64, "frames=256");
  const std::string eight = relay_id("fetch_frames", "moq-lite-06", 8, 64, "frames=256");
  const uint64_t at_two = case_of(worse, two).metrics.instructions->median;
  set_samples(case_of(worse, eight).metrics.instructions, at_two * 131 / 100);
  EXPECT_THAT(Budgets(worse).relay_hops(),
              Contains(HasSubstr(eight + ": instructions (1.3x relays=2's")));
}

TEST(Budgets, FrameShapesCatchOverruns) {
  ResultsFile worse = *g_results;
  const std::string empty =
      model_id("subscribe_frames", "moq-transport-18", 1, "frames=256/frame_size=0");
  const uint64_t at_one =
      case_of(worse, model_id("subscribe_frames", "moq-transport-18", 1, "frames=256/frame_size=1"))
          .metrics.instructions->median;
  set_samples(case_of(worse, empty).metrics.instructions, at_one * 106 / 100);
  const std::string whole = round_id("fetch_frames", "moq-lite-06", 1024);
  const uint64_t at_quarter =
      case_of(worse, round_id("fetch_frames", "moq-lite-06", 256)).metrics.instructions->median;
  set_samples(case_of(worse, whole).metrics.instructions, at_quarter * 43 / 10);
  const std::vector<std::string> problems = Budgets(worse).frame_shapes();
  EXPECT_THAT(problems, Contains(HasSubstr(empty + ": instructions (1.05x frame_size=1's")));
  EXPECT_THAT(problems, Contains(HasSubstr(whole + ": instructions (4.2x frames=256's")));
}

// The checks can fail: the same file with one count raised past each kind of budget.
void set_samples(std::optional<results::MetricStats>& stats, uint64_t value) {
  ASSERT_TRUE(stats);
  std::vector<uint64_t> samples(stats->samples.size(), value);
  stats = results::compute_stats(std::move(samples));
}

CaseResult& case_of(ResultsFile& file, const std::string& id) {
  for (CaseResult& c : file.cases)
    if (c.id == id) return c;
  ADD_FAILURE() << id << " is not in the results";
  static CaseResult none;
  return none;
}

TEST(Budgets, CatchOverruns) {
  ResultsFile worse = *g_results;
  set_samples(case_of(worse, round_id("fetch_frames", "moq-lite-06", 256)).metrics.instructions,
              1'000'001);
  set_samples(
      case_of(worse, round_id("subscribe_frames", "moq-transport-22", 256)).metrics.allocations, 1);
  set_samples(case_of(worse, write_read_id(16384, "transport")).metrics.instructions, 50'000);
  const std::string relayed = relay_id("fetch_frames", "moq-lite-06", 1, 16, "frames=256");
  set_samples(case_of(worse, relayed).metrics.instructions, 100'000'000);
  set_samples(case_of(worse, relay_id("subscribe_frames", "moq-transport-18", 2, 1, "frames=4"))
                  .metrics.allocations,
              1);
  worse.cases.erase(worse.cases.begin());
  EXPECT_THAT(Budgets(worse).lite_sessions(),
              Contains(HasSubstr("moq-lite-06/publishers=1/viewers=1/frames=256: instructions")));
  EXPECT_THAT(Budgets(worse).ietf_sessions(),
              Contains(HasSubstr("subscribe_frames/moq-transport-22/publishers=1/viewers=1/"
                                 "frames=256: allocations 1")));
  const std::vector<std::string> relay = Budgets(worse).relay();
  EXPECT_THAT(relay, Contains(HasSubstr(relayed + ": instructions (2.2x the model case's")));
  EXPECT_THAT(relay, Contains(HasSubstr("subscribe_frames/moq-transport-18/relays=2/publishers=1/"
                                        "viewers=1/frames=4: allocations 1")));
  const std::vector<std::string> transport = Budgets(worse).transport();
  EXPECT_THAT(transport, Contains(HasSubstr("depends on the chunk's size")));
  EXPECT_THAT(transport, Contains(HasSubstr("instructions per write + read beyond loopback")));
  EXPECT_THAT(Budgets(worse).lite_sessions(), Contains(HasSubstr("not in the results")))
      << "a case the sweep no longer measures is named, not skipped";
}

}  // namespace
}  // namespace moq::gate

int main(int argc, char** argv) {
  ::testing::InitGoogleMock(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s RESULTS.json (the gate's sweep, measured with callgrind)\n",
                 argv[0]);
    return 2;
  }
  moq::results::Result<moq::results::ResultsFile> file = moq::results::read_results_file(argv[1]);
  if (!file) {
    std::fprintf(stderr, "budgets_test: %s\n", file.error().message.c_str());
    return 2;
  }
  if (file->meta.counter_backend != moq::results::CounterBackend::kCallgrind) {
    std::fprintf(
        stderr, "budgets_test: %s was measured with counter %s; the budgets are callgrind counts\n",
        argv[1], std::string(moq::results::to_string(file->meta.counter_backend)).c_str());
    return 2;
  }
  moq::gate::g_results = &*file;
  return RUN_ALL_TESTS();
}
