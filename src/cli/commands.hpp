// The `tanbo` program: one subcommand per front end. Each subcommand lives in its own file
// (cmd_*.cpp) and is listed in the table in commands.cpp.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace tanbo::cli {

// Entry point of the program.
int run(int argc, char** argv);

// Remembers `error` (an errno value) as the cause of a failed write to standard output, for the
// message run() prints at the end ("could not write all of the output: CAUSE"); the first cause
// noted is kept. Call it right after the write that failed, before errno can change.
void note_output_failure(int error);

// A subcommand receives its own arguments (after the subcommand name) and the streams.
// It returns the process exit code, or throws tanbo::Error to refuse: run_subcommand turns that
// into one line on `err` and the command's `refused` status.
using CommandFn = int (*)(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                          std::ostream& err);

struct Command {
  const char* name;     // e.g. "gtp"
  const char* summary;  // one line for `tanbo --help`
  CommandFn fn;
  // The exit status of a refusal (a tanbo::Error): 1 for a refused move or game file (move,
  // show, undo, resign, export, import), 2 where what is refused is the options, the board or
  // the setup (docs/cli.md).
  int refused;
};

// Every subcommand, in the order `tanbo --help` lists them.
const std::vector<Command>& commands();

// The subcommand called `name`, or nullptr.
const Command* find_command(std::string_view name);

// The one place where errors become messages and exit codes: runs `c`; a tanbo::Error is
// "tanbo NAME: MESSAGE" on `err` and c.refused, running out of memory and any other exception
// are a line on `err` and 1. Nothing escapes.
int run_subcommand(const Command& c, const std::vector<std::string>& args, std::istream& in,
                   std::ostream& out, std::ostream& err);

int cmd_gtp(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_bench(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_play(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_new(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_move(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_show(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_undo(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_resign(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_export(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_import(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_match(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_study(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_view(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_solve(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_check_proof(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_analyze(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
int cmd_serve(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&);
// Further subcommands declare themselves here, one line each, and add a line to the table in
// commands.cpp: play, new, move, show, undo, resign, export, match, study, view.

}  // namespace tanbo::cli
