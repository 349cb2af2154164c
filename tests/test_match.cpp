// Match and study arithmetic (Wilson interval, Elo, tallies), CSV round trip and merge, the
// PNG writer, and the match/study commands end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tanbo/error.hpp"
#include "tanbo/gamefile.hpp"
#include "tanbo/match.hpp"
#include "tanbo/png.hpp"
#include "test_support.hpp"

using namespace tanbo;

TEST(MatchStats, WilsonIntervalMatchesHandComputedValues) {
  // 7 of 10, z = 1.96: centre (0.7 + 1.9208/10) / 1.38415 = 0.64449,
  // half 1.96 * sqrt(0.021 + 0.0096040) / 1.38415 = 0.24772.
  Interval ci = wilson_interval(7, 10);
  EXPECT_NEAR(ci.lo, 0.39677, 1e-4);
  EXPECT_NEAR(ci.hi, 0.89221, 1e-4);
  // 0 of 10: [0, z^2/n / (1 + z^2/n)] = [0, 0.27753].
  ci = wilson_interval(0, 10);
  EXPECT_NEAR(ci.lo, 0.0, 1e-12);
  EXPECT_NEAR(ci.hi, 0.27753, 1e-4);
  // 100 of 100: [1/(1 + z^2/100), 1] = [0.96301, 1].
  ci = wilson_interval(100, 100);
  EXPECT_NEAR(ci.lo, 0.96301, 1e-4);
  EXPECT_NEAR(ci.hi, 1.0, 1e-12);
  // 50 of 100: 0.5 +- 1.96 * sqrt(0.0025 + 0.00009604) / 1.0384 = [0.40383, 0.59617].
  ci = wilson_interval(50, 100);
  EXPECT_NEAR(ci.lo, 0.40383, 1e-4);
  EXPECT_NEAR(ci.hi, 0.59617, 1e-4);
  for (double n : {1.0, 7.0, 10.0, 33.0, 1000.0}) {
    EXPECT_EQ(wilson_interval(n, n).hi, 1.0) << n;  // exactly: Elo +inf, not a huge number
    EXPECT_EQ(wilson_interval(0, n).lo, 0.0) << n;
  }
  ci = wilson_interval(0, 0);
  EXPECT_EQ(ci.lo, 0.0);
  EXPECT_EQ(ci.hi, 1.0);
}

TEST(MatchStats, EloFromScoreRate) {
  // 0.75 = 3:1 odds: 400 log10(3) = 190.85.
  EXPECT_NEAR(elo_from_rate(0.75), 190.85, 0.01);
  EXPECT_NEAR(elo_from_rate(0.25), -190.85, 0.01);
  EXPECT_NEAR(elo_from_rate(0.5), 0.0, 1e-9);
  // 10:1 odds: 400.
  EXPECT_NEAR(elo_from_rate(10.0 / 11.0), 400.0, 1e-6);
  EXPECT_TRUE(std::isinf(elo_from_rate(1.0)));
  EXPECT_GT(elo_from_rate(1.0), 0);
  EXPECT_EQ(format_elo(elo_from_rate(0.75)), "+191");
  EXPECT_EQ(format_elo(-35.4), "-35");
  EXPECT_EQ(format_elo(elo_from_rate(0.0)), "-inf");
}

TEST(MatchStats, SeatsRotate) {
  EXPECT_EQ(agent_in_seat(1, 0, 2), 0);
  EXPECT_EQ(agent_in_seat(2, 0, 2), 1);
  EXPECT_EQ(agent_in_seat(1, 1, 2), 1);
  EXPECT_EQ(agent_in_seat(2, 1, 2), 0);
  EXPECT_EQ(agent_in_seat(1, 4, 3), 1);
  EXPECT_EQ(agent_in_seat(3, 4, 3), 0);
  EXPECT_NE(game_seed(1, 0, 0), game_seed(1, 1, 0));
  EXPECT_NE(game_seed(1, 0, 0), game_seed(1, 0, 1));
  EXPECT_EQ(game_seed(5, 3, 1), game_seed(5, 3, 1));
}

