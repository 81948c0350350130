#include "model/base/codec.h"

#include <gtest/gtest.h>

namespace moq {
namespace {

TEST(Reader, ReadsFieldsAndStopsAtTheEnd) {
  std::vector<uint8_t> in = {0x05, 0x03, 'a', 'b', 'c', 0x01};
  Reader r(in, VarintForm::Quic, "TEST");
  EXPECT_EQ(r.varint("id"), 5u);
  EXPECT_EQ(r.string("name"), "abc");
  EXPECT_TRUE(r.boolean("flag"));
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.at_end());
}

TEST(Reader, ShortInputNeedsMoreAndNamesTheField) {
  std::vector<uint8_t> in = {0x05, 0x03, 'a'};
  Reader r(in, VarintForm::Quic, "TEST");
  r.varint("id");
  r.string("name");
  EXPECT_EQ(r.status(), DecodeStatus::NeedMore);
  EXPECT_NE(r.error().find("name"), std::string::npos);
}

TEST(Reader, BadValuesAreMalformedWithMessageFieldAndValue) {
  std::vector<uint8_t> in = {0x07};
  Reader r(in, VarintForm::Quic, "SUBSCRIBE");
  r.boolean("Hidden");
  EXPECT_EQ(r.status(), DecodeStatus::Malformed);
  EXPECT_EQ(r.error(), "SUBSCRIBE: field 'Hidden': boolean byte is 7, must be 0 or 1");

  std::vector<uint8_t> len = {0x10, 'x'};
  Reader r2(len, VarintForm::Quic, "TRACK");
  r2.string("Track Name", 8);
  EXPECT_EQ(r2.status(), DecodeStatus::Malformed);
  EXPECT_NE(r2.error().find("length 16 exceeds the maximum 8"), std::string::npos);
}

TEST(Reader, FirstErrorSticks) {
  std::vector<uint8_t> in = {0x09};
  Reader r(in, VarintForm::Quic, "M");
  r.varint_max("a", 3);
  r.varint("b");
  EXPECT_EQ(r.status(), DecodeStatus::Malformed);
  EXPECT_NE(r.error().find("'a'"), std::string::npos);
}

TEST(Writer, LengthPrefixGrowsWhenTheBodyNeedsIt) {
  std::vector<uint8_t> out;
  Writer w(out, VarintForm::Quic);
  size_t mark = w.begin_length();
  for (int i = 0; i < 100; ++i)
    w.u8(static_cast<uint8_t>(i));
  w.end_length(mark);
  ASSERT_EQ(out.size(), 102u);
  EXPECT_EQ(out[0], 0x40);
  EXPECT_EQ(out[1], 100);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[101], 99);

  std::vector<uint8_t> small;
  Writer w2(small, VarintForm::LeadingOnes);
  mark = w2.begin_length();
  w2.string("demo");
  w2.end_length(mark);
  EXPECT_EQ(small, (std::vector<uint8_t>{0x05, 0x04, 'd', 'e', 'm', 'o'}));
}

}  // namespace
}  // namespace moq
