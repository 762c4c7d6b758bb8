// tcsim decode smem-desc|idesc|taddr HEX ...: every field of a descriptor by name, bit range and
// value, what it means, and every PTX rule it breaks (with the section). Decoding itself cannot
// fail on a well-formed number, so violations are reported with exit code 0; bad input (not hex,
// out of range, unknown kind/arch/option) is exit code 2.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "isa/descriptors/instr_desc.h"
#include "isa/descriptors/parse_number.h"
#include "isa/descriptors/smem_desc.h"
#include "isa/descriptors/tmem_addr.h"
#include "isa/legality.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {

using namespace tcsim::isa;
using nlohmann::ordered_json;

struct Options {
  std::vector<std::string_view> positional;
  std::map<std::string, std::string, std::less<>> values;
  std::set<std::string, std::less<>> flags;
};

// --name VALUE / --name=VALUE for `valued`, bare --name for `flags`; anything else starting with
// "--" is an error naming the legal options.
Options parse_options(Args args, std::initializer_list<std::string_view> valued,
                      std::initializer_list<std::string_view> flags) {
  Options o;
  auto known = [](std::initializer_list<std::string_view> l, std::string_view n) {
    for (auto x : l)
      if (x == n) return true;
    return false;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a.size() < 2 || a.substr(0, 2) != "--") {
      o.positional.push_back(a);
      continue;
    }
    std::string_view name = a, value;
    bool has_value = false;
    if (auto eq = a.find('='); eq != std::string_view::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      has_value = true;
    }
    if (known(valued, name)) {
      if (!has_value) {
        if (i + 1 >= args.size()) throw UsageError(fmt::format("option {} needs a value", name));
        value = args[++i];
      }
      if (o.values.count(name)) throw UsageError(fmt::format("option {} given twice", name));
      o.values.emplace(std::string(name), std::string(value));
    } else if (known(flags, name) && !has_value) {
      o.flags.emplace(name);
    } else {
      std::string legal;
      for (auto x : valued) legal += fmt::format(" {} V", x);
      for (auto x : flags) legal += fmt::format(" {}", x);
      throw UsageError(fmt::format("unknown option '{}' (legal:{})", a, legal));
    }
  }
  return o;
}

std::string opt(const Options& o, std::string_view name, std::string_view dflt) {
  auto it = o.values.find(name);
  return it == o.values.end() ? std::string(dflt) : it->second;
}

Arch arch_option(const Options& o, std::string_view dflt) {
  std::string s = opt(o, "--arch", dflt);
  auto a = parse_arch(s);
  if (!a) throw UsageError(fmt::format("unknown arch '{}' (legal: sm_90a, sm_100a, sm_100f, sm_103a)", s));
  return *a;
}

uint64_t hex_argument(const Options& o, std::string_view what, int bits) {
  if (o.positional.size() != 1)
    throw UsageError(fmt::format("expected exactly one {} value in hex, got {}", what, o.positional.size()));
  auto v = parse_hex(o.positional[0], bits);
  if (!v) throw UsageError(fmt::format("{}: {}", what, v.error().message));
  return *v;
}

ordered_json violations_json(const Violations& v) {
  ordered_json a = ordered_json::array();
  for (const auto& x : v) a.push_back(x.to_string());
  return a;
}

void print_violations(const Violations& v) {
  if (v.empty()) {
    fmt::print("violations: none\n");
    return;
  }
  fmt::print("violations ({}):\n", v.size());
  for (const auto& x : v) fmt::print("  - {}\n", x.to_string());
}

ordered_json type_json(const std::optional<DType>& t) {
  return t ? ordered_json(std::string(dtype_name(*t))) : ordered_json(nullptr);
}

