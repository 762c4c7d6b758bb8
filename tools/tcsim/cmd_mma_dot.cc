// tcsim mma-dot: evaluate one MMA output element per input vector with a parameter row of
// models/mma, reading and writing the published tensor-core vector format
// (shared/data/tensor-core-vectors: KM's model_validation files).
//
//   tcsim mma-dot --arch sm_90a|sm_100a --path mma.sync|wgmma|tcgen05 --kind KIND
//       --atype T --btype T --dtype f32|f16|s32 [--saturate]
//       [--scale-type ue8m0|ue4m3 --scale-vec 1|2|4 --scale-a FILE --scale-b FILE]
//       --a FILE --b FILE --c FILE
//       [--negate-a] [--negate-b] [--scale-input-d S] [--set NAME=VALUE]... [--explain]
//       [--codes] [--bf16-as-f32]
//
// a, b: one vector per line, K whitespace-separated 8-hex-digit fp32 words whose values are
// exactly representable in the type (s8/u8: decimal integers). Scale files: one line per vector,
// hex scale codes, one per scale block along K. c: one 32-character binary string per line (the
// fp32 or s32 word; an f16 C as its value converted to fp32). Output: one line per vector, D as
// a 32-character binary string (an f16 D converted to fp32, as in the d_*_fp16.txt files).
//
// The hardware's containers (the forms published B200 words use):
//   tf32 operands are fp32 words: the tensor core reads sign, exponent and the top 10 fraction
//       bits and ignores bits 12..0 (PTX ISA §5.2.3 tf32; models/mma/decode.h drops them), so a
//       word with low bits set is accepted as its truncation (--explain counts them);
//   --bf16-as-f32: bf16 operands are given as fp32 words, the bf16 code being the upper 16 bits and
//       the lower 16 ignored (how a bf16 value sits in an fp32 register);
//   --codes: a, b, c are hex codes in the operand's own container instead: f16/bf16 16-bit codes
//       (bf16 with --bf16-as-f32: fp32 words), tf32 fp32 words, fp8/fp6/fp4 codes, s8/u8 bytes;
//       C (and the output D) the D type's word, f16 as its 16-bit code.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "isa/arch.h"
#include "isa/dtype.h"
#include "isa/mma_kind.h"
#include "models/formats/format.h"
#include "models/mma/engine.h"
#include "models/mma/param_table.h"
#include "tools/spec/input_file.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {

using isa::DType;
using models::mma::DotEngine;
using models::mma::DotShape;
using models::mma::ScaleType;

struct Options {
  std::string arch, path, kind, atype, btype, dtype, scale_type, a, b, c, scale_a, scale_b;
  int scale_vec = 0;
  bool saturate = false, negate_a = false, negate_b = false, explain = false;
  bool codes = false, bf16_as_f32 = false;
  int scale_input_d = 0;
  std::vector<std::string> sets;
};

int parse_small_int(std::string_view opt, std::string_view v) {
  int x = 0;
  for (char ch : v) {
    if (ch < '0' || ch > '9' || v.size() > 3) throw UsageError(fmt::format("{}: '{}' is not a number", opt, v));
    x = x * 10 + (ch - '0');
  }
  if (v.empty()) throw UsageError(fmt::format("{}: missing number", opt));
  return x;
}

