// `moqbench load` against its in-process relay over loopback QUIC: what it measures is in a valid
// results file (loss, latency, the relay's allocations per frame), and it fails loudly when it
// cannot reach a relay. Against a separate `moqbench relay`: a relay killed mid-run is exit 1
// saying when, a relay that loses groups (its hidden --test-drop-every) is exit 3 beyond
// --max-loss, and a self-signed relay not trusted says how to trust it. Every run states the loss
// it tolerates. The full shape of the load budget (16 publishers x 64 viewers, 1 KiB at
// 30 frames/s for 10 s, pinned to one core, no loss) runs under the `long` label.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <regex>

#include "reports/schema/results_file.h"
#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary to run"
#endif

namespace moq::harness {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::run_process;
using testing::RunningProcess;

// A `moqbench relay` on a free loopback port, killed when the test ends.
class Relay {
 public:
  explicit Relay(std::vector<std::string> args = {}) : process_(argv(std::move(args))) {
    const std::string banner =
        process_.wait_for_stderr_line("listening on", std::chrono::seconds(20));
    std::smatch m;
    if (std::regex_search(banner, m, std::regex("listening on (127\\.0\\.0\\.1:[0-9]+)")))
      address_ = m[1];
  }
  ~Relay() {
    if (!killed_) process_.signal(SIGKILL);
    (void)process_.wait();
  }
  const std::string& address() const { return address_; }  // empty: it did not start
  std::string log() const { return process_.stderr_so_far(); }
  void kill() {
    process_.signal(SIGKILL);
    killed_ = true;
  }

