#include "tools/spec/buffer_init.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "models/formats/format.h"
#include "tools/spec/npy.h"
#include "tools/spec/rng.h"
#include "tools/spec/spec_error.h"

namespace tcsim::spec {
namespace {

using i128 = __int128;
using models::Round;

[[noreturn]] void fail(const InitSpec& in, const std::string& what) {
  throw spec_error(in.spec_file, in.json_path, what);
}

i128 int_min(SpecDType t) {
  const int bits = static_cast<int>(elem_bytes(t)) * 8;
  return info(t).kind == ElemKind::SignedInt ? -(i128{1} << (bits - 1)) : 0;
}
i128 int_max(SpecDType t) {
  const int bits = static_cast<int>(elem_bytes(t)) * 8;
  return info(t).kind == ElemKind::SignedInt ? (i128{1} << (bits - 1)) - 1 : (i128{1} << bits) - 1;
}

i128 as_i128(const Number& n) {  // n.is_integral() holds
  switch (n.kind) {
    case Number::Kind::Signed: return n.s;
    case Number::Kind::Unsigned: return n.u;
    case Number::Kind::Real: return static_cast<i128>(n.d);  // integral and checked in range
  }
  return 0;
}

std::string i128_str(i128 v) {
  if (v < 0) return fmt::format("-{}", static_cast<uint64_t>(-v));
  return fmt::format("{}", static_cast<uint64_t>(v));
}

std::string int_range(SpecDType t) {
  return fmt::format("[{}, {}]", i128_str(int_min(t)), i128_str(int_max(t)));
}

// An integer Number within dtype's range, or an error naming `what`.
i128 checked_int(const InitSpec& in, SpecDType t, const Number& n, const char* what) {
  if (!n.is_integral())
    fail(in, fmt::format("{} {} is not an integer ({} holds integers)", what, n.to_string(), name(t)));
  if (n.kind == Number::Kind::Real && std::fabs(n.d) >= 0x1p64)
    fail(in, fmt::format("{} {} is outside {}'s range {}", what, n.to_string(), name(t), int_range(t)));
  const i128 v = as_i128(n);
  if (v < int_min(t) || v > int_max(t))
    fail(in, fmt::format("{} {} is outside {}'s range {}", what, n.to_string(), name(t), int_range(t)));
  return v;
}

const models::FormatSpec& fmt_of(SpecDType t) { return models::format_spec(info(t).format); }

// A finite float value within dtype's range (and >= 0 for the unsigned formats).
void check_float_value(const InitSpec& in, SpecDType t, double v, const char* what) {
  const models::FormatSpec& f = fmt_of(t);
  if (std::isnan(v)) {
    if (f.ieee_nan || f.nan_code >= 0) return;
    fail(in, fmt::format("{} nan: {} has no NaN encoding", what, name(t)));
  }
  if (std::isinf(v)) {
    if (f.has_inf && (v > 0 || f.has_sign)) return;
    fail(in, fmt::format("{} {}: {} has no {} (largest finite value {}; use raw bits \"0x...\" "
                         "for a special code)", what, v > 0 ? "inf" : "-inf", name(t),
                         v > 0 ? "infinity" : "negative infinity", max_finite(t)));
  }
  if (!f.has_sign && v < 0)
    fail(in, fmt::format("{} {} is negative, but {} is an unsigned format", what, v, name(t)));
  if (std::fabs(v) > max_finite(t))
    fail(in, fmt::format("{} {} is outside {}'s finite range [{}{}, {}]", what, v, name(t),
                         f.has_sign ? "-" : "", f.has_sign ? max_finite(t) : 0.0, max_finite(t)));
}

void check_finite(const InitSpec& in, double v, const char* what) {
  if (!std::isfinite(v)) fail(in, fmt::format("{} must be a finite number, not {}", what, v));
}

// One element's code from a double, rounded to nearest-even. `sat`: clamp beyond-range values to
// the largest finite value (see docs/launch_spec.md for which form uses which).
// ue8m0 (a power of two) has no round-to-nearest in PTX (cvt .frnd3 is .rz or .rp only, PTX ISA
// §9.7.9.21): it rounds up (.rp), the rounding block-scale computations use.
uint64_t float_code(isa::DType f, double v, bool sat) {
  if (f == isa::DType::F64) return std::bit_cast<uint64_t>(v);
  return models::encode(f, v, f == isa::DType::UE8M0 ? Round::RP : Round::RN, sat);
}

// Round-half-even to an integer, saturated to dtype's range; NaN -> 0. Uses only floor and
// comparisons, so it does not depend on the host's rounding mode.
uint64_t int_code_from_double(SpecDType t, double v) {
  if (std::isnan(v)) return 0;
  double r = std::floor(v);
  const double frac = v - r;  // exact for |v| < 2^52; 0 beyond (v is then an integer)
  if (frac > 0.5 || (frac == 0.5 && std::fmod(r, 2.0) != 0)) r += 1;
  i128 x;
  if (r <= static_cast<double>(int_min(t))) x = int_min(t);
  else if (r >= static_cast<double>(int_max(t))) x = int_max(t);
  else x = static_cast<i128>(r);
  return static_cast<uint64_t>(x);
}

void store(std::span<std::byte> out, uint64_t i, uint32_t size, uint64_t code) {
  std::memcpy(out.data() + i * size, &code, size);  // little-endian host (npy.cc asserts it)
}

bool raw_fits(uint64_t bits, SpecDType t) {
  const uint32_t nbits = elem_bytes(t) * 8;
  return nbits >= 64 || bits < (uint64_t{1} << nbits);
}

uint64_t value_mask(SpecDType t) {
  const int b = info(t).value_bits;
  return b >= 64 ? ~uint64_t{0} : (uint64_t{1} << b) - 1;
}

}  // namespace

double max_finite(SpecDType t) {
  switch (t) {
    case SpecDType::F64: return std::numeric_limits<double>::max();
    case SpecDType::F32: return std::numeric_limits<float>::max();
    default: break;
  }
  const isa::DType f = info(t).format;
  const int nbits = models::format_spec(f).storage_bits;
  double m = 0;
  for (uint64_t c = 0; c < (uint64_t{1} << nbits); ++c) {
    const models::Unpacked u = models::unpack(f, c);
    if (u.cls == models::FpClass::Normal || u.cls == models::FpClass::Subnormal)
      m = std::fmax(m, models::to_double(f, c));
  }
  return m;
}

void check_init(const InitSpec& in, SpecDType t, uint64_t count) {
  const bool integer = is_integer(t);
  switch (in.kind) {
    case InitKind::Fill:
      if (in.fill_bits) {
        if (!raw_fits(*in.fill_bits, t))
          fail(in, fmt::format("fill \"0x{:x}\" does not fit in a {}-bit {} element",
                               *in.fill_bits, elem_bytes(t) * 8, name(t)));
      } else if (integer) {
        checked_int(in, t, in.fill, "fill");
      } else {
        check_float_value(in, t, in.fill.as_double(), "fill");
      }
      return;
    case InitKind::File: {
      NpyHeader h;
      try {
        h = read_npy_header(in.file_path);
      } catch (const SpecError& e) {
        fail(in, fmt::format("the init file \"{}\" (resolved to {}): {}", in.file, in.file_path, e.what()));
      }
      if (h.item_size != elem_bytes(t) || h.count() != count)
        fail(in, fmt::format("{} holds {} elements of {} bytes ('{}', shape ({})), but this {} "
                             "needs {} elements of {} bytes ({})", in.file, h.count(), h.item_size,
                             h.descr, fmt::join(h.shape, ", "),
                             in.json_path.rfind("symbols", 0) == 0 ? "symbol" : "buffer", count,
                             elem_bytes(t), name(t)));
      return;
    }
    case InitKind::Random:
      switch (in.dist) {
        case RandomDist::Uniform:
          if (integer) {
            const i128 lo = checked_int(in, t, in.low, "low"), hi = checked_int(in, t, in.high, "high");
            if (lo > hi) fail(in, fmt::format("low {} is above high {}", i128_str(lo), i128_str(hi)));
          } else {
            check_finite(in, in.low.as_double(), "low");
            check_finite(in, in.high.as_double(), "high");
            check_float_value(in, t, in.low.as_double(), "low");
            check_float_value(in, t, in.high.as_double(), "high");
            if (in.low.as_double() > in.high.as_double())
              fail(in, fmt::format("low {} is above high {}", in.low.to_string(), in.high.to_string()));
          }
          return;
        case RandomDist::Normal:
          check_finite(in, in.mean, "mean");
          check_finite(in, in.stddev, "std");
          if (in.stddev < 0) fail(in, fmt::format("std {} is negative", in.stddev));
          return;
        case RandomDist::Bits: return;
        case RandomDist::Integers: {
          const Number* ends[2] = {&in.low, &in.high};
          const char* names[2] = {"low", "high"};
          i128 v[2];
          for (int e = 0; e < 2; ++e) {
            if (!ends[e]->is_integral() || (ends[e]->kind == Number::Kind::Real && std::fabs(ends[e]->d) >= 0x1p63))
              fail(in, fmt::format("{} {} is not an integer (dist \"integers\")", names[e], ends[e]->to_string()));
            v[e] = as_i128(*ends[e]);
          }
          if (v[0] > v[1]) fail(in, fmt::format("low {} is above high {}", i128_str(v[0]), i128_str(v[1])));
          if (integer) {
            checked_int(in, t, in.low, "low");
            checked_int(in, t, in.high, "high");
            return;
          }
          // Every integer of [low, high] must be exact in the format: the ends fit and the format
          // has enough significand bits for the larger magnitude (2^(mantissa + 1) is exact).
          const models::FormatSpec& f = fmt_of(t);
          const i128 mag = std::max(v[0] < 0 ? -v[0] : v[0], v[1] < 0 ? -v[1] : v[1]);
          const bool exact = t == SpecDType::F64 ? mag <= (i128{1} << 53)
                             : t == SpecDType::F32 ? mag <= (i128{1} << 24)
                                                   : mag <= (i128{1} << (f.mant_bits + 1));
          if (!exact || static_cast<double>(mag) > max_finite(t) || (!f.has_sign && v[0] < 0))
            fail(in, fmt::format("not every integer of [{}, {}] is exact in {} (dist \"integers\" stores each "
                                 "value exactly)",
                                 i128_str(v[0]), i128_str(v[1]), name(t)));
          return;
        }
      }
      return;
    case InitKind::Uninitialised:
      return;
    case InitKind::Iota:
      if (integer) {
        if (!in.start.is_integral() || !in.step.is_integral())
          fail(in, fmt::format("iota start {} and step {} must be integers for {}",
                               in.start.to_string(), in.step.to_string(), name(t)));
        for (const Number* n : {&in.start, &in.step})
          if (n->kind == Number::Kind::Real && std::fabs(n->d) >= 0x1p63)
            fail(in, fmt::format("iota value {} is outside the 64-bit range", n->to_string()));
      } else {
        check_finite(in, in.start.as_double(), "iota start");
        check_finite(in, in.step.as_double(), "iota step");
      }
      return;
  }
}

std::vector<std::byte> make_init_bytes(const InitSpec& in, SpecDType t, uint64_t count) {
  std::vector<std::byte> out(count * elem_bytes(t));
  fill_init_bytes(in, t, count, out);
  return out;
}

void fill_init_bytes(const InitSpec& in, SpecDType t, uint64_t count, std::span<std::byte> out) {
  const uint32_t size = elem_bytes(t);
  if (out.size() != count * size)
    throw std::logic_error(fmt::format("fill_init_bytes: {} bytes for {} elements of {} bytes", out.size(), count, size));
  const ElemKind kind = info(t).kind;
  const isa::DType f = info(t).format;

  // Value forms on e2m1x2 work per fp4 value: value j (j = 2*byte + nibble, low nibble first).
  auto per_value = [&](auto&& value_code) {
    if (kind == ElemKind::Fp4x2) {
      for (uint64_t i = 0; i < count; ++i)
        store(out, i, 1, (value_code(2 * i) & 0xf) | (value_code(2 * i + 1) & 0xf) << 4);
    } else {
      for (uint64_t i = 0; i < count; ++i) store(out, i, size, value_code(i));
    }
  };

  switch (in.kind) {
    case InitKind::Fill: {
      uint64_t code;
      if (in.fill_bits) {
        code = *in.fill_bits;
        for (uint64_t i = 0; i < count; ++i) store(out, i, size, code);
        return;
      }
      if (is_integer(t)) code = static_cast<uint64_t>(as_i128(in.fill));
      else code = float_code(f, in.fill.as_double(), false);
      per_value([&](uint64_t) { return code; });
      return;
    }
    case InitKind::File: {
      // Straight into the device bytes (no copy of the file in host memory); the header is judged
      // first (check_init's error for a shape or element size that does not fit).
      auto file_error = [&](const SpecError& e) {
        fail(in, fmt::format("the init file \"{}\" (resolved to {}): {}", in.file, in.file_path, e.what()));
      };
      NpyHeader h;
      try {
        h = read_npy_header(in.file_path);
      } catch (const SpecError& e) {
        file_error(e);
      }
      if (h.item_size != size || h.count() != count) check_init(in, t, count);
      try {
        read_npy_into(in.file_path, out);
      } catch (const SpecError& e) {
        file_error(e);
      }
      return;
    }
    case InitKind::Random:
      switch (in.dist) {
        case RandomDist::Bits: {
          const uint64_t mask = value_mask(t);
          for (uint64_t i = 0; i < count; ++i) store(out, i, size, rng::draw(in.seed, i, 0) & mask);
          return;
        }
        case RandomDist::Uniform:
          if (is_integer(t)) {
            // low + floor(x * n / 2^64), n = high - low + 1 (Lemire's multiply-shift; n <= 2^64).
            const i128 lo = as_i128(in.low);
            const unsigned __int128 n = static_cast<unsigned __int128>(as_i128(in.high) - lo) + 1;
            per_value([&](uint64_t i) {
              const unsigned __int128 r = (static_cast<unsigned __int128>(rng::draw(in.seed, i, 0)) * n) >> 64;
              return static_cast<uint64_t>(lo + static_cast<i128>(r));
            });
          } else {
            const double lo = in.low.as_double(), hi = in.high.as_double();
            per_value([&](uint64_t i) {
              const double u = rng::unit(rng::draw(in.seed, i, 0));
              return float_code(f, lo + (hi - lo) * u, true);
            });
          }
          return;
        case RandomDist::Integers: {
          // low + floor(x * n / 2^64), n = high - low + 1, as the integer uniform form; the value
          // is then stored exactly (check_init proved it representable).
          const i128 lo = as_i128(in.low);
          const unsigned __int128 n = static_cast<unsigned __int128>(as_i128(in.high) - lo) + 1;
          per_value([&](uint64_t i) {
            const unsigned __int128 r = (static_cast<unsigned __int128>(rng::draw(in.seed, i, 0)) * n) >> 64;
            const i128 v = lo + static_cast<i128>(r);
            return is_integer(t) ? static_cast<uint64_t>(v) : float_code(f, static_cast<double>(v), false);
          });
          return;
        }
        case RandomDist::Normal:
          per_value([&](uint64_t i) {
            const double v = in.mean + in.stddev * rng::standard_normal(in.seed, i);
            return is_integer(t) ? int_code_from_double(t, v) : float_code(f, v, true);
          });
          return;
      }
      return;
    case InitKind::Uninitialised:
      return;  // nothing written (the runner never fills such a buffer)
    case InitKind::Iota:
      if (is_integer(t)) {
        // Two's-complement arithmetic mod 2^64, truncated to the element (wraps like C).
        const uint64_t start = static_cast<uint64_t>(as_i128(in.start));
        const uint64_t step = static_cast<uint64_t>(as_i128(in.step));
        per_value([&](uint64_t i) { return start + step * i; });
      } else {
        const double start = in.start.as_double(), step = in.step.as_double();
        per_value([&](uint64_t i) { return float_code(f, start + step * static_cast<double>(i), false); });
      }
      return;
  }
}

bool is_zero_init(const InitSpec& in, SpecDType t) {
  if (in.kind != InitKind::Fill) return false;
  const std::vector<std::byte> one = make_init_bytes(in, t, 1);
  return std::all_of(one.begin(), one.end(), [](std::byte b) { return b == std::byte{0}; });
}

}  // namespace tcsim::spec
