// `moqbench publish URL --broadcast NAME --track T`: publishes one broadcast with one track to a
// relay, waits until a subscriber asks for the track (the relay subscribes on its behalf), then
// writes --groups groups of --frames frames of the pattern payload (frame_pattern.h), ends the
// track, waits until the relay acknowledged every byte, closes the session cleanly and prints
// what it sent with the payload hash (payload_hash.h), which `moqbench subscribe` prints too.
// Exit 0: everything was written, acknowledged and the close was clean; 1: a failure at run time
// (the relay unreachable or refusing, no subscriber in time, the session closed by the relay, a
// signal), with the reason; 2: bad input.
#include <cstdio>
#include <memory>
#include <vector>

#include "harness/cli/commands.h"
#include "harness/cli/dial.h"
#include "harness/cli/frame_pattern.h"
#include "harness/cli/payload_hash.h"
#include "model/data/data.h"

namespace moq::cli {

namespace {

// Bounds of the counts: beyond them a run is a mistake rather than a check.
constexpr uint64_t kMaxGroups = 1'000'000;
constexpr uint64_t kMaxFrames = 1'000'000;
constexpr double kMaxLinger_s = 3600;

struct PublishArgs {
  DialOptions dial;
  std::string broadcast;
  std::string track;
  uint64_t groups = 5;
  uint64_t frames = 10;
  std::string frame_size = "1000";
  double linger_s = 1;
  bool verbose = false;
  // Tests: one byte written wrong, "GROUP,FRAME,OFFSET", to show that subscribe --check-pattern
  // finds it.
  std::vector<uint64_t> test_flip;
};

class Publisher {
 public:
  Publisher(const CliContext& ctx, const PublishArgs& args, Dial& dial, const FrameSizes& sizes)
      : ctx_(ctx), args_(args), dial_(dial), sizes_(sizes) {}

  int run() {
    if (Status st = start(); !st) return fail(st.error().message);
    say("connected to " + dial_.describe() + "; publishing " + path_.str() + " track " +
        args_.track + "; waiting for a subscriber (the groups start when one subscribes)");
    // A SUBSCRIBE, and the consumer it made: the track having a consumer alone is not enough,
    // as moq-lite asks for a track's description (TRACK) before subscribing, which reads it too.
    auto subscribed = [&] {
      return dial_.session().counters().accepted(session::StreamKind::Subscribe) > 0 &&
             track_.consumer_count() > 0;
    };
    Status asked = dial_.wait(subscribed, dial_.deadline(),
                              "waiting for a subscriber to " + path_.str() + " " + args_.track);
    if (!asked) return fail(asked.error().message);
    say("a subscriber asked for the track: writing " + std::to_string(args_.groups) +
        " groups of " + std::to_string(args_.frames) + " frames");
    for (uint64_t g = 0; g < args_.groups; ++g)
      if (Status st = write_group(g); !st) return fail(st.error().message);
    // Every group reaches the relay before the track's end does: a relay that learns of the end
    // first may take a group still on its way for one past it.
    const uint64_t total = args_.groups * args_.frames;
    auto all_acknowledged = [&] {
      return dial_.session().counters().frames_sent >= total && dial_.delivered();
    };
    if (Status st = dial_.wait(all_acknowledged, dial_.deadline(),
                               "waiting for the relay to acknowledge every group");
        !st)
      return fail(st.error().message);
    // The relay passes the groups on while this end waits: moq-lite-06's end of a track does
    // not count the group streams, so a subscriber that hears of the end before a group's
    // stream arrives refuses that stream.
    if (Status st = linger("every group acknowledged; ending the track"); !st)
      return fail(st.error().message);
    if (Status st = track_.finish(); !st) return fail("ending the track: " + st.error().message);
    // The end too (every stream's FIN), so that closing now loses nothing.
    if (Status st = dial_.wait(all_acknowledged, dial_.deadline(),
                               "waiting for the relay to acknowledge the track's end");
        !st)
      return fail(st.error().message);
    // And the end: a relay whose publisher leaves ends the tracks it copied from it, those it
    // has not passed on to the end too.
    if (Status st = linger("the end acknowledged; closing"); !st) return fail(st.error().message);
    dial_.close("moqbench publish done");
    ctx_.io->out << "sent " << path_.str() << " " << args_.track << " over "
                 << version_name(dial_.version()) << ": " << tally_.summary() << "\n";
    return kExitOk;
  }

 private:
  Status start() {
    path_ = Path(args_.broadcast);
    broadcast_ = BroadcastProducer::create(dial_.clock());
    Result<TrackProducer> t = broadcast_.create_track(args_.track, TrackInfo{});
    if (!t) return t.error();
    track_ = std::move(*t);
    if (Status st = origin_.publish(path_, broadcast_.consume()); !st) return st;
    session::SessionConfig config;
    config.publish = origin_.consume();
    return dial_.open("publish", std::move(config));
  }

