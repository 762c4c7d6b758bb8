// tcsim encode smem-desc|idesc|taddr ...: build a descriptor from its fields and print it as 0x-hex.
// An illegal combination is refused (exit code 2) with every rule it breaks and the PTX section;
// the rules are the same code and tables the simulator uses (isa/descriptors, isa/legality).
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "isa/descriptors/instr_desc.h"
#include "isa/descriptors/parse_number.h"
#include "isa/descriptors/smem_desc.h"
#include "isa/descriptors/tmem_addr.h"
#include "isa/legality.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {

using namespace tcsim::isa;

struct Options {
  std::vector<std::string_view> positional;
  std::map<std::string, std::string, std::less<>> values;
  std::set<std::string, std::less<>> flags;

  bool has(std::string_view n) const { return values.count(n) || flags.count(n); }
  const std::string* value(std::string_view n) const {
    auto it = values.find(n);
    return it == values.end() ? nullptr : &it->second;
  }
};

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
  if (!o.positional.empty()) throw UsageError(fmt::format("unexpected argument '{}'", o.positional.front()));
  return o;
}

const std::string& required(const Options& o, std::string_view name) {
  if (const std::string* v = o.value(name)) return *v;
  throw UsageError(fmt::format("missing required option {}", name));
}

uint64_t number(const Options& o, std::string_view name, uint64_t max, uint64_t dflt) {
  const std::string* s = o.value(name);
  if (!s) return dflt;
  auto v = parse_uint(*s, max);
  if (!v) throw UsageError(fmt::format("{}: {}", name, v.error().message));
  return *v;
}

uint64_t required_number(const Options& o, std::string_view name, uint64_t max) {
  required(o, name);
  return number(o, name, max, 0);
}

Arch arch_option(const Options& o) {
  const std::string* s = o.value("--arch");
  if (!s) return Arch::Sm100a;
  auto a = parse_arch(*s);
  if (!a) throw UsageError(fmt::format("unknown arch '{}' (legal: sm_90a, sm_100a, sm_100f, sm_103a)", *s));
  return *a;
}

[[noreturn]] void refuse(const Violations& v) {
  std::string msg = "illegal combination: ";
  for (std::size_t i = 0; i < v.size(); ++i) msg += (i ? "; " : "") + v[i].to_string();
  throw UsageError(msg);
}

DType dtype_option(const Options& o, std::string_view name) {
  const std::string& s = required(o, name);
  auto t = parse_dtype(s);
  if (!t)
    throw UsageError(fmt::format("{}: unknown type '{}' (legal: f16 bf16 tf32 f32 e4m3 e5m2 e2m3 e3m2 e2m1 s8 u8 s32)",
                                 name, s));
  return *t;
}

Major major_option(const Options& o, std::string_view name) {
  const std::string* s = o.value(name);
  if (!s) return Major::K;
  auto m = parse_major(*s);
  if (!m) throw UsageError(fmt::format("{} must be k or mn, got '{}'", name, *s));
  return *m;
}

int encode_smem(Args rest) {
  Options o = parse_options(rest, {"--arch", "--addr", "--lbo", "--sbo", "--layout", "--base-offset", "--lbo-mode"}, {});
  const Arch arch = arch_option(o);
  SmemDesc d;
  // Byte values; the descriptor stores them >> 4 (encode_smem_desc refuses what does not fit).
  d.start_address = static_cast<uint32_t>(required_number(o, "--addr", 0xFFFFFFFF));
  d.lbo = static_cast<uint32_t>(required_number(o, "--lbo", 0xFFFFFFFF));
  d.sbo = static_cast<uint32_t>(required_number(o, "--sbo", 0xFFFFFFFF));
  const std::string& ls = required(o, "--layout");
  auto layout = parse_swizzle_mode(ls);
  if (!layout) throw UsageError(fmt::format("unknown layout '{}' (legal: none 128b_base32b 128b 64b 32b)", ls));
  d.layout = *layout;
  d.base_offset = static_cast<uint8_t>(number(o, "--base-offset", 7, 0));
  d.lbo_mode = static_cast<uint8_t>(number(o, "--lbo-mode", 1, 0));
  d.version = has_tcgen05(arch) ? 1 : 0;  // the fixed 0b001 of Table 40; reserved on sm_90
  auto raw = encode_smem_desc(d, arch);
  if (!raw) throw UsageError(raw.error().message);
  Violations v = validate_smem_desc(decode_smem_desc(*raw, arch), arch);
  if (!v.empty()) refuse(v);
  fmt::print("0x{:016x}\n", *raw);
  return 0;
}

