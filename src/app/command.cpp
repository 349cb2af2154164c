#include "tanbo/app/command.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <new>

#include "tanbo/core/error.hpp"

namespace tanbo::app {

int run_subcommand(const Command& c, const std::vector<std::string>& args, std::istream& in,
                   std::ostream& out, std::ostream& err) {
  try {
    return c.fn(args, in, out, err);
  } catch (const Error& e) {
    err << "tanbo " << c.name << ": " << e.what() << "\n";
    return c.refused;
  } catch (const std::bad_alloc&) {
    err << "tanbo " << c.name
        << ": out of memory (the board or the search needs more memory than this process may "
           "have; see --max-memory)\n";
  } catch (const std::exception& e) {
    err << "tanbo " << c.name << ": internal error: " << e.what() << "\n";
  }
  return 1;
}

namespace {

// The cause of the output's first failed write, when a command noted it (0: none noted).
std::atomic<int> first_output_error{0};

}  // namespace

int checked_output(std::string_view name, int code) {
  errno = 0;
  const bool failed_before = std::cout.fail();
  std::cout.flush();
  if (!std::cout.fail()) return code;
  // A write that failed before this flush left no errno here: its cause is known only if the
  // command noted it.
  const int error = failed_before ? first_output_error.load() : errno;
  std::cerr << "tanbo " << name << ": could not write all of the output"
            << (error != 0 ? std::string(": ") + std::strerror(error) : "") << "\n";
  return code == 0 ? 1 : code;
}

void note_output_failure(int error) {
  int none = 0;
  if (error != 0) first_output_error.compare_exchange_strong(none, error);
}

}  // namespace tanbo::app
