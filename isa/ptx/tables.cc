// Lookup functions over the X-macro tables (types.def, modifiers.def, opcodes.def, families.def,
// special_regs.def). Name maps are built once, on first use (function-local statics).
#include <string>
#include <unordered_map>

#include "isa/ptx/ir.h"

namespace tcsim::isa::ptx {
namespace {

#define MODVAL_Rounding(v) static_cast<uint8_t>(Rounding::v)
#define MODVAL_Cmp(v) static_cast<uint8_t>(CmpOp::v)
#define MODVAL_Space(v) static_cast<uint8_t>(Space::v)
#define MODVAL_Sem(v) static_cast<uint8_t>(Sem::v)
#define MODVAL_Scope(v) static_cast<uint8_t>(Scope::v)
#define MODVAL_Vec(v) uint8_t{v}
#define MODVAL_Other(v) uint8_t{0}
constexpr ModInfo kMods[] = {
#define PTX_MOD(id, sp, cat, val) {Mod::id, sp, ModCategory::cat, MODVAL_##cat(val)},
#include "isa/ptx/modifiers.def"
#undef PTX_MOD
};

constexpr OpInfo kOps[] = {
#define PTX_OP(id, mn, tc, fam, timing, sig, status) \
  {Op::id, #id, mn, TypeClass::tc, Family::fam, Timing::timing, sig, OpStatus::status},
#include "isa/ptx/opcodes.def"
#undef PTX_OP
};

#define PTX_FAMILY_EXISTS_Yes true
#define PTX_FAMILY_EXISTS_No false
constexpr FamilyInfo kFamilies[] = {
#define PTX_FAMILY(id, section, exists) {Family::id, #id, section, PTX_FAMILY_EXISTS_##exists},
#include "isa/ptx/families.def"
#undef PTX_FAMILY
};

constexpr SRegInfo kSRegs[] = {
#define PTX_SREG(id, sp, type, varying) {SReg::id, sp, Type::type, SRegVarying::varying},
#include "isa/ptx/special_regs.def"
#undef PTX_SREG
};

// Rows are looked up by mnemonic; several rows (add_int, add_float, add_half) share one.
const std::unordered_multimap<std::string_view, const OpInfo*>& mnemonic_map() {
  static const auto* m = [] {
    auto* r = new std::unordered_multimap<std::string_view, const OpInfo*>;
    for (const OpInfo& i : kOps) r->emplace(i.mnemonic, &i);
    return r;
  }();
  return *m;
}

bool class_accepts(TypeClass c, Type t) {
  switch (c) {
    case TypeClass::Any: return true;
    case TypeClass::Half: return is_half(t);
    case TypeClass::Float: return is_float(t) && !is_half(t);
    case TypeClass::Int: return is_integer(t);
  }
  return false;
}

}  // namespace

std::optional<Type> parse_type(std::string_view name) {
  static const auto* m = [] {
    auto* r = new std::unordered_map<std::string_view, Type>;
    for (const TypeInfo& i : kTypeInfo)
      if (i.type != Type::None) r->emplace(i.name, i.type);
    return r;
  }();
  auto it = m->find(name);
  if (it == m->end()) return std::nullopt;
  return it->second;
}

const ModInfo& mod_info(Mod m) { return kMods[static_cast<int>(m)]; }

std::optional<Mod> parse_mod(std::string_view name) {
  static const auto* m = [] {
    auto* r = new std::unordered_map<std::string_view, Mod>;
    for (const ModInfo& i : kMods) r->emplace(i.spelling, i.mod);
    return r;
  }();
  auto it = m->find(name);
  if (it == m->end()) return std::nullopt;
  return it->second;
}

std::string_view rounding_name(Rounding r) {
  constexpr std::string_view n[] = {"", "rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi", "rs"};
  return n[static_cast<int>(r)];
}
std::string_view cmp_name(CmpOp c) {
  constexpr std::string_view n[] = {"",    "eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                    "lo",  "ls",  "hi",  "hs",  "equ", "neu", "ltu",
                                    "leu", "gtu", "geu", "num", "nan"};
  return n[static_cast<int>(c)];
}
std::string_view space_name(Space s) {
  constexpr std::string_view n[] = {"generic", "global", "shared",      "shared::cta",
                                    "shared::cluster", "local", "const", "param",
                                    "param::entry", "param::func", "tex"};
  return n[static_cast<int>(s)];
}
std::string_view sem_name(Sem s) {
  constexpr std::string_view n[] = {"", "weak", "volatile", "relaxed", "acquire",
                                    "release", "acq_rel", "sc", "mmio"};
  return n[static_cast<int>(s)];
}
std::string_view scope_name(Scope s) {
  constexpr std::string_view n[] = {"", "cta", "cluster", "gpu", "sys"};
  return n[static_cast<int>(s)];
}

const OpInfo& op_info(Op op) { return kOps[static_cast<int>(op)]; }
std::span<const OpInfo> all_ops() { return kOps; }
const FamilyInfo& family_info(Family f) { return kFamilies[static_cast<int>(f)]; }

bool is_mnemonic(std::string_view mnemonic) { return mnemonic_map().count(mnemonic) != 0; }

const OpInfo* find_op(std::string_view mnemonic, Type first_type) {
  auto [b, e] = mnemonic_map().equal_range(mnemonic);
  const OpInfo* any = nullptr;
  const OpInfo* best = nullptr;
  for (auto it = b; it != e; ++it) {
    const OpInfo* i = it->second;
    if (i->type_class == TypeClass::Any) {
      any = i;
    } else if (first_type != Type::None && class_accepts(i->type_class, first_type)) {
      best = i;
    }
  }
  return best ? best : any;
}

std::vector<const OpInfo*> rows_with_mnemonic(std::string_view mnemonic) {
  std::vector<const OpInfo*> r;
  for (const OpInfo& i : kOps)
    if (i.mnemonic == mnemonic) r.push_back(&i);
  return r;
}

const SRegInfo& sreg_info(SReg s) { return kSRegs[static_cast<int>(s)]; }

const Function* Module::find_function(std::string_view name) const {
  int32_t i = function_index(name);
  return i < 0 ? nullptr : &functions[i];
}

int32_t Module::function_index(std::string_view name) const {
  // Prefer a definition over a prototype of the same name.
  int32_t decl = -1;
  for (size_t i = 0; i < functions.size(); ++i) {
    if (functions[i].name != name) continue;
    if (functions[i].has_body) return static_cast<int32_t>(i);
    decl = static_cast<int32_t>(i);
  }
  return decl;
}

std::string_view Module::file_name(uint32_t file) const {
  for (const auto& [n, path] : files)
    if (n == file) return path;
  return {};
}

}  // namespace tcsim::isa::ptx
