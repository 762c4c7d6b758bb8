// The generic runner (tools/spec/runner.h) on a host-memory backend: what tcsim and tcsim-hw
// share — allocation, initialisation, symbols, tensor maps, the parameter buffer, readback — and
// the errors found before anything is allocated.
#include <doctest/doctest.h>

#include <cstring>
#include <map>

#include "tests/tools/test_util.h"
#include "tools/spec/npy.h"
#include "tools/spec/runner.h"
#include "tools/spec/spec_error.h"

using namespace tcsim::spec;

namespace {

// A machine made of host memory. Its one "kernel" adds 1.0f to every float of the buffer whose
// address is parameter 1 (n elements, parameter 0), and copies the symbol "bias" to "out".
class FakeBackend final : public Backend {
 public:
  std::vector<std::string> entries = {"_Z3addjPf"};
  std::vector<ParamInfo> params = {{"_Z3addjPf_param_0", 4, 4}, {"_Z3addjPf_param_1", 8, 8}};
  std::map<std::string, SymbolRef> symbols;
  std::map<uint64_t, std::vector<std::byte>> mem;  // allocation base -> bytes
  std::vector<std::byte> last_params;
  std::string loaded_name;
  int mallocs = 0;
  uint64_t next = 0x10000;

  std::byte* at(uint64_t a) {
    for (auto& [base, m] : mem)
      if (a >= base && a < base + m.size()) return m.data() + (a - base);
    throw std::runtime_error("fake: bad address");
  }
  void load_module(const std::string&, const std::string& name) override { loaded_name = name; }
  std::vector<std::string> kernel_names() override { return entries; }
  std::vector<ParamInfo> kernel_params(const std::string&) override { return params; }
  bool symbol(const std::string& n, SymbolRef& out) override {
    auto it = symbols.find(n);
    if (it == symbols.end()) return false;
    out = it->second;
    return true;
  }
  uint64_t malloc(uint64_t bytes) override {
    ++mallocs;
    const uint64_t a = next;
    mem[a].resize(bytes);
    next += (bytes + 255) / 256 * 256 + 256;
    return a;
  }
  void copy_to_device(uint64_t d, const void* s, uint64_t n) override { std::memcpy(at(d), s, n); }
  void copy_from_device(void* d, uint64_t s, uint64_t n) override { std::memcpy(d, at(s), n); }
  std::vector<std::byte> encode_tensor_map(const TensorMapSpec& t, uint64_t address) override {
    std::vector<std::byte> b(128);
    std::memcpy(b.data(), &address, 8);
    b[8] = static_cast<std::byte>(t.rank());
    return b;
  }
  LaunchOutcome launch(const std::string& kernel, const LaunchSpec&, std::span<const std::byte> p,
                       std::span<const ParamInfo>) override {
    last_params.assign(p.begin(), p.end());
    if (kernel != "_Z3addjPf") return {};
    uint32_t n;
    uint64_t a;
    std::memcpy(&n, p.data(), 4);
    std::memcpy(&a, p.data() + 8, 8);
    for (uint32_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, at(a + 4 * i), 4);
      f += 1.0f;
      std::memcpy(at(a + 4 * i), &f, 4);
    }
    LaunchOutcome out;
    out.cycles = 42;
    out.finding_lines = {"a finding"};
    out.finding_count = 1;
    out.printf_output = PrintfCapture{"printed\n", 1, 0, 524288};
    return out;
  }
};

const char* kSpec = R"({"ptx": "add.ptx", "kernel": "add", "grid": [1,1,1], "block": [32,1,1],
  "buffers": {"X": {"dtype": "f32", "shape": [2, 4], "init": {"iota": {"start": 0, "step": 0.5}}},
              "Y": {"dtype": "u8", "shape": [3], "init": {"fill": 9}}},
  "args": [{"u32": 6}, {"buffer": "X", "offset_bytes": 8}],
  "outputs": ["X", "Y"]})";

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const SpecError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("runner: allocates, initialises, launches with the parameter buffer, reads back") {
  const LaunchSpec s = parse_spec(kSpec, "dir/add.json");
  FakeBackend be;
  const RunResult r = run_spec(s, ".target sm_90a", be);
  CHECK(be.loaded_name == "dir/add.ptx");
  CHECK(r.kernel == "_Z3addjPf");
  CHECK(r.outcome.cycles == 42);
  CHECK(r.outcome.finding_lines == std::vector<std::string>{"a finding"});
  REQUIRE(r.outputs.size() == 2);
  CHECK(r.outputs[0].name == "X");
  CHECK(r.outputs[0].shape == std::vector<uint64_t>{2, 4});
  // X = iota 0, 0.5, ..., 3.5; the kernel added 1 to the 6 floats from byte offset 8.
  CHECK(test::as_vector<float>(r.outputs[0].data) == std::vector<float>{0, 0.5, 2, 2.5, 3, 3.5, 4, 4.5});
  CHECK(test::as_vector<uint8_t>(r.outputs[1].data) == std::vector<uint8_t>{9, 9, 9});
  REQUIRE(be.last_params.size() == 16);
  uint64_t a;
  std::memcpy(&a, be.last_params.data() + 8, 8);
  CHECK(a == 0x10000 + 8);
  CHECK(a % 8 == 0);
}

