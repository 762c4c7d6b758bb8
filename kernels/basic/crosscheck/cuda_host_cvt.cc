// cuda_host_cvt.cc — prints the conversions of CUDA 13's own host code (cuda_fp16.h, cuda_bf16.h,
// cuda_fp8.h, cuda_fp6.h, cuda_fp4.h) for f32 bit patterns read from stdin, one line per input,
// so that crosscheck_cvt.py can compare reference.py's independent conversion code with NVIDIA's.
// Columns: f16 rn rz rd ru | bf16 rn rz rd ru | f16(f64 3x) bf16(f64 3x) | e4m3 e5m2 satfinite |
// e4m3 e5m2 nosat | e2m3 e3m2 e2m1 | e8m0 sat-rz nosat-rp sat-rp nosat-rz | e4m3 e5m2 of the low
// 16 bits read as f16.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#include <cstdio>
#include <cstring>

namespace {
unsigned bits(__half h) {
  unsigned short u;
  std::memcpy(&u, &h, 2);
  return u;
}
unsigned bits(__nv_bfloat16 h) {
  unsigned short u;
  std::memcpy(&u, &h, 2);
  return u;
}
}  // namespace

int main() {
  unsigned x;
  while (std::scanf("%x", &x) == 1) {
    float f;
    std::memcpy(&f, &x, 4);
    const double d = static_cast<double>(f) * 3.0;
    std::printf("%x %x %x %x %x %x %x %x %x %x", bits(__float2half_rn(f)), bits(__float2half_rz(f)),
                bits(__float2half_rd(f)), bits(__float2half_ru(f)), bits(__float2bfloat16_rn(f)),
                bits(__float2bfloat16_rz(f)), bits(__float2bfloat16_rd(f)),
                bits(__float2bfloat16_ru(f)), bits(__double2half(d)), bits(__double2bfloat16(d)));
    std::printf(" %x %x %x %x", __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3),
                __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2),
                __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E4M3),
                __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E5M2));
    std::printf(" %x %x %x", __nv_cvt_float_to_fp6(f, __NV_E2M3, cudaRoundNearest),
                __nv_cvt_float_to_fp6(f, __NV_E3M2, cudaRoundNearest),
                __nv_cvt_float_to_fp4(f, __NV_E2M1, cudaRoundNearest));
    std::printf(" %x %x %x %x", __nv_cvt_float_to_e8m0(f, __NV_SATFINITE, cudaRoundZero),
                __nv_cvt_float_to_e8m0(f, __NV_NOSAT, cudaRoundPosInf),
                __nv_cvt_float_to_e8m0(f, __NV_SATFINITE, cudaRoundPosInf),
                __nv_cvt_float_to_e8m0(f, __NV_NOSAT, cudaRoundZero));
    __half_raw hr;
    hr.x = static_cast<unsigned short>(x);
    std::printf(" %x %x\n", __nv_cvt_halfraw_to_fp8(hr, __NV_SATFINITE, __NV_E4M3),
                __nv_cvt_halfraw_to_fp8(hr, __NV_SATFINITE, __NV_E5M2));
  }
  return 0;
}
