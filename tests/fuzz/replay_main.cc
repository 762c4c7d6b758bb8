// Replays fuzz inputs without libFuzzer: `fuzz_replay_TARGET DIR...` feeds every regular file under
// each DIR (recursively, in sorted order) to the target's LLVMFuzzerTestOneInput, as libFuzzer would
// one input at a time. A crash, sanitizer report or uncaught exception fails the CTest; so does a
// directory without inputs (a replay of nothing proves nothing). tests/fuzz/README.md.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (fs::is_regular_file(argv[i], ec)) {
      files.emplace_back(argv[i]);
      continue;
    }
    for (const auto& e : fs::recursive_directory_iterator(argv[i], ec))
      if (e.is_regular_file() && e.path().filename().string()[0] != '.' && e.path().extension() != ".md")
        files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "fuzz replay: no inputs found\n");
    return 1;
  }
  for (const fs::path& p : files) {
    std::ifstream f(p, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay %s (%zu bytes)\n", p.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::fprintf(stderr, "fuzz replay: %zu inputs, no crash\n", files.size());
  return 0;
}
