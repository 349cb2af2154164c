// Checkpoints of a long solve (see solver_checkpoint.hpp).
#include "tanbo/ai/solver_checkpoint.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <cstring>
#include <iomanip>
#include <map>
#include <sstream>
#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/core/players.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/platform/input_file.hpp"

#include "solver_table.hpp"  // (which slots a search writes: Entry::possible)

namespace tanbo {

namespace {

constexpr std::string_view kMagic = "tanbo solver checkpoint";
constexpr int kVersion = 2;
constexpr std::size_t kBlockWords = 8192;  // 64 KB: an empty block costs nothing in the file
constexpr std::size_t kBucketWords = 4;    // (Solver::table_words)
constexpr std::uint64_t kEndMark = ~std::uint64_t{0};
constexpr std::size_t kMaxHeader = 16384;
constexpr std::uint64_t kMaxFile = std::uint64_t{1} << 42;  // (the largest table is 1 TB)

using Clock = std::chrono::steady_clock;

std::string byte_order() {
  return std::endian::native == std::endian::little ? "little-endian" : "big-endian";
}

// A checksum of a stream of bytes, 64-bit words at a time (several GB/s).
class Checksum {
 public:
  void add(std::string_view bytes) {
    while (!bytes.empty() && fill_ > 0) take_byte(bytes);
    while (bytes.size() >= 8) {
      std::uint64_t w;
      std::memcpy(&w, bytes.data(), 8);
      mix(w);
      bytes.remove_prefix(8);
    }
    while (!bytes.empty()) take_byte(bytes);
  }
  std::uint64_t value() const {
    std::uint64_t h = h_ ^ (pending_ * 0x9E3779B97F4A7C15ull) ^ length_;
    h = (h ^ (h >> 33)) * 0xFF51AFD7ED558CCDull;
    return h ^ (h >> 29);
  }

 private:
  void take_byte(std::string_view& bytes) {
    pending_ |= std::uint64_t{static_cast<unsigned char>(bytes.front())} << (8 * fill_);
    bytes.remove_prefix(1);
    if (++fill_ == 8) {
      mix(pending_);
      pending_ = 0;
      fill_ = 0;
    }
  }
  void mix(std::uint64_t w) {
    h_ = std::rotl(h_ ^ (w * 0x87C37B91114253D5ull), 31) * 0x4CF5AD432745937Full;
    length_ += 8;
  }

  std::uint64_t h_ = 0x243F6A8885A308D3ull, pending_ = 0, length_ = 0;
  int fill_ = 0;
};

std::string_view bytes_of(const std::uint64_t* words, std::size_t n) {
  return {reinterpret_cast<const char*>(words), n * sizeof(std::uint64_t)};
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

std::string header_text(const CheckpointRun& run, std::size_t table_words, std::size_t block) {
  std::ostringstream os;
  os << kMagic << "\nversion: " << kVersion << "\nwords: " << byte_order() << "\n"
     << run.identity << "nodes: " << run.nodes << "\nseconds: " << std::fixed
     << std::setprecision(3) << run.seconds << "\nruns: " << run.runs
     << "\ntable: " << table_words * sizeof(std::uint64_t) << "\nblock: " << block << "\n\n";
  return os.str();
}

// A hash (64-bit FNV-1a) of the board's points and edges. A DOT board's spec is its file's
// name, which says nothing of the edges in it; nor do the positions' hashes (a key per point
// and colour). Without it a checkpoint of a board whose file was edited since (an edge more
// or less, the same points and seeds) would be read into a solve of the new board, whose
// search would then take the old board's proofs for its own.
std::string graph_hash(const Graph& g) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  const auto add = [&h](std::uint64_t x) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((x >> (8 * i)) & 0xFF)) * 0x100000001b3ull;
  };
  add(g.num_vertices());
  for (const auto o : g.offsets()) add(o);
  for (const auto v : g.targets()) add(v);
  std::ostringstream os;
  os << std::hex << std::setw(16) << std::setfill('0') << h;
  return os.str();
}

}  // namespace