int decode_smem(Args rest) {
  Options o = parse_options(rest, {"--arch"}, {"--json"});
  const Arch arch = arch_option(o, "sm_100a");
  const uint64_t raw = hex_argument(o, "smem-desc", 64);
  const SmemDesc d = decode_smem_desc(raw, arch);
  const Violations v = validate_smem_desc(d, arch);
  if (o.flags.count("--json")) {
    ordered_json j;
    j["raw"] = fmt::format("0x{:016x}", raw);
    j["arch"] = std::string(arch_name(arch));
    j["start_address"] = d.start_address;
    j["lbo"] = d.lbo;
    j["sbo"] = d.sbo;
    j["version"] = d.version;
    j["base_offset"] = d.base_offset;
    j["lbo_mode"] = d.lbo_mode;
    j["layout"] = std::string(smem_desc_layout_name(d));
    j["violations"] = violations_json(v);
    j["fields"] = ordered_json::parse(smem_desc_fields_json(raw, arch));
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  const bool tc = has_tcgen05(arch);
  fmt::print("smem-desc 0x{:016x} ({}: {} layout, {})\n", raw, arch_name(arch), tc ? "tcgen05" : "wgmma",
             tc ? "PTX ISA §9.7.16.4.1 Table 40" : "PTX ISA §9.7.15.5.1.2.2");
  fmt::print("{}", smem_desc_fields_text(raw, arch));
  fmt::print("decoded:\n");
  fmt::print("  start address  {} bytes (0x{:x})\n", d.start_address, d.start_address);
  fmt::print("  LBO            {} bytes (0x{:x}){}\n", d.lbo, d.lbo, d.lbo_mode ? " -- absolute address (LBO mode 1)" : "");
  fmt::print("  SBO            {} bytes (0x{:x})\n", d.sbo, d.sbo);
  if (tc) fmt::print("  version        {}\n", d.version);
  fmt::print("  base offset    {}\n", d.base_offset);
  if (tc) fmt::print("  LBO mode       {} ({})\n", d.lbo_mode, d.lbo_mode ? "absolute" : "relative");
  fmt::print("  layout         {} (code {})\n", smem_desc_layout_name(d), d.raw_layout_code);
  print_violations(v);
  return 0;
}

int decode_idesc(Args rest) {
  Options o = parse_options(rest, {"--kind", "--cta-group", "--arch", "--scale-vec"}, {"--json", "--ws"});
  auto kit = o.values.find("--kind");
  if (kit == o.values.end()) throw UsageError("decode idesc needs --kind (f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4)");
  auto kind = parse_kind(kit->second);
  if (!kind)
    throw UsageError(fmt::format("unknown kind '{}' (legal: f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4)", kit->second));
  InstrDescContext ctx;
  ctx.arch = arch_option(o, "sm_100a");
  std::string cg = opt(o, "--cta-group", "1");
  if (cg != "1" && cg != "2") throw UsageError(fmt::format("--cta-group must be 1 or 2, got '{}'", cg));
  ctx.cta_group = cg == "1" ? 1 : 2;
  ctx.ws = o.flags.count("--ws") != 0;
  if (auto it = o.values.find("--scale-vec"); it != o.values.end()) {
    ctx.scale_vec = parse_scale_vec(it->second);
    if (!ctx.scale_vec)
      throw UsageError(fmt::format("unknown scale vector '{}' (legal: 1X 2X 4X block16 block32)", it->second));
  }
  const uint32_t raw = static_cast<uint32_t>(hex_argument(o, "idesc", 32));
  const InstrDesc d = decode_instr_desc(raw, *kind);
  const Violations v = validate_instr_desc(d, ctx);
  const bool block = kind_row(*kind).block_scaled;
  if (o.flags.count("--json")) {
    ordered_json j;
    j["raw"] = fmt::format("0x{:08x}", raw);
    j["kind"] = std::string(kind_name(*kind));
    j["cta_group"] = ctx.cta_group;
    j["m"] = d.m;
    j["n"] = d.n;
    j["k"] = d.k;
    j["a_type"] = type_json(d.a_type);
    j["b_type"] = type_json(d.b_type);
    j["d_type"] = type_json(d.d_type);
    j["a_major"] = std::string(major_name(d.a_major));
    j["b_major"] = std::string(major_name(d.b_major));
    j["negate_a"] = d.negate_a;
    j["negate_b"] = d.negate_b;
    j["saturate"] = d.saturate;
    j["sparse"] = d.sparse;
    j["sparse_selector"] = d.sparse_selector;
    j["max_shift"] = d.max_shift;
    j["scale_type"] = block ? type_json(d.scale_type) : ordered_json(nullptr);
    j["sfa_id"] = d.sfa_id;
    j["sfb_id"] = d.sfb_id;
    j["violations"] = violations_json(v);
    j["fields"] = ordered_json::parse(instr_desc_fields_json(raw, *kind));
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  auto tname = [](const std::optional<DType>& t, int code) {
    return t ? std::string(dtype_name(*t)) : fmt::format("undefined code {}", code);
  };
  fmt::print("idesc 0x{:08x} (kind::{}, cta_group::{}{}, {}; PTX ISA §9.7.16.4.2 {})\n", raw, kind_name(*kind),
             ctx.cta_group, ctx.ws ? ", .ws" : "", arch_name(ctx.arch),
             *kind == MmaKind::MXF8F6F4 ? "Table 43" : block ? "Table 44" : "Table 42");
  fmt::print("{}", instr_desc_fields_text(raw, *kind));
  fmt::print("decoded:\n");
  fmt::print("  shape          M = {}, N = {}, K = {}{}\n", d.m, d.n, d.k, d.sparse ? " (sparse)" : "");
  auto major = [](Major m) { return m == Major::K ? "K-major" : "MN-major"; };
  fmt::print("  A              {}, {}{}\n", tname(d.a_type, d.a_code), major(d.a_major), d.negate_a ? ", negated" : "");
  fmt::print("  B              {}, {}{}\n", tname(d.b_type, d.b_code), major(d.b_major), d.negate_b ? ", negated" : "");
  fmt::print("  D              {}{}\n", tname(d.d_type, d.d_code), d.saturate ? ", saturating" : "");
  if (d.sparse && !block) fmt::print("  sparsity sel.  {}\n", d.sparse_selector);
  if (block) {
    fmt::print("  scale type     {}\n", d.scale_type ? dtype_name(*d.scale_type) : "?");
    fmt::print("  SFA_ID/SFB_ID  {} / {}\n", d.sfa_id, d.sfb_id);
  } else {
    fmt::print("  max shift      {}\n", d.max_shift);
  }
  print_violations(v);
  return 0;
}

int decode_taddr(Args rest) {
  Options o = parse_options(rest, {"--arch"}, {"--json"});
  const Arch arch = arch_option(o, "sm_100a");
  const uint32_t raw = static_cast<uint32_t>(hex_argument(o, "taddr", 32));
  const TmemAddr a = decode_tmem_addr(raw);
  const Violations v = validate_tmem_addr(a, arch);
  if (o.flags.count("--json")) {
    ordered_json j;
    j["raw"] = fmt::format("0x{:08x}", raw);
    j["lane"] = a.lane;
    j["column"] = a.column;
    j["violations"] = violations_json(v);
    j["fields"] = ordered_json::parse(tmem_addr_fields_json(raw));
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  fmt::print("taddr 0x{:08x} (PTX ISA §9.7.16.1.1: lane << 16 | column)\n", raw);
  fmt::print("{}", tmem_addr_fields_text(raw));
  fmt::print("decoded:\n  lane {}, column {}\n", a.lane, a.column);
  print_violations(v);
  return 0;
}

int run_decode(Args args) {
  if (args.empty()) throw UsageError("decode what? (smem-desc, idesc or taddr)");
  std::string_view what = args[0];
  Args rest = args.subspan(1);
  if (what == "smem-desc") return decode_smem(rest);
  if (what == "idesc") return decode_idesc(rest);
  if (what == "taddr") return decode_taddr(rest);
  throw UsageError(fmt::format("unknown descriptor '{}' (legal: smem-desc, idesc, taddr)", what));
}

}  // namespace

TCSIM_COMMAND(decode,
              "decode smem-desc HEX [--arch sm_100a|sm_100f|sm_103a|sm_90a (default sm_100a)] [--json]\n"
              "  decode idesc HEX --kind f16|tf32|f8f6f4|i8|mxf8f6f4|mxf4|mxf4nvf4 [--cta-group 1|2 (default 1)]\n"
              "               [--arch A (default sm_100a)] [--ws] [--scale-vec 1X|2X|4X|block16|block32] [--json]\n"
              "  decode taddr HEX [--arch A (default sm_100a)] [--json]",
              run_decode);

}  // namespace tcsim::cli
