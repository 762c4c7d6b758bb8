// PTX front-end throughput: every kernels/**/*.ptx (what `tcsim check-ptx` and the fuzz harness
// fuzz/fuzz_ptx_front_end.cc run) parsed alone (isa/ptx/parser.h) and parsed + bound
// (sim::Device::load_ptx), as MB/s and microseconds per file, best of five passes. Also the cost
// of a Device of each architecture, which the harness builds per input. Prints; asserts nothing.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "bench/bench_util.h"
#include "isa/arch.h"
#include "isa/ptx/parser.h"
#include "sim/api.h"

using namespace tcsim;

namespace {

struct Input {
  std::string path, text;
  isa::Arch arch;
};

std::vector<Input> read_kernels() {
  namespace fs = std::filesystem;
  std::vector<Input> v;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(TCSIM_SOURCE_DIR) / "kernels")) {
    if (!e.is_regular_file() || e.path().extension() != ".ptx" || e.path().filename() == "malformed.ptx") continue;
    std::ifstream f(e.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    auto parsed = isa::ptx::parse(text, e.path().string());
    if (!parsed) continue;  // the deliberately broken inputs of kernels/bugs are not throughput
    const auto arch = isa::parse_arch(parsed->target);
    if (!arch) continue;
    v.push_back({e.path().string(), std::move(text), *arch});
  }
  std::sort(v.begin(), v.end(), [](const Input& a, const Input& b) { return a.path < b.path; });
  return v;
}

}  // namespace

int main() {
  std::printf("%s\n", bench::machine_context().c_str());
  const std::vector<Input> in = read_kernels();
  size_t bytes = 0;
  for (const Input& i : in) bytes += i.text.size();
  std::printf("inputs: %zu PTX files of kernels/, %.2f MB\n", in.size(), bytes / 1e6);
  double parse_s = 1e30, load_s = 1e30;
  for (int pass = 0; pass < 5; ++pass) {
    bench::Timer t;
    for (const Input& i : in) {
      auto m = isa::ptx::parse(i.text, i.path);
      bench::do_not_optimize(m);
    }
    parse_s = std::min(parse_s, t.seconds());
    bench::Timer t2;
    for (const Input& i : in) {
      sim::DeviceOptions o;
      o.host_threads = 1;
      sim::Device dev(i.arch, o);
      try {
        dev.load_ptx(i.text, i.path);
      } catch (const sim::SimError&) {
      }
    }
    load_s = std::min(load_s, t2.seconds());
  }
  std::printf("parse:           %7.1f MB/s  %8.1f us/file\n", bytes / parse_s / 1e6, parse_s / in.size() * 1e6);
  std::printf("Device+load_ptx: %7.1f MB/s  %8.1f us/file\n", bytes / load_s / 1e6, load_s / in.size() * 1e6);
  for (isa::Arch a : {isa::Arch::Sm90a, isa::Arch::Sm100a}) {
    sim::DeviceOptions o;
    o.host_threads = 1;
    bench::Timer t;
    for (int k = 0; k < 200; ++k) {
      sim::Device dev(a, o);
      bench::do_not_optimize(dev);
    }
    std::printf("Device(%s) alone: %8.1f us\n", isa::arch_name(a).data(), t.seconds() / 200 * 1e6);
  }
  return 0;
}