 private:
  static std::vector<std::string> argv(std::vector<std::string> args) {
    std::vector<std::string> v = {MOQBENCH, "relay", "--listen", "127.0.0.1:0"};
    v.insert(v.end(), args.begin(), args.end());
    return v;
  }
  RunningProcess process_;
  std::string address_;
  bool killed_ = false;
};

class LoadTest : public testing::ScratchDirTest {
 protected:
  // A run that must lose nothing (--max-loss 0, said explicitly) and exit 0.
  results::ResultsFile load(std::vector<std::string> args) {
    std::vector<std::string> argv = {MOQBENCH, "load",  "--max-loss",
                                     "0",      "--out", path("load.json")};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessResult r = run_process(argv);
    EXPECT_EQ(r.status, 0) << r.err;
    last_out_ = r.out;
    results::Result<results::ResultsFile> file = results::read_results_file(path("load.json"));
    EXPECT_TRUE(file) << file.error().message << "\n" << r.err;
    return file ? *file : results::ResultsFile{};
  }
  std::string last_out_;
};

TEST_F(LoadTest, ASmallLoadArrivesWholeAndIsRecorded) {
  results::ResultsFile f = load({"--publishers", "2", "--viewers", "4", "--duration", "2"});
  ASSERT_EQ(f.cases.size(), 1u);
  const results::CaseResult& c = f.cases[0];
  EXPECT_EQ(c.id,
            "relay/load/moq-lite-06/publishers=2/broadcasts=1/viewers=4/frame_size=1024/fps=30/"
            "duration_s=2/relay=in-process/transport=quic");
  ASSERT_FALSE(c.flags.failed) << c.flags.reason.value_or("");
  ASSERT_TRUE(c.load);
  EXPECT_EQ(c.load->frames_expected, 2u * 30 * 4);
  EXPECT_EQ(c.load->frames_lost, 0u);
  EXPECT_EQ(c.load->bytes_delivered, c.load->frames_delivered * 1024);
  ASSERT_TRUE(c.load->frame_latency_ns);
  EXPECT_GT(c.load->frame_latency_ns->p50, 0u);
  EXPECT_LT(c.load->frame_latency_ns->p99, 1'000'000'000u) << "a second late on loopback";
  ASSERT_TRUE(c.load->group_latency_ns);
  EXPECT_GT(c.load->group_latency_ns->max, 0u);
  EXPECT_TRUE(c.load->relay_in_process);
  ASSERT_TRUE(c.load->relay_allocations_per_frame);
  EXPECT_EQ(c.rounds.measured, 2u);
  ASSERT_TRUE(c.metrics.packets);
  EXPECT_GT(c.metrics.packets->min, 0u);
  EXPECT_THAT(last_out_, HasSubstr("delivered 240 of 240 frames (lost 0, 0.00%)"));
}

TEST_F(LoadTest, EveryVersionRunsAndBadArgumentsAreRefused) {
  for (const char* v : {"moq-lite-07-wip", "moq-transport-18", "moq-transport-22"}) {
    results::ResultsFile f =
        load({"--version", v, "--publishers", "1", "--viewers", "2", "--duration", "1"});
    ASSERT_EQ(f.cases.size(), 1u) << v;
    EXPECT_EQ(f.cases[0].load->frames_lost, 0u) << v;
  }
  ProcessResult r = run_process({MOQBENCH, "load", "--frame-size", "8"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--frame-size must be at least 16"));
  r = run_process({MOQBENCH, "load", "--version", "moq-nonsense"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("'moq-nonsense'"));
}

// Every bad input is exit 2 naming the option, before anything connects or runs.
TEST_F(LoadTest, EveryBadInputIsExit2NamingTheOption) {
  std::ofstream(path("not-a-cert.pem")) << "not a certificate\n";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--frame-size", "8"}, "--frame-size"},
      {{"--frame-size", "100000000"}, "--frame-size"},
      {{"--fps", "0"}, "--fps"},
      {{"--fps", "1001"}, "--fps"},
      {{"--duration", "0"}, "--duration"},
      {{"--duration", "100000"}, "--duration"},
      {{"--viewers", "0"}, "--viewers"},
      {{"--publishers", "20000"}, "--publishers"},
      {{"--max-loss", "1.5"}, "--max-loss"},
      {{"--max-loss", "-0.1"}, "--max-loss"},
      {{"--max-loss", "nan"}, "--max-loss"},
      {{"--max-loss", "lots"}, "--max-loss"},
      {{"--version", "draft-99"}, "draft-99"},
      {{"--connect", "127.0.0.1:notaport"}, "--connect"},
      {{"--tls-disable-verify"}, "--connect"},
      {{"--connect", "127.0.0.1:9", "--ca-file", path("missing.pem")}, "--ca-file"},
      {{"--connect", "127.0.0.1:9", "--ca-file", path("not-a-cert.pem")}, "--ca-file"},
      {{"--connect", "127.0.0.1:9", "--ca-file", path("not-a-cert.pem"), "--tls-disable-verify"},
       "--ca-file"},
  };
  for (const auto& [args, named] : cases) {
    std::vector<std::string> argv = {MOQBENCH, "load"};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessResult r = run_process(argv);
    EXPECT_EQ(r.status, 2) << args[0] << " " << (args.size() > 1 ? args[1] : "") << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(named)) << args[0];
    EXPECT_THAT(r.out, ::testing::IsEmpty()) << args[0];
  }
}

// The spellings every command takes: the ALPN and draft-N name the same version as its name.
TEST_F(LoadTest, TheVersionIsTakenByItsAlpnAndItsDraftNumber) {
  for (const char* v : {"moqt-22", "draft-22"}) {
    results::ResultsFile f =
        load({"--version", v, "--publishers", "1", "--viewers", "1", "--duration", "1"});
    ASSERT_EQ(f.cases.size(), 1u) << v;
    // A load case records the version it negotiated, by its ALPN.
    EXPECT_EQ(f.cases[0].version, "moqt-22") << v;
    EXPECT_THAT(f.cases[0].id, HasSubstr("relay/load/moqt-22/")) << v;
  }
}

// The commands that take versions read them through the same parser as load: sweep (its
// --versions, kept by the version's name in case ids) and faults.
TEST_F(LoadTest, EveryCommandTakesTheSameVersionSpellings) {
  ProcessResult r = run_process({MOQBENCH, "sweep", "--scenario", "fetch_frames", "--versions",
                                 "draft-22,moqt-18", "--viewers", "1", "--frames", "4", "--list"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("model/fetch_frames/moq-transport-22/"));
  EXPECT_THAT(r.out, HasSubstr("model/fetch_frames/moq-transport-18/"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("moqt-")));
  // Two spellings of one version are one version: named twice.
  r = run_process({MOQBENCH, "sweep", "--scenario", "fetch_frames", "--versions",
                   "moqt-18,moq-transport-18", "--list"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("twice"));
  r = run_process(
      {MOQBENCH, "sweep", "--scenario", "fetch_frames", "--versions", "draft-99", "--list"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("draft-99"));
  r = run_process(
      {MOQBENCH, "faults", "--fault", "group-reset", "--versions", "draft-22", "--seeds", "1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("group-reset moq-transport-22 seed"));
}

// A window shorter than a group: frames arrive, no group arrives whole, and the per-group
// latency is "n/a" and null, never 0.
TEST_F(LoadTest, NoWholeGroupMeansNoGroupLatency) {
  results::ResultsFile f = load({"--publishers", "1", "--viewers", "1", "--duration", "1", "--fps",
                                 "10", "--group-frames", "1000"});
  ASSERT_EQ(f.cases.size(), 1u);
  ASSERT_TRUE(f.cases[0].load);
  EXPECT_GT(f.cases[0].load->frames_delivered, 0u);
  EXPECT_TRUE(f.cases[0].load->frame_latency_ns);
  EXPECT_FALSE(f.cases[0].load->group_latency_ns);
  EXPECT_THAT(last_out_, HasSubstr("per group n/a"));
  std::ifstream in(path("load.json"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, ::testing::ContainsRegex("\"group_latency_ns\": *null"));
}

// A relay that dies mid-run (SIGKILL: no CONNECTION_CLOSE) is exit 1 saying which connection
// ended, why, and how far into the run; the run stops there instead of measuring the silence.
TEST_F(LoadTest, ARelayKilledMidRunIsExit1SayingWhen) {
  Relay relay;
  ASSERT_FALSE(relay.address().empty()) << relay.log();
  RunningProcess load({MOQBENCH, "load", "--connect", relay.address(), "--tls-disable-verify",
                       "--publishers", "1", "--viewers", "2", "--duration", "60", "--max-loss",
                       "0"});
  // The first second of the window has been measured: frames flow through the relay.
  ASSERT_TRUE(load.wait_for_stderr("1/60 s", std::chrono::seconds(60))) << load.stderr_so_far();
  relay.kill();
  ProcessResult r = load.wait();
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("'s connection to the relay at " + relay.address() + " ended"));
  EXPECT_THAT(r.err, ::testing::ContainsRegex("[0-9]+\\.[0-9] s into the run"));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("60/60 s"))) << "it ran on past the relay";
}

// The relay loses one group in two (its hidden --test-drop-every 2; the first stream, the
// session's setup, always passes): about half of the frames. Beyond --max-loss that is exit 3
// with the loss figure, recorded as a failed case; within a looser tolerance the same loss is
// exit 0.
TEST_F(LoadTest, LossBeyondMaxLossIsExit3WithTheFigure) {
  Relay relay({"--test-drop-every", "2"});
  ASSERT_FALSE(relay.address().empty()) << relay.log();
  const std::vector<std::string> run = {MOQBENCH,
                                        "load",
                                        "--connect",
                                        relay.address(),
                                        "--tls-disable-verify",
                                        "--publishers",
                                        "1",
                                        "--viewers",
                                        "2",
                                        "--duration",
                                        "2",
                                        "--group-frames",
                                        "5"};
  std::vector<std::string> strict = run;
  strict.insert(strict.end(), {"--max-loss", "0.1", "--out", path("strict.json")});
  ProcessResult r = run_process(strict);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_THAT(r.err, ::testing::ContainsRegex("lost [0-9]+ of [0-9]+ frames \\([0-9.]+%\\), "
                                              "more than --max-loss 0.1"));
  results::Result<results::ResultsFile> f = results::read_results_file(path("strict.json"));
  ASSERT_TRUE(f) << f.error().message;
  const results::CaseResult& c = f->cases.at(0);
  EXPECT_TRUE(c.flags.failed);
  ASSERT_TRUE(c.load);
  // Half the groups, give or take the groups cut by the window's edges.
  EXPECT_GT(c.load->frames_lost * 10, c.load->frames_expected * 3);
  EXPECT_LT(c.load->frames_lost * 10, c.load->frames_expected * 7);

  std::vector<std::string> loose = run;
  loose.insert(loose.end(), {"--max-loss", "0.9"});
  r = run_process(loose);
  EXPECT_EQ(r.status, 0) << r.err;
}

// A relay with its self-signed certificate, dialled without --tls-disable-verify: the handshake
// fails, and the message says the certificate was not verified and how to trust it.
TEST_F(LoadTest, AnUnverifiedRelayCertificateSaysHowToProceed) {
  Relay relay;
  ASSERT_FALSE(relay.address().empty()) << relay.log();
  ProcessResult r = run_process({MOQBENCH, "load", "--connect", relay.address(), "--publishers",
                                 "1", "--viewers", "1", "--duration", "1", "--max-loss", "0"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("certificate was not verified"));
  EXPECT_THAT(r.err, HasSubstr("--tls-disable-verify"));
  EXPECT_THAT(r.err, HasSubstr("--ca-file"));
}

TEST_F(LoadTest, ARelayThatIsNotThereFailsLoudly) {
  ProcessResult r = run_process({MOQBENCH, "load", "--connect", "127.0.0.1:9", "--duration", "1",
                                 "--tls-disable-verify", "--max-loss", "0"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("nothing listens at 127.0.0.1:9"));
}

// --ca-file trusts exactly the relay's certificate: a relay with a certificate for localhost
// (made here by openssl) is verified and the run passes without --tls-disable-verify.
TEST_F(LoadTest, ACaFileTrustsTheRelaysCertificate) {
  if (access("/usr/bin/openssl", X_OK) != 0)
    GTEST_SKIP() << "no /usr/bin/openssl to make a certificate";
  ProcessResult made =
      run_process({"/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                   "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", path("key.pem"), "-out",
                   path("cert.pem"), "-days", "2", "-subj", "/CN=localhost", "-addext",
                   "subjectAltName=DNS:localhost"});
  ASSERT_EQ(made.status, 0) << made.err;
  Relay relay({"--cert", path("cert.pem"), "--key", path("key.pem")});
  ASSERT_FALSE(relay.address().empty()) << relay.log();
  ProcessResult r =
      run_process({MOQBENCH, "load", "--connect", relay.address(), "--ca-file", path("cert.pem"),
                   "--publishers", "1", "--viewers", "1", "--duration", "1", "--max-loss", "0"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(lost 0, 0.00%)"));
}

}  // namespace
}  // namespace moq::harness
