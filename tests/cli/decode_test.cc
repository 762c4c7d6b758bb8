// `tcsim decode ...` end to end: the binary is run with popen; the JSON keys and value spellings are
// the interface of issue 2 ("tools/tcsim -- the first commands"), exit code 2 on bad input.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

struct Run {
  int rc = -1;
  std::string out, err;
};

Run tcsim(const std::string& args) {
  char path[] = "/tmp/tcsim_decode_test_XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  std::string cmd = std::string(TCSIM_BIN_DIR) + "/tcsim " + args + " 2>" + path;
  Run r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  r.err = ss.str();
  unlink(path);
  return r;
}

nlohmann::json json_of(const Run& r) {
  REQUIRE(r.rc == 0);
  return nlohmann::json::parse(r.out);
}

void bad_input(const std::string& args, const std::string& text) {
  CAPTURE(args);
  Run r = tcsim(args);
  CHECK(r.rc == 2);
  CHECK(r.out.empty());
  CAPTURE(r.err);
  CHECK(r.err.find(text) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
}

}  // namespace

TEST_CASE("decode smem-desc --json: keys, bytes, layout names") {
  auto j = json_of(tcsim("decode smem-desc 0x4000404000010040 --json"));
  CHECK(j["start_address"] == 1024);
  CHECK(j["lbo"] == 16);
  CHECK(j["sbo"] == 1024);
  CHECK(j["version"] == 1);
  CHECK(j["base_offset"] == 0);
  CHECK(j["lbo_mode"] == 0);
  CHECK(j["layout"] == "128b");
  CHECK(j["violations"].is_array());
  CHECK(j["violations"].empty());
  // Each layout name.
  CHECK(json_of(tcsim("decode smem-desc 0x2000402000800400 --json"))["layout"] == "128b_base32b");
  CHECK(json_of(tcsim("decode smem-desc 0x8000402000010200 --json"))["layout"] == "64b");
  CHECK(json_of(tcsim("decode smem-desc 0xC000401000010100 --json"))["layout"] == "32b");
  CHECK(json_of(tcsim("decode smem-desc 0x0000400800100100 --json"))["layout"] == "none");
  // sm_90 form: same tile, no version bit.
  auto w = json_of(tcsim("decode smem-desc 4000004000010040 --arch sm_90a --json"));
  CHECK(w["layout"] == "128b");
  CHECK(w["version"] == 0);
  CHECK(w["violations"].empty());
}

TEST_CASE("decode smem-desc: violations are listed with their section, exit code 0") {
  // The wgmma descriptor given to tcgen05: version bits 46-48 are 0.
  auto j = json_of(tcsim("decode smem-desc 0x4000004000010040 --json"));
  REQUIRE(j["violations"].size() == 1);
  CHECK(j["violations"][0].get<std::string>().find("0b001") != std::string::npos);
  CHECK(j["violations"][0].get<std::string>().find("§9.7.16.4.1") != std::string::npos);
  Run h = tcsim("decode smem-desc 0x6000404000010040");  // layout code 3
  CHECK(h.rc == 0);
  CHECK(h.out.find("layout         [63:61]  = 3") != std::string::npos);
  CHECK(h.out.find("swizzle mode code 3 (bits 61-63) is invalid") != std::string::npos);
  CHECK(h.out.find("violations (1):") != std::string::npos);
}

TEST_CASE("decode smem-desc: human output names every field with its bit range") {
  Run r = tcsim("decode smem-desc 0x4000404000010040");
  REQUIRE(r.rc == 0);
  for (const char* f : {"start_address  [13:0]", "lbo            [29:16]", "sbo            [45:32]", "version        [48:46]",
                        "base_offset    [51:49]", "lbo_mode       [52]", "fixed_zero     [60:53]", "layout         [63:61]"})
    CHECK(r.out.find(f) != std::string::npos);
  CHECK(r.out.find("violations: none") != std::string::npos);
}