std::string checkpoint_identity(const Position& pos, const SolverOptions& options) {
  std::ostringstream os;
  os << "board: " << one_line(pos.topology().spec) << "\n";
  if (pos.topology().kind == BoardKind::kFile) {
    os << "graph: " << graph_hash(pos.graph()) << " (" << pos.num_vertices() << " points)\n";
  }
  os << "setup: " << one_line(pos.setup().name) << "\nplayers: " << pos.num_players()
     << "\nposition: " << std::hex << std::setw(16) << std::setfill('0') << pos.hash() << std::dec
     << ", " << pos.ply() << " moves, " << player_name(pos.to_move())
     << " to move\nmethod: " << (options.method == SolveMethod::kProofNumber ? "pn" : "ab")
     << "\nsymmetry: " << (options.symmetry ? "on" : "off") << "\n";
  return os.str();
}

namespace {

// One block of the table as the file holds it: its index, then either the number of buckets in
// a block and the block's words, or the number of buckets in use and each one's place in the
// block and its four words (when that is shorter). Empty blocks are left out.
void encode_block(std::span<const std::uint64_t> words, std::uint64_t index,
                  std::vector<std::uint64_t>& out) {
  const std::size_t buckets = words.size() / kBucketWords;
  out.assign({index, 0});
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::uint64_t* w = &words[b * kBucketWords];
    if ((w[0] | w[1] | w[2] | w[3]) == 0) continue;
    out.push_back(b);
    out.insert(out.end(), w, w + kBucketWords);
  }
  const std::size_t used = (out.size() - 2) / (kBucketWords + 1);
  if (used == 0) {
    out.clear();
  } else if (out.size() - 2 >= words.size()) {
    out.resize(2);
    out.insert(out.end(), words.begin(), words.end());
    out[1] = buckets;
  } else {
    out[1] = used;
  }
}

}  // namespace

CheckpointStats write_checkpoint(const Solver& solver, const CheckpointRun& run,
                                 const CheckpointSink& sink) {
  const auto start = Clock::now();
  CheckpointStats stats;
  const std::size_t words = solver.table_words();
  const std::size_t block = std::min(kBlockWords, words);
  {
    Checksum sum;
    auto put = [&](std::string_view piece) {
      sum.add(piece);
      sink(piece);
      stats.bytes += piece.size();
    };
    put(header_text(run, words, block));
    std::vector<std::uint64_t> buf(block), out;
    for (std::size_t first = 0; first < words; first += block) {
      solver.read_table(first, buf);
      encode_block(buf, first / block, out);
      if (out.empty()) continue;
      put(bytes_of(out.data(), out.size()));
      ++stats.blocks;
    }
    const std::uint64_t end = kEndMark;
    put(bytes_of(&end, 1));
    const std::uint64_t check = sum.value();
    put(bytes_of(&check, 1));
  }
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

namespace {

// Reads a checkpoint: the header's fields, then the blocks, every byte into the checksum.
class Reader {
 public:
  explicit Reader(const std::string& path)
      : name_(shown_name(path)), file_(path, name_, kMaxFile, "checkpoints") {}

  [[noreturn]] void refuse(const std::string& why) const {
    throw Error(name_ + ": " + why + "; the file was not changed");
  }

  std::map<std::string, std::string> header() {
    std::string text;
    char c = 0;
    while (text.size() < kMaxHeader && !text.ends_with("\n\n") && raw(&c, 1)) text.push_back(c);
    sum_.add(text);
    if (!text.starts_with(std::string(kMagic) + "\n")) refuse("not a solver checkpoint");
    if (!text.ends_with("\n\n")) refuse("a damaged checkpoint (its header does not end)");
    std::map<std::string, std::string> fields;
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line) && !line.empty()) {
      const auto colon = line.find(": ");
      if (colon == std::string::npos) {
        refuse("a damaged checkpoint (header line " + quote_input(line) + ")");
      }
      if (!fields.emplace(line.substr(0, colon), line.substr(colon + 2)).second) {
        refuse("a damaged checkpoint (" + quote_input(line.substr(0, colon)) +
               " twice in its header)");
      }
    }
    return fields;
  }

  // The next `bytes` bytes, counted in the checksum.
  void exact(void* out, std::size_t bytes) {
    if (!raw(out, bytes)) {
      refuse(
          "truncated (it ends before its end mark: a write was cut short or the file copied "
          "in part)");
    }
    sum_.add({static_cast<const char*>(out), bytes});
  }
  std::uint64_t word() {
    std::uint64_t w = 0;
    exact(&w, sizeof w);
    return w;
  }
  // The checksum of what was read so far, then the one stored after it, then the end.
  void check_end() {
    const std::uint64_t expected = sum_.value();
    std::uint64_t stored = 0;
    if (!raw(&stored, sizeof stored)) refuse("truncated");
    if (stored != expected) refuse("damaged (its checksum does not match its contents)");
    char c = 0;
    if (raw(&c, 1)) refuse("damaged (bytes after its checksum)");
  }
  std::uint64_t size() const { return file_.size(); }

 private:
  // The next `bytes` bytes through a buffer of 1 MB; false when the file ends first.
  bool raw(void* out, std::size_t bytes) {
    auto* to = static_cast<char*>(out);
    while (bytes > 0) {
      if (at_ == held_) {
        held_ = file_.read_some(buffer_.data(), buffer_.size());
        at_ = 0;
        if (held_ == 0) return false;
      }
      const std::size_t n = std::min(bytes, held_ - at_);
      std::memcpy(to, buffer_.data() + at_, n);
      at_ += n, to += n, bytes -= n;
    }
    return true;
  }

  std::string name_;
  InputFile file_;
  Checksum sum_;
  std::vector<char> buffer_ = std::vector<char>(std::size_t{1} << 20);
  std::size_t at_ = 0, held_ = 0;
};

