#include "tools/spec/diff.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include <fmt/format.h>

#include "models/formats/format.h"

namespace tcsim::spec {
namespace {

using i128 = __int128;

uint64_t load(const std::vector<std::byte>& d, uint64_t i, uint32_t size) {
  uint64_t v = 0;
  std::memcpy(&v, d.data() + i * size, size);
  return v;
}

bool is_nan_code(isa::DType f, uint64_t code) {
  return models::unpack(f, code).cls == models::FpClass::NaN;
}

// The code's position on the format's number line (sign-magnitude -> signed integer).
i128 ordered_key(isa::DType f, uint64_t code) {
  const models::FormatSpec& s = models::format_spec(f);
  const int nbits = s.exp_bits + s.mant_bits;  // magnitude bits
  const uint64_t mag = code & ((uint64_t{1} << nbits) - 1);
  if (!s.has_sign) return mag;
  const bool neg = (code >> nbits) & 1;
  return neg ? -static_cast<i128>(mag) : static_cast<i128>(mag);
}

std::optional<uint64_t> format_ulp(isa::DType f, uint64_t a, uint64_t b) {
  if (is_nan_code(f, a) || is_nan_code(f, b)) return std::nullopt;
  const i128 d = ordered_key(f, a) - ordered_key(f, b);
  return static_cast<uint64_t>(d < 0 ? -d : d);
}

std::string float_str(isa::DType f, uint64_t code) {
  const double v = f == isa::DType::F64 ? std::bit_cast<double>(code) : models::to_double(f, code);
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (f == isa::DType::F32) return fmt::format("{}", static_cast<float>(v));  // shortest f32 repr
  return fmt::format("{}", v);
}

}  // namespace

std::vector<uint64_t> unflatten(uint64_t flat, const std::vector<uint64_t>& shape) {
  std::vector<uint64_t> idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = shape[k] ? flat % shape[k] : 0;
    flat = shape[k] ? flat / shape[k] : 0;
  }
  return idx;
}

std::string format_value(SpecDType t, uint64_t bits) {
  const SpecDTypeInfo& i = info(t);
  switch (i.kind) {
    case ElemKind::UnsignedInt: return fmt::format("{}", bits);
    case ElemKind::SignedInt: {
      const int shift = 64 - static_cast<int>(i.bytes) * 8;
      return fmt::format("{}", static_cast<int64_t>(bits << shift) >> shift);
    }
    case ElemKind::Float: return float_str(i.format, bits);
    case ElemKind::Fp4x2:
      return fmt::format("({}, {})", float_str(i.format, bits & 0xf), float_str(i.format, bits >> 4 & 0xf));
  }
  return "?";
}

std::optional<uint64_t> ulp_distance(SpecDType t, uint64_t a, uint64_t b) {
  const SpecDTypeInfo& i = info(t);
  if (i.kind == ElemKind::Float) return format_ulp(i.format, a, b);
  if (i.kind == ElemKind::Fp4x2) {
    const auto lo = format_ulp(i.format, a & 0xf, b & 0xf), hi = format_ulp(i.format, a >> 4 & 0xf, b >> 4 & 0xf);
    if (!lo || !hi) return std::nullopt;
    return std::max(*lo, *hi);
  }
  return std::nullopt;
}

bool DiffReport::identical() const {
  if (!only_a.empty() || !only_b.empty()) return false;
  for (const auto& o : outputs)
    if (!o.mismatch.empty() || o.differing) return false;
  return !printf_diff || printf_diff->identical();
}

DiffReport diff_outputs(const std::vector<OutputArray>& as, const std::vector<OutputArray>& bs,
                        size_t max_shown) {
  DiffReport r;
  auto find = [](const std::vector<OutputArray>& v, const std::string& n) -> const OutputArray* {
    for (const auto& o : v)
      if (o.name == n) return &o;
    return nullptr;
  };
  for (const auto& b : bs)
    if (!find(as, b.name)) r.only_b.push_back(b.name);
  for (const auto& a : as) {
    const OutputArray* b = find(bs, a.name);
    if (!b) {
      r.only_a.push_back(a.name);
      continue;
    }
    OutputDiff d;
    d.name = a.name;
    d.dtype = a.dtype;
    if (a.dtype != b->dtype || a.shape != b->shape) {
      d.mismatch = fmt::format("{} [{}] vs {} [{}]", name(a.dtype), fmt::join(a.shape, ", "),
                               name(b->dtype), fmt::join(b->shape, ", "));
      r.outputs.push_back(std::move(d));
      continue;
    }
    const uint32_t size = elem_bytes(a.dtype);
    d.count = a.count();
    const bool fp = info(a.dtype).kind == ElemKind::Float || info(a.dtype).kind == ElemKind::Fp4x2;
    for (uint64_t i = 0; i < d.count; ++i) {
      if (std::memcmp(a.data.data() + i * size, b->data.data() + i * size, size) == 0) continue;
      ++d.differing;
      const uint64_t x = load(a.data, i, size), y = load(b->data, i, size);
      const std::optional<uint64_t> u = fp ? ulp_distance(a.dtype, x, y) : std::nullopt;
      if (u) d.max_ulp = std::max(d.max_ulp.value_or(0), *u);
      if (fp && !u) ++d.nan_mismatches;
      if (d.first.size() < max_shown)
        d.first.push_back({unflatten(i, a.shape), x, y, format_value(a.dtype, x), format_value(a.dtype, y), u});
    }
    r.outputs.push_back(std::move(d));
  }
  return r;
}

