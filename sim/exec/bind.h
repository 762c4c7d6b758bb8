// Binding: how a family turns one decoded PTX instruction into an ExecInstr. Each family file
// sim/exec/<family>.cc defines `void bind_<family>(BindCtx&)` which validates the form, chooses a
// specialised execute function (templates instantiated per type/modifier) and resolves operands
// into register/immediate references. Illegal PTX is rejected here, at load, with its line;
// forms a family does not implement yet call not_implemented(), which binds an execute function
// that fails when (and only if) the instruction runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/ptx/ir.h"
#include "sim/program.h"

namespace tcsim::sim {

// Where a PTX variable lives once bound.
struct SymLoc {
  enum Kind : uint8_t { None, Global, Shared, Frame, KernelParam } kind = None;
  int64_t off = 0;  // global address, shared offset, frame offset or parameter-buffer offset
};

struct BindTables {
  std::vector<SymLoc> sym;                        // per module symbol
  std::vector<std::vector<uint32_t>> reg_slot;    // per isa function: register -> slot / pred index
  std::vector<std::vector<uint32_t>> ipdom;       // per isa function: instruction -> post-dominator
};

class BindCtx {
 public:
  BindCtx(Program& prog, const isa::ptx::Module& m, uint32_t fidx, uint32_t iidx, uint32_t layout,
          const BindTables& t, const LoadedSymbols& syms, const std::string& source_name, ExecInstr& out)
      : prog(prog), m(m), f(m.functions[fidx]), in(f.instrs[iidx]), out(out), fidx_(fidx), layout_(layout),
        t_(t), syms_(syms), source_name_(source_name) {}

  Program& prog;
  const isa::ptx::Module& m;
  const isa::ptx::Function& f;
  const isa::ptx::Instr& in;
  ExecInstr& out;

  // Load-time rejection of illegal PTX: "<file>:<line>: `<instr>`: <what>".
  [[noreturn]] void fail(const std::string& what) const;
  // Binds an execute function that reports "<instr> is not implemented yet (<why>)" when run.
  void not_implemented(const std::string& why);

  // ---- typed views ----
  // The i-th type suffix. Reading it is how a binder accepts it: after the binder, a type suffix it
  // never read is an error ("add.s32.s32", "and.b32.b8", "bra.u32": ptxas's "Unexpected instruction
  // types"), see bind_program.
  isa::ptx::Type type(int i = 0) const {
    if (i + 1 > types_read_) types_read_ = i + 1;
    return in.type(i);
  }
  int types_read() const { return types_read_; }
  // The instruction's one type suffix, which must be one of `allowed` (Type::None in the list: the
  // suffix may be left out); else "`mnem` takes .t1 or .t2".
  isa::ptx::Type need_type(std::initializer_list<isa::ptx::Type> allowed) const;
  bool has(isa::ptx::Mod md) const { return in.has(md); }
  size_t nops() const { return in.ops.size(); }
  const isa::ptx::Operand& operand(int i) const;
  // Rejects modifiers outside `allowed` (typed categories are checked by the caller).
  void only_mods(std::initializer_list<isa::ptx::Mod> allowed) const;

  // ---- operands ----
  // Declared width in bits of register operand i (1 for .pred).
  int reg_bits(const isa::ptx::Operand& o) const;
  bool is_pred_reg(const isa::ptx::Operand& o) const;
  // A register destination (or `_` -> the sink slot). `bits`: the instruction's operand width;
  // the register must be exactly that wide unless `wider_ok` (ld/st/cvt, PTX ISA §6.4.4).
  Ref dst(int i, int bits, bool wider_ok = false) const;
  Ref dst_of(const isa::ptx::Operand& o, int bits, bool wider_ok = false) const;
  // A value source read as type `t` (register, immediate, special register, symbol or function
  // address). Immediates are converted to t's bit pattern (decimal float literals round to t).
  Ref src(int i, isa::ptx::Type t, bool wider_ok = false);
  Ref src_of(const isa::ptx::Operand& o, isa::ptx::Type t, bool wider_ok = false);
  // A register operand's declared kind against the operand type t (no-op for other operands and
  // for bit, predicate and half types).
  void check_reg_kind(const isa::ptx::Operand& o, isa::ptx::Type t, std::string_view role) const;
  Ref pred_dst(int i) const;
  Ref pred_dst_of(const isa::ptx::Operand& o) const;
  Ref pred_src(int i, bool* negated) const;
  Ref imm(uint64_t bits);  // a broadcast immediate
  // The executing CTA's shared address of `offset`, `bits` wide (Program::smem_value_slots).
  Ref shared_value(uint32_t offset, int bits);
  // A memory operand resolved for `space` (Generic resolves variables to generic addresses).
  ExecOperand address(int i, isa::ptx::Space space) const;
  // Appends complex operands; returns the index of the first.
  uint32_t push(const ExecOperand& e);
  uint32_t label_pc(int i) const;  // branch target
  uint32_t pc() const;             // this instruction's pc
  // pc where lanes split by this instruction meet again (0xffffffff: only at the function's end).
  uint32_t reconverge_pc() const;
  const SymLoc& sym(uint32_t symbol) const { return t_.sym[symbol]; }
  uint32_t layout() const { return layout_; }
  const LoadedSymbols& loaded() const { return syms_; }
  const BindTables& tables() const { return t_; }
  uint32_t fidx() const { return fidx_; }
  std::string text() const;  // the instruction as PTX-like text (diagnostics)

 private:
  mutable int types_read_ = 0;
  uint32_t fidx_;
  uint32_t layout_;
  const BindTables& t_;
  const LoadedSymbols& syms_;
  const std::string& source_name_;
};

// Integer value of a bit pattern converted to the width of type t (zero-extended).
uint64_t truncate_to(isa::ptx::Type t, uint64_t v);

// Family binders (generated declarations).
#define PTX_FAMILY(id, section, exists) PTX_FAMILY_DECL_##exists(id)
#define PTX_FAMILY_DECL_Yes(id) void bind_##id(BindCtx& b);
#define PTX_FAMILY_DECL_No(id)
#include "isa/ptx/families.def"
#undef PTX_FAMILY
#undef PTX_FAMILY_DECL_Yes
#undef PTX_FAMILY_DECL_No

// The binder of an opcode-table row: nullptr for Todo rows.
using BindFn = void (*)(BindCtx&);
BindFn binder_for(isa::ptx::Op op);

// Execute function bound for instructions that are not implemented: fails naming the instruction.
void exec_not_implemented(ExecCtx& ctx, const ExecInstr& in);
// The implicit `ret` after the last instruction of every function body.
void exec_implicit_ret(ExecCtx& ctx, const ExecInstr& in);

}  // namespace tcsim::sim