int encode_idesc(Args rest) {
  Options o = parse_options(rest,
                            {"--kind", "--atype", "--btype", "--dtype", "--m", "--n", "--k", "--a-major", "--b-major",
                             "--sparse-selector", "--scale-type", "--sfa-id", "--sfb-id", "--max-shift", "--cta-group",
                             "--arch", "--scale-vec"},
                            {"--negate-a", "--negate-b", "--saturate", "--sparse", "--ws"});
  const std::string& ks = required(o, "--kind");
  auto kind = parse_kind(ks);
  if (!kind) throw UsageError(fmt::format("unknown kind '{}' (legal: f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4)", ks));
  const bool block = kind_row(*kind).block_scaled;

  InstrDescContext ctx;
  ctx.arch = arch_option(o);
  ctx.cta_group = static_cast<int>(number(o, "--cta-group", 2, 1));
  if (ctx.cta_group != 1 && ctx.cta_group != 2) throw UsageError("--cta-group must be 1 or 2");
  ctx.ws = o.has("--ws");
  if (const std::string* s = o.value("--scale-vec")) {
    ctx.scale_vec = parse_scale_vec(*s);
    if (!ctx.scale_vec) throw UsageError(fmt::format("unknown scale vector '{}' (legal: 1X 2X 4X block16 block32)", *s));
  }

  InstrDesc d;
  d.kind = *kind;
  d.a_type = dtype_option(o, "--atype");
  d.b_type = dtype_option(o, "--btype");
  if (block && !o.has("--dtype")) d.d_type = DType::F32;  // block-scaled kinds have no D field: D is f32
  else d.d_type = dtype_option(o, "--dtype");
  d.m = static_cast<int>(required_number(o, "--m", 1 << 20));
  d.n = static_cast<int>(required_number(o, "--n", 1 << 20));
  d.k = static_cast<int>(number(o, "--k", 1 << 20, 0));
  d.a_major = major_option(o, "--a-major");
  d.b_major = major_option(o, "--b-major");
  d.negate_a = o.has("--negate-a");
  d.negate_b = o.has("--negate-b");
  d.saturate = o.has("--saturate");
  d.sparse = o.has("--sparse");
  if (o.has("--sparse-selector") && !d.sparse) throw UsageError("--sparse-selector needs --sparse");
  d.sparse_selector = static_cast<int>(number(o, "--sparse-selector", 3, 0));
  // --max-shift takes the shift in columns (0, 8, 16, 32); the field codes 1-3 are accepted too.
  int shift = static_cast<int>(number(o, "--max-shift", 32, 0));
  d.max_shift = (shift >= 1 && shift <= 3) ? 4 << shift : shift;
  if (o.has("--scale-type") || o.has("--sfa-id") || o.has("--sfb-id")) {
    if (!block)
      throw UsageError(fmt::format("--scale-type/--sfa-id/--sfb-id apply to the block-scaled kinds (mxf8f6f4, mxf4, "
                                   "mxf4nvf4), not kind::{}",
                                   kind_name(*kind)));
  }
  if (block) {
    const std::string* st = o.value("--scale-type");
    std::string s = st ? *st : "ue8m0";  // UE8M0 is the only scale type of mxf8f6f4 and mxf4
    if (s == "ue8m0") d.scale_type = DType::UE8M0;
    else if (s == "ue4m3") d.scale_type = DType::UE4M3;
    else throw UsageError(fmt::format("--scale-type must be ue8m0 or ue4m3, got '{}'", s));
    d.sfa_id = static_cast<int>(number(o, "--sfa-id", 3, 0));
    d.sfb_id = static_cast<int>(number(o, "--sfb-id", 3, 0));
  }
  auto raw = encode_instr_desc(d);
  if (!raw) throw UsageError(raw.error().message);
  // Validate what was encoded (decode back), so the CLI checks exactly what the hardware would read.
  Violations v = validate_instr_desc(decode_instr_desc(*raw, *kind), ctx);
  if (!v.empty()) refuse(v);
  fmt::print("0x{:08x}\n", *raw);
  return 0;
}

int encode_taddr(Args rest) {
  Options o = parse_options(rest, {"--lane", "--column", "--arch"}, {});
  TmemAddr a;
  a.lane = static_cast<uint32_t>(required_number(o, "--lane", 0xFFFF));
  a.column = static_cast<uint32_t>(required_number(o, "--column", 0xFFFF));
  auto raw = encode_tmem_addr(a);
  if (!raw) throw UsageError(raw.error().message);
  Violations v = validate_tmem_addr(a, arch_option(o));
  if (!v.empty()) refuse(v);
  fmt::print("0x{:08x}\n", *raw);
  return 0;
}

int run_encode(Args args) {
  if (args.empty()) throw UsageError("encode what? (smem-desc, idesc or taddr)");
  std::string_view what = args[0];
  Args rest = args.subspan(1);
  if (what == "smem-desc") return encode_smem(rest);
  if (what == "idesc") return encode_idesc(rest);
  if (what == "taddr") return encode_taddr(rest);
  throw UsageError(fmt::format("unknown descriptor '{}' (legal: smem-desc, idesc, taddr)", what));
}

}  // namespace

TCSIM_COMMAND(encode,
              "encode smem-desc [--arch sm_100a|sm_100f|sm_103a|sm_90a (default sm_100a)] --addr N --lbo N --sbo N\n"
              "               --layout none|128b_base32b|128b|64b|32b [--base-offset N] [--lbo-mode 0|1]\n"
              "                 (N in bytes, decimal or 0x-hex)\n"
              "  encode idesc --kind K --atype T --btype T --dtype T --m M --n N [--a-major k|mn] [--b-major k|mn]\n"
              "               [--negate-a] [--negate-b] [--saturate] [--sparse [--sparse-selector N]]\n"
              "               [--scale-type ue8m0|ue4m3 (default ue8m0) --sfa-id N --sfb-id N] [--max-shift 0|8|16|32]\n"
              "               [--cta-group 1|2 (default 1)] [--arch A (default sm_100a)] [--ws]\n"
              "               [--scale-vec 1X|2X|4X|block16|block32] [--k 96]   (block-scaled: --dtype defaults to f32)\n"
              "  encode taddr --lane L --column C",
              run_encode);

}  // namespace tcsim::cli
