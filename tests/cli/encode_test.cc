// `tcsim encode ...` end to end: prints 0x + hex; refuses an illegal combination with the rule and
// its PTX section (exit code 2, one stderr line); encode -> decode --json gives the fields back.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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
  char path[] = "/tmp/tcsim_encode_test_XXXXXX";
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

std::string encode(const std::string& args) {
  CAPTURE(args);
  Run r = tcsim("encode " + args);
  CAPTURE(r.err);
  REQUIRE(r.rc == 0);
  CHECK(r.err.empty());
  return r.out;
}

void refused(const std::string& args, const std::string& text) {
  CAPTURE(args);
  Run r = tcsim("encode " + args);
  CAPTURE(r.err);
  CHECK(r.rc == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find(text) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("encode smem-desc: hand-worked values (docs/smem_layouts.md §7 S1-S4, wgmma form)") {
  CHECK(encode("smem-desc --arch sm_100a --addr 0x400 --lbo 16 --sbo 1024 --layout 128b") == "0x4000404000010040\n");
  CHECK(encode("smem-desc --arch sm_100a --addr 0x8000 --lbo 1024 --sbo 4096 --layout 128b") == "0x4000410000400800\n");
  CHECK(encode("smem-desc --arch sm_100a --addr 4096 --lbo 256 --sbo 128 --layout none") == "0x0000400800100100\n");
  CHECK(encode("smem-desc --arch sm_100a --addr 4096 --lbo 16 --sbo 256 --layout 32b") == "0xc000401000010100\n");
  CHECK(encode("smem-desc --arch sm_100a --addr 0x4000 --lbo 2048 --sbo 512 --layout 128b_base32b") ==
        "0x2000402000800400\n");
  CHECK(encode("smem-desc --arch sm_100a --addr 0x180 --lbo 16 --sbo 1024 --layout 128b --base-offset 3") ==
        "0x4006404000010018\n");
  CHECK(encode("smem-desc --arch sm_103a --addr 0x1000 --lbo 0x1080 --sbo 1024 --layout 128b --lbo-mode 1") ==
        "0x4010404001080100\n");
  CHECK(encode("smem-desc --arch sm_90a --addr 0x400 --lbo 16 --sbo 1024 --layout 128b") == "0x4000004000010040\n");
  CHECK(encode("smem-desc --arch sm_90a --addr 0x2400 --lbo 512 --sbo 1024 --layout 64b") == "0x8000004000200240\n");
}

TEST_CASE("encode smem-desc: refusals") {
  refused("smem-desc --addr 0x401 --lbo 16 --sbo 1024 --layout 128b", "not 16-byte aligned");
  refused("smem-desc --addr 0x40000 --lbo 16 --sbo 1024 --layout 128b", "does not fit the 14-bit field");
  refused("smem-desc --addr 0x400 --lbo 16 --sbo 1024 --layout 128b --lbo-mode 1",
          "LBO mode 1 (absolute leading-dimension address, bit 52) is supported only on sm_103a");
  refused("smem-desc --arch sm_103a --addr 0x400 --lbo 16 --sbo 1024 --layout 64b --lbo-mode 1", "§9.7.16.3.1.2.1");
  refused("smem-desc --arch sm_90a --addr 0x400 --lbo 16 --sbo 1024 --layout 128b_base32b", "does not exist on sm_90a");
  refused("smem-desc --arch sm_90a --addr 0x400 --lbo 16 --sbo 1024 --layout none --base-offset 2", "no swizzle");
  refused("smem-desc --addr 0x400 --lbo 16 --sbo 1024 --layout 96b", "unknown layout '96b'");
  refused("smem-desc --addr 0x400 --lbo 16 --sbo 1024", "missing required option --layout");
  refused("smem-desc --addr 0x400 --lbo 16 --sbo 1024 --layout 128b --base-offset 8", "out of range");
  refused("smem-desc --addr -16 --lbo 16 --sbo 1024 --layout 128b", "unexpected character '-'");
}

TEST_CASE("encode idesc: the worked examples of docs/smem_layouts.md §7 (E1-E10)") {
  CHECK(encode("idesc --kind f16 --atype bf16 --btype bf16 --dtype f32 --m 128 --n 256") == "0x08400490\n");
  CHECK(encode("idesc --kind f16 --atype f16 --btype f16 --dtype f16 --m 64 --n 8") == "0x04020000\n");
  CHECK(encode("idesc --kind tf32 --atype tf32 --btype tf32 --dtype f32 --m 128 --n 128 --b-major mn") == "0x08210910\n");
  CHECK(encode("idesc --kind f8f6f4 --atype e4m3 --btype e5m2 --dtype f32 --m 256 --n 256 --cta-group 2") ==
        "0x10400410\n");
  CHECK(encode("idesc --kind i8 --atype s8 --btype s8 --dtype s32 --m 128 --n 64 --saturate") == "0x081004a8\n");
  CHECK(encode("idesc --kind f16 --atype bf16 --btype bf16 --dtype f32 --m 128 --n 128 --sparse --sparse-selector 1") ==
        "0x08200495\n");
  CHECK(encode("idesc --kind mxf8f6f4 --atype e4m3 --btype e4m3 --dtype f32 --m 128 --n 256 --scale-type ue8m0 "
               "--sfa-id 0 --sfb-id 0") == "0x08c00000\n");
  CHECK(encode("idesc --kind mxf4nvf4 --atype e2m1 --btype e2m1 --dtype f32 --m 128 --n 128 --scale-type ue4m3") ==
        "0x08200480\n");
  CHECK(encode("idesc --kind mxf4 --atype e2m1 --btype e2m1 --dtype f32 --m 256 --n 256 --cta-group 2 --scale-type "
               "ue8m0 --sfa-id 2 --sfb-id 2") == "0x50c004a0\n");
  CHECK(encode("idesc --kind mxf8f6f4 --atype e2m1 --btype e4m3 --m 128 --n 64 --sfa-id 1 --sfb-id 3") == "0x289002b0\n");
  // More: .ws with max shift, negation and transposes, K = 96 on sm_103a.
  CHECK(encode("idesc --kind tf32 --atype tf32 --btype tf32 --dtype f32 --m 32 --n 64 --ws --max-shift 8") ==
        "0x42100910\n");
  CHECK(encode("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 64 --n 256 --negate-a --negate-b --a-major mn") ==
        "0x0440e010\n");
  CHECK(encode("idesc --kind mxf4nvf4 --atype e2m1 --btype e2m1 --m 256 --n 256 --cta-group 2 --k 96 --arch sm_103a "
               "--sfa-id 1 --sfb-id 3 --scale-vec block32") == "0xb0c004b0\n");
}

TEST_CASE("encode idesc then decode idesc --json gives the fields back") {
  std::string hex = encode("idesc --kind i8 --atype u8 --btype s8 --dtype s32 --m 64 --n 24");
  CHECK(hex == "0x04060420\n");
  hex.pop_back();
  Run r = tcsim("decode idesc " + hex + " --kind i8 --json");
  REQUIRE(r.rc == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["m"] == 64);
  CHECK(j["n"] == 24);
  CHECK(j["a_type"] == "u8");
  CHECK(j["b_type"] == "s8");
  CHECK(j["d_type"] == "s32");
  CHECK(j["violations"].empty());
}

TEST_CASE("encode idesc: an illegal combination is refused with the rule") {
  refused("idesc --kind i8 --atype s8 --btype s8 --dtype s32 --m 128 --n 64 --negate-a",
          "negate A is not supported for kind::i8 [PTX ISA §9.7.16.10.1 (Table 51)]");
  refused("idesc --kind f16 --atype bf16 --btype bf16 --dtype f16 --m 128 --n 64", "bf16 inputs accumulate to f32 only");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 256 --n 64", "legal M: 64, 128");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 8 --cta-group 2", "legal N: 16..256 step 16");
  refused("idesc --kind i8 --atype s8 --btype s8 --dtype s32 --m 128 --n 40", "Table 39");
  refused("idesc --kind tf32 --atype tf32 --btype tf32 --dtype f16 --m 128 --n 64", "not legal for kind::tf32");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 64 --saturate", "only for integer types");
  refused("idesc --kind mxf4 --atype e2m1 --btype e2m1 --m 128 --n 64 --a-major mn", "Table 51");
  refused("idesc --kind f8f6f4 --atype e2m1 --btype e4m3 --dtype f32 --m 128 --n 64 --a-major mn", "Table 54");
  refused("idesc --kind i8 --atype s8 --btype u8 --dtype s32 --m 128 --n 24 --b-major mn", "Table 52");
  refused("idesc --kind i8 --atype s8 --btype s8 --dtype s32 --m 128 --n 64 --sparse --sparse-selector 2",
          "sparsity selector must be 0 for kind::i8");
  refused("idesc --kind mxf8f6f4 --atype e4m3 --btype e4m3 --m 128 --n 64 --scale-type ue4m3", "must be UE8M0");
  refused("idesc --kind mxf4 --atype e2m1 --btype e2m1 --m 128 --n 64 --sfa-id 1", "SFA_ID 1 is not legal");
  refused("idesc --kind mxf4nvf4 --atype e2m1 --btype e2m1 --m 256 --n 256 --cta-group 2 --k 96",
          "K = 96 (bit 31) is not supported on sm_100a");
  refused("idesc --kind i8 --atype s8 --btype s8 --dtype s32 --m 128 --n 64 --arch sm_103a",
          "kind::i8 is not supported on sm_103a");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 64 --ws --cta-group 2", "9.7.16.10.9.3");
}

TEST_CASE("encode idesc: what cannot be encoded, and bad input") {
  refused("idesc --kind f16 --atype e4m3 --btype f16 --dtype f32 --m 128 --n 64", "has no code in kind::f16");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 60", "N = 60 cannot be encoded");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 136 --n 64", "M = 136 cannot be encoded");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 64 --max-shift 12", "max shift 12");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 64 --scale-type ue8m0",
          "apply to the block-scaled kinds");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 64 --sparse-selector 1", "needs --sparse");
  refused("idesc --kind f17 --atype f16 --btype f16 --dtype f32 --m 128 --n 64", "unknown kind 'f17'");
  refused("idesc --kind f16 --atype f15 --btype f16 --dtype f32 --m 128 --n 64", "unknown type 'f15'");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128", "missing required option --n");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 0x", "no digits");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 64 --cta-group 3", "out of range");
  refused("idesc --kind f16 --atype f16 --btype f16 --dtype f32 --m 128 --n 64 --a-major row", "must be k or mn");
  refused("widget", "unknown descriptor 'widget'");
}

TEST_CASE("encode taddr") {
  CHECK(encode("taddr --lane 32 --column 64") == "0x00200040\n");
  CHECK(encode("taddr --lane 127 --column 511") == "0x007f01ff\n");
  refused("taddr --lane 128 --column 0", "lane 128");
  refused("taddr --lane 0 --column 512", "column 512");
  refused("taddr --lane 70000 --column 0", "out of range");
}
