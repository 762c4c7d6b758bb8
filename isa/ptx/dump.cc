// IR dump (see dump.h). Format, per function:
//   func <name> entry|func [decl]
//     param <name> .<type> size S align A role R
//     reg   <name> .<type>          (declaration order)
//     local <name> <space> size S align A
//     label <name> -> <index>
//     <index>: [@[!]p] <row-ident> [.types] [rnd= cmp= space= sem= scope= vec=] [mods] | operands   ; L<line> [cuda f:l:c]
#include "isa/ptx/dump.h"

#include <fmt/format.h>

namespace tcsim::isa::ptx {
namespace {

std::string role_name(ParamRole r) {
  switch (r) {
    case ParamRole::None: return "none";
    case ParamRole::KernelParam: return "kernel";
    case ParamRole::FuncParam: return "func";
    case ParamRole::FuncRetval: return "retval";
    case ParamRole::CallSite: return "callsite";
  }
  return "?";
}

std::string symbol_line(const Symbol& s) {
  std::string r = fmt::format("{} {} .{} size {} align {}", s.name, space_name(s.space),
                              type_name(s.type), s.size, s.align);
  if (s.unsized) r += " unsized";
  if (s.is_extern) r += " extern";
  if (s.ptr) r += " ptr";
  if (s.role != ParamRole::None) r += fmt::format(" role {}", role_name(s.role));
  if (!s.init.empty()) {
    r += " init";
    size_t n = std::min<size_t>(s.init.size(), 16);
    for (size_t i = 0; i < n; ++i) r += fmt::format(" {:02x}", s.init[i]);
    if (n < s.init.size()) r += " ...";
  }
  for (const Reloc& rl : s.relocs)
    r += fmt::format(" reloc@{}={}{}{}{:+}", rl.offset, rl.generic ? "generic:" : "",
                     rl.is_function ? "func#" : "sym#", rl.symbol, rl.addend);
  return r;
}

}  // namespace

std::string dump_operand(const Module& m, const Function& f, const Operand& o) {
  const char* neg = o.negate ? "!" : "";
  switch (o.kind) {
    case OperandKind::Reg: {
      std::string sel;
      if (o.has_selector()) {
        sel = fmt::format(".{}", o.sel_kind);
        for (int i = 0; i < o.sel_n; ++i) sel += static_cast<char>('0' + o.sel_digit(i));
      }
      return fmt::format("{}{}{}{}", neg, o.minus ? "-" : "", f.regs[o.reg].name, sel);
    }
    case OperandKind::Imm:
      if (o.imm_kind == ImmKind::F32) return fmt::format("f32:0x{:08x}", static_cast<uint32_t>(o.imm));
      if (o.imm_kind == ImmKind::F64) return fmt::format("f64:0x{:016x}", static_cast<uint64_t>(o.imm));
      return std::to_string(o.imm);
    case OperandKind::SReg: return std::string(sreg_info(o.sreg).spelling);
    case OperandKind::Symbol:
      return fmt::format("{}{}", m.symbols[o.index].name, o.imm ? fmt::format("{:+}", o.imm) : "");
    case OperandKind::Func: return fmt::format("func:{}", m.functions[o.index].name);
    case OperandKind::Label: return fmt::format("@{}", o.index);
    case OperandKind::BranchTable: return fmt::format("table:{}", f.branch_tables[o.index].name);
    case OperandKind::Prototype: return fmt::format("proto:{}", f.prototypes[o.index].name);
    case OperandKind::Sink: return "_";
    case OperandKind::Vector:
    case OperandKind::ParamList: {
      std::string r = o.kind == OperandKind::Vector ? "{" : "(";
      for (size_t i = 0; i < o.elems.size(); ++i)
        r += fmt::format("{}{}", i ? ", " : "", dump_operand(m, f, o.elems[i]));
      return r + (o.kind == OperandKind::Vector ? "}" : ")");
    }
    case OperandKind::Pair:
      return fmt::format("{}|{}", dump_operand(m, f, o.elems[0]), dump_operand(m, f, o.elems[1]));
    case OperandKind::Address: {
      std::string r = "[";
      const Operand* b = o.address_base();
      if (b) r += dump_operand(m, f, *b);
      if (b && o.imm) r += fmt::format("{:+}", o.imm);
      if (!b) r += std::to_string(o.imm);
      if (o.elems.size() > 1) r += fmt::format(", {}", dump_operand(m, f, o.elems[1]));
      return r + "]";
    }
  }
  return "?";
}

std::string dump_instr(const Module& m, const Function& f, const Instr& in) {
  std::string r;
  if (in.guard != kNoReg) r += fmt::format("@{}{} ", in.guard_negated ? "!" : "", f.regs[in.guard].name);
  r += op_info(in.op).ident;
  for (int i = 0; i < in.ntypes; ++i) r += fmt::format(".{}", type_name(in.types[i]));
  if (in.rnd != Rounding::None) r += fmt::format(" rnd={}", rounding_name(in.rnd));
  if (in.cmp != CmpOp::None) r += fmt::format(" cmp={}", cmp_name(in.cmp));
  for (int i = 0; i < in.nspaces; ++i) r += fmt::format(" space={}", space_name(in.spaces[i]));
  if (in.sem != Sem::None) r += fmt::format(" sem={}", sem_name(in.sem));
  if (in.scope != Scope::None) r += fmt::format(" scope={}", scope_name(in.scope));
  if (in.vec != 1) r += fmt::format(" vec={}", in.vec);
  std::string other;
  for (Mod md : in.mods) {
    ModCategory c = mod_info(md).category;
    if (c == ModCategory::Other) other += fmt::format(".{}", mod_name(md));
  }
  if (!other.empty()) r += fmt::format(" {}", other);
  r += " |";
  for (size_t i = 0; i < in.ops.size(); ++i) r += fmt::format("{}{}", i ? ", " : " ", dump_operand(m, f, in.ops[i]));
  r += fmt::format("   ; L{}", in.loc.line);
  if (in.cuda.file) r += fmt::format(" cuda {}:{}:{}", in.cuda.file, in.cuda.line, in.cuda.col);
  if (in.cuda.inlined_file)
    r += fmt::format(" inlined_at {}:{}:{}", in.cuda.inlined_file, in.cuda.inlined_line, in.cuda.inlined_col);
  if (in.cuda.depth > 1)
    r += fmt::format(" outer {}:{}:{} depth {}", in.cuda.outer_file, in.cuda.outer_line, in.cuda.outer_col, in.cuda.depth);
  return r;
}

std::string cuda_location(const Module& m, const CudaLoc& l) {
  auto base = [&](uint32_t file) {
    std::string_view p = m.file_name(file);
    auto slash = p.rfind('/');
    return std::string(slash == std::string_view::npos ? p : p.substr(slash + 1));
  };
  if (!l.file || !l.line) return {};
  // The kernel's own line (the outermost call site of an inlining chain) first, then the innermost
  // line the instruction comes from; with more than one level, the call site the kernel's line
  // calls into is named too ("k.cu:143 via k.cu:80 > common.h:48", depth 2; a deeper chain names
  // the innermost call site and says how deep it is: "k.cu:355 via ... > util.hpp:185 >
  // copy_sm100.hpp:3392 (7 levels)").
  if (l.inlined_file && l.inlined_line) {
    const uint32_t of = l.outer_file ? l.outer_file : l.inlined_file;
    const uint32_t ol = l.outer_file ? l.outer_line : l.inlined_line;
    if (l.depth <= 1 || (of == l.inlined_file && ol == l.inlined_line))
      return fmt::format("{}:{} via {}:{}", base(of), ol, base(l.file), l.line);
    if (l.depth == 2)
      return fmt::format("{}:{} via {}:{} > {}:{}", base(of), ol, base(l.inlined_file), l.inlined_line,
                         base(l.file), l.line);
    return fmt::format("{}:{} via ... > {}:{} > {}:{} ({} levels)", base(of), ol, base(l.inlined_file),
                       l.inlined_line, base(l.file), l.line, l.depth);
  }
  return fmt::format("{}:{}", base(l.file), l.line);
}

std::string dump(const Module& m) {
  std::string r = fmt::format("module {} version {}.{} target {}{} address_size {}\n",
                              m.source_name, m.version_major, m.version_minor, m.target,
                              m.debug ? " debug" : "", m.address_size);
  for (const auto& [n, path] : m.files) r += fmt::format("file {} {}\n", n, path);
  for (const Symbol& s : m.symbols)
    if (s.function < 0) r += fmt::format("var {}\n", symbol_line(s));
  for (const Function& f : m.functions) {
    r += fmt::format("func {} {}{}\n", f.name, f.is_entry ? "entry" : "func", f.has_body ? "" : " decl");
    const PerfDirectives& p = f.perf;
    if (p.maxntid[0]) r += fmt::format("  maxntid {} {} {}\n", p.maxntid[0], p.maxntid[1], p.maxntid[2]);
    if (p.reqntid[0]) r += fmt::format("  reqntid {} {} {}\n", p.reqntid[0], p.reqntid[1], p.reqntid[2]);
    if (p.reqnctapercluster[0])
      r += fmt::format("  reqnctapercluster {} {} {}\n", p.reqnctapercluster[0], p.reqnctapercluster[1], p.reqnctapercluster[2]);
    if (p.minnctapersm) r += fmt::format("  minnctapersm {}\n", p.minnctapersm);
    if (p.maxnreg) r += fmt::format("  maxnreg {}\n", p.maxnreg);
    if (p.explicitcluster) r += "  explicitcluster\n";
    for (uint32_t s : f.retvals) r += fmt::format("  retval {}\n", symbol_line(m.symbols[s]));
    for (uint32_t s : f.params) r += fmt::format("  param {}\n", symbol_line(m.symbols[s]));
    for (const Register& reg : f.regs) r += fmt::format("  reg {} .{}\n", reg.name, type_name(reg.type));
    for (uint32_t s : f.locals) r += fmt::format("  local {}\n", symbol_line(m.symbols[s]));
    for (const std::string& pr : f.pragmas) r += fmt::format("  pragma \"{}\"\n", pr);
    for (const auto& [name, idx] : f.labels) r += fmt::format("  label {} -> {}\n", name, idx);
    for (const BranchTable& bt : f.branch_tables) {
      r += fmt::format("  branchtargets {} ->", bt.name);
      for (uint32_t t : bt.targets) r += fmt::format(" {}", t);
      r += "\n";
    }
    for (const Prototype& pt : f.prototypes)
      r += fmt::format("  callprototype {} ({} ret, {} params)\n", pt.name, pt.retvals.size(), pt.params.size());
    for (size_t i = 0; i < f.instrs.size(); ++i)
      r += fmt::format("  {:4}: {}\n", i, dump_instr(m, f, f.instrs[i]));
  }
  return r;
}

}  // namespace tcsim::isa::ptx