Options parse_options(Args args) {
  Options o;
  const std::map<std::string_view, std::string Options::*> strings = {
      {"--arch", &Options::arch},           {"--path", &Options::path},
      {"--kind", &Options::kind},           {"--atype", &Options::atype},
      {"--btype", &Options::btype},         {"--dtype", &Options::dtype},
      {"--scale-type", &Options::scale_type}, {"--a", &Options::a},
      {"--b", &Options::b},                 {"--c", &Options::c},
      {"--scale-a", &Options::scale_a},     {"--scale-b", &Options::scale_b}};
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view opt = args[i];
    const auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", opt));
      return args[++i];
    };
    if (auto it = strings.find(opt); it != strings.end()) {
      o.*(it->second) = std::string(value());
    } else if (opt == "--scale-vec") {
      o.scale_vec = parse_small_int(opt, value());
    } else if (opt == "--scale-input-d") {
      o.scale_input_d = parse_small_int(opt, value());
    } else if (opt == "--set") {
      o.sets.emplace_back(value());
    } else if (opt == "--saturate") {
      o.saturate = true;
    } else if (opt == "--negate-a") {
      o.negate_a = true;
    } else if (opt == "--negate-b") {
      o.negate_b = true;
    } else if (opt == "--explain") {
      o.explain = true;
    } else if (opt == "--codes") {
      o.codes = true;
    } else if (opt == "--bf16-as-f32") {
      o.bf16_as_f32 = true;
    } else {
      throw UsageError(fmt::format("unknown option '{}' (try 'tcsim help')", opt));
    }
  }
  for (auto [name, field] : {std::pair{"--arch", &Options::arch}, {"--path", &Options::path},
                             {"--kind", &Options::kind}, {"--atype", &Options::atype},
                             {"--btype", &Options::btype}, {"--dtype", &Options::dtype},
                             {"--a", &Options::a}, {"--b", &Options::b}, {"--c", &Options::c}})
    if ((o.*field).empty()) throw UsageError(fmt::format("missing required option {}", name));
  return o;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::string text;
  try {
    text = spec::read_regular_file(path, spec::kMaxTextInputBytes);
  } catch (const spec::InputFileError& e) {
    throw UsageError(fmt::format("cannot read '{}': it {}", path, e.what()));
  }
  std::istringstream f(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(f, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  while (!lines.empty() && lines.back().find_first_not_of(" \t") == std::string::npos)
    lines.pop_back();
  return lines;
}

std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> t;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t j = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > j) t.push_back(line.substr(j, i - j));
  }
  return t;
}

std::optional<uint32_t> parse_hex(std::string_view s, size_t max_digits) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty() || s.size() > max_digits) return std::nullopt;
  uint32_t v = 0;
  for (char ch : s) {
    int d = ch >= '0' && ch <= '9' ? ch - '0'
            : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
            : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                     : -1;
    if (d < 0) return std::nullopt;
    v = v << 4 | static_cast<uint32_t>(d);
  }
  return v;
}

double f32_value(uint32_t w) { return models::to_double(DType::F32, w); }

// The code of type t whose value equals the fp32 word w exactly; nullopt if t cannot hold it.
// NaN maps to the type's NaN (its payload is irrelevant: every MMA NaN result is canonical).
class ExactCoder {
 public:
  explicit ExactCoder(DType t, bool bf16_as_f32 = false) : t_(t), bf16_as_f32_(bf16_as_f32) {
    if (t == DType::F32 || t == DType::TF32 || t == DType::BF16) return;
    const models::FormatSpec& f = models::format_spec(t);
    const uint32_t n = 1u << f.storage_bits;
    for (uint32_t code = 0; code < n; ++code) {
      const models::Unpacked u = models::unpack(t, code);
      if (u.cls == models::FpClass::NaN) {
        if (!nan_code_) nan_code_ = code & ~sign_mask(f);
      } else if (u.cls == models::FpClass::Inf) {
        inf_code_ = code & ~sign_mask(f);
      } else if (u.cls != models::FpClass::Zero) {
        values_.emplace(models::to_double(t, code), code);
      }
    }
    sign_ = sign_mask(f);
  }

  std::optional<uint32_t> operator()(uint32_t w) const {
    const bool neg = w >> 31;
    const bool nan = (w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu);
    const bool inf = (w & 0x7fffffffu) == 0x7f800000u;
    switch (t_) {
      case DType::F32: return w;
      case DType::TF32:  // an fp32 word; the tensor core ignores bits 12..0 (counted, see run)
        return w;
      case DType::BF16:
        if (bf16_as_f32_) return w >> 16;  // the upper half of an fp32 word is the bf16 code
        return (w & 0xffffu) == 0 ? std::optional<uint32_t>(w >> 16) : std::nullopt;
      default: break;
    }
    const uint32_t s = neg ? sign_ : 0;
    if (nan) return nan_code_ ? std::optional<uint32_t>(*nan_code_ | s) : std::nullopt;
    if (inf) return inf_code_ ? std::optional<uint32_t>(*inf_code_ | s) : std::nullopt;
    if ((w & 0x7fffffffu) == 0) return s;
    const auto it = values_.find(f32_value(w));
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }

