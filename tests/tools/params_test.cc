// Kernel-name resolution and the parameter buffer (tools/spec/params.h).
#include <doctest/doctest.h>

#include <cstring>

#include "tools/spec/launch_spec.h"
#include "tools/spec/params.h"
#include "tools/spec/spec_error.h"

using namespace tcsim::spec;

namespace {

LaunchSpec spec_with_kernel(const std::string& k) {
  LaunchSpec s;
  s.path = "s.json";
  s.ptx = "k.ptx";
  s.kernel = k;
  return s;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const SpecError& e) {
    return e.what();
  }
  return "(no error)";
}

const LaunchSpec kArgsSpec = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1],
  "buffers": {"A": {"dtype": "f32", "shape": [64]}, "Q": {"dtype": "u8", "shape": [256]}},
  "tensor_maps": {"tm": {"buffer": "Q", "global_dims": [256], "box_dims": [16]}},
  "args": [{"u32": 7}, {"buffer": "A", "offset_bytes": 16}, {"tensor_map": "tm"}, {"u8": 255}, {"f64": 2.0}]})",
                                         "s.json");

// The .param list nvcc emits for  k(unsigned, float*, const __grid_constant__ CUtensorMap, char, double):
//   .param .u32 k_param_0, .param .u64 k_param_1, .param .align 64 .b8 k_param_2[128],
//   .param .u8 k_param_3, .param .f64 k_param_4
const std::vector<ParamInfo> kParams = {{"k_param_0", 4, 4}, {"k_param_1", 8, 8}, {"k_param_2", 128, 64},
                                        {"k_param_3", 1, 1}, {"k_param_4", 8, 8}};

}  // namespace

TEST_CASE("params: kernel names — exact, unique substring, ambiguous, missing") {
  const std::vector<std::string> entries = {"_Z4gemmPfS_", "_Z9gemm_bf16PKvPf", "_Z6reducePf"};
  CHECK(resolve_kernel(spec_with_kernel("_Z4gemmPfS_"), entries) == "_Z4gemmPfS_");
  CHECK(resolve_kernel(spec_with_kernel("reduce"), entries) == "_Z6reducePf");
  CHECK(resolve_kernel(spec_with_kernel("gemm_bf16"), entries) == "_Z9gemm_bf16PKvPf");
  // "gemm" is in two names: ambiguous, with both listed.
  CHECK(error_of([&] { resolve_kernel(spec_with_kernel("gemm"), entries); }) ==
        "s.json: kernel: \"gemm\" matches 2 entries in k.ptx: _Z4gemmPfS_, _Z9gemm_bf16PKvPf; give the full name");
  CHECK(error_of([&] { resolve_kernel(spec_with_kernel("scan"), entries); }) ==
        "s.json: kernel: no .entry named or containing \"scan\" in k.ptx (entries: _Z4gemmPfS_, _Z9gemm_bf16PKvPf, _Z6reducePf)");
  CHECK(error_of([&] { resolve_kernel(spec_with_kernel("k"), {}); }).find("the module has no .entry") != std::string::npos);
  // An exact match wins over containing matches.
  CHECK(resolve_kernel(spec_with_kernel("ab"), {"ab", "xaby"}) == "ab");
}

TEST_CASE("params: layout puts each parameter at its alignment") {
  const ParamLayout l = layout_params(kParams, "k");
  // 0: u32 [0,4); u64 at 8 [8,16); tensor map at 64 [64,192); u8 at 192; f64 at 200 -> 208.
  CHECK(l.offsets == std::vector<uint32_t>{0, 8, 64, 192, 200});
  CHECK(l.total == 208);
  const std::vector<ParamInfo> bad = {{"p", 4, 3}};
  CHECK(error_of([&] { layout_params(bad, "k"); }) == "kernel 'k' parameter 0 'p': alignment 3 is not a power of two");
  CHECK(layout_params(std::vector<ParamInfo>{}, "k").total == 0);
}

TEST_CASE("params: args must match the .entry parameters, count and sizes") {
  check_args(kArgsSpec, "k", kParams);
  std::vector<ParamInfo> fewer(kParams.begin(), kParams.end() - 1);
  CHECK(error_of([&] { check_args(kArgsSpec, "k", fewer); }) ==
        "s.json: args: kernel 'k' has 4 parameters (0 'k_param_0' (4 bytes), 1 'k_param_1' (8 bytes), "
        "2 'k_param_2' (128 bytes), 3 'k_param_3' (1 bytes)), but the spec gives 5 arguments");
  std::vector<ParamInfo> wrong = kParams;
  wrong[0].size = 8;  // a u64 parameter given a u32
  CHECK(error_of([&] { check_args(kArgsSpec, "k", wrong); }) ==
        "s.json: args[0]: kernel 'k' parameter 0 'k_param_0' is 8 bytes, but {\"u32\": 0x7} is 4 bytes "
        "(give a scalar of the parameter's size)");
  wrong = kParams;
  wrong[2] = {"k_param_2", 8, 8};  // a pointer where the spec passes a tensor map
  CHECK(error_of([&] { check_args(kArgsSpec, "k", wrong); }) ==
        "s.json: args[2]: kernel 'k' parameter 2 'k_param_2' is 8 bytes, but {\"tensor_map\": \"tm\"} is 128 bytes");
}