TEST(MatchStats, PlayGameCountsMovesAndRemovals) {
  auto a = make_agent("random", 1), b = make_agent("random", 2);
  Position pos = test::make("grid 9x9");
  const GameResult r = play_game(pos, {a.get(), b.get()});
  EXPECT_TRUE(pos.is_over());
  EXPECT_EQ(r.winner, pos.winner());
  EXPECT_EQ(r.plies, pos.ply());
  std::uint32_t removals = 0;
  for (const auto& rec : pos.history()) removals += rec.removed_end - rec.removed_begin;
  EXPECT_EQ(r.root_removals, removals);
  EXPECT_GE(removals, 2u);  // at least the loser's two roots
}

TEST(StudyTally, MeansSpreadAndCsvRoundTrip) {
  StudyTally t;
  t.topology = "grid 9x9";
  t.setup = "default";
  t.add({kBlack, 10, 2}, 2);
  t.add({kWhite, 20, 4}, 2);
  t.add({kBlack, 30, 6}, 2);
  EXPECT_EQ(t.games, 3u);
  EXPECT_EQ(t.first_wins, 2u);
  EXPECT_DOUBLE_EQ(t.mean_length(), 20.0);
  EXPECT_DOUBLE_EQ(t.sd_length(), 10.0);  // sample sd of 10, 20, 30
  EXPECT_DOUBLE_EQ(t.removals_per_game(), 4.0);

  StudyTally u;
  u.topology = "file my, \"odd\" board.dot";
  u.setup = "file";
  u.add({kEmpty, 500, 1}, 3);
  u.add({3, 40, 2}, 3);
  const std::string csv = study_csv({t, u});
  EXPECT_NE(csv.find("grid 9x9,default,3,2,0,60,1400,12,2:1,0.6667,"), std::string::npos);
  const auto back = parse_study_csv(csv, "t.csv");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(study_csv(back), csv);
  EXPECT_EQ(back[1].topology, u.topology);
  EXPECT_EQ(back[1].unfinished, 1u);
  EXPECT_EQ(back[1].seat_wins, (std::vector<std::uint64_t>{0, 0, 1}));
}

TEST(StudyTally, MergingShardsEqualsTheWhole) {
  StudyTally whole, a, b;
  for (auto* t : {&whole, &a, &b}) t->topology = "hex 5", t->setup = "default";
  for (int i = 0; i < 9; ++i) {
    const GameResult r{static_cast<Player>(1 + i % 2), static_cast<std::uint32_t>(40 + 3 * i),
                       static_cast<std::uint32_t>(i)};
    whole.add(r, 2);
    (i % 3 == 0 ? a : b).add(r, 2);
  }
  std::vector<StudyTally> merged = {a};
  merge_tallies(merged, {b});
  EXPECT_EQ(study_csv(merged), study_csv({whole}));
}

