// `tcsim run` end to end: option parsing, every class of bad input (exit 2, one clear line), and
// — once the simulator core is part of the build — a real kernel against goldens computed with
// exact arithmetic (tests/cli/run_data/make_golden.py), including a mismatch (exit 1).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "tests/cli/cli_util.h"

using tcsim::cli::test::has;
using tcsim::cli::test::run_tcsim;

namespace {

const std::string kData = TCSIM_SOURCE_DIR "/tests/cli/run_data";

struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    dir = std::filesystem::temp_directory_path() / ("tcsim_cli_run_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

}  // namespace

TEST_CASE("tcsim run: usage errors exit 2 with one line") {
  auto r = run_tcsim("run");
  CHECK(r.rc == 2);
  CHECK(has(r, "usage: tcsim run SPEC.json [--out DIR, --golden DIR, --schedule default|random:SEED, --seed N, --schedule-sweep N, --max-steps N, --host-threads N, --max-seconds S, --strict, --trace FILE, --trace-events N, --timing-only, --clock-mhz MHZ, --steady-clock, --timing-profile FILE, --sarif FILE, --no-check]"));
  r = run_tcsim("run x.json --frobnicate 3");
  CHECK(r.rc == 2);
  CHECK(has(r, "unknown option '--frobnicate' (options: --out DIR, --golden DIR, --schedule default|random:SEED, --seed N, --schedule-sweep N, --max-steps N, --host-threads N, --max-seconds S, --strict, --trace FILE, --trace-events N, --timing-only, --clock-mhz MHZ, --steady-clock, --timing-profile FILE, --sarif FILE, --no-check)"));
  r = run_tcsim("run x.json --seed");
  CHECK(r.rc == 2);
  CHECK(has(r, "--seed needs a value (N)"));
  r = run_tcsim("run x.json --max-steps=lots");
  CHECK(r.rc == 2);
  CHECK(has(r, "--max-steps: 'lots' is not a non-negative integer"));
  r = run_tcsim("run a.json b.json");
  CHECK(r.rc == 2);
  CHECK(has(r, "more than one spec given"));
}

TEST_CASE("tcsim run: bad specs exit 2 naming the file and field") {
  Scratch s;
  auto r = run_tcsim("run " + (s.dir / "missing.json").string());
  CHECK(r.rc == 2);
  CHECK(has(r, "missing.json: cannot read the launch spec: it does not exist"));

  const std::string bad = s.write("bad.json", R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [32,1,1],
    "buffers": {"A": {"dtype": "bf17", "shape": [4]}}})");
  r = run_tcsim("run " + bad);
  CHECK(r.rc == 2);
  CHECK(has(r, "tcsim run: error: " + bad + ": buffers.A.dtype: \"bf17\" is not an element type"));

  const std::string noptx = s.write("noptx.json", R"({"ptx": "nothere.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1]})");
  r = run_tcsim("run " + noptx);
  CHECK(r.rc == 2);
  CHECK(has(r, "noptx.json: ptx: cannot read the PTX file \"nothere.ptx\""));

  s.write("k.ptx", ".version 8.7\n.target sm_75\n.address_size 64\n");
  const std::string arch = s.write("arch.json", R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1]})");
  r = run_tcsim("run " + arch);
  CHECK(r.rc == 2);
  CHECK(has(r, "architecture \"sm_75\" (from the PTX .target) is not one tcsim models (legal: sm_90a, sm_100a, sm_100f, sm_103a)"));

  // A tensor map the driver would refuse: 128B swizzle with a 256-byte inner box, and box 300 > 256.
  const std::string tm = s.write("tm.json", R"({"ptx": "k.ptx", "kernel": "k", "arch": "sm_90a", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"A": {"dtype": "bf16", "shape": [512, 128]}},
    "tensor_maps": {"tmA": {"buffer": "A", "global_dims": [128, 512], "global_strides_bytes": [256],
                            "box_dims": [128, 300], "swizzle": "128B"}}})");
  r = run_tcsim("run " + tm);
  CHECK(r.rc == 2);
  CHECK(has(r, "tm.json: tensor_maps.tmA: rejected (as cuTensorMapEncodeTiled would): boxDim[1] = 300"));
  CHECK(has(r, "CU_TENSOR_MAP_SWIZZLE_128B requires <= 128"));
  // A map larger than its buffer.
  const std::string big = s.write("big.json", R"({"ptx": "k.ptx", "kernel": "k", "arch": "sm_90a", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"A": {"dtype": "bf16", "shape": [64, 64]}},
    "tensor_maps": {"tmA": {"buffer": "A", "global_dims": [64, 128], "global_strides_bytes": [128], "box_dims": [64, 8]}}})");
  r = run_tcsim("run " + big);
  CHECK(r.rc == 2);
  CHECK(has(r, "tensor_maps.tmA: the tensor it describes ends 16384 bytes past the start of buffer \"A\", which has 8192 bytes"));

  r = run_tcsim("run " + kData + "/add_bias.json --golden " + (s.dir / "no_such_golden").string());
  CHECK(r.rc == 2);
  CHECK(has(r, "no_such_golden: not a directory"));
}

