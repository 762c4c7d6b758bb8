// tcsim check-layout --tma-swizzle S --box A,B --dtype T --desc HEX --major k|mn
//                    [--arch sm_100a|sm_90a] [--kind KIND] [--json]
//
// A tile that `cp.async.bulk.tensor` wrote with swizzle S and a 2-D box of A x B elements
// (A = boxDim[0], the inner dimension; B = boxDim[1]) at the descriptor's start address, read by
// tcgen05.mma / wgmma through the descriptor HEX: is every (mn, k) the MMA reads the element TMA
// put there? How the box maps to the operand (isa/layouts/layout_check.h):
//   --major k : dim0 = K,  dim1 = M/N   box element (i0, i1) = operand element (mn i1, k i0)
//   --major mn: dim0 = M/N, dim1 = K    box element (i0, i1) = operand element (mn i0, k i1)
// When not, it lists the first mismatches (the element wanted, the element actually read, the
// byte address) and the most likely cause, found by trying the single-field (then two-field)
// corrections of the descriptor and of the major-ness.
//
// S: none, 32b, 64b, 128b, 128b_atom_32b, 128b_atom_32b_flip_8b, 128b_atom_64b (or the
// CU_TENSOR_MAP_SWIZZLE_* names). Exit 0: consistent; 1: not; 2: bad input.
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "isa/arch.h"
#include "isa/descriptors/smem_desc.h"
#include "isa/dtype.h"
#include "isa/layouts/layout_check.h"
#include "isa/mma_kind.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {

using namespace tcsim::isa;

constexpr std::string_view kUsage =
    "check-layout --tma-swizzle S --box A,B --dtype T --desc HEX --major k|mn "
    "[--arch sm_100a|sm_90a] [--kind KIND] [--json]";

uint64_t parse_hex64(std::string_view opt, std::string_view s) {
  std::string_view v = s;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) v.remove_prefix(2);
  if (v.empty() || v.size() > 16)
    throw UsageError(fmt::format("{} '{}': expected a 64-bit hex value (e.g. 0x4000404000010040)",
                                 opt, s));
  uint64_t x = 0;
  for (char c : v) {
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0) throw UsageError(fmt::format("{} '{}': '{}' is not a hex digit", opt, s, c));
    x = x << 4 | uint64_t(d);
  }
  return x;
}

// "A,B": two box dimensions, 1..256 each (cuTensorMapEncodeTiled).
std::pair<uint32_t, uint32_t> parse_box(std::string_view s) {
  const auto comma = s.find(',');
  auto num = [&](std::string_view v) {
    uint32_t x = 0;
    if (v.empty() || v.size() > 3) x = 0;
    else
      for (char c : v) {
        if (c < '0' || c > '9') return 0u;
        x = x * 10 + uint32_t(c - '0');
      }
    return x;
  };
  if (comma != std::string_view::npos) {
    const uint32_t a = num(s.substr(0, comma)), b = num(s.substr(comma + 1));
    if (a >= 1 && a <= 256 && b >= 1 && b <= 256) return {a, b};
  }
  throw UsageError(fmt::format("--box '{}': expected A,B — boxDim[0] (inner) and boxDim[1], each "
                               "1..256 elements (e.g. --box 64,128)",
                               s));
}

struct Options {
  std::optional<TmaSwizzle> swizzle;
  std::optional<std::pair<uint32_t, uint32_t>> box;
  std::optional<DType> dtype;
  std::optional<uint64_t> desc;
  std::optional<Major> major;
  std::optional<MmaKind> kind;
  Arch arch = Arch::Sm100a;
  bool json = false;
};

Options parse(Args args) {
  Options o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value ({})", a, kUsage));
      return args[++i];
    };
    if (a == "--tma-swizzle") {
      const auto v = value();
      o.swizzle = parse_tma_swizzle(v);
      if (!o.swizzle)
        throw UsageError(fmt::format("--tma-swizzle '{}': expected none, 32b, 64b, 128b, "
                                     "128b_atom_32b, 128b_atom_32b_flip_8b or 128b_atom_64b",
                                     v));
    } else if (a == "--box") {
      o.box = parse_box(value());
    } else if (a == "--dtype") {
      const auto v = value();
      o.dtype = parse_dtype(v);
      if (!o.dtype) throw UsageError(fmt::format("--dtype '{}': unknown type (e.g. bf16, f16, "
                                                 "tf32, e4m3, e2m1, s8)",
                                                 v));
    } else if (a == "--desc") {
      o.desc = parse_hex64(a, value());
    } else if (a == "--major") {
      const auto v = value();
      o.major = parse_major(v);
      if (!o.major) throw UsageError(fmt::format("--major '{}': expected k or mn", v));
    } else if (a == "--arch") {
      const auto v = value();
      const auto arch = parse_arch(v);
      if (!arch) throw UsageError(fmt::format("--arch '{}': expected sm_100a or sm_90a", v));
      o.arch = *arch;
    } else if (a == "--kind") {
      const auto v = value();
      o.kind = parse_kind(v);
      if (!o.kind) throw UsageError(fmt::format("--kind '{}': unknown kind (f16, tf32, f8f6f4, "
                                                "i8, mxf8f6f4, mxf4, mxf4nvf4)",
                                                v));
    } else if (a == "--json") {
      o.json = true;
    } else {
      throw UsageError(fmt::format("unknown option '{}' (usage: tcsim {})", a, kUsage));
    }
  }
  if (!o.swizzle || !o.box || !o.dtype || !o.desc || !o.major)
    throw UsageError(fmt::format("--tma-swizzle, --box, --dtype, --desc and --major are required "
                                 "(usage: tcsim {})",
                                 kUsage));
  return o;
}

