// Launch-spec parsing (tools/spec/launch_spec.h): the LAUNCH_SPEC.md example parses with the
// documented defaults; every malformed field gets its own error naming the file, the JSON path,
// what is wrong and what is legal.
#include <doctest/doctest.h>

#include <cstring>

#include "tests/tools/test_util.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/npy.h"
#include "tools/spec/spec_error.h"

using namespace tcsim::spec;

namespace {

// The example of LAUNCH_SPEC.md (shapes shrunk so a.npy is small).
const char* kExample = R"({
  "ptx": "gemm.ptx",
  "kernel": "gemm_bf16",
  "arch": "sm_100a",
  "grid": [8, 8, 1],
  "block": [192, 1, 1],
  "cluster": [1, 1, 1],
  "dynamic_smem_bytes": 98304,
  "buffers": {
    "A":   {"dtype": "bf16", "shape": [16, 8], "init": {"file": "a.npy"}},
    "B":   {"dtype": "bf16", "shape": [16, 8], "init": {"random": {"seed": 3, "dist": "uniform", "low": -2, "high": 2}}},
    "C":   {"dtype": "f32",  "shape": [16, 16], "init": {"fill": 0}},
    "cnt": {"dtype": "u32",  "shape": [1], "init": {"fill": 0}}
  },
  "tensor_maps": {
    "tmA": {"buffer": "A", "dtype": "bf16", "global_dims": [8, 16], "global_strides_bytes": [16],
            "box_dims": [8, 8], "element_strides": [1, 1], "interleave": "none",
            "swizzle": "128B", "l2_promotion": "none", "oob_fill": "none"}
  },
  "args": [{"tensor_map": "tmA"}, {"buffer": "C"}, {"u32": 1024}, {"f32": 1.0}, {"buffer": "cnt"}],
  "outputs": ["C", "cnt"]
})";

// A minimal valid spec to which each bad case adds or changes one thing.
const char* kMinimal = R"({"ptx": "k.ptx", "kernel": "k", "grid": [1, 1, 1], "block": [32, 1, 1],
  "buffers": {"A": {"dtype": "f32", "shape": [4], "init": {"fill": 0}},
              "B": {"dtype": "u8", "shape": [2, 2]}},
  "args": [{"buffer": "A"}], "outputs": ["A"]})";

std::string error_of(const std::string& text, const std::string& path = "dir/spec.json") {
  try {
    parse_spec(text, path);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "(no error)";
}

// kMinimal with `key` replaced by `value` (JSON text), at the top level.
std::string with(const std::string& key, const std::string& value) {
  std::string s = kMinimal;
  const std::string k = "\"" + key + "\": ";
  const size_t p = s.find(k);
  if (p == std::string::npos) return "{" + k + value + ", " + s.substr(1);
  // Replace the value: up to the matching close of a [ or {, or the next comma.
  size_t b = p + k.size(), e = b;
  if (s[b] == '[' || s[b] == '{') {
    int depth = 0;
    for (e = b; e < s.size(); ++e) {
      if (s[e] == '[' || s[e] == '{') ++depth;
      if (s[e] == ']' || s[e] == '}') {
        if (--depth == 0) { ++e; break; }
      }
    }
  } else {
    e = s.find_first_of(",}", b);
  }
  return s.substr(0, b) + value + s.substr(e);
}

}  // namespace

