// The `tanbo` program: one subcommand per front end. Each subcommand lives in its own file
// (cmd_*.cpp) and is listed in the table in commands.cpp.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "tanbo/app/command.hpp"
#include "tanbo/app/options.hpp"

namespace tanbo::cli {

// The program's subcommands are written with the front ends' shared parts: commands, options.
using namespace tanbo::app;

// Entry point of the program.
int run(int argc, char** argv);

// Every subcommand, in the order `tanbo --help` lists them.
const std::vector<Command>& commands();

// The subcommand called `name`, or nullptr.
const Command* find_command(std::string_view name);

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