TEST_CASE("runner: symbols are initialised with their declared size") {
  LaunchSpec s = parse_spec(R"({"ptx": "add.ptx", "kernel": "add", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"X": {"dtype": "f32", "shape": [1]}},
    "symbols": {"table": {"dtype": "u16", "init": {"iota": {"start": 10}}}},
    "args": [{"u32": 0}, {"buffer": "X"}]})", "s.json");
  FakeBackend be;
  const uint64_t t = be.malloc(8);
  be.symbols["table"] = {t, 8};
  run_spec(s, "", be);
  uint16_t v[4];
  std::memcpy(v, be.at(t), 8);
  CHECK(v[0] == 10);
  CHECK(v[3] == 13);
}

TEST_CASE("runner: spec errors found against the module, before any allocation") {
  FakeBackend be;
  LaunchSpec s = parse_spec(kSpec, "s.json");
  s.args.pop_back();
  CHECK(error_of([&] { run_spec(s, "", be); }).find("s.json: args: kernel '_Z3addjPf' has 2 parameters") == 0);
  CHECK(be.mallocs == 0);

  LaunchSpec k = parse_spec(kSpec, "s.json");
  k.kernel = "sub";
  CHECK(error_of([&] { run_spec(k, "", be); }) ==
        "s.json: kernel: no .entry named or containing \"sub\" in add.ptx (entries: _Z3addjPf)");

  LaunchSpec sym = parse_spec(R"({"ptx": "add.ptx", "kernel": "add", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"X": {"dtype": "f32", "shape": [1]}},
    "symbols": {"coeffs": {"dtype": "f32", "init": {"fill": 1}}},
    "args": [{"u32": 0}, {"buffer": "X"}]})", "s.json");
  CHECK(error_of([&] { run_spec(sym, "", be); }) ==
        "s.json: symbols.coeffs: add.ptx declares no .global or .const variable \"coeffs\"");
  be.symbols["coeffs"] = {0x999, 6};
  CHECK(error_of([&] { run_spec(sym, "", be); }) ==
        "s.json: symbols.coeffs: the variable is 6 bytes, not a whole number of f32 elements (4 bytes each)");
  be.symbols["coeffs"] = {0x999, 8};
  sym.symbols[0].init.fill = Number::of(1e39);
  CHECK(error_of([&] { run_spec(sym, "", be); }).find("symbols.coeffs.init: fill 1e+39 is outside f32's finite range") != std::string::npos);
  CHECK(be.mallocs == 0);
}

TEST_CASE("runner: tensor maps must lie inside their buffer; their bytes reach the parameter") {
  const char* text = R"({"ptx": "t.ptx", "kernel": "t", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"Q": {"dtype": "u16", "shape": [8, 64]}},
    "tensor_maps": {"tm": {"buffer": "Q", "dtype": "u16", "global_dims": [64, 8], "global_strides_bytes": [128],
                           "box_dims": [64, 8]}},
    "args": [{"tensor_map": "tm"}]})";
  FakeBackend be;
  be.entries = {"t"};
  be.params = {{"t_param_0", 128, 64}};
  LaunchSpec s = parse_spec(text, "s.json");
  run_spec(s, "", be);
  uint64_t addr;
  std::memcpy(&addr, be.last_params.data(), 8);
  CHECK(addr == 0x10000);
  CHECK(static_cast<int>(be.last_params[8]) == 2);
  // Rows 256 bytes apart: the 8th row ends at 7*256 + 128 = 1920 > 1024 bytes.
  s.tensor_maps[0].global_strides_bytes = {256};
  CHECK(error_of([&] { check_tensor_map_extent(s, s.tensor_maps[0]); }) ==
        "s.json: tensor_maps.tm: the tensor it describes ends 1920 bytes past the start of buffer \"Q\", "
        "which has 1024 bytes (offset 0 + strides x (dims-1) + dim 0 of 64 u16-elements)");
}