TEST_CASE("spec: the LAUNCH_SPEC.md example parses") {
  test::TempDir dir;
  std::vector<uint16_t> a(16 * 8, 0x3f80);
  write_npy(dir / "a.npy", "<u2", {16, 8}, a.data(), a.size() * 2);
  test::write_text(dir / "gemm.json", kExample);
  const LaunchSpec s = load_spec(dir / "gemm.json");
  CHECK(s.ptx_path == dir / "gemm.ptx");
  CHECK(s.kernel == "gemm_bf16");
  CHECK(s.arch == "sm_100a");
  CHECK(s.grid.x == 8);
  CHECK(s.grid.count() == 64);
  CHECK(s.block.x == 192);
  CHECK(s.cluster_given);
  CHECK(s.dynamic_smem_bytes == 98304);
  REQUIRE(s.buffers.size() == 4);
  CHECK(s.buffers[0].name == "A");  // file order, not alphabetical
  CHECK(s.buffers[3].name == "cnt");
  CHECK(s.buffers[0].init.kind == InitKind::File);
  CHECK(s.buffers[0].init.file_path == dir / "a.npy");
  CHECK(s.buffers[1].init.kind == InitKind::Random);
  CHECK(s.buffers[1].init.seed == 3);
  CHECK(s.buffers[1].init.low.as_double() == -2);
  CHECK(s.buffers[2].bytes() == 16 * 16 * 4);
  REQUIRE(s.tensor_maps.size() == 1);
  const TensorMapSpec& t = s.tensor_maps[0];
  CHECK(t.dtype == TmDataType::BFloat16);
  CHECK(t.global_dims == std::vector<uint64_t>{8, 16});
  CHECK(t.global_strides_bytes == std::vector<uint64_t>{16});
  CHECK(t.box_dims == std::vector<uint32_t>{8, 8});
  CHECK(t.swizzle == TmSwizzle::B128);
  REQUIRE(s.args.size() == 5);
  CHECK(s.args[0].kind == ArgKind::TensorMap);
  CHECK(s.args[0].size() == 128);
  CHECK(s.args[1].size() == 8);
  CHECK(s.args[2].scalar == SpecDType::U32);
  CHECK(s.args[2].scalar_bits == 1024);
  CHECK(s.args[3].scalar_bits == 0x3f800000);
  CHECK(s.outputs == std::vector<std::string>{"C", "cnt"});
}

TEST_CASE("spec: defaults") {
  const LaunchSpec s = parse_spec(kMinimal, "spec.json");
  CHECK(!s.arch);  // from the PTX .target later
  CHECK(s.cluster.count() == 1);
  CHECK(!s.cluster_given);
  CHECK(s.dynamic_smem_bytes == 0);
  CHECK(s.buffers[1].init.kind == InitKind::Fill);  // no init: zero
  CHECK(s.buffers[1].init.fill.as_double() == 0);
  CHECK(s.ptx_path == "k.ptx");  // no directory: relative to the current one
}

TEST_CASE("spec: a buffer the host never writes (tcsim extension {\"uninitialised\": true})") {
  const LaunchSpec s = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"ws": {"dtype": "u32", "shape": [8], "init": {"uninitialised": true}}, "z": {"dtype": "u32", "shape": [8]}}})",
                                  "s.json");
  REQUIRE(s.buffers.size() == 2);
  CHECK(s.buffers[0].init.kind == InitKind::Uninitialised);
  CHECK(s.buffers[1].init.kind == InitKind::Fill);  // no init: zero-filled, written by the host
}

TEST_CASE("spec: tensor map defaults and byte-type aliases") {
  const LaunchSpec s = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"Q": {"dtype": "e4m3", "shape": [64, 64]}},
    "tensor_maps": {"t": {"buffer": "Q", "global_dims": [64, 64], "global_strides_bytes": [64],
                          "box_dims": [64, 8], "offset_bytes": 256}}})", "s.json");
  const TensorMapSpec& t = s.tensor_maps[0];
  CHECK(t.dtype == TmDataType::UInt8);  // e4m3 moves as bytes
  CHECK(t.element_strides == std::vector<uint32_t>{1, 1});
  CHECK(t.interleave == TmInterleave::None);
  CHECK(t.swizzle == TmSwizzle::None);
  CHECK(t.l2_promotion == TmL2Promotion::None);
  CHECK(t.oob_fill == TmOobFill::None);
  CHECK(t.offset_bytes == 256);
}

TEST_CASE("spec: scalar args") {
  const LaunchSpec s = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1],
    "args": [{"i8": -1}, {"u16": 65535}, {"i32": -5}, {"u64": 18446744073709551615}, {"f64": 0.5},
             {"f32": "0x7fc00000"}, {"f32": "-inf"}, {"i64": -9223372036854775808}]})", "s.json");
  CHECK(s.args[0].scalar_bits == 0xff);
  CHECK(s.args[0].size() == 1);
  CHECK(s.args[1].scalar_bits == 0xffff);
  CHECK(s.args[2].scalar_bits == 0xfffffffb);
  CHECK(s.args[3].scalar_bits == 0xffffffffffffffffull);
  CHECK(s.args[4].scalar_bits == 0x3fe0000000000000ull);
  CHECK(s.args[5].scalar_bits == 0x7fc00000);
  CHECK(s.args[6].scalar_bits == 0xff800000);
  CHECK(s.args[7].scalar_bits == 0x8000000000000000ull);
}

