// Sub-command registry of the `tcsim` command line. A command file does
//   TCSIM_COMMAND(decode, "decode smem-desc|idesc|taddr HEX ...", run_decode);
// and main() dispatches on the first argument. Bad input: throw UsageError -> one line on
// stderr, exit code 2 (the convention every command follows).
#pragma once
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tcsim::cli {

using Args = std::span<const std::string_view>;
using CommandFn = int (*)(Args args);  // args exclude the command name; returns the exit code

struct Command {
  std::string_view name;
  std::string_view usage;
  CommandFn run;
};

bool register_command(const Command& c);

// "tcsim CMD: error: MESSAGE" on stderr, the message printable and bounded (isa/printable.h).
void print_error(std::string_view command, std::string_view message);

// Bad input (not hex, out of range, unknown option, unreadable file): exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tcsim::cli

#define TCSIM_COMMAND(ident, usage, fn) \
  [[maybe_unused]] static const bool tcsim_cmd_registered_##ident = \
      ::tcsim::cli::register_command({#ident, usage, fn})