  // Writes group g whole, then waits until the session handed its frames to the transport, so
  // that the groups leave in sequence and at most one group is held in memory at a time.
  Status write_group(uint64_t g) {
    Result<GroupProducer> group = track_.append_group();
    if (!group) return Error{0, "group " + std::to_string(g) + ": " + group.error().message};
    ++tally_.groups;
    for (uint64_t f = 0; f < args_.frames; ++f) {
      Bytes payload = pattern_frame(g, f, sizes_.of(f));
      if (args_.test_flip.size() == 3 && args_.test_flip[0] == g && args_.test_flip[1] == f &&
          args_.test_flip[2] < payload.size()) {
        std::vector<uint8_t> wrong(payload.data(), payload.data() + payload.size());
        wrong[args_.test_flip[2]] ^= 0xff;
        payload = Bytes::copy(wrong);
      }
      tally_.add_frame(std::span<const uint8_t>(payload.data(), payload.size()));
      if (Status st = group->write_frame(g * args_.frames + f, std::move(payload)); !st)
        return Error{0, "group " + std::to_string(g) + " frame " + std::to_string(f) + ": " +
                            st.error().message};
    }
    if (Status st = group->finish(); !st)
      return Error{0, "group " + std::to_string(g) + ": " + st.error().message};
    const uint64_t written = (g + 1) * args_.frames;
    Status st = dial_.wait([&] { return dial_.session().counters().frames_sent >= written; },
                           dial_.deadline(), "sending group " + std::to_string(g));
    if (st && args_.verbose)
      say("group " + std::to_string(g) + ": " + std::to_string(args_.frames) + " frames sent");
    return st;
  }

  int fail(const std::string& why) {
    ctx_.io->err << "moqbench publish: " << why << "\n";
    ctx_.io->out << "sent before the failure: " << tally_.summary() << "\n";
    return kExitFailed;
  }
  // Stays --linger seconds, the connection running. Fails only when the session closed or a
  // signal came meanwhile.
  Status linger(const std::string& what) {
    if (args_.linger_s <= 0) return {};
    char text[48];
    std::snprintf(text, sizeof text, " in %g s", args_.linger_s);
    say(what + text);
    const uint64_t until = dial_.now_ns() + static_cast<uint64_t>(args_.linger_s * 1e9);
    Status st = dial_.wait([] { return false; }, until, "waiting (--linger)");
    if (dial_.session().is_closed() || dial_.interrupted()) return st;
    return {};
  }
  void say(const std::string& line) { ctx_.io->err << "moqbench publish: " << line << "\n"; }

  const CliContext& ctx_;
  const PublishArgs& args_;
  Dial& dial_;
  const FrameSizes& sizes_;
  Path path_;
  OriginProducer origin_ = OriginProducer::create();
  BroadcastProducer broadcast_;
  TrackProducer track_;
  PayloadTally tally_;
};

}  // namespace

Action add_publish_command(CLI::App& app, const CliContext& ctx) {
  auto args = std::make_shared<PublishArgs>();
  CLI::App* sub = app.add_subcommand(
      "publish",
      "publish one track to a relay: groups of pattern frames, once a subscriber asks for it");
  add_dial_options(*sub, args->dial);
  sub->add_option("--broadcast", args->broadcast, "the broadcast's path (e.g. demo/bench)")
      ->required();
  sub->add_option("--track", args->track, "the track's name")->required();
  sub->add_option("--groups", args->groups, "groups to write, sequence 0 up")
      ->capture_default_str();
  sub->add_option("--frames", args->frames, "frames per group")->capture_default_str();
  sub->add_option("--frame-size", args->frame_size,
                  "bytes per frame: one size, or a comma list used in turn across the frames of "
                  "each group (0,1,20000)")
      ->capture_default_str();
  sub->add_option("--linger", args->linger_s,
                  "seconds to wait after the last group is acknowledged, before ending the "
                  "track, and again before closing: for a relay to pass the groups, then the end, "
                  "on (moq-lite-06's end does not count the group streams, and a relay ends the "
                  "tracks of a publisher that leaves); 0: no wait")
      ->capture_default_str();
  sub->add_flag("-v,--verbose", args->verbose, "a line per group sent, on stderr");
  sub->add_option("--test-flip", args->test_flip, "tests: write byte G,F,OFFSET wrong")
      ->delimiter(',')
      ->expected(3)
      ->group("");
  sub->footer(std::string("Payload: ") + kPatternFormula + ".\nHash: " + kPayloadHashDefinition +
              ".\nExit status: 0 everything sent, acknowledged and closed cleanly; 1 a failure "
              "at run time (unreachable or refusing relay, no subscriber within --timeout, the "
              "session closed by the relay, a signal); 2 bad input.");
  return [args, &ctx = ctx]() {
    auto bad = [&](const std::string& message) { return bad_input(ctx, "publish", message); };
    if (Path(args->broadcast).empty())
      return bad("--broadcast is empty: give the broadcast's path");
    if (args->track.empty()) return bad("--track is empty: give the track's name");
    if (args->groups == 0 || args->groups > kMaxGroups)
      return bad("--groups must be 1.." + std::to_string(kMaxGroups));
    if (args->frames == 0 || args->frames > kMaxFrames)
      return bad("--frames must be 1.." + std::to_string(kMaxFrames));
    if (!(args->linger_s >= 0 && args->linger_s <= kMaxLinger_s))  // NaN fails both
      return bad("--linger must be 0.." + std::to_string(static_cast<int>(kMaxLinger_s)) +
                 " seconds");
    Result<FrameSizes> sizes = parse_frame_sizes(args->frame_size);
    if (!sizes) return bad(sizes.error().message);
    if (sizes->group_bytes(args->frames) > kMaxGroupBytes)
      return bad("a group of --frames " + std::to_string(args->frames) + " of --frame-size " +
                 args->frame_size + " holds " + std::to_string(sizes->group_bytes(args->frames)) +
                 " bytes, over the " + std::to_string(kMaxGroupBytes) + " a group may hold");
    Result<std::unique_ptr<Dial>> dial = Dial::create(args->dial);
    if (!dial) return bad(dial.error().message);
    StopSignals stop;
    return Publisher(ctx, *args, **dial, *sizes).run();
  };
}

}  // namespace moq::cli