// Refuses slots no search writes (a slot is its tag XOR data, then its data): a checkpoint
// is its own checksum's only witness, and a forged one must not make the solver claim a win
// in 65,537 plies on 16 points, or play a move off the board.
void check_slots(Reader& r, std::span<const std::uint64_t> words, std::uint32_t points) {
  for (std::size_t i = 1; i < words.size(); i += 2) {
    if (!solver_detail::Entry::possible(words[i], points))
      r.refuse("damaged (an entry no search writes)");
  }
}

// Reads one block (encode_block's) into the solver's table.
void decode_block(Reader& r, Solver& solver, std::uint64_t index, std::size_t block,
                  std::size_t words, std::uint32_t points, std::vector<std::uint64_t>& buf) {
  const std::size_t buckets = block / kBucketWords;
  const std::uint64_t count = r.word();
  if (count == 0 || count > buckets)
    r.refuse("damaged (a block of " + std::to_string(count) + " buckets)");
  if (count == buckets) {
    buf.resize(block);
    r.exact(buf.data(), block * sizeof(std::uint64_t));
    check_slots(r, buf, points);
    solver.write_table(index * block, buf, words);
    return;
  }
  buf.resize(kBucketWords + 1);
  for (std::uint64_t i = 0, last = 0; i < count; ++i) {
    r.exact(buf.data(), buf.size() * sizeof(std::uint64_t));
    if (buf[0] >= buckets || (i > 0 && buf[0] <= last)) r.refuse("damaged (a bucket out of place)");
    check_slots(r, std::span(buf).subspan(1), points);
    solver.write_table(index * block + buf[0] * kBucketWords, std::span(buf).subspan(1), words);
    last = buf[0];
  }
}

