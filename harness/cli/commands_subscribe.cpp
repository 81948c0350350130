// `moqbench subscribe URL --broadcast NAME --track T`: waits until the relay announces the
// broadcast, subscribes to the track from group 0, reads every group and frame until the
// publisher ends the track, and prints what arrived with the payload hash (payload_hash.h), the
// one `moqbench publish` prints. Order is checked always: the groups are 0 up to the track's end
// with no gap (each comes on its own stream, so they may arrive out of sequence: they are read in
// sequence, as the hash takes them), frames come in order within a group, and nothing comes after
// the end. --groups, --frames and --frame-size
// check the counts and sizes, --check-pattern every byte (frame_pattern.h); the first
// disagreement names the group, the frame and the offset, with the bytes around it.
// Exit 0: the track ended cleanly and every check held; 1: a check failed, the track or session
// ended early, --timeout passed (saying what was still missing) or a signal came (each with the
// partial summary); 2: bad input.
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "harness/cli/commands.h"
#include "harness/cli/dial.h"
#include "harness/cli/frame_pattern.h"
#include "harness/cli/payload_hash.h"
#include "model/data/data.h"

namespace moq::cli {

namespace {

// Groups held for their turn before a missing one counts as lost: more than a relay's cache
// (16 groups by default, model/data/track.h) could bring back.
constexpr size_t kMaxEarlyGroups = 64;
// A group below the subscription's first arrival may still come on the subscription: each group
// has a stream of its own, so arrival order is not sequence order. It is fetched only once the
// track ended without it or this many later groups came first: a relay sends its groups in
// sequence, so a group this far behind is not on its way.
constexpr size_t kGroupsBeforeFetching = 4;

// The group being read: from the subscription, or fetched.
struct Reading {
  bool active = false;
  uint64_t sequence = 0;
  GroupConsumer group;           // from the subscription
  session::FetchConsumer fetch;  // or fetched
  Next next(FrameView& out) { return group ? group.next(out) : fetch.next(out); }
  const Error& error() const { return group ? group.error() : fetch.error(); }
};

struct SubscribeArgs {
  DialOptions dial;
  std::string broadcast;
  std::string track;
  std::optional<uint64_t> groups;
  std::optional<uint64_t> frames;
  std::string frame_size;  // empty: sizes not checked
  bool check_pattern = false;
  bool verbose = false;
};

class Subscriber {
 public:
  Subscriber(const CliContext& ctx, const SubscribeArgs& args, Dial& dial,
             std::optional<FrameSizes> sizes)
      : ctx_(ctx), args_(args), dial_(dial), sizes_(std::move(sizes)) {}

  int run() {
    const uint64_t deadline = dial_.deadline();  // one limit for the whole run
    path_ = Path(args_.broadcast);
    if (Status st = dial_.open("subscribe", {}); !st) return fail(st.error().message);
    say("connected to " + dial_.describe() + "; waiting for " + path_.str() + " to be announced");
    if (Status st = await_announcement(deadline); !st) return fail(st.error().message);
    TrackPreferences prefs;
    // Every group from the first, not the live edge: a relay that subscribed for us a moment
    // before our own request reached it (moq-lite asks for the track's description first) serves
    // the groups it already has from its cache.
    prefs.group_start = 0;
    prefs.ordered = true;
    Result<TrackConsumer> track = dial_.session().subscribe(path_, args_.track, prefs);
    if (!track)
      return fail("subscribing to " + path_.str() + " " + args_.track + ": " +
                  track.error().message);
    track_ = std::move(*track);
    Status st = dial_.wait([&] { return read(); }, deadline, "reading the track");
    if (!failure_.empty()) return fail(failure_);
    if (!st) return fail(st.error().message + "; still missing: " + missing());
    dial_.close("moqbench subscribe done");
    ctx_.io->out << "received " << path_.str() << " " << args_.track << " over "
                 << version_name(dial_.version()) << ": " << tally_.summary() << "\n";
    return kExitOk;
  }

 private:
  Status await_announcement(uint64_t deadline) {
    Result<AnnounceConsumer> events = dial_.session().announced(path_);
    if (!events) return Error{0, "asking for announcements: " + events.error().message};
    bool seen = false;
    return dial_.wait(
        [&] {
          AnnounceEvent ev;
          while (!seen && events->next(ev) == Next::Ready)
            seen = ev.kind == AnnounceEvent::Kind::Announce && ev.path == path_;
          return seen;
        },
        deadline, "waiting for the relay to announce " + path_.str() + " (is it published?)");
  }