TEST_CASE("tcsim run: a real kernel against exact goldens") {
  Scratch s;
  auto r = run_tcsim("run " + kData + "/add_bias.json --out " + (s.dir / "out").string() + " --golden " + kData + "/golden");
  CHECK(r.rc == 0);
  CHECK(has(r, "y: identical (64 elements)"));
  CHECK(std::filesystem::exists(s.dir / "out/y.npy"));
  CHECK(std::filesystem::exists(s.dir / "out/manifest.json"));
  r = run_tcsim("diff " + (s.dir / "out").string() + " " + kData + "/golden");
  CHECK(r.rc == 0);

  r = run_tcsim("run " + kData + "/add_bias.json --golden " + kData + "/golden_off_by_one_ulp");
  CHECK(r.rc == 1);
  CHECK(has(r, "y: 1 of 64 elements differ, max 1 ulp"));
  CHECK(has(r, "[1, 2]  tcsim: 154 (0x431a0000)"));

  // Wrong argument count / sizes against the real .entry (3 params: u32, u64, u64).
  const std::string few = s.write("few.json", "{\"ptx\": \"" + kData + "/add_bias.ptx\", \"kernel\": \"add\", "
      "\"grid\": [1,1,1], \"block\": [1,1,1], \"buffers\": {\"x\": {\"dtype\": \"f32\", \"shape\": [4]}}, "
      "\"args\": [{\"u32\": 4}, {\"buffer\": \"x\"}]}");
  r = run_tcsim("run " + few);
  CHECK(r.rc == 2);
  CHECK(has(r, "args: kernel 'add_bias' has 3 parameters"));
  const std::string size = s.write("size.json", "{\"ptx\": \"" + kData + "/add_bias.ptx\", \"kernel\": \"add_bias\", "
      "\"grid\": [1,1,1], \"block\": [1,1,1], \"buffers\": {\"x\": {\"dtype\": \"f32\", \"shape\": [4]}}, "
      "\"args\": [{\"u64\": 4}, {\"buffer\": \"x\"}, {\"buffer\": \"x\"}]}");
  r = run_tcsim("run " + size);
  CHECK(r.rc == 2);
  CHECK(has(r, "args[0]: kernel 'add_bias' parameter 0 'add_bias_param_0' is 4 bytes, but {\"u64\": 0x4} is 8 bytes"));
  const std::string name = s.write("name.json", "{\"ptx\": \"" + kData + "/add_bias.ptx\", \"kernel\": \"mul\", "
      "\"grid\": [1,1,1], \"block\": [1,1,1]}");
  r = run_tcsim("run " + name);
  CHECK(r.rc == 2);
  CHECK(has(r, "kernel: no .entry named or containing \"mul\""));
  CHECK(has(r, "(entries: add_bias)"));
}
