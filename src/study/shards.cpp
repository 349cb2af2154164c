#include "tanbo/study/shards.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/study/csv.hpp"

namespace tanbo {

namespace {

const char* const kShardTag = "# tanbo study shard ";

class Fnv1a {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 0x100000001b3ull;
  }
  void number(std::uint64_t x) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(x >> (8 * i));
    bytes(b, 8);
  }
  void text(const std::string& s) {
    number(s.size());
    bytes(s.data(), s.size());
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

std::string hex64(std::uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// The rest of a header line after its "# KEY ", or a refusal naming the line.
std::string header_field(std::istream& in, const std::string& key, const std::string& origin,
                         int number) {
  std::string line;
  const std::string tag = "# " + key + " ";
  const bool read = static_cast<bool>(std::getline(in, line));
  drop_carriage_returns(line);
  if (!read || line.rfind(tag, 0) != 0) {
    throw Error(origin + ":" + std::to_string(number) + ": shard header: expected \"" + tag +
                "...\" (the header tanbo study --shard writes)");
  }
  return line.substr(tag.size());
}

// Why shard file `a` is not of run `ref`: the fields that differ.
std::string foreign_reasons(const ShardId& a, const ShardId& ref) {
  std::vector<std::string> why;
  if (a.run.seed != ref.run.seed) {
    why.push_back("other seed (" + std::to_string(a.run.seed) + ", not " +
                  std::to_string(ref.run.seed) + ")");
  }
  if (a.count != ref.count) {
    why.push_back("other shard count (/" + std::to_string(a.count) + ", not /" +
                  std::to_string(ref.count) + ")");
  }
  if (a.run.games != ref.run.games) {
    why.push_back("other options: games per board " + std::to_string(a.run.games) + ", not " +
                  std::to_string(ref.run.games));
  }
  if (a.run.players != ref.run.players) {
    why.push_back("other options: players " + quote_input(a.run.players) + ", not " +
                  quote_input(ref.run.players));
  }
  if (a.run.boards != ref.run.boards || a.run.fingerprint != ref.run.fingerprint) {
    why.push_back("other options: other boards (" + std::to_string(a.run.boards) +
                  " boards, fingerprint " + hex64(a.run.fingerprint) + ", not " +
                  std::to_string(ref.run.boards) + ", " + hex64(ref.run.fingerprint) + ")");
  }
  std::string out;
  for (const auto& w : why) out += (out.empty() ? "" : "; ") + w;
  return out;
}

bool same_run(const ShardId& a, const ShardId& b) {
  return a.run == b.run && a.count == b.count;
}

std::string row_name(const StudyTally& t) {
  return quote_input(t.topology + " | " + t.setup);
}

// Why the rows of shard file `f` are not those of `first`, an earlier file of its run ("" when
// they are): every shard of a run has a row per board of its list, in the list's order, so a
// row naming another board is an edited file, whose games the merge would count apart.
std::string other_rows(const StudyFile& f, const StudyFile* first) {
  if (!first) return "";
  for (std::size_t b = 0; b < f.tallies.size() && b < first->tallies.size(); ++b) {
    const StudyTally& mine = f.tallies[b];
    const StudyTally& theirs = first->tallies[b];
    if (mine.topology == theirs.topology && mine.setup == theirs.setup) continue;
    return f.name + ": board " + std::to_string(b + 1) + " is " + row_name(mine) + ", but " +
           first->name + " of the same run has " + row_name(theirs) + " there (an edited file?)";
  }
  return "";
}

}  // namespace

std::uint64_t study_fingerprint(const std::vector<std::string>& specs,
                                const std::vector<std::string>& setups,
                                const std::vector<Position>& starts) {
  Fnv1a h;
  h.number(starts.size());
  for (std::size_t b = 0; b < starts.size(); ++b) {
    h.text(b < specs.size() ? specs[b] : std::string());
    h.text(b < setups.size() ? setups[b] : std::string());
    const Position& pos = starts[b];
    const Graph& g = pos.graph();
    h.number(static_cast<std::uint64_t>(pos.num_players()));
    h.number(g.num_vertices());
    for (const auto off : g.offsets()) h.number(off);
    for (const auto v : g.targets()) h.number(v);
    for (Vertex v = 0; v < g.num_vertices(); ++v) h.number(static_cast<std::uint64_t>(pos.at(v)));
  }
  return h.value();
}

std::uint64_t shard_games(std::uint64_t board, std::uint64_t games, std::uint64_t index,
                          std::uint64_t count) {
  // Global indices board*games .. board*games+games-1; count those equal to index-1 mod count.
  const std::uint64_t first = board * games, r = index - 1;
  auto upto = [&](std::uint64_t end) {  // indices x < end with x % count == r
    return end / count + (end % count > r ? 1 : 0);
  };
  return upto(first + games) - upto(first);
}

std::string study_title(const StudyRun& run) {
  return "tanbo study: " + run.players + ", " + std::to_string(run.games) + " games per board";
}

std::string shard_header(const ShardId& s) {
  return std::string(kShardTag) + std::to_string(s.index) + "/" + std::to_string(s.count) +
         "\n# seed " + std::to_string(s.run.seed) + "\n# games " + std::to_string(s.run.games) +
         "\n# boards " + std::to_string(s.run.boards) + " " + hex64(s.run.fingerprint) +
         "\n# players " + s.run.players + "\n";
}

std::optional<ShardId> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const auto i = parse_whole(text.substr(0, slash)), n = parse_whole(text.substr(slash + 1));
  if (!i || !n || *n == 0 || *i == 0 || *i > *n) return std::nullopt;
  ShardId s;
  s.index = *i;
  s.count = *n;
  return s;
}

std::optional<ShardId> parse_shard_header(const std::string& text, const std::string& origin) {
  if (text.rfind(kShardTag, 0) != 0) return std::nullopt;
  std::istringstream in(text);
  ShardId s;
  auto bad = [&](int number, const std::string& what, const std::string& value) {
    return Error(origin + ":" + std::to_string(number) + ": shard header: " + what + " " +
                 quote_input(value) + " is not valid");
  };
  const std::string index = header_field(in, "tanbo study shard", origin, 1);
  const auto shard = parse_shard(index);
  if (!shard) throw bad(1, "shard", index);
  s.index = shard->index;
  s.count = shard->count;
  const std::string seed = header_field(in, "seed", origin, 2);
  const auto seed_value = parse_whole(seed);
  if (!seed_value) throw bad(2, "seed", seed);
  s.run.seed = *seed_value;
  const std::string games = header_field(in, "games", origin, 3);
  const auto games_value = parse_whole(games);
  if (!games_value || *games_value == 0) throw bad(3, "games", games);
  s.run.games = *games_value;
  const std::string boards = header_field(in, "boards", origin, 4);
  const auto space = boards.find(' ');
  const auto board_count = parse_whole(boards.substr(0, space));
  const std::string hash = space == std::string::npos ? "" : boards.substr(space + 1);
  if (!board_count || *board_count == 0 || hash.size() != 16 ||
      hash.find_first_not_of("0123456789abcdef") != std::string::npos) {
    throw bad(4, "boards", boards);
  }
  s.run.boards = *board_count;
  s.run.fingerprint = std::stoull(hash, nullptr, 16);
  s.run.players = header_field(in, "players", origin, 5);
  if (s.run.players.empty()) throw bad(5, "players", s.run.players);
  return s;
}

StudyFile read_study_file(const std::string& text, const std::string& name) {
  StudyFile f;
  f.name = name;
  f.shard = parse_shard_header(text, name);
  f.tallies = parse_study_csv(text, name);
  if (!f.shard) return f;
  const ShardId& s = *f.shard;
  const std::string which = "shard " + std::to_string(s.index) + "/" + std::to_string(s.count);
  if (f.tallies.size() != s.run.boards) {
    const std::size_t rows = f.tallies.size();
    throw Error(name + ": " + std::to_string(rows) + (rows == 1 ? " board" : " boards") +
                ", but its header says " + std::to_string(s.run.boards) +
                " (a cut or edited file?)");
  }
  for (std::size_t b = 0; b < f.tallies.size(); ++b) {
    const std::uint64_t want = shard_games(b, s.run.games, s.index, s.count);
    if (f.tallies[b].games != want) {
      const std::uint64_t have = f.tallies[b].games;
      throw Error(name + ": " + quote_input(f.tallies[b].topology) + " has " +
                  std::to_string(have) + (have == 1 ? " game" : " games") + ", but " + which +
                  " of " + std::to_string(s.run.games) + " games per board plays " +
                  std::to_string(want) + " (a cut or edited file?)");
    }
  }
  return f;
}

MergeCheck check_merge(const std::vector<StudyFile>& files) {
  MergeCheck c;
  if (files.size() == 1 && !files[0].shard) return c;
  // The run most files share; the first file's on a tie.
  std::size_t best = files.size(), best_n = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!files[i].shard) continue;
    std::size_t n = 0;
    for (const auto& f : files) n += f.shard && same_run(*f.shard, *files[i].shard);
    if (n > best_n) {
      best = i;
      best_n = n;
    }
  }
  if (best < files.size()) c.run = files[best].shard;
  std::map<std::uint64_t, std::string> seen;  // shard index -> file
  const StudyFile* first_of_run = nullptr;    // the first file of the run accepted
  for (const auto& f : files) {
    if (!f.shard) {
      c.refusals.push_back(f.name +
                           ": no shard header (a whole study's CSV, or a shard written before "
                           "shard headers); such a CSV is merged only alone");
    } else if (!same_run(*f.shard, *c.run)) {
      c.refusals.push_back(f.name + ": shard " + std::to_string(f.shard->index) + "/" +
                           std::to_string(f.shard->count) +
                           " of another run: " + foreign_reasons(*f.shard, *c.run));
    } else if (const auto it = seen.find(f.shard->index); it != seen.end()) {
      c.refusals.push_back(f.name + ": duplicate of shard " + std::to_string(f.shard->index) + "/" +
                           std::to_string(f.shard->count) + " (already given as " + it->second +
                           ")");
    } else if (const std::string why = other_rows(f, first_of_run); !why.empty()) {
      c.refusals.push_back(why);
    } else {
      seen.emplace(f.shard->index, f.name);
      if (!first_of_run) first_of_run = &f;
    }
  }
  if (c.run) {
    // The gaps between the shards given, counted, not listed one by one: a header's shard
    // count may be anything up to 10^19.
    std::uint64_t next = 1;
    const auto gap = [&](std::uint64_t end) {  // the shards from `next` up to before `end`
      if (end <= next) return;
      c.missing_count += end - next;
      for (std::uint64_t i = next; i < end && c.missing.size() < 12; ++i) c.missing.push_back(i);
    };
    for (const auto& [index, name] : seen) {
      c.present.push_back(index);
      gap(index);
      next = index + 1;
    }
    gap(c.run->count + 1);  // (a count has at most 19 digits: no overflow)
  }
  return c;
}

std::string missing_shards_text(const std::vector<std::uint64_t>& missing, std::uint64_t count,
                                std::uint64_t total) {
  if (total < missing.size()) total = missing.size();
  const std::size_t shown = total > 12 ? std::min<std::size_t>(10, missing.size()) : missing.size();
  std::string out = "missing shards ";
  for (std::size_t i = 0; i < shown; ++i) {
    out += (i ? ", " : "") + std::to_string(missing[i]) + "/" + std::to_string(count);
  }
  if (shown < total) out += " and " + std::to_string(total - shown) + " more";
  return out;
}

std::string run_text(const ShardId& s) {
  return "shards of " + std::to_string(s.count) + ", seed " + std::to_string(s.run.seed) + ", " +
         std::to_string(s.run.games) + " games per board, players " + s.run.players + ", " +
         std::to_string(s.run.boards) + " boards";
}

std::vector<StudyTally> merge_study_files(const std::vector<StudyFile>& files) {
  std::vector<StudyTally> out;
  for (const auto& f : files) merge_tallies(out, f.tallies);
  return out;
}

}  // namespace tanbo
