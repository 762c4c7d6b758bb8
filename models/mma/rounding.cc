#include "models/mma/rounding.h"

namespace tcsim::models::mma {

void WideAcc::add(bool neg, uint64_t mag, int lsb_exp) {
  if (mag == 0) return;
  const int pos = lsb_exp - kLsbExp;
  const int li = pos / 64, off = pos % 64;
  uint64_t part[2] = {mag << off, off ? mag >> (64 - off) : 0};
  if (!neg) {
    unsigned carry = 0;
    for (int i = li; i < kLimbs; ++i) {
      const uint64_t add = (i - li < 2 ? part[i - li] : 0);
      if (i - li >= 2 && carry == 0) break;
      const uint64_t s = limb_[i] + add;
      const unsigned c1 = s < add;
      limb_[i] = s + carry;
      carry = c1 | (limb_[i] < s);
    }
  } else {
    unsigned borrow = 0;
    for (int i = li; i < kLimbs; ++i) {
      const uint64_t sub = (i - li < 2 ? part[i - li] : 0);
      if (i - li >= 2 && borrow == 0) break;
      const uint64_t d = limb_[i] - sub;
      const unsigned b1 = limb_[i] < sub;
      const unsigned b2 = d < borrow;
      limb_[i] = d - borrow;
      borrow = b1 | b2;
    }
  }
}

bool WideAcc::is_zero() const {
  for (uint64_t l : limb_)
    if (l) return false;
  return true;
}

uint32_t WideAcc::round(const OutFormat& f, Round mode) const {
  uint64_t v[kLimbs];
  const bool neg = limb_[kLimbs - 1] >> 63;
  unsigned carry = 1;
  for (int i = 0; i < kLimbs; ++i) {  // magnitude: negate a negative two's-complement value
    if (neg) {
      v[i] = ~limb_[i] + carry;
      carry = carry && v[i] == 0;
    } else {
      v[i] = limb_[i];
    }
  }
  int top = kLimbs - 1;
  while (top > 0 && v[top] == 0) --top;
  const int p = top * 64 + (63 - __builtin_clzll(v[top]));  // caller guarantees nonzero
  if (p < 64) return round_finite(neg, v[0], kLsbExp, false, f, mode);
  const int start = p - 63;
  const int li = start / 64, off = start % 64;
  const uint64_t mag = off ? (v[li] >> off) | (v[li + 1] << (64 - off)) : v[li];
  bool sticky = off && (v[li] & ((uint64_t{1} << off) - 1));
  for (int i = 0; i < li && !sticky; ++i) sticky = v[i] != 0;
  return round_finite(neg, mag, kLsbExp + start, sticky, f, mode);
}

}  // namespace tcsim::models::mma
