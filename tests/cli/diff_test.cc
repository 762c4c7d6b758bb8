// `tcsim diff DIR1 DIR2` end to end: exit 0 identical, 1 different (incl. outputs on one side
// only), 2 bad input.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>

#include <unistd.h>

#include <fmt/format.h>

#include "tests/cli/cli_util.h"
#include "tools/spec/output_dir.h"

using tcsim::cli::test::has;
using tcsim::cli::test::run_tcsim;
using namespace tcsim::spec;

namespace {

OutputArray f32(const std::string& name, std::vector<uint32_t> bits) {
  OutputArray a{name, SpecDType::F32, {bits.size()}, {}};
  a.data.resize(bits.size() * 4);
  std::memcpy(a.data.data(), bits.data(), a.data.size());
  return a;
}

struct Dirs {
  std::filesystem::path root;
  Dirs() {
    root = std::filesystem::temp_directory_path() / ("tcsim_cli_diff_" + std::to_string(::getpid()));
    std::filesystem::remove_all(root);
  }
  ~Dirs() {
    std::error_code ec;
    std::filesystem::remove_all(root, ec);
  }
  std::string make(const std::string& name, const std::vector<OutputArray>& outs) const {
    const RunInfo info{name == "hw" ? "tcsim-hw" : "tcsim", "sm_90a", "k.json", "kernel_k", {}, {}, {}, {}, {}, {}};
    write_output_dir((root / name).string(), info, outs);
    return (root / name).string();
  }
};

}  // namespace

TEST_CASE("tcsim diff: exit codes and report") {
  Dirs d;
  const std::string a = d.make("sim", {f32("C", {0x3f800000, 0x40000000}), f32("D", {1})});
  const std::string b = d.make("hw", {f32("C", {0x3f800000, 0x40000000}), f32("D", {1})});
  auto r = run_tcsim(fmt::format("diff {} {}", a, b));
  CHECK(r.rc == 0);
  CHECK(has(r, "C: identical (2 elements)"));
  CHECK(has(r, "\nidentical\n"));

  const std::string c = d.make("hw2", {f32("C", {0x3f800000, 0x40000002}), f32("D", {1})});
  r = run_tcsim(fmt::format("diff {} {}", a, c));
  CHECK(r.rc == 1);
  CHECK(has(r, "C: 1 of 2 elements differ, max 2 ulp"));
  CHECK(has(r, fmt::format("[1]  {}: 2 (0x40000000)  {}: 2.0000005 (0x40000002)  2 ulp", a, c)));

  const std::string e = d.make("hw3", {f32("C", {0x3f800000, 0x40000000})});
  r = run_tcsim(fmt::format("diff {} {}", a, e));
  CHECK(r.rc == 1);
  CHECK(has(r, fmt::format("D: only in {}", a)));

  r = run_tcsim("diff " + a);
  CHECK(r.rc == 2);
  CHECK(has(r, "usage: tcsim diff DIR1 DIR2"));
  r = run_tcsim(fmt::format("diff {} {}", a, (d.root / "nowhere").string()));
  CHECK(r.rc == 2);
  CHECK(has(r, "nowhere: not a directory"));
  r = run_tcsim(fmt::format("diff {} {} --max-shown x", a, b));
  CHECK(r.rc == 2);
}