namespace {

std::vector<std::string_view> split_lines(std::string_view t) {
  std::vector<std::string_view> v;
  size_t p = 0;
  while (p < t.size()) {
    const size_t e = t.find('\n', p);
    if (e == std::string_view::npos) {
      v.push_back(t.substr(p));
      break;
    }
    v.push_back(t.substr(p, e - p));
    p = e + 1;
  }
  return v;
}

// Lines of `mine` beyond their count in `theirs` (multiset difference), first-appearance order.
void surplus(const std::vector<std::string_view>& mine, const std::vector<std::string_view>& theirs,
             size_t max_shown, std::vector<std::pair<std::string, uint64_t>>& shown, uint64_t& total) {
  std::map<std::string_view, int64_t> count;
  for (auto l : mine) ++count[l];
  for (auto l : theirs) --count[l];
  std::set<std::string_view> done;
  for (auto l : mine) {
    const int64_t n = count[l];
    if (n <= 0 || !done.insert(l).second) continue;
    total += static_cast<uint64_t>(n);
    if (shown.size() < max_shown) shown.emplace_back(std::string(l), static_cast<uint64_t>(n));
  }
}

std::string shown_line(const std::string& l) {
  std::string r;
  for (char ch : l.substr(0, 160)) {
    if (ch == '\r') r += "\\r";
    else if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) r += fmt::format("\\x{:02x}", static_cast<unsigned char>(ch));
    else r += ch;
  }
  return l.size() > 160 ? r + "..." : r;
}

}  // namespace

PrintfDiff diff_printf(std::string_view a, std::string_view b, size_t max_shown) {
  PrintfDiff d;
  const auto la = split_lines(a), lb = split_lines(b);
  d.lines_a = la.size();
  d.lines_b = lb.size();
  d.same_order = a == b;
  if (d.same_order) return d;
  surplus(la, lb, max_shown, d.only_a, d.only_a_total);
  surplus(lb, la, max_shown, d.only_b, d.only_b_total);
  return d;
}

void add_printf_diff(DiffReport& r, const std::optional<PrintfCapture>& a, const std::optional<PrintfCapture>& b,
                     std::string_view la, std::string_view lb, size_t max_shown) {
  if (a && b) {
    r.printf_diff = diff_printf(a->text, b->text, max_shown);
    return;
  }
  const std::optional<PrintfCapture>& one = a ? a : b;
  if (one && !one->text.empty())
    r.printf_note = fmt::format("printf: only {} captured printf output ({} lines); not compared",
                                a ? la : lb, count_lines(one->text));
}

std::string format_report(const DiffReport& r, std::string_view la, std::string_view lb) {
  std::string s;
  for (const auto& d : r.outputs) {
    if (!d.mismatch.empty()) {
      s += fmt::format("{}: DIFFERENT type or shape: {}\n", d.name, d.mismatch);
      continue;
    }
    if (!d.differing) {
      s += fmt::format("{}: identical ({} elements)\n", d.name, d.count);
      continue;
    }
    s += fmt::format("{}: {} of {} elements differ", d.name, d.differing, d.count);
    if (d.max_ulp) s += fmt::format(", max {} ulp", *d.max_ulp);
    if (d.nan_mismatches) s += fmt::format(", {} involve NaN", d.nan_mismatches);
    s += '\n';
    for (const auto& e : d.first) {
      const int hex_digits = 2 * static_cast<int>(elem_bytes(d.dtype));
      s += fmt::format("  [{}]  {}: {} (0x{:0{}x})  {}: {} (0x{:0{}x})", fmt::join(e.index, ", "), la,
                       e.a_value, e.a_bits, hex_digits, lb, e.b_value, e.b_bits, hex_digits);
      if (e.ulp) s += fmt::format("  {} ulp", *e.ulp);
      s += '\n';
    }
    if (d.differing > d.first.size()) s += fmt::format("  ... {} more\n", d.differing - d.first.size());
  }
  for (const auto& n : r.only_a) s += fmt::format("{}: only in {}\n", n, la);
  for (const auto& n : r.only_b) s += fmt::format("{}: only in {}\n", n, lb);
  if (const auto& p = r.printf_diff) {
    if (p->identical())
      s += fmt::format("printf: identical ({} lines{})\n", p->lines_a,
                       p->same_order ? "" : ", in another order: the GPU's order across threads is not fixed");
    else {
      s += fmt::format("printf: {} of {} lines only in {}, {} of {} only in {}\n", p->only_a_total, p->lines_a, la,
                       p->only_b_total, p->lines_b, lb);
      for (const auto& [l, n] : p->only_a) s += fmt::format("  {}: \"{}\"{}\n", la, shown_line(l), n > 1 ? fmt::format(" (x{})", n) : "");
      for (const auto& [l, n] : p->only_b) s += fmt::format("  {}: \"{}\"{}\n", lb, shown_line(l), n > 1 ? fmt::format(" (x{})", n) : "");
    }
  } else if (!r.printf_note.empty()) {
    s += r.printf_note + "\n";
  }
  s += r.identical() ? "identical\n" : "DIFFERENT\n";
  return s;
}

}  // namespace tcsim::spec