// The header's number `key`, at most `max`: a checkpoint's figures are added to a run's and
// printed, so a number past what any run could reach is damage, not a figure.
std::uint64_t number(Reader& r, const std::map<std::string, std::string>& f, const std::string& key,
                     std::uint64_t max) {
  const auto it = f.find(key);
  std::uint64_t value = 0;
  const char* end = it == f.end() ? nullptr : it->second.data() + it->second.size();
  if (it == f.end() || it->second.empty()) {
    r.refuse("a damaged checkpoint (no '" + key + "' in its header)");
  }
  const auto [ptr, ec] = std::from_chars(it->second.data(), end, value);
  if (ptr != end || ec != std::errc() || value > max) {
    r.refuse("a damaged checkpoint ('" + key + "' is " + quote_input(it->second) + ")");
  }
  return value;
}

// The header's seconds: a number of 0 to 10^12 (a run of hours, not an age of the universe).
double seconds(Reader& r, const std::map<std::string, std::string>& f) {
  const auto it = f.find("seconds");
  if (it == f.end()) return 0;
  char* end = nullptr;
  const double s = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || end != it->second.c_str() + it->second.size() || !(s >= 0) ||
      s > 1e12) {
    r.refuse("a damaged checkpoint ('seconds' is " + quote_input(it->second) + ")");
  }
  return s;
}

// The header's run, checked against this program and this solve.
CheckpointRun read_run(Reader& r, const std::map<std::string, std::string>& f,
                       const std::string& identity) {
  const auto version = f.find("version");
  if (version == f.end() || version->second != std::to_string(kVersion)) {
    r.refuse("a checkpoint of format version " +
             (version == f.end() ? std::string("?") : shown_name(version->second)) +
             "; this tanbo reads version " + std::to_string(kVersion));
  }
  if (f.count("words") == 0 || f.at("words") != byte_order())
    r.refuse("written on a machine of another byte order; this one is " + byte_order());
  std::istringstream want(identity);
  for (std::string line; std::getline(want, line);) {
    const std::string key = line.substr(0, line.find(": "));
    const std::string value = line.substr(key.size() + 2);
    const auto it = f.find(key);
    if (it == f.end() || it->second != value) {
      r.refuse("a checkpoint of another solve (" + key + ": " +
               (it == f.end() ? std::string("none") : shown_name(it->second)) +
               "; this solve has " + value + ")");
    }
  }
  CheckpointRun run;
  run.identity = identity;
  constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 60;  // nodes: 36 years at 10^9 a second
  run.nodes = number(r, f, "nodes", kMaxCount);
  run.runs = static_cast<std::uint32_t>(number(r, f, "runs", ~0u));
  run.table_bytes = number(r, f, "table", kMaxFile);
  run.seconds = seconds(r, f);
  const std::uint64_t words = run.table_bytes / 8;
  if (run.table_bytes < 32 || !std::has_single_bit(run.table_bytes) ||
      number(r, f, "block", kMaxFile) != std::min<std::uint64_t>(kBlockWords, words))
    r.refuse("a damaged checkpoint (table " + quote_input(f.at("table")) + ")");
  return run;
}

}  // namespace

CheckpointRun load_checkpoint(const std::string& path, Solver& solver, const Position& pos,
                              const std::string& identity, CheckpointStats* stats) {
  const auto start = Clock::now();
  Reader r(path);
  const CheckpointRun run = read_run(r, r.header(), identity);
  solver.prepare(pos);
  solver.clear();
  const std::size_t words = run.table_bytes / 8;
  const std::size_t block = std::min(kBlockWords, words);
  std::vector<std::uint64_t> buf;
  std::uint64_t blocks = 0;
  try {
    for (std::uint64_t last = 0;; ++blocks) {
      const std::uint64_t index = r.word();
      if (index == kEndMark) break;
      if (index >= words / block || (blocks > 0 && index <= last))
        r.refuse("damaged (a block out of place)");
      decode_block(r, solver, index, block, words, pos.num_vertices(), buf);
      last = index;
    }
    r.check_end();
  } catch (...) {
    solver.clear();  // (half a table from a damaged file is not to be trusted)
    throw;
  }
  if (stats) {
    stats->bytes = r.size();
    stats->blocks = blocks;
    stats->seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return run;
}

}  // namespace tanbo
