// CUDA device printf formatting (printf_format.h; the rules and their sources: docs/printf.md).
// Each conversion is formatted by the host C library's snprintf with the specification as
// written: CUDA formats device printf output on the host with the host's C library (CUDA C++
// Programming Guide, "Formatted Output", Limitations: "the format string must be understood by the
// host-system's compiler and C library"), so glibc's printf is the reference, not a model of it.
#include "sim/exec/printf_format.h"

#include <cstdio>
#include <cstring>

namespace tcsim::sim::printf_format {
namespace {

bool is_flag(char c) { return c == '#' || c == '0' || c == '-' || c == '+' || c == ' '; }

bool is_known_type(char c) { return c && std::strchr("cdiouxXpeEfFgGaAs", c) != nullptr; }

bool is_int_type(char c) { return c && std::strchr("diouxXc", c) != nullptr; }

bool is_float_type(char c) { return c && std::strchr("eEfFgGaA", c) != nullptr; }

// Parses the specification starting at fmt[i] == '%' (not "%%").
Conversion parse_conversion(std::string_view fmt, size_t i) {
  Conversion c;
  c.begin = i++;
  while (i < fmt.size() && is_flag(fmt[i])) c.flags += fmt[i++];
  auto digits = [&](int64_t& v) {
    v = 0;
    while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') {
      if (v <= kMaxWidth) v = v * 10 + (fmt[i] - '0');  // saturates above the limit
      ++i;
    }
  };
  if (i < fmt.size() && fmt[i] == '*') {
    c.width_star = true;
    ++i;
  } else if (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') {
    digits(c.width);
  }
  if (i < fmt.size() && fmt[i] == '.') {
    ++i;
    if (i < fmt.size() && fmt[i] == '*') {
      c.prec_star = true;
      ++i;
    } else {
      digits(c.prec);  // "." alone is precision 0 (C11 7.21.6.1)
    }
  }
  for (std::string_view s : {"hh", "ll", "h", "l", "z", "j", "t", "L"})
    if (fmt.substr(i, s.size()) == s) {
      c.size = std::string(s);
      i += s.size();
      break;
    }
  if (i < fmt.size()) c.type = fmt[i++];
  c.end = i;
  return c;
}

// snprintf of one value with a specification and up to two '*' arguments.
template <class T>
std::string c_format(const std::string& spec, int nstar, int s1, int s2, T v) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
  auto run = [&](char* buf, size_t n) {
    switch (nstar) {
      case 0: return std::snprintf(buf, n, spec.c_str(), v);
      case 1: return std::snprintf(buf, n, spec.c_str(), s1, v);
      default: return std::snprintf(buf, n, spec.c_str(), s1, s2, v);
    }
  };
  const int n = run(nullptr, 0);
  if (n <= 0) return {};
  std::string out(static_cast<size_t>(n) + 1, '\0');
  run(out.data(), out.size());
  out.resize(static_cast<size_t>(n));
  return out;
#pragma GCC diagnostic pop
}

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

bool Conversion::known() const { return is_known_type(type); }

uint32_t Conversion::arg_bytes() const {
  if (is_float_type(type) || type == 's' || type == 'p') return 8;
  if (size == "l" || size == "ll" || size == "z" || size == "j" || size == "t") return 8;
  return 4;
}

std::vector<Piece> parse(std::string_view fmt) {
  std::vector<Piece> out;
  std::string lit;
  size_t i = 0;
  while (i < fmt.size()) {
    if (fmt[i] != '%') {
      lit += fmt[i++];
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      lit += '%';
      i += 2;
      continue;
    }
    if (!lit.empty()) out.push_back(Piece{std::move(lit), false, {}});
    lit.clear();
    Piece p;
    p.is_conversion = true;
    p.conv = parse_conversion(fmt, i);
    i = p.conv.end;
    out.push_back(std::move(p));
  }
  if (!lit.empty()) out.push_back(Piece{std::move(lit), false, {}});
  return out;
}

std::vector<ArgSlot> arg_layout(std::string_view fmt) {
  std::vector<ArgSlot> slots;
  uint64_t off = 0;
  auto take = [&](uint32_t size) {
    off = align_up(off, size);
    slots.push_back({off, size});
    off += size;
  };
  for (const Piece& p : parse(fmt)) {
    if (!p.is_conversion || !p.conv.known()) continue;
    const int need = p.conv.width_star + p.conv.prec_star + 1;
    if (static_cast<int>(slots.size()) + need > kMaxArgs) break;
    if (p.conv.width_star) take(4);
    if (p.conv.prec_star) take(4);
    take(p.conv.arg_bytes());
  }
  return slots;
}

