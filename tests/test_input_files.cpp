// The input-reading layer (tanbo/platform/input_file.hpp) and every reader through it: a FIFO, a
// device and a folder are refused at once, a file over its kind's limit before anything is
// read (a sparse file of gigabytes as fast as a small one), text over the limit handed in as a
// string too; file names in messages are shown short and escaped.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tanbo/core/error.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/gzip_text.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/io/sgf.hpp"
#include "tanbo/platform/input_file.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/study/study.hpp"
#include "test_support.hpp"

using namespace tanbo;
namespace fs = std::filesystem;

namespace {

class InputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(testing::TempDir()) / ("tanbo_input_files_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string load_error(const std::string& file) {
    return test::refusal_of([&] { load_game(file); });
  }

  fs::path dir_;
};

}  // namespace

TEST_F(InputFiles, AFifoIsRefusedAtOnceByEveryReader) {
  const std::string fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Without the layer each of these waits for a writer that never comes (the test would hang).
  const std::string why =
      "fifo: is not a regular file (a FIFO); only regular files are read or written";
  EXPECT_NE(load_error(fifo).find(why), std::string::npos) << load_error(fifo);
  EXPECT_NE(test::refusal_of([&] { read_text_file(fifo); }).find(why), std::string::npos);
  EXPECT_NE(test::refusal_of([&] {
              update_file(fifo, [](const std::string&) { return std::nullopt; });
            }).find(why),
            std::string::npos);
  EXPECT_NE(test::refusal_of([&] {
              parse_topology("file " + fifo);
            }).find("is not a regular file (a FIFO)"),
            std::string::npos);
}

TEST_F(InputFiles, DevicesAndFoldersAreRefusedWithWhatTheyAre) {
  EXPECT_EQ(load_error("/dev/zero"),
            "/dev/zero: is not a regular file (a character device); only regular files are read or "
            "written");
  EXPECT_EQ(load_error(dir_.string()), dir_.string() + ": is a directory, not a file");
  EXPECT_EQ(
      test::refusal_of([&] { update_file("/dev/zero", [](const std::string&) { return ""; }); }),
      "/dev/zero: is not a regular file (a character device); only regular files are read or "
      "written");
}

TEST_F(InputFiles, AFileOverTheLimitIsRefusedBeforeItIsRead) {
  // A sparse file of 2 GB: read whole, it would take gigabytes and many seconds.
  const std::string sparse = path("sparse.tanbo");
  std::ofstream(sparse).put('(');
  ASSERT_EQ(::truncate(sparse.c_str(), std::int64_t{2} << 30), 0);
  EXPECT_EQ(load_error(sparse),
            sparse + ": has 2147483648 bytes, over the 64 MB limit for game files");
  EXPECT_NE(test::refusal_of([&] {
              update_file(sparse, [](const std::string&) { return ""; });
            }).find("over the 64 MB limit"),
            std::string::npos);
  const std::string dot = path("big.dot");
  std::ofstream(dot).put('g');
  ASSERT_EQ(::truncate(dot.c_str(), (std::int64_t{1} << 30) + 1), 0);
  EXPECT_NE(test::refusal_of([&] {
              parse_topology("file " + dot);
            }).find("has 1073741825 bytes, over the 1 GB limit for DOT files"),
            std::string::npos);
}

TEST_F(InputFiles, AFileThatGrowsPastTheLimitWhileReadIsRefused) {
  // Files under /proc say they hold 0 bytes and hold more, as a file does that grows after its
  // size was taken: the read stops one byte past the limit and refuses it.
  const std::string maps = read_input_file("/proc/self/maps", "maps", 1 << 20, "tests");
  ASSERT_GT(maps.size(), 200u);
  EXPECT_NE(test::refusal_of([] {
              read_input_file("/proc/self/maps", "maps", 100, "tests");
            }).find("maps: is over the "),
            std::string::npos);
  // A file of 10 bytes that grows to 210 after it was opened: read whole, its size is taken
  // again; read piece by piece, the piece that passes the limit is refused.
  const std::string grows = path("grows.txt");
  std::ofstream(grows) << std::string(10, 'a');
  InputFile whole(grows, "grows.txt", 100, "tests");
  InputFile pieces(grows, "grows.txt", 100, "tests");
  std::ofstream(grows, std::ios::app) << std::string(200, 'b');
  EXPECT_NE(test::refusal_of([&] { whole.read(); }).find("grows.txt: has 210 bytes, over the "),
            std::string::npos);
  char buffer[64];
  std::uint64_t got = 0;
  const std::string why = test::refusal_of([&] {
    while (const std::size_t n = pieces.read_some(buffer, sizeof buffer)) got += n;
  });
  EXPECT_NE(why.find("grows.txt: is over the "), std::string::npos) << why;
  EXPECT_EQ(got, 64u);  // the first piece; the second passed 100 bytes
}