TEST_CASE("params: the parameter buffer holds each value at its offset") {
  ArgValues v;
  v.buffer_address = [](const ArgSpec& a) { return 0x7f0000000000ull + a.offset_bytes; };
  v.tensor_map_bytes = [](const ArgSpec&) {
    std::vector<std::byte> b(128);
    for (size_t i = 0; i < 128; ++i) b[i] = static_cast<std::byte>(i);
    return b;
  };
  const std::vector<std::byte> p = build_param_buffer(kArgsSpec, "k", kParams, v);
  REQUIRE(p.size() == 208);
  uint32_t u32;
  uint64_t ptr;
  double f;
  std::memcpy(&u32, p.data() + 0, 4);
  std::memcpy(&ptr, p.data() + 8, 8);
  std::memcpy(&f, p.data() + 200, 8);
  CHECK(u32 == 7);
  CHECK(ptr == 0x7f0000000010ull);  // offset_bytes 16 applied
  CHECK(static_cast<int>(p[64]) == 0);
  CHECK(static_cast<int>(p[64 + 127]) == 127);
  CHECK(static_cast<int>(p[192]) == 255);
  CHECK(f == 2.0);
  for (int i : {4, 5, 6, 7, 16, 63, 193, 199}) CHECK(static_cast<int>(p[i]) == 0);  // padding
}

TEST_CASE("params: a struct packs every field at its offset, the rest zero; alignment is checked") {
  const LaunchSpec s = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"A": {"dtype": "f32", "shape": [64]}, "Q": {"dtype": "u8", "shape": [256]}},
    "tensor_maps": {"tm": {"buffer": "Q", "global_dims": [256], "box_dims": [16]}},
    "args": [{"struct": {"size": 256, "fields": [
                {"offset": 0, "buffer": "A", "offset_bytes": 16},
                {"offset": 8, "struct": {"size": 8, "fields": [{"offset": 0, "u16": 7}, {"offset": 4, "f32": 1.0}]}},
                {"offset": 17, "bytes": "a1a2a3"},
                {"offset": 64, "tensor_map": "tm"},
                {"offset": 192, "i64": -2}]}},
             {"bytes": "01020304"}]})", "s.json");
  ArgValues v;
  v.buffer_address = [](const ArgSpec& a) { return 0x7f0000000000ull + a.offset_bytes; };
  v.tensor_map_bytes = [](const ArgSpec&) { return std::vector<std::byte>(128, std::byte{0xee}); };
  // CUTLASS-style: `.param .align 64 .b8 p[256]`, then a 4-byte struct of chars (`.align 1`).
  const std::vector<ParamInfo> params = {{"p0", 256, 64}, {"p1", 4, 1}};
  const std::vector<std::byte> p = build_param_buffer(s, "k", params, v);
  REQUIRE(p.size() == 260);
  std::vector<uint8_t> want(260, 0);
  const uint64_t addr = 0x7f0000000010ull;
  std::memcpy(want.data(), &addr, 8);
  want[8] = 7;
  const float one = 1.0f;
  std::memcpy(want.data() + 12, &one, 4);
  want[17] = 0xa1, want[18] = 0xa2, want[19] = 0xa3;
  std::memset(want.data() + 64, 0xee, 128);
  std::memset(want.data() + 192, 0xff, 8);
  want[192] = 0xfe;
  want[256] = 1, want[257] = 2, want[258] = 3, want[259] = 4;
  CHECK(std::memcmp(p.data(), want.data(), 260) == 0);
  // pack_arg alone (what a CUDA driver library calls per kernel parameter).
  const std::vector<std::byte> one_arg = pack_arg(s.args[0], v);
  CHECK(std::memcmp(one_arg.data(), want.data(), 256) == 0);

  // A parameter aligned less than its argument needs: a struct holding a tensor map given to a
  // `.param .align 8 .b8 p[256]` is not the kernel's type.
  const std::vector<ParamInfo> low = {{"p0", 256, 8}, {"p1", 4, 1}};
  CHECK(error_of([&] { check_args(s, "k", low); }) ==
        "s.json: args[0]: kernel 'k' parameter 0 'p0' (256 bytes) is aligned to 8 bytes, but {\"struct\": {\"size\": "
        "256, 5 fields}} needs 64-byte alignment (its field at offset 64 {\"tensor_map\": \"tm\"} is a tensor map "
        "(CUtensorMap is alignas(64))): the parameter is not the type the spec describes");
  // CUDA 13's cuda.h declares CUtensorMap alignas(128): nvcc then declares `.align 128`, which holds a
  // 64-aligned argument.
  const std::vector<ParamInfo> high = {{"p0", 256, 128}, {"p1", 4, 4}};
  check_args(s, "k", high);
}
