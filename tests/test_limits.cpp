// Input that would swamp or cut a message (huge tokens, NUL and control bytes) is quoted
// short and escaped wherever it is echoed; topology specs that mean nothing are refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../src/cli/gtp.hpp"
#include "tanbo/error.hpp"
#include "tanbo/gamefile.hpp"
#include "tanbo/text.hpp"
#include "tanbo/topology.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

// The message tanbo::Error carries for `f`, "" when nothing is thrown.
template <class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const std::string kHuge(10'000'000, 'x');

TEST(QuoteInput, EscapesControlBytesAndKeepsLetters) {
  EXPECT_EQ(quote_input("D4"), "\"D4\"");
  EXPECT_EQ(quote_input(std::string("B\0x", 3)), "\"B\\0x\"");
  EXPECT_EQ(quote_input("a\tb\nc\r\"\\"), "\"a\\tb\\nc\\r\\\"\\\\\"");
  EXPECT_EQ(quote_input("\x01\x7f"), "\"\\x01\\x7f\"");
  EXPECT_EQ(quote_input("Jos\xc3\xa9"), "\"Jos\xc3\xa9\"");  // UTF-8 stays
  EXPECT_EQ(quote_input("\xc3(\xff"), "\"\\xc3(\\xff\"");    // broken UTF-8 is escaped
  EXPECT_EQ(quote_input("\xe2\x82"), "\"\\xe2\\x82\"");      // cut short
}

TEST(QuoteInput, LongInputKeepsAPrefixAndItsLength) {
  EXPECT_EQ(quote_input(kHuge), "\"" + std::string(40, 'x') + "...\" (10000000 bytes)");
  EXPECT_EQ(quote_input("abcdef", 3), "\"abc...\" (6 bytes)");
  EXPECT_EQ(quote_input("abc", 3), "\"abc\"");
}

TEST(QuoteInput, HugeTokensGiveShortMessagesEverywhere) {
  const auto topo = parse_topology("grid 9x9");
  const std::string point = message_of([&] { topo->need_vertex(kHuge); });
  EXPECT_LT(point.size(), 200u);
  EXPECT_NE(point.find("(10000000 bytes)"), std::string::npos);
  EXPECT_LT(message_of([&] { parse_topology("grid 9x9 " + kHuge); }).size(), 300u);
  EXPECT_LT(message_of([&] { parse_topology(kHuge); }).size(), 300u);
  EXPECT_LT(message_of([&] { make_setup(*topo, kHuge); }).size(), 600u);
  const std::string file = "tanbo-game 1\ntopology grid 9x9\nmoves\nblack " + kHuge + "\n";
  EXPECT_LT(message_of([&] { read_game(file, "g"); }).size(), 300u);
  const std::string header = "tanbo-game 1\n" + kHuge + "\n";
  EXPECT_LT(message_of([&] { read_game(header, "g"); }).size(), 300u);
  cli::GtpEngine gtp;
  EXPECT_LT(gtp.handle_line("play b " + kHuge).size(), 300u);
  EXPECT_LT(gtp.handle_line(kHuge).size(), 300u);
  EXPECT_LT(gtp.handle_line("topology grid " + kHuge).size(), 400u);
}

TEST(QuoteInput, ANulByteDoesNotCutTheMessage) {
  const std::string file =
      std::string("tanbo-game 1\ntopology grid 9x9\nmoves\nblack B\0tail\n", 50);
  const std::string m = message_of([&] { read_game(file, "g"); });
  EXPECT_NE(m.find("B\\0tail"), std::string::npos) << m;
  EXPECT_NE(m.find("is not a point of this board"), std::string::npos) << m;
}

TEST(TopologySpec, RepeatedAndEmptyOptionsAreRefused) {
  EXPECT_NE(message_of([] { parse_topology("grid 9x9 wrap wrap"); }).find("\"wrap\" twice"),
            std::string::npos);
  EXPECT_NE(message_of([] { parse_topology("grid 9x9 torus wrap"); }).find("twice"),
            std::string::npos);
  EXPECT_NE(message_of([] { parse_topology("line 9 wrap WRAP"); }).find("twice"),
            std::string::npos);
  for (const char* spec : {"grid 9x9x", "grid x9", "grid 9xx9"}) {
    EXPECT_NE(message_of([&] { parse_topology(spec); }).find("empty size"), std::string::npos)
        << spec;
  }
  for (const char* spec : {"grid 9x9 9x9", "hex 5 wrap", "line 3x3", "grid", "grid 9x9 wrapped"}) {
    EXPECT_FALSE(message_of([&] { parse_topology(spec); }).empty()) << spec;
  }
  // What means something is still read.
  EXPECT_EQ(parse_topology("GRID 9X9 Wrap")->spec, "grid 9x9 wrap");
  EXPECT_EQ(parse_topology("  line   31  ")->spec, "line 31");
  EXPECT_EQ(parse_topology("5x5x5 torus")->spec, "grid 5x5x5 wrap");
}

}  // namespace
}  // namespace tanbo