Result format(std::string_view fmt, Memory& mem) {
  Result r;
  uint64_t off = 0;
  int used = 0;
  bool full = false;  // kMaxArgs consumed: later specifications are printed as written
  auto read = [&](uint32_t size) {
    off = align_up(off, size);
    uint64_t v = 0;
    mem.read_arg(off, &v, size);
    off += size;
    ++used;
    return v;
  };
  for (const Piece& p : parse(fmt)) {
    if (!p.is_conversion) {
      r.text += p.literal;
      continue;
    }
    const Conversion& c = p.conv;
    const std::string_view written = fmt.substr(c.begin, c.end - c.begin);
    if (!c.known() || full || used + c.width_star + c.prec_star + 1 > kMaxArgs) {
      // An unknown type or an incomplete specification: printed as written, nothing consumed.
      // Past the argument limit: CUDA prints the specification as-is.
      if (c.known()) full = true;
      r.text += written;
      continue;
    }
    int s1 = 0, s2 = 0, nstar = 0;
    if (c.width_star) {
      s1 = static_cast<int32_t>(read(4));
      ++nstar;
      if (s1 > kMaxWidth || s1 < -kMaxWidth) r.too_long = true;
    }
    if (c.prec_star) {
      const int v = static_cast<int32_t>(read(4));
      (nstar ? s2 : s1) = v;
      ++nstar;
      if (v > kMaxWidth) r.too_long = true;
    }
    if (c.width > kMaxWidth || c.prec > kMaxWidth) r.too_long = true;
    const uint64_t v = read(c.arg_bytes());
    if (r.too_long) continue;  // keep consuming: the return value counts every argument
    // The specification for the host's snprintf: as written, with the size modifier replaced by
    // the one of the C type the value is passed as.
    std::string spec = "%" + c.flags;
    if (c.width_star) spec += '*';
    else if (c.width >= 0) spec += std::to_string(c.width);
    if (c.prec_star) spec += ".*";
    else if (c.prec >= 0) {
      spec += '.';
      spec += std::to_string(c.prec);
    }
    if (is_int_type(c.type)) {
      const bool wide = c.arg_bytes() == 8;
      if (c.type == 'c') {
        r.text += c_format(spec + "c", nstar, s1, s2, static_cast<int>(static_cast<int32_t>(v)));
      } else if (c.type == 'd' || c.type == 'i') {
        if (wide) r.text += c_format(spec + "ll" + c.type, nstar, s1, s2, static_cast<long long>(v));
        else r.text += c_format(spec + (c.size == "h" || c.size == "hh" ? c.size : "") + c.type, nstar, s1, s2,
                                static_cast<int>(static_cast<int32_t>(v)));
      } else {
        if (wide) r.text += c_format(spec + "ll" + c.type, nstar, s1, s2, static_cast<unsigned long long>(v));
        else r.text += c_format(spec + (c.size == "h" || c.size == "hh" ? c.size : "") + c.type, nstar, s1, s2,
                                static_cast<unsigned>(static_cast<uint32_t>(v)));
      }
    } else if (is_float_type(c.type)) {
      double d;
      std::memcpy(&d, &v, 8);
      r.text += c_format(spec + c.type, nstar, s1, s2, d);
    } else if (c.type == 'p') {
      r.text += c_format(spec + "p", nstar, s1, s2, reinterpret_cast<void*>(static_cast<uintptr_t>(v)));
    } else {  // 's'
      if (v == 0) {
        r.text += c_format<const char*>(spec + "s", nstar, s1, s2, nullptr);
      } else {
        const std::string str = mem.read_string(v, kMaxString);
        r.string_bytes += str.size() + 1;
        r.text += c_format(spec + "s", nstar, s1, s2, str.c_str());
      }
    }
  }
  r.args = static_cast<uint64_t>(used);
  r.arg_bytes = off;
  r.ret = used;
  if (r.too_long) r.text.clear();
  return r;
}

}  // namespace tcsim::sim::printf_format