TEST_CASE("spec: symbols") {
  const LaunchSpec s = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1],
    "symbols": {"table": {"dtype": "f32", "init": {"iota": {"start": 1}}}, "raw": {"init": {"fill": 7}}}})", "s.json");
  REQUIRE(s.symbols.size() == 2);
  CHECK(s.symbols[0].name == "table");
  CHECK(s.symbols[0].dtype == SpecDType::F32);
  CHECK(s.symbols[0].init.kind == InitKind::Iota);
  CHECK(s.symbols[1].dtype == SpecDType::U8);
  CHECK(!s.symbols[1].dtype_given);
}

TEST_CASE("spec: every malformed field gets its own message") {
  struct Case {
    std::string text;
    std::string expect;
  };
  const Case cases[] = {
      {"{\"ptx\": ", "dir/spec.json: not valid JSON: parse error at line 1, column 9: syntax error while parsing value"},
      {"[1, 2]", "(top level): expected an object"},
      {R"({"kernel": "k", "grid": [1,1,1], "block": [1,1,1]})", "missing required field \"ptx\""},
      {with("kernel", "\"\""), "kernel: the kernel name is empty"},
      {with("kernel", "3"), "kernel: expected a kernel name (a string), found an integer"},
      {with("grid", "[1, 1]"), "dir/spec.json: grid: expected three positive integers [x, y, z], found [1,1]"},
      {with("grid", "[0, 1, 1]"), "grid[0]: 0 is out of range (legal: an integer in [1, 2147483647])"},
      {with("grid", "[1, 1.5, 1]"), "grid[1]: expected an integer in [1, 65535], found a number with a fraction 1.5"},
      {with("block", "[2048, 1, 1]"), "block[0]: 2048 is out of range (legal: an integer in [1, 1024])"},
      {with("block", "[32, 32, 2]"), "block: 2048 threads per block (legal: at most 1024)"},
      {with("block", "[1, 1, 65]"), "block[2]: 65 is out of range (legal: 1 to 64)"},
      {with("grid", "[3, 1, 1], \"cluster\": [2, 1, 1]"), "cluster[0]: cluster dim 2 does not divide grid dim 3"},
      {with("grid", "[32, 1, 1], \"cluster\": [4, 4, 2]"), "cluster: 32 CTAs per cluster (legal: at most 16; 8 portable)"},
      {with("dynamic_smem_bytes", "-1"), "dynamic_smem_bytes: -1 is out of range"},
      {with("dynamic_smem", "1024"), "unknown field \"dynamic_smem\" (legal here: version, ptx, kernel, arch, grid, block, cluster, dynamic_smem_bytes, printf_fifo_bytes, buffers, tensor_maps, args, symbols, outputs)"},
      {with("version", "2"), "version: version 2 is not supported (this tool reads launch spec version 1)"},
      {with("buffers", R"({"A": {"dtype": "f8", "shape": [4]}})"), "buffers.A.dtype: \"f8\" is not an element type (legal: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64 e4m3 e5m2 e2m3 e3m2 e2m1x2 ue8m0 ue4m3)"},
      {with("buffers", R"({"A": {"dtype": "f32"}})"), "buffers.A: missing required field \"shape\""},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": []}})"), "buffers.A.shape: expected a non-empty list of positive integers"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4, 0]}})"), "buffers.A.shape[1]: 0 is out of range"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [1099511627776]}})"), "buffers.A.shape: shape [1099511627776] is empty or larger than 2^40 bytes"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "size": 16}})"), "buffers.A: unknown field \"size\" (legal here: dtype, shape, init)"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"fill": 0, "iota": {}}}})"), "buffers.A.init: expected exactly one of"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"zero": 1}}})"), "buffers.A.init: expected exactly one of"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"uninitialised": 1}}})"), "buffers.A.init.uninitialised: expected true, found 1"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"uninitialised": true, "fill": 0}}})"), "buffers.A.init: unknown field \"fill\""},
      {with("buffers", R"({"A": {"dtype": "e4m3", "shape": [4], "init": {"fill": 1000}}})"), "buffers.A.init: fill 1000 is outside e4m3's finite range [-448, 448]"},
      {with("buffers", R"({"A": {"dtype": "u8", "shape": [4], "init": {"fill": "0x100"}}})"), "buffers.A.init: fill \"0x100\" does not fit in a 8-bit u8 element"},
      {with("buffers", R"({"A": {"dtype": "u8", "shape": [4], "init": {"fill": "0xfg"}}})"), "buffers.A.init.fill: raw bits \"0xfg\": 'g' is not a hex digit"},
      {with("buffers", R"({"A": {"dtype": "u8", "shape": [4], "init": {"fill": "one"}}})"), "buffers.A.init.fill: expected a number (or \"inf\", \"-inf\", \"nan\", or raw bits \"0x...\"), found a string \"one\""},
      {with("buffers", R"({"A": {"dtype": "i32", "shape": [4], "init": {"fill": 2.5}}})"), "buffers.A.init: fill 2.5 is not an integer (i32 holds integers)"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"random": {"seed": 1, "dist": "gauss"}}}})"), "buffers.A.init.random.dist: \"gauss\" is not a distribution (legal: uniform, normal, bits, integers)"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"random": {"dist": "normal"}}}})"), "buffers.A.init.random: missing required field \"seed\""},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"random": {"seed": -1, "dist": "bits"}}}})"), "buffers.A.init.random.seed: -1 is out of range"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"random": {"seed": 1, "dist": "normal", "low": 0}}}})"), "buffers.A.init.random: unknown field \"low\" (legal here: seed, dist, mean, std)"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"random": {"seed": 1, "dist": "uniform", "low": 3, "high": 2}}}})"), "buffers.A.init.random: low 3 is above high 2"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"random": {"seed": 1, "dist": "normal", "std": -2}}}})"), "buffers.A.init.random: std -2 is negative"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"iota": {"begin": 0}}}})"), "buffers.A.init.iota: unknown field \"begin\" (legal here: start, step)"},
      {with("buffers", R"({"A": {"dtype": "u32", "shape": [4], "init": {"iota": {"step": 0.5}}}})"), "buffers.A.init.iota: iota start 0 and step 0.5 must be integers for u32"},
      {with("buffers", R"({"A": {"dtype": "f32", "shape": [4], "init": {"file": "nope.npy"}}})"), "buffers.A.init.file: the init file \"nope.npy\" (resolved to dir/nope.npy): dir/nope.npy: does not exist"},
      {with("args", R"([{"buffer": "Z"}])"), "args[0].buffer: no buffer \"Z\" (declared: A, B)"},
      {with("args", R"([{"buffer": "A", "offset_bytes": 17}])"), "args[0].offset_bytes: 17 is out of range (legal: an integer in [0, 16])"},
      {with("args", R"([{"tensor_map": "t"}])"), "args[0].tensor_map: no tensor map \"t\" (none are declared)"},
      {with("args", R"([{"u33": 1}])"), "args[0]: unknown argument kind \"u33\" (legal: buffer, tensor_map, bytes, struct, u8, i8, u16, i16, u32, i32, u64, i64, f32, f64)"},
      {with("args", R"([{"u32": 1, "u64": 2}])"), "args[0]: expected {\"buffer\": NAME [, \"offset_bytes\": N]}, {\"tensor_map\": NAME}, one scalar {\"u32\": V}, {\"bytes\": \"0a0b...\"} or {\"struct\": {\"size\": N, \"fields\": [...]}}"},
      // bytes (LAUNCH_SPEC.md "args"): hex pairs in memory order.
      {with("args", R"([{"bytes": "0a0b0"}])"), "args[0].bytes: \"0a0b0\" has 5 hex digits, not whole bytes (legal: hex pairs, two digits per byte)"},
      {with("args", R"([{"bytes": "0x0a0b"}])"), "args[0].bytes: \"0x0a0b\": bytes are hex pairs in memory order without a \"0x\" prefix"},
      {with("args", R"([{"bytes": ""}])"), "args[0].bytes: no bytes given"},
      {with("args", R"([{"bytes": "0a zzz"}])"), "args[0].bytes: character 2 (' ') is not a hex digit (legal: 0-9, a-f, A-F)"},
      {with("args", R"([{"bytes": 10}])"), "args[0].bytes: expected hex pairs in memory order, e.g. \"0a0b0c0d\" (a string), found an integer"},
      {with("args", R"([{"bytes": "0a", "u8": 1}])"), "args[0]: unknown field \"u8\" (legal here: bytes)"},
      // struct: size, fields, offsets, alignment, overlap, nesting.
      {with("args", R"([{"struct": {"fields": []}}])"), "args[0].struct: missing required field \"size\""},
      {with("args", R"([{"struct": {"size": 0, "fields": []}}])"), "args[0].struct.size: 0 is out of range (legal: an integer in [1, 32764])"},
      {with("args", R"([{"struct": {"size": 40000, "fields": []}}])"), "args[0].struct.size: 40000 is out of range (legal: an integer in [1, 32764])"},
      {with("args", R"([{"struct": {"size": 8}}])"), "args[0].struct: missing required field \"fields\""},
      {with("args", R"([{"struct": {"size": 8, "fields": {}}}])"), "args[0].struct.fields: expected a list of fields, found an object"},
      {with("args", R"([{"struct": {"size": 8, "fields": [{"u32": 1}]}}])"), "args[0].struct.fields[0]: missing required field \"offset\""},
      {with("args", R"([{"struct": {"size": 8, "fields": [{"offset": 8, "u8": 1}]}}])"), "args[0].struct.fields[0].offset: 8 is out of range (legal: an integer in [0, 7])"},
      {with("args", R"([{"struct": {"size": 8, "fields": [{"offset": 0}]}}])"), "args[0].struct.fields[0]: expected {\"buffer\""},
      {with("args", R"([{"struct": {"size": 8, "fields": [{"offset": 4, "buffer": "A"}]}}])"), "args[0].struct.fields[0]: the field {\"buffer\": \"A\"} (8 bytes at offset 4) ends at byte 12, past the aggregate's size 8"},
      {with("args", R"([{"struct": {"size": 16, "fields": [{"offset": 4, "buffer": "A"}]}}])"), "args[0].struct.fields[0]: the field {\"buffer\": \"A\"} at offset 4 is not 8-byte aligned (a pointer's natural alignment; the nearest legal offsets are 0 and 8)"},
      {with("args", R"([{"struct": {"size": 8, "fields": [{"offset": 2, "u32": 1}]}}])"), "args[0].struct.fields[0]: the field {\"u32\": 0x1} at offset 2 is not 4-byte aligned (a scalar's alignment is its size"},
      {with("args", R"([{"struct": {"size": 16, "fields": [{"offset": 4, "struct": {"size": 8, "fields": [{"offset": 0, "u64": 1}]}}]}}])"), "args[0].struct.fields[0]: the field {\"struct\": {\"size\": 8, 1 field}} at offset 4 is not 8-byte aligned (its largest field's alignment"},
      {with("args", R"([{"struct": {"size": 16, "fields": [{"offset": 0, "u64": 1}, {"offset": 4, "u32": 2}]}}])"), "args[0].struct.fields[1]: the field {\"u32\": 0x2} at bytes [4, 8) overlaps args[0].struct.fields[0] {\"u64\": 0x1} at bytes [0, 8)"},
      {with("args", R"([{"struct": {"size": 16, "fields": [{"offset": 8, "u64": 1}, {"offset": 0, "bytes": "000102030405060708"}]}}])"), "args[0].struct.fields[1]: the field {\"bytes\": \"0001020304050607...\"} at bytes [0, 9) overlaps args[0].struct.fields[0] {\"u64\": 0x1} at bytes [8, 16)"},
      {with("args", R"([{"struct": {"size": 8, "fields": [{"offset": 0, "buffer": "A", "size": 8}]}}])"), "args[0].struct.fields[0]: unknown field \"size\" (legal here: offset, buffer, offset_bytes)"},
      {with("args", R"([{"struct": {"size": 8, "fields": [{"offset": 0, "tensor_map": "t"}]}}])"), "args[0].struct.fields[0].tensor_map: no tensor map \"t\" (none are declared)"},
      {with("args", R"([{"struct": {"size": 8, "pad": 0, "fields": []}}])"), "args[0].struct: unknown field \"pad\" (legal here: size, fields)"},
      {with("args", R"([{"u8": 256}])"), "args[0].u8: fill 256 is outside u8's range [0, 255]"},
      {with("args", R"([{"u16": "0x10000"}])"), "args[0].u16: raw bits \"0x10000\" do not fit in 2 bytes"},
      {with("args", R"([{"f32": 1e39}])"), "args[0].f32: 1e+39 is outside f32's finite range"},
      {with("args", R"({"buffer": "A"})"), "args: expected a list of arguments, found an object"},
      {with("args", R"([{"buffer": "A", "offset": 4}])"), "args[0]: unknown field \"offset\" (legal here: buffer, offset_bytes)"},
      {with("outputs", R"(["A", "Q"])"), "outputs[1]: no buffer \"Q\" (declared: A, B)"},
      {with("outputs", R"(["A", "A"])"), "outputs[1]: \"A\" is listed twice"},
      {with("symbols", R"({"tab": {"dtype": "f32"}})"), "symbols.tab: missing required field \"init\" (how to initialise it)"},
      {with("symbols", R"({"tab": {"init": {"fill": 1}, "size": 4}})"), "symbols.tab: unknown field \"size\" (legal here: dtype, init)"},
      {with("symbols", R"({"tab": {"init": {"uninitialised": true}}})"), "symbols.tab.init: expected exactly one of"},
      {with("tensor_maps", R"({"t": {"buffer": "Z", "global_dims": [4], "box_dims": [4]}})"), "tensor_maps.t.buffer: no buffer \"Z\" (declared: A, B)"},
      {with("tensor_maps", R"({"t": {"buffer": "A", "global_dims": [1,1,1,1,1,1], "box_dims": [1]}})"), "tensor_maps.t.global_dims: expected a list of 1 to 5 integers"},
      {with("tensor_maps", R"({"t": {"buffer": "A", "global_dims": [2, 2], "box_dims": [2, 2]}})"), "tensor_maps.t: missing required field \"global_strides_bytes\""},
      {with("tensor_maps", R"({"t": {"buffer": "A", "global_dims": [2, 2], "global_strides_bytes": [16, 32], "box_dims": [2, 2]}})"), "tensor_maps.t.global_strides_bytes: expected a list of 1 integers"},
      {with("tensor_maps", R"({"t": {"buffer": "A", "global_dims": [4], "box_dims": [4, 1]}})"), "tensor_maps.t.box_dims: expected a list of 1 integers"},
      {with("tensor_maps", R"({"t": {"buffer": "A", "global_dims": [4], "box_dims": [4], "swizzle": "256B"}})"), "tensor_maps.t.swizzle: \"256B\" is not legal here (legal: none, 32B, 64B, 128B, 128B_atom_32B, 128B_atom_32B_flip_8B, 128B_atom_64B)"},
      {with("tensor_maps", R"({"t": {"buffer": "A", "global_dims": [4], "box_dims": [4], "interleave": "64B"}})"), "tensor_maps.t.interleave: \"64B\" is not legal here (legal: none, 16B, 32B)"},
      {with("tensor_maps", R"({"t": {"buffer": "A", "global_dims": [4], "box_dims": [4], "oob_fill": "zero"}})"), "tensor_maps.t.oob_fill: \"zero\" is not legal here (legal: none, nan)"},
      {with("tensor_maps", R"({"t": {"buffer": "A", "global_dims": [4], "box_dims": [4], "l2_promotion": "512B"}})"), "tensor_maps.t.l2_promotion: \"512B\" is not legal here (legal: none, 64B, 128B, 256B)"},
      {with("tensor_maps", R"({"t": {"buffer": "A", "dtype": "fp8", "global_dims": [4], "box_dims": [4]}})"), "tensor_maps.t.dtype: \"fp8\" is not a tensor-map element type (legal: u8 u16 u32 i32 u64 i64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz 16u4_align8b 16u4_align16b 16u6_align16b"},
      {with("tensor_maps", R"({"t": {"buffer": "A", "global_dims": [4], "box_dims": [4], "offset_bytes": 16}})"), "tensor_maps.t.offset_bytes: 16 is out of range (legal: an integer in [0, 15])"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    const std::string e = error_of(c.text);
    CAPTURE(e);
    CHECK(e.find(c.expect) != std::string::npos);
    CHECK(e.rfind("dir/", 0) == 0);  // every message starts with the file
  }
}