TEST_CASE("runner: arch from the spec, else the PTX .target") {
  LaunchSpec s = parse_spec(kSpec, "s.json");
  CHECK(resolve_arch(s, ".version 8.7\n.target sm_100a\n") == "sm_100a");
  s.arch = "sm_90a";
  CHECK(resolve_arch(s, ".target sm_100a\n") == "sm_90a");
  s.arch.reset();
  CHECK(error_of([&] { resolve_arch(s, ".version 8.7\n"); }) ==
        "s.json: arch: no \"arch\" given and add.ptx has no .target directive");
  CHECK(error_of([&] { read_ptx(s); }).find("s.json: ptx: cannot read the PTX file \"add.ptx\"") == 0);
}

TEST_CASE("runner: a symbol's file is matched by bytes, whatever its element type") {
  // nvcc declares `__constant__ float t[4]` as `.const .align 4 .b8 t[16]`: a float32 .npy of 4
  // elements fills it, and so does any other 16-byte file; the symbol's dtype does not matter.
  test::TempDir d;
  const float f4[4] = {1.5f, -2.0f, 0.25f, 8.0f};
  write_npy((d / "f4.npy"), "<f4", {4}, f4, 16);
  const uint16_t u2[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  write_npy((d / "u2.npy"), "<u2", {2, 4}, u2, 16);
  write_npy((d / "f3.npy"), "<f4", {3}, f4, 12);
  for (const char* file : {"f4.npy", "u2.npy"}) {
    CAPTURE(file);
    LaunchSpec s = parse_spec(std::string(R"({"ptx": "add.ptx", "kernel": "add", "grid": [1,1,1], "block": [1,1,1],
      "buffers": {"X": {"dtype": "f32", "shape": [1]}},
      "symbols": {"table": {"dtype": "u64", "init": {"file": ")") + file + R"("}}},
      "args": [{"u32": 0}, {"buffer": "X"}]})", (d / "s.json"));
    FakeBackend be;
    const uint64_t t = be.malloc(16);
    be.symbols["table"] = {t, 16};
    run_spec(s, "", be);
    CHECK(std::memcmp(be.at(t), std::string(file) == "f4.npy" ? static_cast<const void*>(f4) : u2, 16) == 0);
  }
  LaunchSpec s = parse_spec(R"({"ptx": "add.ptx", "kernel": "add", "grid": [1,1,1], "block": [1,1,1],
      "buffers": {"X": {"dtype": "f32", "shape": [1]}},
      "symbols": {"table": {"init": {"file": "f3.npy"}}},
      "args": [{"u32": 0}, {"buffer": "X"}]})", (d / "s.json"));
  FakeBackend be;
  be.symbols["table"] = {be.malloc(16), 16};
  const int before = be.mallocs;
  CHECK(error_of([&] { run_spec(s, "", be); }) ==
        (d / "s.json") + ": symbols.table.init.file: f3.npy holds 12 bytes (3 elements of 4 bytes, '<f4', shape (3)), "
        "but the variable is declared with 16 bytes (a file must hold exactly the declaration's bytes, whatever its "
        "element type)");
  CHECK(be.mallocs == before);  // found before anything is allocated
}

TEST_CASE("runner: struct arguments reach the parameter buffer with their buffers and tensor maps") {
  LaunchSpec s = parse_spec(R"({"ptx": "k.ptx", "kernel": "_Z1kv", "grid": [1,1,1], "block": [1,1,1],
    "buffers": {"X": {"dtype": "f32", "shape": [16]}},
    "tensor_maps": {"tm": {"buffer": "X", "dtype": "f32", "global_dims": [16], "box_dims": [8]}},
    "args": [{"struct": {"size": 192, "fields": [{"offset": 0, "buffer": "X", "offset_bytes": 4},
                                                 {"offset": 64, "tensor_map": "tm"}]}}]})", "s.json");
  FakeBackend be;
  be.entries = {"_Z1kv"};
  be.params = {{"p0", 192, 64}};
  run_spec(s, "", be);
  REQUIRE(be.last_params.size() == 192);
  uint64_t a, tm_addr;
  std::memcpy(&a, be.last_params.data(), 8);
  std::memcpy(&tm_addr, be.last_params.data() + 64, 8);  // the fake map's first word: its address
  CHECK(a == 0x10000 + 4);
  CHECK(tm_addr == 0x10000);
  CHECK(static_cast<int>(be.last_params[64 + 8]) == 1);  // the fake map's rank byte
  for (int i : {8, 63, 64 + 9, 191}) CHECK(static_cast<int>(be.last_params[i]) == 0);
}
