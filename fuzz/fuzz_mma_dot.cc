// Fuzz target: `tcsim mma-dot` inputs. The input is "OPTIONS\n---\nA\n---\nB\n---\nC" (missing
// sections are empty): the options line is split into arguments (with --a/--b/--c and the scale files
// pointing at the other sections, written to a scratch directory), and the command runs as
// `tcsim mma-dot` would. Bad options or vectors must give one error (an exception main() prints),
// never a crash or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
std::vector<Command>& stub_registry();
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (!std::freopen("/dev/null", "w", stdout)) return 0;  // the command prints its results
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = tcsim::fuzz::as_text(data, size);
  std::vector<std::string_view> sec;
  size_t pos = 0;
  while (sec.size() < 5) {
    const size_t e = text.find("\n---\n", pos);
    if (e == std::string_view::npos) {
      sec.push_back(text.substr(pos));
      break;
    }
    sec.push_back(text.substr(pos, e - pos));
    pos = e + 5;
  }
  sec.resize(5);
  const char* names[] = {"", "a.txt", "b.txt", "c.txt", "scale.txt"};
  std::vector<std::string> files(5);
  for (int i = 1; i < 5; ++i) files[i] = tcsim::fuzz::write_file(names[i], sec[i]);
  std::vector<std::string> owned;
  std::string_view opts = sec[0];
  size_t i = 0;
  while (i < opts.size() && owned.size() < 64) {
    while (i < opts.size() && (opts[i] == ' ' || opts[i] == '\t' || opts[i] == '\r')) ++i;
    const size_t j = i;
    while (i < opts.size() && opts[i] != ' ' && opts[i] != '\t' && opts[i] != '\r') ++i;
    if (i > j) owned.emplace_back(opts.substr(j, i - j));
  }
  for (const auto& [flag, k] : {std::pair{"--a", 1}, {"--b", 2}, {"--c", 3}, {"--scale-a", 4}, {"--scale-b", 4}}) {
    bool given = false;
    for (size_t n = 0; n + 1 < owned.size(); ++n)
      if (owned[n] == flag) {
        owned[n + 1] = files[k];
        given = true;
      }
    if (!given && k != 4) {
      owned.emplace_back(flag);
      owned.emplace_back(files[k]);
    }
  }
  std::vector<std::string_view> args(owned.begin(), owned.end());
  for (const auto& c : tcsim::cli::stub_registry()) {
    if (c.name != "mma-dot") continue;
    try {
      (void)c.run(tcsim::cli::Args(args));
    } catch (const std::exception&) {
    }
  }
  return 0;
}