  // Reads what arrived; true once done: the track ended with every group read, or a check
  // failed (failure_ says which). Each group comes on a stream of its own, so groups may arrive
  // out of sequence; they are read in sequence, a group that came early waiting for its turn.
  bool read() {
    for (;;) {
      if (reading_.active) {
        FrameView frame;
        const Next n = reading_.next(frame);
        if (n == Next::Pending) return false;
        if (n == Next::Ready) {
          if (!on_frame(frame)) return true;
          continue;
        }
        if (n == Next::Aborted)
          return done_failing("group " + std::to_string(reading_.sequence) +
                              " ended early: " + reading_.error().message);
        if (!group_ended()) return true;
        reading_ = Reading();
        continue;
      }
      if (auto early = early_.find(tally_.groups); early != early_.end()) {
        start_group(early->second);
        early_.erase(early);
        continue;
      }
      if (first_ && tally_.groups < *first_ && (end_ || early_.size() >= kGroupsBeforeFetching)) {
        if (!fetch_group()) return true;
        continue;
      }
      if (end_ && tally_.groups >= *end_) return true;
      GroupConsumer next;
      const Next n = track_.next(next);
      // After the end, groups below it may still come (stragglers): End means none for now.
      if (n == Next::Pending || (n == Next::End && end_)) return false;
      if (n == Next::Aborted)
        return done_failing("the track ended early: " + track_.error().message + "; still " +
                            "missing: " + missing());
      if (n == Next::End) {
        end_ = track_.end_sequence().value_or(tally_.groups);
        if (args_.groups && *end_ != *args_.groups)
          return done_failing("the track ended after " + std::to_string(*end_) +
                              " groups; --groups expects " + std::to_string(*args_.groups));
        continue;
      }
      if (!on_group(next)) return true;
    }
  }

  // A group arrived: read now when it is the next in sequence, else kept for its turn.
  bool on_group(GroupConsumer& g) {
    const uint64_t seq = g.sequence();
    const std::string which = "group " + std::to_string(seq);
    if (!first_) first_ = seq;
    if (seq < tally_.groups || early_.count(seq)) return failed(which + " arrived twice");
    if (args_.groups && seq >= *args_.groups)
      return failed(which + " arrived beyond the " + std::to_string(*args_.groups) +
                    " groups that --groups expects");
    if (end_ && seq >= *end_)
      return failed(which + " arrived after the track's end (" + std::to_string(*end_) +
                    " groups)");
    if (seq != tally_.groups) {
      if (early_.size() >= kMaxEarlyGroups)
        return failed("group " + std::to_string(tally_.groups) + " is missing: " +
                      std::to_string(early_.size()) + " later groups arrived before it");
      early_.emplace(seq, std::move(g));
      return true;
    }
    start_group(g);
    return true;
  }

  void start_group(GroupConsumer& g) {
    ++tally_.groups;
    frame_in_group_ = 0;
    reading_ = Reading();
    reading_.sequence = g.sequence();
    reading_.group = std::move(g);
    reading_.active = true;
  }

  // The next group in sequence lies before the subscription's first: moq-lite can subscribe only
  // from the live edge (a floor at group 0 reads as live on the wire), so a relay that received
  // groups before our SUBSCRIBE reached it (it subscribed when we asked for the track's
  // description) has them in its cache, and a FETCH brings them.
  bool fetch_group() {
    const uint64_t seq = tally_.groups;
    say("group " + std::to_string(seq) +
        " is not coming on the subscription (its first was group " + std::to_string(*first_) +
        "): fetching it");
    Result<session::FetchConsumer> f = dial_.session().fetch(path_, args_.track, seq);
    if (!f) return failed("fetching group " + std::to_string(seq) + ": " + f.error().message);
    ++tally_.groups;
    frame_in_group_ = 0;
    reading_ = Reading();
    reading_.sequence = seq;
    reading_.fetch = std::move(*f);
    reading_.active = true;
    return true;
  }

  bool on_frame(const FrameView& frame) {
    const uint64_t g = reading_.sequence, f = frame_in_group_++;
    // A frame that arrived in several transport chunks is read as one (frames are bounded by
    // the group's 64 MiB).
    Bytes whole = frame.payload();
    if (!frame.contiguous()) {
      std::vector<uint8_t> joined;
      joined.reserve(frame.size);
      for (const Bytes& c : frame.chunks)
        joined.insert(joined.end(), c.data(), c.data() + c.size());
      whole = Bytes::copy(joined);
    }
    const std::span<const uint8_t> data(whole.data(), whole.size());
    const std::string where = "group " + std::to_string(g) + " frame " + std::to_string(f);
    if (args_.verbose) ctx_.io->out << where << ": " << data.size() << " bytes\n" << std::flush;
    if (args_.frames && f >= *args_.frames)
      return failed(where + " arrived after the " + std::to_string(*args_.frames) +
                    " frames that --frames expects");
    if (sizes_ && data.size() != sizes_->of(f))
      return failed(where + ": " + std::to_string(data.size()) + " bytes where --frame-size " +
                    args_.frame_size + " expects " + std::to_string(sizes_->of(f)));
    if (args_.check_pattern) {
      if (std::optional<size_t> at = pattern_mismatch(g, f, data)) {
        Bytes expected = pattern_frame(g, f, data.size());
        return failed(where + ", offset " + std::to_string(*at) + ": expected " +
                      hex_around({expected.data(), expected.size()}, *at) + ", received " +
                      hex_around(data, *at) + " (" + kPatternFormula + ")");
      }
    }
    tally_.add_frame(data);
    return true;
  }

