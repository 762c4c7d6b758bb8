// The rows of MachineConfig (machine_config.h) with their sources. "measured" values come from
// kernels/probes/results/h200-2026-12-01-machine/ (machine_shape.cu on an NVIDIA H200, driver
// 580.159.04, CUDA 13.0); "CUDA C++ Programming Guide" is its "Compute Capabilities" table
// (technical specifications per compute capability); "assumed" marks a value that is neither.
#include <algorithm>
#include <stdexcept>

#include "models/machine/machine_config.h"

namespace tcsim::models {
namespace {

// H200 SXM (GH100, sm_90a). The GPCs are the groups of SMs that clusters were ever placed in over
// every cluster size 1..16 (three launches each, one CTA per SM): 1 x 8, 5 x 16, 2 x 18 and 4 x 2
// SMs; with them max_active_clusters() reproduces every cudaOccupancyMaxActiveClusters answer.
constexpr MachineConfig kH200 = {
    "H200 (sm_90a)", isa::Arch::Sm90a,
    132, 12, {8, 16, 16, 16, 16, 16, 18, 18, 2, 2, 2, 2},
    2048, 32, 64, 8, 233472,
    232448, 49152, 1024, 0x120, 128,
    1024, {1024, 1024, 64}, {0x7fffffffu, 65535, 65535}, 8, 16,
    1980};

constexpr FieldSource kH200Sources[] = {
    {"num_sms", "measured (cudaDeviceProp::multiProcessorCount, %nsmid)", false},
    {"num_gpcs", "measured (union of the SMs of every cluster placement, machine_shape.txt GPC lines)", false},
    {"gpc_sms", "measured (machine_shape.txt GPC lines; cudaOccupancyMaxActiveClusters agrees for k = 1..16)", false},
    {"max_threads_per_sm", "measured (cudaDeviceProp::maxThreadsPerMultiProcessor)", false},
    {"max_ctas_per_sm", "measured (cudaDeviceProp::maxBlocksPerMultiProcessor)", false},
    {"max_warps_per_sm", "CUDA C++ Programming Guide, cc 9.0", false},
    {"max_cluster_ctas_per_sm", "measured (cudaOccupancyMaxActiveClusters(1) = 1056 = 132 x 8 where 16 or 32 CTAs fit)", false},
    {"smem_per_sm", "measured (cudaDeviceProp::sharedMemPerMultiprocessor)", false},
    {"max_smem_per_cta", "measured (cudaDeviceProp::sharedMemPerBlockOptin)", false},
    {"default_max_dynamic_smem", "measured (cudaDeviceProp::sharedMemPerBlock)", false},
    {"reserved_smem_per_cta", "measured (reservedSharedMemPerBlock; %reserved_smem_offset_cap; first variable at 0x400)", false},
    {"reserved_smem_end", "measured (%reserved_smem_offset_end, smem_sregs_* goldens)", false},
    {"smem_alloc_granularity", "measured (%total_smem_size, smem_sregs_* goldens)", false},
    {"max_threads_per_cta", "CUDA C++ Programming Guide, cc 9.0", false},
    {"max_block", "CUDA C++ Programming Guide, cc 9.0", false},
    {"max_grid", "CUDA C++ Programming Guide, cc 9.0", false},
    {"max_cluster_ctas_portable", "CUDA C++ Programming Guide, thread block clusters", false},
    {"max_cluster_ctas_nonportable", "measured (clusters of 9..16 launched; cudaOccupancyMaxPotentialClusterSize = 16)", false},
    {"clock_mhz", "measured (nvidia-smi clocks.max.sm)", false},
};

// B200 (GB100, sm_100a): two dies of 80 SMs, 74 enabled on each (Chips and Cheese, "Nvidia's B200:
// Keeping the CUDA Juggernaut Rolling", 2025). How the 74 TPCs of a die split into GPCs is not
// published: four GPCs of 10, 9, 9, 9 TPCs per die are assumed; every SM pairs with its TPC
// neighbour, so all 74 two-CTA clusters are co-resident (a public 148-CTA persistent 2-SM kernel
// runs within 2% of its 128-CTA twin on B200: issue 10 item 4).
constexpr MachineConfig kB200 = {
    "B200 (sm_100a)", isa::Arch::Sm100a,
    148, 8, {20, 18, 18, 18, 20, 18, 18, 18},
    2048, 32, 64, 8, 233472,
    232448, 49152, 1024, 0x120, 128,
    1024, {1024, 1024, 64}, {0x7fffffffu, 65535, 65535}, 8, 16,
    1965};

constexpr FieldSource kB200Sources[] = {
    {"num_sms", "Chips and Cheese, Nvidia's B200 (2025): 2 dies x 74 enabled SMs", false},
    {"num_gpcs", "assumed (4 GPCs per die; not published)", true},
    {"gpc_sms", "assumed (10, 9, 9, 9 TPCs per die; not published)", true},
    {"max_threads_per_sm", "CUDA C++ Programming Guide, cc 10.0", false},
    {"max_ctas_per_sm", "CUDA C++ Programming Guide, cc 10.0", false},
    {"max_warps_per_sm", "CUDA C++ Programming Guide, cc 10.0", false},
    {"max_cluster_ctas_per_sm", "assumed (the H200's measured 8)", true},
    {"smem_per_sm", "CUDA C++ Programming Guide, cc 10.0 (228 KB)", false},
    {"max_smem_per_cta", "CUDA C++ Programming Guide, cc 10.0 (227 KB)", false},
    {"default_max_dynamic_smem", "CUDA C++ Programming Guide (48 KB without opt-in)", false},
    {"reserved_smem_per_cta", "CUDA C++ Programming Guide (1 KB reserved per block); ptxas 13.0 sm_100a places "
                              "the first variable at 0x400 (sass_addr.txt)", false},
    {"reserved_smem_end", "assumed (the H200's measured 0x120)", true},
    {"smem_alloc_granularity", "assumed (the H200's measured 128)", true},
    {"max_threads_per_cta", "CUDA C++ Programming Guide, cc 10.0", false},
    {"max_block", "CUDA C++ Programming Guide, cc 10.0", false},
    {"max_grid", "CUDA C++ Programming Guide, cc 10.0", false},
    {"max_cluster_ctas_portable", "CUDA C++ Programming Guide, thread block clusters", false},
    {"max_cluster_ctas_nonportable", "CUDA C++ Programming Guide (16 with the non-portable attribute); the 16-bit "
                                     "ctaMask of PTX ISA §9.7.9.25.5.2", false},
    {"clock_mhz", "assumed (B200 boost clock class)", true},
};

// B300 (Blackwell Ultra, sm_103a): the full chip has 160 SMs (NVIDIA, Blackwell Ultra at Hot Chips
// 2025); how many the product enables, and its GPC layout, are not published. Every value of this
// row is assumed equal to the B200's and marked so: tcsim has no B300 measurement.
constexpr MachineConfig kB300 = {
    "B300 (sm_103a)", isa::Arch::Sm103a,
    148, 8, {20, 18, 18, 18, 20, 18, 18, 18},
    2048, 32, 64, 8, 233472,
    232448, 49152, 1024, 0x120, 128,
    1024, {1024, 1024, 64}, {0x7fffffffu, 65535, 65535}, 8, 16,
    1965};

constexpr FieldSource kB300Sources[] = {
    {"num_sms", "assumed (the B200's 148; the full chip has 160: NVIDIA, Hot Chips 2025)", true},
    {"num_gpcs", "assumed (as the B200 row)", true},
    {"gpc_sms", "assumed (as the B200 row)", true},
    {"max_threads_per_sm", "assumed (cc 10.0's value)", true},
    {"max_ctas_per_sm", "assumed (cc 10.0's value)", true},
    {"max_warps_per_sm", "assumed (cc 10.0's value)", true},
    {"max_cluster_ctas_per_sm", "assumed (the H200's measured 8)", true},
    {"smem_per_sm", "assumed (cc 10.0's value)", true},
    {"max_smem_per_cta", "assumed (cc 10.0's value)", true},
    {"default_max_dynamic_smem", "assumed (cc 10.0's value)", true},
    {"reserved_smem_per_cta", "assumed (cc 10.0's value)", true},
    {"reserved_smem_end", "assumed (the H200's measured 0x120)", true},
    {"smem_alloc_granularity", "assumed (the H200's measured 128)", true},
    {"max_threads_per_cta", "assumed (cc 10.0's value)", true},
    {"max_block", "assumed (cc 10.0's value)", true},
    {"max_grid", "assumed (cc 10.0's value)", true},
    {"max_cluster_ctas_portable", "assumed (cc 10.0's value)", true},
    {"max_cluster_ctas_nonportable", "assumed (cc 10.0's value)", true},
    {"clock_mhz", "assumed (the B200's)", true},
};

constexpr isa::Arch kArchs[] = {isa::Arch::Sm90a, isa::Arch::Sm100a, isa::Arch::Sm103a};

}  // namespace

const MachineConfig& machine_config(isa::Arch arch) {
  switch (arch) {
    case isa::Arch::Sm90a: return kH200;
    case isa::Arch::Sm100a: case isa::Arch::Sm100f: return kB200;
    case isa::Arch::Sm103a: return kB300;
  }
  throw std::invalid_argument("machine_config: unknown arch");
}

std::span<const FieldSource> field_sources(isa::Arch arch) {
  switch (arch) {
    case isa::Arch::Sm90a: return kH200Sources;
    case isa::Arch::Sm100a: case isa::Arch::Sm100f: return kB200Sources;
    case isa::Arch::Sm103a: return kB300Sources;
  }
  throw std::invalid_argument("field_sources: unknown arch");
}

std::span<const isa::Arch> machine_archs() { return kArchs; }

uint32_t ctas_per_sm(const MachineConfig& m, uint32_t threads, uint32_t smem) {
  if (threads == 0 || threads > m.max_threads_per_cta || smem > m.smem_per_sm) return 0;
  const uint32_t warps = (threads + 31) / 32;
  uint32_t n = std::min({m.max_ctas_per_sm, m.max_threads_per_sm / threads, m.max_warps_per_sm / warps});
  if (smem) n = std::min(n, m.smem_per_sm / smem);
  return n;
}

uint32_t max_active_clusters(const MachineConfig& m, uint32_t threads, uint32_t smem, uint32_t cluster_ctas) {
  if (cluster_ctas == 0) return 0;
  const uint32_t slots = std::min(ctas_per_sm(m, threads, smem), m.max_cluster_ctas_per_sm);
  uint32_t n = 0;
  for (uint32_t s : m.gpcs())
    if (cluster_ctas <= s) n += slots * s / cluster_ctas;
  return n;
}

}  // namespace tcsim::models