TEST_F(InputFiles, GzipTextThatInflatesPastTheLimitIsRefused) {
  // 100,000 bytes of text in a gzip file of a few hundred: with a limit of 10,000 bytes the
  // file passes and its text is refused at the limit; with a larger one it is read whole.
  const std::string gz = path("bomb.txt.gz");
  write_text_file_atomic(gz, [](const FileSink& sink) { sink(std::string(100000, 'a')); });
  ASSERT_LT(fs::file_size(gz), 10000u);
  auto read_all = [&](std::uint64_t limit) {
    TextInput in(gz, "bomb.txt.gz", limit, "tests");
    std::uint64_t n = 0;
    while (in.rdbuf()->sbumpc() != std::char_traits<char>::eof()) ++n;
    return n;
  };
  EXPECT_NE(test::refusal_of([&] { read_all(10000); }).find("bomb.txt.gz: its text is over the "),
            std::string::npos);
  EXPECT_EQ(read_all(200000), 100000u);
}

TEST_F(InputFiles, TextOverTheLimitIsRefusedAsAFileWouldBe) {
  std::string text(kMaxGameFileBytes + 1, ' ');
  EXPECT_EQ(test::refusal_of([&] { read_game(text, "big.tanbo"); }),
            "big.tanbo: has 67108865 bytes, over the 64 MB limit for game files");
  text[0] = '(';
  EXPECT_EQ(test::refusal_of([&] { read_sgf(text, "big.sgf"); }),
            "big.sgf: has 67108865 bytes, over the 64 MB limit for SGF records");
  EXPECT_EQ(size_text(kMaxGameFileBytes), "64 MB");
  EXPECT_EQ(size_text(kMaxDotFileBytes), "1 GB");
  EXPECT_EQ(size_text(1000), "1000 bytes");
}

TEST_F(InputFiles, FileNamesInMessagesAreShortAndEscaped) {
  const std::string long_name = std::string(200000, 'a') + ".tanbo";
  const std::string m = load_error(long_name);
  EXPECT_LT(m.size(), 200u) << m.substr(0, 300);
  EXPECT_NE(m.find("(200006 bytes)"), std::string::npos) << m;
  // A NUL in a name would cut it where the system reads it: refused, shown escaped.
  const std::string nul("a.sgf\0.tanbo", 12);
  EXPECT_EQ(load_error(nul), "\"a.sgf\\0.tanbo\": a file name cannot hold a NUL byte");
  EXPECT_EQ(test::refusal_of([&] { write_file_atomic(nul, "x"); }),
            "\"a.sgf\\0.tanbo\": a file name cannot hold a NUL byte");
  EXPECT_FALSE(fs::exists("a.sgf"));
}

TEST_F(InputFiles, CheckWritableLeavesNothingBehind) {
  EXPECT_NE(
      test::refusal_of([&] { check_writable(path("no/such/x.png")); }).find("cannot write in"),
      std::string::npos);
  check_writable(path("x.png"));
  EXPECT_TRUE(fs::is_empty(dir_));
}

// Editors on Windows start UTF-8 files with a byte-order mark: every text reader passes over it.
// Text in UTF-16 or UTF-32 is refused with its encoding named, by the same readers.
TEST_F(InputFiles, AByteOrderMarkIsPassedOverAndUtf16IsNamed) {
  const std::string bom = "\xEF\xBB\xBF";
  const std::string game = "tanbo-game 1\ntopology grid 5x5\nsetup spaced\nmoves\n1 B1\n";
  const std::string sgf = "(;GM[1]FF[4]SZ[5];B[ba])";
  EXPECT_EQ(game_from_text(bom + game, "g").position.ply(), 1u);
  EXPECT_TRUE(is_sgf_text(bom + sgf));
  EXPECT_EQ(game_from_text(bom + sgf, "s").position.ply(), 1u);
  const std::string dot = "graph { a [stone=1]; b [stone=2]; a -- x -- b }";
  EXPECT_EQ(make_from_dot(bom + dot, "d", {})->num_vertices(), 3u);
  { std::ofstream(path("list.txt")) << bom << "grid 4x4\n"; }
  ASSERT_EQ(read_study_list(path("list.txt")).size(), 1u);
  EXPECT_EQ(read_study_list(path("list.txt"))[0].spec, "grid 4x4");

  const auto utf16le = [](const std::string& ascii) {
    std::string out;
    for (char c : ascii) out += std::string{c, '\0'};
    return out;
  };
  const std::string u16 = " the text is UTF-16, not UTF-8 (save it as UTF-8 and try again)";
  EXPECT_EQ(test::refusal_of([&] { game_from_text(utf16le(game), "g"); }), "g:" + u16);
  EXPECT_EQ(test::refusal_of([&] { game_from_text("\xFF\xFE" + utf16le(sgf), "s"); }), "s:" + u16);
  EXPECT_EQ(test::refusal_of([&] { game_from_text(std::string("\0(\0;", 4), "s"); }), "s:" + u16);
  EXPECT_EQ(test::refusal_of([&] { make_from_dot("\xFE\xFF" + dot, "d", {}); }),
            "DOT board d:" + u16);
  EXPECT_EQ(test::refusal_of([&] { game_from_text(std::string("\xFF\xFE\0\0t\0\0\0", 8), "g"); }),
            "g: the text is UTF-32, not UTF-8 (save it as UTF-8 and try again)");
}