std::string coord(uint32_t mn, uint32_t k) { return fmt::format("(mn {}, k {})", mn, k); }

int run_check_layout(Args args) {
  const Options o = parse(args);
  auto f = smem_element_format(*o.dtype, o.kind);
  if (!f) throw UsageError(f.error().message);
  const SmemDesc d = decode_smem_desc(*o.desc, o.arch);
  const Violations violations = validate_smem_desc(d, o.arch);
  // A reserved layout code has no layout to show (the descriptor's other violations are warnings).
  if (has_tcgen05(o.arch) && (d.raw_layout_code == 3 || d.raw_layout_code == 5 ||
                              d.raw_layout_code == 7))
    throw UsageError(fmt::format("--desc 0x{:016x}: layout code {} (bits 61-63) is invalid; legal: "
                                 "0 none, 1 128B with 32B atoms, 2 128B, 4 64B, 6 32B (PTX ISA "
                                 "§9.7.16.4.1 Table 40)",
                                 *o.desc, d.raw_layout_code));
  TmaMmaTile tile{*o.swizzle, o.box->first, o.box->second, *f, d, *o.major, has_tcgen05(o.arch)};
  auto rep = check_tma_mma_layout(tile);
  if (!rep) throw UsageError(rep.error().message);
  const LayoutCheckReport& r = *rep;

  std::optional<std::string> fixed_hex;
  if (r.fix) {
    if (auto enc = encode_smem_desc(r.fix->desc, o.arch))
      fixed_hex = fmt::format("0x{:016x}", *enc);
  }
  const bool kmaj = *o.major == Major::K;
  if (o.json) {
    nlohmann::json j;
    j["consistent"] = r.consistent;
    j["elements"] = r.elements;
    j["mismatches"] = r.wrong;
    nlohmann::json first = nlohmann::json::array();
    for (const auto& m : r.first) {
      nlohmann::json e;
      e["expected"] = {{"mn", m.mn}, {"k", m.k}};
      e["read"] = m.found ? nlohmann::json{{"mn", m.found->first}, {"k", m.found->second}}
                          : nlohmann::json(nullptr);
      e["address"] = m.address ? nlohmann::json(m.address->byte) : nlohmann::json(nullptr);
      if (m.address && f->sub_byte()) e["bit"] = m.address->bit;
      first.push_back(e);
    }
    j["first_mismatches"] = first;
    j["cause"] = r.cause.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.cause);
    j["suggested_desc"] = fixed_hex ? nlohmann::json(*fixed_hex) : nlohmann::json(nullptr);
    j["suggested_major"] = r.fix ? nlohmann::json(std::string(major_name(r.fix->major)))
                                 : nlohmann::json(nullptr);
    j["tma"] = r.tma;
    j["mma"] = r.mma;
    nlohmann::json vs = nlohmann::json::array();
    for (const auto& v : violations) vs.push_back(v.to_string());
    j["descriptor_violations"] = vs;
    fmt::print("{}\n", j.dump());
    return r.consistent ? 0 : 1;
  }

  fmt::print("TMA: {} — dim0 = {}, dim1 = {}\n", r.tma, kmaj ? "K" : "MN", kmaj ? "MN" : "K");
  fmt::print("MMA: descriptor 0x{:016x} ({}): {}\n", *o.desc, arch_name(o.arch), r.mma);
  for (const auto& v : violations) fmt::print("warning: descriptor: {}\n", v.to_string());
  if (r.consistent) {
    fmt::print("consistent: all {} elements the MMA reads are the ones TMA wrote\n", r.elements);
    return 0;
  }
  fmt::print("NOT consistent: {} of {} elements are read from the wrong place\n", r.wrong,
             r.elements);
  fmt::print("first mismatches (element wanted -> element actually read, at byte):\n");
  for (const auto& m : r.first) {
    std::string read = m.found ? coord(m.found->first, m.found->second)
                               : std::string("nothing TMA wrote (padding or outside the box)");
    std::string at = m.address ? (f->sub_byte() ? fmt::format("0x{:x}.{}", m.address->byte,
                                                              m.address->bit)
                                                : fmt::format("0x{:x}", m.address->byte))
                               : std::string("—");
    if (!m.address) read = "nothing: beyond the descriptor's K row";
    fmt::print("  {} -> {} at {}\n", coord(m.mn, m.k), read, at);
  }
  fmt::print("likely cause: {}\n", r.cause);
  if (r.fix) {
    if (fixed_hex && r.fix->desc.layout == d.layout && r.fix->desc.sbo == d.sbo &&
        r.fix->desc.lbo == d.lbo && r.fix->desc.base_offset == d.base_offset)
      fmt::print("fix: keep the descriptor, read the operand {}-major\n",
                 r.fix->major == Major::K ? "K" : "MN");
    else if (fixed_hex)
      fmt::print("fix: descriptor {}{}\n", *fixed_hex,
                 r.fix->major != *o.major
                     ? fmt::format(", read {}-major", r.fix->major == Major::K ? "K" : "MN")
                     : "");
  }
  return 1;
}

// "check-layout" has a hyphen, so it is registered without the TCSIM_COMMAND macro (which
// stringizes an identifier).
[[maybe_unused]] const bool registered =
    register_command({"check-layout", kUsage, run_check_layout});

}  // namespace
}  // namespace tcsim::cli
