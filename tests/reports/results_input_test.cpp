// Hostile input to the results reader: nesting deep enough to exhaust the stack of a recursive
// walk, duplicate keys (which JSON parsers silently resolve), a directory where a file should be,
// and one enormous bad value whose error message must not cost memory in proportion to it.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "harness/counters/alloc_counter.h"
#include "reports/schema/json_io.h"
#include "reports/schema/results_file.h"
#include "reports/schema/validate.h"
#include "tests/reports/synthetic.h"

namespace moq::results {
namespace {

using testing::synthetic_case;
using testing::synthetic_meta;
using testing::TempDir;

ResultsFile one_case_file() {
  ResultsFile file;
  file.meta = synthetic_meta();
  file.cases.push_back(synthetic_case("fetch_frames", "moq-lite-06",
                                      {{"publishers", 1}, {"viewers", 1}, {"frames", 256}}, 120000,
                                      3));
  return file;
}

std::string nested_arrays(size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(ResultsInput, DeepNestingIsRefusedNotACrash) {
  // 100,000 levels: a recursive serializer or validator would overflow the stack.
  Result<ResultsFile> file = parse_results(nested_arrays(100000), "deep.json");
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().message.find("deep.json: "), std::string::npos) << file.error().message;
  EXPECT_NE(file.error().message.find("nested deeper than 64 levels"), std::string::npos)
      << file.error().message;
}

TEST(ResultsInput, NestingLimitIsExact) {
  // 64 levels parse (and then fail validation as what they are, not a results document); 65 not.
  Result<ResultsFile> at_limit = parse_results(nested_arrays(64), "at.json");
  ASSERT_FALSE(at_limit.ok());
  EXPECT_NE(at_limit.error().message.find("at.json: (document): expected an object"),
            std::string::npos)
      << at_limit.error().message;
  Result<ResultsFile> over = parse_results(nested_arrays(65), "over.json");
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().message.find("nested deeper than 64 levels"), std::string::npos)
      << over.error().message;
}

TEST(ResultsInput, DeepValueInsideAValidDocumentNamesWhereItIs) {
  std::string text = serialize(one_case_file());
  const std::string key = "\"git_dirty\": false";
  const size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, key.size(), "\"git_dirty\": " + nested_arrays(1000));
  Result<ResultsFile> file = parse_results(text, "deep.json");
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().message.find("deep.json: meta.git_dirty"), std::string::npos)
      << file.error().message;
}

TEST(ResultsInput, DuplicateKeysAreRefusedNamingTheirPath) {
  std::string text = serialize(one_case_file());
  // The same key twice with the same value: a last-wins parser would accept the file unchanged.
  const std::string key = "\"median\":3,";
  const size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos) << text;
  text.insert(at, key);
  Result<ResultsFile> file = parse_results(text, "dup.json");
  ASSERT_FALSE(file.ok()) << "a duplicate key was accepted";
  EXPECT_NE(file.error().message.find("dup.json: cases[0].metrics.allocations.median: duplicate "
                                      "key"),
            std::string::npos)
      << file.error().message;

  std::string top = serialize(one_case_file());
  top.insert(1, "\"schema\": \"moqbench.results/1\",");
  Result<ResultsFile> top_file = parse_results(top, "top.json");
  ASSERT_FALSE(top_file.ok());
  EXPECT_NE(top_file.error().message.find("top.json: schema: duplicate key"), std::string::npos)
      << top_file.error().message;
}

TEST(ResultsInput, ErrorExcerptDoesNotSerializeTheWholeValue) {
  Json doc = to_json(one_case_file());
  Json big = Json::array();
  for (int i = 0; i < 200000; ++i)
    big.push_back(i);
  doc["meta"] = std::move(big);  // meta must be an object: the error quotes what it got
  const counters::AllocScope scope;
  const Status status = validate(doc);
  const uint64_t bytes = scope.delta().bytes;
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("meta: expected an object, got [0,1,2,"), std::string::npos)
      << status.error().message;
  EXPECT_LE(status.error().message.size(), 120u) << status.error().message;
  ASSERT_TRUE(counters::alloc_counting_active());
  EXPECT_LT(bytes, 16u * 1024) << "the error excerpt serialized the whole value";
}

TEST(ResultsInput, ExcerptOfALongStringIsCutOnACharacterBoundary) {
  Json doc = to_json(one_case_file());
  std::string long_text = "a";  // puts a character across the old cut at byte 57
  for (int i = 0; i < 100000; ++i)
    long_text += "\xc3\xa9";  // é, two bytes in UTF-8
  doc["meta"]["git_dirty"] = long_text;
  const Status status = validate(doc);
  ASSERT_FALSE(status.ok());
  const std::string& message = status.error().message;
  EXPECT_LE(message.size(), 160u);
  const size_t dots = message.rfind("...");
  ASSERT_NE(dots, std::string::npos) << message;
  // The byte before "..." ends a character: not a lead byte (0b11xxxxxx) left without its tail.
  EXPECT_NE(static_cast<unsigned char>(message[dots - 1]) & 0xC0, 0xC0) << message;
}

TEST(ResultsInput, ADirectoryIsNamedAsOne) {
  TempDir dir;
  Result<ResultsFile> file = read_results_file(dir.path());
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().message.find(dir.path() + ": is a directory, not a results file"),
            std::string::npos)
      << file.error().message;
  EXPECT_EQ(file.error().message.find("not valid JSON"), std::string::npos) << file.error().message;
}

}  // namespace
}  // namespace moq::results
