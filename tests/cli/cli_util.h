// Running the tcsim binary from CLI tests: output (stdout + stderr) and exit code.
#pragma once
#include <array>
#include <cstdio>
#include <string>

#include <sys/wait.h>

namespace tcsim::cli::test {

struct Result {
  std::string out;
  int rc = -1;
};

// `args` is appended to the tcsim path as shell text; quote paths with spaces.
inline Result run_tcsim(const std::string& args) {
  const std::string cmd = std::string(TCSIM_BIN_DIR "/tcsim ") + args + " 2>&1";
  Result r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline bool has(const Result& r, const std::string& s) { return r.out.find(s) != std::string::npos; }

}  // namespace tcsim::cli::test