TEST(StudyTally, MalformedCsvIsRefusedWithTheLine) {
  auto message = [](const std::string& text) {
    try {
      parse_study_csv(text, "x.csv");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  StudyTally t;
  t.topology = "line 9";
  t.setup = "default";
  t.add({kBlack, 8, 1}, 2);
  const std::string good = study_csv({t});
  EXPECT_NE(message("a,b\n").find("x.csv:1: not a study CSV"), std::string::npos);
  EXPECT_NE(message("").find("empty"), std::string::npos);
  const std::string header = good.substr(0, good.find('\n') + 1);
  EXPECT_NE(message(header + "line 9,default,1\n").find("x.csv:2: expected 15 fields"),
            std::string::npos);
  std::string bad = good;
  bad.replace(bad.find(",1,1,0,8,"), 9, ",1,0,0,8,");  // first_wins 0 but seat 1 won
  EXPECT_NE(message(bad).find("do not add up"), std::string::npos);
  bad = good;
  bad.replace(bad.find(",1,1,0,8,"), 9, ",x,1,0,8,");
  EXPECT_NE(message(bad).find("games \"x\""), std::string::npos);
}

TEST(Png, ChecksumsMatchKnownValues) {
  EXPECT_EQ(crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(crc32("IEND"), 0xAE426082u);
  EXPECT_EQ(adler32("Wikipedia"), 0x11E60398u);
}

TEST(Png, EncodesAValidStoredDeflateImage) {
  Canvas c(3, 2, {255, 255, 255});
  c.set(0, 0, {255, 0, 0});
  c.set(2, 1, {0, 0, 255});
  EXPECT_EQ(c.at(0, 0).r, 255);
  EXPECT_EQ(c.at(0, 0).g, 0);
  const std::string png = encode_png(c, false);
  ASSERT_GT(png.size(), 8u + 25u + 12u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(png.substr(png.size() - 8, 4), "IEND");
  // IDAT: zlib header 78 01, one final stored block of 2 rows * (1 + 9) = 20 bytes.
  const std::size_t idat = png.find("IDAT");
  ASSERT_NE(idat, std::string::npos);
  const std::string z = png.substr(idat + 4);
  EXPECT_EQ(static_cast<unsigned char>(z[0]), 0x78);
  EXPECT_EQ(static_cast<unsigned char>(z[2]), 0x01);  // BFINAL, stored
  EXPECT_EQ(static_cast<unsigned char>(z[3]), 20);
  EXPECT_EQ(static_cast<unsigned char>(z[5]), static_cast<unsigned char>(~20));
  EXPECT_EQ(z.substr(7, 4), std::string("\0\xff\0\0", 4));  // filter 0, red pixel
  // Text draws pixels in the given colour.
  Canvas t(40, 10);
  t.text(1, 1, "5x5", {0, 0, 0});
  int dark = 0;
  for (int y = 0; y < 10; ++y) {
    for (int x = 0; x < 40; ++x) dark += t.at(x, y).r == 0;
  }
  EXPECT_GT(dark, 20);
}

namespace {

// A small inflater for what encode_png writes (stored blocks and fixed-Huffman blocks), written
// from RFC 1951 independently of the encoder, to check the compressed images byte for byte.
std::string inflate_fixed(const std::string& in, std::size_t pos) {
  std::size_t bit = pos * 8;
  auto get = [&](int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i, ++bit) {
      v |= ((static_cast<unsigned char>(in.at(bit / 8)) >> (bit % 8)) & 1u) << i;
    }
    return v;
  };
  auto huff = [&](int n) {  // n more bits of a code, most significant first
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 1) | get(1);
    return v;
  };
  static const int lbase[] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                              31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
  static const int lextra[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                               2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
  static const int dbase[] = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                              33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                              1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  static const int dextra[] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                               6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
  std::string out;
  for (bool last = false; !last;) {
    last = get(1);
    const std::uint32_t type = get(2);
    if (type == 0) {
      bit = (bit + 7) / 8 * 8;
      const std::uint32_t len = get(16);
      EXPECT_EQ(get(16), (~len) & 0xFFFF);
      for (std::uint32_t i = 0; i < len; ++i) out += static_cast<char>(get(8));
      continue;
    }
    EXPECT_EQ(type, 1u);
    if (type != 1) return out;
    for (;;) {
      std::uint32_t code = huff(7), sym;
      if (code <= 23) {
        sym = 256 + code;
      } else {
        code = (code << 1) | get(1);
        if (code >= 0x30 && code <= 0xBF) {
          sym = code - 0x30;
        } else if (code >= 0xC0 && code <= 0xC7) {
          sym = 280 + code - 0xC0;
        } else {
          sym = 144 + ((code << 1) | get(1)) - 0x190;
        }
      }
      if (sym < 256) {
        out += static_cast<char>(sym);
        continue;
      }
      if (sym == 256) break;
      const int li = static_cast<int>(sym) - 257;
      const std::uint32_t len = lbase[li] + get(lextra[li]);
      const int di = static_cast<int>(huff(5));
      const std::uint32_t dist = dbase[di] + get(dextra[di]);
      for (std::uint32_t i = 0; i < len; ++i) out += out[out.size() - dist];
    }
  }
  return out;
}

// The IDAT data of a PNG (one IDAT chunk, as encode_png writes).
std::string idat_of(const std::string& png) {
  std::size_t pos = 8;
  while (pos + 12 <= png.size()) {
    const std::uint32_t len = (static_cast<unsigned char>(png[pos]) << 24) |
                              (static_cast<unsigned char>(png[pos + 1]) << 16) |
                              (static_cast<unsigned char>(png[pos + 2]) << 8) |
                              static_cast<unsigned char>(png[pos + 3]);
    if (png.compare(pos + 4, 4, "IDAT") == 0) return png.substr(pos + 8, len);
    pos += 12 + len;
  }
  return "";
}

}  // namespace

TEST(Png, CompressedAndStoredImagesHoldTheSameScanlines) {
  Canvas c(97, 41, {250, 250, 250});
  c.fill_rect(3, 3, 60, 20, {40, 90, 170});
  c.text(2, 25, "grid 5x5x5 50%", {0, 0, 0}, 2);
  for (int x = 0; x < 97; x += 7) c.set(x, 40 - x % 13, {static_cast<std::uint8_t>(x), 7, 200});
  std::string raw;
  for (int y = 0; y < 41; ++y) {
    raw += '\0';
    for (int x = 0; x < 97; ++x) {
      const Rgb p = c.at(x, y);
      raw += static_cast<char>(p.r);
      raw += static_cast<char>(p.g);
      raw += static_cast<char>(p.b);
    }
  }
  const std::string stored = idat_of(encode_png(c, false));
  const std::string packed = idat_of(encode_png(c, true));
  ASSERT_FALSE(stored.empty());
  ASSERT_FALSE(packed.empty());
  EXPECT_LT(packed.size() * 5, stored.size());  // flat colours compress well
  EXPECT_EQ(inflate_fixed(stored, 2), raw);
  EXPECT_EQ(inflate_fixed(packed, 2), raw);
  // Both end with the Adler-32 of the scanlines.
  const std::uint32_t a = adler32(raw);
  const std::string tail = {static_cast<char>(a >> 24), static_cast<char>(a >> 16),
                            static_cast<char>(a >> 8), static_cast<char>(a)};
  EXPECT_EQ(packed.substr(packed.size() - 4), tail);
  EXPECT_EQ(stored.substr(stored.size() - 4), tail);
}

TEST(MatchCommand, CsvTableAddsUp) {
  const auto r = test::run_command(std::string(TANBO_BINARY) +
                                   " match --topology 'grid 7x7' --players greedy,random "
                                   "--games 6 --seed 3 --csv");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  std::string header, a, b;
  std::getline(in, header);
  std::getline(in, a);
  std::getline(in, b);
  EXPECT_EQ(header.rfind("player,spec,games,wins,unfinished,win_rate,", 0), 0u) << header;
  EXPECT_EQ(a.rfind("1,greedy,6,", 0), 0u) << a;
  EXPECT_EQ(b.rfind("2,random,6,", 0), 0u) << b;
  const int wa = std::stoi(a.substr(11)), wb = std::stoi(b.substr(11));
  EXPECT_EQ(wa + wb, 6);
  // Each played 3 games as Black and 3 as White.
  EXPECT_NE(a.find(",3,"), std::string::npos);
}

TEST(MatchCommand, SavedGamesReplayToTheSameResults) {
  const auto dir = std::filesystem::temp_directory_path() / "tanbo_match_games_test";
  std::filesystem::remove_all(dir);
  const auto r = test::run_command(std::string(TANBO_BINARY) +
                                   " match --topology 'hex 3' --players random,greedy --games 4 "
                                   "--save-games " +
                                   dir.string());
  ASSERT_EQ(r.status, 0) << r.err;
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const Game g = load_game(e.path().string());
    EXPECT_TRUE(g.position.is_over());
    ASSERT_EQ(g.names.size(), 2u);
    ++files;
  }
  EXPECT_EQ(files, 4);
  std::filesystem::remove_all(dir);
}

TEST(MatchCommand, BadPlayersAreRefused) {
  test::expect_refused(
      std::string(TANBO_BINARY) + " match --topology 'grid 7x7' --players mcts:playouts=x,random",
      "playouts=x");
}

TEST(StudyCommand, MergedShardsEqualTheWholeRun) {
  const auto dir = std::filesystem::temp_directory_path() / "tanbo_study_test";
  std::filesystem::create_directories(dir);
  const std::string list = (dir / "list.txt").string();
  { std::ofstream(list) << "# boards\nline 11\ngrid 5x5   # small\nhex 3 | default\n"; }
  const std::string base = std::string(TANBO_BINARY) + " study --topologies " + list +
                           " --players greedy,random --games 5 --seed 4 --csv";
  const auto whole = test::run_command(base);
  ASSERT_EQ(whole.status, 0) << whole.err;
  std::string files;
  for (int i = 1; i <= 2; ++i) {
    const std::string f = (dir / ("s" + std::to_string(i) + ".csv")).string();
    ASSERT_EQ(test::run_command(base + " --shard " + std::to_string(i) + "/2 > " + f).status, 0);
    files += " " + f;
  }
  const auto merged = test::run_command(std::string(TANBO_BINARY) + " study --csv --merge" + files);
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(merged.out, whole.out);
  test::expect_refused(base + " --shard 3/2", "--shard 3/2");
  std::filesystem::remove_all(dir);
}
