// The PTX IR: a module parsed and resolved once (isa::ptx::parse), then bound by the simulator.
// Registers are dense per-function indices, labels are instruction indices, immediates are bit
// patterns, modifiers are enums — nothing is looked up by name after parsing.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/ptx/modifiers.h"
#include "isa/ptx/opcodes.h"
#include "isa/ptx/types.h"

namespace tcsim::isa::ptx {

// Special registers (special_regs.def).
enum class SReg : uint8_t {
#define PTX_SREG(id, sp, type, varying) id,
#include "isa/ptx/special_regs.def"
#undef PTX_SREG
  Count_
};
enum class SRegVarying : uint8_t { Warp, Clock };
struct SRegInfo {
  SReg sreg;
  std::string_view spelling;  // "%tid.x"
  Type type;
  SRegVarying varying;
};
const SRegInfo& sreg_info(SReg s);

// Where an instruction or declaration sits in the PTX text (1-based; 0 = unknown).
struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;
};

// The CUDA source position from the latest `.loc` before an instruction (PTX ISA §11.x "Debugging
// directives"). file indexes Module::files; 0 = no .loc seen. For inlined code `inlined_*` names
// the call site in the caller (`.loc ..., inlined_at F L C`), and `outer_*` the outermost call site
// of the inlining chain (the kernel's own source line), resolved by the parser: nvcc emits a
// `.loc` for each call site of the chain, itself carrying its caller's `inlined_at`, before the
// inlined callee's (isa/ptx/parser.cc parse_loc). depth counts the levels (0 = not inlined).
struct CudaLoc {
  uint32_t file = 0, line = 0, col = 0;
  uint32_t inlined_file = 0, inlined_line = 0, inlined_col = 0;
  uint32_t outer_file = 0, outer_line = 0, outer_col = 0;
  uint32_t depth = 0;
};

using RegId = uint32_t;
inline constexpr RegId kNoReg = 0xffffffffu;

struct Register {
  std::string name;
  Type type;  // declared type (.pred, .b32, .f64, ...)
};

enum class Linkage : uint8_t { None, Visible, Extern, Weak, Common };

// What a .param symbol is for (PTX ISA §5.1.6, §7 "Abstracting the ABI").
enum class ParamRole : uint8_t { None, KernelParam, FuncParam, FuncRetval, CallSite };

// A relocation in an initializer: bytes [offset, offset+8) hold the address of `symbol` (+addend),
// generic when written `generic(sym)` (PTX ISA §5.4.4 "Initializers").
struct Reloc {
  uint64_t offset;
  uint32_t symbol;  // module symbol index, or function index when `is_function`
  int64_t addend;
  bool generic;
  bool is_function;
};

struct Symbol {
  std::string name;
  Space space = Space::Generic;  // Global, Const, Shared, Local, Param (Tex for texrefs)
  Type type = Type::None;        // element type as declared
  uint64_t size = 0;             // bytes; 0 for an unsized extern array (dynamic shared memory)
  uint32_t align = 1;            // bytes
  bool is_extern = false;
  bool unsized = false;          // `name[]`
  Linkage linkage = Linkage::None;
  ParamRole role = ParamRole::None;
  bool ptr = false;              // `.param .u64 .ptr` (kernel pointer parameter)
  int32_t function = -1;         // owning function; -1 = module scope
  std::vector<uint8_t> init;     // initializer bytes (empty = none; zero-filled otherwise)
  std::vector<Reloc> relocs;
  SourceLoc loc;
};

enum class OperandKind : uint8_t {
  Reg,          // reg
  Imm,          // imm (bits), imm_kind
  SReg,         // sreg
  Symbol,       // index: module symbol (value = its address in its space)
  Func,         // index: function (call target, or its address for mov / indirect call)
  Label,        // index: target instruction
  BranchTable,  // index: Function::branch_tables
  Prototype,    // index: Function::prototypes
  Sink,         // `_`
  Vector,       // elems
  Pair,         // elems[0] | elems[1]   (setp p|q, shfl d|p, elect _|P)
  Address,      // [elems[0] + imm] ; elems[0] may be absent (absolute) ; elems[1]: coordinate Vector
  ParamList,    // ( elems ) in call
};

enum class ImmKind : uint8_t { Int, F32, F64 };  // F32/F64: imm holds the IEEE bit pattern

