// Building operand bytes from global memory, shared by the kernels (mma_single.cu) and the host
// check (layout_selfcheck.cc): the 16 bytes of one canonical-layout chunk of a shared-memory tile,
// and the 8 TMEM columns of one row of A for one MMA. Global operands are row-major [rows][K]:
// 8/16/32-bit elements as themselves, e2m3/e3m2 one per byte (low 6 bits), e2m1 two per byte (low
// nibble = even k). Host and device code.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define TCK_HD_FN __host__ __device__ __forceinline__
#else
#define TCK_HD_FN inline
#endif

namespace tck {

// Bytes of one row of a global operand with `kt` elements along K.
TCK_HD_FN uint32_t global_row_bytes(uint32_t bits, uint32_t kt) {
  return bits == 4 ? kt / 2u : bits == 6 ? kt : kt * (bits / 8u);
}

TCK_HD_FN uint32_t ld_u32(const uint8_t* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const uint32_t*>(p);  // callers keep p 4-byte aligned
#else
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
#endif
}

TCK_HD_FN uint32_t ld_u16(const uint8_t* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const uint16_t*>(p);
#else
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
#endif
}

// The 16 bytes of a K-major chunk: row r, K elements [16*kc/ebytes ...) (8/16/32-bit types), or
// 16 elements in the padded sub-byte format of §9.7.16.10.4.4: fp4 -> 8 bytes of packed nibbles +
// 8 zero bytes (.b4x16_p64); fp6 -> 12 bytes of 16 x 6 bits, little-endian, + 4 zero bytes
// (.b6x16_p32). Element order within the data bytes: element 0 in the lowest bits.
TCK_HD_FN void kmajor_chunk(const uint8_t* g, uint32_t bits, uint32_t row_bytes, uint32_t r,
                            uint32_t kc, uint32_t (&w)[4]) {
  if (bits == 4) {
    const uint8_t* p = g + r * row_bytes + kc * 8u;
    w[0] = ld_u32(p); w[1] = ld_u32(p + 4); w[2] = 0; w[3] = 0;
  } else if (bits == 6) {
    const uint8_t* p = g + r * row_bytes + kc * 16u;
    w[0] = w[1] = w[2] = w[3] = 0;
    for (uint32_t i = 0; i < 16; ++i) {
      const uint32_t v = p[i] & 0x3Fu, pos = 6u * i, word = pos / 32u, sh = pos % 32u;
      w[word] |= v << sh;
      if (sh > 26u) w[word + 1] |= v >> (32u - sh);
    }
  } else {
    const uint8_t* p = g + r * row_bytes + kc * 16u;
    w[0] = ld_u32(p); w[1] = ld_u32(p + 4); w[2] = ld_u32(p + 8); w[3] = ld_u32(p + 12);
  }
}

// The 16 bytes of an MN-major chunk: K index k, MN elements [rc*T, rc*T+T) with T = 16/ebytes.
TCK_HD_FN void mnmajor_chunk(const uint8_t* g, uint32_t ebytes, uint32_t row_bytes, uint32_t rc,
                             uint32_t k, uint32_t (&w)[4]) {
  const uint32_t t = 16u / ebytes;
  w[0] = w[1] = w[2] = w[3] = 0;
  for (uint32_t i = 0; i < t; ++i) {
    const uint32_t r = rc * t + i;
    const uint8_t* p = g + r * row_bytes + k * ebytes;
    uint32_t v = ebytes == 1 ? p[0]
               : ebytes == 2 ? ld_u16(p)
                             : ld_u32(p);
    const uint32_t byte = i * ebytes;
    w[byte / 4u] |= v << (8u * (byte % 4u));
  }
}

// One TMEM lane's 8 columns of A for MMA step s (32 bytes of K): 8/16/32-bit types are the row's
// bytes; fp6 (one per byte in global) and fp4 are widened to one 8-bit container per element
// (§9.7.16.10.4.3): e2m3/e3m2 in bits [5:0], e2m1 in bits [5:2] (the mma.sync container convention
// of §9.7.14.5.14; the tcgen05 figures are images -- UNCONFIRMED, see README).
TCK_HD_FN void a_tmem_words(const uint8_t* g, uint32_t bits, uint32_t row_bytes, uint32_t m,
                            uint32_t s, uint32_t (&w)[8]) {
  if (bits == 4) {
    const uint8_t* p = g + m * row_bytes + s * 16u;
    for (uint32_t j = 0; j < 8; ++j) {
      const uint32_t b2 = ld_u16(p + 2 * j);  // 4 nibbles
      uint32_t word = 0;
      for (uint32_t e = 0; e < 4; ++e) word |= (((b2 >> (4 * e)) & 0xFu) << 2) << (8 * e);
      w[j] = word;
    }
  } else {
    const uint8_t* p = g + m * row_bytes + s * 32u;
    for (uint32_t j = 0; j < 8; ++j) w[j] = ld_u32(p + 4 * j) & (bits == 6 ? 0x3F3F3F3Fu : ~0u);
  }
}

}  // namespace tck
