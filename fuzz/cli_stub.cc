// The command registry of tools/tcsim/main.cc for harnesses that link one command file
// (fuzz_mma_dot): the same functions, with main() left to libFuzzer or the replay driver.
#include <string_view>
#include <vector>

#include "tools/tcsim/command.h"

namespace tcsim::cli {

std::vector<Command>& stub_registry() {
  static std::vector<Command> r;
  return r;
}

bool register_command(const Command& c) {
  stub_registry().push_back(c);
  return true;
}

void print_error(std::string_view, std::string_view) {}

}  // namespace tcsim::cli