TEST_CASE("spec: comments and notes are allowed anywhere") {
  CHECK(error_of(with("comment", "\"a note\"")) == "(no error)");
  CHECK(error_of(with("_generated_by", "\"script\"")) == "(no error)");
}

TEST_CASE("spec: load_spec on a missing file") {
  try {
    load_spec("/nonexistent/spec.json");
    FAIL("no error");
  } catch (const SpecError& e) {
    CHECK(std::string(e.what()) == "/nonexistent/spec.json: cannot read the launch spec: it does not exist");
  }
}

TEST_CASE("spec: ptx_target") {
  CHECK(ptx_target("//\n// Generated by NVIDIA NVVM Compiler\n.version 8.7\n.target sm_100a\n.address_size 64\n") == "sm_100a");
  CHECK(ptx_target(".version 8.0\n  .target sm_90a, debug\n") == "sm_90a");
  CHECK(ptx_target("// .target sm_80\n.target sm_90a\n") == "sm_90a");
  CHECK(ptx_target(".version 8.0\n") == "");
  CHECK(ptx_target("\t.target\tsm_100a\r\n") == "sm_100a");
  CHECK(ptx_target(".target") == "");
  // A long line of ".target" words not at its start names nothing; the directive on the next line
  // counts (this input took a backwards search per occurrence: quadratic, seconds under ASan).
  std::string many = "x";
  for (int i = 0; i < 100000; ++i) many += " .target";
  CHECK(ptx_target(many + "\n.target sm_90a\n") == "sm_90a");
}

