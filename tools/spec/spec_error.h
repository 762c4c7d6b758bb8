// The one error type of the launch-spec library: what is wrong, where (the spec file and the JSON
// path inside it, e.g. `buffers.A.init.random.dist`), and what would be legal. Tools print
// what() as one line and exit 2.
#pragma once
#include <stdexcept>
#include <string>

namespace tcsim::spec {

struct SpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "FILE: PATH: MESSAGE" (PATH omitted when empty).
inline SpecError spec_error(const std::string& file, const std::string& json_path,
                            const std::string& message) {
  std::string m = file.empty() ? std::string() : file + ": ";
  if (!json_path.empty()) m += json_path + ": ";
  return SpecError(m + message);
}

}  // namespace tcsim::spec