  // The current group finished: its frame count is checked.
  bool group_ended() {
    if (args_.frames && frame_in_group_ < *args_.frames)
      return failed("group " + std::to_string(reading_.sequence) + " ended after " +
                    std::to_string(frame_in_group_) + " frames; --frames expects " +
                    std::to_string(*args_.frames));
    return true;
  }

  // What had not arrived yet, as far as the expectations tell.
  std::string missing() const {
    std::string where = reading_.active ? "group " + std::to_string(reading_.sequence) +
                                              " from frame " + std::to_string(frame_in_group_)
                                        : "group " + std::to_string(tally_.groups);
    if (args_.groups)
      where += " (of groups 0.." + std::to_string(*args_.groups - 1) + ")";
    else
      where += " or the track's end";
    return where;
  }

  // A check failed: false for on_group and on_frame, true (done) for read().
  bool failed(std::string why) {
    failure_ = std::move(why);
    return false;
  }
  bool done_failing(std::string why) {
    failed(std::move(why));
    return true;
  }
  int fail(const std::string& why) {
    ctx_.io->err << "moqbench subscribe: " << why << "\n";
    ctx_.io->out << "received before the failure: " << tally_.summary() << "\n";
    return kExitFailed;
  }
  void say(const std::string& line) { ctx_.io->err << "moqbench subscribe: " << line << "\n"; }

  const CliContext& ctx_;
  const SubscribeArgs& args_;
  Dial& dial_;
  std::optional<FrameSizes> sizes_;
  Path path_;
  TrackConsumer track_;
  Reading reading_;
  std::optional<uint64_t> first_;  // the first group the subscription brought
  uint64_t frame_in_group_ = 0;
  std::optional<uint64_t> end_;              // the track's end, once it ended
  std::map<uint64_t, GroupConsumer> early_;  // groups that arrived before their turn
  std::string failure_;
  PayloadTally tally_;
};

}  // namespace

Action add_subscribe_command(CLI::App& app, const CliContext& ctx) {
  auto args = std::make_shared<SubscribeArgs>();
  CLI::App* sub = app.add_subcommand(
      "subscribe",
      "subscribe to one track through a relay and check that every frame arrives in order");
  add_dial_options(*sub, args->dial);
  sub->add_option("--broadcast", args->broadcast, "the broadcast's path (e.g. demo/bench)")
      ->required();
  sub->add_option("--track", args->track, "the track's name")->required();
  sub->add_option("--groups", args->groups, "expect exactly this many groups");
  sub->add_option("--frames", args->frames, "expect this many frames in every group");
  sub->add_option("--frame-size", args->frame_size,
                  "expect these frame sizes: one size, or a comma list used in turn across the "
                  "frames of each group (as publish takes it)");
  sub->add_flag("--check-pattern", args->check_pattern,
                "check every byte against the pattern moqbench publish writes");
  sub->add_flag("-v,--verbose", args->verbose, "a line per frame received, on stdout");
  sub->footer(
      std::string("Order: the groups must be 0 up to the track's end with no gap (read in ") +
      "sequence: each comes on its own stream, so they may arrive out of it); frames come "
      "in order within a group; nothing may follow the track's end.\n" +
      "Pattern: " + kPatternFormula + ".\nHash: " + kPayloadHashDefinition +
      ".\nExit status: 0 the track ended cleanly and every check "
      "held; 1 a check failed, the track or session ended early, --timeout passed or a "
      "signal came (each prints the partial summary); 2 bad input.");
  return [args, &ctx = ctx]() {
    auto bad = [&](const std::string& message) { return bad_input(ctx, "subscribe", message); };
    if (Path(args->broadcast).empty())
      return bad("--broadcast is empty: give the broadcast's path");
    if (args->track.empty()) return bad("--track is empty: give the track's name");
    if (args->groups && *args->groups == 0) return bad("--groups must be at least 1");
    if (args->frames && *args->frames == 0) return bad("--frames must be at least 1");
    std::optional<FrameSizes> sizes;
    if (!args->frame_size.empty()) {
      Result<FrameSizes> s = parse_frame_sizes(args->frame_size);
      if (!s) return bad(s.error().message);
      sizes = std::move(*s);
    }
    Result<std::unique_ptr<Dial>> dial = Dial::create(args->dial);
    if (!dial) return bad(dial.error().message);
    StopSignals stop;
    return Subscriber(ctx, *args, **dial, std::move(sizes)).run();
  };
}

}  // namespace moq::cli
