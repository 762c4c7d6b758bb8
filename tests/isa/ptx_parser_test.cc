// PTX front end: golden IR dumps and diagnostics (tests/isa/ptx_data/golden: each X.ptx has
// X.expected, the dump for a good file or the one-line error for a bad one; regenerate with
// TCSIM_UPDATE_GOLDEN=1), every nvcc-generated and CCCL-template PTX file parses, and when nvcc is
// present the .cu sources are recompiled now (sm_90a/sm_100a, -G, -lineinfo) and parsed.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "isa/ptx/dump.h"
#include "isa/ptx/parser.h"

namespace fs = std::filesystem;
using namespace tcsim::isa::ptx;

namespace {

const fs::path kData = fs::path(TCSIM_SOURCE_DIR) / "tests/isa/ptx_data";

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<fs::path> files(const fs::path& dir, std::string_view ext) {
  std::vector<fs::path> r;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ext) r.push_back(e.path());
  std::sort(r.begin(), r.end());
  return r;
}

// Structural invariants every parsed module must satisfy (resolved indices are in range).
void check_invariants(const Module& m) {
  for (const Function& f : m.functions) {
    for (const Instr& in : f.instrs) {
      REQUIRE(in.op != Op::Count_);
      if (in.guard != kNoReg) REQUIRE(in.guard < f.regs.size());
      std::function<void(const Operand&)> check = [&](const Operand& o) {
        switch (o.kind) {
          case OperandKind::Reg: REQUIRE(o.reg < f.regs.size()); break;
          case OperandKind::Label: REQUIRE(o.index <= f.instrs.size()); break;
          case OperandKind::Symbol: REQUIRE(o.index < m.symbols.size()); break;
          case OperandKind::Func: REQUIRE(o.index < m.functions.size()); break;
          case OperandKind::BranchTable: REQUIRE(o.index < f.branch_tables.size()); break;
          case OperandKind::Prototype: REQUIRE(o.index < f.prototypes.size()); break;
          default: break;
        }
        for (const Operand& e : o.elems) check(e);
      };
      for (const Operand& o : in.ops) check(o);
    }
    for (const BranchTable& bt : f.branch_tables)
      for (uint32_t t : bt.targets) REQUIRE(t <= f.instrs.size());
  }
}

}  // namespace

TEST_CASE("ptx parser: golden IR dumps and diagnostics") {
  const bool update = std::getenv("TCSIM_UPDATE_GOLDEN") != nullptr;
  const auto inputs = files(kData / "golden", ".ptx");
  REQUIRE(inputs.size() >= 15);
  for (const fs::path& p : inputs) {
    CAPTURE(p.filename().string());
    auto m = parse(read(p), p.filename().string());
    const bool bad = p.filename().string().rfind("bad_", 0) == 0;
    CHECK(m.has_value() != bad);
    std::string got = m ? dump(*m) : m.error().message + "\n";
    if (m) check_invariants(*m);
    fs::path exp = p;
    exp.replace_extension(".expected");
    if (update) {
      std::ofstream(exp, std::ios::binary) << got;
      continue;
    }
    REQUIRE_MESSAGE(fs::exists(exp), "missing golden " << exp << " (run with TCSIM_UPDATE_GOLDEN=1)");
    CHECK(got == read(exp));
  }
}

TEST_CASE("ptx parser: every committed nvcc and CCCL-form PTX file, and the kernels/ corpus, parses") {
  std::vector<fs::path> all = files(kData / "nvcc", ".ptx");
  for (const fs::path& p : files(kData, ".ptx")) all.push_back(p);
  const fs::path corpus = fs::path(TCSIM_SOURCE_DIR) / "kernels";
  if (fs::exists(corpus))
    for (const auto& e : fs::recursive_directory_iterator(corpus)) {
      const std::string p = e.path().string();
      // kernels/*/bad/ hold deliberately broken launches; their PTX is valid except malformed*.ptx.
      if (e.path().extension() == ".ptx") all.push_back(e.path());
      (void)p;
    }
  REQUIRE(all.size() >= 10);
  for (const fs::path& p : all) {
    CAPTURE(p.filename().string());
    auto m = parse(read(p), p.filename().string());
    if (p.parent_path().filename() == "bad" && p.filename().string().rfind("malformed", 0) == 0) {
      // kernels/*/bad/malformed*.ptx are broken on purpose: they must be rejected with a position.
      REQUIRE(!m.has_value());
      CHECK(m.error().message.find(p.filename().string() + ":") == 0);
      continue;
    }
    REQUIRE_MESSAGE(m.has_value(), (m ? "" : m.error().message));
    CHECK(!m->functions.empty());
    check_invariants(*m);
  }
}

TEST_CASE("ptx parser: CCCL forms file has one entry per template and the async families") {
  auto m = parse(read(kData / "cccl_forms_sm_100a.ptx"), "cccl_forms_sm_100a.ptx");
  REQUIRE(m.has_value());
  size_t tcgen05 = 0, tma = 0, mbar = 0;
  for (const Function& f : m->functions)
    for (const Instr& in : f.instrs) {
      const auto mn = op_mnemonic(in.op);
      tcgen05 += mn.rfind("tcgen05", 0) == 0;
      tma += in.op == Op::cp_async_bulk_tensor;
      mbar += mn.rfind("mbarrier", 0) == 0;
    }
  CHECK(m->functions.size() > 1500);
  CHECK(tcgen05 > 400);
  CHECK(tma > 40);
  CHECK(mbar > 40);
}

