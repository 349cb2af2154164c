// What every command-line program of tanbo shares (the `tanbo` program's subcommands and
// `tanbo-view`): a command's signature, and the one place where errors become messages and exit
// codes.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace tanbo::app {

// Remembers `error` (an errno value) as the cause of a failed write to standard output, for the
// message checked_output prints at the end ("could not write all of the output: CAUSE"); the first
// cause noted is kept. Call it right after the write that failed, before errno can change.
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

// Flushes standard output and reports when it could not be written (a full disk, a file-size
// limit): the exit code becomes 1 where it was 0, so that a truncated output never passes for
// a whole one. `name` is the command for the message.
int checked_output(std::string_view name, int code);

// The one place where errors become messages and exit codes: runs `c`; a tanbo::Error is
// "tanbo NAME: MESSAGE" on `err` and c.refused, running out of memory and any other exception
// are a line on `err` and 1. Nothing escapes.
int run_subcommand(const Command& c, const std::vector<std::string>& args, std::istream& in,
                   std::ostream& out, std::ostream& err);

}  // namespace tanbo::app
