// tcsim: dispatch to a registered sub-command; turn every error into one clear line and exit 2.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include <new>

#include <fmt/core.h>

#include "isa/printable.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {
std::vector<Command>& registry() {
  static std::vector<Command> r;  // function-local: safe from static-init order
  return r;
}

void print_usage(std::FILE* f) {
  fmt::print(f, "usage: tcsim <command> [args...]\n\ncommands:\n");
  auto cmds = registry();
  std::sort(cmds.begin(), cmds.end(), [](auto& a, auto& b) { return a.name < b.name; });
  for (const auto& c : cmds) fmt::print(f, "  {}\n", c.usage);
}
}  // namespace

bool register_command(const Command& c) {
  registry().push_back(c);
  return true;
}

void print_error(std::string_view command, std::string_view message) {
  fmt::print(stderr, "tcsim {}: error: {}\n", command, isa::bounded_message(message));
}
}  // namespace tcsim::cli

int main(int argc, char** argv) {
  using namespace tcsim::cli;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    print_usage(args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  for (const auto& c : registry()) {
    if (c.name != args[0]) continue;
    try {
      return c.run(Args(args).subspan(1));
    } catch (const std::bad_alloc&) {
      // Inputs are checked against host memory before anything large is allocated (tools/spec
      // host_memory.h); this is the net under that rule, never the library's "std::bad_alloc".
      print_error(c.name, "out of host memory: the input asks for more memory than this host can give "
                          "(reduce buffer sizes, the grid, or run on a larger host)");
      return 2;
    } catch (const std::exception& e) {
      print_error(c.name, e.what());
      return 2;
    }
  }
  fmt::print(stderr, "tcsim: error: unknown command '{}' (try 'tcsim help')\n", tcsim::isa::printable_token(args[0]));
  return 2;
}
