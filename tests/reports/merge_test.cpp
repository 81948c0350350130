// merge_shards (reports/merge.h): shards join in the sweep's plan order whatever the order of the
// files; a missing shard, a partial shard and duplicated cases are reported; shards that do not
// belong together (not a shard, another sweep, another build, another counter) are refused. And
// the results format's own checks of a shard's meta.
#include "reports/merge.h"

#include <gtest/gtest.h>

#include "reports/schema/json_io.h"
#include "reports/schema/validate.h"
#include "tests/reports/synthetic.h"

namespace moq::reports {
namespace {

using results::CaseResult;
using results::ResultsFile;
using results::testing::synthetic_case;
using results::testing::synthetic_meta;

CaseResult frames_case(int64_t frames) {
  return synthetic_case("fetch_frames", "moq-lite-06",
                        {{"publishers", 1}, {"viewers", 1}, {"frames", frames}}, 1000 + frames, 0);
}

// A plan of five cases (frames 1..5) in shards of `count`: shard `index`'s file with its cases.
InputFile shard(uint32_t index, uint32_t count, const std::string& digest = "00112233445566ff") {
  InputFile f;
  f.path = "shard" + std::to_string(index) + ".json";
  f.results.meta = synthetic_meta();
  results::ShardInfo info;
  info.index = index;
  info.count = count;
  info.plan_cases = 5;
  info.plan_digest = digest;
  for (int64_t k = 0; k < 5; ++k) {
    if (static_cast<uint32_t>(k) % count != index - 1) continue;
    CaseResult c = frames_case(k + 1);
    info.cases.push_back(c.id);
    f.results.cases.push_back(c);
  }
  f.results.meta.shard = info;
  f.results.meta.command_line = {"moqbench", "sweep", "--shard", "1/2", "--rounds", "2"};
  return f;
}

std::vector<int64_t> frames_of(const ResultsFile& f) {
  std::vector<int64_t> out;
  for (const CaseResult& c : f.cases)
    out.push_back(std::get<int64_t>(c.find_param("frames")->value));
  return out;
}

TEST(Merge, ShardsJoinInPlanOrderWhateverTheFileOrder) {
  Result<Merge> m = merge_shards({shard(2, 2), shard(1, 2)});
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_TRUE(m->complete());
  EXPECT_EQ(frames_of(m->merged), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_FALSE(m->merged.meta.shard);
  EXPECT_EQ(m->merged.meta.command_line,
            (std::vector<std::string>{"moqbench", "sweep", "--rounds", "2"}));
  // The merge is a valid results file.
  EXPECT_TRUE(results::validate(results::to_json(m->merged)).ok());
}

TEST(Merge, MissingShardsPartialShardsAndDuplicatesAreReported) {
  Result<Merge> m = merge_shards({shard(1, 3)});
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_FALSE(m->complete());
  EXPECT_EQ(m->missing_shards, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(m->missing_cases, 3u);
  EXPECT_EQ(frames_of(m->merged), (std::vector<int64_t>{1, 4}));

  InputFile partial = shard(2, 2);
  partial.results.cases.pop_back();  // a killed shard: its file holds the cases it finished
  m = merge_shards({shard(1, 2), partial, shard(1, 2)});
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->missing, (std::vector<std::string>{frames_case(4).id}));
  EXPECT_EQ(m->missing_cases, 1u);
  EXPECT_EQ(m->duplicated.size(), 3u);  // shard 1's three cases, given twice
  const std::string text = describe(*m);
  EXPECT_NE(text.find(frames_case(4).id), std::string::npos) << text;
  EXPECT_NE(text.find("more than one file"), std::string::npos) << text;
}

TEST(Merge, ShardsThatDoNotBelongTogetherAreRefused) {
  InputFile whole = shard(1, 1);
  whole.results.meta.shard.reset();
  Result<Merge> m = merge_shards({shard(1, 2), whole});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("shard1.json: not a shard"), std::string::npos);

  m = merge_shards({shard(1, 2), shard(2, 2, "ffeeddccbbaa9988")});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("is of another sweep"), std::string::npos);
  m = merge_shards({shard(1, 2), shard(2, 3)});
  ASSERT_FALSE(m.ok());

  InputFile other_build = shard(2, 2);
  other_build.results.meta.compiler_flags += " -O0";
  m = merge_shards({shard(1, 2), other_build});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("compiler flags differs"), std::string::npos);

  InputFile other_counter = shard(2, 2);
  other_counter.results.meta.counter_event = "instructions:u";
  EXPECT_FALSE(merge_shards({shard(1, 2), other_counter}).ok());

  // perf counts differ between CPUs; callgrind's do not.
  InputFile other_cpu = shard(2, 2);
  other_cpu.results.meta.cpu_model = "another CPU";
  EXPECT_TRUE(merge_shards({shard(1, 2), other_cpu}).ok());
}

TEST(ShardMeta, TheFormatChecksAShardsShare) {
  InputFile f = shard(2, 2);
  EXPECT_TRUE(results::validate(results::to_json(f.results)).ok());
  results::Json doc = results::to_json(f.results);
  doc["meta"]["shard"]["cases"].push_back("model/x/moq-lite-06");
  Status st = results::validate(doc);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("meta.shard.cases"), std::string::npos) << st.error().message;

  doc = results::to_json(f.results);
  doc["meta"]["shard"]["index"] = 3;
  EXPECT_FALSE(results::validate(doc).ok());

  doc = results::to_json(f.results);
  doc["meta"]["shard"]["cases"][0] = frames_case(1).id;  // shard 1's, not this one's
  st = results::validate(doc);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("is not in meta.shard.cases"), std::string::npos)
      << st.error().message;
}

}  // namespace
}  // namespace moq::reports
