// Writes of game files and other files: atomic (a temporary file renamed over the old, so a
// failure or a kill leaves the old file whole), under a lock, keeping the file's mode, owner
// and format (SGF stays SGF), never over another program's move, and refusing what is not a
// plain file (a FIFO, a hard link).
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <functional>

#include "tanbo/core/error.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/io/sgf.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

namespace fs = std::filesystem;

class AtomicWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tanbo_atomic_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

TEST_F(AtomicWrite, WritesAndLeavesNoTemporaryFile) {
  const std::string path = (dir_ / "g.tanbo").string();
  write_file_atomic(path, "one\n");
  write_file_atomic(path, "two\n");
  EXPECT_EQ(read_text_file(path), "two\n");
  EXPECT_EQ(entries(), 1u);
}

// A write with a check of the written file: the check reads the whole file before it takes the
// target's name, and a check that throws leaves the target as it was and no file behind.
TEST_F(AtomicWrite, ACheckOfTheWrittenFileDecidesWhetherItReplacesTheTarget) {
  const std::string path = (dir_ / "proof.txt").string();
  write_file_atomic(path, "old\n");
  const auto produce = [](const FileSink& sink) {
    sink("new ");
    sink("text\n");
  };
  std::string seen;
  write_file_atomic(path, produce, [&](const std::string& written) {
    EXPECT_NE(written, path);
    seen = read_text_file(written);
  });
  EXPECT_EQ(seen, "new text\n");
  EXPECT_EQ(read_text_file(path), "new text\n");
  write_file_atomic(path, "old\n");
  EXPECT_THROW(
      write_file_atomic(path, produce, [](const std::string&) { throw Error("not a proof"); }),
      Error);
  EXPECT_EQ(read_text_file(path), "old\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicWrite, FailedWriteLeavesOldFileIntact) {
  const std::string path = (dir_ / "g.tanbo").string();
  const Game g = test::random_game("grid 9x9", 11);
  save_game(g, path);
  const std::string old = read_text_file(path);
  // In a child process limited to 64-byte files, the write of a whole game fails (EFBIG).
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // SIGXFSZ keeps its default action (death): the write must not raise it.
    rlimit lim{64, 64};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    try {
      write_file_atomic(path, std::string(10000, 'x'));
    } catch (const Error& e) {
      _exit(std::string(e.what()).find("the file was not changed") != std::string::npos ? 0 : 3);
    }
    _exit(4);  // the write should have failed
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(read_text_file(path), old);
  EXPECT_EQ(entries(), 1u);  // the temporary file is gone
  EXPECT_EQ(write_game(load_game(path)), write_game(g));
}

TEST_F(AtomicWrite, UnwritablePlaceRefused) {
  EXPECT_THROW(write_file_atomic((dir_ / "no" / "such" / "dir.tanbo").string(), "x"), Error);
  fs::create_directories(dir_ / "taken");
  EXPECT_THROW(write_file_atomic((dir_ / "taken").string(), "x"), Error);
  EXPECT_TRUE(fs::is_directory(dir_ / "taken"));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicWrite, UpdateGameFileChangesUnderTheLockOrNotAtAll) {
  const std::string path = (dir_ / "g.tanbo").string();
  Game g = test::random_game("grid 9x9", 5, 6);
  save_game(g, path);
  const std::string old = read_text_file(path);
  EXPECT_THROW(update_game_file(path, [](Game&) { throw Error("refused"); }), Error);
  EXPECT_EQ(read_text_file(path), old);
  const Game changed = update_game_file(path, [](Game& game) { game.position.undo(); });
  EXPECT_EQ(changed.position.ply(), 5u);
  EXPECT_EQ(load_game(path).position.ply(), 5u);
  EXPECT_EQ(entries(), 1u);
  // The players' notes are written again with the game.
  write_file_atomic(path, "# a note\n" + read_text_file(path) + "# after move 5\n");
  update_game_file(path, [](Game& game) { game.position.undo(); });
  const std::string now = read_text_file(path);
  EXPECT_NE(now.find("# a note\n"), std::string::npos) << now;
  EXPECT_NE(now.find("# after move 5\n"), std::string::npos) << now;
}

TEST_F(AtomicWrite, UpdateGameFileKeepsSgfAsSgf) {
  const std::string path = (dir_ / "g.sgf").string();
  create_game_file(test::random_game("grid 9x9", 6, 4), path, false);
  ASSERT_TRUE(is_sgf_text(read_text_file(path)));
  update_game_file(path, [](Game& game) { game.position.undo(); });
  EXPECT_TRUE(is_sgf_text(read_text_file(path)));
  EXPECT_EQ(load_game(path).position.ply(), 3u);
}

TEST_F(AtomicWrite, CreateRefusesAnExistingFile) {
  const std::string path = (dir_ / "g.tanbo").string();
  create_game_file(test::random_game("grid 9x9", 7, 2), path, false);
  const std::string first = read_text_file(path);
  EXPECT_THROW(create_game_file(test::random_game("grid 9x9", 8, 3), path, false), Error);
  EXPECT_EQ(read_text_file(path), first);
  create_game_file(test::random_game("grid 9x9", 8, 3), path, true);
  EXPECT_EQ(load_game(path).position.ply(), 3u);
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicWrite, SaveIfUnchangedNeverOverwritesAnotherProgramsMove) {
  const std::string path = (dir_ / "g.tanbo").string();
  Game mine = test::random_game("grid 9x9", 9, 4);
  save_game(mine, path);
  // The file's own formatting does not matter, only its game.
  std::string expected = write_game(mine);
  write_file_atomic(path, "# a comment of the player's\n" + expected);
  mine.position.undo();
  expected = save_game_if_unchanged(mine, path, expected);
  EXPECT_EQ(load_game(path).position.ply(), 3u);
  EXPECT_NE(read_text_file(path).find("# a comment of the player's\n"), std::string::npos);
  // Another program changes the game meanwhile: this one's save is refused.
  update_game_file(path, [](Game& game) { game.position.undo(); });
  const std::string theirs = read_text_file(path);
  mine.position.undo();
  mine.position.undo();
  EXPECT_THROW(save_game_if_unchanged(mine, path, expected), Error);
  EXPECT_EQ(read_text_file(path), theirs);
  // "" expected: the file must not exist yet.
  EXPECT_THROW(save_game_if_unchanged(mine, path, ""), Error);
  save_game_if_unchanged(mine, (dir_ / "new.tanbo").string(), "");
  EXPECT_EQ(load_game((dir_ / "new.tanbo").string()).position.ply(), 1u);
}

// A new file gets the permissions the umask gives every new file (it was 0644 whatever the
// umask: a private game became readable by all); a replaced file keeps its own.
TEST_F(AtomicWrite, NewFilesFollowTheUmaskAndReplacedFilesKeepTheirMode) {
  const auto mode = [](const fs::path& p) { return fs::status(p).permissions() & fs::perms::all; };
  const mode_t old_mask = ::umask(077);
  const fs::path created = dir_ / "created.tanbo", written = dir_ / "written.tanbo";
  create_file_exclusive(created.string(), "one\n");
  write_file_atomic(written.string(), "one\n");
  ::umask(old_mask);
  EXPECT_EQ(mode(created), fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(mode(written), fs::perms::owner_read | fs::perms::owner_write);
  fs::permissions(written, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_file_atomic(written.string(), "two\n");
  EXPECT_EQ(mode(written), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(entries(), 2u);
}

// A file replaced by root (an administrator's tanbo undo on a player's game) keeps its owner
// and group, and its set-group-id bit, which changing the owner would clear.
TEST_F(AtomicWrite, ReplacedFilesKeepTheirOwner) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root may give a file to another user";
  const std::string path = (dir_ / "theirs.tanbo").string();
  write_file_atomic(path, "one\n");
  ASSERT_EQ(::chown(path.c_str(), 12345, 23456), 0);
  ASSERT_EQ(::chmod(path.c_str(), 02640), 0);
  write_file_atomic(path, "two\n");
  update_file(path, [](const std::string&) { return std::optional<std::string>("three\n"); });
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 12345u);
  EXPECT_EQ(st.st_gid, 23456u);
  EXPECT_EQ(st.st_mode & 07777, 02640u);
  EXPECT_EQ(read_text_file(path), "three\n");
}

// The viewer saves after every click: an SGF file stays SGF, and its second save is not taken
// for another program's change (the record keeps the date only, not the time of day).
TEST_F(AtomicWrite, SaveIfUnchangedKeepsSgfAsSgf) {
  const std::string path = (dir_ / "g.sgf").string();
  Game g = test::random_game("grid 9x9", 9, 2);
  std::string expected = save_game_if_unchanged(g, path, "");
  ASSERT_TRUE(is_sgf_text(read_text_file(path)));
  for (int i = 0; i < 2; ++i) {
    g.position.undo();
    expected = save_game_if_unchanged(g, path, expected);
    EXPECT_TRUE(is_sgf_text(read_text_file(path)));
    EXPECT_EQ(load_game(path).position.ply(), g.position.ply());
  }
  // The game as first read (write_game's text of an SGF file's game) is no change either.
  save_game(test::random_game("grid 9x9", 9, 3), path);
  ASSERT_TRUE(is_sgf_text(read_text_file(path)));
  Game again = load_game(path);
  expected = write_game(again);
  again.position.undo();
  save_game_if_unchanged(again, path, expected);
  EXPECT_TRUE(is_sgf_text(read_text_file(path)));
  EXPECT_EQ(load_game(path).position.ply(), 2u);
}

// tanbo move on an SGF record of another program: its variations and comments would be dropped
// without a word by writing the game again. The file is left as it was.
TEST_F(AtomicWrite, AnSgfRecordIsNotChangedWhenWritingItAgainWouldDropSomething) {
  const std::string path = (dir_ / "g.sgf").string();
  const std::string start = "(;GM[1]FF[4]SZ[9]AB[bh][hb]AW[hh][bb];B[ch]";
  const auto refused = [&](const std::string& text, const std::string& why) {
    write_file_atomic(path, text);
    try {
      update_game_file(path, [](Game& game) { game.position.undo(); });
      ADD_FAILURE() << "changed: " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("the file was not changed"), std::string::npos);
    }
    EXPECT_EQ(read_text_file(path), text);
    Game g = load_game(path);
    const std::string expected = write_game(g);
    g.position.undo();
    EXPECT_THROW(save_game_if_unchanged(g, path, expected), Error) << text;
    EXPECT_EQ(read_text_file(path), text);
  };
  refused(start + "(;W[hg];B[ci])(;W[gh]))", "1 variation besides its main line");
  refused(start + "C[a good move];W[hg])", "C[a good move] in node 2");
  refused("(;GM[1]FF[4]SZ[9]KM[6.5]AB[bh][hb]AW[hh][bb];B[ch])", "KM[6.5] in node 1");
  refused("(;GM[1]FF[4]SZ[9]C[my notes]AB[bh][hb]AW[hh][bb];B[ch])", "C[my notes] in node 1");
  // What this program writes is written again whole.
  write_file_atomic(path, write_sgf(test::random_game("grid 9x9", 6, 4)));
  update_game_file(path, [](Game& game) { game.position.undo(); });
  EXPECT_EQ(load_game(path).position.ply(), 3u);
  EXPECT_EQ(entries(), 1u);
}

// A FIFO or a device in the place of the file is refused without being opened (opening one may
// act on it: a FIFO's waiting writer goes on, a tape rewinds), as the input layer refuses it.
TEST_F(AtomicWrite, AFifoInThePlaceOfTheFileIsRefusedUnopened) {
  const fs::path fifo = dir_ / "g.tanbo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const int watch = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  ASSERT_GE(watch, 0);
  ASSERT_GE(::inotify_add_watch(watch, fifo.c_str(), IN_OPEN), 0);
  for (const auto& write : std::vector<std::function<void()>>{
           [&] { write_file_atomic(fifo.string(), "x\n"); },
           [&] { update_file(fifo.string(), [](const std::string&) { return "x\n"; }); },
           [&] { check_writable(fifo.string()); }}) {
    try {
      write();
      ADD_FAILURE() << "written";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("is not a regular file (a FIFO)"), std::string::npos)
          << e.what();
    }
  }
  char events[4096];
  EXPECT_LT(::read(watch, events, sizeof events), 0) << "the FIFO was opened";
  ::close(watch);
  EXPECT_EQ(entries(), 1u);
}

