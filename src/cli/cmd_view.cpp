// tanbo view: runs the viewer's own program, tanbo-view, found next to this one (the viewer
// links VTK; the rest of tanbo starts faster and runs where VTK is not installed without it).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "commands.hpp"

namespace tanbo::cli {

int cmd_view(const std::vector<std::string>& args, std::istream&, std::ostream& out,
             std::ostream& err) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path viewer = self.parent_path() / "tanbo-view";
  if (ec || !fs::exists(viewer, ec)) {
    err << "tanbo view: this tanbo was built without the viewer (" << viewer.string()
        << " is missing: VTK 9 was not found or TANBO_VIEWER=OFF, or only the target tanbo was "
           "built); install libvtk9-dev and xvfb, and build with -DTANBO_VIEWER=ON (cmake "
           "--build BUILD --target tanbo-view)\n";
    return 2;
  }
  std::vector<std::string> words{"tanbo-view"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  out.flush();
  err.flush();
  std::cout.flush();
  std::cerr.flush();
  execv(viewer.c_str(), argv.data());
  err << "tanbo view: cannot start " << viewer.string() << ": " << std::strerror(errno) << "\n";
  return 2;
}

}  // namespace tanbo::cli
