// `tcsim layout` and `tcsim check-layout` end to end (interfaces outside checks rely on: options,
// output, exit codes 0 / 1 / 2). Expected addresses are the hand-worked values of
// tests/isa/layout_canonical_test.cc and docs/smem_layouts.md §7 S1.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

struct Result {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

Result tcsim(const std::string& args) {
  const std::string err_file = std::string(TCSIM_BIN_DIR) + "/layout_cli_test.stderr";
  const std::string cmd = std::string(TCSIM_BIN_DIR) + "/tcsim " + args + " 2>" + err_file;
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_file);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  return r;
}

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// docs/smem_layouts.md §7 S1: 128B-swizzled K-major bf16 tile at 0x400, SBO 1024 B.
const std::string kS1 = "0x4000404000010040";

}  // namespace

TEST_CASE("tcsim layout: the address table") {
  const Result r = tcsim("layout --desc " + kS1 + " --dtype bf16 --major k --mn 16 --k 16");
  REQUIRE(r.exit_code == 0);
  // Row 1 (phase 1): chunk 0 and 1 swap: k 0..7 at 0x490.., k 8..15 at 0x480...
  CHECK(has(r.out, "     1 | 0490 0492 0494 0496 0498 049a 049c 049e 0480 0482"));
  // (mn 9, k 13) = 0x88A (worked in layout_canonical_test.cc).
  CHECK(has(r.out, "     9 | 0890 0892 0894 0896 0898 089a 089c 089e 0880 0882 0884 0886 0888 088a"));
  CHECK(has(r.out, "SWIZZLE_128B"));
  CHECK(r.err.empty());
}

TEST_CASE("tcsim layout --arch sm_90a reads the wgmma encoding of the same tile") {
  // docs/smem_layouts.md §7 S1: the wgmma descriptor of the S1 tile is 0x4000004000010040 (128B = code 1 at
  // bits 62-63, no version bit 46): same addresses as the tcgen05 descriptor.
  const Result a = tcsim("layout --desc 0x4000004000010040 --arch sm_90a --dtype bf16 --major k "
                         "--mn 16 --k 64 --json");
  const Result b = tcsim("layout --desc " + kS1 + " --dtype bf16 --major k --mn 16 --k 64 --json");
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  CHECK(nlohmann::json::parse(a.out)["addresses"] == nlohmann::json::parse(b.out)["addresses"]);
  CHECK(nlohmann::json::parse(a.out)["descriptor"]["violations"].empty());
  const Result c = tcsim("check-layout --tma-swizzle 128b --box 64,64 --dtype bf16 --desc "
                         "0x4000004000010040 --arch sm_90a --major k");
  CHECK(c.exit_code == 0);
  CHECK(has(tcsim("help").out, "check-layout --tma-swizzle S --box A,B"));
}

