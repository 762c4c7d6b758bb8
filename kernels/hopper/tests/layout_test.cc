// Host-side proof that the single-instruction wgmma kernels put every operand element exactly where
// their descriptors tell the tensor core to read it, for every committed spec, and that the
// fragment formulas of the hopper kernels cover their matrices exactly once.
//
// The writer is the kernels' own code (common/smem_layout.h, compiled here for the host). The
// reader is independent of it: the descriptor is decoded by tcsim's isa/descriptors (and checked
// by validate_smem_desc), and the address of element (row, k) of each K-step is evaluated from the
// PTX canonical-layout table (PTX ISA 9.2 §9.7.15.5.1.2.1; docs/smem_layouts.md §2) written as CuTe-style
// (shape : stride) modes, then swizzled with the measured base-offset rule (docs/smem_layouts.md §5).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "isa/descriptors/smem_desc.h"
#include "kernels/hopper/common/mma_fragments.h"
#include "kernels/hopper/common/smem_layout.h"

namespace {

using tcsim::isa::Arch;
using tcsim::isa::DType;
using tcsim::isa::Major;
using tcsim::isa::SwizzleMode;

// A CuTe mode list: coordinate c is split colexicographically over the shapes (the last mode takes
// what is left) and each part multiplied by its stride (bytes).
struct Mode {
  int64_t shape, stride;
};
int64_t eval_modes(const std::vector<Mode>& modes, int64_t c) {
  int64_t off = 0;
  for (size_t i = 0; i < modes.size(); ++i) {
    const bool last = i + 1 == modes.size();
    const int64_t part = last ? c : c % modes[i].shape;
    off += part * modes[i].stride;
    if (!last) c /= modes[i].shape;
  }
  return off;
}

int swizzle_width(SwizzleMode m) {
  switch (m) {
    case SwizzleMode::B32: return 32;
    case SwizzleMode::B64: return 64;
    case SwizzleMode::B128: return 128;
    default: return 16;
  }
}

// Where the tensor core reads element (r, kk) of one K-step (kk in elements of the step), from the
// decoded descriptor: the PTX table row for (major, swizzle), then the swizzle XOR with the phase
// ((addr >> 7) - base_offset) mod 2^b.
uint32_t reader_address(const tcsim::isa::SmemDesc& d, bool mn_major, uint32_t e, uint32_t r, uint32_t kk) {
  const int w = swizzle_width(d.layout);
  const int64_t t = 16 / e;  // elements per 16 bytes
  const int64_t lbo = d.lbo, sbo = d.sbo;
  std::vector<Mode> mn, k;
  if (!mn_major) {
    if (d.layout == SwizzleMode::None) {  // ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
      mn = {{8, 16}, {0, sbo}};
      k = {{t, e}, {0, lbo}};
    } else {  // ((8,m),(T,2k)) : ((W/16 T, SBO),(1,T))
      mn = {{8, w}, {0, sbo}};
      k = {{t, e}, {0, 16}};
    }
  } else {
    if (d.layout == SwizzleMode::None) {  // ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
      mn = {{t, e}, {1, 16}, {0, sbo}};
      k = {{8, 16}, {0, lbo}};
    } else {  // ((T,W/16,m),(8,k)) : ((1,T,LBO),(W/16 T,SBO))
      mn = {{t, e}, {w / 16, 16}, {0, lbo}};
      k = {{8, w}, {0, sbo}};
    }
  }
  const uint32_t addr = d.start_address + static_cast<uint32_t>(eval_modes(mn, r) + eval_modes(k, kk));
  if (d.layout == SwizzleMode::None) return addr;
  const uint32_t mask = static_cast<uint32_t>(w / 32 == 4 ? 7 : w / 32 == 2 ? 3 : 1);
  return addr ^ ((((addr >> 7) - d.base_offset) & mask) << 4);
}

std::filesystem::path hopper_dir() { return std::filesystem::path(TCSIM_SOURCE_DIR) / "kernels" / "hopper"; }

struct WgmmaSpec {
  std::string file, kernel, atype;
  uint32_t n = 0, e = 0, ksteps = 0, flags = 0, smem = 0;
  uint32_t layout_a = 0, layout_b = 0;
};

std::vector<WgmmaSpec> load_wgmma_specs() {
  std::vector<WgmmaSpec> out;
  const std::regex name_re(R"(wgmma_(\w+?)_n(\d+)$)");
  for (const auto& entry : std::filesystem::directory_iterator(hopper_dir() / "specs" / "wgmma")) {
    std::ifstream in(entry.path());
    const auto j = nlohmann::json::parse(in);
    WgmmaSpec s;
    s.file = entry.path().filename().string();
    s.kernel = j.at("kernel").get<std::string>();
    std::smatch m;
    REQUIRE_MESSAGE(std::regex_match(s.kernel, m, name_re), s.file);
    s.n = static_cast<uint32_t>(std::stoul(m[2]));
    const std::string types = m[1];
    s.atype = types.find("b1") != std::string::npos ? "b1" : types.substr(types.find('_') + 1, types.rfind('_') - types.find('_') - 1);
    const std::string adt = j.at("buffers").at("A").at("dtype").get<std::string>();
    s.e = adt == "f32" ? 4 : (adt == "f16" || adt == "bf16") ? 2 : 1;
    const auto& args = j.at("args");
    s.layout_a = args.at(4).at("u32").get<uint32_t>();
    s.layout_b = args.at(5).at("u32").get<uint32_t>();
    s.flags = args.at(6).at("u32").get<uint32_t>();
    s.ksteps = args.at(7).at("u32").get<uint32_t>();
    s.smem = j.value("dynamic_smem_bytes", 0u);
    out.push_back(s);
  }
  return out;
}

std::optional<DType> operand_dtype(const std::string& t) {
  if (t == "f16") return DType::F16;
  if (t == "bf16") return DType::BF16;
  if (t == "tf32") return DType::TF32;
  if (t == "e4m3") return DType::E4M3;
  if (t == "e5m2") return DType::E5M2;
  if (t == "s8") return DType::S8;
  if (t == "u8") return DType::U8;
  return std::nullopt;  // b1
}

// Checks one operand tile: every element lands in [lo, hi) at a distinct byte, and for every
// K-step the reader (descriptor + PTX table) finds each element where the writer put it.
// Returns the number of elements checked; failures are reported through doctest.
size_t check_operand(const WgmmaSpec& s, const hopper::CanonTile& t, uint32_t rows, const char* which,
                     std::set<uint32_t>& used, uint32_t lo, uint32_t hi) {
  const uint32_t kel = 32 / s.e * s.ksteps, kstep_el = 32 / s.e;
  size_t bad_place = 0, bad_read = 0, checked = 0;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t k = 0; k < kel; ++k) {
      const uint32_t p = t.phys(r, k);
      for (uint32_t b = 0; b < s.e; ++b)
        if (p + b < lo || p + b >= hi || !used.insert(p + b).second) ++bad_place;
    }
  for (uint32_t step = 0; step < s.ksteps; ++step) {
    const auto d = tcsim::isa::decode_smem_desc(t.desc(step), Arch::Sm90a);
    tcsim::isa::SmemDescContext ctx{Arch::Sm90a, t.major ? Major::MN : Major::K, operand_dtype(s.atype), which};
    const auto v = tcsim::isa::validate_smem_desc(d, ctx);
    CHECK_MESSAGE(v.empty(), s.file, " ", which, " step ", step, ": ", v.empty() ? "" : v.front().to_string());
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t kk = 0; kk < kstep_el; ++kk) {
        ++checked;
        if (reader_address(d, t.major, s.e, r, kk) != t.phys(r, step * kstep_el + kk)) ++bad_read;
      }
  }
  CHECK_MESSAGE(bad_place == 0, s.file, " ", which, ": ", bad_place, " bytes outside the tile region or doubly used");
  CHECK_MESSAGE(bad_read == 0, s.file, " ", which, ": ", bad_read, " of ", checked,
                " elements read from another place than the kernel wrote them");
  return checked;
}

}  // namespace

