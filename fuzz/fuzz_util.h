// Shared pieces of the libFuzzer harnesses (fuzz/README.md): a private scratch directory per
// process, and writing a file there. Each harness defines LLVMFuzzerTestOneInput; the same sources
// build the replay tests of tests/fuzz/ with tests/fuzz/replay_main.cc instead of libFuzzer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

namespace tcsim::fuzz {

// A directory only this process writes to (created once; removed by the OS's /tmp cleaning).
inline const std::string& scratch_dir() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/tcsim-fuzz-XXXXXX";
    const char* d = ::mkdtemp(tmpl);
    return std::string(d ? d : "/tmp");
  }();
  return dir;
}

inline std::string write_file(const std::string& name, std::string_view bytes) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace tcsim::fuzz
