// ObjectParser over a stream whose chunks cut the objects anywhere: headers and payloads split
// over chunks, several objects in one chunk, each vectored read's chunks parsed in place or one
// chunk at a time. The frames come out the same, by reference where a payload sits in one chunk.
#include "model/session/ietf/objects.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/data/group.h"
#include "model/session/core/stream_input.h"
#include "model/wire/ietf/data.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"

namespace moq::session::ietf {
namespace {

namespace w = wire::ietf;

// A fetch stream's objects (after its header): payloads of 0 to 299 bytes, the first record with
// every field, the rest the short form.
std::vector<uint8_t> fetch_objects(const std::vector<std::string>& payloads, w::IetfVersion v) {
  std::vector<uint8_t> out;
  w::FetchStreamState st;
  for (size_t i = 0; i < payloads.size(); ++i) {
    w::FetchObject o;
    o.group_id = 7;
    o.object_id = i;
    o.payload_length = payloads[i].size();
    uint8_t header[w::kMaxFetchObjectHeaderSize];
    const size_t n = w::encode_fetch_object(st, o, v, header);
    EXPECT_GT(n, 0u);
    out.insert(out.end(), header, header + n);
    out.insert(out.end(), payloads[i].begin(), payloads[i].end());
  }
  return out;
}

// Writes bytes cut at `cuts` as separate chunks (one write: they are queued together), finishes,
// and parses them with ObjectParser into a group. writes: how many writes the chunks go out in
// (1: every chunk in the first vectored read; more: reads in between).
// outside_of_group: where to report run_fetch_objects' `outside` (which is then not expected 0).
std::vector<std::string> parse(const std::vector<uint8_t>& bytes, const std::vector<size_t>& cuts,
                               w::IetfVersion v, size_t writes,
                               uint64_t* outside_of_group = nullptr) {
  sim::VirtualClock clock;
  Executor ex(clock);
  Result<sim::memory::ConnectionPair> pair = sim::memory::make_pair(ex, {});
  EXPECT_TRUE(pair.ok());
  SendStreamPtr send = std::move(*pair->client->open_uni());
  core::StreamInput in(std::move(*pair->server->accept_uni()));
  const Bytes all = Bytes::copy(std::span<const uint8_t>(bytes));
  std::vector<Bytes> chunks;
  size_t from = 0;
  for (size_t to : cuts) {
    if (to > from) chunks.push_back(all.slice(from, to - from));
    from = std::max(from, to);
  }
  if (bytes.size() > from) chunks.push_back(all.slice(from));

  ObjectParser parser;
  w::FetchStreamState state;
  GroupProducer group = GroupProducer::create(7);
  uint64_t frames = 0;
  uint64_t outside = 0;
  ObjectParser::Stop stop = ObjectParser::Stop::Blocked;
  const size_t per_write = (chunks.size() + writes - 1) / writes;
  bool finished = false;
  for (size_t i = 0; !finished;) {
    BufChain out;
    for (size_t k = 0; k < per_write && i < chunks.size(); ++k, ++i)
      out.push(chunks[i]);
    if (!out.empty()) {
      EXPECT_TRUE(send->write(out).ok());
    }
    if (i == chunks.size()) {
      EXPECT_TRUE(send->finish().ok());
      finished = true;
    }
    stop = run_fetch_objects(
        parser, in, state, v, 7, outside,
        [&](auto&& payload) { append_object(group, std::forward<decltype(payload)>(payload)); },
        frames);
    if (stop != ObjectParser::Stop::Blocked) break;
  }
  EXPECT_EQ(stop, ObjectParser::Stop::Fin);
  EXPECT_FALSE(parser.mid_object(in));
  if (outside_of_group) {
    *outside_of_group = outside;
  } else {
    EXPECT_EQ(outside, 0u);
  }
  std::vector<std::string> got;
  GroupConsumer c = group.consume();
  for (size_t i = 0; i < c.frame_count(); ++i) {
    std::string frame;
    for (const Bytes& b : c.frame(i).chunks)
      frame.append(b.view());
    got.push_back(frame);
  }
  EXPECT_EQ(got.size(), frames);
  return got;
}

TEST(ObjectParser, ObjectsCutAnywhereComeOutWhole) {
  std::vector<std::string> payloads;
  for (size_t i = 0; i < 6; ++i)
    payloads.push_back(std::string(i * 59 % 300, static_cast<char>('a' + i)));
  for (w::IetfVersion v : {w::IetfVersion::Draft18, w::IetfVersion::Draft22}) {
    const std::vector<uint8_t> bytes = fetch_objects(payloads, v);
    for (size_t a = 0; a <= bytes.size(); a += 3) {
      for (size_t b = a; b <= bytes.size(); b += 7) {
        for (size_t writes : {size_t{1}, size_t{3}}) {
          EXPECT_EQ(parse(bytes, {a, a + 1, b}, v, writes), payloads)
              << "cuts at " << a << ", " << a + 1 << ", " << b << ", " << writes << " writes";
        }
      }
    }
  }
}

TEST(ObjectParser, OneChunkPerByteComesOutWhole) {
  const std::vector<std::string> payloads = {"first", "", "x", std::string(200, 'z')};
  const std::vector<uint8_t> bytes = fetch_objects(payloads, w::IetfVersion::Draft22);
  std::vector<size_t> cuts;
  for (size_t i = 1; i < bytes.size(); ++i)
    cuts.push_back(i);
  EXPECT_EQ(parse(bytes, cuts, w::IetfVersion::Draft22, 1), payloads);
  EXPECT_EQ(parse(bytes, cuts, w::IetfVersion::Draft22, 5), payloads);
}

// Every object of a FETCH's stream must be of the requested group (7 here). A short-form object
// (flags 0x00: the previous record's group) after an End-of-Range marker of another group is of
// the marker's group, and is flagged like a full-form object of another group.
TEST(ObjectParser, AnObjectOfAnotherGroupIsFlaggedInEitherForm) {
  for (w::IetfVersion v : {w::IetfVersion::Draft18, w::IetfVersion::Draft22}) {
    const auto records = [v](const std::vector<w::FetchObject>& objects) {
      std::vector<uint8_t> out;
      w::FetchStreamState st;
      for (const w::FetchObject& o : objects) {
        uint8_t header[w::kMaxFetchObjectHeaderSize];
        const size_t n = w::encode_fetch_object(st, o, v, header);
        EXPECT_GT(n, 0u);
        out.insert(out.end(), header, header + n);
        out.insert(out.end(), o.payload_length, 'p');
      }
      return out;
    };
    const w::FetchObject first{.group_id = 7, .object_id = 0, .payload_length = 2};
    const w::FetchObject next{.group_id = 7, .object_id = 1, .payload_length = 3};
    const w::FetchObject marker{
        .kind = w::FetchRecordKind::EndOfNonExistentRange, .group_id = 9, .object_id = 4};
    const w::FetchObject after_marker{.group_id = 9, .object_id = 5, .payload_length = 1};
    const w::FetchObject other{.group_id = 8, .object_id = 0, .payload_length = 1};

    uint64_t outside = 0;
    (void)parse(records({first, next}), {}, v, 1, &outside);
    EXPECT_EQ(outside, 0u);
    const std::vector<uint8_t> short_form = records({first, marker, after_marker});
    EXPECT_EQ(short_form[short_form.size() - 3], 0x00);  // the short form, as meant
    (void)parse(short_form, {}, v, 1, &outside);
    EXPECT_NE(outside, 0u) << "short form after a marker";
    (void)parse(records({first, next, other}), {}, v, 1, &outside);
    EXPECT_NE(outside, 0u) << "full form";
  }
}

}  // namespace
}  // namespace moq::session::ietf