 private:
  static uint32_t sign_mask(const models::FormatSpec& f) {
    return f.has_sign ? 1u << (f.exp_bits + f.mant_bits) : 0;
  }
  DType t_;
  bool bf16_as_f32_ = false;
  std::map<double, uint32_t> values_;
  std::optional<uint32_t> nan_code_, inf_code_;
  uint32_t sign_ = 0;
};

std::string binary32(uint32_t w) {
  std::string s(32, '0');
  for (int i = 0; i < 32; ++i)
    if ((w >> (31 - i)) & 1) s[i] = '1';
  return s;
}

// f16 -> fp32, exact (NaN payload shifted up, as __half2float does).
uint32_t f16_to_f32_word(uint32_t h) {
  const uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return s | 0x7f800000u | (m << 13);
  if (e == 0) {
    if (m == 0) return s;
    int ee = -14;
    uint32_t mm = m;
    while (!(mm & 0x400)) {
      mm <<= 1;
      --ee;
    }
    return s | (static_cast<uint32_t>(ee + 127) << 23) | ((mm & 0x3ff) << 13);
  }
  return s | ((e - 15 + 127) << 23) | (m << 13);
}

// fp32 -> f16, round to nearest even (the capture harness converted C with __float2half).
uint32_t f32_to_f16_rn(uint32_t w) {
  const uint32_t s = (w >> 16) & 0x8000u;
  if ((w & 0x7f800000u) == 0x7f800000u) return s | 0x7c00u | ((w & 0x7fffffu) ? 0x200u : 0);
  const models::Unpacked u = models::unpack(DType::F32, w);
  if (u.cls == models::FpClass::Zero) return s;
  const uint32_t r = models::mma::round_finite(u.neg, u.sig, u.exp - 23, false,
                                               models::mma::kOutF16, models::Round::RN);
  return r;
}

std::string type_list(models::mma::Arch arch, models::mma::Path path, isa::MmaKind kind) {
  std::string s;
  for (const auto& r : models::mma::param_rows())
    if (r.arch == arch && r.path == path && r.kind == kind)
      s += fmt::format("{}{}x{}->{}", s.empty() ? "" : ", ", isa::dtype_name(r.atype),
                       isa::dtype_name(r.btype), isa::dtype_name(r.dtype));
  return s;
}

