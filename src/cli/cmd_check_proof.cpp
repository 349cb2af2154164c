// tanbo check-proof: verifies a proof certificate (docs/solved.md, "Proofs").
#include <iomanip>
#include <iostream>
#include <new>

#include "commands.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/gzip_text.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo::cli {

int cmd_check_proof(const std::vector<std::string>& args, std::istream&, std::ostream& out,
                    std::ostream& err) {
  std::string path;
  double progress = 5;
  bool low_memory = false;
  po::options_description desc("tanbo check-proof options");
  desc.add_options()("proof", po::value(&path), "the certificate to check")(
      "progress", po::value(&progress)->default_value(progress),
      "seconds between progress lines on stderr (0 = none)")(
      "low-memory", po::bool_switch(&low_memory),
      "remember no position where the loser is to move: a quarter to half less memory on large "
      "certificates, up to an eighth more time; such a position is counted as checked each "
      "time it is reached");
  po::positional_options_description positional;
  positional.add("proof", 1);
  po::variables_map vm;
  if (const auto stop = parse_args(
          args, desc, &positional, vm,
          "usage: tanbo check-proof FILE [--progress S] [--low-memory]\n"
          "Checks a certificate written by tanbo solve --proof: from the proven position,\n"
          "every line in which the winner plays the listed move and the other player any\n"
          "legal move must end with the winner's victory, reaching only listed positions\n"
          "where the winner is to move. The checker applies the rules on its own (no table,\n"
          "no symmetry, no search). Exit status 0: valid; 1: not a proof, with the position\n"
          "that breaks it; 2: not a certificate. FILE may be compressed with gzip.\n"
          "example: tanbo check-proof 5x5.proof",
          out, err))
    return *stop;
  if (path.empty()) throw Error("give the certificate to check: tanbo check-proof FILE");
  check_progress_seconds(progress);
  const auto report = [&err](const proof::CheckProgress& p) {
    err << "check: " << proof::progress_text(p) << "\n" << std::flush;
  };
  proof::CheckResult r;
  try {  // (status 1 says "not a proof": running out of memory must not say that)
    TextInput in(path, shown_name(path), proof::kMaxCheckedBytes, "proof certificates");
    r = proof::check(in, report, progress,
                     low_memory ? proof::CheckMemory::kLow : proof::CheckMemory::kAll);
  } catch (const std::bad_alloc&) {
    throw Error("out of memory while checking " + shown_name(path) +
                " (see --max-memory); nothing is known of the proof");
  }
  if (!r.valid) {
    out << "invalid: " << r.reason << "\n";
    return 1;
  }
  // A certificate of a position within a game proves the win from there only.
  out << "valid: " << player_name(r.winner) << " wins " << r.topology << " (setup " << r.setup
      << ")" << (r.moves.empty() ? "" : " after the moves " + r.moves) << "\n"
      << "positions: " << r.checked << " checked, " << r.winner_nodes << " with "
      << player_name(r.winner) << " to move, " << r.listed << " listed\n";
  return 0;
}

}  // namespace tanbo::cli
