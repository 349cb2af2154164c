#include "commands.hpp"

int main(int argc, char** argv) {
  return tanbo::cli::run(argc, argv);
}