// TANBO_LOCK_TIMEOUT=60s (or -1) waited the default 10 s without a word; it is refused, and
// nothing is written.
TEST_F(AtomicWrite, ALockTimeoutThatIsNotANumberOfSecondsIsRefused) {
  const std::string path = (dir_ / "g.tanbo").string();
  write_file_atomic(path, "one\n");
  for (const char* value : {"60s", "-1", "1e9", ""}) {
    ::setenv("TANBO_LOCK_TIMEOUT", value, 1);
    try {
      write_file_atomic(path, "two\n");
      ADD_FAILURE() << "written with TANBO_LOCK_TIMEOUT=" << value;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("TANBO_LOCK_TIMEOUT=\"" + std::string(value) + "\"", 0),
                0u)
          << e.what();
    }
  }
  ::setenv("TANBO_LOCK_TIMEOUT", "0.5", 1);
  write_file_atomic(path, "three\n");
  ::unsetenv("TANBO_LOCK_TIMEOUT");
  EXPECT_EQ(read_text_file(path), "three\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicWrite, WritesThroughASymbolicLinkAndRefusesHardLinks) {
  const std::string path = (dir_ / "g.tanbo").string();
  write_file_atomic(path, "one\n");
  fs::create_symlink("g.tanbo", dir_ / "link");
  write_file_atomic((dir_ / "link").string(), "two\n");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_EQ(read_text_file(path), "two\n");
  fs::create_hard_link(path, dir_ / "hard");
  EXPECT_THROW(write_file_atomic(path, "three\n"), Error);
  EXPECT_EQ(read_text_file((dir_ / "hard").string()), "two\n");
}

}  // namespace
}  // namespace tanbo