TEST_CASE("spec: struct and bytes arguments") {
  const LaunchSpec s = parse_spec(R"({"ptx": "k.ptx", "kernel": "k", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"A": {"dtype": "f32", "shape": [64]}, "Q": {"dtype": "u8", "shape": [256]}},
    "tensor_maps": {"tm": {"buffer": "Q", "global_dims": [256], "box_dims": [16]}},
    "args": [{"bytes": "0a0B0c0D"},
             {"struct": {"size": 256, "fields": [
                {"offset": 0, "buffer": "A", "offset_bytes": 16},
                {"offset": 8, "struct": {"size": 8, "fields": [{"offset": 0, "u16": 7}, {"offset": 4, "f32": 1.0}]}},
                {"offset": 17, "bytes": "ff"},
                {"offset": 64, "tensor_map": "tm"},
                {"offset": 192, "i64": -1}]}}]})", "s.json");
  REQUIRE(s.args.size() == 2);
  const ArgSpec& b = s.args[0];
  CHECK(b.kind == ArgKind::Bytes);
  CHECK(b.bytes == std::vector<uint8_t>{0x0a, 0x0b, 0x0c, 0x0d});  // memory order; either case
  CHECK(b.size() == 4);
  CHECK(b.align() == 1);
  CHECK(b.json_path == "args[0]");
  const ArgSpec& st = s.args[1];
  CHECK(st.kind == ArgKind::Struct);
  CHECK(st.size() == 256);
  CHECK(st.align() == 64);  // the tensor map's
  REQUIRE(st.fields.size() == 5);
  CHECK(st.fields[0].kind == ArgKind::Buffer);
  CHECK(st.fields[0].offset_bytes == 16);
  CHECK(st.fields[1].kind == ArgKind::Struct);
  CHECK(st.fields[1].field_offset == 8);
  CHECK(st.fields[1].align() == 4);
  CHECK(st.fields[1].fields[1].scalar_bits == 0x3f800000);
  CHECK(st.fields[1].json_path == "args[1].struct.fields[1]");
  CHECK(st.fields[2].field_offset == 17);
  CHECK(st.fields[3].kind == ArgKind::TensorMap);
  CHECK(st.fields[3].size() == 128);
  CHECK(st.fields[4].scalar_bits == 0xffffffffffffffffull);
  // Nesting is bounded (the recursion): 16 levels parse, 17 are refused.
  auto nested = [](int levels) {
    std::string inner = R"({"offset": 0, "u8": 1})";
    for (int i = 1; i < levels; ++i) inner = R"({"offset": 0, "struct": {"size": 1, "fields": [)" + inner + "]}}";
    return R"([{"struct": {"size": 1, "fields": [)" + inner + "]}}]";
  };
  CHECK(error_of(with("args", nested(16))) == "(no error)");
  CHECK(error_of(with("args", nested(17))).find("aggregates nested more than 16 deep") != std::string::npos);
}