TEST_CASE("decode idesc --json: keys and value spellings") {
  auto j = json_of(tcsim("decode idesc 0x08400490 --kind f16 --json"));  // E1
  CHECK(j["m"] == 128);
  CHECK(j["n"] == 256);
  CHECK(j["k"] == 16);
  CHECK(j["a_type"] == "bf16");
  CHECK(j["b_type"] == "bf16");
  CHECK(j["d_type"] == "f32");
  CHECK(j["a_major"] == "k");
  CHECK(j["b_major"] == "k");
  CHECK(j["negate_a"] == false);
  CHECK(j["negate_b"] == false);
  CHECK(j["saturate"] == false);
  CHECK(j["sparse"] == false);
  CHECK(j["sparse_selector"] == 0);
  CHECK(j["max_shift"] == 0);
  CHECK(j["scale_type"].is_null());
  CHECK(j["sfa_id"] == 0);
  CHECK(j["sfb_id"] == 0);
  CHECK(j["violations"].empty());

  auto t = json_of(tcsim("decode idesc 0x08210910 --kind tf32 --json"));  // E3: B N-major
  CHECK(t["b_major"] == "mn");
  CHECK(t["a_type"] == "tf32");
  auto i = json_of(tcsim("decode idesc 0x081004A8 --kind i8 --json"));  // E5
  CHECK(i["saturate"] == true);
  CHECK(i["d_type"] == "s32");
  CHECK(i["a_type"] == "s8");
  auto s = json_of(tcsim("decode idesc 0x08200495 --kind f16 --json"));  // E6
  CHECK(s["sparse"] == true);
  CHECK(s["sparse_selector"] == 1);
  CHECK(s["k"] == 32);
  auto e9 = json_of(tcsim("decode idesc 0x50C004A0 --kind mxf4 --cta-group 2 --json"));
  CHECK(e9["m"] == 256);
  CHECK(e9["k"] == 64);
  CHECK(e9["a_type"] == "e2m1");
  CHECK(e9["scale_type"] == "ue8m0");
  CHECK(e9["sfa_id"] == 2);
  CHECK(e9["sfb_id"] == 2);
  CHECK(e9["violations"].empty());
  auto e8 = json_of(tcsim("decode idesc 0x08200480 --kind mxf4nvf4 --json"));
  CHECK(e8["scale_type"] == "ue4m3");
  auto e10 = json_of(tcsim("decode idesc 0x289002B0 --kind mxf8f6f4 --json"));
  CHECK(e10["a_type"] == "e2m1");
  CHECK(e10["b_type"] == "e4m3");
  CHECK(e10["sfb_id"] == 3);
  auto ws = json_of(tcsim("decode idesc 0x42100910 --kind tf32 --ws --json"));
  CHECK(ws["max_shift"] == 8);
  CHECK(ws["m"] == 32);
  CHECK(ws["violations"].empty());
  auto e2m3 = json_of(tcsim("decode idesc 0x08021280 --kind f8f6f4 --json"));
  CHECK(e2m3["d_type"] == "f16");
  CHECK(e2m3["b_type"] == "e3m2");
  auto k96 = json_of(tcsim("decode idesc 0xB0C004B0 --kind mxf4nvf4 --cta-group 2 --arch sm_103a --json"));
  CHECK(k96["k"] == 96);
  CHECK(k96["violations"].empty());
}

TEST_CASE("decode idesc: cta_group defaults to 1 and changes the legal shapes") {
  // E4: f8f6f4 M=256 is legal only with cta_group::2.
  auto one = json_of(tcsim("decode idesc 0x10400410 --kind f8f6f4 --json"));
  CHECK(one["cta_group"] == 1);
  REQUIRE(one["violations"].size() == 1);
  CHECK(one["violations"][0].get<std::string>().find("M = 256") != std::string::npos);
  CHECK(one["violations"][0].get<std::string>().find("Table 39") != std::string::npos);
  CHECK(json_of(tcsim("decode idesc 0x10400410 --kind f8f6f4 --cta-group 2 --json"))["violations"].empty());
  // An undefined type code decodes to null with a violation.
  auto bad = json_of(tcsim("decode idesc 0x08400510 --kind f16 --json"));  // A code 2
  CHECK(bad["a_type"].is_null());
  CHECK(bad["violations"][0].get<std::string>().find("A type code 2") != std::string::npos);
}

TEST_CASE("decode idesc: human output") {
  Run r = tcsim("decode idesc 0x081004AB --kind i8");  // E5 (0x081004A8) with selector bits 0-1 = 3, dense
  REQUIRE(r.rc == 0);
  CHECK(r.out.find("sparse_selector  [1:0]    = 3") != std::string::npos);
  CHECK(r.out.find("m_dim            [28:24]  = 8") != std::string::npos);
  CHECK(r.out.find("shape          M = 128, N = 64, K = 32") != std::string::npos);
  Run v = tcsim("decode idesc 0x081024A8 --kind i8");  // E5 + negate A (bit 13, 0x2000)
  CHECK(v.rc == 0);
  CHECK(v.out.find("negate A is not supported for kind::i8 [PTX ISA §9.7.16.10.1 (Table 51)]") != std::string::npos);
}

TEST_CASE("decode taddr --json") {
  auto j = json_of(tcsim("decode taddr 0x00200040 --json"));
  CHECK(j["lane"] == 32);
  CHECK(j["column"] == 64);
  CHECK(j["violations"].empty());
  auto out = json_of(tcsim("decode taddr 0x00800200 --json"));
  CHECK(out["lane"] == 128);
  CHECK(out["column"] == 512);
  CHECK(out["violations"].size() == 2);
  Run h = tcsim("decode taddr 0x007F01FF");
  CHECK(h.rc == 0);
  CHECK(h.out.find("lane 127, column 511") != std::string::npos);
}

TEST_CASE("decode: bad input is one line on stderr and exit code 2") {
  bad_input("decode smem-desc 0xZZ", "not a hexadecimal value");
  bad_input("decode smem-desc hello", "not a hexadecimal value");
  bad_input("decode smem-desc 0x1FFFFFFFFFFFFFFFF", "out of range");
  bad_input("decode smem-desc", "expected exactly one smem-desc value");
  bad_input("decode smem-desc 0x10 --arch sm_80", "unknown arch 'sm_80'");
  bad_input("decode idesc 0x08400490", "needs --kind");
  bad_input("decode idesc 0x08400490 --kind f64", "unknown kind 'f64'");
  bad_input("decode idesc 0x108400490 --kind f16", "out of range");
  bad_input("decode idesc 0x08400490 --kind f16 --cta-group 3", "--cta-group must be 1 or 2");
  bad_input("decode idesc 0x08400490 --kind f16 --frobnicate", "unknown option '--frobnicate'");
  bad_input("decode taddr 0x100000000", "out of range");
  bad_input("decode taddr 12G", "unexpected character 'G'");
  bad_input("decode zmem 0x0", "unknown descriptor 'zmem'");
  bad_input("decode", "decode what?");
}