TEST_CASE("wgmma specs: every operand element is read where the kernel wrote it, for every K-step") {
  const auto specs = load_wgmma_specs();
  REQUIRE(specs.size() > 100);
  size_t elements = 0;
  std::map<std::string, int> layouts_seen;
  for (const auto& s : specs) {
    const bool a_regs = s.flags & 8;
    const auto la = hopper::decode_layout_arg(s.layout_a), lb = hopper::decode_layout_arg(s.layout_b);
    // What wgmma_single.cuh would trap on.
    CHECK_MESSAGE((s.ksteps >= 1 && s.ksteps <= 4), s.file);
    CHECK_MESSAGE((s.flags & ~63u) == 0, s.file);
    const bool is_float = s.atype != "b1" && s.atype != "s8" && s.atype != "u8";
    CHECK_MESSAGE((is_float || (s.flags & 6) == 0), s.file, ": negation of an integer operand");
    CHECK_MESSAGE(((s.atype == "s8" || s.atype == "u8") || (s.flags & 16) == 0), s.file, ": .satfinite");
    CHECK_MESSAGE((s.e == 2 || (lb.major == 0 && (a_regs || la.major == 0))), s.file, ": MN-major non-16-bit");
    for (const auto& l : {la, lb}) CHECK_MESSAGE((l.offset % (l.swz ? 128 : 16) == 0), s.file, ": tile offset");

    // The dynamic shared memory may start anywhere 16-byte aligned: try several bases.
    for (uint32_t raw : {0u, 16u, 528u, 1008u, 4096u + 400u}) {
      const uint32_t region = (raw + 1023u) & ~1023u;
      const auto ta = hopper::make_canon_tile(la, region, 64, s.e, s.ksteps);
      const uint32_t b_region = a_regs ? region : region + ((ta.footprint + 1023u) & ~1023u);
      const auto tb = hopper::make_canon_tile(lb, b_region, s.n, s.e, s.ksteps);
      const uint32_t end = b_region + tb.footprint;
      CHECK_MESSAGE(end - raw <= s.smem, s.file, ": needs ", end - raw, " bytes of shared memory, the spec gives ",
                    s.smem);
      std::set<uint32_t> used;
      if (!a_regs) elements += check_operand(s, ta, 64, "A", used, region + la.offset, region + ta.footprint);
      elements += check_operand(s, tb, s.n, "B", used, b_region + lb.offset, end);
    }
    ++layouts_seen[fmt::format("{}{}", lb.major ? "mn" : "k", lb.swz)];
  }
  // Every (major, swizzle) of B appears in the corpus.
  for (const char* m : {"k0", "k1", "k2", "k3", "mn0", "mn1", "mn2", "mn3"}) CHECK_MESSAGE(layouts_seen[m] > 0, m);
  MESSAGE(specs.size(), " wgmma specs, ", elements, " operand elements checked");
}

