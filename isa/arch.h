// The machines tcsim models. Names follow nvcc's -arch spelling (PTX ISA §1.3 "Target ISA notes").
#pragma once
#include <optional>
#include <string_view>

namespace tcsim::isa {

enum class Arch {
  Sm90a,   // Hopper: wgmma, TMA, clusters.
  Sm100a,  // Blackwell datacenter (B200): tcgen05, arch-specific features.
  Sm100f,  // Blackwell family-portable subset (no .kind::i8, no tcgen05.shift, ...).
  Sm103a,  // Blackwell Ultra: adds K=96 block-scaled MMA, absolute LBO mode.
};

constexpr std::string_view arch_name(Arch a) {
  switch (a) {
    case Arch::Sm90a: return "sm_90a";
    case Arch::Sm100a: return "sm_100a";
    case Arch::Sm100f: return "sm_100f";
    case Arch::Sm103a: return "sm_103a";
  }
  return "?";
}

constexpr std::optional<Arch> parse_arch(std::string_view s) {
  for (Arch a : {Arch::Sm90a, Arch::Sm100a, Arch::Sm100f, Arch::Sm103a})
    if (arch_name(a) == s) return a;
  return std::nullopt;
}

// True for every Blackwell datacenter target (tcgen05 exists).
constexpr bool has_tcgen05(Arch a) { return a != Arch::Sm90a; }

}  // namespace tcsim::isa
