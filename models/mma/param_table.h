// Parameter rows of the MMA arithmetic: one row per (arch, instruction path, kind, A type,
// B type, D type), each with the legal K values of the path, the datapath Numerics, a confidence
// and its source. The rows are data (param_table.cc lists them as short commented families and
// expands them); the engine (engine.h) is the same for every row.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "isa/arch.h"
#include "models/mma/dot_shape.h"

namespace tcsim::models::mma {

using isa::Arch;

// The instruction families that reach a tensor core (PTX ISA §9.7.14 mma, §9.7.15 wgmma,
// §9.7.16 tcgen05). The path matters: Ampere mma k16 is 2 x 8 but Hopper's is 16; Hopper wgmma
// fp8 keeps 13 bits; B200's legacy mma fp8 is not tcgen05 (docs/mma_numerics.md §2).
enum class Path : uint8_t { MmaSync, Wgmma, Tcgen05 };
std::string_view path_name(Path p);
std::optional<Path> parse_path(std::string_view s);

enum class Confidence : uint8_t {
  Hardware,        // reproduced bit for bit on published or our own hardware outputs
  Spec,            // fully defined by the PTX ISA (integer kinds)
  PublishedModel,  // stated by a bit-accurate public model (MMA-Sim, KM, sf-tensor), not replayed
  Assumed,         // no source settles it; a probe in kernels/probes/ is designed for it
};
std::string_view confidence_name(Confidence c);

struct ParamRow {
  Arch arch;
  Path path;
  MmaKind kind;
  DType atype, btype, dtype;
  uint8_t ks[3];      // legal dense K values of the path (0 = unused slot)
  Numerics num;
  Confidence confidence;
  std::string_view source;  // where the numbers come from, and what is still open

  bool allows_k(int k) const { return k > 0 && (ks[0] == k || ks[1] == k || ks[2] == k); }
  std::string legal_ks() const;  // "16" or "8|16"
};

std::span<const ParamRow> param_rows();
const ParamRow* find_row(Arch arch, Path path, MmaKind kind, DType a, DType b, DType d);

// "group=16 nfrac=25 f32=RZ/23 f16=RN zero_operand=skip ..." (every Numerics field).
std::string describe(const Numerics& n);
// Sets one Numerics field from "name=value" (the names describe() prints). Empty on success,
// else one line saying what is wrong. Lets probes select the alternatives the models disagree on.
std::string set_numerics_field(Numerics& n, std::string_view assignment);

}  // namespace tcsim::models::mma