TEST_CASE("tcsim layout --json") {
  const Result r = tcsim("layout --desc " + kS1 + " --dtype bf16 --major k --mn 16 --k 64 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["addresses"][9][13] == 0x88A);
  CHECK(j["addresses"].size() == 16);
  CHECK(j["addresses"][0].size() == 64);
  CHECK(j["descriptor"]["layout"] == "128b");
  CHECK(j["descriptor"]["sbo"] == 1024);
  CHECK(j["max_k"] == 64);
  CHECK(j["major"] == "k");
  CHECK_FALSE(j.contains("bit_offsets"));
  // fp4 (kind::f8f6f4 padding): (mn 2, k 37) -> byte 0x102 + 0x400, bit 4 (worked by hand).
  const Result f4 = tcsim("layout --desc " + kS1 + " --dtype e2m1 --major k --mn 8 --k 64 --json");
  REQUIRE(f4.exit_code == 0);
  const auto jf = nlohmann::json::parse(f4.out);
  CHECK(jf["addresses"][2][37] == 0x502);
  CHECK(jf["bit_offsets"][2][37] == 4);
  CHECK(jf["elements_per_16b"] == 16);
  // --kind mxf4: dense e2m1, 32 per 16 bytes.
  const Result mx =
      tcsim("layout --desc " + kS1 + " --dtype e2m1 --kind mxf4 --major k --mn 8 --k 64 --json");
  REQUIRE(mx.exit_code == 0);
  CHECK(nlohmann::json::parse(mx.out)["elements_per_16b"] == 32);
}

TEST_CASE("tcsim layout --svg writes a picture of the tile") {
  const std::string path = std::string(TCSIM_BIN_DIR) + "/layout_cli_test.svg";
  std::remove(path.c_str());
  const Result r =
      tcsim("layout --desc " + kS1 + " --dtype bf16 --major k --mn 16 --k 64 --svg " + path);
  REQUIRE(r.exit_code == 0);
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string svg = ss.str();
  CHECK(has(svg, "<svg"));
  CHECK(has(svg, "</svg>"));
  CHECK(has(svg, "m1 k8-15"));   // the swizzled chunk of row 1, labelled
  CHECK(has(svg, "0x00480"));    // line addresses
}

TEST_CASE("tcsim layout: bad input is one line and exit 2") {
  for (const std::string& args : std::vector<std::string>{
           "layout --desc 0xZZ --dtype bf16 --major k --mn 8 --k 8",
           "layout --desc " + kS1 + " --dtype bf17 --major k --mn 8 --k 8",
           "layout --desc " + kS1 + " --dtype bf16 --major x --mn 8 --k 8",
           "layout --desc " + kS1 + " --dtype bf16 --major k --mn 8",
           "layout --desc " + kS1 + " --dtype bf16 --major k --mn 0 --k 8",
           "layout --desc " + kS1 + " --dtype bf16 --major k --mn 8 --k 128",  // > one SW128 row
           "layout --desc " + kS1 + " --dtype e2m1 --major mn --mn 8 --k 8",   // fp4 MN-major
           "layout --desc " + kS1 + " --dtype bf16 --major k --mn 8 --k 8 --bogus",
           "layout --desc 0x6000404000010040 --dtype bf16 --major k --mn 8 --k 8",  // code 3
       }) {
    CAPTURE(args);
    const Result r = tcsim(args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  const Result r = tcsim("layout --desc " + kS1 + " --dtype bf16 --major k --mn 8 --k 128");
  CHECK(has(r.err, "K < 64"));
}

TEST_CASE("tcsim check-layout: consistent and the classic bugs") {
  // Consistent: exit 0.
  Result r = tcsim("check-layout --tma-swizzle 128b --box 64,128 --dtype bf16 --desc " + kS1 +
                   " --major k");
  CHECK(r.exit_code == 0);
  CHECK(has(r.out, "consistent"));
  // Descriptor without swizzle (layout field 0): exit 1, named cause, first mismatch by hand.
  r = tcsim("check-layout --tma-swizzle 128b --box 64,128 --dtype bf16 --desc "
            "0x0000404000010040 --major k");
  CHECK(r.exit_code == 1);
  CHECK(has(r.out, "descriptor layout SWIZZLE_NONE, tile written with 128B swizzle: use "
                   "SWIZZLE_128B"));
  CHECK(has(r.out, "(mn 1, k 0) -> (mn 0, k 8) at 0x410"));
  CHECK(has(r.out, "0x4000404000010040"));  // the corrected descriptor
  // SBO 512 B (field 32).
  r = tcsim("check-layout --tma-swizzle 128b --box 64,128 --dtype bf16 --desc "
            "0x4000402000010040 --major k");
  CHECK(r.exit_code == 1);
  CHECK(has(r.out, "SBO 512 B but the tile's groups of 8 MN rows repeat every 1024 B"));
  // base_offset 3 at 0x580 (start field 0x58).
  r = tcsim("check-layout --tma-swizzle 128b --box 64,128 --dtype bf16 --desc "
            "0x4006404000010058 --major k");
  CHECK(r.exit_code == 1);
  CHECK(has(r.out, "base_offset 3 but TMA writes with the absolute address pattern"));
  // JSON.
  r = tcsim("check-layout --tma-swizzle 128b --box 64,128 --dtype bf16 --desc "
            "0x4000402000010040 --major k --json");
  CHECK(r.exit_code == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["consistent"] == false);
  CHECK(j["mismatches"] == 120 * 64);
  CHECK(j["first_mismatches"][0]["expected"]["mn"] == 8);
  CHECK(j["first_mismatches"][0]["read"]["mn"] == 4);
  CHECK(j["suggested_desc"] == "0x4000404000010040");
}

TEST_CASE("tcsim check-layout: bad input is exit 2") {
  for (const std::string& args : std::vector<std::string>{
           "check-layout --tma-swizzle 256b --box 64,128 --dtype bf16 --desc " + kS1 +
               " --major k",
           "check-layout --tma-swizzle 128b --box 64 --dtype bf16 --desc " + kS1 + " --major k",
           "check-layout --tma-swizzle 128b --box 64,0 --dtype bf16 --desc " + kS1 + " --major k",
           "check-layout --tma-swizzle 128b --box 128,8 --dtype bf16 --desc " + kS1 +
               " --major k",  // 256-byte rows > 128B span
           "check-layout --tma-swizzle 128b --box 64,128 --dtype bf16 --major k",
       }) {
    CAPTURE(args);
    const Result r = tcsim(args);
    CHECK(r.exit_code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}