TEST_CASE("ptx parser: literals and constant expressions") {
  auto m = parse(R"(.version 9.0
.target sm_100a
.address_size 64
.global .s32 a[8] = {0x10, 017, 0b101, -3, 1+2*3, (1<<4)|1, ~0, 7U};
.global .f32 f[3] = {-0f3F800000, 2.5, -1e2};
.global .f64 d = -0d3FF0000000000000;
)", "lit.ptx");
  REQUIRE(m.has_value());
  auto word = [&](const Symbol& s, int i, int sz) {
    uint64_t v = 0;
    for (int b = 0; b < sz; ++b) v |= uint64_t{s.init[i * sz + b]} << (8 * b);
    return v;
  };
  const Symbol& a = m->symbols[0];
  CHECK(word(a, 0, 4) == 16);
  CHECK(word(a, 1, 4) == 15);
  CHECK(word(a, 2, 4) == 5);
  CHECK(word(a, 3, 4) == 0xfffffffd);
  CHECK(word(a, 4, 4) == 7);
  CHECK(word(a, 5, 4) == 17);
  CHECK(word(a, 6, 4) == 0xffffffff);
  CHECK(word(a, 7, 4) == 7);
  const Symbol& f = m->symbols[1];
  CHECK(word(f, 0, 4) == 0xbf800000);  // -1.0f
  CHECK(word(f, 1, 4) == 0x40200000);  // 2.5f
  CHECK(word(f, 2, 4) == 0xc2c80000);  // -100.0f
  CHECK(word(m->symbols[2], 0, 8) == 0xbff0000000000000ull);
}

// Without nvcc the case is registered as skipped (doctest counts it in "skipped").
TEST_CASE("ptx parser: nvcc output of the corpus sources parses (recompiled now)" * doctest::skip(!TCSIM_HAVE_NVCC)) {
#if TCSIM_HAVE_NVCC
  const std::string nvcc = std::string(TCSIM_CUDA_ROOT) + "/bin/nvcc";
  const fs::path tmp = fs::temp_directory_path() / ("tcsim_ptx_parser_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  struct Variant { const char* arch; const char* flags; };
  const Variant variants[] = {{"sm_100a", "-lineinfo"}, {"sm_90a", "-G"}};
  for (const char* src : {"basics", "features", "async"}) {
    for (const Variant& v : variants) {
      fs::path out = tmp / (std::string(src) + "_" + v.arch + ".ptx");
      std::string cmd = nvcc + " -arch=" + v.arch + " -ptx " + v.flags + " " +
                        (kData / "nvcc" / (std::string(src) + ".cu")).string() + " -o " + out.string() +
                        " > /dev/null 2>&1";
      CAPTURE(cmd);
      REQUIRE(std::system(cmd.c_str()) == 0);
      auto m = parse(read(out), out.filename().string());
      REQUIRE_MESSAGE(m.has_value(), (m ? "" : m.error().message));
      check_invariants(*m);
    }
  }
  fs::remove_all(tmp);
#endif
}

TEST_CASE("ptx parser: .loc inlined_at chains resolve to the kernel's own line") {
  // nvcc's form: each call site of an inlining chain gets a .loc carrying its caller's inlined_at
  // before the callee's lines (k.cu:30 calls lambda line k.cu:12, which calls h.h:5, which calls
  // h.h:40). The same call-site position reached again later resolves through the latest .loc.
  const std::string text = R"(.version 8.7
.target sm_100a
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<4>;
	.loc	1 30 3
	mov.u32 %r1, 1;
	.loc	1 12 5, function_name $L__info_string0, inlined_at 1 30 3
	mov.u32 %r1, 2;
	.loc	2 5 7, function_name $L__info_string1, inlined_at 1 12 5
	mov.u32 %r1, 3;
	.loc	2 40 9, function_name $L__info_string2, inlined_at 2 5 7
	mov.u32 %r1, 4;
	.loc	1 31 3
	mov.u32 %r1, 5;
	.loc	2 40 9, function_name $L__info_string2, inlined_at 2 5 7
	mov.u32 %r1, 6;
	.loc	2 40 9, function_name $L__info_string2, inlined_at 2 77 1
	mov.u32 %r1, 7;
	ret;
}
	.file	1 "/src/k.cu"
	.file	2 "/src/h.h"
)";
  auto m = parse(text, "chain.ptx");
  REQUIRE(m);
  const Function& f = m->functions.at(0);
  auto at = [&](size_t i) { return cuda_location(*m, f.instrs.at(i).cuda); };
  CHECK(at(0) == "k.cu:30");
  CHECK(at(1) == "k.cu:30 via k.cu:12");
  CHECK(at(2) == "k.cu:30 via k.cu:12 > h.h:5");
  CHECK(at(3) == "k.cu:30 via ... > h.h:5 > h.h:40 (3 levels)");
  CHECK(f.instrs.at(3).cuda.depth == 3);
  CHECK(at(4) == "k.cu:31");
  CHECK(at(5) == "k.cu:30 via ... > h.h:5 > h.h:40 (3 levels)");  // through the latest .loc at h.h:5:7
  CHECK(at(6) == "h.h:77 via h.h:40");  // a call site never seen as a .loc ends the chain
}
