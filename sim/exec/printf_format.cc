// CUDA device printf formatting (printf_format.h; the rules and the H200 runs behind them:
// docs/printf.md). Step 3 formats with the host C library: CUDA formats device printf output on the
// host with it (CUDA C++ Programming Guide, "Formatted Output", Limitations: "the format string
// must be understood by the host-system's compiler and C library"), so each specification the C
// library formats is formatted here by this host's snprintf with the specification as written.
#include "sim/exec/printf_format.h"

#include <cstdio>
#include <cstring>
#include <deque>
#include <optional>

#include <fmt/format.h>

namespace tcsim::sim::printf_format {
namespace {

bool is_float_type(char c) { return c && std::strchr("eEfFgGaA", c) != nullptr; }

bool valid_type(Grammar g, char c) {
  if (!c) return false;
  if (g == Grammar::Libc) return std::strchr("diouxXcspneEfFgGaACSm%", c) != nullptr;
  return std::strchr("cdiouxXpeEfFgGaAs", c) != nullptr;
}

bool is_flag(Grammar g, char c) {
  if (c == '#' || c == '0' || c == '-' || c == '+' || c == ' ') return true;
  return g == Grammar::Libc && (c == '\'' || c == 'I');
}

// Parses the specification at fmt[i] == '%' (not "%%"). An invalid one ends at the character
// that made it invalid (scanning resumes there).
Conversion parse_spec(std::string_view fmt, size_t i, Grammar g) {
  Conversion c;
  c.begin = i++;
  auto at = [&](size_t k) { return k < fmt.size() ? fmt[k] : '\0'; };
  while (is_flag(g, at(i))) c.flags += fmt[i++];
  auto digits = [&](int64_t& v) {
    v = 0;
    while (at(i) >= '0' && at(i) <= '9') {
      if (v <= kMaxWidth) v = v * 10 + (fmt[i] - '0');  // saturates above the limit
      ++i;
    }
  };
  if (at(i) == '*') {
    c.width_star = true;
    ++i;
  } else if (at(i) >= '0' && at(i) <= '9') {
    digits(c.width);
  }
  if (at(i) == '.') {
    ++i;
    if (at(i) == '*') {
      c.prec_star = true;
      ++i;
      if (g != Grammar::Libc) {  // CUDA's precision is digits only
        c.end = i - 1;
        return c;
      }
    } else {
      digits(c.prec);  // "." alone is precision 0 (C11 7.21.6.1)
    }
  }
  static constexpr std::string_view kLibcSizes[] = {"hh", "ll", "h", "l", "q", "L", "j", "z", "Z", "t"};
  static constexpr std::string_view kHostSizes[] = {"hh", "ll", "h", "l"};
  static constexpr std::string_view kDeviceSizes[] = {"ll", "h", "l"};
  auto try_sizes = [&](auto& sizes) {
    for (std::string_view s : sizes)
      if (fmt.substr(i, s.size()) == s) {
        c.size = s;  // a view of the static table
        i += s.size();
        return;
      }
  };
  if (g == Grammar::Libc) try_sizes(kLibcSizes);
  else if (g == Grammar::Host) try_sizes(kHostSizes);
  else try_sizes(kDeviceSizes);
  if (g == Grammar::Libc && at(i) == 'w') {  // C23 %wN / %wfN (glibc 2.39): N must be a valid width
    c.size = "w";
    c.end = i + 1;
    return c;  // not formatted here: a host-library-dependent case (see format_segment)
  }
  c.type = at(i);
  if (!valid_type(g, c.type)) {
    c.end = i;
    c.type = 0;
    return c;
  }
  c.end = i + 1;
  c.valid = true;
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

// A value the host passes to its C library: integers and pointers in general registers, doubles
// in vector registers (the x86-64 System V calling convention of the driver's printf call), so a
// specification consumes from the queue of its class.
struct Passed {
  uint64_t bits = 0;
  std::optional<std::string> str;  // the copied string of a %s slot (nullopt: a NULL or no string)
};

struct Queues {
  std::deque<Passed> ints, doubles;
};

// What the host's C library prints for `seg` with the values in `q` (step 3). A specification
// that finds its queue empty reads what the registers hold: 0 here, and `undefined` records it.
std::string format_segment(std::string_view seg, Queues& q, std::vector<std::string>& undefined, bool& too_long) {
  std::string out;
  auto pop = [&](std::deque<Passed>& d, const Conversion& c) {
    if (d.empty()) {
      undefined.push_back(fmt::format("\"{}\" reads a value the device never passed (CUDA's printf does not count "
                                      "it as an argument): an uninitialised host register on the GPU, 0 here",
                                      seg.substr(c.begin, c.end - c.begin)));
      return Passed{};
    }
    Passed p = std::move(d.front());
    d.pop_front();
    return p;
  };
  size_t i = 0;
  while (i < seg.size()) {
    if (seg[i] != '%') {
      out += seg[i++];
      continue;
    }
    if (i + 1 < seg.size() && seg[i + 1] == '%') {
      out += '%';
      i += 2;
      continue;
    }
    const Conversion c = parse_spec(seg, i, Grammar::Libc);
    const std::string_view written = seg.substr(c.begin, c.end - c.begin);
    if (c.size == "w") {
      // glibc 2.39 takes %wN (C23); an invalid N makes the whole call fail, so the segment prints
      // nothing there (seen on the H200's host); older C libraries print it as text.
      undefined.push_back(fmt::format("\"{}\": the host C library decides what this prints (glibc 2.39 fails the "
                                      "segment: nothing)", seg));
      return {};
    }
    if (!c.valid) {
      out += written;  // glibc prints an unknown specification as it is written
      i = c.end;
      continue;
    }
    i = c.end;
    int s1 = 0, s2 = 0, nstar = 0;
    if (c.width_star) {
      s1 = static_cast<int32_t>(pop(q.ints, c).bits);
      ++nstar;
      if (s1 > kMaxWidth || s1 < -kMaxWidth) too_long = true;
    }
    if (c.prec_star) {
      const int v = static_cast<int32_t>(pop(q.ints, c).bits);
      (nstar ? s2 : s1) = v;
      ++nstar;
      if (v > kMaxWidth) too_long = true;
    }
    if (c.width > kMaxWidth || c.prec > kMaxWidth) too_long = true;
    std::string spec = "%" + c.flags;
    if (c.width_star) spec += '*';
    else if (c.width >= 0) spec += std::to_string(c.width);
    if (c.prec_star) spec += ".*";
    else if (c.prec >= 0) {
      spec += '.';
      spec += std::to_string(c.prec);
    }
    if (c.type == '%') {
      out += '%';  // "%5%": glibc prints '%'
      continue;
    }
    if (c.type == 'n' || c.type == 'm' || c.type == 'C' || c.type == 'S') {
      // %n writes through a pointer the GPU's host never had, %m prints the host's errno, %C and %S
      // are wide characters: the host decides; tcsim prints the specification as written.
      if (c.type == 'n' || c.type == 'C' || c.type == 'S') pop(q.ints, c);
      undefined.push_back(fmt::format("\"{}\": what this prints depends on the host", written));
      out += written;
      continue;
    }
    if (is_float_type(c.type)) {
      const Passed p = pop(q.doubles, c);
      if (c.size == "L")
        undefined.push_back(fmt::format("\"{}\": a long double the device never passes", written));
      double d;
      std::memcpy(&d, &p.bits, 8);
      if (!too_long) out += c_format(spec + c.type, nstar, s1, s2, d);
      continue;
    }
    const Passed p = pop(q.ints, c);
    if (too_long) continue;
    if (c.type == 's') {
      if (!p.str && p.bits != 0)
        undefined.push_back(fmt::format("\"{}\" takes a value that is not a string the device copied: it prints "
                                        "whatever that address holds on the GPU's host; (null) here", written));
      out += c.size == "l" ? written
                           : c_format<const char*>(spec + "s", nstar, s1, s2, p.str ? p.str->c_str() : nullptr);
      continue;
    }
    if (c.type == 'p') {
      out += c_format(spec + "p", nstar, s1, s2, reinterpret_cast<void*>(static_cast<uintptr_t>(p.bits)));
      continue;
    }
    if (c.type == 'c') {
      out += c_format(spec + "c", nstar, s1, s2, static_cast<int>(static_cast<int32_t>(p.bits)));
      continue;
    }
    // Integers: the C type the size names (glibc reads an int for none/h/hh and converts).
    const bool wide = !(c.size.empty() || c.size == "h" || c.size == "hh");
    const std::string sz = wide ? "ll" : std::string(c.size);
    if (c.type == 'd' || c.type == 'i') {
      if (wide) out += c_format(spec + sz + c.type, nstar, s1, s2, static_cast<long long>(p.bits));
      else out += c_format(spec + sz + c.type, nstar, s1, s2, static_cast<int>(static_cast<int32_t>(p.bits)));
    } else {
      if (wide) out += c_format(spec + sz + c.type, nstar, s1, s2, static_cast<unsigned long long>(p.bits));
      else out += c_format(spec + sz + c.type, nstar, s1, s2, static_cast<unsigned>(static_cast<uint32_t>(p.bits)));
    }
  }
  return out;
}

}  // namespace

uint32_t Conversion::value_bytes() const {
  if (is_float_type(type) || type == 's' || type == 'p') return 8;
  return size == "l" || size == "ll" ? 8 : 4;
}

std::vector<Conversion> conversions(std::string_view fmt, Grammar g) {
  std::vector<Conversion> out;
  size_t i = 0;
  while (i < fmt.size()) {
    if (fmt[i] != '%') {
      ++i;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      i += 2;
      continue;
    }
    Conversion c = parse_spec(fmt, i, g);
    i = c.valid ? c.end : std::max(c.end, i + 1);
    if (c.valid) out.push_back(std::move(c));
  }
  return out;
}

Result format(std::string_view fmt, Memory& mem) {
  Result r;
  // 1. The device: its conversions' arguments, one slot each, at most kMaxArgs.
  std::vector<Passed> slots;
  uint64_t off = 0;
  auto read = [&](uint32_t size) {
    off = align_up(off, size);
    uint64_t v = 0;
    mem.read_arg(off, &v, size);
    off += size;
    return v;
  };
  for (const Conversion& c : conversions(fmt, Grammar::Device)) {
    if (slots.size() + c.width_star + 1 > static_cast<size_t>(kMaxArgs)) break;
    if (c.width_star) slots.push_back({read(4), std::nullopt});
    Passed v{read(c.value_bytes()), std::nullopt};
    if (c.type == 's' && v.bits != 0) {
      v.str = mem.read_string(v.bits, kMaxString);
      r.string_bytes += v.str->size() + 1;
    }
    slots.push_back(std::move(v));
  }
  r.slots = slots.size();
  r.ret = static_cast<int32_t>(slots.size());
  r.arg_bytes = off;
  // 2./3. The host: slot k for its k-th conversion; past the device's slots, the format string the
  // record holds after them, 8 bytes a slot.
  auto slot = [&](size_t k, const Conversion& c) -> Passed {
    if (k < slots.size()) return slots[k];
    uint64_t bits = 0;
    const size_t at = (k - slots.size()) * 8;
    for (size_t b = 0; b < 8 && at + b < fmt.size(); ++b)
      bits |= uint64_t{static_cast<uint8_t>(fmt[at + b])} << (8 * b);
    r.undefined.push_back(fmt::format("\"{}\" has no argument the device copied (the device does not count it, or "
                                      "it is past the 32nd): the GPU prints the format string's bytes {}..{} as its "
                                      "value", fmt.substr(c.begin, c.end - c.begin), at, at + 7));
    return Passed{bits, std::nullopt};
  };
  size_t k = 0, prev = 0;
  for (const Conversion& c : conversions(fmt, Grammar::Host)) {
    Queues q;
    if (c.width_star) q.ints.push_back(slot(k++, c));
    Passed v = slot(k++, c);
    (is_float_type(c.type) ? q.doubles : q.ints).push_back(std::move(v));
    r.text += format_segment(fmt.substr(prev, c.end - prev), q, r.undefined, r.too_long);
    prev = c.end;
  }
  r.text += fmt.substr(prev);  // after the last conversion: as it is written
  if (r.too_long) r.text.clear();
  return r;
}

}  // namespace tcsim::sim::printf_format