TEST_CASE("the reader finds the misplaced element when the writer is wrong (negative control)") {
  // Swapping LBO and SBO of a no-swizzle K-major tile, or dropping the swizzle, must be detected.
  const auto la = hopper::decode_layout_arg(hopper::encode_layout_arg({0, hopper::kSwzNone, 1, 0, 1, 0}));
  auto t = hopper::make_canon_tile(la, 1024, 64, 2, 2);
  auto swapped = t;
  std::swap(swapped.lbo, swapped.sbo);
  const auto d = tcsim::isa::decode_smem_desc(swapped.desc(1), Arch::Sm90a);
  int mismatches = 0;
  for (uint32_t r = 0; r < 64; ++r)
    for (uint32_t kk = 0; kk < 16; ++kk) mismatches += reader_address(d, false, 2, r, kk) != t.phys(r, 16 + kk);
  CHECK(mismatches > 800);

  const auto l128 = hopper::decode_layout_arg(hopper::encode_layout_arg({1, hopper::kSwz128B, 0, 1, 0, 384}));
  auto u = hopper::make_canon_tile(l128, 2048, 64, 2, 1);
  REQUIRE(u.bo == 3);  // anchored at 2048 + 384: (P >> 7) & 7 = 3
  auto no_bo = u;
  no_bo.bo = 0;
  const auto d2 = tcsim::isa::decode_smem_desc(no_bo.desc(0), Arch::Sm90a);
  mismatches = 0;
  for (uint32_t r = 0; r < 64; ++r)
    for (uint32_t kk = 0; kk < 16; ++kk) mismatches += reader_address(d2, true, 2, r, kk) != u.phys(r, kk);
  CHECK(mismatches > 700);
}

TEST_CASE("descriptor bits, worked by hand (§9.7.15.5.1.2.2)") {
  // K-major 128B swizzle at 0x400 (1024), LBO 16 (enc 1), SBO 1024 (enc 64): the configuration of the
  // H200 check of docs/smem_layouts.md §7. start 1024 >> 4 = 0x40; LBO 1 << 16; SBO 64 << 32 = 0x40'0000'0000;
  // layout 1 (128B) << 62 = 0x4000'0000'0000'0000.
  CHECK(hopper::make_wgmma_desc(1024, 16, 1024, hopper::kSwz128B, 0) == 0x4000004000010040ull);
  // MN-major 64B swizzle, start 0x2200 (8704), LBO 512 (enc 32), SBO 1024 (enc 64), base offset 3:
  // 8704 >> 4 = 0x220; 32 << 16 = 0x200000; 64 << 32; 3 << 49 = 0x6'0000'0000'0000; 2 << 62.
  CHECK(hopper::make_wgmma_desc(8704, 512, 1024, hopper::kSwz64B, 3) == 0x8006004000200220ull);
  // 32B: code 3 at bits 62-63; no swizzle: 0.
  CHECK((hopper::make_wgmma_desc(0, 128, 256, hopper::kSwz32B, 0) >> 62) == 3);
  CHECK((hopper::make_wgmma_desc(0, 128, 256, hopper::kSwzNone, 0) >> 62) == 0);
  // The swizzle itself: 128B moves chunk c of line L to c ^ (L & 7).
  CHECK(hopper::swizzle(3 * 128 + 16 * 5 + 7, hopper::kSwz128B, 0) == 3 * 128 + 16 * (5 ^ 3) + 7);
  CHECK(hopper::swizzle(9 * 128 + 16 * 1, hopper::kSwz64B, 0) == 9 * 128 + 16 * (1 ^ 1));
  CHECK(hopper::swizzle(9 * 128 + 16 * 1, hopper::kSwz64B, 1) == 9 * 128 + 16 * 1);  // phase (9-1)&3 = 0
}