struct Operand {
  OperandKind kind = OperandKind::Sink;
  bool negate = false;  // `!p`
  bool minus = false;   // `-a` (video instructions: vmad, PTX ISA §9.7.17.1)
  // Sub-word selector of a register operand (video instructions, PTX ISA §9.7.17):
  // a.b0..a.b3, a.h0/a.h1 (scalar), d.h10 / d.b3210 masks and a.hxy / a.bxyzw permutations (SIMD).
  // sel_kind 0: none, 'b' or 'h'; sel_digits: the digits in source order, 3 bits each.
  char sel_kind = 0;
  uint8_t sel_n = 0;
  uint16_t sel_digits = 0;
  ImmKind imm_kind = ImmKind::Int;
  bool imm_decimal = false;  // a decimal float literal (1.5, 1e3): legal only for float types
  SReg sreg{};
  RegId reg = kNoReg;
  uint32_t index = 0;
  int64_t imm = 0;
  std::vector<Operand> elems;
  SourceLoc loc;

  bool has_selector() const { return sel_kind != 0; }
  int sel_digit(int i) const { return (sel_digits >> (3 * i)) & 7; }
  const Operand* address_base() const {
    return kind == OperandKind::Address && !elems.empty() && elems[0].kind != OperandKind::Sink
               ? &elems[0] : nullptr;
  }
};

struct Instr {
  Op op = Op::Count_;
  RegId guard = kNoReg;  // @p / @!p
  bool guard_negated = false;
  std::vector<Mod> mods;  // every modifier in source order (types excluded)
  std::array<Type, 4> types{};
  uint8_t ntypes = 0;
  // Typed view of the modifiers (opcodes that use them; None/Generic when absent).
  Rounding rnd = Rounding::None;
  CmpOp cmp = CmpOp::None;
  std::array<Space, 2> spaces{};
  uint8_t nspaces = 0;
  Sem sem = Sem::None;
  Scope scope = Scope::None;
  uint8_t vec = 1;  // .v2/.v4/.v8
  std::vector<Operand> ops;
  SourceLoc loc;
  CudaLoc cuda;

  bool has(Mod m) const {
    for (Mod x : mods)
      if (x == m) return true;
    return false;
  }
  Type type(int i = 0) const { return i < ntypes ? types[i] : Type::None; }
  Space space(int i = 0) const { return i < nspaces ? spaces[i] : Space::Generic; }
};

struct BranchTable {
  std::string name;
  std::vector<uint32_t> targets;  // instruction indices
};

struct Prototype {
  std::string name;
  std::vector<Symbol> retvals;  // name-less .param descriptions (size, align, type)
  std::vector<Symbol> params;
};

// Performance-tuning directives (PTX ISA §11.4); 0 = absent.
struct PerfDirectives {
  std::array<uint32_t, 3> maxntid{}, reqntid{}, reqnctapercluster{};
  uint32_t minnctapersm = 0, maxnreg = 0, maxclusterrank = 0;
  bool explicitcluster = false, noreturn = false;
};

struct Function {
  std::string name;
  bool is_entry = false;
  bool has_body = false;
  Linkage linkage = Linkage::None;
  std::vector<uint32_t> params;   // module symbol indices, declaration order
  std::vector<uint32_t> retvals;  // .func return parameters
  std::vector<uint32_t> locals;   // symbols declared in the body (.local, .shared, .param call-site)
  std::vector<Register> regs;
  std::vector<Instr> instrs;
  std::vector<std::pair<std::string, uint32_t>> labels;  // name -> instruction index, in order
  std::vector<BranchTable> branch_tables;
  std::vector<Prototype> prototypes;
  std::vector<std::string> pragmas;
  PerfDirectives perf;
  SourceLoc loc;
};

struct Module {
  std::string source_name;
  uint32_t version_major = 0, version_minor = 0;
  std::string target;  // "sm_100a"
  bool debug = false;  // `.target ..., debug`
  uint32_t address_size = 64;
  std::vector<Symbol> symbols;  // every variable/parameter, module and function scope
  std::vector<Function> functions;
  std::vector<std::pair<uint32_t, std::string>> files;  // .file number -> path

  const Function* find_function(std::string_view name) const;
  int32_t function_index(std::string_view name) const;  // -1 if absent
  std::string_view file_name(uint32_t file) const;  // "" if unknown
};

}  // namespace tcsim::isa::ptx
