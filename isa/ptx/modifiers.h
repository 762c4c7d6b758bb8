// Instruction modifiers (the dotted words after a mnemonic), generated from modifiers.def, and the
// typed enums the front end fills from them (rounding, comparison, state space, semantics, scope).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace tcsim::isa::ptx {

// PTX ISA §9.7.3 / §9.7.9.21: IEEE rounding (RN..RP), ties-away (RNA), integer rounding of a float
// result (RNI..RPI) and stochastic rounding (RS).
enum class Rounding : uint8_t { None, RN, RZ, RM, RP, RNA, RNI, RZI, RMI, RPI, RS };
// PTX ISA §9.7.6.1 Tables 23-24. LO/HI/LS/HS are the unsigned integer spellings.
enum class CmpOp : uint8_t {
  None, EQ, NE, LT, LE, GT, GE, LO, LS, HI, HS, EQU, NEU, LTU, LEU, GTU, GEU, NUM, NAN_
};
// PTX ISA §5.1 state spaces; Generic = no space written.
enum class Space : uint8_t {
  Generic, Global, Shared, SharedCta, SharedCluster, Local, Const, Param, ParamEntry, ParamFunc, Tex
};
// PTX ISA §8.4 memory-operation semantics; None = not written (weak for ld/st).
enum class Sem : uint8_t { None, Weak, Volatile, Relaxed, Acquire, Release, AcqRel, Sc, Mmio };
// PTX ISA §8.5 scopes; None = not written.
enum class Scope : uint8_t { None, Cta, Cluster, Gpu, Sys };

enum class ModCategory : uint8_t { Rounding, Cmp, Space, Sem, Scope, Vec, Other };

enum class Mod : uint16_t {
#define PTX_MOD(id, sp, cat, val) id,
#include "isa/ptx/modifiers.def"
#undef PTX_MOD
  Count_
};

struct ModInfo {
  Mod mod;
  std::string_view spelling;  // without the leading '.'
  ModCategory category;
  uint8_t value;  // the category enum's value (Rounding::RN, ...), vector width for Vec
};

const ModInfo& mod_info(Mod m);
inline std::string_view mod_name(Mod m) { return mod_info(m).spelling; }
std::optional<Mod> parse_mod(std::string_view spelling_without_dot);

std::string_view rounding_name(Rounding r);
std::string_view cmp_name(CmpOp c);
std::string_view space_name(Space s);
std::string_view sem_name(Sem s);
std::string_view scope_name(Scope s);

// .shared, .shared::cta and .shared::cluster all name shared memory; ::cluster addresses may
// point into another CTA of the cluster (PTX ISA §5.1.5).
constexpr bool is_shared(Space s) {
  return s == Space::Shared || s == Space::SharedCta || s == Space::SharedCluster;
}
constexpr bool is_param(Space s) {
  return s == Space::Param || s == Space::ParamEntry || s == Space::ParamFunc;
}

}  // namespace tcsim::isa::ptx