TEST_CASE("wgmma fragments cover D and the register A exactly once") {
  for (uint32_t n : {8u, 24u, 64u, 256u}) {
    std::set<std::pair<uint32_t, uint32_t>> d;
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t p = 0; p < n / 4; ++p) {
        const auto c = hopper::wgmma_acc_pair(t, p);
        CHECK(c.row < 64);
        CHECK(c.col + 1 < n);
        CHECK(d.insert({c.row, c.col}).second);
        CHECK(d.insert({c.row, c.col + 1}).second);
      }
    CHECK(d.size() == 64u * n);
  }
  std::set<std::pair<uint32_t, uint32_t>> a;  // 64 rows x 8 words of 4 bytes (one K-step = 32 bytes)
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t j = 0; j < 4; ++j) {
      const auto f = hopper::wgmma_a_frag(t, j);
      CHECK(f.row < 64);
      CHECK(f.unit < 8);
      CHECK(a.insert({f.row, f.unit}).second);
    }
  CHECK(a.size() == 64u * 8);
  // Spot values from the PTX figure for f16 A (§9.7.15.5.1.1, docs/mma_fragments.md §2): thread 37 (warp 1,
  // g 1, q 1) register 3 holds row 16 + 1 + 8 = 25, elements k = 2*1 + 8 = 10, 11 = bytes 20..23.
  CHECK(hopper::wgmma_a_frag(37, 3).row == 25);
  CHECK(hopper::wgmma_a_frag(37, 3).unit == 5);
}

TEST_CASE("mma.sync fragments cover A, B and C exactly once for every register count") {
  // (M, A registers, B registers): the shapes of common/mma_ops.h.
  struct Shape {
    uint32_t m, a_regs, b_regs;
  };
  for (const Shape sh : {Shape{16, 4, 2}, Shape{16, 2, 1}, Shape{8, 1, 1}, Shape{16, 8, 4}}) {
    const uint32_t units = sh.a_regs * 32 / sh.m;  // K units per row of A (= of B: 8 rows x 4 b_regs)
    std::set<std::pair<uint32_t, uint32_t>> a, b, c;
    for (uint32_t lane = 0; lane < 32; ++lane) {
      for (uint32_t j = 0; j < sh.a_regs; ++j) {
        const auto f = hopper::mma_a_frag(sh.a_regs, lane, j);
        CHECK(f.row < sh.m);
        CHECK(f.unit < units);
        CHECK(a.insert({f.row, f.unit}).second);
      }
      for (uint32_t j = 0; j < sh.b_regs; ++j) {
        const auto f = hopper::mma_b_frag(lane, j);
        CHECK(f.row < 8);
        CHECK(b.insert({f.row, f.unit}).second);
      }
      for (uint32_t i = 0; i < sh.m * 8 / 32; ++i) {
        const auto e = hopper::mma_acc_elem(sh.m, lane, i);
        CHECK(e.row < sh.m);
        CHECK(e.col < 8);
        CHECK(c.insert({e.row, e.col}).second);
      }
    }
    CHECK(a.size() == sh.m * units);
    CHECK(b.size() == 8u * sh.b_regs * 4);
    CHECK(c.size() == sh.m * 8u);
  }
  // m16n8k16 f16 A, lane 9 (g 2, q 1), register 2: row 2, k = 2*1 + 8 = 10 -> unit 5 (§9.7.14.5.8).
  CHECK(hopper::mma_a_frag(4, 9, 2).row == 2);
  CHECK(hopper::mma_a_frag(4, 9, 2).unit == 5);
  // m16n8k16 B, lane 9, register 1: column 2, k = 2*1 + 8 -> unit 5.
  CHECK(hopper::mma_b_frag(9, 1).unit == 5);
}
