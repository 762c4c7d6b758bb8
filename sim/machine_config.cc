#include "sim/machine_config.h"

namespace tcsim::sim {

// H100/H200 SXM (GH100): 132 SMs in 8 GPCs; 2048 threads, 32 CTAs, 64 warps per SM; 228 KB
// shared memory per SM, 227 KB max per CTA; boost clock 1980 MHz (H200: same die).
// Source: NVIDIA H100 Tensor Core GPU Architecture whitepaper; CUDA C++ Programming Guide,
// "Compute capabilities" table (cc 9.0). Portable cluster size 8 (programming guide, clusters).
constexpr MachineConfig kH200 = {"H200 (sm_90a)", 132, 8, 2048, 32, 64, 233472, 232448, 1980, 8};

// B200 (GB100): 148 SMs; per-SM limits as cc 10.0 in the CUDA C++ Programming Guide (2048 threads,
// 32 CTAs, 64 warps, 228 KB shared per SM, 227 KB per CTA). GPC count 8: assumed (two dies of
// four GPCs; not published per SM). Clock 1965 MHz: assumed (boost clock class of B200).
constexpr MachineConfig kB200 = {"B200 (sm_100a)", 148, 8, 2048, 32, 64, 233472, 232448, 1965, 8};

const MachineConfig& machine_config(isa::Arch arch) {
  return arch == isa::Arch::Sm90a ? kH200 : kB200;
}

}  // namespace tcsim::sim