int run_mma_dot(Args args) {
  const Options o = parse_options(args);
  const auto arch = isa::parse_arch(o.arch);
  if (!arch || (*arch != isa::Arch::Sm90a && *arch != isa::Arch::Sm100a))
    throw UsageError(fmt::format("--arch '{}': expected sm_90a or sm_100a", o.arch));
  const auto path = models::mma::parse_path(o.path);
  if (!path) throw UsageError(fmt::format("--path '{}': expected mma.sync, wgmma or tcgen05", o.path));
  if (*arch == isa::Arch::Sm90a && *path == models::mma::Path::Tcgen05)
    throw UsageError("--path tcgen05 needs --arch sm_100a (PTX ISA §9.7.16: tcgen05 is sm_100a+)");
  if (*arch == isa::Arch::Sm100a && *path == models::mma::Path::Wgmma)
    throw UsageError("--path wgmma needs --arch sm_90a (PTX ISA §9.7.15: wgmma is sm_90a only)");
  const auto kind = isa::parse_kind(o.kind);
  if (!kind)
    throw UsageError(fmt::format(
        "--kind '{}': expected f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4 or mxf4nvf4", o.kind));
  const auto at = isa::parse_dtype(o.atype), bt = isa::parse_dtype(o.btype),
             dt = isa::parse_dtype(o.dtype);
  if (!at) throw UsageError(fmt::format("--atype '{}': unknown type", o.atype));
  if (!bt) throw UsageError(fmt::format("--btype '{}': unknown type", o.btype));
  if (!dt || (*dt != DType::F32 && *dt != DType::F16 && *dt != DType::S32))
    throw UsageError(fmt::format("--dtype '{}': expected f32, f16 or s32", o.dtype));
  const models::mma::ParamRow* row = models::mma::find_row(*arch, *path, *kind, *at, *bt, *dt);
  if (!row) {
    const std::string have = type_list(*arch, *path, *kind);
    throw UsageError(fmt::format("no {} {} kind::{} datapath for {} x {} -> {}; {}", o.arch, o.path,
                                 o.kind, o.atype, o.btype, o.dtype,
                                 have.empty() ? "that path has no such kind"
                                              : "legal types: " + have));
  }

  DotShape shape;
  shape.num = row->num;
  for (const std::string& a : o.sets)
    if (std::string e = models::mma::set_numerics_field(shape.num, a); !e.empty())
      throw UsageError("--set " + e);
  shape.kind = *kind;
  shape.atype = *at;
  shape.btype = *bt;
  shape.dtype = *dt;
  shape.saturate = o.saturate;
  shape.negate_a = o.negate_a;
  shape.negate_b = o.negate_b;
  shape.scale_input_d = o.scale_input_d;

  // Block scaling: PTX ISA §9.7.16.10.7 Tables 56/57. 1X and 2X: one scale per 32 K; 4X: per 16.
  const bool scaled = isa::is_block_scaled(*kind);
  if (!scaled && (!o.scale_type.empty() || o.scale_vec || !o.scale_a.empty() || !o.scale_b.empty()))
    throw UsageError(fmt::format("kind::{} is not block-scaled: drop --scale-*", o.kind));
  if (scaled) {
    std::string st = o.scale_type;
    if (st.empty() && *kind != isa::MmaKind::MXF4NVF4) st = "ue8m0";
    if (st == "ue8m0") shape.scale_type = ScaleType::UE8M0;
    else if (st == "ue4m3") shape.scale_type = ScaleType::UE4M3;
    else throw UsageError(fmt::format("--scale-type '{}': kind::{} needs ue8m0{}", st, o.kind,
                                      *kind == isa::MmaKind::MXF4NVF4 ? " or ue4m3" : ""));
    int vec = o.scale_vec;
    if (vec == 0) {
      vec = *kind == isa::MmaKind::MXF8F6F4 ? 1 : *kind == isa::MmaKind::MXF4 ? 2
            : shape.scale_type == ScaleType::UE4M3 ? 4 : 0;
      if (vec == 0) throw UsageError("kind::mxf4nvf4 with ue8m0 needs --scale-vec 2 or 4");
    }
    if (*kind == isa::MmaKind::MXF4 && vec == 4) {
      // kind::mxf4 has only .scale_vec::2X (one ue8m0 per 32 K); the B200 word "mxf4-4x",
      // recorded with a harness that said 4X, is reproduced only that way.
      fmt::print(stderr, "tcsim mma-dot: note: kind::mxf4 has only scale_vec::2X (block32, PTX "
                         "ISA §9.7.16.10.7 Table 56); --scale-vec 4 is read as 2X\n");
      vec = 2;
    }
    const bool ok = (*kind == isa::MmaKind::MXF8F6F4 && vec == 1) ||
                    (*kind == isa::MmaKind::MXF4 && vec == 2) ||
                    (*kind == isa::MmaKind::MXF4NVF4 &&
                     (vec == 4 || (vec == 2 && shape.scale_type == ScaleType::UE8M0)));
    if (!ok)
      throw UsageError(fmt::format(
          "--scale-vec {} is not legal for kind::{} with {} (PTX ISA §9.7.16.10.7 Tables 56/57: "
          "mxf8f6f4 1X ue8m0; mxf4 2X ue8m0; mxf4nvf4 2X ue8m0, 4X ue8m0|ue4m3)",
          vec, o.kind, st));
    shape.scale_block = vec == 4 ? 16 : 32;
    if (o.scale_a.empty() || o.scale_b.empty())
      throw UsageError(fmt::format("kind::{} needs --scale-a and --scale-b files", o.kind));
  }

  const std::vector<std::string> la = read_lines(o.a), lb = read_lines(o.b), lc = read_lines(o.c);
  if (la.empty()) throw UsageError(fmt::format("{}: no vectors", o.a));
  if (lb.size() != la.size() || lc.size() != la.size())
    throw UsageError(fmt::format("vector counts differ: {} has {}, {} has {}, {} has {}", o.a,
                                 la.size(), o.b, lb.size(), o.c, lc.size()));
  const int k = static_cast<int>(tokens(la[0]).size());
  if (!row->allows_k(k))
    throw UsageError(fmt::format("{}:1: K={} is not legal for {} {} kind::{} {}: K must be {}", o.a,
                                 k, o.arch, o.path, o.kind, o.atype, row->legal_ks()));
  shape.k = k;
  if (const std::string e = models::mma::check_shape(shape); !e.empty()) throw UsageError(e);
  const DotEngine engine(shape);
  if (o.explain)
    fmt::print(stderr, "row: {} {} kind::{} {}x{}->{} K={} confidence={}\n  {}\n  source: {}\n",
               o.arch, o.path, o.kind, o.atype, o.btype, o.dtype, k,
               models::mma::confidence_name(row->confidence), models::mma::describe(shape.num),
               row->source);

  std::vector<std::string> lsa, lsb;
  const int blocks = shape.scale_blocks();
  if (scaled) {
    lsa = read_lines(o.scale_a);
    lsb = read_lines(o.scale_b);
    if (lsa.size() != la.size() || lsb.size() != la.size())
      throw UsageError(fmt::format("vector counts differ: {} has {}, {} has {}, {} has {}", o.a,
                                   la.size(), o.scale_a, lsa.size(), o.scale_b, lsb.size()));
  }

  const bool is_int = *at == DType::S8 || *at == DType::U8;
  std::optional<ExactCoder> ca, cb;
  if (!is_int) {
    ca.emplace(*at, o.bf16_as_f32);
    cb.emplace(*bt, o.bf16_as_f32);
  }
  size_t tf32_low_bits = 0;  // tf32 words whose ignored bits 12..0 are not zero
  const auto element = [&](const std::string& file, size_t line, std::string_view tok, DType t,
                           const std::optional<ExactCoder>& coder) -> uint32_t {
    if (o.codes) {
      // The operand's own container: a hex code of its width (tf32, and bf16 with --bf16-as-f32,
      // an fp32 word).
      const bool word = t == DType::TF32 || (t == DType::BF16 && o.bf16_as_f32);
      const int bits = word ? 32 : isa::dtype_bits(t);
      const auto v = parse_hex(tok, static_cast<size_t>((bits + 3) / 4));
      if (!v || (bits < 32 && *v >> bits))
        throw UsageError(fmt::format("{}:{}: '{}' is not a {}-bit {} code in hex", file, line, tok, bits,
                                     isa::dtype_name(t)));
      if (t == DType::TF32 && (*v & 0x1fffu)) ++tf32_low_bits;
      return t == DType::BF16 && o.bf16_as_f32 ? *v >> 16 : *v;
    }
    if (t == DType::S8 || t == DType::U8) {
      bool neg = false;
      std::string_view d = tok;
      if (!d.empty() && (d[0] == '-' || d[0] == '+')) {
        neg = d[0] == '-';
        d.remove_prefix(1);
      }
      long v = 0;
      bool ok = !d.empty() && d.size() <= 4;
      for (char ch : d) ok = ok && ch >= '0' && ch <= '9', v = v * 10 + (ch - '0');
      if (neg) v = -v;
      const long lo = t == DType::S8 ? -128 : 0, hi = t == DType::S8 ? 127 : 255;
      if (!ok || v < lo || v > hi)
        throw UsageError(fmt::format("{}:{}: '{}' is not a {} value (decimal integer in {}..{})",
                                     file, line, tok, isa::dtype_name(t), lo, hi));
      return static_cast<uint32_t>(v) & 0xffu;
    }
    const auto w = parse_hex(tok, 8);
    if (!w)
      throw UsageError(fmt::format("{}:{}: '{}' is not an 8-hex-digit fp32 word", file, line, tok));
    if (t == DType::TF32 && (*w & 0x1fffu)) ++tf32_low_bits;
    const auto code = (*coder)(*w);
    if (!code)
      throw UsageError(fmt::format("{}:{}: {} (fp32 word {:08x}) is not representable in {}", file,
                                   line, tok, *w, isa::dtype_name(t)));
    return *code;
  };

  std::vector<uint32_t> a(k), b(k);
  std::vector<uint8_t> sa(blocks), sb(blocks);
  size_t f16_c_rounded = 0, extra_scales = 0;
  std::string out;
  out.reserve(la.size() * 33);
  for (size_t v = 0; v < la.size(); ++v) {
    const size_t line = v + 1;
    const auto ta = tokens(la[v]), tb = tokens(lb[v]);
    if (static_cast<int>(ta.size()) != k)
      throw UsageError(fmt::format("{}:{}: {} values, expected K={} (as on line 1)", o.a, line,
                                   ta.size(), k));
    if (static_cast<int>(tb.size()) != k)
      throw UsageError(fmt::format("{}:{}: {} values, expected K={} (as in {})", o.b, line,
                                   tb.size(), k, o.a));
    for (int i = 0; i < k; ++i) {
      a[i] = element(o.a, line, ta[i], *at, ca);
      b[i] = element(o.b, line, tb[i], *bt, cb);
    }
    const auto tc = tokens(lc[v]);
    uint32_t c = 0;
    if (o.codes) {
      const auto w = tc.size() == 1 ? parse_hex(tc[0], 8) : std::nullopt;
      if (!w || (*dt == DType::F16 && *w > 0xffffu))
        throw UsageError(fmt::format("{}:{}: expected one hex {} word{}", o.c, line, isa::dtype_name(*dt),
                                     *dt == DType::F16 ? " (16 bits)" : ""));
      c = *w;
    } else {
      if (tc.size() != 1 || tc[0].size() != 32 || tc[0].find_first_not_of("01") != std::string_view::npos)
        throw UsageError(fmt::format("{}:{}: expected one 32-character binary string", o.c, line));
      for (char ch : tc[0]) c = c << 1 | static_cast<uint32_t>(ch - '0');
    }
    if (*dt == DType::F16 && !o.codes) {
      const uint32_t h = f32_to_f16_rn(c);
      if (f16_to_f32_word(h) != c && !std::isnan(f32_value(c))) ++f16_c_rounded;
      c = h;
    }
    if (scaled) {
      for (auto [lines, file, dst] : {std::tuple{&lsa, &o.scale_a, &sa}, {&lsb, &o.scale_b, &sb}}) {
        const auto ts = tokens((*lines)[v]);
        if (static_cast<int>(ts.size()) < blocks)
          throw UsageError(fmt::format("{}:{}: {} scale codes, expected {} (one per {} K)", *file,
                                       line, ts.size(), blocks, shape.scale_block));
        if (static_cast<int>(ts.size()) > blocks) ++extra_scales;
        for (int i = 0; i < static_cast<int>(ts.size()); ++i) {
          const auto s = parse_hex(ts[i], 2);
          if (!s)
            throw UsageError(fmt::format("{}:{}: '{}' is not a hex scale code (00..ff)", *file,
                                         line, ts[i]));
          if (i < blocks) (*dst)[i] = static_cast<uint8_t>(*s);
        }
      }
    }
    uint32_t d = engine.dot(a.data(), b.data(), c, scaled ? sa.data() : nullptr,
                            scaled ? sb.data() : nullptr);
    if (o.codes) {
      out += fmt::format("{:0{}x}\n", d, *dt == DType::F16 ? 4 : 8);
      continue;
    }
    if (*dt == DType::F16) d = f16_to_f32_word(d);
    out += binary32(d);
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (f16_c_rounded)
    fmt::print(stderr, "tcsim mma-dot: note: {} C values were not f16 values and were rounded to "
                       "nearest-even first (as the published capture harness's __float2half)\n",
               f16_c_rounded);
  if (tf32_low_bits && o.explain)
    fmt::print(stderr, "tcsim mma-dot: note: {} tf32 operand words have bits 12..0 set; the tensor core "
                       "reads only sign, exponent and the top 10 fraction bits of a tf32 word and "
                       "ignores those bits (they are taken as zero)\n", tf32_low_bits);
  if (extra_scales)
    fmt::print(stderr, "tcsim mma-dot: note: {} scale lines list more than the {} codes K={} uses; "
                       "the extra codes are ignored\n", extra_scales, blocks, k);
  return 0;
}

// TCSIM_COMMAND names a command after its identifier, which cannot hold the '-' of "mma-dot";
// register_command() is the same registry.
[[maybe_unused]] const bool mma_dot_registered = register_command(
    {"mma-dot",
              "mma-dot --arch sm_90a|sm_100a --path mma.sync|wgmma|tcgen05 --kind KIND --atype T "
              "--btype T --dtype f32|f16|s32 [--saturate] [--scale-type ue8m0|ue4m3 --scale-vec "
              "1|2|4 --scale-a FILE --scale-b FILE] --a FILE --b FILE --c FILE [--negate-a] "
              "[--negate-b] [--scale-input-d S] [--set NAME=VALUE]... [--explain] [--codes] "
              "[--bf16-as-f32]",
     run_mma_dot});

}  // namespace
}  // namespace tcsim::cli
